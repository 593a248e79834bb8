/* dequantize.cu -- mxk_cuda_dequantize: codes and scales back to FP32 or BF16.
 * Eight threads per block of 32, four elements each: one load of the packed word (4, 2 or 3
 * bytes), four table reads (the 2^bits codes' exact FP32 values, built per CTA in shared memory
 * by mxkc_decode_f32), two IEEE multiplies per element (mxkc_scale_f32), one 16- or 8-byte store.
 * SPDX-License-Identifier: MIT */
#include "internal.cuh"

typedef struct
{
  void *out;
  const uint8_t *scales, *codes;
  size_t nblk, bpr;
  mx_format_id elem;
  mx_packing pk;
  mxk_cuda_scales sl;
  int bf16, vec_in, vec_out;
} dqargs;

static __global__ void __launch_bounds__ (MXK_CUDA_THREADS)
dq (dqargs a)
{
  __shared__ uint32_t lut[256];
  const mxkc_fmt f = mxkc_fmt_of (a.elem);
  for (int c = threadIdx.x; c < (1 << f.bits); c += blockDim.x)
    lut[c] = mxkc_decode_f32 ((uint8_t) c, &f);
  __syncthreads ();
  size_t t = (size_t) blockIdx.x * blockDim.x + threadIdx.x, blk = t / 8, i0 = t * 4;
  if (blk >= a.nblk)
    return;
  uint8_t s = a.scales[a.sl == MXK_CUDA_SCALES_SWIZZLED
                       ? mxkc_swizzle_offset (blk / a.bpr, blk % a.bpr, a.bpr) : blk];
  uint32_t w;
  if (a.pk == MX_PACKING_FP4_LO_FIRST)
    {
      const uint8_t *p = a.codes + i0 / 2;
      w = a.vec_in ? *(const uint16_t *) p : (uint32_t) p[0] | (uint32_t) p[1] << 8;
    }
  else if (a.pk == MX_PACKING_FP6_3BYTE)
    {
      const uint8_t *p = a.codes + i0 / 4 * 3;
      w = (uint32_t) p[0] | (uint32_t) p[1] << 8 | (uint32_t) p[2] << 16;
    }
  else
    {
      const uint8_t *p = a.codes + i0;
      w = a.vec_in ? *(const uint32_t *) p
                   : (uint32_t) p[0] | (uint32_t) p[1] << 8 | (uint32_t) p[2] << 16 | (uint32_t) p[3] << 24;
    }
  uint32_t y[4];
  for (int j = 0; j < 4; j++)
    y[j] = mxkc_scale_f32 (lut[mxkc_unpack4 (w, j, a.pk)], s);
  if (a.bf16)
    {
      uint16_t *o = (uint16_t *) a.out + i0;
      uint32_t lo = mxkc_bf16_of (y[0]) | mxkc_bf16_of (y[1]) << 16;
      uint32_t hi = mxkc_bf16_of (y[2]) | mxkc_bf16_of (y[3]) << 16;
      if (a.vec_out)
        *(uint2 *) o = make_uint2 (lo, hi);
      else
        o[0] = (uint16_t) lo, o[1] = (uint16_t) (lo >> 16), o[2] = (uint16_t) hi, o[3] = (uint16_t) (hi >> 16);
    }
  else
    {
      uint32_t *o = (uint32_t *) a.out + i0;
      if (a.vec_out)
        *(uint4 *) o = make_uint4 (y[0], y[1], y[2], y[3]);
      else
        for (int j = 0; j < 4; j++)
          o[j] = y[j];
    }
}

int
mxk_cuda_dequantize (void *out, mx_format_id out_fmt, const uint8_t *scales,
                     const uint8_t *codes, size_t r, size_t c, mx_format_id elem,
                     mx_packing packing, mxk_cuda_scales sl, cudaStream_t stream)
{
  const mxkc_fmt f = mxkc_fmt_of (elem);
  size_t n = mxk__mul (r, c);
  if (!f.bits || !mxk__packing_ok (&f, packing) || (out_fmt != MX_FP32 && out_fmt != MX_BF16)
      || (sl != MXK_CUDA_SCALES_LINEAR && sl != MXK_CUDA_SCALES_SWIZZLED) || !out || !scales
      || !codes || n == 0 || c % MX_BLOCK || n > (size_t) 1 << 40 || !mxk_cuda_scale_bytes (r, c, sl)
      || !mxk_cuda_code_bytes (r, c, packing))
    return MX_EINVAL;
  dqargs a;
  a.out = out, a.scales = scales, a.codes = codes, a.nblk = n / MX_BLOCK, a.bpr = c / MX_BLOCK;
  a.elem = elem, a.pk = packing, a.sl = sl, a.bf16 = out_fmt == MX_BF16;
  a.vec_in = mxk__aligned (codes, packing == MX_PACKING_FP4_LO_FIRST ? 2 : 4);
  a.vec_out = mxk__aligned (out, a.bf16 ? 8 : 16);
  size_t ctas = (a.nblk * 8 + MXK_CUDA_THREADS - 1) / MXK_CUDA_THREADS;
  dq<<<(unsigned) ctas, MXK_CUDA_THREADS, 0, stream>>> (a);
  return mxk__launched ();
}
