/* mx_encode -- round an exact value into a format and return its code.
 *
 * The value path is MPFR only.  The format is emulated the MPFR way (MPFR manual,
 * "mpfr_subnormalize"): precision mbits+1, emin set so that mpfr_subnormalize produces the
 * format's subnormals, exponent range above left open so that overflow is decided here against
 * max_mag.  rne/rtz/rup/rdn are MPFR's own modes; rna, rnz, rto and sr are built explicitly from
 * the truncated result and an exact comparison with the midpoint or the stochastic threshold.
 * Four steps: specials, rounding of the magnitude, overflow, packing.
 * SPDX-License-Identifier: MIT */
#include "internal.h"

uint64_t
mx__nan_code (const mx_format *f, int neg, const mx_policy *pol)
{
  uint64_t sign = f->sign && neg ? (uint64_t) 1 << (f->bits - 1) : 0;
  switch (f->special)
    {
    case MX_SPECIAL_IEEE: /* quiet NaN: all-ones exponent, top fraction bit (or every bit) */
      if (f->role == MX_ROLE_ELEM && pol->nan_code == MX_NAN_CODE_ONES)
        return sign | mx__mask (f->bits - 1);
      return sign | (mx__mask (f->ebits) << f->mbits) | ((uint64_t) 1 << (f->mbits - 1));
    case MX_SPECIAL_FN:
    case MX_SPECIAL_POW2:
      return sign | mx__mask (mx__mag_bits (f));
    default:
      switch (pol->nan_elem)
        {
        case MX_NAN_ELEM_FLIPZERO:
          return f->special == MX_SPECIAL_INT || neg ? 0 : (uint64_t) 1 << (f->bits - 1);
        case MX_NAN_ELEM_MAX:
          return f->max_mag;
        default:
          return 0;
        }
    }
}

/* One encoding in progress: the sign of x, the magnitude code, the flags, and the direction of
 * the magnitude's rounding (-1 below |x|, 0 exact, +1 above). */
typedef struct
{
  int neg;
  uint64_t mag;
  unsigned flags;
  int dir;
} enc;

/* The largest magnitude code the sign may take (INT8 -128 under int-range full). */
static uint64_t
mag_limit (const mx_format *f, int neg, const mx_policy *pol)
{
  return f->max_mag + (f->special == MX_SPECIAL_INT && neg && pol->int_range == MX_INT_RANGE_FULL);
}

/*--------------------------------------------------------------- specials -*/
enum { GO_ON, PACK, OVERFLOW, DONE };

/* A power-of-two scale format (E8M0) has no zero, no sign and no Inf; scale-cast says what a
 * cast of those gives.  DONE sets *code; GO_ON goes on with the value (its magnitude under abs). */
static int
pow2_special (enc *e, uint64_t *code, const mx_format *f, mpfr_srcptr x, const mx_policy *pol)
{
  int zero = mpfr_zero_p (x), inf = mpfr_inf_p (x);
  switch (pol->scale_cast)
    {
    case MX_SCALE_CAST_ABS: /* x is a magnitude already (mx__encode) */
      if (zero || inf)
        {
          *code = zero ? 0 : mx__nan_code (f, 0, pol);
          e->flags = MX_FLAG_INVALID;
          return DONE;
        }
      return GO_ON;
    case MX_SCALE_CAST_CLAMP:
      if (zero || e->neg)
        {
          *code = 0;
          e->flags = MX_FLAG_INVALID;
          return DONE;
        }
      return GO_ON;
    case MX_SCALE_CAST_STRICT:
      if (zero || e->neg || inf || mpfr_cmp_ui_2exp (x, 1, f->emin) < 0
          || mpfr_cmp_ui_2exp (x, 1, f->emax) > 0)
        {
          *code = mx__nan_code (f, 0, pol);
          e->flags = MX_FLAG_INVALID;
          return DONE;
        }
      return GO_ON;
    default:
      return GO_ON;
    }
}

