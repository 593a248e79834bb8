/* mx_gemm -- C = C_in + A B with MX blocks along K: each element is mx_dot of a row of A and a
 * column of B (B given transposed), under the same accumulation model.
 * SPDX-License-Identifier: MIT */
#include "internal.h"

int
mx_gemm (uint64_t c_out[], unsigned *flags, const mx_format *of, size_t m, size_t n, size_t kdim,
         const uint64_t a_scales[], const uint64_t a_codes[], const mx_format *ea,
         const uint64_t b_scales[], const uint64_t b_codes[], const mx_format *eb,
         const mx_format *sf, size_t k, const uint64_t c_in[], const mx_dot_policy *dp,
         mx_rounding rnd)
{
  size_t mn, mk, nk;
  if (k == 0 || kdim == 0 || kdim % k || m == 0 || n == 0 || mx__mul_overflow (m, n, &mn)
      || mx__mul_overflow (m, kdim, &mk) || mx__mul_overflow (n, kdim, &nk))
    return MX_EINVAL; /* every index below stays inside these products */
  size_t nb = kdim / k;
  int rc = mx__check_dot (of, ea, eb, sf, k, nb, dp, rnd);
  if (rc != MX_OK)
    return rc;
  mx__state s = mx__enter ();
  unsigned fl = 0, f;
  for (size_t i = 0; i < m && rc == MX_OK; i++)
    for (size_t j = 0; j < n && rc == MX_OK; j++)
      {
        rc = mx__dot (&c_out[i * n + j], &f, of, a_scales + i * nb, a_codes + i * kdim, ea,
                      b_scales + j * nb, b_codes + j * kdim, eb, sf, k, nb,
                      c_in ? c_in[i * n + j] : 0, dp, rnd);
        fl |= f;
      }
  mx__leave (s);
  if (flags)
    *flags = fl;
  return rc;
}
