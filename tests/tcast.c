/* tcast -- exhaustive: every BF16 or FP16 input (argv[1]) x every element and scale format x every
 * deterministic rounding x both overflow policies (and the other cast policy fields in rotation),
 * MPFR model == slow model in code and flags; then stochastic rounding with seeded random bits.
 * SPDX-License-Identifier: MIT */
#include <string.h>
#include "tests.h"

static const mx_rounding det[] = { MX_RNE, MX_RNA, MX_RNZ, MX_RHU, MX_RHD, MX_RTZ, MX_RUP, MX_RDN, MX_RTO };

static long n;

/* The sign of a - b for values that are not NaN (the slow model's numbers). */
static int
cmp (s_val a, s_val b)
{
  int sa = a.cls == S_ZERO ? 0 : a.neg ? -1 : 1, sb = b.cls == S_ZERO ? 0 : b.neg ? -1 : 1;
  if (sa != sb || sa == 0)
    return (sa > sb) - (sa < sb);
  int mag;
  if (a.cls == S_INF || b.cls == S_INF)
    mag = (a.cls == S_INF) - (b.cls == S_INF);
  else
    mag = s_cmp_mag (a, b);
  return sa > 0 ? mag : -mag;
}

static void
one (const mx_format *to, const mx_format *from, uint64_t x, mx_rounding rnd, uint32_t rb,
     const mx_policy *pol)
{
  unsigned f1, f2;
  uint64_t c1;
  int t = mx_cast (&c1, &f1, to, from, x, rb, pol, rnd);
  uint64_t c2 = s_cast (to, from, x, rnd, rb, pol, &f2);
  /* the ternary value is the sign of (result - input), 0 for NaN and invalid results */
  s_val in = s_decode (from, x), out = s_decode (to, c2);
  int want_t = in.cls == S_NAN || out.cls == S_NAN || (f2 & MX_FLAG_INVALID) ? 0 : cmp (out, in);
  n++;
  CHECK (c1 == c2 && f1 == f2 && t == want_t,
         "%s %04llX -> %s %s ovf=%d zs=%d ir=%d ne=%d nc=%d wi=%d sc=%d sb=%d R=%u r=%X: "
         "mpfr %llX/%02X/%d slow %llX/%02X/%d",
         from->name, (unsigned long long) x, to->name, mx_rounding_name (rnd), pol->overflow,
         pol->zero_sign, pol->int_range, pol->nan_elem, pol->nan_code, pol->wide_input,
         pol->scale_cast, pol->scale_bottom, pol->sr_bits, rb,
         (unsigned long long) c1, f1, t, (unsigned long long) c2, f2, want_t);
}

static int fp64_main (void);

