/* mxv.c -- .mxv header, fields, packing, expected-result computation and the four emitters.
 * SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include "mxv.h"

const char *const mxv_op_names[MXV_OP_COUNT] = { "quantize", "cast", "decode", "dequantize",
                                                 "dot", "gemm" };
const char *const mxv_packing_names[4] = { "unpacked", "fp4-lo-first", "fp4-j-j16", "fp6-3byte" };
const char *const mxv_emit_names[4] = { "mxv", "bin", "readmemh", "jsonl" };

static int
hexw (unsigned bits)
{
  int d = (int) (bits + 3) / 4;
  return d < 2 ? 2 : d;
}

void
mxv_header_init (mxv_header *h)
{
  memset (h, 0, sizeof *h);
  h->op = MXV_QUANTIZE;
  h->scale = mx_format_get (MX_E8M0);
  h->in = mx_format_get (MX_FP32);
  h->out = mx_format_get (MX_FP32);
  h->k = 32;
  h->pol = mx_policy_default ();
  strcpy (h->profile, "ocp");
  h->seed = 1;
  h->level = 1;
  h->nblocks = 1;
  h->gm = h->gn = 2;
  h->gkdim = 64;
  h->dp = mx_dot_policy_default ();
#ifndef MXGOLD_GIT
#define MXGOLD_GIT "unknown"
#endif
  snprintf (h->generator, sizeof h->generator, "mxgold %s (git %s)", MX_VERSION_STRING, MXGOLD_GIT);
}

int
mxv_header_validate (const mxv_header *h, char *err, size_t n)
{
  if (h->elem == NULL)
    return snprintf (err, n, "no element format (header 'elem', option --format)"), -1;
  if (h->elem->role != MX_ROLE_ELEM && h->op != MXV_DECODE)
    return snprintf (err, n, "'%s' is not an element format", h->elem->name), -1;
  if (h->k < 1 || h->k > MXV_MAX_K)
    return snprintf (err, n, "block size %zu is outside 1..%d", h->k, MXV_MAX_K), -1;
  if (h->packing == MXV_FP4_LO_FIRST || h->packing == MXV_FP4_J_J16)
    {
      if (h->elem->bits != 4)
        return snprintf (err, n, "packing %s needs a 4-bit element format", mxv_packing_names[h->packing]), -1;
      if (h->packing == MXV_FP4_J_J16 ? h->k % 32 : h->k % 2)
        return snprintf (err, n, "packing %s needs a block size that is a multiple of %d",
                         mxv_packing_names[h->packing], h->packing == MXV_FP4_J_J16 ? 32 : 2), -1;
    }
  if (h->packing == MXV_FP6_3BYTE && (h->elem->bits != 6 || h->k % 4))
    return snprintf (err, n, "packing fp6-3byte needs a 6-bit element format and a block size that is a multiple of 4"), -1;
  if (h->packing != MXV_UNPACKED && h->op != MXV_QUANTIZE && h->op != MXV_DEQUANTIZE)
    return snprintf (err, n, "packing applies to quantize and dequantize vectors only"), -1;
  if (h->op == MXV_DOT || h->op == MXV_GEMM)
    {
      const mx_format *b = h->elem_b ? h->elem_b : h->elem;
      if (b->role != MX_ROLE_ELEM)
        return snprintf (err, n, "'%s' is not an element format", b->name), -1;
      if (h->op == MXV_DOT && (h->nblocks < 1 || h->nblocks > MXV_MAX_NB || h->nblocks * h->k > MXV_MAX_K))
        return snprintf (err, n, "blocks x block must be at most %d (and blocks <= %d)", MXV_MAX_K, MXV_MAX_NB), -1;
      if (h->op == MXV_GEMM
          && (h->gkdim % h->k || h->gkdim == 0 || h->gm * h->gkdim > MXV_MAX_K || h->gn * h->gkdim > MXV_MAX_K
              || h->gm * h->gn > MXV_MAX_K || h->gm * (h->gkdim / h->k) > 8 * MXV_MAX_NB
              || h->gn * (h->gkdim / h->k) > 8 * MXV_MAX_NB))
        return snprintf (err, n, "gemm needs kdim a multiple of the block, and m*kdim, n*kdim, m*n <= %d", MXV_MAX_K), -1;
    }
  return 0;
}

/*---------------------------------------------------------------- header -*/
void
mxv_write_header (FILE *o, const mxv_header *h, const char *pf)
{
  fprintf (o, "%s mxv-version: %d\n", pf, MXV_VERSION);
  fprintf (o, "%s generator: %s\n", pf, h->generator);
  fprintf (o, "%s command: %s\n", pf, h->command);
  fprintf (o, "%s spec: OCP MX v1.0\n", pf);
  fprintf (o, "%s op: %s\n", pf, mxv_op_names[h->op]);
  fprintf (o, "%s elem: %s\n", pf, h->elem->name);
  fprintf (o, "%s scale: %s\n", pf, h->scale->name);
  fprintf (o, "%s input: %s\n", pf, h->in->name);
  fprintf (o, "%s output: %s\n", pf, h->out->name);
  fprintf (o, "%s block: %zu\n", pf, h->k);
  fprintf (o, "%s profile: %s\n", pf, h->profile);
  fprintf (o, "%s rounding: %s\n", pf, mx_rounding_name (h->pol.rounding));
  fprintf (o, "%s scale-rule: %s\n", pf, mx_scale_rule_name (h->pol.scale_rule));
  for (int i = 0; i < MX_POLICY_FIELD_COUNT; i++)
    {
      const char *k = mx_policy_field_names[i];
      fprintf (o, "%s %s: %s\n", pf, k, mx_policy_value_name (k, mx_policy_get_field (&h->pol, k)));
    }
  fprintf (o, "%s zero-scale: %02X\n", pf, (unsigned) h->pol.zero_scale);
  fprintf (o, "%s sr-bits: %u\n", pf, h->pol.sr_bits);
  fprintf (o, "%s packing: %s\n", pf, mxv_packing_names[h->packing]);
  if (h->op == MXV_DOT || h->op == MXV_GEMM)
    {
      const mx_tc_model *m = &h->dp.tc;
      fprintf (o, "%s elem-b: %s\n", pf, (h->elem_b ? h->elem_b : h->elem)->name);
      fprintf (o, "%s accum: %s\n", pf, mx_accum_name (h->dp.accum));
      fprintf (o, "%s out-rounding: %s\n", pf, mx_rounding_name (h->dp.rounding));
      if (h->dp.accum == MX_ACCUM_TENSOR_CORE)
        fprintf (o, "%s tc: group %u frac-bits %d align %s out %s cin-in-group %d scale-point %s\n",
                 pf, m->group, m->frac_bits, mx_rounding_name (m->align), mx_rounding_name (m->out),
                 m->cin_in_group, m->scale_point == MX_TC_SCALE_GROUP ? "group" : "product");
      if (h->op == MXV_DOT)
        fprintf (o, "%s blocks: %zu\n", pf, h->nblocks);
      else
        fprintf (o, "%s gemm: m %zu n %zu kdim %zu\n", pf, h->gm, h->gn, h->gkdim);
    }
  fprintf (o, "%s seed: %llu\n", pf, h->seed);
  fprintf (o, "%s level: %d\n", pf, h->level);
  fprintf (o, "%s cases: %ld\n", pf, h->cases);
  fprintf (o, "%s flags-encoding: 01 inexact, 02 underflow, 04 overflow, 10 invalid, 20 scale-clamped\n", pf);
}

