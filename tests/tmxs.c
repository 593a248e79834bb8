/* tmxs -- the shared-microexponent formats MX9, MX6, MX4 (docs/semantics.md section 5b).
 *   1. hand-derived blocks, three or more per format, every expected bit worked out below;
 *   2. seeded structured random blocks, MPFR model == integer model (tests/slow_mxs.c) bit for
 *      bit: scale, shifts, codes, flags, and the dequantized values;
 *   3. every scale x shift x element code dequantized into FP32, BF16 and FP16;
 *   4. the arguments the operations refuse.
 * Usage: tmxs [BLOCKS_PER_FORMAT]  (default 100000)
 * SPDX-License-Identifier: MIT */
#include <string.h>
#include "tests.h"

#define KMAX 64
static long checks;

/*------------------------------------------------------------ hand blocks -*/
typedef struct
{
  const char *what;
  mx_mxs_format fmt;
  mx_format_id in;
  mx_rounding rnd;
  int quark;        /* 1: profile quark-mxs (subnormals flush-pos, NaN/Inf ignored; Quark torch) */
  int field;        /* a policy field set to value, or -1 */
  long value;
  uint64_t x[16];   /* the rest of the block is +0 */
  uint64_t scale;
  uint8_t shifts[8];
  uint64_t codes[16];
  unsigned flags;
} hrow;

#define IEX MX_FLAG_INEXACT
#define UFL MX_FLAG_UNDERFLOW
#define OFL MX_FLAG_OVERFLOW
#define INV MX_FLAG_INVALID
#define CLP MX_FLAG_SCALE_CLAMPED

/* Element i of sub-block j (j = i / 2) is (-1)^s M 2^(1-m) 2^(E - s_j): its grid is
 * 2^(E - s_j - m + 1), its code s << m | M, M <= 2^m - 1 (MX9 m = 7, MX6 m = 4, MX4 m = 2).
 * E = floor(log2 amax), scale code E + 127; s_j = 1 iff neither element of the sub-block has
 * an exponent E (zeros, NaN and Inf count as below).  "tiny" (underflow, with inexact): |P| < 1. */
