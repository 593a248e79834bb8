/* mxk_cuda_conv.h -- the per-element and per-block arithmetic of libmxk_cuda: format parameters,
 * input widening, the shared exponent of the floor and rceil-fp32 rules, element encode in every
 * deterministic rounding and sr, dequantize to FP32 and BF16, and the packings.  Integer
 * arithmetic but for two IEEE operations (mxkc_scale_f32's multiplies, mxkc__fadd_pow2's add),
 * whose host forms model the device's, so one definition is bit-exact on both sides:
 * under nvcc each function is __host__ __device__, under a C11 compiler plain static inline, and
 * the host test suite (tests/tcuda_conv.c) checks them exhaustively against libmxgold on
 * machines without a GPU.  The kernels (kernels/cuda/src) call nothing else to compute a bit.
 * Policy: the OCP default of libmxgold (mxk.h's mxk_quantize contract).
 * SPDX-License-Identifier: MIT */
#ifndef MXK_CUDA_CONV_H
#define MXK_CUDA_CONV_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "mx/ids.h"

#ifdef __CUDACC__
#define MXKC_FN static inline __host__ __device__
#else
#define MXKC_FN static inline
#endif

/* sr's R (libmxgold's default sr_bits): the random word's bits that count. */
#define MXKC_SR_BITS 16

/* An element format of at most 8 bits, from its formats.def row by the MX_FMT_* rules; bits 0
 * for any other id.  max finite = max_sig * 2^max_exp; fl32(1/max) = rcp_sig * 2^rcp_exp with
 * rcp_sig in [2^23, 2^24) (rceil-fp32 multiplies by it). */
typedef struct
{
  int bits, mbits, bias, emin, emax, is_int, is_ieee, is_fn;
  uint32_t maxmag, signbit, max_sig, rcp_sig;
  int max_exp, rcp_exp;
} mxkc_fmt;

/* Leading zeros of a nonzero word. */
MXKC_FN int
mxkc_clz32 (uint32_t x)
{
#ifdef __CUDA_ARCH__
  return __clz ((int) x);
#else
  return __builtin_clz (x);
#endif
}

MXKC_FN int
mxkc_clz64 (uint64_t x)
{
#ifdef __CUDA_ARCH__
  return __clzll ((long long) x);
#else
  return __builtin_clzll (x);
#endif
}

MXKC_FN mxkc_fmt
mxkc__make (int bt, int eb, int mb, int bs, mx_special sp)
{
  mxkc_fmt f;
  f.bits = bt, f.mbits = mb, f.bias = bs;
  f.is_int = sp == MX_SPECIAL_INT, f.is_ieee = sp == MX_SPECIAL_IEEE, f.is_fn = sp == MX_SPECIAL_FN;
  f.emin = MX_FMT_EMIN (bs, sp);
  f.emax = MX_FMT_EMAX (eb, bs, sp);
  f.maxmag = (uint32_t) MX_FMT_MAX_MAG (bt, eb, mb, sp);
  f.signbit = 1u << (bt - 1);
  /* max finite: an integer times 2^-mbits (INT), else its significand times 2^(emax - mbits) */
  f.max_sig = f.is_int ? f.maxmag : (f.maxmag & ((1u << mb) - 1)) | (1u << mb);
  f.max_exp = f.is_int ? -mb : f.emax - mb;
  /* 1/max = 2^-max_exp / max_sig, rounded to 24 bits (RNE) by a long division */
  int len = 32 - mxkc_clz32 (f.max_sig);
  int t = 23 + len - ((f.max_sig & (f.max_sig - 1)) == 0); /* quotient in [2^23, 2^24] */
  uint64_t num = (uint64_t) 1 << t;
  uint32_t q = (uint32_t) (num / f.max_sig), r = (uint32_t) (num % f.max_sig);
  if (2 * r > f.max_sig || (2 * r == f.max_sig && (q & 1)))
    q++;
  if (q == (1u << 24))
    q >>= 1, t--;
  f.rcp_sig = q;
  f.rcp_exp = -t - f.max_exp;
  return f;
}

