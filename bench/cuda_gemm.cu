/* cuda_gemm.cu -- bench-cuda's MX GEMM section: mxk_cuda_gemm (exact and block-fp32) for
 * (E2M1,E2M1), (E2M3,E2M3), (INT8,INT8) and (E4M3,E4M3) at size^3, against cuBLASLt's INT8 GEMM
 * (s8 x s8 -> s32, the best of its top 8 heuristic algorithms) and its FP8 E4M3 GEMM (-> FP32)
 * timed in the same run.  Each time is the best of 5 runs after one warm-up (CUDA events);
 * TOPS = 2 size^3 / time.  Prints key=value lines:
 *   gemm_<fmt>_<model>_tops, cublaslt_int8_tops, cublaslt_e4m3_tops, and
 *   gemm_<fmt>_<model>_vs_cublaslt_<int8|e4m3> (their time / ours: E2M1, E2M3 and INT8, the
 *   int8 tensor-core path, against INT8; E4M3 against FP8).  cuBLASLt computes a different (non-MX, rounded) result: the ratio is
 *   the price of exactness and block scaling, not a like-for-like race.
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <cublasLt.h>
#include "mxk_cuda.h"
#include "cuda_gemm.h"

#define REPS 5

static int
cu_ok (cudaError_t e, const char *what)
{
  if (e == cudaSuccess)
    return 1;
  fprintf (stderr, "bench-cuda gemm: %s: %s\n", what, cudaGetErrorString (e));
  return 0;
}

static int
lt_ok (cublasStatus_t s, const char *what)
{
  if (s == CUBLAS_STATUS_SUCCESS)
    return 1;
  fprintf (stderr, "bench-cuda gemm: %s: cuBLAS status %d\n", what, (int) s);
  return 0;
}

/* The SplitMix64 generator (the project's one PRNG), for the operands. */
static uint64_t
next (uint64_t *s)
{
  uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* Random finite codes of fmt (E4M3's NaN codes replaced) and scales 120..134. */
static void
fill (uint8_t *codes, uint8_t *scales, size_t ncodes, mx_format_id fmt, uint64_t *s)
{
  unsigned mask = fmt == MX_E2M1 ? 0xF : fmt == MX_E2M3 ? 0x3F : 0xFF;
  for (size_t i = 0; i < ncodes; i++)
    {
      uint8_t c = (uint8_t) (next (s) & mask);
      if (fmt == MX_E4M3 && (c & 0x7F) == 0x7F)
        c ^= 1;
      codes[i] = c;
    }
  for (size_t i = 0; i < ncodes / 32; i++)
    scales[i] = (uint8_t) (120 + next (s) % 15);
}

/* Both operands of fmt, filled and copied to the device. */
static int
upload (uint8_t *h, uint8_t *hs, size_t nc, mx_format_id fmt, uint64_t *seed, uint8_t *ac,
        uint8_t *as, uint8_t *bc, uint8_t *bs)
{
  for (int op = 0; op < 2; op++)
    {
      fill (h, hs, nc, fmt, seed);
      if (!cu_ok (cudaMemcpy (op ? bc : ac, h, nc, cudaMemcpyHostToDevice), "cudaMemcpy")
          || !cu_ok (cudaMemcpy (op ? bs : as, hs, nc / 32, cudaMemcpyHostToDevice), "cudaMemcpy"))
        return 0;
    }
  return 1;
}

/* The best of REPS timed runs of mxk_cuda_gemm, seconds; negative on failure. */
static double
time_ours (uint32_t *c, size_t sz, const uint8_t *as, const uint8_t *ac, const uint8_t *bs,
           const uint8_t *bc, mx_format_id f, mx_accum accum, cudaEvent_t e0, cudaEvent_t e1)
{
  double best = 1e30;
  for (int r = 0; r <= REPS; r++)
    {
      float ms;
      cudaEventRecord (e0, 0);
      int rc = mxk_cuda_gemm (c, sz, sz, sz, as, ac, f, bs, bc, f, NULL, accum, 0);
      cudaEventRecord (e1, 0);
      if (rc != MX_OK || !cu_ok (cudaEventSynchronize (e1), "mxk_cuda_gemm")
          || !cu_ok (cudaEventElapsedTime (&ms, e0, e1), "cudaEventElapsedTime"))
        return -1;
      if (r > 0 && ms * 1e-3 < best)
        best = ms * 1e-3;
    }
  return best;
}

/* cuBLASLt's D (n x m column-major: our row-major m x n) = B A^T in the TN layout its INT8 and
 * FP8 kernels need, the best of its top 8 heuristic algorithms; seconds, negative on failure. */
static double
time_lt (cublasLtHandle_t lt, int fp8, size_t sz, const void *a, const void *b, void *d,
         void *ws, size_t wsbytes, cudaEvent_t e0, cudaEvent_t e1)
{
  cudaDataType_t ab = fp8 ? CUDA_R_8F_E4M3 : CUDA_R_8I, cd = fp8 ? CUDA_R_32F : CUDA_R_32I;
  cublasComputeType_t ct = fp8 ? CUBLAS_COMPUTE_32F : CUBLAS_COMPUTE_32I;
  cublasLtMatmulDesc_t op = NULL;
  cublasLtMatrixLayout_t la = NULL, lb = NULL, lc = NULL;
  cublasLtMatmulPreference_t pref = NULL;
  cublasLtMatmulHeuristicResult_t h[8];
  cublasOperation_t tr = CUBLAS_OP_T, nt = CUBLAS_OP_N;
  int32_t ia = 1, ib = 0;
  float fa = 1, fb = 0;
  const void *alpha = fp8 ? (const void *) &fa : (const void *) &ia;
  const void *beta = fp8 ? (const void *) &fb : (const void *) &ib;
  int found = 0;
  double best = -1;
  uint64_t n = sz;
  if (!lt_ok (cublasLtMatmulDescCreate (&op, ct, fp8 ? CUDA_R_32F : CUDA_R_32I), "MatmulDesc")
      || !lt_ok (cublasLtMatmulDescSetAttribute (op, CUBLASLT_MATMUL_DESC_TRANSA, &tr, sizeof tr),
                 "TRANSA")
      || !lt_ok (cublasLtMatmulDescSetAttribute (op, CUBLASLT_MATMUL_DESC_TRANSB, &nt, sizeof nt),
                 "TRANSB")
      || !lt_ok (cublasLtMatrixLayoutCreate (&la, ab, n, n, (int64_t) n), "layout A")
      || !lt_ok (cublasLtMatrixLayoutCreate (&lb, ab, n, n, (int64_t) n), "layout B")
      || !lt_ok (cublasLtMatrixLayoutCreate (&lc, cd, n, n, (int64_t) n), "layout C")
      || !lt_ok (cublasLtMatmulPreferenceCreate (&pref), "preference")
      || !lt_ok (cublasLtMatmulPreferenceSetAttribute (pref,
                   CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &wsbytes, sizeof wsbytes), "workspace")
      || !lt_ok (cublasLtMatmulAlgoGetHeuristic (lt, op, la, lb, lc, lc, pref, 8, h, &found),
                 "heuristic"))
    found = 0;
  for (int i = 0; i < found; i++)
    {
      double t = 1e30;
      int ok = 1;
      for (int r = 0; r <= REPS && ok; r++)
        {
          float ms;
          cudaEventRecord (e0, 0);
          ok = cublasLtMatmul (lt, op, alpha, b, la, a, lb, beta, d, lc, d, lc, &h[i].algo, ws,
                               wsbytes, 0) == CUBLAS_STATUS_SUCCESS;
          cudaEventRecord (e1, 0);
          ok = ok && cudaEventSynchronize (e1) == cudaSuccess
               && cudaEventElapsedTime (&ms, e0, e1) == cudaSuccess;
          if (ok && r > 0 && ms * 1e-3 < t)
            t = ms * 1e-3;
        }
      if (ok && (best < 0 || t < best))
        best = t;
    }
  if (found == 0)
    fprintf (stderr, "bench-cuda gemm: cuBLASLt offered no %s algorithm\n", fp8 ? "FP8" : "INT8");
  cublasLtMatmulPreferenceDestroy (pref);
  cublasLtMatrixLayoutDestroy (la);
  cublasLtMatrixLayoutDestroy (lb);
  cublasLtMatrixLayoutDestroy (lc);
  cublasLtMatmulDescDestroy (op);
  return best;
}

int
mxkb_gemm (int size)
{
  static const mx_format_id fmts[] = { MX_E2M1, MX_E2M3, MX_INT8, MX_E4M3 };
  static const char *names[] = { "e2m1", "e2m3", "int8", "e4m3" };
  if (size < 32 || size % 32)
    {
      fprintf (stderr, "bench-cuda gemm: size %d is not a positive multiple of 32\n", size);
      return 1;
    }
  size_t sz = (size_t) size, nc = sz * sz, wsbytes = (size_t) 32 << 20;
  uint8_t *h = (uint8_t *) malloc (nc), *hs = (uint8_t *) malloc (nc / 32);
  uint8_t *ac = NULL, *bc = NULL, *as = NULL, *bs = NULL;
  void *c = NULL, *ws = NULL;
  cudaEvent_t e0 = NULL, e1 = NULL;
  cublasLtHandle_t lt = NULL;
  uint64_t seed = 1;
  int rc = 1;
  double lt_int8 = -1, lt_fp8 = -1;
  if (!h || !hs || !cu_ok (cudaMalloc ((void **) &ac, nc), "cudaMalloc")
      || !cu_ok (cudaMalloc ((void **) &bc, nc), "cudaMalloc")
      || !cu_ok (cudaMalloc ((void **) &as, nc / 32), "cudaMalloc")
      || !cu_ok (cudaMalloc ((void **) &bs, nc / 32), "cudaMalloc")
      || !cu_ok (cudaMalloc (&c, nc * 4), "cudaMalloc") || !cu_ok (cudaMalloc (&ws, wsbytes), "cudaMalloc")
      || !cu_ok (cudaEventCreate (&e0), "cudaEventCreate")
      || !cu_ok (cudaEventCreate (&e1), "cudaEventCreate")
      || !lt_ok (cublasLtCreate (&lt), "cublasLtCreate"))
    goto done;
  printf ("gemm_size=%d\n", size);
  /* cuBLASLt first, on INT8 and on E4M3 operands (scales unused) */
  for (int f = 2; f < 4; f++)
    {
      if (!upload (h, hs, nc, fmts[f], &seed, ac, as, bc, bs))
        goto done;
      if (fmts[f] == MX_INT8)
        lt_int8 = time_lt (lt, 0, sz, ac, bc, c, ws, wsbytes, e0, e1);
      else
        lt_fp8 = time_lt (lt, 1, sz, ac, bc, c, ws, wsbytes, e0, e1);
    }
  for (int f = 0; f < 4; f++)
    {
      if (!upload (h, hs, nc, fmts[f], &seed, ac, as, bc, bs))
        goto done;
      for (int m = 0; m < 2; m++)
        {
          mx_accum accum = m ? MX_ACCUM_BLOCK_FP32 : MX_ACCUM_EXACT;
          const char *mn = m ? "block_fp32" : "exact";
          double t = time_ours ((uint32_t *) c, sz, as, ac, bs, bc, fmts[f], accum, e0, e1);
          if (t < 0)
            goto done;
          double tops = 2.0 * (double) sz * (double) sz * (double) sz / t * 1e-12;
          printf ("gemm_%s_%s_tops=%.3f\n", names[f], mn, tops);
          double ref = fmts[f] == MX_E4M3 ? lt_fp8 : lt_int8;
          if (ref > 0)
            printf ("gemm_%s_%s_vs_cublaslt_%s=%.4f\n", names[f], mn,
                    fmts[f] == MX_E4M3 ? "e4m3" : "int8", ref / t);
        }
    }
  if (lt_int8 > 0)
    printf ("cublaslt_int8_tops=%.3f\n", 2.0 * (double) sz * (double) sz * (double) sz / lt_int8 * 1e-12);
  if (lt_fp8 > 0)
    printf ("cublaslt_e4m3_tops=%.3f\n", 2.0 * (double) sz * (double) sz * (double) sz / lt_fp8 * 1e-12);
  rc = 0;
done:
  if (lt)
    cublasLtDestroy (lt);
  if (e0)
    cudaEventDestroy (e0);
  if (e1)
    cudaEventDestroy (e1);
  cudaFree (ac), cudaFree (bc), cudaFree (as), cudaFree (bs), cudaFree (c), cudaFree (ws);
  free (h), free (hs);
  return rc;
}
