/* mx_dequantize_mxs -- a shared-microexponent block (MX9, MX6, MX4) back to values: element i
 * of sub-block j is P_i 2^(E - s_j) (docs/semantics.md section 5b).
 * SPDX-License-Identifier: MIT */
#include "internal.h"

int
mx_dequantize_mxs (uint64_t out_bits[], unsigned *flags, const mx_format *out, uint64_t scale,
                   const uint8_t shifts[], const uint64_t codes[], mx_mxs_format fmt, size_t k,
                   mx_rounding rnd)
{
  const mx_mxs_desc *d = mx_mxs_get (fmt);
  if (d == NULL || out == NULL || out_bits == NULL || shifts == NULL || codes == NULL
      || out->role != MX_ROLE_IEEE || k != d->k1 || rnd == MX_SR
      || (unsigned) rnd >= MX_ROUNDING_COUNT)
    return MX_EINVAL;
  for (size_t j = 0; j < k / d->k2; j++)
    if (shifts[j] > (1u << d->d2) - 1)
      return MX_EINVAL;
  mx__state s = mx__enter ();
  unsigned all = 0;
  mx__tmp ts, tp;
  mpfr_ptr S = mx__tmp_init (&ts, 64), p = mx__tmp_init (&tp, 64);
  int nan_scale = mx__decode (S, d->scale, scale) != 0;
  for (size_t i = 0; i < k; i++)
    {
      unsigned f = 0;
      if (nan_scale)
        {
          out_bits[i] = mx__nan_code (out, 0, &mx__ieee); /* a NaN scale: every element NaN */
          f = MX_FLAG_INVALID;
        }
      else
        {
          mx__decode (p, d->elem, codes[i]);
          if (mpfr_regular_p (p)) /* exact: a power of two */
            mpfr_mul_2si (p, p, (long) mpfr_get_exp (S) - 1 - (long) shifts[i / d->k2],
                          MPFR_RNDN);
          mx__encode (&out_bits[i], &f, out, p, 0, &mx__ieee, rnd);
        }
      all |= f;
    }
  mx__leave (s);
  if (flags)
    *flags = all;
  return MX_OK;
}
