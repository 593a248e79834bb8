/* tprobes -- the 15 discriminating probes of docs/profiles.md, each row asserting the outcome
 * under one profile it separates, and hand-derived blocks of the later formats and rules.  Every expected bit is worked out by hand in the comments from
 * the OCP tables and the sources in docs/profiles.md; inputs are written as bit patterns.
 * SPDX-License-Identifier: MIT */
#include <string.h>
#include "tests.h"

#define K 32
#define NONE (-1)
#define RND (-2) /* the row's value is the element rounding, not a policy field */
#define ALL "*"

/* one quantized block: profile (ALL: every profile), an optional policy field override, the
 * block (the rest zeros), the expected scale and leading codes, and flags under a mask */
typedef struct
{
  const char *what, *profile;
  int field;
  long value;
  mx_format_id elem, scale, in;
  int k;
  uint64_t x[8];
  int nx;
  uint64_t want_scale, want[8];
  int nwant;
  unsigned fmask, fwant;
} qrow;

static const qrow qrows[] = {
  /* 1. E2M1, amax 3.0001 (0x404001A3): FLOOR X = 2^(1-2): 6.0002 rounds to 6 (code 7), inexact
   *    but no overflow, scale 0x7E; RCEIL and CEIL: X = 1, element 3 (code 5), scale 0x7F. */
  { "probe 1 floor", "ocp", NONE, 0, MX_E2M1, MX_E8M0, MX_FP32, K, { 0x404001A3 }, 1, 0x7E, { 0x7 }, 1, 0xFF, MX_FLAG_INEXACT },
  { "probe 1 floor", "torchao-floor", NONE, 0, MX_E2M1, MX_E8M0, MX_FP32, K, { 0x404001A3 }, 1, 0x7E, { 0x7 }, 1, 0xFF, MX_FLAG_INEXACT },
  { "probe 1 floor", "microxcaling", NONE, 0, MX_E2M1, MX_E8M0, MX_FP32, K, { 0x404001A3 }, 1, 0x7E, { 0x7 }, 1, 0xFF, MX_FLAG_INEXACT },
  { "probe 1 floor", "pychop", NONE, 0, MX_E2M1, MX_E8M0, MX_FP32, K, { 0x404001A3 }, 1, 0x7E, { 0x7 }, 1, 0xFF, MX_FLAG_INEXACT },
  { "probe 1 rceil", "torchao-rceil", NONE, 0, MX_E2M1, MX_E8M0, MX_FP32, K, { 0x404001A3 }, 1, 0x7F, { 0x5 }, 1, 0, 0 },
  { "probe 1 ceil", "ocp", MX_POLICY_SCALE_RULE, MX_SCALE_CEIL, MX_E2M1, MX_E8M0, MX_FP32, K, { 0x404001A3 }, 1, 0x7F, { 0x5 }, 1, 0, 0 },
  /* 2. E2M1 ties at X = 1 (6.0 sets the scale): 0.25 0.75 1.25 1.75 2.5 3.5 5.0
   *    RNE -> 0 1 1 2 2 4 4; ties away (microxcaling) -> 0.5 1 1.5 2 3 4 6;
   *    ggml (ties to lower magnitude) -> 0 0.5 1 1.5 2 3 4.  E2M1 codes 0..7: 0 .5 1 1.5 2 3 4 6 */
  { "probe 2 rne", "ocp", NONE, 0, MX_E2M1, MX_E8M0, MX_FP32, K,
    { 0x40C00000, 0x3E800000, 0x3F400000, 0x3FA00000, 0x3FE00000, 0x40200000, 0x40600000, 0x40A00000 }, 8,
    0x7F, { 0x7, 0x0, 0x2, 0x2, 0x4, 0x4, 0x6, 0x6 }, 8, 0, 0 },
  { "probe 2 microxcaling", "microxcaling", NONE, 0, MX_E2M1, MX_E8M0, MX_FP32, K,
    { 0x40C00000, 0x3E800000, 0x3F400000, 0x3FA00000, 0x3FE00000, 0x40200000, 0x40600000, 0x40A00000 }, 8,
    0x7F, { 0x7, 0x1, 0x2, 0x3, 0x4, 0x5, 0x6, 0x7 }, 8, 0, 0 },
  { "probe 2 ggml", "ggml-mxfp4", NONE, 0, MX_E2M1, MX_E8M0, MX_FP32, K,
    { 0x40C00000, 0x3E800000, 0x3F400000, 0x3FA00000, 0x3FE00000, 0x40200000, 0x40600000, 0x40A00000 }, 8,
    0x7F, { 0x7, 0x0, 0x1, 0x2, 0x3, 0x4, 0x5, 0x6 }, 8, 0, 0 },
  /* 3. amax pred(16) = 0x417FFFFF, E4M3: exact floor(log2) = 3, X = 2^-5 (0x7A), 511.99997
   *    saturates to 448 (0x7E); floorf(log2f) = 4 (log2 rounds up to 4.0f): X = 2^-4 (0x7B),
   *    255.99998 -> 256 (0x78). */
  { "probe 3 floor", "ocp", NONE, 0, MX_E4M3, MX_E8M0, MX_FP32, K, { 0x417FFFFF }, 1, 0x7A, { 0x7E }, 1, 0, 0 },
  { "probe 3 floor-log2f", "ocp", MX_POLICY_SCALE_RULE, MX_SCALE_FLOOR_LOG2F, MX_E4M3, MX_E8M0, MX_FP32, K, { 0x417FFFFF }, 1, 0x7B, { 0x78 }, 1, 0, 0 },
  /* 5. a NaN, then 1.0: ocp/torchao -> scale FF; te-mxfp8 (E4M3): amax 1, ceil(log2(fl32(1/448)))
   *    = -8 -> 0x77, the NaN stays 0x7F, 1.0 -> 256 = 0x78; ggml (E2M1): log2f(1) = 0 ->
   *    X = 2^-2 (0x7D), NaN -> +0, 1.0 -> 4 (code 6). */
  { "probe 5 ocp", "ocp", NONE, 0, MX_E4M3, MX_E8M0, MX_FP32, K, { 0x7FC00000, 0x3F800000 }, 2, 0xFF, { 0 }, 0, 0, 0 },
  { "probe 5 torchao", "torchao-rceil", NONE, 0, MX_E4M3, MX_E8M0, MX_FP32, K, { 0x7FC00000, 0x3F800000 }, 2, 0xFF, { 0 }, 0, 0, 0 },
  { "probe 5 te", "te-mxfp8", NONE, 0, MX_E4M3, MX_E8M0, MX_FP32, K, { 0x7FC00000, 0x3F800000 }, 2, 0x77, { 0x7F, 0x78 }, 2, 0, 0 },
  { "probe 5 ggml", "ggml-mxfp4", NONE, 0, MX_E2M1, MX_E8M0, MX_FP32, K, { 0x7FC00000, 0x3F800000 }, 2, 0x7D, { 0x0, 0x6 }, 2, 0, 0 },
  /* 6. +Inf, then 1.0 (E4M3): ocp/torchao -> FF; te/pychop -> FE, Inf -> 448 (0x7E), 1.0 * 2^-127
   *    -> +0. */
  { "probe 6 ocp", "ocp", NONE, 0, MX_E4M3, MX_E8M0, MX_FP32, K, { 0x7F800000, 0x3F800000 }, 2, 0xFF, { 0 }, 0, 0, 0 },
  /* torchao 0.18.0 on the CPU (python -m mxgold.conform): RCEIL gives 0xFE, FLOOR reads Inf as 2^128 */
  { "probe 6 torchao-rceil", "torchao-rceil", NONE, 0, MX_E4M3, MX_E8M0, MX_FP32, K, { 0x7F800000, 0x3F800000 }, 2, 0xFE, { 0x7E, 0x00 }, 2, 0, 0 },
  { "probe 6 torchao-floor", "torchao-floor", NONE, 0, MX_E4M3, MX_E8M0, MX_FP32, K, { 0x7F800000, 0xBF800000, 0x40400000 }, 3, 0xF7, { 0x7E, 0x80, 0x00 }, 3, 0, 0 },
  /* min-scale-elem: elements under scale 0x00 divided by 2^-126 (FLOOR) or 1 (RCEIL) */
  { "scale 00 torchao-floor", "torchao-floor", NONE, 0, MX_E4M3, MX_E8M0, MX_FP32, K, { 0x03800000 }, 1, 0x00, { 0x68 }, 1, 0, 0 },
  { "scale 00 torchao-rceil", "torchao-rceil", NONE, 0, MX_E4M3, MX_E8M0, MX_FP32, K, { 0x04600000 }, 1, 0x00, { 0x00 }, 1, 0, 0 },
  /* rceil-log2f: log2 of a quotient just above 2^k rounds to k in FP32 */
  { "rceil-log2f", "torchao-rceil", NONE, 0, MX_E4M3, MX_E8M0, MX_FP32, K, { 0x2F600001 }, 1, 0x56, { 0 }, 0, 0, 0 },
  { "probe 6 te", "te-mxfp8", NONE, 0, MX_E4M3, MX_E8M0, MX_FP32, K, { 0x7F800000, 0x3F800000 }, 2, 0xFE, { 0x7E, 0x00 }, 2, 0, 0 },
  { "probe 6 pychop", "pychop", NONE, 0, MX_E4M3, MX_E8M0, MX_FP32, K, { 0x7F800000, 0x3F800000 }, 2, 0xFE, { 0x7E, 0x00 }, 2, 0, 0 },
  /* 7. an all-zero block: scale 0x00 in every profile; a zero-scale code is honoured */
  { "probe 7", ALL, NONE, 0, MX_E4M3, MX_E8M0, MX_FP32, K, { 0 }, 0, 0x00, { 0, 0, 0 }, 3, 0, 0 },
  /* Quark FLOOR/CEIL replace a zero scale by FP32 eps, 2^-23 (amd-quark 0.13, a real run) */
  { "probe 7 quark-floor", "quark-floor", NONE, 0, MX_E4M3, MX_E8M0, MX_FP32, K, { 0 }, 0, 0x68, { 0, 0, 0 }, 3, 0, 0 },
  { "probe 7 quark-ceil", "quark-ceil", NONE, 0, MX_E4M3, MX_E8M0, MX_FP32, K, { 0 }, 0, 0x68, { 0, 0, 0 }, 3, 0, 0 },
  { "probe 7 zero-scale 7F", "ocp", MX_POLICY_ZERO_SCALE, 0x7F, MX_E4M3, MX_E8M0, MX_FP32, K, { 0 }, 0, 0x7F, { 0 }, 1, 0, 0 },
  /* 8. -0.0 and -2^-20 (0xB5800000) beside 1.0 (E4M3, X = 2^-8): keep -> 80 80; +0 profiles -> 00 00 */
  { "probe 8 keep", "ocp", NONE, 0, MX_E4M3, MX_E8M0, MX_FP32, K, { 0x3F800000, 0x80000000, 0xB5800000 }, 3, 0x77, { 0x78, 0x80, 0x80 }, 3, 0, 0 },
  { "probe 8 positive", "pychop", NONE, 0, MX_E4M3, MX_E8M0, MX_FP32, K, { 0x3F800000, 0x80000000, 0xB5800000 }, 3, 0x77, { 0x78, 0x00, 0x00 }, 3, 0, 0 },
  { "probe 8 positive", "quark-even", NONE, 0, MX_E4M3, MX_E8M0, MX_FP32, K, { 0x3F800000, 0x80000000, 0xB5800000 }, 3, 0x77, { 0x78, 0x00, 0x00 }, 3, 0, 0 },
  /* 9. amax succ(448 * 2^-127) = 0x04600001 (E4M3): exact RCEIL -> -126 (0x01); amax * fl32(1/448)
   *    rounds to 2^-127 -> 0x00. */
  { "probe 9 rceil exact", "ocp", MX_POLICY_SCALE_RULE, MX_SCALE_RCEIL, MX_E4M3, MX_E8M0, MX_FP32, K, { 0x04600001 }, 1, 0x01, { 0 }, 0, 0, 0 },
  { "probe 9 rceil-fp32", "torchao-rceil", NONE, 0, MX_E4M3, MX_E8M0, MX_FP32, K, { 0x04600001 }, 1, 0x00, { 0 }, 0, 0, 0 },
  /* 10. MXINT8, -1.9990234375 (0xBFFFE000), X = 1: x64 = -127.9375 -> -128: symmetric saturates
   *     to -127 (0x81) with overflow; pychop's full range keeps -128 (0x80). */
  { "probe 10 sym", "ocp", NONE, 0, MX_INT8, MX_E8M0, MX_FP32, K, { 0xBFFFE000 }, 1, 0x7F, { 0x81 }, 1, MX_FLAG_OVERFLOW, MX_FLAG_OVERFLOW },
  { "probe 10 pychop", "pychop", NONE, 0, MX_INT8, MX_E8M0, MX_FP32, K, { 0xBFFFE000 }, 1, 0x7F, { 0x80 }, 1, 0, 0 },
  /* 12. FP64 2^140 (E4M3): FLOOR e = 132 > 127: ocp -> NaN scale; pychop clamps to 0xFE and
   *     saturates 2^13 to 448 (0x7E), flag scale-clamped. */
  { "probe 12 ocp", "ocp", NONE, 0, MX_E4M3, MX_E8M0, MX_FP64, K, { 0x48B0000000000000ull }, 1, 0xFF, { 0 }, 0, 0, 0 },
  { "probe 12 pychop", "pychop", NONE, 0, MX_E4M3, MX_E8M0, MX_FP64, K, { 0x48B0000000000000ull }, 1, 0xFE, { 0x7E }, 1, MX_FLAG_SCALE_CLAMPED, MX_FLAG_SCALE_CLAMPED },
  /* FP64 2^-1074 (E2M1), floor-log2f: fl32 of it is 0, log2f(0) = -Inf: the scale clamps to
   *     0x00 and the element underflows to +0 (flags: underflow, inexact, scale clamped) */
  { "fp64 tiny floor-log2f", "ocp", MX_POLICY_SCALE_RULE, MX_SCALE_FLOOR_LOG2F, MX_E2M1, MX_E8M0, MX_FP64, 1, { 0x1 }, 1, 0x00, { 0x0 }, 1, 0xFF, MX_FLAG_UNDERFLOW | MX_FLAG_INEXACT | MX_FLAG_SCALE_CLAMPED },
  /* 13. FP32 subnormal 0x007FFFFF alone (INT8): keep -> floor(log2) = -127, X = 2^-127 (0x00),
   *     0x7FFFFF * 2^-22 = 1.99999976 -> x64 rounds to 128 -> saturates to 127 (0x7F);
   *     flush -> an all-zero block: scale 0x00, element 0. */
  { "probe 13 keep", "ocp", NONE, 0, MX_INT8, MX_E8M0, MX_FP32, K, { 0x007FFFFF }, 1, 0x00, { 0x7F }, 1, 0, 0 },
  { "probe 13 flush", "ocp", MX_POLICY_SUBNORMALS, MX_SUBNORMALS_FLUSH, MX_INT8, MX_E8M0, MX_FP32, K, { 0x007FFFFF }, 1, 0x00, { 0x00 }, 1, 0, 0 },
  /* subnormals flush vs flush-pos, E4M3 block [-0, -2^-149, 1.0]: amax 1 gives X = 0 - 8, 0x77,
   * 1.0 / 2^-8 = 256 -> 0x78.  flush: -0 stays -0 (0x80), -2^-149 flushes to -0 (0x80);
   * flush-pos (Quark MX6/MX9's torch.where(|x| < tiny, 0.0, x)): both +0 (0x00).  The flushed
   * input raises underflow and inexact either way. */
  { "flush -0", "ocp", MX_POLICY_SUBNORMALS, MX_SUBNORMALS_FLUSH, MX_E4M3, MX_E8M0, MX_FP32, K,
    { 0x80000000, 0x80000001, 0x3F800000 }, 3, 0x77, { 0x80, 0x80, 0x78 }, 3, 0xFF,
    MX_FLAG_UNDERFLOW | MX_FLAG_INEXACT },
  { "flush-pos -0", "ocp", MX_POLICY_SUBNORMALS, MX_SUBNORMALS_FLUSH_POS, MX_E4M3, MX_E8M0,
    MX_FP32, K, { 0x80000000, 0x80000001, 0x3F800000 }, 3, 0x77, { 0x00, 0x00, 0x78 }, 3, 0xFF,
    MX_FLAG_UNDERFLOW | MX_FLAG_INEXACT },
  /* 14. E2M1 amax 3.5 (0x40600000, mantissa 1.75): FLOOR X = 0.5, 7 saturates to 6 (code 7),
   *     scale 0x7E; EVEN: 3.5 + 0.5 = 4 -> X = 1 (0x7F), 3.5 ties to 4 (code 6). */
  { "probe 14 floor", "ocp", NONE, 0, MX_E2M1, MX_E8M0, MX_FP32, K, { 0x40600000 }, 1, 0x7E, { 0x7 }, 1, 0, 0 },
  { "probe 14 even", "quark-even", NONE, 0, MX_E2M1, MX_E8M0, MX_FP32, K, { 0x40600000 }, 1, 0x7F, { 0x6 }, 1, 0, 0 },
  /* NVFP4-style linear UE4M3 scale, block 16, E2M1 (S = RNE(amax / 6)):
   *   amax 6 -> S = 1 (0x38), 6 -> 7, 1 -> 2;  amax 3 -> S = 0.5 (0x30), 3/0.5 = 6 -> 7,
   *   1/0.5 = 2 -> 4;  amax 7 -> 7/6 = 1.1667 -> S = 1.125 (0x39), 7/1.125 = 6.22 -> 6 (7),
   *   1/1.125 = 0.889 -> 1 (2). */
  { "nvfp4 amax 6", "ocp", NONE, 0, MX_E2M1, MX_UE4M3, MX_FP32, 16, { 0x40C00000, 0x3F800000 }, 2, 0x38, { 0x7, 0x2, 0x0 }, 3, 0, 0 },
  { "nvfp4 amax 3", "ocp", NONE, 0, MX_E2M1, MX_UE4M3, MX_FP32, 16, { 0x40400000, 0x3F800000 }, 2, 0x30, { 0x7, 0x4, 0x0 }, 3, 0, 0 },
  { "nvfp4 amax 7", "ocp", NONE, 0, MX_E2M1, MX_UE4M3, MX_FP32, 16, { 0x40E00000, 0x3F800000 }, 2, 0x39, { 0x7, 0x2, 0x0 }, 3, 0, 0 },
  /* rhu/rhd (ties toward +Inf / -Inf), E2M1 at X = 1 (6.0 sets the scale): 0.25 -0.25 2.5 -2.5
   * 5.0 -5.0 are ties.  rhu -> 0.5 -0 3 -2 6 -4, codes 1 8 5 C 7 E; rhd -> 0 -0.5 2 -3 4 -6,
   * codes 0 9 4 D 6 F (E2M1 magnitudes 0 .5 1 1.5 2 3 4 6, sign 8); +-0.25 lies below the smallest
   * normal 1 and is inexact: underflow too. */
  { "rhu ties", "ocp", RND, MX_RHU, MX_E2M1, MX_E8M0, MX_FP32, K,
    { 0x40C00000, 0x3E800000, 0xBE800000, 0x40200000, 0xC0200000, 0x40A00000, 0xC0A00000 }, 7,
    0x7F, { 0x7, 0x1, 0x8, 0x5, 0xC, 0x7, 0xE }, 7, 0xFF, MX_FLAG_INEXACT | MX_FLAG_UNDERFLOW },
  { "rhd ties", "ocp", RND, MX_RHD, MX_E2M1, MX_E8M0, MX_FP32, K,
    { 0x40C00000, 0x3E800000, 0xBE800000, 0x40200000, 0xC0200000, 0x40A00000, 0xC0A00000 }, 7,
    0x7F, { 0x7, 0x0, 0x9, 0x4, 0xD, 0x6, 0xF }, 7, 0xFF, MX_FLAG_INEXACT | MX_FLAG_UNDERFLOW },
  /* Quark BFP16 (INT8, block 8): amax 1.9921875 (0x3FFF0000) -> floor(log2) = 0, X = 1, and
   * 1.9921875 * 64 = 127.5 rounds (RNE) to 128 > 127: bump to X = 2 (0x80): 63.75 -> 64 (0x40),
   * 0.5 -> 16 (0x10), -1 -> -32 (0xE0), 2^-6 -> 0.5 -> 0 (tie, even).  Under ocp with the full
   * range and no bump the 128 saturates: X = 1 (0x7F), 0x7F 0x20 0xC0 0x01.  0.5 of a step (2^-7
   * in MXINT8's 2^-6 grid) rounding to 0 is an underflow. */
  { "bfp16 bump", "quark-bfp16", NONE, 0, MX_INT8, MX_E8M0, MX_FP32, 8,
    { 0x3FFF0000, 0x3F000000, 0xBF800000, 0x3C800000 }, 4, 0x80, { 0x40, 0x10, 0xE0, 0x00 }, 4, 0xFF, MX_FLAG_INEXACT | MX_FLAG_UNDERFLOW },
  { "bfp16 no bump", "ocp", MX_POLICY_INT_RANGE, MX_INT_RANGE_FULL, MX_INT8, MX_E8M0, MX_FP32, 8,
    { 0x3FFF0000, 0x3F000000, 0xBF800000, 0x3C800000 }, 4, 0x7F, { 0x7F, 0x20, 0xC0, 0x01 }, 4, 0xFF, MX_FLAG_INEXACT | MX_FLAG_OVERFLOW },
  /*   127.25 / 64 = 1.98828125 (0x3FFE8000) rounds to 127: no bump, X = 1 (0x7F), code 0x7F */
  { "bfp16 127", "quark-bfp16", NONE, 0, MX_INT8, MX_E8M0, MX_FP32, 8, { 0x3FFE8000 }, 1, 0x7F, { 0x7F }, 1, 0xFF, MX_FLAG_INEXACT },
  /*   NaN, +Inf, 3.0, -0: NaN and Inf read as 0 (invalid), amax 3 -> X = 2 (0x80): 3 * 32 = 96
   *   (0x60), -0 -> 0; an all-zero block gets Quark's eps step 2^-23 = X 2^-6: X = 2^-17 (0x6E) */
  { "bfp16 nan inf", "quark-bfp16", NONE, 0, MX_INT8, MX_E8M0, MX_FP32, 8,
    { 0x7FC00000, 0x7F800000, 0x40400000, 0x80000000 }, 4, 0x80, { 0x00, 0x00, 0x60, 0x00 }, 4, 0xFF, MX_FLAG_INVALID },
  { "bfp16 zero", "quark-bfp16", NONE, 0, MX_INT8, MX_E8M0, MX_FP32, 8, { 0 }, 1, 0x6E, { 0x00 }, 1, 0xFF, 0 },
  /* Neural Compressor (inc-mx).  E2M1 [4.0, -0, -0.125]: amax 4, floor(log2) 2 - emax 2 = 0,
   * X = 1 (0x7F); 4.0 -> code 6; -0: sign(-0) = 0 gives +0 (0x0); -0.125 is below half the step
   * 0.5 and rounds to zero keeping its sign, sign(x) * 0 = -0 (0x8).  ocp keeps both signs
   * (0x8 0x8); positive clears both (0x0 0x0). */
  { "inc zero sign", "inc-mx", NONE, 0, MX_E2M1, MX_E8M0, MX_FP32, K,
    { 0x40800000, 0x80000000, 0xBE000000 }, 3, 0x7F, { 0x6, 0x0, 0x8 }, 3, 0, 0 },
  { "inc zero sign ocp", "ocp", NONE, 0, MX_E2M1, MX_E8M0, MX_FP32, K,
    { 0x40800000, 0x80000000, 0xBE000000 }, 3, 0x7F, { 0x6, 0x8, 0x8 }, 3, 0, 0 },
  /*   E2M1 ties at X = 1 (6.0 sets the scale), floor(|x| + 0.5) is ties away: as microxcaling,
   *   0.25 .75 1.25 1.75 2.5 3.5 5 -> 0.5 1 1.5 2 3 4 6, codes 1 2 3 4 5 6 7 */
  { "inc ties away", "inc-mx", NONE, 0, MX_E2M1, MX_E8M0, MX_FP32, K,
    { 0x40C00000, 0x3E800000, 0x3F400000, 0x3FA00000, 0x3FE00000, 0x40200000, 0x40600000, 0x40A00000 }, 8,
    0x7F, { 0x7, 0x1, 0x2, 0x3, 0x4, 0x5, 0x6, 0x7 }, 8, 0, 0 },
  /*   E4M3 amax pred(16) = 0x417FFFFF: log2 = 4 - 8.6e-8 rounds to 4.0f (half an FP32 ulp below
   *   4 is 1.2e-7), floor 4 - emax 8: X = 2^-4 (0x7B), 255.99998 -> 256 (0x78); ocp 0x7A 0x7E */
  { "inc log2 in fp32", "inc-mx", NONE, 0, MX_E4M3, MX_E8M0, MX_FP32, K, { 0x417FFFFF }, 1, 0x7B, { 0x78 }, 1, 0, 0 },
  /*   E4M3 [1000, -2^-149]: floor(log2 1000) = 9 - 8: X = 2 (0x80); 500 rounds (ties away) to
   *   512 > 448: saturates, 0x7E; -2^-149 / 2 = -2^-150 rounds in FP32 (the quotient is taken in
   *   the input dtype) to -0, a zero: +0 (0x00).  Without scale-div the exact -2^-150 is a
   *   nonzero that rounds to zero: -0 (0x80). */
  { "inc quotient fp32", "inc-mx", NONE, 0, MX_E4M3, MX_E8M0, MX_FP32, K,
    { 0x447A0000, 0x80000001 }, 2, 0x80, { 0x7E, 0x00 }, 2, 0, 0 },
  { "inc quotient exact", "inc-mx", MX_POLICY_SCALE_DIV, MX_SCALE_DIV_EXACT, MX_E4M3, MX_E8M0, MX_FP32, K,
    { 0x447A0000, 0x80000001 }, 2, 0x80, { 0x7E, 0x80 }, 2, 0, 0 },
  /*   an Inf: floor(log2(Inf)) - emax > 127 is a NaN exponent: NaN scale */
  { "inc inf", "inc-mx", NONE, 0, MX_E4M3, MX_E8M0, MX_FP32, K, { 0x7F800000, 0x3F800000 }, 2, 0xFF, { 0 }, 0, 0, 0 },
  /* Quark ONNX MXQuantizeDequantize (quark-onnx).  E5M2 [NaN, +Inf, 3.0, -0]: NaN and Inf have
   * exponent field 255, read as 0, so amax is 3: field 128 - 127 = 1, - emax 15 = -14: X = 2^-14
   * (0x71).  NaN stays NaN (0x7E, S.11111.10), +Inf passes through (0x7C), 3 * 2^14 = 1.5 * 2^15
   * (0 11110 10 = 0x7A), -0 comes out of fake_quantize_element as 0.0 (0x00). */
  { "quark-onnx nan inf", "quark-onnx", NONE, 0, MX_E5M2, MX_E8M0, MX_FP32, K,
    { 0x7FC00000, 0x7F800000, 0x40400000, 0x80000000 }, 4, 0x71, { 0x7E, 0x7C, 0x7A, 0x00 }, 4, 0, 0 },
  /*   E4M3 [+Inf, 1.0]: amax 1, X = 2^(0 - 8) (0x77), 1.0 -> 256 (0x78); the Inf, which E4M3
   *   cannot hold, is encoded as under ovf: NaN (0x7F) */
  { "quark-onnx e4m3 inf", "quark-onnx", NONE, 0, MX_E4M3, MX_E8M0, MX_FP32, K,
    { 0x7F800000, 0x3F800000 }, 2, 0x77, { 0x7F, 0x78 }, 2, 0, 0 },
  /*   E2M1 [4.0, -0, -0.125]: X = 1 (0x7F), 4 -> 6, -0 and -0.125 -> +0 (mantissa 0 returns 0.0) */
  { "quark-onnx zeros", "quark-onnx", NONE, 0, MX_E2M1, MX_E8M0, MX_FP32, K,
    { 0x40800000, 0x80000000, 0xBE000000 }, 3, 0x7F, { 0x6, 0x0, 0x0 }, 3, 0, 0 },
  /*   INT8 [-1.9921875, 1.5/64, -0.5/64]: amax field 127: X = 1 (0x7F); x64 = -127.5, 1.5, -0.5.
   *   rounding_mode 0 (std::round, ties away, quark-onnx-int8): -128 (0x80, clamp at -128), 2,
   *   -1 (0xFF); rounding_mode 2 (ties to even, quark-onnx): -128, 2, 0 */
  { "quark-onnx-int8 ties away", "quark-onnx-int8", NONE, 0, MX_INT8, MX_E8M0, MX_FP32, K,
    { 0xBFFF0000, 0x3CC00000, 0xBC000000 }, 3, 0x7F, { 0x80, 0x02, 0xFF }, 3, 0, 0 },
  { "quark-onnx int8 even", "quark-onnx", NONE, 0, MX_INT8, MX_E8M0, MX_FP32, K,
    { 0xBFFF0000, 0x3CC00000, 0xBC000000 }, 3, 0x7F, { 0x80, 0x02, 0x00 }, 3, 0, 0 },
  /* min-mse, E2M1.  [7.5, 1]: floor X = 1 (0x7F) saturates 7.5 to 6, error 1.5^2 = 2.25;
   * X = 2 (0x80): 3.75 -> 4 (value 8) and 0.5, error 0.5^2 = 0.25; X = 1/2: 15 -> 6 (value 3),
   * error 4.5^2.  min-mse and min-maxerr take 0x80: codes 6 (4) and 1 (0.5).
   * [6, 1]: exact at X = 1 and at X = 2 (3, 0.5): the tie keeps floor, 0x7F, codes 7 and 2. */
  { "min-mse up", "ocp", MX_POLICY_SCALE_RULE, MX_SCALE_MIN_MSE, MX_E2M1, MX_E8M0, MX_FP32, K,
    { 0x40F00000, 0x3F800000 }, 2, 0x80, { 0x6, 0x1 }, 2, 0xFF, MX_FLAG_INEXACT },
  { "min-maxerr up", "ocp", MX_POLICY_SCALE_RULE, MX_SCALE_MIN_MAXERR, MX_E2M1, MX_E8M0, MX_FP32, K,
    { 0x40F00000, 0x3F800000 }, 2, 0x80, { 0x6, 0x1 }, 2, 0xFF, MX_FLAG_INEXACT },
  { "min-mse tie", "ocp", MX_POLICY_SCALE_RULE, MX_SCALE_MIN_MSE, MX_E2M1, MX_E8M0, MX_FP32, K,
    { 0x40C00000, 0x3F800000 }, 2, 0x7F, { 0x7, 0x2 }, 2, 0xFF, 0 },
};

