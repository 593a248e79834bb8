/* sweep -- every FP32 input, every kernel path (issue 18, item 6).
 *
 * For each selected element format x scale rule x rounding and each scale exponent X of a set
 * derived from the format (below), every FP32 pattern v whose magnitude a block with shared
 * exponent X can hold goes through mxk_quantize on every selected path, and every code and every
 * scale byte is compared with the independent integer model of tests/slow.c (no MPFR, nothing
 * shared with libmxgold's arithmetic or with libmxk).
 *
 * How v is put under scale X: blocks of 32, 31 lanes of consecutive FP32 patterns and one anchor
 * lane whose magnitude is A_lo(X) or A_hi(X), the smallest and largest FP32 magnitudes whose
 * block's exponent under the rule is X (found by bisection over the model's s_scale_exponent,
 * clamped to the E8M0 range -127..127 like OCP; above 127 the block is NaN, the pseudo-exponent
 * 128 below).  Every rule is monotone in amax, so a block holds X exactly when its amax lies in
 * [A_lo, A_hi]: "every input under X" is every finite v with |v| <= A_hi(X) (both signs, zeros
 * and FP32 subnormals included).  A larger v cannot be quantized under X by any block: it is
 * skipped under that X and counted as out of range.  Under the largest X of every set A_hi is
 * FP32's largest finite value, so every finite input is checked at least once per format, rule
 * and rounding.  NaN and Inf patterns (all 2^24 of them) make a block NaN whatever else it holds,
 * so they go 31 to a block with an anchor, and the whole block must come back scale 0xFF with
 * codes 0.  The anchor's lane moves through all 32 positions, and its magnitude and sign
 * alternate over +-A_hi and +-A_lo from block to block.
 *
 * The expected codes come from a small integer routine here (fast_code), itself cross-checked on
 * every 256th block of the sweep against s_quantize of tests/slow.c (the whole block: scale
 * exponent from the block's amax, then every code), and against s_encode on 10^6 random
 * (format, rounding, X, v) at start-up; --model slow uses s_quantize for every block.
 *
 * Work units: (format, rule, rounding, X, chunk of 2^K consecutive patterns); shard I/N takes
 * the units u with u mod N == I.  A checkpoint file (written whole to FILE.tmp, then renamed)
 * records the parameters, the next unit and the counts; a rerun with the same parameters resumes
 * from it, other parameters or a damaged file are refused.  Built with -DMX_MPI=ON, rank r of n
 * runs shard I + N*r of N*n (its own checkpoint FILE.rank<r>) and rank 0 prints the sums.
 *
 * The RTL path (issue 19): compiled with -DMX_SWEEP_RTL this file is sweep-rtl
 * (sim/CMakeLists.txt), whose one path "rtl" is the Verilated mx_quantize (rtl/), driven through
 * sim/shim.h: a sweep block of 31 patterns and an anchor is exactly one beat of its 32 lanes,
 * one beat a cycle with out_ready held, the outputs taken as they come out after the pipeline's
 * latency.  The RTL implements more than libmxk, so sweep-rtl also has the scale rules ceil, even,
 * rceil, floor-log2f, rceil-log2f, floor-log2-input (FP32 lanes: floor-log2f), ceil-log2-input
 * and even-fp32
 * and the roundings rnz rhu rhd rto (the fast model has them too; sr is left out: it
 * needs random bits, a second input space).  The block flags the RTL computes are compared with
 * s_quantize's on the cross-checked blocks (every 256th).
 *
 * Exit: 0 complete, no mismatch; 1 a mismatch (the RTL losing or adding a beat counts every lane
 * of its unit); 2 usage, checkpoint or internal error (the model disagreeing with itself); 3
 * stopped early (--limit, SIGINT, SIGTERM), resumable; 77 a path named on the command line is
 * not supported by this CPU.
 * SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "mxvec.h"
#include "slow.h"
#ifdef MX_SWEEP_RTL
#include "shim.h"
#else
#include "mxk.h"
#endif
#ifdef MX_SWEEP_MPI
#include <mpi.h>
#endif

#define XOVF 128 /* the pseudo scale exponent of a block whose exponent exceeds 127: NaN block */
#define MAXS 40  /* scale exponents per (format, rule) */
#define FP32MAX 0x7F7FFFFFu

/* The OCP policy: a zeroed mx_policy is OCP-strict (mx.h); sr_bits is unused here. */
static const mx_policy ocp = { .sr_bits = 16 };

#ifdef MX_SWEEP_RTL
/* what rtl/mx_quantize implements, less sr */
static const mx_rounding all_rnd[] = { MX_RNE, MX_RNA, MX_RNZ, MX_RHU, MX_RHD,
                                       MX_RTZ, MX_RUP, MX_RDN, MX_RTO };
static const mx_scale_rule all_rule[] = { MX_SCALE_FLOOR, MX_SCALE_CEIL, MX_SCALE_EVEN,
                                          MX_SCALE_RCEIL, MX_SCALE_RCEIL_FP32,
                                          MX_SCALE_FLOOR_LOG2F, MX_SCALE_RCEIL_LOG2F,
                                          MX_SCALE_FLOOR_LOG2_INPUT, MX_SCALE_CEIL_LOG2_INPUT,
                                          MX_SCALE_EVEN_FP32 };
static const char *const rule_name[] = { "floor", "ceil", "even", "rceil", "rceil-fp32",
                                         "floor-log2f", "rceil-log2f", "floor-log2-input",
                                         "ceil-log2-input", "even-fp32" };
#define PROG "sweep-rtl"
#else
/* what libmxk's mxk_quantize implements */
static const mx_rounding all_rnd[] = { MX_RNE, MX_RNA, MX_RTZ, MX_RUP, MX_RDN };
static const mx_scale_rule all_rule[] = { MX_SCALE_FLOOR, MX_SCALE_RCEIL_FP32 };
static const char *const rule_name[] = { "floor", "rceil-fp32" };
#define PROG "sweep"
#endif
#define NRND ((int) (sizeof all_rnd / sizeof all_rnd[0]))
#define NRULE ((int) (sizeof all_rule / sizeof all_rule[0]))

/*------------------------------------------------------------ the formats -*/
typedef struct
{
  mx_format_id id;
  const mx_format *f;
  int is_int, mbits, bias, emin, emax, qmin;
  uint32_t maxmag, signbit;
} fparam;

static fparam fmts[MX_FORMAT_COUNT];
static int nfmts;
static const mx_format *FP32, *E8M0;

/* Element formats from the table; everything but the raw fields derived by the slow model. */
static void
init_formats (void)
{
  FP32 = mx_format_get (MX_FP32), E8M0 = mx_format_get (MX_E8M0);
  for (int i = 0; i < MX_FORMAT_COUNT; i++)
    {
      const mx_format *f = mx_format_get ((mx_format_id) i);
      if (f->role != MX_ROLE_ELEM)
        continue;
      fparam *p = &fmts[nfmts++];
      p->id = (mx_format_id) i, p->f = f;
      p->is_int = f->special == MX_SPECIAL_INT;
      p->mbits = (int) f->mbits, p->bias = f->bias;
      p->emin = p->is_int ? -(int) f->mbits : 1 - f->bias; /* INT: the lsb's weight */
      p->emax = s_emax (f);
      p->qmin = p->emin - (p->is_int ? 0 : (int) f->mbits); /* exponent of the smallest step */
      p->maxmag = (uint32_t) s_max_mag (f);
      p->signbit = 1u << (f->bits - 1);
    }
}

/*------------------------------------------------------ the fast model -*/
/* The code of v / 2^X (v an FP32 pattern, finite) in format P under OCP (saturation, zero signs
 * kept, INT8 symmetric), every rounding decided on the integer remainder.  Written apart from
 * libmxk; checked against tests/slow.c as the header says. */
