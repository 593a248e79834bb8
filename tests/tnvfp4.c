/* tnvfp4 -- NVFP4 two-level scaling (docs/semantics.md section 9): hand-derived blocks, the
 * S_enc special cases, then seeded random tensors where the MPFR model (mx_nvfp4_amax,
 * mx_nvfp4_global_scale, mx_quantize_nvfp4, mx_dequantize_nvfp4) must equal the independent
 * model (tests/slow_nvfp4.c) bit for bit: amax, S_enc, scales, codes, flags and the dequantized
 * FP32/BF16/FP16 values.
 * Usage: tnvfp4 [TENSORS]  (default 100000)
 * Tensors: FP32, BF16 and FP16; 1x16 blocks (1-3 rows, 16-48 cols) and 16x16 tiles (1-40 rows,
 * partial last tiles included); RNE and SR with random words; amax from the tensor or given
 * (0, Inf, NaN, huge, random); values across FP32's range with FP32 subnormals, blocks far below
 * the tensor amax (E4M3 scale 0 or subnormal), exact E2M1 ties, zero tensors, NaN and Inf.
 * SPDX-License-Identifier: MIT */
#include <string.h>
#include "tests.h"

#define MAXR 40
#define MAXC 48
#define MAXN (MAXR * MAXC)

static long checks;

static const mx_format *fmt (mx_format_id id) { return mx_format_get (id); }

/*--------------------------------------------------------- hand-derived -*/
static void
expect_u64 (const char *what, size_t i, uint64_t got, uint64_t want)
{
  checks++;
  CHECK (got == want, "%s[%zu] = 0x%llX, expected 0x%llX", what, i, (unsigned long long) got,
         (unsigned long long) want);
}

/* One block of 16 FP32 values through both models, against the bits worked out by hand. */
static void
hand_block (const char *name, const float *x, const uint32_t *rb, mx_rounding rnd,
            uint32_t amax, uint64_t want_scale, const uint8_t *want_codes, unsigned want_flags)
{
  uint64_t in[16], sc[2], codes[2][16];
  unsigned fl[2];
  for (int i = 0; i < 16; i++)
    {
      uint32_t b;
      memcpy (&b, &x[i], 4); /* test data only: the constants are exact FP32 values */
      in[i] = b;
    }
  int rc = mx_quantize_nvfp4 (&sc[0], codes[0], &fl[0], fmt (MX_FP32), in, 1, 16, amax, 0, rb,
                              rnd);
  CHECK (rc == MX_OK, "%s: rc %d", name, rc);
  fl[1] = s_quantize_nvfp4 (&sc[1], codes[1], fmt (MX_FP32), in, 1, 16, amax, 0, rb, rnd);
  for (int m = 0; m < 2; m++)
    {
      expect_u64 (m ? "slow scale" : "scale", 0, sc[m], want_scale);
      expect_u64 (m ? "slow flags" : "flags", 0, fl[m], want_flags);
      for (int i = 0; i < 16; i++)
        expect_u64 (m ? "slow code" : "code", (size_t) i, codes[m][i], want_codes[i]);
    }
}

