/* slow_tc.c -- the independent model of mx_dot's tensor-core accumulation (docs/semantics.md
 * section 7, golden/include/mx/tc_presets.def).  No MPFR, no GMP, nothing from golden/src: the
 * values are s_vals from slow.c, every product is an exact integer significand times a power of
 * two, each term is aligned to its group's quantum 2^(E - frac_bits) by an integer shift and a
 * remainder test, the aligned integers are summed in an __int128, and the group result (times the
 * block scales, plus C_in where it comes after) is formed exactly in a fixed-point two's-complement
 * register before s_encode rounds it to FP32.
 * SPDX-License-Identifier: MIT */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "slow.h"

typedef unsigned __int128 u128;
typedef __int128 i128;


static int nbits (uint64_t x) { return x ? 64 - __builtin_clzll (x) : 0; }
/* floor(log2 |v|) of a finite nonzero s_val */
static long ilog2v (s_val v) { return v.exp + nbits (v.sig) - 1; }

static void
die (const char *what)
{
  fprintf (stderr, "s_dot_tc: %s\n", what);
  abort ();
}

/*------------------------------------------------ the exact group register -*/
/* 32 words of two's complement, bit 0 weighing 2^-1024: values from 2^-1024 to 2^1023.  The
 * model puts in aligned sums (quantum >= 2^-400 for every E8M0-scaled built-in format and
 * frac_bits <= 100) and FP32 values (>= 2^-149). */
#define RW 32
#define R_LSB (-1024L)
typedef struct { uint64_t w[RW]; } reg;

/* r += (neg ? -1 : 1) * mag * 2^e */
static void
reg_add (reg *r, u128 mag, int neg, long e)
{
  if (mag == 0)
    return;
  long pos = e - R_LSB;
  if (pos < 0 || pos + 128 > RW * 64 - 2)
    die ("term outside the register");
  uint64_t t[RW];
  memset (t, 0, sizeof t);
  size_t wi = (size_t) (pos >> 6);
  unsigned sh = (unsigned) (pos & 63);
  uint64_t lo = (uint64_t) mag, hi = (uint64_t) (mag >> 64);
  t[wi] = lo << sh;
  t[wi + 1] = hi << sh | (sh ? lo >> (64 - sh) : 0);
  if (wi + 2 < RW)
    t[wi + 2] = sh ? hi >> (64 - sh) : 0;
  if (neg) /* t = -t: complement and add one */
    {
      int c = 1;
      for (int i = 0; i < RW; i++)
        {
          t[i] = ~t[i] + (uint64_t) c;
          c = c && t[i] == 0;
        }
    }
  uint64_t c = 0;
  for (int i = 0; i < RW; i++)
    {
      u128 s = (u128) r->w[i] + t[i] + c;
      r->w[i] = (uint64_t) s;
      c = (uint64_t) (s >> 64);
    }
}

/* The register's value as an s_val: its top 63 bits with every lower bit ORed into the last
 * (round to odd at 63 bits: any rounding to <= 61 bits, FP32's 24 included, sees the same
 * result, flags and tininess as from the exact value).  A zero comes back as S_ZERO, neg 0. */
static s_val
reg_get (const reg *r)
{
  uint64_t m[RW];
  memcpy (m, r->w, sizeof m);
  s_val v = { S_ZERO, (int) (m[RW - 1] >> 63), 0, 0 };
  if (v.neg)
    for (int i = 0, c = 1; i < RW; i++)
      {
        m[i] = ~m[i] + (uint64_t) c;
        c = c && m[i] == 0;
      }
  int top = RW - 1;
  while (top >= 0 && m[top] == 0)
    top--;
  if (top < 0)
    return (s_val) { S_ZERO, 0, 0, 0 };
  long msb = top * 64L + nbits (m[top]) - 1; /* bit index of the leading one */
  long low = msb - 62;                        /* keep bits msb..low */
  if (low <= 0)
    {
      /* everything fits in 63 bits: exact */
      v.cls = S_FINITE, v.sig = m[0], v.exp = R_LSB;
    }
  else
    {
      size_t wi = (size_t) (low >> 6);
      unsigned sh = (unsigned) (low & 63);
      u128 win = (u128) m[wi] | (wi + 1 < RW ? (u128) m[wi + 1] << 64 : 0);
      uint64_t sig = (uint64_t) (win >> sh) & ((1ull << 63) - 1);
      int sticky = (m[wi] & ((1ull << sh) - 1)) != 0;
      for (size_t i = 0; i < wi && !sticky; i++)
        sticky = m[i] != 0;
      v.cls = S_FINITE, v.sig = sig | (uint64_t) sticky, v.exp = R_LSB + low;
    }
  while (!(v.sig & 1))
    v.sig >>= 1, v.exp++;
  return v;
}

/*------------------------------------------------------------- the terms -*/
typedef struct
{
  s_val v; /* exact value */
  long ae; /* alignment exponent (finite nonzero terms) */
} term;

