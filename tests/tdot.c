/* tdot -- mx_dot and mx_gemm against the independent integer model and against hand-worked
 * examples.  Usage: tdot [FORMAT_A|all|fused] [RANDOM_DOTS_PER_PAIR_AND_MODEL]
 * (default all 100000; fused: every format pair, the random dots of fused-group only)
 *  - every element-pair product of every format pair (exact and block-fp32)
 *  - seeded random block pairs (1..4 blocks, specials mixed in, every deterministic rounding)
 *    under exact, block-fp32 and fused-group (groups of 8 and 16, now and then 1, 2, 4 or 32;
 *    FP32 and BF16 accumulators; groups and blocks that cancel to zero)
 *  - fused-group on hand-worked examples: where it differs from exact and block-fp32, the BF16
 *    accumulator, the sign of an exact zero under rdn, directed rounding at each group
 *  - exact and block-fp32 differ where they must (cancellation across blocks) and agree where
 *    they must (one block, C_in = +0)
 *  - tensor-core presets on hand-worked examples
 *  - mx_dot_prefix: every prefix of one random dot in 32 against the independent model
 *    (tensor-core presets: every prefix), and its argument checks
 *  - mx_gemm against the independent model per element, and its argument checks
 * SPDX-License-Identifier: MIT */
#include <string.h>
#include "tests.h"

static const mx_format *E8M0, *F32;
static long n;

static uint64_t
dot1 (const mx_format *of, uint64_t sa, const uint64_t *a, const mx_format *ea, uint64_t sb,
      const uint64_t *b, const mx_format *eb, size_t k, size_t nb, uint64_t cin,
      const mx_dot_policy *dp, mx_rounding rnd, unsigned *fl)
{
  uint64_t out = 0, sas[4] = { sa, sa, sa, sa }, sbs[4] = { sb, sb, sb, sb };
  int rc = mx_dot (&out, fl, of, sas, a, ea, sbs, b, eb, E8M0, k, nb, cin, dp, rnd);
  CHECK (rc == MX_OK, "mx_dot returned %d", rc);
  return out;
}

static void
compare (const mx_format *of, const uint64_t *sa, const uint64_t *a, const mx_format *ea,
         const uint64_t *sb, const uint64_t *b, const mx_format *eb, size_t k, size_t nb,
         uint64_t cin, mx_accum acc, size_t g, mx_rounding rnd)
{
  mx_dot_policy dp = mx_dot_policy_default ();
  dp.accum = acc;
  dp.group = g;
  uint64_t o1 = 0, o2;
  unsigned f1 = 0;
  int rc = mx_dot (&o1, &f1, of, sa, a, ea, sb, b, eb, E8M0, k, nb, cin, &dp, rnd);
  unsigned f2 = s_dot (&o2, of, sa, a, ea, sb, b, eb, E8M0, k, nb, cin, acc, g, rnd);
  n++;
  CHECK (rc == MX_OK && o1 == o2 && f1 == f2,
         "%s x %s %s g=%zu %s out %s k=%zu nb=%zu cin %08llX: rc %d mpfr %08llX/%02X slow %08llX/%02X",
         ea->name, eb->name, mx_accum_name (acc), g, mx_rounding_name (rnd), of->name, k, nb,
         (unsigned long long) cin, rc, (unsigned long long) o1, f1, (unsigned long long) o2, f2);
  if (nb < 2 || nb > 4 || n % 32 != 0)
    return;
  /* mx_dot_prefix: blocks 0..j, each against the model's dot of those blocks */
  uint64_t po[4];
  unsigned pf[4];
  rc = mx_dot_prefix (po, pf, of, sa, a, ea, sb, b, eb, E8M0, k, nb, cin, &dp, rnd);
  for (size_t j = 0; j < nb; j++)
    {
      f2 = s_dot (&o2, of, sa, a, ea, sb, b, eb, E8M0, k, j + 1, cin, acc, g, rnd);
      n++;
      CHECK (rc == MX_OK && po[j] == o2 && pf[j] == f2,
             "prefix %zu of %zu: %s x %s %s g=%zu %s out %s cin %08llX: rc %d mpfr %08llX/%02X slow %08llX/%02X",
             j + 1, nb, ea->name, eb->name, mx_accum_name (acc), g, mx_rounding_name (rnd),
             of->name, (unsigned long long) cin, rc, (unsigned long long) po[j], pf[j],
             (unsigned long long) o2, f2);
    }
}

