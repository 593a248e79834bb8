/* pack_sse.h -- one block's packing on 16-byte vectors (SSE4.1 and below) and unpacking on one
 * 256-bit vector (AVX2), for the ISA files (included inside their ISA guards).  Not installed.
 * SPDX-License-Identifier: MIT */
#ifndef MXK_PACK_SSE_H
#define MXK_PACK_SSE_H
#include <immintrin.h>
#include "internal.h"

/* One block's 32 codes (two vectors of 16 bytes) packed as docs/vectors.md says:
 *  fp4-lo-first: byte i = code 2i | code 2i+1 << 4 (one multiply-add of byte pairs);
 *  fp6-3byte:    3 bytes little-endian = code 4i | 4i+1 << 6 | 4i+2 << 12 | 4i+3 << 18 (two
 *                multiply-adds build each 24-bit group in a dword, one byte shuffle drops the
 *                dwords' top bytes). */
static inline void
mxk__pack_v (uint8_t *dst, __m128i c0, __m128i c1, mx_packing p)
{
  if (p == MX_PACKING_FP4_LO_FIRST)
    {
      const __m128i k = _mm_set1_epi16 (0x1001); /* bytes 1, 16 */
      __m128i m0 = _mm_maddubs_epi16 (_mm_and_si128 (c0, _mm_set1_epi8 (0xF)), k);
      __m128i m1 = _mm_maddubs_epi16 (_mm_and_si128 (c1, _mm_set1_epi8 (0xF)), k);
      _mm_storeu_si128 ((void *) dst, _mm_packus_epi16 (m0, m1));
      return;
    }
  const __m128i k6 = _mm_set1_epi16 (0x4001), k12 = _mm_set1_epi32 (0x10000001); /* 1,64; 1,4096 */
  const __m128i drop = _mm_setr_epi8 (0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1);
  __m128i x0 = _mm_shuffle_epi8 (_mm_madd_epi16 (_mm_maddubs_epi16 (_mm_and_si128 (c0, _mm_set1_epi8 (63)), k6), k12), drop);
  __m128i x1 = _mm_shuffle_epi8 (_mm_madd_epi16 (_mm_maddubs_epi16 (_mm_and_si128 (c1, _mm_set1_epi8 (63)), k6), k12), drop);
  _mm_storeu_si128 ((void *) dst, _mm_or_si128 (x0, _mm_slli_si128 (x1, 12)));
  _mm_storel_epi64 ((void *) (dst + 16), _mm_srli_si128 (x1, 4));
}

/* The inverse: one packed block -> its 32 codes, in element order, in one 256-bit vector (AVX2;
 * reads only the block's bytes).  fp4-lo-first: byte i widened to word i, whose low byte then
 * takes the low nibble and whose high byte the high one ((w | w << 4) & 0x0F0F).  fp6-3byte:
 * each 3-byte group spread to two words (b0 | b1 << 8, b1 | b2 << 8), the second shifted down
 * 4 bits, so that each word holds two codes, at bits 0 and 6; the upper one moved to bit 8.
 * 128-bit lane 1 is loaded from byte 8, not 12, so that no byte past the block is read. */
static inline __m256i
mxk__unpack_v (const uint8_t *src, mx_packing p)
{
  if (p == MX_PACKING_FP4_LO_FIRST)
    {
      __m256i w = _mm256_cvtepu8_epi16 (_mm_loadu_si128 ((const void *) src));
      return _mm256_and_si256 (_mm256_or_si256 (w, _mm256_slli_epi16 (w, 4)), _mm256_set1_epi16 (0x0F0F));
    }
  const __m256i spread = _mm256_setr_epi8 (0, 1, 1, 2, 3, 4, 4, 5, 6, 7, 7, 8, 9, 10, 10, 11,
                                           4, 5, 5, 6, 7, 8, 8, 9, 10, 11, 11, 12, 13, 14, 14, 15);
  __m256i g = _mm256_inserti128_si256 (_mm256_castsi128_si256 (_mm_loadu_si128 ((const void *) src)),
                                       _mm_loadu_si128 ((const void *) (src + 8)), 1);
  __m256i w = _mm256_shuffle_epi8 (g, spread);
  __m256i v = _mm256_blend_epi16 (w, _mm256_srli_epi16 (w, 4), 0xAA);
  return _mm256_or_si256 (_mm256_and_si256 (v, _mm256_set1_epi16 (0x003F)),
                          _mm256_and_si256 (_mm256_slli_epi16 (v, 2), _mm256_set1_epi16 (0x3F00)));
}

#endif
