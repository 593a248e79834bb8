/* mx_quantize, mx_quantize_mpfr -- one block of values to a shared scale and element codes
 * (OCP MX v1.0 section 6.3, with every choice the spec leaves open taken from the policy).
 * SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include "internal.h"

/* Blocks of up to this many elements keep their values on the stack (mx_quantize). */
#define MX__STACK_K 64

/* rop = a / b rounded to odd at rop's precision: a later rounding to fewer than prec-2 bits
 * (and any comparison with a number of fewer bits) is then that of the exact quotient. */
static void
div_odd (mpfr_ptr rop, mpfr_srcptr a, mpfr_srcptr b)
{
  if (mpfr_div (rop, a, b, MPFR_RNDZ) != 0 && mpfr_min_prec (rop) < mpfr_get_prec (rop))
    {
      if (mpfr_sgn (rop) > 0)
        mpfr_nextabove (rop);
      else
        mpfr_nextbelow (rop);
    }
}

/* One element: v / 2^e (power-of-two scale) or v / S (linear scale) rounded into elem, using t
 * (precision >= v's) as scratch.  Returns the element's flags. */
static unsigned
encode_elem (uint64_t *code, const mx_format *elem, const mx_format *in, mpfr_srcptr v,
             mpfr_ptr t, long e, mpfr_srcptr S, int linear, uint32_t rbits, const mx_policy *pol,
             mx_rounding rnd)
{
  unsigned ef = 0, extra = 0;
  mx_policy sp; /* pol with the overflow an Inf element takes (copied only then) */
  if (mpfr_inf_p (v))
    {
      if (pol->inf_block == MX_INF_BLOCK_ZERO)
        {
          *code = 0; /* +0 in every element format */
          return MX_FLAG_INVALID;
        }
      sp = *pol;
      if (pol->inf_block == MX_INF_BLOCK_SAT)
        sp.overflow = MX_OVERFLOW_SAT; /* Infs left out of amax encode as +-max */
      if (pol->inf_block == MX_INF_BLOCK_PASS)
        sp.overflow = MX_OVERFLOW_OVF; /* ... or as Inf where the format can */
      pol = &sp;
    }
  if (!linear || !mpfr_regular_p (v))
    {
      mpfr_mul_2si (t, v, -e, MPFR_RNDN); /* exact: a power of two */
      if (!linear && in != NULL && pol->scale_div == MX_SCALE_DIV_INPUT && mpfr_regular_p (t))
        {
          /* scale-div input: the quotient rounded into the input's type first */
          uint64_t q;
          mx__encode (&q, NULL, in, t, 0, &mx__ieee, MX_RNE);
          mx__tmp tq;
          mpfr_ptr u = mx__tmp_init (&tq, 64);
          mx__decode (u, in, q);
          if (!mpfr_equal_p (u, t))
            extra |= MX_FLAG_INEXACT;
          mpfr_set (t, u, MPFR_RNDN);
        }
    }
  else if (mpfr_zero_p (S))
    {
      /* a linear scale that rounded to 0: the block flushes to zero */
      mpfr_set_zero (t, mpfr_signbit (v) ? -1 : 1);
      extra = MX_FLAG_UNDERFLOW | MX_FLAG_INEXACT;
    }
  else
    div_odd (t, v, S);
  mx__encode (code, &ef, elem, t, rbits, pol, rnd);
  return ef | extra;
}

/* Every element of the block; returns the OR of their flags and sets *ovf if a finite element
 * overflowed (what scale-bump looks for). */
static unsigned
encode_block (uint64_t codes[], unsigned elem_flags[], int *ovf, mpfr_ptr t,
              const mx_format *elem, const mx_format *in, const mpfr_t v[], size_t k, long e,
              mpfr_srcptr S, int linear, const uint32_t rbits[], const mx_policy *pol,
              mx_rounding rnd)
{
  unsigned all = 0;
  *ovf = 0;
  for (size_t i = 0; i < k; i++)
    {
      unsigned ef = encode_elem (&codes[i], elem, in, v[i], t, e, S, linear,
                                 rbits ? rbits[i] : 0, pol, rnd);
      if ((ef & MX_FLAG_OVERFLOW) && mpfr_number_p (v[i]))
        *ovf = 1;
      if (elem_flags)
        elem_flags[i] = ef;
      all |= ef;
    }
  return all;
}

/* A shared exponent x clamped to the scale's range [lo, hi]: its scale code and the exponent the
 * elements are divided by (min-scale-elem).  0 when x is above the range and scale-overflow
 * says NaN. */
