/* cmd_dot.c -- mxgold dot: each stdin line, n MX block pairs and an optional C_in, to the dot
 * product (libmxgold mx_dot) under an explicit accumulation model.
 * SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include "cli.h"

typedef struct
{
  const mx_format *ea, *eb, *sf, *out;
  size_t k, nb;
  mx_dot_policy dp;
  mx_rounding rnd;
  int flags;
  uint64_t sa[MXV_MAX_NB], sb[MXV_MAX_NB], *a, *b;
} ctx;

static int
line (void *vc, FILE *o, char **w, size_t n, const mxv_lines *at)
{
  ctx *c = vc;
  size_t per = 2 * c->k + 2, want = c->nb * per;
  uint64_t cin = 0, out;
  unsigned fl;
  int rc = 0;
  if (n != want && n != want + 1)
    return mxv_lines_error (at, "expected %zu block pair(s) of 'SA A0..A%zu SB B0..B%zu' (%zu hex "
                            "words), then an optional C_in; got %zu words", c->nb, c->k - 1,
                            c->k - 1, want, n);
  for (size_t j = 0; j < c->nb && rc == 0; j++)
    {
      char **p = w + j * per;
      rc = cli_hex_words (p, 1, c->sf->bits, &c->sa[j], at, j * per, "scale code");
      if (rc == 0)
        rc = cli_hex_words (p + 1, c->k, c->ea->bits, c->a + j * c->k, at, j * per + 1, "A code");
      if (rc == 0)
        rc = cli_hex_words (p + c->k + 1, 1, c->sf->bits, &c->sb[j], at, j * per + c->k + 1,
                            "scale code");
      if (rc == 0)
        rc = cli_hex_words (p + c->k + 2, c->k, c->eb->bits, c->b + j * c->k, at,
                            j * per + c->k + 2, "B code");
    }
  if (rc == 0 && n == want + 1)
    rc = cli_hex_words (w + want, 1, 32, &cin, at, want, "C_in (an fp32 bit pattern)");
  if (rc)
    return rc;
  if (mx_dot (&out, &fl, c->out, c->sa, c->a, c->ea, c->sb, c->b, c->eb, c->sf, c->k, c->nb, cin,
              &c->dp, c->rnd) != MX_OK)
    return mxv_lines_error (at, "internal error: the golden model rejected the dot product");
  cli_put_words (o, &out, 1, c->out->bits, 1);
  cli_end_line (o, c->flags, fl);
  return 0;
}

static int
run (cli_args *a)
{
  ctx c;
  size_t words;
  c.ea = cli_format (a, O_FORMAT, ROLE (MX_ROLE_ELEM), NULL);
  c.eb = cli_format (a, O_FORMAT_B, ROLE (MX_ROLE_ELEM), c.ea->name);
  c.sf = cli_format (a, O_SCALE_FORMAT, ROLE (MX_ROLE_SCALE), "e8m0");
  c.out = cli_format (a, O_OUTPUT_FORMAT, ROLE (MX_ROLE_IEEE), "fp32");
  c.k = (size_t) cli_uint (a, O_BLOCK, 1, MXV_MAX_K, MX_BLOCK);
  c.nb = (size_t) cli_uint (a, O_BLOCKS, 1, MXV_MAX_NB, 1);
  if (__builtin_mul_overflow (c.k, c.nb, &words) || words > MXV_MAX_WORDS)
    cli_usage_error (a, "--blocks x --block must be at most %d", MXV_MAX_WORDS);
  c.rnd = cli_det_rounding (a);
  c.dp = cli_dot_policy (a);
  cli_check_group (a, &c.dp, c.k);
  c.flags = a->v[O_FLAGS] != NULL;
  c.a = cli_alloc (a, words, sizeof *c.a);
  c.b = cli_alloc (a, words, sizeof *c.b);
  int rc = cli_filter (a, line, &c);
  free (c.a);
  free (c.b);
  return rc;
}

static const int options[] = { O_FORMAT, O_FORMAT_B, O_BLOCK, O_BLOCKS, O_SCALE_FORMAT,
                               O_OUTPUT_FORMAT, O_ROUNDING, O_ACCUM, O_GROUP, O_TC_PRESET, O_TC_GROUP,
                               O_TC_FRAC, O_TC_ALIGN, O_TC_OUT, O_TC_CIN, O_TC_SP, O_TC_DENORM,
                               O_FLAGS, O_OUTPUT, 0 };

const cli_command cli_dot = {
  "dot", "MX dot products (OCP MX 6.1/6.2): each stdin line holds n block pairs 'SA A0..A(k-1) "
  "SB B0..B(k-1)' and an optional C_in (fp32 bits); each output line is the result [flags].",
  "--format F [--format-b G] [OPTIONS] < INPUT",
  "The accumulation model is explicit (docs/semantics.md section 7): exact rounds once;\n"
  "block-fp32 rounds each block to FP32 and adds in FP32 (one of the RTL MAC's models); tensor-core\n"
  "takes a preset or explicit --tc-* parameters; fused-group adds each group of --group\n"
  "products to the accumulator (the output format) with one rounding, as MXDOTP does.\n"
  "--format-a is a synonym of --format.\n"
  "Malformed input: 'stdin:LINE: ...' and exit 2.  Exit 1: the output could not be written.",
  options, 0, run
};