static uint8_t
fast_code (const fparam *P, uint32_t u, int X, mx_rounding rnd)
{
  uint32_t s = u >> 31, e = (u >> 23) & 0xFF, m = u & 0x7FFFFF;
  if (e == 0 && m == 0)
    return (uint8_t) (s && !P->is_int ? P->signbit : 0);
  uint64_t sig = e ? (m | 0x800000u) : m;
  long ex = (long) (e ? e : 1) - 150 - X;     /* |v| / 2^X = sig * 2^ex */
  long E = ex + 63 - __builtin_clzll (sig);    /* floor(log2) */
  uint64_t mag;
  if (E > P->emax + 1)
    mag = (uint64_t) P->maxmag + 1;            /* beyond max whatever the rounding */
  else
    {
      long q = P->is_int ? P->emin : (E > P->emin ? E : P->emin) - P->mbits; /* the step */
      long sh = q - ex;
      uint64_t N, rem = 0, half = 1;
      if (sh <= 0)
        N = sig << -sh;                        /* exact; E <= emax + 1 keeps it small */
      else if (sh >= 40)
        N = 0, rem = 1, half = 2;              /* far below half a step (sig < 2^24) */
      else
        N = sig >> sh, rem = sig & ((1ull << sh) - 1), half = 1ull << (sh - 1);
      int up = 0;
      if (rem)
        switch (rnd)
          {
          case MX_RNE: up = rem > half || (rem == half && (N & 1)); break;
          case MX_RNA: up = rem >= half; break;
          case MX_RNZ: up = rem > half; break;
          case MX_RHU: up = rem > half || (rem == half && !s); break;
          case MX_RHD: up = rem > half || (rem == half && s); break;
          case MX_RUP: up = !s; break;
          case MX_RDN: up = (int) s; break;
          case MX_RTO: up = !(N & 1); break; /* the code's last bit set: N is its low bits */
          default: break; /* rtz */
          }
      N += (uint64_t) up;
      if (P->is_int || E < P->emin)
        mag = N;
      else
        mag = ((uint64_t) (E + P->bias) << P->mbits) + N - (1ull << P->mbits);
    }
  if (mag > P->maxmag)
    mag = P->maxmag;                           /* saturate (OCP) */
  if (P->is_int)
    return (uint8_t) (s ? 0u - (uint32_t) mag : (uint32_t) mag);
  return (uint8_t) (mag | (s ? P->signbit : 0));
}

/* s_encode's code of the same */
static uint8_t
slow_code (const fparam *P, uint32_t u, int X, mx_rounding rnd)
{
  s_val v = s_decode (FP32, u);
  if (v.cls == S_FINITE)
    v.exp -= X;
  unsigned fl;
  return (uint8_t) s_encode (P->f, v, rnd, 0, &ocp, &fl);
}

/* The same for the normal FP32 inputs of one binade at a time: under X, every v of exponent
 * field e has the same step and the same code offset, so a table of 254 rows serves a unit. */
typedef struct
{
  int ovf;           /* every v of the binade is beyond max */
  unsigned sh;       /* the step is 2^sh units of the FP32 ulp (>= 1; 40 and more: all below half) */
  uint32_t base;     /* code of the binade's first step, less 2^mbits */
} binade;

static void
binades (binade *T, const fparam *P, int X)
{
  for (int e = 1; e < 255; e++)
    {
      long ex = (long) e - 150 - X, E = ex + 23;
      binade *t = &T[e];
      t->ovf = E > P->emax + 1;
      long q = P->is_int ? P->emin : (E > P->emin ? E : P->emin) - P->mbits;
      long sh = q - ex;
      if (!t->ovf && sh < 1)
        {
          fprintf (stderr, "sweep: INTERNAL: a step finer than FP32's\n");
          exit (2);
        }
      t->sh = sh > 40 ? 40 : (unsigned) sh;
      t->base = t->ovf || P->is_int || E < P->emin ? 0
                : ((uint32_t) (E + P->bias) << P->mbits) - (1u << P->mbits);
    }
}

static inline __attribute__ ((always_inline)) uint8_t
table_code (const fparam *P, const binade *T, uint32_t u, int X, mx_rounding rnd)
{
  uint32_t e = (u >> 23) & 0xFF, s = u >> 31;
  if (e == 0)
    return fast_code (P, u, X, rnd); /* zeros and FP32 subnormals */
  const binade *t = &T[e];
  uint64_t mag = (uint64_t) P->maxmag + 1;
  if (!t->ovf)
    {
      uint64_t sig = (u & 0x7FFFFFu) | 0x800000u, N = 0, rem = 1, half = 2;
      if (t->sh < 40)
        N = sig >> t->sh, rem = sig & ((1ull << t->sh) - 1), half = 1ull << (t->sh - 1);
      /* branch-free: the rounding is the same for a whole unit, the data are not */
      uint64_t gt = rem > half, eq = rem == half, nz = rem != 0, up;
      up = rnd == MX_RNE   ? gt | (eq & N)
           : rnd == MX_RNA ? gt | eq
           : rnd == MX_RNZ ? gt
           : rnd == MX_RHU ? gt | (eq & (s ^ 1))
           : rnd == MX_RHD ? gt | (eq & s)
           : rnd == MX_RUP ? nz & (s ^ 1)
           : rnd == MX_RDN ? nz & s
           : rnd == MX_RTO ? nz & (N ^ 1)
                           : 0;
      mag = t->base + N + (up & 1);
    }
  mag = mag > P->maxmag ? P->maxmag : mag;
  if (P->is_int)
    return (uint8_t) (s ? 0u - (uint32_t) mag : (uint32_t) mag);
  return (uint8_t) (mag | (s ? P->signbit : 0));
}

/* 32 lanes, the rounding a constant in each copy of the loop */
#define CODES32(R)                                                                                 \
  for (int i = 0; i < 32; i++)                                                                     \
    bc[i] = table_code (P, T, bl[i], X, R);                                                        \
  break;
static void
codes32 (uint8_t *bc, const uint32_t *bl, const fparam *P, const binade *T, int X, mx_rounding rnd)
{
  switch (rnd)
    {
    case MX_RNE: CODES32 (MX_RNE)
    case MX_RNA: CODES32 (MX_RNA)
    case MX_RUP: CODES32 (MX_RUP)
    case MX_RDN: CODES32 (MX_RDN)
#ifdef MX_SWEEP_RTL
    case MX_RNZ: CODES32 (MX_RNZ)
    case MX_RHU: CODES32 (MX_RHU)
    case MX_RHD: CODES32 (MX_RHD)
    case MX_RTO: CODES32 (MX_RTO)
#endif
    default: CODES32 (MX_RTZ)
    }
}
#undef CODES32

/* The model's block exponent for amax pattern a (a positive FP32 magnitude), clamped as OCP's
 * E8M0 clamps it; XOVF above 127. */
static int
rule_x (const fparam *P, mx_scale_rule rule, uint32_t a)
{
  long x = s_scale_exponent (s_decode (FP32, a), P->f, FP32, rule);
  return x < -127 ? -127 : x > 127 ? XOVF : (int) x;
}

/*------------------------------------------------------- the scale set -*/
typedef struct
{
  int X;
  uint32_t alo, ahi; /* anchor magnitudes: the block's exponent is X iff amax in [alo, ahi] */
  char why[160];
} scale;

typedef struct
{
  int fi, ri, ns;
  scale s[MAXS];
} scaleset;

