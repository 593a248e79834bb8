/* tcuda_conv.c -- libmxk_cuda's per-element arithmetic (kernels/cuda/include/mxk_cuda_conv.h,
 * the __host__ __device__ functions every CUDA kernel computes its bits with), compiled here by
 * the host C compiler and checked against libmxgold on machines without a GPU:
 *   scale    every BF16 and FP16 pattern as a block's largest magnitude, every element format,
 *            floor and rceil-fp32; FP32 amax: all 2^23 significands of one binade and the FP32-
 *            subnormal boundaries of rceil-fp32, 2 x 10^5 random patterns
 *   elem     every BF16 and FP16 pattern as an element under every shared exponent -127..127 it
 *            can have (|v| <= the block's amax), every format, rne rna rtz rup rdn and sr under 8
 *            fixed words and the two words either side of each value's threshold; the expected code of v under x is libmxgold's for the exact quotient
 *            v / 2^x, asked once per distinct quotient (the element encode depends on nothing
 *            else); the magic-add route (mxkc_quant_elem_fast, the device's) likewise under
 *            every x a fast-range block can have
 *   dequant  every code x every scale x format, to FP32 and to BF16
 *   block    random FP32 blocks (subnormals, ties, NaN/Inf, zero) through the kernels' block
 *            steps (both element routes where a block is in the fast range), every format x
 *            rule x rounding, and the packings
 *   fast     the magic-add route against the integer route on FP32 inputs (see test_fast)
 * Usage: tcuda_conv [all|scale|elem|dequant|block|fast] [random blocks per combination, 4000]
 * SPDX-License-Identifier: MIT */
#include <math.h>
#include <string.h>
#include "tests.h"
#include "mxk_cuda_conv.h"

static const mx_format *E8M0;
static const mx_rounding rnds[] = { MX_RNE, MX_RNA, MX_RTZ, MX_RUP, MX_RDN };
static const uint32_t srw[] = { 0, 1, 0x5555, 0x7FFF, 0x8000, 0xAAAA, 0xFFFE, 0xFFFF };
/* roundings: the five deterministic ones, sr under each word of srw, then sr under the two words
 * around each quotient's threshold (2^16 - f and 2^16 - f - 1, f the discarded fraction's top 16
 * bits: up and not up) */
#define NR (5 + 8 + 2)
static const mx_scale_rule rules[] = { MX_SCALE_FLOOR, MX_SCALE_RCEIL_FP32 };

static mx_rounding
rnd_of (int r)
{
  return r < 5 ? rnds[r] : MX_SR;
}

static const char *
rnd_name (int r)
{
  return r < 5 ? mx_rounding_name (rnds[r]) : r < 13 ? "sr" : r == 13 ? "sr-at-threshold" : "sr-below-threshold";
}

/* sr's word for rounding index r; f16: the discarded fraction's top 16 bits. */
static uint32_t
word_of (int r, uint32_t f16)
{
  return r < 5 ? 0 : r < 13 ? srw[r - 5] : r == 13 ? (0x10000u - f16) & 0xFFFF : 0xFFFFu - f16;
}

/* libmxgold: one block of k input patterns of format in (every sr word: word). */
static uint8_t
golden_w (uint8_t *codes, const uint64_t *x, size_t k, mx_format_id in, mx_format_id elem,
          mx_scale_rule rule, int r, uint32_t word)
{
  mx_policy p = mx_policy_ocp ();
  p.scale_rule = rule;
  uint64_t s, c[32];
  uint32_t w[32];
  for (size_t i = 0; i < k; i++)
    w[i] = word;
  if (mx_quantize (&s, c, NULL, NULL, mx_format_get (elem), E8M0, mx_format_get (in), x, k,
                   r < 5 ? NULL : w, &p, rnd_of (r)) != MX_OK)
    {
      fprintf (stderr, "tcuda_conv: mx_quantize refused a block\n");
      exit (1);
    }
  for (size_t i = 0; i < k; i++)
    codes[i] = (uint8_t) c[i];
  return (uint8_t) s;
}

static uint8_t
golden (uint8_t *codes, const uint64_t *x, size_t k, mx_format_id in, mx_format_id elem,
        mx_scale_rule rule, int r)
{
  return golden_w (codes, x, k, in, elem, rule, r, word_of (r, 0));
}

