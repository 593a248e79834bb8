/* harness -- co-simulation of ebby-s/MX-for-FPGA's conv_bf16tomxfp (BF16 -> MX quantizer) and
 * dot_fp (exact block dot product) against libmxgold, every output bit compared.
 *
 *   harness --unit conv|dot|conv-spec|dot-spec [--format F|all] [--model ocp|nospec]
 *           [--random N] [--seed S]
 *           [--directed] [--errors N] [--quiet] [--sabotage]
 *   harness --repro FILE       re-run the documented deviations of a reproducer file
 *
 * Models (README.md):
 *   conv: mx_quantize, BF16 in, E8M0 scale, OCP policy, RNE.  Under a NaN scale the element
 *         codes are not compared (OCP section 4 leaves them undefined; mxgold verify does the same).
 *   dot:  every bit of the unit's fixed-point sum against the exact sum of the 32 products, each
 *         one mx_dot of one element pair (an FP32 number, exact: mx_dot must report no inexact),
 *         and the sum rounded to FP32 against mx_dot of the whole block with accum exact, RNE.
 *   --model ocp     the OCP formats (the default).  A mismatch is a documented deviation when
 *                   the unit matches --model nospec and the case meets the deviation's
 *                   input-precise condition (README.md, "Deviations").
 *   --model nospec  E4M3 and E5M2 read without NaN or Inf: mx_format_custom(1, e, m, bias,
 *                   MX_SPECIAL_NONE), max 480 and 114688.  FP6 and FP4 have no specials anyway.
 *   conv-spec, dot-spec: the upstream's FP8 variants with special values (E4M3, E5M2 only; --model
 *                   ocp only).  conv-spec's deviations are explained by the element format with
 *                   bias 0 (scale = OCP's minus the bias) and the policies of spec_policy();
 *                   dot-spec's o_nan must be set exactly when mx_dot gives NaN or Inf.
 *   --sabotage      a deliberately wrong golden model (conv: ties away from zero, dot: lane 31
 *                   left out), so that run.sh can prove the comparison fails when it should.
 * Ends with 'N passed, M failed, D documented deviations'; exit 0 when M is 0, 1 otherwise,
 * 2 bad usage or a malformed reproducer file.
 * SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "mx.h"
#include "mxvec.h"
#include "shim.h"

#define K MXF_K
#define NF MXF_NFMT
#define CONV_LATENCY 5 /* freq_mhz 400, k 32: 3 (u_exp_max tree + flop) + 1 (pre-shift) + 1 (out) */

/* The wrapper's format order (mxfpga_top.sv) is mxgold's. */
static const mx_format_id fmt_ids[NF] = { MX_E4M3, MX_E5M2, MX_E2M3, MX_E3M2, MX_E2M1 };
static mx_format nospec[NF]; /* the same formats, every code finite */
static const mx_format *elem[2][NF]; /* [model][format] */
enum { OCP, NOSPEC };

static const mx_format *bf16, *fp32, *e8m0;
static mx_policy pol, pol_ieee;
static mx_dot_policy dpol;

static int unit_dot, spec, model = OCP, fmt_on[NF], quiet, max_errors = 5, sabotage;
static long passed[NF], failed[NF], deviated[NF][6], shown;

/* The _spec units, variant v: conv v = 2 f + 1 - sat (f 0 e4m3, 1 e5m2), dot v = f. */
static mx_format bias0[2];         /* E4M3 and E5M2 with bias 0, specials as OCP's */
static mx_policy pol_spec[2];      /* [sat] the policies conv_bf16tomxfp_spec implements */
static mx_policy pol_ocp_sat[2];   /* [sat] OCP, overflow sat (1) or ovf (0: OFP8 non-saturating) */
static long sp_passed[4], sp_failed[4], sp_deviated[4][6];

/* The documented deviations (README.md).  Index 0 is unused. */
static const char *const dev_name[6] = {
  "",
  "e4m3-nan-code: an element that rounds to 1.111x2^8 (480) or more is written S.1111.111 "
  "(NaN) where OCP saturates to S.1111.110",
  "e5m2-emax16: E5M2 quantized as a format without Inf/NaN (emax 16, max 114688): scale one "
  "below OCP's, exponent field 31 used for numbers",
  "fp8-specials-as-numbers: an input code that is NaN or Inf in OCP is read as a finite number",
  "spec-scale-bias: conv_bf16tomxfp_spec: scale = OCP's minus the element bias (elements as if "
  "of bias 0), NaN and Inf left out of the scale and encoded per element",
  "spec-inf-as-nan: dot_fp_spec: an infinite dot sets o_nan (the unit has no Inf)"
};

/*------------------------------------------------------------------ random -*/
static mxv_rng gen = { 1 }; /* the project's generator (mxvec.h); --seed sets gen.s */
static uint64_t rnd64 (void) { return mxv_rng_next (&gen); }
static unsigned rnd (unsigned n) { return (unsigned) (rnd64 () % n); }

/*---------------------------------------------------------------- blocks -*/
/* A block of inputs: BF16 lanes for conv, code pairs for dot (each format reads the low bits). */
typedef struct { uint16_t x[K]; uint8_t a[K], b[K]; char what[40]; } block;

static uint8_t code_mask (int f) { return (uint8_t) ((1u << elem[OCP][f]->bits) - 1); }

/* A random BF16 block: raw patterns, or a window of exponents below a random top (with zeros,
 * subnormals and round-bit-only mantissas, the ties), or a top element near 2^(e+1). */
