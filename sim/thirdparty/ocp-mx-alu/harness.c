/* harness.c -- co-simulation of pncel/ocp_mx_alu's mxint8_dot_product (32 MXINT8 x MXINT8 block
 * pair -> FP32) and mxint8_broadcast (FP32 -> a block of 32 equal MXINT8 elements), both
 * combinational, against libmxgold.
 *   harness [--unit dot|broadcast|all] [--model ocp|rtl] [--rounding R] [--random N] [--seed S]
 *           [--repro FILE]... [--repro-bc FILE]... [--errors N] [--quiet]
 * dot:
 *   --model ocp   (default) the reference is mxgold dot, accumulation exact, rounding rtz, C_in
 *                 +0: the OCP value of the block pair.  A case that differs from it counts as a
 *                 documented deviation when it is exactly the deviation described in README.md
 *                 (scale6, deepsub, nan), and as failed otherwise.
 *   --model rtl   the reference is the characterization: the same mx_dot with the product scaled
 *                 by 2^6 (X_A + 6) when X_A + X_B >= 102, by 2^-3 (X_A - 3) below; only the NaN
 *                 encoding remains a documented deviation.
 *   --rounding R  the reference's output rounding instead of rtz (to show that no other fits)
 *   --repro FILE  replay a reproducer file (format in repro/README.md); each line must show its
 *                 recorded DUT output, mxgold output and deviation class.
 * broadcast:
 *   --model ocp   the reference is mxgold quantize --format int8 (OCP policy, rne) of 32 copies
 *                 of the input; documented deviations: bump (the RTL raises the scale when the
 *                 element rounds up to 2.0: mxgold's scale-bump once), subtie, nanelems.
 *   --model rtl   the reference is scale-bump once below exponent field 254, OCP at 254.
 *   --repro-bc FILE  as --repro, for broadcast lines.
 * Every output port is compared: o_float32 bit for bit, o_overflow, o_underflow, o_is_NaN and
 * o_is_unused; o_scale and all 32 o_mxint8_elements.  Ends with one line per unit and a total,
 * 'N passed, M failed, D documented deviations'; exit 0 when M is 0, 1 otherwise, 2 on bad usage
 * or a malformed reproducer file.
 * SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mx.h"
#include "mxvec.h"
#include "shim.h"

#define K OCP_K

typedef struct {
  uint8_t sa, sb, a[K], b[K];
} pair;

/* What the unit should output, derived from a libmxgold result. */
typedef struct {
  uint32_t fp32;
  int overflow, underflow, is_unused, is_nan;
} expect;

enum { CLS_NONE, CLS_SCALE6, CLS_DEEPSUB, CLS_NAN, CLS_BUMP, CLS_SUBTIE, CLS_NANELEMS, CLS_COUNT };
static const char *cls_name[CLS_COUNT] = { "none", "scale6", "deepsub", "nan", "bump", "subtie",
                                           "nanelems" };

static struct {
  int model_rtl, quiet;
  mx_rounding rnd; /* the output rounding of the reference (rtz) */
  long errors_max, passed, failed, dev[CLS_COUNT];
  long kind[5], topbit[21]; /* coverage: reference result kinds, top bit of |integer sum| */
  ocp_dut *d;
} H;

static int
is_nan32 (uint32_t x)
{
  return (x & 0x7f800000u) == 0x7f800000u && (x & 0x7fffffu) != 0;
}

/* The exact integer sum of the code products (what the RTL accumulates). */
static long
int_sum (const pair *p)
{
  long s = 0;
  for (int i = 0; i < K; i++)
    s += (long) (int8_t) p->a[i] * (int8_t) p->b[i];
  return s;
}

