/* mx_scale_exponent -- the shared exponent a scale rule picks for a block's amax.
 * SPDX-License-Identifier: MIT */
#include <limits.h>
#include "internal.h"

/* The rules that model FP32 hardware see fl32(amax) or an FP32 product; where that is 0 or Inf
 * no exponent exists, and these stand-ins clamp to the scale's range (or overflow it) safely. */
#define TOO_SMALL (LONG_MIN / 2)
#define TOO_LARGE (LONG_MAX / 2)

/* dst = |fl32(a)|, RNE with IEEE overflow: one rounding from any precision, exact for FP32,
 * BF16 and FP16 inputs. */
static void
to_fp32 (mpfr_ptr dst, mpfr_srcptr a)
{
  mx__decode (dst, mx_format_get (MX_FP32), mx__fp32_bits (a));
  mpfr_abs (dst, dst, MPFR_RNDN);
}

/* a = fl32(amax) for the rules that model FP32 hardware: 0 when that is finite and nonzero, else
 * the stand-in exponent (Inf: TOO_LARGE; 0, log2f's -Inf, for an FP64 amax below FP32's range:
 * TOO_SMALL). */
static long
fp32_amax (mpfr_ptr a, mpfr_srcptr amax)
{
  to_fp32 (a, amax);
  return mpfr_inf_p (a) ? TOO_LARGE : mpfr_zero_p (a) ? TOO_SMALL : 0;
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

/* amax rounded half-up to mbits fraction bits, the unit taken at amax's exponent in the input
 * format (FP32 for FP32/BF16/FP16 input, so FP32 subnormals use -126): torchao/Quark EVEN. */
static long
even (mpfr_srcptr amax, const mx_format *elem, const mx_format *in)
{
  mx__tmp ta, tb;
  mpfr_ptr a = mx__tmp_init (&ta, MX__TMP_BITS), b = mx__tmp_init (&tb, 2);
  long E = floor_log2 (amax);
  long ein = in == NULL ? E : in->bits > 32 ? mx_format_get (MX_FP64)->emin
                                            : mx_format_get (MX_FP32)->emin;
  long eq = E > ein ? E : ein;
  mpfr_set_ui_2exp (b, 1, eq - (long) elem->mbits - 1, MPFR_RNDN);
  mpfr_abs (a, amax, MPFR_RNDZ);
  mpfr_add (a, a, b, MPFR_RNDZ); /* RNDZ cannot cross the power of two that decides */
  return floor_log2 (a) - elem->emax;
}

/* ceil(log2(amax / max)), exact */
static long
rceil (mpfr_srcptr amax, const mx_format *elem)
{
  mx__tmp ta, tm;
  mpfr_ptr a = mx__tmp_init (&ta, MX__TMP_BITS), m = mx__tmp_init (&tm, 64);
  mx__decode (m, elem, elem->max_mag);
  mpfr_div (a, amax, m, MPFR_RNDA); /* rounding away cannot cross a power of two downward */
  return ceil_log2 (a);
}

/* ceil(log2(fl32(fl32(amax) * fl32(1/max)))): cvt.rp.satfinite.ue8m0 of cuBLAS/TE */
static long
rceil_fp32 (mpfr_srcptr amax, const mx_format *elem)
{
  mx__tmp ta, tb, tr;
  mpfr_ptr a = mx__tmp_init (&ta, MX__TMP_BITS), b = mx__tmp_init (&tb, MX__TMP_BITS),
           r = mx__tmp_init (&tr, MX__TMP_BITS);
  mx__decode (b, elem, elem->max_mag);
  mpfr_ui_div (a, 1, b, MPFR_RNDN); /* 1/max to 192 bits ... */
  to_fp32 (r, a);                   /* ... then fl32: both RNE, the first far below the second's ulp */
  long edge = fp32_amax (a, amax);
  if (edge)
    return edge;
  mpfr_mul (b, a, r, MPFR_RNDN); /* exact: 24 x 24 bits */
  to_fp32 (a, b);
  if (mpfr_zero_p (a))
    return TOO_SMALL;            /* cvt.rp of +0 gives 0x00 */
  return ceil_log2 (a);
}

/* floor(fl32(log2 fl32(amax))) - emax: ggml's floorf(log2f(amax)) */
static long
floor_log2f (mpfr_srcptr amax, const mx_format *elem)
{
  mx__tmp ta, tl;
  mpfr_ptr a = mx__tmp_init (&ta, MX__TMP_BITS), l = mx__tmp_init (&tl, 24);
  long edge = fp32_amax (a, amax);
  if (edge)
    return edge;
  mpfr_log2 (l, a, MPFR_RNDN); /* correctly rounded log2f */
  mpfr_floor (l, l);
  return mpfr_get_si (l, MPFR_RNDN) - elem->emax;
}

/* ceil(fl32(log2(fl32(fl32(amax) / max)))): torchao RCEIL's eager path, torch.log2 of an FP32
 * quotient (correctly rounded here; docs/profiles.md says where torch's agrees) */
static long
rceil_log2f (mpfr_srcptr amax, const mx_format *elem)
{
  mx__tmp ta, tm, tl;
  mpfr_ptr a = mx__tmp_init (&ta, MX__TMP_BITS), m = mx__tmp_init (&tm, 64),
           l = mx__tmp_init (&tl, 24);
  long edge = fp32_amax (a, amax);
  if (edge)
    return edge;
  mx__decode (m, elem, elem->max_mag);
  /* a 24-bit over an 8-bit number is never within 2^-192 of an FP32 midpoint it is not: the
   * wide quotient rounds to FP32 as the exact one does */
  mpfr_div (a, a, m, MPFR_RNDN);
  to_fp32 (a, a);
  if (mpfr_zero_p (a))
    return TOO_SMALL; /* log2(0) = -Inf */
  mpfr_log2 (l, a, MPFR_RNDN);
  mpfr_ceil (l, l);
  return mpfr_get_si (l, MPFR_RNDN);
}

/* floor or ceil (up) of fl_T(log2 amax), minus emax, T the input's format (RNE to its precision;
 * log2 of a value of T never leaves T's exponent range): np.log2 / torch.log2 on an array of T
 * (pychop, gfloat, Quark).  Exact inputs: the exact floor or ceil. */
static long
log2_input (mpfr_srcptr amax, const mx_format *elem, const mx_format *in, int up)
{
  if (in == NULL)
    return (up ? ceil_log2 (amax) : floor_log2 (amax)) - elem->emax;
  mx__tmp ta, tl;
  mpfr_ptr a = mx__tmp_init (&ta, mpfr_get_prec (amax) < MX__TMP_BITS ? mpfr_get_prec (amax)
                                                                        : MX__TMP_BITS),
           l = mx__tmp_init (&tl, in->mbits + 1);
  mpfr_abs (a, amax, MPFR_RNDN); /* exact: the precision is amax's (a value of T) */
  mpfr_log2 (l, a, MPFR_RNDN);
  if (up)
    mpfr_ceil (l, l);
  else
    mpfr_floor (l, l);
  return mpfr_get_si (l, MPFR_RNDN) - elem->emax;
}

/* Quark's even_round on FP32 bits: fl32(amax) plus half a unit of its m-th fraction bit (m = 8
 * for INT8, Quark's get_dtype_params), the carry into exponent field 255 being Inf */
static long
even_fp32 (mpfr_srcptr amax, const mx_format *elem)
{
  mx__tmp ta, tb;
  mpfr_ptr a = mx__tmp_init (&ta, MX__TMP_BITS), b = mx__tmp_init (&tb, 2);
  long edge = fp32_amax (a, amax);
  if (edge)
    return edge;
  long m = elem->special == MX_SPECIAL_INT ? 8 : (long) elem->mbits;
  long E = floor_log2 (a), eq = E > -126 ? E : -126;
  mpfr_set_ui_2exp (b, 1, eq - m - 1, MPFR_RNDN);
  mpfr_add (a, a, b, MPFR_RNDZ); /* exact: a has 24 bits, b lies within them or just below */
  long r = floor_log2 (a);
  return r >= 128 ? TOO_LARGE : r - elem->emax;
}

long
mx__scale_exponent (mpfr_srcptr amax, const mx_format *elem, const mx_format *in,
                    mx_scale_rule rule)
{
  if (!mpfr_regular_p (amax))
    return TOO_SMALL; /* outside the contract: no exponent, and no undefined arithmetic */
  switch (rule)
    {
    case MX_SCALE_CEIL: return ceil_log2 (amax) - elem->emax;
    case MX_SCALE_EVEN: return even (amax, elem, in);
    case MX_SCALE_RCEIL: return rceil (amax, elem);
    case MX_SCALE_RCEIL_FP32: return rceil_fp32 (amax, elem);
    case MX_SCALE_FLOOR_LOG2F: return floor_log2f (amax, elem);
    case MX_SCALE_RCEIL_LOG2F: return rceil_log2f (amax, elem);
    case MX_SCALE_FLOOR_LOG2_INPUT: return log2_input (amax, elem, in, 0);
    case MX_SCALE_CEIL_LOG2_INPUT: return log2_input (amax, elem, in, 1);
    case MX_SCALE_EVEN_FP32: return even_fp32 (amax, elem);
    default: return floor_log2 (amax) - elem->emax; /* FLOOR, OCP 6.3, where min-mse starts */
    }
}

long
mx_scale_exponent (mpfr_srcptr amax, const mx_format *elem, const mx_format *in,
                   mx_scale_rule rule)
{
  mx__state s = mx__enter ();
  long e = mx__scale_exponent (amax, elem, in, rule);
  mx__leave (s);
  return e;
}
