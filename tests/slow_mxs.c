/* slow_mxs.c -- the independent model of the shared-microexponent formats MX9, MX6, MX4
 * (docs/semantics.md section 5b), written from the paper's definition and Quark's code in
 * integers: an element is a sign and an integer magnitude M <= 2^m - 1 on the grid
 * 2^(E - s - m + 1), rounded on the integer remainder.  It does not use the element format
 * descriptor (E1M(m-1)) at all: that the two readings agree is part of what is checked.
 * SPDX-License-Identifier: MIT */
#include "slow.h"

typedef unsigned __int128 u128;

static int bitlen (uint64_t x) { return x ? 64 - __builtin_clzll (x) : 0; }
static long top (s_val v) { return v.exp + bitlen (v.sig) - 1; } /* floor(log2 |v|) */

/* |v| / 2^g rounded to an integer magnitude by rnd, then saturated at mmax; *fl its flags.
 * tiny: |v| below the sub-block's unit 2^(g + m - 1) (E1M(m-1)'s smallest normal, 1). */
static uint64_t
round_mag (s_val v, long g, unsigned m, mx_rounding rnd, unsigned *fl)
{
  uint64_t mmax = (1ull << m) - 1, N;
  int neg = v.neg;
  *fl = 0;
  long sh = g - v.exp; /* |v| / 2^g = sig / 2^sh */
  if (top (v) - g > (long) m + 1)
    N = mmax + 1, *fl = MX_FLAG_INEXACT; /* far above max: saturates below */
  else if (sh <= 0)
    N = v.sig << -sh; /* exact: fewer than m + 3 bits */
  else
    {
      u128 rem = sh >= 64 ? v.sig : v.sig & ((1ull << sh) - 1);
      N = sh >= 64 ? 0 : v.sig >> sh;
      if (rem)
        {
          /* rem against half = 2^(sh-1), both exact in 128 bits for sh <= 127 */
          u128 half = sh - 1 >= 100 ? 0 : (u128) 1 << (sh - 1);
          int c = sh - 1 >= 100 || rem < half ? -1 : rem > half;
          int up = 0;
          switch (rnd)
            {
            case MX_RNE: up = c > 0 || (c == 0 && (N & 1)); break;
            case MX_RNA: up = c >= 0; break;
            case MX_RNZ: up = c > 0; break;
            case MX_RHU: up = c > 0 || (c == 0 && !neg); break;
            case MX_RHD: up = c > 0 || (c == 0 && neg); break;
            case MX_RUP: up = !neg; break;
            case MX_RDN: up = neg; break;
            case MX_RTO: N |= 1; break; /* truncated, then the last bit set */
            default: break;             /* rtz */
            }
          N += (uint64_t) up;
          *fl = MX_FLAG_INEXACT;
          if (top (v) < g + (long) m - 1)
            *fl |= MX_FLAG_UNDERFLOW;
        }
    }
  if (N > mmax)
    {
      *fl = MX_FLAG_OVERFLOW | MX_FLAG_INEXACT; /* no Inf, no NaN: saturates */
      N = mmax;
    }
  return N;
}

