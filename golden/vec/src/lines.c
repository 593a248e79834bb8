/* lines.c -- mxv_lines: the line reader behind every mxgold input (mxvec.h "lines").
 * Bytes come from read(2), through zlib's inflate for .gz files; lines are cut here, so that a
 * NUL byte, an endless line or a damaged gzip stream is an error, never a silent truncation.
 * SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include "mxvec.h"

#define CHUNK 65536

struct mxv_lines
{
  int fd, own_fd, flags;
  const char *name;
  unsigned long line;
  /* decoded bytes not yet cut into lines: buf[pos..end) */
  unsigned char *buf;
  size_t pos, end;
  int eof;                 /* no more decoded bytes will come */
  /* gzip */
  int gz;
  z_stream zs;
  unsigned char *raw;      /* compressed input */
  int raw_eof, in_member;  /* read(2) hit the end; inside a gzip member */
  /* the current line */
  char *text;
  size_t cap;
};

int
mxv_lines_error (const mxv_lines *r, const char *fmt, ...)
{
  va_list ap;
  fflush (stdout);
  fprintf (stderr, "%s:%lu: ", r->name, r->line ? r->line : 1);
  va_start (ap, fmt);
  vfprintf (stderr, fmt, ap);
  va_end (ap);
  fputc ('\n', stderr);
  return 2;
}

const char *
mxv_quote (char *buf, size_t n, const char *s)
{
  size_t o = 0, shown = 0;
  for (; *s && o + 8 < n; s++, shown++)
    {
      unsigned char c = (unsigned char) *s;
      if (shown == 40)
        {
          memcpy (buf + o, "...", 3);
          o += 3;
          break;
        }
      if (c < 0x20 || c >= 0x7F)
        o += (size_t) snprintf (buf + o, n - o, "\\x%02X", c);
      else
        buf[o++] = (char) c;
    }
  buf[o] = 0;
  return buf;
}

mxv_lines *
mxv_lines_open (const char *path, int flags)
{
  int in = strcmp (path, "-") == 0;
  int fd = in ? 0 : open (path, O_RDONLY);
  struct stat st;
  if (fd < 0)
    {
      fprintf (stderr, "%s: cannot open: %s\n", path, strerror (errno));
      return NULL;
    }
  if (fstat (fd, &st) == 0 && S_ISDIR (st.st_mode))
    {
      fprintf (stderr, "%s: is a directory (expected a file)\n", path);
      if (!in)
        close (fd);
      return NULL;
    }
  mxv_lines *r = calloc (1, sizeof *r);
  size_t len = strlen (path);
  if (r == NULL || (r->buf = malloc (CHUNK)) == NULL)
    goto nomem;
  r->fd = fd;
  r->own_fd = !in;
  r->flags = flags;
  r->name = in ? "stdin" : path;
  r->gz = !in && len > 3 && strcmp (path + len - 3, ".gz") == 0;
  if (r->gz)
    {
      if ((r->raw = malloc (CHUNK)) == NULL || inflateInit2 (&r->zs, 16 + MAX_WBITS) != Z_OK)
        goto nomem;
      r->in_member = 1;
    }
  return r;
nomem:
  fprintf (stderr, "%s: out of memory\n", path);
  if (r)
    {
      free (r->buf);
      free (r->raw);
      free (r);
    }
  if (!in)
    close (fd);
  return NULL;
}

/* read(2) into dst, retrying on EINTR: bytes read, 0 at the end, -1 on error (printed). */
static ssize_t
read_raw (mxv_lines *r, unsigned char *dst, size_t n)
{
  for (;;)
    {
      ssize_t got = read (r->fd, dst, n);
      if (got >= 0)
        return got;
      if (errno != EINTR)
        {
          mxv_lines_error (r, "read error: %s", strerror (errno));
          return -1;
        }
    }
}

/* Inflate more of the gzip stream into buf[end..CHUNK).  Every member must be complete and
 * check out; only another gzip member may follow one (gzip -dc accepts the same). */