/* The top 16 bits of the part of sig * 2^(d - fbits) below the element quantum at exponent d. */
static uint32_t
frac16 (uint64_t sig, int d, int fbits, const mxkc_fmt *f)
{
  int q = f->is_int ? -f->mbits : (d > f->emin ? d : f->emin) - f->mbits;
  int sh = q - (d - fbits);
  if (sh <= 0)
    return 0;
  uint64_t fr = sig & (((uint64_t) 1 << sh) - 1);
  return (uint32_t) ((sh <= 16 ? fr << (16 - sh) : fr >> (sh - 16)) & 0xFFFF);
}

static long checks;

/*------------------------------------------------------------------ scale -*/
static void
check_scale (uint32_t bits, mx_format_id in, mx_format_id elem, mx_scale_rule rule)
{
  mxkc_fmt f = mxkc_fmt_of (elem);
  uint64_t x = bits;
  uint8_t code, gc;
  uint8_t gs = golden (&gc, &x, 1, in, elem, rule, 0);
  int e;
  uint32_t amax = mxkc_fp32_of (bits, in) & 0x7FFFFFFFu;
  uint8_t s = mxkc_block_scale (amax, &f, rule, &e);
  code = s == 0xFF ? 0 : mxkc_quant_elem (mxkc_fp32_of (bits, in), e, &f, MX_RNE, 0);
  checks++;
  CHECK (s == gs && code == gc, "scale %s %s %s in 0x%X: 0x%02X code 0x%02X, libmxgold 0x%02X 0x%02X",
         mx_format_get (in)->name, mx_format_get (elem)->name,
         mx_policy_field_get (MX_POLICY_SCALE_RULE)->values[rule], bits, s, code, gs, gc);
}

static void
test_scale (const mx_format_id *elems, int ne)
{
  rng g = { test_seed () ^ 0x5CA1Eu };
  for (int fi = 0; fi < ne; fi++)
    for (int ri = 0; ri < 2; ri++)
      {
        for (uint32_t v = 0; v < 0x10000; v++)
          {
            check_scale (v, MX_BF16, elems[fi], rules[ri]);
            check_scale (v, MX_FP16, elems[fi], rules[ri]);
          }
        for (int i = 0; i < 200000; i++)
          check_scale ((uint32_t) rng_next (&g), MX_FP32, elems[fi], rules[ri]);
      }
  /* rceil-fp32 rounds amax * fl32(1/max) at 24 bits: every significand of one binade (the
   * expected scale from libmxgold's change points, found by bisection: the rule is monotone in
   * amax), and every pattern around the two FP32-subnormal boundaries of the product
   * (2^-127 + 2^-150, 2^-126) */
  for (int fi = 0; fi < ne; fi++)
    {
      mxkc_fmt f = mxkc_fmt_of (elems[fi]);
      uint32_t lo = 130u << 23, cut[8];
      int ncut = 0;
      uint8_t c, s0 = 0;
      uint64_t xb = lo;
      s0 = golden (&c, &xb, 1, MX_FP32, elems[fi], MX_SCALE_RCEIL_FP32, 0);
      for (uint32_t a = lo; a < lo + 0x800000u && ncut < 8;)
        {
          /* the first pattern in (a, end) whose scale differs from a's, by bisection */
          uint64_t xa = a;
          uint8_t sa = golden (&c, &xa, 1, MX_FP32, elems[fi], MX_SCALE_RCEIL_FP32, 0);
          uint32_t l = a, h = lo + 0x800000u;
          uint64_t xh = h - 1;
          if (golden (&c, &xh, 1, MX_FP32, elems[fi], MX_SCALE_RCEIL_FP32, 0) == sa)
            break;
          while (h - l > 1)
            {
              uint32_t mid = l + (h - l) / 2;
              uint64_t xm = mid;
              if (golden (&c, &xm, 1, MX_FP32, elems[fi], MX_SCALE_RCEIL_FP32, 0) == sa)
                l = mid;
              else
                h = mid;
            }
          cut[ncut++] = h;
          a = h;
        }
      for (uint32_t a = lo, k = 0; a < lo + 0x800000u; a++)
        {
          while ((int) k < ncut && a >= cut[k])
            k++;
          int e;
          uint8_t got = mxkc_block_scale (a, &f, MX_SCALE_RCEIL_FP32, &e);
          checks++;
          CHECK (got == (uint8_t) (s0 + k), "rceil-fp32 %s amax 0x%08X: 0x%02X, libmxgold 0x%02X",
                 mx_format_get (elems[fi])->name, a, got, (unsigned) (s0 + k));
        }
      double rcp = ldexp ((double) f.rcp_sig, f.rcp_exp);
      double bounds[2] = { (0x1p-127 + 0x1p-150) / rcp, 0x1p-126 / rcp };
      for (int b = 0; b < 2; b++)
        {
          float fb = (float) bounds[b];
          uint32_t c;
          memcpy (&c, &fb, 4);
          for (uint32_t d = c - 4096; d != c + 4096; d++)
            check_scale (d, MX_FP32, elems[fi], MX_SCALE_RCEIL_FP32);
        }
    }
}

