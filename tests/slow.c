/* slow.c -- the independent integer model (see slow.h).  Written from the OCP tables and
 * docs/semantics.md, deliberately in a different style from libmxgold: no MPFR, every rounding
 * decided on an integer remainder.
 * SPDX-License-Identifier: MIT */
#include <limits.h>
#include "slow.h"

typedef unsigned __int128 u128;

static uint64_t msk (unsigned b) { return b >= 64 ? ~0ull : (1ull << b) - 1; }
static int bitlen (uint64_t x) { return x ? 64 - __builtin_clzll (x) : 0; }
static long flog2 (s_val v) { return v.exp + bitlen (v.sig) - 1; }

static int is_pow2fmt (const mx_format *f) { return f->special == MX_SPECIAL_POW2; }
static int is_int (const mx_format *f) { return f->special == MX_SPECIAL_INT; }

/* smallest normal exponent; for INT the weight of the lsb is 2^-mbits and "tiny" means below it */
static long s_emin (const mx_format *f) { return is_pow2fmt (f) ? -f->bias : 1 - f->bias; }

static uint64_t
top_efield (const mx_format *f)
{
  uint64_t all = msk (f->ebits);
  return (f->special == MX_SPECIAL_IEEE || is_pow2fmt (f)) ? all - 1 : all;
}

int
s_emax (const mx_format *f)
{
  return is_int (f) ? 0 : (int) top_efield (f) - f->bias;
}

uint64_t
s_max_mag (const mx_format *f)
{
  if (is_int (f))
    return msk (f->bits - 1);
  if (is_pow2fmt (f))
    return top_efield (f);
  uint64_t m = (top_efield (f) << f->mbits) | msk (f->mbits);
  return f->special == MX_SPECIAL_FN ? m - 1 : m;
}

static s_val
norm (s_val v)
{
  if (v.cls == S_FINITE && v.sig) /* trailing zeros dropped at once (a loop: a quarter of tdot) */
    {
      int z = __builtin_ctzll (v.sig);
      v.sig >>= z, v.exp += z;
    }
  return v;
}

/* IEEE 754 interchange results: overflow to Inf (the slow model's own copy, from the spec). */
const mx_policy s_ieee = { .overflow = MX_OVERFLOW_OVF, .sr_bits = 1 };

s_val
s_decode (const mx_format *f, uint64_t code)
{
  s_val v = { S_FINITE, 0, 0, 0 };
  code &= msk (f->bits);
  unsigned magbits = f->bits - f->sign;
  uint64_t mag = code & msk (magbits);
  v.neg = f->sign && (code >> (f->bits - 1));
  if (is_int (f))
    {
      int64_t s = v.neg ? (int64_t) mag - ((int64_t) 1 << (f->bits - 1)) : (int64_t) mag;
      v.neg = s < 0;
      v.sig = (uint64_t) (s < 0 ? -s : s);
      v.exp = -(long) f->mbits;
      if (s == 0)
        v.cls = S_ZERO, v.neg = 0;
      return norm (v);
    }
  if (is_pow2fmt (f))
    {
      if (mag == msk (f->ebits))
        v.cls = S_NAN;
      v.sig = 1;
      v.exp = (long) mag - f->bias;
      return v;
    }
  uint64_t e = mag >> f->mbits, m = mag & msk (f->mbits);
  if (f->special == MX_SPECIAL_IEEE && e == msk (f->ebits))
    {
      v.cls = m ? S_NAN : S_INF;
      return v;
    }
  if (f->special == MX_SPECIAL_FN && mag == msk (magbits))
    {
      v.cls = S_NAN;
      return v;
    }
  if (e == 0)
    {
      v.sig = m;
      v.exp = 1 - f->bias - (long) f->mbits;
      if (m == 0)
        v.cls = S_ZERO;
    }
  else
    {
      v.sig = m | (1ull << f->mbits);
      v.exp = (long) e - f->bias - (long) f->mbits;
    }
  return norm (v);
}

static uint64_t
nan_code (const mx_format *f, int neg, const mx_policy *pol)
{
  uint64_t sb = f->sign && neg ? 1ull << (f->bits - 1) : 0;
  if (f->special == MX_SPECIAL_IEEE)
    return sb | (msk (f->ebits) << f->mbits)
           | (f->role == MX_ROLE_ELEM && pol->nan_code == MX_NAN_CODE_ONES ? msk (f->mbits)
                                                                            : 1ull << (f->mbits - 1));
  if (f->special == MX_SPECIAL_FN || is_pow2fmt (f))
    return sb | msk (f->bits - f->sign);
  if (pol->nan_elem == MX_NAN_ELEM_MAX)
    return s_max_mag (f);
  if (pol->nan_elem == MX_NAN_ELEM_FLIPZERO && !is_int (f))
    return neg ? 0 : 1ull << (f->bits - 1);
  return 0;
}

