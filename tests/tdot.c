/* tdot -- mx_dot and mx_gemm against the independent integer model and against hand-worked
 * examples.  Usage: tdot [FORMAT_A|all] [RANDOM_DOTS_PER_PAIR_AND_MODEL]  (default all 100000)
 *  - every element-pair product of every format pair (exact and block-fp32)
 *  - seeded random block pairs (1..4 blocks, specials mixed in, every deterministic rounding)
 *  - exact and block-fp32 differ where they must (cancellation across blocks) and agree where
 *    they must (one block, C_in = +0)
 *  - tensor-core presets on hand-worked examples
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
         uint64_t cin, mx_accum acc, mx_rounding rnd)
{
  mx_dot_policy dp = mx_dot_policy_default ();
  dp.accum = acc;
  uint64_t o1 = 0, o2;
  unsigned f1 = 0;
  mx_dot (&o1, &f1, of, sa, a, ea, sb, b, eb, E8M0, k, nb, cin, &dp, rnd);
  unsigned f2 = s_dot (&o2, of, sa, a, ea, sb, b, eb, E8M0, k, nb, cin, acc, rnd);
  n++;
  CHECK (o1 == o2 && f1 == f2, "%s x %s %s %s k=%zu nb=%zu cin %08llX: mpfr %08llX/%02X slow %08llX/%02X",
         ea->name, eb->name, mx_accum_name (acc), mx_rounding_name (rnd), k, nb,
         (unsigned long long) cin, (unsigned long long) o1, f1, (unsigned long long) o2, f2);
}

int
main (int argc, char **argv)
{
  const char *which = argc > 1 ? argv[1] : "all";
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
      if (strcmp (which, "all") != 0 && strcmp (which, ea->name) != 0)
        continue;
      for (int ib = 0; ib < nelem; ib++)
        {
          const mx_format *eb = mx_format_get (elems[ib]);
          /* every element-pair product, X_A = X_B = 1, C_in = +0 */
          for (uint64_t x = 0; x < (1u << ea->bits); x++)
            for (uint64_t y = 0; y < (1u << eb->bits); y++)
              {
                uint64_t s1 = 0x7F;
                compare (F32, &s1, &x, ea, &s1, &y, eb, 1, 1, 0, MX_ACCUM_EXACT, MX_RNE);
                compare (F32, &s1, &x, ea, &s1, &y, eb, 1, 1, 0, MX_ACCUM_BLOCK_FP32, MX_RNE);
              }
          /* random block pairs */
          for (int acc = 0; acc < 2; acc++)
            for (long it = 0; it < per; it++)
              {
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
                compare (F32, sa, a, ea, sb, b, eb, k, nb, cin, (mx_accum) acc, det[it % ndet]);
                if (it % 16 == 0)
                  compare (mx_format_get (it % 32 ? MX_BF16 : MX_FP16), sa, a, ea, sb, b, eb, k,
                           nb, cin, (mx_accum) acc, det[(it / 16) % ndet]);
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
      mx_accum acc = (mx_accum) (it % 2);
      mx_rounding rnd = det[it % ndet];
      mx_dot_policy dp = mx_dot_policy_default ();
      dp.accum = acc;
      unsigned fl, fall = 0;
      int rc = mx_gemm (c, &fl, F32, M, N, KD, as, ac, ea, bs, bc, eb, E8M0, k, cin, &dp, rnd);
      CHECK (rc == MX_OK, "mx_gemm %zux%zux%zu returned %d", M, N, KD, rc);
      for (size_t i = 0; i < M; i++)
        for (size_t j = 0; j < N; j++, n++)
          {
            fall |= s_dot (&d, F32, as + i * NB, ac + i * KD, ea, bs + j * NB, bc + j * KD, eb,
                           E8M0, k, NB, cin[i * N + j], acc, rnd);
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
    n += 5;
  }
  return finish ("tdot", n);
}