/* EkMm scale formats (mx_format_scale), OCP policy otherwise: the scale by its (ebits, mbits),
 * an optional policy field override, one block, the expected scale, codes and flags. */
typedef struct
{
  const char *what;
  unsigned ebits, mbits;
  int field;
  long value;
  mx_format_id elem;
  int k;
  uint64_t x[4];
  uint64_t want_scale, want[4];
  unsigned fwant;
} srow;

static const srow srows[] = {
  /* E8M1 (code = exponent field << 1 | mantissa bit, bias 127), E2M1 block [1, 2, -3, 0.125]:
   * amax / 6 = 0.5 = 2^-1 exactly -> 126 << 1 = 0xFC under every scale-round; elements 2 (0x4),
   * 4 (0x6), -6 (0xF), and 0.25, the tie between 0 and 0.5 -> +0 (RNE), inexact + underflow. */
  { "e8m1 exact", 8, 1, NONE, 0, MX_E2M1, 4, { 0x3F800000, 0x40000000, 0xC0400000, 0x3E000000 },
    0xFC, { 0x4, 0x6, 0xF, 0x0 }, MX_FLAG_INEXACT | MX_FLAG_UNDERFLOW },
  /* E8M1, amax 5: 5/6 = 0.833 between 0.75 (0xFD) and 1.0 (0xFE), nearer 0.75.  rne and down:
   * 0.75, 5/0.75 = 6.67 rounds to 6 (0x7), the grid's next step being 8: no overflow; up: 1.0,
   * 5 is the tie of 4 and 6 -> the even mantissa, 4 (0x6). */
  { "e8m1 rne", 8, 1, MX_POLICY_SCALE_ROUND, MX_SCALE_ROUND_RNE, MX_E2M1, 1, { 0x40A00000 },
    0xFD, { 0x7 }, MX_FLAG_INEXACT },
  { "e8m1 up", 8, 1, MX_POLICY_SCALE_ROUND, MX_SCALE_ROUND_UP, MX_E2M1, 1, { 0x40A00000 },
    0xFE, { 0x6 }, MX_FLAG_INEXACT },
  { "e8m1 down", 8, 1, MX_POLICY_SCALE_ROUND, MX_SCALE_ROUND_DOWN, MX_E2M1, 1, { 0x40A00000 },
    0xFD, { 0x7 }, MX_FLAG_INEXACT },
  /* E5M0 (bias 15, codes 0x00..0x1E = 2^-15..2^15, 0x1F NaN), E4M3 (emax 8).  amax 2^20: FLOOR
   * X = 20 - 8 = 12 -> 0x1B, element 2^8 = 256 -> field 15, 0x78, exact. */
  { "e5m0 floor", 5, 0, NONE, 0, MX_E4M3, 1, { 0x49800000 }, 0x1B, { 0x78 }, 0 },
  /* amax 2^30: X = 22 is above 15: scale-overflow nan gives the NaN scale 0x1F, invalid ... */
  { "e5m0 over nan", 5, 0, NONE, 0, MX_E4M3, 1, { 0x4E800000 }, 0x1F, { 0x00 }, MX_FLAG_INVALID },
  /* ... and clamp gives 2^15 (0x1E): 2^30 / 2^15 = 2^15 saturates to 448 (0x7E) */
  { "e5m0 over clamp", 5, 0, MX_POLICY_SCALE_OVERFLOW, MX_SCALE_OVERFLOW_CLAMP, MX_E4M3, 1,
    { 0x4E800000 }, 0x1E, { 0x7E },
    MX_FLAG_SCALE_CLAMPED | MX_FLAG_OVERFLOW | MX_FLAG_INEXACT },
  /* amax 2^-20: X = -28 is below -15: clamped to 2^-15 (0x00); 2^-20 / 2^-15 = 2^-5 -> field 2,
   * 0x10, exact */
  { "e5m0 under", 5, 0, NONE, 0, MX_E4M3, 1, { 0x35800000 }, 0x00, { 0x10 },
    MX_FLAG_SCALE_CLAMPED },
};

