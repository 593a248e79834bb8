/* mxk_avx2.c -- AVX2 (+F16C) path: 8 lanes per vector, four vectors per block.  Quantize takes
 * mxk_avx512.c's exact route for every rounding (a magic add, or vroundps, at the element
 * quantum); blocks off its range take the scalar routine; dequantize and dot decode a block's
 * codes through FP16.  Compiled with -mavx2 -mf16c (x86-64 only).
 * SPDX-License-Identifier: MIT */
#include "internal.h"
#if defined(__AVX2__) && defined(__F16C__)
#include <immintrin.h>
#include "pack_sse.h"

#define S1(x) _mm256_set1_epi32 (x)

/* Every rounding: mxk_avx512.c's route (see there): t = |b| / 2^x by exponent subtraction, then
 * the element rounding at the quantum q = 2^(E'-mbits), E' = max(exponent of t, emin), with the
 * E'-dependent terms computed rather than looked up.  AVX2 has no embedded rounding, and the
 * MXCSR is the caller's, so:
 *  - rne: one FP32 add of the magic 2^(E'+23-mbits), which rounds to nearest-even at exactly
 *    the quantum; the sum's bits less the magic's count quanta.
 *  - rtz, rna, sr: y = t * 2^k / q, exact and normal (t >= 2^-103), truncated to an integer by
 *    vcvttps2dq, which ignores the MXCSR: k = 0 gives rtz's count; k = 1 the half quanta
 *    h = floor(2t/q), and rna's count is floor(t/q + 1/2) = (h + 1) >> 1; k = 16 (sr) the count
 *    above bit 16 and the discarded fraction's top 16 bits below, and adding the random word
 *    carries into the count exactly when libmxgold's sr (R = 16) rounds up.  (INT8: y = t * 2^k.)
 *  - rup, rdn: y = t / q formed by exponent arithmetic with the sign of b and rounded up by
 *    vroundps's own mode (not the MXCSR's): a positive lane's magnitude goes up, a negative
 *    one's is truncated; the integer's sign is then removed by b's, which also sends +0 to 0
 *    (its t is the clamp below: y is tiny, and rounds up to 1).  rdn is rup of -b, with the
 *    code's sign taken from b: b is flipped once, on entry, and -0 then goes to 0 likewise.
 * Lanes whose t is not a normal FP32 (the subtraction went negative, or left a subnormal: an
 * exponent field equal to x) are clamped to 2^-103, far below 2^-16 of every quantum; every
 * lane the subtraction cannot represent is below 2^-26 in element units, so rne, rtz, rna and
 * sr round it to 0 and rup and rdn see it as nonzero.  No FP32 subnormal is an operand or a
 * result. */
typedef struct
{
  __m256i absm, expm, eminb, cmag, c2, xoff, signbit, maxmag, magicb, m23, tiny, sck, sign, fastlo;
  __m256 magic, rcp, yc, ycn, ik;
  int sh, is_int, rceil;
  mx_rounding rnd;
} magk;

static inline magk
magic_consts (const mxk_fmt *f, mx_scale_rule rule, mx_rounding rnd, int is_int)
{
  magk k;
  k.absm = S1 (0x7FFFFFFF), k.expm = S1 (0x7F800000), k.m23 = S1 (0x7FFFFF);
  k.eminb = S1 ((f->emin + 127) << 23);
  int half = rnd == MX_RNA; /* rna counts half quanta */
  k.cmag = S1 ((23 - f->mbits) << 23);
  /* the code's exponent part (E'+bias-1) << mbits = (g >> sh) - c2 (rna: twice that, plus the
   * 1 of (h + 1) >> 1) */
  k.c2 = S1 (half ? 2 * ((128 - f->bias) << f->mbits) - 1 : (128 - f->bias) << f->mbits);
  k.rceil = rule == MX_SCALE_RCEIL_FP32;
  k.xoff = S1 (k.rceil ? 127 << 23 : (127 + f->emax) << 23);
  k.signbit = S1 ((int) f->signbit);
  k.maxmag = S1 ((int) f->maxmag);
  k.magic = _mm256_set1_ps (12582912.0f); /* 1.5 * 2^23 */
  k.magicb = S1 ((int) mxk__f2u (12582912.0f));
  k.rcp = _mm256_set1_ps (f->rcp_max);
  /* the clamp of t, 2^-103, far below 2^-16 of every format's smallest quantum */
  k.tiny = S1 (24 << 23);
  k.fastlo = S1 ((int) MXK_FAST_LO);
  /* rtz, rna, sr: 2^(mbits - E' + kk) = 2^kk / q, from g = (E' + 127) << 23 (unsigned: 257 << 23
   * overflows an int); INT8: 2^kk */
  int kk = rnd == MX_SR ? MXK_SR_BITS : half;
  k.sck = S1 ((int) ((uint32_t) (254 + f->mbits + kk) << 23));
  k.ik = _mm256_set1_ps ((float) (1 << kk));
  k.sign = S1 ((int) 0x80000000u);
  /* rup, rdn: (127 + mbits) << 23, without and with the sign bit (INT8: t is y already) */
  k.yc = _mm256_castsi256_ps (S1 (f->is_int ? 0 : (127 + f->mbits) << 23));
  k.ycn = _mm256_castsi256_ps (S1 ((int) ((uint32_t) (f->is_int ? 0 : (127 + f->mbits) << 23) | 0x80000000u)));
  k.sh = 23 - f->mbits - half;
  k.is_int = is_int; /* f->is_int, a constant in each copy of the loop */
  k.rnd = rnd;
  return k;
}

