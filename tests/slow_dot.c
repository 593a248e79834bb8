/* slow_dot.c -- the independent model of mx_dot's exact, block-fp32 and fused-group
 * accumulation: a fixed
 * 2560-bit two's-complement accumulator with its lsb at 2^-1200 (no GMP, no MPFR), and IEEE 754
 * special and zero-sign rules written out again.
 * SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>
#include "slow.h"

typedef unsigned __int128 u128;
#define WL 40
#define LSB (-1200)

typedef struct
{
  uint64_t w[WL];
  int nan, pinf, ninf, allneg, allpos, terms;
} wide;

static void
w_init (wide *a)
{
  memset (a, 0, sizeof *a);
  a->allneg = a->allpos = 1;
}

/* a += (neg ? -1 : 1) * m * 2^e, m < 2^128 */
static void
w_add (wide *a, u128 m, long e, int neg)
{
  long pos = e - LSB;
  if (pos < 0) /* never for E8M0-scaled MX elements and FP32 values */
    abort ();
  uint64_t part[4] = { 0 };
  size_t li = (size_t) pos / 64;
  unsigned off = (unsigned) pos % 64;
  uint64_t lo = (uint64_t) m, hi = (uint64_t) (m >> 64);
  part[0] = lo << off;
  part[1] = (off ? lo >> (64 - off) : 0) | hi << off;
  part[2] = off ? hi >> (64 - off) : 0;
  unsigned carry = 0;
  for (size_t i = li; i < WL; i++)
    {
      uint64_t p = i - li < 4 ? part[i - li] : 0;
      if (neg)
        {
          uint64_t x = a->w[i], d = x - p - carry;
          carry = x < p || (x == p && carry) ? 1 : 0;
          a->w[i] = d;
        }
      else
        {
          u128 s = (u128) a->w[i] + p + carry;
          a->w[i] = (uint64_t) s;
          carry = (unsigned) (s >> 64);
        }
      if (i - li >= 3 && !carry)
        break;
    }
}

static void
w_term (wide *a, s_val v)
{
  a->terms++;
  if (v.cls == S_NAN)
    a->nan = 1;
  else if (v.cls == S_INF)
    {
      if (v.neg)
        a->ninf = 1;
      else
        a->pinf = 1;
      a->allneg = a->allpos = 0;
    }
  else if (v.cls == S_ZERO)
    a->allneg &= v.neg, a->allpos &= !v.neg;
  else
    {
      w_add (a, v.sig, v.exp, v.neg);
      a->allneg = a->allpos = 0;
    }
}

static void
w_product (wide *a, s_val x, s_val y, long e)
{
  int neg = x.neg != y.neg;
  if (x.cls == S_NAN || y.cls == S_NAN)
    a->terms++, a->nan = 1;
  else if (x.cls == S_INF || y.cls == S_INF)
    {
      a->terms++;
      if (x.cls == S_ZERO || y.cls == S_ZERO)
        a->nan = 1;
      else
        {
          if (neg)
            a->ninf = 1;
          else
            a->pinf = 1;
          a->allneg = a->allpos = 0;
        }
    }
  else if (x.cls == S_ZERO || y.cls == S_ZERO)
    {
      a->terms++;
      a->allneg &= neg;
      a->allpos &= !neg;
    }
  else
    {
      a->terms++;
      w_add (a, (u128) x.sig * y.sig, x.exp + y.exp + e, neg);
      a->allneg = a->allpos = 0;
    }
}

/* The accumulator's value as an s_val: top 62 bits and a sticky bit (enough for any rounding
 * to <= 53 bits, stochastic thresholds included). */
static s_val
w_value (const wide *a, mx_rounding rnd)
{
  s_val v = { S_FINITE, 0, 0, 0 };
  if (a->nan || (a->pinf && a->ninf))
    return (s_val) { S_NAN, 0, 0, 0 };
  if (a->pinf || a->ninf)
    return (s_val) { S_INF, a->ninf, 0, 0 };
  uint64_t m[WL];
  memcpy (m, a->w, sizeof m);
  v.neg = (int) (m[WL - 1] >> 63);
  if (v.neg) /* magnitude of a two's-complement number */
    {
      unsigned carry = 1;
      for (int i = 0; i < WL; i++)
        {
          u128 s = (u128) (uint64_t) ~m[i] + carry;
          m[i] = (uint64_t) s;
          carry = (unsigned) (s >> 64);
        }
    }
  int top = -1;
  for (int i = WL - 1; i >= 0 && top < 0; i--)
    if (m[i])
      top = i * 64 + 63 - __builtin_clzll (m[i]);
  if (top < 0)
    {
      int neg = a->terms > 0 && a->allneg ? 1 : a->terms == 0 || a->allpos ? 0 : rnd == MX_RDN;
      return (s_val) { S_ZERO, neg, 0, 0 };
    }
  /* bits top..top-61, then sticky: any bit below them, by words (bit by bit, the scan down
   * to the lsb of an exact sum was 40% of tdot's time) */
  uint64_t sig = 0;
  int sticky = 0;
  for (int b = top; b >= 0 && top - b < 62; b--)
    sig = sig << 1 | ((m[b / 64] >> (b % 64)) & 1);
  int low = top - 62; /* the highest bit below the kept ones */
  if (low >= 0)
    {
      sticky = (m[low / 64] & (~0ull >> (63 - low % 64))) != 0; /* bits low % 64 .. 0 */
      for (int i = 0; i < low / 64 && !sticky; i++)
        sticky = m[i] != 0;
    }
  int kept = top + 1 < 62 ? top + 1 : 62;
  v.sig = sig << 1 | (uint64_t) sticky;
  v.exp = (long) (top - kept + 1) + LSB - 1;
  while (v.sig && !(v.sig & 1))
    v.sig >>= 1, v.exp++;
  return v;
}

