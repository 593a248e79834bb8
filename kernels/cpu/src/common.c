/* common.c -- format table (from formats.def), the scalar element and block routines, packing.
 * SPDX-License-Identifier: MIT */
#include <fenv.h>
#include <math.h>
#include <pthread.h>
#include "internal.h"

/* Built from the one format table: every element format of at most 8 bits, its derived fields
 * by the same rules as libmxgold's (MX_FMT_* in mx/ids.h). */
static mxk_fmt fmts[MX_FORMAT_COUNT];
static int have[MX_FORMAT_COUNT];
static pthread_once_t fmts_once = PTHREAD_ONCE_INIT;

static void
set_fmt (mx_format_id id, int bt, int eb, int mb, int bs, mx_special sp)
{
  mxk_fmt *f = &fmts[id];
  f->id = id;
  f->bits = bt, f->mbits = mb, f->bias = bs;
  f->is_int = sp == MX_SPECIAL_INT, f->is_ieee = sp == MX_SPECIAL_IEEE, f->is_fn = sp == MX_SPECIAL_FN;
  f->emin = MX_FMT_EMIN (bs, sp);
  f->emax = MX_FMT_EMAX (eb, bs, sp);
  f->maxmag = (uint32_t) MX_FMT_MAX_MAG (bt, eb, mb, sp);
  f->signbit = 1u << (bt - 1);
  /* max finite: an integer times 2^-mbits (INT), else its significand times 2^(emax - mbits) */
  double mx = f->is_int ? ldexp ((double) f->maxmag, -mb)
                        : ldexp ((double) ((f->maxmag & ((1u << mb) - 1)) | (1u << mb)), f->emax - mb);
  f->rcp_max = (float) (1.0 / mx); /* 1/max is no dyadic: no double-rounding tie (tested) */
  have[id] = 1;
}

/* On the first call of any kernel, in the caller's thread: its 1/max divisions are inexact, so
 * the caller's exception flags are saved before and restored after (a kernel raises only what
 * its own results raise; tkernels checks that no flag is raised under the NaN scale). */