/* 8 lanes: b the FP32 bits, xs = x << 23 (INT8: (x - 6) << 23), r the random words of sr ->
 * 8 codes in 32-bit lanes. */
static inline __attribute__ ((always_inline)) __m256i
lanes_magic (__m256i b, __m256i xs, __m256i r, const magk *k)
{
  /* t at least 2^-103, under every rounding: an input whose exponent field equals x would
   * leave an FP32-subnormal t (a subnormal operand: a microcode assist on Intel cores), and
   * 2^-103 lies far below 2^-16 of every format's least quantum (E5M2: 2^-32), so such a lane
   * rounds to 0 under rne, rna, rtz and sr (any random word), as its true t does; rup and rdn
   * see it as nonzero, as they must.  Zeros get it too: the sign step of rup and rdn sends them
   * back to 0, and for the others it rounds to 0 */
  __m256i u = _mm256_and_si256 (b, k->absm);
  __m256i t = _mm256_max_epi32 (_mm256_sub_epi32 (u, xs), k->tiny);
  __m256 tf = _mm256_castsi256_ps (t);
  __m256i g = _mm256_max_epi32 (_mm256_and_si256 (t, k->expm), k->eminb), q;
  if (k->rnd == MX_RTZ || k->rnd == MX_RNA || k->rnd == MX_SR)
    {
      /* floor(t * 2^kk / q): rtz's count, rna's half quanta, sr's count and fraction */
      __m256 y = _mm256_mul_ps (tf, k->is_int ? k->ik : _mm256_castsi256_ps (_mm256_sub_epi32 (k->sck, g)));
      q = _mm256_cvttps_epi32 (y);
      if (k->rnd == MX_SR)
        q = _mm256_srli_epi32 (_mm256_add_epi32 (q, r), MXK_SR_BITS);
      if (k->is_int && k->rnd == MX_RNA)
        q = _mm256_srli_epi32 (_mm256_sub_epi32 (q, _mm256_cmpeq_epi32 (q, q)), 1);
      if (k->is_int)
        return _mm256_sign_epi32 (_mm256_min_epi32 (q, k->maxmag), b);
    }
  else if (k->rnd == MX_RUP || k->rnd == MX_RDN)
    {
      /* t >= 2^-103, so y's exponent field is t's less E' - mbits, its sign b's:
       * t - g + ((127 + mbits) << 23 | sign), the last term one blend */
      __m256 cs = _mm256_blendv_ps (k->yc, k->ycn, _mm256_castsi256_ps (b));
      __m256i ys = _mm256_add_epi32 (_mm256_sub_epi32 (t, k->is_int ? _mm256_setzero_si256 () : g), _mm256_castps_si256 (cs));
      if (k->rnd == MX_RUP)
        q = _mm256_cvttps_epi32 (_mm256_round_ps (_mm256_castsi256_ps (ys), _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC));
      else
        q = _mm256_cvttps_epi32 (_mm256_round_ps (_mm256_castsi256_ps (ys), _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC));
      if (k->is_int)
        {
          /* q is the signed code already (|q| <= 128, as y < 128: the saturation is of 128
           * alone), but for the zero whose tiny t rounds away from 0 (rup +0, rdn -0): u is 0
           * there and positive elsewhere */
          q = k->rnd == MX_RUP ? _mm256_min_epi32 (q, k->maxmag) : _mm256_max_epi32 (q, _mm256_sub_epi32 (_mm256_setzero_si256 (), k->maxmag));
          return _mm256_sign_epi32 (q, u);
        }
      q = _mm256_sign_epi32 (q, b); /* the magnitude; rup: +0 to 0 (rdn: -0 gives 1, see below) */
    }
  else if (k->is_int)
    {
      __m256 sum = _mm256_add_ps (tf, k->magic);
      __m256i mag = _mm256_sub_epi32 (_mm256_castps_si256 (sum), k->magicb);
      return _mm256_sign_epi32 (_mm256_min_epi32 (mag, k->maxmag), b); /* b == +0 only where mag is 0 */
    }
  else
    {
      __m256i magic = _mm256_add_epi32 (g, k->cmag);
      __m256 sum = _mm256_add_ps (tf, _mm256_castsi256_ps (magic));
      q = _mm256_sub_epi32 (_mm256_castps_si256 (sum), magic);
    }
  __m256i code = _mm256_add_epi32 (q, _mm256_sub_epi32 (_mm256_srli_epi32 (g, k->sh), k->c2));
  if (k->rnd == MX_RNA)
    code = _mm256_srli_epi32 (code, 1);
  /* saturation; rdn: also -0's 1 to 0, as u is 0 there and at least every other lane's
   * magnitude elsewhere (1 for an FP32 subnormal, whose t is the clamp) */
  code = _mm256_min_epu32 (code, k->rnd == MX_RDN ? _mm256_min_epu32 (k->maxmag, u) : k->maxmag);
  return _mm256_castps_si256 (_mm256_blendv_ps (_mm256_castsi256_ps (code), _mm256_castsi256_ps (_mm256_or_si256 (code, k->signbit)),
                                                _mm256_castsi256_ps (b)));
}


