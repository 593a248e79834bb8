/* internal.h -- shared by the kernel paths: format parameters (from formats.def), the scalar
 * element and block routines every path falls back on, packing.  Not installed.
 * SPDX-License-Identifier: MIT */
#ifndef MXK_INTERNAL_H
#define MXK_INTERNAL_H
#include <string.h>
#include "mxk.h"

/* The operations of one path, behind the dispatching functions of mxk.h (same contracts).
 * quantize's rbits: n random words for MX_SR (mxk_quantize_sr), NULL for the other roundings. */
typedef struct
{
  int (*quantize) (uint8_t *, uint8_t *, const void *, mx_format_id, size_t, mx_format_id,
                   mx_scale_rule, mx_rounding, const uint16_t *, mx_packing);
  int (*dequantize) (void *, mx_format_id, const uint8_t *, const uint8_t *, size_t,
                     mx_format_id, mx_packing);
  int (*dot) (uint32_t *, const uint8_t *, const uint8_t *, mx_format_id, const uint8_t *,
              const uint8_t *, mx_format_id, size_t, uint32_t);
  /* quantize for a chunk of a call (mxk_quantize_mt) whose size class (mxk__q_whole) is
   * MXK_WHOLE_BIG (quantize_big) or MXK_WHOLE_NT (quantize_nt): the loop and the stores a
   * one-thread call of that size takes (the AVX-512 paths; the others: quantize) */
  int (*quantize_big) (uint8_t *, uint8_t *, const void *, mx_format_id, size_t, mx_format_id,
                       mx_scale_rule, mx_rounding, const uint16_t *, mx_packing);
  int (*quantize_nt) (uint8_t *, uint8_t *, const void *, mx_format_id, size_t, mx_format_id,
                      mx_scale_rule, mx_rounding, const uint16_t *, mx_packing);
  /* dequantize for a chunk of a call (mxk_dequantize_mt) whose whole output is MXK_NT_MIN_BYTES
   * or more: the non-temporal stores of a one-thread call of that size (the AVX-512 paths; the
   * others: dequantize) */
  int (*dequantize_nt) (void *, mx_format_id, const uint8_t *, const uint8_t *, size_t,
                        mx_format_id, mx_packing);
} mxk__ops;
/* The paths this build has: ref and generic always, AVX2, AVX-512 and AVX-512 VBMI on x86-64
 * (MXK_HAVE_X86). */
extern const mxk__ops mxk__ops_ref, mxk__ops_generic, mxk__ops_avx2, mxk__ops_avx512, mxk__ops_avx512vbmi;
/* The table of the path the mxk_* functions run now (mxk_current_path). */
const mxk__ops *mxk__ops_now (void);

/* An element format's parameters, derived from its formats.def row by the MX_FMT_* rules. */
typedef struct
{
  mx_format_id id;
  int bits, mbits, bias, emin, emax, is_int, is_ieee, is_fn;
  uint32_t maxmag, signbit;
  float rcp_max;                      /* fl32(1/max finite), for rceil-fp32 */
} mxk_fmt;

/* Parameters of an element format of at most 8 bits (the kernels' formats), or NULL. */
const mxk_fmt *mxk__fmt (mx_format_id id);

static inline uint32_t
mxk__f2u (float f)
{
  uint32_t u;
  memcpy (&u, &f, 4);
  return u;
}

static inline float
mxk__u2f (uint32_t u)
{
  float f;
  memcpy (&f, &u, 4);
  return f;
}

/* 2^k as a float, k in -149..127 */
static inline float
mxk__pow2f (int k)
{
  return k >= -126 ? mxk__u2f ((uint32_t) (k + 127) << 23) : mxk__u2f (1u << (k + 149));
}

/* 2^k (k in -149..127) as two normal factors s1 * s2, the first 2^max(k, -126): v * s1 * s2
 * multiplies a value v whose lowest set bit is at least 2^-23 (every element value, also as the
 * SIMD paths pre-scale it) by 2^k with one rounding, as v * s1 is exact, and with no FP32
 * subnormal unless the result is one (Intel cores take a microcode assist for each subnormal
 * operand or result). */
static inline void
mxk__pow2f_split (int k, float *s1, float *s2)
{
  *s1 = mxk__pow2f (k < -126 ? -126 : k);
  *s2 = mxk__pow2f (k < -126 ? k + 126 : 0);
}

