/* threads.h -- one thread's work in each libmxk_cuda kernel, and the checks that turn a call's
 * arguments into a launch: C11 and CUDA, so that tests/tcuda.c ("emulate") runs the very same
 * code on the host, thread by thread, where there is no GPU.  Only what must differ is kept
 * apart: the device's wide loads and stores (under __CUDA_ARCH__; the host takes the narrow
 * route, which the device also takes for unaligned pointers), and the warp shuffles that meet a
 * block's amax (in quantize.cu; the emulation takes the maximum over the block's 32 elements).
 * Not installed.
 * SPDX-License-Identifier: MIT */
#ifndef MXK_CUDA_THREADS_H
#define MXK_CUDA_THREADS_H
#include "mxk_cuda_conv.h"

/* Statuses, as mxk_cuda.h and mx/ids.h have them (this header needs neither CUDA's). */
#define MXKC_THREADS 256 /* threads per CTA of the streaming kernels */

/* a * b, or 0 when it overflows a size_t (every caller treats 0 as "too large"). */
MXKC_FN size_t
mxkc_mul (size_t a, size_t b)
{
  return b && a > (size_t) -1 / b ? 0 : a * b;
}

/*--------------------------------------------------------------- quantize -*/
typedef struct
{
  uint8_t *scales, *codes;
  const void *in;
  const uint16_t *rbits;
  size_t nblk, bpr;             /* blocks; blocks per result row */
  size_t rows, cols;            /* the input's shape */
  mx_format_id in_fmt, elem;
  mx_scale_rule rule;
  mx_rounding rnd;
  mx_packing pk;
  int swizzled, colwise;
  int vec_in, vec_out;          /* input / codes aligned for the device's wide loads and stores */
  size_t scale_bytes;           /* of the swizzled layout, padding included (zeroed first) */
} mxkc_qargs;

/* Bytes of the scales of an R x C result: linear R x C/32, or swizzled (128 x 4 tiles); 0 when
 * C is not whole blocks or the size overflows. */
MXKC_FN size_t
mxkc_scale_bytes (size_t r, size_t c, int swizzled)
{
  if (c % MX_BLOCK)
    return 0;
  if (!swizzled)
    return mxkc_mul (r, c / MX_BLOCK);
  return r > (size_t) -1 / 2 || c / MX_BLOCK > (size_t) -1 / 8 ? 0
         : mxkc_mul ((r + 127) / 128 * 128, (c / MX_BLOCK + 3) / 4 * 4);
}

/* Bytes of the codes of an R x C result in packing p; 0 as above or for a packing not written. */
MXKC_FN size_t
mxkc_code_bytes (size_t r, size_t c, mx_packing p)
{
  int pb = mxkc_packed_block_bytes (p);
  return c % MX_BLOCK || !pb ? 0 : mxkc_mul (mxkc_mul (r, c / MX_BLOCK), (size_t) pb);
}

/* The packing of f's codes is written: unpacked, or the dense one of its width. */
MXKC_FN int
mxkc_packing_ok (const mxkc_fmt *f, mx_packing p)
{
  return p == MX_PACKING_UNPACKED || (p == MX_PACKING_FP4_LO_FIRST && f->bits == 4)
         || (p == MX_PACKING_FP6_3BYTE && f->bits == 6);
}

