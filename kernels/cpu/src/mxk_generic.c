/* mxk_generic.c -- the portable path: blocks of 32, the per-lane arithmetic of the SIMD paths
 * written as plain C loops over lanes (the compiler may vectorize them), scalar fallback for the
 * rare blocks that need a leading-zero count (FP32-subnormal values) or hold NaN/Inf.
 * SPDX-License-Identifier: MIT */
#include "internal.h"

/* The lane formula of every fast path (no FP32 subnormals in the block; x the scale exponent;
 * r the random word of sr). */
static inline uint8_t
lane (uint32_t b, int x, const mxk_fmt *f, mx_rounding rnd, uint32_t r)
{
  uint32_t s = b >> 31, e = (b >> 23) & 0xFF;
  uint32_t M = (b & 0x7FFFFF) | (e ? 0x800000u : 0);
  int et = (int) e - 127 - x;
  int d = f->emin - et > 0 ? f->emin - et : 0;
  int sh = f->is_int ? 144 + x - (int) e : 23 - f->mbits + d;
  uint32_t n = sh >= 32 ? 0 : M >> sh;
  uint32_t rb = sh - 1 >= 32 ? 0 : (M >> (sh - 1)) & 1;
  uint32_t mask = sh - 1 >= 32 ? ~0u : (1u << (sh - 1)) - 1;
  uint32_t st = (M & mask) != 0;
  uint32_t inc = rnd == MX_RNA ? rb : rnd == MX_RTZ ? 0 : rnd == MX_RUP ? (rb | st) & !s
                 : rnd == MX_RDN ? (rb | st) & s : rnd == MX_SR ? mxk__sr_inc (M, sh, r)
                 : rb & (st | (n & 1));
  uint32_t nr = n + inc;
  uint32_t mag = (f->is_int || et < f->emin) ? nr
                 : ((uint32_t) (et + f->bias) << f->mbits) + nr - (1u << f->mbits);
  mag = mag > f->maxmag ? f->maxmag : mag;
  mag = M ? mag : 0;
  return (uint8_t) (f->is_int ? (s ? 0u - mag : mag) : (mag | (s ? f->signbit : 0)));
}

static int
quantize_generic (uint8_t *scales, uint8_t *codes, const void *in, mx_format_id in_fmt,
                      size_t n, mx_format_id elem, mx_scale_rule rule, mx_rounding rnd,
                      const uint16_t *rbits, mx_packing packing)
{
  if (mxk__check (in_fmt, n, elem, rule, rnd, rbits, packing))
    return MX_EINVAL;
  const mxk_fmt *f = mxk__fmt (elem);
  size_t pb = mxk__packed_block_bytes (packing);
  for (size_t blk = 0; blk < n / MX_BLOCK; blk++)
    {
      uint32_t b[MX_BLOCK], amax = 0, sub = 0;
      uint8_t c[MX_BLOCK];
      mxk__load_block (b, in, in_fmt, blk);
      for (int i = 0; i < MX_BLOCK; i++)
        {
          uint32_t a = b[i] & 0x7FFFFFFFu;
          amax = a > amax ? a : amax;
          sub |= (a < 0x800000u) & (a != 0);
        }
      int x = amax - 1 < 0x7F7FFFFFu ? mxk__scale_exp (amax, f, rule) : 0;
      const uint16_t *r = rbits ? rbits + blk * MX_BLOCK : NULL;
      if (sub || amax >= 0x7F800000u || amax == 0 || x > 127)
        scales[blk] = mxk__quant_block (c, b, f, rule, rnd, r);
      else
        {
          x = x < -127 ? -127 : x;
          for (int i = 0; i < MX_BLOCK; i++)
            c[i] = lane (b[i], x, f, rnd, r ? r[i] : 0);
          scales[blk] = (uint8_t) (x + 127);
        }
      mxk__pack_block (codes + blk * pb, c, packing);
    }
  return 0;
}

static int
dequantize_generic (void *out, mx_format_id out_fmt, const uint8_t *scales,
                        const uint8_t *codes, size_t n, mx_format_id elem, mx_packing packing)
{
  const mxk_fmt *f = mxk__fmt (elem);
  if (mxk__check_dq (out_fmt, n, elem, packing))
    return MX_EINVAL;
  float lut[256];
  for (int c = 0; c < (1 << f->bits); c++)
    lut[c] = mxk__decode ((uint8_t) c, f);
  size_t pb = mxk__packed_block_bytes (packing);
  for (size_t blk = 0; blk < n / MX_BLOCK; blk++)
    {
      uint8_t c[MX_BLOCK];
      uint32_t v[MX_BLOCK];
      mxk__unpack_block (c, codes + blk * pb, packing);
      if (scales[blk] == 0xFF)
        for (int i = 0; i < MX_BLOCK; i++)
          v[i] = 0x7FC00000u;
      else
        {
          float s1, s2;
          mxk__pow2f_split ((int) scales[blk] - 127, &s1, &s2);
          for (int i = 0; i < MX_BLOCK; i++)
            v[i] = mxk__f2u (lut[c[i]] * s1 * s2);
        }
      if (out_fmt == MX_BF16)
        for (int i = 0; i < MX_BLOCK; i++)
          ((uint16_t *) out)[blk * MX_BLOCK + (size_t) i] = (uint16_t) mxk__bf16_of (v[i]);
      else
        memcpy ((uint32_t *) out + blk * MX_BLOCK, v, sizeof v);
    }
  return 0;
}

static int
dot_generic (uint32_t *out, const uint8_t *sa, const uint8_t *a, mx_format_id fa,
                 const uint8_t *sb, const uint8_t *b, mx_format_id fb, size_t n, uint32_t cin)
{
  return mxk__ops_ref.dot (out, sa, a, fa, sb, b, fb, n, cin);
}

const mxk__ops mxk__ops_generic = { quantize_generic, dequantize_generic, dot_generic,
                                    quantize_generic, quantize_generic,
                                    dequantize_generic };