static int
resolve (uint64_t *scale, long *div, unsigned *sflags, long x, long lo, long hi,
         const mx_format *sfmt, const mx_policy *pol)
{
  *sflags = 0;
  if (x < lo)
    {
      x = lo;
      *sflags = MX_FLAG_SCALE_CLAMPED;
    }
  else if (x > hi)
    {
      if (pol->scale_overflow == MX_SCALE_OVERFLOW_NAN)
        return 0;
      x = hi;
      *sflags = MX_FLAG_SCALE_CLAMPED;
    }
  *scale = (uint64_t) (x + sfmt->bias);
  *div = x;
  if (x == lo && pol->min_scale_elem == MX_MIN_SCALE_ELEM_FLTMIN)
    *div = lo + 1;
  else if (x == lo && pol->min_scale_elem == MX_MIN_SCALE_ELEM_UNIT)
    *div = 0;
  return 1;
}

/* lsb exponent of a nonzero x: x is a multiple of 2^lsb */
static mpfr_exp_t
lsb (mpfr_srcptr x)
{
  return mpfr_get_exp (x) - (mpfr_exp_t) mpfr_min_prec (x);
}

/* acc += t, exactly: acc's precision grows to the span of both */
static void
add_exact (mpfr_ptr acc, mpfr_srcptr t)
{
  if (mpfr_zero_p (t))
    return;
  if (mpfr_zero_p (acc))
    {
      mpfr_set_prec (acc, mpfr_min_prec (t));
      mpfr_set (acc, t, MPFR_RNDN);
      return;
    }
  mpfr_exp_t hi = mpfr_get_exp (acc) > mpfr_get_exp (t) ? mpfr_get_exp (acc) : mpfr_get_exp (t);
  mpfr_exp_t lo = lsb (acc) < lsb (t) ? lsb (acc) : lsb (t);
  mpfr_prec_round (acc, (mpfr_prec_t) (hi - lo + 2), MPFR_RNDN); /* wider: exact */
  mpfr_add (acc, acc, t, MPFR_RNDN);
}

/* The exact error of the block's finite elements under scale code sc, their divisor 2^div:
 * with d_i = V_i - X P_i, the sum of d_i^2 (min-mse) or the largest |d_i| (min-maxerr); +Inf if
 * a finite element encodes to NaN or Inf. */
static void
block_error (mpfr_ptr err, mpfr_ptr t, const mx_format *elem, const mx_format *sfmt,
             const mx_format *in, const mpfr_t v[], size_t k, uint64_t sc, long div,
             const uint32_t rbits[], const mx_policy *pol, mx_rounding rnd)
{
  mpfr_t d, sq;
  mx__tmp tp;
  mpfr_ptr p = mx__tmp_init (&tp, 64);
  mpfr_inits2 (2, d, sq, (mpfr_ptr) 0);
  mpfr_set_prec (err, 2);
  mpfr_set_zero (err, 1);
  for (size_t i = 0; i < k; i++)
    {
      if (!mpfr_number_p (v[i]))
        continue; /* NaNs and Infs carry no finite error */
      uint64_t c;
      encode_elem (&c, elem, in, v[i], t, div, NULL, 0, rbits ? rbits[i] : 0, pol, rnd);
      mx__decode (p, elem, c);
      if (!mpfr_number_p (p))
        {
          mpfr_set_inf (err, 1);
          break;
        }
      mpfr_mul_2si (p, p, mx__pow2_exponent (sfmt, sc), MPFR_RNDN); /* exact */
      /* d = V_i - X P_i exactly: a precision that spans both */
      if (mpfr_zero_p (p) || mpfr_zero_p (v[i]))
        {
          mpfr_set_prec (d, 64 > mpfr_get_prec (v[i]) ? 64 : mpfr_get_prec (v[i]));
          mpfr_sub (d, v[i], p, MPFR_RNDN);
        }
      else
        {
          mpfr_exp_t hi = mpfr_get_exp (v[i]) > mpfr_get_exp (p) ? mpfr_get_exp (v[i])
                                                                  : mpfr_get_exp (p);
          mpfr_exp_t lo = lsb (v[i]) < lsb (p) ? lsb (v[i]) : lsb (p);
          mpfr_set_prec (d, (mpfr_prec_t) (hi - lo + 2));
          mpfr_sub (d, v[i], p, MPFR_RNDN);
        }
      if (pol->scale_rule == MX_SCALE_MIN_MAXERR)
        {
          if (mpfr_cmpabs (d, err) > 0)
            {
              mpfr_set_prec (err, mpfr_get_prec (d));
              mpfr_abs (err, d, MPFR_RNDN);
            }
        }
      else
        {
          mpfr_set_prec (sq, 2 * mpfr_get_prec (d));
          mpfr_sqr (sq, d, MPFR_RNDN); /* exact */
          add_exact (err, sq);
        }
    }
  mpfr_clears (d, sq, (mpfr_ptr) 0);
}