/* Copy s into d[n], truncated (header values longer than the field are cut, never overflow). */
static void
copy_str (char *d, size_t n, const char *s)
{
  size_t l = strlen (s);
  if (l >= n)
    l = n - 1;
  memcpy (d, s, l);
  d[l] = 0;
}

int
mxv_lookup (const char *const *names, int n, const char *s)
{
  for (int i = 0; i < n; i++)
    if (strcmp (names[i], s) == 0)
      return i;
  return -1;
}

int
mxv_header_line (mxv_header *h, const char *line, char *err, size_t n)
{
  char key[64], val[2048];
  const char *p = line + 1, *colon;
  while (*p == ' ')
    p++;
  colon = strchr (p, ':');
  if (colon == NULL || (size_t) (colon - p) >= sizeof key)
    return 1; /* a plain comment */
  memcpy (key, p, (size_t) (colon - p));
  key[colon - p] = 0;
  p = colon + 1;
  while (*p == ' ')
    p++;
  copy_str (val, sizeof val, p);
  size_t len = strlen (val);
  while (len && (val[len - 1] == '\n' || val[len - 1] == '\r' || val[len - 1] == ' '))
    val[--len] = 0;

  int v;
  char *end;
  const mx_format *f;
#define BAD(...) return snprintf (err, n, __VA_ARGS__), -1
  if (strcmp (key, "mxv-version") == 0)
    {
      if (strcmp (val, "1") != 0)
        BAD ("mxv-version '%s' is not supported (this mxgold reads version 1)", val);
    }
  else if (strcmp (key, "generator") == 0)
    copy_str (h->generator, sizeof h->generator, val);
  else if (strcmp (key, "command") == 0)
    copy_str (h->command, sizeof h->command, val);
  else if (strcmp (key, "op") == 0)
    {
      if ((v = mxv_lookup (mxv_op_names, MXV_OP_COUNT, val)) < 0)
        BAD ("unknown op '%s' (quantize cast decode dequantize)", val);
      h->op = (mxv_op) v;
    }
  else if (strcmp (key, "elem") == 0 || strcmp (key, "scale") == 0 || strcmp (key, "input") == 0
           || strcmp (key, "output") == 0)
    {
      if ((f = mx_format_by_name (val)) == NULL)
        BAD ("unknown format '%s' in header key '%s'", val, key);
      if (key[0] == 'e')
        h->elem = f;
      else if (key[0] == 's')
        h->scale = f;
      else if (key[0] == 'i')
        h->in = f;
      else
        h->out = f;
    }
  else if (strcmp (key, "block") == 0)
    {
      h->k = strtoul (val, &end, 10);
      if (*end || h->k < 1 || h->k > MXV_MAX_K)
        BAD ("block '%s' is not an integer in 1..%d", val, MXV_MAX_K);
    }
  else if (strcmp (key, "profile") == 0)
    copy_str (h->profile, sizeof h->profile, val);
  else if (strcmp (key, "rounding") == 0)
    {
      if ((v = mx_rounding_parse (val)) < 0)
        BAD ("unknown rounding '%s'", val);
      h->pol.rounding = (mx_rounding) v;
    }
  else if (strcmp (key, "scale-rule") == 0)
    {
      if ((v = mx_scale_rule_parse (val)) < 0)
        BAD ("unknown scale rule '%s'", val);
      h->pol.scale_rule = (mx_scale_rule) v;
    }
  else if (mx_policy_get_field (&h->pol, key) >= 0)
    {
      if (mx_policy_set_field (&h->pol, key, mx_policy_value_parse (key, val)) != 0)
        BAD ("unknown %s value '%s'", key, val);
    }
  else if (strcmp (key, "zero-scale") == 0)
    {
      h->pol.zero_scale = (uint32_t) strtoul (val, &end, 16);
      if (*end || !*val || h->pol.zero_scale > 0xFF)
        BAD ("zero-scale '%s' is not a hex code 00..FF", val);
    }
  else if (strcmp (key, "sr-bits") == 0)
    {
      h->pol.sr_bits = (unsigned) strtoul (val, &end, 10);
      if (*end || h->pol.sr_bits < 1 || h->pol.sr_bits > 32)
        BAD ("sr-bits '%s' is not an integer in 1..32", val);
    }
  else if (strcmp (key, "packing") == 0)
    {
      if ((v = mxv_lookup (mxv_packing_names, 4, val)) < 0)
        BAD ("unknown packing '%s'", val);
      h->packing = (mxv_packing) v;
    }
  else if (strcmp (key, "elem-b") == 0)
    {
      if ((h->elem_b = mx_format_by_name (val)) == NULL)
        BAD ("unknown format '%s' in header key 'elem-b'", val);
    }
  else if (strcmp (key, "accum") == 0)
    {
      if ((v = mx_accum_parse (val)) < 0)
        BAD ("unknown accum '%s'", val);
      h->dp.accum = (mx_accum) v;
    }
  else if (strcmp (key, "out-rounding") == 0)
    {
      if ((v = mx_rounding_parse (val)) < 0)
        BAD ("unknown out-rounding '%s'", val);
      h->dp.rounding = (mx_rounding) v;
    }
  else if (strcmp (key, "tc") == 0)
    {
      char al[16], ou[16], sp[16];
      mx_tc_model *m = &h->dp.tc;
      int a, b;
      if (sscanf (val, "group %u frac-bits %d align %15s out %15s cin-in-group %d scale-point %15s",
                  &m->group, &m->frac_bits, al, ou, &m->cin_in_group, sp) != 6
          || (a = mx_rounding_parse (al)) < 0 || (b = mx_rounding_parse (ou)) < 0
          || (strcmp (sp, "group") != 0 && strcmp (sp, "product") != 0))
        BAD ("tc '%s' is not 'group G frac-bits F align R out R cin-in-group 0|1 scale-point product|group'", val);
      m->align = (mx_rounding) a;
      m->out = (mx_rounding) b;
      m->scale_point = sp[0] == 'g' ? MX_TC_SCALE_GROUP : MX_TC_SCALE_PRODUCT;
    }
  else if (strcmp (key, "blocks") == 0)
    {
      h->nblocks = strtoul (val, &end, 10);
      if (*end || h->nblocks < 1 || h->nblocks > MXV_MAX_NB)
        BAD ("blocks '%s' is not an integer in 1..%d", val, MXV_MAX_NB);
    }
  else if (strcmp (key, "gemm") == 0)
    {
      if (sscanf (val, "m %zu n %zu kdim %zu", &h->gm, &h->gn, &h->gkdim) != 3)
        BAD ("gemm '%s' is not 'm M n N kdim K'", val);
    }
  else if (strcmp (key, "seed") == 0)
    h->seed = strtoull (val, NULL, 0);
  else if (strcmp (key, "level") == 0)
    h->level = atoi (val);
  else if (strcmp (key, "cases") == 0)
    h->cases = atol (val);
  else
    return 1; /* spec, flags-encoding and unknown keys: informative only */
#undef BAD
  return 0;
}