static void random_conv (block *bl)
{
  unsigned kind = rnd (4), top = 1 + rnd (254), width = rnd (40);
  for (int i = 0; i < K; i++) {
    unsigned s = rnd (2), m = rnd (128), e = top > width ? top - rnd (width + 1) : rnd (top + 1);
    if (kind == 0) {
      bl->x[i] = (uint16_t) rnd64 ();
      continue;
    }
    if (rnd (16) == 0)
      e = 0, m = rnd (4) ? 0 : m; /* zeros and BF16 subnormals */
    if (kind == 2 && rnd (2))
      m = (m & ~0u << (1 + rnd (7))) | 1u << rnd (7); /* one bit below the kept ones: ties */
    if (kind == 3 && i == 0)
      e = top, m = 0x70 | (m & 0xF); /* top element 1.111xxxx: E4M3 saturation */
    bl->x[i] = (uint16_t) (s << 15 | (e & 0xFF) << 7 | (m & 0x7F));
  }
  snprintf (bl->what, sizeof bl->what, "random kind %u", kind);
}

static void random_dot (block *bl)
{
  unsigned kind = rnd (3);
  for (int i = 0; i < K; i++) {
    bl->a[i] = (uint8_t) rnd64 ();
    bl->b[i] = (uint8_t) rnd64 ();
    if (kind == 1) { /* one binade: products of equal size, cancellations */
      bl->a[i] = (uint8_t) ((bl->a[i] & 0x87) | 0x38);
      bl->b[i] = (uint8_t) ((bl->b[i] & 0x87) | 0x38);
    }
    if (kind == 2 && rnd (4)) /* sparse */
      bl->a[i] = (uint8_t) (bl->a[i] & 0x80);
  }
  snprintf (bl->what, sizeof bl->what, "random kind %u", kind);
}

/* The directed blocks, as a numbered sequence (n = 0, 1, ...; 0 when there is none left). */
static int directed_conv (block *bl, long n)
{
  static const uint16_t special[] = { 0x7FC0, 0xFFC0, 0x7F81, 0x7F80, 0xFF80 };
  memset (bl, 0, sizeof *bl);
  /* 1. every mantissa at every distance d = 0..40 binades below a top of 1.0 (both signs):
   * lane 0 holds the top, lanes 1..31 walk the 128 mantissas */
  if (n < 41 * 5 * 2) {
    int d = (int) (n / 10), part = (int) (n / 2 % 5), neg = (int) (n % 2);
    bl->x[0] = 0x3F80;
    for (int i = 1; i < K; i++) {
      int m = (part * 31 + i - 1) % 128, e = 127 - d;
      bl->x[i] = (uint16_t) (neg << 15 | (e > 0 ? e : 0) << 7 | m);
    }
    snprintf (bl->what, sizeof bl->what, "mantissas %d binades below 1.0%s", d, neg ? ", -" : "");
    return 1;
  }
  n -= 41 * 5 * 2;
  /* 2. the top element itself: each of its 128 mantissas, every other lane 1.0 */
  if (n < 128) {
    for (int i = 0; i < K; i++)
      bl->x[i] = 0x3F80;
    bl->x[n % K] = (uint16_t) (0x3F80 | n);
    snprintf (bl->what, sizeof bl->what, "top element 1.%02lX", (unsigned long) n);
    return 1;
  }
  n -= 128;
  switch (n) {
  case 0: snprintf (bl->what, sizeof bl->what, "all +0"); return 1;
  case 1: for (int i = 0; i < K; i++) bl->x[i] = 0x8000;
          snprintf (bl->what, sizeof bl->what, "all -0"); return 1;
  case 2: for (int i = 0; i < K; i++) bl->x[i] = (uint16_t) (i % 2 ? 0x8000 : 0);
          snprintf (bl->what, sizeof bl->what, "mixed zeros"); return 1;
  case 3: for (int i = 0; i < K; i++) bl->x[i] = (uint16_t) ((i << 11 & 0x8000) | (i * 37 % 127 + 1));
          snprintf (bl->what, sizeof bl->what, "BF16 subnormals only"); return 1;
  case 4: bl->x[5] = 1; snprintf (bl->what, sizeof bl->what, "smallest subnormal alone"); return 1;
  case 5: for (int i = 0; i < K; i++) bl->x[i] = (uint16_t) (i % 2 ? 0x7F7F : 0xFF7F);
          snprintf (bl->what, sizeof bl->what, "BF16 max"); return 1;
  case 6: for (int i = 0; i < K; i++) bl->x[i] = (uint16_t) (0x0080 + i);
          snprintf (bl->what, sizeof bl->what, "BF16 smallest normals"); return 1;
  case 7: bl->x[0] = 0x7F7F; bl->x[1] = 1; bl->x[2] = 0x0080;
          snprintf (bl->what, sizeof bl->what, "max with subnormal"); return 1;
  default: break;
  }
  n -= 8;
  /* 3. a NaN or an Inf in each lane, among normal values */
  if (n < 5 * K) {
    for (int i = 0; i < K; i++)
      bl->x[i] = (uint16_t) (0x3C00 + i * 131);
    bl->x[n % K] = special[n / K];
    snprintf (bl->what, sizeof bl->what, "%04X in lane %ld", special[n / K], n % K);
    return 1;
  }
  return 0;
}