/* mxgold dot of one block pair with the given scales: exact accumulation, H.rnd, C_in = +0. */
static expect
mxgold_dot (const pair *p, unsigned sa, unsigned sb)
{
  static const mx_format *i8, *f32, *e8;
  if (!i8)
    {
      i8 = mx_format_get (MX_INT8);
      f32 = mx_format_get (MX_FP32);
      e8 = mx_format_get (MX_E8M0);
    }
  uint64_t ca[K], cb[K], xa = sa, xb = sb, out = 0;
  for (int i = 0; i < K; i++)
    {
      ca[i] = p->a[i];
      cb[i] = p->b[i];
    }
  unsigned flags = 0;
  mx_dot_policy dp = mx_dot_policy_default (); /* accumulation exact */
  int st = mx_dot (&out, &flags, f32, &xa, ca, i8, &xb, cb, i8, e8, K, 1, 0, &dp, H.rnd);
  if (st != MX_OK)
    {
      fprintf (stderr, "harness: mx_dot: %s\n", mx_strerror (st));
      exit (2);
    }
  expect e;
  e.fp32 = (uint32_t) out;
  e.is_nan = is_nan32 (e.fp32);
  e.overflow = !e.is_nan && (flags & MX_FLAG_OVERFLOW) != 0;
  /* the RTL raises o_underflow only when the result flushes to zero */
  e.underflow = !e.is_nan && (e.fp32 & 0x7fffffffu) == 0 && (flags & MX_FLAG_UNDERFLOW) != 0;
  e.is_unused = 0;
  for (int i = 0; i < K; i++)
    e.is_unused |= p->a[i] == 0x80 || p->b[i] == 0x80;
  return e;
}

/* The OCP reference. */
static expect
ref_ocp (const pair *p)
{
  return mxgold_dot (p, p->sa, p->sb);
}

/* The characterization of the RTL: the product scaled by 2^6 when X_A + X_B >= 102 (the RTL
 * applies the elements' 2^-6 once instead of twice), by 2^-3 below (its deep-subnormal path
 * shifts by 9 bits too many).  The factor goes into whichever scale has room; when neither has,
 * the result overflows (both >= 249) or flushes to a signed zero (both <= 2) either way. */
static expect
ref_rtl (const pair *p)
{
  unsigned sa = p->sa, sb = p->sb;
  if (sa != 0xff && sb != 0xff)
    {
      if (sa + sb >= 102)
        {
          if (sa + 6 <= 254)
            sa += 6;
          else if (sb + 6 <= 254)
            sb += 6;
        }
      else if (sa >= 3)
        sa -= 3;
      else if (sb >= 3)
        sb -= 3;
    }
  return mxgold_dot (p, sa, sb);
}

static int
same (const ocp_out *o, const expect *e)
{
  return o->fp32 == e->fp32 && o->overflow == e->overflow && o->underflow == e->underflow
         && o->is_unused == e->is_unused && o->is_nan == e->is_nan;
}

/* The deviation class of a DUT output that differs from the reference r, or CLS_NONE. */
static int
classify (const pair *p, const ocp_out *o, const expect *r, int vs_rtl)
{
  expect e = *r;
  if (r->is_nan)
    {
      /* NaN with exponent 0xFF, mantissa 1 and the integer sum's sign */
      e.fp32 = 0x7f800001u | (int_sum (p) < 0 ? 0x80000000u : 0);
      return same (o, &e) ? CLS_NAN : CLS_NONE;
    }
  if (vs_rtl)
    return CLS_NONE;
  e = ref_rtl (p);
  if (!same (o, &e))
    return CLS_NONE;
  return p->sa + p->sb >= 102 ? CLS_SCALE6 : CLS_DEEPSUB;
}

static void
print_fp32 (const char *who, uint32_t x, int ovf, int unf, int unused, int nan)
{
  printf ("    %-7s o_float32=%08x (sign %u exp %02x man %06x)  o_overflow=%d o_underflow=%d "
          "o_is_unused=%d o_is_NaN=%d\n", who, (unsigned) x, (unsigned) (x >> 31),
          (unsigned) ((x >> 23) & 0xff), (unsigned) (x & 0x7fffff), ovf, unf, unused, nan);
}

static void
print_hex (const uint8_t *v)
{
  for (int i = 0; i < K; i++)
    printf ("%02x", v[i]);
}

static void
report (const char *where, const pair *p, const ocp_out *o, const expect *e, const char *why)
{
  if (H.failed > H.errors_max)
    return;
  printf ("MISMATCH %s: %s\n    X_A=%02x X_B=%02x (X_A+X_B=%u) integer sum=%ld\n    A=", where, why,
          p->sa, p->sb, p->sa + p->sb, int_sum (p));
  print_hex (p->a);
  printf ("\n    B=");
  print_hex (p->b);
  printf ("\n");
  print_fp32 ("DUT", o->fp32, o->overflow, o->underflow, o->is_unused, o->is_nan);
  print_fp32 ("mxgold", e->fp32, e->overflow, e->underflow, e->is_unused, e->is_nan);
  printf ("    differs in:%s%s%s%s%s%s%s\n", (o->fp32 ^ e->fp32) >> 31 ? " sign" : "",
          (o->fp32 ^ e->fp32) & 0x7f800000u ? " exponent" : "",
          (o->fp32 ^ e->fp32) & 0x7fffffu ? " mantissa" : "",
          o->overflow != e->overflow ? " o_overflow" : "",
          o->underflow != e->underflow ? " o_underflow" : "",
          o->is_unused != e->is_unused ? " o_is_unused" : "",
          o->is_nan != e->is_nan ? " o_is_NaN" : "");
}

