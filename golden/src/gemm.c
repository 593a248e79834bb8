/* mx_gemm -- C = C_in + A B with MX blocks along K: each element is mx_dot of a row of A and a
 * column of B (B given transposed), under the same accumulation model.
 * SPDX-License-Identifier: MIT */
#include "internal.h"

unsigned
mx_gemm (uint64_t c_out[], const mx_format *of, size_t m, size_t n, size_t kdim,
         const uint64_t a_scales[], const uint64_t a_codes[], const mx_format *ea,
         const uint64_t b_scales[], const uint64_t b_codes[], const mx_format *eb,
         const mx_format *sf, size_t k, const uint64_t c_in[], const mx_dot_policy *dp)
{
  size_t nb = kdim / k;
  unsigned fl = 0;
  for (size_t i = 0; i < m; i++)
    for (size_t j = 0; j < n; j++)
      fl |= mx_dot (&c_out[i * n + j], of, a_scales + i * nb, a_codes + i * kdim, ea,
                    b_scales + j * nb, b_codes + j * kdim, eb, sf, k, nb,
                    c_in ? c_in[i * n + j] : 0, dp);
  return fl;
}
