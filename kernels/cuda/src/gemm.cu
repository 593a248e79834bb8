/* gemm.cu -- mxk_cuda_gemm: C = C_in + A B^T for MX operands, bit for bit libmxgold's mx_gemm
 * (out FP32, RNE, E8M0 scales, blocks of 32) under the exact and block-fp32 models.
 *
 * Two kernels, every bit from mxk_cuda_gemm.h (run on the host by tests/tcuda_gemm_host.c):
 *   tc       pairs within {E2M1, E2M3, INT8}: each code is an int8 (value x 2^-lsb), so one
 *            mma.sync m16n8k32 s8 x s8 -> s32 k-step is exactly one block's dot.  A CTA of 4
 *            warps takes a 32 x 32 tile of C; per block of K it stages the tile's 32 A rows and
 *            32 B rows (int8 and raw codes) in shared memory, each warp runs two MMAs (16 x 16)
 *            and each thread folds its 8 int32 block dots into its outputs (exact: a 128-bit
 *            window; block-fp32: one rounding, one FP32 add).
 *   general  any other pair (E4M3, E5M2, E3M2 among them), on CUDA cores: a CTA of 16 x 16
 *            threads, one output each; per block of K the tile's 16 A rows and 16 B rows are
 *            decoded once into shared memory and each thread sums its 32 products exactly in
 *            128 bits (the "exact split path": integer significands, no rounding anywhere).
 * The exact model keeps each output's sum in a 128-bit window (mxk_cuda_gemm.h) where its row
 * and column scale spread allow, else in the 704-bit superaccumulator (local memory): both exact.
 * SPDX-License-Identifier: MIT */
#include "internal.cuh"
#include "mxk_cuda_gemm.h"

#define TC_M 32 /* the tensor-core CTA tile (tests/tcuda_gemm_host.c's MXKT_M, MXKT_N) */
#define TC_N 32
#define TC_LD 48 /* shared row stride in bytes: fragment loads of 8 rows x 4 words hit 32 banks */
#define GE_T 16  /* the general kernel's CTA tile: GE_T x GE_T outputs */

typedef struct
{
  uint32_t *c_out;
  const uint8_t *as, *ac, *bs, *bc;
  const uint32_t *c_in;
  size_t m, n, k, nb, tiles_n;
  mx_format_id fa, fb;
  int exact;
} gargs;

/* One output's state: both models' (the unused one idle). */
typedef struct
{
  mxkc_xacc x;
  mxkc_sacc s;
  uint32_t acc;
} ostate;

/* The scale ranges of a tile's rows (mxkc_scale_range): rows 0..ra-1 of A from i0, then rows
 * 0..rb-1 of B from j0, one thread each, into lo[], hi[]. */
static __device__ void
tile_ranges (int16_t *lo, int16_t *hi, const gargs &a, size_t i0, int ra, size_t j0, int rb)
{
  for (int t = threadIdx.x; t < ra + rb; t += blockDim.x)
    {
      int isb = t >= ra, l = 0, h = 0;
      size_t row = isb ? j0 + (size_t) (t - ra) : i0 + (size_t) t;
      if (row < (isb ? a.n : a.m))
        mxkc_scale_range ((isb ? a.bs : a.as) + row * a.nb, a.nb, &l, &h);
      lo[t] = (int16_t) l, hi[t] = (int16_t) h;
    }
}

static __device__ void
out_init (ostate *o, const gargs &a, size_t i, size_t j, int amin, int amax, int bmin, int bmax,
          int lsb_ab, int dbits)
{
  mxkc_xacc_init (&o->x, &o->s, amin, amax, bmin, bmax, lsb_ab, dbits, a.nb);
  o->acc = a.c_in ? a.c_in[i * a.n + j] : 0;
}

