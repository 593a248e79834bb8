/* mx_decode -- the exact value of a code.
 * SPDX-License-Identifier: MIT */
#include "internal.h"

unsigned
mx__decode (mpfr_ptr rop, const mx_format *f, uint64_t code)
{
  code &= mx__mask (f->bits);
  uint64_t mag = code & mx__mask (mx__mag_bits (f));
  int neg = f->sign && (code >> (f->bits - 1)) & 1;

  switch (f->special)
    {
    case MX_SPECIAL_INT:
      {
        /* Two's complement: the sign bit weighs -2^(bits-1). */
        int64_t v = (int64_t) mag - (neg ? (int64_t) 1 << (f->bits - 1) : 0);
        mpfr_set_si_2exp (rop, v, -(long) f->mbits, MPFR_RNDN);
        return 0;
      }
    case MX_SPECIAL_POW2:
      if (mag == mx__mask (f->ebits))
        {
          mpfr_set_nan (rop);
          return MX_FLAG_INVALID;
        }
      mpfr_set_ui_2exp (rop, 1, mx__pow2_exponent (f, mag), MPFR_RNDN);
      return 0;
    default:
      break;
    }

  uint64_t efield = mag >> f->mbits, frac = mag & mx__mask (f->mbits);
  if (f->special == MX_SPECIAL_IEEE && efield == mx__mask (f->ebits))
    {
      if (frac != 0)
        {
          mpfr_set_nan (rop);
          mpfr_setsign (rop, rop, neg, MPFR_RNDN);
          return MX_FLAG_INVALID;
        }
      mpfr_set_inf (rop, neg ? -1 : 1);
      return 0;
    }
  if (f->special == MX_SPECIAL_FN && mag == mx__mask (mx__mag_bits (f)))
    {
      mpfr_set_nan (rop);
      mpfr_setsign (rop, rop, neg, MPFR_RNDN);
      return MX_FLAG_INVALID;
    }
  if (efield == 0) /* zero or subnormal: frac * 2^(emin - mbits) */
    mpfr_set_ui_2exp (rop, frac, (long) f->emin - (long) f->mbits, MPFR_RNDN);
  else
    mpfr_set_ui_2exp (rop, frac | ((uint64_t) 1 << f->mbits),
                      (long) efield - f->bias - (long) f->mbits, MPFR_RNDN);
  if (neg)
    mpfr_neg (rop, rop, MPFR_RNDN);
  return 0;
}

unsigned
mx_decode (mpfr_ptr rop, const mx_format *f, uint64_t code)
{
  mx__state s = mx__enter ();
  unsigned fl = mx__decode (rop, f, code);
  mx__leave (s);
  return fl;
}
