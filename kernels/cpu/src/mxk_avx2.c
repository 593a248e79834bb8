/* mxk_avx2.c -- AVX2 (+F16C) path: 8 lanes per vector, four vectors per block.  Quantize takes
 * mxk_avx512.c's exact route for every rounding (a magic add, or vroundps, at the element
 * quantum); blocks off its range take the scalar routine; dequantize and dot decode through
 * FP16.  Compiled
 * with -mavx2 -mf16c (x86-64 only).
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


static inline void
load_block (__m256i *b, const void *in, mx_format_id in_fmt, size_t blk)
{
  if (in_fmt == MX_BF16)
    {
      _mm_prefetch ((const char *) ((const uint16_t *) in + blk * MX_BLOCK + MXK_PREFETCH), _MM_HINT_T0);
      for (int h = 0; h < 4; h++)
        b[h] = _mm256_slli_epi32 (_mm256_cvtepu16_epi32 (_mm_loadu_si128 ((const void *) ((const uint16_t *) in + blk * MX_BLOCK + 8 * (size_t) h))), 16);
    }
  else
    {
      const uint32_t *p = (const uint32_t *) in + blk * MX_BLOCK;
      _mm_prefetch ((const char *) (p + MXK_PREFETCH), _MM_HINT_T0);
      _mm_prefetch ((const char *) (p + MXK_PREFETCH + 16), _MM_HINT_T0);
      for (int h = 0; h < 4; h++)
        b[h] = _mm256_loadu_si256 ((const void *) (p + 8 * h));
    }
}

/* Block blk's largest magnitude (returned) and its x << 23 in every lane of *xs. */
static inline uint32_t
block_xs (__m256i *xs, const void *in, mx_format_id in_fmt, size_t blk, const magk *k)
{
  __m256i b[4];
  load_block (b, in, in_fmt, blk);
  __m256i m = _mm256_max_epu32 (_mm256_max_epu32 (_mm256_and_si256 (b[0], k->absm), _mm256_and_si256 (b[1], k->absm)),
                                _mm256_max_epu32 (_mm256_and_si256 (b[2], k->absm), _mm256_and_si256 (b[3], k->absm)));
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

/* Quantize, software-pipelined: the next block's maximum and scale exponent (a long dependency
 * chain) are computed before the current block's lanes, which reload their inputs. */
static inline __attribute__ ((always_inline)) void
quantize_fast (uint8_t *scales, uint8_t *codes, const void *in, mx_format_id in_fmt, size_t nb,
               const mxk_fmt *f, mx_scale_rule rule, mx_rounding rnd, const uint16_t *rbits,
               mx_packing packing, int is_int)
{
  const magk k = magic_consts (f, rule, rnd, is_int);
  size_t pb = mxk__packed_block_bytes (packing);
  const __m256i six = S1 (k.is_int ? 6 << 23 : 0);
  __m256i xs = _mm256_setzero_si256 ();
  uint32_t amax = nb ? block_xs (&xs, in, in_fmt, 0, &k) : 0;
  for (size_t blk = 0; blk < nb; blk++)
    {
      __m256i xs_next = _mm256_setzero_si256 ();
      uint32_t amax_next = blk + 1 < nb ? block_xs (&xs_next, in, in_fmt, blk + 1, &k) : 0;
      uint8_t c[MX_BLOCK];
      uint8_t *dst = packing == MX_PACKING_UNPACKED ? codes + blk * MX_BLOCK : c;
      __m256i b[4];
      load_block (b, in, in_fmt, blk);
      const uint16_t *rb = rnd == MX_SR ? rbits + blk * MX_BLOCK : NULL;
      if (amax == 0)
        {
          /* all zeros (+0 and -0): the scale byte 0 (X = -127, as the scalar routine gives it),
           * every code 0 but a -0's, which is signed (INT8: 0); by the scalar routine such a
           * block took 294 ns against 13.7 (Intel Xeon EMR, E4M3, in cache) */
          __m256i s[4];
          for (int h = 0; h < 4; h++)
            s[h] = k.is_int ? _mm256_setzero_si256 () : _mm256_and_si256 (_mm256_srai_epi32 (b[h], 31), k.signbit);
          __m256i q = pack32 (s[0], s[1], s[2], s[3]);
          if (packing != MX_PACKING_UNPACKED)
            mxk__pack_v (codes + blk * pb, _mm256_castsi256_si128 (q), _mm256_extracti128_si256 (q, 1), packing);
          else
            _mm256_storeu_si256 ((void *) dst, q);
          scales[blk] = 0;
        }
      else if (!mxk__fast_amax (amax, rnd))
        {
          uint32_t bb[MX_BLOCK]; /* tiny, huge, NaN or Inf: the scalar routine */
          for (int h = 0; h < 4; h++)
            _mm256_storeu_si256 ((void *) (bb + 8 * h), b[h]);
          scales[blk] = mxk__quant_block (dst, bb, f, rule, rnd, rb);
          if (packing != MX_PACKING_UNPACKED)
            mxk__pack_block (codes + blk * pb, c, packing);
        }
      else
        {
          int x = _mm_cvtsi128_si32 (_mm256_castsi256_si128 (xs)) >> 23; /* arithmetic */
          __m256i xl = _mm256_sub_epi32 (xs, six), r[4];
          for (int h = 0; h < 4; h++)
            r[h] = rnd == MX_SR ? _mm256_cvtepu16_epi32 (_mm_loadu_si128 ((const void *) (rb + 8 * h)))
                                : _mm256_setzero_si256 ();
          __m256i c0 = lanes_magic (b[0], xl, r[0], &k), c1 = lanes_magic (b[1], xl, r[1], &k);
          __m256i c2 = lanes_magic (b[2], xl, r[2], &k), c3 = lanes_magic (b[3], xl, r[3], &k);
          __m256i q = k.is_int ? pack32s (c0, c1, c2, c3) : pack32 (c0, c1, c2, c3);
          if (packing != MX_PACKING_UNPACKED)
            mxk__pack_v (codes + blk * pb, _mm256_castsi256_si128 (q), _mm256_extracti128_si256 (q, 1), packing);
          else
            _mm256_storeu_si256 ((void *) dst, q);
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
 * canonical FP32 one; E5M2 is FP16's top byte, Inf included.  Two multiplies then scale by
 * 2^T = 2^(15-bias+X), both factors normal: the first is exact or, when it is the last, the
 * only rounding; the second is then the one rounding.  INT8 is an exact int-to-float conversion
 * and the same two multiplies by 2^T = 2^(X-6). */
typedef struct
{
  __m128i magm, sgnm;
  int msh, ssh, is_int, is_fn, is_ieee, bias;
} dqk;

static inline dqk
dq_consts (const mxk_fmt *f)
{
  dqk k;
  k.magm = _mm_set1_epi16 ((short) (f->signbit - 1));
  k.sgnm = _mm_set1_epi16 ((short) 0x8000);
  k.msh = 10 - f->mbits;
  k.ssh = 16 - f->bits;
  k.is_int = f->is_int, k.is_fn = f->is_fn, k.is_ieee = f->is_ieee, k.bias = f->bias;
  return k;
}

/* 8 codes (low 8 bytes of c8) -> 8 FP32 values times c1 times c2 (see above). */
static inline __m256
dq8 (__m128i c8, __m256 c1, __m256 c2, const dqk *k)
{
  if (k->is_int)
    return _mm256_mul_ps (_mm256_mul_ps (_mm256_cvtepi32_ps (_mm256_cvtepi8_epi32 (c8)), c1), c2);
  __m128i w = _mm_cvtepu8_epi16 (c8), mag = _mm_and_si128 (w, k->magm);
  __m128i sgn = _mm_and_si128 (_mm_slli_epi16 (w, k->ssh), k->sgnm);
  __m128i h = _mm_or_si128 (_mm_slli_epi16 (mag, k->msh), sgn);
  if (k->is_fn) /* E4M3: S.1111.111 is NaN */
    h = _mm_blendv_epi8 (h, _mm_or_si128 (sgn, _mm_set1_epi16 (0x7E00)), _mm_cmpeq_epi16 (mag, _mm_set1_epi16 (0x7F)));
  if (k->is_ieee) /* E5M2: S.11111.xx with xx != 0 is NaN */
    h = _mm_blendv_epi8 (h, _mm_or_si128 (sgn, _mm_set1_epi16 (0x7E00)), _mm_cmpgt_epi16 (mag, _mm_set1_epi16 (0x7C)));
  return _mm256_mul_ps (_mm256_mul_ps (_mm256_cvtph_ps (h), c1), c2);
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

static int
dequantize_avx2 (void *out, mx_format_id out_fmt, const uint8_t *scales, const uint8_t *codes,
                     size_t n, mx_format_id elem, mx_packing packing)
{
  const mxk_fmt *f = mxk__fmt (elem);
  if (mxk__check_dq (out_fmt, n, elem, packing))
    return MX_EINVAL;
  const dqk k = dq_consts (f);
  size_t pb = mxk__packed_block_bytes (packing);
  for (size_t blk = 0; blk < n / MX_BLOCK; blk++)
    {
      uint8_t cb[MX_BLOCK];
      const uint8_t *c = codes + blk * pb;
      if (packing != MX_PACKING_UNPACKED)
        {
          _mm256_storeu_si256 ((void *) cb, mxk__unpack_v (c, packing));
          c = cb;
        }
      __m256 r[4];
      if (scales[blk] == 0xFF)
        r[0] = r[1] = r[2] = r[3] = _mm256_castsi256_ps (S1 (0x7FC00000));
      else
        {
          __m256 c1, c2;
          dq_mults (&c1, &c2, (int) scales[blk] - 127, &k);
          for (int h = 0; h < 4; h++)
            r[h] = dq8 (_mm_loadl_epi64 ((const void *) (c + 8 * h)), c1, c2, &k);
        }
      if (out_fmt == MX_FP32)
        for (int h = 0; h < 4; h++)
          _mm256_storeu_ps ((float *) out + blk * MX_BLOCK + 8 * (size_t) h, r[h]);
      else
        {
          __m256i w[4];
          for (int h = 0; h < 4; h++)
            {
              __m256i u = _mm256_castps_si256 (r[h]);
              __m256i lsb = _mm256_and_si256 (_mm256_srli_epi32 (u, 16), S1 (1));
              __m256i rn = _mm256_srli_epi32 (_mm256_add_epi32 (_mm256_add_epi32 (u, S1 (0x7FFF)), lsb), 16);
              __m256i isnan = _mm256_castps_si256 (_mm256_cmp_ps (r[h], r[h], _CMP_UNORD_Q));
              w[h] = _mm256_blendv_epi8 (rn, _mm256_or_si256 (_mm256_srli_epi32 (u, 16), S1 (0x40)), isnan);
            }
          __m256i p0 = _mm256_permute4x64_epi64 (_mm256_packus_epi32 (w[0], w[1]), 0xD8);
          __m256i p1 = _mm256_permute4x64_epi64 (_mm256_packus_epi32 (w[2], w[3]), 0xD8);
          _mm256_storeu_si256 ((void *) ((uint16_t *) out + blk * MX_BLOCK), p0);
          _mm256_storeu_si256 ((void *) ((uint16_t *) out + blk * MX_BLOCK + 16), p1);
        }
    }
  return 0;
}

static int
dot_avx2 (uint32_t *out, const uint8_t *sa, const uint8_t *a, mx_format_id fa,
              const uint8_t *sb, const uint8_t *b, mx_format_id fb, size_t n, uint32_t cin)
{
  const mxk_fmt *pa, *pb;
  if (mxk__check_dot (fa, fb, n, &pa, &pb))
    return MX_EINVAL;
  int wide = mxk__wide_pair (fa, fb);
  const dqk ka = dq_consts (pa), kb = dq_consts (pb);
  __m256 a1, a2, b1, b2; /* exact element values: the multipliers of scale exponent 0 */
  dq_mults (&a1, &a2, 0, &ka);
  dq_mults (&b1, &b2, 0, &kb);
  float acc = mxk__u2f (cin);
  for (size_t blk = 0; blk < n / MX_BLOCK; blk++)
    {
      const uint8_t *ab = a + blk * MX_BLOCK, *bb = b + blk * MX_BLOCK;
      float d;
      if (wide || sa[blk] == 0xFF || sb[blk] == 0xFF)
        d = mxk__block_dot (ab, pa, bb, pb, sa[blk], sb[blk]);
      else
        {
          __m256d s = _mm256_set1_pd (-0.0);
          for (int h = 0; h < 4; h++)
            {
              __m256 p = _mm256_mul_ps (dq8 (_mm_loadl_epi64 ((const void *) (ab + 8 * h)), a1, a2, &ka),
                                        dq8 (_mm_loadl_epi64 ((const void *) (bb + 8 * h)), b1, b2, &kb));
              s = _mm256_add_pd (s, _mm256_cvtps_pd (_mm256_castps256_ps128 (p)));
              s = _mm256_add_pd (s, _mm256_cvtps_pd (_mm256_extractf128_ps (p, 1)));
            }
          __m128d t = _mm_add_pd (_mm256_castpd256_pd128 (s), _mm256_extractf128_pd (s, 1));
          double sum = _mm_cvtsd_f64 (t) + _mm_cvtsd_f64 (_mm_unpackhi_pd (t, t));
          d = (float) (sum * mxk__pow2d ((int) sa[blk] + (int) sb[blk] - 254));
        }
      acc = acc + d;
    }
  uint32_t r = mxk__f2u (acc);
  *out = (r & 0x7FFFFFFFu) > 0x7F800000u ? 0x7FC00000u : r;
  return 0;
}

const mxk__ops mxk__ops_avx2 = { quantize_avx2, dequantize_avx2, dot_avx2,
                                 quantize_avx2, quantize_avx2,
                                 dequantize_avx2 };
#endif