static uint64_t
w_round (const wide *a, const mx_format *f, mx_rounding rnd, unsigned *fl)
{
  s_val v = w_value (a, rnd);
  uint64_t c = s_encode (f, v, rnd, 0, &s_ieee, fl);
  if (v.cls == S_NAN)
    *fl |= MX_FLAG_INVALID;
  return c;
}

/* the exact dot of block j with its (E8M0) scales into a fresh accumulator */
static void
block (wide *b, const uint64_t *ca, const mx_format *ea, const uint64_t *cb,
       const mx_format *eb, uint64_t sa, uint64_t sb, const mx_format *sf, size_t k)
{
  s_val xa = s_decode (sf, sa), xb = s_decode (sf, sb);
  w_init (b);
  for (size_t i = 0; i < k; i++)
    w_product (b, s_decode (ea, ca[i]), s_decode (eb, cb[i]), xa.exp + xb.exp);
  if (xa.cls == S_NAN || xb.cls == S_NAN)
    b->nan = 1;
}

unsigned
s_dot (uint64_t *out, const mx_format *of, const uint64_t sa[], const uint64_t ca[],
       const mx_format *ea, const uint64_t sb[], const uint64_t cb[], const mx_format *eb,
       const mx_format *sf, size_t k, size_t nb, uint64_t cin, mx_accum accum, size_t group,
       mx_rounding rnd)
{
  static wide tot, b;
  const mx_format *f32 = mx_format_get (MX_FP32);
  unsigned fl = 0, f;
  s_val acc = s_decode (f32, cin);
  if (accum == MX_ACCUM_EXACT)
    {
      w_init (&tot);
      w_term (&tot, acc);
      for (size_t j = 0; j < nb; j++)
        {
          block (&b, ca + j * k, ea, cb + j * k, eb, sa[j], sb[j], sf, k);
          /* merge b into tot */
          tot.terms += b.terms;
          tot.nan |= b.nan, tot.pinf |= b.pinf, tot.ninf |= b.ninf;
          tot.allneg &= b.allneg, tot.allpos &= b.allpos;
          unsigned carry = 0;
          for (int i = 0; i < WL; i++)
            {
              u128 s = (u128) tot.w[i] + b.w[i] + carry;
              tot.w[i] = (uint64_t) s;
              carry = (unsigned) (s >> 64);
            }
        }
      *out = w_round (&tot, of, rnd, &fl);
      return fl;
    }
  if (accum == MX_ACCUM_FUSED_GROUP)
    {
      /* acc and the group's g products (times 2^(X_A + X_B)) in one exact sum, rounded once
       * into the output format, which is the accumulator; C_in starts it */
      uint64_t code = 0;
      for (size_t j = 0; j < nb; j++)
        for (size_t i0 = 0; i0 < k; i0 += group)
          {
            s_val xa = s_decode (sf, sa[j]), xb = s_decode (sf, sb[j]);
            w_init (&tot);
            w_term (&tot, acc);
            for (size_t i = j * k + i0; i < j * k + i0 + group; i++)
              w_product (&tot, s_decode (ea, ca[i]), s_decode (eb, cb[i]), xa.exp + xb.exp);
            if (xa.cls == S_NAN || xb.cls == S_NAN)
              tot.nan = 1;
            code = w_round (&tot, of, rnd, &f);
            fl |= f;
            acc = s_decode (of, code);
          }
      *out = code;
      return fl;
    }
  /* block-fp32 */
  for (size_t j = 0; j < nb; j++)
    {
      block (&b, ca + j * k, ea, cb + j * k, eb, sa[j], sb[j], sf, k);
      s_val d = s_decode (f32, w_round (&b, f32, rnd, &f));
      fl |= f;
      w_init (&tot);
      w_term (&tot, acc);
      w_term (&tot, d);
      acc = s_decode (f32, w_round (&tot, f32, MX_RNE, &f));
      fl |= f;
    }
  *out = s_encode (of, acc, rnd, 0, &s_ieee, &f);
  fl |= f;
  if (acc.cls == S_NAN)
    fl |= MX_FLAG_INVALID;
  return fl;
}
