/* FP32 arithmetic modelled in MPFR, for the operations that reproduce FP32 code (NVFP4): each
 * operation forms the exact result, or its round-to-odd at the destination's precision (>= 64
 * bits, which a later rounding to 24 bits or fewer cannot tell from the exact value), and rounds
 * it once to FP32: RNE, gradual underflow, overflow to Inf.
 * SPDX-License-Identifier: MIT */
#include "internal.h"

uint64_t
mx__f32_round (mpfr_ptr r, unsigned *flags)
{
  const mx_format *f32 = mx_format_get (MX_FP32);
  uint64_t b;
  unsigned f = 0;
  if (mpfr_nan_p (r))
    {
      /* MPFR leaves a NaN's sign unspecified: mxgold's FP32 NaN is the positive quiet one */
      b = mx__nan_code (f32, 0, &mx__ieee);
      f = MX_FLAG_INVALID;
    }
  else
    {
      mx__encode (&b, &f, f32, r, 0, &mx__ieee, MX_RNE);
      mx__decode (r, f32, b);
    }
  if (flags)
    *flags = f;
  return b;
}

/* r rounded toward zero (ternary t) made round-to-odd: an inexact result gets its last bit set */
static void
odd (mpfr_ptr r, int t)
{
  if (t != 0 && mpfr_regular_p (r) && mpfr_min_prec (r) < mpfr_get_prec (r))
    {
      if (mpfr_sgn (r) > 0)
        mpfr_nextabove (r);
      else
        mpfr_nextbelow (r);
    }
}

uint64_t
mx__f32_mul (mpfr_ptr r, mpfr_srcptr a, mpfr_srcptr b, unsigned *flags)
{
  odd (r, mpfr_mul (r, a, b, MPFR_RNDZ));
  return mx__f32_round (r, flags);
}

uint64_t
mx__f32_div (mpfr_ptr r, mpfr_srcptr a, mpfr_srcptr b, unsigned *flags)
{
  odd (r, mpfr_div (r, a, b, MPFR_RNDZ));
  return mx__f32_round (r, flags);
}

uint64_t
mx__f32_add (mpfr_ptr r, mpfr_srcptr a, mpfr_srcptr b, unsigned *flags)
{
  odd (r, mpfr_add (r, a, b, MPFR_RNDZ));
  return mx__f32_round (r, flags);
}