static void
add_reason (scaleset *ss, const fparam *P, int ri, int X, const char *why)
{
  if (X < -127 || X > XOVF)
    return;
  for (int i = 0; i < ss->ns; i++)
    if (ss->s[i].X == X)
      {
        size_t l = strlen (ss->s[i].why);
        snprintf (ss->s[i].why + l, sizeof ss->s[i].why - l, "; %s", why);
        return;
      }
  /* reachable? the smallest a with rule >= X and the largest with rule <= X (bisection: every
   * rule is monotone in amax; checked at the ends below) */
  uint32_t lo = 1, hi = FP32MAX;
  if (rule_x (P, all_rule[ri], hi) < X)
    return;
  while (lo < hi)
    {
      uint32_t mid = lo + (hi - lo) / 2;
      if (rule_x (P, all_rule[ri], mid) >= X)
        hi = mid;
      else
        lo = mid + 1;
    }
  uint32_t alo = lo;
  if (rule_x (P, all_rule[ri], alo) != X)
    return; /* no FP32 amax gives X */
  lo = alo, hi = FP32MAX;
  while (lo < hi)
    {
      uint32_t mid = hi - (hi - lo) / 2;
      if (rule_x (P, all_rule[ri], mid) <= X)
        lo = mid;
      else
        hi = mid - 1;
    }
  if (ss->ns == MAXS)
    {
      fprintf (stderr, "sweep: too many scale exponents\n");
      exit (2);
    }
  scale *s = &ss->s[ss->ns++];
  s->X = X, s->alo = alo, s->ahi = lo;
  snprintf (s->why, sizeof s->why, "%s", why);
  /* the ends of the range, against the model once more */
  if (rule_x (P, all_rule[ri], s->ahi) != X || (s->ahi < FP32MAX && rule_x (P, all_rule[ri], s->ahi + 1) <= X)
      || (s->alo > 1 && rule_x (P, all_rule[ri], s->alo - 1) >= X))
    {
      fprintf (stderr, "sweep: the scale rule is not monotone at X=%d\n", X);
      exit (2);
    }
}

static int
cmp_scale (const void *a, const void *b)
{
  return ((const scale *) a)->X - ((const scale *) b)->X;
}

/* The default set of (format, rule): every exponent where the behaviour of FP32 inputs under X
 * changes, each with its neighbours (docs/kernels.md, "The exhaustive sweep"). */
static void
auto_scales (scaleset *ss, const fparam *P, int ri)
{
  char w[160];
  int top = rule_x (P, all_rule[ri], FP32MAX);
  add_reason (ss, P, ri, -127, "smallest (clamped)");
  add_reason (ss, P, ri, 0, "0");
  if (top == XOVF)
    {
      add_reason (ss, P, ri, 127, "largest");
      add_reason (ss, P, ri, XOVF, "beyond 127: NaN block");
    }
  else
    add_reason (ss, P, ri, top, "largest: amax up to FP32 max");
  add_reason (ss, P, ri, (top == XOVF ? 127 : top) - 1, "next to largest");
  struct { int t; const char *what; } th[] = {
    { -149 - P->qmin, "element step 2^qmin*2^X = FP32's smallest subnormal 2^-149" },
    { -126 - P->qmin, "element step 2^qmin*2^X = FP32's smallest normal 2^-126" },
    { P->is_int ? INT_MIN : -126 - P->emin, "element's smallest normal * 2^X = 2^-126" },
    { 127 - P->emax, "element max's binade * 2^X = FP32 max's binade 2^127" },
  };
  for (size_t i = 0; i < sizeof th / sizeof th[0]; i++)
    for (int d = -1; d <= 1 && th[i].t != INT_MIN; d++)
      {
        snprintf (w, sizeof w, "%s%s", d < 0 ? "below: " : d > 0 ? "above: " : "", th[i].what);
        add_reason (ss, P, ri, th[i].t + d, w);
      }
#ifndef MX_SWEEP_RTL
  /* the kernels' own block-routing threshold (docs/kernels.md: amax below 2^-80 goes through the
   * scalar block routine): the exponents of amax just below and at 2^-80.  The RTL has none. */
  add_reason (ss, P, ri, rule_x (P, all_rule[ri], 0x17800000u - 1), "amax just below 2^-80 (kernel routing)");
  add_reason (ss, P, ri, rule_x (P, all_rule[ri], 0x17800000u), "amax 2^-80 (kernel routing)");
#endif
}

/*------------------------------------------------------------- options -*/
static const char *usage_text =
#ifdef MX_SWEEP_RTL
  "usage: sweep-rtl [options]   (every FP32 input through the Verilated rtl/mx_quantize)\n"
  "  --format F[,F..]|all      element formats (default all)\n"
  "  --rounding R[,R..]|all    rne rna rnz rhu rhd rtz rup rdn rto (default all)\n"
  "  --rule U[,U..]|all        floor ceil even rceil rceil-fp32 floor-log2f rceil-log2f\n"
  "                            floor-log2-input ceil-log2-input even-fp32 (default all)\n"
  "  --path rtl|all            the one path here: rtl (the kernel paths are build/bin/sweep's)\n"
#else
  "usage: sweep [options]\n"
  "  --format F[,F..]|all      element formats (default all)\n"
  "  --rounding R[,R..]|all    rne rna rtz rup rdn (default all)\n"
  "  --rule U[,U..]|all        floor rceil-fp32 (default all)\n"
  "  --path P[,P..]|all        ref generic avx2 avx512 avx512vbmi; all = every path this CPU runs\n"
  "                            (default)\n"
  "                            (rtl, the Verilated RTL, is build/bin/sweep-rtl's)\n"
#endif
  "  --scales auto|X[,X..]     scale exponents -127..128 (128: beyond the E8M0 range, NaN block);\n"
  "                            auto (default) derives the set per format and rule; --list shows it\n"
  "  --shard I/N               the units u with u mod N == I (default 0/1)\n"
  "  --checkpoint FILE         resume from FILE if present; write it atomically as the run goes\n"
  "  --limit COUNT             stop (exit 3, resumable) after COUNT units in this run\n"
  "  --chunk-bits K            2^K consecutive FP32 patterns per unit, 12..24 (default 20)\n"
  "  --model fast|slow         expected codes by the fast routine (s_quantize on every 256th\n"
  "                            block) or by tests/slow.c's s_quantize on every block\n"
  "  --progress SECONDS        progress to stderr every SECONDS (default 10; 0: none)\n"
  "  --list                    print the scale sets and the work, run nothing\n"
  "  --help\n"
  "exit: 0 complete and equal; 1 mismatch; 2 usage/checkpoint/internal error; 3 stopped early\n"
  "(resumable); 77 a named path is not supported here\n";

static void
usage_error (const char *fmt, const char *arg)
{
  fprintf (stderr, PROG ": ");
  fprintf (stderr, fmt, arg);
  fprintf (stderr, "\n%s", usage_text);
  exit (2);
}

/* a decimal number of at most max, digits only */
static int
parse_dec (const char *s, const char *end, uint64_t max, uint64_t *out)
{
  uint64_t v = 0;
  if (s == end)
    return 0;
  for (const char *c = s; c < end; c++)
    {
      if (*c < '0' || *c > '9')
        return 0;
      unsigned d = (unsigned) (*c - '0');
      if (v > (max - d) / 10)
        return 0;
      v = v * 10 + d;
    }
  *out = v;
  return 1;
}

static int
parse_int (const char *s, long lo, long hi, long *out)
{
  int neg = *s == '-';
  uint64_t v;
  if (!parse_dec (s + neg, s + strlen (s), (uint64_t) LONG_MAX, &v))
    return 0;
  long x = neg ? -(long) v : (long) v;
  if (x < lo || x > hi)
    return 0;
  *out = x;
  return 1;
}

/* a comma list of names of table[0..n) (or "all"): a bit mask */
static unsigned
parse_list (const char *arg, const char *what, const char *const *names, int n)
{
  if (strcmp (arg, "all") == 0)
    return (1u << n) - 1;
  unsigned mask = 0;
  const char *p = arg;
  for (;;)
    {
      const char *c = strchr (p, ',');
      size_t l = c ? (size_t) (c - p) : strlen (p);
      int k = -1;
      for (int i = 0; i < n; i++)
        if (strlen (names[i]) == l && strncmp (names[i], p, l) == 0)
          k = i;
      if (k < 0)
        {
          fprintf (stderr, "sweep: unknown %s in '%s'\n", what, arg);
          fprintf (stderr, "%s", usage_text);
          exit (2);
        }
      mask |= 1u << k;
      if (!c)
        break;
      p = c + 1;
    }
  return mask;
}

