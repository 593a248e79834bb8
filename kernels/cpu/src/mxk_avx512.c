/* mxk_avx512.c -- AVX-512 (F, BW, VL) path: 16 lanes per vector, two vectors per block.  The
 * lane arithmetic is mxk_generic.c's, with masks instead of branches; blocks that hold FP32
 * subnormals, NaN or Inf, and the two element pairs whose exact sum overflows a double, take the
 * scalar routines.  Compiled with -mavx512f -mavx512bw -mavx512vl (x86-64 only).
 * SPDX-License-Identifier: MIT */
#include "internal.h"
#if defined(__AVX512F__) && defined(__AVX512BW__)
#include <immintrin.h>

typedef struct
{
  __m512i emin, bias, mbits, one_m, maxmag, signbit, shbase, c23m;
  int is_int;
} vfmt;

static inline vfmt
vf (const mxk_fmt *f)
{
  vfmt v;
  v.emin = _mm512_set1_epi32 (f->emin);
  v.bias = _mm512_set1_epi32 (f->bias);
  v.mbits = _mm512_set1_epi32 (f->mbits);
  v.one_m = _mm512_set1_epi32 (1 << f->mbits);
  v.maxmag = _mm512_set1_epi32 ((int) f->maxmag);
  v.signbit = _mm512_set1_epi32 ((int) f->signbit);
  v.c23m = _mm512_set1_epi32 (23 - f->mbits);
  v.shbase = _mm512_setzero_si512 ();
  v.is_int = f->is_int;
  return v;
}

/* 16 FP32 lanes (finite, no subnormals) under scale exponent x -> 16 codes in 32-bit lanes. */
static inline __m512i
lanes (__m512i b, int x, const vfmt *f, mx_rounding rnd)
{
  const __m512i one = _mm512_set1_epi32 (1), zero = _mm512_setzero_si512 ();
  __mmask16 ks = _mm512_test_epi32_mask (b, _mm512_set1_epi32 ((int) 0x80000000u));
  __m512i e = _mm512_and_si512 (_mm512_srli_epi32 (b, 23), _mm512_set1_epi32 (0xFF));
  __m512i m = _mm512_and_si512 (b, _mm512_set1_epi32 (0x7FFFFF));
  __mmask16 kne = _mm512_test_epi32_mask (e, e);
  __m512i M = _mm512_mask_or_epi32 (m, kne, m, _mm512_set1_epi32 (0x800000));
  __m512i et = _mm512_sub_epi32 (e, _mm512_set1_epi32 (127 + x));
  __m512i sh;
  if (f->is_int)
    sh = _mm512_sub_epi32 (_mm512_set1_epi32 (144 + x), e);
  else
    sh = _mm512_add_epi32 (f->c23m, _mm512_max_epi32 (_mm512_sub_epi32 (f->emin, et), zero));
  __m512i n = _mm512_srlv_epi32 (M, sh);
  __m512i shm1 = _mm512_sub_epi32 (sh, one);
  __mmask16 kr = _mm512_test_epi32_mask (_mm512_srlv_epi32 (M, shm1), one);
  __mmask16 kst = _mm512_test_epi32_mask (M, _mm512_sub_epi32 (_mm512_sllv_epi32 (one, shm1), one));
  __mmask16 kinc;
  switch (rnd)
    {
    case MX_RNA: kinc = kr; break;
    case MX_RTZ: kinc = 0; break;
    case MX_RUP: kinc = (kr | kst) & ~ks; break;
    case MX_RDN: kinc = (kr | kst) & ks; break;
    default: kinc = kr & (kst | _mm512_test_epi32_mask (n, one)); break;
    }
  __m512i nr = _mm512_mask_add_epi32 (n, kinc, n, one);
  __m512i mag;
  if (f->is_int)
    mag = nr;
  else
    {
      __m512i normal = _mm512_add_epi32 (_mm512_sub_epi32 (_mm512_sllv_epi32 (_mm512_add_epi32 (et, f->bias), f->mbits), f->one_m), nr);
      mag = _mm512_mask_blend_epi32 (_mm512_cmplt_epi32_mask (et, f->emin), normal, nr);
    }
  mag = _mm512_min_epu32 (mag, f->maxmag);
  mag = _mm512_maskz_mov_epi32 (_mm512_test_epi32_mask (M, M), mag);
  if (f->is_int)
    return _mm512_mask_sub_epi32 (mag, ks, zero, mag);
  return _mm512_mask_or_epi32 (mag, ks, mag, f->signbit);
}

