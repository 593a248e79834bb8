/* pack_sse.h -- one block's packing and unpacking on 16-byte vectors (SSE4.1 and below), for the
 * ISA files (included inside their ISA guards).  Not installed.
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

/* The inverse: one packed block -> two vectors of 16 codes (reads only the block's bytes). */
static inline void
mxk__unpack_v (__m128i *c0, __m128i *c1, const uint8_t *src, mx_packing p)
{
  if (p == MX_PACKING_FP4_LO_FIRST)
    {
      __m128i b = _mm_loadu_si128 ((const void *) src), m = _mm_set1_epi8 (0xF);
      __m128i lo = _mm_and_si128 (b, m), hi = _mm_and_si128 (_mm_srli_epi16 (b, 4), m);
      *c0 = _mm_unpacklo_epi8 (lo, hi), *c1 = _mm_unpackhi_epi8 (lo, hi);
      return;
    }
  /* group bytes b0 b1 b2 -> words b0|b1<<8 and (b1|b2<<8) >> 4: codes 4i and 4i+2 are the
   * words' low 6 bits, codes 4i+1 and 4i+3 the 6 above */
  const __m128i spread = _mm_setr_epi8 (0, 1, 1, 2, 3, 4, 4, 5, 6, 7, 7, 8, 9, 10, 10, 11);
  __m128i g[2] = { _mm_loadu_si128 ((const void *) src),                          /* bytes 0..15 */
                   _mm_srli_si128 (_mm_loadu_si128 ((const void *) (src + 8)), 4) }; /* 12..23 */
  for (int h = 0; h < 2; h++)
    {
      __m128i w = _mm_shuffle_epi8 (g[h], spread);
      __m128i v = _mm_blend_epi16 (w, _mm_srli_epi16 (w, 4), 0xAA);
      g[h] = _mm_or_si128 (_mm_and_si128 (v, _mm_set1_epi16 (0x003F)),
                           _mm_and_si128 (_mm_slli_epi16 (v, 2), _mm_set1_epi16 (0x3F00)));
    }
  *c0 = g[0], *c1 = g[1];
}

#endif