static __device__ __forceinline__ void
out_block (ostate *o, const gargs &a, const mxkc_bdot *b, uint8_t sa, uint8_t sb, int lsb_ab)
{
  if (a.exact)
    mxkc_xacc_add (&o->x, &o->s, b, sa, sb, lsb_ab);
  else
    o->acc = mxkc_fadd (o->acc, mxkc_block_f32 (b, sa, sb, lsb_ab));
}

static __device__ void
out_store (ostate *o, const gargs &a, size_t i, size_t j)
{
  a.c_out[i * a.n + j] = a.exact ? mxkc_xacc_result (&o->x, &o->s, a.c_in ? a.c_in[i * a.n + j] : 0)
                                 : mxkc_fp32_out (o->acc);
}

/*------------------------------------------------------------ the general path -*/
static __global__ void __launch_bounds__ (GE_T * GE_T)
gemm_general (gargs a)
{
  __shared__ uint64_t da[GE_T][33], db[GE_T][33];
  __shared__ uint8_t sa[GE_T], sb[GE_T];
  __shared__ int16_t lo[2 * GE_T], hi[2 * GE_T];
  const mxkc_fmt fa = mxkc_fmt_of (a.fa), fb = mxkc_fmt_of (a.fb);
  const int lsb_ab = mxkc_lsb (&fa) + mxkc_lsb (&fb), dbits = mxkc_dot_bits (&fa, &fb);
  size_t ti = blockIdx.x / a.tiles_n, tj = blockIdx.x % a.tiles_n;
  size_t i0 = ti * GE_T, j0 = tj * GE_T;
  int tx = threadIdx.x % GE_T, ty = threadIdx.x / GE_T;
  size_t i = i0 + ty, j = j0 + tx;
  int live = i < a.m && j < a.n;
  ostate o;
  tile_ranges (lo, hi, a, i0, GE_T, j0, GE_T);
  __syncthreads ();
  if (live)
    out_init (&o, a, i, j, lo[ty], hi[ty], lo[GE_T + tx], hi[GE_T + tx], lsb_ab, dbits);
  for (size_t q = 0; q < a.nb; q++)
    {
      __syncthreads ();
      /* 2 x GE_T rows of 32 codes, two codes of each per thread */
      for (int t = threadIdx.x; t < 2 * GE_T * 32; t += GE_T * GE_T)
        {
          int r = t / 32 % GE_T, e = t % 32, isb = t >= GE_T * 32;
          size_t row = (isb ? j0 : i0) + (size_t) r, rows = isb ? a.n : a.m;
          uint8_t c = row < rows ? (isb ? a.bc : a.ac)[row * a.k + q * 32 + (size_t) e] : 0;
          (isb ? db : da)[r][e] = mxkc_dec (c, isb ? &fb : &fa);
        }
      if (threadIdx.x < 2 * GE_T)
        {
          int r = threadIdx.x % GE_T, isb = threadIdx.x >= GE_T;
          size_t row = (isb ? j0 : i0) + (size_t) r, rows = isb ? a.n : a.m;
          (isb ? sb : sa)[r] = row < rows ? (isb ? a.bs : a.as)[row * a.nb + q] : 0;
        }
      __syncthreads ();
      if (live)
        {
          mxkc_bdot b;
          mxkc_block_dot (&b, da[ty], 1, db[tx], 1, 32);
          out_block (&o, a, &b, sa[ty], sb[tx], lsb_ab);
        }
    }
  if (live)
    out_store (&o, a, i, j);
}

/*------------------------------------------------------- the tensor-core path -*/
/* d = a b (+ 0): one m16n8k32 s8 MMA, a row-major 16 x 32, b column-major 32 x 8. */
static __device__ __forceinline__ void
mma_s8 (int32_t d[4], const uint32_t a[4], const uint32_t b[2])
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile ("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 "
                "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};\n"
                : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(0),
                  "r"(0), "r"(0), "r"(0));
#else
  /* compiled for a target below sm_80: never launched (mxk_cuda_gemm reads the kernel's PTX
   * version) */
  (void) a, (void) b;
  d[0] = d[1] = d[2] = d[3] = 0;
