/* mxsim -- co-simulation of the RTL MX units (rtl/) against libmxgold, from C.
 *   mxsim --vectors FILE           stream a quantize or dot .mxv file through the DUT and compare
 *                                  every output bit with the file's expected fields
 *   mxsim --unit quantize|mac --random N [--format F|all] [--seed S]
 *                                  seeded random blocks; libmxgold computes the expected results
 *                                  (mac: random dots of 1-4 blocks over the three accumulation
 *                                  models, exact, block-fp32 and fused-group (G 8 and 16 mostly,
 *                                  also 1 2 4 32), FP32 and BF16 results, every deterministic
 *                                  rounding; result bits and flags compared)
 *   --accum exact|block-fp32|fused-group
 *                                  mac: random dots of that model only (its co-simulation rate)
 *   --rule R                       quantize: random blocks of that scale rule only
 *   --stalls P                     random valid/ready stalls (P percent on each side); a
 *                                  scoreboard proves no result is lost, duplicated or reordered
 *   --trace FILE.fst               waveforms      --coverage FILE  write coverage (mxsim-cov)
 *   --errors N (first N mismatches decoded, *10)  --quiet
 *   --threads N                    --random: threads that draw the beats and run the golden model,
 *                                  a batch ahead of the DUT (default: online CPUs)
 * Ends with 'N passed, M failed'; exit 0 all passed, 1 any mismatch, 2 bad usage or input,
 * 77 a vector file this RTL does not implement (policy, block size, format).
 * SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mxvec.h"
#include "shim.h"
#include "qpol.h"

#define K SIM_K
#define SR_BITS 16
#define QCAP 64
#define MAXNB 4 /* blocks of a random dot */

/* One beat: DUT inputs plus the expected output. */
typedef struct
{
  /* quantize */
  uint32_t lanes[K], rbits[K];
  int bf16, fmt, rnd, rule;
  uint64_t pol;   /* the policy word (qpol.h) */
  uint8_t exp_scale, exp_codes[K], exp_flags;
  /* mac */
  uint8_t sa, sb, a[K], b[K];
  int fa, fb, clear, accum, glog, obf16;   /* glog: fused-group G = 2^glog */
  uint32_t cin, exp_acc;             /* and exp_flags */
  /* where it came from: a vector file's line (where), or random block or dot id (where empty;
   * report spells it out: a mismatch is rare, a random beat is not) */
  long id;
  int blk; /* a random dot's block */
  char where[96];
} beat;

/* What the golden model is asked for at once: one quantize beat, or one random dot (a beat per
 * block, each expecting mx_dot of the blocks so far). */
typedef struct
{
  int mac, nbeats;
  beat b[MAXNB];
  uint64_t sa[MAXNB], sb[MAXNB], a[MAXNB * K], bb[MAXNB * K]; /* mac: the dot's inputs */
  int nan_model; /* mac: a model the RTL does not implement: every beat NaN, invalid */
} job;

typedef struct
{
  int unit;           /* 0 quantize, 1 mac */
  int accum_sel;      /* --accum: the one model of the random dots, or -1 for all three */
  int rule_sel;       /* --rule: the one scale rule of the random quantize blocks, or -1 */
  int stall_pct;
  long errors_max, passed, failed, beats_in, beats_out;
  int quiet;
  mxv_rng rng;        /* the random beats' inputs (drawn by whichever thread does the golden model) */
  mxv_rng stall_rng;  /* the valid/ready stalls (the main thread, as it clocks the DUT) */
  dut *d;
  beat q[QCAP];       /* the scoreboard: expected results in order */
  int qh, qn;
  long mac_beats[4][2];  /* mac beats compared, by [block-fp32, exact, fused-group, other]
                            [BF16 result] */
} sim;

/* The element formats the RTL implements: those of at most 8 bits, by their table id (the RTL's
 * MX_FMT_* numbers in rtl/mx_pkg.svh). */
static int elems[MX_FORMAT_COUNT], nelems;

static void
find_elems (void)
{
  for (int i = 0; i < MX_FORMAT_COUNT; i++)
    if (mx_format_get ((mx_format_id) i)->role == MX_ROLE_ELEM && mx_format_get ((mx_format_id) i)->bits <= 8)
      elems[nelems++] = i;
}

static int
rtl_format (const mx_format *f)
{
  for (int i = 0; i < nelems; i++)
    if (f == mx_format_get ((mx_format_id) elems[i]))
      return elems[i];
  return -1;
}

/* The scale rules mx_quantize implements (mx_scale.sv, mx_scale_search.sv: every rule of
 * policies.def); any other rule_i value gives the NaN scale, codes 0 and INVALID. */
static int
rtl_rule (int rule)
{
  switch (rule)
    {
    case MX_SCALE_FLOOR: case MX_SCALE_CEIL: case MX_SCALE_EVEN: case MX_SCALE_RCEIL:
    case MX_SCALE_RCEIL_FP32: case MX_SCALE_FLOOR_LOG2F: case MX_SCALE_FLOOR_LOG2_INPUT:
    case MX_SCALE_RCEIL_LOG2F: case MX_SCALE_CEIL_LOG2_INPUT: case MX_SCALE_EVEN_FP32:
    case MX_SCALE_MIN_MSE: case MX_SCALE_MIN_MAXERR:
      return 1;
    default:
      return 0;
    }
}

static const char *
rule_name (int rule)
{
  const mx_policy_field_desc *d = mx_policy_field_get (MX_POLICY_SCALE_RULE);
  return rule >= 0 && rule < d->nvalues ? d->values[rule] : "(none)";
}

static const char *
fmt_name (int id)
{
  return mx_format_get ((mx_format_id) id)->name;
}

static uint8_t
code_mask (int id)
{
  return (uint8_t) ((1u << mx_format_get ((mx_format_id) id)->bits) - 1);
}

/* The policy word's fields as " name=value", OCP-strict ones left out; a value the row does not
 * name as a number. */
static const char *
pol_text (char *buf, size_t n, uint64_t w)
{
  size_t len = 0;
  buf[0] = 0;
  for (int i = 0; i < MX_QPOL_COUNT && len < n; i++)
    {
      const mx_policy_field_desc *d = mx_policy_field_get (mx_qpol_fields[i]);
      long v = mx_qpol_field (w, i);
      if (v == d->ocp)
        continue;
      int r = d->nvalues > 0 && v < d->nvalues
              ? snprintf (buf + len, n - len, " %s=%s", d->name, d->values[v])
              : snprintf (buf + len, n - len, d->base == 16 ? " %s=%02lX" : " %s=%ld", d->name, v);
      len += r > 0 ? (size_t) r : 0;
    }
  return buf;
}

