/* common.cu -- the sizes of libmxk_cuda's outputs.
 * SPDX-License-Identifier: MIT */
#include "internal.cuh"

size_t
mxk_cuda_scale_bytes (size_t r, size_t c, mxk_cuda_scales sl)
{
  if (sl != MXK_CUDA_SCALES_LINEAR && sl != MXK_CUDA_SCALES_SWIZZLED)
    return 0;
  return mxkc_scale_bytes (r, c, sl == MXK_CUDA_SCALES_SWIZZLED);
}

size_t
mxk_cuda_code_bytes (size_t r, size_t c, mx_packing p)
{
  return mxkc_code_bytes (r, c, p);
}