static const hrow hrows[] = {
  /* MX9 A (FP32, RNE).  amax 1.99609375 (exp 0): E = 0, scale 0x7F.
   *  sb0 {1.5, -0.75}: 1.5 has exp 0 -> s 0, grid 2^-6: 96 -> 0x60; -48 -> 0x80|0x30 = 0xB0
   *  sb1 {0.375, 0.2f}: both below -> s 1, grid 2^-7: 48 -> 0x30; 0.2f = 0x3E4CCCCD
   *      (0.200000003) * 128 = 25.6 -> 26 = 0x1A, inexact, |P| = 0.4 tiny -> underflow
   *  sb2 {1 + 2^-7, 0}: s 0: 64.5 ties to even 64 = 0x40; 0
   *  sb3 {0.5 + 2^-9, -0}: s 1: 64.25 -> 64 = 0x40 (|P| 1.004, not tiny); -0 -> 0x80
   *  sb4 {2 - 2^-8, 0}: s 0: 127.75 -> 128 > 127: saturates 0x7F, overflow
   *  sb5..7 zeros: no element at E -> s 1 */
  { "mx9 A", MX_MXS_MX9, MX_FP32, MX_RNE, 0, -1, 0,
    { 0x3FC00000, 0xBF400000, 0x3EC00000, 0x3E4CCCCD, 0x3F810000, 0, 0x3F008000, 0x80000000,
      0x3FFF8000 },
    0x7F, { 0, 1, 0, 1, 0, 1, 1, 1 },
    { 0x60, 0xB0, 0x30, 0x1A, 0x40, 0x00, 0x40, 0x80, 0x7F }, IEX | UFL | OFL },
  /* MX9 B (FP32, RNE).  amax 127 (exp 6, as -96's): E = 6, scale 0x85.
   *  sb0 {-96, 3}: s 0, grid 1: -96 -> 0xE0; 3 -> 0x03
   *  sb1 {40.5, 63.75}: both exp 5 -> s 1, grid 1/2: 81 -> 0x51; 127.5 ties to 128: saturates
   *      0x7F, overflow (the shift's one bit of headroom is gone)
   *  sb2 {0.25, -1.25}: s 1: 0.5 ties to 0 -> 0x00; -2.5 ties to -2 -> 0x82; both tiny
   *  sb3 {127, 2^-100}: s 0: 127 -> 0x7F exact; 2^-100 -> +0, inexact, tiny */
  { "mx9 B rne", MX_MXS_MX9, MX_FP32, MX_RNE, 0, -1, 0,
    { 0xC2C00000, 0x40400000, 0x42220000, 0x427F0000, 0x3E800000, 0xBFA00000, 0x42FE0000,
      0x0D800000 },
    0x85, { 0, 1, 1, 0, 1, 1, 1, 1 },
    { 0xE0, 0x03, 0x51, 0x7F, 0x00, 0x82, 0x7F, 0x00 }, IEX | UFL | OFL },
  /* MX9 B under RNA (Quark ONNX rounding_mode 0): sb2: 0.5 -> 1 = 0x01; -2.5 -> -3 = 0x83 */
  { "mx9 B rna", MX_MXS_MX9, MX_FP32, MX_RNA, 0, -1, 0,
    { 0xC2C00000, 0x40400000, 0x42220000, 0x427F0000, 0x3E800000, 0xBFA00000, 0x42FE0000,
      0x0D800000 },
    0x85, { 0, 1, 1, 0, 1, 1, 1, 1 },
    { 0xE0, 0x03, 0x51, 0x7F, 0x01, 0x83, 0x7F, 0x00 }, IEX | UFL | OFL },
  /* MX9 C (FP32, Quark torch policy).  {NaN, 2^-149, +Inf, 0.09375, 0.1875}: the subnormal is
   *  flushed (underflow, inexact); NaN and Inf stay out of amax: amax 0.1875 (exp -3), E = -3,
   *  scale 0x7C.  sb0 {NaN, 0}: s 1; NaN -> +0 (nan-elem zero), invalid; 0 -> 0x00
   *  sb1 {Inf, 0.09375 (exp -4)}: s 1, grid 2^-10: Inf -> 0 (inf-block zero), invalid;
   *      96 -> 0x60
   *  sb2 {0.1875, 0}: s 0, grid 2^-9: 96 -> 0x60 */
  { "mx9 C quark", MX_MXS_MX9, MX_FP32, MX_RNE, 1, -1, 0,
    { 0x7FC00000, 0x00000001, 0x7F800000, 0x3DC00000, 0x3E400000 },
    0x7C, { 1, 1, 0, 1, 1, 1, 1, 1 },
    { 0x00, 0x00, 0x00, 0x60, 0x60 }, INV | UFL | IEX },
  /* MX9 E (FP32), {-0, -2^-149, 1.0}: amax 1.0, E = 0, scale 0x7F.  sb0 below E: s 1; sb1
   *  {1.0, 0}: s 0, 1.0 * 64 = 64 -> 0x40; the rest zeros, s 1.  quark-mxs (flush-pos): -0 and
   *  the flushed -2^-149 are +0 (0x00, 0x00; underflow, inexact from the flush); the default:
   *  -0 keeps its sign (0x80), -2^-149 rounds to -0 (0x80, underflow, inexact). */
  { "mx9 E quark", MX_MXS_MX9, MX_FP32, MX_RNE, 1, -1, 0, { 0x80000000, 0x80000001, 0x3F800000 },
    0x7F, { 1, 0, 1, 1, 1, 1, 1, 1 }, { 0x00, 0x00, 0x40 }, UFL | IEX },
  { "mx9 E ocp", MX_MXS_MX9, MX_FP32, MX_RNE, 0, -1, 0, { 0x80000000, 0x80000001, 0x3F800000 },
    0x7F, { 1, 0, 1, 1, 1, 1, 1, 1 }, { 0x80, 0x80, 0x40 }, UFL | IEX },
  /* MX9 C under the default policy: NaN in the block -> NaN scale 0xFF, shifts and codes 0 */
  { "mx9 C ocp", MX_MXS_MX9, MX_FP32, MX_RNE, 0, -1, 0,
    { 0x7FC00000, 0x00000001, 0x7F800000, 0x3DC00000, 0x3E400000 },
    0xFF, { 0 }, { 0 }, INV },
  /* MX6 D (FP32, RNE).  amax 3 (exp 1): E = 1, scale 0x80.  Sign bit 0x10.
   *  sb0 {3, -2.875}: s 0, grid 1/4: 12 -> 0x0C; -11.5 ties to -12 -> 0x1C (|P| 1.44)
   *  sb1 {1.9f, 0.5}: s 1, grid 1/8: 15.2 -> 15 = 0x0F; 4 -> 0x04
   *  sb2 {1.96875, 0}: s 1: 15.75 -> 16: saturates 0x0F, overflow
   *  sb3 {2, 0.0625}: s 0: 8 -> 0x08; 0.25 -> 0, tiny */
  { "mx6 D", MX_MXS_MX6, MX_FP32, MX_RNE, 0, -1, 0,
    { 0x40400000, 0xC0380000, 0x3FF33333, 0x3F000000, 0x3FFC0000, 0, 0x40000000, 0x3D800000 },
    0x80, { 0, 1, 1, 0, 1, 1, 1, 1 },
    { 0x0C, 0x1C, 0x0F, 0x04, 0x0F, 0x00, 0x08, 0x00 }, IEX | UFL | OFL },
  /* MX6 E (BF16, RHU: ties toward +Inf, Quark ONNX rounding_mode 1).  amax 0.4375 (exp -2):
   *  E = -2, scale 0x7D.  sb0 {-0.4375 (0xBEE0), 0.1 (0x3DCD = 0.10009765625)}: s 0, grid 2^-5:
   *  -14 -> 0x1E; 3.2 -> 3 = 0x03, tiny.  sb1 {-15/128 (0xBDF0), 31/128 (0x3E78)}: both below
   *  -> s 1, grid 2^-6: -7.5 ties up to -7 -> 0x17 (tiny); 15.5 ties up to 16: saturates 0x0F */
  { "mx6 E rhu", MX_MXS_MX6, MX_BF16, MX_RHU, 0, -1, 0,
    { 0xBEE0, 0x3DCD, 0xBDF0, 0x3E78 },
    0x7D, { 0, 1, 1, 1, 1, 1, 1, 1 },
    { 0x1E, 0x03, 0x17, 0x0F }, IEX | UFL | OFL },
  /* MX6 F (FP16, RNE).  amax 65504 (0x7BFF, exp 15): E = 15, scale 0x8E.
   *  sb0 {65504, 2^-24 (0x0001)}: s 0, grid 2^12: 15.99 -> 16: saturates 0x0F; 2^-24 -> 0, tiny
   *  sb1 {32768 (0x7800), 6144 (0x6E00)}: s 0: 8 -> 0x08; 1.5 ties to 2 -> 0x02 (tiny)
   *  sb2 {30720 (0x7780, exp 14), -8192 (0xF000, exp 13)}: s 1, grid 2^11: 15 -> 0x0F;
   *      -4 -> 0x14 */
  { "mx6 F fp16", MX_MXS_MX6, MX_FP16, MX_RNE, 0, -1, 0,
    { 0x7BFF, 0x0001, 0x7800, 0x6E00, 0x7780, 0xF000 },
    0x8E, { 0, 0, 1, 1, 1, 1, 1, 1 },
    { 0x0F, 0x00, 0x08, 0x02, 0x0F, 0x14 }, IEX | UFL | OFL },
  /* MX4 G (FP32, RNE).  amax 1.75 (exp 0): E = 0, scale 0x7F.  Sign bit 0x4, M <= 3.
   *  sb0 {1, -0.75}: s 0, grid 1/2: 2 -> 0x2; -1.5 ties to -2 -> 0x6 (tiny)
   *  sb1 {0.375, 0.4375}: s 1, grid 1/4: 1.5 ties to 2 -> 0x2; 1.75 -> 2 -> 0x2
   *  sb2 {1.75, 0.125}: s 0: 3.5 ties to 4: saturates 0x3; 0.25 -> 0
   *  sb3 {-0.875, 0}: s 1: -3.5 ties to -4: saturates 0x7 */
  { "mx4 G", MX_MXS_MX4, MX_FP32, MX_RNE, 0, -1, 0,
    { 0x3F800000, 0xBF400000, 0x3EC00000, 0x3EE00000, 0x3FE00000, 0x3E000000, 0xBF600000 },
    0x7F, { 0, 1, 0, 1, 1, 1, 1, 1 },
    { 0x2, 0x6, 0x2, 0x2, 0x3, 0x0, 0x7 }, IEX | UFL | OFL },
  /* MX4 H (FP32, RNE, scale-min 7F: E >= 0).  amax 0.3f (exp -2): E = -2 clamped to 0, scale
   *  0x7F, scale clamped.  Every element lies below E: s 1, grid 2^-2: 0.3f / 0.25 = 1.2 -> 1
   *  = 0x1; -0.2f -> -0.8 -> -1 = 0x5; both tiny */
  { "mx4 H scale-min", MX_MXS_MX4, MX_FP32, MX_RNE, 0, MX_POLICY_SCALE_MIN, 0x7F,
    { 0x3E99999A, 0xBE4CCCCD },
    0x7F, { 1, 1, 1, 1, 1, 1, 1, 1 },
    { 0x1, 0x5 }, CLP | IEX | UFL },
  /* MX4 I (FP64, scale-overflow clamp).  amax 2^200: E = 200 > 127: clamped to 127, scale 0xFE.
   *  sb0 {2^200, 2^126}: 2^200 is not below 127 -> s 0, grid 2^126: 2^74 saturates 0x3;
   *      1 -> 0x1.  sb1 {1.5 * 2^126, 0}: exp 126 -> s 1, grid 2^125: 3 -> 0x3 */
  { "mx4 I clamp", MX_MXS_MX4, MX_FP64, MX_RNE, 0, MX_POLICY_SCALE_OVERFLOW,
    MX_SCALE_OVERFLOW_CLAMP,
    { 0x4C70000000000000, 0x47D0000000000000, 0x47D8000000000000 },
    0xFE, { 0, 1, 1, 1, 1, 1, 1, 1 },
    { 0x3, 0x1, 0x3 }, CLP | OFL | IEX },
  /* MX4 I under the default scale-overflow nan: NaN scale */
  { "mx4 I nan", MX_MXS_MX4, MX_FP64, MX_RNE, 0, -1, 0,
    { 0x4C70000000000000, 0x47D0000000000000, 0x47D8000000000000 },
    0xFF, { 0 }, { 0 }, INV },
};