/* NaN, values the format cannot carry, Inf and zero.  DONE sets *code; PACK means e->mag is the
 * exact magnitude. */
static int
encode_special (enc *e, uint64_t *code, const mx_format *f, mpfr_srcptr x, const mx_policy *pol)
{
  if (f->special == MX_SPECIAL_POW2 && !mpfr_nan_p (x)
      && pow2_special (e, code, f, x, pol) == DONE)
    return DONE;
  if (mpfr_nan_p (x) || (f->special == MX_SPECIAL_POW2 && (e->neg || mpfr_zero_p (x)))
      || (!f->sign && e->neg && !mpfr_zero_p (x)))
    {
      /* NaN in, or a value the format cannot carry (E8M0 has no zero, no sign) */
      *code = mx__nan_code (f, e->neg, pol);
      e->flags = MX_FLAG_INVALID;
      return DONE;
    }
  if (!f->sign || (mpfr_zero_p (x) && pol->zero_sign == MX_ZERO_SIGN_NONZERO))
    e->neg = 0; /* zero-sign nonzero: a zero in is +0 out */
  if (mpfr_inf_p (x))
    {
      /* Inf to Inf is exact into an interchange format (decoding is exact), and into an element
       * format with Inf under ovf; everywhere else it overflows */
      if (f->special == MX_SPECIAL_IEEE
          && (f->role == MX_ROLE_IEEE || pol->overflow == MX_OVERFLOW_OVF))
        {
          e->mag = mx__mask (f->ebits) << f->mbits;
          return PACK;
        }
      e->dir = -1;
      return OVERFLOW;
    }
  return mpfr_zero_p (x) ? PACK : GO_ON;
}

