/* dequantize.cu -- mxk_cuda_dequantize: codes and scales back to FP32 or BF16.
 * Groups of four elements (threads.h, mxkc_dq_thread): one load of the packed word (4, 2 or 3
 * bytes), four reads of the table of the 2^bits codes' exact FP32 values (built per CTA in
 * shared memory by mxkc_decode_f32), two IEEE multiplies per element (mxkc_scale_f32), one 16-
 * or 8-byte store.  A thread takes four groups, so that building the table is a small part of
 * a CTA's work, and the element format is each kernel's constant (six kernels).
 * SPDX-License-Identifier: MIT */
#include "internal.cuh"

/* Groups of four elements per thread: the CTA's table is built once for MXKC_DQ_GROUPS x
 * MXKC_THREADS of them. */
#define MXKC_DQ_GROUPS 4

/* The kernel's body; elem is a constant where it is inlined, so that the table's decode folds
 * to the few instructions that format needs.  Group g of the CTA is thread g % MXKC_THREADS's
 * (g / MXKC_THREADS)-th: each of a thread's groups is one coalesced run of the CTA's threads. */
static __device__ __forceinline__ void
dq_body (const mxkc_dqargs *a, mx_format_id elem)
{
  __shared__ uint32_t lut[256];
  const mxkc_fmt f = mxkc_fmt_of (elem);
  for (int c = threadIdx.x; c < (1 << f.bits); c += blockDim.x)
    lut[c] = mxkc_decode_f32 ((uint8_t) c, &f);
  __syncthreads ();
  size_t t0 = (size_t) blockIdx.x * (MXKC_THREADS * MXKC_DQ_GROUPS) + threadIdx.x;
#pragma unroll
  for (int k = 0; k < MXKC_DQ_GROUPS; k++)
    {
      size_t t = t0 + (size_t) k * MXKC_THREADS;
      if (t / 8 < a->nblk)
        mxkc_dq_thread (a, lut, t);
    }
}

#define MXK_DQ(F)                                                           \
  static __global__ void __launch_bounds__ (MXKC_THREADS)                   \
  dq_##F (mxkc_dqargs a)                                                    \
  {                                                                         \
    dq_body (&a, MX_##F);                                                   \
  }
MXK_DQ (E4M3)
MXK_DQ (E5M2)
MXK_DQ (E2M3)
MXK_DQ (E3M2)
MXK_DQ (E2M1)
MXK_DQ (INT8)

typedef void (*dqkernel) (mxkc_dqargs);

static dqkernel
dq_kernel (mx_format_id e)
{
  return e == MX_E4M3 ? dq_E4M3 : e == MX_E5M2 ? dq_E5M2 : e == MX_E2M3 ? dq_E2M3
         : e == MX_E3M2 ? dq_E3M2 : e == MX_E2M1 ? dq_E2M1 : dq_INT8;
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
  size_t per = (size_t) MXKC_THREADS * MXKC_DQ_GROUPS, ctas = (a.nblk * 8 + per - 1) / per;
  dq_kernel (elem)<<<(unsigned) ctas, MXKC_THREADS, 0, stream>>> (a);
  return mxk__launched ();
}