/*--------------------------------------------------------------- packing -*/
size_t
mxv_packed_bytes (const mxv_header *h)
{
  return h->packing == MXV_UNPACKED ? h->k : h->packing == MXV_FP6_3BYTE ? h->k / 4 * 3 : h->k / 2;
}

void
mxv_pack (const mxv_header *h, const uint64_t *c, uint64_t *b)
{
  size_t k = h->k;
  switch (h->packing)
    {
    case MXV_FP4_LO_FIRST: /* byte i: element 2i in bits 3:0, 2i+1 in bits 7:4 (torchao) */
      for (size_t i = 0; i < k / 2; i++)
        b[i] = (c[2 * i] & 0xF) | (c[2 * i + 1] & 0xF) << 4;
      break;
    case MXV_FP4_J_J16: /* per 32: byte j: element j low, j+16 high (ggml block_mxfp4) */
      for (size_t g = 0; g < k; g += 32)
        for (size_t j = 0; j < 16; j++)
          b[g / 2 + j] = (c[g + j] & 0xF) | (c[g + j + 16] & 0xF) << 4;
      break;
    case MXV_FP6_3BYTE: /* 4 elements little-endian in 24 bits: e0 bits 5:0 of byte 0 */
      for (size_t i = 0; i < k / 4; i++)
        {
          uint32_t w = (uint32_t) ((c[4 * i] & 63) | (c[4 * i + 1] & 63) << 6
                                   | (c[4 * i + 2] & 63) << 12 | (c[4 * i + 3] & 63) << 18);
          b[3 * i] = w & 0xFF;
          b[3 * i + 1] = (w >> 8) & 0xFF;
          b[3 * i + 2] = w >> 16;
        }
      break;
    default:
      memcpy (b, c, k * sizeof *b);
    }
}