/* RNE only, a shorter exact route: |t| = |x| / 2^x by subtracting x from the FP32 exponent
 * field (lanes whose field would drop below 1 are far below half the smallest element
 * subnormal and round to 0); normal-range results round to mbits with the integer carry trick
 * and become codes by subtracting the bias difference; subnormal-range results (and INT8) are
 * rounded by an FP32 add of 2^(q+23), whose RNE happens at exactly the element's quantum 2^q. */
static inline __m512i
lanes_rne (__m512i b, int x, const mxk_fmt *f)
{
  const __m512i zero = _mm512_setzero_si512 ();
  __m512i u = _mm512_and_si512 (b, _mm512_set1_epi32 (0x7FFFFFFF));
  __mmask16 ks = _mm512_test_epi32_mask (b, _mm512_set1_epi32 ((int) 0x80000000u));
  __m512i ef = _mm512_sub_epi32 (_mm512_srli_epi32 (u, 23), _mm512_set1_epi32 (x));
  __mmask16 kvalid = _mm512_cmpgt_epi32_mask (ef, zero) & _mm512_test_epi32_mask (u, u);
  __m512i t = _mm512_sub_epi32 (u, _mm512_set1_epi32 ((int) ((uint32_t) x << 23)));
  __m512i mag;
  if (f->is_int)
    {
      /* N = RNE(|t| * 64): the add of 1.5 * 2^23 rounds at the integer quantum */
      const float magic = 12582912.0f;
      __m512 g = _mm512_add_ps (_mm512_mul_ps (_mm512_castsi512_ps (t), _mm512_set1_ps (64.0f)), _mm512_set1_ps (magic));
      mag = _mm512_sub_epi32 (_mm512_castps_si512 (g), _mm512_set1_epi32 ((int) mxk__f2u (magic)));
    }
  else
    {
      int sh = 23 - f->mbits;
      __m512i r = _mm512_add_epi32 (_mm512_add_epi32 (t, _mm512_set1_epi32 ((1 << (sh - 1)) - 1)),
                                    _mm512_and_si512 (_mm512_srli_epi32 (t, (unsigned) sh), _mm512_set1_epi32 (1)));
      __m512i cn = _mm512_sub_epi32 (_mm512_srli_epi32 (r, (unsigned) sh), _mm512_set1_epi32 ((127 - f->bias) << f->mbits));
      float c = mxk__pow2f (f->emin - f->mbits + 23);
      __m512i ns = _mm512_sub_epi32 (_mm512_castps_si512 (_mm512_add_ps (_mm512_castsi512_ps (t), _mm512_set1_ps (c))),
                                     _mm512_set1_epi32 ((int) mxk__f2u (c)));
      __mmask16 knorm = _mm512_cmpge_epi32_mask (ef, _mm512_set1_epi32 (f->emin + 127));
      mag = _mm512_mask_blend_epi32 (knorm, ns, cn);
    }
  mag = _mm512_maskz_mov_epi32 (kvalid, _mm512_min_epu32 (mag, _mm512_set1_epi32 ((int) f->maxmag)));
  if (f->is_int)
    return _mm512_mask_sub_epi32 (mag, ks, zero, mag);
  return _mm512_mask_or_epi32 (mag, ks, mag, _mm512_set1_epi32 ((int) f->signbit));
}