uint64_t
s_encode (const mx_format *f, s_val x, mx_rounding rnd, uint32_t rbits, const mx_policy *pol,
          unsigned *flags)
{
  unsigned fl = 0;
  uint64_t mag = 0, code;
  int neg = x.neg, ovf = 0;
  uint64_t limit = s_max_mag (f);
  if (is_int (f) && neg && pol->int_range == MX_INT_RANGE_FULL)
    limit++;

  if (is_pow2fmt (f) && x.cls != S_NAN)
    {
      /* scale-cast: what a cast into E8M0 makes of zero, a sign, Inf (and, strict, range) */
      int zero = x.cls == S_ZERO, inf = x.cls == S_INF;
      switch (pol->scale_cast)
        {
        case MX_SCALE_CAST_ABS:
          if (zero || inf)
            {
              *flags = MX_FLAG_INVALID;
              return zero ? 0 : nan_code (f, 0, pol);
            }
          if (neg)
            fl = MX_FLAG_INVALID;
          neg = x.neg = 0;
          break;
        case MX_SCALE_CAST_CLAMP:
          if (zero || neg)
            {
              *flags = MX_FLAG_INVALID;
              return 0;
            }
          break;
        case MX_SCALE_CAST_STRICT:
          if (zero || neg || inf || flog2 (x) < s_emin (f)
              || flog2 (x) > s_emax (f) || (flog2 (x) == s_emax (f) && (x.sig & (x.sig - 1))))
            {
              *flags = MX_FLAG_INVALID;
              return nan_code (f, 0, pol);
            }
          break;
        default:
          break;
        }
      /* scale-bottom subnormal: |x| < 2^(emin+1) rounds on {0, 2^(emin+1)}, 0 written 0x00 */
      if (pol->scale_bottom == MX_SCALE_BOTTOM_SUBNORMAL && x.cls == S_FINITE && !neg
          && flog2 (x) < s_emin (f) + 1)
        {
          long E = flog2 (x);
          int pw = (x.sig & (x.sig - 1)) == 0;
          int c = E < s_emin (f) ? -1 : pw ? 0 : 1; /* |x| vs 2^emin */
          int up;
          switch (rnd)
            {
            case MX_RNE: case MX_RNZ: up = c > 0; break;
            case MX_RNA: up = c >= 0; break;
            case MX_RHU: up = c > 0 || (c == 0 && !neg); break;
            case MX_RHD: up = c > 0 || (c == 0 && neg); break;
            case MX_RUP: case MX_RTO: up = 1; break;
            case MX_SR:
              {
                /* up iff |x| + r * 2^(emin+1-R) >= 2^(emin+1), in units of 2^(emin+1-R-64) */
                unsigned R = pol->sr_bits;
                long sh = x.exp - (s_emin (f) + 1 - (long) R - 64);
                /* |x| < 2^(emin+1) keeps xs below 2^(R+64); bits shifted out leave a sticky 1 */
                u128 xs = sh >= 0    ? (u128) x.sig << sh
                          : -sh >= 64 ? 1
                                      : ((u128) x.sig >> -sh) | ((x.sig & msk ((unsigned) -sh)) != 0);
                u128 r = (u128) (rbits & msk (R)) << 64;
                up = xs + r >= (u128) 1 << (R + 64);
                break;
              }
            default: up = 0; break;
            }
          if (up || c != 0)
            fl |= MX_FLAG_INEXACT | (c < 0 ? MX_FLAG_UNDERFLOW : 0);
          *flags = fl;
          return up ? 1 : 0;
        }
    }
  if (x.cls == S_NAN || (is_pow2fmt (f) && (neg || x.cls == S_ZERO))
      || (!f->sign && neg && x.cls != S_ZERO))
    {
      *flags = MX_FLAG_INVALID;
      return nan_code (f, neg, pol);
    }
  if (!f->sign || (x.cls == S_ZERO && pol->zero_sign == MX_ZERO_SIGN_NONZERO))
    neg = 0;
  if (x.cls == S_INF)
    {
      /* exact into an interchange format (decoding is exact) and into E5M2 under ovf */
      if (f->special == MX_SPECIAL_IEEE && (f->role == MX_ROLE_IEEE || pol->overflow == MX_OVERFLOW_OVF))
        {
          mag = msk (f->ebits) << f->mbits;
          goto pack;
        }
      ovf = 1;
    }
  else if (x.cls == S_FINITE)
    {
      long E = flog2 (x);
      long emin = s_emin (f);
      long q; /* exponent of the last kept bit */
      if (is_int (f))
        q = -(long) f->mbits;
      else if (is_pow2fmt (f))
        q = E;
      else
        q = (E > emin ? E : emin) - (long) f->mbits;

      /* N = trunc(|x| / 2^q), rem/2^s the fraction dropped */
      uint64_t N;
      u128 rem = 0;
      long s = q - x.exp;
      if (E > s_emax (f) + 2 && !is_pow2fmt (f))
        ovf = 1, N = 0;
      else if (is_pow2fmt (f) && E > s_emax (f) + 1)
        ovf = 1, N = 0;
      else if (s <= 0)
        N = x.sig << -s;
      else if (s >= 64)
        N = 0, rem = x.sig;
      else
        N = x.sig >> s, rem = x.sig & msk ((unsigned) s);

      if (!ovf)
        {
          int inexact = rem != 0, up = 0;
          if (inexact)
            {
              /* compare rem with half = 2^(s-1) */
              int cmp_half = s - 1 >= 64 ? -1
                             : rem < ((u128) 1 << (s - 1)) ? -1
                             : rem > ((u128) 1 << (s - 1)) ? 1 : 0;
              switch (rnd)
                {
                case MX_RNE: up = cmp_half > 0 || (cmp_half == 0 && (N & 1)); break;
                case MX_RNA: up = cmp_half >= 0; break;
                case MX_RNZ: up = cmp_half > 0; break;
                case MX_RHU: up = cmp_half > 0 || (cmp_half == 0 && !neg); break;
                case MX_RHD: up = cmp_half > 0 || (cmp_half == 0 && neg); break;
                case MX_RUP: up = !neg; break;
                case MX_RDN: up = neg; break;
                case MX_SR:
                  {
                    unsigned R = pol->sr_bits;
                    u128 r = rbits & msk (R);
                    if (pol->sr_frac == MX_SR_FRAC_TRUNC)
                      {
                        /* up iff rem + r * 2^(s-R) >= 2^s */
                        if (s + (long) R < 127)
                          up = (rem << R) + (r << s) >= ((u128) 1 << (s + R));
                        else
                          up = 0; /* rem < 2^64 is then far below one step of r */
                        break;
                      }
                    /* up iff round(rem / 2^s * 2^R) >= num = 2^R - r: compare rem * 2^(R+1)
                     * with (2 num - 1) * 2^s, the tie going by sr-frac */
                    u128 t2 = (((u128) 1 << R) - r) * 2 - 1, lhs, rhs;
                    if (s >= (long) R + 1)
                      {
                        if (s >= 64 + (long) R + 2)
                          {
                            up = 0; /* rhs >= 2^(s-R-1) > 2^64 > rem */
                            break;
                          }
                        lhs = rem, rhs = t2 << (s - (long) R - 1);
                      }
                    else
                      lhs = rem << ((long) R + 1 - s), rhs = t2;
                    if (lhs != rhs)
                      up = lhs > rhs;
                    else
                      {
                        int num_even = ((((u128) 1 << R) - r) & 1) == 0;
                        up = pol->sr_frac == MX_SR_FRAC_UP
                             || (pol->sr_frac == MX_SR_FRAC_RNE ? num_even : !num_even);
                      }
                    break;
                  }
                default: break; /* rtz, rto (below, on the code) */
                }
            }
          N += (uint64_t) up;
          /* magnitude code */
          if (is_int (f))
            mag = N;
          else if (is_pow2fmt (f))
            {
              long e = E + (N == 2);
              if (E < emin)
                mag = 0, inexact = 1;
              else
                mag = (uint64_t) (e + f->bias);
            }
          else if (E < emin)
            mag = N;
          else
            mag = ((uint64_t) (E + f->bias) << f->mbits) + (N - (1ull << f->mbits));
          if (rnd == MX_RTO && inexact && !(is_pow2fmt (f) && E < emin))
            mag |= 1;
          if (inexact)
            {
              fl |= MX_FLAG_INEXACT;
              long tiny = is_int (f) ? -(long) f->mbits : emin;
              if (E < tiny)
                fl |= MX_FLAG_UNDERFLOW;
            }
          if (mag > limit)
            ovf = 1;
        }
    }
  if (ovf)
    {
      int tz = rnd == MX_RTZ || rnd == MX_RTO || (rnd == MX_RDN && !neg) || (rnd == MX_RUP && neg);
      fl = (fl & MX_FLAG_INVALID) | MX_FLAG_OVERFLOW | MX_FLAG_INEXACT;
      if (pol->overflow == MX_OVERFLOW_SAT || tz || f->special == MX_SPECIAL_NONE || is_int (f))
        mag = limit;
      else if (f->special == MX_SPECIAL_IEEE)
        mag = msk (f->ebits) << f->mbits;
      else
        {
          *flags = fl;
          return nan_code (f, neg, pol);
        }
    }
pack:
  if (mag == 0 && !is_pow2fmt (f) && pol->zero_sign == MX_ZERO_SIGN_POSITIVE)
    neg = 0;
  if (is_int (f))
    code = neg ? (0 - mag) & msk (f->bits) : mag;
  else
    code = mag | (neg ? 1ull << (f->bits - 1) : 0);
  *flags = fl;
  return code;
}