unsigned
mx__quantize_values (uint64_t *scale, uint64_t codes[], unsigned elem_flags[],
                     const mx_format *elem, const mx_format *sfmt, const mx_format *in,
                     const mpfr_t v[], size_t k, const uint32_t rbits[], const mx_policy *pol,
                     mx_rounding rnd)
{
  unsigned sflags = 0, eflags;
  int has_nan = 0, has_inf = 0, ruled = 0, ovf;
  size_t imax = k; /* index of the largest finite nonzero magnitude */
  mpfr_prec_t prec = 2;

  for (size_t i = 0; i < k; i++)
    {
      if (mpfr_get_prec (v[i]) > prec)
        prec = mpfr_get_prec (v[i]);
      if (mpfr_nan_p (v[i]))
        has_nan = 1;
      else if (mpfr_inf_p (v[i]))
        has_inf = 1;
      else if (!mpfr_zero_p (v[i]) && (imax == k || mpfr_cmpabs (v[i], v[imax]) > 0))
        imax = i;
    }

  /* A NaN scale: every element is NaN (OCP 5.1); the element codes are out of scope (OCP 4),
   * mxgold writes 0 for them. */
  if ((has_nan && pol->nan_block == MX_NAN_BLOCK_PROPAGATE)
      || (has_inf && pol->inf_block == MX_INF_BLOCK_NAN))
    goto nan_scale;

  int linear = sfmt->special != MX_SPECIAL_POW2; /* e.g. UE4M3 (NVFP4): scale is a value */
  long e, lo = sfmt->emin, hi = sfmt->emax;
  if (!linear && (long) pol->scale_min - sfmt->bias > lo)
    lo = (long) pol->scale_min - sfmt->bias; /* scale-min */
  mx__tmp ts;
  mpfr_ptr S = mx__tmp_init (&ts, 64);
  /* t: the scratch of every element's quotient, on the stack unless an input is wider */
  mx__tmp tt;
  mpfr_t th;
  mpfr_ptr t = th;
  if (prec <= MX__TMP_BITS)
    t = mx__tmp_init (&tt, MX__TMP_BITS);
  else
    mpfr_init2 (th, prec);

  if (has_inf && pol->inf_block == MX_INF_BLOCK_MAXSCALE)
    {
      *scale = sfmt->max_mag;
      mx__decode (S, sfmt, *scale);
      e = linear ? 0 : hi;
    }
  else if (imax == k && !(has_inf && pol->inf_block == MX_INF_BLOCK_POW128 && !linear))
    {
      /* amax is 0: the zero-block scale; elements are zeros (and ignored NaNs, saturated Infs) */
      *scale = pol->zero_scale; /* fits the scale format: mx__check_block */
      if (mx__decode (S, sfmt, *scale))
        mpfr_set_ui (S, 1, MPFR_RNDN);
      e = linear ? 0 : (long) mpfr_get_exp (S) - 1;
    }
  else if (linear)
    {
      /* Linear scale (NVFP4 style, global scale 1): S = amax / max_elem rounded into the scale
       * format by scale-round, saturating.  The quotient is rounded to odd first (div_odd), so
       * the second rounding is that of the exact quotient. */
      mx__tmp tq, tm;
      mpfr_ptr q = mx__tmp_init (&tq, MX__TMP_BITS), m = mx__tmp_init (&tm, 64);
      mx__decode (m, elem, elem->max_mag);
      div_odd (q, v[imax], m);
      mpfr_abs (q, q, MPFR_RNDN);
      mx_policy sp = *pol;
      sp.overflow = MX_OVERFLOW_SAT;
      sp.zero_sign = MX_ZERO_SIGN_POSITIVE;
      static const mx_rounding srnd[] = { [MX_SCALE_ROUND_RNE] = MX_RNE,
                                          [MX_SCALE_ROUND_UP] = MX_RUP,
                                          [MX_SCALE_ROUND_DOWN] = MX_RDN };
      mx__encode (scale, NULL, sfmt, q, 0, &sp, srnd[pol->scale_round]);
      mx__decode (S, sfmt, *scale);
      e = 0;
    }
  else
    {
      mx__tmp tp;
      mpfr_srcptr amax = v[imax];
      if (has_inf && pol->inf_block == MX_INF_BLOCK_POW128)
        {
          /* an Inf counts as 2^128 (FP32's exponent field 255 read as a number) */
          mpfr_ptr p = mx__tmp_init (&tp, 2);
          mpfr_set_ui_2exp (p, 1, 128, MPFR_RNDN);
          if (imax == k || mpfr_cmpabs (v[imax], p) < 0)
            amax = p;
        }
      long x = mx__scale_exponent (amax, elem, in, pol->scale_rule);
      if (!resolve (scale, &e, &sflags, x, lo, hi, sfmt, pol))
        {
          goto nan_clear;
        }
      if (pol->scale_rule == MX_SCALE_MIN_MSE || pol->scale_rule == MX_SCALE_MIN_MAXERR)
        {
          /* the error-optimal neighbour of floor: floor first, so that ties keep it */
          mpfr_t best, err;
          mpfr_inits2 (2, best, err, (mpfr_ptr) 0);
          block_error (best, t, elem, sfmt, in, v, k, *scale, e, rbits, pol, rnd);
          uint64_t tried[2] = { *scale, *scale };
          for (int j = 0; j < 2; j++)
            {
              uint64_t sc;
              long div;
              unsigned sf;
              if (!resolve (&sc, &div, &sf, j == 0 ? x - 1 : x + 1, lo, hi, sfmt, pol)
                  || sc == tried[0] || sc == tried[1])
                continue;
              tried[j] = sc;
              block_error (err, t, elem, sfmt, in, v, k, sc, div, rbits, pol, rnd);
              if (mpfr_cmp (err, best) < 0)
                {
                  mpfr_swap (best, err);
                  *scale = sc, e = div, sflags = sf;
                }
            }
          mpfr_clears (best, err, (mpfr_ptr) 0);
        }
      ruled = 1;
    }

  eflags = encode_block (codes, elem_flags, &ovf, t, elem, in, v, k, e, S, linear, rbits, pol,
                         rnd);
  if (ruled && ovf && pol->scale_bump == MX_SCALE_BUMP_ONCE)
    {
      /* scale-bump once: the next exponent up, the block quantized again (Quark BFP16) */
      if (!resolve (scale, &e, &sflags, mx__pow2_exponent (sfmt, *scale) + 1, lo, hi, sfmt, pol))
        {
          goto nan_clear;
        }
      eflags = encode_block (codes, elem_flags, &ovf, t, elem, in, v, k, e, S, linear, rbits,
                             pol, rnd);
    }
  if (t == th)
    mpfr_clear (th);
  return sflags | eflags;

nan_clear:
  if (t == th)
    mpfr_clear (th);
nan_scale:
  *scale = mx__nan_code (sfmt, 0, pol);
  for (size_t i = 0; i < k; i++)
    {
      codes[i] = 0;
      if (elem_flags)
        elem_flags[i] = MX_FLAG_INVALID;
    }
  return sflags | MX_FLAG_INVALID;
}