/* Block blk's 32 inputs as FP32 bits in b0..b3 (BF16 widened), with a prefetch MXK_PREFETCH
 * elements ahead.  Four variables, not an array: GCC kept an array of vectors on the stack,
 * each block's inputs stored there and loaded back. */
static inline __attribute__ ((always_inline)) void
load_block (__m256i *b0, __m256i *b1, __m256i *b2, __m256i *b3, const void *in, mx_format_id in_fmt,
            size_t blk)
{
  if (in_fmt == MX_BF16)
    {
      const uint16_t *p = (const uint16_t *) in + blk * MX_BLOCK;
      _mm_prefetch ((const char *) (p + MXK_PREFETCH), _MM_HINT_T0);
      *b0 = _mm256_slli_epi32 (_mm256_cvtepu16_epi32 (_mm_loadu_si128 ((const void *) p)), 16);
      *b1 = _mm256_slli_epi32 (_mm256_cvtepu16_epi32 (_mm_loadu_si128 ((const void *) (p + 8))), 16);
      *b2 = _mm256_slli_epi32 (_mm256_cvtepu16_epi32 (_mm_loadu_si128 ((const void *) (p + 16))), 16);
      *b3 = _mm256_slli_epi32 (_mm256_cvtepu16_epi32 (_mm_loadu_si128 ((const void *) (p + 24))), 16);
    }
  else
    {
      const uint32_t *p = (const uint32_t *) in + blk * MX_BLOCK;
      _mm_prefetch ((const char *) (p + MXK_PREFETCH), _MM_HINT_T0);
      _mm_prefetch ((const char *) (p + MXK_PREFETCH + 16), _MM_HINT_T0);
      *b0 = _mm256_loadu_si256 ((const void *) p), *b1 = _mm256_loadu_si256 ((const void *) (p + 8));
      *b2 = _mm256_loadu_si256 ((const void *) (p + 16)), *b3 = _mm256_loadu_si256 ((const void *) (p + 24));
    }
}

/* Block blk's largest magnitude (returned) and its x << 23 in every lane of *xs. */
static inline __attribute__ ((always_inline)) uint32_t
block_xs (__m256i *xs, const void *in, mx_format_id in_fmt, size_t blk, const magk *k)
{
  __m256i b0, b1, b2, b3;
  load_block (&b0, &b1, &b2, &b3, in, in_fmt, blk);
  __m256i m = _mm256_max_epu32 (_mm256_max_epu32 (_mm256_and_si256 (b0, k->absm), _mm256_and_si256 (b1, k->absm)),
                                _mm256_max_epu32 (_mm256_and_si256 (b2, k->absm), _mm256_and_si256 (b3, k->absm)));
  m = _mm256_max_epu32 (m, _mm256_permute2x128_si256 (m, m, 1));
  m = _mm256_max_epu32 (m, _mm256_shuffle_epi32 (m, 0x4E));
  m = _mm256_max_epu32 (m, _mm256_shuffle_epi32 (m, 0xB1));
  if (k->rceil)
    {
      /* cvt.rp.ue8m0(fl32(amax * fl32(1/max))): the product is normal on the fast path; a
       * block off it (zero, FP32 subnormals, tiny) is scaled by the scalar routine, and its
       * amax is raised to the fast path's least here, so that the multiply never sees nor
       * makes an FP32 subnormal */
      __m256i p = _mm256_castps_si256 (_mm256_mul_ps (_mm256_castsi256_ps (_mm256_max_epu32 (m, k->fastlo)), k->rcp));
      __m256i exact = _mm256_cmpeq_epi32 (_mm256_and_si256 (p, k->m23), _mm256_setzero_si256 ());
      *xs = _mm256_add_epi32 (_mm256_sub_epi32 (_mm256_and_si256 (p, k->expm), k->xoff), _mm256_andnot_si256 (exact, S1 (1 << 23)));
    }
  else
    *xs = _mm256_sub_epi32 (_mm256_and_si256 (m, k->expm), k->xoff);
  return (uint32_t) _mm_cvtsi128_si32 (_mm256_castsi256_si128 (m));
}

/* four vectors of 8 code lanes -> 32 bytes in lane order */
static inline __m256i
pack32 (__m256i v0, __m256i v1, __m256i v2, __m256i v3)
{
  __m256i p = _mm256_packus_epi16 (_mm256_packus_epi32 (v0, v1), _mm256_packus_epi32 (v2, v3));
  return _mm256_permutevar8x32_epi32 (p, _mm256_setr_epi32 (0, 4, 1, 5, 2, 6, 3, 7));
}