/* fused-group on the E4M3 codes a and b (X_A = X_B = 1, one block of 32): the result */
static uint64_t
fused1 (const mx_format *of, const uint64_t *a, const uint64_t *b, uint64_t cin, mx_accum acc,
        size_t g, mx_rounding rnd)
{
  mx_dot_policy dp = mx_dot_policy_default ();
  dp.accum = acc;
  dp.group = g;
  uint64_t out = 0, s = 0x7F;
  const mx_format *e = mx_format_get (MX_E4M3);
  int rc = mx_dot (&out, NULL, of, &s, a, e, &s, b, e, E8M0, 32, 1, cin, &dp, rnd);
  CHECK (rc == MX_OK, "mx_dot returned %d", rc);
  n++;
  return out;
}

int
main (int argc, char **argv)
{
  const char *which = argc > 1 ? argv[1] : "all";
  int fused_only = strcmp (which, "fused") == 0;
  static const mx_accum models[] = { MX_ACCUM_EXACT, MX_ACCUM_BLOCK_FP32, MX_ACCUM_FUSED_GROUP };
  long per = test_count (argc, argv, 2, 100000);
  E8M0 = mx_format_get (MX_E8M0);
  F32 = mx_format_get (MX_FP32);
  rng r = { test_seed () ^ (uint64_t) strlen (which) };
  static const mx_rounding det[] = { MX_RNE, MX_RNA, MX_RNZ, MX_RHU, MX_RHD, MX_RTZ, MX_RUP, MX_RDN, MX_RTO };
  const long ndet = (long) (sizeof det / sizeof det[0]);
  mx_format_id elems[MX_FORMAT_COUNT];
  int nelem = formats_of_role (MX_ROLE_ELEM, elems);

  for (int ia = 0; ia < nelem; ia++)
    {
      const mx_format *ea = mx_format_get (elems[ia]);
      if (strcmp (which, "all") != 0 && !fused_only && strcmp (which, ea->name) != 0)
        continue;
      for (int ib = 0; ib < nelem; ib++)
        {
          const mx_format *eb = mx_format_get (elems[ib]);
          /* every element-pair product, X_A = X_B = 1, C_in = +0 */
          for (uint64_t x = 0; x < (1u << ea->bits) && !fused_only; x++)
            for (uint64_t y = 0; y < (1u << eb->bits); y++)
              {
                uint64_t s1 = 0x7F;
                compare (F32, &s1, &x, ea, &s1, &y, eb, 1, 1, 0, MX_ACCUM_EXACT, 0, MX_RNE);
                compare (F32, &s1, &x, ea, &s1, &y, eb, 1, 1, 0, MX_ACCUM_BLOCK_FP32, 0, MX_RNE);
              }
          /* random block pairs */
          for (int im = fused_only ? 2 : 0; im < 3; im++)
            for (long it = 0; it < per; it++)
              {
                mx_accum acc = models[im];
                /* fused-group: groups of 8 and 16 (MXDOTP's), now and then another divisor */
                static const size_t gs[] = { 8, 16, 8, 16, 8, 16, 1, 2, 4, 32 };
                size_t g = acc == MX_ACCUM_FUSED_GROUP ? gs[(it / 3) % 10] : 0;
                uint64_t sa[4], sb[4], a[128], b[128], cin;
                size_t nb = 1 + rng_below (&r, 4), k = 32;
                uint64_t kind = rng_next (&r);
                for (size_t j = 0; j < nb; j++)
                  {
                    /* scales near 1, with the extremes now and then */
                    sa[j] = (kind >> (8 * j)) % 16 == 0 ? rng_below (&r, 256) : 0x7F + rng_below (&r, 41) - 20;
                    sb[j] = (kind >> (8 * j + 4)) % 16 == 0 ? rng_below (&r, 256) : 0x7F + rng_below (&r, 41) - 20;
                    if (sa[j] == 0xFF && rng_below (&r, 4))
                      sa[j] = 0xFE;
                  }
                for (size_t i = 0; i < nb * k; i++)
                  {
                    a[i] = rng_next (&r) & ((1u << ea->bits) - 1);
                    b[i] = rng_next (&r) & ((1u << eb->bits) - 1);
                  }
                /* cancellation: block 1 = -(block 0) sometimes */
                if (nb > 1 && kind % 5 == 0)
                  for (size_t i = 0; i < k; i++)
                    {
                      a[k + i] = a[i];
                      b[k + i] = b[i] ^ ((uint64_t) 1 << (eb->bits - 1));
                      if (eb->special == MX_SPECIAL_INT)
                        b[k + i] = (0 - b[i]) & 0xFF;
                      sa[1] = sa[0], sb[1] = sb[0];
                    }
                uint64_t c = rng_next (&r);
                cin = c % 4 == 0 ? 0 : c % 4 == 1 ? (c >> 8) & 0x807FFFFF
                                  : ((c >> 8) & 0x80FFFFFF) | ((uint64_t) (100 + (c >> 40) % 60) << 23);
                if (c % 97 == 0)
                  cin = (c >> 9) & 1 ? 0x7F800000 : 0xFFC00000;
                /* cancellation inside every group (pairs x, -x) from C_in = +-0: each step's
                 * exact sum is zero, its sign IEEE 754 6.3's (-0 under rdn) */
                if (kind % 7 == 0)
                  {
                    for (size_t i = 1; i < nb * k; i += 2)
                      {
                        a[i] = a[i - 1];
                        b[i] = eb->special == MX_SPECIAL_INT ? (0 - b[i - 1]) & 0xFF
                                                             : b[i - 1] ^ ((uint64_t) 1 << (eb->bits - 1));
                      }
                    cin = (c >> 11) & 1 ? 0x80000000 : 0;
                  }
                /* fused-group: the BF16 accumulator every other dot */
                const mx_format *of = acc == MX_ACCUM_FUSED_GROUP && it % 2 ? mx_format_get (MX_BF16) : F32;
                compare (of, sa, a, ea, sb, b, eb, k, nb, cin, acc, g, det[it % ndet]);
                if (it % 16 == 0)
                  compare (mx_format_get (it % 32 ? MX_BF16 : MX_FP16), sa, a, ea, sb, b, eb, k,
                           nb, cin, acc, g, det[(it / 16) % ndet]);
              }
        }
    }

  /* hand-worked: cancellation separates exact from block-fp32.  E4M3, X = 1:
   * block 0: 448*448 + 2^-9*2^-9 = 200704 + 2^-18 -> FP32 200704 (0x48440000) under block-fp32;
   * block 1: 448 * -448 = -200704.  exact: 2^-18 (0x36800000); block-fp32: +0. */
  {
    const mx_format *e = mx_format_get (MX_E4M3);
    uint64_t a[64] = { 0x7E, 0x01 }, b[64] = { 0x7E, 0x01 }, s[2] = { 0x7F, 0x7F };
    a[32] = 0x7E, b[32] = 0xFE;
    mx_dot_policy dp = mx_dot_policy_default ();
    uint64_t out;
    mx_dot (&out, NULL, F32, s, a, e, s, b, e, E8M0, 32, 2, 0, &dp, MX_RNE);
    CHECK (out == 0x36800000, "exact cancellation: %08llX", (unsigned long long) out);
    dp.accum = MX_ACCUM_BLOCK_FP32;
    mx_dot (&out, NULL, F32, s, a, e, s, b, e, E8M0, 32, 2, 0, &dp, MX_RNE);
    CHECK (out == 0x00000000, "block-fp32 cancellation: %08llX", (unsigned long long) out);
    /* one block: 200704 + 2^-18 -> both models round once: 0x48440000 */
    mx_dot (&out, NULL, F32, s, a, e, s, b, e, E8M0, 32, 1, 0, &dp, MX_RNE);
    CHECK (out == 0x48440000, "block-fp32 one block: %08llX", (unsigned long long) out);
    dp.accum = MX_ACCUM_EXACT;
    mx_dot (&out, NULL, F32, s, a, e, s, b, e, E8M0, 32, 1, 0, &dp, MX_RNE);
    CHECK (out == 0x48440000, "exact one block: %08llX", (unsigned long long) out);
    n += 4;
  }
  /* mx_dot_prefix under the tensor-core presets (groups that straddle blocks close at each
   * prefix's end): every prefix against the independent model; and the argument checks */
  for (int it = 0; it < 2000; it++)
    {
      const mx_format *ea = mx_format_get (elems[rng_below (&r, (uint64_t) nelem)]);
      const mx_format *eb = mx_format_get (elems[rng_below (&r, (uint64_t) nelem)]);
      uint64_t a[128], b[128], sa[4], sb[4], po[4], o;
      unsigned pf[4], f;
      size_t nb = 1 + rng_below (&r, 4);
      for (size_t j = 0; j < nb; j++)
        sa[j] = 0x70 + rng_below (&r, 32), sb[j] = 0x70 + rng_below (&r, 32);
      for (size_t i = 0; i < 32 * nb; i++)
        a[i] = rng_next (&r) & ((1u << ea->bits) - 1), b[i] = rng_next (&r) & ((1u << eb->bits) - 1);
      mx_dot_policy dp = mx_dot_policy_default ();
      dp.accum = MX_ACCUM_TENSOR_CORE;
      CHECK (mx_tc_model_preset (&dp.tc, (mx_tc_preset) (it % MX_TC_PRESET_COUNT)) == MX_OK, "preset");
      uint64_t c = rng_next (&r);
      uint64_t cin = c % 4 == 0 ? 0 : c % 4 == 1 ? (c >> 8) & 0x807FFFFF
                                 : ((c >> 8) & 0x80FFFFFF) | ((uint64_t) (100 + (c >> 40) % 60) << 23);
      mx_rounding rnd = det[it % ndet];
      int rc = mx_dot_prefix (po, pf, F32, sa, a, ea, sb, b, eb, E8M0, 32, nb, cin, &dp, rnd);
      CHECK (rc == MX_OK, "mx_dot_prefix tensor-core: %d", rc);
      for (size_t j = 0; j < nb; j++, n++)
        {
          f = s_dot_tc (&o, F32, sa, a, ea, sb, b, eb, E8M0, 32, j + 1, cin, &dp.tc, rnd);
          CHECK (po[j] == o && pf[j] == f, "tensor-core prefix %zu of %zu (%s): %08llX/%02X, slow %08llX/%02X",
                 j + 1, nb, mx_tc_preset_name ((mx_tc_preset) (it % MX_TC_PRESET_COUNT)),
                 (unsigned long long) po[j], pf[j], (unsigned long long) o, f);
        }
    }
  {
    uint64_t a[32] = { 0 }, s = 0x7F, o[1];
    unsigned f[1];
    mx_dot_policy dp = mx_dot_policy_default ();
    const mx_format *e = mx_format_get (MX_E4M3);
    CHECK (mx_dot_prefix (NULL, f, F32, &s, a, e, &s, a, e, E8M0, 32, 1, 0, &dp, MX_RNE) == MX_EINVAL, "NULL out");
    CHECK (mx_dot_prefix (o, NULL, F32, &s, a, e, &s, a, e, E8M0, 32, 1, 0x40000000, &dp, MX_RNE) == MX_OK
           && o[0] == 0x40000000, "NULL flags: %08llX", (unsigned long long) o[0]);
    CHECK (mx_dot_prefix (o, f, F32, &s, a, e, &s, a, e, E8M0, 32, 0, 0, &dp, MX_RNE) == MX_EINVAL, "nb 0");
    CHECK (mx_dot_prefix (o, f, F32, &s, a, e, &s, a, e, E8M0, 32, 1, 0, &dp, MX_SR) == MX_EINVAL, "sr");
    CHECK (mx_dot_prefix (o, f, F32, &s, a, e, &s, a, e, E8M0, 32, 1, 0x3F800000, &dp, MX_RNE) == MX_OK
           && o[0] == 0x3F800000 && f[0] == 0, "zeros + 1: %08llX", (unsigned long long) o[0]);
    n += 5;
  }
  /* agree where they must: one block, C_in = +0, every rounding */
  for (int it = 0; it < 20000; it++, n++)
    {
      const mx_format *ea = mx_format_get (elems[rng_below (&r, (uint64_t) nelem)]);
      const mx_format *eb = mx_format_get (elems[rng_below (&r, (uint64_t) nelem)]);
      uint64_t a[32], b[32], sa = 0x60 + rng_below (&r, 64), sb = 0x60 + rng_below (&r, 64), o1, o2;
      for (int i = 0; i < 32; i++)
        a[i] = rng_next (&r) & ((1u << ea->bits) - 1), b[i] = rng_next (&r) & ((1u << eb->bits) - 1);
      mx_dot_policy dp = mx_dot_policy_default ();
      mx_rounding rnd = det[it % ndet];
      unsigned f1, f2;
      o1 = dot1 (F32, sa, a, ea, sb, b, eb, 32, 1, 0, &dp, rnd, &f1);
      dp.accum = MX_ACCUM_BLOCK_FP32;
      o2 = dot1 (F32, sa, a, ea, sb, b, eb, 32, 1, 0, &dp, rnd, &f2);
      /* the one allowed difference: under rdn an exact-zero block sum is -0, and block-fp32
       * adds it to C_in = +0 in FP32 RNE, giving +0 */
      int zero_rdn = rnd == MX_RDN && o1 == 0x80000000 && o2 == 0;
      CHECK (o1 == o2 || zero_rdn, "one block, exact %08llX vs block-fp32 %08llX",
             (unsigned long long) o1, (unsigned long long) o2);
    }
  /* specials (hand): NaN scale -> NaN; Inf * 0 -> NaN; +Inf + -Inf -> NaN; E5M2 Inf operand */
  {
    const mx_format *e5 = mx_format_get (MX_E5M2);
    uint64_t a[32] = { 0x7C }, b[32] = { 0x3C }, o; /* +Inf * 1 */
    unsigned f;
    mx_rounding rnd = MX_RNE;
    mx_dot_policy dp = mx_dot_policy_default ();
    o = dot1 (F32, 0x7F, a, e5, 0x7F, b, e5, 32, 1, 0, &dp, rnd, &f);
    CHECK (o == 0x7F800000, "Inf * 1 = %08llX", (unsigned long long) o);
    o = dot1 (F32, 0x7F, a, e5, 0x7F, b, e5, 32, 1, 0xFF800000, &dp, rnd, &f);
    CHECK ((o & 0x7FFFFFFF) > 0x7F800000 && (f & MX_FLAG_INVALID), "Inf + -Inf = %08llX", (unsigned long long) o);
    b[0] = 0;
    o = dot1 (F32, 0x7F, a, e5, 0x7F, b, e5, 32, 1, 0, &dp, rnd, &f);
    CHECK ((o & 0x7FFFFFFF) > 0x7F800000, "Inf * 0 = %08llX", (unsigned long long) o);
    a[0] = b[0] = 0x3C;
    o = dot1 (F32, 0xFF, a, e5, 0x7F, b, e5, 32, 1, 0, &dp, rnd, &f);
    CHECK ((o & 0x7FFFFFFF) > 0x7F800000, "NaN scale = %08llX", (unsigned long long) o);
    /* overflow follows the rounding: 57344^2 * 2^127 * 2^127 -> Inf (rne), max (rtz) */
    a[0] = b[0] = 0x7B;
    o = dot1 (F32, 0xFE, a, e5, 0xFE, b, e5, 32, 1, 0, &dp, rnd, &f);
    CHECK (o == 0x7F800000 && (f & MX_FLAG_OVERFLOW), "overflow rne = %08llX", (unsigned long long) o);
    rnd = MX_RTZ;
    o = dot1 (F32, 0xFE, a, e5, 0xFE, b, e5, 32, 1, 0, &dp, rnd, &f);
    CHECK (o == 0x7F7FFFFF, "overflow rtz = %08llX", (unsigned long long) o);
    n += 6;
  }
  /* tensor-core models, hand-worked from the model definitions (docs/semantics.md):
 *  products 1.0 (0x38 * 0x38) and 2^-14 (2^-7 * 2^-7, E4M3 2^-7 is the subnormal 0x04) */
  {
    const mx_format *e = mx_format_get (MX_E4M3);
    /* a = [1, 2^-7], b = [1, 2^-7]: products 1 and 2^-14 */
    uint64_t a[32] = { 0x38, 0x04 }, b[32] = { 0x38, 0x04 }, o;
    unsigned f;
    mx_rounding rnd = MX_RNE;
    mx_dot_policy dp = mx_dot_policy_default ();
    dp.accum = MX_ACCUM_TENSOR_CORE;
    mx_tc_model_preset (&dp.tc, MX_TC_H100_FP8);
    o = dot1 (F32, 0x7F, a, e, 0x7F, b, e, 32, 1, 0, &dp, rnd, &f);
    /* H100: 13 fraction bits below 2^0 -> 2^-14 is 0.5 of the last kept bit -> truncated: 1.0 */
    CHECK (o == 0x3F800000, "h100 1 + 2^-14 = %08llX", (unsigned long long) o);
    mx_tc_model_preset (&dp.tc, MX_TC_B200_FP8);
    o = dot1 (F32, 0x7F, a, e, 0x7F, b, e, 32, 1, 0, &dp, rnd, &f);
    /* B200: 25 fraction bits keep 2^-14: 1 + 2^-14 = 0x3F800200 (fraction bit 9) */
    CHECK (o == 0x3F800200, "b200 1 + 2^-14 = %08llX", (unsigned long long) o);
    dp.accum = MX_ACCUM_EXACT;
    o = dot1 (F32, 0x7F, a, e, 0x7F, b, e, 32, 1, 0, &dp, rnd, &f);
    CHECK (o == 0x3F800200, "exact 1 + 2^-14 = %08llX", (unsigned long long) o);
    /* MI300 adds C_in after the product sum and rounds RNE: 1 + (-2^-30) -> 1.0 */
    dp.accum = MX_ACCUM_TENSOR_CORE;
    mx_tc_model_preset (&dp.tc, MX_TC_MI300_FP8);
    a[1] = b[1] = 0;
    o = dot1 (F32, 0x7F, a, e, 0x7F, b, e, 32, 1, 0xB0800000 /* -2^-30 */, &dp, rnd, &f);
    CHECK (o == 0x3F800000, "mi300 1 + cin -2^-30 = %08llX", (unsigned long long) o);
    /* H100 with the accumulator in the group: C_in = -2^-30 aligned to 2^-13 truncates to 0 */
    mx_tc_model_preset (&dp.tc, MX_TC_H100_FP8);
    o = dot1 (F32, 0x7F, a, e, 0x7F, b, e, 32, 1, 0xB0800000, &dp, rnd, &f);
    CHECK (o == 0x3F800000, "h100 1 + cin -2^-30 = %08llX", (unsigned long long) o);
    /* RD alignment: products 1 and -2^-18 (2^-9 * -2^-9), F = 13 with align rdn: -2^-18 / 2^-13
     * floors to -1 -> 1 - 2^-13 = 0x3F7FF800 */
    dp.tc.align = MX_RDN;
    a[1] = 0x01, b[1] = 0x81;
    o = dot1 (F32, 0x7F, a, e, 0x7F, b, e, 32, 1, 0, &dp, rnd, &f);
    CHECK (o == 0x3F7FF800, "align rdn 1 - 2^-18 = %08llX", (unsigned long long) o);
    n += 6;
  }
  /* fused-group, hand-worked from its definition (docs/semantics.md section 7): E4M3, one block
   * of 32, X_A = X_B = 1 (0x7F).  E4M3 codes: 0x7E = 448, 0xFE = -448, 0x38 = 1, 0xB8 = -1,
   * 0x18 = 2^-4, 0x01 = 2^-9 (the least subnormal), 0x80 = -0; the codes not set are +0. */
  {
    const mx_format *BF = mx_format_get (MX_BF16);
    uint64_t a[32] = { 0 }, b[32] = { 0 }, o;
    /* 1. group 0 = 448*448 + 2^-9*2^-9 = 200704 + 2^-18, group 1 = 448*-448 + 2^-18.
     *    g = 8: acc = RNE32(200704 + 2^-18) = 200704 (ulp 2^-6), then RNE32(200704 - 200704 +
     *    2^-18) = 2^-18 = 0x36800000 (biased exponent 127 - 18 = 0x6D).  exact, block-fp32 and
     *    g = 16 (one group) all give 2^-18 + 2^-18 = 2^-17 = 0x37000000. */
    a[0] = b[0] = 0x7E, a[1] = b[1] = 0x01, a[8] = 0x7E, b[8] = 0xFE, a[9] = b[9] = 0x01;
    o = fused1 (F32, a, b, 0, MX_ACCUM_FUSED_GROUP, 8, MX_RNE);
    CHECK (o == 0x36800000, "fused g8 cancellation: %08llX", (unsigned long long) o);
    o = fused1 (F32, a, b, 0, MX_ACCUM_FUSED_GROUP, 16, MX_RNE);
    CHECK (o == 0x37000000, "fused g16 cancellation: %08llX", (unsigned long long) o);
    o = fused1 (F32, a, b, 0, MX_ACCUM_EXACT, 0, MX_RNE);
    CHECK (o == 0x37000000, "exact cancellation in one block: %08llX", (unsigned long long) o);
    o = fused1 (F32, a, b, 0, MX_ACCUM_BLOCK_FP32, 0, MX_RNE);
    CHECK (o == 0x37000000, "block-fp32 cancellation in one block: %08llX", (unsigned long long) o);
    /* 2. directed rounding at every group: group 0 = 448*448 + 2^-18 = 200704 + 2^-18, group 1 =
     *    2^-18.  200704 = 1.53125 * 2^17 = 0x48440000, its ulp 2^(17-23) = 2^-6.  rup, g = 8:
     *    200704 + 2^-6 (0x48440001), then 200704 + 2^-6 + 2^-18 up to 200704 + 2^-5:
     *    0x48440002.  rdn, g = 8: 200704 twice: 0x48440000.  exact, block-fp32 and g = 16 (rup):
     *    200704 + 2^-17 up to 0x48440001. */
    memset (a, 0, sizeof a), memset (b, 0, sizeof b);
    a[0] = b[0] = 0x7E, a[1] = b[1] = 0x01, a[9] = b[9] = 0x01;
    o = fused1 (F32, a, b, 0, MX_ACCUM_FUSED_GROUP, 8, MX_RUP);
    CHECK (o == 0x48440002, "fused g8 rup: %08llX", (unsigned long long) o);
    o = fused1 (F32, a, b, 0, MX_ACCUM_FUSED_GROUP, 8, MX_RDN);
    CHECK (o == 0x48440000, "fused g8 rdn: %08llX", (unsigned long long) o);
    o = fused1 (F32, a, b, 0, MX_ACCUM_FUSED_GROUP, 16, MX_RUP);
    CHECK (o == 0x48440001, "fused g16 rup: %08llX", (unsigned long long) o);
    o = fused1 (F32, a, b, 0, MX_ACCUM_EXACT, 0, MX_RUP);
    CHECK (o == 0x48440001, "exact rup: %08llX", (unsigned long long) o);
    o = fused1 (F32, a, b, 0, MX_ACCUM_BLOCK_FP32, 0, MX_RUP);
    CHECK (o == 0x48440001, "block-fp32 rup: %08llX", (unsigned long long) o);
    /* 3. the BF16 accumulator (7 fraction bits): group 0 = 1 + 2^-4*2^-4 = 1 + 2^-8, group 1 =
     *    2^-8.  g = 8, BF16, rne: 1 + 2^-8 is a tie between 1 (0x3F80) and 1 + 2^-7 (0x3F81),
     *    even wins: 1; the second group again: 0x3F80.  exact and g = 16 (BF16): 1 + 2^-7 =
     *    0x3F81; g = 8 with the FP32 accumulator: 1 + 2^-8 + 2^-8 = 0x3F810000. */
    memset (a, 0, sizeof a), memset (b, 0, sizeof b);
    a[0] = b[0] = 0x38, a[1] = b[1] = 0x18, a[8] = b[8] = 0x18;
    o = fused1 (BF, a, b, 0, MX_ACCUM_FUSED_GROUP, 8, MX_RNE);
    CHECK (o == 0x3F80, "fused g8 bf16: %04llX", (unsigned long long) o);
    o = fused1 (BF, a, b, 0, MX_ACCUM_FUSED_GROUP, 16, MX_RNE);
    CHECK (o == 0x3F81, "fused g16 bf16: %04llX", (unsigned long long) o);
    o = fused1 (BF, a, b, 0, MX_ACCUM_EXACT, 0, MX_RNE);
    CHECK (o == 0x3F81, "exact bf16: %04llX", (unsigned long long) o);
    o = fused1 (F32, a, b, 0, MX_ACCUM_FUSED_GROUP, 8, MX_RNE);
    CHECK (o == 0x3F810000, "fused g8 fp32: %08llX", (unsigned long long) o);
    /* 4. C_in enters exactly (FP32) and is rounded at the first group: C_in = 1 + 2^-23
     *    (0x3F800001), every product +0, BF16: rne 1.0 (0x3F80), rup 1 + 2^-7 (0x3F81). */
    memset (a, 0, sizeof a), memset (b, 0, sizeof b);
    o = fused1 (BF, a, b, 0x3F800001, MX_ACCUM_FUSED_GROUP, 8, MX_RNE);
    CHECK (o == 0x3F80, "fused bf16 cin rne: %04llX", (unsigned long long) o);
    o = fused1 (BF, a, b, 0x3F800001, MX_ACCUM_FUSED_GROUP, 8, MX_RUP);
    CHECK (o == 0x3F81, "fused bf16 cin rup: %04llX", (unsigned long long) o);
    /* 5. the sign of an exact zero (IEEE 754 6.3, each group one sum): group 0 = 1*1 + 1*-1,
     *    C_in = +0.  rdn, g = 8: -0, and -0 + (+0 products) stays -0 under rdn: 0x80000000 =
     *    exact's; block-fp32 adds the block's -0 to C_in = +0 in RNE: +0.  rne with C_in = -0:
     *    +0.  All products -0 (-0 * 1) and C_in = -0, rne: -0. */
    a[0] = b[0] = 0x38, a[1] = 0x38, b[1] = 0xB8;
    o = fused1 (F32, a, b, 0, MX_ACCUM_FUSED_GROUP, 8, MX_RDN);
    CHECK (o == 0x80000000, "fused rdn zero: %08llX", (unsigned long long) o);
    o = fused1 (F32, a, b, 0, MX_ACCUM_EXACT, 0, MX_RDN);
    CHECK (o == 0x80000000, "exact rdn zero: %08llX", (unsigned long long) o);
    o = fused1 (F32, a, b, 0, MX_ACCUM_BLOCK_FP32, 0, MX_RDN);
    CHECK (o == 0x00000000, "block-fp32 rdn zero: %08llX", (unsigned long long) o);
    o = fused1 (F32, a, b, 0x80000000, MX_ACCUM_FUSED_GROUP, 8, MX_RNE);
    CHECK (o == 0x00000000, "fused rne zero, C_in -0: %08llX", (unsigned long long) o);
    for (int i = 0; i < 32; i++)
      a[i] = 0x80, b[i] = 0x38;
    o = fused1 (F32, a, b, 0x80000000, MX_ACCUM_FUSED_GROUP, 8, MX_RNE);
    CHECK (o == 0x80000000, "fused rne all -0: %08llX", (unsigned long long) o);
  }
  /* gemm: each C element against the independent model's dot of its row and column, on random
   * shapes (K from one block to several, m and n not powers of two), every model and rounding */
  for (int it = 0; it < 60; it++)
    {
      const mx_format *ea = mx_format_get (elems[rng_below (&r, (uint64_t) nelem)]);
      const mx_format *eb = mx_format_get (elems[rng_below (&r, (uint64_t) nelem)]);
      size_t M = 1 + rng_below (&r, 5), N = 1 + rng_below (&r, 5), k = it % 3 ? 32 : 1 + rng_below (&r, 8);
      size_t NB = 1 + rng_below (&r, 3), KD = NB * k;
      uint64_t as[5 * 3], ac[5 * 96], bs[5 * 3], bc[5 * 96], cin[25], c[25], d;
      for (size_t i = 0; i < M * NB; i++) as[i] = 0x70 + rng_below (&r, 30);
      for (size_t i = 0; i < N * NB; i++) bs[i] = 0x70 + rng_below (&r, 30);
      for (size_t i = 0; i < M * KD; i++) ac[i] = rng_next (&r) & ((1u << ea->bits) - 1);
      for (size_t i = 0; i < N * KD; i++) bc[i] = rng_next (&r) & ((1u << eb->bits) - 1);
      for (size_t i = 0; i < M * N; i++) cin[i] = rng_below (&r, 3) ? 0x3F800000 + rng_below (&r, 1000) : 0;
      mx_accum acc = models[it % 3];
      size_t g = acc != MX_ACCUM_FUSED_GROUP ? 0 : k == 32 ? (it & 4 ? 8 : 16) : it & 8 ? k : 1;
      mx_rounding rnd = det[it % ndet];
      mx_dot_policy dp = mx_dot_policy_default ();
      dp.accum = acc;
      dp.group = g;
      unsigned fl, fall = 0;
      int rc = mx_gemm (c, &fl, F32, M, N, KD, as, ac, ea, bs, bc, eb, E8M0, k, cin, &dp, rnd);
      CHECK (rc == MX_OK, "mx_gemm %zux%zux%zu returned %d", M, N, KD, rc);
      for (size_t i = 0; i < M; i++)
        for (size_t j = 0; j < N; j++, n++)
          {
            fall |= s_dot (&d, F32, as + i * NB, ac + i * KD, ea, bs + j * NB, bc + j * KD, eb,
                           E8M0, k, NB, cin[i * N + j], acc, g, rnd);
            CHECK (c[i * N + j] == d, "gemm %s x %s %s %s [%zu][%zu]: %08llX slow %08llX", ea->name,
                   eb->name, mx_accum_name (acc), mx_rounding_name (rnd), i, j,
                   (unsigned long long) c[i * N + j], (unsigned long long) d);
          }
      CHECK (fl == fall, "gemm flags %02X, slow %02X", fl, fall);
    }
  /* gemm argument checks: K not a multiple of the block, zero and overflowing sizes */
  {
    const mx_format *e = mx_format_get (MX_E4M3);
    uint64_t z[64] = { 0 }, c[4];
    mx_dot_policy dp = mx_dot_policy_default ();
    CHECK (mx_gemm (c, NULL, F32, 2, 2, 48, z, z, e, z, z, e, E8M0, 32, NULL, &dp, MX_RNE) == MX_EINVAL,
           "gemm with K = 48, block 32 is accepted");
    CHECK (mx_gemm (c, NULL, F32, 0, 2, 32, z, z, e, z, z, e, E8M0, 32, NULL, &dp, MX_RNE) == MX_EINVAL,
           "gemm with m = 0 is accepted");
    CHECK (mx_gemm (c, NULL, F32, (size_t) 1 << 63, 2, 2, z, z, e, z, z, e, E8M0, 1, NULL, &dp,
                    MX_RNE) == MX_EINVAL, "gemm with m * kdim overflowing is accepted");
    CHECK (mx_gemm (c, NULL, F32, 2, 2, 32, z, z, e, z, z, e, E8M0, 32, NULL, &dp, MX_SR) == MX_EINVAL,
           "gemm with sr output rounding is accepted");
    dp.accum = MX_ACCUM_TENSOR_CORE;
    dp.tc.group = 0;
    CHECK (mx_dot (c, NULL, F32, z, z, e, z, z, e, E8M0, 32, 1, 0, &dp, MX_RNE) == MX_EINVAL,
           "dot with tc group 0 is accepted");
    /* fused-group: the group must divide the block (0, 12 and 64 do not divide 32) */
    dp.accum = MX_ACCUM_FUSED_GROUP;
    static const size_t bad[] = { 0, 12, 64, 33, (size_t) -1 };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
      {
        dp.group = bad[i];
        CHECK (mx_dot (c, NULL, F32, z, z, e, z, z, e, E8M0, 32, 1, 0, &dp, MX_RNE) == MX_EINVAL,
               "dot with fused-group group %zu, block 32 is accepted", bad[i]);
        CHECK (mx_gemm (c, NULL, F32, 2, 2, 32, z, z, e, z, z, e, E8M0, 32, NULL, &dp, MX_RNE)
               == MX_EINVAL, "gemm with fused-group group %zu, block 32 is accepted", bad[i]);
      }
    dp.group = 32;
    CHECK (mx_dot (c, NULL, F32, z, z, e, z, z, e, E8M0, 32, 1, 0, &dp, MX_RNE) == MX_OK,
           "dot with fused-group group 32, block 32 is refused");
    n += 6 + 2 * (long) (sizeof bad / sizeof bad[0]);
  }
  return finish ("tdot", n);
}