/*---------------------------------------------------------------- compare -*/
static void
report (sim *s, const beat *e, const uint8_t *scale, const uint8_t *codes, const uint8_t *flags,
        uint32_t acc)
{
  s->failed++;
  if (s->errors_max && s->failed > s->errors_max)
    return;
  char where[96];
  if (e->where[0])
    snprintf (where, sizeof where, "%s", e->where);
  else if (s->unit == 0)
    snprintf (where, sizeof where, "random block %ld", e->id);
  else
    snprintf (where, sizeof where, "random dot %ld block %d", e->id, e->blk);
  if (s->unit == 0)
    {
      char pt[512];
      printf ("MISMATCH %s: %s rnd %s rule %s%s%s\n  in:", where, fmt_name (e->fmt),
              mx_rounding_name ((mx_rounding) e->rnd), rule_name (e->rule),
              pol_text (pt, sizeof pt, e->pol), e->bf16 ? " bf16" : "");
      for (int i = 0; i < K; i++)
        printf (" %08X", e->lanes[i]);
      printf ("\n  dut:    scale %02X flags %02X codes", *scale, *flags);
      for (int i = 0; i < K; i++)
        printf (" %02X", codes[i]);
      printf ("\n  golden: scale %02X flags %02X codes", e->exp_scale, e->exp_flags);
      for (int i = 0; i < K; i++)
        printf (" %02X", e->exp_codes[i]);
      printf ("\n  differs:");
      if (*scale != e->exp_scale)
        printf (" scale");
      if (*flags != e->exp_flags)
        printf (" flags");
      for (int i = 0; i < K; i++)
        if (codes[i] != e->exp_codes[i])
          printf (" code[%d]", i);
      printf ("\n");
    }
  else
    {
      printf ("MISMATCH %s: %s x %s accum %s group %d out %s rnd %s clear %d cin %08X\n  A %02X:",
              where, fmt_name (e->fa), fmt_name (e->fb), mx_accum_name ((mx_accum) e->accum),
              1 << e->glog, e->obf16 ? "bf16" : "fp32", mx_rounding_name ((mx_rounding) e->rnd), e->clear,
              e->cin, e->sa);
      for (int i = 0; i < K; i++)
        printf (" %02X", e->a[i]);
      printf ("\n  B %02X:", e->sb);
      for (int i = 0; i < K; i++)
        printf (" %02X", e->b[i]);
      printf ("\n  dut acc %08X flags %02X, golden %08X flags %02X\n", acc, *flags, e->exp_acc,
              e->exp_flags);
    }
}

static void
check_output (sim *s)
{
  uint8_t scale = 0, codes[K], flags = 0;
  uint32_t acc = 0;
  if (s->qn == 0)
    {
      s->failed++;
      printf ("SCOREBOARD: an output with no input waiting for it (duplicated?)\n");
      return;
    }
  beat *e = &s->q[s->qh];
  s->qh = (s->qh + 1) % QCAP;
  s->qn--;
  s->beats_out++;
  int ok;
  if (s->unit == 0)
    {
      q_get_out (s->d, &scale, codes, &flags);
      ok = scale == e->exp_scale && flags == e->exp_flags && memcmp (codes, e->exp_codes, K) == 0;
    }
  else
    {
      acc = m_get_out (s->d, &flags);
      ok = acc == e->exp_acc && flags == e->exp_flags;
      s->mac_beats[e->accum == MX_ACCUM_EXACT ? 1 : e->accum == MX_ACCUM_BLOCK_FP32 ? 0
                   : e->accum == MX_ACCUM_FUSED_GROUP && (1 << e->glog) <= K ? 2 : 3][e->obf16]++;
    }
  if (ok)
    s->passed++;
  else
    report (s, e, &scale, codes, &flags, acc);
}

/* Drop in_valid on either unit. */
static void
idle_inputs (sim *s)
{
  static const uint8_t z8[K];
  static const uint32_t z32[K];
  if (s->unit == 0)
    q_set_in (s->d, 0, z32, 0, 0, 0, 0, 0, z32);
  else
    m_set_in (s->d, 0, 0, z8, 0, 0, z8, 0, 0, 0, 0, 0, 0, 0);
}

/* Run one beat through the DUT: present it (after random input stalls), and clock until it is
 * accepted, checking every output that comes out meanwhile. */
static void
cycle (sim *s, const beat *b)
{
  for (;;)
    {
      int present = b && (s->stall_pct == 0 || (int) (mxv_rng_next (&s->stall_rng) % 100) >= s->stall_pct);
      int ready = s->stall_pct == 0 || (int) (mxv_rng_next (&s->stall_rng) % 100) >= s->stall_pct;
      if (!b)
        idle_inputs (s);
      else if (s->unit == 0)
        q_set_in (s->d, present, b->lanes, b->bf16, b->fmt, b->rnd, b->rule, b->pol, b->rbits);
      else
        m_set_in (s->d, present, b->sa, b->a, b->fa, b->sb, b->b, b->fb, b->clear, b->cin, b->rnd,
                  b->accum, b->glog, b->obf16);
      dut_set_out_ready (s->d, ready);
      dut_eval (s->d);
      if (dut_out_valid (s->d) && ready)
        check_output (s);
      int accepted = present && dut_in_ready (s->d);
      if (accepted)
        {
          if (s->qn == QCAP)
            {
              fprintf (stderr, "mxsim: scoreboard overflow\n");
              exit (2);
            }
          s->q[(s->qh + s->qn) % QCAP] = *b;
          s->qn++;
          s->beats_in++;
        }
      dut_tick (s->d);
      if (accepted || !b)
        return;
    }
}

static void
drain (sim *s)
{
  for (int i = 0; i < 256 && s->qn > 0; i++) /* a fused-group beat of G = 1 takes K/2 cycles */
    {
      int ready = s->stall_pct == 0 || (int) (mxv_rng_next (&s->stall_rng) % 100) >= s->stall_pct;
      idle_inputs (s);
      dut_set_out_ready (s->d, ready || i > 128);
      dut_eval (s->d);
      if (dut_out_valid (s->d) && (ready || i > 128))
        check_output (s);
      dut_tick (s->d);
    }
  /* nothing may come out after the last expected result */
  dut_set_out_ready (s->d, 1);
  for (int i = 0; i < 8; i++)
    {
      dut_eval (s->d);
      if (dut_out_valid (s->d))
        check_output (s);
      dut_tick (s->d);
    }
  if (s->qn != 0)
    {
      printf ("SCOREBOARD: %d results lost (inputs accepted, no output)\n", s->qn);
      s->failed += s->qn;
    }
}

/*----------------------------------------------------------------- golden -*/
/* the beat's policy; 0 if the RTL refuses it (a rule it does not implement, a field value its
 * row does not name) */
static int
qpolicy (mx_policy *p, const beat *b)
{
  *p = mx_policy_ocp ();
  p->scale_rule = (mx_scale_rule) b->rule;
  p->sr_bits = SR_BITS;
  return rtl_rule (b->rule) && mx_qpol_unpack (p, b->pol);
}

