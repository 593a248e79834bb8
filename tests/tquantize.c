/* tquantize -- seeded random FP32 and FP64 blocks, MPFR model == slow model (scale, codes, block
 * flags) for every scale rule, with rounding and the special-value policies in rotation.  A
 * quarter of the blocks are FP64: the FP32 block moved by up to 2^+-900 with random low bits, so
 * that amax lies beyond FP32's range, where the FP32-modelling rules (floor-log2f, rceil-fp32,
 * even) see 0 or Inf; a quarter are BF16 or FP16, the FP32 block rounded into them.
 * Usage: tquantize FORMAT|all [BLOCKS_PER_RULE]  (default 100000)
 * Blocks are built to hit the boundaries: amax at 2^k and its neighbours, each element format's
 * saturation threshold and the midpoints around it, exact element ties under the FLOOR scale,
 * FP32 subnormals, +-0, NaN and Inf at the first, last or a random position.
 * SPDX-License-Identifier: MIT */
#include <string.h>
#include "tests.h"

static int bitlen_u (uint64_t x) { return x ? 64 - __builtin_clzll (x) : 0; }

#define K 32

static long flog2_of (s_val v) { return v.exp + bitlen_u (v.sig) - 1; }

static uint32_t
f32_bits (s_val v) /* FP32 bits of an exactly representable dyadic (sig < 2^24) */
{
  unsigned fl;
  return (uint32_t) s_encode (mx_format_get (MX_FP32), v, MX_RNE, 0, &s_ieee, &fl);
}

/* An FP32 block as FP64: every value times 2^t, with 29 random low bits below the FP32 ones. */
static void
to_fp64 (rng *r, uint64_t b[K])
{
  long t = (long) rng_below (r, 1801) - 900;
  const mx_format *f32 = mx_format_get (MX_FP32), *f64 = mx_format_get (MX_FP64);
  for (int i = 0; i < K; i++)
    {
      s_val v = s_decode (f32, b[i]);
      unsigned fl;
      if (v.cls == S_FINITE)
        {
          v.sig = (v.sig << 29) | (rng_next (r) & 0x1FFFFFFF);
          v.exp += t - 29;
        }
      b[i] = s_encode (f64, v, MX_RNE, 0, &s_ieee, &fl);
    }
}