/* Run one case: compare with the reference, classify a difference. */
static void
run_case (const char *where, const pair *p)
{
  ocp_out o;
  ocp_dot (H.d, p->sa, p->sb, p->a, p->b, &o);
  expect e = H.model_rtl ? ref_rtl (p) : ref_ocp (p);
  uint32_t m = e.fp32 & 0x7fffffffu;
  H.kind[e.is_nan ? 4 : e.overflow ? 3 : m == 0 ? 0 : m < 0x800000u ? 1 : 2]++;
  long s = labs (int_sum (p));
  int t = 0;
  while (s >> t > 1)
    t++;
  H.topbit[s ? t : 20]++;
  if (same (&o, &e))
    {
      H.passed++;
      return;
    }
  int c = classify (p, &o, &e, H.model_rtl);
  if (c != CLS_NONE)
    {
      H.dev[c]++;
      return;
    }
  H.failed++;
  report (where, p, &o, &e, "not a documented deviation");
}

/*------------------------------------------------------------------ inputs -*/
static mxv_rng gen; /* the project's generator (mxvec.h); --seed sets gen.s */

static uint64_t
rng (void)
{
  return mxv_rng_next (&gen);
}

static unsigned
below (unsigned n)
{
  return (unsigned) (rng () % n);
}

/* Elements: uniform codes, sparse (mostly 0), small magnitudes, the extremes, or a block that
 * cancels exactly (second half = first half with B negated). */
static void
random_elems (pair *p, int mode)
{
  static const uint8_t ext[] = { 0x80, 0x81, 0x7f, 0x01, 0xff, 0x00, 0x40, 0xc0 };
  for (int i = 0; i < K; i++)
    {
      switch (mode)
        {
        case 0:
          p->a[i] = (uint8_t) below (256);
          p->b[i] = (uint8_t) below (256);
          break;
        case 1:
          p->a[i] = below (8) == 0 ? (uint8_t) below (256) : 0;
          p->b[i] = (uint8_t) below (256);
          break;
        case 2:
          p->a[i] = (uint8_t) (below (9) - 4);
          p->b[i] = (uint8_t) (below (9) - 4);
          break;
        case 3:
          p->a[i] = ext[below (sizeof ext)];
          p->b[i] = ext[below (sizeof ext)];
          break;
        default:
          p->a[i] = (uint8_t) below (256);
          p->b[i] = (uint8_t) (1 + below (255)); /* never 0x80 after negation below */
          if (p->b[i] == 0x80)
            p->b[i] = 0x81;
          break;
        }
    }
  if (mode == 4)
    for (int i = 0; i < K / 2; i++)
      {
        p->a[K / 2 + i] = p->a[i];
        p->b[K / 2 + i] = (uint8_t) -p->b[i];
      }
}

/* Scales whose sum s = X_A + X_B is given (0..508). */
static void
split_sum (pair *p, unsigned s)
{
  unsigned lo = s > 254 ? s - 254 : 0, hi = s < 254 ? s : 254;
  p->sa = (uint8_t) (lo + below (hi - lo + 1));
  p->sb = (uint8_t) (s - p->sa);
}

/* Uniform, or aimed at the subnormal boundary (s near 102..140), the overflow boundary
 * (s 355..381), the middle, or a NaN scale. */
static void
random_scales (pair *p)
{
  unsigned r = below (100);
  if (r < 40)
    {
      p->sa = (uint8_t) below (255);
      p->sb = (uint8_t) below (255);
    }
  else if (r < 65)
    split_sum (p, 90 + below (55));
  else if (r < 80)
    split_sum (p, 355 + below (27));
  else if (r < 95)
    split_sum (p, 230 + below (60));
  else
    {
      p->sa = (uint8_t) below (256);
      p->sb = (uint8_t) below (256);
      if (below (2))
        p->sa = 0xff;
      else
        p->sb = 0xff;
    }
}

