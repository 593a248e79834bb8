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

uint64_t
mx_cast (const mx_format *to, const mx_format *from, uint64_t bits, mx_rounding rnd,
         uint32_t rbits, const mx_policy *pol, unsigned *flags)
{
  mx__tmp t;
  mpfr_ptr x = mx__tmp_init (&t, 64);
  mx_decode (x, from, bits);
  int flushed = pol->subnormals == MX_SUBNORMALS_FLUSH && mx__flush_subnormal (x, from);
  uint64_t code = mx_encode (to, x, rnd, rbits, pol, flags);
  if (flushed && flags)
    *flags |= MX_FLAG_UNDERFLOW | MX_FLAG_INEXACT;
  return code;
}