static void
gen_block (rng *r, const mx_format *elem, uint64_t b[K])
{
  int cls = (int) rng_below (r, 8);
  long s = (long) rng_below (r, 290) - 150; /* scale exponent region, FP32 subnormals included */
  for (int i = 0; i < K; i++)
    b[i] = rng_next (r) & 0xFFFFFFFF; /* fully random to start */

  if (cls <= 3)
    {
      /* a top element near a boundary, the rest below it */
      s_val top;
      switch (cls)
        {
        case 0: /* 2^k, pred, succ */
          top = (s_val) { S_FINITE, 0, 0xFFFFFF, s - 24 };
          if (rng_below (r, 3) == 0)
            top = (s_val) { S_FINITE, 0, 1, s };
          else if (rng_below (r, 2) == 0)
            top = (s_val) { S_FINITE, 0, 0x800001, s - 23 };
          break;
        case 1: /* element max * 2^s and its FP32 neighbours */
          {
            s_val m = s_decode (elem, s_max_mag (elem));
            uint64_t sig = m.sig << (23 - (bitlen_u (m.sig) - 1));
            top = (s_val) { S_FINITE, 0, sig + (uint64_t) rng_below (r, 3) - 1, m.exp + s - (long) (23 - (bitlen_u (m.sig) - 1)) };
            break;
          }
        default: /* a random code of the element format times 2^s, or a midpoint */
          {
            s_val m = s_decode (elem, rng_below (r, s_max_mag (elem) + 1));
            if (m.cls != S_FINITE)
              m = (s_val) { S_FINITE, 0, 1, 0 };
            top = (s_val) { S_FINITE, 0, m.sig * 2 + (cls == 3), m.exp + s - 1 };
          }
        }
      while (top.sig >= (1u << 24))
        top.sig >>= 1, top.exp++;
      b[0] = f32_bits (top);
      /* others: exact ties of the element grid under FLOOR scale 2^s, or random below top */
      for (int i = 1; i < K; i++)
        {
          uint64_t pick = rng_below (r, 4);
          if (pick == 0)
            {
              s_val lo = s_decode (elem, rng_below (r, s_max_mag (elem)));
              s_val hi = s_decode (elem, lo.cls == S_ZERO ? 1 : 0);
              (void) hi;
              uint64_t c = rng_below (r, s_max_mag (elem));
              s_val a = s_decode (elem, c), bb = s_decode (elem, c + 1);
              if (a.cls != S_FINITE && a.cls != S_ZERO)
                continue;
              /* midpoint (a + b) / 2 as a dyadic */
              long e0 = a.cls == S_ZERO ? bb.exp : (a.exp < bb.exp ? a.exp : bb.exp);
              uint64_t sa = a.cls == S_ZERO ? 0 : a.sig << (a.exp - e0), sb = bb.sig << (bb.exp - e0);
              s_val mid = { S_FINITE, (int) rng_below (r, 2), sa + sb, e0 - 1 + s };
              while (mid.sig >= (1u << 24))
                mid.sig >>= 1, mid.exp++;
              b[i] = f32_bits (mid);
            }
          else if (pick == 1)
            b[i] = (b[0] & 0x7F800000) - ((rng_below (r, 12)) << 23) + (rng_next (r) & 0x807FFFFF);
          else if (pick == 2)
            b[i] = rng_below (r, 2) ? 0x80000000u : 0;
          else
            b[i] = (rng_next (r) & 0x807FFFFF); /* FP32 subnormal */
          if ((b[i] & 0x7F800000) == 0x7F800000 || (b[i] & 0x7FFFFFFF) > (b[0] & 0x7FFFFFFF))
            b[i] = b[i] & 0x807FFFFF;
        }
    }
  else if (cls == 4)
    for (int i = 0; i < K; i++) /* all zero, or zeros and subnormals */
      b[i] = rng_below (r, 2) ? (rng_below (r, 2) ? 0x80000000u : 0) : rng_next (r) & 0x807FFFFF;
  else if (cls == 5)
    for (int i = 0; i < K; i++) /* narrow exponent range */
      b[i] = (uint32_t) ((rng_next (r) & 0x807FFFFF) | ((uint64_t) (s + 150 > 254 ? 254 : s + 150 < 1 ? 1 : s + 150 - (long) rng_below (r, 4)) << 23));
  /* sprinkle NaN / Inf */
  int sp = (int) rng_below (r, 10);
  if (sp < 3)
    {
      int pos = sp == 0 ? 0 : sp == 1 ? K - 1 : (int) rng_below (r, K);
      uint64_t v = rng_below (r, 2) ? 0x7F800000u : 0x7FC00000u | (rng_next (r) & 0x3FFFFF);
      b[pos] = v | (rng_below (r, 2) ? 0x80000000u : 0);
    }
  /* shuffle the top element away from position 0 sometimes */
  int j = (int) rng_below (r, K);
  uint64_t t = b[0];
  b[0] = b[j];
  b[j] = t;
}

/* tquantize search N: min-mse and min-maxerr on N random FP32 blocks of every element format:
 * the exact error (the slow model's, no MPFR) is never larger than floor's, and on every tenth
 * block no scale code at all does better (brute force over 0x00..0xFE). */