unsigned
s_quantize_mxs (uint64_t *scale, uint8_t shifts[], uint64_t codes[], const mx_mxs_desc *d,
                const mx_format *in, const uint64_t bits[], size_t k, const mx_policy *pol,
                mx_rounding rnd)
{
  s_val v[64];
  unsigned m = d->mbits, k2 = d->k2, pre = 0, out = 0;
  uint64_t sign = 1ull << m;
  const mx_format *eff = in;
  if (pol->wide_input == MX_WIDE_INPUT_FP32 && in->bits > 32)
    eff = mx_format_get (MX_FP32);
  int any_nan = 0, any_inf = 0, have = 0;
  long amax_e = 0; /* floor(log2) of the largest finite nonzero magnitude */
  for (size_t i = 0; i < k; i++)
    {
      v[i] = s_decode (in, bits[i]);
      if (eff != in)
        {
          s_val w = s_narrow_fp32 (v[i]);
          if (w.cls != v[i].cls || (w.cls == S_FINITE && s_cmp_mag (w, v[i]) != 0))
            pre |= MX_FLAG_INEXACT;
          v[i] = w;
        }
      if (pol->subnormals != MX_SUBNORMALS_KEEP && v[i].cls == S_FINITE
          && top (v[i]) < 1 - eff->bias)
        v[i].cls = S_ZERO, pre |= MX_FLAG_UNDERFLOW | MX_FLAG_INEXACT;
      if (pol->subnormals == MX_SUBNORMALS_FLUSH_POS && v[i].cls == S_ZERO)
        v[i].neg = 0; /* torch.where(|x| < tiny, 0.0, x) */
      any_nan |= v[i].cls == S_NAN;
      any_inf |= v[i].cls == S_INF;
      if (v[i].cls == S_FINITE && (!have || top (v[i]) > amax_e))
        amax_e = top (v[i]), have = 1;
    }
  size_t nsub = k / k2;
  for (size_t j = 0; j < nsub; j++)
    shifts[j] = 0;
  long E;
  if ((any_nan && pol->nan_block == MX_NAN_BLOCK_PROPAGATE)
      || (any_inf && pol->inf_block == MX_INF_BLOCK_NAN))
    goto nan;
  if (!have)
    {
      *scale = pol->zero_scale;
      E = *scale == 0xFF ? 0 : (long) *scale - 127;
    }
  else
    {
      long lo = -127 + (long) pol->scale_min, hi = 127;
      E = amax_e;
      if (E < lo)
        E = lo, out = MX_FLAG_SCALE_CLAMPED;
      if (E > hi)
        {
          if (pol->scale_overflow == MX_SCALE_OVERFLOW_NAN)
            goto nan;
          E = hi, out = MX_FLAG_SCALE_CLAMPED;
        }
      *scale = (uint64_t) (E + 127);
      unsigned most = (1u << d->d2) - 1;
      for (size_t j = 0; j < nsub; j++)
        {
          /* the sub-block's largest exponent, if it has a finite nonzero element */
          int any = 0;
          long mx = 0;
          for (size_t i = j * k2; i < (j + 1) * k2; i++)
            if (v[i].cls == S_FINITE && (!any || top (v[i]) > mx))
              mx = top (v[i]), any = 1;
          long sft = !any ? (long) most : E - mx;
          shifts[j] = (uint8_t) (sft < 0 ? 0 : sft > (long) most ? (long) most : sft);
        }
    }
  for (size_t i = 0; i < k; i++)
    {
      long g = E - shifts[i / k2] - (long) m + 1; /* the grid of element i */
      unsigned fl = 0;
      uint64_t M = 0;
      int neg = v[i].neg;
      switch (v[i].cls)
        {
        case S_NAN:
          fl = MX_FLAG_INVALID;
          if (pol->nan_elem == MX_NAN_ELEM_MAX)
            codes[i] = sign - 1;
          else if (pol->nan_elem == MX_NAN_ELEM_FLIPZERO && !neg)
            codes[i] = sign;
          else
            codes[i] = 0;
          out |= fl;
          continue;
        case S_INF:
          if (pol->inf_block == MX_INF_BLOCK_ZERO)
            {
              codes[i] = 0;
              out |= MX_FLAG_INVALID;
              continue;
            }
          M = sign - 1, fl = MX_FLAG_OVERFLOW | MX_FLAG_INEXACT; /* sat */
          break;
        case S_ZERO:
          if (pol->zero_sign == MX_ZERO_SIGN_NONZERO)
            neg = 0; /* torch.sign(-0) = 0; a value rounding to 0 keeps its sign */
          break;
        default:
          M = round_mag (v[i], g, m, rnd, &fl);
          break;
        }
      if (M == 0 && pol->zero_sign == MX_ZERO_SIGN_POSITIVE)
        neg = 0;
      codes[i] = (neg ? sign : 0) | M;
      out |= fl;
    }
  return pre | out;
nan:
  *scale = 0xFF;
  for (size_t i = 0; i < k; i++)
    codes[i] = 0;
  return pre | out | MX_FLAG_INVALID;
}

unsigned
s_dequantize_mxs (uint64_t out[], const mx_format *of, uint64_t scale, const uint8_t shifts[],
                  const uint64_t codes[], const mx_mxs_desc *d, size_t k, mx_rounding rnd)
{
  unsigned m = d->mbits, all = 0;
  scale &= 0xFF;
  for (size_t i = 0; i < k; i++)
    {
      uint64_t c = codes[i] & ((2ull << m) - 1), M = c & ((1ull << m) - 1);
      s_val p = { M ? S_FINITE : S_ZERO, (int) (c >> m), M,
                  (long) scale - 127 - shifts[i / d->k2] - (long) m + 1 };
      if (scale == 0xFF)
        p = (s_val) { S_NAN, 0, 0, 0 };
      unsigned fl;
      out[i] = s_encode (of, p, rnd, 0, &s_ieee, &fl);
      all |= fl;
    }
  return all;
}