static int directed_dot (block *bl, long n)
{
  memset (bl, 0, sizeof *bl);
  /* 1. every pair of 8-bit codes (each format sees its low bits) in one lane, the rest +0 */
  if (n < 65536) {
    int lane = (int) (n % K);
    bl->a[lane] = (uint8_t) (n >> 8);
    bl->b[lane] = (uint8_t) n;
    snprintf (bl->what, sizeof bl->what, "pair %02lX*%02lX", n >> 8, n & 0xFF);
    return 1;
  }
  n -= 65536;
  /* 2. whole blocks of one code per operand: largest sums, cancellation, smallest sums, -0 */
  if (n < 256 * 4) {
    uint8_t c = (uint8_t) (n / 4);
    for (int i = 0; i < K; i++) {
      bl->a[i] = c;
      bl->b[i] = (uint8_t) (n % 4 == 0 ? c : n % 4 == 1 ? c ^ (i % 2 ? 0x80 : 0)
                            : n % 4 == 2 ? 0x01 : 0x80);
    }
    snprintf (bl->what, sizeof bl->what, "block of %02X, variant %ld", c, n % 4);
    return 1;
  }
  n -= 256 * 4;
  /* 3. largest and smallest products together (the full width of the sum) */
  if (n < 256) {
    for (int i = 0; i < K; i++) {
      bl->a[i] = (uint8_t) (i % 2 ? n : 0x01);
      bl->b[i] = (uint8_t) (i % 2 ? n : 0x81);
    }
    snprintf (bl->what, sizeof bl->what, "%02lX squared with tiny products", n);
    return 1;
  }
  return 0;
}

/*------------------------------------------------------------------ checks -*/
typedef struct { uint8_t scale, codes[K]; } qout;

static void quantize (qout *q, int f, int m, const uint16_t x[K])
{
  uint64_t in[K], scale, codes[K];
  for (int i = 0; i < K; i++)
    in[i] = x[i];
  if (mx_quantize (&scale, codes, NULL, NULL, elem[m][f], e8m0, bf16, in, K, NULL, &pol,
                   sabotage ? MX_RNA : MX_RNE)) {
    fprintf (stderr, "harness: mx_quantize failed\n");
    exit (2);
  }
  q->scale = (uint8_t) scale;
  for (int i = 0; i < K; i++)
    q->codes[i] = (uint8_t) codes[i];
}

/* Equal under OCP's rule that the elements of a NaN-scale block are undefined. */
static int qsame (const qout *x, const qout *y)
{
  return x->scale == y->scale && (x->scale == 0xFF || !memcmp (x->codes, y->codes, K));
}

/* The deviation that explains a conv mismatch under ocp, or 0. */
static int conv_deviation (int f, const qout *dut, const qout *gold, const uint16_t x[K])
{
  qout ns;
  quantize (&ns, f, NOSPEC, x);
  if (!qsame (dut, &ns))
    return 0;
  if (fmt_ids[f] == MX_E5M2)
    return 2;
  if (fmt_ids[f] != MX_E4M3 || dut->scale != gold->scale)
    return 0;
  for (int i = 0; i < K; i++)
    if (dut->codes[i] != gold->codes[i] && !((gold->codes[i] & 0x7F) == 0x7E
                                             && dut->codes[i] == (gold->codes[i] | 1)))
      return 0;
  return 1;
}

static void report (int f, int dev, const char *what, const char *line)
{
  if (dev) {
    deviated[f][dev]++;
    return;
  }
  failed[f]++;
  if (shown++ < max_errors)
    printf ("MISMATCH %s (%s)\n%s", mx_format_get (fmt_ids[f])->name, what, line);
}

static void print_codes (char *s, size_t n, const char *tag, const qout *q)
{
  size_t o = (size_t) snprintf (s, n, "  %-6s scale %02X codes", tag, q->scale);
  for (int i = 0; i < K && o < n; i++)
    o += (size_t) snprintf (s + o, n - o, " %02X", q->codes[i]);
  if (o < n)
    snprintf (s + o, n - o, "\n");
}

/* A conv mismatch decoded: inputs, both answers, the fields that differ. */
static void conv_mismatch (char *line, size_t n, const block *bl, const qout *dut,
                           const qout *gold)
{
  char a[400], b[400];
  size_t o = (size_t) snprintf (line, n, "  input ");
  for (int i = 0; i < K; i++)
    o += (size_t) snprintf (line + o, n - o, " %04X", bl->x[i]);
  print_codes (a, sizeof a, "DUT", dut);
  print_codes (b, sizeof b, "golden", gold);
  o += (size_t) snprintf (line + o, n - o, "\n%s%s  differ:", a, b);
  if (dut->scale != gold->scale)
    o += (size_t) snprintf (line + o, n - o, " scale");
  for (int i = 0; i < K && gold->scale != 0xFF; i++)
    if (dut->codes[i] != gold->codes[i])
      o += (size_t) snprintf (line + o, n - o, " lane%d", i);
  snprintf (line + o, n - o, "\n");
}

static void check_conv (int f, const block *bl, const qout *dut)
{
  qout gold;
  quantize (&gold, f, model, bl->x);
  if (qsame (dut, &gold)) {
    passed[f]++;
    return;
  }
  int dev = model == OCP ? conv_deviation (f, dut, &gold, bl->x) : 0;
  char line[2048];
  conv_mismatch (line, sizeof line, bl, dut, &gold);
  report (f, dev, bl->what, line);
}

/* The unit's output as a value: the 128-bit two's-complement integer times 2^lsb, where lsb is
 * the weight of the product of two smallest subnormals, 2 (emin - m). */
static void dut_value (mpfr_t v, int f, const uint32_t w[4])
{
  const mx_format *e = elem[OCP][f];
  mpfr_set_ui (v, 0, MPFR_RNDN);
  for (int j = 3; j >= 0; j--) {
    mpfr_mul_2ui (v, v, 32, MPFR_RNDN);
    mpfr_add_ui (v, v, w[j], MPFR_RNDN);
  }
  if (w[3] >> 31) {
    mpfr_t t;
    mpfr_init2 (t, 8);
    mpfr_set_ui_2exp (t, 1, 128, MPFR_RNDN);
    mpfr_sub (v, v, t, MPFR_RNDN);
    mpfr_clear (t);
  }
  mpfr_mul_2si (v, v, 2 * (e->emin - (int) e->mbits), MPFR_RNDN);
}