static long
search (rng *r, long nblk)
{
  const mx_format *e8m0 = mx_format_get (MX_E8M0), *f32 = mx_format_get (MX_FP32);
  static const mx_rounding det[] = { MX_RNE, MX_RNA, MX_RHU, MX_RTZ, MX_RUP };
  mx_format_id elems[MX_FORMAT_COUNT];
  int nelem = formats_of_role (MX_ROLE_ELEM, elems);
  long n = 0, moved = 0, brute = 0;
  for (long blk = 0; blk < nblk; blk++)
    {
      const mx_format *elem = mx_format_get (elems[blk % nelem]);
      uint64_t bits[K], s0, s1, c[K];
      gen_block (r, elem, bits);
      mx_policy pol = mx_policy_ocp ();
      mx_rounding rnd = det[(blk / nelem) % (sizeof det / sizeof det[0])];
      pol.scale_rule = blk % 2 ? MX_SCALE_MIN_MAXERR : MX_SCALE_MIN_MSE;
      mx_policy fl = pol;
      fl.scale_rule = MX_SCALE_FLOOR;
      int rc = mx_quantize (&s1, c, NULL, NULL, elem, e8m0, f32, bits, K, NULL, &pol, rnd);
      rc |= mx_quantize (&s0, c, NULL, NULL, elem, e8m0, f32, bits, K, NULL, &fl, rnd);
      CHECK (rc == MX_OK && (s0 == 0xFF) == (s1 == 0xFF), "block %ld: rc %d scales %02llX %02llX",
             blk, rc, (unsigned long long) s0, (unsigned long long) s1);
      if (s0 == 0xFF)
        continue;
      n++;
      moved += s1 != s0;
      CHECK (s_compare_scales (s1, s0, elem, e8m0, f32, bits, K, NULL, &pol, rnd) <= 0,
             "%s block %ld: %s scale %02llX has a larger error than floor's %02llX", elem->name,
             blk, mx_policy_field_get (MX_POLICY_SCALE_RULE)->values[pol.scale_rule],
             (unsigned long long) s1, (unsigned long long) s0);
      if (blk % 10 == 0)
        {
          brute++;
          uint64_t sc = s_best_scale (elem, e8m0, f32, bits, K, NULL, &pol, rnd);
          CHECK (s_compare_scales (sc, s1, elem, e8m0, f32, bits, K, NULL, &pol, rnd) >= 0,
                 "%s block %ld rnd %s: %s chose %02llX (floor %02llX), %02llX is better",
                 elem->name, blk, mx_rounding_name (rnd),
                 mx_policy_field_get (MX_POLICY_SCALE_RULE)->values[pol.scale_rule],
                 (unsigned long long) s1, (unsigned long long) s0, (unsigned long long) sc);
        }
    }
  /* the search must move off floor somewhere, or it tests nothing */
  CHECK (moved > 0, "no block moved off floor in %ld", n);
  printf ("search: %ld blocks, %ld off floor, %ld brute-forced over 255 scales\n", n, moved,
          brute);
  return n + brute;
}

/* tquantize bfp16 N: N blocks of 8 under the quark-bfp16 profile (int8, scale-bump once, NaN and
 * Inf read as 0, floor-log2-input, scale-min 07), FP32, BF16, FP16 and FP64 inputs, the rounding
 * rotated on half of them: MPFR model == slow model.  The blocks are the first 8 of tquantize's
 * structured ones with their top element moved in, so that the element-max thresholds where
 * the bump fires are hit; the test fails if no block bumps. */