/*------------------------------------------------------------ the paths -*/
/* A path turns nb blocks of 32 FP32 patterns into nb scale bytes and 32 * nb codes (unpacked)
 * and their block flags (NULL: not computed); 0, or nonzero when it refused or failed. */
#ifdef MX_SWEEP_RTL
#define NPATH 1 /* 0: rtl */
static const char *
path_name (int p)
{
  (void) p;
  return "rtl";
}

static dut *rtl_dut;
static uint8_t *rtl_flags; /* the flags of the blocks of the last rtl_quantize */

/* The blocks through mx_quantize, one beat a cycle, out_ready held (no stalls): the outputs come
 * out in order, the RTL's latency after their inputs; their count is checked. */
static int
rtl_quantize (uint8_t *scales, uint8_t *codes, const uint32_t *in, size_t nb, const fparam *P,
              mx_scale_rule rule, mx_rounding rnd)
{
  static const uint32_t zero[SIM_K];
  static size_t cap;
  if (nb > cap)
    {
      free (rtl_flags);
      cap = nb, rtl_flags = malloc (cap);
      if (!rtl_flags)
        {
          fprintf (stderr, PROG ": out of memory\n");
          exit (2);
        }
    }
  /* the RTL's MX_FMT_* are the table ids of the element formats (rtl/mx_pkg.svh) */
  int fmt = (int) P->id;
  size_t sent = 0, got = 0; /* policy word 0 (sim/qpol.h): OCP-strict, overflow sat */
  for (size_t cyc = 0; got < nb; cyc++)
    {
      int v = sent < nb;
      q_set_in (rtl_dut, v, v ? in + sent * SIM_K : zero, 0, fmt, (int) rnd, (int) rule, 0, zero);
      dut_eval (rtl_dut);
      if (dut_out_valid (rtl_dut))
        q_get_out (rtl_dut, &scales[got], codes + got * SIM_K, &rtl_flags[got]), got++;
      if (v && dut_in_ready (rtl_dut))
        sent++;
      dut_tick (rtl_dut);
      if (cyc > nb + 64)
        {
          fprintf (stderr, PROG ": the RTL lost beats: %zu in, %zu out after %zu cycles\n", sent, got, cyc);
          return 1;
        }
    }
  /* nothing more may come out */
  q_set_in (rtl_dut, 0, zero, 0, fmt, (int) rnd, (int) rule, 0, zero);
  for (int i = 0; i < 8; i++)
    {
      dut_eval (rtl_dut);
      if (dut_out_valid (rtl_dut))
        {
          fprintf (stderr, PROG ": the RTL gave more beats than it was given (%zu)\n", nb);
          return 1;
        }
      dut_tick (rtl_dut);
    }
  return 0;
}

static int
run_path (int p, uint8_t *scales, uint8_t *codes, const uint32_t *in, size_t nb, const fparam *P,
          mx_scale_rule rule, mx_rounding rnd, const uint8_t **flags)
{
  (void) p;
  *flags = rtl_flags;
  return rtl_quantize (scales, codes, in, nb, P, rule, rnd);
}
#else
#define NPATH MXK_PATH_COUNT
static const char *
path_name (int p)
{
  return mxk_path_name ((mxk_path) p);
}

static int
run_path (int p, uint8_t *scales, uint8_t *codes, const uint32_t *in, size_t nb, const fparam *P,
          mx_scale_rule rule, mx_rounding rnd, const uint8_t **flags)
{
  *flags = NULL;
  mxk_use_path ((mxk_path) p);
  return mxk_quantize (scales, codes, in, MX_FP32, nb * 32, P->id, rule, rnd, MX_PACKING_UNPACKED);
}
#endif

/*-------------------------------------------------------------- the run -*/
typedef struct
{
  int fi, ri, mi; /* format, rule, rounding indices */
  scale sc;
} task;

typedef struct
{
  uint64_t units, inputs, specials, anchors, skipped, blocks, mismatches, xchecks;
  uint64_t digest;
  uint64_t model_ns;
  uint64_t path_ns[NPATH], path_lanes[NPATH], path_bad[NPATH];
} counts;
#define NCOUNTS (sizeof (counts) / sizeof (uint64_t))

static task *tasks;
static size_t ntasks;
static int chunk_bits = 20;
static int paths[NPATH];
static int npaths;
static int slow_model;
static volatile sig_atomic_t stop_signal;
static long printed;

static void
on_signal (int sig)
{
  stop_signal = sig;
}

static uint64_t
now_ns (void)
{
  struct timespec t;
  clock_gettime (CLOCK_MONOTONIC, &t);
  return (uint64_t) t.tv_sec * 1000000000u + (uint64_t) t.tv_nsec;
}

static uint64_t
fnv (const void *p, size_t n, uint64_t h)
{
  const unsigned char *c = p;
  for (size_t i = 0; i < n; i++)
    h = (h ^ c[i]) * 0x100000001B3ull;
  return h;
}

/* 64-bit words: fast enough for every expected code of the sweep */
static uint64_t
mix_words (const uint8_t *p, size_t n, uint64_t h)
{
  for (size_t i = 0; i + 8 <= n; i += 8)
    {
      uint64_t w;
      memcpy (&w, p + i, 8);
      h = (h ^ w) * 0x9E3779B97F4A7C15ull;
      h ^= h >> 29;
    }
  return h;
}

static const char *
fname (const task *t)
{
  return fmts[t->fi].f->name;
}

static void
report_block (const task *t, int p, const uint32_t *in, const uint8_t *ks, const uint8_t *kc,
              uint8_t es, const uint8_t *ec, size_t b)
{
  if (printed >= 10)
    return;
  if (ks[b] != es)
    {
      printed++;
      fprintf (stderr, "MISMATCH path %s %s %s %s X=%d: block scale %02X, want %02X; block:",
               path_name (p), fname (t), rule_name[t->ri], mx_rounding_name (all_rnd[t->mi]),
               t->sc.X, ks[b], es);
      for (int i = 0; i < 32; i++)
        fprintf (stderr, " %08X", in[b * 32 + (size_t) i]);
      fputc ('\n', stderr);
    }
  for (int i = 0; i < 32 && printed < 10; i++)
    if (kc[b * 32 + (size_t) i] != ec[b * 32 + (size_t) i])
      {
        uint32_t v = in[b * 32 + (size_t) i];
        float f;
        memcpy (&f, &v, 4);
        printed++;
        fprintf (stderr, "MISMATCH path %s %s %s %s X=%d: v=%08X (%a) block %zu lane %d: code %02X, want %02X\n",
                 path_name (p), fname (t), rule_name[t->ri], mx_rounding_name (all_rnd[t->mi]),
                 t->sc.X, v, (double) f, b, i, kc[b * 32 + (size_t) i], ec[b * 32 + (size_t) i]);
      }
}