/*------------------------------------------------------------ scale rules -*/
/* a <=> b for positive dyadics */
static int
cmp_dy (uint64_t as, long ae, uint64_t bs, long be)
{
  long la = ae + bitlen (as), lb = be + bitlen (bs);
  if (la != lb)
    return la < lb ? -1 : 1;
  long e0 = ae < be ? ae : be;
  u128 a = (u128) as << (ae - e0), b = (u128) bs << (be - e0); /* both < 2^128: same top bit */
  return a < b ? -1 : a > b;
}

int
s_cmp_mag (s_val a, s_val b)
{
  return cmp_dy (a.sig, a.exp, b.sig, b.exp);
}

s_val
s_narrow_fp32 (s_val a) /* round a to FP32 (RNE, IEEE overflow, gradual underflow), signed */
{
  const mx_format *f32 = mx_format_get (MX_FP32);
  unsigned fl;
  if (a.cls == S_NAN)
    return a;
  return s_decode (f32, s_encode (f32, a, MX_RNE, 0, &s_ieee, &fl));
}

static s_val
fp32_of (s_val a) /* round |a| to FP32 (RNE, IEEE overflow) */
{
  const mx_format *f32 = mx_format_get (MX_FP32);
  unsigned fl;
  a.neg = 0;
  return s_decode (f32, s_encode (f32, a, MX_RNE, 0, &s_ieee, &fl));
}

/* 1 - 2^(-2^-k) in Q124 fixed point, by the series of 1 - e^-y, y = ln2 * 2^-k */
/* The series of 1 - e^-y (alternating) or e^y - 1, y = ln2 * 2^-k, in Q124: c_k below is
 * 1 - 2^(-2^-k), d_k is 2^(2^-k) - 1 (k >= 16) */
static u128
exp_series (int k, int alternating)
{
  const u128 ln2_q128 = ((u128) 0xB17217F7D1CF79ABull << 64) | 0xC9E3B39803F2F6AFull;
  u128 y = (ln2_q128 >> 4) >> k; /* Q124 */
  u128 term = y, sum = 0;
  for (int n = 1; n < 12 && term; n++)
    {
      if ((n & 1) || !alternating)
        sum += term;
      else
        sum -= term;
      /* term *= y / (n+1); y < 2^-16 so split to stay in 128 bits */
      u128 hi = term >> 62, lo = term & (((u128) 1 << 62) - 1);
      term = ((hi * (y >> 62)) + ((hi * (y & (((u128) 1 << 62) - 1))) >> 62)
              + ((lo * (y >> 62)) >> 62)) / (u128) (n + 1);
    }
  return sum;
}