/* A quantize call's arguments into a, or MX_EINVAL (a untouched but for garbage). */
MXKC_FN int
mxkc_q_setup (mxkc_qargs *a, uint8_t *scales, uint8_t *codes, const void *in, mx_format_id in_fmt,
              size_t rows, size_t cols, mx_format_id elem, mx_scale_rule rule, mx_rounding rnd,
              const uint16_t *rbits, mx_packing packing, int colwise, int swizzled)
{
  mxkc_fmt f = mxkc_fmt_of (elem);
  if (!f.bits || (in_fmt != MX_FP32 && in_fmt != MX_BF16 && in_fmt != MX_FP16)
      || (rule != MX_SCALE_FLOOR && rule != MX_SCALE_RCEIL_FP32)
      || (rnd != MX_RNE && rnd != MX_RNA && rnd != MX_RTZ && rnd != MX_RUP && rnd != MX_RDN
          && rnd != MX_SR)
      || (rnd == MX_SR) != (rbits != NULL) || !mxkc_packing_ok (&f, packing) || !scales || !codes
      || !in)
    return MX_EINVAL;
  size_t R = colwise ? cols : rows, C = colwise ? rows : cols, n = mxkc_mul (rows, cols);
  a->scale_bytes = mxkc_scale_bytes (R, C, swizzled);
  /* empty, not whole blocks, or past what one grid covers (2^40 elements) */
  if (n == 0 || C % MX_BLOCK || !a->scale_bytes || !mxkc_code_bytes (R, C, packing)
      || n > (size_t) 1 << 40 || (colwise && (rows / MX_BLOCK > 0x7FFFFFFFu || (cols + 127) / 128 > 65535)))
    return MX_EINVAL;
  a->scales = scales, a->codes = codes, a->in = in, a->rbits = rbits;
  a->nblk = n / MX_BLOCK, a->bpr = C / MX_BLOCK, a->rows = rows, a->cols = cols;
  a->in_fmt = in_fmt, a->elem = elem, a->rule = rule, a->rnd = rnd, a->pk = packing;
  a->swizzled = swizzled, a->colwise = colwise;
  a->vec_in = ((size_t) in & (in_fmt == MX_FP32 ? 15 : 7)) == 0;
  a->vec_out = ((size_t) codes & (packing == MX_PACKING_FP4_LO_FIRST ? 1 : 3)) == 0;
  return MX_OK;
}

MXKC_FN uint32_t
mxkc_q_load1 (const mxkc_qargs *a, size_t i)
{
  if (a->in_fmt == MX_FP32)
    return ((const uint32_t *) a->in)[i];
  return mxkc_fp32_of (((const uint16_t *) a->in)[i], a->in_fmt);
}

/* Input elements i0..i0+3 (i0 a multiple of 4) as FP32 bits. */
MXKC_FN void
mxkc_q_load4 (uint32_t *v, const mxkc_qargs *a, size_t i0)
{
#ifdef __CUDA_ARCH__
  if (a->vec_in && a->in_fmt == MX_FP32)
    {
      uint4 w = *(const uint4 *) ((const uint32_t *) a->in + i0);
      v[0] = w.x, v[1] = w.y, v[2] = w.z, v[3] = w.w;
      return;
    }
  if (a->vec_in)
    {
      uint2 w = *(const uint2 *) ((const uint16_t *) a->in + i0);
      v[0] = mxkc_fp32_of (w.x & 0xFFFF, a->in_fmt), v[1] = mxkc_fp32_of (w.x >> 16, a->in_fmt);
      v[2] = mxkc_fp32_of (w.y & 0xFFFF, a->in_fmt), v[3] = mxkc_fp32_of (w.y >> 16, a->in_fmt);
      return;
    }
#endif
  for (int j = 0; j < 4; j++)
    v[j] = mxkc_q_load1 (a, i0 + (size_t) j);
}

/* Codes i0..i0+3 of the flat code array (i0 a multiple of 4), packed in the word w. */
MXKC_FN void
mxkc_q_store4 (const mxkc_qargs *a, size_t i0, uint32_t w)
{
  if (a->pk == MX_PACKING_FP6_3BYTE)
    {
      uint8_t *d = a->codes + i0 / 4 * 3;
      d[0] = (uint8_t) w, d[1] = (uint8_t) (w >> 8), d[2] = (uint8_t) (w >> 16);
      return;
    }
  int nb = a->pk == MX_PACKING_FP4_LO_FIRST ? 2 : 4;
  uint8_t *d = a->codes + i0 * (size_t) nb / 4;
#ifdef __CUDA_ARCH__
  if (a->vec_out)
    {
      if (nb == 2)
        *(uint16_t *) d = (uint16_t) w;
      else
        *(uint32_t *) d = w;
      return;
    }
#endif
  for (int j = 0; j < nb; j++)
    d[j] = (uint8_t) (w >> (8 * j));
}