int
main (int argc, char **argv)
{
  const char *which = argc > 1 ? argv[1] : "bf16";
  if (strcmp (which, "fp64") == 0)
    return fp64_main ();
  const mx_format *from = mx_format_get (strcmp (which, "fp16") == 0 ? MX_FP16 : MX_BF16);
  mx_policy pol = mx_policy_ocp ();
  rng r = { test_seed () };
  /* every element and scale format of the table, and the interchange formats it can hold */
  mx_format_id targets[MX_FORMAT_COUNT];
  int ntargets = formats_of_role (MX_ROLE_ELEM, targets);
  ntargets += formats_of_role (MX_ROLE_SCALE, targets + ntargets);
  targets[ntargets++] = MX_FP32;
  targets[ntargets++] = MX_FP64;

  for (uint64_t x = 0; x < 0x10000; x++)
    for (int t = 0; t < ntargets; t++)
      {
        const mx_format *to = mx_format_get (targets[t]);
        pol.zero_sign = (mx_zero_sign) (x % MX_ZERO_SIGN_COUNT);
        pol.int_range = (mx_int_range) ((x >> 1) & 1);
        pol.nan_elem = (mx_nan_elem) (x % 3);
        pol.nan_code = (mx_nan_code) ((x >> 2) & 1);
        pol.scale_cast = (mx_scale_cast) ((x >> 3) & 3);
        pol.scale_bottom = (mx_scale_bottom) ((x >> 5) & 1);
        pol.wide_input = (mx_wide_input) ((x >> 6) & 1); /* no effect on 16-bit inputs */
        for (int o = 0; o < 2; o++)
          {
            pol.overflow = (mx_overflow) o;
            for (size_t m = 0; m < sizeof det / sizeof det[0]; m++)
              one (to, from, x, det[m], 0, &pol);
          }
        /* stochastic rounding: R in {1, 4, 16, 32} with seeded random words */
        static const unsigned Rs[] = { 1, 4, 16, 32 };
        for (int i = 0; i < 4; i++)
          {
            pol.sr_bits = Rs[i];
            pol.overflow = (mx_overflow) (i & 1);
            pol.sr_frac = (mx_sr_frac) ((x >> 7) & 3);
            one (to, from, x, MX_SR, (uint32_t) rng_next (&r), &pol);
          }
        pol.sr_bits = mx_policy_ocp ().sr_bits;
      }
  /* custom descriptors go through the same code: E3M4 (finite), E6M1 (IEEE), E5M0 (power of
   * two), a 10-bit integer, all inputs, every deterministic mode */
  mx_format cust[4];
  mx_format_custom (&cust[0], 1, 3, 4, 3, MX_SPECIAL_NONE);
  mx_format_custom (&cust[1], 1, 6, 1, 31, MX_SPECIAL_IEEE);
  mx_format_custom (&cust[2], 0, 5, 0, 15, MX_SPECIAL_POW2);
  mx_format_custom (&cust[3], 1, 0, 9, 1, MX_SPECIAL_INT);
  pol = mx_policy_ocp ();
  for (uint64_t x = 0; x < 0x10000; x++)
    for (int c = 0; c < 4; c++)
      for (int o = 0; o < 2; o++)
        {
          pol.overflow = (mx_overflow) o;
          for (size_t m = 0; m < sizeof det / sizeof det[0]; m++)
            one (&cust[c], from, x, det[m], 0, &pol);
        }
  return finish (which[0] == 'f' ? "tcast fp16" : "tcast bf16", n);
}

/* FP64 inputs, for wide-input: FP32 values, midpoints and their FP64 neighbours, FP32's range
 * edges, and random patterns, into every target, every deterministic rounding, every
 * combination of the cast fields that FP64 inputs reach. */
static int
fp64_main (void)
{
  const mx_format *from = mx_format_get (MX_FP64);
  mx_format_id targets[MX_FORMAT_COUNT];
  int ntargets = formats_of_role (MX_ROLE_ELEM, targets);
  ntargets += formats_of_role (MX_ROLE_SCALE, targets + ntargets);
  targets[ntargets++] = MX_FP32;
  rng r = { test_seed () };
  for (long i = 0; i < 60000; i++)
    {
      uint64_t w = rng_next (&r), x;
      switch (i % 4)
        {
        case 0: x = w; break; /* any pattern */
        case 1:               /* FP32 range, any low bits */
          x = (w & 0x800FFFFFFFFFFFFFull) | ((uint64_t) (1023 - 160 + (w >> 52) % 300) << 52);
          break;
        case 2:               /* an FP32 midpoint, one FP64 ulp either side or exact */
          x = ((w & 0x800FFFFFE0000000ull) | 0x10000000ull | ((uint64_t) (1023 - 150 + (w >> 40) % 280) << 52))
              + (uint64_t) ((int) (w % 3) - 1);
          break;
        default:              /* small integers of FP32's bottom and top: below 2^-149, near 2^128 */
          x = (w & 0x8000000000000003ull) | ((uint64_t) ((w & 4) ? 1023 + 127 + (w >> 8) % 3 : 1023 - 151 + (w >> 8) % 4) << 52);
          break;
        }
      mx_policy pol = mx_policy_ocp ();
      pol.wide_input = (mx_wide_input) (i & 1);
      pol.nan_elem = (mx_nan_elem) ((i >> 1) % 3);
      pol.scale_cast = (mx_scale_cast) ((i >> 2) & 3);
      pol.scale_bottom = (mx_scale_bottom) ((i >> 4) & 1);
      pol.subnormals = (mx_subnormals) ((i >> 5) % MX_SUBNORMALS_COUNT);
      for (int t = 0; t < ntargets; t++)
        for (int o = 0; o < 2; o++)
          {
            pol.overflow = (mx_overflow) o;
            for (size_t m = 0; m < sizeof det / sizeof det[0]; m++)
              one (mx_format_get (targets[t]), from, x, det[m], 0, &pol);
          }
    }
  return finish ("tcast fp64", n);
}