int
mx__check_block (const mx_format *elem, const mx_format *sfmt, size_t k, const mx_policy *pol)
{
  if (elem == NULL || sfmt == NULL || pol == NULL || k == 0 || elem->role != MX_ROLE_ELEM
      || sfmt->role != MX_ROLE_SCALE)
    return MX_EINVAL;
  for (int f = 0; f < MX_POLICY_FIELD_COUNT; f++)
    {
      const mx_policy_field_desc *d = mx_policy_field_get ((mx_policy_field) f);
      long v = mx_policy_get (pol, (mx_policy_field) f);
      if (v < d->lo || v > d->hi)
        return MX_EINVAL;
    }
  /* a zero-block scale code the scale format cannot hold is an error, never masked */
  if (pol->scale_min > sfmt->max_mag)
    return MX_EINVAL;
  return pol->zero_scale > mx__mask (sfmt->bits) ? MX_EINVAL : MX_OK;
}

static int
check_args (const mx_format *elem, const mx_format *sfmt, size_t k, const uint32_t rbits[],
            const mx_policy *pol, mx_rounding rnd)
{
  if ((unsigned) rnd >= MX_ROUNDING_COUNT || (rnd == MX_SR && rbits == NULL))
    return MX_EINVAL;
  return mx__check_block (elem, sfmt, k, pol);
}

