/* mx_cast -- convert a code of one format to another: exact decode, then one rounding.
 * SPDX-License-Identifier: MIT */
#include "internal.h"

int
mx__flush_subnormal (mpfr_ptr v, const mx_format *in)
{
  if (in->special == MX_SPECIAL_INT || in->special == MX_SPECIAL_POW2 || !mpfr_regular_p (v)
      || (long) mpfr_get_exp (v) - 1 >= in->emin)
    return 0;
  mpfr_set_zero (v, mpfr_signbit (v) ? -1 : 1);
  return 1;
}

int
mx_cast (uint64_t *code, unsigned *flags, const mx_format *to, const mx_format *from,
         uint64_t bits, uint32_t rbits, const mx_policy *pol, mx_rounding rnd)
{
  mx__state s = mx__enter ();
  mx__tmp t;
  mpfr_ptr x = mx__tmp_init (&t, 64);
  unsigned fl;
  mx__decode (x, from, bits);
  int flushed = pol->subnormals == MX_SUBNORMALS_FLUSH && mx__flush_subnormal (x, from);
  int ternary = mx__encode (code, &fl, to, x, rbits, pol, rnd);
  if (flushed)
    {
      fl |= MX_FLAG_UNDERFLOW | MX_FLAG_INEXACT;
      if (!(fl & MX_FLAG_INVALID)) /* a zero result lies toward zero from the input */
        ternary = mpfr_signbit (x) ? 1 : -1;
    }
  if (flags)
    *flags = fl;
  mx__leave (s);
  return ternary;
}
