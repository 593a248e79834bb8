/* input.c -- the stdin side of the line commands (quantize, dequantize, cast, dot): every line
 * through mxv_lines (bounded, no NUL), split into words, handed to the command; the first bad
 * line ends the run with "stdin:LINE: what was expected" and exit 2, after the output of every
 * earlier line.
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

int
cli_each_line (const cli_args *a, cli_line_fn fn, void *ctx)
{
  mxv_lines *r = mxv_lines_open ("-", MXV_LINES_FINAL_NEWLINE_OPTIONAL);
  char *line, **w = NULL;
  size_t len, cap = 0;
  int rc = 0, got;
  (void) a;
  if (r == NULL)
    return 2;
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
        rc = fn (ctx, w, n, r);
      if (rc == 0 && cli_out_failed ())
        rc = 1; /* the output is failing: stop reading */
    }
  if (rc == 0 && got < 0)
    rc = 2;
  free (w);
  mxv_lines_close (r);
  return rc;
}