/* One work unit: task u / nchunks, patterns of chunk u % nchunks. */
static void
run_unit (uint64_t u, counts *c)
{
  static uint32_t *in;
  static uint8_t *es, *ec, *ks, *kc;
  static int16_t *ef; /* s_quantize's block flags, -1 where not computed */
  static size_t cap;
  uint64_t nchunks = 1ull << (32 - chunk_bits);
  const task *t = &tasks[u / nchunks];
  const fparam *P = &fmts[t->fi];
  mx_rounding rnd = all_rnd[t->mi];
  int X = t->sc.X;
  uint32_t cnt = 1u << chunk_bits;
  uint32_t p0 = (uint32_t) ((u % nchunks) << chunk_bits);
  uint32_t sign = p0 & 0x80000000u, mag0 = p0 & 0x7FFFFFFFu;
  uint64_t last = (uint64_t) mag0 + cnt - 1;
  uint32_t n_in = t->sc.ahi < mag0 ? 0 : (uint32_t) ((last < t->sc.ahi ? last : t->sc.ahi) - mag0 + 1);
  uint32_t sp0 = mag0 > 0x7F800000u ? mag0 : 0x7F800000u;
  uint32_t n_sp = last >= sp0 ? (uint32_t) (last - sp0 + 1) : 0;
  size_t nb_in = (n_in + 30) / 31, nb_sp = (n_sp + 30) / 31, nb = nb_in + nb_sp;
  c->units++;
  c->skipped += cnt - n_in - n_sp;
  if (nb == 0)
    return;
  if (nb > cap)
    {
      free (in), free (es), free (ec), free (ks), free (kc), free (ef);
      cap = nb;
      in = malloc (cap * 32 * 4), es = malloc (cap), ec = malloc (cap * 32);
      ks = malloc (cap), kc = malloc (cap * 32), ef = malloc (cap * sizeof *ef);
      if (!in || !es || !ec || !ks || !kc || !ef)
        {
          fprintf (stderr, "sweep: out of memory\n");
          exit (2);
        }
    }
  /* the anchors: +A_hi, -A_hi, +A_lo, -A_lo */
  uint32_t anc[4] = { t->sc.ahi, t->sc.ahi | 0x80000000u, t->sc.alo, t->sc.alo | 0x80000000u };
  static binade T[256];
  static const task *tT;
  if (tT != t && X != XOVF)
    binades (T, P, X), tT = t;
  uint64_t t0 = now_ns ();
  for (size_t b = 0; b < nb; b++)
    {
      int special = b >= nb_in;
      uint32_t first = special ? sp0 + (uint32_t) (b - nb_in) * 31 : mag0 + (uint32_t) b * 31;
      uint32_t n = special ? n_sp - (uint32_t) (b - nb_in) * 31 : n_in - (uint32_t) b * 31;
      n = n > 31 ? 31 : n;
      int pos = (int) ((b + u) & 31), var = (int) (((b >> 5) + u) & 3);
      uint32_t *bl = in + b * 32;
      uint8_t *bc = ec + b * 32;
      int nan_block = special || X == XOVF;
      for (int i = 0, j = 0; i < 32; i++)
        if (i == pos)
          bl[i] = anc[var];
        else
          bl[i] = j < (int) n ? sign | (first + (uint32_t) j++) : 0; /* padding: +0 */
      if (nan_block)
        memset (bc, 0, 32);
      else
        codes32 (bc, bl, P, T, X, rnd);
      c->anchors++;
      es[b] = nan_block ? 0xFF : (uint8_t) (X + 127);
      if (special)
        c->specials += n;
      else
        c->inputs += n;
      ef[b] = -1;
      /* the independent model: s_quantize of the whole block, on every 256th block (all under
       * --model slow) */
      if (slow_model || ((b + u) & 255) == 0)
        {
          uint64_t bits[32], sc, codes[32];
          for (int i = 0; i < 32; i++)
            bits[i] = bl[i];
          mx_policy pol = ocp;
          pol.scale_rule = all_rule[t->ri];
          ef[b] = (int16_t) s_quantize (&sc, codes, P->f, E8M0, FP32, bits, 32, NULL, &pol, rnd);
          int ok = sc == es[b];
          for (int i = 0; i < 32; i++)
            ok &= codes[i] == bc[i];
          c->xchecks++;
          if (!ok)
            {
              fprintf (stderr, "sweep: INTERNAL: the fast model and s_quantize disagree (%s %s %s X=%d), block:",
                       fname (t), rule_name[t->ri], mx_rounding_name (rnd), X);
              for (int i = 0; i < 32; i++)
                fprintf (stderr, " %08X", bl[i]);
              fprintf (stderr, "\n  scale %02" PRIX64 "/%02X codes:", sc, es[b]);
              for (int i = 0; i < 32; i++)
                fprintf (stderr, " %02" PRIX64 "/%02X", codes[i], bc[i]);
              fputc ('\n', stderr);
              exit (2);
            }
        }
    }
  c->blocks += nb;
  c->model_ns += now_ns () - t0;
  c->digest += mix_words (ec, nb * 32, fnv (es, nb, u * 0x9E3779B97F4A7C15ull + 1));
  for (int p = 0; p < npaths; p++)
    {
      memset (ks, 0xA5, nb), memset (kc, 0xA5, nb * 32);
      const uint8_t *kf;
      uint64_t k0 = now_ns ();
      int rc = run_path (paths[p], ks, kc, in, nb, P, all_rule[t->ri], rnd, &kf);
      c->path_ns[paths[p]] += now_ns () - k0;
      c->path_lanes[paths[p]] += nb * 32;
      if (rc != 0)
        {
          c->mismatches += nb * 32, c->path_bad[paths[p]] += nb * 32;
          if (printed++ < 10)
            fprintf (stderr, "MISMATCH path %s %s %s %s X=%d: the path returned %d\n",
                     path_name (paths[p]), fname (t), rule_name[t->ri], mx_rounding_name (rnd), X, rc);
          continue;
        }
      /* the block flags, where the path gives them, on the blocks s_quantize recomputed */
      for (size_t b = 0; kf && b < nb; b++)
        if (ef[b] >= 0 && kf[b] != ef[b])
          {
            c->mismatches++, c->path_bad[paths[p]]++;
            if (printed++ < 10)
              {
                fprintf (stderr, "MISMATCH path %s %s %s %s X=%d: block %zu flags %02X, want %02X; block:",
                         path_name (paths[p]), fname (t), rule_name[t->ri], mx_rounding_name (rnd), X, b,
                         kf[b], (unsigned) ef[b]);
                for (int i = 0; i < 32; i++)
                  fprintf (stderr, " %08X", in[b * 32 + (size_t) i]);
                fputc ('\n', stderr);
              }
          }
      if (memcmp (ks, es, nb) == 0 && memcmp (kc, ec, nb * 32) == 0)
        continue;
      for (size_t b = 0; b < nb; b++)
        {
          uint64_t bad = ks[b] != es[b];
          for (int i = 0; i < 32; i++)
            bad += kc[b * 32 + (size_t) i] != ec[b * 32 + (size_t) i];
          if (bad)
            {
              c->mismatches += bad, c->path_bad[paths[p]] += bad;
              report_block (t, paths[p], in, ks, kc, es[b], ec, b);
            }
        }
    }
}

/* start-up: fast_code and table_code against s_encode for every format, rounding and X of
 * -127..127, on 128 values each: random patterns, and patterns of the binades around the
 * element's range under X (about 10^6 in all) */
static void
model_selftest (void)
{
  mxv_rng r = { 0x5EED5EEDull };
  long bad = 0;
  static binade T[256];
  for (int fi = 0; fi < nfmts; fi++)
    for (int X = -127; X <= 127; X++)
      {
        const fparam *P = &fmts[fi];
        binades (T, P, X);
        for (int mi = 0; mi < NRND; mi++)
          for (int k = 0; k < 128; k++)
            {
              uint64_t x = mxv_rng_next (&r);
              uint32_t v = (uint32_t) (x >> 32);
              if (k & 1)
                {
                  long e = 127 + X + P->emax + 2 - (long) ((x >> 8) % 40);
                  e = e < 0 ? 0 : e > 254 ? 254 : e;
                  uint32_t m = k & 2 ? (uint32_t) x & 0x7FFFFF : k & 4 ? 0x7FFFFF : (uint32_t) (x & 0x400000);
                  v = (v & 0x80000000u) | (uint32_t) e << 23 | m;
                }
              if (((v >> 23) & 0xFF) == 0xFF)
                continue;
              mx_rounding rnd = all_rnd[mi];
              uint8_t a = fast_code (P, v, X, rnd), b = table_code (P, T, v, X, rnd), w = slow_code (P, v, X, rnd);
              if ((a != w || b != w) && bad++ < 5)
                fprintf (stderr, "sweep: INTERNAL: fast model %02X/%02X, s_encode %02X: %s %s X=%d v=%08X\n",
                         a, b, w, P->f->name, mx_rounding_name (rnd), X, v);
            }
      }
  if (bad)
    exit (2);
}

