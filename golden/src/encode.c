/* mx_encode -- round an exact value into a format and return its code.
 *
 * The value path is MPFR only.  The format is emulated the MPFR way (doc/mpfr.texi,
 * "mpfr_subnormalize"): precision mbits+1, emin set so that mpfr_subnormalize produces the
 * format's subnormals, exponent range above left open so that overflow is decided here against
 * max_mag.  rne/rtz/rup/rdn are MPFR's own modes; rna, rnz, rto and sr are built explicitly from
 * the truncated result and an exact comparison with the midpoint or the stochastic threshold.
 * SPDX-License-Identifier: MIT */
#include "internal.h"

uint64_t
mx__nan_code (const mx_format *f, int neg, const mx_policy *pol)
{
  uint64_t sign = f->sign && neg ? (uint64_t) 1 << (f->bits - 1) : 0;
  switch (f->special)
    {
    case MX_SPECIAL_IEEE: /* quiet NaN: all-ones exponent, top fraction bit */
      return sign | (mx__mask (f->ebits) << f->mbits) | ((uint64_t) 1 << (f->mbits - 1));
    case MX_SPECIAL_FN:
    case MX_SPECIAL_POW2:
      return sign | mx__mask (mx__mag_bits (f));
    default:
      switch (pol->nan_elem)
        {
        case MX_NAN_ELEM_NEGZERO:
          return f->special == MX_SPECIAL_INT ? 0 : (uint64_t) 1 << (f->bits - 1);
        case MX_NAN_ELEM_MAX:
          return f->max_mag;
        default:
          return 0;
        }
    }
}

static mpfr_rnd_t
native_mode (mx_rounding r)
{
  switch (r)
    {
    case MX_RNE: return MPFR_RNDN;
    case MX_RUP: return MPFR_RNDU;
    case MX_RDN: return MPFR_RNDD;
    default: return MPFR_RNDZ; /* rtz, and the truncation that rna/rnz/rto/sr start from */
    }
}

/* Magnitude code of a value y already rounded into f (y != 0, |y| < 2^(emax+2)). */
static uint64_t
mag_code (const mx_format *f, mpfr_srcptr y, long ey)
{
  if (f->special == MX_SPECIAL_POW2)
    return (uint64_t) (ey + f->bias);
  long eq = ey > f->emin ? ey : f->emin;
  if (f->special == MX_SPECIAL_INT)
    eq = 0;
  mx__tmp t;
  mpfr_ptr s = mx__tmp_init (&t, 64);
  mpfr_mul_2si (s, y, (long) f->mbits - eq, MPFR_RNDN); /* exact: an integer < 2^(mbits+2) */
  mpfr_abs (s, s, MPFR_RNDN);
  uint64_t m = mpfr_get_ui (s, MPFR_RNDN);
  if (f->special == MX_SPECIAL_INT)
    return m;
  /* normal: m = 2^mbits + frac, biased exponent eq - emin + 1 */
  return m + ((uint64_t) (eq - f->emin) << f->mbits);
}

