/* mxk_avx2.c -- AVX2 path: 8 lanes per vector, four vectors per block; the lane arithmetic of
 * mxk_generic.c with compare-and-blend for masks.  Compiled with -mavx2 (x86-64 only).
 * SPDX-License-Identifier: MIT */
#include "internal.h"
#if defined(__AVX2__)
#include <immintrin.h>

#define S1(x) _mm256_set1_epi32 (x)

static inline __m256i
nonzero (__m256i x) /* all-ones lanes where x != 0 */
{
  return _mm256_xor_si256 (_mm256_cmpeq_epi32 (x, _mm256_setzero_si256 ()), S1 (-1));
}

static inline __m256i
lanes (__m256i b, int x, const mxk_fmt *f, mx_rounding rnd)
{
  const __m256i one = S1 (1), zero = _mm256_setzero_si256 ();
  __m256i s = _mm256_srai_epi32 (b, 31);                        /* all-ones if negative */
  __m256i e = _mm256_and_si256 (_mm256_srli_epi32 (b, 23), S1 (0xFF));
  __m256i M = _mm256_or_si256 (_mm256_and_si256 (b, S1 (0x7FFFFF)), _mm256_and_si256 (nonzero (e), S1 (0x800000)));
  __m256i et = _mm256_sub_epi32 (e, S1 (127 + x));
  __m256i sh = f->is_int ? _mm256_sub_epi32 (S1 (144 + x), e)
                         : _mm256_add_epi32 (S1 (23 - f->mbits), _mm256_max_epi32 (_mm256_sub_epi32 (S1 (f->emin), et), zero));
  __m256i n = _mm256_srlv_epi32 (M, sh);
  __m256i shm1 = _mm256_sub_epi32 (sh, one);
  __m256i r = _mm256_and_si256 (_mm256_srlv_epi32 (M, shm1), one);
  __m256i st = _mm256_and_si256 (nonzero (_mm256_and_si256 (M, _mm256_sub_epi32 (_mm256_sllv_epi32 (one, shm1), one))), one);
  __m256i inc;
  switch (rnd)
    {
    case MX_RNA: inc = r; break;
    case MX_RTZ: inc = zero; break;
    case MX_RUP: inc = _mm256_andnot_si256 (s, _mm256_or_si256 (r, st)); break;
    case MX_RDN: inc = _mm256_and_si256 (s, _mm256_or_si256 (r, st)); break;
    default: inc = _mm256_and_si256 (r, _mm256_or_si256 (st, _mm256_and_si256 (n, one))); break;
    }
  __m256i nr = _mm256_add_epi32 (n, inc), mag;
  if (f->is_int)
    mag = nr;
  else
    {
      __m256i normal = _mm256_add_epi32 (_mm256_sub_epi32 (_mm256_sllv_epi32 (_mm256_add_epi32 (et, S1 (f->bias)), S1 (f->mbits)), S1 (1 << f->mbits)), nr);
      __m256i sub = _mm256_cmpgt_epi32 (S1 (f->emin), et);     /* et < emin */
      mag = _mm256_blendv_epi8 (normal, nr, sub);
    }
  mag = _mm256_min_epu32 (mag, S1 ((int) f->maxmag));
  mag = _mm256_and_si256 (mag, nonzero (M));
  __m256i code = f->is_int ? _mm256_blendv_epi8 (mag, _mm256_sub_epi32 (zero, mag), s)
                           : _mm256_or_si256 (mag, _mm256_and_si256 (s, S1 ((int) f->signbit)));
  return _mm256_and_si256 (code, S1 (0xFF));
}

/* RNE only: the shorter exact route of mxk_avx512.c's lanes_rne. */
static inline __m256i
lanes_rne (__m256i b, int x, const mxk_fmt *f)
{
  const __m256i zero = _mm256_setzero_si256 ();
  __m256i u = _mm256_and_si256 (b, S1 (0x7FFFFFFF));
  __m256i s = _mm256_srai_epi32 (b, 31);
  __m256i ef = _mm256_sub_epi32 (_mm256_srli_epi32 (u, 23), S1 (x));
  __m256i valid = _mm256_and_si256 (_mm256_cmpgt_epi32 (ef, zero), nonzero (u));
  __m256i t = _mm256_sub_epi32 (u, S1 ((int) ((uint32_t) x << 23)));
  __m256i mag;
  if (f->is_int)
    {
      const float magic = 12582912.0f;
      __m256 g = _mm256_add_ps (_mm256_mul_ps (_mm256_castsi256_ps (t), _mm256_set1_ps (64.0f)), _mm256_set1_ps (magic));
      mag = _mm256_sub_epi32 (_mm256_castps_si256 (g), S1 ((int) mxk__f2u (magic)));
    }
  else
    {
      int sh = 23 - f->mbits;
      __m256i r = _mm256_add_epi32 (_mm256_add_epi32 (t, S1 ((1 << (sh - 1)) - 1)),
                                    _mm256_and_si256 (_mm256_srli_epi32 (t, sh), S1 (1)));
      __m256i cn = _mm256_sub_epi32 (_mm256_srli_epi32 (r, sh), S1 ((127 - f->bias) << f->mbits));
      float c = mxk__pow2f (f->emin - f->mbits + 23);
      __m256i ns = _mm256_sub_epi32 (_mm256_castps_si256 (_mm256_add_ps (_mm256_castsi256_ps (t), _mm256_set1_ps (c))),
                                     S1 ((int) mxk__f2u (c)));
      __m256i sub = _mm256_cmpgt_epi32 (S1 (f->emin + 127), ef);
      mag = _mm256_blendv_epi8 (cn, ns, sub);
    }
  mag = _mm256_and_si256 (_mm256_min_epu32 (mag, S1 ((int) f->maxmag)), valid);
  __m256i code = f->is_int ? _mm256_blendv_epi8 (mag, _mm256_sub_epi32 (zero, mag), s)
                           : _mm256_or_si256 (mag, _mm256_and_si256 (s, S1 ((int) f->signbit)));
  return _mm256_and_si256 (code, S1 (0xFF));
}