static mx_policy
quark_policy (void)
{
  mx_policy p;
  mx_profile_get (&p, NULL, MX_PROFILE_QUARK_MXS);
  return p;
}

static void
hand (void)
{
  for (size_t r = 0; r < sizeof hrows / sizeof hrows[0]; r++)
    {
      const hrow *h = &hrows[r];
      const mx_mxs_desc *d = mx_mxs_get (h->fmt);
      mx_policy pol = h->quark ? quark_policy () : mx_policy_ocp ();
      if (h->field >= 0)
        mx_policy_set (&pol, (mx_policy_field) h->field, h->value);
      uint64_t sc[2], codes[2][16];
      uint8_t sh[2][8];
      unsigned fl[2];
      int rc = mx_quantize_mxs (&sc[0], sh[0], codes[0], &fl[0], h->fmt, mx_format_get (h->in),
                                h->x, 16, &pol, h->rnd);
      fl[1] = s_quantize_mxs (&sc[1], sh[1], codes[1], d, mx_format_get (h->in), h->x, 16, &pol,
                              h->rnd);
      CHECK (rc == MX_OK, "%s: rc %d", h->what, rc);
      for (int w = 0; w < 2; w++)
        {
          const char *who = w ? "slow" : "mpfr";
          CHECK (sc[w] == h->scale, "%s %s: scale %02llX, want %02llX", h->what, who,
                 (unsigned long long) sc[w], (unsigned long long) h->scale);
          CHECK (fl[w] == h->flags, "%s %s: flags %02X, want %02X", h->what, who, fl[w],
                 h->flags);
          for (int j = 0; j < 8; j++)
            CHECK (sh[w][j] == h->shifts[j], "%s %s: shift %d is %u, want %u", h->what, who, j,
                   sh[w][j], h->shifts[j]);
          for (int i = 0; i < 16; i++)
            CHECK (codes[w][i] == h->codes[i], "%s %s: code %d is %02llX, want %02llX", h->what,
                   who, i, (unsigned long long) codes[w][i], (unsigned long long) h->codes[i]);
          checks += 26;
        }
    }

  /* Dequantized by hand: MX9 A's block into FP32.  1.5 -> 0x3FC00000, -0.75 -> 0xBF400000,
   * 48 * 2^-7 = 0.375 -> 0x3EC00000, 26 * 2^-7 = 0.203125 = 1.625 * 2^-3 -> 0x3E500000,
   * 64 * 2^-6 = 1 -> 0x3F800000, +0, 64 * 2^-7 = 0.5 -> 0x3F000000, -0 -> 0x80000000,
   * 127 * 2^-6 = 1.984375 -> 0x3FFE0000, then +0. */
  static const uint64_t want[16] = { 0x3FC00000, 0xBF400000, 0x3EC00000, 0x3E500000, 0x3F800000,
                                     0, 0x3F000000, 0x80000000, 0x3FFE0000 };
  const hrow *a = &hrows[0];
  uint64_t out[16];
  unsigned fl;
  int rc = mx_dequantize_mxs (out, &fl, mx_format_get (MX_FP32), a->scale, a->shifts, a->codes,
                              a->fmt, 16, MX_RNE);
  CHECK (rc == MX_OK && fl == 0, "mx9 A dequantize: rc %d flags %02X", rc, fl);
  for (int i = 0; i < 16; i++)
    CHECK (out[i] == want[i], "mx9 A dequantize %d: %08llX, want %08llX", i,
           (unsigned long long) out[i], (unsigned long long) want[i]);
  /* MX4 smallest: scale 0x00, shift 1, code 0x1 = 1 * 2^-1 * 2^(-127-1) = 2^-129 -> FP32
   * subnormal 0x00100000 exact; in BF16 also exact (0x0010: 2^-129 = 2^4 * 2^-133). */
  uint8_t s1[8] = { 1, 1, 1, 1, 1, 1, 1, 1 };
  uint64_t c1[16] = { 0x1, 0x5 };
  rc = mx_dequantize_mxs (out, &fl, mx_format_get (MX_FP32), 0x00, s1, c1, MX_MXS_MX4, 16,
                          MX_RNE);
  CHECK (rc == MX_OK && out[0] == 0x00100000 && out[1] == 0x80100000 && fl == 0,
         "mx4 smallest: rc %d %08llX %08llX flags %02X", rc, (unsigned long long) out[0],
         (unsigned long long) out[1], fl);
  rc = mx_dequantize_mxs (out, &fl, mx_format_get (MX_BF16), 0x00, s1, c1, MX_MXS_MX4, 16,
                          MX_RNE);
  CHECK (rc == MX_OK && out[0] == 0x0010 && out[1] == 0x8010 && fl == 0,
         "mx4 smallest bf16: rc %d %04llX %04llX flags %02X", rc, (unsigned long long) out[0],
         (unsigned long long) out[1], fl);
  checks += 20;
}

