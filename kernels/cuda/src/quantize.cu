/* quantize.cu -- mxk_cuda_quantize: row-wise and column-wise MX quantization.
 *
 * Row-wise: the blocks are contiguous, so the input is one flat run of n/32 blocks.  Eight
 * threads take a block, four elements each (one 16-byte FP32 load or one 8-byte BF16/FP16 load),
 * the block's amax meets in three shuffles within the eight lanes, every lane derives the scale,
 * encodes its four elements and stores them packed in one store (4, 2 or 3 bytes); lane 0 of the
 * eight stores the scale.  One CTA per 32 blocks (measured on the H100: one tile per CTA beats a
 * grid-stride loop, ../shared/reference/gpu.md).  The element format and the rounding are
 * compile-time constants of each kernel (36 kernels, one per pair), so the per-element
 * arithmetic of mxk_cuda_conv.h folds to the few instructions that pair needs.
 *
 * Column-wise: a thread takes one column's block of 32 rows (warp-wide, each row load is one
 * coalesced run), keeps the 32 values in registers and writes the block's codes as one run of
 * the transposed result's row.
 * SPDX-License-Identifier: MIT */
#include "internal.cuh"

/* Parameters every quantize kernel takes. */
typedef struct
{
  uint8_t *scales, *codes;
  const void *in;
  const uint16_t *rbits;
  size_t nblk, bpr;            /* blocks, blocks per result row */
  size_t rows, cols;           /* column-wise: the input's shape */
  mx_format_id in_fmt, elem;
  mx_scale_rule rule;
  mx_rounding rnd;
  mx_packing pk;
  mxk_cuda_scales sl;
  int vec_in, vec_out;         /* input / codes aligned for the wide loads and stores */
} qargs;

static __device__ __forceinline__ uint32_t
load1 (const void *in, mx_format_id in_fmt, size_t i)
{
  if (in_fmt == MX_FP32)
    return ((const uint32_t *) in)[i];
  return mxkc_fp32_of (((const uint16_t *) in)[i], in_fmt);
}

/* Four elements i0..i0+3 as FP32 bits. */
static __device__ __forceinline__ void
load4 (uint32_t *v, const qargs *a, size_t i0)
{
  if (a->vec_in && a->in_fmt == MX_FP32)
    {
      uint4 w = *(const uint4 *) ((const uint32_t *) a->in + i0);
      v[0] = w.x, v[1] = w.y, v[2] = w.z, v[3] = w.w;
    }
  else if (a->vec_in)
    {
      uint2 w = *(const uint2 *) ((const uint16_t *) a->in + i0);
      v[0] = mxkc_fp32_of (w.x & 0xFFFF, a->in_fmt), v[1] = mxkc_fp32_of (w.x >> 16, a->in_fmt);
      v[2] = mxkc_fp32_of (w.y & 0xFFFF, a->in_fmt), v[3] = mxkc_fp32_of (w.y >> 16, a->in_fmt);
    }
  else
    for (int j = 0; j < 4; j++)
      v[j] = load1 (a->in, a->in_fmt, i0 + (size_t) j);
}

/* Store the packed word of codes i0..i0+3 (i0 a multiple of 4) of a flat code array. */
static __device__ __forceinline__ void
store4 (uint8_t *codes, size_t i0, uint32_t w, mx_packing pk, int vec)
{
  if (pk == MX_PACKING_FP4_LO_FIRST)
    {
      uint8_t *d = codes + i0 / 2;
      if (vec)
        *(uint16_t *) d = (uint16_t) w;
      else
        d[0] = (uint8_t) w, d[1] = (uint8_t) (w >> 8);
    }
  else if (pk == MX_PACKING_FP6_3BYTE)
    {
      uint8_t *d = codes + i0 / 4 * 3;
      d[0] = (uint8_t) w, d[1] = (uint8_t) (w >> 8), d[2] = (uint8_t) (w >> 16);
    }
  else if (vec)
    *(uint32_t *) (codes + i0) = w;
  else
    for (int j = 0; j < 4; j++)
      codes[i0 + (size_t) j] = (uint8_t) (w >> (8 * j));
}