/* 2^k as a double, k in -1022..1023 */
static inline double
mxk__pow2d (int k)
{
  uint64_t u = (uint64_t) (k + 1023) << 52;
  double d;
  memcpy (&d, &u, 8);
  return d;
}

/* The shared exponent of a block from its largest FP32 magnitude bits (finite, nonzero);
 * inline: it runs once per block on every fast path. */
static inline int
mxk__scale_exp (uint32_t amax, const mxk_fmt *f, mx_scale_rule rule)
{
  if (rule == MX_SCALE_RCEIL_FP32)
    {
      /* cvt.rp.ue8m0(fl32(amax * fl32(1/max))): RNE product, then round the exponent up.  The
       * product is formed exactly in double, so that no FP32 subnormal ever exists (each costs
       * Intel cores a microcode assist): below 2^-126 only its side of fl32's boundaries counts,
       * 2^-127 (0x00400000, even: a tie 2^-150 above it rounds down to it) and 2^-126. */
      /* an FP32-subnormal amax converted from its integer bits: as a float operand (even of
       * the conversion to double) it would cost the assist */
      double a = amax >= 0x800000u ? (double) mxk__u2f (amax) : (double) amax * 0x1p-149;
      double q = a * (double) f->rcp_max; /* 24 x 24 bits: exact */
      if (q < 0x1p-126)
        return q <= 0x1p-127 + 0x1p-150 ? -127 : -126;
      uint32_t p = mxk__f2u ((float) q); /* normal, or 2^-126 itself */
      return (int) (p >> 23) - 127 + ((p & 0x7FFFFF) != 0);
    }
  int e = (int) (amax >> 23);
  int ea = e ? e - 127 : (31 - __builtin_clz (amax)) - 149;
  return ea - f->emax;
}

/* The SIMD quantize paths' fast route (every rounding) covers blocks whose largest
 * magnitude bits lie in [MXK_FAST_LO, MXK_FAST_HI): 2^-80 <= amax < 2^127, so the scale exponent
 * is in -97..127 for every format and rule; zero, tiny, huge, NaN and Inf blocks take the scalar
 * routine. */
#define MXK_FAST_LO (47u << 23)
#define MXK_FAST_HI 0x7F000000u
/* sr: from 2^-64 (x >= -80), because the magic route's t of an FP32-subnormal input is wrong (or
 * clamped) but below 2^(-126-x) element units, and sr looks 2^-16 quanta deep: 2^-32 units
 * for E5M2 (the least quantum, 2^-16), which needs x >= -94. */
#define MXK_FAST_LO_SR (63u << 23)
static inline int
mxk__fast_amax (uint32_t amax, mx_rounding rnd)
{
  uint32_t lo = rnd == MX_SR ? MXK_FAST_LO_SR : MXK_FAST_LO;
  return amax - lo < MXK_FAST_HI - lo;
}

/* Software prefetch distance of the SIMD quantize paths, in input elements (8 KiB of FP32).
 * They are slower per byte than a plain stream, so the hardware prefetcher alone keeps too few
 * lines in flight; on the bench machine AVX-512 E4M3 went from 0.63x of the stream (1 KiB
 * ahead) and 0.76x (4 KiB) to 0.93x (8 KiB; 16 KiB: 0.92x). */
#define MXK_PREFETCH 2048

/* sr's R (libmxgold's sr_bits, its default): the random word's bits that count. */
#define MXK_SR_BITS 16

/* Dequantize outputs of at least this many bytes are written with non-temporal stores, which
 * bypass the caches (the AVX-512 paths): one thread's stores to DRAM skip the read for
 * ownership, 2.7x the bytes per second on an Intel Xeon (Emerald Rapids) and 1.3x on a Zen 5
 * core; an output this large would not stay in a core's caches anyway. */
#define MXK_NT_MIN_BYTES ((size_t) 32 << 20)
static inline int
mxk__dq_nt (mx_format_id out_fmt, size_t n) /* n dequantized values: MXK_NT_MIN_BYTES or more */
{
  return n * (out_fmt == MX_BF16 ? 2 : 4) >= MXK_NT_MIN_BYTES;
}

