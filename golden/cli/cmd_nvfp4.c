/* cmd_nvfp4.c -- mxgold nvfp4: each stdin line, one tensor row of N input bit patterns, to its
 * NVFP4 quantization as TransformerEngine computes it (libmxgold mx_nvfp4_amax,
 * mx_nvfp4_global_scale, mx_quantize_nvfp4; docs/semantics.md section 9).
 * SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include "cli.h"

typedef struct
{
  const mx_format *in;
  size_t n;
  mx_rounding rnd;
  uint32_t *rbits;
  int flags;
  uint64_t *bits, *scales, *codes;
} ctx;

static int
line (void *vc, FILE *o, char **w, size_t n, const mxv_lines *at)
{
  ctx *c = vc;
  uint64_t amax, senc;
  unsigned fl;
  if (n != c->n)
    return mxv_lines_error (at, "expected %zu hex words (%s bit patterns, one row), got %zu",
                            c->n, c->in->name, n);
  int rc = cli_hex_words (w, n, c->in->bits, c->bits, at, 0, "bit pattern");
  if (rc)
    return rc;
  /* the row's own amax, as TE's amax kernel gives it */
  if (mx_nvfp4_amax (&amax, c->in, c->bits, n) != MX_OK
      || mx_nvfp4_global_scale (&senc, amax) != MX_OK
      || mx_quantize_nvfp4 (c->scales, c->codes, &fl, c->in, c->bits, 1, n, amax, 0,
                            c->rnd == MX_SR ? c->rbits : NULL, c->rnd) != MX_OK)
    return mxv_lines_error (at, "internal error: the golden model rejected the row");
  cli_put_words (o, &amax, 1, 32, 1);
  cli_put_words (o, &senc, 1, 32, 0);
  cli_put_words (o, c->scales, n / MX_NVFP4_BLOCK, 8, 0);
  cli_put_words (o, c->codes, n, 4, 0);
  cli_end_line (o, c->flags, fl);
  return 0;
}

static int
run (cli_args *a)
{
  ctx c;
  char q[64];
  c.in = cli_format (a, O_INPUT, ROLE (MX_ROLE_IEEE), "fp32");
  if (c.in->id == MX_FP64)
    cli_usage_error (a, "--input wants fp32, bf16 or fp16 (TransformerEngine's inputs), not fp64");
  c.n = (size_t) cli_uint (a, O_COLS, MX_NVFP4_BLOCK, MXV_MAX_K, MX_NVFP4_BLOCK);
  if (c.n % MX_NVFP4_BLOCK)
    cli_usage_error (a, "--cols wants a multiple of 16, not %zu", c.n);
  c.rnd = MX_RNE;
  if (a->v[O_ROUNDING])
    {
      int r = mx_rounding_parse (a->v[O_ROUNDING]);
      if (r != MX_RNE && r != MX_SR)
        cli_usage_error (a, "--rounding wants rne or sr (TransformerEngine's modes), not '%s'",
                         mxv_quote (q, sizeof q, a->v[O_ROUNDING]));
      c.rnd = (mx_rounding) r;
    }
  c.flags = a->v[O_FLAGS] != NULL;
  c.rbits = cli_alloc (a, c.n, sizeof *c.rbits);
  c.bits = cli_alloc (a, c.n, sizeof *c.bits);
  c.codes = cli_alloc (a, c.n, sizeof *c.codes);
  c.scales = cli_alloc (a, c.n / MX_NVFP4_BLOCK, sizeof *c.scales);
  cli_random_bits (a, c.rnd, c.rbits, c.n);
  int rc = cli_filter (a, line, &c);
  free (c.rbits);
  free (c.bits);
  free (c.codes);
  free (c.scales);
  return rc;
}

static const int options[] = { O_INPUT, O_COLS, O_ROUNDING, O_RANDOM_BITS, O_FLAGS, O_OUTPUT, 0 };

const cli_command cli_nvfp4 = {
  "nvfp4", "NVFP4 quantization (TransformerEngine): each stdin line is one row of N input bit "
  "patterns (hex); each output line is 'AMAX S_ENC SC0 ... E0 ... E(N-1)' [flags].",
  "[--cols N] [OPTIONS] < INPUT",
  "AMAX is the row's amax and S_ENC the encode scale 2688/amax (FP32, 8 hex digits); then one\n"
  "E4M3 scale per 16 values (2 digits) and one E2M1 code per value (2 digits).  Each line is\n"
  "a tensor of its own (its amax from that line).  --input fp32, bf16 or fp16; --rounding rne,\n"
  "or sr with --random-bits (the low 8 bits of each word are used).  Every FP32 step is TE's: docs/semantics.md\n"
  "section 9.  A malformed line prints 'stdin:LINE: what was expected' and exits 2.\n"
  "Exit 1: the output could not be written.",
  options, 0, run
};