#endif
}

static __global__ void __launch_bounds__ (128)
gemm_tc (gargs a)
{
  __shared__ __align__ (16) int8_t ta[TC_M][TC_LD], tb[TC_N][TC_LD];
  __shared__ uint8_t ra[TC_M][32], rb[TC_N][32];
  __shared__ uint8_t sa[TC_M], sb[TC_N];
  __shared__ int16_t lo[TC_M + TC_N], hi[TC_M + TC_N];
  const mxkc_fmt fa = mxkc_fmt_of (a.fa), fb = mxkc_fmt_of (a.fb);
  const int lsb_ab = mxkc_lsb (&fa) + mxkc_lsb (&fb), dbits = mxkc_dot_bits (&fa, &fb);
  size_t i0 = blockIdx.x / a.tiles_n * TC_M, j0 = blockIdx.x % a.tiles_n * TC_N;
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  int g = lane / 4, t4 = lane % 4;
  int wr = warp / 2 * 16, wc = warp % 2 * 16;
  /* output u (0..7): MMA h = u / 4 (columns wc + 8 h ..), fragment c[u % 4]: row g (+8 for
   * c2, c3), column 2 t4 (+1 for c1, c3) */
  ostate o[8];
  tile_ranges (lo, hi, a, i0, TC_M, j0, TC_N);
  __syncthreads ();
  for (int u = 0; u < 8; u++)
    {
      int r = wr + g + (u & 2 ? 8 : 0), c = wc + (u / 4) * 8 + 2 * t4 + (u & 1);
      if (i0 + r < a.m && j0 + c < a.n)
        out_init (&o[u], a, i0 + r, j0 + c, lo[r], hi[r], lo[TC_M + c], hi[TC_M + c], lsb_ab,
                  dbits);
    }
  for (size_t q = 0; q < a.nb; q++)
    {
      __syncthreads ();
      /* 64 rows x 32 codes: 16 per thread */
      for (int t = threadIdx.x; t < (TC_M + TC_N) * 32; t += 128)
        {
          int r = t / 32 % TC_M, e = t % 32, isb = t >= TC_M * 32;
          size_t row = (isb ? j0 : i0) + (size_t) r, rows = isb ? a.n : a.m;
          uint8_t c = row < rows ? (isb ? a.bc : a.ac)[row * a.k + q * 32 + (size_t) e] : 0;
          (isb ? rb : ra)[r][e] = c;
          (isb ? tb : ta)[r][e] = (int8_t) mxkc_i8_of (c, isb ? &fb : &fa);
        }
      if (threadIdx.x < TC_M + TC_N)
        {
          int r = threadIdx.x % TC_M, isb = threadIdx.x >= TC_M;
          size_t row = (isb ? j0 : i0) + (size_t) r, rows = isb ? a.n : a.m;
          (isb ? sb : sa)[r] = row < rows ? (isb ? a.bs : a.as)[row * a.nb + q] : 0;
        }
      __syncthreads ();
      uint32_t af[4], bf[2];
      af[0] = *(const uint32_t *) &ta[wr + g][4 * t4];
      af[1] = *(const uint32_t *) &ta[wr + g + 8][4 * t4];
      af[2] = *(const uint32_t *) &ta[wr + g][16 + 4 * t4];
      af[3] = *(const uint32_t *) &ta[wr + g + 8][16 + 4 * t4];
      int32_t d[8];
      for (int h = 0; h < 2; h++)
        {
          bf[0] = *(const uint32_t *) &tb[wc + 8 * h + g][4 * t4];
          bf[1] = *(const uint32_t *) &tb[wc + 8 * h + g][16 + 4 * t4];
          mma_s8 (d + 4 * h, af, bf);
        }
      for (int u = 0; u < 8; u++)
        {
          int r = wr + g + (u & 2 ? 8 : 0), c = wc + (u / 4) * 8 + 2 * t4 + (u & 1);
          if (i0 + r >= a.m || j0 + c >= a.n)
            continue;
          /* the sign of an exact-zero block counts only while the sum so far is a zero */
          int need = a.exact ? o[u].x.sp.negzero : (o[u].acc & 0x7FFFFFFFu) == 0;
          mxkc_bdot b;
          mxkc_bdot_of_i32 (&b, d[u], d[u] == 0 && need
                                      && mxkc_block_negzero (ra[r], &fa, rb[c], &fb, 32));
          out_block (&o[u], a, &b, sa[r], sb[c], lsb_ab);
        }
    }
  for (int u = 0; u < 8; u++)
    {
      int r = wr + g + (u & 2 ? 8 : 0), c = wc + (u / 4) * 8 + 2 * t4 + (u & 1);
      if (i0 + r < a.m && j0 + c < a.n)
        out_store (&o[u], a, i0 + r, j0 + c);
    }
}