/* the same for signed codes in -127..127 (INT8) */
static inline __m256i
pack32s (__m256i v0, __m256i v1, __m256i v2, __m256i v3)
{
  __m256i p = _mm256_packs_epi16 (_mm256_packs_epi32 (v0, v1), _mm256_packs_epi32 (v2, v3));
  return _mm256_permutevar8x32_epi32 (p, _mm256_setr_epi32 (0, 4, 1, 5, 2, 6, 3, 7));
}

/* One block's 32 codes q (in element order) to the output: unpacked, or packed */
static inline __attribute__ ((always_inline)) void
put_codes (uint8_t *codes, size_t blk, __m256i q, mx_packing packing)
{
  if (packing != MX_PACKING_UNPACKED)
    mxk__pack_v (codes + blk * mxk__packed_block_bytes (packing), _mm256_castsi256_si128 (q),
                 _mm256_extracti128_si256 (q, 1), packing);
  else
    _mm256_storeu_si256 ((void *) (codes + blk * MX_BLOCK), q);
}

/* Quantize, software-pipelined: the next block's maximum and scale exponent (a long dependency
 * chain) are computed before the current block's lanes, which reload their inputs. */
static inline __attribute__ ((always_inline)) void
quantize_fast (uint8_t *scales, uint8_t *codes, const void *in, mx_format_id in_fmt, size_t nb,
               const mxk_fmt *f, mx_scale_rule rule, mx_rounding rnd, const uint16_t *rbits,
               mx_packing packing, int is_int)
{
  const magk k = magic_consts (f, rule, rnd, is_int);
  const __m256i six = S1 (k.is_int ? 6 << 23 : 0);
  __m256i xs = _mm256_setzero_si256 ();
  uint32_t amax = nb ? block_xs (&xs, in, in_fmt, 0, &k) : 0;
  for (size_t blk = 0; blk < nb; blk++)
    {
      __m256i xs_next = _mm256_setzero_si256 ();
      uint32_t amax_next = blk + 1 < nb ? block_xs (&xs_next, in, in_fmt, blk + 1, &k) : 0;
      __m256i b0, b1, b2, b3;
      load_block (&b0, &b1, &b2, &b3, in, in_fmt, blk);
      const uint16_t *rb = rnd == MX_SR ? rbits + blk * MX_BLOCK : NULL;
      if (__builtin_expect (amax == 0, 0))
        {
          /* all zeros (+0 and -0): the scale byte 0 (X = -127, as the scalar routine gives it),
           * every code 0 but a -0's, which is signed (INT8: 0); by the scalar routine such a
           * block took 294 ns against 13.7 (Intel Xeon EMR, E4M3, in cache) */
          __m256i q = _mm256_setzero_si256 ();
          if (!k.is_int)
            q = pack32 (_mm256_and_si256 (_mm256_srai_epi32 (b0, 31), k.signbit),
                        _mm256_and_si256 (_mm256_srai_epi32 (b1, 31), k.signbit),
                        _mm256_and_si256 (_mm256_srai_epi32 (b2, 31), k.signbit),
                        _mm256_and_si256 (_mm256_srai_epi32 (b3, 31), k.signbit));
          put_codes (codes, blk, q, packing);
          scales[blk] = 0;
        }
      else if (__builtin_expect (!mxk__fast_amax (amax, rnd), 0))
        {
          uint32_t bb[MX_BLOCK]; /* tiny, huge, NaN or Inf: the scalar routine */
          uint8_t c[MX_BLOCK];
          _mm256_storeu_si256 ((void *) bb, b0), _mm256_storeu_si256 ((void *) (bb + 8), b1);
          _mm256_storeu_si256 ((void *) (bb + 16), b2), _mm256_storeu_si256 ((void *) (bb + 24), b3);
          scales[blk] = mxk__quant_block (packing == MX_PACKING_UNPACKED ? codes + blk * MX_BLOCK : c, bb, f, rule, rnd, rb);
          if (packing != MX_PACKING_UNPACKED)
            mxk__pack_block (codes + blk * mxk__packed_block_bytes (packing), c, packing);
        }
      else
        {
          int x = _mm_cvtsi128_si32 (_mm256_castsi256_si128 (xs)) >> 23; /* arithmetic */
          __m256i xl = _mm256_sub_epi32 (xs, six), r0, r1, r2, r3;
          if (rnd == MX_SR)
            {
              r0 = _mm256_cvtepu16_epi32 (_mm_loadu_si128 ((const void *) rb));
              r1 = _mm256_cvtepu16_epi32 (_mm_loadu_si128 ((const void *) (rb + 8)));
              r2 = _mm256_cvtepu16_epi32 (_mm_loadu_si128 ((const void *) (rb + 16)));
              r3 = _mm256_cvtepu16_epi32 (_mm_loadu_si128 ((const void *) (rb + 24)));
            }
          else
            r0 = r1 = r2 = r3 = _mm256_setzero_si256 ();
          __m256i c0 = lanes_magic (b0, xl, r0, &k), c1 = lanes_magic (b1, xl, r1, &k);
          __m256i c2 = lanes_magic (b2, xl, r2, &k), c3 = lanes_magic (b3, xl, r3, &k);
          put_codes (codes, blk, k.is_int ? pack32s (c0, c1, c2, c3) : pack32 (c0, c1, c2, c3), packing);
          scales[blk] = (uint8_t) (x + 127);
        }
      xs = xs_next, amax = amax_next;
    }
}