/* Where block blk's scale goes. */
MXKC_FN size_t
mxkc_q_scale_at (size_t blk, size_t bpr, int swizzled)
{
  return swizzled ? mxkc_swizzle_offset (blk / bpr, blk % bpr, bpr) : blk;
}

/* Row-wise thread: the ng groups of four elements from group g0 (elements 4 g0 .. 4 (g0 + ng) - 1,
 * which v holds; ng divides 8 and g0 is a multiple of ng, so all lie in block g0 / 8), once the
 * block's amax is known: encode, store, and the block's scale from the thread holding its first
 * group.  elem and rnd are the kernel's constants (a->elem and a->rnd hold the same).  A block
 * in the fast range takes the magic-add route (one FP32 add per element), any other the
 * integer one. */
MXKC_FN void
mxkc_q_rw_thread (const mxkc_qargs *a, size_t g0, int ng, const uint32_t *v, uint32_t amax,
                  mx_format_id elem, mx_rounding rnd)
{
  const mxkc_fmt f = mxkc_fmt_of (elem);
  int x;
  uint8_t s = mxkc_block_scale (amax, &f, a->rule, &x);
  int fast = mxkc_fast_amax (amax, rnd);
  for (int g = 0; g < ng; g++)
    {
      size_t i0 = (g0 + (size_t) g) * 4;
      uint32_t c[4];
      for (int j = 0; j < 4; j++)
        {
          uint32_t r = rnd == MX_SR ? a->rbits[i0 + (size_t) j] : 0, b = v[4 * g + j];
          c[j] = fast ? mxkc_quant_elem_fast (b, x, &f, rnd, r)
                 : s == 0xFF ? 0 : mxkc_quant_elem (b, x, &f, rnd, r);
        }
      mxkc_q_store4 (a, i0, mxkc_pack4 (c[0], c[1], c[2], c[3], a->pk));
    }
  if ((g0 & 7) == 0)
    a->scales[mxkc_q_scale_at (g0 / 8, a->bpr, a->swizzled)] = s;
}

/* Column-wise thread: input column c, rows 32 rb..32 rb+31, which become block rb of result
 * row c. */
MXKC_FN void
mxkc_q_cw_thread (const mxkc_qargs *a, size_t c, size_t rb)
{
  const mxkc_fmt f = mxkc_fmt_of (a->elem);
  uint32_t v[MX_BLOCK], m = 0;
  for (int i = 0; i < MX_BLOCK; i++)
    {
      v[i] = mxkc_q_load1 (a, (rb * MX_BLOCK + (size_t) i) * a->cols + c);
      m = (v[i] & 0x7FFFFFFFu) > m ? v[i] & 0x7FFFFFFFu : m;
    }
  int x;
  uint8_t s = mxkc_block_scale (m, &f, a->rule, &x);
  int fast = mxkc_fast_amax (m, a->rnd);
  size_t blk = c * a->bpr + rb;
  for (int i = 0; i < MX_BLOCK; i += 4)
    {
      uint32_t q[4];
      for (int j = 0; j < 4; j++)
        {
          size_t at = (rb * MX_BLOCK + (size_t) (i + j)) * a->cols + c;
          uint32_t r = a->rnd == MX_SR ? a->rbits[at] : 0;
          q[j] = fast ? mxkc_quant_elem_fast (v[i + j], x, &f, a->rnd, r)
                 : s == 0xFF ? 0 : mxkc_quant_elem (v[i + j], x, &f, a->rnd, r);
        }
      mxkc_q_store4 (a, blk * MX_BLOCK + (size_t) i, mxkc_pack4 (q[0], q[1], q[2], q[3], a->pk));
    }
  a->scales[mxkc_q_scale_at (blk, a->bpr, a->swizzled)] = s;
}