/* The golden exact sum from 32 one-pair mx_dot calls, and mx_dot of the whole block (FP32).
 * Returns 1 if a product is NaN or Inf. */
static int golden_dot (mpfr_t sum, uint64_t *fp32_out, int f, int m, const uint8_t a[K],
                       const uint8_t b[K])
{
  const uint64_t one = 0x7F; /* E8M0 1.0 */
  uint64_t ca[K], cb[K], p;
  unsigned fl = 0;
  int special = 0;
  mpfr_t t;
  mpfr_init2 (t, 64);
  mpfr_set_ui (sum, 0, MPFR_RNDN);
  for (int i = 0; i < K; i++) {
    ca[i] = a[i] & code_mask (f);
    cb[i] = sabotage && i == K - 1 ? 0 : b[i] & code_mask (f);
    unsigned pf = 0;
    if (mx_dot (&p, &pf, fp32, &one, &ca[i], elem[m][f], &one, &cb[i], elem[m][f], e8m0, 1, 1,
                0, &dpol, MX_RNE)) {
      fprintf (stderr, "harness: mx_dot failed\n");
      exit (2);
    }
    mx_decode (t, fp32, p);
    if (mpfr_nan_p (t) || mpfr_inf_p (t))
      special = 1;
    else if (pf & MX_FLAG_INEXACT) {
      fprintf (stderr, "harness: a product is not exact in FP32\n");
      exit (2);
    } else
      mpfr_add (sum, sum, t, MPFR_RNDN); /* exact: sum has 256 bits */
  }
  mpfr_clear (t);
  if (mx_dot (fp32_out, &fl, fp32, &one, ca, elem[m][f], &one, cb, elem[m][f], e8m0, K, 1, 0,
              &dpol, MX_RNE)) {
    fprintf (stderr, "harness: mx_dot failed\n");
    exit (2);
  }
  return special;
}

/* 0 equal; else a short word naming what differs. */
static const char *dot_differs (int f, int m, const block *bl, const uint32_t w[4], char *detail,
                                size_t n)
{
  mpfr_t d, s;
  uint64_t g32, d32;
  const char *why = NULL;
  mpfr_inits2 (256, d, s, (mpfr_ptr) 0);
  dut_value (d, f, w);
  int special = golden_dot (s, &g32, f, m, bl->a, bl->b);
  mx_encode (&d32, NULL, fp32, d, 0, &pol_ieee, MX_RNE);
  if (special)
    why = "golden NaN/Inf";
  else if (mpfr_cmp (d, s) != 0)
    why = "exact sum";
  else if (d32 != g32)
    why = "FP32 view";
  if (why)
    mpfr_snprintf (detail, n, "  DUT    %08X%08X%08X%08X = %.40Rg (FP32 %08lX)\n"
                   "  golden %.40Rg (FP32 %08lX)%s\n", w[3], w[2], w[1], w[0], d,
                   (unsigned long) d32, s, (unsigned long) g32, special ? ", a NaN/Inf product" : "");
  mpfr_clears (d, s, (mpfr_ptr) 0);
  return why;
}

static void check_dot (int f, const block *bl, const uint32_t w[4])
{
  char detail[512], line[1400];
  const char *why = dot_differs (f, model, bl, w, detail, sizeof detail);
  if (!why) {
    passed[f]++;
    return;
  }
  int dev = 0;
  if (model == OCP && nospec[f].special != elem[OCP][f]->special
      && !dot_differs (f, NOSPEC, bl, w, line, sizeof line)) {
    /* the deviation's condition: an input code is NaN or Inf in the OCP format */
    mpfr_t t;
    mpfr_init2 (t, 64);
    for (int i = 0; i < K && !dev; i++) {
      mx_decode (t, elem[OCP][f], bl->a[i] & code_mask (f));
      dev = !mpfr_number_p (t);
      mx_decode (t, elem[OCP][f], bl->b[i] & code_mask (f));
      dev = dev || !mpfr_number_p (t);
    }
    mpfr_clear (t);
    dev = dev ? 3 : 0;
  }
  size_t o = (size_t) snprintf (line, sizeof line, "  A");
  for (int i = 0; i < K; i++)
    o += (size_t) snprintf (line + o, sizeof line - o, " %02X", bl->a[i] & code_mask (f));
  o += (size_t) snprintf (line + o, sizeof line - o, "\n  B");
  for (int i = 0; i < K; i++)
    o += (size_t) snprintf (line + o, sizeof line - o, " %02X", bl->b[i] & code_mask (f));
  snprintf (line + o, sizeof line - o, "\n%s  differ: %s\n", detail, why);
  report (f, dev, bl->what, line);
}

/*------------------------------------------------------------- _spec units -*/
/* conv_bf16tomxfp_spec, variant v, under OCP (ocp 1) or the model that explains it (ocp 0). */
static void spec_quantize (qout *q, int v, int ocp, const uint16_t x[K])
{
  int f = v / 2, sat = 1 - v % 2;
  uint64_t in[K], scale, codes[K];
  for (int i = 0; i < K; i++)
    in[i] = x[i];
  if (mx_quantize (&scale, codes, NULL, NULL, ocp ? elem[OCP][f] : &bias0[f], e8m0, bf16, in, K,
                   NULL, ocp ? &pol_ocp_sat[sat] : &pol_spec[sat], sabotage ? MX_RNA : MX_RNE)) {
    fprintf (stderr, "harness: mx_quantize failed\n");
    exit (2);
  }
  q->scale = (uint8_t) scale;
  for (int i = 0; i < K; i++)
    q->codes[i] = (uint8_t) codes[i];
}

