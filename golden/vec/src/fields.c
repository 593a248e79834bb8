/* fields.c -- the fields of a case line per op (docs/vectors.md "Body"), and the expected
 * outputs of a case from its inputs (mxv_compute).
 * SPDX-License-Identifier: MIT */
#include <string.h>
#include "internal.h"

size_t
mxv_elems (const mxv_header *h)
{
  return h->op == MXV_NVFP4 ? h->rows * h->cols : h->k;
}

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
    case MXV_NVFP4:
      {
        size_t ne = h->rows * h->cols;
        f[n++] = (mxv_field) { "in", ne, hw_in, h->in->bits, 0, MXV_F_INPUT, c->in, h->in };
        if (sr)
          f[n++] = (mxv_field) { "rbits", ne, 8, 32, 0, MXV_F_INPUT, c->rbits, NULL };
        /* the amax is an input when given, an expected output when computed from the tensor */
        f[n++] = (mxv_field) { "amax", 1, 8, 32, !h->amax_given,
                               h->amax_given ? MXV_F_INPUT : MXV_F_VALUE, &c->amax, f32 };
        f[n++] = (mxv_field) { "senc", 1, 8, 32, 1, MXV_F_VALUE, &c->senc, f32 };
        f[n++] = (mxv_field) { "scales", ne / MX_NVFP4_BLOCK, hw_scale, h->scale->bits, 1,
                               MXV_F_SCALE, c->scale_a, h->scale };
        f[n++] = (mxv_field) { "codes", ne, 2, h->elem->bits, 1, MXV_F_CODES, c->codes, h->elem };
        f[n++] = (mxv_field) { "out", ne, hw_out, h->out->bits, 1, MXV_F_VALUE, c->out, h->out };
        f[n++] = flags;
        break;
      }
    case MXV_MXS:
      {
        const mx_mxs_desc *d = mx_mxs_get (h->mxs);
        f[n++] = (mxv_field) { "in", h->k, hw_in, h->in->bits, 0, MXV_F_INPUT, c->in, h->in };
        f[n++] = (mxv_field) { "scale", 1, hw_scale, h->scale->bits, 1, MXV_F_SCALE, &c->scale, h->scale };
        f[n++] = (mxv_field) { "shifts", h->k / d->k2, 2, d->d2, 1, MXV_F_CODES, c->shifts, NULL };
        f[n++] = codes;
        f[n++] = (mxv_field) { "out", h->k, hw_out, h->out->bits, 1, MXV_F_VALUE, c->out, h->out };
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

/* a case's arrays, each with its length (case_clear, case_copy); the scalars apart */
typedef struct
{
  uint64_t *p;
  size_t n;
} case_array;
#define CASE_ARRAY(c, a) { (c)->a, sizeof (c)->a / sizeof (c)->a[0] }
#define CASE_ARRAYS(c)                                                                      \
  { CASE_ARRAY (c, in), CASE_ARRAY (c, rbits), CASE_ARRAY (c, codes), CASE_ARRAY (c, out),  \
    CASE_ARRAY (c, codes_b), CASE_ARRAY (c, scale_a), CASE_ARRAY (c, scale_b),              \
    CASE_ARRAY (c, packed), CASE_ARRAY (c, shifts) }
_Static_assert (sizeof (mxv_case) == (7 * MXV_MAX_WORDS + 2 * MXV_MAX_K + 4) * sizeof (uint64_t),
                "a member of mxv_case that mxv__case_clear and mxv__case_copy do not know");

/* how many leading words of each of c's arrays a line of h uses: the fields' extents (found
 * from where mxv_fields points into c; the scalar fields lie in no array), and the elements
 * (packed codes are unpacked into codes[], rbits read per element by mxv_compute) */
static size_t
case_words (const mxv_header *h, mxv_case *c)
{
  mxv_field f[MXV_MAX_FIELDS];
  case_array arr[] = CASE_ARRAYS (c);
  int nf = mxv_fields (h, c, f);
  size_t w = mxv_elems (h);
  for (int i = 0; i < nf; i++)
    for (size_t a = 0; a < sizeof arr / sizeof arr[0]; a++)
      {
        uintptr_t v = (uintptr_t) f[i].v, lo = (uintptr_t) arr[a].p;
        if (v >= lo && v < lo + arr[a].n * sizeof (uint64_t))
          {
            size_t end = (v - lo) / sizeof (uint64_t) + f[i].count;
            w = end > w ? end : w;
          }
      }
  return w;
}

void
mxv__case_clear (const mxv_header *h, mxv_case *c)
{
  size_t w = case_words (h, c);
  case_array arr[] = CASE_ARRAYS (c);
  for (size_t a = 0; a < sizeof arr / sizeof arr[0]; a++)
    memset (arr[a].p, 0, (w < arr[a].n ? w : arr[a].n) * sizeof (uint64_t));
  c->scale = c->flags = c->amax = c->senc = 0;
}

void
mxv__case_copy (const mxv_header *h, mxv_case *dst, const mxv_case *src)
{
  size_t w = case_words (h, dst);
  case_array to[] = CASE_ARRAYS (dst);
  mxv_case *s = (mxv_case *) src; /* read only: CASE_ARRAYS takes non-const pointers */
  case_array from[] = CASE_ARRAYS (s);
  for (size_t a = 0; a < sizeof to / sizeof to[0]; a++)
    memcpy (to[a].p, from[a].p, (w < to[a].n ? w : to[a].n) * sizeof (uint64_t));
  dst->scale = src->scale, dst->flags = src->flags, dst->amax = src->amax, dst->senc = src->senc;
}

int
mxv_compute (const mxv_header *h, mxv_case *c)
{
  uint32_t rb[MXV_MAX_WORDS];
  uint8_t sh[MXV_MAX_K];
  unsigned fl = 0, dfl = 0;
  int rc;
  for (size_t i = 0; i < mxv_elems (h); i++)
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
    case MXV_NVFP4:
      /* the flags are the quantization's; the dequantized values are checked bit for bit */
      rc = h->amax_given ? MX_OK : mx_nvfp4_amax (&c->amax, h->in, c->in, h->rows * h->cols);
      if (rc == MX_OK)
        rc = mx_nvfp4_global_scale (&c->senc, c->amax);
      if (rc == MX_OK)
        rc = mx_quantize_nvfp4 (c->scale_a, c->codes, &fl, h->in, c->in, h->rows, h->cols,
                                c->amax, h->tile_2d, h->rnd == MX_SR ? rb : NULL, h->rnd);
      if (rc == MX_OK)
        rc = mx_dequantize_nvfp4 (c->out, &dfl, h->out, c->scale_a, c->codes, h->rows, h->cols,
                                  c->amax, MX_RNE);
      break;
    case MXV_MXS:
      rc = mx_quantize_mxs (&c->scale, sh, c->codes, &fl, h->mxs, h->in, c->in, h->k, &h->pol,
                            h->rnd);
      for (size_t j = 0; rc == MX_OK && j < h->k / mx_mxs_get (h->mxs)->k2; j++)
        c->shifts[j] = sh[j];
      if (rc == MX_OK)
        rc = mx_dequantize_mxs (c->out, &dfl, h->out, c->scale, sh, c->codes, h->mxs, h->k,
                                h->rnd);
      break;
    default:
      rc = mx_dequantize (c->out, &fl, h->out, c->scale, c->codes, h->elem, h->scale, h->k,
                          h->rnd == MX_SR ? MX_RNE : h->rnd);
      break;
    }
  c->flags = fl;
  return rc;
}