/* one cast: profile, from -> to, the input pattern, the rounding, the expected code */
typedef struct
{
  const char *what, *profile;
  mx_format_id from, to;
  uint64_t x;
  mx_rounding rnd;
  uint64_t want;
} crow;

static const crow crows[] = {
  /* 4. E4M3 casts of 464 (a tie of 448/480 -> even 448), 464 + ulp, 480, +Inf: saturating
   *    7E 7E 7E 7E; ml_dtypes (non-saturating) 7E 7F 7F 7F (NaN). */
  { "probe 4 sat 464", "ocp", MX_FP32, MX_E4M3, 0x43E80000, MX_RNE, 0x7E },
  { "probe 4 sat 464+", "ocp", MX_FP32, MX_E4M3, 0x43E80001, MX_RNE, 0x7E },
  { "probe 4 sat 480", "ocp", MX_FP32, MX_E4M3, 0x43F00000, MX_RNE, 0x7E },
  { "probe 4 sat Inf", "ocp", MX_FP32, MX_E4M3, 0x7F800000, MX_RNE, 0x7E },
  { "probe 4 ml-dtypes 464", "ml-dtypes", MX_FP32, MX_E4M3, 0x43E80000, MX_RNE, 0x7E },
  { "probe 4 ml-dtypes 464+", "ml-dtypes", MX_FP32, MX_E4M3, 0x43E80001, MX_RNE, 0x7F },
  { "probe 4 ml-dtypes 480", "ml-dtypes", MX_FP32, MX_E4M3, 0x43F00000, MX_RNE, 0x7F },
  { "probe 4 ml-dtypes Inf", "ml-dtypes", MX_FP32, MX_E4M3, 0x7F800000, MX_RNE, 0x7F },
  /* 11. E8M0 0x00 decodes to 2^-127 (FP32 0x00400000), never to 0 */
  { "probe 11", "ocp", MX_E8M0, MX_FP32, 0x00, MX_RNE, 0x00400000 },
  /* decoding is exact: E5M2 +-Inf stay +-Inf in FP32 and FP64 under every profile */
  { "e5m2 +Inf", "ocp", MX_E5M2, MX_FP32, 0x7C, MX_RNE, 0x7F800000 },
  { "e5m2 -Inf", "pychop", MX_E5M2, MX_FP32, 0xFC, MX_RTZ, 0xFF800000 },
  { "fp32 Inf to fp64", "ocp", MX_FP32, MX_FP64, 0x7F800000, MX_RNE, 0x7FF0000000000000ull },
  /* 15. E8M0 from non-powers of two: 1.5 (0x3FC00000) -> RNE (one bit: the tie goes to the even
   *     significand, up) 0x80, RUP 0x80, RDN/RTZ 0x7F; 1.25 (0x3FA00000) -> RNE 0x7F, RUP 0x80;
   *     2^-130 (0x00080000) -> 0x00, the smallest code. */
  { "probe 15 1.5 rne", "ocp", MX_FP32, MX_E8M0, 0x3FC00000, MX_RNE, 0x80 },
  { "probe 15 1.5 rup", "ocp", MX_FP32, MX_E8M0, 0x3FC00000, MX_RUP, 0x80 },
  { "probe 15 1.5 rdn", "ocp", MX_FP32, MX_E8M0, 0x3FC00000, MX_RDN, 0x7F },
  { "probe 15 1.5 rtz", "ocp", MX_FP32, MX_E8M0, 0x3FC00000, MX_RTZ, 0x7F },
  { "probe 15 1.25 rne", "ocp", MX_FP32, MX_E8M0, 0x3FA00000, MX_RNE, 0x7F },
  { "probe 15 1.25 rup", "ocp", MX_FP32, MX_E8M0, 0x3FA00000, MX_RUP, 0x80 },
  { "probe 15 2^-130", "ocp", MX_FP32, MX_E8M0, 0x00080000, MX_RNE, 0x00 },
};

