/* slow.h -- mxgold's second, independent model: exact integer/dyadic arithmetic, no MPFR.
 * It reads only the raw parameters of a format (bits, sign, ebits, mbits, bias, special) and
 * derives everything else itself, so a slip in libmxgold's derived fields shows up as a mismatch.
 * SPDX-License-Identifier: MIT */
#ifndef MX_SLOW_H
#define MX_SLOW_H
#include <stdint.h>
#include <stddef.h>
#include "mx.h"

enum { S_ZERO, S_FINITE, S_INF, S_NAN };
/* value = (-1)^neg * sig * 2^exp; sig != 0 for S_FINITE */
typedef struct { int cls, neg; uint64_t sig; long exp; } s_val;

/* The policy of IEEE 754 interchange results (overflow to Inf). */
extern const mx_policy s_ieee;

s_val s_decode (const mx_format *f, uint64_t code);
uint64_t s_encode (const mx_format *f, s_val x, mx_rounding rnd, uint32_t rbits,
                   const mx_policy *pol, unsigned *flags);
/* s_quantize: in == NULL means exact values given as FP64 bit patterns. */
long s_scale_exponent (s_val amax, const mx_format *elem, const mx_format *in, mx_scale_rule r);
unsigned s_quantize (uint64_t *scale, uint64_t codes[], const mx_format *elem,
                     const mx_format *sfmt, const mx_format *in, const uint64_t bits[], size_t k,
                     const uint32_t rbits[], const mx_policy *pol, mx_rounding rnd);
/* The exact error of the block (pol->scale_rule min-maxerr: the largest |V_i - X P_i|, else the
 * sum of squares) under scale code sc1 against sc2 (both in the scale's range): -1, 0 or 1. */
int s_compare_scales (uint64_t sc1, uint64_t sc2, const mx_format *elem, const mx_format *sfmt,
                      const mx_format *in, const uint64_t bits[], size_t k,
                      const uint32_t rbits[], const mx_policy *pol, mx_rounding rnd);
/* Brute force: the smallest scale code of the whole range with the least such error. */
uint64_t s_best_scale (const mx_format *elem, const mx_format *sfmt, const mx_format *in,
                       const uint64_t bits[], size_t k, const uint32_t rbits[],
                       const mx_policy *pol, mx_rounding rnd);
unsigned s_dequantize (uint64_t out[], const mx_format *out_fmt, uint64_t scale,
                       const uint64_t codes[], const mx_format *elem, const mx_format *sfmt,
                       size_t k, mx_rounding rnd);
/* The exact, block-fp32 and fused-group dot models (E8M0 scales); group: fused-group's
 * products per group (a divisor of k), ignored by the others. */
unsigned s_dot (uint64_t *out, const mx_format *of, const uint64_t sa[], const uint64_t ca[],
                const mx_format *ea, const uint64_t sb[], const uint64_t cb[], const mx_format *eb,
                const mx_format *sf, size_t k, size_t nb, uint64_t cin, mx_accum accum,
                size_t group, mx_rounding rnd);
/* The tensor-core dot model (mx_tc_model, docs/semantics.md section 7): groups aligned to
 * their largest term, each group result rounded to FP32 by m->out; the FP32 accumulator is then
 * converted to of by out_rnd. */
unsigned s_dot_tc (uint64_t *out, const mx_format *of, const uint64_t sa[], const uint64_t ca[],
                   const mx_format *ea, const uint64_t sb[], const uint64_t cb[],
                   const mx_format *eb, const mx_format *sf, size_t k, size_t nb, uint64_t cin,
                   const mx_tc_model *m, mx_rounding out_rnd);
/* |a| <=> |b| for finite nonzero values: -1, 0, 1. */
int s_cmp_mag (s_val a, s_val b);
s_val s_narrow_fp32 (s_val a);
/* mx_cast's model: wide-input, subnormal flush, then s_encode; *t the ternary value */
uint64_t s_cast (const mx_format *to, const mx_format *from, uint64_t x, mx_rounding rnd,
                 uint32_t rbits, const mx_policy *pol, unsigned *flags);
/* NVFP4 two-level scaling (slow_nvfp4.c; docs/semantics.md section 9): FP32 patterns in and out,
 * the same contracts as mx_nvfp4_amax, mx_nvfp4_global_scale, mx_quantize_nvfp4 (returns the
 * flags) and mx_dequantize_nvfp4 (RNE). */
uint64_t s_nvfp4_amax (const mx_format *in, const uint64_t bits[], size_t n);
uint64_t s_nvfp4_global_scale (uint64_t amax);
unsigned s_quantize_nvfp4 (uint64_t scales[], uint64_t codes[], const mx_format *in,
                           const uint64_t bits[], size_t rows, size_t cols, uint64_t amax,
                           int tile_2d, const uint32_t rbits[], mx_rounding rnd);
unsigned s_dequantize_nvfp4 (uint64_t out[], const mx_format *of, const uint64_t scales[],
                             const uint64_t codes[], size_t rows, size_t cols, uint64_t amax);
/* The shared-microexponent formats (slow_mxs.c): of d only k2, d2 and mbits are read. */
unsigned s_quantize_mxs (uint64_t *scale, uint8_t shifts[], uint64_t codes[], const mx_mxs_desc *d,
                         const mx_format *in, const uint64_t bits[], size_t k,
                         const mx_policy *pol, mx_rounding rnd);
unsigned s_dequantize_mxs (uint64_t out[], const mx_format *of, uint64_t scale,
                           const uint8_t shifts[], const uint64_t codes[], const mx_mxs_desc *d,
                           size_t k, mx_rounding rnd);
/* Largest finite magnitude code, derived independently. */
uint64_t s_max_mag (const mx_format *f);
int s_emax (const mx_format *f);
#endif