/* four vectors of 8 code lanes -> 32 bytes in lane order */
static inline __m256i
pack32 (__m256i v0, __m256i v1, __m256i v2, __m256i v3)
{
  __m256i p = _mm256_packus_epi16 (_mm256_packus_epi32 (v0, v1), _mm256_packus_epi32 (v2, v3));
  return _mm256_permutevar8x32_epi32 (p, _mm256_setr_epi32 (0, 4, 1, 5, 2, 6, 3, 7));
}

int
mxk_quantize_avx2 (uint8_t *scales, uint8_t *codes, const void *in, mx_format_id in_fmt, size_t n,
                   mx_format_id elem, mx_scale_rule rule, mx_rounding rnd, mxk_packing packing)
{
  if (mxk__check (in_fmt, n, elem, rule, rnd, packing))
    return -1;
  const mxk_fmt *f = mxk__fmt (elem);
  size_t pb = mxk__packed_block_bytes (packing);
  for (size_t blk = 0; blk < n / MXK_BLOCK; blk++)
    {
      __m256i b[4];
      if (in_fmt == MX_BF16)
        for (int h = 0; h < 4; h++)
          b[h] = _mm256_slli_epi32 (_mm256_cvtepu16_epi32 (_mm_loadu_si128 ((const void *) ((const uint16_t *) in + blk * MXK_BLOCK + 8 * (size_t) h))), 16);
      else
        for (int h = 0; h < 4; h++)
          b[h] = _mm256_loadu_si256 ((const void *) ((const uint32_t *) in + blk * MXK_BLOCK + 8 * (size_t) h));
      __m256i mx = _mm256_setzero_si256 (), sub = _mm256_setzero_si256 ();
      for (int h = 0; h < 4; h++)
        {
          __m256i a = _mm256_and_si256 (b[h], S1 (0x7FFFFFFF));
          mx = _mm256_max_epu32 (mx, a);
          sub = _mm256_or_si256 (sub, _mm256_and_si256 (_mm256_cmpgt_epi32 (S1 (0x800000), a), nonzero (a)));
        }
      __m128i m4 = _mm_max_epu32 (_mm256_castsi256_si128 (mx), _mm256_extracti128_si256 (mx, 1));
      m4 = _mm_max_epu32 (m4, _mm_shuffle_epi32 (m4, 0x4E));
      m4 = _mm_max_epu32 (m4, _mm_shuffle_epi32 (m4, 0xB1));
      uint32_t amax = (uint32_t) _mm_cvtsi128_si32 (m4);
      uint8_t c[MXK_BLOCK];
      uint8_t *dst = packing == MXK_UNPACKED ? codes + blk * MXK_BLOCK : c;
      int x = amax - 1 < 0x7F7FFFFFu ? mxk__scale_exp (amax, f, rule) : 0;
      if (!_mm256_testz_si256 (sub, sub) || amax >= 0x7F800000u || amax == 0 || x > 127)
        {
          uint32_t bb[MXK_BLOCK];
          for (int h = 0; h < 4; h++)
            _mm256_storeu_si256 ((void *) (bb + 8 * h), b[h]);
          scales[blk] = mxk__quant_block (dst, bb, f, rule, rnd);
        }
      else
        {
          x = x < -127 ? -127 : x;
          if (rnd == MX_RNE)
            _mm256_storeu_si256 ((void *) dst, pack32 (lanes_rne (b[0], x, f), lanes_rne (b[1], x, f),
                                                       lanes_rne (b[2], x, f), lanes_rne (b[3], x, f)));
          else
            _mm256_storeu_si256 ((void *) dst, pack32 (lanes (b[0], x, f, rnd), lanes (b[1], x, f, rnd),
                                                       lanes (b[2], x, f, rnd), lanes (b[3], x, f, rnd)));
          scales[blk] = (uint8_t) (x + 127);
        }
      if (packing != MXK_UNPACKED)
        mxk__pack_block (codes + blk * pb, c, packing);
    }
  return 0;
}