void
mxv_unpack (const mxv_header *h, const uint64_t *b, uint64_t *c)
{
  size_t k = h->k;
  switch (h->packing)
    {
    case MXV_FP4_LO_FIRST:
      for (size_t i = 0; i < k / 2; i++)
        c[2 * i] = b[i] & 0xF, c[2 * i + 1] = b[i] >> 4;
      break;
    case MXV_FP4_J_J16:
      for (size_t g = 0; g < k; g += 32)
        for (size_t j = 0; j < 16; j++)
          c[g + j] = b[g / 2 + j] & 0xF, c[g + j + 16] = b[g / 2 + j] >> 4;
      break;
    case MXV_FP6_3BYTE:
      for (size_t i = 0; i < k / 4; i++)
        {
          uint32_t w = (uint32_t) (b[3 * i] | b[3 * i + 1] << 8 | b[3 * i + 2] << 16);
          for (int j = 0; j < 4; j++)
            c[4 * i + (size_t) j] = (w >> (6 * j)) & 63;
        }
      break;
    default:
      memcpy (c, b, k * sizeof *c);
    }
}

/*---------------------------------------------------------------- fields -*/
int
mxv_fields (const mxv_header *h, mxv_case *c, uint64_t *packed, mxv_field f[MXV_MAX_FIELDS])
{
  int n = 0, sr = h->pol.rounding == MX_SR;
  mxv_field codes = { "codes", h->k, 2, h->elem->bits, 1, c->codes, 1, h->elem };
  if (h->packing != MXV_UNPACKED)
    codes = (mxv_field) { "codes", mxv_packed_bytes (h), 2, 8, 1, packed, 2, NULL };
  switch (h->op)
    {
    case MXV_QUANTIZE:
      f[n++] = (mxv_field) { "in", h->k, hexw (h->in->bits), h->in->bits, 0, c->in, 0, h->in };
      if (sr)
        f[n++] = (mxv_field) { "rbits", h->k, 8, 32, 0, c->rbits, 0, NULL };
      f[n++] = (mxv_field) { "scale", 1, hexw (h->scale->bits), h->scale->bits, 1, &c->scale, 3, h->scale };
      f[n++] = codes;
      f[n++] = (mxv_field) { "flags", 1, 2, 8, 1, (uint64_t *) NULL, 0, NULL };
      break;
    case MXV_CAST:
      f[n++] = (mxv_field) { "in", 1, hexw (h->in->bits), h->in->bits, 0, c->in, 0, h->in };
      if (sr)
        f[n++] = (mxv_field) { "rbits", 1, 8, 32, 0, c->rbits, 0, NULL };
      f[n++] = (mxv_field) { "code", 1, 2, h->elem->bits, 1, c->codes, 1, h->elem };
      f[n++] = (mxv_field) { "flags", 1, 2, 8, 1, (uint64_t *) NULL, 0, NULL };
      break;
    case MXV_DECODE:
      f[n++] = (mxv_field) { "code", 1, hexw (h->elem->bits), h->elem->bits, 0, c->in, 0, h->elem };
      f[n++] = (mxv_field) { "out", 1, hexw (h->out->bits), h->out->bits, 1, c->out, 4, h->out };
      break;
    case MXV_DOT:
      {
        const mx_format *eb = h->elem_b ? h->elem_b : h->elem;
        int sw = hexw (h->scale->bits);
        for (size_t j = 0; j < h->nblocks; j++)
          {
            f[n++] = (mxv_field) { "scale_a", 1, sw, h->scale->bits, 0, &c->scale_a[j], 0, h->scale };
            f[n++] = (mxv_field) { "a", h->k, 2, h->elem->bits, 0, c->codes + j * h->k, 0, h->elem };
            f[n++] = (mxv_field) { "scale_b", 1, sw, h->scale->bits, 0, &c->scale_b[j], 0, h->scale };
            f[n++] = (mxv_field) { "b", h->k, 2, eb->bits, 0, c->codes_b + j * h->k, 0, eb };
          }
        f[n++] = (mxv_field) { "cin", 1, 8, 32, 0, c->in, 0, mx_format_get (MX_FP32) };
        f[n++] = (mxv_field) { "out", 1, hexw (h->out->bits), h->out->bits, 1, c->out, 4, h->out };
        f[n++] = (mxv_field) { "flags", 1, 2, 8, 1, (uint64_t *) NULL, 0, NULL };
        break;
      }
    case MXV_GEMM:
      {
        const mx_format *eb = h->elem_b ? h->elem_b : h->elem;
        size_t nb = h->gkdim / h->k;
        int sw = hexw (h->scale->bits);
        f[n++] = (mxv_field) { "scale_a", h->gm * nb, sw, h->scale->bits, 0, c->scale_a, 0, h->scale };
        f[n++] = (mxv_field) { "a", h->gm * h->gkdim, 2, h->elem->bits, 0, c->codes, 0, h->elem };
        f[n++] = (mxv_field) { "scale_b", h->gn * nb, sw, h->scale->bits, 0, c->scale_b, 0, h->scale };
        f[n++] = (mxv_field) { "b", h->gn * h->gkdim, 2, eb->bits, 0, c->codes_b, 0, eb };
        f[n++] = (mxv_field) { "cin", h->gm * h->gn, 8, 32, 0, c->in, 0, mx_format_get (MX_FP32) };
        f[n++] = (mxv_field) { "out", h->gm * h->gn, hexw (h->out->bits), h->out->bits, 1, c->out, 4, h->out };
        f[n++] = (mxv_field) { "flags", 1, 2, 8, 1, (uint64_t *) NULL, 0, NULL };
        break;
      }
    default:
      f[n++] = (mxv_field) { "scale", 1, hexw (h->scale->bits), h->scale->bits, 0, &c->scale, 0, h->scale };
      codes.output = 0;
      codes.codes = 0;
      f[n++] = codes;
      f[n++] = (mxv_field) { "out", h->k, hexw (h->out->bits), h->out->bits, 1, c->out, 4, h->out };
      break;
    }
  return n;
}

