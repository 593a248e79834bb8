/* tparse -- hex and decimal words, read and written: mx_parse_uint and mx_parse_hex (every CLI
 * option, header field and vectors word goes through them) against the C library's strtoull
 * rules and hand-written limits, every byte value as a digit, and mxv_hex (the writers' words)
 * against snprintf's "%0*llX" (widths 0..16; 16 digits at most above that).
 * SPDX-License-Identifier: MIT */
#include <string.h>
#include "tests.h"

static long n;

/* mx_parse_uint (s, base, 0, ~0) is rc, and its value v when rc is MX_OK */
static void
uint_is (const char *s, int base, int rc, unsigned long long v)
{
  unsigned long long x = 0xA5A5A5A5A5A5A5A5ull;
  int got = mx_parse_uint (&x, s, base, 0, ~0ull);
  n++;
  CHECK (got == rc && (rc != MX_OK || x == v) && (rc == MX_OK || x == 0xA5A5A5A5A5A5A5A5ull),
         "mx_parse_uint (\"%s\", %d): rc %d value %llX, expected rc %d value %llX (and no store on an error)",
         s, base, got, x, rc, v);
}

static void
hex_is (const char *s, unsigned bits, int rc, uint64_t v)
{
  uint64_t x = 0xA5;
  int got = mx_parse_hex (&x, s, bits);
  n++;
  CHECK (got == rc && (rc != MX_OK || x == v), "mx_parse_hex (\"%s\", %u): rc %d value %llX, expected rc %d value %llX",
         s, bits, got, (unsigned long long) x, rc, (unsigned long long) v);
}

int
main (void)
{
  rng r = { test_seed () };
  char s[64];

  /* every byte as a one-digit word: a digit in the base or a syntax error (bytes above 0x7F
   * included: the digit table is indexed by the unsigned byte) */
  for (int c = 1; c < 256; c++)
    for (int base = 10; base <= 16; base += 6)
      {
        s[0] = (char) c, s[1] = 0;
        int d = c >= '0' && c <= '9'   ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                       : -1;
        if (d >= 0 && d < base)
          uint_is (s, base, MX_OK, (unsigned long long) d);
        else
          uint_is (s, base, MX_ESYNTAX, 0);
      }

  /* the overflow boundary in both bases, and what follows an overflow */
  uint_is ("18446744073709551615", 10, MX_OK, ~0ull);
  uint_is ("018446744073709551615", 10, MX_OK, ~0ull);
  uint_is ("18446744073709551616", 10, MX_ERANGE, 0);
  uint_is ("18446744073709551619", 10, MX_ERANGE, 0);
  uint_is ("18446744073709551620", 10, MX_ERANGE, 0);
  uint_is ("1844674407370955161", 10, MX_OK, 1844674407370955161ull);
  uint_is ("99999999999999999999", 10, MX_ERANGE, 0);
  uint_is ("184467440737095516150", 10, MX_ERANGE, 0);
  uint_is ("18446744073709551616x", 10, MX_ESYNTAX, 0); /* junk after an overflow */
  uint_is ("FFFFFFFFFFFFFFFF", 16, MX_OK, ~0ull);
  uint_is ("0FFFFFFFFFFFFFFFF", 16, MX_OK, ~0ull);
  uint_is ("10000000000000000", 16, MX_ERANGE, 0);
  uint_is ("FFFFFFFFFFFFFFFF0", 16, MX_ERANGE, 0);
  uint_is ("1FFFFFFFFFFFFFFFF", 16, MX_ERANGE, 0);
  uint_is ("10000000000000000g", 16, MX_ESYNTAX, 0);
  uint_is ("", 10, MX_ESYNTAX, 0);
  uint_is ("-1", 10, MX_ESYNTAX, 0);
  uint_is ("+1", 10, MX_ESYNTAX, 0);
  uint_is (" 1", 10, MX_ESYNTAX, 0);
  uint_is ("1 ", 16, MX_ESYNTAX, 0);
  uint_is ("12abc", 10, MX_ESYNTAX, 0);
  uint_is ("12abc", 16, MX_OK, 0x12ABC);
  uint_is ("0x10", 16, MX_ESYNTAX, 0); /* the prefix is mx_parse_hex's, not this */
  uint_is ("10", 8, MX_ESYNTAX, 0);
  unsigned long long x;
  n += 3;
  CHECK (mx_parse_uint (&x, NULL, 10, 0, 9) == MX_ESYNTAX, "NULL");
  CHECK (mx_parse_uint (&x, "10", 10, 0, 9) == MX_ERANGE, "10 above hi 9");
  CHECK (mx_parse_uint (&x, "4", 10, 5, 9) == MX_ERANGE && mx_parse_uint (&x, "5", 10, 5, 9) == MX_OK && x == 5,
         "lo 5");

  /* random words, both bases, both cases of letters: strtoull's value */
  for (int i = 0; i < 200000; i++)
    {
      uint64_t v = rng_next (&r) >> (rng_next (&r) % 64);
      int base = i % 2 ? 16 : 10;
      snprintf (s, sizeof s, base == 16 ? (i % 4 == 1 ? "%llX" : "%llx") : "%llu", (unsigned long long) v);
      uint_is (s, base, MX_OK, strtoull (s, NULL, base));
    }

  /* mx_parse_hex: the 0x prefix, and exactly mx_hex_digits (bits) digits */
  hex_is ("7F", 8, MX_OK, 0x7F);
  hex_is ("0x7F", 8, MX_OK, 0x7F);
  hex_is ("0X7f", 8, MX_OK, 0x7F);
  hex_is ("7", 8, MX_ESYNTAX, 0);
  hex_is ("07F", 8, MX_ESYNTAX, 0);
  hex_is ("17F", 8, MX_ERANGE, 0);
  hex_is ("0F", 4, MX_OK, 0xF);
  hex_is ("10", 4, MX_ERANGE, 0);
  hex_is ("3F", 6, MX_OK, 0x3F);
  hex_is ("40", 6, MX_ERANGE, 0);
  hex_is ("FFFFFFFFFFFFFFFF", 64, MX_OK, ~0ull);
  hex_is ("0FFFFFFFFFFFFFFFF", 64, MX_ESYNTAX, 0);
  hex_is ("0x", 8, MX_ESYNTAX, 0);
  hex_is ("7F", 0, MX_ESYNTAX, 0);
  hex_is ("7F", 65, MX_ESYNTAX, 0);

  /* mxv_hex against snprintf: widths 0..17, values of every length */
  for (int i = 0; i < 200000; i++)
    {
      uint64_t v = i < 65 ? (i == 64 ? ~0ull : (uint64_t) 1 << i) : rng_next (&r) >> (rng_next (&r) % 64);
      int w = i % 18; /* 0..16, and 17: at most 16 digits */
      char want[32], got[32];
      int lw = snprintf (want, sizeof want, "%0*llX", w > 16 ? 16 : w, (unsigned long long) v);
      memset (got, '#', sizeof got);
      int lg = mxv_hex (got, v, w);
      n++;
      CHECK (lg == lw && memcmp (got, want, (size_t) lw) == 0 && got[lg] == '#',
             "mxv_hex (%llX, %d): \"%.*s\", expected \"%s\" (and nothing written past it)",
             (unsigned long long) v, w, lg > 0 && lg < 32 ? lg : 0, got, want);
    }
  return finish ("tparse", n);
}
