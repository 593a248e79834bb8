/* mx_decode -- the exact value of a code.
 * SPDX-License-Identifier: MIT */
#include "internal.h"

unsigned
mx__decode_exact (mx__exact *x, const mx_format *f, uint64_t code)
{
  code &= mx__mask (f->bits);
  uint64_t mag = code & mx__mask (mx__mag_bits (f));
  x->neg = f->sign && (code >> (f->bits - 1)) & 1;
  x->cls = MX__FINITE;
  x->m = 0;
  x->e = 0;

  switch (f->special)
    {
    case MX_SPECIAL_INT:
      {
        /* Two's complement: the sign bit weighs -2^(bits-1); zero is +0. */
        x->m = x->neg ? ((uint64_t) 1 << (f->bits - 1)) - mag : mag;
        x->e = -(long) f->mbits;
        x->neg = x->m != 0 && x->neg;
        break;
      }
    case MX_SPECIAL_POW2:
      if (mag == mx__mask (f->ebits))
        {
          x->cls = MX__NAN;
          return MX_FLAG_INVALID;
        }
      x->m = 1;
      x->e = mx__pow2_exponent (f, mag);
      return 0;
    default:
      {
        uint64_t efield = mag >> f->mbits, frac = mag & mx__mask (f->mbits);
        if ((f->special == MX_SPECIAL_IEEE && efield == mx__mask (f->ebits))
            || (f->special == MX_SPECIAL_FN && mag == mx__mask (mx__mag_bits (f))))
          {
            x->cls = f->special == MX_SPECIAL_IEEE && frac == 0 ? MX__INF : MX__NAN;
            return x->cls == MX__NAN ? MX_FLAG_INVALID : 0;
          }
        if (efield == 0) /* zero or subnormal: frac * 2^(emin - mbits) */
          x->m = frac, x->e = (long) f->emin - (long) f->mbits;
        else
          x->m = frac | ((uint64_t) 1 << f->mbits), x->e = (long) efield - f->bias - (long) f->mbits;
        break;
      }
    }
  if (x->m == 0)
    x->cls = MX__ZERO;
  return 0;
}

unsigned
mx__decode (mpfr_ptr rop, const mx_format *f, uint64_t code)
{
  mx__exact x;
  unsigned fl = mx__decode_exact (&x, f, code);
  switch (x.cls)
    {
    case MX__NAN:
      mpfr_set_nan (rop);
      if (f->special != MX_SPECIAL_POW2) /* a scale's NaN has no sign bit: rop's stays */
        mpfr_setsign (rop, rop, x.neg, MPFR_RNDN);
      break;
    case MX__INF:
      mpfr_set_inf (rop, x.neg ? -1 : 1);
      break;
    default:
      mpfr_set_ui_2exp (rop, x.m, x.e, MPFR_RNDN); /* exact: x.m < 2^63 */
      if (x.neg)
        mpfr_neg (rop, rop, MPFR_RNDN);
      break;
    }
  return fl;
}

unsigned
mx_decode (mpfr_ptr rop, const mx_format *f, uint64_t code)
{
  mx__state s = mx__enter ();
  unsigned fl = mx__decode (rop, f, code);
  mx__leave (s);
  return fl;
}