/* one copy per rounding, so its correction is fixed at compile time */
static int
quantize_avx2 (uint8_t *scales, uint8_t *codes, const void *in, mx_format_id in_fmt, size_t n,
                   mx_format_id elem, mx_scale_rule rule, mx_rounding rnd, const uint16_t *rbits,
                   mx_packing packing)
{
  if (mxk__check (in_fmt, n, elem, rule, rnd, rbits, packing))
    return MX_EINVAL;
  const mxk_fmt *f = mxk__fmt (elem);
  size_t nb = n / MX_BLOCK;
  /* one copy per rounding and per kind of element (INT8 or FP), so that both are fixed at
   * compile time: a run-time test of the kind in the block loop let GCC hoist both kinds'
   * lane arithmetic above it, and the register spills cost rup 0.3 ns per block */
  MXK__QUANTIZE_BY_ROUNDING (quantize_fast, f, rnd, rbits, packing,
                             scales, codes, in, in_fmt, nb, f, rule);
  return 0;
}

/* Dequantize by way of FP16 (F16C): a code's magnitude shifted so its mantissa lands on the
 * FP16 mantissa's top bits and its exponent on the exponent field's low bits, its sign on bit
 * 15, is an FP16 whose value is the element's times 2^(bias-15) -- an FP16 subnormal exactly
 * when the element is one, which the conversion to FP32 handles in hardware (FP32 multiplies
 * with subnormal operands are slow).  NaN codes become the FP16 quiet NaN, which converts to the
 * canonical FP32 one; E5M2 is FP16's top byte, Inf included.  Multiplies then scale by
 * 2^T = 2^(15-bias+X): one, when 2^T is a normal FP32, which rounds once; else two, both
 * factors normal, the first exact or, when it is the last, the only rounding.  INT8 is an
 * exact int-to-float conversion and the same multiplies by 2^T = 2^(X-6). */
typedef struct
{
  int is_int, bias;
} dqk;

static inline dqk
dq_consts (const mxk_fmt *f)
{
  dqk k;
  k.is_int = f->is_int, k.bias = f->bias;
  return k;
}

/* 1 if dq32 decodes format f: INT8, or an FP format whose codes fit FP16 (at most 5 exponent
 * bits, bias at most 15) with 1 to 3 mantissa bits */
static inline int
dq_fits (const mxk_fmt *f)
{
  return f->is_int ? f->bits == 8 && f->mbits == 6
                   : f->mbits >= 1 && f->mbits <= 3 && f->bits - 1 - f->mbits <= 5 && f->bias <= 15;
}

/* dq32's kind (sp) of format f */
static inline int
dq_kind (const mxk_fmt *f)
{
  return f->is_int ? 3 : f->is_fn ? 1 : f->is_ieee ? 2 : 0;
}

/* the multipliers of a block with scale exponent X */
static inline void
dq_mults (__m256 *c1, __m256 *c2, int X, const dqk *k)
{
  /* 2^T in two normal factors: the first 2^127 at most (the second then takes the rest) and
   * 2^-126 at least (mxk__pow2f_split): no multiplier is an FP32 subnormal */
  int T = k->is_int ? X - 6 : 15 - k->bias + X;
  float s1, s2;
  if (T > 127)
    s1 = mxk__pow2f (127), s2 = mxk__pow2f (T - 127);
  else
    mxk__pow2f_split (T, &s1, &s2);
  *c1 = _mm256_set1_ps (s1);
  *c2 = _mm256_set1_ps (s2);
}

/* One block's 32 codes c (element order) -> their FP32 values times 2^T in r0..r3, the
 * format fixed at compile time by its width bt, mantissa width mb and kind sp (1: E4M3's NaN
 * S.1111.111 (the magnitude all ones); 2: E5M2's S.11111.xx, xx != 0 (IEEE-style); 3: INT8;
 * 0: no NaN code).  The FP16 pattern above is built a byte at a time on all 32 codes at once:
 * its high byte is the sign or-ed with the magnitude shifted left by 2 - mb, its low byte the
 * magnitude's bit 0 at bit 7 when mb is 3 (else 0); the 16-bit shifts' bits that cross into the
 * next byte are masked off.  The byte
 * unpacks keep each 128-bit lane's codes in its lane, so that the four conversions come out
 * 0-7, 8-15 (from lane 0), 16-23, 24-31 (lane 1), in element order.  nmul: 2, the two
 * multiplies of dq_mults; 1, one by the normal 2^T in c1; 0, none (the values times
 * 2^(bias-15), INT8 the integers: dot's). */
