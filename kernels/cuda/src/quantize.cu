/* quantize.cu -- mxk_cuda_quantize: row-wise and column-wise MX quantization.
 *
 * Row-wise: the blocks are contiguous, so the input is one flat run of n/32 blocks.  Four
 * threads take a block, eight elements each (two 16-byte FP32 loads or two 8-byte BF16/FP16
 * loads), the block's amax meets in two shuffles within the four lanes, every lane derives the
 * scale, encodes its eight elements and stores them packed in two stores (4, 2 or 3 bytes each);
 * lane 0 of the four stores the scale.  Eight elements a thread rather than four, so that the
 * scale and the shuffles are a smaller part of its work.  One CTA per 64 blocks (measured on the
 * H100: one tile per CTA beats a grid-stride loop, ../shared/reference/gpu.md).  The element
 * format and the rounding are compile-time constants of each kernel (36 kernels, one per pair),
 * so the per-element arithmetic of mxk_cuda_conv.h folds to the few instructions that pair
 * needs.
 *
 * Column-wise: a thread takes one column's block of 32 rows (warp-wide, each row load is one
 * coalesced run), keeps the 32 values in registers and writes the block's codes as one run of
 * the transposed result's row.
 *
 * Each kernel wraps functions of threads.h (a thread's work), which tests/tcuda.c also runs on
 * the host ("emulate") where there is no GPU.
 * SPDX-License-Identifier: MIT */
#include "internal.cuh"

/* The row-wise kernel's body: load, the block's amax across its four lanes (consecutive lanes
 * of one warp, every lane taking part), then the thread's work on its two groups of four; elem
 * and rnd are constants where it is inlined. */
static __device__ __forceinline__ void
quant_rw (const mxkc_qargs *a, mx_format_id elem, mx_rounding rnd)
{
  size_t t = (size_t) blockIdx.x * blockDim.x + threadIdx.x;
  int active = t / 4 < a->nblk;
  uint32_t v[8] = { 0, 0, 0, 0, 0, 0, 0, 0 }, m = 0;
  if (active)
    {
      mxkc_q_load4 (v, a, t * 8);
      mxkc_q_load4 (v + 4, a, t * 8 + 4);
    }
  for (int j = 0; j < 8; j++)
    m = max (m, v[j] & 0x7FFFFFFFu);
  m = max (m, __shfl_xor_sync (0xFFFFFFFFu, m, 2));
  m = max (m, __shfl_xor_sync (0xFFFFFFFFu, m, 1));
  if (active)
    mxkc_q_rw_thread (a, t * 2, 2, v, m, elem, rnd);
}

#define MXK_QRW(F, R)                                                       \
  static __global__ void __launch_bounds__ (MXKC_THREADS)                   \
  q_rw_##F##_##R (mxkc_qargs a)                                             \
  {                                                                         \
    quant_rw (&a, MX_##F, MX_##R);                                          \
  }
#define MXK_QRW_ALL(F) MXK_QRW (F, RNE) MXK_QRW (F, RNA) MXK_QRW (F, RTZ) MXK_QRW (F, RUP) \
                       MXK_QRW (F, RDN) MXK_QRW (F, SR)
MXK_QRW_ALL (E4M3)
MXK_QRW_ALL (E5M2)
MXK_QRW_ALL (E2M3)
MXK_QRW_ALL (E3M2)
MXK_QRW_ALL (E2M1)
MXK_QRW_ALL (INT8)

typedef void (*qkernel) (mxkc_qargs);
#define MXK_QROW(F) { q_rw_##F##_RNE, q_rw_##F##_RNA, q_rw_##F##_RTZ, q_rw_##F##_RUP, \
                      q_rw_##F##_RDN, q_rw_##F##_SR }
static const qkernel q_rw[6][6] = { MXK_QROW (E4M3), MXK_QROW (E5M2), MXK_QROW (E2M3),
                                    MXK_QROW (E3M2), MXK_QROW (E2M1), MXK_QROW (INT8) };

/* The column-wise kernel: thread (column c, row block rb). */
static __global__ void __launch_bounds__ (128)
q_cw (mxkc_qargs a)
{
  size_t c = (size_t) blockIdx.y * blockDim.x + threadIdx.x;
  if (c < a.cols)
    mxkc_q_cw_thread (&a, c, blockIdx.x);
}

/* Index of a kernel table row / column: the element format, the rounding; -1 if none. */
static int
elem_index (mx_format_id e)
{
  return e == MX_E4M3 ? 0 : e == MX_E5M2 ? 1 : e == MX_E2M3 ? 2 : e == MX_E3M2 ? 3
         : e == MX_E2M1 ? 4 : e == MX_INT8 ? 5 : -1;
}

static int
rnd_index (mx_rounding r)
{
  return r == MX_RNE ? 0 : r == MX_RNA ? 1 : r == MX_RTZ ? 2 : r == MX_RUP ? 3 : r == MX_RDN ? 4
         : r == MX_SR ? 5 : -1;
}

int
mxk_cuda_quantize (uint8_t *scales, uint8_t *codes, const void *in, mx_format_id in_fmt,
                   size_t rows, size_t cols, mx_format_id elem, mx_scale_rule rule,
                   mx_rounding rnd, const uint16_t *rbits, mx_packing packing, mxk_cuda_dir dir,
                   mxk_cuda_scales sl, cudaStream_t stream)
{
  mxkc_qargs a;
  if ((dir != MXK_CUDA_ROWWISE && dir != MXK_CUDA_COLWISE)
      || (sl != MXK_CUDA_SCALES_LINEAR && sl != MXK_CUDA_SCALES_SWIZZLED)
      || mxkc_q_setup (&a, scales, codes, in, in_fmt, rows, cols, elem, rule, rnd, rbits, packing,
                       dir == MXK_CUDA_COLWISE, sl == MXK_CUDA_SCALES_SWIZZLED) != MX_OK)
    return MX_EINVAL;
  if (a.swizzled && cudaMemsetAsync (scales, 0, a.scale_bytes, stream) != cudaSuccess)
    return MXK_CUDA_EDEVICE;             /* the padding the layout has beyond R x C/32 */
  if (!a.colwise)
    {
      size_t ctas = (a.nblk * 4 + MXKC_THREADS - 1) / MXKC_THREADS;
      q_rw[elem_index (elem)][rnd_index (rnd)]<<<(unsigned) ctas, MXKC_THREADS, 0, stream>>> (a);
    }
  else
    q_cw<<<dim3 ((unsigned) (rows / MX_BLOCK), (unsigned) ((cols + 127) / 128)), 128, 0, stream>>> (a);
  return mxk__launched ();
}
