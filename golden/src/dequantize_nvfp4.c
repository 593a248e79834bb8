/* mx_dequantize_nvfp4 -- NVFP4 codes and scales back to FP32, BF16 or FP16 as TransformerEngine's
 * dequantize kernel computes it (docs/semantics.md section 9): the decode factor from the E4M3
 * scale and the tensor amax, in FP32, then one FP32 product per element and the store.
 * SPDX-License-Identifier: MIT */
#include "internal.h"

int
mx_dequantize_nvfp4 (uint64_t out_bits[], unsigned *flags, const mx_format *out,
                     const uint64_t scales[], const uint64_t codes[], size_t rows, size_t cols,
                     uint64_t amax, mx_rounding rnd)
{
  size_t n;
  if (out_bits == NULL || scales == NULL || codes == NULL || out == NULL
      || (out->id != MX_FP32 && out->id != MX_BF16 && out->id != MX_FP16) || rows == 0
      || cols == 0 || cols % MX_NVFP4_BLOCK != 0 || mx__mul_overflow (rows, cols, &n)
      || amax > 0xFFFFFFFFu || rnd != MX_RNE)
    return MX_EINVAL;
  mx__state s = mx__enter ();
  const mx_format *f32 = mx_format_get (MX_FP32), *e2m1 = mx_format_get (MX_E2M1),
                  *ue4m3 = mx_format_get (MX_UE4M3);
  mx__tmp ta, tc, tf, tx, tv;
  mpfr_ptr a = mx__tmp_init (&ta, 64), c = mx__tmp_init (&tc, 64), f = mx__tmp_init (&tf, 64);
  mpfr_ptr x = mx__tmp_init (&tx, 64), v = mx__tmp_init (&tv, 64);
  unsigned all = 0;

  /* c = factor_inv = 1.0f / (6.0f * 448): a float constant, fl32(1/2688) */
  mpfr_set_ui (x, 1, MPFR_RNDN);
  mpfr_set_ui (v, 6 * 448, MPFR_RNDN);
  mx__f32_div (c, x, v, NULL);
  mx__decode (a, f32, amax);

  size_t nb = cols / MX_NVFP4_BLOCK;
  for (size_t r = 0; r < rows; r++)
    for (size_t j = 0; j < nb; j++)
      {
        /* final_scale = float(scale) * amax * factor_inv, left to right */
        mx__decode (x, ue4m3, scales[r * nb + j]);
        mx__f32_mul (f, x, a, NULL);
        mx__f32_mul (f, f, c, NULL);
        for (size_t i = r * cols + j * MX_NVFP4_BLOCK; i < r * cols + (j + 1) * MX_NVFP4_BLOCK;
             i++)
          {
            unsigned f1, f2 = 0;
            mx__decode (x, e2m1, codes[i]);
            uint64_t b = mx__f32_mul (v, x, f, &f1);
            if (out->id != MX_FP32)
              {
                if (mpfr_nan_p (v))
                  b = mx__nan_code (out, 0, &mx__ieee), f2 = MX_FLAG_INVALID;
                else
                  mx__encode (&b, &f2, out, v, 0, &mx__ieee, MX_RNE); /* static_cast<OType> */
              }
            out_bits[i] = b;
            all |= f1 | f2;
          }
      }
  mx__leave (s);
  if (flags)
    *flags = all;
  return MX_OK;
}