static u128 c_k (int k) { return exp_series (k, 1); }
static u128 d_k (int k) { return exp_series (k, 0); }

/* fl32(a / b) for finite nonzero a, b: a 62-bit quotient with a sticky bit, then one RNE */
static s_val
div32 (s_val a, s_val b)
{
  int la = bitlen (a.sig);
  u128 num = (u128) a.sig << (120 - la), qq = num / b.sig;
  int sticky = num % b.sig != 0, bl = 0;
  for (u128 t = qq; t; t >>= 1)
    bl++;
  int sh = bl - 62;
  s_val q = { S_FINITE, 0, (uint64_t) (qq >> sh), a.exp - (120 - la) - b.exp + sh };
  if (sticky || (qq & ((((u128) 1) << sh) - 1)))
    q.sig = (q.sig << 1) | 1, q.exp--;
  return fp32_of (q);
}

/* ceil(RN_p(log2 q)) for a positive finite q: log2 q = e + log2 m, m in [1, 2), and RN_p gives
 * e iff log2 m is below half the p-bit spacing next to e on q's side */
static long
ceil_rn_log2 (s_val q, int p)
{
  long e = flog2 (q);
  if ((q.sig & (q.sig - 1)) == 0)
    return e;
  if (e == 0)
    return 1; /* log2 q in (0, 1) is never rounded to 0 */
  long ae = e > 0 ? e : -e;
  int j = 63 - __builtin_clzl ((unsigned long) ae);
  int k = p - j + (e < 0 && (ae & (ae - 1)) == 0);
  int L = bitlen (q.sig);
  u128 m1 = (u128) (q.sig - (1ull << (L - 1))) << (125 - L); /* m - 1 in Q124 */
  return e + !(m1 < d_k (k));
}

static long
ceil_log2_long (long v) /* v >= 1 */
{
  long c = 0;
  while ((1L << c) < v)
    c++;
  return c;
}

long
s_scale_exponent (s_val a, const mx_format *elem, const mx_format *in, mx_scale_rule r)
{
  long E = flog2 (a), emax = s_emax (elem);
  int pow2 = (a.sig & (a.sig - 1)) == 0;
  s_val mx = s_decode (elem, s_max_mag (elem));
  switch (r)
    {
    case MX_SCALE_FLOOR:
      return E - emax;
    case MX_SCALE_CEIL:
      return E + !pow2 - emax;
    case MX_SCALE_EVEN:
      {
        long ein = in == NULL ? E : in->bits > 32 ? -1022 : -126;
        long eq = E > ein ? E : ein, he = eq - (long) elem->mbits - 1;
        /* floor(log2(|a| + 2^he)) */
        long lo = a.exp < he ? a.exp : he;
        if (he - a.exp > 70) /* |a| < 2^(he-17): h decides */
          return he - emax;
        if (a.exp - he > 70) /* h is below a's last bit: no carry */
          return E - emax;
        u128 s = ((u128) a.sig << (a.exp - lo)) + ((u128) 1 << (he - lo));
        long b = -1;
        while (s)
          s >>= 1, b++;
        return lo + b - emax;
      }
    case MX_SCALE_RCEIL:
      {
        /* smallest e with |a| <= max * 2^e */
        long e = E - flog2 (mx) - 1;
        while (cmp_dy (a.sig, a.exp, mx.sig, mx.exp + e) > 0)
          e++;
        return e;
      }
    case MX_SCALE_RCEIL_FP32:
      {
        /* fl32(1/max): long division to 64 quotient bits plus a sticky bit, then RNE */
        u128 num = (u128) 1 << 120;
        u128 qq = num / mx.sig;
        int sticky = num % mx.sig != 0;
        s_val rc = { S_FINITE, 0, 0, 0 };
        int bl = 0;
        for (u128 t = qq; t; t >>= 1)
          bl++;
        int sh = bl - 62; /* keep 62 bits + sticky in the lsb */
        rc.sig = (uint64_t) (qq >> sh), rc.exp = -120 - mx.exp + sh;
        if (sticky || (qq & ((((u128) 1) << sh) - 1)))
          rc.sig = (rc.sig << 1) | 1, rc.exp--; /* sticky bit below the kept bits */
        rc = fp32_of (rc);
        s_val a32 = fp32_of (a);
        if (a32.cls == S_INF)
          return LONG_MAX / 2;
        if (a32.cls == S_ZERO)
          return LONG_MIN / 2;
        s_val p = { S_FINITE, 0, a32.sig * rc.sig, a32.exp + rc.exp };
        p = fp32_of (p);
        if (p.cls == S_ZERO)
          return LONG_MIN / 2;
        return flog2 (p) + !((p.sig & (p.sig - 1)) == 0);
      }
    case MX_SCALE_EVEN_FP32:
      {
        /* fl32(a) + 2^(max(E,-126)-m-1), m = 8 for INT8; 2^128 or more is Inf */
        s_val a32 = fp32_of (a);
        if (a32.cls == S_INF)
          return LONG_MAX / 2;
        if (a32.cls == S_ZERO)
          return LONG_MIN / 2;
        long m = is_int (elem) ? 8 : (long) elem->mbits;
        long E32 = flog2 (a32), he = (E32 > -126 ? E32 : -126) - m - 1;
        long lo = a32.exp < he ? a32.exp : he;
        u128 sum = ((u128) a32.sig << (a32.exp - lo)) + ((u128) 1 << (he - lo));
        long b = -1;
        while (sum)
          sum >>= 1, b++;
        return lo + b >= 128 ? LONG_MAX / 2 : lo + b - emax;
      }
    case MX_SCALE_CEIL_LOG2_INPUT:
      if (in == NULL || pow2)
        return E + !pow2 - emax;
      return ceil_rn_log2 (a, (int) in->mbits + 1) - emax;
    case MX_SCALE_RCEIL_LOG2F:
      {
        /* ceil(RN32(log2 q)), q = fl32(fl32(a) / max): log2 q = e + log2 m, m in [1, 2) */
        s_val a32 = fp32_of (a);
        if (a32.cls == S_INF)
          return LONG_MAX / 2;
        if (a32.cls == S_ZERO)
          return LONG_MIN / 2;
        s_val q = div32 (a32, mx);
        if (q.cls == S_ZERO)
          return LONG_MIN / 2;
        return ceil_rn_log2 (q, 24);
      }
    case MX_SCALE_FLOOR_LOG2F:
    case MX_SCALE_FLOOR_LOG2_INPUT:
      {
        /* floor(RN_p(log2 a)) with a of p bits: log2f (p = 24) of fl32(a), or the log2 of the
         * input's type T (p its precision), of a itself, a value of T; exact inputs: exact */
        int p = 24;
        s_val a32 = a;
        if (r == MX_SCALE_FLOOR_LOG2F)
          a32 = fp32_of (a);
        else if (in == NULL)
          return E - emax;
        else
          p = (int) in->mbits + 1, a32.neg = 0;
        if (a32.cls == S_INF)
          return LONG_MAX / 2;
        if (a32.cls == S_ZERO)
          return LONG_MIN / 2; /* log2f(0) = -Inf: clamps to the smallest scale */
        long e = flog2 (a32), j;
        if (e == -1)
          return e - emax;
        if (e >= 0)
          j = ceil_log2_long (e + 1) - 1;
        else
          {
            long m = -(e + 1);
            j = 63 - __builtin_clzl ((unsigned long) m);
          }
        int k = p - (int) j;
        /* bump iff 1 - m/2 < c_k, m/2 = sig/2^L */
        int L = bitlen (a32.sig);
        u128 d = (((u128) 1 << L) - a32.sig) << (124 - L); /* (2^L - sig)/2^L in Q124 */
        return e + (d < c_k (k)) - emax;
      }
    default:
      return E - emax;
    }
}