/*--------------------------------------------------------------- compute -*/
void
mxv_compute (const mxv_header *h, mxv_case *c)
{
  uint32_t rb[MXV_MAX_K];
  for (size_t i = 0; i < h->k; i++)
    rb[i] = (uint32_t) c->rbits[i];
  switch (h->op)
    {
    case MXV_QUANTIZE:
      c->flags = mx_quantize (&c->scale, c->codes, NULL, h->elem, h->scale, h->in, c->in, h->k,
                              h->pol.rounding == MX_SR ? rb : NULL, &h->pol);
      break;
    case MXV_CAST:
      c->codes[0] = mx_cast (h->elem, h->in, c->in[0], h->pol.rounding, rb[0], &h->pol, &c->flags);
      break;
    case MXV_DECODE:
      c->out[0] = mx_cast (h->out, h->elem, c->in[0], MX_RNE, 0, &h->pol, &c->flags);
      break;
    case MXV_DOT:
      c->flags = mx_dot (&c->out[0], h->out, c->scale_a, c->codes, h->elem, c->scale_b, c->codes_b,
                         h->elem_b ? h->elem_b : h->elem, h->scale, h->k, h->nblocks, c->in[0],
                         &h->dp);
      break;
    case MXV_GEMM:
      c->flags = mx_gemm (c->out, h->out, h->gm, h->gn, h->gkdim, c->scale_a, c->codes, h->elem,
                          c->scale_b, c->codes_b, h->elem_b ? h->elem_b : h->elem, h->scale, h->k,
                          c->in, &h->dp);
      break;
    default:
      c->flags = mx_dequantize (c->out, h->out, c->scale, c->codes, h->elem, h->scale, h->k,
                                h->pol.rounding == MX_SR ? MX_RNE : h->pol.rounding);
      break;
    }
}