/*------------------------------------------------------------------- elem -*/
/* FP32 value of the largest pattern below 2^(x + emax + 1): a block amax that gives shared
 * exponent x under floor. */
static uint32_t
amax_for (int x, const mxkc_fmt *f)
{
  int t = x + f->emax;                     /* -126 .. 127 in every use below */
  return ((uint32_t) (t + 127) << 23) | 0x7FFFFFu;
}

/* floor(log2 |v|) and the significand of v (nonzero FP32 bits) as an integer of exactly
 * 24 bits. */
static void
split24 (uint32_t v, int *ev, uint32_t *sig)
{
  uint32_t e = (v >> 23) & 0xFF, m = v & 0x7FFFFF;
  if (e)
    *ev = (int) e - 127, *sig = m | 0x800000u;
  else
    {
      int lz = __builtin_clz (m) - 8;
      *ev = -126 - lz, *sig = m << lz;
    }
}

/* A BF16 or FP16 pattern's FP32 bits, through a double (the test's own widening). */
static uint32_t
widen (uint32_t p, mx_format_id in)
{
  if (in == MX_BF16)
    return p << 16;
  uint32_t e = (p >> 10) & 0x1F, m = p & 0x3FF, s = (p & 0x8000u) << 16;
  if (e == 0x1F)
    return s | 0x7F800000u | (m ? 0x400000u : 0);
  float v = (float) ldexp ((double) (e ? m | 0x400 : m), (e ? (int) e : 1) - 25);
  uint32_t u;
  memcpy (&u, &v, 4);
  return s | u;
}

/* Every pattern of a 16-bit input format as an element under every shared exponent it can have.
 * Distinct quotients v / 2^x = sig * 2^(d - 23) * sign with d = floor(log2 |v|) - x, d in
 * dlo..emax; below dlo every rounding gives what it gives at dlo (the value is under 2^-18
 * quanta: 0, or the least subnormal in the direction of rup/rdn). */
