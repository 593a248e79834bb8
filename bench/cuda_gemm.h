/* cuda_gemm.h -- bench-cuda's MX GEMM section (bench/cuda_gemm.cu).  SPDX-License-Identifier: MIT */
#ifndef MX_BENCH_CUDA_GEMM_H
#define MX_BENCH_CUDA_GEMM_H
#ifdef __cplusplus
extern "C" {
#endif
/* Times mxk_cuda_gemm (exact and block-fp32) for (E2M1,E2M1), (E2M3,E2M3), (INT8,INT8) and
 * (E4M3,E4M3) at size x size x size against cuBLASLt's INT8 and FP8 E4M3 GEMMs in the same run;
 * prints key=value lines.  0, or 1 when a CUDA or cuBLASLt call failed (said on stderr). */
int mxkb_gemm (int size);
#ifdef __cplusplus
}
#endif
#endif