/*--------------------------------------------------------------- writers -*/
void
mxv_writer_begin (mxv_writer *w, FILE *o, mxv_emit emit, const mxv_header *h)
{
  w->o = o;
  w->emit = emit;
  w->h = h;
  w->n = 0;
  if (emit == MXV_EMIT_MXV)
    mxv_write_header (o, h, "#");
  else if (emit == MXV_EMIT_READMEMH)
    {
      mxv_write_header (o, h, "//");
      fprintf (o, "// layout: each line is one case, the .mxv fields concatenated without spaces,"
                  " first field in the most significant digits\n");
    }
  else if (emit == MXV_EMIT_BIN)
    {
      /* magic, then the text header (its length first, u32 LE), then fixed-size records */
      fwrite ("MXVBIN1\n", 1, 8, o);
      char *buf = NULL;
      size_t len = 0;
      FILE *m = open_memstream (&buf, &len);
      mxv_write_header (m, h, "#");
      fclose (m);
      unsigned char l4[4] = { (unsigned char) len, (unsigned char) (len >> 8),
                              (unsigned char) (len >> 16), (unsigned char) (len >> 24) };
      fwrite (l4, 1, 4, o);
      fwrite (buf, 1, len, o);
      free (buf);
    }
  else
    {
      fprintf (o, "{\"mxv-version\": %d, \"header\": {", MXV_VERSION);
      char *buf = NULL;
      size_t len = 0;
      FILE *m = open_memstream (&buf, &len);
      mxv_write_header (m, h, "#");
      fclose (m);
      int first = 1;
      for (char *line = strtok (buf, "\n"); line; line = strtok (NULL, "\n"))
        {
          char *colon = strchr (line, ':');
          if (!colon)
            continue;
          *colon = 0;
          fprintf (o, "%s\"%s\": \"", first ? "" : ", ", line + 2);
          for (const char *p = colon + 2; *p; p++)
            fprintf (o, *p == '"' || *p == '\\' ? "\\%c" : "%c", *p);
          fputc ('"', o);
          first = 0;
        }
      free (buf);
      fprintf (o, "}}\n");
    }
}