static void
golden_quantize (beat *b)
{
  uint64_t in[K], sc, codes[K];
  for (int i = 0; i < K; i++)
    in[i] = b->bf16 ? (b->lanes[i] & 0xFFFF) : b->lanes[i];
  mx_policy p;
  if (!qpolicy (&p, b))
    {
      /* refused as an unsupported format is */
      b->exp_flags = MX_FLAG_INVALID;
      b->exp_scale = 0xFF;
      memset (b->exp_codes, 0, sizeof b->exp_codes);
      return;
    }
  unsigned fl;
  mx_quantize (&sc, codes, &fl, NULL, mx_format_get ((mx_format_id) b->fmt),
               mx_format_get (MX_E8M0), mx_format_get (b->bf16 ? MX_BF16 : MX_FP32), in, K,
               b->rbits, &p, (mx_rounding) b->rnd);
  b->exp_flags = (uint8_t) fl;
  b->exp_scale = (uint8_t) sc;
  for (int i = 0; i < K; i++)
    b->exp_codes[i] = (uint8_t) codes[i];
}

/* MAC: the expected result and flags after each block of an nb-block dot (bt's model, group,
 * output format and rounding), in out[] and fl[]: mx_dot of every prefix, in one pass. */
static int
golden_mac (uint64_t out[], unsigned fl[], const beat *bt, const uint64_t *sa, const uint64_t *a,
            const uint64_t *sb, const uint64_t *b, size_t nb)
{
  mx_dot_policy dp = mx_dot_policy_default ();
  dp.accum = (mx_accum) bt->accum;
  dp.group = (size_t) 1 << bt->glog;
  return mx_dot_prefix (out, fl, mx_format_get (bt->obf16 ? MX_BF16 : MX_FP32), sa, a,
                        mx_format_get ((mx_format_id) bt->fa), sb, b,
                        mx_format_get ((mx_format_id) bt->fb), mx_format_get (MX_E8M0), K, nb,
                        bt->cin, &dp, (mx_rounding) bt->rnd);
}

/*----------------------------------------------------------------- random -*/
static uint32_t
rand_fp32 (sim *s, int top)
{
  unsigned long long x = mxv_rng_next (&s->rng);
  switch (x % 16)
    {
    case 0: return (uint32_t) (x >> 8) & 0x80000000u;            /* +-0 */
    case 1: return (uint32_t) (x >> 8) & 0x807FFFFFu;            /* FP32 subnormal */
    default:
      {
        int e = top - (int) ((x >> 40) % 30);
        if (e < 1)
          e = 1;
        uint32_t frac = (uint32_t) (x >> 8) & 0x7FFFFF;
        if ((x >> 60) % 4 == 0)
          frac &= 0x7F0000;                                      /* few bits: ties are likely */
        return ((uint32_t) (x >> 63) << 31) | (uint32_t) e << 23 | frac;
      }
    }
}

/* A policy word: half the beats OCP-strict (overflow ovf as given), the others every field of the
 * word drawn, and one beat in 64 of those with a value a field's row does not name. */
static uint64_t
random_policy (sim *s, int ovf, int *drawn)
{
  unsigned long long x = mxv_rng_next (&s->rng);
  *drawn = 0;
  if (x % 2 == 0)
    return (uint64_t) ovf;
  mx_policy p = mx_policy_ocp ();
  for (int i = 0; i < MX_QPOL_COUNT; i++)
    {
      mx_policy_field f = mx_qpol_fields[i];
      const mx_policy_field_desc *d = mx_policy_field_get (f);
      unsigned long long r = mxv_rng_next (&s->rng);
      long v = d->nvalues > 0 ? (long) (r % (unsigned) d->nvalues)
               : r % 4 != 0 ? d->ocp : d->lo + (long) ((r >> 2) % (unsigned long) (d->hi - d->lo + 1));
      mx_policy_set (&p, f, v);
    }
  uint64_t w = mx_qpol_pack (&p);
  if ((x >> 1) % 64 == 0)
    {
      /* a value no row names: the highest code of a field that has spare codes */
      int i = (int) ((x >> 8) % MX_QPOL_COUNT), b = mx_qpol_width (mx_qpol_fields[i]);
      const mx_policy_field_desc *d = mx_policy_field_get (mx_qpol_fields[i]);
      if ((d->nvalues > 0 ? d->nvalues : d->hi + 1) < (1L << b))
        w |= (((uint64_t) 1 << b) - 1) << mx_qpol_lsb (i);
    }
  *drawn = 1;
  return w;
}