static void
init_fmts (void)
{
  fexcept_t saved;
  fegetexceptflag (&saved, FE_ALL_EXCEPT);
#define MX_FORMAT(id, nm, al, role, bt, sg, eb, mb, bs, sp) \
  if (MX_ROLE_##role == MX_ROLE_ELEM && (bt) <= 8)         \
    set_fmt (MX_##id, bt, eb, mb, bs, MX_SPECIAL_##sp);
#include "mx/formats.def"
#undef MX_FORMAT
  fesetexceptflag (&saved, FE_ALL_EXCEPT);
}

const mxk_fmt *
mxk__fmt (mx_format_id id)
{
  pthread_once (&fmts_once, init_fmts);
  return (unsigned) id < MX_FORMAT_COUNT && have[id] ? &fmts[id] : NULL;
}

int
mxk__check (mx_format_id in_fmt, size_t n, mx_format_id elem, mx_scale_rule rule,
            mx_rounding rnd, const uint16_t *rbits, mx_packing packing)
{
  if ((in_fmt != MX_FP32 && in_fmt != MX_BF16) || n % MX_BLOCK || mxk__fmt (elem) == NULL)
    return MX_EINVAL;
  if (rule != MX_SCALE_FLOOR && rule != MX_SCALE_RCEIL_FP32)
    return MX_EINVAL;
  if (rnd != MX_RNE && rnd != MX_RNA && rnd != MX_RTZ && rnd != MX_RUP && rnd != MX_RDN
      && (rnd != MX_SR || rbits == NULL))
    return MX_EINVAL;
  const mxk_fmt *f = mxk__fmt (elem);
  if ((packing == MX_PACKING_FP4_LO_FIRST && f->bits != 4) || (packing == MX_PACKING_FP6_3BYTE && f->bits != 6)
      || (packing != MX_PACKING_UNPACKED && packing != MX_PACKING_FP4_LO_FIRST
          && packing != MX_PACKING_FP6_3BYTE))
    return MX_EINVAL; /* fp4-j-j16 is a vector-file layout only */
  return 0;
}

uint8_t
mxk__quant_elem (uint32_t b, int x, const mxk_fmt *f, mx_rounding rnd, uint32_t r)
{
  uint32_t s = b >> 31, e = (b >> 23) & 0xFF, m = b & 0x7FFFFF;
  if (e == 0 && m == 0)
    return (uint8_t) (s && !f->is_int ? f->signbit : 0);
  uint32_t M = e ? (m | 0x800000u) : m;
  int ep = e ? (int) e : 1;
  int lz = e ? 0 : __builtin_clz (M) - 8;
  int et = 23 - lz + ep - 150 - x;
  int q = f->is_int ? -f->mbits : (et > f->emin ? et : f->emin) - f->mbits;
  int sh = q - (ep - 150 - x); /* >= 1 */
  uint32_t n = sh >= 32 ? 0 : M >> sh;
  uint32_t rb = sh - 1 >= 32 ? 0 : (M >> (sh - 1)) & 1;
  uint32_t st = sh - 1 >= 32 ? M != 0 : (M & ((1u << (sh - 1)) - 1)) != 0;
  uint32_t inc;
  switch (rnd)
    {
    case MX_RNA: inc = rb; break;
    case MX_RTZ: inc = 0; break;
    case MX_RUP: inc = (rb | st) & !s; break;
    case MX_RDN: inc = (rb | st) & s; break;
    case MX_SR: inc = mxk__sr_inc (M, sh, r); break;
    default: inc = rb & (st | (n & 1)); break;
    }
  uint32_t nr = n + inc, mag;
  if (f->is_int || et < f->emin)
    mag = nr;
  else
    mag = ((uint32_t) (et + f->bias) << f->mbits) + nr - (1u << f->mbits);
  if (mag > f->maxmag)
    mag = f->maxmag;                       /* saturate (OCP) */
  if (f->is_int)
    return (uint8_t) (s ? 0u - mag : mag);
  return (uint8_t) (mag | (s ? f->signbit : 0));
}

uint8_t
mxk__quant_block (uint8_t *codes, const uint32_t *b, const mxk_fmt *f, mx_scale_rule rule,
                  mx_rounding rnd, const uint16_t *r)
{
  uint32_t amax = 0;
  for (int i = 0; i < MX_BLOCK; i++)
    if ((b[i] & 0x7FFFFFFFu) > amax)
      amax = b[i] & 0x7FFFFFFFu;
  if (amax >= 0x7F800000u)
    {
      memset (codes, 0, MX_BLOCK);        /* NaN or Inf: NaN scale, codes out of scope (0) */
      return 0xFF;
    }
  int x = amax == 0 ? -127 : mxk__scale_exp (amax, f, rule);
  if (x < -127)
    x = -127;
  if (x > 127)
    {
      memset (codes, 0, MX_BLOCK);        /* scale overflow (INT8 rceil near FLT_MAX): NaN */
      return 0xFF;
    }
  for (int i = 0; i < MX_BLOCK; i++)
    codes[i] = mxk__quant_elem (b[i], x, f, rnd, r ? r[i] : 0);
  return (uint8_t) (x + 127);
}

float
mxk__decode (uint8_t code, const mxk_fmt *f)
{
  if (f->is_int)
    return (float) (int8_t) code * mxk__pow2f (-f->mbits);
  uint32_t mag = code & (f->signbit - 1), s = (code & f->signbit) ? 0x80000000u : 0;
  uint32_t e = mag >> f->mbits, m = mag & ((1u << f->mbits) - 1);
  if ((f->is_fn && mag == f->signbit - 1) || (f->is_ieee && e == (f->signbit - 1) >> f->mbits && m))
    return mxk__u2f (s | 0x7FC00000u);
  if (f->is_ieee && e == (f->signbit - 1) >> f->mbits)
    return mxk__u2f (s | 0x7F800000u);
  uint32_t sig = e ? (m | (1u << f->mbits)) : m;
  float v = (float) sig * mxk__pow2f ((int) (e ? e : 1) - f->bias - f->mbits);
  return mxk__u2f (mxk__f2u (v) | s);
}

/* Round an exact integer sum * 2^k once to FP32 (through a double rounded to odd). */
static float
round_i128 (__int128 s, int k)
{
  unsigned __int128 u = s < 0 ? (unsigned __int128) -s : (unsigned __int128) s;
  int bits = 0;
  for (unsigned __int128 t = u; t; t >>= 1)
    bits++;
  int r = bits > 53 ? bits - 53 : 0;
  uint64_t hi = (uint64_t) (u >> r);
  if (r && (u & (((unsigned __int128) 1 << r) - 1)))
    hi |= 1;                               /* sticky: round to odd at 53 bits */
  double d = ldexp ((double) hi, k + r);
  return (float) (s < 0 ? -d : d);
}

float
mxk__block_dot (const uint8_t *a, const mxk_fmt *fa, const uint8_t *b, const mxk_fmt *fb,
                uint8_t sa, uint8_t sb)
{
  if (sa == 0xFF || sb == 0xFF)
    return mxk__u2f (0x7FC00000u);
  int k = (int) sa + (int) sb - 254;
  if (mxk__wide_pair (fa->id, fb->id))
    {
      /* exact in 128-bit integers (lsb 2^-32); specials through the double path below */
      __int128 s = 0;
      int special = 0, all_neg = 1;
      for (int i = 0; i < MX_BLOCK; i++)
        {
          float x = mxk__decode (a[i], fa), y = mxk__decode (b[i], fb);
          if (!isfinite (x) || !isfinite (y))
            {
              special = 1; /* the double path below; an Inf or NaN has no integer value */
              break;
            }
          double p = (double) x * (double) y;        /* exact: < 2^32 * 2^32 */
          all_neg &= p == 0 && signbit (p);
          if (p != 0)
            s += (__int128) ldexp (p, 32);           /* exact integer */
        }
      if (!special)
        {
          if (s == 0)
            return all_neg ? -0.0f : 0.0f;
          return round_i128 (s, k - 32);
        }
    }
  double s = -0.0;                                   /* -0: a sum of -0 terms stays -0 */
  for (int i = 0; i < MX_BLOCK; i++)
    s += (double) (mxk__decode (a[i], fa) * mxk__decode (b[i], fb)); /* exact product */
  return (float) ldexp (s, k);
}

void
mxk__pack_block (uint8_t *d, const uint8_t *c, mx_packing p)
{
  if (p == MX_PACKING_FP4_LO_FIRST)
    for (int i = 0; i < MX_BLOCK / 2; i++)
      d[i] = (uint8_t) ((c[2 * i] & 0xF) | (c[2 * i + 1] & 0xF) << 4);
  else if (p == MX_PACKING_FP6_3BYTE)
    for (int i = 0; i < MX_BLOCK / 4; i++)
      {
        uint32_t w = (uint32_t) (c[4 * i] & 63) | (uint32_t) (c[4 * i + 1] & 63) << 6
                     | (uint32_t) (c[4 * i + 2] & 63) << 12 | (uint32_t) (c[4 * i + 3] & 63) << 18;
        d[3 * i] = (uint8_t) w, d[3 * i + 1] = (uint8_t) (w >> 8), d[3 * i + 2] = (uint8_t) (w >> 16);
      }
  else
    memcpy (d, c, MX_BLOCK);
}

void
mxk__unpack_block (uint8_t *c, const uint8_t *s, mx_packing p)
{
  if (p == MX_PACKING_FP4_LO_FIRST)
    for (int i = 0; i < MX_BLOCK / 2; i++)
      c[2 * i] = s[i] & 0xF, c[2 * i + 1] = s[i] >> 4;
  else if (p == MX_PACKING_FP6_3BYTE)
    for (int i = 0; i < MX_BLOCK / 4; i++)
      {
        uint32_t w = (uint32_t) s[3 * i] | (uint32_t) s[3 * i + 1] << 8 | (uint32_t) s[3 * i + 2] << 16;
        for (int j = 0; j < 4; j++)
          c[4 * i + j] = (uint8_t) ((w >> (6 * j)) & 63);
      }
  else
    memcpy (c, s, MX_BLOCK);
}