/*--------------------------------------------------------------- blocks -*/
/* Big unsigned integers in units of 2^BIG_LSB, for the exact errors of min-mse/min-maxerr: wide
 * enough for squares of FP64 values (2^-2148 .. 2^2048) summed over 4096 elements. */
enum { BIG_LIMBS = 80 };
#define BIG_LSB (-2600L)
typedef struct { uint64_t w[BIG_LIMBS]; int inf; } big;

/* a += m * 2^exp */
static void
big_add (big *a, u128 m, long exp)
{
  while (m && (m & 1) == 0)
    m >>= 1, exp++;
  if (m == 0)
    return;
  long sh = exp - BIG_LSB;
  size_t at = (size_t) (sh / 64);
  unsigned b = (unsigned) (sh % 64);
  uint64_t lo = (uint64_t) m, hi = (uint64_t) (m >> 64);
  uint64_t part[3] = { lo << b, b ? (lo >> (64 - b)) | (hi << b) : hi, b ? hi >> (64 - b) : 0 };
  u128 carry = 0;
  for (size_t i = at; i < BIG_LIMBS && (i < at + 3 || carry); i++)
    {
      u128 t = (u128) a->w[i] + (i < at + 3 ? part[i - at] : 0) + carry;
      a->w[i] = (uint64_t) t;
      carry = t >> 64;
    }
}

static void
big_add_big (big *a, const big *b)
{
  u128 carry = 0;
  for (size_t i = 0; i < BIG_LIMBS; i++)
    {
      u128 t = (u128) a->w[i] + b->w[i] + carry;
      a->w[i] = (uint64_t) t;
      carry = t >> 64;
    }
  a->inf |= b->inf;
}

static int
big_cmp (const big *a, const big *b)
{
  if (a->inf || b->inf)
    return a->inf - b->inf;
  for (size_t i = BIG_LIMBS; i-- > 0;)
    if (a->w[i] != b->w[i])
      return a->w[i] < b->w[i] ? -1 : 1;
  return 0;
}

/* a -= b, a >= b */
static void
big_sub (big *a, const big *b)
{
  uint64_t borrow = 0;
  for (size_t i = 0; i < BIG_LIMBS; i++)
    {
      uint64_t x = a->w[i], y = b->w[i];
      a->w[i] = x - y - borrow;
      borrow = x < y || (x == y && borrow);
    }
}

/* A shared exponent x clamped into [lo, hi] (0: above it under scale-overflow nan); the scale
 * code and the exponent the elements are divided by (min-scale-elem). */
static int
s_resolve (uint64_t *scale, long *div, unsigned *sf, long x, long lo, long hi,
           const mx_format *sfmt, const mx_policy *pol)
{
  *sf = 0;
  if (x < lo)
    x = lo, *sf = MX_FLAG_SCALE_CLAMPED;
  else if (x > hi)
    {
      if (pol->scale_overflow == MX_SCALE_OVERFLOW_NAN)
        return 0;
      x = hi, *sf = MX_FLAG_SCALE_CLAMPED;
    }
  *scale = (uint64_t) (x + sfmt->bias);
  *div = x;
  if (x == lo && pol->min_scale_elem == MX_MIN_SCALE_ELEM_FLTMIN)
    *div = lo + 1;
  else if (x == lo && pol->min_scale_elem == MX_MIN_SCALE_ELEM_UNIT)
    *div = 0;
  return 1;
}

