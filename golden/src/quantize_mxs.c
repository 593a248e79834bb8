/* mx_quantize_mxs -- one block to a shared-microexponent format (MX9, MX6, MX4): an E8M0 block
 * exponent, a shift per sub-block and sign-magnitude elements (docs/semantics.md section 5b).
 * SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include "internal.h"

/* The block core: v[] decoded (and flushed, narrowed) already.  Returns the block's flags. */
static unsigned
mxs_values (uint64_t *scale, uint8_t shifts[], uint64_t codes[], const mx_mxs_desc *d,
            const mpfr_t v[], size_t k, const mx_policy *pol, mx_rounding rnd)
{
  const mx_format *elem = d->elem, *sfmt = d->scale;
  size_t nsub = k / d->k2, imax = k; /* imax: the largest finite nonzero magnitude */
  long cap = (1L << d->d2) - 1, e;
  unsigned sflags = 0, all = 0;
  int has_nan = 0, has_inf = 0;

  for (size_t i = 0; i < k; i++)
    {
      if (mpfr_nan_p (v[i]))
        has_nan = 1;
      else if (mpfr_inf_p (v[i]))
        has_inf = 1;
      else if (mpfr_regular_p (v[i]) && (imax == k || mpfr_cmpabs (v[i], v[imax]) > 0))
        imax = i;
    }
  if ((has_nan && pol->nan_block == MX_NAN_BLOCK_PROPAGATE)
      || (has_inf && pol->inf_block == MX_INF_BLOCK_NAN))
    goto nan_scale;

  for (size_t j = 0; j < nsub; j++)
    shifts[j] = 0;
  if (imax == k)
    {
      /* amax 0: the zero-block scale, no shift (Quark: every exponent is the zero's) */
      *scale = pol->zero_scale;
      e = *scale == mx__mask (sfmt->bits) ? 0 : mx__pow2_exponent (sfmt, *scale);
    }
  else
    {
      /* E = floor(log2 amax) (the elements' emax is 0), clamped into the scale's range */
      long lo = sfmt->emin, hi = sfmt->emax;
      if ((long) pol->scale_min - sfmt->bias > lo)
        lo = (long) pol->scale_min - sfmt->bias;
      e = mx__scale_exponent (v[imax], elem, NULL, MX_SCALE_FLOOR);
      if (e < lo)
        e = lo, sflags = MX_FLAG_SCALE_CLAMPED;
      else if (e > hi)
        {
          if (pol->scale_overflow == MX_SCALE_OVERFLOW_NAN)
            goto nan_scale;
          e = hi, sflags = MX_FLAG_SCALE_CLAMPED;
        }
      *scale = (uint64_t) (e + sfmt->bias);
      /* a sub-block's shift: how far its largest exponent lies below E, at most 2^d2 - 1;
       * zeros, NaNs and Infs are below everything (Quark zeroes them for the exponents) */
      for (size_t j = 0; j < nsub; j++)
        {
          long s = cap;
          for (size_t i = j * d->k2; i < (j + 1) * d->k2; i++)
            if (mpfr_regular_p (v[i]))
              {
                long below = e - ((long) mpfr_get_exp (v[i]) - 1);
                if (below < s)
                  s = below < 0 ? 0 : below;
              }
          shifts[j] = (uint8_t) s;
        }
    }

  mpfr_t t;
  mpfr_init2 (t, 64); /* v[i] has 64 bits: the scaling below is exact */
  for (size_t i = 0; i < k; i++)
    {
      unsigned ef = 0;
      if (mpfr_inf_p (v[i]) && pol->inf_block == MX_INF_BLOCK_ZERO)
        {
          codes[i] = 0; /* read as 0 (Quark nan_to_num), flagged */
          ef = MX_FLAG_INVALID;
        }
      else
        {
          mx_policy sp = *pol;
          if (mpfr_inf_p (v[i])) /* inf-block sat: an Inf left out of amax saturates */
            sp.overflow = MX_OVERFLOW_SAT;
          mpfr_mul_2si (t, v[i], -(e - (long) shifts[i / d->k2]), MPFR_RNDN);
          mx__encode (&codes[i], &ef, elem, t, 0, &sp, rnd);
        }
      all |= ef;
    }
  mpfr_clear (t);
  return sflags | all;

nan_scale:
  *scale = mx__nan_code (sfmt, 0, pol);
  for (size_t j = 0; j < nsub; j++)
    shifts[j] = 0;
  for (size_t i = 0; i < k; i++)
    codes[i] = 0; /* out of scope under a NaN scale (OCP 4); mxgold writes 0 */
  return sflags | MX_FLAG_INVALID;
}

int
mx_quantize_mxs (uint64_t *scale, uint8_t shifts[], uint64_t codes[], unsigned *flags,
                 mx_mxs_format fmt, const mx_format *in, const uint64_t in_bits[], size_t k,
                 const mx_policy *pol, mx_rounding rnd)
{
  const mx_mxs_desc *d = mx_mxs_get (fmt);
  if (d == NULL || scale == NULL || shifts == NULL || codes == NULL || in_bits == NULL
      || in == NULL || in->role != MX_ROLE_IEEE || k != d->k1
      || (unsigned) rnd >= MX_ROUNDING_COUNT || rnd == MX_SR
      || mx__check_block (d->elem, d->scale, k, pol) != MX_OK)
    return MX_EINVAL;
  /* fields whose other values have no meaning for a two-level block */
  if (pol->scale_rule != MX_SCALE_FLOOR || pol->scale_bump != MX_SCALE_BUMP_NONE
      || pol->min_scale_elem != MX_MIN_SCALE_ELEM_EXACT || pol->scale_div != MX_SCALE_DIV_EXACT
      || pol->inf_block == MX_INF_BLOCK_MAXSCALE || pol->inf_block == MX_INF_BLOCK_POW128
      || pol->inf_block == MX_INF_BLOCK_PASS)
    return MX_EINVAL;
  size_t bytes;
  mpfr_t *v;
  if (mx__mul_overflow (k, sizeof (mpfr_t), &bytes) || (v = malloc (bytes)) == NULL)
    return MX_ENOMEM;
  mx__state s = mx__enter ();
  unsigned pre = 0;
  for (size_t i = 0; i < k; i++)
    {
      int inexact;
      mpfr_init2 (v[i], 64); /* holds every built-in format exactly */
      mx__decode (v[i], in, in_bits[i]);
      const mx_format *eff = mx__wide_input (v[i], in, pol, &inexact);
      pre |= inexact ? MX_FLAG_INEXACT : 0;
      if (mx__flush_subnormal (v[i], eff, pol->subnormals))
        pre |= MX_FLAG_UNDERFLOW | MX_FLAG_INEXACT;
    }
  unsigned f = mxs_values (scale, shifts, codes, d, (const mpfr_t *) v, k, pol, rnd);
  for (size_t i = 0; i < k; i++)
    mpfr_clear (v[i]);
  free (v);
  mx__leave (s);
  if (flags)
    *flags = f | pre;
  return MX_OK;
}