static int
fill_gz (mxv_lines *r)
{
  z_stream *z = &r->zs;
  for (;;)
    {
      if (z->avail_in == 0 && !r->raw_eof)
        {
          ssize_t got = read_raw (r, r->raw, CHUNK);
          if (got < 0)
            return -1;
          r->raw_eof = got == 0;
          z->next_in = r->raw;
          z->avail_in = (uInt) got;
        }
      if (z->avail_in == 0 && r->raw_eof)
        {
          if (r->in_member)
            return mxv_lines_error (r, "truncated gzip stream (the file ends inside it)"), -1;
          r->eof = 1;
          return 0;
        }
      if (!r->in_member)
        {
          /* after a complete member: another one, or nothing */
          if (z->next_in[0] != 0x1F || (z->avail_in > 1 && z->next_in[1] != 0x8B))
            return mxv_lines_error (r, "trailing data after the gzip stream"), -1;
          inflateReset (z);
          r->in_member = 1;
        }
      z->next_out = r->buf + r->end;
      z->avail_out = (uInt) (CHUNK - r->end);
      int zr = inflate (z, Z_NO_FLUSH);
      size_t made = (size_t) (z->next_out - (r->buf + r->end));
      r->end += made;
      if (zr == Z_STREAM_END)
        r->in_member = 0;
      else if (zr != Z_OK && zr != Z_BUF_ERROR)
        return mxv_lines_error (r, "corrupt gzip data (%s)", z->msg ? z->msg : "inflate failed"),
               -1;
      if (made > 0)
        return 0;
    }
}

/* More decoded bytes into buf (which is empty or compacted): 0, or -1 (printed). */
static int
fill (mxv_lines *r)
{
  if (r->pos > 0)
    {
      memmove (r->buf, r->buf + r->pos, r->end - r->pos);
      r->end -= r->pos;
      r->pos = 0;
    }
  if (r->gz)
    return fill_gz (r);
  ssize_t got = read_raw (r, r->buf + r->end, CHUNK - r->end);
  if (got < 0)
    return -1;
  if (got == 0)
    r->eof = 1;
  r->end += (size_t) got;
  return 0;
}

/* Append n bytes to the current line, within MXV_MAX_LINE. */
static int
append (mxv_lines *r, size_t *len, const unsigned char *p, size_t n)
{
  if (*len + n > MXV_MAX_LINE)
    return mxv_lines_error (r, "line longer than %d bytes (expected a header or case line)",
                            MXV_MAX_LINE), -1;
  if (*len + n + 1 > r->cap)
    {
      size_t cap = r->cap ? r->cap : 256;
      while (cap < *len + n + 1)
        cap *= 2;
      char *t = realloc (r->text, cap);
      if (t == NULL)
        return mxv_lines_error (r, "out of memory"), -1;
      r->text = t;
      r->cap = cap;
    }
  memcpy (r->text + *len, p, n);
  *len += n;
  r->text[*len] = 0;
  return 0;
}

int
mxv_lines_next (mxv_lines *r, char **line, size_t *lenp)
{
  size_t len = 0;
  int started = 0;
  r->line++;
  for (;;)
    {
      if (r->pos == r->end)
        {
          if (r->eof)
            break;
          if (fill (r) != 0)
            return -1;
          continue;
        }
      unsigned char *p = r->buf + r->pos;
      size_t avail = r->end - r->pos;
      unsigned char *nl = memchr (p, '\n', avail);
      size_t n = nl ? (size_t) (nl - p) : avail;
      if (memchr (p, 0, n) != NULL)
        return mxv_lines_error (r, "NUL byte in the line (expected text)"), -1;
      started = 1;
      if (append (r, &len, p, n) != 0)
        return -1;
      r->pos += n + (nl != NULL);
      if (nl)
        {
          *line = r->text;
          *lenp = len;
          return 1;
        }
    }
  if (!started)
    {
      r->line--;
      return 0;
    }
  if (!(r->flags & MXV_LINES_FINAL_NEWLINE_OPTIONAL))
    return mxv_lines_error (r, "truncated last line (no newline at the end of the file)"), -1;
  *line = r->text;
  *lenp = len;
  return 1;
}

const char *
mxv_lines_name (const mxv_lines *r)
{
  return r->name;
}

unsigned long
mxv_lines_number (const mxv_lines *r)
{
  return r->line;
}

void
mxv_lines_close (mxv_lines *r)
{
  if (r == NULL)
    return;
  if (r->gz)
    inflateEnd (&r->zs);
  if (r->own_fd)
    close (r->fd);
  free (r->buf);
  free (r->raw);
  free (r->text);
  free (r);
}