void
mxv_writer_case (mxv_writer *w, mxv_case *c)
{
  const mxv_header *h = w->h;
  mxv_field f[MXV_MAX_FIELDS];
  uint64_t packed[MXV_MAX_K], flags = c->flags;
  if (h->packing != MXV_UNPACKED)
    mxv_pack (h, c->codes, packed);
  int n = mxv_fields (h, c, packed, f);
  w->n++;
  if (w->emit == MXV_EMIT_JSONL)
    fputc ('{', w->o);
  for (int i = 0; i < n; i++)
    {
      const uint64_t *v = f[i].v ? f[i].v : &flags;
      if (w->emit == MXV_EMIT_JSONL)
        fprintf (w->o, "%s\"%s\": %s", i ? ", " : "", f[i].name, f[i].count > 1 || f[i].v == c->in ? "[" : "");
      for (size_t j = 0; j < f[i].count; j++)
        switch (w->emit)
          {
          case MXV_EMIT_MXV:
            fprintf (w->o, (i || j) ? " %0*llX" : "%0*llX", f[i].width, (unsigned long long) v[j]);
            break;
          case MXV_EMIT_READMEMH:
            fprintf (w->o, "%0*llX", f[i].width, (unsigned long long) v[j]);
            break;
          case MXV_EMIT_JSONL:
            fprintf (w->o, "%s\"%0*llX\"", j ? ", " : "", f[i].width, (unsigned long long) v[j]);
            break;
          default: /* bin: little-endian, field width rounded up to whole bytes */
            for (int b = 0; b < (f[i].width + 1) / 2; b++)
              fputc ((int) ((v[j] >> (8 * b)) & 0xFF), w->o);
          }
      if (w->emit == MXV_EMIT_JSONL && (f[i].count > 1 || f[i].v == c->in))
        fputc (']', w->o);
    }
  if (w->emit == MXV_EMIT_JSONL)
    fputc ('}', w->o);
  if (w->emit != MXV_EMIT_BIN)
    fputc ('\n', w->o);
}

void
mxv_writer_end (mxv_writer *w)
{
  fflush (w->o);
}