static void
fill (pair *p, uint8_t a, uint8_t b)
{
  memset (p->a, a, K);
  memset (p->b, b, K);
}

/* Directed cases: zeros, extremes and single products at every scale sum, NaN scales,
 * cancellation, 0x80 codes at every position, one product at every position. */
static void
directed (void)
{
  static const uint8_t sc[] = { 0, 1, 2, 3, 50, 100, 101, 102, 103, 127, 128, 200, 248, 249, 253, 254, 255 };
  static const uint8_t ext[][2] = { { 0x80, 0x80 }, { 0x80, 0x7f }, { 0x7f, 0x7f }, { 0x81, 0x7f },
                                    { 0x01, 0x01 }, { 0x01, 0xff }, { 0x40, 0x40 }, { 0x00, 0x80 } };
  pair p;
  for (size_t i = 0; i < sizeof sc; i++)
    for (size_t j = 0; j < sizeof sc; j++)
      {
        fill (&p, 0, 0);
        p.sa = sc[i];
        p.sb = sc[j];
        run_case ("directed zero block", &p);
        fill (&p, 0, 0x81); /* every product -0 in IEEE terms */
        run_case ("directed zero times negative", &p);
        fill (&p, 0x80, 0x80);
        run_case ("directed max magnitude", &p);
      }
  for (unsigned s = 0; s <= 508; s++)
    {
      for (size_t e = 0; e < sizeof ext / sizeof ext[0]; e++)
        {
          fill (&p, ext[e][0], ext[e][1]);
          split_sum (&p, s);
          run_case ("directed extreme block at each scale sum", &p);
        }
      for (int sign = 0; sign < 2; sign++)
        {
          fill (&p, 0, 0);
          p.a[below (K)] = 1;
          memset (p.b, sign ? 0xff : 0x01, K);
          split_sum (&p, s);
          run_case ("directed single +-1 product at each scale sum", &p);
        }
      for (int mode = 0; mode < 5; mode++)
        {
          random_elems (&p, mode);
          split_sum (&p, s);
          run_case ("directed random block at each scale sum", &p);
        }
    }
  for (int t = 0; t < 64; t++)
    {
      random_elems (&p, t % 5);
      p.sa = (uint8_t) below (256);
      p.sb = 0xff;
      if (t % 3 == 0)
        p.sa = 0xff, p.sb = (uint8_t) below (256);
      if (t % 3 == 1)
        p.sa = 0xff;
      run_case ("directed NaN scale", &p);
    }
  for (int t = 0; t < 256; t++)
    {
      random_elems (&p, 4);
      p.sa = sc[t % sizeof sc];
      p.sb = sc[(t / sizeof sc) % sizeof sc];
      run_case ("directed cancellation", &p);
    }
  for (int i = 0; i < K; i++)
    for (int t = 0; t < 4; t++)
      {
        random_elems (&p, 0);
        p.a[i] = 0x80;
        if (t & 1)
          p.b[i] = 0x80;
        random_scales (&p);
        run_case ("directed 0x80 code", &p);
        fill (&p, 0, 0);
        p.a[i] = (uint8_t) (1 + below (255));
        p.b[(i + t) % K] = (uint8_t) (1 + below (255));
        random_scales (&p);
        run_case ("directed one product at one position", &p);
      }
}

/*------------------------------------------------------------- broadcast -*/
/* mxint8_broadcast: one FP32 x to a scale and 32 equal codes.  The reference is mxgold quantize
 * (INT8, E8M0, RNE) of a block of 32 copies of x, OCP policy, with scale-bump once if bump. */
typedef struct {
  uint8_t scale, codes[K];
} bc_res;