static void
random_quantize_beat (sim *s, beat *b, int fmt, long id)
{
  unsigned long long x = mxv_rng_next (&s->rng);
  memset (b, 0, sizeof *b);
  b->fmt = fmt;
  b->rnd = (int) (x % MX_ROUNDING_COUNT);        /* the RTL implements every rounding */
  /* every rule the RTL implements, one beat in 256 of them a search (min-mse, min-maxerr: K + 2
   * cycles each, the rest one; mxsim --rule draws only those), and one in 256 a rule_i it
   * refuses (12..15) */
  static const int rules[] = { MX_SCALE_FLOOR, MX_SCALE_CEIL, MX_SCALE_EVEN, MX_SCALE_RCEIL,
                               MX_SCALE_RCEIL_FP32, MX_SCALE_FLOOR_LOG2F, MX_SCALE_RCEIL_LOG2F,
                               MX_SCALE_FLOOR_LOG2_INPUT, MX_SCALE_CEIL_LOG2_INPUT,
                               MX_SCALE_EVEN_FP32 };
  unsigned long long y = mxv_rng_next (&s->rng);
  b->rule = y % 256 == 0   ? 12 + (int) ((y >> 8) % 4)
            : y % 256 == 1 ? MX_SCALE_MIN_MSE + (int) ((y >> 8) % 2)
                          : rules[(y >> 8) % (sizeof rules / sizeof *rules)];
  if (s->rule_sel >= 0)
    b->rule = s->rule_sel;
  int drawn;
  b->pol = random_policy (s, (x >> 5) & 1, &drawn);
  b->bf16 = (x >> 6) % 8 == 0;
  int top = (int) ((x >> 10) % 256);
  for (int i = 0; i < K; i++)
    {
      b->lanes[i] = rand_fp32 (s, top);
      if (b->bf16)
        b->lanes[i] >>= 16;
      b->rbits[i] = (uint32_t) mxv_rng_next (&s->rng) & 0xFFFF;
    }
  if (b->rule == MX_SCALE_RCEIL_FP32 && !b->bf16 && (x >> 7) % 2 == 0)
    {
      /* rceil-fp32's edge: a largest magnitude whose product with fl32(1/max) lies within about
       * one unit of the 24th bit of a power of two (its rounding decides the scale) */
      const mx_format *f = mx_format_get ((mx_format_id) fmt);
      double mx = f->special == MX_SPECIAL_INT
                  ? ldexp ((double) f->max_mag, -(int) f->mbits)
                  : ldexp ((double) ((f->max_mag & ((1ull << f->mbits) - 1)) | (1ull << f->mbits)),
                           f->emax - (int) f->mbits);
      int ex;
      double m = frexp (1.0 / (double) (float) (1.0 / mx), &ex); /* 2^k / fl32(1/max): m in [0.5, 1) */
      uint32_t sig = (uint32_t) llround (ldexp (m, 24)) + (uint32_t) ((x >> 50) % 3) - 1u;
      int e = 1 + top % 254;
      b->lanes[0] = ((uint32_t) (x >> 62) << 31) | (uint32_t) e << 23 | (sig & 0x7FFFFFu);
    }
  if ((b->rule == MX_SCALE_FLOOR_LOG2F || b->rule == MX_SCALE_FLOOR_LOG2_INPUT
       || b->rule == MX_SCALE_CEIL_LOG2_INPUT)
      && (y >> 12) % 2 == 0)
    {
      /* the log2 rules' edges: a largest magnitude whose fraction lies within 256 units of the
       * top or the bottom of its binade, where the rounded log2 reaches the integer next to it
       * (mx_scale.sv; every FP32 threshold lies there, BF16's are reached anyway) */
      uint32_t d = (uint32_t) (y >> 16) % 256, frac = (y >> 24) & 1 ? 0x7FFFFFu - d : d;
      int e = top < 254 ? top + 1 : 254; /* above rand_fp32's lanes: the block's amax */
      if ((y >> 25) % 8 == 0)
        {
          /* an FP32-subnormal amax, at the top or bottom of binade j of the subnormals, over
           * lanes below it (BF16 lanes keep the subnormals' top 7 bits: j >= 16) */
          int j = b->bf16 ? 16 + (int) ((y >> 28) % 7) : (int) ((y >> 28) % 23);
          uint32_t lo = 1u << j, hi = (lo << 1) - 1;
          e = 0;
          frac = (y >> 24) & 1 ? hi - (d < lo ? d : lo - 1) : lo + (d < lo ? d : lo - 1);
          for (int i = 1; i < K; i++)
            b->lanes[i] &= b->bf16 ? 0x8000u | ((lo - 1) >> 16) : 0x80000000u | (lo - 1);
        }
      b->lanes[0] = ((uint32_t) (y >> 63) << 31) | (uint32_t) e << 23 | frac;
      if (b->bf16)
        b->lanes[0] >>= 16;
    }
  if (b->rule == MX_SCALE_RCEIL_LOG2F && !b->bf16 && (y >> 12) % 2 == 0)
    {
      /* rceil-log2f's edge: amax within 256 units of max's significand, so that q = amax / max
       * lies just above or below a power of two (where log2 q rounds onto it) */
      const mx_format *f = mx_format_get ((mx_format_id) fmt);
      uint32_t sig = f->special == MX_SPECIAL_INT ? (uint32_t) f->max_mag << (23 - 6)
                                                  : (uint32_t) (f->max_mag & ((1u << f->mbits) - 1)) << (23 - f->mbits);
      uint32_t frac = (sig + (uint32_t) ((y >> 16) % 512) - 256u) & 0x7FFFFFu;
      int e = top < 254 ? top + 1 : 254;
      b->lanes[0] = ((uint32_t) (y >> 63) << 31) | (uint32_t) e << 23 | frac;
    }
  if ((x >> 20) % (drawn ? 4 : 64) == 0)
    {
      /* a NaN or Inf now and then, up to three (either sign, any NaN payload) where the
       * special-value policies are drawn */
      int n = drawn ? 1 + (int) ((x >> 44) % 3) : 1;
      for (int j = 0; j < n; j++)
        {
          unsigned long long r = mxv_rng_next (&s->rng);
          uint32_t v = (r >> 8) & 1 ? 0x7F800000u
                                    : 0x7F800000u | (((uint32_t) (r >> 9) & 0x7FFFFFu) | (b->bf16 ? 0x10000u : 1u));
          if (drawn)
            v |= (uint32_t) (r >> 40) & 0x80000000u;
          b->lanes[(r >> 32) % K] = b->bf16 ? v >> 16 : v;
        }
    }
  if ((x >> 26) % 64 == 0) /* an all-zero block */
    for (int i = 0; i < K; i++)
      b->lanes[i] &= b->bf16 ? 0x8000u : 0x80000000u;
  b->id = id;
}

/* A code mask that keeps the sign and the two lowest bits (E5M2: the subnormals 0..3 x 2^-16). */
static uint64_t
low_codes (int fmt)
{
  const mx_format *f = mx_format_get ((mx_format_id) fmt);
  return (f->special == MX_SPECIAL_INT ? 0x80u : 1u << (f->bits - 1)) | 3u;
}

/* C_in close to minus the first group's value (block 0's first g products), so that the first
 * step cancels to a few bits: that value rounded to FP32 (rne), negated and moved by -3..3
 * units in the last place (r).  With low_codes on E5M2 x E5M2 the group's sum is a few units
 * of 2^-32 and the accumulator's bits fall below its lsb (mx_fused_step's far path). */
static uint32_t
cancel_first_group (uint64_t sa, const uint64_t *a, int fa, uint64_t sb, const uint64_t *b,
                    int fb, int g, unsigned long long r)
{
  const mx_format *ga = mx_format_get ((mx_format_id) fa), *gb = mx_format_get ((mx_format_id) fb);
  uint64_t ta[K], tb[K], v;
  unsigned fl;
  for (int i = 0; i < K; i++)
    ta[i] = i < g ? a[i] : 0, tb[i] = i < g ? b[i] : 0;
  mx_dot_policy dp = mx_dot_policy_default ();
  mx_dot (&v, &fl, mx_format_get (MX_FP32), &sa, ta, ga, &sb, tb, gb, mx_format_get (MX_E8M0),
          K, 1, 0, &dp, MX_RNE);
  uint32_t c = (uint32_t) v ^ 0x80000000u;
  long m = (long) (c & 0x7FFFFFFFu) + (long) (r % 7) - 3;
  if ((c & 0x7F800000u) != 0x7F800000u && m >= 0 && m <= 0x7F7FFFFF)
    c = (c & 0x80000000u) | (uint32_t) m;
  return c;
}