static long
bfp16 (rng *r, long n)
{
  const mx_format *i8 = mx_format_get (MX_INT8), *e8m0 = mx_format_get (MX_E8M0);
  long bumped = 0, checks = 0;
  for (long blk = 0; blk < n; blk++)
    {
      uint64_t b[K], s1, s2, c1[8], c2[8], s0, c0[8];
      gen_block (r, i8, b);
      int top = 0;
      for (int i = 1; i < K; i++)
        if ((b[i] & 0x7FFFFFFF) > (b[top] & 0x7FFFFFFF) && (b[i] & 0x7F800000) != 0x7F800000)
          top = i;
      uint64_t t = b[top];
      b[top] = b[rng_below (r, 8)];
      b[rng_below (r, 8)] = t;
      const mx_format *in = mx_format_get (MX_FP32);
      unsigned pick = (unsigned) rng_below (r, 8);
      if (pick < 3)
        {
          in = mx_format_get (pick == 0 ? MX_BF16 : pick == 1 ? MX_FP16 : MX_FP64);
          for (int i = 0; i < 8; i++)
            {
              unsigned fl;
              s_val v = s_decode (mx_format_get (MX_FP32), b[i]);
              if (pick == 1 && v.cls == S_FINITE)
                v.exp -= flog2_of (v) / 6; /* pull exponents toward FP16's +-15 */
              b[i] = s_encode (in, v, MX_RNE, 0, &s_ieee, &fl);
            }
        }
      mx_policy pol;
      mx_rounding rnd;
      mx_profile_get (&pol, &rnd, MX_PROFILE_QUARK_BFP16);
      if (blk % 2)
        rnd = (mx_rounding) (rng_below (r, MX_ROUNDING_COUNT - 1)); /* all but sr */
      unsigned f1 = 0;
      int rc = mx_quantize (&s1, c1, &f1, NULL, i8, e8m0, in, b, 8, NULL, &pol, rnd);
      unsigned f2 = s_quantize (&s2, c2, i8, e8m0, in, b, 8, NULL, &pol, rnd);
      int ok = rc == MX_OK && s1 == s2 && f1 == f2 && memcmp (c1, c2, sizeof c1) == 0;
      checks++;
      CHECK (ok, "bfp16 %s rnd %s block %ld: scale %02llX/%02llX flags %02X/%02X", in->name,
             mx_rounding_name (rnd), blk, (unsigned long long) s1, (unsigned long long) s2, f1,
             f2);
      /* the bump fired where scale-bump none gives a smaller scale */
      mx_policy nb = pol;
      nb.scale_bump = MX_SCALE_BUMP_NONE;
      mx_quantize (&s0, c0, NULL, NULL, i8, e8m0, in, b, 8, NULL, &nb, rnd);
      bumped += s0 != s1;
    }
  CHECK (bumped > 0, "no block of %ld bumped", n);
  printf ("bfp16: %ld blocks of 8, %ld bumped\n", n, bumped);
  return checks;
}