/* The exponent of the smallest normal, from the raw parameters: 1 - bias.  For an integer
 * format (bias 1) that is 0, the weight of the integer bit: an INT8 value code * 2^-6 is a
 * fixed-point significand below 2 with the exponent 0, never normalized.  (libmxgold's mx_format
 * has the same emin for INT; its dot.c op_exp uses -mbits instead, which normalizes INT8
 * operands -- see the report on ttc.) */
static long
emin_of (const mx_format *f)
{
  return 1 - (long) f->bias;
}

/* the exponent an operand contributes to a product's alignment exponent with denorm_products:
 * e = max(floor(log2 |x|), emin) -- a subnormal keeps emin and a significand below 1 */
static long
op_exponent (s_val x, const mx_format *f)
{
  long e = ilog2v (x), emin = emin_of (f);
  return e < emin ? emin : e;
}

/* x * y * (fold ? sx * sy : 1) under IEEE 754's special rules */
static term
product (s_val x, const mx_format *fx, s_val y, const mx_format *fy, s_val sx, s_val sy, int fold,
         int denorm)
{
  term t = { { S_FINITE, x.neg ^ y.neg, 0, 0 }, 0 };
  s_val f[4] = { x, y, sx, sy };
  int n = fold ? 4 : 2, any_nan = 0, any_inf = 0, any_zero = 0;
  for (int i = 0; i < n; i++)
    {
      any_nan |= f[i].cls == S_NAN;
      any_inf |= f[i].cls == S_INF;
      any_zero |= f[i].cls == S_ZERO;
    }
  if (fold)
    t.v.neg ^= sx.neg ^ sy.neg;
  if (any_nan || (any_inf && any_zero))
    {
      t.v = (s_val) { S_NAN, 0, 0, 0 };
      return t;
    }
  if (any_inf)
    {
      t.v.cls = S_INF;
      return t;
    }
  if (any_zero)
    {
      t.v.cls = S_ZERO;
      return t;
    }
  u128 sig = (u128) x.sig * y.sig;
  t.v.exp = x.exp + y.exp;
  t.ae = op_exponent (x, fx) + op_exponent (y, fy);
  if (fold)
    {
      sig *= (u128) sx.sig * sy.sig;
      t.v.exp += sx.exp + sy.exp;
      t.ae += ilog2v (sx) + ilog2v (sy);
    }
  if (sig >> 64)
    die ("product significand over 64 bits");
  t.v.sig = (uint64_t) sig;
  if (!denorm)
    t.ae = ilog2v (t.v);
  return t;
}

/* v rounded to an integer multiple of 2^q by align: the signed multiple */
static i128
align_term (s_val v, long q, mx_rounding align)
{
  long s = q - v.exp; /* bits dropped */
  u128 n, rem = 0, half = 0;
  if (s <= 0)
    {
      if (nbits (v.sig) - s > 120)
        die ("aligned term over 120 bits (frac_bits too large)");
      n = (u128) v.sig << -s;
    }
  else if (s >= 100) /* the whole significand (< 2^64) lies below half a quantum */
    n = 0, rem = v.sig, half = (u128) 1 << 99;
  else
    n = (u128) v.sig >> s, rem = (u128) v.sig & (((u128) 1 << s) - 1), half = (u128) 1 << (s - 1);
  if (rem)
    switch (align)
      {
      case MX_RTZ: break;
      case MX_RDN: n += v.neg; break; /* floor: a negative magnitude grows */
      case MX_RNE: n += rem > half || (rem == half && (n & 1)); break;
      default: die ("align must be rtz, rdn or rne");
      }
  return v.neg ? -(i128) n : (i128) n;
}

/*------------------------------------------------------------ one group -*/
/* Terms t[0..n) of one group; *acc the FP32 accumulator (in/out).  acc_in: the accumulator is
 * aligned with the terms; otherwise it is added exactly afterwards.  scale_after: the terms are
 * unscaled element products and the aligned sum is multiplied by sx * sy.  Returns the flags of
 * the FP32 rounding. */