/* |a| / |b| (both finite, nonzero) with 62 or 63 significant bits and a sticky bit below them:
 * every rounding to fewer than 61 bits (sr with its random bits included) is that of the exact
 * quotient.  The sign is a's xor b's. */
static s_val
s_div_sticky (s_val a, s_val b)
{
  while (!(b.sig & 1))
    b.sig >>= 1, b.exp++;
  s_val q = { S_FINITE, a.neg ^ b.neg, a.sig, a.exp - b.exp };
  if (b.sig == 1)
    return q;
  int n = 62 + bitlen (b.sig) - bitlen (a.sig); /* >= 0: b has 2+ bits, a at most 64 */
  u128 num = (u128) a.sig << n;
  uint64_t quo = (uint64_t) (num / b.sig);       /* in [2^61, 2^63) */
  q.sig = quo << 1 | (num % b.sig != 0);
  q.exp = a.exp - b.exp - n - 1;
  return q;
}

/* element i: v / 2^e, or v / S for a linear scale (S non-NULL), into elem */
static uint64_t
s_encode_elem (const mx_format *elem, const mx_format *sfmt, const mx_format *eff, s_val v,
               long e, const s_val *S, uint32_t rb, const mx_policy *pol, mx_rounding rnd,
               unsigned *fl)
{
  mx_policy p = *pol;
  if (v.cls == S_INF && pol->inf_block == MX_INF_BLOCK_SAT)
    p.overflow = MX_OVERFLOW_SAT;
  if (v.cls == S_INF && pol->inf_block == MX_INF_BLOCK_PASS)
    p.overflow = MX_OVERFLOW_OVF;
  if (v.cls == S_INF && pol->inf_block == MX_INF_BLOCK_ZERO)
    {
      *fl = MX_FLAG_INVALID; /* read as 0, and 0 is the all-zeros code everywhere */
      return 0;
    }
  if (S && v.cls == S_FINITE)
    {
      if (S->cls == S_ZERO)
        {
          /* a linear scale that rounded to 0 flushes the block to signed zeros */
          s_val z = { S_ZERO, v.neg, 0, 0 };
          uint64_t c = s_encode (elem, z, rnd, rb, &p, fl);
          *fl |= MX_FLAG_UNDERFLOW | MX_FLAG_INEXACT;
          return c;
        }
      return s_encode (elem, s_div_sticky (v, *S), rnd, rb, &p, fl);
    }
  s_val t = v;
  t.exp -= e;
  unsigned narrowed = 0;
  if (is_pow2fmt (sfmt) && eff && pol->scale_div == MX_SCALE_DIV_INPUT && t.cls == S_FINITE)
    {
      /* scale-div input: the quotient rounded into the input's type first */
      unsigned f0;
      s_val u = s_decode (eff, s_encode (eff, t, MX_RNE, 0, &s_ieee, &f0));
      if (u.cls != S_FINITE || s_cmp_mag (u, t) != 0)
        narrowed = MX_FLAG_INEXACT;
      t = u;
    }
  uint64_t c = s_encode (elem, t, rnd, rb, &p, fl);
  *fl |= narrowed;
  return c;
}

/* The exact error of a candidate scale: sum of (V_i - X P_i)^2, or max |V_i - X P_i|, over the
 * finite elements.  The square is summed as V^2 + P^2 - 2VP: positive and negative parts apart. */
static void
s_block_error (big *pos, big *neg, const mx_format *elem, const mx_format *sfmt,
               const mx_format *eff, const s_val v[], size_t k, uint64_t sc, long div,
               const uint32_t rbits[], const mx_policy *pol, mx_rounding rnd)
{
  *pos = (big) { { 0 }, 0 };
  *neg = (big) { { 0 }, 0 };
  int maxerr = pol->scale_rule == MX_SCALE_MIN_MAXERR;
  long X = (long) sc - sfmt->bias;
  for (size_t i = 0; i < k; i++)
    {
      if (v[i].cls != S_FINITE && v[i].cls != S_ZERO)
        continue;
      unsigned fl;
      s_val q = s_decode (elem, s_encode_elem (elem, sfmt, eff, v[i], div, NULL,
                                               rbits ? rbits[i] : 0, pol, rnd, &fl));
      if (q.cls == S_INF || q.cls == S_NAN)
        {
          pos->inf = 1;
          return;
        }
      q.exp += X;
      int vz = v[i].cls == S_ZERO, qz = q.cls == S_ZERO;
      if (maxerr)
        {
          /* |d| = | |V| -+ |Q| | as a big; keep the largest in pos */
          big a = { { 0 }, 0 }, b = { { 0 }, 0 };
          if (!vz)
            big_add (&a, v[i].sig, v[i].exp);
          if (!qz)
            big_add (vz || q.neg != v[i].neg ? &a : &b, q.sig, q.exp);
          if (big_cmp (&a, &b) < 0)
            {
              big c = a;
              a = b, b = c;
            }
          big_sub (&a, &b);
          if (big_cmp (&a, pos) > 0)
            *pos = a;
          continue;
        }
      if (!vz)
        big_add (pos, (u128) v[i].sig * v[i].sig, 2 * v[i].exp);
      if (!qz)
        big_add (pos, (u128) q.sig * q.sig, 2 * q.exp);
      if (!vz && !qz)
        big_add (q.neg == v[i].neg ? neg : pos, (u128) v[i].sig * q.sig, v[i].exp + q.exp + 1);
    }
}

/* (p1 - n1) vs (p2 - n2) */
static int
s_error_cmp (const big *p1, const big *n1, const big *p2, const big *n2)
{
  if (p1->inf || p2->inf)
    return p1->inf - p2->inf;
  big a = *p1, b = *p2;
  big_add_big (&a, n2);
  big_add_big (&b, n1);
  return big_cmp (&a, &b);
}

