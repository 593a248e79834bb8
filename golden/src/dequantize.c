/* mx_dequantize -- a block's codes to values X * P_i in an output format (FP32 usually).
 * SPDX-License-Identifier: MIT */
#include "internal.h"

/* Output to an interchange format follows IEEE 754: overflow to Inf (or max, by direction). */
static const mx_policy ieee_out = { .overflow = MX_OVERFLOW_OVF, .sr_bits = 1 };

unsigned
mx_dequantize (uint64_t out_bits[], const mx_format *out, uint64_t scale, const uint64_t codes[],
               const mx_format *elem, const mx_format *sfmt, size_t k, mx_rounding rnd)
{
  unsigned all = 0;
  mx__tmp ts, tp;
  mpfr_ptr S = mx__tmp_init (&ts, 64), p = mx__tmp_init (&tp, 128);
  int nan_scale = mx_decode (S, sfmt, scale) != 0;

  for (size_t i = 0; i < k; i++)
    {
      unsigned f = 0;
      if (nan_scale)
        {
          out_bits[i] = mx__nan_code (out, 0, &ieee_out); /* OCP 5.1: X = NaN, all NaN */
          f = MX_FLAG_INVALID;
        }
      else
        {
          mx_decode (p, elem, codes[i]);
          if (mpfr_regular_p (p))
            mpfr_mul (p, p, S, MPFR_RNDN); /* exact: at most 53 + 4 bits */
          out_bits[i] = mx_encode (out, p, rnd, 0, &ieee_out, &f);
        }
      all |= f;
    }
  return all;
}
