/* mxk.h -- mxgold's fast CPU kernels for OCP MX: quantize, dequantize and block-fp32 dot,
 * bit-exact with libmxgold (and so with the committed vectors).  Each operation has a scalar
 * reference path, a portable C path and AVX2 / AVX-512 paths; the functions below run the best
 * path this CPU has (cpuid, probed once, thread-safely) or the one forced by mxk_use_path().
 * That choice is libmxk's one piece of process-wide state (an atomic; every path gives the same
 * bits).  No MPFR; depends only on the enums of mx/ids.h.  Functions return MX_OK, or MX_EINVAL
 * for an unsupported argument.
 * SPDX-License-Identifier: MIT */
#ifndef MXK_H
#define MXK_H
#include <stddef.h>
#include <stdint.h>
#include "mx/ids.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The paths: the scalar reference, portable C, AVX2 (with F16C), AVX-512 (F, BW, VL), and
 * AVX-512 with VBMI (Ice Lake, Zen 4 and later: quantize narrows its codes by a byte permute);
 * every path gives the same bits. */
typedef enum { MXK_PATH_AUTO, MXK_PATH_REF, MXK_PATH_GENERIC, MXK_PATH_AVX2, MXK_PATH_AVX512,
               MXK_PATH_AVX512VBMI, MXK_PATH_COUNT } mxk_path;

/* 1 if this CPU and this build can run path p. */
int mxk_path_supported (mxk_path p);
/* Force a path for the whole process (MXK_PATH_AUTO: the best supported); MX_OK, or MX_EINVAL
 * if unsupported here. */
int mxk_use_path (mxk_path p);
/* The path the plain functions run now, and its name. */
mxk_path mxk_current_path (void);
const char *mxk_path_name (mxk_path p);

/* Packings: MX_PACKING_UNPACKED, MX_PACKING_FP4_LO_FIRST and MX_PACKING_FP6_3BYTE (mx/ids.h).
 *
 * mxk_quantize -- n values (n a multiple of 32; in_fmt MX_FP32 or MX_BF16) to n/32 E8M0 scales
 * and n element codes of elem, under the OCP-default special-value policy (NaN/Inf block: scale
 * 0xFF, codes 0; zero block 0x00; signs of zero kept; INT8 -127..127; saturation).
 * rule: MX_SCALE_FLOOR or MX_SCALE_RCEIL_FP32.  rnd: MX_RNE MX_RNA MX_RTZ MX_RUP MX_RDN (MX_SR,
 * which needs random words, through mxk_quantize_sr).  On the AVX-512 paths unpacked codes of
 * 32 MiB or more are written with non-temporal stores (they bypass the caches, as a large
 * dequantize output does). */
int mxk_quantize (uint8_t *scales, uint8_t *codes, const void *in, mx_format_id in_fmt, size_t n,
                  mx_format_id elem, mx_scale_rule rule, mx_rounding rnd, mx_packing packing);

/* mxk_quantize_sr -- mxk_quantize under stochastic rounding (MX_SR, which mxk_quantize
 * rejects): rbits holds n random words, rbits[i] for element i, and the result is libmxgold's
 * mx_quantize under MX_SR with sr_bits R = 16 (its default) and sr_frac trunc, bit for bit: the
 * magnitude |x|/2^X is truncated at the element quantum q and goes up one quantum iff
 * floor(f * 2^16) + rbits[i] >= 2^16, f the discarded fraction of q (docs/semantics.md,
 * "Stochastic rounding, bit-exact rule": truncate(|x| + r 2^-16 q)); the sign is applied after,
 * then saturation.  A libmxgold word w gives the same result as rbits[i] = w & 0xFFFF.
 * MX_EINVAL for rbits NULL and for what mxk_quantize rejects. */
int mxk_quantize_sr (uint8_t *scales, uint8_t *codes, const void *in, mx_format_id in_fmt,
                     size_t n, mx_format_id elem, mx_scale_rule rule, const uint16_t *rbits,
                     mx_packing packing);

/* mxk_dequantize -- n codes under n/32 scales to out_fmt (MX_FP32 or MX_BF16), each X * P_i
 * rounded once (RNE); a NaN scale gives 0x7FC00000 (BF16 0x7FC0).  On the AVX-512 paths an
 * output of 32 MiB or more is written with non-temporal stores (it bypasses the caches: the
 * caller that reads it back soon finds it in memory, not in cache). */
int mxk_dequantize (void *out, mx_format_id out_fmt, const uint8_t *scales, const uint8_t *codes,
                    size_t n, mx_format_id elem, mx_packing packing);

/* Multi-threaded quantize and dequantize: the arguments of the one-thread functions plus a
 * thread count (0: the number of online CPUs).  Every block's scale, codes and outputs depend on
 * that block alone, so the n/32 blocks are cut into contiguous chunks of MXK_MT_CHUNK_BLOCKS
 * (whole packing groups and cache lines), taken in turn by POSIX threads and the caller's (a
 * thread on a busy core takes fewer), each run by the current path's one-thread kernel: the
 * bytes written are those of the one-thread call, for every thread count.  At most one thread
 * per MXK_MT_MIN_BLOCKS blocks (starting and joining one takes some 20-70 us, what one core
 * needs for 4096 FP32 blocks): a smaller n runs on the caller's thread alone.  Threads are
 * created and joined within the call (no pool, no state kept); thread-safe as the one-thread
 * functions are.  MX_EINVAL for what the one-thread function rejects or threads >
 * MXK_MT_MAX_THREADS, checked before anything is written; MX_ENOMEM if a thread or its
 * bookkeeping could not be had (every thread started is joined first; the outputs are then
 * unspecified).  Each chunk stores as the one-thread call of the whole n would: non-temporal
 * stores for unpacked codes or a dequantize output of 32 MiB or more on the AVX-512 paths. */
#define MXK_MT_MAX_THREADS 1024
#define MXK_MT_MIN_BLOCKS 4096
#define MXK_MT_CHUNK_BLOCKS 1024
int mxk_quantize_mt (uint8_t *scales, uint8_t *codes, const void *in, mx_format_id in_fmt,
                     size_t n, mx_format_id elem, mx_scale_rule rule, mx_rounding rnd,
                     mx_packing packing, unsigned threads);
/* The same for mxk_quantize_sr (block b's random words are rbits[32 b .. 32 b + 31] for any
 * thread count). */
int mxk_quantize_sr_mt (uint8_t *scales, uint8_t *codes, const void *in, mx_format_id in_fmt,
                        size_t n, mx_format_id elem, mx_scale_rule rule, const uint16_t *rbits,
                        mx_packing packing, unsigned threads);
int mxk_dequantize_mt (void *out, mx_format_id out_fmt, const uint8_t *scales,
                       const uint8_t *codes, size_t n, mx_format_id elem, mx_packing packing,
                       unsigned threads);

/* mxk_dot -- libmxgold's block-fp32 dot of n elements (n/32 block pairs, unpacked codes) with
 * RNE: each block's exact dot times both scales rounded once to FP32, then added in FP32 RNE,
 * C_in first.  *out gets the FP32 bits; a NaN result is 0x7FC00000.  No multi-threaded
 * version: the FP32 accumulation is sequential by definition, and per-thread partial sums would
 * round differently. */
int mxk_dot (uint32_t *out, const uint8_t *scales_a, const uint8_t *codes_a, mx_format_id fa,
             const uint8_t *scales_b, const uint8_t *codes_b, mx_format_id fb, size_t n,
             uint32_t cin);

#ifdef __cplusplus
}
#endif
#endif