static bc_res
bc_ref (uint32_t x, int bump)
{
  static const mx_format *i8, *f32, *e8;
  if (!i8)
    {
      i8 = mx_format_get (MX_INT8);
      f32 = mx_format_get (MX_FP32);
      e8 = mx_format_get (MX_E8M0);
    }
  mx_policy pol = mx_policy_ocp ();
  if (bump && mx_policy_set (&pol, MX_POLICY_SCALE_BUMP, MX_SCALE_BUMP_ONCE) != MX_OK)
    exit (2);
  uint64_t in[K], scale, codes[K];
  for (int i = 0; i < K; i++)
    in[i] = x;
  unsigned flags;
  int st = mx_quantize (&scale, codes, &flags, NULL, i8, e8, f32, in, K, NULL, &pol, MX_RNE);
  if (st != MX_OK)
    {
      fprintf (stderr, "harness: mx_quantize: %s\n", mx_strerror (st));
      exit (2);
    }
  bc_res r;
  r.scale = (uint8_t) scale;
  for (int i = 0; i < K; i++)
    r.codes[i] = (uint8_t) codes[i];
  return r;
}

/* The characterization: scale-bump once, except at exponent field 254, where the RTL keeps
 * 0xFE and saturates (OCP) instead of bumping into the NaN scale. */
static bc_res
bc_ref_rtl (uint32_t x)
{
  return bc_ref (x, ((x >> 23) & 0xff) < 254);
}

static int
bc_same (const bc_res *a, const bc_res *b)
{
  return a->scale == b->scale && !memcmp (a->codes, b->codes, K);
}

/* The deviation class of a DUT output that differs from the reference r, or CLS_NONE. */
static int
bc_classify (uint32_t x, const bc_res *o, const bc_res *r, int vs_rtl)
{
  if (r->scale == 0xff) /* NaN or Inf: a NaN block; only the element codes differ */
    return o->scale == 0xff ? CLS_NANELEMS : CLS_NONE;
  if ((x & 0x7fffffffu) == 0x003f8000u) /* the subnormal tie whose round-up carries */
    {
      bc_res z = { 0x00, { 0 } };
      return bc_same (o, &z) ? CLS_SUBTIE : CLS_NONE;
    }
  if (vs_rtl)
    return CLS_NONE;
  bc_res b = bc_ref (x, 1);
  return bc_same (o, &b) ? CLS_BUMP : CLS_NONE;
}

static void
bc_print (const char *who, const bc_res *r)
{
  printf ("    %-7s o_scale=%02x o_mxint8_elements=", who, r->scale);
  print_hex (r->codes);
  printf ("\n");
}

static void
bc_report (const char *where, uint32_t x, const bc_res *o, const bc_res *e, const char *why)
{
  if (H.failed > H.errors_max)
    return;
  printf ("MISMATCH %s: %s\n    i_float32=%08x (sign %u exp %02x man %06x)\n", where, why,
          (unsigned) x, (unsigned) (x >> 31), (unsigned) ((x >> 23) & 0xff),
          (unsigned) (x & 0x7fffff));
  bc_print ("DUT", o);
  bc_print ("mxgold", e);
  printf ("    differs in:%s%s\n", o->scale != e->scale ? " o_scale" : "",
          memcmp (o->codes, e->codes, K) ? " o_mxint8_elements" : "");
}

static void
bc_case (const char *where, uint32_t x)
{
  bc_res o, e = H.model_rtl ? bc_ref_rtl (x) : bc_ref (x, 0);
  ocp_broadcast (H.d, x, &o.scale, o.codes);
  if (bc_same (&o, &e))
    {
      H.passed++;
      return;
    }
  int c = bc_classify (x, &o, &e, H.model_rtl);
  if (c != CLS_NONE)
    {
      H.dev[c]++;
      return;
    }
  H.failed++;
  bc_report (where, x, &o, &e, "not a documented deviation");
}

/* Every sign, exponent field and top 8 mantissa bits (the kept bits, the round bit and the
 * first sticky bit, for normal and subnormal inputs), under five patterns of the low 15 bits. */
static void
bc_directed (void)
{
  for (uint32_t s = 0; s < 2; s++)
    for (uint32_t e = 0; e < 256; e++)
      for (uint32_t m = 0; m < 256; m++)
        {
          uint32_t low[5] = { 0, 1, 0x4000, 0x7fff, (uint32_t) below (0x8000) };
          for (int i = 0; i < 5; i++)
            bc_case ("directed broadcast", s << 31 | e << 23 | m << 15 | low[i]);
        }
}

/*------------------------------------------------------------------ repro -*/
static int
parse_hex (const char *s, uint8_t *v, int n)
{
  if (strlen (s) != (size_t) (2 * n))
    return -1;
  for (int i = 0; i < n; i++)
    {
      unsigned x;
      if (sscanf (s + 2 * i, "%2x", &x) != 1 || !strchr ("0123456789abcdefABCDEF", s[2 * i])
          || !strchr ("0123456789abcdefABCDEF", s[2 * i + 1]))
        return -1;
      v[i] = (uint8_t) x;
    }
  return 0;
}