/*--------------------------------------------------------------- random -*/
static uint64_t
mk (const mx_format *f, int neg, uint64_t sig, long exp)
{
  unsigned fl;
  s_val v = { sig ? S_FINITE : S_ZERO, neg, sig, exp };
  return s_encode (f, v, MX_RNE, 0, &s_ieee, &fl);
}

static mx_rounding
any_rounding (rng *r)
{
  mx_rounding m;
  do
    m = (mx_rounding) rng_below (r, MX_ROUNDING_COUNT);
  while (m == MX_SR);
  return m;
}

/* One element of kind kd around block exponent eb, in format f (p significant bits). */
static uint64_t
element (rng *r, const mx_format *f, const mx_mxs_desc *d, long eb, int kd)
{
  unsigned p = f->mbits + 1, m = d->mbits;
  int neg = (int) (rng_next (r) & 1);
  uint64_t sig = (rng_next (r) & ((1ull << (p - 1)) - 1)) | (1ull << (p - 1));
  long emin = 1 - f->bias;
  switch (kd)
    {
    case 0: /* exponent at the block's */
      return mk (f, neg, sig, eb - (long) p + 1);
    case 1: /* one below: a shift candidate */
      return mk (f, neg, sig, eb - (long) p);
    case 2: /* far below */
      return mk (f, neg, sig, eb - (long) p - 1 - (long) rng_below (r, 40));
    case 3: /* an exact tie on the grid of shift s (and of s+1 inside) */
    case 4: /* a tie moved by one unit of the input's last place */
      {
        long s = (long) rng_below (r, 3);
        uint64_t t = 2 * rng_below (r, 1ull << m) + 1; /* (2M+1) 2^(eb - s - m) */
        long e = eb - s - (long) m;
        if (kd == 4)
          {
            int sh = (int) p - (64 - __builtin_clzll (t));
            t <<= sh, e -= sh;
            t = rng_next (r) & 1 ? t + 1 : t - 1;
          }
        return mk (f, neg, t, e);
      }
    case 5: /* zero */
      return mk (f, neg, 0, 0);
    case 6: /* a subnormal of the input */
      return mk (f, neg, rng_below (r, 1ull << (p - 1)) + 1, emin - (long) p + 1);
    case 7: /* NaN or Inf */
      return rng_next (r) & 1 ? (mx_format_get (MX_FP64) == f ? 0x7FF8000000000000ull
                                 : f->bits == 32 ? 0x7FC00000ull : f->mbits == 7 ? 0x7FC0ull
                                                                                 : 0x7E00ull)
                              : mk (f, neg, 1, 100000); /* overflows to Inf */
    default: /* any pattern */
      return rng_next (r) & ((f->bits == 64) ? ~0ull : (1ull << f->bits) - 1);
    }
}

