/* mx_cast -- convert a code of one format to another: exact decode, then one rounding.
 * SPDX-License-Identifier: MIT */
#include "internal.h"

int
mx__flush_subnormal (mpfr_ptr v, const mx_format *in, mx_subnormals how)
{
  int pos = how == MX_SUBNORMALS_FLUSH_POS;
  if (pos && mpfr_zero_p (v))
    mpfr_set_zero (v, 1);
  if (how == MX_SUBNORMALS_KEEP || in->special == MX_SPECIAL_INT
      || in->special == MX_SPECIAL_POW2 || !mpfr_regular_p (v)
      || (long) mpfr_get_exp (v) - 1 >= in->emin)
    return 0;
  mpfr_set_zero (v, pos || !mpfr_signbit (v) ? 1 : -1);
  return 1;
}

const mx_format *
mx__wide_input (mpfr_ptr v, const mx_format *in, const mx_policy *pol, int *inexact)
{
  *inexact = 0;
  if (pol->wide_input != MX_WIDE_INPUT_FP32 || (in != NULL && in->bits <= 32))
    return in;
  const mx_format *f32 = mx_format_get (MX_FP32);
  if (!mpfr_nan_p (v))
    {
      /* o: v as it was (exact), on the stack unless v is wider than a stack variable */
      mx__tmp t;
      mpfr_t wide;
      mpfr_ptr o = wide;
      if (mpfr_get_prec (v) <= MX__TMP_BITS)
        o = mx__tmp_init (&t, mpfr_get_prec (v));
      else
        mpfr_init2 (wide, mpfr_get_prec (v));
      mpfr_set (o, v, MPFR_RNDN);
      mx__decode (v, f32, mx__fp32_bits (o)); /* RNE, IEEE overflow and gradual underflow */
      *inexact = !mpfr_equal_p (o, v);
      if (o == wide)
        mpfr_clear (wide);
    }
  return f32;
}

int
mx_cast (uint64_t *code, unsigned *flags, const mx_format *to, const mx_format *from,
         uint64_t bits, uint32_t rbits, const mx_policy *pol, mx_rounding rnd)
{
  mx__state s = mx__enter ();
  mx__tmp t;
  mpfr_ptr x = mx__tmp_init (&t, 64);
  unsigned fl;
  mx__tmp to_;
  mpfr_ptr orig = mx__tmp_init (&to_, 64);
  int narrowed;
  mx__decode (x, from, bits);
  mpfr_set (orig, x, MPFR_RNDN);
  const mx_format *eff = mx__wide_input (x, from, pol, &narrowed);
  int flushed = mx__flush_subnormal (x, eff, pol->subnormals);
  int ternary = mx__encode (code, &fl, to, x, rbits, pol, rnd);
  if (narrowed && !(fl & MX_FLAG_INVALID))
    {
      /* the target's grid is FP32's or coarser: a rounded result lies on the same side of the
       * input as of its FP32 value, an exact one on the side the FP32 value lies */
      fl |= MX_FLAG_INEXACT;
      if (ternary == 0 && !(fl & MX_FLAG_OVERFLOW)) /* overflow with 0: a NaN result */
        ternary = mpfr_cmp (x, orig) > 0 ? 1 : -1;
    }
  if (flushed)
    {
      fl |= MX_FLAG_UNDERFLOW | MX_FLAG_INEXACT;
      if (!(fl & MX_FLAG_INVALID)) /* a zero result lies toward zero from the input */
        ternary = mpfr_signbit (orig) ? 1 : -1; /* the input, as flush-pos made x +0 */
    }
  if (flags)
    *flags = fl;
  mx__leave (s);
  return ternary;
}
