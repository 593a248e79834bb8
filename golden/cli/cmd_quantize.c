/* cmd_quantize.c -- mxgold quantize: each stdin line, one block of K input bit patterns, to its
 * scale code and K element codes (libmxgold mx_quantize).
 * SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include "cli.h"

typedef struct
{
  const mx_format *elem, *in, *sf;
  size_t k;
  mx_policy pol;
  mx_rounding rnd;
  uint32_t *rbits;
  int flags;
  uint64_t *bits, *codes;
} ctx;

static int
line (void *vc, FILE *o, char **w, size_t n, const mxv_lines *at)
{
  ctx *c = vc;
  uint64_t scale;
  unsigned fl;
  if (n != c->k)
    return mxv_lines_error (at, "expected %zu hex words (%s bit patterns, one block), got %zu",
                            c->k, c->in->name, n);
  int rc = cli_hex_words (w, n, c->in->bits, c->bits, at, 0, "bit pattern");
  if (rc)
    return rc;
  if (mx_quantize (&scale, c->codes, &fl, NULL, c->elem, c->sf, c->in, c->bits, c->k,
                   c->rnd == MX_SR ? c->rbits : NULL, &c->pol, c->rnd) != MX_OK)
    return mxv_lines_error (at, "internal error: the golden model rejected the block");
  cli_put_words (o, &scale, 1, c->sf->bits, 1);
  cli_put_words (o, c->codes, c->k, c->elem->bits, 0);
  cli_end_line (o, c->flags, fl);
  return 0;
}

static int
run (cli_args *a)
{
  ctx c;
  cli_block_args (a, &c.elem, &c.sf, &c.k);
  c.in = cli_format (a, O_INPUT, ROLE (MX_ROLE_IEEE), "fp32");
  cli_policy (a, &c.pol, &c.rnd);
  cli_check_scale_codes (a, &c.pol, c.sf);
  c.flags = a->v[O_FLAGS] != NULL;
  c.rbits = cli_alloc (a, c.k, sizeof *c.rbits);
  c.bits = cli_alloc (a, c.k, sizeof *c.bits);
  c.codes = cli_alloc (a, c.k, sizeof *c.codes);
  cli_random_bits (a, c.rnd, c.rbits, c.k);
  int rc = cli_filter (a, line, &c);
  free (c.rbits);
  free (c.bits);
  free (c.codes);
  return rc;
}

static const int options[] = { O_FORMAT, O_BLOCK, O_INPUT, O_SCALE_FORMAT, O_PROFILE, O_ROUNDING,
                               O_RANDOM_BITS, O_FLAGS, O_OUTPUT, O_POLICY, 0 };

const cli_command cli_quantize = {
  "quantize", "Quantize blocks: each stdin line holds K input bit patterns (hex); each output "
  "line is the scale code and K element codes, 'SS E0 ... E(K-1)' [flags].",
  "--format F [OPTIONS] < INPUT",
  "Every word has exactly the digits of its format (8 for fp32, 4 for bf16/fp16, 16 for fp64),\n"
  "optionally after 0x.  Lines starting with '#' are skipped.  A malformed line prints\n"
  "'stdin:LINE: what was expected' and exits 2: with -o FILE nothing is written, on stdout the\n"
  "lines before it have been written in full.  Exit 1: the output could not be written.",
  options, 0, run
};