/* Random dot c into jb: its inputs, and a beat per block (the golden results come later). */
static void
random_dot (sim *s, job *jb, int fmt_sel, long long c)
{
  unsigned long long x = mxv_rng_next (&s->rng);
  int fa = fmt_sel >= 0 ? fmt_sel : elems[x % (unsigned) nelems];
  int fb = elems[(x >> 3) % (unsigned) nelems];
  size_t nb = 1 + (x >> 6) % 4;
  int rnd = (int) ((x >> 9) % MX_SR); /* the deterministic roundings */
  /* the model: exact, block-fp32 or fused-group, G 8 or 16 (one in four 1, 2, 4 or 32) */
  unsigned long long w = mxv_rng_next (&s->rng);
  int accum = s->accum_sel >= 0 ? s->accum_sel
              : w % 3 == 0 ? MX_ACCUM_EXACT : w % 3 == 1 ? MX_ACCUM_BLOCK_FP32 : MX_ACCUM_FUSED_GROUP;
  static const int glogs[8] = { 3, 4, 3, 4, 3, 4, 0, 0 };
  int glog = glogs[(w >> 8) % 8];
  if (glog == 0)
    glog = (int) ((w >> 12) % 4 == 3 ? 5 : (w >> 12) % 4);
  int obf16 = (x >> 44) % 4 == 0;
  uint64_t *sa = jb->sa, *sb = jb->sb, *a = jb->a, *b = jb->bb;
  uint32_t cin = (x >> 12) % 4 == 0 ? 0 : (uint32_t) mxv_rng_next (&s->rng);
  if ((cin & 0x7F800000u) == 0x7F800000u && (x >> 14) % 8)
    cin &= 0xBFFFFFFFu; /* mostly finite */
  if ((x >> 20) % 64 == 0) /* and now and then +-Inf or a NaN */
    cin = (x >> 26) % 4 == 0 ? 0x7FC00000u : 0x7F800000u | (uint32_t) ((x >> 28) & 1) << 31;
  /* one dot in eight lands near the bottom of FP32 (X_A X_B about 2^-126: subnormal
   * results, underflow) and one in eight near its top (overflow) */
  int range = (int) ((x >> 46) % 8);
  if (range == 0)
    cin &= 0x80FFFFFFu; /* a tiny C_in */
  /* one dot in 32 is all zeros, C_in and every element, with signs chosen so that every
   * product of a block is -0 or every one +0 (or mixed): the sign of an exact zero */
  int zeros = (x >> 30) % 32 == 0;
  /* one dot in eight has a C_in that cancels its first group (cancel_first_group), and one
   * in four of those codes kept to low_codes */
  int cancel = !zeros && (w >> 20) % 8 == 0;
  uint64_t ma = cancel && (w >> 23) % 4 == 0 ? low_codes (fa) : 0xFF;
  uint64_t mb = cancel && (w >> 23) % 4 == 0 ? low_codes (fb) : 0xFF;
  if (zeros)
    cin = (x >> 35) & 1 ? 0x80000000u : 0;
  ma &= code_mask (fa);
  mb &= code_mask (fb);
  for (size_t j = 0; j < nb; j++)
    {
      unsigned long long y = mxv_rng_next (&s->rng);
      sa[j] = y % 16 == 0 ? (y >> 8) % 256 : 0x6F + (y >> 8) % 33;
      sb[j] = (y >> 16) % 16 == 0 ? (y >> 24) % 256 : 0x6F + (y >> 24) % 33;
      if (range < 2)
        {
          /* X_A + X_B = 254 - 126 +- 24, or 254 + 120 +- 24 */
          long sum = (range == 0 ? 128 : 374) + (long) ((y >> 32) % 49) - 24;
          long a0 = sum / 2 + (long) ((y >> 40) % 41) - 20;
          sa[j] = (uint64_t) a0;
          sb[j] = (uint64_t) (sum - a0 > 254 ? 254 : sum - a0);
        }
      for (int i = 0; i < K; i++)
        {
          unsigned long long z = mxv_rng_next (&s->rng);
          a[j * K + (size_t) i] = z & ma;
          b[j * K + (size_t) i] = (z >> 8) & mb;
          if (zeros)
            {
              /* a signed zero code (INT8 has only +0); B's sign is A's xor the block's t */
              const mx_format *ga = mx_format_get ((mx_format_id) fa);
              const mx_format *gb = mx_format_get ((mx_format_id) fb);
              uint64_t za = ga->special == MX_SPECIAL_INT ? 0 : (uint64_t) (z & 1) << (ga->bits - 1);
              int t = (y >> 36) % 4 == 0 ? (int) ((z >> 1) & 1) : (int) ((y >> 38) & 1);
              int nb_ = (za != 0) ^ t;
              a[j * K + (size_t) i] = za;
              b[j * K + (size_t) i] = gb->special == MX_SPECIAL_INT || !nb_ ? 0
                                      : (uint64_t) 1 << (gb->bits - 1);
            }
        }
      if (j >= 1 && (y >> 40) % 4 == 0)
        {
          /* block j cancels block 0: an exact zero, or (exact model) what is left of C_in
           * and the blocks between, however far below block 0 they lie */
          sa[j] = sa[0], sb[j] = sb[0];
          for (int i = 0; i < K; i++)
            {
              a[j * K + (size_t) i] = a[i];
              uint64_t bc = b[i];
              const mx_format *f = mx_format_get ((mx_format_id) fb);
              /* the negation: two's complement for INT, the sign bit otherwise */
              b[j * K + (size_t) i] = f->special == MX_SPECIAL_INT ? (0 - bc) & code_mask (fb)
                                      : bc ^ (1u << (f->bits - 1));
            }
        }
    }
  if (cancel)
    cin = cancel_first_group (sa[0], a, fa, sb[0], b, fb,
                              accum == MX_ACCUM_FUSED_GROUP ? 1 << glog : K, w >> 25);
  jb->mac = 1;
  jb->nbeats = (int) nb;
  for (size_t j = 0; j < nb; j++)
    {
      beat *bt = &jb->b[j];
      memset (bt, 0, sizeof *bt);
      bt->sa = (uint8_t) sa[j], bt->sb = (uint8_t) sb[j], bt->fa = fa, bt->fb = fb;
      for (int i = 0; i < K; i++)
        bt->a[i] = (uint8_t) a[j * K + (size_t) i], bt->b[i] = (uint8_t) b[j * K + (size_t) i];
      bt->clear = j == 0;
      bt->cin = cin;
      bt->rnd = rnd;
      bt->accum = accum;
      bt->glog = glog;
      bt->obf16 = obf16;
      /* now and then a model the RTL does not implement (tensor-core, or fused-group with
       * G = 64 or 128 > K): NaN, invalid (docs/rtl.md) */
      jb->nan_model = s->accum_sel < 0 && (x >> 56) % 64 == 0;
      if (jb->nan_model)
        {
          bt->accum = (x >> 62) & 1 ? MX_ACCUM_TENSOR_CORE : MX_ACCUM_FUSED_GROUP;
          bt->glog = (x >> 62) & 1 ? glog : 6 + (int) ((x >> 61) & 1);
        }
      bt->id = (long) c;
      bt->blk = (int) j;
    }
}

/* Set by a thread whose golden computation was refused (an internal error); the main thread
 * reports it (finish), so that no other thread exits while the DUT runs. */
static atomic_int golden_failed;

/* The expected results of a job (any thread: libmxgold keeps no global state).  A dot's beats
 * expect mx_dot of the blocks so far. */
static void
golden_job (job *jb)
{
  if (!jb->mac)
    {
      golden_quantize (&jb->b[0]);
      return;
    }
  const beat *b0 = &jb->b[0];
  uint64_t out[MAXNB];
  unsigned fl[MAXNB];
  if (!jb->nan_model
      && golden_mac (out, fl, b0, jb->sa, jb->a, jb->sb, jb->bb, (size_t) jb->nbeats) != MX_OK)
    {
      atomic_store (&golden_failed, 1);
      return;
    }
  for (int j = 0; j < jb->nbeats; j++)
    {
      jb->b[j].exp_acc = jb->nan_model ? (b0->obf16 ? 0x7FC0u : 0x7FC00000u) : (uint32_t) out[j];
      jb->b[j].exp_flags = (uint8_t) (jb->nan_model ? MX_FLAG_INVALID : fl[j]);
    }
}