static void
test_elem_input (mx_format_id in, mx_format_id elem, int r)
{
  mxkc_fmt f = mxkc_fmt_of (elem);
  int fbits = in == MX_BF16 ? 7 : 10;     /* fraction bits of the input format */
  int qmin = f.is_int ? -f.mbits : f.emin - f.mbits; /* the least quantum */
  int dlo = qmin - 20, dhi = f.emax, nd = dhi - dlo + 1;
  size_t nsig = (size_t) 1 << fbits;
  uint8_t *table = malloc (2 * nsig * (size_t) nd);
  if (!table)
    exit (1);
  /* libmxgold, once per (sign, significand, d): v = 1.m * 2^0 under x = -d */
  for (int s = 0; s < 2; s++)
    for (size_t m = 0; m < nsig; m++)
      for (int d = dlo; d <= dhi; d++)
        {
          int x = -d;
          uint32_t v32 = ((uint32_t) s << 31) | (127u << 23) | (uint32_t) (m << (23 - fbits));
          /* the block, in FP32 (the quotient is all the encode sees): amax, then v */
          uint64_t blk[2] = { amax_for (x, &f), v32 };
          uint8_t c[2];
          uint32_t w = word_of (r, frac16 ((1u << fbits) | m, d, fbits, &f));
          uint8_t gs = golden_w (c, blk, 2, MX_FP32, elem, MX_SCALE_FLOOR, r, w);
          if (gs != (uint8_t) (x + 127))
            {
              fprintf (stderr, "tcuda_conv: block amax gave scale 0x%02X, not x = %d\n", gs, x);
              exit (1);
            }
          table[((size_t) s * nsig + m) * (size_t) nd + (size_t) (d - dlo)] = c[1];
        }
  mx_rounding rnd = rnd_of (r);
  /* the magic route's least shared exponent (a fast-range amax, 2^-80 or sr's 2^-64, under
   * floor; rceil-fp32 gives no less), one below for margin */
  int xfast = (rnd == MX_SR ? -64 : -80) - f.emax - 1;
  long bad = 0;
  for (uint32_t p = 0; p < 0x10000; p++)
    {
      uint32_t v = widen (p, in), av = v & 0x7FFFFFFFu;
      checks++;
      CHECK (mxkc_fp32_of (p, in) == v || av > 0x7F800000u, "%s 0x%04X widened to 0x%08X, not 0x%08X",
             mx_format_get (in)->name, p, mxkc_fp32_of (p, in), v);
      if (av >= 0x7F800000u)
        continue;                        /* NaN/Inf: the block's scale is NaN, no element encode */
      int ev = 0;
      uint32_t sig = 0;
      if (av)
        split24 (av, &ev, &sig);
      for (int x = -127; x <= 127; x++)
        {
          /* |v| <= amax and amax <= max * 2^x (every rule picks x so): floor(log2 |v|) - x is
           * at most emax */
          int d = ev - x;
          if (av && d > dhi)
            continue;
          uint8_t want;
          uint32_t word = word_of (r, 0);
          if (av == 0)
            want = (v >> 31) && !f.is_int ? (uint8_t) f.signbit : 0;
          else
            {
              d = d < dlo ? dlo : d;
              size_t m = (sig & 0x7FFFFF) >> (23 - fbits);
              word = word_of (r, frac16 ((1u << fbits) | m, d, fbits, &f));
              want = table[((size_t) (v >> 31) * nsig + m) * (size_t) nd + (size_t) (d - dlo)];
            }
          uint8_t got = mxkc_quant_elem (v, x, &f, rnd, word);
          checks++;
          if (got != want && bad++ < 5)
            CHECK (0, "elem %s %s %s in 0x%04X x %d: 0x%02X, libmxgold 0x%02X", mx_format_get (in)->name,
                   mx_format_get (elem)->name, rnd_name (r), p, x, got, want);
          else if (got != want)
            failures++;
          if (x < xfast)
            continue;
          got = mxkc_quant_elem_fast (v, x, &f, rnd, word);
          checks++;
          if (got != want && bad++ < 5)
            CHECK (0, "elem (magic route) %s %s %s in 0x%04X x %d: 0x%02X, libmxgold 0x%02X",
                   mx_format_get (in)->name, mx_format_get (elem)->name, rnd_name (r), p, x, got, want);
          else if (got != want)
            failures++;
        }
    }
  free (table);
}

/*------------------------------------------------------------------- fast -*/
/* The magic-add route against the integer one (itself checked against libmxgold above) on FP32
 * inputs, whose 24-bit significands reach remainders BF16 and FP16 cannot: every exponent field
 * and sign, the significand's top 6 and low 6 bits in every combination (the middle 11 from the
 * seed), under shared exponents from the least a fast-range block has to 127. */
static void
test_fast (const mx_format_id *elems, int ne)
{
  rng g = { test_seed () ^ 0xFA57u };
  for (int fi = 0; fi < ne; fi++)
    for (int r = 0; r < 6; r++)
      {
        mxkc_fmt f = mxkc_fmt_of (elems[fi]);
        mx_rounding rnd = r < 5 ? rnds[r] : MX_SR;
        int xlo = (rnd == MX_SR ? -64 : -80) - f.emax - 1;
        const int xs[] = { xlo, xlo + 1, xlo + 2, -64, -40, -20, -3, 0, 1, 40, 100, 126, 127 };
        long bad = 0;
        for (size_t xi = 0; xi < sizeof xs / sizeof xs[0]; xi++)
          {
            int x = xs[xi];
            if (x < xlo)
              continue;
            for (uint32_t e = 0; e < 255; e++)
              for (uint32_t k = 0; k < 4096; k++)
                {
                  uint32_t mid = (uint32_t) rng_next (&g) & 0x7FF;
                  uint32_t m = (k >> 6) << 17 | mid << 6 | (k & 63);
                  uint32_t v = (uint32_t) rng_below (&g, 2) << 31 | e << 23 | m;
                  /* |v| <= amax <= max * 2^x: floor(log2 |v|) - x at most emax */
                  if (e && (int) e - 127 - x > f.emax)
                    continue;
                  uint32_t w = (uint32_t) rng_next (&g) & 0xFFFF;
                  uint8_t want = mxkc_quant_elem (v, x, &f, rnd, w);
                  uint8_t got = mxkc_quant_elem_fast (v, x, &f, rnd, w);
                  checks++;
                  if (got != want && bad++ < 5)
                    CHECK (0, "fast %s %s 0x%08X x %d (word 0x%04X): 0x%02X, integer route 0x%02X",
                           mx_format_get (elems[fi])->name, mx_rounding_name (rnd), v, x, w, got, want);
                  else if (got != want)
                    failures++;
                }
          }
      }
}