static __device__ __forceinline__ size_t
scale_at (size_t blk, size_t bpr, mxk_cuda_scales sl)
{
  return sl == MXK_CUDA_SCALES_SWIZZLED ? mxkc_swizzle_offset (blk / bpr, blk % bpr, bpr) : blk;
}

/* The row-wise body; elem and rnd are constants where it is inlined. */
static __device__ __forceinline__ void
quant_rw (const qargs &a, mx_format_id elem, mx_rounding rnd)
{
  const mxkc_fmt f = mxkc_fmt_of (elem);
  size_t t = (size_t) blockIdx.x * blockDim.x + threadIdx.x;
  size_t blk = t / 8, i0 = t * 4;
  int active = blk < a.nblk;
  uint32_t v[4] = { 0, 0, 0, 0 }, r[4] = { 0, 0, 0, 0 };
  if (active)
    load4 (v, &a, i0);
  uint32_t m = 0;
  for (int j = 0; j < 4; j++)
    m = max (m, v[j] & 0x7FFFFFFFu);
  /* the eight lanes of a block are consecutive lanes of one warp; every lane takes part */
  m = max (m, __shfl_xor_sync (0xFFFFFFFFu, m, 4));
  m = max (m, __shfl_xor_sync (0xFFFFFFFFu, m, 2));
  m = max (m, __shfl_xor_sync (0xFFFFFFFFu, m, 1));
  if (!active)
    return;
  int x;
  uint8_t s = mxkc_block_scale (m, &f, a.rule, &x);
  if (rnd == MX_SR)
    for (int j = 0; j < 4; j++)
      r[j] = a.rbits[i0 + (size_t) j];
  uint32_t c[4];
  for (int j = 0; j < 4; j++)
    c[j] = s == 0xFF ? 0 : mxkc_quant_elem (v[j], x, &f, rnd, r[j]);
  store4 (a.codes, i0, mxkc_pack4 (c[0], c[1], c[2], c[3], a.pk), a.pk, a.vec_out);
  if ((t & 7) == 0)
    a.scales[scale_at (blk, a.bpr, a.sl)] = s;
}

