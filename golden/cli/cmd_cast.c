/* cmd_cast.c -- mxgold cast: each stdin line, one bit pattern, converted to another format
 * (libmxgold mx_cast: exact decode, one rounding).
 * SPDX-License-Identifier: MIT */
#include "cli.h"

typedef struct
{
  const mx_format *from, *to;
  mx_policy pol;
  mx_rounding rnd;
  uint32_t rbits;
  int flags;
} ctx;

static int
line (void *vc, FILE *o, char **w, size_t n, const mxv_lines *at)
{
  ctx *c = vc;
  uint64_t x, r;
  unsigned fl;
  char q[64];
  if (n != 1)
    return mxv_lines_error (at, "expected one hex word (a %s bit pattern), got %zu", c->from->name, n);
  if (mx_parse_hex (&x, w[0], c->from->bits) != MX_OK)
    return mxv_lines_error (at, "'%s' is not a %s bit pattern (hex, exactly %d digits, < 2^%u)",
                            mxv_quote (q, sizeof q, w[0]), c->from->name,
                            mx_hex_digits (c->from->bits), c->from->bits);
  mx_cast (&r, &fl, c->to, c->from, x, c->rbits, &c->pol, c->rnd);
  cli_put_words (o, &r, 1, c->to->bits, 1);
  cli_end_line (o, c->flags, fl);
  return 0;
}

static int
run (cli_args *a)
{
  ctx c;
  unsigned any = ROLE (MX_ROLE_ELEM) | ROLE (MX_ROLE_SCALE) | ROLE (MX_ROLE_IEEE);
  if (!a->v[O_TO] && !a->v[O_FROM])
    cli_usage_error (a, "cast needs --to F (fp32 -> F) or --from F (F -> fp32)");
  c.to = cli_format (a, O_TO, any, "fp32");
  c.from = cli_format (a, O_FROM, any, "fp32");
  cli_policy (a, &c.pol, &c.rnd);
  c.flags = a->v[O_FLAGS] != NULL;
  c.rbits = 0;
  cli_random_bits (a, c.rnd, &c.rbits, 1);
  return cli_filter (a, line, &c);
}

/* the policy fields that act on a single value */
static const int options[] = { O_TO, O_FROM, O_PROFILE, O_ROUNDING, O_RANDOM_BITS, O_FLAGS,
                               O_OUTPUT, O_FIELD (MX_POLICY_OVERFLOW),
                               O_FIELD (MX_POLICY_SUBNORMALS), O_FIELD (MX_POLICY_ZERO_SIGN),
                               O_FIELD (MX_POLICY_INT_RANGE), O_FIELD (MX_POLICY_NAN_ELEM),
                               O_FIELD (MX_POLICY_SR_BITS), O_FIELD (MX_POLICY_SR_FRAC),
                               O_FIELD (MX_POLICY_NAN_CODE), O_FIELD (MX_POLICY_WIDE_INPUT),
                               O_FIELD (MX_POLICY_SCALE_CAST), O_FIELD (MX_POLICY_SCALE_BOTTOM), 0 };

const cli_command cli_cast = {
  "cast", "Convert values: each stdin line holds one bit pattern (hex) of the source format; "
  "each output line is its code in the target format [flags].",
  "--to F | --from F [OPTIONS] < INPUT",
  "The input word has exactly the digits of the source format (8 for fp32).  Decoding is\n"
  "exact: an element or scale code into fp32/fp64 is its value, Inf stays Inf.\n"
  "Malformed input: 'stdin:LINE: ...' and exit 2.  Exit 1: the output could not be written.",
  options, 0, run
};
