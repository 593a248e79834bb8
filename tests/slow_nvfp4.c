/* slow_nvfp4.c -- the independent model of NVFP4 two-level scaling (docs/semantics.md section 9),
 * written from that section and TransformerEngine's kernel, not from libmxgold: FP32 values as
 * 32-bit patterns, each FP32 operation an exact integer result (a product, or a long division
 * with a sticky bit) rounded once by this model's own s_encode.
 * SPDX-License-Identifier: MIT */
#include "slow.h"

typedef unsigned __int128 u128;

static int blen (u128 x) { int n = 0; while (x) x >>= 1, n++; return n; }
static long top_exp (s_val v) { return v.exp + blen (v.sig) - 1; }

/* the policy of cvt.rn.satfinite into E2M1 / E4M3: saturate, NaN gives +max */
static const mx_policy satf = { .overflow = MX_OVERFLOW_SAT, .nan_elem = MX_NAN_ELEM_MAX,
                                .sr_bits = 1 };

static const mx_format *F32 (void) { return mx_format_get (MX_FP32); }
static s_val v32 (uint32_t b) { return s_decode (F32 (), b); }

/* an exact (or sticky-marked) value rounded to FP32, RNE, overflow to Inf; NaN is +qNaN */
static uint32_t
r32 (s_val x, unsigned *fl)
{
  unsigned f = 0;
  uint32_t b;
  if (x.cls == S_NAN)
    b = 0x7FC00000u, f = MX_FLAG_INVALID;
  else
    b = (uint32_t) s_encode (F32 (), x, MX_RNE, 0, &s_ieee, &f);
  if (fl)
    *fl = f;
  return b;
}

/* u128 significand at exponent e, cut to 64 bits with a sticky 1 */
static s_val
from128 (int neg, u128 m, long e)
{
  s_val v = { S_FINITE, neg, 0, e };
  int sh = blen (m) - 63;
  if (sh > 0)
    {
      int st = (m & (((u128) 1 << sh) - 1)) != 0;
      m = (m >> sh) | (u128) st;
      v.exp += sh;
    }
  v.sig = (uint64_t) m;
  return v;
}

static s_val
mul_exact (s_val a, s_val b)
{
  s_val z = { S_ZERO, a.neg ^ b.neg, 0, 0 };
  if (a.cls == S_NAN || b.cls == S_NAN || (a.cls == S_INF && b.cls == S_ZERO)
      || (a.cls == S_ZERO && b.cls == S_INF))
    return (s_val) { S_NAN, 0, 0, 0 };
  if (a.cls == S_INF || b.cls == S_INF)
    return (s_val) { S_INF, z.neg, 0, 0 };
  if (a.cls == S_ZERO || b.cls == S_ZERO)
    return z;
  return from128 (z.neg, (u128) a.sig * b.sig, a.exp + b.exp);
}

static uint32_t mul32 (uint32_t a, uint32_t b, unsigned *fl)
{
  return r32 (mul_exact (v32 (a), v32 (b)), fl);
}

/* a / b: 62+ quotient bits and a sticky bit, enough for one rounding to 53 bits or fewer */
static s_val
div_exact (s_val a, s_val b)
{
  int neg = a.neg ^ b.neg;
  if (a.cls == S_NAN || b.cls == S_NAN || (a.cls == S_ZERO && b.cls == S_ZERO)
      || (a.cls == S_INF && b.cls == S_INF))
    return (s_val) { S_NAN, 0, 0, 0 };
  if (a.cls == S_INF || b.cls == S_ZERO)
    return (s_val) { S_INF, neg, 0, 0 };
  if (a.cls == S_ZERO || b.cls == S_INF)
    return (s_val) { S_ZERO, neg, 0, 0 };
  int sh = 64 + blen (b.sig) - blen (a.sig);
  u128 num = (u128) a.sig << sh;
  u128 q = num / b.sig;
  q = (q << 1) | (num % b.sig != 0);
  return from128 (neg, q, a.exp - b.exp - sh - 1);
}

static uint32_t div32 (uint32_t a, uint32_t b)
{
  return r32 (div_exact (v32 (a), v32 (b)), NULL);
}