/*---------------------------------------------------------------- dequant -*/
static void
test_dequant (const mx_format_id *elems, int ne)
{
  /* mxkc_round_e8 at FP32's bottom, hand-derived (2^-149 is the least subnormal, 0x00000001):
   * far below half of it, exactly half (a tie to even: 0), just above half, 1.5 of it (tie: 2) */
  static const struct { uint32_t neg; uint64_t sig; int e; uint32_t want; } probe[] = {
    { 0, (1ull << 62) | 1, -215, 0x00000000u }, { 0, 1ull << 62, -212, 0x00000000u },
    { 0, (1ull << 62) + 1, -212, 0x00000001u }, { 1, 3, -150, 0x80000002u },
    { 0, 1, -150, 0x00000000u }, { 1, 1, -300, 0x80000000u } };
  for (size_t i = 0; i < sizeof probe / sizeof probe[0]; i++)
    {
      uint32_t got = mxkc_round_e8 (probe[i].neg, probe[i].sig, probe[i].e, 23);
      checks++;
      CHECK (got == probe[i].want, "mxkc_round_e8 probe %zu: 0x%08X, want 0x%08X", i, got, probe[i].want);
    }
  for (int fi = 0; fi < ne; fi++)
    {
      mxkc_fmt f = mxkc_fmt_of (elems[fi]);
      size_t nc = (size_t) 1 << f.bits;
      uint64_t codes[256], out[256];
      for (size_t c = 0; c < nc; c++)
        codes[c] = c;
      for (int bf = 0; bf < 2; bf++)
        for (uint32_t s = 0; s < 256; s++)
          {
            unsigned fl;
            mx_dequantize (out, &fl, mx_format_get (bf ? MX_BF16 : MX_FP32), s, codes,
                           mx_format_get (elems[fi]), E8M0, nc, MX_RNE);
            for (size_t c = 0; c < nc; c++)
              {
                uint32_t got = mxkc_dequant_elem ((uint8_t) c, (uint8_t) s, &f, bf);
                /* the kernels' route: the code's FP32 value from the table, two multiplies */
                uint32_t v = mxkc_scale_f32 (mxkc_decode_f32 ((uint8_t) c, &f), (uint8_t) s);
                uint32_t fast = bf ? mxkc_bf16_of (v) : v;
                checks++;
                CHECK (fast == out[c], "dequant (table and multiplies) %s -> %s code 0x%02zX scale 0x%02X: 0x%08X, libmxgold 0x%08llX",
                       mx_format_get (elems[fi])->name, bf ? "bf16" : "fp32", c, s, fast,
                       (unsigned long long) out[c]);
                checks++;
                CHECK (got == out[c], "dequant %s -> %s code 0x%02zX scale 0x%02X: 0x%08X, libmxgold 0x%08llX",
                       mx_format_get (elems[fi])->name, bf ? "bf16" : "fp32", c, s, got,
                       (unsigned long long) out[c]);
              }
          }
    }
}

/*------------------------------------------------------------------ block -*/
static uint32_t
random_value (rng *g, int ebase)
{
  uint32_t u = (uint32_t) rng_next (g);
  switch (rng_below (g, 16))
    {
    case 0: return u & 0x807FFFFFu;                         /* FP32 subnormal */
    case 1: return 0;
    case 2: return 0x80000000u;
    case 3: return (u & 0x80000000u) | ((uint32_t) ebase << 23) | (u & 0x7C0000u) | 0x20000u; /* tie-ish */
    default: break;
    }
  int e = ebase - (int) rng_below (g, 40);
  e = e < 0 ? 0 : e > 254 ? 254 : e;
  return (u & 0x807FFFFFu) | ((uint32_t) e << 23);
}

