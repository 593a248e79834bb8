/* mxk_cuda.h -- mxgold's CUDA kernels for OCP MX (libmxk_cuda): quantize, dequantize and MX
 * GEMM on the GPU, bit-exact with libmxgold (and so with the committed vectors and with libmxk).
 * Every bit is computed by the __host__ __device__ functions of mxk_cuda_conv.h, which the host
 * test suite checks exhaustively against libmxgold.  The functions below take device pointers,
 * enqueue their work on stream (0: the default stream) and return without waiting:
 *   MX_OK, MX_EINVAL (an argument outside its documented range; nothing enqueued), or
 *   MXK_CUDA_EDEVICE (the CUDA runtime refused: no device, a failed launch; cudaGetLastError()
 *   says why).  Errors of the kernels themselves surface at the next synchronisation.
 * No state is kept between calls; the functions are thread-safe as the CUDA runtime is.
 * Policy: libmxgold's OCP default (mxk.h's mxk_quantize contract): NaN/Inf in a block gives the
 * scale 0xFF and codes 0, an all-zero block scale 0x00, signs of zero kept, INT8 -127..127,
 * saturation.
 * SPDX-License-Identifier: MIT */
#ifndef MXK_CUDA_H
#define MXK_CUDA_H
#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>
#include "mx/ids.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MXK_CUDA_EDEVICE (-16)

/* Where the blocks of 32 lie in a rows x cols row-major input. */
typedef enum {
  MXK_CUDA_ROWWISE, /* along a row (the contiguous dimension): cols % 32 == 0 */
  MXK_CUDA_COLWISE  /* along a column (32 consecutive rows): rows % 32 == 0; the result is the
                       row-wise quantization of the transpose (TransformerEngine's columnwise
                       data): codes cols x rows, scales cols x rows/32 */
} mxk_cuda_dir;

/* How the scales are stored. */
typedef enum {
  MXK_CUDA_SCALES_LINEAR,  /* row-major, one byte per block: R x (C/32) for an R x C result */
  MXK_CUDA_SCALES_SWIZZLED /* cuBLASLt VEC32_UE8M0 / CUTLASS 128x4 tiles (mxk_cuda_conv.h,
                              mxkc_swizzle_offset), padding written 0 */
} mxk_cuda_scales;

/* Bytes of the scales of an R x C result (blocks along C) in layout sl. */
size_t mxk_cuda_scale_bytes (size_t r, size_t c, mxk_cuda_scales sl);
/* Bytes of the codes of an R x C result in packing p (0 for an unsupported packing). */
size_t mxk_cuda_code_bytes (size_t r, size_t c, mx_packing p);

/* mxk_cuda_quantize -- a rows x cols row-major matrix in (in_fmt MX_FP32, MX_BF16 or MX_FP16)
 * to E8M0 scales and element codes of elem (one of the six OCP element formats), blocks of 32
 * along dir.  The result is an R x C matrix (R x C = rows x cols row-wise, cols x rows
 * column-wise): codes row-major, each row's blocks packed by packing (MX_PACKING_UNPACKED, or
 * MX_PACKING_FP4_LO_FIRST for E2M1, MX_PACKING_FP6_3BYTE for E2M3/E3M2): mxk_cuda_code_bytes
 * (R, C, packing) bytes; scales in layout sl: mxk_cuda_scale_bytes (R, C, sl) bytes.
 * rule: MX_SCALE_FLOOR or MX_SCALE_RCEIL_FP32.  rnd: MX_RNE MX_RNA MX_RTZ MX_RUP MX_RDN, or
 * MX_SR with rbits: one random word per input element, rbits[i] for in[i] (row-major input
 * index, either direction), the rule of mxk_quantize_sr (R = 16); rbits NULL otherwise.
 * Bit for bit libmxgold's mx_quantize of each block under mx_policy_ocp() with that rule. */
int mxk_cuda_quantize (uint8_t *scales, uint8_t *codes, const void *in, mx_format_id in_fmt,
                       size_t rows, size_t cols, mx_format_id elem, mx_scale_rule rule,
                       mx_rounding rnd, const uint16_t *rbits, mx_packing packing,
                       mxk_cuda_dir dir, mxk_cuda_scales sl, cudaStream_t stream);

/* mxk_cuda_dequantize -- an R x C matrix of codes (layout as mxk_cuda_quantize writes it,
 * blocks along C, C % 32 == 0) and its scales (layout sl) to R x C values in out_fmt (MX_FP32
 * or MX_BF16), row-major: each X * P_i rounded once (RNE); a NaN scale gives the quiet NaN
 * 0x7FC00000 (BF16 0x7FC0), a NaN code sign | quiet NaN.  Bit for bit libmxgold's
 * mx_dequantize. */
int mxk_cuda_dequantize (void *out, mx_format_id out_fmt, const uint8_t *scales,
                         const uint8_t *codes, size_t r, size_t c, mx_format_id elem,
                         mx_packing packing, mxk_cuda_scales sl, cudaStream_t stream);

/* mxk_cuda_gemm -- C = C_in + A B^T for MX operands, blocks of 32 along K, the layout of
 * libmxgold's mx_gemm: A m x k codes (unpacked, row-major) with m x k/32 linear scales, B given
 * transposed as n x k codes with n x k/32 scales, c_in m x n FP32 bit patterns (NULL: zeros),
 * c_out m x n FP32 bit patterns, row-major.  k must be a multiple of 32 (MX_EINVAL otherwise);
 * m and n are any sizes (0: MX_OK, nothing enqueued).  accum: MX_ACCUM_EXACT (every scaled product and C_in summed exactly,
 * one RNE rounding: libmxgold's exact model) or MX_ACCUM_BLOCK_FP32 (each block's exact dot
 * times both scales rounded once to FP32, blocks added in order in FP32 RNE, C_in first).
 * fa, fb: any of the six OCP element formats; E2M1, E2M3 and INT8 pairs take the int8 tensor-
 * core path, the others the exact split path (docs/kernels.md).  Bit for bit mx_gemm with
 * out_fmt FP32 and RNE. */
int mxk_cuda_gemm (uint32_t *c_out, size_t m, size_t n, size_t k, const uint8_t *a_scales,
                   const uint8_t *a_codes, mx_format_id fa, const uint8_t *b_scales,
                   const uint8_t *b_codes, mx_format_id fb, const uint32_t *c_in,
                   mx_accum accum, cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif
