/* mx_dequantize -- a block's codes to values X * P_i in an output format (FP32 usually).
 * SPDX-License-Identifier: MIT */
#include "internal.h"

int
mx_dequantize (uint64_t out_bits[], unsigned *flags, const mx_format *out, uint64_t scale,
               const uint64_t codes[], const mx_format *elem, const mx_format *sfmt, size_t k,
               mx_rounding rnd)
{
  if (out == NULL || elem == NULL || sfmt == NULL || out->role != MX_ROLE_IEEE
      || elem->role != MX_ROLE_ELEM || sfmt->role != MX_ROLE_SCALE || rnd == MX_SR
      || (unsigned) rnd >= MX_ROUNDING_COUNT)
    return MX_EINVAL;
  mx__state s = mx__enter ();
  unsigned all = 0;
  mx__tmp ts, tp;
  mpfr_ptr S = mx__tmp_init (&ts, 64), p = mx__tmp_init (&tp, 128);
  int nan_scale = mx__decode (S, sfmt, scale) != 0;

  for (size_t i = 0; i < k; i++)
    {
      unsigned f = 0;
      if (nan_scale)
        {
          out_bits[i] = mx__nan_code (out, 0, &mx__ieee); /* OCP 5.1: X = NaN, all NaN */
          f = MX_FLAG_INVALID;
        }
      else
        {
          mx__decode (p, elem, codes[i]);
          if (mpfr_regular_p (p))
            mpfr_mul (p, p, S, MPFR_RNDN); /* exact: at most 53 + 4 bits */
          mx__encode (&out_bits[i], &f, out, p, 0, &mx__ieee, rnd);
        }
      all |= f;
    }
  mx__leave (s);
  if (flags)
    *flags = all;
  return MX_OK;
}