static void
test_block (const mx_format_id *elems, int ne, long nblocks)
{
  rng g = { test_seed () ^ 0xB10Cu };
  for (int fi = 0; fi < ne; fi++)
    for (int ri = 0; ri < 2; ri++)
      for (int r = 0; r < 6; r++)          /* five deterministic roundings, then sr */
        for (long b = 0; b < nblocks; b++)
          {
            mxkc_fmt f = mxkc_fmt_of (elems[fi]);
            uint32_t v[32], amax = 0, w[32];
            uint64_t x[32], s;
            uint64_t c[32];
            int ebase = (int) rng_below (&g, 256);
            for (int i = 0; i < 32; i++)
              {
                v[i] = random_value (&g, ebase);
                if (rng_below (&g, 5000) == 0)
                  v[i] = (v[i] & 0x80000000u) | 0x7F800000u | (rng_below (&g, 2) ? 1u : 0u);
                x[i] = v[i];
                w[i] = (uint32_t) rng_next (&g) & 0xFFFF;
                amax = (v[i] & 0x7FFFFFFFu) > amax ? v[i] & 0x7FFFFFFFu : amax;
              }
            mx_policy p = mx_policy_ocp ();
            p.scale_rule = rules[ri];
            mx_rounding rnd = r < 5 ? rnds[r] : MX_SR;
            mx_quantize (&s, c, NULL, NULL, mx_format_get (elems[fi]), E8M0, mx_format_get (MX_FP32), x,
                         32, r < 5 ? NULL : w, &p, rnd);
            int e;
            uint8_t ks = mxkc_block_scale (amax, &f, rules[ri], &e);
            int ok = ks == s;
            int fast = mxkc_fast_amax (amax, rnd);
            for (int i = 0; i < 32; i++)
              {
                ok &= (ks == 0xFF ? 0 : mxkc_quant_elem (v[i], e, &f, rnd, w[i])) == c[i];
                if (fast)                  /* the device's route for such a block */
                  ok &= mxkc_quant_elem_fast (v[i], e, &f, rnd, w[i]) == c[i];
              }
            /* the packings the kernels write, against libmxgold's mx_pack */
            mx_packing pk = f.bits == 4 ? MX_PACKING_FP4_LO_FIRST : f.bits == 6 ? MX_PACKING_FP6_3BYTE
                                                                                : MX_PACKING_UNPACKED;
            uint8_t cc[32], want[32], got[32];
            for (int i = 0; i < 32; i++)
              cc[i] = (uint8_t) c[i];
            mx_pack (want, cc, 32, mx_format_get (elems[fi]), pk);
            for (int i = 0; i < 32; i += 4)
              {
                uint32_t wd = mxkc_pack4 (cc[i], cc[i + 1], cc[i + 2], cc[i + 3], pk);
                int nb = mxkc_packed_block_bytes (pk) / 8;
                for (int j = 0; j < nb; j++)
                  got[i / 4 * nb + j] = (uint8_t) (wd >> (8 * j));
              }
            ok &= memcmp (got, want, (size_t) mxkc_packed_block_bytes (pk)) == 0;
            checks++;
            CHECK (ok, "block %s %s %s #%ld: scale 0x%02X, libmxgold 0x%02X", mx_format_get (elems[fi])->name,
                   mx_policy_field_get (MX_POLICY_SCALE_RULE)->values[rules[ri]],
                   r < 5 ? mx_rounding_name (rnds[r]) : "sr", b, ks, (unsigned) s);
          }
}

int
main (int argc, char **argv)
{
  const char *which = argc > 1 ? argv[1] : "all";
  long nblocks = test_count (argc, argv, 2, 4000);
  int all = strcmp (which, "all") == 0;
  if (!all && strcmp (which, "scale") && strcmp (which, "elem") && strcmp (which, "dequant")
      && strcmp (which, "block") && strcmp (which, "fast"))
    {
      fprintf (stderr, "usage: tcuda_conv [all|scale|elem|dequant|block|fast] [blocks]\n");
      return 2;
    }
  E8M0 = mx_format_get (MX_E8M0);
  mx_format_id elems[MX_FORMAT_COUNT];
  int ne = 0;
  for (int i = 0; i < MX_FORMAT_COUNT; i++)
    if (mxkc_fmt_of ((mx_format_id) i).bits)
      elems[ne++] = (mx_format_id) i;
  if (ne != 6)
    {
      fprintf (stderr, "tcuda_conv: %d element formats of at most 8 bits, expected 6\n", ne);
      return 1;
    }
  if (all || !strcmp (which, "dequant"))
    test_dequant (elems, ne);
  if (all || !strcmp (which, "block"))
    test_block (elems, ne, nblocks);
  if (all || !strcmp (which, "elem"))
    for (int fi = 0; fi < ne; fi++)
      for (int r = 0; r < NR; r++)
        {
          test_elem_input (MX_BF16, elems[fi], r);
          test_elem_input (MX_FP16, elems[fi], r);
        }
  if (all || !strcmp (which, "scale"))
    test_scale (elems, ne);
  if (all || !strcmp (which, "fast"))
    test_fast (elems, ne);
  return finish ("tcuda_conv", checks);
}