/* The AVX-512 paths' quantize takes sixteen blocks at a time (mxk_avx512.c, g16_scan) for
 * inputs below this many bytes (INT8: half as many), and four at a time from it on.  The sixteen-block
 * scan loads a group in a burst ahead of its codes: from the caches that is faster (AMD EPYC
 * family 26 model 2, E4M3, ratio to the stream: 1 MiB 0.51 against 0.40, 16 MiB 0.64 against
 * 0.54), from DRAM slower (64 MiB: 0.90 against 1.00; INT8 0.74 against 1.05).  INT8 crosses
 * over sooner.  Both timed against the avx512 path's four-block loop (the one the choice could
 * not move), on the same core: INT8's sixteen-block loop 0.83 of its time at 12 MiB, 1.00 at
 * 16 MiB, 1.27 at 24 MiB (E4M3: 0.63, 0.71, 0.87), and the avx512vbmi four-block loop, the
 * other choice, 0.89 at 32 MiB for both.  The avx512 path's loops, timed likewise (2026-12-07,
 * same CPU), fall on the same side: sixteen-block against four-block, E4M3 0.65 at 8 MiB and 0.74
 * at 24 MiB, INT8 0.75 at 8 MiB and 0.68 at 14 MiB. */
#define MXK_Q16_MAX_BYTES ((size_t) 32 << 20)
static inline int
mxk__q16_big (mx_format_id in_fmt, mx_format_id elem, size_t n) /* n inputs: the limit or more */
{
  return n * (in_fmt == MX_BF16 ? 2 : 4) >= (elem == MX_INT8 ? MXK_Q16_MAX_BYTES / 2 : MXK_Q16_MAX_BYTES);
}
/* A quantize call's size class, which picks the AVX-512 paths' loop and stores, for the whole
 * call also in mxk_quantize_mt's chunks: small (the sixteen-block loop), big (the
 * four-block loop), and unpacked codes of MXK_NT_MIN_BYTES or more (the four-block loop with
 * non-temporal stores). */
enum { MXK_WHOLE_SMALL, MXK_WHOLE_BIG, MXK_WHOLE_NT };
static inline int
mxk__q_whole (mx_format_id in_fmt, mx_format_id elem, size_t n, mx_packing packing)
{
  if (packing == MX_PACKING_UNPACKED && n >= MXK_NT_MIN_BYTES)
    return MXK_WHOLE_NT;
  return mxk__q16_big (in_fmt, elem, n) ? MXK_WHOLE_BIG : MXK_WHOLE_SMALL;
}
/* sr: the magnitude goes up iff the discarded fraction's top R bits (f = the discarded part in
 * units of 2^-R quanta, floored) plus the random word r reach 2^R: libmxgold's rule
 * trunc(|x| + r 2^-R ulp) with sr-frac trunc, as bits of x below 2^-R ulp never matter.  M:
 * the significand, sh >= 1: the bits below the quantum. */
static inline uint32_t
mxk__sr_inc (uint32_t M, int sh, uint32_t r)
{
  uint32_t f = sh <= MXK_SR_BITS ? M << (MXK_SR_BITS - sh)
               : sh - MXK_SR_BITS >= 32 ? 0 : M >> (sh - MXK_SR_BITS);
  return ((f & ((1u << MXK_SR_BITS) - 1)) + r) >> MXK_SR_BITS;
}

/* One element: FP32 bits (finite) divided by 2^x, rounded, saturated, encoded; r: the random
 * word of MX_SR (else unused). */
uint8_t mxk__quant_elem (uint32_t b, int x, const mxk_fmt *f, mx_rounding rnd, uint32_t r);
/* One block, scalar: 32 FP32 bit patterns -> scale and 32 codes; r: 32 random words for MX_SR
 * (else unused, may be NULL). */
uint8_t mxk__quant_block (uint8_t *codes, const uint32_t *b, const mxk_fmt *f, mx_scale_rule rule,
                          mx_rounding rnd, const uint16_t *r);
/* One element's exact value as a float (NaN codes give sign|0x7FC00000). */
float mxk__decode (uint8_t code, const mxk_fmt *f);
/* Element pairs whose exact block sum can exceed a double's 53 bits (E5M2 x E5M2, E5M2 x E4M3):
 * the dot paths sum them in 128-bit integers instead. */
static inline int
mxk__wide_pair (mx_format_id a, mx_format_id b)
{
  return (a == MX_E5M2 && (b == MX_E5M2 || b == MX_E4M3)) || (b == MX_E5M2 && a == MX_E4M3);
}

/* Exact block dot of 32 pairs, scaled by 2^(sa+sb-254) and rounded to FP32 (RNE). */
float mxk__block_dot (const uint8_t *a, const mxk_fmt *fa, const uint8_t *b, const mxk_fmt *fb,
                      uint8_t sa, uint8_t sb);