int
mxk_quantize_avx512 (uint8_t *scales, uint8_t *codes, const void *in, mx_format_id in_fmt,
                     size_t n, mx_format_id elem, mx_scale_rule rule, mx_rounding rnd,
                     mxk_packing packing)
{
  if (mxk__check (in_fmt, n, elem, rule, rnd, packing))
    return -1;
  const mxk_fmt *f = mxk__fmt (elem);
  const vfmt v = vf (f);
  const __m512i absm = _mm512_set1_epi32 (0x7FFFFFFF), minnorm = _mm512_set1_epi32 (0x800000);
  size_t pb = mxk__packed_block_bytes (packing);
  for (size_t blk = 0; blk < n / MXK_BLOCK; blk++)
    {
      __m512i b0, b1;
      if (in_fmt == MX_BF16)
        {
          const uint16_t *p = (const uint16_t *) in + blk * MXK_BLOCK;
          b0 = _mm512_slli_epi32 (_mm512_cvtepu16_epi32 (_mm256_loadu_si256 ((const void *) p)), 16);
          b1 = _mm512_slli_epi32 (_mm512_cvtepu16_epi32 (_mm256_loadu_si256 ((const void *) (p + 16))), 16);
        }
      else
        {
          const uint32_t *p = (const uint32_t *) in + blk * MXK_BLOCK;
          b0 = _mm512_loadu_si512 ((const void *) p);
          b1 = _mm512_loadu_si512 ((const void *) (p + 16));
        }
      __m512i a0 = _mm512_and_si512 (b0, absm), a1 = _mm512_and_si512 (b1, absm);
      uint32_t amax = _mm512_reduce_max_epu32 (_mm512_max_epu32 (a0, a1));
      __mmask16 s0 = _mm512_cmplt_epu32_mask (a0, minnorm) & _mm512_test_epi32_mask (a0, a0);
      __mmask16 s1 = _mm512_cmplt_epu32_mask (a1, minnorm) & _mm512_test_epi32_mask (a1, a1);
      uint8_t c[MXK_BLOCK];
      uint8_t *dst = packing == MXK_UNPACKED ? codes + blk * MXK_BLOCK : c;
      int x = amax - 1 < 0x7F7FFFFFu ? mxk__scale_exp (amax, f, rule) : 0;
      if ((s0 | s1) || amax >= 0x7F800000u || amax == 0 || x > 127)
        {
          uint32_t bb[MXK_BLOCK];
          _mm512_storeu_si512 ((void *) bb, b0);
          _mm512_storeu_si512 ((void *) (bb + 16), b1);
          scales[blk] = mxk__quant_block (dst, bb, f, rule, rnd);
        }
      else
        {
          x = x < -127 ? -127 : x;
          __m512i c0, c1;
          if (rnd == MX_RNE)
            c0 = lanes_rne (b0, x, f), c1 = lanes_rne (b1, x, f);
          else
            c0 = lanes (b0, x, &v, rnd), c1 = lanes (b1, x, &v, rnd);
          _mm_storeu_si128 ((void *) dst, _mm512_cvtepi32_epi8 (c0));
          _mm_storeu_si128 ((void *) (dst + 16), _mm512_cvtepi32_epi8 (c1));
          scales[blk] = (uint8_t) (x + 127);
        }
      if (packing != MXK_UNPACKED)
        mxk__pack_block (codes + blk * pb, c, packing);
    }
  return 0;
}

