/* read.c -- reading .mxv files: the header, then case lines of any size the limits allow, and at
 * the end the check that the file holds as many cases as its header declares.
 * SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include <string.h>
#include "internal.h"

struct mxv_file
{
  mxv_lines *r;
  const mxv_header *h;
  char *pending;        /* the first case line, read while looking for the header's end */
  long long read;       /* cases read */
  int need_header;
};

mxv_file *
mxv_open (const char *path, mxv_header *h, int need_header)
{
  mxv_lines *r = mxv_lines_open (path, 0);
  char *line, err[256];
  size_t len;
  int rc, saw = 0;
  if (r == NULL)
    return NULL;
  h->seen = 0;
  while ((rc = mxv_lines_next (r, &line, &len)) == 1 && line[0] == '#')
    {
      saw = 1;
      if (mxv_header_line (h, line, err, sizeof err) < 0)
        {
          mxv_lines_error (r, "%s", err);
          goto fail;
        }
    }
  if (rc < 0)
    goto fail;
  if (need_header && !saw)
    {
      mxv_lines_error (r, rc == 0 ? "empty file (expected a '# mxv-version: 1' header and cases)"
                                  : "no header (expected '# key: value' lines first)");
      goto fail;
    }
  if (saw && mxv_header_validate (h, err, sizeof err) != 0)
    {
      mxv_lines_error (r, "header: %s", err);
      goto fail;
    }
  if (need_header && h->cases < 0)
    {
      mxv_lines_error (r, "the header has no 'cases:' count (is the file complete?)");
      goto fail;
    }
  if (need_header && rc == 0)
    {
      mxv_lines_error (r, "no cases after the header (it declares %lld)", h->cases);
      goto fail;
    }
  mxv_file *f = calloc (1, sizeof *f);
  if (f == NULL || (rc == 1 && (f->pending = strdup (line)) == NULL))
    {
      free (f);
      mxv_lines_error (r, "out of memory");
      goto fail;
    }
  f->r = r;
  f->h = h;
  f->need_header = need_header;
  return f;
fail:
  mxv_lines_close (r);
  return NULL;
}

void
mxv_close (mxv_file *f)
{
  if (f == NULL)
    return;
  mxv_lines_close (f->r);
  free (f->pending);
  free (f);
}

mxv_lines *
mxv_file_lines (mxv_file *f)
{
  return f->r;
}

/* Word w of the line (w < the count), by a scan from *p: the next token, NUL-terminated in
 * place. */
static char *
next_word (char **p)
{
  char *s = *p;
  while (*s == ' ' || *s == '\t' || *s == '\r')
    s++;
  char *e = s;
  while (*e && *e != ' ' && *e != '\t' && *e != '\r')
    e++;
  *p = *e ? e + 1 : e;
  *e = 0;
  return s;
}

static size_t
count_words (const char *s)
{
  size_t n = 0;
  while (*s)
    {
      while (*s == ' ' || *s == '\t' || *s == '\r')
        s++;
      if (*s)
        n++;
      while (*s && *s != ' ' && *s != '\t' && *s != '\r')
        s++;
    }
  return n;
}

/* Parse line into c: which fields it carries follows from its word count. */
static int
parse_case (mxv_file *fl, char *line, mxv_case *c, mxv_line_form form, int *has_flags)
{
  const mxv_header *h = fl->h;
  mxv_field f[MXV_MAX_FIELDS];
  int nf = mxv_fields (h, c, f);
  size_t all = 0, outs = 0, nw = count_words (line);
  char q[64];
  for (int i = 0; i < nf; i++)
    {
      all += f[i].count;
      outs += f[i].output ? f[i].count : 0;
    }
  int flags_last = f[nf - 1].kind == MXV_F_FLAGS;
  enum { INPUTS = 1, OUTPUTS = 2 } take = INPUTS | OUTPUTS;
  *has_flags = flags_last;
  if (nw == 0)
    return mxv_lines_error (fl->r, "empty line (expected a %s case)", mxv_op_names[h->op]), -1;
  if (nw == all)
    ;
  else if (form == MXV_LINE_FULL_OR_INPUTS && nw == all - outs)
    take = INPUTS;
  else if (form == MXV_LINE_FULL_OR_OUTPUTS && nw == outs)
    take = OUTPUTS;
  else if (form == MXV_LINE_FULL_OR_OUTPUTS && flags_last && nw == outs - 1)
    take = OUTPUTS, *has_flags = 0;
  else if (form == MXV_LINE_FULL)
    return mxv_lines_error (fl->r, "expected %zu fields (a %s line); got %zu", all,
                            mxv_op_names[h->op], nw), -1;
  else
    return mxv_lines_error (fl->r, "expected %zu fields (a %s line), or its %zu %s fields; got %zu",
                            all, mxv_op_names[h->op],
                            form == MXV_LINE_FULL_OR_INPUTS ? all - outs : outs,
                            form == MXV_LINE_FULL_OR_INPUTS ? "input" : "output", nw), -1;
  /* the line as written puts the expected outputs where the fields say */
  char *p = line;
  size_t w = 0;
  for (int i = 0; i < nf; i++)
    {
      if (!(take & (f[i].output ? OUTPUTS : INPUTS)) || (f[i].kind == MXV_F_FLAGS && !*has_flags))
        continue;
      for (size_t j = 0; j < f[i].count; j++, w++)
        {
          const char *s = next_word (&p);
          uint64_t v;
          if (mx_parse_hex (&v, s, f[i].bits) != MX_OK || (f[i].width > mx_hex_digits (f[i].bits)
                                                          && strlen (s) != (size_t) f[i].width))
            return mxv_lines_error (fl->r, "field %zu ('%s') is not a %s word (%d hex digits, < 2^%u)",
                                    w + 1, mxv_quote (q, sizeof q, s), f[i].name, f[i].width,
                                    f[i].bits), -1;
          f[i].v[j] = v;
        }
    }
  /* a given amax is |x| of something: TE's recipe has no meaning for a negative one */
  if (h->op == MXV_NVFP4 && h->amax_given && (take & INPUTS) && (c->amax >> 31) != 0)
    return mxv_lines_error (fl->r, "the given amax %08llX has its sign bit set (expected an "
                            "FP32 magnitude)", (unsigned long long) c->amax), -1;
  if (h->packing != MX_PACKING_UNPACKED && (take & (h->op == MXV_QUANTIZE ? OUTPUTS : INPUTS)))
    {
      uint8_t bytes[MXV_MAX_K], codes[MXV_MAX_K];
      for (size_t i = 0; i < mx_packed_size (h->packing, h->k); i++)
        bytes[i] = (uint8_t) c->packed[i];
      mx_unpack (codes, bytes, h->k, h->elem, h->packing);
      for (size_t i = 0; i < h->k; i++)
        c->codes[i] = codes[i];
    }
  return 0;
}

