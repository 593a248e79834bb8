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
  uint64_t *codes, *res;
} ctx;

static int
line (void *vc, FILE *o, char **w, size_t n, const mxv_lines *at)
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
  cli_put_words (o, c->res, c->k, c->out->bits, 1);
  cli_end_line (o, c->flags, fl);
  return 0;
}

static int
run (cli_args *a)
{
  ctx c;
  cli_block_args (a, &c.elem, &c.sf, &c.k);
  c.out = cli_format (a, O_OUTPUT_FORMAT, ROLE (MX_ROLE_IEEE), "fp32");
  c.rnd = cli_det_rounding (a);
  c.flags = a->v[O_FLAGS] != NULL;
  c.codes = cli_alloc (a, c.k, sizeof *c.codes);
  c.res = cli_alloc (a, c.k, sizeof *c.res);
  int rc = cli_filter (a, line, &c);
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