/* 16 codes (32-bit lanes) -> their exact values as floats. */
static inline __m512
decode16 (__m512i c, const mxk_fmt *f)
{
  if (f->is_int)
    return _mm512_mul_ps (_mm512_cvtepi32_ps (_mm512_srai_epi32 (_mm512_slli_epi32 (c, 24), 24)),
                          _mm512_set1_ps (0x1p-6f));
  const __m512i one = _mm512_set1_epi32 (1);
  __m512i mag = _mm512_and_si512 (c, _mm512_set1_epi32 ((int) f->signbit - 1));
  __m512i e = _mm512_srli_epi32 (mag, (unsigned) f->mbits);
  __m512i m = _mm512_and_si512 (mag, _mm512_set1_epi32 ((1 << f->mbits) - 1));
  __mmask16 kne = _mm512_test_epi32_mask (e, e);
  __m512i sig = _mm512_mask_or_epi32 (m, kne, m, _mm512_set1_epi32 (1 << f->mbits));
  __m512i k = _mm512_sub_epi32 (_mm512_max_epi32 (e, one), _mm512_set1_epi32 (f->bias + f->mbits - 127));
  __m512 val = _mm512_mul_ps (_mm512_cvtepi32_ps (sig), _mm512_castsi512_ps (_mm512_slli_epi32 (k, 23)));
  __m512i sgn = _mm512_slli_epi32 (_mm512_and_si512 (c, _mm512_set1_epi32 ((int) f->signbit)), (unsigned) (32 - f->bits));
  __m512i bits = _mm512_or_si512 (_mm512_castps_si512 (val), sgn);
  if (f->is_fn)
    bits = _mm512_mask_or_epi32 (bits, _mm512_cmpeq_epi32_mask (mag, _mm512_set1_epi32 ((int) f->signbit - 1)),
                                 sgn, _mm512_set1_epi32 (0x7FC00000));
  if (f->is_ieee)
    {
      __mmask16 kx = _mm512_cmpeq_epi32_mask (e, _mm512_set1_epi32 ((int) (f->signbit - 1) >> f->mbits));
      __mmask16 knan = kx & _mm512_test_epi32_mask (m, m);
      bits = _mm512_mask_or_epi32 (bits, kx & ~knan, sgn, _mm512_set1_epi32 (0x7F800000));
      bits = _mm512_mask_or_epi32 (bits, knan, sgn, _mm512_set1_epi32 (0x7FC00000));
    }
  return _mm512_castsi512_ps (bits);
}

int
mxk_dequantize_avx512 (void *out, mx_format_id out_fmt, const uint8_t *scales,
                       const uint8_t *codes, size_t n, mx_format_id elem, mxk_packing packing)
{
  const mxk_fmt *f = mxk__fmt (elem);
  if (mxk__check_dq (out_fmt, n, elem, packing))
    return -1;
  size_t pb = mxk__packed_block_bytes (packing);
  for (size_t blk = 0; blk < n / MXK_BLOCK; blk++)
    {
      uint8_t cb[MXK_BLOCK];
      const uint8_t *c = codes + blk * pb;
      if (packing != MXK_UNPACKED)
        {
          mxk__unpack_block (cb, c, packing);
          c = cb;
        }
      __m512 r[2];
      if (scales[blk] == 0xFF)
        r[0] = r[1] = _mm512_castsi512_ps (_mm512_set1_epi32 (0x7FC00000));
      else
        {
          __m512 s = _mm512_set1_ps (mxk__pow2f ((int) scales[blk] - 127));
          for (int h = 0; h < 2; h++)
            r[h] = _mm512_mul_ps (decode16 (_mm512_cvtepu8_epi32 (_mm_loadu_si128 ((const void *) (c + 16 * h))), f), s);
        }
      if (out_fmt == MX_FP32)
        for (int h = 0; h < 2; h++)
          _mm512_storeu_ps ((float *) out + blk * MXK_BLOCK + 16 * (size_t) h, r[h]);
      else
        for (int h = 0; h < 2; h++)
          {
            __m512i u = _mm512_castps_si512 (r[h]);
            __m512i lsb = _mm512_and_si512 (_mm512_srli_epi32 (u, 16), _mm512_set1_epi32 (1));
            __m512i rn = _mm512_srli_epi32 (_mm512_add_epi32 (_mm512_add_epi32 (u, _mm512_set1_epi32 (0x7FFF)), lsb), 16);
            __mmask16 knan = _mm512_cmp_ps_mask (r[h], r[h], _CMP_UNORD_Q);
            rn = _mm512_mask_or_epi32 (rn, knan, _mm512_srli_epi32 (u, 16), _mm512_set1_epi32 (0x40));
            _mm256_storeu_si256 ((void *) ((uint16_t *) out + blk * MXK_BLOCK + 16 * (size_t) h), _mm512_cvtepi32_epi16 (rn));
          }
    }
  return 0;
}