/* One line: X_A X_B A B DUT MXGOLD CLASS (hex bytes; A and B 64 hex digits, element 0 first;
 * DUT and MXGOLD 8 hex digits of FP32). */
static void
replay (const char *path)
{
  FILE *f = fopen (path, "r");
  if (!f)
    {
      perror (path);
      exit (2);
    }
  char line[512];
  long ln = 0;
  mx_rounding rnd = H.rnd;
  H.rnd = MX_RTZ; /* the recorded MXGOLD values are rtz */
  while (fgets (line, sizeof line, f))
    {
      ln++;
      char *h = strchr (line, '#');
      if (h)
        *h = 0;
      char tok[8][160];
      int n = sscanf (line, "%159s %159s %159s %159s %159s %159s %159s %159s", tok[0], tok[1],
                      tok[2], tok[3], tok[4], tok[5], tok[6], tok[7]);
      if (n <= 0)
        continue;
      pair p;
      uint8_t sa, sb, dut[4], gold[4];
      int c = -1;
      for (int i = 0; i < CLS_COUNT && n == 7; i++)
        if (!strcmp (tok[6], cls_name[i]))
          c = i;
      if (n != 7 || parse_hex (tok[0], &sa, 1) || parse_hex (tok[1], &sb, 1)
          || parse_hex (tok[2], p.a, K) || parse_hex (tok[3], p.b, K) || parse_hex (tok[4], dut, 4)
          || parse_hex (tok[5], gold, 4) || c < CLS_SCALE6 || c > CLS_NAN)
        {
          fprintf (stderr, "%s:%ld: expected 'X_A X_B A B DUT MXGOLD CLASS': 2, 2, 64, 64, 8 and "
                   "8 hex digits and one of scale6, deepsub, nan\n", path, ln);
          exit (2);
        }
      p.sa = sa;
      p.sb = sb;
      uint32_t want_dut = (uint32_t) dut[0] << 24 | dut[1] << 16 | dut[2] << 8 | dut[3];
      uint32_t want_gold = (uint32_t) gold[0] << 24 | gold[1] << 16 | gold[2] << 8 | gold[3];
      ocp_out o;
      ocp_dot (H.d, p.sa, p.sb, p.a, p.b, &o);
      expect e = ref_ocp (&p);
      char where[300];
      snprintf (where, sizeof where, "%s:%ld", path, ln);
      int got = classify (&p, &o, &e, 0);
      if (e.fp32 != want_gold)
        {
          H.failed++;
          report (where, &p, &o, &e, "mxgold no longer gives the recorded MXGOLD value");
        }
      else if (same (&o, &e) || o.fp32 != want_dut || got != c)
        {
          H.failed++;
          report (where, &p, &o, &e, "the DUT no longer shows the recorded deviation");
        }
      else
        H.dev[c]++;
    }
  if (ferror (f) || fclose (f))
    {
      perror (path);
      exit (2);
    }
  H.rnd = rnd;
}

/* One line: X DUT_SCALE DUT_CODE MXGOLD_SCALE MXGOLD_CODE CLASS (hex; X 8 digits, the rest 2;
 * all 32 codes equal the one given; MXGOLD is mxgold quantize --format int8, OCP policy). */