/* x + y for x, y >= 0 finite or zero, exact to 100 bits below the top with a sticky bit */
static s_val
add_pos (s_val x, s_val y)
{
  if (x.cls == S_ZERO)
    return y;
  if (y.cls == S_ZERO)
    return x;
  long top = top_exp (x) > top_exp (y) ? top_exp (x) : top_exp (y), lo = top - 100;
  u128 sum = 0;
  int st = 0;
  s_val p[2] = { x, y };
  for (int i = 0; i < 2; i++)
    {
      if (p[i].exp >= lo)
        sum += (u128) p[i].sig << (p[i].exp - lo);
      else if (lo - p[i].exp >= 64)
        st = 1;
      else
        {
          sum += (u128) (p[i].sig >> (lo - p[i].exp));
          st |= (p[i].sig & ((1ull << (lo - p[i].exp)) - 1)) != 0;
        }
    }
  return from128 (0, sum | (u128) st, lo);
}

#define FLT_MAX_B 0x7F7FFFFFu
#define ONE_B 0x3F800000u

uint64_t
s_nvfp4_amax (const mx_format *in, const uint64_t bits[], size_t n)
{
  s_val m = { S_ZERO, 0, 0, 0 };
  for (size_t i = 0; i < n; i++)
    {
      s_val v = s_decode (in, bits[i]);
      v.neg = 0;
      if (v.cls == S_NAN || v.cls == S_ZERO || m.cls == S_INF)
        continue;
      if (v.cls == S_INF || m.cls == S_ZERO || s_cmp_mag (v, m) > 0)
        m = v;
    }
  return r32 (m, NULL);
}

uint64_t
s_nvfp4_global_scale (uint64_t amax)
{
  uint32_t a = (uint32_t) amax, q;
  q = div32 (0x45280000u /* 2688.0f */, a);
  if ((q & 0x7FFFFFFFu) > 0x7F800000u || q == 0x7F800000u) /* fminf: NaN and Inf lose */
    q = FLT_MAX_B;
  if ((a & 0x7FFFFFFFu) == 0 || (q & 0x7FFFFFFFu) == 0)
    q = ONE_B;
  return q;
}

/* TE's stochastic_round_fp4_e2m1 on an FP32 value v with the random byte r8 */
static uint64_t
sr_e2m1 (uint32_t vb, uint32_t r8, unsigned *fl)
{
  const mx_format *e2m1 = mx_format_get (MX_E2M1);
  s_val v = v32 (vb), a = v, t, q;
  unsigned f = 0;
  if (v.cls == S_NAN)
    {
      *fl = MX_FLAG_INVALID;
      return 7; /* +6 */
    }
  a.neg = 0;
  if (a.cls == S_INF)
    q = (s_val) { S_FINITE, 0, 3, 1 }, f = MX_FLAG_OVERFLOW | MX_FLAG_INEXACT;
  else
    {
      s_val two = { S_FINITE, 0, 1, 1 }, four = { S_FINITE, 0, 1, 2 };
      long ls = a.cls == S_ZERO ? -1 : s_cmp_mag (a, four) >= 0 ? 1 : s_cmp_mag (a, two) >= 0 ? 0 : -1;
      s_val u = { r8 ? S_FINITE : S_ZERO, 0, r8, ls - 8 };
      t = v32 (r32 (add_pos (a, u), NULL));
      long lt = t.cls == S_ZERO ? -1 : s_cmp_mag (t, four) >= 0 ? 1 : s_cmp_mag (t, two) >= 0 ? 0 : -1;
      /* q = floor(t / 2^lt) * 2^lt */
      q = t;
      if (t.cls == S_FINITE && t.exp < lt)
        {
          uint64_t m = lt - t.exp >= 64 ? 0 : t.sig >> (lt - t.exp);
          q = m ? (s_val) { S_FINITE, 0, m, lt } : (s_val) { S_ZERO, 0, 0, 0 };
        }
      s_val six = { S_FINITE, 0, 3, 1 };
      if (q.cls == S_FINITE && s_cmp_mag (q, six) > 0)
        q = six, f |= MX_FLAG_OVERFLOW;
      int same = q.cls == a.cls && (q.cls != S_FINITE || s_cmp_mag (q, a) == 0);
      if (!same)
        f |= MX_FLAG_INEXACT;
    }
  q.neg = v.neg;
  unsigned dummy;
  *fl = f;
  return s_encode (e2m1, q, MX_RTZ, 0, &satf, &dummy);
}

