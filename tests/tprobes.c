/* tprobes -- the 15 discriminating probes of golden-anchors.md section 2.2, each asserting the
 * outcome under every profile it separates.  Expected bits are worked out by hand in the
 * comments from the OCP tables and the sources in docs/profiles.md.
 * SPDX-License-Identifier: MIT */
#include <string.h>
#include "tests.h"

#define K 32
static long n;

static uint64_t
f32 (float f) /* host float only to write an input pattern */
{
  uint32_t u;
  memcpy (&u, &f, 4);
  return u;
}

typedef struct { uint64_t scale, codes[K]; unsigned flags; } result;

/* Quantize a block given as FP32 patterns (the rest of the block zeros) under a profile,
 * optionally with a scale rule / field override applied by the caller through *pol. */
static result
q (const mx_policy *pol, mx_format_id elem, const uint64_t *in, int cnt)
{
  uint64_t b[K] = { 0 };
  result r;
  if (cnt > 0)
    memcpy (b, in, (size_t) cnt * sizeof *b);
  r.flags = mx_quantize (&r.scale, r.codes, NULL, mx_format_get (elem), mx_format_get (MX_E8M0),
                         mx_format_get (MX_FP32), b, K, NULL, pol);
  return r;
}

static mx_policy
prof (mx_profile_id id)
{
  mx_policy p;
  mx_policy_profile (&p, id);
  return p;
}

#define EXPECT(res, sc, ...)                                                                  \
  do                                                                                          \
    {                                                                                         \
      const uint64_t want_[] = { __VA_ARGS__ };                                               \
      n++;                                                                                    \
      CHECK ((res).scale == (sc), "%s: scale %02llX, want %02llX", what,                     \
             (unsigned long long) (res).scale, (unsigned long long) (sc));                    \
      for (int i_ = 0; i_ < (int) (sizeof want_ / sizeof want_[0]); i_++)                     \
        CHECK ((res).codes[i_] == want_[i_], "%s: code[%d] %02llX, want %02llX", what, i_,   \
               (unsigned long long) (res).codes[i_], (unsigned long long) want_[i_]);         \
    }                                                                                         \
  while (0)