unsigned
s_quantize (uint64_t *scale, uint64_t codes[], const mx_format *elem, const mx_format *sfmt,
            const mx_format *in, const uint64_t bits[], size_t k, const uint32_t rbits[],
            const mx_policy *pol, mx_rounding rnd)
{
  s_val v[4096];
  unsigned bf = 0, sf = 0;
  int has_nan = 0, has_inf = 0, ruled = 0;
  long imax = -1;
  /* in == NULL: exact values, passed as FP64 bit patterns */
  const mx_format *dec = in ? in : mx_format_get (MX_FP64);
  /* wide-input fp32: FP64 and exact inputs become FP32 inputs */
  const mx_format *eff = pol->wide_input == MX_WIDE_INPUT_FP32 && (in == NULL || in->bits > 32)
                             ? mx_format_get (MX_FP32) : in;
  for (size_t i = 0; i < k; i++)
    {
      v[i] = s_decode (dec, bits[i]);
      if (eff != in)
        {
          s_val w = s_narrow_fp32 (v[i]);
          if (w.cls != v[i].cls || (w.cls == S_FINITE && s_cmp_mag (w, v[i]) != 0))
            bf |= MX_FLAG_INEXACT;
          v[i] = w;
        }
      if (eff && pol->subnormals != MX_SUBNORMALS_KEEP && v[i].cls == S_FINITE
          && flog2 (v[i]) < 1 - eff->bias)
        v[i].cls = S_ZERO, bf |= MX_FLAG_UNDERFLOW | MX_FLAG_INEXACT;
      if (eff && pol->subnormals == MX_SUBNORMALS_FLUSH_POS && v[i].cls == S_ZERO)
        v[i].neg = 0;
      if (v[i].cls == S_NAN)
        has_nan = 1;
      else if (v[i].cls == S_INF)
        has_inf = 1;
      else if (v[i].cls == S_FINITE
               && (imax < 0 || cmp_dy (v[i].sig, v[i].exp, v[imax].sig, v[imax].exp) > 0))
        imax = (long) i;
    }
  long e, lo = -sfmt->bias, hi = s_emax (sfmt);
  if (is_pow2fmt (sfmt) && (long) pol->scale_min - sfmt->bias > lo)
    lo = (long) pol->scale_min - sfmt->bias; /* scale-min */
  if ((has_nan && pol->nan_block == MX_NAN_BLOCK_PROPAGATE)
      || (has_inf && pol->inf_block == MX_INF_BLOCK_NAN))
    goto nan;
  int linear = !is_pow2fmt (sfmt);
  s_val S = { S_FINITE, 0, 1, 0 };
  if (has_inf && pol->inf_block == MX_INF_BLOCK_MAXSCALE)
    *scale = s_max_mag (sfmt), e = linear ? 0 : hi, S = s_decode (sfmt, *scale);
  else if (imax < 0 && !(has_inf && pol->inf_block == MX_INF_BLOCK_POW128 && !linear))
    {
      *scale = pol->zero_scale;
      s_val z = s_decode (sfmt, *scale);
      e = z.cls == S_NAN || linear ? 0 : z.exp;
      if (z.cls != S_NAN)
        S = z;
    }
  else if (linear)
    {
      /* amax / max_elem rounded into the scale format by scale-round, saturating */
      static const mx_rounding srnd[] = { [MX_SCALE_ROUND_RNE] = MX_RNE,
                                          [MX_SCALE_ROUND_UP] = MX_RUP,
                                          [MX_SCALE_ROUND_DOWN] = MX_RDN };
      s_val a = v[imax], m = s_decode (elem, s_max_mag (elem));
      a.neg = 0;
      mx_policy sp = *pol;
      sp.overflow = MX_OVERFLOW_SAT;
      sp.zero_sign = MX_ZERO_SIGN_POSITIVE;
      unsigned f0;
      *scale = s_encode (sfmt, s_div_sticky (a, m), srnd[pol->scale_round], 0, &sp, &f0);
      S = s_decode (sfmt, *scale);
      e = 0;
    }
  else
    {
      s_val amax = imax < 0 ? v[0] : v[imax];
      if (has_inf && pol->inf_block == MX_INF_BLOCK_POW128
          && (imax < 0 || flog2 (v[imax]) < 128))
        amax = (s_val) { S_FINITE, 0, 1, 128 }; /* Inf counts as 2^128 */
      long x = s_scale_exponent (amax, elem, eff, pol->scale_rule);
      if (!s_resolve (scale, &e, &sf, x, lo, hi, sfmt, pol))
        goto nan;
      if (pol->scale_rule == MX_SCALE_MIN_MSE || pol->scale_rule == MX_SCALE_MIN_MAXERR)
        {
          /* floor's neighbours replace it only when strictly better, the smaller first */
          big bp, bn, cp, cn;
          s_block_error (&bp, &bn, elem, sfmt, eff, v, k, *scale, e, rbits, pol, rnd);
          uint64_t base = *scale;
          for (long c = x - 1; c <= x + 1; c += 2)
            {
              uint64_t sc;
              long dv;
              unsigned f;
              if (!s_resolve (&sc, &dv, &f, c, lo, hi, sfmt, pol) || sc == base || sc == *scale)
                continue;
              s_block_error (&cp, &cn, elem, sfmt, eff, v, k, sc, dv, rbits, pol, rnd);
              if (s_error_cmp (&cp, &cn, &bp, &bn) < 0)
                bp = cp, bn = cn, *scale = sc, e = dv, sf = f;
            }
        }
      ruled = 1;
    }
  for (int pass = 0; pass < 2; pass++)
    {
      unsigned ef = 0;
      int ovf = 0;
      for (size_t i = 0; i < k; i++)
        {
          unsigned fl;
          codes[i] = s_encode_elem (elem, sfmt, eff, v[i], e, linear ? &S : NULL,
                                    rbits ? rbits[i] : 0, pol, rnd, &fl);
          ef |= fl;
          if ((fl & MX_FLAG_OVERFLOW) && (v[i].cls == S_FINITE || v[i].cls == S_ZERO))
            ovf = 1;
        }
      /* scale-bump once: one exponent up, all over again */
      if (pass == 0 && ruled && ovf && pol->scale_bump == MX_SCALE_BUMP_ONCE)
        {
          if (!s_resolve (scale, &e, &sf, (long) *scale - sfmt->bias + 1, lo, hi, sfmt, pol))
            goto nan;
          continue;
        }
      return bf | sf | ef;
    }
  return 0; /* not reached */
nan:
  *scale = msk (sfmt->bits);
  for (size_t i = 0; i < k; i++)
    codes[i] = 0;
  return bf | MX_FLAG_INVALID;
}