/*---------------------------------------------------------- checkpoints -*/
static const char *counts_names[] = { "units", "inputs", "specials", "anchors", "skipped",
                                      "blocks", "mismatches", "xchecks", "digest", "model_ns" };

static size_t
ckpt_text (char *buf, size_t cap, const char *params, uint64_t next, const counts *c)
{
  const uint64_t *w = (const uint64_t *) c;
  size_t n = 0;
  n += (size_t) snprintf (buf + n, cap - n, "mxgold-sweep-checkpoint 1\nparams %s\nnext %" PRIu64 "\n",
                          params, next);
  for (size_t i = 0; i < NCOUNTS; i++)
    {
      char name[32];
      if (i < sizeof counts_names / sizeof counts_names[0])
        snprintf (name, sizeof name, "%s", counts_names[i]);
      else
        {
          size_t k = i - sizeof counts_names / sizeof counts_names[0];
          snprintf (name, sizeof name, "%s_%s", k / NPATH == 0 ? "ns" : k / NPATH == 1 ? "lanes" : "bad",
                    path_name ((int) (k % NPATH)));
        }
      n += (size_t) snprintf (buf + n, cap - n, "%s %" PRIu64 "\n", name, w[i]);
    }
  n += (size_t) snprintf (buf + n, cap - n, "end %016" PRIx64 "\n", fnv (buf, n, 0xCBF29CE484222325ull));
  return n;
}

static void
ckpt_write (const char *file, const char *params, uint64_t next, const counts *c)
{
  char buf[8192], tmp[4096];
  size_t n = ckpt_text (buf, sizeof buf, params, next, c);
  if (n >= sizeof buf || (size_t) snprintf (tmp, sizeof tmp, "%s.tmp", file) >= sizeof tmp)
    {
      fprintf (stderr, "sweep: checkpoint too long\n");
      exit (2);
    }
  int fd = open (tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0)
    goto fail;
  for (size_t off = 0; off < n;)
    {
      ssize_t k = write (fd, buf + off, n - off);
      if (k < 0 && errno == EINTR)
        continue;
      if (k <= 0)
        {
          close (fd);
          goto fail;
        }
      off += (size_t) k;
    }
  if (fsync (fd) != 0)
    {
      close (fd);
      goto fail;
    }
  if (close (fd) != 0 || rename (tmp, file) != 0)
    goto fail;
  return;
fail:
  fprintf (stderr, "sweep: cannot write checkpoint %s: %s\n", file, strerror (errno));
  unlink (tmp);
  exit (2);
}

/* 1 resumed, 0 no file; exits 2 on a damaged file or other parameters */
static int
ckpt_read (const char *file, const char *params, uint64_t *next, counts *c)
{
  FILE *f = fopen (file, "rb");
  if (!f)
    {
      if (errno == ENOENT)
        return 0;
      fprintf (stderr, "sweep: cannot read checkpoint %s: %s\n", file, strerror (errno));
      exit (2);
    }
  char buf[8192];
  size_t n = fread (buf, 1, sizeof buf - 1, f);
  int err = ferror (f) || !feof (f);
  fclose (f);
  buf[n] = 0;
  counts got;
  memset (&got, 0, sizeof got);
  uint64_t nx = 0;
  char want[8192];
  /* the file must be exactly what ckpt_text writes for its own numbers */
  const char *pl = strstr (buf, "\nparams ");
  const char *nl = pl ? strstr (pl + 1, "\nnext ") : NULL;
  if (err || memchr (buf, 0, n) || !pl || !nl)
    goto bad;
  if ((size_t) (nl - pl - 8) != strlen (params) || strncmp (pl + 8, params, strlen (params)) != 0)
    {
      fprintf (stderr, "sweep: checkpoint %s was made with other parameters:\n  %.*s\n  now: %s\n"
               "(remove it, or run with its parameters)\n", file, (int) (nl - pl - 8 < 2000 ? nl - pl - 8 : 2000),
               pl + 8, params);
      exit (2);
    }
  {
    const char *p = nl + 6;
    char *end;
    uint64_t *w = (uint64_t *) &got;
    errno = 0;
    if (*p < '0' || *p > '9')
      goto bad;
    nx = strtoull (p, &end, 10);
    if (errno || *end != '\n')
      goto bad;
    p = end + 1;
    for (size_t i = 0; i < NCOUNTS; i++)
      {
        const char *sp = strchr (p, ' ');
        if (!sp || sp[1] < '0' || sp[1] > '9')
          goto bad;
        w[i] = strtoull (sp + 1, &end, 10);
        if (errno || *end != '\n')
          goto bad;
        p = end + 1;
      }
  }
  if (ckpt_text (want, sizeof want, params, nx, &got) != n || memcmp (want, buf, n) != 0)
    goto bad;
  *next = nx, *c = got;
  return 1;
bad:
  fprintf (stderr, "sweep: checkpoint %s is damaged (not what this program writes); remove it to "
           "start over\n", file);
  exit (2);
}

/*------------------------------------------------------------------ main -*/
static double
cpu_seconds (void)
{
  struct timespec t;
  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double) t.tv_sec + (double) t.tv_nsec / 1e9;
}

static void
print_counts (const char *who, const counts *c, uint64_t total_units, double wall, double cpu)
{
  printf ("%s: units %" PRIu64 "/%" PRIu64 "%s; inputs checked %" PRIu64 " (+ %" PRIu64
          " NaN/Inf, %" PRIu64 " anchor lanes), out of range %" PRIu64 ", blocks %" PRIu64
          ", mismatches %" PRIu64 "\n",
          who, c->units, total_units, c->units == total_units ? " (complete)" : " (incomplete)",
          c->inputs, c->specials, c->anchors, c->skipped, c->blocks, c->mismatches);
  for (int p = 0; p < NPATH; p++)
    if (c->path_lanes[p])
      printf ("%s: path %-10s %6.1f s in %s, %7.1f M inputs/s (%.2f ns/lane), mismatches %" PRIu64 "\n",
              who, path_name (p), c->path_ns[p] / 1e9,
#ifdef MX_SWEEP_RTL
              "the RTL",
#else
              "mxk_quantize",
#endif
              c->path_ns[p] ? (double) (c->inputs + c->specials) / (c->path_ns[p] / 1e3) : 0.0,
              (double) c->path_ns[p] / (double) c->path_lanes[p], c->path_bad[p]);
  printf ("%s: model %s: %.1f s (%.2f ns/lane), %" PRIu64 " blocks against s_quantize; this run: wall "
          "%.1f s, cpu %.1f s\n",
          who, slow_model ? "slow" : "fast", c->model_ns / 1e9,
          c->blocks ? (double) c->model_ns / (double) (c->blocks * 32) : 0.0, c->xchecks, wall, cpu);
  printf ("%s: digest %016" PRIx64 "\n", who, c->digest);
}