/*------------------------------------------------------------- dequantize -*/
typedef struct
{
  void *out;
  const uint8_t *scales, *codes;
  size_t nblk, bpr;
  mx_format_id elem;
  mx_packing pk;
  int swizzled, bf16, vec_in, vec_out;
} mxkc_dqargs;

MXKC_FN int
mxkc_dq_setup (mxkc_dqargs *a, void *out, mx_format_id out_fmt, const uint8_t *scales,
               const uint8_t *codes, size_t r, size_t c, mx_format_id elem, mx_packing packing,
               int swizzled)
{
  mxkc_fmt f = mxkc_fmt_of (elem);
  size_t n = mxkc_mul (r, c);
  if (!f.bits || !mxkc_packing_ok (&f, packing) || (out_fmt != MX_FP32 && out_fmt != MX_BF16)
      || !out || !scales || !codes || n == 0 || c % MX_BLOCK || n > (size_t) 1 << 40
      || !mxkc_scale_bytes (r, c, swizzled) || !mxkc_code_bytes (r, c, packing))
    return MX_EINVAL;
  a->out = out, a->scales = scales, a->codes = codes, a->nblk = n / MX_BLOCK, a->bpr = c / MX_BLOCK;
  a->elem = elem, a->pk = packing, a->swizzled = swizzled, a->bf16 = out_fmt == MX_BF16;
  a->vec_in = ((size_t) codes & (packing == MX_PACKING_FP4_LO_FIRST ? 1 : 3)) == 0;
  a->vec_out = ((size_t) out & (a->bf16 ? 7 : 15)) == 0;
  return MX_OK;
}

/* Dequantize thread t: elements 4t..4t+3; lut: the 2^bits codes' exact FP32 values
 * (mxkc_decode_f32). */
MXKC_FN void
mxkc_dq_thread (const mxkc_dqargs *a, const uint32_t *lut, size_t t)
{
  size_t blk = t / 8, i0 = t * 4;
  uint8_t s = a->scales[mxkc_q_scale_at (blk, a->bpr, a->swizzled)];
  int nb = a->pk == MX_PACKING_FP4_LO_FIRST ? 2 : a->pk == MX_PACKING_FP6_3BYTE ? 3 : 4;
  const uint8_t *p = a->codes + i0 / 4 * (size_t) nb;
  uint32_t w = 0;
#ifdef __CUDA_ARCH__
  if (a->vec_in && nb != 3)
    w = nb == 2 ? *(const uint16_t *) p : *(const uint32_t *) p;
  else
#endif
    for (int j = 0; j < nb; j++)
      w |= (uint32_t) p[j] << (8 * j);
  uint32_t y[4];
  for (int j = 0; j < 4; j++)
    y[j] = mxkc_scale_f32 (lut[mxkc_unpack4 (w, j, a->pk)], s);
  if (a->bf16)
    {
      uint16_t *o = (uint16_t *) a->out + i0;
#ifdef __CUDA_ARCH__
      if (a->vec_out)
        {
          *(uint2 *) o = make_uint2 (mxkc_bf16_of (y[0]) | mxkc_bf16_of (y[1]) << 16,
                                     mxkc_bf16_of (y[2]) | mxkc_bf16_of (y[3]) << 16);
          return;
        }
#endif
      for (int j = 0; j < 4; j++)
        o[j] = (uint16_t) mxkc_bf16_of (y[j]);
      return;
    }
  uint32_t *o = (uint32_t *) a->out + i0;
#ifdef __CUDA_ARCH__
  if (a->vec_out)
    {
      *(uint4 *) o = make_uint4 (y[0], y[1], y[2], y[3]);
      return;
    }
#endif
  for (int j = 0; j < 4; j++)
    o[j] = y[j];
}
#endif