static void
gen (rng *r, const mx_mxs_desc *d, const mx_format *f, uint64_t x[])
{
  long emin = 1 - f->bias, emax = f->bias;
  long eb;
  unsigned c = (unsigned) rng_below (r, 20);
  if (f->bits == 64 && c < 6)
    eb = (long) rng_below (r, 601) - 300; /* beyond the scale's range */
  else if (c < 3)
    eb = emin + (long) rng_below (r, 4); /* the bottom: shifts and the scale floor */
  else if (c < 5)
    eb = emax - (long) rng_below (r, 2); /* the top */
  else
    eb = emin + 2 + (long) rng_below (r, (uint64_t) (emax - emin - 3));
  int specials = rng_below (r, 5) == 0;
  int style = (int) rng_below (r, 4); /* 0: mixed; 1: sub-blocks alike; 2: sparse; 3: ties */
  for (unsigned j = 0; j < d->k1 / d->k2; j++)
    {
      int kj = (int) rng_below (r, 5);
      for (unsigned i = j * d->k2; i < (j + 1) * d->k2; i++)
        {
          int kd;
          if (style == 1)
            kd = kj;
          else if (style == 2)
            kd = rng_below (r, 3) ? 5 : (int) rng_below (r, 3);
          else if (style == 3)
            kd = 3 + (int) rng_below (r, 2);
          else
            kd = (int) rng_below (r, 9);
          if (kd == 7 && !specials)
            kd = 0;
          x[i] = element (r, f, d, eb, kd);
        }
    }
  if (rng_below (r, 5))
    x[rng_below (r, d->k1)] = element (r, f, d, eb, 0); /* the block's exponent is eb */
}