int
main (int argc, char **argv)
{
  int rank = 0, nranks = 1;
#ifdef MX_SWEEP_MPI
  MPI_Init (&argc, &argv);
  MPI_Comm_rank (MPI_COMM_WORLD, &rank);
  MPI_Comm_size (MPI_COMM_WORLD, &nranks);
#endif
  init_formats ();
  const char *fnames[MX_FORMAT_COUNT], *rnames[NRND];
  for (int i = 0; i < nfmts; i++)
    fnames[i] = fmts[i].f->name;
  for (int i = 0; i < NRND; i++)
    rnames[i] = mx_rounding_name (all_rnd[i]);
#ifndef MX_SWEEP_RTL
  const char *pnames[MXK_PATH_COUNT - 1];
  for (int i = 1; i < MXK_PATH_COUNT; i++)
    pnames[i - 1] = mxk_path_name ((mxk_path) i);
#endif
  unsigned fmask = (1u << nfmts) - 1, rmask = (1u << NRND) - 1, umask = (1u << NRULE) - 1, pmask = 0;
  int paths_all = 1, list = 0;
  const char *scales_arg = "auto", *ckpt = NULL;
  uint64_t shard_i = 0, shard_n = 1, limit = UINT64_MAX;
  long progress = 10;
  for (int i = 1; i < argc; i++)
    {
      const char *o = argv[i];
      if (strcmp (o, "--help") == 0 || strcmp (o, "-h") == 0)
        {
          fputs (usage_text, stdout);
          return 0;
        }
      if (strcmp (o, "--list") == 0)
        {
          list = 1;
          continue;
        }
      if (i + 1 >= argc)
        usage_error ("option '%s' is unknown or lacks its value", o);
      const char *a = argv[++i];
      if (strcmp (o, "--format") == 0)
        fmask = parse_list (a, "format", fnames, nfmts);
      else if (strcmp (o, "--rounding") == 0)
        rmask = parse_list (a, "rounding", rnames, NRND);
      else if (strcmp (o, "--rule") == 0)
        umask = parse_list (a, "rule", rule_name, NRULE);
      else if (strcmp (o, "--path") == 0)
        {
#ifdef MX_SWEEP_RTL
          /* one path; the kernel paths are another program's */
          static const char *const rtl_only[] = { "rtl" };
          if (strcmp (a, "all") != 0 && strcmp (a, "rtl") != 0)
            {
              const char *k[] = { "ref", "generic", "avx2", "avx512" }; /* avx512vbmi too */
              for (size_t j = 0; j < sizeof k / sizeof k[0]; j++)
                if (strstr (a, k[j]))
                  usage_error ("--path '%s': the kernel paths are build/bin/sweep's; sweep-rtl runs rtl", a);
            }
          paths_all = 1;
          parse_list (a, "path", rtl_only, 1);
#else
          if (strstr (a, "rtl"))
            usage_error ("--path '%s': rtl (the Verilated RTL) is build/bin/sweep-rtl's, built where Verilator "
                         "is installed (-DMX_SIM=ON)", a);
          paths_all = strcmp (a, "all") == 0, pmask = paths_all ? 0 : parse_list (a, "path", pnames, MXK_PATH_COUNT - 1);
#endif
        }
      else if (strcmp (o, "--scales") == 0)
        scales_arg = a;
      else if (strcmp (o, "--shard") == 0)
        {
          const char *sl = strchr (a, '/');
          if (!sl || !parse_dec (a, sl, UINT32_MAX, &shard_i) || !parse_dec (sl + 1, sl + strlen (sl), UINT32_MAX, &shard_n)
              || shard_n == 0 || shard_i >= shard_n)
            usage_error ("bad shard '%s': want I/N with 0 <= I < N", a);
        }
      else if (strcmp (o, "--checkpoint") == 0)
        {
          if (!*a)
            usage_error ("empty checkpoint file name%s", "");
          ckpt = a;
        }
      else if (strcmp (o, "--limit") == 0)
        {
          if (!parse_dec (a, a + strlen (a), UINT64_MAX, &limit))
            usage_error ("bad --limit '%s': want a count of units", a);
        }
      else if (strcmp (o, "--chunk-bits") == 0)
        {
          long k;
          if (!parse_int (a, 12, 24, &k) || *a == '-')
            usage_error ("bad --chunk-bits '%s': want 12..24", a);
          chunk_bits = (int) k;
        }
      else if (strcmp (o, "--model") == 0)
        {
          if (strcmp (a, "fast") && strcmp (a, "slow"))
            usage_error ("bad --model '%s': want fast or slow", a);
          slow_model = strcmp (a, "slow") == 0;
        }
      else if (strcmp (o, "--progress") == 0)
        {
          if (!parse_int (a, 0, 86400, &progress) || *a == '-')
            usage_error ("bad --progress '%s': want seconds", a);
        }
      else
        usage_error ("unknown option '%s'", o);
    }

  /* paths */
  char pathlist[128] = "";
#ifdef MX_SWEEP_RTL
  (void) pmask, (void) paths_all;
  paths[npaths++] = 0;
  snprintf (pathlist, sizeof pathlist, "rtl");
#else
  for (int p = MXK_PATH_REF; p < MXK_PATH_COUNT; p++)
    {
      int want = paths_all || (pmask >> (p - 1) & 1);
      if (!want)
        continue;
      if (!mxk_path_supported ((mxk_path) p))
        {
          if (paths_all)
            {
              if (rank == 0)
                printf ("sweep: path %s is not supported on this CPU: not run\n", mxk_path_name ((mxk_path) p));
              continue;
            }
          fprintf (stderr, "sweep: path %s is not supported on this CPU\n", mxk_path_name ((mxk_path) p));
#ifdef MX_SWEEP_MPI
          MPI_Finalize ();
#endif
          return 77;
        }
      paths[npaths++] = p;
      snprintf (pathlist + strlen (pathlist), sizeof pathlist - strlen (pathlist), "%s%s",
                npaths > 1 ? "," : "", mxk_path_name ((mxk_path) p));
    }
#endif

  /* explicit scale exponents */
  long xs[MAXS];
  int nxs = 0;
  if (strcmp (scales_arg, "auto") != 0)
    {
      char tmp[1024];
      if (strlen (scales_arg) >= sizeof tmp)
        usage_error ("--scales list too long%s", "");
      strcpy (tmp, scales_arg);
      for (char *sv = NULL, *tok = strtok_r (tmp, ",", &sv); tok; tok = strtok_r (NULL, ",", &sv))
        {
          if (nxs == MAXS || !parse_int (tok, -127, XOVF, &xs[nxs]))
            usage_error ("bad --scales '%s': want auto or integers -127..128", scales_arg);
          nxs++;
        }
      if (nxs == 0 || scales_arg[strlen (scales_arg) - 1] == ',' || scales_arg[0] == ',' || strstr (scales_arg, ",,"))
        usage_error ("bad --scales '%s': want auto or integers -127..128", scales_arg);
    }

  /* the scale sets and the tasks */
  static scaleset sets[MX_FORMAT_COUNT * NRULE];
  int nsets = 0;
  tasks = malloc (sizeof (task) * (size_t) nfmts * NRULE * NRND * MAXS);
  if (!tasks)
    return 2;
  uint64_t plan = 0xCBF29CE484222325ull;
  for (int fi = 0; fi < nfmts; fi++)
    for (int ri = 0; ri < NRULE; ri++)
      {
        if (!(fmask >> fi & 1) || !(umask >> ri & 1))
          continue;
        scaleset *ss = &sets[nsets++];
        ss->fi = fi, ss->ri = ri;
        if (nxs == 0)
          auto_scales (ss, &fmts[fi], ri);
        for (int k = 0; k < nxs; k++)
          {
            int before = ss->ns;
            add_reason (ss, &fmts[fi], ri, (int) xs[k], "given");
            if (ss->ns == before && rank == 0)
              fprintf (stderr, "sweep: X=%ld is not reachable from FP32 inputs for %s %s: skipped\n", xs[k],
                       fmts[fi].f->name, rule_name[ri]);
          }
        qsort (ss->s, (size_t) ss->ns, sizeof ss->s[0], cmp_scale);
        for (int mi = 0; mi < NRND; mi++)
          if (rmask >> mi & 1)
            for (int k = 0; k < ss->ns; k++)
              {
                task *t = &tasks[ntasks++];
                t->fi = fi, t->ri = ri, t->mi = mi, t->sc = ss->s[k];
                int key[3] = { t->sc.X, (int) t->sc.alo, (int) t->sc.ahi };
                plan = fnv (key, sizeof key, fnv (fmts[fi].f->name, strlen (fmts[fi].f->name), plan + (uint64_t) (ri * NRND + mi)));
              }
      }
  if (ntasks == 0)
    usage_error ("nothing to sweep%s", "");
  uint64_t nchunks = 1ull << (32 - chunk_bits), total = ntasks * nchunks;

  /* this process's shard: rank r of n runs shard I + N*r of N*n */
  uint64_t my_i = shard_i + shard_n * (uint64_t) rank, my_n = shard_n * (uint64_t) nranks;
  uint64_t my_units = total > my_i ? (total - my_i + my_n - 1) / my_n : 0;
  char params[2048];
  {
    char fl[128] = "", rl[64] = "", ul[64] = "";
    for (int i = 0; i < nfmts; i++)
      if (fmask >> i & 1)
        snprintf (fl + strlen (fl), sizeof fl - strlen (fl), "%s%s", *fl ? "," : "", fnames[i]);
    for (int i = 0; i < NRND; i++)
      if (rmask >> i & 1)
        snprintf (rl + strlen (rl), sizeof rl - strlen (rl), "%s%s", *rl ? "," : "", rnames[i]);
    for (int i = 0; i < NRULE; i++)
      if (umask >> i & 1)
        snprintf (ul + strlen (ul), sizeof ul - strlen (ul), "%s%s", *ul ? "," : "", rule_name[i]);
    snprintf (params, sizeof params,
              "format=%s rounding=%s rule=%s path=%s scales=%.900s chunk-bits=%d shard=%" PRIu64 "/%" PRIu64
              " model=%s plan=%016" PRIx64,
              fl, rl, ul, pathlist, scales_arg, chunk_bits, my_i, my_n, slow_model ? "slow" : "fast", plan);
  }

  if (rank == 0)
    {
      for (int s = 0; s < nsets; s++)
        {
          scaleset *ss = &sets[s];
          printf ("sweep: scale set %s %s:", fmts[ss->fi].f->name, rule_name[ss->ri]);
          for (int k = 0; k < ss->ns; k++)
            printf (" %d", ss->s[k].X);
          printf ("\n");
          if (list)
            for (int k = 0; k < ss->ns; k++)
              {
                float lo, hi;
                memcpy (&lo, &ss->s[k].alo, 4), memcpy (&hi, &ss->s[k].ahi, 4);
                printf ("  X=%4d  amax %08X..%08X (%a .. %a)  inputs %10" PRIu64 "  %s\n", ss->s[k].X,
                        ss->s[k].alo, ss->s[k].ahi, (double) lo, (double) hi, 2 * ((uint64_t) ss->s[k].ahi + 1),
                        ss->s[k].why);
              }
        }
      uint64_t lanes = 0;
      for (size_t t = 0; t < ntasks; t++)
        lanes += 2 * ((uint64_t) tasks[t].sc.ahi + 1) + (1u << 24);
      printf ("sweep: %zu tasks (format x rule x rounding x X), %" PRIu64 " units of 2^%d patterns, %" PRIu64
              " inputs in all (finite in range + NaN/Inf); paths %s; shard %" PRIu64 "/%" PRIu64 " (%" PRIu64
              " units)%s\n",
              ntasks, total, chunk_bits, lanes, pathlist, shard_i, shard_n, (total > shard_i ? (total - shard_i + shard_n - 1) / shard_n : 0),
              nranks > 1 ? " split over the MPI ranks" : "");
      fflush (stdout);
    }
  if (list)
    {
#ifdef MX_SWEEP_MPI
      MPI_Finalize ();
#endif
      return 0;
    }
  if (npaths == 0)
    {
      fprintf (stderr, "sweep: no path to run\n");
      return 77;
    }

  model_selftest ();
#ifdef MX_SWEEP_RTL
  rtl_dut = dut_new (0, NULL);
  dut_reset (rtl_dut);
#endif

  char myckpt[4096] = "";
  if (ckpt)
    {
      if (nranks > 1)
        snprintf (myckpt, sizeof myckpt, "%s.rank%d", ckpt, rank);
      else
        snprintf (myckpt, sizeof myckpt, "%s", ckpt);
    }
  counts c;
  memset (&c, 0, sizeof c);
  uint64_t next = my_i;
  if (*myckpt && ckpt_read (myckpt, params, &next, &c))
    {
      if (next < my_i || (next - my_i) % my_n != 0 || c.units != (next - my_i) / my_n
          || next >= total + my_n)
        {
          fprintf (stderr, "sweep: checkpoint %s is damaged (its next unit is not of this shard)\n", myckpt);
          exit (2);
        }
      fprintf (stderr, "sweep: rank %d resumes from %s at unit %" PRIu64 " (%" PRIu64 "/%" PRIu64 " done)\n",
               rank, myckpt, next, c.units, my_units);
    }

  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigaction (SIGINT, &sa, NULL);
  sigaction (SIGTERM, &sa, NULL);

  double cpu0 = cpu_seconds ();
  uint64_t w0 = now_ns (), last_ck = w0, last_pr = w0, done_here = 0, u0 = c.units;
  int stopped = 0;
  for (uint64_t u = next; u < total; u += my_n)
    {
      if (done_here >= limit || stop_signal)
        {
          stopped = 1;
          next = u;
          break;
        }
      run_unit (u, &c);
      done_here++;
      next = u + my_n;
      uint64_t t = now_ns ();
      if (*myckpt && t - last_ck > 30000000000ull)
        ckpt_write (myckpt, params, next, &c), last_ck = t;
      if (progress && t - last_pr > (uint64_t) progress * 1000000000u)
        {
          double el = (t - w0) / 1e9, rate = (double) (c.units - u0) / el;
          char who[32] = "";
          if (nranks > 1)
            snprintf (who, sizeof who, "rank %d: ", rank);
          fprintf (stderr, "sweep: %s%" PRIu64 "/%" PRIu64 " units (%.1f%%), %" PRIu64
                   " inputs, %" PRIu64 " mismatches, %.0f s, eta %.0f s (the large exponents come last)\n",
                   who, c.units, my_units, 100.0 * (double) c.units / (double) my_units, c.inputs + c.specials,
                   c.mismatches, el, rate > 0 ? (double) (my_units - c.units) / rate : 0.0);
          last_pr = t;
        }
    }
  if (*myckpt)
    ckpt_write (myckpt, params, next, &c);
  double wall = (now_ns () - w0) / 1e9, cpu = cpu_seconds () - cpu0;
  if (stopped)
    fprintf (stderr, "sweep: rank %d stopped at unit %" PRIu64 " (%s)%s\n", rank, next,
             stop_signal ? "signal" : "--limit", *myckpt ? "; rerun with the same options to resume" : "");

  int rc = c.mismatches ? 1 : stopped ? 3 : 0;
  if (nranks == 1)
    print_counts ("sweep", &c, my_units, wall, cpu);
#ifdef MX_SWEEP_MPI
  else
    {
      char who[32];
      snprintf (who, sizeof who, "sweep rank %d", rank);
      print_counts (who, &c, my_units, wall, cpu);
      fflush (stdout);
      counts sum;
      double wmax, csum;
      int mine = (c.mismatches ? 2 : 0) | stopped, all;
      MPI_Reduce (&c, &sum, (int) NCOUNTS, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
      MPI_Reduce (&wall, &wmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
      MPI_Reduce (&cpu, &csum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
      MPI_Allreduce (&mine, &all, 1, MPI_INT, MPI_BOR, MPI_COMM_WORLD);
      if (rank == 0)
        {
          uint64_t su = total > shard_i ? (total - shard_i + shard_n - 1) / shard_n : 0;
          printf ("sweep: all %d ranks:\n", nranks);
          print_counts ("sweep total", &sum, su, wmax, csum);
        }
      rc = all & 2 ? 1 : all & 1 ? 3 : 0;
    }
  MPI_Finalize ();
#endif
#ifdef MX_SWEEP_RTL
  dut_free (rtl_dut);
#endif
  return rc;
}
