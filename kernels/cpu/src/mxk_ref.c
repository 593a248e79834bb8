/* mxk_ref.c -- the scalar reference path: one element at a time, the plainest correct code. It
 * is what the bench's "speed-up over the scalar reference" divides by.
 * SPDX-License-Identifier: MIT */
#include "internal.h"

static int
quantize_ref (uint8_t *scales, uint8_t *codes, const void *in, mx_format_id in_fmt, size_t n,
                  mx_format_id elem, mx_scale_rule rule, mx_rounding rnd, const uint16_t *rbits,
                  mx_packing packing)
{
  if (mxk__check (in_fmt, n, elem, rule, rnd, rbits, packing))
    return MX_EINVAL;
  const mxk_fmt *f = mxk__fmt (elem);
  size_t pb = mxk__packed_block_bytes (packing);
  for (size_t blk = 0; blk < n / MX_BLOCK; blk++)
    {
      uint32_t b[MX_BLOCK];
      uint8_t c[MX_BLOCK];
      mxk__load_block (b, in, in_fmt, blk);
      scales[blk] = mxk__quant_block (c, b, f, rule, rnd, rbits ? rbits + blk * MX_BLOCK : NULL);
      mxk__pack_block (codes + blk * pb, c, packing);
    }
  return 0;
}

static int
dequantize_ref (void *out, mx_format_id out_fmt, const uint8_t *scales, const uint8_t *codes,
                    size_t n, mx_format_id elem, mx_packing packing)
{
  const mxk_fmt *f = mxk__fmt (elem);
  if (mxk__check_dq (out_fmt, n, elem, packing))
    return MX_EINVAL;
  size_t pb = mxk__packed_block_bytes (packing);
  for (size_t blk = 0; blk < n / MX_BLOCK; blk++)
    {
      uint8_t c[MX_BLOCK];
      mxk__unpack_block (c, codes + blk * pb, packing);
      float s1 = 0.0f, s2 = 0.0f;
      if (scales[blk] != 0xFF)
        mxk__pow2f_split ((int) scales[blk] - 127, &s1, &s2);
      for (int i = 0; i < MX_BLOCK; i++)
        {
          uint32_t v = scales[blk] == 0xFF ? 0x7FC00000u : mxk__f2u (mxk__decode (c[i], f) * s1 * s2);
          size_t j = blk * MX_BLOCK + (size_t) i;
          if (out_fmt == MX_BF16)
            ((uint16_t *) out)[j] = (uint16_t) mxk__bf16_of (v);
          else
            ((uint32_t *) out)[j] = v;
        }
    }
  return 0;
}

static int
dot_ref (uint32_t *out, const uint8_t *sa, const uint8_t *a, mx_format_id fa,
             const uint8_t *sb, const uint8_t *b, mx_format_id fb, size_t n, uint32_t cin)
{
  const mxk_fmt *pa, *pb;
  if (mxk__check_dot (fa, fb, n, &pa, &pb))
    return MX_EINVAL;
  float acc = mxk__u2f (cin);
  for (size_t blk = 0; blk < n / MX_BLOCK; blk++)
    acc = acc + mxk__block_dot (a + blk * MX_BLOCK, pa, b + blk * MX_BLOCK, pb, sa[blk], sb[blk]);
  uint32_t r = mxk__f2u (acc);
  *out = (r & 0x7FFFFFFFu) > 0x7F800000u ? 0x7FC00000u : r;
  return 0;
}

const mxk__ops mxk__ops_ref = { quantize_ref, dequantize_ref, dot_ref,
                                quantize_ref, quantize_ref,
                                dequantize_ref };
