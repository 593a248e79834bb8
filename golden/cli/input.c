/* input.c -- the loop of the line commands (quantize, dequantize, cast, dot): every stdin line
 * through mxv_lines (bounded, no NUL), split into words, handed to the command with its output;
 * the first bad line ends the run with "stdin:LINE: what was expected" and exit 2, after the
 * output of every earlier line (stdout) or with nothing written (-o FILE).
 * SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>
#include "cli.h"

int
cli_hex_words (char **w, size_t n, unsigned bits, uint64_t *out, const mxv_lines *at,
               size_t first, const char *what)
{
  char q[64];
  for (size_t i = 0; i < n; i++)
    if (mx_parse_hex (&out[i], w[i], bits) != MX_OK)
      return mxv_lines_error (at, "word %zu '%s' is not a %s (hex, exactly %d digits, < 2^%u)",
                              first + i + 1, mxv_quote (q, sizeof q, w[i]), what,
                              mx_hex_digits (bits), bits);
  return 0;
}

void
cli_put_words (FILE *o, const uint64_t *v, size_t n, unsigned bits, int first)
{
  mxv_put_words (o, v, n, mx_hex_digits (bits), first); /* ferror checked at the close */
}

void
cli_end_line (FILE *o, int with_flags, unsigned flags)
{
  if (with_flags)
    fprintf (o, " %02X", flags);
  fputc ('\n', o);
}

void *
cli_alloc (const cli_args *a, size_t n, size_t size)
{
  void *p = n && size <= (size_t) -1 / n ? malloc (n * size) : NULL;
  if (p == NULL)
    cli_usage_error (a, "out of memory");
  return p;
}

int
cli_filter (const cli_args *a, cli_line_fn fn, void *ctx)
{
  mxv_lines *r = mxv_lines_open ("-", MXV_LINES_FINAL_NEWLINE_OPTIONAL);
  char *line, **w = NULL;
  size_t len, cap = 0;
  int rc = 0, got;
  if (r == NULL)
    return 2;
  FILE *o = cli_out_open (a);
  while (rc == 0 && (got = mxv_lines_next (r, &line, &len)) == 1)
    {
      if (line[0] == '#')
        continue;
      size_t n = 0;
      for (char *p = line; *p;)
        {
          while (*p == ' ' || *p == '\t' || *p == '\r')
            *p++ = 0;
          if (!*p)
            break;
          if (n == cap)
            {
              size_t c2 = cap ? 2 * cap : 64;
              char **t = realloc (w, c2 * sizeof *t);
              if (t == NULL)
                {
                  rc = mxv_lines_error (r, "out of memory");
                  break;
                }
              w = t, cap = c2;
            }
          w[n++] = p;
          while (*p && *p != ' ' && *p != '\t' && *p != '\r')
            p++;
        }
      if (rc)
        break;
      if (n == 0)
        rc = mxv_lines_error (r, "empty line (expected hex words)");
      else
        rc = fn (ctx, o, w, n, r);
      if (rc == 0 && cli_out_failed ())
        rc = 1; /* the output is failing: stop reading */
    }
  if (rc == 0 && got < 0)
    rc = 2;
  free (w);
  mxv_lines_close (r);
  if (rc != 0)
    {
      if (cli_out_failed ())
        cli_out_close (a); /* reports the write error */
      else
        cli_out_discard ();
      return rc;
    }
  return cli_out_close (a);
}