/* The error of the block of decoded values v under scale code sc (its divisor per min-scale-elem) */
static void
s_scale_error (big *pos, big *neg, uint64_t sc, const mx_format *elem, const mx_format *sfmt,
               const mx_format *in, const s_val v[], size_t k, const uint32_t rbits[],
               const mx_policy *pol, mx_rounding rnd)
{
  long div = 0;
  unsigned f;
  s_resolve (&sc, &div, &f, (long) sc - sfmt->bias, -sfmt->bias, s_emax (sfmt), sfmt, pol);
  s_block_error (pos, neg, elem, sfmt, in, v, k, sc, div, rbits, pol, rnd);
}

int
s_compare_scales (uint64_t sc1, uint64_t sc2, const mx_format *elem, const mx_format *sfmt,
                  const mx_format *in, const uint64_t bits[], size_t k, const uint32_t rbits[],
                  const mx_policy *pol, mx_rounding rnd)
{
  s_val v[4096];
  for (size_t i = 0; i < k; i++)
    v[i] = s_decode (in, bits[i]);
  big p1, n1, p2, n2;
  s_scale_error (&p1, &n1, sc1, elem, sfmt, in, v, k, rbits, pol, rnd);
  s_scale_error (&p2, &n2, sc2, elem, sfmt, in, v, k, rbits, pol, rnd);
  return s_error_cmp (&p1, &n1, &p2, &n2);
}

uint64_t
s_best_scale (const mx_format *elem, const mx_format *sfmt, const mx_format *in,
              const uint64_t bits[], size_t k, const uint32_t rbits[], const mx_policy *pol,
              mx_rounding rnd)
{
  s_val v[4096];
  for (size_t i = 0; i < k; i++)
    v[i] = s_decode (in, bits[i]);
  uint64_t best = 0;
  big bp, bn, p, n;
  for (uint64_t sc = 0; sc <= s_max_mag (sfmt); sc++)
    {
      s_scale_error (&p, &n, sc, elem, sfmt, in, v, k, rbits, pol, rnd);
      if (sc == 0 || s_error_cmp (&p, &n, &bp, &bn) < 0)
        bp = p, bn = n, best = sc;
    }
  return best;
}

unsigned
s_dequantize (uint64_t out[], const mx_format *of, uint64_t scale, const uint64_t codes[],
              const mx_format *elem, const mx_format *sfmt, size_t k, mx_rounding rnd)
{
  s_val S = s_decode (sfmt, scale);
  unsigned all = 0;
  for (size_t i = 0; i < k; i++)
    {
      unsigned fl;
      s_val p = s_decode (elem, codes[i]);
      if (S.cls == S_NAN)
        p.cls = S_NAN, p.neg = 0;
      else if (p.cls == S_FINITE)
        p.sig *= S.sig, p.exp += S.exp;
      out[i] = s_encode (of, p, rnd, 0, &s_ieee, &fl);
      all |= fl;
    }
  return all;
}

/*----------------------------------------------------------------- casts -*/
uint64_t
s_cast (const mx_format *to, const mx_format *from, uint64_t x, mx_rounding rnd, uint32_t rbits,
        const mx_policy *pol, unsigned *flags)
{
  s_val v = s_decode (from, x);
  const mx_format *eff = from;
  unsigned pre = 0;
  if (pol->wide_input == MX_WIDE_INPUT_FP32 && from->bits > 32)
    {
      s_val w = s_narrow_fp32 (v);
      if (w.cls != v.cls || (w.cls == S_FINITE && s_cmp_mag (w, v) != 0))
        pre = MX_FLAG_INEXACT;
      v = w;
      eff = mx_format_get (MX_FP32);
    }
  int flushed = pol->subnormals != MX_SUBNORMALS_KEEP && v.cls == S_FINITE
                && eff->special != MX_SPECIAL_INT && !is_pow2fmt (eff)
                && flog2 (v) < 1 - eff->bias;
  if (flushed)
    v.cls = S_ZERO;
  if (pol->subnormals == MX_SUBNORMALS_FLUSH_POS && v.cls == S_ZERO)
    v.neg = 0; /* torch.where(|x| < tiny, 0.0, x): -0 and the flushed are +0 */
  uint64_t c = s_encode (to, v, rnd, rbits, pol, flags);
  if (!(*flags & MX_FLAG_INVALID))
    *flags |= pre;
  if (flushed)
    *flags |= MX_FLAG_UNDERFLOW | MX_FLAG_INEXACT;
  return c;
}