/*--------------------------------------------------------------- rounding -*/
static mpfr_rnd_t
native_mode (mx_rounding r)
{
  switch (r)
    {
    case MX_RNE: return MPFR_RNDN;
    case MX_RUP: return MPFR_RNDU;
    case MX_RDN: return MPFR_RNDD;
    default: return MPFR_RNDZ; /* rtz, and the truncation that rna/rnz/rhu/rhd/rto/sr start from */
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
  uint64_t m; /* |y| 2^(mbits - eq): an integer < 2^(mbits+2), exactly */
#if GMP_NUMB_BITS == 64 && GMP_NAIL_BITS == 0
  /* y's precision is at most mbits + 2 <= 54 (mx_format_custom caps mbits at 52): one limb,
   * its top bit set, |y| = limb 2^(EXP-64), so m is the limb's top EXP + mbits - eq bits
   * (1 .. mbits+2; the bits below are zero, y being on f's grid) */
  mp_limb_t limb = ((const mp_limb_t *) mpfr_custom_get_significand (y))[0];
  m = (uint64_t) (limb >> (64 - ((long) mpfr_get_exp (y) + (long) f->mbits - eq)));
#else
  mx__tmp t;
  mpfr_ptr s = mx__tmp_init (&t, 64);
  mpfr_mul_2si (s, y, (long) f->mbits - eq, MPFR_RNDN); /* exact */
  mpfr_abs (s, s, MPFR_RNDN);
  m = mpfr_get_ui (s, MPFR_RNDN);
#endif
  if (f->special == MX_SPECIAL_INT)
    return m;
  /* normal: m = 2^mbits + frac, biased exponent eq - emin + 1 */
  return m + ((uint64_t) (eq - f->emin) << f->mbits);
}

/* The last step of rna, rnz, rhu, rhd and sr from the truncation y of x: 1 if the magnitude goes up. */
static int
round_up_from_truncation (const mx_format *f, mpfr_srcptr x, mpfr_srcptr y, long ey, int neg,
                          mx_rounding rnd, uint32_t rbits, const mx_policy *pol)
{
  /* ulp of the truncated result, then an exact threshold above |y| */
  long ue = f->special == MX_SPECIAL_INT   ? -(long) f->mbits
            : f->special == MX_SPECIAL_POW2 ? ey
            : (mpfr_zero_p (y) || ey < f->emin ? f->emin : ey) - (long) f->mbits;
  unsigned R = rnd == MX_SR ? pol->sr_bits : 1;
  uint64_t num = rnd == MX_SR ? ((uint64_t) 1 << R) - (rbits & mx__mask (R)) : 1;
  /* sr-frac other than trunc: up iff round(f * 2^R) >= num, i.e. f * 2^R above num - 1/2, or
   * on it with the tie going up: the threshold moves half a unit of the R-th bit down */
  int half = rnd == MX_SR && pol->sr_frac != MX_SR_FRAC_TRUNC;
  mx__tmp tt;
  mpfr_ptr thr = mx__tmp_init (&tt, MX__TMP_BITS);
  /* thr = |y| + num * 2^(ue-R) (or (2 num - 1) * 2^(ue-R-1)): exact, at most mbits+R+3 bits */
  if (half)
    mpfr_set_ui_2exp (thr, 2 * num - 1, ue - (long) R - 1, MPFR_RNDN);
  else
    mpfr_set_ui_2exp (thr, num, ue - (long) R, MPFR_RNDN);
  if (neg)
    mpfr_sub (thr, thr, y, MPFR_RNDN);
  else
    mpfr_add (thr, thr, y, MPFR_RNDN);
  int c = mpfr_cmpabs (x, thr);
  if (half && c == 0) /* f * 2^R is num - 1/2: the tie rule decides between num - 1 and num */
    return pol->sr_frac == MX_SR_FRAC_UP || (pol->sr_frac == MX_SR_FRAC_RNE) == (num % 2 == 0);
  /* on the threshold exactly (a tie for the nearest modes): up for rna and sr, up for rhu/rhd
   * where that is toward +Inf/-Inf */
  int tie_up = rnd == MX_RHU ? !neg : rnd == MX_RHD ? neg : rnd != MX_RNZ;
  return c > 0 || (c == 0 && tie_up);
}

/* scale-bottom subnormal: |x| < 2^(emin+1) rounds to 0 or 2^(emin+1) as if code 0 stood for a
 * zero, and 0 is written as code 0; e->dir compares the code's value, 2^emin, with |x|. */
static int
round_bottom (enc *e, const mx_format *f, mpfr_srcptr x, uint32_t rbits, const mx_policy *pol,
              mx_rounding rnd)
{
  mx__tmp th, tl;
  mpfr_ptr half = mx__tmp_init (&th, 2), lim = mx__tmp_init (&tl, MX__TMP_BITS);
  mpfr_set_ui_2exp (half, 1, f->emin, MPFR_RNDN); /* the midpoint of 0 and 2^(emin+1) */
  int c = mpfr_cmpabs (x, half), up;
  switch (rnd)
    {
    case MX_RNE: case MX_RNZ: up = c > 0; break;
    case MX_RNA: up = c >= 0; break;
    case MX_RHU: up = c > 0 || (c == 0 && !e->neg); break;
    case MX_RHD: up = c > 0 || (c == 0 && e->neg); break;
    case MX_RUP: case MX_RTO: up = 1; break; /* rto: 0 inexact becomes odd */
    case MX_SR:
      {
        /* up iff |x| + r * 2^(emin+1-R) >= 2^(emin+1) */
        unsigned R = pol->sr_bits;
        mpfr_set_ui_2exp (lim, ((uint64_t) 1 << R) - (rbits & mx__mask (R)),
                          (long) f->emin + 1 - (long) R, MPFR_RNDN);
        up = mpfr_cmpabs (x, lim) >= 0;
        break;
      }
    default: up = 0; break; /* rtz, rdn */
    }
  e->mag = (uint64_t) up;
  e->dir = up ? 1 : -c;
  if (e->dir != 0)
    e->flags |= MX_FLAG_INEXACT | (c < 0 ? MX_FLAG_UNDERFLOW : 0); /* as round_magnitude */
  return PACK;
}

/* Round |x| (finite, nonzero) to f's grid into e->mag, e->dir and the inexact and underflow
 * flags.  Returns OVERFLOW if the rounded magnitude exceeds the limit, else PACK. */
static int
round_magnitude (enc *e, const mx_format *f, mpfr_srcptr x, uint32_t rbits,
                 const mx_policy *pol, mx_rounding rnd)
{
  mx__tmp ty;
  /* INT keeps its 2^-mbits grid up to 4 (beyond 2 everything overflows): one bit more */
  mpfr_ptr y = mx__tmp_init (&ty, f->mbits + 1 + (f->special == MX_SPECIAL_INT));
  mpfr_rnd_t mode = native_mode (rnd);
  int pow2 = f->special == MX_SPECIAL_POW2;
  /* Round to mbits+1 bits in the wide range, then narrow emin to the format's and let
   * check_range + subnormalize redo the rounding without double rounding (MPFR manual,
   * mpfr_subnormalize). */
  if (pow2 && pol->scale_bottom == MX_SCALE_BOTTOM_SUBNORMAL
      && (long) mpfr_get_exp (x) - 1 < f->emin + 1)
    return round_bottom (e, f, x, rbits, pol, rnd);
  int t = mpfr_set (y, x, mode);
  /* subnormalize acts only below exponent emin+1 (+1 for INT's extra bit): skip the range change
   * when x lies above it, and so y, whose exponent rounding never lowers (the common case;
   * each change of emin costs) */
  int intf = f->special == MX_SPECIAL_INT;
  if (!pow2 && mpfr_get_exp (x) < (mpfr_exp_t) f->emin + 1 + intf)
    {
      mpfr_exp_t wide = mpfr_get_emin ();
      mpfr_set_emin ((mpfr_exp_t) f->emin - (mpfr_exp_t) f->mbits + 1); /* exp of min subnormal */
      t = mpfr_check_range (y, t, mode);
      t = mpfr_subnormalize (y, t, mode);
      mpfr_set_emin (wide);
    }
  e->dir = t == 0 ? 0 : (t > 0) != e->neg ? 1 : -1; /* t is the direction of the value */

  long ey = mpfr_zero_p (y) ? 0 : (long) mpfr_get_exp (y) - 1;
  if (!mpfr_zero_p (y) && ey > f->emax + 1)
    return OVERFLOW;
  if (pow2 && ey < f->emin)
    {
      /* no zero: everything tiny gives the smallest code, which lies above |x| */
      e->mag = 0;
      e->dir = 1;
    }
  else
    {
      e->mag = mpfr_zero_p (y) ? 0 : mag_code (f, y, ey);
      if (t != 0 && rnd == MX_RTO)
        {
          e->dir = (e->mag & 1) == 0 ? 1 : -1;
          e->mag |= 1;
        }
      else if (t != 0 && (rnd == MX_RNA || rnd == MX_RNZ || rnd == MX_RHU || rnd == MX_RHD
                          || rnd == MX_SR))
        {
          int up = round_up_from_truncation (f, x, y, ey, e->neg, rnd, rbits, pol);
          e->mag += (uint64_t) up;
          e->dir = up ? 1 : -1;
        }
    }
  if (e->dir != 0)
    {
      e->flags |= MX_FLAG_INEXACT;
      long tiny = f->special == MX_SPECIAL_INT ? -(long) f->mbits : f->emin;
      if ((long) mpfr_get_exp (x) - 1 < tiny) /* tininess before rounding */
        e->flags |= MX_FLAG_UNDERFLOW;
    }
  return e->mag > mag_limit (f, e->neg, pol) ? OVERFLOW : PACK;
}

/*--------------------------------------------------------------- overflow -*/
/* The overflowed magnitude: the limit (sat, directions toward zero, formats without Inf or NaN)
 * or Inf; DONE with the NaN code for E4M3 and E8M0 under ovf. */
static int
overflow (enc *e, uint64_t *code, const mx_format *f, const mx_policy *pol, mx_rounding rnd)
{
  int toward_zero = rnd == MX_RTZ || rnd == MX_RTO || (rnd == MX_RDN && !e->neg)
                    || (rnd == MX_RUP && e->neg);
  e->flags = (e->flags & ~MX_FLAG_UNDERFLOW) | MX_FLAG_OVERFLOW | MX_FLAG_INEXACT;
  if (pol->overflow == MX_OVERFLOW_SAT || toward_zero || f->special == MX_SPECIAL_NONE
      || f->special == MX_SPECIAL_INT)
    {
      e->mag = mag_limit (f, e->neg, pol);
      e->dir = -1;
      return PACK;
    }
  if (f->special == MX_SPECIAL_IEEE)
    {
      e->mag = mx__mask (f->ebits) << f->mbits;
      e->dir = 1;
      return PACK;
    }
  *code = mx__nan_code (f, e->neg, pol); /* FN (E4M3) and POW2 overflow to NaN */
  e->dir = 0;
  return DONE;
}

/*------------------------------------------------------------------- pack -*/
static uint64_t
pack (const enc *e, const mx_format *f, const mx_policy *pol)
{
  int neg = e->neg;
  if (e->mag == 0 && f->special != MX_SPECIAL_POW2 && pol->zero_sign == MX_ZERO_SIGN_POSITIVE)
    neg = 0;
  if (f->special == MX_SPECIAL_INT)
    return neg ? (~e->mag + 1) & mx__mask (f->bits) : e->mag;
  return e->mag | (neg ? (uint64_t) 1 << (f->bits - 1) : 0);
}

int
mx__encode (uint64_t *code, unsigned *flags, const mx_format *f, mpfr_srcptr x, uint32_t rbits,
            const mx_policy *pol, mx_rounding rnd)
{
  mpfr_t mag;
  int coerced = 0;
  if (f->special == MX_SPECIAL_POW2 && pol->scale_cast == MX_SCALE_CAST_ABS && !mpfr_nan_p (x)
      && mpfr_signbit (x))
    {
      /* scale-cast abs: encode |x|, a view sharing x's limbs (MPFR custom interface) */
      int kind = mpfr_custom_get_kind (x);
      mpfr_custom_init_set (mag, kind < 0 ? -kind : kind,
                            mpfr_regular_p (x) ? mpfr_custom_get_exp (x) : 0, mpfr_get_prec (x),
                            mpfr_custom_get_significand (x));
      x = mag;
      coerced = !mpfr_zero_p (x);
    }
  enc e = { mpfr_signbit (x) != 0, 0, 0, 0 };
  int neg = e.neg; /* the ternary value follows the sign of x */
  int step = encode_special (&e, code, f, x, pol);
  if (step == GO_ON)
    step = round_magnitude (&e, f, x, rbits, pol, rnd);
  if (step == OVERFLOW)
    step = overflow (&e, code, f, pol, rnd);
  if (step == PACK)
    *code = pack (&e, f, pol);
  if (coerced)
    e.flags |= MX_FLAG_INVALID;
  if (flags)
    *flags = e.flags;
  if (e.flags & MX_FLAG_INVALID)
    return 0; /* a NaN, or a value coerced into a code (scale-cast): no direction */
  return neg ? -e.dir : e.dir;
}

int
mx_encode (uint64_t *code, unsigned *flags, const mx_format *f, mpfr_srcptr x, uint32_t rbits,
           const mx_policy *pol, mx_rounding rnd)
{
  mx__state s = mx__enter ();
  int t = mx__encode (code, flags, f, x, rbits, pol, rnd);
  mx__leave (s);
  return t;
}

uint64_t
mx__fp32_bits (mpfr_srcptr x)
{
  uint64_t b;
  mx__encode (&b, NULL, mx_format_get (MX_FP32), x, 0, &mx__ieee, MX_RNE);
  return b;
}