static inline __attribute__ ((always_inline)) void
dq32 (__m256 *r0, __m256 *r1, __m256 *r2, __m256 *r3, __m256i c, __m256 c1, __m256 c2, int nmul,
      int bt, int mb, int sp)
{
  __m256 v0, v1, v2, v3; /* not an array: GCC kept one on the stack */
  if (sp == 3)
    {
      __m128i c0 = _mm256_castsi256_si128 (c), ch = _mm256_extracti128_si256 (c, 1);
      v0 = _mm256_cvtepi32_ps (_mm256_cvtepi8_epi32 (c0));
      v1 = _mm256_cvtepi32_ps (_mm256_cvtepi8_epi32 (_mm_unpackhi_epi64 (c0, c0)));
      v2 = _mm256_cvtepi32_ps (_mm256_cvtepi8_epi32 (ch));
      v3 = _mm256_cvtepi32_ps (_mm256_cvtepi8_epi32 (_mm_unpackhi_epi64 (ch, ch)));
    }
  else
    {
      const int magm = (1 << (bt - 1)) - 1;
      __m256i sgn = _mm256_and_si256 (bt == 8 ? c : _mm256_slli_epi16 (c, 8 - bt), _mm256_set1_epi8 ((char) 0x80));
      __m256i hi, lo = _mm256_setzero_si256 ();
      if (mb == 3)
        {
          hi = _mm256_and_si256 (_mm256_srli_epi16 (c, 1), _mm256_set1_epi8 ((char) (magm >> 1)));
          lo = _mm256_and_si256 (_mm256_slli_epi16 (c, 7), _mm256_set1_epi8 ((char) 0x80));
        }
      else if (mb == 2)
        hi = bt == 8 ? _mm256_andnot_si256 (sgn, c) : _mm256_and_si256 (c, _mm256_set1_epi8 ((char) magm));
      else
        hi = _mm256_and_si256 (_mm256_slli_epi16 (c, 1), _mm256_set1_epi8 ((char) (magm << 1)));
      if (sp == 1 || sp == 2)
        {
          /* NaN codes: the FP16 quiet NaN with the code's sign, 0x7E00 | sign */
          __m256i mag = _mm256_andnot_si256 (sgn, c);
          __m256i isnan = sp == 1 ? _mm256_cmpeq_epi8 (mag, _mm256_set1_epi8 ((char) magm))
                                  : _mm256_cmpgt_epi8 (mag, _mm256_set1_epi8 ((char) (magm >> mb << mb)));
          hi = _mm256_blendv_epi8 (hi, _mm256_set1_epi8 (0x7E), isnan);
          if (mb == 3)
            lo = _mm256_andnot_si256 (isnan, lo);
        }
      hi = _mm256_or_si256 (hi, sgn);
      __m256i w0 = _mm256_unpacklo_epi8 (lo, hi), w1 = _mm256_unpackhi_epi8 (lo, hi);
      v0 = _mm256_cvtph_ps (_mm256_castsi256_si128 (w0));
      v1 = _mm256_cvtph_ps (_mm256_castsi256_si128 (w1));
      v2 = _mm256_cvtph_ps (_mm256_extracti128_si256 (w0, 1));
      v3 = _mm256_cvtph_ps (_mm256_extracti128_si256 (w1, 1));
    }
  if (nmul == 0)
    *r0 = v0, *r1 = v1, *r2 = v2, *r3 = v3;
  else if (nmul == 1)
    {
      *r0 = _mm256_mul_ps (v0, c1), *r1 = _mm256_mul_ps (v1, c1);
      *r2 = _mm256_mul_ps (v2, c1), *r3 = _mm256_mul_ps (v3, c1);
    }
  else
    {
      *r0 = _mm256_mul_ps (_mm256_mul_ps (v0, c1), c2), *r1 = _mm256_mul_ps (_mm256_mul_ps (v1, c1), c2);
      *r2 = _mm256_mul_ps (_mm256_mul_ps (v2, c1), c2), *r3 = _mm256_mul_ps (_mm256_mul_ps (v3, c1), c2);
    }
}

/* 8 FP32 values -> BF16 in the low 16 bits of each lane, nearest-even, a NaN kept quiet with
 * its sign (mxk__bf16_of) */
static inline __m256i
bf16_8 (__m256 r)
{
  __m256i u = _mm256_castps_si256 (r);
  __m256i lsb = _mm256_and_si256 (_mm256_srli_epi32 (u, 16), S1 (1));
  __m256i rn = _mm256_srli_epi32 (_mm256_add_epi32 (_mm256_add_epi32 (u, S1 (0x7FFF)), lsb), 16);
  __m256i isnan = _mm256_castps_si256 (_mm256_cmp_ps (r, r, _CMP_UNORD_Q));
  return _mm256_blendv_epi8 (rn, _mm256_or_si256 (_mm256_srli_epi32 (u, 16), S1 (0x40)), isnan);
}