/*------------------------------------------------------------------- launch -*/
int
mxk_cuda_gemm (uint32_t *c_out, size_t m, size_t n, size_t k, const uint8_t *a_scales,
               const uint8_t *a_codes, mx_format_id fa, const uint8_t *b_scales,
               const uint8_t *b_codes, mx_format_id fb, const uint32_t *c_in, mx_accum accum,
               cudaStream_t stream)
{
  mxkc_fmt ffa = mxkc_fmt_of (fa), ffb = mxkc_fmt_of (fb);
  if (k == 0 || k % MX_BLOCK || !ffa.bits || !ffb.bits
      || (accum != MX_ACCUM_EXACT && accum != MX_ACCUM_BLOCK_FP32))
    return MX_EINVAL;
  if (m == 0 || n == 0)
    return MX_OK;
  if (!c_out || !a_scales || !a_codes || !b_scales || !b_codes || !mxkc_mul (m, k)
      || !mxkc_mul (n, k) || !mxkc_mul (m, n) || k / MX_BLOCK > ((uint64_t) 1 << 58))
    return MX_EINVAL;
  gargs a;
  a.c_out = c_out, a.as = a_scales, a.ac = a_codes, a.bs = b_scales, a.bc = b_codes;
  a.c_in = c_in, a.m = m, a.n = n, a.k = k, a.nb = k / MX_BLOCK, a.fa = fa, a.fb = fb;
  a.exact = accum == MX_ACCUM_EXACT;
  int tc = mxkc_is_i8 (&ffa) && mxkc_is_i8 (&ffb);
  if (tc)
    {
      /* mma.sync m16n8k32 s8: sm_80 on, in the device and in the code the kernel was built
       * from (a build for an older target JIT-compiled for this device has no MMA) */
      int dev, major;
      struct cudaFuncAttributes fa_;
      if (cudaGetDevice (&dev) != cudaSuccess
          || cudaDeviceGetAttribute (&major, cudaDevAttrComputeCapabilityMajor, dev)
             != cudaSuccess)
        return MXK_CUDA_EDEVICE;
      if (major >= 8 && cudaFuncGetAttributes (&fa_, gemm_tc) != cudaSuccess)
        {
          cudaGetLastError (); /* no image of it this device can load: the general path */
          fa_.ptxVersion = 0;
        }
      tc = major >= 8 && fa_.ptxVersion >= 80;
    }
  size_t tm = tc ? TC_M : GE_T, tn = tc ? TC_N : GE_T;
  size_t tiles_m = (m + tm - 1) / tm;
  a.tiles_n = (n + tn - 1) / tn;
  size_t tiles = mxkc_mul (tiles_m, a.tiles_n);
  if (tiles == 0 || tiles > 0x7FFFFFFFu)
    return MX_EINVAL;
  if (tc)
    gemm_tc<<<(unsigned) tiles, 128, 0, stream>>> (a);
  else
    gemm_general<<<(unsigned) tiles, GE_T * GE_T, 0, stream>>> (a);
  return mxk__launched ();
}