static void spec_report (int v, int dev, const char *name, const char *what, const char *line)
{
  if (dev) {
    sp_deviated[v][dev]++;
    return;
  }
  sp_failed[v]++;
  if (shown++ < max_errors)
    printf ("MISMATCH %s (%s)\n%s", name, what, line);
}

static void check_conv_spec (int v, const block *bl, const qout *dut)
{
  qout gold, ex;
  char line[2048], name[32];
  spec_quantize (&gold, v, 1, bl->x);
  if (qsame (dut, &gold)) {
    sp_passed[v]++;
    return;
  }
  spec_quantize (&ex, v, 0, bl->x);
  snprintf (name, sizeof name, "%s sat=%d", elem[OCP][v / 2]->name, 1 - v % 2);
  conv_mismatch (line, sizeof line, bl, dut, &gold);
  spec_report (v, qsame (dut, &ex) ? 4 : 0, name, bl->what, line);
}

/* dot_fp_spec: o_nan exactly when mx_dot is NaN or Inf, else every bit of the sum. */
static void check_dot_spec (int f, const block *bl, const uint32_t w[4], int nan)
{
  mpfr_t d, s;
  uint64_t g32;
  const char *why = NULL;
  char line[1400];
  int dev = 0;
  mpfr_inits2 (256, d, s, (mpfr_ptr) 0);
  dut_value (d, f, w);
  int special = golden_dot (s, &g32, f, OCP, bl->a, bl->b);
  if (special && !nan)
    why = "o_nan not set";
  else if (special && (g32 & 0x7FFFFFFF) == 0x7F800000)
    why = "o_nan set for an Inf", dev = 5;
  else if (!special && nan)
    why = "o_nan set";
  else if (!special && mpfr_cmp (d, s))
    why = "exact sum";
  if (why) {
    size_t o = (size_t) snprintf (line, sizeof line, "  A");
    for (int i = 0; i < K; i++)
      o += (size_t) snprintf (line + o, sizeof line - o, " %02X", bl->a[i]);
    o += (size_t) snprintf (line + o, sizeof line - o, "\n  B");
    for (int i = 0; i < K; i++)
      o += (size_t) snprintf (line + o, sizeof line - o, " %02X", bl->b[i]);
    mpfr_snprintf (line + o, sizeof line - o, "\n  DUT    o_nan %d, %.40Rg\n"
                   "  golden FP32 %08lX, exact %.40Rg\n  differ: %s\n", nan, d,
                   (unsigned long) g32, s, why);
    spec_report (f, dev, elem[OCP][f]->name, bl->what, line);
  } else
    sp_passed[f]++;
  mpfr_clears (d, s, (mpfr_ptr) 0);
}

/*------------------------------------------------------------------- runs -*/
/* Streams the blocks through the DUT and checks each against every selected format.
 * conv: a new block every clock; the outputs after clock t belong to block t - 4. */
static void run (int directed, long nrandom)
{
  block ring[CONV_LATENCY];
  long ndirected = 0;
  while (directed && (unit_dot ? directed_dot (ring, ndirected) : directed_conv (ring, ndirected)))
    ndirected++;
  long total = ndirected + nrandom, flush = unit_dot ? 0 : CONV_LATENCY - 1;
  for (long t = 0; t < total + flush; t++) {
    block *bl = &ring[t % CONV_LATENCY];
    memset (bl, 0, sizeof *bl); /* the flush clocks feed +0 blocks */
    if (t < ndirected)
      unit_dot ? directed_dot (bl, t) : directed_conv (bl, t);
    else if (t < total)
      unit_dot ? random_dot (bl) : random_conv (bl);
    if (unit_dot) {
      uint32_t out[NF][4], sout[2][4];
      uint8_t nan[2];
      mxf_dot (bl->a, bl->b, out);
      mxf_dot_spec (sout, nan);
      for (int f = 0; f < NF; f++)
        if (fmt_on[f] && spec)
          check_dot_spec (f, bl, sout[f], nan[f]);
        else if (fmt_on[f])
          check_dot (f, bl, out[f]);
      continue;
    }
    uint8_t scale[NF], codes[NF][K], sscale[4], scodes[4][K];
    mxf_conv_clock (bl->x, scale, codes);
    mxf_conv_spec (sscale, scodes);
    long done = t - (CONV_LATENCY - 1); /* the block now at the output */
    if (done < 0)
      continue;
    for (int v = 0; v < 4 && spec; v++)
      if (fmt_on[v / 2]) {
        qout q;
        q.scale = sscale[v];
        memcpy (q.codes, scodes[v], K);
        check_conv_spec (v, &ring[done % CONV_LATENCY], &q);
      }
    for (int f = 0; f < NF && !spec; f++)
      if (fmt_on[f]) {
        qout q;
        q.scale = scale[f];
        memcpy (q.codes, codes[f], K);
        check_conv (f, &ring[done % CONV_LATENCY], &q);
      }
  }
}

/*------------------------------------------------------------------ repro -*/
/* A reproducer file (README.md, "Reproducers"): '#' comments, and one case per line,
 *   conv FMT X0 .. X31 | SCALE C0 .. C31 | SCALE C0 .. C31
 *   dot FMT A0 .. A31 | B0 .. B31 | FP32 | INT
 * all in hex: the inputs, what mxgold answers under the OCP format (the golden answer), and what
 * the unit answers (its deviation; the harness also checks that it is the nospec model's).  A
 * case passes when all of that still holds and the two answers differ. */
static int hex_fields (char **p, uint64_t *v, int n, unsigned bits, const char *file, int ln,
                       const char *what)
{
  for (int i = 0; i < n; i++) {
    char *tok = strtok_r (NULL, " \t\n", p);
    if (!tok || (*tok == '|' && !tok[1]) || mx_parse_hex (&v[i], tok, bits)) {
      fprintf (stderr, "%s:%d: expected %d hex %s (%u bits), field %d\n", file, ln, n, what,
               bits, i + 1);
      return -1;
    }
  }
  return 0;
}

