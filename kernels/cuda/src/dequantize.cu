/* dequantize.cu -- mxk_cuda_dequantize: codes and scales back to FP32 or BF16.
 * Eight threads per block of 32, four elements each (threads.h, mxkc_dq_thread): one load of the
 * packed word (4, 2 or 3 bytes), four reads of the table of the 2^bits codes' exact FP32 values
 * (built per CTA in shared memory by mxkc_decode_f32), two IEEE multiplies per element
 * (mxkc_scale_f32), one 16- or 8-byte store.
 * SPDX-License-Identifier: MIT */
#include "internal.cuh"

static __global__ void __launch_bounds__ (MXKC_THREADS)
dq (mxkc_dqargs a)
{
  __shared__ uint32_t lut[256];
  const mxkc_fmt f = mxkc_fmt_of (a.elem);
  for (int c = threadIdx.x; c < (1 << f.bits); c += blockDim.x)
    lut[c] = mxkc_decode_f32 ((uint8_t) c, &f);
  __syncthreads ();
  size_t t = (size_t) blockIdx.x * blockDim.x + threadIdx.x;
  if (t / 8 < a.nblk)
    mxkc_dq_thread (&a, lut, t);
}

int
mxk_cuda_dequantize (void *out, mx_format_id out_fmt, const uint8_t *scales,
                     const uint8_t *codes, size_t r, size_t c, mx_format_id elem,
                     mx_packing packing, mxk_cuda_scales sl, cudaStream_t stream)
{
  mxkc_dqargs a;
  if ((sl != MXK_CUDA_SCALES_LINEAR && sl != MXK_CUDA_SCALES_SWIZZLED)
      || mxkc_dq_setup (&a, out, out_fmt, scales, codes, r, c, elem, packing,
                        sl == MXK_CUDA_SCALES_SWIZZLED) != MX_OK)
    return MX_EINVAL;
  size_t ctas = (a.nblk * 8 + MXKC_THREADS - 1) / MXKC_THREADS;
  dq<<<(unsigned) ctas, MXKC_THREADS, 0, stream>>> (a);
  return mxk__launched ();
}
