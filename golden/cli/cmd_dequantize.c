/* cmd_dequantize.c -- mxgold dequantize: each stdin line, a scale code and K element codes, to
 * K values in the output format (libmxgold mx_dequantize).
 * SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include "cli.h"

typedef struct
{
  const mx_format *elem, *out, *sf;
  size_t k;
  mx_rounding rnd;
  int flags;
  FILE *o;
  uint64_t *codes, *res;
} ctx;

static int
line (void *vc, char **w, size_t n, const mxv_lines *at)
{
  ctx *c = vc;
  uint64_t scale;
  unsigned fl;
  if (n != c->k + 1)
    return mxv_lines_error (at, "expected 1 scale code and %zu element codes (hex), got %zu words",
                            c->k, n);
  int rc = cli_hex_words (w, 1, c->sf->bits, &scale, at, 0, "scale code");
  if (rc == 0)
    rc = cli_hex_words (w + 1, n - 1, c->elem->bits, c->codes, at, 1, "element code");
  if (rc)
    return rc;
  if (mx_dequantize (c->res, &fl, c->out, scale, c->codes, c->elem, c->sf, c->k, c->rnd) != MX_OK)
    return mxv_lines_error (at, "internal error: the golden model rejected the block");
  for (size_t i = 0; i < c->k; i++)
    fprintf (c->o, i ? " %0*llX" : "%0*llX", mx_hex_digits (c->out->bits),
             (unsigned long long) c->res[i]);
  if (c->flags)
    fprintf (c->o, " %02X", fl);
  fputc ('\n', c->o);
  return 0;
}

static int
run (cli_args *a)
{
  ctx c;
  c.elem = cli_format (a, O_FORMAT, ROLE (MX_ROLE_ELEM), NULL);
  c.out = cli_format (a, O_OUTPUT_FORMAT, ROLE (MX_ROLE_IEEE), "fp32");
  c.sf = cli_format (a, O_SCALE_FORMAT, ROLE (MX_ROLE_SCALE), "e8m0");
  c.k = (size_t) cli_uint (a, O_BLOCK, 1, MXV_MAX_K, MX_BLOCK);
  c.rnd = MX_RNE;
  if (a->v[O_ROUNDING])
    {
      int r = mx_rounding_parse (a->v[O_ROUNDING]);
      if (r < 0 || r == MX_SR)
        cli_usage_error (a, "--rounding wants a deterministic mode (rne rna rnz rtz rup rdn rto), "
                            "not '%s'", a->v[O_ROUNDING]);
      c.rnd = (mx_rounding) r;
    }
  c.flags = a->v[O_FLAGS] != NULL;
  c.codes = malloc (c.k * sizeof *c.codes);
  c.res = malloc (c.k * sizeof *c.res);
  if (!c.codes || !c.res)
    cli_usage_error (a, "out of memory");
  c.o = cli_out_open (a);
  int rc = cli_each_line (a, line, &c);
  if (rc != 0)
    cli_out_discard ();
  else
    rc = cli_out_close (a);
  free (c.codes);
  free (c.res);
  return rc;
}

static const int options[] = { O_FORMAT, O_BLOCK, O_OUTPUT_FORMAT, O_SCALE_FORMAT, O_ROUNDING,
                               O_FLAGS, O_OUTPUT, 0 };

const cli_command cli_dequantize = {
  "dequantize", "Dequantize blocks: each stdin line is 'SS E0 ... E(K-1)' (hex); each output "
  "line holds the K values X * P_i as bit patterns of the output format [flags].",
  "--format F [OPTIONS] < INPUT",
  "Each value is rounded once, by --rounding, only where the output format cannot hold it;\n"
  "overflow follows IEEE 754.  A NaN scale gives NaN for every element (OCP 5.1).\n"
  "Malformed input: 'stdin:LINE: ...' and exit 2.  Exit 1: the output could not be written.",
  options, 0, run
};
