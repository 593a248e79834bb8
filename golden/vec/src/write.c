/* write.c -- mxv_writer: a header and its cases in each emit form (docs/vectors.md "Export
 * forms"); mxv_hex, the hex words of every writer.  A case line is put together in a buffer and
 * written to the FILE with fwrite; write errors show in ferror and mxv_writer_end.
 * SPDX-License-Identifier: MIT */
#include <string.h>
#include "internal.h"

typedef struct
{
  FILE *o;
  const char *prefix;
  size_t len;
  int first;
} hctx;

static int
write_key (void *ctx, const char *key, const char *value)
{
  hctx *x = ctx;
  fprintf (x->o, "%s %s: %s\n", x->prefix, key, value);
  return 0;
}

static int
count_key (void *ctx, const char *key, const char *value)
{
  hctx *x = ctx;
  x->len += 1 + 1 + strlen (key) + 2 + strlen (value) + 1; /* "# key: value\n" */
  return 0;
}

static int
json_key (void *ctx, const char *key, const char *value)
{
  hctx *x = ctx;
  fprintf (x->o, "%s\"%s\": \"", x->first ? "" : ", ", key);
  for (const char *p = value; *p; p++)
    fprintf (x->o, *p == '"' || *p == '\\' ? "\\%c" : "%c", *p);
  fputc ('"', x->o);
  x->first = 0;
  return 0;
}

void
mxv_writer_begin (mxv_writer *w, FILE *o, mxv_emit emit, const mxv_header *h)
{
  hctx x = { o, "#", 0, 1 };
  w->o = o;
  w->emit = emit;
  w->h = h;
  w->n = 0;
  switch (emit)
    {
    case MXV_EMIT_MXV:
      mxv__header_each (h, write_key, &x);
      break;
    case MXV_EMIT_READMEMH:
      x.prefix = "//";
      mxv__header_each (h, write_key, &x);
      fprintf (o, "// layout: each line is one case, the .mxv fields concatenated without spaces,"
                  " first field in the most significant digits\n");
      break;
    case MXV_EMIT_BIN:
      {
        /* magic, the text header's length (u32 LE), the text header, then fixed-size records */
        mxv__header_each (h, count_key, &x);
        unsigned char l4[4] = { (unsigned char) x.len, (unsigned char) (x.len >> 8),
                                (unsigned char) (x.len >> 16), (unsigned char) (x.len >> 24) };
        fwrite ("MXVBIN1\n", 1, 8, o);
        fwrite (l4, 1, 4, o);
        mxv__header_each (h, write_key, &x);
        break;
      }
    default:
      fprintf (o, "{\"mxv-version\": %d, \"header\": {", MXV_VERSION);
      mxv__header_each (h, json_key, &x);
      fprintf (o, "}}\n");
      break;
    }
}

int
mxv_hex (char *buf, uint64_t v, int width)
{
  int d = 1;
  for (uint64_t t = v >> 4; t; t >>= 4)
    d++;
  if (d < width)
    d = width > 16 ? 16 : width; /* the 16 bytes the caller gives */
  for (int i = d - 1; i >= 0; i--, v >>= 4)
    buf[i] = "0123456789ABCDEF"[v & 15];
  return d;
}

void
mxv_put_words (FILE *o, const uint64_t *v, size_t n, int width, int first)
{
  char b[17 * 64];
  size_t k = 0;
  for (size_t i = 0; i < n; i++)
    {
      if (k > sizeof b - 17)
        fwrite (b, 1, k, o), k = 0;
      if (!first || i > 0)
        b[k++] = ' ';
      k += (size_t) mxv_hex (b + k, v[i], width);
    }
  fwrite (b, 1, k, o);
}

/* A case line, formatted into a buffer and written by fwrite a buffer at a time (fprintf,
 * parsing "%0*llX" for each word, was a third of `mxgold gen`'s time). */
typedef struct
{
  FILE *o;
  size_t n;
  unsigned char b[4096];
} line_buf;

static void
lb_room (line_buf *l, size_t need)
{
  if (l->n + need > sizeof l->b)
    {
      fwrite (l->b, 1, l->n, l->o); /* a short write shows in ferror (mxv_writer_end) */
      l->n = 0;
    }
}

static void
lb_str (line_buf *l, const char *s)
{
  for (; *s; s++)
    {
      lb_room (l, 1);
      l->b[l->n++] = (unsigned char) *s;
    }
}

/* v in upper-case hex, at least width digits (width <= 16, as every field's) */
static void
lb_hex (line_buf *l, uint64_t v, int width)
{
  lb_room (l, 16);
  l->n += (size_t) mxv_hex ((char *) l->b + l->n, v, width);
}

void
mxv_writer_case (mxv_writer *w, mxv_case *c)
{
  const mxv_header *h = w->h;
  mxv_field f[MXV_MAX_FIELDS];
  if (h->packing != MX_PACKING_UNPACKED)
    {
      uint8_t codes[MXV_MAX_K], bytes[MXV_MAX_K];
      for (size_t i = 0; i < h->k; i++)
        codes[i] = (uint8_t) c->codes[i];
      mx_pack (bytes, codes, h->k, h->elem, h->packing); /* validated with the header */
      for (size_t i = 0; i < mx_packed_size (h->packing, h->k); i++)
        c->packed[i] = bytes[i];
    }
  int n = mxv_fields (h, c, f);
  w->n++;
  line_buf l;
  l.o = w->o;
  l.n = 0;
  if (w->emit == MXV_EMIT_JSONL)
    lb_str (&l, "{");
  for (int i = 0; i < n; i++)
    {
      const uint64_t *v = f[i].v;
      int list = f[i].count > 1 || f[i].v == c->in;
      if (w->emit == MXV_EMIT_JSONL)
        {
          lb_str (&l, i ? ", \"" : "\"");
          lb_str (&l, f[i].name);
          lb_str (&l, list ? "\": [" : "\": ");
        }
      for (size_t j = 0; j < f[i].count; j++)
        switch (w->emit)
          {
          case MXV_EMIT_MXV:
            if (i || j)
              lb_str (&l, " ");
            lb_hex (&l, v[j], f[i].width);
            break;
          case MXV_EMIT_READMEMH:
            lb_hex (&l, v[j], f[i].width);
            break;
          case MXV_EMIT_JSONL:
            lb_str (&l, j ? ", \"" : "\"");
            lb_hex (&l, v[j], f[i].width);
            lb_str (&l, "\"");
            break;
          default: /* bin: little-endian, field width rounded up to whole bytes */
            for (int b = 0; b < (f[i].width + 1) / 2; b++)
              {
                lb_room (&l, 1);
                l.b[l.n++] = (unsigned char) (v[j] >> (8 * b));
              }
          }
      if (w->emit == MXV_EMIT_JSONL && list)
        lb_str (&l, "]");
    }
  if (w->emit == MXV_EMIT_JSONL)
    lb_str (&l, "}");
  if (w->emit != MXV_EMIT_BIN)
    lb_str (&l, "\n");
  fwrite (l.b, 1, l.n, l.o);
}

int
mxv_writer_end (mxv_writer *w)
{
  return fflush (w->o) != 0 || ferror (w->o) ? -1 : 0;
}