static inline __m256
decode8 (__m256i c, const mxk_fmt *f)
{
  if (f->is_int)
    return _mm256_mul_ps (_mm256_cvtepi32_ps (_mm256_srai_epi32 (_mm256_slli_epi32 (c, 24), 24)), _mm256_set1_ps (0x1p-6f));
  __m256i mag = _mm256_and_si256 (c, S1 ((int) f->signbit - 1));
  __m256i e = _mm256_srli_epi32 (mag, f->mbits);
  __m256i m = _mm256_and_si256 (mag, S1 ((1 << f->mbits) - 1));
  __m256i sig = _mm256_or_si256 (m, _mm256_and_si256 (nonzero (e), S1 (1 << f->mbits)));
  __m256i k = _mm256_sub_epi32 (_mm256_max_epi32 (e, S1 (1)), S1 (f->bias + f->mbits - 127));
  __m256 val = _mm256_mul_ps (_mm256_cvtepi32_ps (sig), _mm256_castsi256_ps (_mm256_slli_epi32 (k, 23)));
  __m256i sgn = _mm256_slli_epi32 (_mm256_and_si256 (c, S1 ((int) f->signbit)), 32 - f->bits);
  __m256i bits = _mm256_or_si256 (_mm256_castps_si256 (val), sgn);
  if (f->is_fn)
    bits = _mm256_blendv_epi8 (bits, _mm256_or_si256 (sgn, S1 (0x7FC00000)),
                               _mm256_cmpeq_epi32 (mag, S1 ((int) f->signbit - 1)));
  if (f->is_ieee)
    {
      __m256i kx = _mm256_cmpeq_epi32 (e, S1 ((int) (f->signbit - 1) >> f->mbits));
      __m256i special = _mm256_or_si256 (sgn, _mm256_blendv_epi8 (S1 (0x7F800000), S1 (0x7FC00000), nonzero (m)));
      bits = _mm256_blendv_epi8 (bits, special, kx);
    }
  return _mm256_castsi256_ps (bits);
}

int
mxk_dequantize_avx2 (void *out, mx_format_id out_fmt, const uint8_t *scales, const uint8_t *codes,
                     size_t n, mx_format_id elem, mxk_packing packing)
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
      __m256 r[4];
      if (scales[blk] == 0xFF)
        r[0] = r[1] = r[2] = r[3] = _mm256_castsi256_ps (S1 (0x7FC00000));
      else
        {
          __m256 s = _mm256_set1_ps (mxk__pow2f ((int) scales[blk] - 127));
          for (int h = 0; h < 4; h++)
            r[h] = _mm256_mul_ps (decode8 (_mm256_cvtepu8_epi32 (_mm_loadl_epi64 ((const void *) (c + 8 * h))), f), s);
        }
      if (out_fmt == MX_FP32)
        for (int h = 0; h < 4; h++)
          _mm256_storeu_ps ((float *) out + blk * MXK_BLOCK + 8 * (size_t) h, r[h]);
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
          _mm256_storeu_si256 ((void *) ((uint16_t *) out + blk * MXK_BLOCK), p0);
          _mm256_storeu_si256 ((void *) ((uint16_t *) out + blk * MXK_BLOCK + 16), p1);
        }
    }
  return 0;
}

int
mxk_dot_avx2 (uint32_t *out, const uint8_t *sa, const uint8_t *a, mx_format_id fa,
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
          __m256d s = _mm256_set1_pd (-0.0);
          for (int h = 0; h < 4; h++)
            {
              __m256 p = _mm256_mul_ps (decode8 (_mm256_cvtepu8_epi32 (_mm_loadl_epi64 ((const void *) (ab + 8 * h))), pa),
                                        decode8 (_mm256_cvtepu8_epi32 (_mm_loadl_epi64 ((const void *) (bb + 8 * h))), pb));
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

#else /* no AVX2 in this build: the generic path */
int
mxk_quantize_avx2 (uint8_t *scales, uint8_t *codes, const void *in, mx_format_id in_fmt, size_t n,
                   mx_format_id elem, mx_scale_rule rule, mx_rounding rnd, mxk_packing packing)
{
  return mxk_quantize_generic (scales, codes, in, in_fmt, n, elem, rule, rnd, packing);
}
int
mxk_dequantize_avx2 (void *out, mx_format_id out_fmt, const uint8_t *scales, const uint8_t *codes,
                     size_t n, mx_format_id elem, mxk_packing packing)
{
  return mxk_dequantize_generic (out, out_fmt, scales, codes, n, elem, packing);
}
int
mxk_dot_avx2 (uint32_t *out, const uint8_t *sa, const uint8_t *a, mx_format_id fa,
              const uint8_t *sb, const uint8_t *b, mx_format_id fb, size_t n, uint32_t cin)
{
  return mxk_dot_generic (out, sa, a, fa, sb, b, fb, n, cin);
}
#endif