int
main (void)
{
  const char *what;
  mx_policy p;

  /* 1. E2M1, amax 3.0001: FLOOR X = 2^(1-2) -> 6.0002 clamps to 6 (code 7), scale 0x7E;
   *    RCEIL: 3.0001/6 -> 2^0, X = 1, element 3 (code 5), scale 0x7F. */
  {
    uint64_t in[] = { f32 (3.0001f) };
    static const mx_profile_id floors[] = { MX_PROFILE_OCP, MX_PROFILE_TORCHAO_FLOOR,
                                            MX_PROFILE_MICROXCALING, MX_PROFILE_PYCHOP };
    for (int i = 0; i < 4; i++)
      {
        what = "probe 1 floor";
        p = prof (floors[i]);
        result r = q (&p, MX_E2M1, in, 1);
        EXPECT (r, 0x7E, 0x7);
        /* 6.0002 rounds to 6 (the next E2M1 step would be 8): inexact, not an overflow */
        CHECK (r.flags == MX_FLAG_INEXACT, "probe 1: flags %02X", r.flags);
      }
    what = "probe 1 rceil";
    p = prof (MX_PROFILE_TORCHAO_RCEIL);
    EXPECT (q (&p, MX_E2M1, in, 1), 0x7F, 0x5);
    what = "probe 1 ceil";
    p = prof (MX_PROFILE_OCP);
    p.scale_rule = MX_SCALE_CEIL;
    EXPECT (q (&p, MX_E2M1, in, 1), 0x7F, 0x5);
  }

  /* 2. E2M1 ties at X = 1 (6.0 sets the scale): 0.25 0.75 1.25 1.75 2.5 3.5 5.0
   *    RNE -> 0 1 1 2 2 4 4; ties away (microxcaling) -> 0.5 1 1.5 2 3 4 6;
   *    ggml (ties to lower magnitude) -> 0 0.5 1 1.5 2 3 4.  E2M1 codes: 0 .5 1 1.5 2 3 4 6 = 0..7 */
  {
    uint64_t in[] = { f32 (6), f32 (0.25f), f32 (0.75f), f32 (1.25f), f32 (1.75f), f32 (2.5f),
                      f32 (3.5f), f32 (5) };
    what = "probe 2 rne";
    p = prof (MX_PROFILE_OCP);
    EXPECT (q (&p, MX_E2M1, in, 8), 0x7F, 0x7, 0x0, 0x2, 0x2, 0x4, 0x4, 0x6, 0x6);
    what = "probe 2 microxcaling";
    p = prof (MX_PROFILE_MICROXCALING);
    EXPECT (q (&p, MX_E2M1, in, 8), 0x7F, 0x7, 0x1, 0x2, 0x3, 0x4, 0x5, 0x6, 0x7);
    what = "probe 2 ggml";
    p = prof (MX_PROFILE_GGML_MXFP4);
    EXPECT (q (&p, MX_E2M1, in, 8), 0x7F, 0x7, 0x0, 0x1, 0x2, 0x3, 0x4, 0x5, 0x6);
  }

  /* 3. amax = pred(16) = 0x417FFFFF, E4M3: exact floor(log2) = 3, X = 2^-5 (scale 0x7A), top
   *    511.99997 saturates to 448 (0x7E); floorf(log2f) = 4 (log2 rounds up to 4.0f),
   *    X = 2^-4 (0x7B), top 255.99998 -> 256 (0x78). */
  {
    uint64_t in[] = { 0x417FFFFF };
    what = "probe 3 floor";
    p = prof (MX_PROFILE_OCP);
    EXPECT (q (&p, MX_E4M3, in, 1), 0x7A, 0x7E);
    what = "probe 3 floor-log2f";
    p.scale_rule = MX_SCALE_FLOOR_LOG2F;
    EXPECT (q (&p, MX_E4M3, in, 1), 0x7B, 0x78);
  }

  /* 4. E4M3 casts 464 (tie 448/480 -> even 448), 464+ulp, 480, +Inf:
   *    saturating: 7E 7E 7E 7E;  ml_dtypes (non-saturating): 7E 7F 7F 7F (NaN). */
  {
    uint64_t in[] = { f32 (464), f32 (464) + 1, f32 (480), 0x7F800000 };
    uint64_t sat[] = { 0x7E, 0x7E, 0x7E, 0x7E }, ovf[] = { 0x7E, 0x7F, 0x7F, 0x7F };
    mx_policy ocp = prof (MX_PROFILE_OCP), mld = prof (MX_PROFILE_ML_DTYPES);
    for (int i = 0; i < 4; i++, n += 2)
      {
        unsigned f;
        uint64_t c = mx_cast (mx_format_get (MX_E4M3), mx_format_get (MX_FP32), in[i], MX_RNE, 0, &ocp, &f);
        CHECK (c == sat[i], "probe 4 sat [%d]: %02llX", i, (unsigned long long) c);
        c = mx_cast (mx_format_get (MX_E4M3), mx_format_get (MX_FP32), in[i], MX_RNE, 0, &mld, &f);
        CHECK (c == ovf[i], "probe 4 ml-dtypes [%d]: %02llX", i, (unsigned long long) c);
      }
  }

  /* 5. one NaN, then 1.0: ocp/torchao -> scale FF; te-mxfp8 (E4M3): amax 1.0, rceil-fp32
   *    ceil(log2(fl32(1/448))) = -8 -> 0x77, NaN stays NaN 0x7F, 1.0 -> 256 = 0x78;
   *    ggml (E2M1): log2f(1) = 0 -> X = 2^-2 (0x7D), NaN -> +0, 1.0 -> 4 (code 6). */
  {
    uint64_t in[] = { 0x7FC00000, f32 (1) };
    what = "probe 5 ocp";
    p = prof (MX_PROFILE_OCP);
    EXPECT (q (&p, MX_E4M3, in, 2), 0xFF);
    what = "probe 5 torchao";
    p = prof (MX_PROFILE_TORCHAO_RCEIL);
    EXPECT (q (&p, MX_E4M3, in, 2), 0xFF);
    what = "probe 5 te";
    p = prof (MX_PROFILE_TE_MXFP8);
    EXPECT (q (&p, MX_E4M3, in, 2), 0x77, 0x7F, 0x78);
    what = "probe 5 ggml";
    p = prof (MX_PROFILE_GGML_MXFP4);
    EXPECT (q (&p, MX_E2M1, in, 2), 0x7D, 0x0, 0x6);
  }

  /* 6. one +Inf, then 1.0 (E4M3): ocp/torchao -> FF; te/pychop -> FE with Inf -> 448 (7E) and
   *    1.0 * 2^-127 -> +0. */
  {
    uint64_t in[] = { 0x7F800000, f32 (1) };
    what = "probe 6 ocp";
    p = prof (MX_PROFILE_OCP);
    EXPECT (q (&p, MX_E4M3, in, 2), 0xFF);
    what = "probe 6 torchao-rceil";
    p = prof (MX_PROFILE_TORCHAO_RCEIL);
    EXPECT (q (&p, MX_E4M3, in, 2), 0xFF);
    what = "probe 6 te";
    p = prof (MX_PROFILE_TE_MXFP8);
    EXPECT (q (&p, MX_E4M3, in, 2), 0xFE, 0x7E, 0x00);
    what = "probe 6 pychop";
    p = prof (MX_PROFILE_PYCHOP);
    EXPECT (q (&p, MX_E4M3, in, 2), 0xFE, 0x7E, 0x00);
  }

  /* 7. all-zero block: scale 0x00 in every profile; a custom zero-scale code is honoured */
  for (int i = 0; i < MX_PROFILE_COUNT; i++)
    {
      what = "probe 7";
      p = prof ((mx_profile_id) i);
      EXPECT (q (&p, MX_E4M3, NULL, 0), 0x00, 0, 0, 0);
    }
  what = "probe 7 zero-scale 7F";
  p = prof (MX_PROFILE_OCP);
  p.zero_scale = 0x7F;
  EXPECT (q (&p, MX_E4M3, NULL, 0), 0x7F, 0);

  /* 8. -0.0 and -2^-20 beside 1.0 (E4M3, X = 2^-8): keep -> 80 80; +0 profiles -> 00 00 */
  {
    uint64_t in[] = { f32 (1), 0x80000000, f32 (-0x1p-20f) };
    what = "probe 8 keep";
    p = prof (MX_PROFILE_OCP);
    EXPECT (q (&p, MX_E4M3, in, 3), 0x77, 0x78, 0x80, 0x80);
    static const mx_profile_id pos[] = { MX_PROFILE_PYCHOP, MX_PROFILE_QUARK_EVEN };
    for (int i = 0; i < 2; i++)
      {
        what = "probe 8 positive";
        p = prof (pos[i]);
        EXPECT (q (&p, MX_E4M3, in, 3), 0x77, 0x78, 0x00, 0x00);
      }
  }

  /* 9. RCEIL at amax = succ(448 * 2^-127) = 0x04600001 (E4M3): exact ceil -> -126 (0x01);
   *    amax * fl32(1/448) rounds to 2^-127 -> 0x00. */
  {
    uint64_t in[] = { 0x04600001 };
    what = "probe 9 rceil exact";
    p = prof (MX_PROFILE_OCP);
    p.scale_rule = MX_SCALE_RCEIL;
    EXPECT (q (&p, MX_E4M3, in, 1), 0x01);
    what = "probe 9 rceil-fp32";
    p = prof (MX_PROFILE_TORCHAO_RCEIL);
    EXPECT (q (&p, MX_E4M3, in, 1), 0x00);
  }

  /* 10. MXINT8, -1.9990234375 (X = 1): x64 = -127.9375 -> -128: symmetric saturates to -127
   *     (0x81, overflow flagged); pychop's full range keeps -128 (0x80). */
  {
    uint64_t in[] = { f32 (-1.9990234375f) };
    what = "probe 10 sym";
    p = prof (MX_PROFILE_OCP);
    result r = q (&p, MX_INT8, in, 1);
    EXPECT (r, 0x7F, 0x81);
    CHECK (r.flags & MX_FLAG_OVERFLOW, "probe 10: overflow flag");
    what = "probe 10 pychop";
    p = prof (MX_PROFILE_PYCHOP);
    EXPECT (q (&p, MX_INT8, in, 1), 0x7F, 0x80);
  }

  /* 11. E8M0 0x00 decodes to 2^-127 (FP32 0x00400000), never to 0 */
  {
    uint64_t c = 0x38, out;
    mx_dequantize (&out, mx_format_get (MX_FP32), 0x00, &c, mx_format_get (MX_E4M3),
                   mx_format_get (MX_E8M0), 1, MX_RNE);
    n++;
    CHECK (out == 0x00400000, "probe 11: %08llX", (unsigned long long) out);
  }

  /* 12. FP64 input 2^140 (E4M3): FLOOR e = 132 > 127: ocp -> NaN scale; pychop clamps to 0xFE
   *     and saturates 2^13 to 448 (7E). */
  {
    uint64_t b[K] = { 0x48B0000000000000ull }, codes[K], s;
    const mx_format *f64 = mx_format_get (MX_FP64);
    p = prof (MX_PROFILE_OCP);
    mx_quantize (&s, codes, NULL, mx_format_get (MX_E4M3), mx_format_get (MX_E8M0), f64, b, K, NULL, &p);
    n++;
    CHECK (s == 0xFF, "probe 12 ocp: %02llX", (unsigned long long) s);
    p = prof (MX_PROFILE_PYCHOP);
    unsigned f = mx_quantize (&s, codes, NULL, mx_format_get (MX_E4M3), mx_format_get (MX_E8M0), f64, b, K, NULL, &p);
    n++;
    CHECK (s == 0xFE && codes[0] == 0x7E && (f & MX_FLAG_SCALE_CLAMPED), "probe 12 pychop: %02llX %02llX",
           (unsigned long long) s, (unsigned long long) codes[0]);
  }

  /* 13. FP32 subnormal 0x007FFFFF alone (INT8): keep -> floor(log2) = -127, X = 2^-127 (0x00),
   *     element 0x7FFFFF * 2^-22 = 1.99999976 -> x64 rounds to 128 -> saturates 127 (0x7F);
   *     flush -> an all-zero block, scale 0x00, element 0. */
  {
    uint64_t in[] = { 0x007FFFFF };
    what = "probe 13 keep";
    p = prof (MX_PROFILE_OCP);
    EXPECT (q (&p, MX_INT8, in, 1), 0x00, 0x7F);
    what = "probe 13 flush";
    p.subnormals = MX_SUBNORMALS_FLUSH;
    EXPECT (q (&p, MX_INT8, in, 1), 0x00, 0x00);
  }

  /* 14. E2M1 amax 3.5 (mantissa 1.75): FLOOR X = 0.5, 7 clamps to 6 (code 7), scale 0x7E;
   *     EVEN: 3.5 + 0.5 = 4 -> X = 1 (0x7F), 3.5 ties to 4 (code 6). */
  {
    uint64_t in[] = { f32 (3.5f) };
    what = "probe 14 floor";
    p = prof (MX_PROFILE_OCP);
    EXPECT (q (&p, MX_E2M1, in, 1), 0x7E, 0x7);
    what = "probe 14 even";
    p = prof (MX_PROFILE_QUARK_EVEN);
    EXPECT (q (&p, MX_E2M1, in, 1), 0x7F, 0x6);
  }

  /* 15. E8M0 from non-powers of two: 1.5 -> RNE (precision 1: tie away) 0x80, RUP 0x80,
   *     RDN/RTZ 0x7F; 1.25 -> RNE 0x7F, RUP 0x80. */
  {
    struct { float v; mx_rounding r; uint64_t want; } t[] = {
      { 1.5f, MX_RNE, 0x80 }, { 1.5f, MX_RUP, 0x80 }, { 1.5f, MX_RDN, 0x7F }, { 1.5f, MX_RTZ, 0x7F },
      { 1.25f, MX_RNE, 0x7F }, { 1.25f, MX_RUP, 0x80 }, { 0x1p-130f, MX_RNE, 0x00 },
    };
    p = prof (MX_PROFILE_OCP);
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++, n++)
      {
        unsigned f;
        uint64_t c = mx_cast (mx_format_get (MX_E8M0), mx_format_get (MX_FP32), f32 (t[i].v),
                              t[i].r, 0, &p, &f);
        CHECK (c == t[i].want, "probe 15 [%zu]: %02llX want %02llX", i, (unsigned long long) c,
               (unsigned long long) t[i].want);
      }
  }
  /* NVFP4-style linear UE4M3 scale, block 16, E2M1 (hand-computed; S = RNE(amax / 6)):
   *   amax 6 -> S = 1 (0x38), 6 -> code 7;  amax 3 -> S = 0.5 (0x30), 3/0.5 = 6 -> 7, 1/0.5 = 2 -> 4;
   *   amax 7 -> 7/6 = 1.1667 -> S = 1.125 (0x39), 7/1.125 = 6.22 -> 6 (7), 1/1.125 = 0.889 -> 1 (2). */
  {
    struct { float v[2]; uint64_t scale, c0, c1; } t[] = {
      { { 6, 1 }, 0x38, 0x7, 0x2 }, { { 3, 1 }, 0x30, 0x7, 0x4 }, { { 7, 1 }, 0x39, 0x7, 0x2 },
    };
    p = prof (MX_PROFILE_OCP);
    for (int i = 0; i < 3; i++, n++)
      {
        uint64_t b[16] = { f32 (t[i].v[0]), f32 (t[i].v[1]) }, s, c[16];
        mx_quantize (&s, c, NULL, mx_format_get (MX_E2M1), mx_format_get (MX_UE4M3),
                     mx_format_get (MX_FP32), b, 16, NULL, &p);
        CHECK (s == t[i].scale && c[0] == t[i].c0 && c[1] == t[i].c1 && c[2] == 0,
               "nvfp4 [%d]: %02llX %llX %llX", i, (unsigned long long) s,
               (unsigned long long) c[0], (unsigned long long) c[1]);
      }
  }
  return finish ("tprobes", n);
}