static mx_policy
any_policy (rng *r)
{
  unsigned c = (unsigned) rng_below (r, 5);
  mx_policy p = c < 2 ? mx_policy_ocp () : quark_policy ();
  if (c < 4)
    return p;
  p.nan_block = (mx_nan_block) rng_below (r, 2);
  static const mx_inf_block infs[] = { MX_INF_BLOCK_NAN, MX_INF_BLOCK_SAT, MX_INF_BLOCK_ZERO };
  p.inf_block = infs[rng_below (r, 3)];
  p.subnormals = (mx_subnormals) rng_below (r, MX_SUBNORMALS_COUNT);
  p.zero_sign = (mx_zero_sign) rng_below (r, MX_ZERO_SIGN_COUNT);
  p.nan_elem = (mx_nan_elem) rng_below (r, 3);
  p.scale_overflow = (mx_scale_overflow) rng_below (r, 2);
  p.wide_input = (mx_wide_input) rng_below (r, 2);
  p.scale_min = rng_below (r, 4) ? 0 : (unsigned) rng_below (r, 255);
  p.zero_scale = rng_below (r, 4) ? 0 : (unsigned) rng_below (r, 256);
  return p;
}

/* What the random blocks reached, so that a generator that drifts away from the boundaries
 * fails: mixed shifts, NaN scales, saturation, tiny elements, clamped scales, zero blocks. */
enum { C_MIXED, C_NAN, C_OVF, C_UFL, C_CLAMP, C_ZERO, C_COUNT };
static const char *const c_names[C_COUNT] = { "mixed shifts", "NaN scale", "saturated",
                                              "underflow", "scale clamped", "zero block" };