int
mxv_read_case (mxv_file *f, mxv_case *c, mxv_line_form form, int *has_flags)
{
  char *line;
  size_t len;
  int rc;
  if (f->pending)
    {
      rc = parse_case (f, f->pending, c, form, has_flags);
      free (f->pending);
      f->pending = NULL;
    }
  else
    {
      rc = mxv_lines_next (f->r, &line, &len);
      if (rc < 0)
        return -1;
      if (rc == 0)
        {
          if (f->h->cases >= 0 && f->read != f->h->cases)
            return mxv_lines_error (f->r, "the header declares %lld cases, the file has %lld "
                                    "(truncated or padded)", f->h->cases, f->read), -1;
          return 0;
        }
      if (line[0] == '#')
        return mxv_lines_error (f->r, "header line after the first case"), -1;
      rc = parse_case (f, line, c, form, has_flags);
    }
  if (rc != 0)
    return -1;
  if (f->h->cases >= 0 && f->read == f->h->cases)
    return mxv_lines_error (f->r, "more cases than the header declares (%lld)", f->h->cases), -1;
  f->read++;
  return 1;
}

static int
each_case (const char *path, mxv_case_fn fn, void *ctx, mxv_line_form form)
{
  mxv_header *h = malloc (sizeof *h);
  mxv_case *c = malloc (sizeof *c);
  mxv_file *f = NULL;
  int rc = 2, has_flags, got;
  if (h == NULL || c == NULL)
    {
      fprintf (stderr, "mxvec: out of memory\n");
      goto out;
    }
  mxv_header_init (h);
  if ((f = mxv_open (path, h, 1)) == NULL)
    goto out;
  memset (c, 0, sizeof *c);
  rc = 0;
  while (rc == 0 && (got = mxv_read_case (f, c, form, &has_flags)) == 1)
    rc = fn (ctx, h, c, mxv_lines_name (f->r), mxv_lines_number (f->r));
  if (rc == 0 && got < 0)
    rc = 2;
out:
  mxv_close (f);
  free (h);
  free (c);
  return rc;
}

int
mxv_each_case (const char *path, mxv_case_fn fn, void *ctx)
{
  return each_case (path, fn, ctx, MXV_LINE_FULL);
}

int
mxv_each_case_inputs (const char *path, mxv_case_fn fn, void *ctx)
{
  return each_case (path, fn, ctx, MXV_LINE_FULL_OR_INPUTS);
}

/* mxv_compute_file: every case's computed outputs as a bare output line. */
static int
print_outputs (void *ctx, const mxv_header *h, mxv_case *c, const char *file, unsigned long line)
{
  FILE *out = ctx;
  mxv_field f[MXV_MAX_FIELDS];
  if (mxv_compute (h, c) != MX_OK)
    {
      fprintf (stderr, "%s:%lu: the golden model rejected this case\n", file, line);
      return 2;
    }
  if (h->packing != MX_PACKING_UNPACKED)
    {
      uint8_t codes[MXV_MAX_K], bytes[MXV_MAX_K];
      for (size_t i = 0; i < h->k; i++)
        codes[i] = (uint8_t) c->codes[i];
      mx_pack (bytes, codes, h->k, h->elem, h->packing);
      for (size_t i = 0; i < mx_packed_size (h->packing, h->k); i++)
        c->packed[i] = bytes[i];
    }
  int nf = mxv_fields (h, c, f), first = 1;
  for (int i = 0; i < nf; i++)
    if (f[i].output && f[i].count > 0)
      {
        mxv_put_words (out, f[i].v, f[i].count, f[i].width, first);
        first = 0;
      }
  fputc ('\n', out);
  return ferror (out) ? 1 : 0;
}

int
mxv_print_outputs (void *out, const mxv_header *h, mxv_case *c, const char *file,
                   unsigned long line)
{
  return print_outputs (out, h, c, file, line);
}

int
mxv_compute_file (const char *path, FILE *out)
{
  int rc = each_case (path, print_outputs, out, MXV_LINE_FULL_OR_INPUTS);
  if (fflush (out) != 0 || ferror (out))
    return rc ? rc : 1;
  return rc;
}