/* Block blk's 32 values to the output, FP32 or BF16 */
static inline __attribute__ ((always_inline)) void
dq_store (void *out, size_t blk, __m256 r0, __m256 r1, __m256 r2, __m256 r3, int bf16)
{
  if (!bf16)
    {
      float *o = (float *) out + blk * MX_BLOCK;
      _mm256_storeu_ps (o, r0), _mm256_storeu_ps (o + 8, r1);
      _mm256_storeu_ps (o + 16, r2), _mm256_storeu_ps (o + 24, r3);
      return;
    }
  uint16_t *o = (uint16_t *) out + blk * MX_BLOCK;
  _mm256_storeu_si256 ((void *) o, _mm256_permute4x64_epi64 (_mm256_packus_epi32 (bf16_8 (r0), bf16_8 (r1)), 0xD8));
  _mm256_storeu_si256 ((void *) (o + 16), _mm256_permute4x64_epi64 (_mm256_packus_epi32 (bf16_8 (r2), bf16_8 (r3)), 0xD8));
}

/* Dequantize, a block at a time, with the element format (bt mb sp, as dq32) and the output
 * format fixed at compile time (one copy each), each block's values stored straight from
 * registers.  Until 2026-12-08 one loop served every format, its kind tested per 8 codes and its
 * values passed through the stack: 0.13-0.26 of the in-cache stream on an AMD EPYC family 25
 * model 1 (Zen 3). */
static inline __attribute__ ((always_inline)) void
dequantize_fast (void *out, const uint8_t *scales, const uint8_t *codes, size_t nb, const dqk *k,
                 mx_packing packing, int bt, int mb, int sp, int bf16)
{
  size_t pb = mxk__packed_block_bytes (packing);
  const __m256 nan = _mm256_castsi256_ps (S1 (0x7FC00000));
  /* 2^T = 2^(t0 + S): t0 = 15 - bias - 127 (INT8: -133) */
  const int t0 = sp == 3 ? -133 : -112 - k->bias;
  for (size_t blk = 0; blk < nb; blk++)
    {
      int S = scales[blk];
      if (S == 0xFF)
        {
          dq_store (out, blk, nan, nan, nan, nan, bf16);
          continue;
        }
      __m256i c;
      if (packing != MX_PACKING_UNPACKED)
        c = mxk__unpack_v (codes + blk * pb, packing);
      else
        c = _mm256_loadu_si256 ((const void *) (codes + blk * MX_BLOCK));
      __m256 r0, r1, r2, r3;
      int T = t0 + S;
      if (T >= -126 && T <= 127)
        dq32 (&r0, &r1, &r2, &r3, c, _mm256_castsi256_ps (S1 ((T + 127) << 23)), nan, 1, bt, mb, sp);
      else
        {
          __m256 c1, c2;
          dq_mults (&c1, &c2, S - 127, k);
          dq32 (&r0, &r1, &r2, &r3, c, c1, c2, 2, bt, mb, sp);
        }
      dq_store (out, blk, r0, r1, r2, r3, bf16);
    }
}

#define MXK__DQ(bt, mb, sp)                                                                        \
  (out_fmt == MX_BF16 ? dequantize_fast (out, scales, codes, nb, &k, packing, bt, mb, sp, 1)     \
                      : dequantize_fast (out, scales, codes, nb, &k, packing, bt, mb, sp, 0))

static int
dequantize_avx2 (void *out, mx_format_id out_fmt, const uint8_t *scales, const uint8_t *codes,
                     size_t n, mx_format_id elem, mx_packing packing)
{
  const mxk_fmt *f = mxk__fmt (elem);
  if (mxk__check_dq (out_fmt, n, elem, packing))
    return MX_EINVAL;
  const dqk k = dq_consts (f);
  size_t nb = n / MX_BLOCK;
  if (!dq_fits (f)) /* a format added to formats.def that FP16 cannot hold */
    return mxk__ops_generic.dequantize (out, out_fmt, scales, codes, n, elem, packing);
  /* the kernels' element formats by their fields (formats.def): a copy each, and one with the
   * fields as run-time values for any other */
  int sp = dq_kind (f), key = f->bits << 8 | f->mbits << 4 | sp;
  switch (key)
    {
    case 8 << 8 | 6 << 4 | 3: MXK__DQ (8, 6, 3); break; /* INT8 */
    case 8 << 8 | 3 << 4 | 1: MXK__DQ (8, 3, 1); break; /* E4M3 */
    case 8 << 8 | 2 << 4 | 2: MXK__DQ (8, 2, 2); break; /* E5M2 */
    case 6 << 8 | 3 << 4 | 0: MXK__DQ (6, 3, 0); break; /* E2M3 */
    case 6 << 8 | 2 << 4 | 0: MXK__DQ (6, 2, 0); break; /* E3M2 */
    case 4 << 8 | 1 << 4 | 0: MXK__DQ (4, 1, 0); break; /* E2M1 */
    default: MXK__DQ (f->bits, f->mbits, sp); break;
    }
  return 0;
}
#undef MXK__DQ

