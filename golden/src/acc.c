/* acc.c -- mx__acc, the exact accumulator behind mx_dot and mx_gemm (see acc.h).
 * SPDX-License-Identifier: MIT */
#include <limits.h>
#include "acc.h"

void
mx__acc_init (mx__acc *a)
{
  /* room for an MX dot's whole range (FP8 x FP8 under two E8M0 scales spans about 600 bits)
   * from the start: growing a step at a time reallocates on most dots */
  mpz_init2 (a->sum, 640);
  mpz_init2 (a->t, 640);
  mpz_init2 (a->zx, 128);
  mx__acc_reset (a);
}

void
mx__acc_clear (mx__acc *a)
{
  mpz_clears (a->sum, a->t, a->zx, NULL);
}

void
mx__acc_reset (mx__acc *a)
{
  mpz_set_ui (a->sum, 0);
  a->lsb = LONG_MAX;
  a->nan = a->pinf = a->ninf = 0;
  a->all_negzero = a->all_poszero = 1;
  a->terms = 0;
}

/* x (a regular number) = z 2^e; returns e.  mpfr_get_z_2exp resizes z to x's size on every call
 * (a reallocation per term): a one-limb significand (an element or scale decoded at precision
 * 64) is read directly, through MPFR's documented custom interface. */
static long
get_z_2exp (mpz_t z, mpfr_srcptr x)
{
  if (mpfr_get_prec (x) > GMP_NUMB_BITS)
    return mpfr_get_z_2exp (z, x);
  mp_limb_t m = *(const mp_limb_t *) mpfr_custom_get_significand ((mpfr_ptr) x);
  *mpz_limbs_write (z, 1) = m; /* x = 0.m 2^EXP(x), m normalized */
  mpz_limbs_finish (z, 1);
  if (mpfr_signbit (x))
    mpz_neg (z, z);
  return (long) mpfr_get_exp (x) - GMP_NUMB_BITS;
}

/* sum += z * 2^e (z is not a->t) */
static void
add_z (mx__acc *a, const mpz_t z, long e)
{
  if (mpz_sgn (z) == 0)
    return;
  if (e < a->lsb)
    {
      if (a->lsb != LONG_MAX)
        mpz_mul_2exp (a->sum, a->sum, (mp_bitcnt_t) (a->lsb - e));
      a->lsb = e;
    }
  if (e == a->lsb)
    mpz_add (a->sum, a->sum, z);
  else
    {
      mpz_mul_2exp (a->t, z, (mp_bitcnt_t) (e - a->lsb));
      mpz_add (a->sum, a->sum, a->t);
    }
}

static void
note_inf (mx__acc *a, int neg)
{
  if (neg)
    a->ninf = 1;
  else
    a->pinf = 1;
  a->all_negzero = a->all_poszero = 0;
}

void
mx__acc_add (mx__acc *a, mpfr_srcptr x)
{
  a->terms++;
  if (mpfr_nan_p (x))
    a->nan = 1;
  else if (mpfr_inf_p (x))
    note_inf (a, mpfr_signbit (x) != 0);
  else if (mpfr_zero_p (x))
    {
      a->all_negzero &= mpfr_signbit (x) != 0;
      a->all_poszero &= mpfr_signbit (x) == 0;
    }
  else
    {
      long e = get_z_2exp (a->zx, x);
      add_z (a, a->zx, e);
      a->all_negzero = a->all_poszero = 0;
    }
}

void
mx__acc_add_exact_product (mx__acc *a, const mx__exact *x, const mx__exact *y)
{
  a->terms++;
  int neg = x->neg != y->neg;
  if (x->cls == MX__NAN || y->cls == MX__NAN)
    a->nan = 1;
  else if (x->cls == MX__INF || y->cls == MX__INF)
    {
      if (x->cls == MX__ZERO || y->cls == MX__ZERO)
        a->nan = 1; /* Inf * 0 */
      else
        note_inf (a, neg);
    }
  else if (x->cls == MX__ZERO || y->cls == MX__ZERO)
    {
      a->all_negzero &= neg;
      a->all_poszero &= !neg;
    }
  else
    {
      mpz_set_ui (a->zx, x->m); /* m < 2^53 fits an unsigned long (LP64) */
      mpz_mul_ui (a->zx, a->zx, y->m);
      if (neg)
        mpz_neg (a->zx, a->zx);
      add_z (a, a->zx, x->e + y->e);
      a->all_negzero = a->all_poszero = 0;
    }
}

void
mx__acc_add_i128 (mx__acc *a, __int128 v, long e)
{
  if (v == 0)
    return;
  unsigned __int128 u = v < 0 ? -(unsigned __int128) v : (unsigned __int128) v;
  mp_limb_t *l = mpz_limbs_write (a->zx, 2);
  l[0] = (mp_limb_t) u;
  l[1] = (mp_limb_t) (u >> 64);
  mpz_limbs_finish (a->zx, l[1] ? 2 : 1);
  if (v < 0)
    mpz_neg (a->zx, a->zx);
  add_z (a, a->zx, e);
}

void
mx__acc_add_acc (mx__acc *a, const mx__acc *b)
{
  a->terms += b->terms;
  a->nan |= b->nan;
  a->pinf |= b->pinf;
  a->ninf |= b->ninf;
  a->all_negzero &= b->all_negzero;
  a->all_poszero &= b->all_poszero;
  if (b->lsb != LONG_MAX)
    add_z (a, b->sum, b->lsb);
}

void
mx__acc_scale (mx__acc *a, long e)
{
  if (a->lsb != LONG_MAX)
    a->lsb += e;
}

long
mx__acc_ilogb (const mx__acc *a)
{
  if (mpz_sgn (a->sum) == 0)
    return LONG_MIN;
  return a->lsb + (long) mpz_sizeinbase (a->sum, 2) - 1;
}

void
mx__acc_value (mpfr_t rop, const mx__acc *a, mx_rounding rnd)
{
  if (a->nan || (a->pinf && a->ninf))
    {
      mpfr_set_nan (rop);
      return;
    }
  if (a->pinf || a->ninf)
    {
      mpfr_set_inf (rop, a->ninf ? -1 : 1);
      return;
    }
  if (mpz_sgn (a->sum) == 0)
    {
      /* IEEE 754 6.3: an exact zero sum is +0, or -0 under roundTowardNegative, and x + x keeps
       * the sign of x (so a sum of -0 terms is -0). */
      int neg = a->terms > 0 && a->all_negzero ? 1
                : a->terms == 0 || a->all_poszero ? 0
                                                  : rnd == MX_RDN;
      mpfr_set_zero (rop, neg ? -1 : 1);
      return;
    }
  size_t bits = mpz_sizeinbase (a->sum, 2);
  mpfr_set_prec (rop, (mpfr_prec_t) (bits < 2 ? 2 : bits));
  mpfr_set_z_2exp (rop, a->sum, a->lsb, MPFR_RNDN); /* exact: enough precision */
}

uint64_t
mx__acc_round (const mx__acc *a, const mx_format *f, unsigned *fl, mx_rounding rnd)
{
  mpfr_t v;
  uint64_t code;
  mpfr_init2 (v, 640); /* mx__acc_value sets the precision; this much needs no reallocation */
  mx__acc_value (v, a, rnd);
  mx__encode (&code, fl, f, v, 0, &mx__ieee, rnd);
  if (a->nan || (a->pinf && a->ninf))
    *fl |= MX_FLAG_INVALID;
  mpfr_clear (v);
  return code;
}