static void
replay_bc (const char *path)
{
  FILE *f = fopen (path, "r");
  if (!f)
    {
      perror (path);
      exit (2);
    }
  char line[512];
  long ln = 0;
  int model_rtl = H.model_rtl;
  H.model_rtl = 0; /* the recorded MXGOLD values are OCP's */
  while (fgets (line, sizeof line, f))
    {
      ln++;
      char *h = strchr (line, '#');
      if (h)
        *h = 0;
      char tok[7][40];
      int n = sscanf (line, "%39s %39s %39s %39s %39s %39s %39s", tok[0], tok[1], tok[2], tok[3],
                      tok[4], tok[5], tok[6]);
      if (n <= 0)
        continue;
      uint8_t xb[4], v[4];
      int c = -1;
      for (int i = 0; i < CLS_COUNT && n == 6; i++)
        if (!strcmp (tok[5], cls_name[i]))
          c = i;
      if (n != 6 || parse_hex (tok[0], xb, 4) || parse_hex (tok[1], &v[0], 1)
          || parse_hex (tok[2], &v[1], 1) || parse_hex (tok[3], &v[2], 1)
          || parse_hex (tok[4], &v[3], 1) || c < CLS_BUMP)
        {
          fprintf (stderr, "%s:%ld: expected 'X DUT_SCALE DUT_CODE MXGOLD_SCALE MXGOLD_CODE CLASS': "
                   "8, 2, 2, 2 and 2 hex digits and one of bump, subtie, nanelems\n", path, ln);
          exit (2);
        }
      uint32_t x = (uint32_t) xb[0] << 24 | xb[1] << 16 | xb[2] << 8 | xb[3];
      bc_res o, e = bc_ref (x, 0), want_o, want_e;
      want_o.scale = v[0];
      memset (want_o.codes, v[1], K);
      want_e.scale = v[2];
      memset (want_e.codes, v[3], K);
      ocp_broadcast (H.d, x, &o.scale, o.codes);
      char where[300];
      snprintf (where, sizeof where, "%s:%ld", path, ln);
      if (!bc_same (&e, &want_e))
        {
          H.failed++;
          bc_report (where, x, &o, &e, "mxgold no longer gives the recorded MXGOLD value");
        }
      else if (bc_same (&o, &e) || !bc_same (&o, &want_o) || bc_classify (x, &o, &e, 0) != c)
        {
          H.failed++;
          bc_report (where, x, &o, &e, "the DUT no longer shows the recorded deviation");
        }
      else
        H.dev[c]++;
    }
  if (ferror (f) || fclose (f))
    {
      perror (path);
      exit (2);
    }
  H.model_rtl = model_rtl;
}

/*------------------------------------------------------------------- main -*/
static void
usage (FILE *f)
{
  fputs ("usage: harness [--unit dot|broadcast|all] [--model ocp|rtl] [--rounding R] [--random N]\n"
         "               [--seed S] [--repro FILE]... [--repro-bc FILE]... [--errors N] [--quiet]\n"
         "  co-simulates pncel/ocp_mx_alu mxint8_dot_product against libmxgold (mx_dot, exact,\n"
         "  rtz, C_in +0) and mxint8_broadcast against mx_quantize (int8, OCP, rne);\n"
         "  see sim/thirdparty/ocp-mx-alu/README.md\n", f);
}

static long
number (const char *opt, const char *s, long lo, long hi)
{
  char *end;
  long v = strtol (s, &end, 0);
  if (*s == 0 || *end != 0 || v < lo || v > hi)
    {
      fprintf (stderr, "harness: %s: expected an integer %ld..%ld, got '%s'\n", opt, lo, hi, s);
      exit (2);
    }
  return v;
}

/* Print a unit's counts and deviations, add them to the totals, and clear them. */
static void
tally (const char *unit, long *tp, long *tf, long *td)
{
  long dev = 0;
  for (int i = 1; i < CLS_COUNT; i++)
    {
      if (H.dev[i] && !H.quiet)
        printf ("  deviation %-8s %ld\n", cls_name[i], H.dev[i]);
      dev += H.dev[i];
      H.dev[i] = 0;
    }
  printf ("%s: %ld passed, %ld failed, %ld documented deviations\n", unit, H.passed, H.failed, dev);
  *tp += H.passed;
  *tf += H.failed;
  *td += dev;
  H.passed = H.failed = 0;
}