static int expect_bar (char **p, const char *file, int ln)
{
  char *tok = strtok_r (NULL, " \t\n", p);
  if (tok && !strcmp (tok, "|"))
    return 0;
  fprintf (stderr, "%s:%d: expected '|'\n", file, ln);
  return -1;
}

static int run_repro (const char *file)
{
  FILE *fp = fopen (file, "r");
  char buf[2048];
  int ln = 0;
  if (!fp) {
    fprintf (stderr, "harness: %s: %s\n", file, strerror (errno));
    return 2;
  }
  while (fgets (buf, sizeof buf, fp)) {
    char *p, *tok;
    ln++;
    if (!strchr (buf, '\n') && !feof (fp)) {
      fprintf (stderr, "%s:%d: line longer than %zu characters\n", file, ln, sizeof buf - 2);
      fclose (fp);
      return 2;
    }
    if (!(tok = strtok_r (buf, " \t\n", &p)) || *tok == '#')
      continue;
    static const char *const kinds[] = { "conv", "dot", "conv-spec", "dot-spec" };
    int kind = mx_name_lookup (kinds, 4, tok), dot = kind == 1 || kind == 3, sat = 0;
    if (kind < 0) {
      fprintf (stderr, "%s:%d: expected 'conv', 'dot', 'conv-spec' or 'dot-spec'\n", file, ln);
      fclose (fp);
      return 2;
    }
    const mx_format *fm = (tok = strtok_r (NULL, " \t\n", &p)) ? mx_format_by_name (tok) : NULL;
    int f = -1;
    for (int i = 0; i < NF && fm; i++)
      if (fm->id == fmt_ids[i])
        f = i;
    if (f < 0 || (kind >= 2 && f >= 2)) {
      fprintf (stderr, "%s:%d: expected a format: e4m3 e5m2%s\n", file, ln,
               kind >= 2 ? "" : " e2m3 e3m2 e2m1");
      fclose (fp);
      return 2;
    }
    if (kind == 2) {
      tok = strtok_r (NULL, " \t\n", &p);
      if (!tok || (strcmp (tok, "sat=0") && strcmp (tok, "sat=1"))) {
        fprintf (stderr, "%s:%d: expected sat=0 or sat=1\n", file, ln);
        fclose (fp);
        return 2;
      }
      sat = tok[4] == '1';
    }
    uint64_t in1[K], in2[K], g[K + 1], d[K + 1];
    block bl;
    memset (&bl, 0, sizeof bl);
    snprintf (bl.what, sizeof bl.what, "%s:%d", file, ln);
    int bad = dot ? hex_fields (&p, in1, K, 8, file, ln, "codes of A") || expect_bar (&p, file, ln)
                    || hex_fields (&p, in2, K, 8, file, ln, "codes of B") || expect_bar (&p, file, ln)
                    || hex_fields (&p, g, 1, 32, file, ln, "FP32 golden") || expect_bar (&p, file, ln)
                    || (kind == 3 ? hex_fields (&p, d, 1, 1, file, ln, "o_nan, 00 or 01,")
                        : hex_fields (&p, d, 2, 64, file, ln,
                                      "64-bit words of the unit's sum (high, low)"))
                  : hex_fields (&p, in1, K, 16, file, ln, "BF16 inputs") || expect_bar (&p, file, ln)
                    || hex_fields (&p, g, K + 1, 8, file, ln, "golden scale and codes")
                    || expect_bar (&p, file, ln)
                    || hex_fields (&p, d, K + 1, 8, file, ln, "unit's scale and codes");
    if (!bad && strtok_r (NULL, " \t\n", &p)) {
      fprintf (stderr, "%s:%d: expected the end of the line\n", file, ln);
      bad = 1;
    }
    if (bad) {
      fclose (fp);
      return 2;
    }
    int ok;
    char detail[512], now[1024] = "";
    if (kind == 3) { /* dot-spec: the deviation is o_nan for an infinite dot */
      uint32_t out[NF][4], sout[2][4];
      uint8_t nan[2];
      mpfr_t s;
      uint64_t g32;
      for (int i = 0; i < K; i++)
        bl.a[i] = (uint8_t) in1[i], bl.b[i] = (uint8_t) in2[i];
      mxf_dot (bl.a, bl.b, out);
      mxf_dot_spec (sout, nan);
      mpfr_init2 (s, 256);
      golden_dot (s, &g32, f, OCP, bl.a, bl.b);
      mpfr_clear (s);
      snprintf (now, sizeof now, "  now: golden FP32 %08lX, unit o_nan %d\n", (unsigned long) g32,
                nan[f]);
      ok = g32 == g[0] && (g32 & 0x7FFFFFFF) == 0x7F800000 && nan[f] == d[0];
    } else if (kind == 2) { /* conv-spec: the unit must be the bias-0 model and differ from OCP */
      qout dut, gold, ex, want_g, want_d;
      uint8_t scale[NF], codes[NF][K], sscale[4], scodes[4][K];
      int v = 2 * f + 1 - sat;
      for (int i = 0; i < K; i++)
        bl.x[i] = (uint16_t) in1[i];
      for (int c = 0; c < CONV_LATENCY; c++)
        mxf_conv_clock (bl.x, scale, codes); /* hold the block until it reaches the output */
      mxf_conv_spec (sscale, scodes);
      dut.scale = sscale[v];
      memcpy (dut.codes, scodes[v], K);
      want_g.scale = (uint8_t) g[0], want_d.scale = (uint8_t) d[0];
      for (int i = 0; i < K; i++)
        want_g.codes[i] = (uint8_t) g[i + 1], want_d.codes[i] = (uint8_t) d[i + 1];
      spec_quantize (&gold, v, 1, bl.x);
      spec_quantize (&ex, v, 0, bl.x);
      print_codes (now, sizeof now / 2, "golden", &gold);
      print_codes (now + strlen (now), sizeof now / 2, "unit", &dut);
      ok = qsame (&gold, &want_g) && qsame (&dut, &want_d) && !qsame (&dut, &gold)
           && qsame (&dut, &ex);
    } else if (dot) {
      uint32_t out[NF][4], w[4] = { (uint32_t) d[1], (uint32_t) (d[1] >> 32), (uint32_t) d[0],
                                    (uint32_t) (d[0] >> 32) };
      mpfr_t s;
      uint64_t g32;
      for (int i = 0; i < K; i++)
        bl.a[i] = (uint8_t) in1[i], bl.b[i] = (uint8_t) in2[i];
      mxf_dot (bl.a, bl.b, out);
      mpfr_init2 (s, 256);
      golden_dot (s, &g32, f, OCP, bl.a, bl.b);
      mpfr_clear (s);
      snprintf (now, sizeof now, "  now: golden FP32 %08lX, unit %08X%08X%08X%08X\n",
                (unsigned long) g32, out[f][3], out[f][2], out[f][1], out[f][0]);
      ok = g32 == g[0] && !memcmp (out[f], w, sizeof w)
           && dot_differs (f, OCP, &bl, w, detail, sizeof detail)
           && !dot_differs (f, NOSPEC, &bl, w, detail, sizeof detail);
    } else {
      qout dut, gold, want_g, want_d;
      uint8_t scale[NF], codes[NF][K];
      for (int i = 0; i < K; i++)
        bl.x[i] = (uint16_t) in1[i];
      mxf_conv_clock (bl.x, scale, codes);
      for (int c = 1; c < CONV_LATENCY; c++)
        mxf_conv_clock (bl.x, scale, codes); /* hold the block until it reaches the output */
      dut.scale = scale[f];
      memcpy (dut.codes, codes[f], K);
      want_g.scale = (uint8_t) g[0], want_d.scale = (uint8_t) d[0];
      for (int i = 0; i < K; i++)
        want_g.codes[i] = (uint8_t) g[i + 1], want_d.codes[i] = (uint8_t) d[i + 1];
      quantize (&gold, f, OCP, bl.x);
      print_codes (now, sizeof now / 2, "golden", &gold);
      print_codes (now + strlen (now), sizeof now / 2, "unit", &dut);
      ok = qsame (&gold, &want_g) && qsame (&dut, &want_d) && !qsame (&dut, &gold)
           && conv_deviation (f, &dut, &gold, bl.x) != 0;
    }
    if (ok)
      deviated[f][0]++;
    else {
      failed[f]++;
      printf ("REPRO %s:%d no longer reproduces: the answers changed, are equal, or the unit is not\n"
              "the nospec model\n%s", file, ln, now);
    }
  }
  if (ferror (fp)) {
    fprintf (stderr, "harness: %s: read error\n", file);
    fclose (fp);
    return 2;
  }
  fclose (fp);
  long r = 0, bad = 0;
  for (int f = 0; f < NF; f++)
    r += deviated[f][0], bad += failed[f];
  printf ("%s: %ld reproduced, %ld no longer reproduce\n", file, r, bad);
  return bad ? 1 : 0;
}