static void
random_blocks (mx_mxs_format fmt, long n)
{
  long seen[C_COUNT] = { 0 };
  const mx_mxs_desc *d = mx_mxs_get (fmt);
  rng r = { test_seed () ^ (0x3A5ull + (uint64_t) fmt) };
  static const mx_format_id ins[] = { MX_FP32, MX_FP32, MX_FP32, MX_FP32, MX_FP32, MX_FP32,
                                      MX_BF16, MX_BF16, MX_FP16, MX_FP16, MX_FP64 };
  static const mx_format_id outs[] = { MX_FP32, MX_FP32, MX_BF16, MX_FP16, MX_FP64 };
  size_t k = d->k1, nsub = k / d->k2;
  for (long b = 0; b < n; b++)
    {
      const mx_format *in = mx_format_get (ins[rng_below (&r, 11)]);
      uint64_t x[KMAX], sc[2], codes[2][KMAX], out[2][KMAX];
      uint8_t sh[2][KMAX];
      unsigned fl[2], of[2];
      gen (&r, d, in, x);
      mx_policy pol = any_policy (&r);
      mx_rounding rnd = rng_below (&r, 2) ? MX_RNE : any_rounding (&r);
      int rc = mx_quantize_mxs (&sc[0], sh[0], codes[0], &fl[0], fmt, in, x, k, &pol, rnd);
      fl[1] = s_quantize_mxs (&sc[1], sh[1], codes[1], d, in, x, k, &pol, rnd);
      int bad = rc != MX_OK || sc[0] != sc[1] || fl[0] != fl[1]
                || memcmp (sh[0], sh[1], nsub) != 0 || memcmp (codes[0], codes[1], k * 8) != 0;
      checks++;
      int any0 = 0, any1 = 0, zero = 1;
      for (size_t j = 0; j < nsub; j++)
        any0 |= sh[0][j] == 0, any1 |= sh[0][j] != 0;
      for (size_t i = 0; i < k; i++)
        zero &= (codes[0][i] & ((1ull << d->mbits) - 1)) == 0;
      seen[C_MIXED] += any0 && any1;
      seen[C_NAN] += sc[0] == 0xFF;
      seen[C_OVF] += (fl[0] & MX_FLAG_OVERFLOW) != 0;
      seen[C_UFL] += (fl[0] & MX_FLAG_UNDERFLOW) != 0;
      seen[C_CLAMP] += (fl[0] & MX_FLAG_SCALE_CLAMPED) != 0;
      seen[C_ZERO] += zero && sc[0] != 0xFF;
      if (!bad)
        {
          /* and back, into a random IEEE format and rounding */
          const mx_format *o = mx_format_get (outs[rng_below (&r, 5)]);
          mx_rounding dr = any_rounding (&r);
          rc = mx_dequantize_mxs (out[0], &of[0], o, sc[0], sh[0], codes[0], fmt, k, dr);
          of[1] = s_dequantize_mxs (out[1], o, sc[1], sh[1], codes[1], d, k, dr);
          bad = rc != MX_OK || of[0] != of[1] || memcmp (out[0], out[1], k * 8) != 0;
          checks++;
        }
      if (bad && failures++ < 5)
        {
          fprintf (stderr, "FAIL %s block %ld (in %s, rnd %s, nan-block %d inf-block %d "
                   "subnormals %d zero-sign %d nan-elem %d scale-overflow %d wide %d "
                   "scale-min %u zero-scale %u) rc %d\n  in:",
                   d->name, b, in->name, mx_rounding_name (rnd), pol.nan_block, pol.inf_block,
                   pol.subnormals, pol.zero_sign, pol.nan_elem, pol.scale_overflow,
                   pol.wide_input, pol.scale_min, pol.zero_scale, rc);
          for (size_t i = 0; i < k; i++)
            fprintf (stderr, " %llX", (unsigned long long) x[i]);
          for (int w = 0; w < 2; w++)
            {
              fprintf (stderr, "\n  %s: scale %02llX flags %02X shifts", w ? "slow" : "mpfr",
                       (unsigned long long) sc[w], fl[w]);
              for (size_t j = 0; j < nsub; j++)
                fprintf (stderr, " %u", sh[w][j]);
              fprintf (stderr, " codes");
              for (size_t i = 0; i < k; i++)
                fprintf (stderr, " %02llX", (unsigned long long) codes[w][i]);
            }
          fputc ('\n', stderr);
        }
    }
  for (int c = 0; c < C_COUNT && n >= 1000; c++)
    {
      CHECK (seen[c] * 1000 >= n, "%s: %ld of %ld blocks reached '%s'", d->name, seen[c], n,
             c_names[c]);
      checks++;
    }
  if (n >= 1000)
    printf ("%s: %ld blocks; mixed shifts %ld, NaN scale %ld, saturated %ld, underflow %ld, "
            "clamped %ld, zero %ld\n", d->name, n, seen[C_MIXED], seen[C_NAN], seen[C_OVF],
            seen[C_UFL], seen[C_CLAMP], seen[C_ZERO]);
}

/*------------------------------------------------- exhaustive dequantize -*/
static void
every_code (mx_mxs_format fmt)
{
  const mx_mxs_desc *d = mx_mxs_get (fmt);
  static const mx_format_id outs[] = { MX_FP32, MX_BF16, MX_FP16 };
  size_t k = d->k1, ncodes = (size_t) 2 << d->mbits;
  for (uint64_t sc = 0; sc < 256; sc++)
    for (size_t base = 0; base < ncodes; base += k)
      for (int o = 0; o < 3; o++)
        {
          uint64_t codes[KMAX], out[2][KMAX];
          uint8_t sh[KMAX];
          unsigned fl[2];
          for (size_t i = 0; i < k; i++)
            codes[i] = (base + i) % ncodes;
          for (size_t j = 0; j < k / d->k2; j++)
            sh[j] = (uint8_t) ((j + sc + base) & 1);
          const mx_format *of = mx_format_get (outs[o]);
          int rc = mx_dequantize_mxs (out[0], &fl[0], of, sc, sh, codes, fmt, k, MX_RNE);
          fl[1] = s_dequantize_mxs (out[1], of, sc, sh, codes, d, k, MX_RNE);
          CHECK (rc == MX_OK && fl[0] == fl[1] && memcmp (out[0], out[1], k * 8) == 0,
                 "%s dequantize scale %02llX codes from %zu into %s: rc %d flags %02X/%02X",
                 d->name, (unsigned long long) sc, base, of->name, rc, fl[0], fl[1]);
          checks++;
        }
}