/*------------------------------------------------------------ golden pool -*/
/* The golden model runs ahead of the simulation: while the DUT runs batch n, the pool's threads
 * (and the main thread, once its simulation is done) draw batch n+1 and compute its results.
 * The first thread into a batch draws all of it, in order, from the one seeded generator; each
 * job's results are whole in one thread: what is checked does not depend on the number of
 * threads, and the main thread only clocks the DUT. */
#define BATCH 512
#define CHUNK 8

typedef struct
{
  job *jobs;
  size_t n;
  long long first; /* the number of the batch's first random block or dot */
  int drawn;       /* under pool.mu */
  sim *s;
  int fsel;
  atomic_size_t next, done;
} batch;

static struct
{
  pthread_mutex_t mu;
  pthread_cond_t work, fin;
  batch *cur;
  unsigned long gen;
  int quit;
  int busy; /* threads inside work (): a batch is reused only once none is */
} pool = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, PTHREAD_COND_INITIALIZER,
           NULL, 0, 0, 0 };

/* b's jobs from the generator (under pool.mu: the other threads wait for them). */
static void
draw (batch *b)
{
  sim *s = b->s;
  for (size_t j = 0; j < b->n; j++)
    {
      job *jb = &b->jobs[j];
      long long id = b->first + (long long) j;
      if (s->unit == 0)
        {
          jb->mac = 0;
          jb->nbeats = 1;
          random_quantize_beat (s, &jb->b[0], b->fsel >= 0 ? b->fsel : elems[id % nelems], (long) id);
        }
      else
        random_dot (s, jb, b->fsel, id);
    }
  b->drawn = 1;
}

/* Draw b if no thread has, then take chunks of it until none is left. */
static void
work (batch *b)
{
  pthread_mutex_lock (&pool.mu);
  if (!b->drawn)
    draw (b);
  pthread_mutex_unlock (&pool.mu);
  for (;;)
    {
      size_t i = atomic_fetch_add (&b->next, CHUNK);
      if (i >= b->n)
        return;
      size_t e = i + CHUNK < b->n ? i + CHUNK : b->n;
      for (size_t j = i; j < e; j++)
        golden_job (&b->jobs[j]);
      if (atomic_fetch_add (&b->done, e - i) + (e - i) == b->n)
        {
          pthread_mutex_lock (&pool.mu);
          pthread_cond_broadcast (&pool.fin);
          pthread_mutex_unlock (&pool.mu);
        }
    }
}

static void *
worker (void *arg)
{
  unsigned long seen = 0;
  (void) arg;
  pthread_mutex_lock (&pool.mu);
  for (;;)
    {
      while (pool.gen == seen && !pool.quit)
        pthread_cond_wait (&pool.work, &pool.mu);
      if (pool.quit)
        break;
      seen = pool.gen;
      batch *b = pool.cur;
      pool.busy++;
      pthread_mutex_unlock (&pool.mu);
      work (b);
      pthread_mutex_lock (&pool.mu);
      if (--pool.busy == 0)
        pthread_cond_broadcast (&pool.fin);
    }
  pthread_mutex_unlock (&pool.mu);
  return NULL;
}

/* Hand b (its jobs to draw) to the pool. */
static void
post (batch *b)
{
  atomic_store (&b->done, 0);
  atomic_store (&b->next, 0);
  pthread_mutex_lock (&pool.mu);
  b->drawn = 0;
  pool.cur = b;
  pool.gen++;
  pthread_cond_broadcast (&pool.work);
  pthread_mutex_unlock (&pool.mu);
}

/* Help with b, then wait until all of it is done and no thread is inside work (): a thread
 * late for b must not be in it when b is drawn again. */
static void
finish (batch *b)
{
  work (b);
  pthread_mutex_lock (&pool.mu);
  while (atomic_load (&b->done) < b->n || pool.busy > 0)
    pthread_cond_wait (&pool.fin, &pool.mu);
  pthread_mutex_unlock (&pool.mu);
  if (atomic_load (&golden_failed))
    {
      fprintf (stderr, "mxsim: mx_dot_prefix refused a random dot (internal error)\n");
      exit (2);
    }
}

/* Random mode: n quantize blocks or n dots, drawn in batches, through the DUT. */
static void
run_random (sim *s, long long n, int fsel, int threads)
{
  static batch bt[2];
  pthread_t tid[64];
  int nt = 0;
  for (int i = 0; i < 2; i++)
    if ((bt[i].jobs = malloc (BATCH * sizeof (job))) == NULL)
      {
        fprintf (stderr, "mxsim: out of memory\n");
        exit (2);
      }
  for (; nt < threads - 1; nt++)
    if (pthread_create (&tid[nt], NULL, worker, NULL) != 0)
      break; /* fewer helpers: the main thread does the rest */
  long long drawn = 0;
  int cur = 0;
  bt[1].n = 0;
  for (;;)
    {
      batch *nx = &bt[cur ^ 1];
      nx->n = n - drawn < BATCH ? (size_t) (n - drawn) : BATCH;
      nx->first = drawn, nx->s = s, nx->fsel = fsel;
      drawn += (long long) nx->n;
      if (nx->n)
        post (nx);
      batch *b = &bt[cur];
      for (size_t j = 0; j < b->n; j++)
        for (int i = 0; i < b->jobs[j].nbeats; i++)
          cycle (s, &b->jobs[j].b[i]);
      if (nx->n == 0)
        break;
      finish (nx);
      cur ^= 1;
    }
  pthread_mutex_lock (&pool.mu);
  pool.quit = 1;
  pthread_cond_broadcast (&pool.work);
  pthread_mutex_unlock (&pool.mu);
  for (int i = 0; i < nt; i++)
    pthread_join (tid[i], NULL);
  free (bt[0].jobs);
  free (bt[1].jobs);
}

/*---------------------------------------------------------------- vectors -*/
typedef struct
{
  sim *s;
  long n;
} vctx;


static int
unsupported (const char *file, const char *why)
{
  printf ("mxsim: %s: not implemented by the RTL (%s): skipped\n", file, why);
  return 77;
}