/* The parameters of element format id (bits 0: not a format of at most 8 bits). */
MXKC_FN mxkc_fmt
mxkc_fmt_of (mx_format_id id)
{
  mxkc_fmt none = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
  switch (id)
    {
#define MX_FORMAT(ID, nm, al, role, bt, sg, eb, mb, bs, sp)                 \
    case MX_##ID:                                                           \
      if (MX_ROLE_##role == MX_ROLE_ELEM && (bt) <= 8)                      \
        return mxkc__make (bt, eb, mb, bs, MX_SPECIAL_##sp);                \
      break;
#include "mx/formats.def"
#undef MX_FORMAT
    default:
      break;
    }
  return none;
}

/* An input's FP32 bit pattern: FP32 as is, BF16 widened, FP16 converted (exactly). */
MXKC_FN uint32_t
mxkc_fp32_of (uint32_t raw, mx_format_id in_fmt)
{
  if (in_fmt == MX_BF16)
    return raw << 16;
  if (in_fmt != MX_FP16)
    return raw;
  uint32_t s = (raw & 0x8000u) << 16, e = (raw >> 10) & 0x1F, m = raw & 0x3FF;
  if (e == 0x1F)
    return s | 0x7F800000u | (m << 13);                /* Inf, NaN (payload kept) */
  if (e)
    return s | ((e + 112) << 23) | (m << 13);
  if (m == 0)
    return s;
  int p = 31 - mxkc_clz32 (m);                        /* m * 2^-24 = 2^(p-24) * 1.f */
  return s | ((uint32_t) (p + 103) << 23) | ((m << (23 - p)) & 0x7FFFFFu);
}

/* sig / 2^sh rounded to an integer, ties to even (sh > 64: below half of one, so 0); sh <= 0:
 * sig * 2^-sh, exact (callers keep it below 2^64). */
MXKC_FN uint64_t
mxkc__rne_shr (uint64_t sig, int sh)
{
  if (sh <= 0)
    return sh <= -64 ? 0 : sig << -sh;
  if (sh > 64)
    return 0;
  uint64_t rem = sh == 64 ? sig : sig & (((uint64_t) 1 << sh) - 1);
  uint64_t half = (uint64_t) 1 << (sh - 1);
  uint64_t m = sh == 64 ? 0 : sig >> sh;
  return m + (rem > half || (rem == half && (m & 1)));
}

/* ceil(log2 v) for v = sig * 2^e rounded once to FP32 (RNE, FP32 subnormals kept): the
 * cvt.rp.ue8m0 step of rceil-fp32.  A zero product gives -127 (the clamp). */
MXKC_FN int
mxkc__ceil_log2_fl32 (uint64_t sig, int e)
{
  if (sig == 0)
    return -127;
  int len = 64 - mxkc_clz64 (sig);
  int top = len - 1 + e;                              /* floor(log2 v) before rounding */
  int q = top >= -126 ? top - 23 : -149;              /* FP32 quantum exponent */
  int sh = q - e;
  uint64_t m = mxkc__rne_shr (sig, sh);
  if (m == 0)
    return -127;
  /* m * 2^q; ceil(log2) is floor(log2) unless m is not a power of two */
  int ml = 64 - mxkc_clz64 (m);
  return ml - 1 + q + ((m & (m - 1)) != 0);
}

/* The unclamped shared exponent the rule picks for a block's largest magnitude amax (FP32 bits
 * without sign, finite, nonzero): floor(log2 amax) - emax (MX_SCALE_FLOOR), or
 * ceil(log2(fl32(amax * fl32(1/max)))) (MX_SCALE_RCEIL_FP32). */
MXKC_FN int
mxkc_scale_exp (uint32_t amax, const mxkc_fmt *f, mx_scale_rule rule)
{
  uint32_t e = amax >> 23;
  if (rule == MX_SCALE_RCEIL_FP32)
    {
      uint64_t a = e ? (amax & 0x7FFFFFu) | 0x800000u : amax;
      return mxkc__ceil_log2_fl32 (a * f->rcp_sig, (e ? (int) e : 1) - 150 + f->rcp_exp);
    }
  int ea = e ? (int) e - 127 : (31 - mxkc_clz32 (amax)) - 149;
  return ea - f->emax;
}

/* A block's scale code from its largest magnitude amax (FP32 bits without sign): 0xFF (NaN) for
 * NaN or Inf in the block or a shared exponent above 127, where every code is 0; else the
 * exponent clamped to -127..127, which goes to *x. */
MXKC_FN uint8_t
mxkc_block_scale (uint32_t amax, const mxkc_fmt *f, mx_scale_rule rule, int *x)
{
  *x = 0;
  if (amax >= 0x7F800000u)
    return 0xFF;
  int e = amax == 0 ? -127 : mxkc_scale_exp (amax, f, rule);
  if (e > 127)
    return 0xFF;
  *x = e < -127 ? -127 : e;
  return (uint8_t) (*x + 127);
}

/* sr: up one quantum iff the discarded fraction's top R bits plus the random word reach 2^R
 * (libmxgold's trunc(|x| + r 2^-R q) with sr-frac trunc).  M: the significand; sh >= 1: its bits
 * below the quantum. */
MXKC_FN uint32_t
mxkc__sr_inc (uint32_t M, int sh, uint32_t r)
{
  uint32_t fr = sh <= MXKC_SR_BITS ? M << (MXKC_SR_BITS - sh)
                : sh - MXKC_SR_BITS >= 32 ? 0 : M >> (sh - MXKC_SR_BITS);
  return ((fr & ((1u << MXKC_SR_BITS) - 1)) + (r & ((1u << MXKC_SR_BITS) - 1))) >> MXKC_SR_BITS;
}

/* One element: FP32 bits b (finite) divided by 2^x, rounded by rnd (r: sr's random word),
 * saturated, encoded.  The arithmetic of libmxk's scalar routine (kernels/cpu/src/common.c),
 * restated on this header's format record so that nvcc compiles it for the device; each copy is
 * checked against libmxgold on its own. */
MXKC_FN uint8_t
mxkc_quant_elem (uint32_t b, int x, const mxkc_fmt *f, mx_rounding rnd, uint32_t r)
{
  uint32_t s = b >> 31, e = (b >> 23) & 0xFF, m = b & 0x7FFFFF;
  if (e == 0 && m == 0)
    return (uint8_t) (s && !f->is_int ? f->signbit : 0);
  uint32_t M = e ? (m | 0x800000u) : m;
  int ep = e ? (int) e : 1;
  int lz = e ? 0 : mxkc_clz32 (M) - 8;
  int et = 23 - lz + ep - 150 - x;                    /* floor(log2 |b| / 2^x) */
  int q = f->is_int ? -f->mbits : (et > f->emin ? et : f->emin) - f->mbits;
  int sh = q - (ep - 150 - x);                        /* >= 1: |b| has 24 bits, the element fewer */
  uint32_t n = sh >= 32 ? 0 : M >> sh;
  uint32_t rb = sh - 1 >= 32 ? 0 : (M >> (sh - 1)) & 1;
  uint32_t st = sh - 1 >= 32 ? M != 0 : (M & ((1u << (sh - 1)) - 1)) != 0;
  uint32_t inc;
  switch (rnd)
    {
    case MX_RNA: inc = rb; break;
    case MX_RTZ: inc = 0; break;
    case MX_RUP: inc = (rb | st) & !s; break;
    case MX_RDN: inc = (rb | st) & s; break;
    case MX_SR: inc = mxkc__sr_inc (M, sh, r); break;
    default: inc = rb & (st | (n & 1)); break;
    }
  uint32_t nr = n + inc, mag;
  if (f->is_int || et < f->emin)
    mag = nr;
  else
    mag = ((uint32_t) (et + f->bias) << f->mbits) + nr - (1u << f->mbits);
  if (mag > f->maxmag)
    mag = f->maxmag;                                  /* saturate (OCP) */
  if (f->is_int)
    return (uint8_t) (s ? 0u - mag : mag);
  return (uint8_t) (mag | (s ? f->signbit : 0));
}

/* The magic-add route's fast range, as libmxk's SIMD paths (kernels/cpu/src/internal.h): blocks
 * whose amax bits lie in [lo, MXKC_FAST_HI), lo 2^-80 (sr: 2^-64), so that the scale exponent
 * is at least -80 - emax (sr: -64 - emax) and at most 127. */
#define MXKC_FAST_LO (47u << 23)
#define MXKC_FAST_LO_SR (63u << 23)
#define MXKC_FAST_HI 0x7F000000u

MXKC_FN int
mxkc_fast_amax (uint32_t amax, mx_rounding rnd)
{
  uint32_t lo = rnd == MX_SR ? MXKC_FAST_LO_SR : MXKC_FAST_LO;
  return amax - lo < MXKC_FAST_HI - lo;
}

/* t + m rounded to nearest even (mode 0), toward zero (1) or up (2), for t a normal FP32 >= 0
 * (or +0) and m = 2^k > t, as bits.  On the device the IEEE add itself (__fadd_rn/rz/ru: no
 * FP32 subnormal is an operand or a result); on the host its integer model: the sum is m plus
 * t rounded to m's ulp 2^(k-23), that count added to m's bits (a carry to 2^23 ulps is 2m). */
MXKC_FN uint32_t
mxkc__fadd_pow2 (uint32_t t, uint32_t m, int mode)
{
#ifdef __CUDA_ARCH__
  float a = __uint_as_float (t), b = __uint_as_float (m);
  return __float_as_uint (mode == 0 ? __fadd_rn (a, b) : mode == 1 ? __fadd_rz (a, b) : __fadd_ru (a, b));
#else
  if (t == 0)
    return m;
  uint32_t T = (t & 0x7FFFFFu) | 0x800000u;
  int sh = (int) (m >> 23) - (int) (t >> 23);           /* >= 1: t < m */
  uint32_t q = sh >= 32 ? 0 : T >> sh;
  uint32_t rem = sh >= 32 ? T : T & ((1u << sh) - 1), half = sh >= 33 ? 0 : 1u << (sh - 1);
  if (mode == 0)
    q += sh <= 32 && (rem > half || (rem == half && (q & 1)));
  else if (mode == 2)
    q += rem != 0;
  return m + q;
#endif
}

/* One element by the magic-add route of libmxk's SIMD paths (kernels/cpu/src/mxk_avx512.c,
 * lanes_magic): bit for bit mxkc_quant_elem for a finite b of a block in the fast range
 * (mxkc_fast_amax) under its scale exponent x, in fewer instructions.  t = |b| / 2^x
 * by subtracting x from the exponent field, clamped to 2^-126 (zeros, FP32 subnormals and
 * anything below 2^(x-126) are below 2^-26 element units there: rne, rtz, rna and sr give 0,
 * rup and rdn see a nonzero; their zeros stay 0).  One add of the magic 2^(E'+23-mbits),
 * E' = max(exponent of t, emin), rounds t at the element quantum 2^(E'-mbits), and the sum's
 * bits less (the magic less the code's exponent part) are the code: rne by a nearest-even add,
 * rtz toward zero, rup and rdn up or toward zero by the sign.  rna: the magic one binade lower
 * and truncating, counting h half quanta, and floor(t/q + 1/2) = (h + 1) >> 1.  sr: 16 binades
 * lower, so the count is floor(t/q 2^16), to which the random word adds before the shift.
 * INT8: t 2^6 rounded at 1 by the magic 1.5 2^23 (rna: 1.5 2^22; sr: 128, ulp 2^-16). */
MXKC_FN uint8_t
mxkc_quant_elem_fast (uint32_t b, int x, const mxkc_fmt *f, mx_rounding rnd, uint32_t r)
{
  uint32_t u = b & 0x7FFFFFFFu, s = b >> 31;
  int half = rnd == MX_RNA, sr = rnd == MX_SR ? MXKC_SR_BITS : 0;
  int ti = (int) u - (int) ((uint32_t) (f->is_int ? x - 6 : x) << 23);
  ti = ti > 0x800000 ? ti : 0x800000;
  if ((rnd == MX_RUP || rnd == MX_RDN) && u == 0)
    ti = 0;
  uint32_t magic, off;
  if (f->is_int)
    {
      magic = sr ? 0x43000000u : half ? 0x4AC00000u : 0x4B400000u;
      off = magic - (uint32_t) half;
    }
  else
    {
      int eb = ti >> 23 > f->emin + 127 ? ti >> 23 : f->emin + 127;   /* E' + 127 */
      magic = (uint32_t) (eb + 23 - f->mbits - half - sr) << 23;
      uint32_t expo = (uint32_t) (eb - 128 + f->bias) << f->mbits;
      off = half ? magic - 1 - 2 * expo : magic - (expo << sr);
    }
  int mode = rnd == MX_RNE ? 0 : (rnd == MX_RUP && !s) || (rnd == MX_RDN && s) ? 2 : 1;
  uint32_t code = mxkc__fadd_pow2 ((uint32_t) ti, magic, mode) - off;
  if (sr)
    code = (code + (r & ((1u << MXKC_SR_BITS) - 1))) >> MXKC_SR_BITS;
  if (half)
    code >>= 1;
  uint32_t mag = code < f->maxmag ? code : f->maxmag;
  if (f->is_int)
    return (uint8_t) (s ? 0u - mag : mag);
  return (uint8_t) (mag | (s ? f->signbit : 0));
}

/* An element code's exact value: 1 for a finite one, *neg, *sig and *e set (value sig * 2^e);
 * 0 for NaN (*sig 1) and Inf (*sig 0) codes. */
MXKC_FN int
mxkc_decode (uint8_t code, const mxkc_fmt *f, uint32_t *neg, uint32_t *sig, int *e)
{
  if (f->is_int)
    {
      int v = (int) (int8_t) code;
      *neg = v < 0, *sig = (uint32_t) (v < 0 ? -v : v), *e = -f->mbits;
      return 1;
    }
  uint32_t mag = code & (f->signbit - 1), be = mag >> f->mbits, m = mag & ((1u << f->mbits) - 1);
  *neg = (code & f->signbit) != 0;
  uint32_t etop = (f->signbit - 1) >> f->mbits;
  if ((f->is_fn && mag == f->signbit - 1) || (f->is_ieee && be == etop))
    {
      *sig = f->is_ieee && m == 0 ? 0 : 1, *e = 0;
      return 0;
    }
  *sig = be ? m | (1u << f->mbits) : m;
  *e = (int) (be ? be : 1) - f->bias - f->mbits;
  return 1;
}

/* (-1)^neg * sig * 2^e rounded once (RNE) to an IEEE format with 8 exponent bits and mb
 * fraction bits (FP32: 23, BF16: 7), overflow to Inf; its bit pattern. */
MXKC_FN uint32_t
mxkc_round_e8 (uint32_t neg, uint64_t sig, int e, int mb)
{
  uint32_t s = neg << (mb + 8);
  if (sig == 0)
    return s;
  int top = 63 - mxkc_clz64 (sig) + e;
  int q = (top >= -126 ? top : -126) - mb;            /* quantum exponent */
  int sh = q - e;
  uint64_t m = mxkc__rne_shr (sig, sh);
  if (top > 127 + 1)
    return s | (0xFFu << mb);
  /* normal: biased exponent above the implicit bit, the carry of m = 2^(mb+1) moving it on;
   * subnormal: m itself (m = 2^mb is the least normal) */
  uint64_t bits = top >= -126 ? ((uint64_t) (top + 127) << mb) + m - ((uint64_t) 1 << mb) : m;
  if (bits >= ((uint64_t) 0xFF << mb))
    bits = (uint64_t) 0xFF << mb;                     /* overflow: Inf */
  return s | (uint32_t) bits;
}

/* Dequantize one element: code under scale (E8M0) to FP32 (bf16 0) or BF16 (bf16 1) bits,
 * X * P rounded once (RNE); a NaN scale gives the quiet NaN 0x7FC00000 (BF16 0x7FC0), a NaN
 * code sign | quiet NaN, an Inf code (E5M2) the signed infinity. */
MXKC_FN uint32_t
mxkc_dequant_elem (uint8_t code, uint8_t scale, const mxkc_fmt *f, int bf16)
{
  int mb = bf16 ? 7 : 23;
  uint32_t neg, sig;
  int e;
  if (scale == 0xFF)
    return bf16 ? 0x7FC0u : 0x7FC00000u;
  if (!mxkc_decode (code, f, &neg, &sig, &e))
    return (neg << (mb + 8)) | (sig ? (0x1FFu << (mb - 1)) : (0xFFu << mb));
  return mxkc_round_e8 (neg, sig, e + (int) scale - 127, mb);
}

/* FP32 bits <-> float, without a conversion. */
MXKC_FN float
mxkc_u2f (uint32_t u)
{
#ifdef __CUDA_ARCH__
  return __uint_as_float (u);
#else
  float f;
  memcpy (&f, &u, 4);
  return f;
#endif
}

MXKC_FN uint32_t
mxkc_f2u (float f)
{
#ifdef __CUDA_ARCH__
  return __float_as_uint (f);
#else
  uint32_t u;
  memcpy (&u, &f, 4);
  return u;
#endif
}

/* A code's exact value as FP32 bits (every element value of these formats is an FP32 number):
 * what the dequantize kernels keep in a table of 2^bits entries.  NaN codes give sign | quiet
 * NaN, Inf codes the signed infinity. */
MXKC_FN uint32_t
mxkc_decode_f32 (uint8_t code, const mxkc_fmt *f)
{
  uint32_t neg, sig;
  int e;
  if (!mxkc_decode (code, f, &neg, &sig, &e))
    return (neg << 31) | (sig ? 0x7FC00000u : 0x7F800000u);
  return mxkc_round_e8 (neg, sig, e, 23);
}

/* v * 2^(scale - 127) rounded once (RNE) to FP32, for v an element value (FP32 bits from
 * mxkc_decode_f32): two IEEE multiplies, by 2^max(k, -126) (exact: every element value's lsb is
 * at least 2^-16, so the product's is at least 2^-142) and then by 2^-1 when k = -127 -- so no
 * double rounding, and an FP32 subnormal only where the result is one.  A NaN scale gives the
 * quiet NaN; a NaN element gives itself, unmultiplied (a GPU multiply would drop its sign).
 * Device: __fmul_rn (never contracted or flushed); host: C float multiplies (SSE,
 * -ffp-contract=off).  Bit for bit mxkc_dequant_elem's integer rounding (tested). */
MXKC_FN uint32_t
mxkc_scale_f32 (uint32_t v, uint8_t scale)
{
  if (scale == 0xFF)
    return 0x7FC00000u;
  if ((v & 0x7FFFFFFFu) > 0x7F800000u)
    return v;                           /* the element's NaN, its sign kept: not multiplied */
  int k = (int) scale - 127;
  float s1 = mxkc_u2f ((uint32_t) ((k < -126 ? -126 : k) + 127) << 23);
  float s2 = mxkc_u2f (k < -126 ? 0x3F000000u : 0x3F800000u);
#ifdef __CUDA_ARCH__
  return __float_as_uint (__fmul_rn (__fmul_rn (__uint_as_float (v), s1), s2));
#else
  uint32_t r = mxkc_f2u (mxkc_u2f (v) * s1 * s2);
  /* a GPU multiply returns its one NaN, 0x7FFFFFFF, whatever the operand's sign and payload
   * (PTX ISA "mul"; seen on an H200): the host run of this code must see the same */
  return (r & 0x7FFFFFFFu) > 0x7F800000u ? 0x7FFFFFFFu : r;
#endif
}

/* FP32 bits to BF16 bits, RNE; NaN stays a quiet NaN with its sign. */
MXKC_FN uint32_t
mxkc_bf16_of (uint32_t f32)
{
  if ((f32 & 0x7FFFFFFFu) > 0x7F800000u)
    return (f32 >> 16) | 0x40;
  return (f32 + 0x7FFFu + ((f32 >> 16) & 1)) >> 16;
}

/* Packed bytes of a block of 32 codes: 32, 16 (fp4-lo-first) or 24 (fp6-3byte); 0 for a
 * packing libmxk_cuda does not write. */
MXKC_FN int
mxkc_packed_block_bytes (mx_packing p)
{
  return p == MX_PACKING_UNPACKED ? 32 : p == MX_PACKING_FP4_LO_FIRST ? 16
         : p == MX_PACKING_FP6_3BYTE ? 24 : 0;
}

/* Four consecutive codes c0..c3 packed as a little-endian word: 4 bytes unpacked (code i in
 * byte i), 2 bytes fp4-lo-first (c0 in bits 3:0 of the first byte, c1 in 7:4, ...), 3 bytes
 * fp6-3byte (c0 in bits 5:0, c1 in 11:6, ...). */
MXKC_FN uint32_t
mxkc_pack4 (uint32_t c0, uint32_t c1, uint32_t c2, uint32_t c3, mx_packing p)
{
  if (p == MX_PACKING_FP4_LO_FIRST)
    return (c0 & 0xF) | (c1 & 0xF) << 4 | (c2 & 0xF) << 8 | (c3 & 0xF) << 12;
  if (p == MX_PACKING_FP6_3BYTE)
    return (c0 & 63) | (c1 & 63) << 6 | (c2 & 63) << 12 | (c3 & 63) << 18;
  return (c0 & 0xFF) | (c1 & 0xFF) << 8 | (c2 & 0xFF) << 16 | (c3 & 0xFF) << 24;
}

/* Code i (0..3) of a word written by mxkc_pack4. */
MXKC_FN uint8_t
mxkc_unpack4 (uint32_t w, int i, mx_packing p)
{
  if (p == MX_PACKING_FP4_LO_FIRST)
    return (uint8_t) ((w >> (4 * i)) & 0xF);
  if (p == MX_PACKING_FP6_3BYTE)
    return (uint8_t) ((w >> (6 * i)) & 63);
  return (uint8_t) (w >> (8 * i));
}

/* The swizzled scale layout of cuBLASLt's VEC32_UE8M0 and CUTLASS's block-scaled GEMMs (cuBLAS
 * guide, "1D Block Scaling Factors Layout"): a rows x ncols scale matrix (ncols = K/32) is cut
 * into tiles of 128 rows x 4 columns, 512 bytes each, stored tile row by tile row (the column
 * tile fastest); inside a tile, scale (r, c) is at (r % 32) * 16 + (r / 32 % 4) * 4 + c % 4.
 * Rows are padded to a multiple of 128 and columns to a multiple of 4 (padding bytes 0). */
MXKC_FN size_t
mxkc_swizzle_offset (size_t r, size_t c, size_t ncols)
{
  size_t ctiles = (ncols + 3) / 4;
  return ((r / 128) * ctiles + c / 4) * 512 + (r % 32) * 16 + (r / 32 % 4) * 4 + c % 4;
}

/* Bytes of a rows x ncols scale matrix in the swizzled layout, padding included. */
MXKC_FN size_t
mxkc_swizzled_bytes (size_t rows, size_t ncols)
{
  return (rows + 127) / 128 * 128 * ((ncols + 3) / 4 * 4);
}
#endif