/* The sum of 8 products, in double, added to s */
static inline __attribute__ ((always_inline)) __m256d
dot8 (__m256d s, __m256 a, __m256 b)
{
  __m256 p = _mm256_mul_ps (a, b);
  s = _mm256_add_pd (s, _mm256_cvtps_pd (_mm256_castps256_ps128 (p)));
  return _mm256_add_pd (s, _mm256_cvtps_pd (_mm256_extractf128_ps (p, 1)));
}

/* Dot of two operands of formats (bta mba spa) and (btb mbb spb), as dq32 takes them: fixed at
 * compile time for E4M3 x E4M3, run-time values (loop-invariant tests) for every other pair.
 * Each block's 32 products of the unscaled values (dq32 with no multiply: FP formats times
 * 2^(bias-15), INT8 the integers) are exact in FP32, and their sum in double is exact (at most
 * 8 + 5 significant bits in a span of exponents well within 53 bits), so that four partial sums
 * added in any order give the exact block dot; the scales and the values' 2^(15-bias) (INT8 2^-6)
 * come in by one exact power of two before the one rounding to FP32.  Until 2026-12-08 one
 * sum took each block's 64 adds in one chain (1.1 G elem/s on an AMD EPYC family 25 model 1,
 * Zen 3, E4M3, in cache). */
static inline __attribute__ ((always_inline)) uint32_t
dot_fast (const uint8_t *sa, const uint8_t *a, const mxk_fmt *pa, const uint8_t *sb, const uint8_t *b,
          const mxk_fmt *pb, size_t nb, uint32_t cin, int bta, int mba, int spa, int btb, int mbb, int spb)
{
  const __m256 none = _mm256_setzero_ps ();
  /* the values' exponent offsets: 2^(15 - bias) for FP, 2^-6 for INT8 */
  int ta = pa->is_int ? -6 : 15 - pa->bias, tb = pb->is_int ? -6 : 15 - pb->bias;
  float acc = mxk__u2f (cin);
  for (size_t blk = 0; blk < nb; blk++)
    {
      const uint8_t *ab = a + blk * MX_BLOCK, *bb = b + blk * MX_BLOCK;
      float d;
      if (sa[blk] == 0xFF || sb[blk] == 0xFF)
        d = mxk__block_dot (ab, pa, bb, pb, sa[blk], sb[blk]);
      else
        {
          __m256 a0, a1, a2, a3, b0, b1, b2, b3;
          dq32 (&a0, &a1, &a2, &a3, _mm256_loadu_si256 ((const void *) ab), none, none, 0, bta, mba, spa);
          dq32 (&b0, &b1, &b2, &b3, _mm256_loadu_si256 ((const void *) bb), none, none, 0, btb, mbb, spb);
          const __m256d z = _mm256_set1_pd (-0.0);
          __m256d s = _mm256_add_pd (_mm256_add_pd (dot8 (z, a0, b0), dot8 (z, a1, b1)),
                                     _mm256_add_pd (dot8 (z, a2, b2), dot8 (z, a3, b3)));
          __m128d t = _mm_add_pd (_mm256_castpd256_pd128 (s), _mm256_extractf128_pd (s, 1));
          double sum = _mm_cvtsd_f64 (t) + _mm_cvtsd_f64 (_mm_unpackhi_pd (t, t));
          d = (float) (sum * mxk__pow2d ((int) sa[blk] + (int) sb[blk] - 254 + ta + tb));
        }
      acc = acc + d;
    }
  uint32_t r = mxk__f2u (acc);
  return (r & 0x7FFFFFFFu) > 0x7F800000u ? 0x7FC00000u : r;
}

static int
dot_avx2 (uint32_t *out, const uint8_t *sa, const uint8_t *a, mx_format_id fa,
              const uint8_t *sb, const uint8_t *b, mx_format_id fb, size_t n, uint32_t cin)
{
  const mxk_fmt *pa, *pb;
  if (mxk__check_dot (fa, fb, n, &pa, &pb))
    return MX_EINVAL;
  size_t nb = n / MX_BLOCK;
  if (mxk__wide_pair (fa, fb)) /* an exact block dot wider than a double: the scalar routine */
    return mxk__ops_ref.dot (out, sa, a, fa, sb, b, fb, n, cin);
  if (!dq_fits (pa) || !dq_fits (pb)) /* a format added to formats.def and not yet here */
    return mxk__ops_generic.dot (out, sa, a, fa, sb, b, fb, n, cin);
  else if (pa->is_fn && pa->bits == 8 && pa->mbits == 3 && pb->is_fn && pb->bits == 8 && pb->mbits == 3)
    *out = dot_fast (sa, a, pa, sb, b, pb, nb, cin, 8, 3, 1, 8, 3, 1); /* E4M3 x E4M3 */
  else
    *out = dot_fast (sa, a, pa, sb, b, pb, nb, cin, pa->bits, pa->mbits, dq_kind (pa), pb->bits, pb->mbits, dq_kind (pb));
  return 0;
}

const mxk__ops mxk__ops_avx2 = { quantize_avx2, dequantize_avx2, dot_avx2,
                                 quantize_avx2, quantize_avx2,
                                 dequantize_avx2 };
#endif