static int
vector_case (void *ctx, const mxv_header *h, mxv_case *c, const char *file, unsigned long line)
{
  vctx *v = ctx;
  sim *s = v->s;
  if (v->n++ == 0)
    {
      /* what the RTL implements: K = 32, E8M0, the policies of its policy word (qpol.h) */
      if (h->k != K || h->scale != mx_format_get (MX_E8M0))
        return unsupported (file, "block size 32 and E8M0 scales only");
      if (h->op == MXV_QUANTIZE)
        {
          if (rtl_format (h->elem) < 0 || (h->in != mx_format_get (MX_FP32) && h->in != mx_format_get (MX_BF16)))
            return unsupported (file, "element or input format");
          if (!rtl_rule ((int) h->pol.scale_rule))
            return unsupported (file, "scale rule");
          if (h->pol.scale_bump != MX_SCALE_BUMP_NONE)
            return unsupported (file, "scale-bump once");
          if (!mx_qpol_outside_ok (&h->pol, h->rnd, SR_BITS))
            return unsupported (file, "sr needs sr-bits 16 and sr-frac trunc");
          s->unit = 0;
        }
      else if (h->op == MXV_DOT)
        {
          if ((h->dp.accum != MX_ACCUM_BLOCK_FP32 && h->dp.accum != MX_ACCUM_EXACT
               && (h->dp.accum != MX_ACCUM_FUSED_GROUP || h->dp.group == 0
                   || (h->dp.group & (h->dp.group - 1)) != 0))
              || (h->out != mx_format_get (MX_FP32) && h->out != mx_format_get (MX_BF16))
              || rtl_format (h->elem) < 0 || rtl_format (h->elem_b ? h->elem_b : h->elem) < 0
              || h->out_rnd == MX_SR)
            return unsupported (file, "exact, block-fp32 or fused-group (G a power of two) "
                                      "accumulation, FP32 or BF16 output, OCP formats only");
          s->unit = 1;
        }
      else
        return unsupported (file, "quantize and dot files only");
      s->d = dut_new (s->unit, getenv ("MXSIM_TRACE"));
      dut_reset (s->d);
    }
  beat b;
  memset (&b, 0, sizeof b);
  b.id = v->n;
  snprintf (b.where, sizeof b.where, "%s:%lu", file, line);
  if (h->op == MXV_QUANTIZE)
    {
      b.fmt = rtl_format (h->elem), b.rnd = h->rnd, b.rule = h->pol.scale_rule;
      b.pol = mx_qpol_pack (&h->pol), b.bf16 = h->in == mx_format_get (MX_BF16);
      for (int i = 0; i < K; i++)
        {
          b.lanes[i] = (uint32_t) c->in[i];
          b.rbits[i] = (uint32_t) c->rbits[i] & 0xFFFF;
          b.exp_codes[i] = (uint8_t) c->codes[i];
        }
      b.exp_scale = (uint8_t) c->scale;
      b.exp_flags = (uint8_t) c->flags;
      cycle (s, &b);
      return 0;
    }
  /* dot: one beat per block; the last beat must equal the file's expected result, the others
   * the golden model's prefix sums */
  int fa = rtl_format (h->elem), fb = rtl_format (h->elem_b ? h->elem_b : h->elem);
  uint64_t *pout = malloc (h->nblocks * sizeof *pout);
  unsigned *pfl = malloc (h->nblocks * sizeof *pfl);
  if (pout == NULL || pfl == NULL)
    {
      free (pout);
      free (pfl);
      fprintf (stderr, "mxsim: out of memory\n");
      return 2;
    }
  for (size_t j = 0; j < h->nblocks; j++)
    {
      b.sa = (uint8_t) c->scale_a[j], b.sb = (uint8_t) c->scale_b[j], b.fa = fa, b.fb = fb;
      for (int i = 0; i < K; i++)
        b.a[i] = (uint8_t) c->codes[j * K + (size_t) i], b.b[i] = (uint8_t) c->codes_b[j * K + (size_t) i];
      b.clear = j == 0;
      b.cin = (uint32_t) c->in[0];
      b.rnd = h->out_rnd;
      b.accum = h->dp.accum;
      for (b.glog = 0; h->dp.accum == MX_ACCUM_FUSED_GROUP && ((size_t) 1 << b.glog) < h->dp.group;)
        b.glog++;
      b.obf16 = h->out == mx_format_get (MX_BF16);
      if (j == 0 && h->nblocks > 1
          && golden_mac (pout, pfl, &b, c->scale_a, c->codes, c->scale_b, c->codes_b,
                         h->nblocks) != MX_OK)
        {
          free (pout);
          free (pfl);
          fprintf (stderr, "mxsim: %s:%lu: mx_dot_prefix refused the case\n", file, line);
          return 2;
        }
      if (j + 1 == h->nblocks)
        b.exp_acc = (uint32_t) c->out[0], b.exp_flags = (uint8_t) c->flags;
      else
        b.exp_acc = (uint32_t) pout[j], b.exp_flags = (uint8_t) pfl[j];
      cycle (s, &b);
    }
  free (pout);
  free (pfl);
  return 0;
}

/*------------------------------------------------------------------- main -*/
static int
bad_option (const char *what, const char *arg)
{
  char q[64];
  fprintf (stderr, "mxsim: %s, not '%s'\n(try 'mxsim --help')\n", what, mxv_quote (q, sizeof q, arg));
  return 2;
}

static void
usage (FILE *o)
{
  fprintf (o, "Usage: mxsim --vectors FILE | --unit quantize|mac --random N [--format F|all]\n"
              "             [--accum exact|block-fp32|fused-group] [--seed S] [--stalls PERCENT]\n"
              "             [--trace FILE.fst] [--coverage FILE] [--errors N] [--quiet] [--bench]\n"
              "             [--threads N] [--rule R]\n"
              "Co-simulates rtl/mx_quantize.sv or rtl/mx_mac.sv against libmxgold; ends with\n"
              "'N passed, M failed' (exit 1 on any mismatch, 77 for an unsupported vector file).\n"
              "--random: --threads threads draw the beats and run the golden model a batch\n"
              "ahead of the DUT (default: every online CPU); the blocks checked do not depend\n"
              "on N.  --stalls draws from a stream of its own: the blocks do not depend on it.\n"
              "--accum (mac): random dots of one accumulation model only (default: all three).\n"
              "--rule (quantize): random blocks of one scale rule only (a policies.def name).\n"
              "Random quantize blocks draw every rule, rounding and (on half of them) every field\n"
              "of the policy word (sim/qpol.h); values the RTL refuses expect the NaN scale.\n");
}