int
mxk_dot_avx512 (uint32_t *out, const uint8_t *sa, const uint8_t *a, mx_format_id fa,
                const uint8_t *sb, const uint8_t *b, mx_format_id fb, size_t n, uint32_t cin)
{
  const mxk_fmt *pa = mxk__fmt (fa), *pb = mxk__fmt (fb);
  if (!pa || !pb || n % MXK_BLOCK)
    return -1;
  int wide = mxk__wide_pair (fa, fb);
  float acc = mxk__u2f (cin);
  for (size_t blk = 0; blk < n / MXK_BLOCK; blk++)
    {
      const uint8_t *ab = a + blk * MXK_BLOCK, *bb = b + blk * MXK_BLOCK;
      float d;
      if (wide || sa[blk] == 0xFF || sb[blk] == 0xFF)
        d = mxk__block_dot (ab, pa, bb, pb, sa[blk], sb[blk]);
      else
        {
          __m512d s = _mm512_set1_pd (-0.0); /* -0: a sum of -0 products stays -0 */
          for (int h = 0; h < 2; h++)
            {
              __m512 va = decode16 (_mm512_cvtepu8_epi32 (_mm_loadu_si128 ((const void *) (ab + 16 * h))), pa);
              __m512 vb = decode16 (_mm512_cvtepu8_epi32 (_mm_loadu_si128 ((const void *) (bb + 16 * h))), pb);
              __m512 p = _mm512_mul_ps (va, vb); /* exact */
              s = _mm512_add_pd (s, _mm512_cvtps_pd (_mm512_castps512_ps256 (p)));
              s = _mm512_add_pd (s, _mm512_cvtps_pd (_mm256_castpd_ps (_mm512_extractf64x4_pd (_mm512_castps_pd (p), 1))));
            }
          double sum = _mm512_reduce_add_pd (s); /* exact: every partial sum fits 53 bits */
          d = (float) (sum * mxk__pow2d ((int) sa[blk] + (int) sb[blk] - 254));
        }
      acc = acc + d;
    }
  uint32_t r = mxk__f2u (acc);
  *out = (r & 0x7FFFFFFFu) > 0x7F800000u ? 0x7FC00000u : r;
  return 0;
}

#else /* no AVX-512 in this build: the generic path */
int
mxk_quantize_avx512 (uint8_t *scales, uint8_t *codes, const void *in, mx_format_id in_fmt,
                     size_t n, mx_format_id elem, mx_scale_rule rule, mx_rounding rnd,
                     mxk_packing packing)
{
  return mxk_quantize_generic (scales, codes, in, in_fmt, n, elem, rule, rnd, packing);
}
int
mxk_dequantize_avx512 (void *out, mx_format_id out_fmt, const uint8_t *scales,
                       const uint8_t *codes, size_t n, mx_format_id elem, mxk_packing packing)
{
  return mxk_dequantize_generic (out, out_fmt, scales, codes, n, elem, packing);
}
int
mxk_dot_avx512 (uint32_t *out, const uint8_t *sa, const uint8_t *a, mx_format_id fa,
                const uint8_t *sb, const uint8_t *b, mx_format_id fb, size_t n, uint32_t cin)
{
  return mxk_dot_generic (out, sa, a, fa, sb, b, fb, n, cin);
}
#endif
