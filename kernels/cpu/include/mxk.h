/* mxk.h -- mxgold's fast CPU kernels for OCP MX: quantize, dequantize and block-fp32 dot,
 * bit-exact with libmxgold (and so with the committed vectors).  Each operation has a scalar
 * reference (_ref), a portable C fallback (_generic) and AVX2 / AVX-512 variants; the plain name
 * dispatches to the best path this CPU has (cpuid, once) or to the one forced by mxk_use_path().
 * No MPFR; depends only on the enums of mx/ids.h.
 * SPDX-License-Identifier: MIT */
#ifndef MXK_H
#define MXK_H
#include <stddef.h>
#include <stdint.h>
#include "mx/ids.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MXK_BLOCK 32

typedef enum { MXK_PATH_AUTO, MXK_PATH_REF, MXK_PATH_GENERIC, MXK_PATH_AVX2, MXK_PATH_AVX512,
               MXK_PATH_COUNT } mxk_path;

/* Element packing of the code arrays (docs/vectors.md "Packing"). */
typedef enum { MXK_UNPACKED, MXK_FP4_LO_FIRST, MXK_FP6_3BYTE } mxk_packing;

/* 1 if this CPU (and build) can run path p. */
int mxk_path_supported (mxk_path p);
/* Force a path (MXK_PATH_AUTO: the best supported); returns 0, or -1 if unsupported here. */
int mxk_use_path (mxk_path p);
/* The path the plain functions run now, and its name. */
mxk_path mxk_current_path (void);
const char *mxk_path_name (mxk_path p);

/* mxk_quantize -- n values (n a multiple of 32; in_fmt MX_FP32 or MX_BF16) to n/32 E8M0 scales
 * and n element codes of elem, under the OCP-default special-value policy (NaN/Inf block: scale
 * 0xFF, codes 0; zero block 0x00; signs of zero kept; INT8 -127..127; saturation).
 * rule: MX_SCALE_FLOOR or MX_SCALE_RCEIL_FP32.  rnd: MX_RNE MX_RNA MX_RTZ MX_RUP MX_RDN.
 * Returns 0, or -1 for an unsupported argument. */
int mxk_quantize (uint8_t *scales, uint8_t *codes, const void *in, mx_format_id in_fmt, size_t n,
                  mx_format_id elem, mx_scale_rule rule, mx_rounding rnd, mxk_packing packing);

/* mxk_dequantize -- n codes under n/32 scales to out_fmt (MX_FP32 or MX_BF16), each X * P_i
 * rounded once (RNE); a NaN scale gives 0x7FC00000 (BF16 0x7FC0). */
int mxk_dequantize (void *out, mx_format_id out_fmt, const uint8_t *scales, const uint8_t *codes,
                    size_t n, mx_format_id elem, mxk_packing packing);

/* mxk_dot -- libmxgold's block-fp32 dot of n elements (n/32 block pairs, unpacked codes) with
 * RNE: each block's exact dot times both scales rounded once to FP32, then added in FP32 RNE,
 * C_in first.  *out gets the FP32 bits; a NaN result is 0x7FC00000. */
int mxk_dot (uint32_t *out, const uint8_t *scales_a, const uint8_t *codes_a, mx_format_id fa,
             const uint8_t *scales_b, const uint8_t *codes_b, mx_format_id fb, size_t n,
             uint32_t cin);

/* The per-path entry points (same contracts). */
#define MXK_DECLARE(sfx)                                                                        \
  int mxk_quantize_##sfx (uint8_t *, uint8_t *, const void *, mx_format_id, size_t,             \
                          mx_format_id, mx_scale_rule, mx_rounding, mxk_packing);               \
  int mxk_dequantize_##sfx (void *, mx_format_id, const uint8_t *, const uint8_t *, size_t,     \
                            mx_format_id, mxk_packing);                                         \
  int mxk_dot_##sfx (uint32_t *, const uint8_t *, const uint8_t *, mx_format_id,                \
                     const uint8_t *, const uint8_t *, mx_format_id, size_t, uint32_t);
MXK_DECLARE (ref)
MXK_DECLARE (generic)
MXK_DECLARE (avx2)
MXK_DECLARE (avx512)
#undef MXK_DECLARE

#ifdef __cplusplus
}
#endif
#endif