/*------------------------------------------------------------------- main -*/
static void usage (FILE *o)
{
  fprintf (o,
           "usage: harness --unit conv|dot|conv-spec|dot-spec [--format F|all] [--model ocp|nospec]\n"
           "               [--random N] [--seed S] [--directed] [--errors N] [--quiet] [--sabotage]\n"
           "       harness --repro FILE\n"
           "Co-simulates ebby-s/MX-for-FPGA conv_bf16tomxfp / dot_fp (k 32, freq_mhz 400) against\n"
           "libmxgold, and the FP8 _spec variants (E4M3, E5M2; --model ocp).\n"
           "Formats: e4m3 e5m2 e2m3 e3m2 e2m1.  --model nospec reads E4M3/E5M2 without\n"
           "NaN/Inf.  Ends with 'N passed, M failed, D documented deviations'; exit 0 when M is 0.\n");
}

static void set_policy (mx_policy *p, const char *field, const char *value)
{
  int f = mx_policy_field_parse (field);
  long v;
  if (f < 0 || mx_policy_value_parse (&v, (mx_policy_field) f, value)
      || mx_policy_set (p, (mx_policy_field) f, v)) {
    fprintf (stderr, "harness: libmxgold has no policy %s=%s\n", field, value);
    exit (2);
  }
}

static long number (const char *opt, const char *s, unsigned long long hi)
{
  unsigned long long v;
  if (mx_parse_uint (&v, s, 10, 0, hi)) {
    fprintf (stderr, "harness: %s expects a decimal number 0..%llu, not '%s'\n", opt, hi, s);
    exit (2);
  }
  return (long) v;
}