/* Block input as FP32 bits (BF16 widened). */
static inline void
mxk__load_block (uint32_t *b, const void *in, mx_format_id in_fmt, size_t blk)
{
  if (in_fmt == MX_BF16)
    for (int i = 0; i < MX_BLOCK; i++)
      b[i] = (uint32_t) ((const uint16_t *) in)[blk * MX_BLOCK + (size_t) i] << 16;
  else
    memcpy (b, (const uint32_t *) in + blk * MX_BLOCK, sizeof (uint32_t) * MX_BLOCK);
}

/* The packed size of a block (inline: the sixteen-block loop asks once a group, and the call
 * was 1% of its time in cache); pack/unpack one block's codes. */
static inline size_t
mxk__packed_block_bytes (mx_packing p)
{
  return p == MX_PACKING_FP4_LO_FIRST ? MX_BLOCK / 2 : p == MX_PACKING_FP6_3BYTE ? MX_BLOCK / 4 * 3 : MX_BLOCK;
}
void mxk__pack_block (uint8_t *dst, const uint8_t *codes, mx_packing p);
void mxk__unpack_block (uint8_t *codes, const uint8_t *src, mx_packing p);
/* The arguments of a quantize call: 0 or -1 (MX_SR only with rbits). */
int mxk__check (mx_format_id in_fmt, size_t n, mx_format_id elem, mx_scale_rule rule,
                mx_rounding rnd, const uint16_t *rbits, mx_packing packing);
/* The arguments of a dequantize call: 0 or -1. */
static inline int
mxk__check_dq (mx_format_id out_fmt, size_t n, mx_format_id elem, mx_packing packing)
{
  return (out_fmt != MX_FP32 && out_fmt != MX_BF16)
         || mxk__check (MX_FP32, n, elem, MX_SCALE_FLOOR, MX_RNE, NULL, packing) ? MX_EINVAL : MX_OK;
}
/* The arguments of a dot call, with the two formats' tables (*pa, *pb): 0 or -1. */
static inline int
mxk__check_dot (mx_format_id fa, mx_format_id fb, size_t n, const mxk_fmt **pa, const mxk_fmt **pb)
{
  *pa = mxk__fmt (fa), *pb = mxk__fmt (fb);
  return !*pa || !*pb || n % MX_BLOCK ? MX_EINVAL : MX_OK;
}

/* The SIMD paths' quantize loop QF (scales, codes, in, in_fmt, nb, f, rule, rnd, rbits, packing,
 * is_int), called once per rounding and per kind of element (INT8 or FP) so that both are
 * compile-time constants inside it; the arguments before rnd follow packing. */
#define MXK__QUANTIZE_BY_ROUNDING(QF, f, rnd, rbits, packing, ...)                             \
  do                                                                                         \
    {                                                                                        \
      switch (rnd)                                                                           \
        {                                                                                    \
        case MX_RNA: MXK__QF1 (QF, f, MX_RNA, NULL, packing, __VA_ARGS__); break;             \
        case MX_RTZ: MXK__QF1 (QF, f, MX_RTZ, NULL, packing, __VA_ARGS__); break;             \
        case MX_RUP: MXK__QF1 (QF, f, MX_RUP, NULL, packing, __VA_ARGS__); break;             \
        case MX_RDN: MXK__QF1 (QF, f, MX_RDN, NULL, packing, __VA_ARGS__); break;             \
        case MX_SR: MXK__QF1 (QF, f, MX_SR, rbits, packing, __VA_ARGS__); break;              \
        default: MXK__QF1 (QF, f, MX_RNE, NULL, packing, __VA_ARGS__); break;                 \
        }                                                                                    \
    }                                                                                        \
  while (0)
#define MXK__QF1(QF, f, R, RB, packing, ...)                                                  \
  ((f)->is_int ? QF (__VA_ARGS__, R, RB, packing, 1) : QF (__VA_ARGS__, R, RB, packing, 0))

static inline uint32_t
mxk__bf16_of (uint32_t f32) /* RNE, NaN kept quiet with its sign */
{
  if ((f32 & 0x7FFFFFFFu) > 0x7F800000u)
    return (f32 >> 16) | 0x40;
  return (f32 + 0x7FFFu + ((f32 >> 16) & 1)) >> 16;
}

#endif
