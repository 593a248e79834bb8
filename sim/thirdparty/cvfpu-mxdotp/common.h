/* common.h -- what the two cvfpu MXDOTP harnesses (cvfpu-mxdotp: VectorSize 32, cvfpu-mxdotp8:
 * VectorSize 8) share word for word: the case generator, the unit's status bits as mxgold flags,
 * element values, and the option helpers.  Included by each harness.c (static: one harness per
 * program).  SPDX-License-Identifier: MIT */
#ifndef MXG_CVFPU_COMMON_H
#define MXG_CVFPU_COMMON_H
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mx.h"
#include "mxvec.h"

static mxv_rng gen = { 1 }; /* the project's generator (mxvec.h); --seed sets gen.s */

static uint64_t
rnd64 (void)
{
  return mxv_rng_next (&gen);
}

static unsigned
rndu (unsigned n)
{
  return (unsigned) (rnd64 () % n);
}

/* the unit's {NV,DZ,OF,UF,NX} as mxgold flag bits */
static unsigned
dut_flags (unsigned st)
{
  unsigned f = 0;
  if (st & 1) f |= MX_FLAG_INEXACT;
  if (st & 2) f |= MX_FLAG_UNDERFLOW;
  if (st & 4) f |= MX_FLAG_OVERFLOW;
  if (st & 8) f |= 0x08; /* DZ: never expected */
  if (st & 16) f |= MX_FLAG_INVALID;
  return f;
}

/* D9 model: the MX classifier (MX=1) gives FP6/FP4 IEEE-style specials.  A code with an all-ones
 * exponent is Inf (fraction 0) or NaN in the lanes that reach the special-case logic (FP6: the 32
 * byte-lane fields; FP4: the low nibbles) and loses its implicit bit elsewhere (0.f x 2^(e-bias)).
 * Computes the unit's answer that way; -1 when the case has no such code or is not modelled. */
static double
code_value (const mx_format *ef, unsigned code)
{
  unsigned e = (code >> ef->mbits) & ((1u << ef->ebits) - 1), m = code & ((1u << ef->mbits) - 1);
  double v = e ? (1.0 + m / (double) (1u << ef->mbits)) : m / (double) (1u << ef->mbits);
  int ex = (e ? (int) e : 1) - ef->bias;
  for (; ex > 0; ex--) v *= 2;
  for (; ex < 0; ex++) v /= 2;
  return (code >> (ef->bits - 1)) & 1 ? -v : v;
}

/* --- deviation predicates ----------------------------------------------------------------- */
static int
is_nan_bits (uint32_t v, unsigned dst)
{
  return dst == F_FP16ALT ? ((v & 0x7F80) == 0x7F80 && (v & 0x7F)) : ((v & 0x7F800000u) == 0x7F800000u && (v & 0x7FFFFF));
}

static const char *
which_field (uint32_t d, uint32_t g, unsigned dst)
{
  uint32_t x = d ^ g;
  if (dst == F_FP16ALT) {
    if (x & 0xFFFF0000u) return "nan-box";
    return (x & 0x8000) ? "sign" : (x & 0x7F80) ? "exponent" : "mantissa";
  }
  return (x & 0x80000000u) ? "sign" : (x & 0x7F800000u) ? "exponent" : "mantissa";
}

/* --- repro files ---------------------------------------------------------------------------- */
/* One case per line (README.md "Reproducers"):
 *   DEVIATION FMT RND DST XA XB ACC A B AREM BREM GOLDEN DUT
 * hex without 0x for XA..BREM and the two 32-bit results; A and B are the 256-bit lanes, most
 * significant word first.  GOLDEN is mx_dot's answer (checked, so a drift of the golden model is
 * caught), DUT the answer the unit gave when the deviation was recorded. */
static int
find_named (const char *s, const char *const *names, size_t n)
{
  for (size_t i = 0; i < n; i++)
    if (!strcmp (s, names[i])) return (int) i;
  return -1;
}

static int
in_list (const char *list, const char *name)
{
  size_t n = strlen (name);
  for (const char *p = list; p && *p;) {
    const char *e = strchr (p, ',');
    size_t l = e ? (size_t) (e - p) : strlen (p);
    if (l == n && !strncmp (p, name, n)) return 1;
    p = e ? e + 1 : NULL;
  }
  return 0;
}

static int
check_list (const char *opt, const char *list, const char *const *names, size_t nn)
{
  for (const char *p = list; p && *p;) {
    const char *e = strchr (p, ',');
    size_t l = e ? (size_t) (e - p) : strlen (p);
    int ok = 0;
    for (size_t i = 0; i < nn; i++)
      if (strlen (names[i]) == l && !strncmp (p, names[i], l)) ok = 1;
    if (!ok) {
      fprintf (stderr, "%s: unknown name '%.*s' in '%s'\n", opt, (int) l, p, list);
      return -1;
    }
    p = e ? e + 1 : NULL;
  }
  return 0;
}

static int
parse_ulong (const char *opt, const char *s, unsigned long *v)
{
  char *e;
  errno = 0;
  *v = strtoul (s, &e, 10);
  if (!*s || *e || errno || s[0] == '-') {
    fprintf (stderr, "%s: expected a non-negative integer, got '%s'\n", opt, s);
    return -1;
  }
  return 0;
}
#endif