int
main (int argc, char **argv)
{
  const char *which = argc > 1 ? argv[1] : "all";
  if (strcmp (which, "bfp16") == 0)
    {
      rng r = { test_seed () ^ 0xBF16ull };
      long n = bfp16 (&r, test_count (argc, argv, 2, 100000));
      return finish ("tquantize bfp16", n);
    }
  if (strcmp (which, "search") == 0)
    {
      rng r = { test_seed () ^ 0x5EA4C8ull };
      long n = search (&r, test_count (argc, argv, 2, 100000));
      return finish ("tquantize search", n);
    }
  long per_rule = test_count (argc, argv, 2, 100000), n = 0;
  const mx_format *e8m0 = mx_format_get (MX_E8M0);
  rng r = { test_seed () ^ (uint64_t) strlen (which) };
  mx_format_id elems[MX_FORMAT_COUNT];
  int nelem = formats_of_role (MX_ROLE_ELEM, elems);

  for (int fi = 0; fi < nelem; fi++)
    {
      const mx_format *elem = mx_format_get (elems[fi]);
      if (strcmp (which, "all") != 0 && strcmp (which, elem->name) != 0)
        continue;
      for (int rule = 0; rule < MX_SCALE_RULE_COUNT; rule++)
        for (long blk = 0; blk < per_rule; blk++, n++)
          {
            uint64_t bits[K], s1, s2, c1[K], c2[K];
            uint32_t rb[K];
            gen_block (&r, elem, bits);
            const mx_format *in = mx_format_get (MX_FP32);
            unsigned pick = (unsigned) rng_below (&r, 8);
            if (pick < 2)
              {
                to_fp64 (&r, bits);
                in = mx_format_get (MX_FP64);
              }
            else if (pick < 4)
              {
                /* BF16 or FP16: the FP32 block rounded (RNE) into it, scaled into FP16's range */
                in = mx_format_get (pick == 2 ? MX_BF16 : MX_FP16);
                for (int i = 0; i < K; i++)
                  {
                    s_val v = s_decode (mx_format_get (MX_FP32), bits[i]);
                    if (pick == 3 && v.cls == S_FINITE)
                      v.exp -= flog2_of (v) / 6; /* pull exponents toward FP16's +-15 */
                    unsigned fl;
                    bits[i] = s_encode (in, v, MX_RNE, 0, &s_ieee, &fl);
                  }
              }
            mx_policy pol = mx_policy_ocp ();
            mx_rounding rnd = MX_RNE;
            pol.scale_rule = (mx_scale_rule) rule;
            uint64_t knobs = rng_next (&r);
            if (blk % 2) /* half the blocks OCP-default, half with rotated policies */
              {
                rnd = (mx_rounding) (knobs % MX_ROUNDING_COUNT);
                pol.overflow = (mx_overflow) ((knobs >> 8) & 1);
                pol.nan_block = (mx_nan_block) ((knobs >> 9) & 1);
                pol.inf_block = (mx_inf_block) ((knobs >> 10) % MX_INF_BLOCK_COUNT);
                pol.subnormals = (mx_subnormals) ((knobs >> 56) % MX_SUBNORMALS_COUNT);
                pol.zero_sign = (mx_zero_sign) (((knobs >> 13) & 1) + ((knobs >> 39) & 1)); /* 0..2 */
                pol.int_range = (mx_int_range) ((knobs >> 14) & 1);
                pol.scale_overflow = (mx_scale_overflow) ((knobs >> 15) & 1);
                pol.nan_elem = (mx_nan_elem) ((knobs >> 16) % 3);
                pol.zero_scale = (knobs >> 20) & 1 ? 0x7F : 0x00;
                pol.sr_bits = 1 + (unsigned) ((knobs >> 24) % 32);
                pol.nan_code = (mx_nan_code) ((knobs >> 30) & 1);
                pol.wide_input = (mx_wide_input) ((knobs >> 31) & 1);
                pol.min_scale_elem = (mx_min_scale_elem) ((knobs >> 32) % 3);
                pol.scale_min = (knobs >> 34) & 1 ? 0x07 : 0x00;
                pol.scale_div = (mx_scale_div) ((knobs >> 35) & 1);
                pol.sr_frac = (mx_sr_frac) ((knobs >> 36) & 3);
                pol.scale_bump = (mx_scale_bump) ((knobs >> 38) & 1);
              }
            /* one block in four of every rule under an EkMm scale: powers of two of other
             * widths, and linear scales rounded by every scale-round */
            const mx_format *sfmt = e8m0;
            if (blk % 4 == 3)
              {
                static const unsigned km[][2] = { { 5, 0 }, { 10, 0 }, { 3, 0 }, { 8, 1 },
                                                  { 8, 3 }, { 4, 3 }, { 5, 2 }, { 10, 2 } };
                unsigned j = (unsigned) ((knobs >> 40) % 8);
                sfmt = mx_format_scale (km[j][0], km[j][1]);
                pol.scale_round = (mx_scale_round) ((knobs >> 44) % MX_SCALE_ROUND_COUNT);
                uint64_t zmax = s_max_mag (sfmt) < 0xFF ? s_max_mag (sfmt) : 0xFF;
                pol.zero_scale = (unsigned) ((knobs >> 48) % (zmax + 1));
                if (pol.scale_min > s_max_mag (sfmt))
                  pol.scale_min = 0;
              }
            for (int i = 0; i < K; i++)
              rb[i] = (uint32_t) rng_next (&r);
            unsigned f1 = 0;
            int rc = mx_quantize (&s1, c1, &f1, NULL, elem, sfmt, in, bits, K, rb, &pol, rnd);
            unsigned f2 = s_quantize (&s2, c2, elem, sfmt, in, bits, K, rb, &pol, rnd);
            int ok = rc == MX_OK && s1 == s2 && f1 == f2 && memcmp (c1, c2, sizeof c1) == 0;
            CHECK (ok, "%s %s scale %s rule %s rnd %s block %ld: scale %02llX/%02llX flags "
                   "%02X/%02X", in->name, elem->name, sfmt->name,
                   mx_policy_field_get (MX_POLICY_SCALE_RULE)->values[rule],
                   mx_rounding_name (rnd), blk, (unsigned long long) s1,
                   (unsigned long long) s2, f1, f2);
            if (!ok && failures <= 3)
              {
                for (int i = 0; i < K; i++)
                  if (c1[i] != c2[i] || i == 0)
                    fprintf (stderr, "  [%d] in %016llX mpfr %02llX slow %02llX\n", i,
                             (unsigned long long) bits[i], (unsigned long long) c1[i],
                             (unsigned long long) c2[i]);
              }
          }
    }

  /* blocks longer than libmxgold keeps on the stack (k 65 and 128: its heap path) against the
   * slow model, and mx_quantize_mpfr with wide-input fp32 on values wider than a stack
   * variable (300 bits): the FP32 roundings of the values quantized */
  {
    static uint64_t bits[128], c1[128], c2[128];
    mx_policy pol = mx_policy_ocp ();
    const mx_format *f32 = mx_format_get (MX_FP32), *e8m0 = mx_format_get (MX_E8M0);
    for (int it = 0; it < 200; it++, n++)
      {
        size_t k = it % 2 ? 128 : 65;
        const mx_format *elem = mx_format_get (MX_E4M3 + it % 3);
        for (size_t i = 0; i < k; i++)
          bits[i] = (rng_next (&r) & 0x80FFFFFFu) | (uint64_t) (100 + rng_below (&r, 40)) << 23;
        uint64_t s1, s2;
        unsigned f1 = 0;
        int rc = mx_quantize (&s1, c1, &f1, NULL, elem, e8m0, f32, bits, k, NULL, &pol, MX_RNE);
        unsigned f2 = s_quantize (&s2, c2, elem, e8m0, f32, bits, k, NULL, &pol, MX_RNE);
        CHECK (rc == MX_OK && s1 == s2 && f1 == f2 && memcmp (c1, c2, k * sizeof *c1) == 0,
               "k = %zu %s: scale %02llX/%02llX flags %02X/%02X", k, elem->name,
               (unsigned long long) s1, (unsigned long long) s2, f1, f2);
      }
    mpfr_t v[32];
    pol.wide_input = MX_WIDE_INPUT_FP32;
    for (int it = 0; it < 200; it++, n++)
      {
        for (int i = 0; i < 32; i++)
          {
            /* an FP32 value plus a tail 2^-200 below it (or none): wider than 192 bits */
            bits[i] = (rng_next (&r) & 0x80FFFFFFu) | (uint64_t) (110 + rng_below (&r, 30)) << 23;
            mpfr_init2 (v[i], 300);
            mx_decode (v[i], f32, bits[i]);
            if (rng_below (&r, 2))
              {
                mpfr_t tail;
                mpfr_init2 (tail, 2);
                mpfr_set_ui_2exp (tail, 1, mpfr_get_exp (v[i]) - 200, MPFR_RNDN);
                mpfr_add (v[i], v[i], tail, MPFR_RNDN); /* exact at 300 bits; FP32 RNE gives bits[i] */
                mpfr_clear (tail);
              }
          }
        uint64_t s1, s2;
        unsigned f1 = 0;
        mx_policy ocp = mx_policy_ocp ();
        int rc = mx_quantize_mpfr (&s1, c1, &f1, NULL, mx_format_get (MX_E4M3), e8m0,
                                   (const mpfr_t *) v, 32, NULL, &pol, MX_RNE);
        s_quantize (&s2, c2, mx_format_get (MX_E4M3), e8m0, f32, bits, 32, NULL, &ocp, MX_RNE);
        CHECK (rc == MX_OK && s1 == s2 && memcmp (c1, c2, 32 * sizeof *c1) == 0,
               "wide-input fp32, 300-bit values: scale %02llX/%02llX", (unsigned long long) s1,
               (unsigned long long) s2);
        for (int i = 0; i < 32; i++)
          mpfr_clear (v[i]);
      }
  }
  return finish ("tquantize", n);
}