static void
hand_tests (void)
{
  /* Block A, RNE.  amax 2688 = 448*6 (0x45280000): S_enc = fl32(2688/2688) = 1, S_dec = 1.
   * fl32(1/6) = 11184811*2^-26 (0x3E2AAAAB); k = fl32(1 * that) = the same.
   * block_amax = 7: S_dec_b = fl32(7 * 11184811*2^-26) = fl32(78293677*2^-26)
   *   = 9786710*2^-23 (78293677/8 = 9786709.625 rounds up) = 1.16666675
   *   -> E4M3 RNE: between 1.125 and 1.25, nearer 1.125: code 0111.001 = 0x39, inexact.
   * rcp = fl32(1 / fl32(1.125 * 1)) = fl32(8/9) = 14913081*2^-24 (14913080.89 rounds up).
   *  6 * rcp = 89478486*2^-24 -> fl32 11184811*2^-21 = 5.3333335 -> above 5: 6      0x7
   *  3 * rcp = 44739243*2^-24 -> 11184811*2^-22 = 2.6666667 -> above 2.5: 3        0x5
   * -1.5* rcp -> 11184811*2^-23 = 1.3333334 -> above 1.25: 1.5, negative          0xB
   * .25 * rcp = 0.2222 -> below 0.25: 0                                            0x0
   * .75 * rcp = 11184811*2^-24 = 0.6666667 -> below 0.75: 0.5                     0x1
   *  5 * rcp = 74565405*2^-24 -> 9320676*2^-21 = 4.4444447 -> below 5: 4           0x6
   * -7 * rcp = 104391567*2^-24 -> 13048946*2^-21 = 6.2222 -> 6 (below 7: no overflow) 0xF
   * zeros: 0x0.  Flags: inexact. */
  static const float xa[16] = { 6, 3, -1.5f, 0.25f, 0.75f, 5, -7, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
  static const uint8_t ca[16] = { 0x7, 0x5, 0xB, 0x0, 0x1, 0x6, 0xF, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
  hand_block ("A", xa, NULL, MX_RNE, 0x45280000u, 0x39, ca, MX_FLAG_INEXACT);

  /* Block A dequantized to FP32 with amax 2688: c = fl32(1/2688) = 12782641*2^-35;
   * f = fl32(fl32(1.125 * 2688) * c) = fl32(3024 * c) = fl32(2415919149*2^-31) = 9437184*2^-23
   * = 1.125 exactly (2415919149/256 = 9437184.18 rounds down).  Outputs x * 1.125:
   * 6.75 0x40D80000, 3.375 0x40580000, -1.6875 0xBFD80000, 0, 0.5625 0x3F100000,
   * 4.5 0x40900000, -6.75 0xC0D80000, then zeros. */
  {
    static const uint32_t want[7] = { 0x40D80000u, 0x40580000u, 0xBFD80000u, 0,
                                      0x3F100000u, 0x40900000u, 0xC0D80000u };
    uint64_t codes[16], out[2][16], scale = 0x39;
    for (int i = 0; i < 16; i++)
      codes[i] = ca[i];
    unsigned fl;
    mx_dequantize_nvfp4 (out[0], &fl, fmt (MX_FP32), &scale, codes, 1, 16, 0x45280000u, MX_RNE);
    s_dequantize_nvfp4 (out[1], fmt (MX_FP32), &scale, codes, 1, 16, 0x45280000u);
    for (int m = 0; m < 2; m++)
      for (int i = 0; i < 16; i++)
        expect_u64 (m ? "slow A out" : "A out", (size_t) i, out[m][i], i < 7 ? want[i] : 0);
  }

  /* Block B, SR (TE's stochastic_round_fp4_e2m1; only the low byte r8 of each word counts).
   * amax 2688: S_enc = 1; block_amax 6: S_dec_b = fl32(6 * 11184811*2^-26) = fl32(67108866*2^-26)
   * = 1 exactly (67108866/8 = 8388608.25 rounds down): scale 1.0 = 0x38, rcp = 1, v = x.
   * t = fl32(a + r8/256 * step), step 0.5 below 2, 1 below 4, else 2; q = floor(t/step_t)*step_t:
   *  6,    r8 00: t 6                          -> 6    0x7
   *  1.25, r8 80: t 1.25 + 0.25  = 1.5         -> 1.5  0x3
   *  1.25, r8 7F: t 1.25 + 127/512 = 1.498     -> 1    0x2
   *  5,    r8 80: t 5 + 1 = 6                  -> 6    0x7
   *  5,    r8 7F: t 5 + 127/128 = 5.99         -> 4    0x6
   * -0.25, r8 80: t 0.5                        -> -0.5 0x9
   * -0.25, r8 7F: t 0.498                      -> -0   0x8
   *  5.5,  r8 FF: t 5.5 + 255/128 = 7.49       -> 6 (floor(3.75)*2; no overflow)  0x7
   *  1.75, r8 40: t 1.75 + 0.125 = 1.875       -> 1.5  0x3
   *  1.75, r8 C0: t 1.75 + 0.375 = 2.125, step_t 1 -> 2 (carried into the next binade) 0x4
   * zeros, r8 00: 0x0.  The upper 24 bits of each word are junk and must not matter. */
  static const float xb[16] = { 6, 1.25f, 1.25f, 5, 5, -0.25f, -0.25f, 5.5f, 1.75f, 1.75f,
                                0, 0, 0, 0, 0, 0 };
  static const uint32_t rbb[16] = { 0xFFFFFF00u, 0x12345680u, 0xABCDEF7Fu, 0x00000180u,
                                    0x7777777Fu, 0x80808080u, 0x0000007Fu, 0xFEDCBAFFu,
                                    0x11111140u, 0x222222C0u, 0x33333300u, 0, 0, 0, 0, 0 };
  static const uint8_t cb[16] = { 0x7, 0x3, 0x2, 0x7, 0x6, 0x9, 0x8, 0x7, 0x3, 0x4,
                                  0, 0, 0, 0, 0, 0 };
  hand_block ("B", xb, rbb, MX_SR, 0x45280000u, 0x38, cb, MX_FLAG_INEXACT);

  /* Block C, 16x16 tile of BF16, amax from the tensor: +Inf at (3,5), 2.0 at (10,0), -0 at
   * (0,1), zeros elsewhere.  amax = Inf: S_enc = fminf(2688/Inf = 0, FLT_MAX) = 0 -> 1, S_dec 1.
   * Tile amax Inf: S_dec_b = Inf -> E4M3 satfinite 448 = 0x7E (overflow), every row of the tile.
   * rcp = fl32(1/448) = 9586981*2^-32.  Inf * rcp = Inf -> +6 0x7 (overflow);
   * 2 * rcp = 0.0045 -> 0 0x0; -0 * rcp = -0 -> 0x8.  Flags: overflow, inexact.
   * Dequantized (FP32, amax Inf): f = fl32(fl32(448 * Inf) * c) = Inf; 6 * Inf = Inf
   * (0x7F800000); 0 * Inf and -0 * Inf are NaN (0x7FC00000, invalid). */
  {
    uint64_t in[256] = { 0 }, amax[2], sc[2][16], codes[2][256], out[2][256];
    unsigned fl[2];
    in[3 * 16 + 5] = 0x7F80; /* BF16 +Inf */
    in[10 * 16] = 0x4000;    /* BF16 2.0 */
    in[1] = 0x8000;          /* BF16 -0 */
    mx_nvfp4_amax (&amax[0], fmt (MX_BF16), in, 256);
    amax[1] = s_nvfp4_amax (fmt (MX_BF16), in, 256);
    expect_u64 ("C amax", 0, amax[0], 0x7F800000u);
    expect_u64 ("C slow amax", 0, amax[1], 0x7F800000u);
    mx_quantize_nvfp4 (sc[0], codes[0], &fl[0], fmt (MX_BF16), in, 16, 16, 0x7F800000u, 1, NULL,
                       MX_RNE);
    fl[1] = s_quantize_nvfp4 (sc[1], codes[1], fmt (MX_BF16), in, 16, 16, 0x7F800000u, 1, NULL,
                              MX_RNE);
    for (int m = 0; m < 2; m++)
      {
        expect_u64 ("C flags", (size_t) m, fl[m], MX_FLAG_OVERFLOW | MX_FLAG_INEXACT);
        for (int r = 0; r < 16; r++)
          expect_u64 ("C scale", (size_t) r, sc[m][r], 0x7E);
        for (int i = 0; i < 256; i++)
          expect_u64 ("C code", (size_t) i, codes[m][i], i == 53 ? 0x7 : i == 1 ? 0x8 : 0);
      }
    mx_dequantize_nvfp4 (out[0], &fl[0], fmt (MX_FP32), sc[0], codes[0], 16, 16, 0x7F800000u,
                         MX_RNE);
    fl[1] = s_dequantize_nvfp4 (out[1], fmt (MX_FP32), sc[1], codes[1], 16, 16, 0x7F800000u);
    for (int m = 0; m < 2; m++)
      {
        expect_u64 ("C dq flags", (size_t) m, fl[m], MX_FLAG_INVALID);
        for (int i = 0; i < 256; i++)
          expect_u64 ("C out", (size_t) i, out[m][i], i == 53 ? 0x7F800000u : 0x7FC00000u);
      }
  }

  /* S_enc special cases (mx_nvfp4_global_scale): amax -> S_enc.
   * 0 and Inf give 1; NaN gives FLT_MAX (fminf drops the NaN quotient); the smallest subnormal
   * and 2^-126 overflow 2688/amax to Inf -> FLT_MAX; 2688 gives 1; 5376 gives 0.5;
   * FLT_MAX = (2^24-1)*2^104: 2688/FLT_MAX = 1.3125*2^-117*(1 + 2^-24 + ...), 0.66 ulp above
   * 1.3125*2^-117, so it rounds up: 0x05280001. */
  static const uint32_t ga[][2] = {
    { 0x00000000u, 0x3F800000u }, { 0x7F800000u, 0x3F800000u }, { 0x7FC00000u, 0x7F7FFFFFu },
    { 0x00000001u, 0x7F7FFFFFu }, { 0x00800000u, 0x7F7FFFFFu }, { 0x45280000u, 0x3F800000u },
    { 0x45A80000u, 0x3F000000u }, { 0x7F7FFFFFu, 0x05280001u },
  };
  for (size_t i = 0; i < sizeof ga / sizeof ga[0]; i++)
    {
      uint64_t s = 0;
      CHECK (mx_nvfp4_global_scale (&s, ga[i][0]) == MX_OK, "global scale rc");
      expect_u64 ("S_enc", i, s, ga[i][1]);
      expect_u64 ("slow S_enc", i, s_nvfp4_global_scale (ga[i][0]), ga[i][1]);
    }

  /* Argument checks. */
  uint64_t s, sc1, c16[16] = { 0 }, in16[16] = { 0 };
  checks += 6;
  CHECK (mx_nvfp4_global_scale (&s, 0x80000000u) == MX_EINVAL, "negative amax accepted");
  CHECK (mx_quantize_nvfp4 (&sc1, c16, NULL, fmt (MX_FP32), in16, 1, 8, 0, 0, NULL, MX_RNE)
             == MX_EINVAL, "cols 8 accepted");
  CHECK (mx_quantize_nvfp4 (&sc1, c16, NULL, fmt (MX_FP64), in16, 1, 16, 0, 0, NULL, MX_RNE)
             == MX_EINVAL, "FP64 input accepted");
  CHECK (mx_quantize_nvfp4 (&sc1, c16, NULL, fmt (MX_FP32), in16, 1, 16, 0, 0, NULL, MX_SR)
             == MX_EINVAL, "SR without rbits accepted");
  CHECK (mx_quantize_nvfp4 (&sc1, c16, NULL, fmt (MX_FP32), in16, 1, 16, 0, 0, NULL, MX_RTZ)
             == MX_EINVAL, "RTZ accepted");
  CHECK (mx_dequantize_nvfp4 (in16, NULL, fmt (MX_E4M3), &sc1, c16, 1, 16, 0, MX_RNE)
             == MX_EINVAL, "E4M3 output accepted");
}

/*--------------------------------------------------------------- random -*/
static uint64_t
enc (const mx_format *f, s_val v)
{
  unsigned fl;
  return s_encode (f, v, MX_RNE, 0, &s_ieee, &fl);
}

/* A random tensor of format in; returns the class used (for the tie class: its amax). */
static void
gen (rng *r, const mx_format *in, uint64_t *x, size_t rows, size_t cols, int cls, long E,
     uint64_t *tie_amax)
{
  size_t nb = cols / 16;
  long k = (long) rng_below (r, 41) - 20;
  *tie_amax = enc (fmt (MX_FP32), (s_val) { S_FINITE, 0, 21, 7 + k }); /* 2688 * 2^k */
  for (size_t i = 0; i < rows; i++)
    for (size_t j = 0; j < nb; j++)
      {
        long off = rng_below (r, 4) == 0 ? -(long) rng_below (r, 40) : -(long) rng_below (r, 4);
        long e = (long) rng_below (r, 25) - 9; /* tie class: block scale 2^e */
        for (size_t c = 0; c < 16; c++)
          {
            uint64_t *p = &x[i * cols + j * 16 + c];
            int neg = (int) (rng_next (r) & 1);
            s_val v;
            if (cls == 0)
              {
                /* exact ties: |x| = m/4 * 2^(e+k), m <= 24, so x * rcp = m/4 when the scale is
                 * 2^e; the block's first element 6 * 2^(e+k) sets the scale */
                uint64_t m = c == 0 ? 24 : rng_below (r, 25);
                v = m ? (s_val) { S_FINITE, neg, m, e + k - 2 } : (s_val) { S_ZERO, neg, 0, 0 };
              }
            else if (rng_below (r, 10) == 0)
              v = (s_val) { S_ZERO, neg, 0, 0 };
            else
              v = (s_val) { S_FINITE, neg, (rng_next (r) & 0xFFFFFF) | 1,
                            E + off - (long) rng_below (r, 6) - 23 };
            *p = enc (in, v);
          }
      }
  size_t n = rows * cols;
  if (cls == 1)
    memset (x, 0, n * sizeof *x); /* a zero tensor */
  if (rng_below (r, 12) == 0)
    x[rng_below (r, n)] = in->id == MX_FP32 ? 0x7FC00000u | (rng_next (r) & 1) << 31
                          : in->id == MX_BF16 ? 0x7FC0u : 0x7E00u; /* NaN */
  if (rng_below (r, 16) == 0)
    x[rng_below (r, n)] = enc (in, (s_val) { S_INF, (int) (rng_next (r) & 1), 0, 0 });
  if (rng_below (r, 8) == 0)
    x[rng_below (r, n)] = enc (in, (s_val) { S_ZERO, 1, 0, 0 }); /* -0 */
}

static void
compare_u64 (const char *what, long t, const uint64_t *a, const uint64_t *b, size_t n)
{
  for (size_t i = 0; i < n; i++)
    {
      checks++;
      if (a[i] != b[i])
        {
          CHECK (0, "tensor %ld: %s[%zu]: mpfr 0x%llX, slow 0x%llX", t, what, i,
                 (unsigned long long) a[i], (unsigned long long) b[i]);
          return;
        }
    }
}

static void
random_tests (long count)
{
  rng r = { test_seed () };
  static uint64_t x[MAXN], sc[2][MAXN / 16], codes[2][MAXN], out[2][MAXN];
  static uint32_t rb[MAXN];
  const mx_format *ins[3] = { fmt (MX_FP32), fmt (MX_BF16), fmt (MX_FP16) };
  for (long t = 0; t < count; t++)
    {
      const mx_format *in = ins[rng_below (&r, 4) % 3]; /* FP32 half the time */
      int tile = rng_below (&r, 4) == 0;
      size_t rows = tile ? 1 + rng_below (&r, MAXR) : 1 + rng_below (&r, 3);
      size_t cols = 16 * (1 + rng_below (&r, tile ? 2 : 3));
      size_t n = rows * cols, ns = n / 16;
      int cls = (int) rng_below (&r, 12); /* 0 ties, 1 zero tensor */
      /* the tensor's top exponent: anywhere in FP32, with its subnormals and FLT_MAX region
       * weighted in; BF16 shares FP32's range, FP16 keeps to its own */
      long E;
      switch (rng_below (&r, 4))
        {
        case 0: E = 127 - (long) rng_below (&r, 8); break;
        case 1: E = -126 - (long) rng_below (&r, 24); break;
        default: E = (long) rng_below (&r, 254) - 126; break;
        }
      if (in->id == MX_FP16)
        E = (long) rng_below (&r, 41) - 24;
      uint64_t tie_amax, amax[2];
      gen (&r, in, x, rows, cols, cls, E, &tie_amax);

      CHECK (mx_nvfp4_amax (&amax[0], in, x, n) == MX_OK, "amax rc");
      amax[1] = s_nvfp4_amax (in, x, n);
      compare_u64 ("amax", t, &amax[0], &amax[1], 1);
      uint64_t a = amax[0];
      switch (cls == 0 ? 9 : (int) rng_below (&r, 16))
        {
        case 0: a = 0; break;
        case 1: a = 0x7F800000u; break;
        case 2: a = 0x7FC00000u | (rng_next (&r) & 0x3FFFFF); break;
        case 3: a = 0x7F000000u | (rng_next (&r) & 0x7FFFFF); break;   /* huge */
        case 4: a = rng_next (&r) & 0x7F7FFFFFu; break;                  /* random, below amax */
        case 9: a = tie_amax; break;
        default: break; /* the tensor's own */
        }
      uint64_t se[2];
      mx_nvfp4_global_scale (&se[0], a);
      se[1] = s_nvfp4_global_scale (a);
      compare_u64 ("S_enc", t, &se[0], &se[1], 1);

      mx_rounding rnd = rng_below (&r, 3) == 0 ? MX_SR : MX_RNE;
      for (size_t i = 0; i < n; i++)
        rb[i] = (uint32_t) rng_next (&r);
      unsigned fl[2];
      int rc = mx_quantize_nvfp4 (sc[0], codes[0], &fl[0], in, x, rows, cols, a, tile,
                                  rnd == MX_SR ? rb : NULL, rnd);
      CHECK (rc == MX_OK, "tensor %ld: rc %d", t, rc);
      fl[1] = s_quantize_nvfp4 (sc[1], codes[1], in, x, rows, cols, a, tile, rb, rnd);
      compare_u64 ("scale", t, sc[0], sc[1], ns);
      compare_u64 ("code", t, codes[0], codes[1], n);
      checks++;
      CHECK (fl[0] == fl[1], "tensor %ld: flags mpfr 0x%X, slow 0x%X", t, fl[0], fl[1]);

      /* dequantize: the codes just made, or random scales (NaN 0x7F included) and codes */
      if (rng_below (&r, 8) == 0)
        for (size_t i = 0; i < n; i++)
          {
            codes[0][i] = rng_below (&r, 16);
            if (i < ns)
              sc[0][i] = rng_below (&r, 128);
          }
      const mx_format *of = ins[rng_below (&r, 3)];
      rc = mx_dequantize_nvfp4 (out[0], &fl[0], of, sc[0], codes[0], rows, cols, a, MX_RNE);
      CHECK (rc == MX_OK, "tensor %ld: dequantize rc %d", t, rc);
      fl[1] = s_dequantize_nvfp4 (out[1], of, sc[0], codes[0], rows, cols, a);
      compare_u64 ("dequantized", t, out[0], out[1], n);
      checks++;
      CHECK (fl[0] == fl[1], "tensor %ld: dequantize flags mpfr 0x%X, slow 0x%X", t, fl[0],
             fl[1]);
    }
}

int
main (int argc, char **argv)
{
  long count = test_count (argc, argv, 1, 100000);
  hand_tests ();
  random_tests (count);
  return finish ("tnvfp4", checks);
}
