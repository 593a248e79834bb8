/* mx_parse_uint, mx_parse_hex -- the one strict parser of numbers in text: every CLI option,
 * .mxv header field and hex word goes through it, so "-1", "12abc", "" and 2^64 are rejected
 * the same way everywhere.
 * SPDX-License-Identifier: MIT */
#include "internal.h"

/* each byte's digit value plus one, 0 for a byte that is no digit in base 16 (a table: the
 * comparisons for each byte were a fifth of reading a vectors file) */
static const unsigned char digit1[256] = {
  ['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9,
  ['9'] = 10, ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16, ['A'] = 11,
  ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

static int
digit (int c, int base)
{
  int d = digit1[c] - 1;
  return d < base ? d : -1;
}

int
mx_parse_uint (unsigned long long *v, const char *s, int base, unsigned long long lo,
               unsigned long long hi)
{
  unsigned long long x = 0;
  int range = 0;
  if (s == NULL || *s == 0 || (base != 10 && base != 16))
    return MX_ESYNTAX;
  /* x * base + d overflows exactly when x > top, or x == top and d > last (one division a
   * call: one a digit was a third of reading a vectors file) */
  const unsigned long long top = ~0ull / (unsigned) base, last = ~0ull % (unsigned) base;
  for (; *s; s++)
    {
      int d = digit ((unsigned char) *s, base);
      if (d < 0)
        return MX_ESYNTAX;
      if (x > top || (x == top && (unsigned long long) d > last))
        range = 1; /* keep scanning: junk after an overflow is still a syntax error */
      else
        x = x * (unsigned long long) base + (unsigned long long) d;
    }
  if (range || x < lo || x > hi)
    return MX_ERANGE;
  *v = x;
  return MX_OK;
}

int
mx_hex_digits (unsigned bits)
{
  int d = (int) (bits + 3) / 4;
  return d < 2 ? 2 : d;
}

int
mx_parse_hex (uint64_t *v, const char *s, unsigned bits)
{
  unsigned long long x;
  if (s == NULL || bits < 1 || bits > 64)
    return MX_ESYNTAX;
  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
    s += 2;
  size_t n = 0;
  while (s[n])
    n++;
  int rc = mx_parse_uint (&x, s, 16, 0, mx__mask (bits));
  if (rc == MX_OK && n != (size_t) mx_hex_digits (bits))
    return MX_ESYNTAX; /* a short word would silently be a different value */
  if (rc == MX_OK)
    *v = x;
  return rc;
}