static long n;

static void
run_q (const qrow *t, int profile)
{
  mx_policy p;
  mx_rounding rnd;
  uint64_t b[K] = { 0 }, s = 0, c[K] = { 0 };
  unsigned f = 0;
  mx_profile_get (&p, &rnd, (mx_profile_id) profile);
  if (t->field == RND)
    rnd = (mx_rounding) t->value;
  else if (t->field != NONE)
    mx_policy_set (&p, (mx_policy_field) t->field, t->value);
  memcpy (b, t->x, (size_t) t->nx * sizeof *b);
  int rc = mx_quantize (&s, c, &f, NULL, mx_format_get (t->elem), mx_format_get (t->scale),
                        mx_format_get (t->in), b, (size_t) t->k, NULL, &p, rnd);
  const char *pn = mx_profile_name ((mx_profile_id) profile);
  n++;
  CHECK (rc == MX_OK && s == t->want_scale, "%s (%s): scale %02llX, want %02llX", t->what, pn,
         (unsigned long long) s, (unsigned long long) t->want_scale);
  for (int i = 0; i < t->nwant; i++)
    CHECK (c[i] == t->want[i], "%s (%s): code[%d] %02llX, want %02llX", t->what, pn, i,
           (unsigned long long) c[i], (unsigned long long) t->want[i]);
  CHECK ((f & t->fmask) == t->fwant, "%s (%s): flags %02X, want %02X under mask %02X", t->what,
         pn, f, t->fwant, t->fmask);
}