static unsigned
tc_group_model (s_val *acc, const term *t, size_t n, int acc_in, int scale_after, s_val sx,
                s_val sy, const mx_tc_model *m)
{
  const mx_format *f32 = mx_format_get (MX_FP32);
  /* IEEE 754 specials first: they decide the result whatever the finite terms are */
  int nan = 0, pinf = 0, ninf = 0;
  for (size_t i = 0; i <= n; i++)
    {
      s_val v = i < n ? t[i].v : *acc;
      nan |= v.cls == S_NAN;
      pinf |= v.cls == S_INF && !v.neg;
      ninf |= v.cls == S_INF && v.neg;
    }
  if (scale_after)
    {
      nan |= sx.cls == S_NAN || sy.cls == S_NAN;
      int has_inf_product = 0;
      for (size_t i = 0; i < n; i++)
        has_inf_product |= t[i].v.cls == S_INF;
      nan |= has_inf_product && (sx.cls == S_ZERO || sy.cls == S_ZERO);
    }
  if (nan || (pinf && ninf))
    {
      *acc = (s_val) { S_NAN, 0, 0, 0 };
      return MX_FLAG_INVALID;
    }
  if (pinf || ninf)
    {
      *acc = (s_val) { S_INF, ninf, 0, 0 };
      return 0;
    }

  /* E: the largest alignment exponent of the nonzero terms (and of C_in when it takes part) */
  long E = LONG_MIN;
  for (size_t i = 0; i < n; i++)
    if (t[i].v.cls == S_FINITE && t[i].ae > E)
      E = t[i].ae;
  if (acc_in && acc->cls == S_FINITE && ilog2v (*acc) > E)
    E = ilog2v (*acc);
  long q = E == LONG_MIN ? 0 : E - m->frac_bits;

  /* aligned terms summed exactly; the zero-sign state follows IEEE 754 6.3 over the aligned
   * terms, a nonzero term aligned to zero counting as a zero of its own sign */
  int all_neg = 1, all_pos = 1;
  i128 sum = 0;
  for (size_t i = 0; i < n + (size_t) acc_in; i++)
    {
      s_val v = i < n ? t[i].v : *acc;
      i128 a = v.cls == S_FINITE ? align_term (v, q, m->align) : 0;
      if (a == 0)
        all_neg &= v.neg, all_pos &= !v.neg;
      else
        all_neg = all_pos = 0;
      sum += a;
    }
  reg r;
  memset (&r, 0, sizeof r);
  int neg = sum < 0;
  u128 mag = neg ? -(u128) sum : (u128) sum;
  if (scale_after)
    {
      if (sx.cls == S_ZERO || sy.cls == S_ZERO)
        mag = 0;
      else
        {
          if ((mag >> 100) || nbits (sx.sig) + nbits (sy.sig) > 24)
            die ("scaled group sum too wide");
          mag *= (u128) sx.sig * sy.sig;
          q += sx.exp + sy.exp;
          neg ^= sx.neg ^ sy.neg;
        }
    }
  reg_add (&r, mag, neg, q);
  if (!acc_in)
    {
      if (acc->cls == S_FINITE)
        {
          reg_add (&r, acc->sig, acc->neg, acc->exp);
          all_neg = all_pos = 0;
        }
      else
        all_neg &= acc->neg, all_pos &= !acc->neg;
    }
  s_val v = reg_get (&r);
  if (v.cls == S_ZERO)
    v.neg = all_neg ? 1 : all_pos ? 0 : m->out == MX_RDN;
  unsigned fl;
  uint64_t code = s_encode (f32, v, m->out, 0, &s_ieee, &fl);
  *acc = s_decode (f32, code);
  return fl;
}

/*----------------------------------------------------------------- s_dot_tc -*/
unsigned
s_dot_tc (uint64_t *out, const mx_format *of, const uint64_t sa[], const uint64_t ca[],
          const mx_format *ea, const uint64_t sb[], const uint64_t cb[], const mx_format *eb,
          const mx_format *sf, size_t k, size_t nb, uint64_t cin, const mx_tc_model *m,
          mx_rounding out_rnd)
{
  const mx_format *f32 = mx_format_get (MX_FP32);
  int scale_after = m->scale_point == MX_TC_SCALE_GROUP;
  /* with the scales applied per group, C_in cannot share the alignment of unscaled products */
  int acc_in = m->cin_in_group && !scale_after;
  size_t g = m->group ? m->group : 1;
  if (scale_after && g > k)
    g = k; /* a group never straddles two blocks' scales */
  if (m->frac_bits > 100)
    die ("frac_bits over 100");
  term *t = malloc ((g ? g : 1) * sizeof *t);
  if (!t)
    die ("out of memory");
  s_val acc = s_decode (f32, cin), sx = { S_NAN, 0, 0, 0 }, sy = sx;
  unsigned fl = 0;
  size_t n = 0;
  for (size_t j = 0; j < nb; j++)
    {
      sx = s_decode (sf, sa[j]);
      sy = s_decode (sf, sb[j]);
      for (size_t i = 0; i < k; i++)
        {
          t[n++] = product (s_decode (ea, ca[j * k + i]), ea, s_decode (eb, cb[j * k + i]), eb,
                            sx, sy, !scale_after, m->denorm_products);
          int block_end = i + 1 == k, last = block_end && j + 1 == nb;
          if (n == g || last || (scale_after && block_end))
            {
              fl |= tc_group_model (&acc, t, n, acc_in, scale_after, sx, sy, m);
              n = 0;
            }
        }
    }
  free (t);
  unsigned f;
  *out = s_encode (of, acc, out_rnd, 0, &s_ieee, &f);
  fl |= f;
  if (acc.cls == S_NAN)
    fl |= MX_FLAG_INVALID;
  return fl;
}