int main (int argc, char **argv)
{
  static const struct option lo[] = {
    { "unit", 1, 0, 'u' }, { "format", 1, 0, 'f' }, { "model", 1, 0, 'm' },
    { "random", 1, 0, 'r' }, { "seed", 1, 0, 's' }, { "directed", 0, 0, 'd' },
    { "errors", 1, 0, 'e' }, { "quiet", 0, 0, 'q' }, { "repro", 1, 0, 'R' },
    { "sabotage", 0, 0, 'S' }, { "help", 0, 0, 'h' }, { 0, 0, 0, 0 }
  };
  const char *unit = NULL, *format = "all", *repro = NULL;
  long nrandom = 0;
  int directed = 0;
  int c;
  while ((c = getopt_long (argc, argv, "", lo, NULL)) != -1)
    switch (c) {
    case 'u': unit = optarg; break;
    case 'f': format = optarg; break;
    case 'm':
      if (strcmp (optarg, "ocp") && strcmp (optarg, "nospec")) {
        fprintf (stderr, "harness: --model expects ocp or nospec, not '%s'\n", optarg);
        return 2;
      }
      model = !strcmp (optarg, "nospec") ? NOSPEC : OCP;
      break;
    case 'r': nrandom = number ("--random", optarg, 1000000000); break;
    case 's': gen.s = (uint64_t) number ("--seed", optarg, 1000000000); break;
    case 'd': directed = 1; break;
    case 'e': max_errors = (int) number ("--errors", optarg, 100000); break;
    case 'q': quiet = 1; break;
    case 'R': repro = optarg; break;
    case 'S': sabotage = 1; break;
    case 'h': usage (stdout); return 0;
    default: usage (stderr); return 2;
    }
  static const char *const units[] = { "conv", "dot", "conv-spec", "dot-spec" };
  int u = unit ? mx_name_lookup (units, 4, unit) : -1;
  if (optind < argc || (!repro && u < 0)) {
    fprintf (stderr, "harness: expected --unit conv|dot|conv-spec|dot-spec or --repro FILE, and "
             "no operands\n");
    usage (stderr);
    return 2;
  }
  unit_dot = u == 1 || u == 3;
  spec = u >= 2;
  if (spec && model != OCP) {
    fprintf (stderr, "harness: --unit %s takes --model ocp only\n", unit);
    return 2;
  }
  bf16 = mx_format_get (MX_BF16), fp32 = mx_format_get (MX_FP32), e8m0 = mx_format_get (MX_E8M0);
  pol = mx_policy_ocp ();
  pol_ieee = mx_policy_ieee ();
  for (int sat = 0; sat < 2; sat++) {
    pol_ocp_sat[sat] = pol_spec[sat] = pol;
    set_policy (&pol_ocp_sat[sat], "overflow", sat ? "sat" : "ovf");
    set_policy (&pol_spec[sat], "overflow", sat ? "sat" : "ovf");
    set_policy (&pol_spec[sat], "nan-block", "ignore");
    set_policy (&pol_spec[sat], "inf-block", sat ? "sat" : "pass");
    set_policy (&pol_spec[sat], "nan-code", "ones");
  }
  dpol = mx_dot_policy_default (); /* accum exact */
  for (int f = 0; f < NF; f++) {
    const mx_format *o = mx_format_get (fmt_ids[f]);
    elem[OCP][f] = o;
    if (mx_format_custom (&nospec[f], 1, o->ebits, o->mbits, o->bias, MX_SPECIAL_NONE)) {
      fprintf (stderr, "harness: mx_format_custom failed\n");
      return 2;
    }
    elem[NOSPEC][f] = o->special == MX_SPECIAL_NONE ? o : &nospec[f];
    fmt_on[f] = (!strcmp (format, "all") || !strcmp (format, o->name)) && (!spec || f < 2);
    if (f < 2 && mx_format_custom (&bias0[f], 1, o->ebits, o->mbits, 0, o->special)) {
      fprintf (stderr, "harness: mx_format_custom failed\n");
      return 2;
    }
  }
  int any = 0;
  for (int f = 0; f < NF; f++)
    any |= fmt_on[f];
  if (!any) {
    fprintf (stderr, "harness: --format expects all, e4m3, e5m2%s, not '%s'\n",
             spec ? " (the _spec units)" : ", e2m3, e3m2 or e2m1", format);
    return 2;
  }
  if (mxf_open ())
    return 2;
  if (repro) {
    int rc = run_repro (repro);
    mxf_close ();
    return rc;
  }
  clock_t t0 = clock ();
  run (directed, nrandom);
  double sec = (double) (clock () - t0) / CLOCKS_PER_SEC;
  mxf_close ();
  long np = 0, nf = 0, nd = 0;
  for (int v = 0; v < (unit_dot ? 2 : 4) && spec; v++) {
    int f = unit_dot ? v : v / 2;
    if (!fmt_on[f])
      continue;
    long d = 0;
    for (int k = 1; k < 6; k++)
      d += sp_deviated[v][k];
    np += sp_passed[v], nf += sp_failed[v], nd += d;
    if (quiet)
      continue;
    printf ("%s %s", unit, elem[OCP][f]->name);
    if (!unit_dot)
      printf (" sat=%d", 1 - v % 2);
    printf (" (ocp): %ld passed, %ld failed, %ld documented deviations\n", sp_passed[v],
            sp_failed[v], d);
    for (int k = 1; k < 6; k++)
      if (sp_deviated[v][k])
        printf ("  %ld x %s\n", sp_deviated[v][k], dev_name[k]);
  }
  for (int f = 0; f < NF && !spec; f++) {
    if (!fmt_on[f])
      continue;
    long d = deviated[f][1] + deviated[f][2] + deviated[f][3];
    np += passed[f], nf += failed[f], nd += d;
    if (!quiet)
      printf ("%s %s (%s): %ld passed, %ld failed, %ld documented deviations\n", unit,
              elem[OCP][f]->name, model == OCP ? "ocp" : "nospec", passed[f], failed[f], d);
    for (int k = 1; k < 4; k++)
      if (deviated[f][k] && !quiet)
        printf ("  %ld x %s\n", deviated[f][k], dev_name[k]);
  }
  printf ("%ld passed, %ld failed, %ld documented deviations (%.1f s)\n", np, nf, nd, sec);
  return nf ? 1 : 0;
}