uint64_t
mx_encode (const mx_format *f, mpfr_srcptr x, mx_rounding rnd, uint32_t rbits,
           const mx_policy *pol, unsigned *flagsp)
{
  unsigned flags = 0;
  int neg = mpfr_signbit (x) != 0;
  uint64_t mag = 0, code;
  int overflow = 0;

  if (mpfr_nan_p (x) || (f->special == MX_SPECIAL_POW2 && (neg || mpfr_zero_p (x)))
      || (!f->sign && neg && !mpfr_zero_p (x)))
    {
      /* NaN in, or a value the format cannot carry (E8M0 has no zero, no sign). */
      code = mx__nan_code (f, neg, pol);
      flags = MX_FLAG_INVALID;
      goto done;
    }
  if (!f->sign)
    neg = 0;
  if (mpfr_inf_p (x))
    {
      if (f->special == MX_SPECIAL_IEEE && pol->overflow == MX_OVERFLOW_OVF)
        {
          mag = mx__mask (f->ebits) << f->mbits; /* Inf to Inf is exact */
          goto pack;
        }
      overflow = 1;
      goto overflowed;
    }
  if (mpfr_zero_p (x))
    goto pack;

  {
    mx__tmp ty;
    /* INT keeps its 2^-mbits grid up to 4 (beyond 2 everything overflows): one bit more */
    mpfr_ptr y = mx__tmp_init (&ty, f->mbits + 1 + (f->special == MX_SPECIAL_INT));
    mpfr_rnd_t mode = native_mode (rnd);
    mpfr_exp_t old_emin = mpfr_get_emin ();
    int pow2 = f->special == MX_SPECIAL_POW2;
    int t;
    /* Round to mbits+1 bits in the wide range (x must lie in the current range), then narrow
     * emin to the format's and let check_range + subnormalize redo the rounding without double
     * rounding (MPFR manual, mpfr_subnormalize). */
    t = mpfr_set (y, x, mode);
    if (!pow2)
      {
        mpfr_set_emin ((mpfr_exp_t) f->emin - (mpfr_exp_t) f->mbits + 1); /* exp of min subnormal */
        t = mpfr_check_range (y, t, mode);
        t = mpfr_subnormalize (y, t, mode);
        mpfr_set_emin (old_emin);
      }

    long ey = mpfr_zero_p (y) ? 0 : (long) mpfr_get_exp (y) - 1;
    if (!mpfr_zero_p (y) && ey > f->emax + 1)
      overflow = 1;
    else
      {
        if (pow2 && ey < f->emin) /* no zero: everything tiny clamps to the smallest code */
          {
            mag = 0;
            t = 1;
          }
        else if (!mpfr_zero_p (y))
          mag = mag_code (f, y, ey);

        if (t != 0 && (rnd == MX_RNA || rnd == MX_RNZ || rnd == MX_RTO || rnd == MX_SR) && !(pow2 && ey < f->emin))
          {
            int bump;
            if (rnd == MX_RTO)
              bump = (mag & 1) == 0;
            else
              {
                /* ulp of the truncated result, then an exact threshold above |y| */
                long ue = f->special == MX_SPECIAL_INT ? -(long) f->mbits
                          : pow2 ? ey
                          : (mpfr_zero_p (y) || ey < f->emin ? f->emin : ey) - (long) f->mbits;
                unsigned R = rnd == MX_SR ? pol->sr_bits : 1;
                uint64_t num = rnd == MX_SR ? ((uint64_t) 1 << R) - (rbits & mx__mask (R)) : 1;
                mx__tmp tt;
                mpfr_ptr thr = mx__tmp_init (&tt, MX__TMP_BITS);
                /* thr = |y| + num * 2^(ue-R): exact, the span is at most mbits+R+2 bits */
                mpfr_set_ui_2exp (thr, num, ue - (long) R, MPFR_RNDN);
                if (neg)
                  mpfr_sub (thr, thr, y, MPFR_RNDN);
                else
                  mpfr_add (thr, thr, y, MPFR_RNDN);
                int c = mpfr_cmpabs (x, thr);
                bump = rnd == MX_RNZ ? c > 0 : c >= 0;
              }
            mag += (uint64_t) bump;
          }
        if (t != 0)
          {
            flags |= MX_FLAG_INEXACT;
            long tiny = f->special == MX_SPECIAL_INT ? -(long) f->mbits : f->emin;
            if ((long) mpfr_get_exp (x) - 1 < tiny) /* tininess before rounding */
              flags |= MX_FLAG_UNDERFLOW;
          }
        uint64_t limit = f->max_mag;
        if (f->special == MX_SPECIAL_INT && neg && pol->int_range == MX_INT_RANGE_FULL)
          limit++;
        if (mag > limit)
          overflow = 1;
      }
  }

overflowed:
  if (overflow)
    {
      uint64_t limit = f->max_mag;
      if (f->special == MX_SPECIAL_INT && neg && pol->int_range == MX_INT_RANGE_FULL)
        limit++;
      int toward_zero = rnd == MX_RTZ || rnd == MX_RTO || (rnd == MX_RDN && !neg)
                        || (rnd == MX_RUP && neg);
      flags |= MX_FLAG_OVERFLOW | MX_FLAG_INEXACT;
      flags &= ~MX_FLAG_UNDERFLOW;
      if (pol->overflow == MX_OVERFLOW_SAT || toward_zero || f->special == MX_SPECIAL_NONE
          || f->special == MX_SPECIAL_INT)
        mag = limit;
      else if (f->special == MX_SPECIAL_IEEE)
        mag = mx__mask (f->ebits) << f->mbits;
      else
        {
          code = mx__nan_code (f, neg, pol); /* FN (E4M3) and POW2 overflow to NaN */
          goto done;
        }
    }

pack:
  if (mag == 0 && f->special != MX_SPECIAL_POW2 && pol->zero_sign == MX_ZERO_SIGN_POSITIVE)
    neg = 0;
  if (f->special == MX_SPECIAL_INT)
    code = neg ? (~mag + 1) & mx__mask (f->bits) : mag;
  else
    code = mag | (neg ? (uint64_t) 1 << (f->bits - 1) : 0);

done:
  if (flagsp)
    *flagsp = flags;
  return code;
}