#define MXK_QRW(F, R)                                                       \
  static __global__ void __launch_bounds__ (MXK_CUDA_THREADS)               \
  q_rw_##F##_##R (qargs a)                                                  \
  {                                                                         \
    quant_rw (a, MX_##F, MX_##R);                                           \
  }
#define MXK_QRW_ALL(F) MXK_QRW (F, RNE) MXK_QRW (F, RNA) MXK_QRW (F, RTZ) MXK_QRW (F, RUP) \
                       MXK_QRW (F, RDN) MXK_QRW (F, SR)
MXK_QRW_ALL (E4M3)
MXK_QRW_ALL (E5M2)
MXK_QRW_ALL (E2M3)
MXK_QRW_ALL (E3M2)
MXK_QRW_ALL (E2M1)
MXK_QRW_ALL (INT8)

typedef void (*qkernel) (qargs);
#define MXK_QROW(F) { q_rw_##F##_RNE, q_rw_##F##_RNA, q_rw_##F##_RTZ, q_rw_##F##_RUP, \
                      q_rw_##F##_RDN, q_rw_##F##_SR }
static const qkernel q_rw[6][6] = { MXK_QROW (E4M3), MXK_QROW (E5M2), MXK_QROW (E2M3),
                                    MXK_QROW (E3M2), MXK_QROW (E2M1), MXK_QROW (INT8) };

/* The column-wise kernel: thread (column c, row block rb). */
static __global__ void __launch_bounds__ (128)
q_cw (qargs a)
{
  size_t c = (size_t) blockIdx.y * blockDim.x + threadIdx.x, rb = blockIdx.x;
  if (c >= a.cols)
    return;
  const mxkc_fmt f = mxkc_fmt_of (a.elem);
  uint32_t v[MX_BLOCK], m = 0;
  for (int i = 0; i < MX_BLOCK; i++)
    {
      v[i] = load1 (a.in, a.in_fmt, (rb * MX_BLOCK + (size_t) i) * a.cols + c);
      m = max (m, v[i] & 0x7FFFFFFFu);
    }
  int x;
  uint8_t s = mxkc_block_scale (m, &f, a.rule, &x);
  size_t blk = c * a.bpr + rb;           /* block rb of result row c */
  for (int i = 0; i < MX_BLOCK; i += 4)
    {
      uint32_t q[4];
      for (int j = 0; j < 4; j++)
        {
          size_t at = (rb * MX_BLOCK + (size_t) (i + j)) * a.cols + c;
          uint32_t r = a.rnd == MX_SR ? a.rbits[at] : 0;
          q[j] = s == 0xFF ? 0 : mxkc_quant_elem (v[i + j], x, &f, a.rnd, r);
        }
      store4 (a.codes, blk * MX_BLOCK + (size_t) i, mxkc_pack4 (q[0], q[1], q[2], q[3], a.pk), a.pk,
              a.vec_out);
    }
  a.scales[scale_at (blk, a.bpr, a.sl)] = s;
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
  int fi = elem_index (elem), ri = rnd_index (rnd);
  if (fi < 0 || ri < 0 || (in_fmt != MX_FP32 && in_fmt != MX_BF16 && in_fmt != MX_FP16)
      || (rule != MX_SCALE_FLOOR && rule != MX_SCALE_RCEIL_FP32) || (rnd == MX_SR) != (rbits != NULL)
      || (dir != MXK_CUDA_ROWWISE && dir != MXK_CUDA_COLWISE)
      || (sl != MXK_CUDA_SCALES_LINEAR && sl != MXK_CUDA_SCALES_SWIZZLED) || !scales || !codes || !in)
    return MX_EINVAL;
  const mxkc_fmt f = mxkc_fmt_of (elem);
  if (!mxk__packing_ok (&f, packing))
    return MX_EINVAL;
  size_t R = dir == MXK_CUDA_ROWWISE ? rows : cols, C = dir == MXK_CUDA_ROWWISE ? cols : rows;
  size_t n = mxk__mul (rows, cols), sbytes = mxk_cuda_scale_bytes (R, C, sl);
  if (n == 0 || C % MX_BLOCK || !sbytes || !mxk_cuda_code_bytes (R, C, packing)
      || n > (size_t) 1 << 40)
    return MX_EINVAL;                    /* empty, not whole blocks, or sizes past the grid */
  qargs a;
  a.scales = scales, a.codes = codes, a.in = in, a.rbits = rbits;
  a.nblk = n / MX_BLOCK, a.bpr = C / MX_BLOCK, a.rows = rows, a.cols = cols;
  a.in_fmt = in_fmt, a.elem = elem, a.rule = rule, a.rnd = rnd, a.pk = packing, a.sl = sl;
  a.vec_in = mxk__aligned (in, in_fmt == MX_FP32 ? 16 : 8);
  a.vec_out = mxk__aligned (codes, packing == MX_PACKING_FP4_LO_FIRST ? 2 : 4);
  if (sl == MXK_CUDA_SCALES_SWIZZLED && cudaMemsetAsync (scales, 0, sbytes, stream) != cudaSuccess)
    return MXK_CUDA_EDEVICE;             /* the padding the layout has beyond R x C/32 */
  if (dir == MXK_CUDA_ROWWISE)
    {
      size_t threads = a.nblk * 8, ctas = (threads + MXK_CUDA_THREADS - 1) / MXK_CUDA_THREADS;
      q_rw[fi][ri]<<<(unsigned) ctas, MXK_CUDA_THREADS, 0, stream>>> (a);
    }
  else
    {
      size_t ys = (cols + 127) / 128;
      if (rows / MX_BLOCK > 0x7FFFFFFFu || ys > 65535)
        return MX_EINVAL;
      q_cw<<<dim3 ((unsigned) (rows / MX_BLOCK), (unsigned) ys), 128, 0, stream>>> (a);
    }
  return mxk__launched ();
}