unsigned
s_quantize_nvfp4 (uint64_t scales[], uint64_t codes[], const mx_format *in,
                  const uint64_t bits[], size_t rows, size_t cols, uint64_t amax, int tile_2d,
                  const uint32_t rbits[], mx_rounding rnd)
{
  const mx_format *e2m1 = mx_format_get (MX_E2M1), *ue4m3 = mx_format_get (MX_UE4M3),
                  *f64 = mx_format_get (MX_FP64);
  unsigned all = 0;
  uint32_t senc = (uint32_t) s_nvfp4_global_scale (amax);
  /* S_dec = (float) (1.0 / S_enc): the quotient rounded to double, then to float */
  unsigned f;
  s_val d = s_decode (f64, s_encode (f64, div_exact (v32 (ONE_B), v32 (senc)), MX_RNE, 0,
                                     &s_ieee, &f));
  uint32_t sdec = r32 (d, NULL);
  uint32_t k = mul32 (senc, div32 (ONE_B, 0x40C00000u /* 6.0f */), NULL);
  size_t nb = cols / 16, th = tile_2d ? 16 : 1;

  for (size_t ty = 0; ty * th < rows; ty++)
    for (size_t j = 0; j < nb; j++)
      {
        size_t rlo = ty * th, rhi = rlo + th < rows ? rlo + th : rows;
        /* block amax: this model's own fmaxf reduction, on the raw patterns */
        uint64_t blk[16 * 16];
        size_t nblk = 0;
        for (size_t r = rlo; r < rhi; r++)
          for (size_t c = 0; c < 16; c++)
            blk[nblk++] = bits[r * cols + j * 16 + c];
        uint32_t bam = (uint32_t) s_nvfp4_amax (in, blk, nblk);
        uint32_t sdb = mul32 (bam, k, NULL);
        uint64_t sc = s_encode (ue4m3, v32 (sdb), MX_RNE, 0, &satf, &f);
        all |= f & (MX_FLAG_INEXACT | MX_FLAG_OVERFLOW);
        s_val scv = s_decode (ue4m3, sc);
        uint32_t scb = r32 (scv, NULL); /* exact */
        uint32_t rcp = div32 (ONE_B, mul32 (scb, sdec, NULL));
        if (rcp == 0x7F800000u)
          rcp = FLT_MAX_B;
        for (size_t r = rlo; r < rhi; r++)
          {
            scales[r * nb + j] = sc;
            for (size_t c = 0; c < 16; c++)
              {
                size_t i = r * cols + j * 16 + c;
                uint32_t xb = r32 (s_decode (in, bits[i]), NULL); /* exact; NaN: +qNaN */
                uint32_t vb = mul32 (xb, rcp, NULL);
                if (rnd == MX_SR)
                  codes[i] = sr_e2m1 (vb, rbits[i] & 0xFF, &f);
                else
                  {
                    codes[i] = s_encode (e2m1, v32 (vb), MX_RNE, 0, &satf, &f);
                    f &= MX_FLAG_INEXACT | MX_FLAG_OVERFLOW | MX_FLAG_INVALID;
                  }
                all |= f;
              }
          }
      }
  return all;
}

unsigned
s_dequantize_nvfp4 (uint64_t out[], const mx_format *of, const uint64_t scales[],
                    const uint64_t codes[], size_t rows, size_t cols, uint64_t amax)
{
  const mx_format *e2m1 = mx_format_get (MX_E2M1), *ue4m3 = mx_format_get (MX_UE4M3);
  uint32_t c = div32 (ONE_B, 0x45280000u /* 2688.0f */);
  unsigned all = 0;
  size_t nb = cols / 16;
  for (size_t r = 0; r < rows; r++)
    for (size_t j = 0; j < nb; j++)
      {
        s_val sv = s_decode (ue4m3, scales[r * nb + j]);
        uint32_t sb = sv.cls == S_NAN ? 0x7FC00000u : r32 (sv, NULL);
        uint32_t fs = mul32 (mul32 (sb, (uint32_t) amax, NULL), c, NULL);
        for (size_t i = r * cols + j * 16; i < r * cols + j * 16 + 16; i++)
          {
            unsigned f1, f2 = 0;
            uint32_t x = r32 (s_decode (e2m1, codes[i]), NULL);
            uint64_t y = mul32 (x, fs, &f1);
            if (of->id != MX_FP32)
              {
                s_val yv = v32 ((uint32_t) y);
                yv.neg = yv.cls == S_NAN ? 0 : yv.neg; /* NaNs are written positive */
                y = s_encode (of, yv, MX_RNE, 0, &s_ieee, &f2);
              }
            out[i] = y;
            all |= f1 | f2;
          }
      }
  return all;
}