/*------------------------------------------------------------- arguments -*/
static void
arguments (void)
{
  const mx_format *f32 = mx_format_get (MX_FP32);
  uint64_t x[16] = { 0x3F800000 }, sc, codes[16], out[16];
  uint8_t sh[8] = { 0 };
  unsigned fl;
  mx_policy ok = mx_policy_ocp (), p;
#define EINVAL_IF(call, what) \
  do { CHECK ((call) == MX_EINVAL, "not refused: %s", what); checks++; } while (0)
  EINVAL_IF (mx_quantize_mxs (&sc, sh, codes, &fl, MX_MXS_COUNT, f32, x, 16, &ok, MX_RNE), "fmt");
  EINVAL_IF (mx_quantize_mxs (&sc, sh, codes, &fl, MX_MXS_MX9, f32, x, 15, &ok, MX_RNE), "k 15");
  EINVAL_IF (mx_quantize_mxs (&sc, sh, codes, &fl, MX_MXS_MX9, f32, x, 32, &ok, MX_RNE), "k 32");
  EINVAL_IF (mx_quantize_mxs (&sc, sh, codes, &fl, MX_MXS_MX9, f32, x, 16, &ok, MX_SR), "sr");
  EINVAL_IF (mx_quantize_mxs (&sc, sh, codes, &fl, MX_MXS_MX9, mx_format_get (MX_E4M3), x, 16,
                              &ok, MX_RNE), "e4m3 input");
  p = ok, p.scale_rule = MX_SCALE_CEIL;
  EINVAL_IF (mx_quantize_mxs (&sc, sh, codes, &fl, MX_MXS_MX6, f32, x, 16, &p, MX_RNE), "ceil");
  p = ok, p.scale_bump = MX_SCALE_BUMP_ONCE;
  EINVAL_IF (mx_quantize_mxs (&sc, sh, codes, &fl, MX_MXS_MX6, f32, x, 16, &p, MX_RNE), "bump");
  p = ok, p.inf_block = MX_INF_BLOCK_PASS;
  EINVAL_IF (mx_quantize_mxs (&sc, sh, codes, &fl, MX_MXS_MX9, f32, x, 16, &p, MX_RNE), "pass");
  p = ok, p.inf_block = MX_INF_BLOCK_POW128;
  EINVAL_IF (mx_quantize_mxs (&sc, sh, codes, &fl, MX_MXS_MX4, f32, x, 16, &p, MX_RNE), "pow128");
  p = ok, p.min_scale_elem = MX_MIN_SCALE_ELEM_UNIT;
  EINVAL_IF (mx_quantize_mxs (&sc, sh, codes, &fl, MX_MXS_MX4, f32, x, 16, &p, MX_RNE), "unit");
  p = ok, p.scale_div = MX_SCALE_DIV_INPUT;
  EINVAL_IF (mx_quantize_mxs (&sc, sh, codes, &fl, MX_MXS_MX4, f32, x, 16, &p, MX_RNE), "div");
  uint8_t bad[8] = { 0, 2 };
  EINVAL_IF (mx_dequantize_mxs (out, &fl, f32, 0x7F, bad, codes, MX_MXS_MX9, 16, MX_RNE),
             "shift 2");
  EINVAL_IF (mx_dequantize_mxs (out, &fl, mx_format_get (MX_E8M0), 0x7F, sh, codes, MX_MXS_MX9,
                                16, MX_RNE), "e8m0 out");
  /* the table: names, k1 = 16, k2 = 2, d2 = 1, m = 7, 4, 2, the element formats' widths */
  static const unsigned ms[] = { 7, 4, 2 };
  for (int f = 0; f < MX_MXS_COUNT; f++)
    {
      const mx_mxs_desc *d = mx_mxs_get ((mx_mxs_format) f);
      CHECK (d && d->k1 == 16 && d->k2 == 2 && d->d2 == 1 && d->mbits == ms[f]
             && d->elem->bits == ms[f] + 1 && d->elem->max_mag == (1u << ms[f]) - 1
             && mx_mxs_parse (d->name) == f && d->scale == mx_format_get (MX_E8M0),
             "table row %d", f);
      checks++;
    }
  CHECK (mx_mxs_get (MX_MXS_COUNT) == NULL && mx_mxs_parse ("mx5") == -1, "table bounds");
  checks++;
}

int
main (int argc, char **argv)
{
  long n = test_count (argc, argv, 1, 100000);
  hand ();
  arguments ();
  for (int f = 0; f < MX_MXS_COUNT; f++)
    {
      every_code ((mx_mxs_format) f);
      random_blocks ((mx_mxs_format) f, n);
    }
  return finish ("tmxs", checks);
}