int
mx_quantize_mpfr (uint64_t *scale, uint64_t codes[], unsigned *flags, unsigned elem_flags[],
                  const mx_format *elem, const mx_format *scale_fmt, const mpfr_t v[], size_t k,
                  const uint32_t rbits[], const mx_policy *pol, mx_rounding rnd)
{
  int rc = check_args (elem, scale_fmt, k, rbits, pol, rnd);
  if (rc != MX_OK)
    return rc;
  mx__state s = mx__enter ();
  unsigned f;
  if (pol->wide_input == MX_WIDE_INPUT_FP32)
    {
      /* exact values narrowed to FP32 first: quantize copies */
      size_t bytes;
      mpfr_t *w;
      if (mx__mul_overflow (k, sizeof (mpfr_t), &bytes) || (w = malloc (bytes)) == NULL)
        {
          mx__leave (s);
          return MX_ENOMEM;
        }
      int any = 0, inexact;
      const mx_format *in = NULL;
      for (size_t i = 0; i < k; i++)
        {
          mpfr_init2 (w[i], mpfr_get_prec (v[i]) > 64 ? mpfr_get_prec (v[i]) : 64);
          mpfr_set (w[i], v[i], MPFR_RNDN);
          in = mx__wide_input (w[i], NULL, pol, &inexact);
          any |= inexact;
        }
      f = mx__quantize_values (scale, codes, elem_flags, elem, scale_fmt, in, (const mpfr_t *) w,
                               k, rbits, pol, rnd);
      f |= any ? MX_FLAG_INEXACT : 0;
      for (size_t i = 0; i < k; i++)
        mpfr_clear (w[i]);
      free (w);
    }
  else
    f = mx__quantize_values (scale, codes, elem_flags, elem, scale_fmt, NULL, v, k, rbits, pol,
                             rnd);
  mx__leave (s);
  if (flags)
    *flags = f;
  return MX_OK;
}

int
mx_quantize (uint64_t *scale, uint64_t codes[], unsigned *flags, unsigned elem_flags[],
             const mx_format *elem, const mx_format *scale_fmt, const mx_format *in,
             const uint64_t in_bits[], size_t k, const uint32_t rbits[], const mx_policy *pol,
             mx_rounding rnd)
{
  int rc = check_args (elem, scale_fmt, k, rbits, pol, rnd);
  if (rc != MX_OK)
    return rc;
  if (in == NULL || in->role != MX_ROLE_IEEE)
    return MX_EINVAL;
  /* The decoded inputs: 64 bits hold every built-in format exactly.  Blocks of up to
   * MX__STACK_K elements live on the stack (custom interface), larger ones on the heap. */
  mpfr_t vs[MX__STACK_K], *v = vs;
  mp_limb_t ls[MX__STACK_K][MX__LIMBS (64)], (*l)[MX__LIMBS (64)] = ls;
  if (k > MX__STACK_K)
    {
      size_t bv, bl;
      if (mx__mul_overflow (k, sizeof (mpfr_t), &bv) || mx__mul_overflow (k, sizeof *l, &bl))
        return MX_EINVAL;
      v = malloc (bv);
      l = malloc (bl);
      if (v == NULL || l == NULL)
        {
          free (v);
          free (l);
          return MX_ENOMEM;
        }
    }
  mx__state s = mx__enter ();
  unsigned flushed = 0, bf;
  const mx_format *eff = in;
  for (size_t i = 0; i < k; i++)
    {
      int inexact;
      mpfr_custom_init (l[i], 64);
      mpfr_custom_init_set (v[i], MPFR_ZERO_KIND, 0, 64, l[i]);
      mx__decode (v[i], in, in_bits[i]);
      eff = mx__wide_input (v[i], in, pol, &inexact);
      flushed |= inexact ? MX_FLAG_INEXACT : 0;
      if (mx__flush_subnormal (v[i], eff, pol->subnormals))
        flushed |= MX_FLAG_UNDERFLOW | MX_FLAG_INEXACT;
    }
  bf = mx__quantize_values (scale, codes, elem_flags, elem, scale_fmt, eff, (const mpfr_t *) v, k,
                            rbits, pol, rnd);
  if (v != vs)
    {
      free (v);
      free (l);
    }
  mx__leave (s);
  if (flags)
    *flags = bf | flushed;
  return MX_OK;
}
