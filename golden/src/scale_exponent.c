/* mx_scale_exponent -- the shared exponent a scale rule picks for a block's amax.
 * SPDX-License-Identifier: MIT */
#include <limits.h>
#include "internal.h"

/* Round |a| to FP32 (RNE, IEEE overflow) in place: the rules that model FP32 hardware see the
 * FP32 value of amax.  Exact for FP32, BF16 and FP16 inputs. */
static void
to_fp32 (mpfr_ptr dst, mpfr_srcptr a)
{
  static const mx_policy ieee = { .overflow = MX_OVERFLOW_OVF, .sr_bits = 1 };
  const mx_format *f32 = mx_format_get (MX_FP32);
  mx_decode (dst, f32, mx_encode (f32, a, MX_RNE, 0, &ieee, NULL)); /* one rounding from any precision */
  mpfr_abs (dst, dst, MPFR_RNDN);
}

static long
floor_log2 (mpfr_srcptr a)
{
  return (long) mpfr_get_exp (a) - 1;
}

/* ceil(log2 |a|) for a != 0 */
static long
ceil_log2 (mpfr_srcptr a)
{
  long e = floor_log2 (a);
  mx__tmp t;
  mpfr_ptr p = mx__tmp_init (&t, 2);
  mpfr_set_ui_2exp (p, 1, e, MPFR_RNDN);
  return mpfr_cmpabs (a, p) == 0 ? e : e + 1;
}

long
mx_scale_exponent (mpfr_srcptr amax, const mx_format *elem, const mx_format *in,
                   mx_scale_rule rule)
{
  mx__tmp t1, t2;
  mpfr_ptr a = mx__tmp_init (&t1, MX__TMP_BITS), b = mx__tmp_init (&t2, MX__TMP_BITS);
  long E = floor_log2 (amax);

  switch (rule)
    {
    case MX_SCALE_FLOOR:
      return E - elem->emax;

    case MX_SCALE_CEIL:
      return ceil_log2 (amax) - elem->emax;

    case MX_SCALE_EVEN:
      {
        /* amax + half a unit in the mbits-th fraction place, the unit taken at amax's exponent
         * in the input format (FP32 for FP32/BF16/FP16 input, so FP32 subnormals use -126). */
        long ein = in == NULL ? E : in->bits > 32 ? mx_format_get (MX_FP64)->emin
                                                  : mx_format_get (MX_FP32)->emin;
        long eq = E > ein ? E : ein;
        mpfr_set_ui_2exp (b, 1, eq - (long) elem->mbits - 1, MPFR_RNDN);
        mpfr_abs (a, amax, MPFR_RNDZ);
        mpfr_add (a, a, b, MPFR_RNDZ); /* RNDZ cannot cross the power of two that decides */
        return floor_log2 (a) - elem->emax;
      }

    case MX_SCALE_RCEIL:
      {
        mx_decode (b, elem, elem->max_mag);
        mpfr_div (a, amax, b, MPFR_RNDA); /* rounding away cannot cross a power of two downward */
        return ceil_log2 (a);
      }

    case MX_SCALE_RCEIL_FP32:
      {
        const mx_format *f32 = mx_format_get (MX_FP32);
        static const mx_policy ieee = { .overflow = MX_OVERFLOW_OVF, .sr_bits = 1 };
        mx__tmp t3;
        mpfr_ptr r = mx__tmp_init (&t3, MX__TMP_BITS);
        mx_decode (b, elem, elem->max_mag);
        mpfr_ui_div (a, 1, b, MPFR_RNDN);           /* 1/max to 192 bits ... */
        to_fp32 (r, a);                             /* ... then fl32: both roundings RNE, the
                                                       first far below the second's ulp */
        to_fp32 (a, amax);
        if (mpfr_inf_p (a))
          return LONG_MAX / 2;
        mpfr_mul (b, a, r, MPFR_RNDN);              /* exact: 24 x 24 bits */
        mx_decode (a, f32, mx_encode (f32, b, MX_RNE, 0, &ieee, NULL));
        if (mpfr_zero_p (a))
          return LONG_MIN / 2;                      /* cvt.rp of +0 gives 0x00 */
        return ceil_log2 (a);
      }

    case MX_SCALE_FLOOR_LOG2F:
      {
        mx__tmp t4;
        mpfr_ptr l = mx__tmp_init (&t4, 24);
        to_fp32 (a, amax);
        if (mpfr_inf_p (a))
          return LONG_MAX / 2;
        mpfr_log2 (l, a, MPFR_RNDN);                /* correctly rounded log2f */
        mpfr_floor (l, l);
        return mpfr_get_si (l, MPFR_RNDN) - elem->emax;
      }

    default:
      return E - elem->emax;
    }
}