static void
run_s (const srow *t)
{
  mx_policy p = mx_policy_ocp ();
  uint64_t b[K] = { 0 }, s = 0, c[K] = { 0 };
  unsigned f = 0;
  if (t->field != NONE)
    mx_policy_set (&p, (mx_policy_field) t->field, t->value);
  memcpy (b, t->x, sizeof t->x);
  const mx_format *sf = mx_format_scale (t->ebits, t->mbits);
  int rc = mx_quantize (&s, c, &f, NULL, mx_format_get (t->elem), sf, mx_format_get (MX_FP32), b,
                        (size_t) t->k, NULL, &p, MX_RNE);
  n++;
  CHECK (rc == MX_OK && s == t->want_scale, "%s: scale %02llX, want %02llX", t->what,
         (unsigned long long) s, (unsigned long long) t->want_scale);
  for (int i = 0; i < t->k; i++)
    CHECK (c[i] == t->want[i], "%s: code[%d] %02llX, want %02llX", t->what, i,
           (unsigned long long) c[i], (unsigned long long) t->want[i]);
  CHECK (f == t->fwant, "%s: flags %02X, want %02X", t->what, f, t->fwant);
}

int
main (void)
{
  for (size_t i = 0; i < sizeof srows / sizeof srows[0]; i++)
    run_s (&srows[i]);
  /* the scale family holds the built-in scales under their own rows, and names the rest */
  CHECK (mx_format_scale (8, 0) == mx_format_get (MX_E8M0), "e8m0 is EkMm (8, 0)");
  CHECK (mx_format_scale (4, 3) == mx_format_get (MX_UE4M3), "ue4m3 is EkMm (4, 3)");
  CHECK (mx_format_by_name ("e10m2") == mx_format_scale (10, 2), "e10m2 by name");
  CHECK (mx_format_scale (16, 0) == NULL && mx_format_scale (1, 0) == NULL
         && mx_format_scale (8, 8) == NULL && mx_format_by_name ("e16m0") == NULL,
         "EkMm out of range");
  n += 4;
  for (size_t i = 0; i < sizeof qrows / sizeof qrows[0]; i++)
    {
      const qrow *t = &qrows[i];
      if (strcmp (t->profile, ALL) == 0)
        for (int p = 0; p < MX_PROFILE_COUNT; p++)
          {
            mx_policy pol;
            mx_profile_get (&pol, NULL, (mx_profile_id) p);
            if (pol.zero_scale == 0) /* the others have rows of their own */
              run_q (t, p);
          }
      else
        {
          int p = mx_profile_parse (t->profile);
          CHECK (p >= 0, "%s: unknown profile %s", t->what, t->profile);
          if (p >= 0)
            run_q (t, p);
        }
    }
  for (size_t i = 0; i < sizeof crows / sizeof crows[0]; i++, n++)
    {
      const crow *t = &crows[i];
      mx_policy p;
      uint64_t c;
      mx_profile_get (&p, NULL, (mx_profile_id) mx_profile_parse (t->profile));
      mx_cast (&c, NULL, mx_format_get (t->to), mx_format_get (t->from), t->x, 0, &p, t->rnd);
      CHECK (c == t->want, "%s: %llX, want %llX", t->what, (unsigned long long) c,
             (unsigned long long) t->want);
    }
  return finish ("tprobes", n);
}
