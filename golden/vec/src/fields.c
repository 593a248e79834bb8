/* fields.c -- the fields of a case line per op (docs/vectors.md "Body"), and the expected
 * outputs of a case from its inputs (mxv_compute).
 * SPDX-License-Identifier: MIT */
#include "internal.h"

int
mxv_fields (const mxv_header *h, mxv_case *c, mxv_field f[MXV_MAX_FIELDS])
{
  int n = 0, sr = h->rnd == MX_SR, hw_in = mx_hex_digits (h->in->bits);
  int hw_out = mx_hex_digits (h->out->bits), hw_scale = mx_hex_digits (h->scale->bits);
  const mx_format *f32 = mx_format_get (MX_FP32), *eb = mxv__elem_b (h);
  mxv_field codes = { "codes", h->k, 2, h->elem->bits, 1, MXV_F_CODES, c->codes, h->elem };
  if (h->packing != MX_PACKING_UNPACKED)
    codes = (mxv_field) { "codes", mx_packed_size (h->packing, h->k), 2, 8, 1, MXV_F_PACKED,
                          c->packed, NULL };
  mxv_field flags = { "flags", 1, 2, 8, 1, MXV_F_FLAGS, &c->flags, NULL };
  switch (h->op)
    {
    case MXV_QUANTIZE:
      f[n++] = (mxv_field) { "in", h->k, hw_in, h->in->bits, 0, MXV_F_INPUT, c->in, h->in };
      if (sr)
        f[n++] = (mxv_field) { "rbits", h->k, 8, 32, 0, MXV_F_INPUT, c->rbits, NULL };
      f[n++] = (mxv_field) { "scale", 1, hw_scale, h->scale->bits, 1, MXV_F_SCALE, &c->scale, h->scale };
      f[n++] = codes;
      f[n++] = flags;
      break;
    case MXV_CAST:
      f[n++] = (mxv_field) { "in", 1, hw_in, h->in->bits, 0, MXV_F_INPUT, c->in, h->in };
      if (sr)
        f[n++] = (mxv_field) { "rbits", 1, 8, 32, 0, MXV_F_INPUT, c->rbits, NULL };
      f[n++] = (mxv_field) { "code", 1, 2, h->elem->bits, 1, MXV_F_CODES, c->codes, h->elem };
      f[n++] = flags;
      break;
    case MXV_DECODE:
      f[n++] = (mxv_field) { "code", 1, mx_hex_digits (h->elem->bits), h->elem->bits, 0, MXV_F_INPUT, c->in, h->elem };
      f[n++] = (mxv_field) { "out", 1, hw_out, h->out->bits, 1, MXV_F_VALUE, c->out, h->out };
      break;
    case MXV_DOT:
      for (size_t j = 0; j < h->nblocks; j++)
        {
          f[n++] = (mxv_field) { "scale_a", 1, hw_scale, h->scale->bits, 0, MXV_F_INPUT, &c->scale_a[j], h->scale };
          f[n++] = (mxv_field) { "a", h->k, 2, h->elem->bits, 0, MXV_F_INPUT, c->codes + j * h->k, h->elem };
          f[n++] = (mxv_field) { "scale_b", 1, hw_scale, h->scale->bits, 0, MXV_F_INPUT, &c->scale_b[j], h->scale };
          f[n++] = (mxv_field) { "b", h->k, 2, eb->bits, 0, MXV_F_INPUT, c->codes_b + j * h->k, eb };
        }
      f[n++] = (mxv_field) { "cin", 1, 8, 32, 0, MXV_F_INPUT, c->in, f32 };
      f[n++] = (mxv_field) { "out", 1, hw_out, h->out->bits, 1, MXV_F_VALUE, c->out, h->out };
      f[n++] = flags;
      break;
    case MXV_GEMM:
      {
        size_t nb = h->gkdim / h->k;
        f[n++] = (mxv_field) { "scale_a", h->gm * nb, hw_scale, h->scale->bits, 0, MXV_F_INPUT, c->scale_a, h->scale };
        f[n++] = (mxv_field) { "a", h->gm * h->gkdim, 2, h->elem->bits, 0, MXV_F_INPUT, c->codes, h->elem };
        f[n++] = (mxv_field) { "scale_b", h->gn * nb, hw_scale, h->scale->bits, 0, MXV_F_INPUT, c->scale_b, h->scale };
        f[n++] = (mxv_field) { "b", h->gn * h->gkdim, 2, eb->bits, 0, MXV_F_INPUT, c->codes_b, eb };
        f[n++] = (mxv_field) { "cin", h->gm * h->gn, 8, 32, 0, MXV_F_INPUT, c->in, f32 };
        f[n++] = (mxv_field) { "out", h->gm * h->gn, hw_out, h->out->bits, 1, MXV_F_VALUE, c->out, h->out };
        f[n++] = flags;
        break;
      }
    default: /* dequantize */
      f[n++] = (mxv_field) { "scale", 1, hw_scale, h->scale->bits, 0, MXV_F_SCALE, &c->scale, h->scale };
      codes.output = 0;
      f[n++] = codes;
      f[n++] = (mxv_field) { "out", h->k, hw_out, h->out->bits, 1, MXV_F_VALUE, c->out, h->out };
      break;
    }
  return n;
}

int
mxv_compute (const mxv_header *h, mxv_case *c)
{
  uint32_t rb[MXV_MAX_K];
  unsigned fl = 0;
  int rc;
  for (size_t i = 0; i < h->k; i++)
    rb[i] = (uint32_t) c->rbits[i];
  switch (h->op)
    {
    case MXV_QUANTIZE:
      rc = mx_quantize (&c->scale, c->codes, &fl, NULL, h->elem, h->scale, h->in, c->in, h->k,
                        h->rnd == MX_SR ? rb : NULL, &h->pol, h->rnd);
      break;
    case MXV_CAST:
      mx_cast (&c->codes[0], &fl, h->elem, h->in, c->in[0], rb[0], &h->pol, h->rnd);
      rc = MX_OK;
      break;
    case MXV_DECODE:
      mx_cast (&c->out[0], &fl, h->out, h->elem, c->in[0], 0, &h->pol, MX_RNE);
      rc = MX_OK;
      break;
    case MXV_DOT:
      rc = mx_dot (&c->out[0], &fl, h->out, c->scale_a, c->codes, h->elem, c->scale_b,
                   c->codes_b, mxv__elem_b (h), h->scale, h->k, h->nblocks, c->in[0], &h->dp,
                   h->out_rnd);
      break;
    case MXV_GEMM:
      rc = mx_gemm (c->out, &fl, h->out, h->gm, h->gn, h->gkdim, c->scale_a, c->codes, h->elem,
                    c->scale_b, c->codes_b, mxv__elem_b (h), h->scale, h->k, c->in, &h->dp,
                    h->out_rnd);
      break;
    default:
      rc = mx_dequantize (c->out, &fl, h->out, c->scale, c->codes, h->elem, h->scale, h->k,
                          h->rnd == MX_SR ? MX_RNE : h->rnd);
      break;
    }
  c->flags = fl;
  return rc;
}
