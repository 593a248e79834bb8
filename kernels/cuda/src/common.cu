/* common.cu -- the sizes of libmxk_cuda's outputs.
 * SPDX-License-Identifier: MIT */
#include "internal.cuh"

size_t
mxk_cuda_scale_bytes (size_t r, size_t c, mxk_cuda_scales sl)
{
  if (c % MX_BLOCK)
    return 0;
  if (sl == MXK_CUDA_SCALES_SWIZZLED)
    return r > (size_t) -1 / 2 || c / MX_BLOCK > (size_t) -1 / 1024 ? 0
           : mxk__mul ((r + 127) / 128 * 128, (c / MX_BLOCK + 3) / 4 * 4);
  return sl == MXK_CUDA_SCALES_LINEAR ? mxk__mul (r, c / MX_BLOCK) : 0;
}

size_t
mxk_cuda_code_bytes (size_t r, size_t c, mx_packing p)
{
  int pb = mxkc_packed_block_bytes (p);
  return c % MX_BLOCK || !pb ? 0 : mxk__mul (mxk__mul (r, c / MX_BLOCK), (size_t) pb);
}