int
main (int argc, char **argv)
{
  static const struct option opts[] = {
    { "model", required_argument, 0, 'm' }, { "random", required_argument, 0, 'n' },
    { "seed", required_argument, 0, 's' },  { "repro", required_argument, 0, 'r' },
    { "errors", required_argument, 0, 'e' }, { "quiet", no_argument, 0, 'q' },
    { "rounding", required_argument, 0, 'R' }, { "unit", required_argument, 0, 'u' },
    { "repro-bc", required_argument, 0, 'b' }, { "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 }
  };
  long n = 100000, seed = 1;
  const char *repro[16], *repro_bc[16];
  int nrepro = 0, nrepro_bc = 0, unit = 2, c;
  H.errors_max = 10;
  H.rnd = MX_RTZ;
  while ((c = getopt_long (argc, argv, "", opts, 0)) != -1)
    switch (c)
      {
      case 'm':
        if (strcmp (optarg, "ocp") && strcmp (optarg, "rtl"))
          {
            fprintf (stderr, "harness: --model: expected ocp or rtl, got '%s'\n", optarg);
            return 2;
          }
        H.model_rtl = !strcmp (optarg, "rtl");
        break;
      case 'n':
        n = number ("--random", optarg, 0, 1000000000L);
        break;
      case 's':
        seed = number ("--seed", optarg, 0, 0x7fffffffL);
        break;
      case 'r':
        if (nrepro == 16)
          {
            fputs ("harness: --repro: at most 16 files\n", stderr);
            return 2;
          }
        repro[nrepro++] = optarg;
        break;
      case 'u':
        if (!strcmp (optarg, "dot"))
          unit = 0;
        else if (!strcmp (optarg, "broadcast"))
          unit = 1;
        else if (!strcmp (optarg, "all"))
          unit = 2;
        else
          {
            fprintf (stderr, "harness: --unit: expected dot, broadcast or all, got '%s'\n", optarg);
            return 2;
          }
        break;
      case 'b':
        if (nrepro_bc == 16)
          {
            fputs ("harness: --repro-bc: at most 16 files\n", stderr);
            return 2;
          }
        repro_bc[nrepro_bc++] = optarg;
        break;
      case 'e':
        H.errors_max = number ("--errors", optarg, 0, 1000000L);
        break;
      case 'R':
        c = mx_rounding_parse (optarg);
        if (c < 0 || c == MX_SR)
          {
            fprintf (stderr, "harness: --rounding: expected a deterministic rounding (rtz, rne, "
                     "...), got '%s'\n", optarg);
            return 2;
          }
        H.rnd = (mx_rounding) c;
        break;
      case 'q':
        H.quiet = 1;
        break;
      case 'h':
        usage (stdout);
        return 0;
      default:
        usage (stderr);
        return 2;
      }
  if (optind != argc)
    {
      fprintf (stderr, "harness: unexpected argument '%s'\n", argv[optind]);
      usage (stderr);
      return 2;
    }
  gen.s = (uint64_t) seed;
  H.d = ocp_new ();
  long tp = 0, tf = 0, td = 0;
  if (unit != 1)
    {
      for (int i = 0; i < nrepro; i++)
        replay (repro[i]);
      directed ();
      pair p;
      for (long i = 0; i < n; i++)
        {
          random_elems (&p, (int) below (5));
          random_scales (&p);
          run_case ("random", &p);
        }
      if (!H.quiet)
        {
          printf ("dot, model %s: mxgold dot (exact, %s, C_in +0)%s; %ld random cases, seed %ld\n",
                  H.model_rtl ? "rtl" : "ocp", mx_rounding_name (H.rnd),
                  H.model_rtl ? " with the product scaled by 2^6 (X_A+X_B >= 102) or 2^-3 (below)"
                  : "", n, seed);
          printf ("  reference results: %ld zero, %ld subnormal, %ld normal, %ld overflowed, %ld "
                  "NaN\n", H.kind[0], H.kind[1], H.kind[2], H.kind[3], H.kind[4]);
          printf ("  top bit of |integer sum|, 0..19:");
          for (int i = 0; i < 20; i++)
            printf (" %ld", H.topbit[i]);
          printf (" (sum 0: %ld)\n", H.topbit[20]);
        }
      tally ("dot", &tp, &tf, &td);
    }
  if (unit != 0)
    {
      for (int i = 0; i < nrepro_bc; i++)
        replay_bc (repro_bc[i]);
      bc_directed ();
      for (long i = 0; i < n; i++)
        bc_case ("random broadcast", (uint32_t) rng ());
      if (!H.quiet)
        printf ("broadcast, model %s: mxgold quantize --format int8 (OCP, rne)%s; 655360 directed "
                "and %ld random inputs, seed %ld\n", H.model_rtl ? "rtl" : "ocp",
                H.model_rtl ? " with scale-bump once below exponent field 254" : "", n, seed);
      tally ("broadcast", &tp, &tf, &td);
    }
  ocp_free (H.d);
  printf ("%ld passed, %ld failed, %ld documented deviations\n", tp, tf, td);
  if (fflush (stdout) || ferror (stdout))
    return 2;
  return tf ? 1 : 0;
}