int
main (int argc, char **argv)
{
  static struct option lo[] = {
    { "vectors", 1, 0, 'v' }, { "unit", 1, 0, 'u' }, { "random", 1, 0, 'r' },
    { "format", 1, 0, 'f' }, { "seed", 1, 0, 's' }, { "stalls", 1, 0, 'p' },
    { "trace", 1, 0, 't' }, { "coverage", 1, 0, 'c' }, { "errors", 1, 0, 'e' },
    { "quiet", 0, 0, 'q' }, { "help", 0, 0, 'h' }, { "bench", 0, 0, 'b' },
    { "threads", 1, 0, 'j' }, { "accum", 1, 0, 'a' }, { "rule", 1, 0, 'R' }, { 0, 0, 0, 0 }
  };
  static sim s;
  const char *vectors = NULL, *trace = NULL, *coverage = NULL, *fmt = "all";
  long long nrand = 0;
  unsigned long long x;
  int c, bench = 0;
  long ncpu = sysconf (_SC_NPROCESSORS_ONLN);
  int threads = ncpu < 1 ? 1 : ncpu > 64 ? 64 : (int) ncpu;
  struct timespec t0, t1;
  s.errors_max = 10;
  s.accum_sel = -1;
  s.rule_sel = -1;
  s.rng.s = 1;
  find_elems ();
  while ((c = getopt_long (argc, argv, "", lo, NULL)) != -1)
    switch (c)
      {
      case 'v': vectors = optarg; break;
      case 'u':
        if (strcmp (optarg, "quantize") == 0) s.unit = 0;
        else if (strcmp (optarg, "mac") == 0) s.unit = 1;
        else return bad_option ("--unit is quantize or mac", optarg);
        break;
      case 'r':
        if (mx_parse_uint (&x, optarg, 10, 1, 1000000000000ull) != MX_OK)
          return bad_option ("--random wants a count 1..10^12", optarg);
        nrand = (long long) x;
        break;
      case 'f': fmt = optarg; break;
      case 's':
        if (mx_parse_uint (&x, optarg, 10, 0, ~0ull) != MX_OK)
          return bad_option ("--seed wants an integer", optarg);
        s.rng.s = x;
        break;
      case 'p':
        if (mx_parse_uint (&x, optarg, 10, 0, 90) != MX_OK)
          return bad_option ("--stalls wants a percentage 0..90", optarg);
        s.stall_pct = (int) x;
        break;
      case 't': trace = optarg; break;
      case 'c': coverage = optarg; break;
      case 'e':
        if (mx_parse_uint (&x, optarg, 10, 0, 1000000000) != MX_OK)
          return bad_option ("--errors wants a count (0: all)", optarg);
        s.errors_max = (long) x;
        break;
      case 'a':
        s.accum_sel = mx_accum_parse (optarg);
        if (s.accum_sel != MX_ACCUM_EXACT && s.accum_sel != MX_ACCUM_BLOCK_FP32
            && s.accum_sel != MX_ACCUM_FUSED_GROUP)
          return bad_option ("--accum is exact, block-fp32 or fused-group (the RTL's models)",
                             optarg);
        break;
      case 'R':
        {
          long v;
          if (mx_policy_value_parse (&v, MX_POLICY_SCALE_RULE, optarg) != MX_OK)
            return bad_option ("--rule wants a scale rule of policies.def", optarg);
          s.rule_sel = (int) v;
        }
        break;
      case 'q': s.quiet = 1; break;
      case 'h': usage (stdout); return 0;
      case 'b': bench = 1; break;
      case 'j':
        if (mx_parse_uint (&x, optarg, 10, 1, 64) != MX_OK)
          return bad_option ("--threads wants a count 1..64", optarg);
        threads = (int) x;
        break;
      default: usage (stderr); return 2;
      }
  if (optind < argc || (!vectors && nrand <= 0) || (vectors && nrand))
    {
      usage (stderr);
      return 2;
    }
  s.stall_rng.s = s.rng.s ^ 0x5354414C4C53ull; /* "STALLS": a stream of its own from the seed */
  if (s.accum_sel >= 0 && (vectors || s.unit != 1))
    {
      fprintf (stderr, "mxsim: --accum goes with --unit mac --random\n");
      return 2;
    }
  if (s.rule_sel >= 0 && (vectors || s.unit != 0))
    {
      fprintf (stderr, "mxsim: --rule goes with --unit quantize --random\n");
      return 2;
    }
  int fsel = -1;
  if (strcmp (fmt, "all") != 0)
    {
      const mx_format *f = mx_format_by_name (fmt);
      if (!f || (fsel = rtl_format (f)) < 0)
        {
          char q[64];
          fprintf (stderr, "mxsim: --format wants an element format of at most 8 bits (");
          for (int i = 0; i < nelems; i++)
            fprintf (stderr, "%s ", fmt_name (elems[i]));
          fprintf (stderr, "all), not '%s'\n", mxv_quote (q, sizeof q, fmt));
          return 2;
        }
    }
  clock_gettime (CLOCK_MONOTONIC, &t0);
  if (vectors)
    {
      vctx v = { &s, 0 };
      if (trace)
        setenv ("MXSIM_TRACE", trace, 1);
      int rc = mxv_each_case (vectors, vector_case, &v);
      if (rc != 0)
        {
          if (s.d)
            dut_free (s.d);
          return rc;
        }
      if (!s.d)
        {
          fprintf (stderr, "mxsim: %s has no cases\n", vectors);
          return 2;
        }
    }
  else
    {
      s.d = dut_new (s.unit, trace);
      dut_reset (s.d);
      run_random (&s, nrand, fsel, threads);
    }
  drain (&s);
  clock_gettime (CLOCK_MONOTONIC, &t1);
  if (bench)
    {
      double dt = (double) (t1.tv_sec - t0.tv_sec) + 1e-9 * (double) (t1.tv_nsec - t0.tv_nsec);
      char u[48], rn[32] = ""; /* the keys' unit: quantize, mac, or mac_exact, quantize_min_mse, ... */
      if (s.rule_sel >= 0)
        mx_policy_value_format (rn, sizeof rn, MX_POLICY_SCALE_RULE, s.rule_sel);
      snprintf (u, sizeof u, "%s%s%s%s%s", s.unit ? "mac" : "quantize", s.accum_sel >= 0 ? "_" : "",
                s.accum_sel >= 0 ? mx_accum_name ((mx_accum) s.accum_sel) : "",
                rn[0] ? "_" : "", rn);
      for (char *p = u; *p; p++)
        *p = *p == '-' ? '_' : *p;
      if (vectors)
        threads = 1; /* the file's expected results: no golden model but the prefixes */
      printf ("mx_%s%s%s: %ld blocks (%ld elements) in %.3f s, golden model (%d thread%s) and "
              "comparison included\n", s.unit ? "mac" : "quantize",
              s.accum_sel >= 0 ? ", dots " : "",
              s.accum_sel >= 0 ? mx_accum_name ((mx_accum) s.accum_sel) : "", s.beats_out,
              s.beats_out * K, dt, threads, threads > 1 ? "s" : "");
      printf ("key=value\ncosim_%s_threads=%d\ncosim_%s_blocks_per_s=%.0f\n"
              "cosim_%s_elements_per_s=%.0f\n", u, threads, u,
              (double) s.beats_out / dt, u, (double) (s.beats_out * K) / dt);
    }
  if (coverage && dut_write_coverage (s.d, coverage) != 0)
    fprintf (stderr, "mxsim: this build has no coverage (use mxsim-cov)\n");
  dut_free (s.d);
  if (!s.quiet)
    printf ("mxsim: %ld beats in, %ld out%s\n", s.beats_in, s.beats_out,
            s.stall_pct ? " (with random stalls)" : "");
  if (!s.quiet && s.unit == 1)
    printf ("mxsim: mac beats compared: exact fp32 %ld, exact bf16 %ld, block-fp32 fp32 %ld, "
            "block-fp32 bf16 %ld, fused-group fp32 %ld, fused-group bf16 %ld, unimplemented "
            "models (NaN) %ld\n", s.mac_beats[1][0], s.mac_beats[1][1], s.mac_beats[0][0],
            s.mac_beats[0][1], s.mac_beats[2][0], s.mac_beats[2][1],
            s.mac_beats[3][0] + s.mac_beats[3][1]);
  printf ("%ld passed, %ld failed\n", s.passed, s.failed);
  return s.failed ? 1 : 0;
}
