/* mx_requantize -- a block of one MX format to another, through its exact values.
 * SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include "internal.h"

int
mx_requantize (uint64_t *scale_out, uint64_t codes_out[], unsigned *flags,
               const mx_format *elem_out, const mx_format *sfmt_out, uint64_t scale_in,
               const uint64_t codes_in[], const mx_format *elem_in, const mx_format *sfmt_in,
               size_t k, const uint32_t rbits[], const mx_policy *pol, mx_rounding rnd)
{
  int rc = mx__check_block (elem_out, sfmt_out, k, pol);
  if (rc == MX_OK)
    rc = mx__check_block (elem_in, sfmt_in, k, pol);
  if (rc != MX_OK || (unsigned) rnd >= MX_ROUNDING_COUNT || (rnd == MX_SR && rbits == NULL))
    return MX_EINVAL;
  size_t bytes;
  if (mx__mul_overflow (k, sizeof (mpfr_t), &bytes))
    return MX_EINVAL;
  mpfr_t *v = malloc (bytes);
  if (v == NULL)
    return MX_ENOMEM;
  mx__state s = mx__enter ();
  mx__tmp ts;
  mpfr_ptr S = mx__tmp_init (&ts, 64);
  int nan_scale = mx__decode (S, sfmt_in, scale_in) != 0;
  for (size_t i = 0; i < k; i++)
    {
      mpfr_init2 (v[i], 128); /* element (<= 53 bits) times scale (<= 4 bits): exact */
      if (nan_scale)
        mpfr_set_nan (v[i]);
      else if (mx__decode (v[i], elem_in, codes_in[i]) == 0 && mpfr_regular_p (v[i]))
        mpfr_mul (v[i], v[i], S, MPFR_RNDN);
    }
  unsigned bf = mx__quantize_values (scale_out, codes_out, NULL, elem_out, sfmt_out, NULL,
                                     (const mpfr_t *) v, k, rbits, pol, rnd);
  for (size_t i = 0; i < k; i++)
    mpfr_clear (v[i]);
  free (v);
  mx__leave (s);
  if (flags)
    *flags = bf;
  return MX_OK;
}
