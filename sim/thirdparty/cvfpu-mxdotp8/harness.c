/* harness.c -- co-simulates the 8-element build of pulp-platform/cvfpu fpnew_mxdotp_multi
 * (VectorSize 8, the paper's MXDOTP instruction; through shim.cpp) against libmxgold.
 *
 * One operation is checked as before: mx_dot of ONE block pair of the elements the unit reads
 * from its 64-bit operands (8 FP8/INT8, 16 FP4, 11 FP6), E8M0 scales, C_in = the accumulator,
 * accumulation model `exact`, output FP32 or BF16; every result bit and flag is compared.
 *
 * A 32-element MX block is then run as the instruction is meant to be used: G elements per
 * operation (G = 8, 16 for FP4, 11 for FP6 with the block padded by one zero element to 33),
 * the accumulator fed back from one operation to the next.  After operation i the unit's
 * accumulator must equal mx_dot with `fused-group` G over the first G(i+1) elements (one block,
 * same scales, C_in = the initial accumulator), and its flags, or-ed over operations 0..i, the
 * fused-group flags.  A mismatch that matches one of the documented deviations (README.md) is
 * counted as such; anything else fails.
 * SPDX-License-Identifier: MIT */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mx.h"
#include "shim.h"

/* fpnew_pkg::fp_format_e and roundmode_e */
enum { F_FP32 = 0, F_FP8 = 3, F_FP16ALT = 4, F_FP8ALT = 5, F_FP6 = 6, F_FP6ALT = 7, F_FP4 = 8 };
enum { R_RNE = 0, R_RTZ = 1, R_RDN = 2, R_RUP = 3, R_RMM = 4, R_ROD = 5 };

typedef struct fmtinfo {
  const char *name;
  mx_format_id id;
  unsigned src_fmt, is_int;
  unsigned k;    /* elements per operation as the unit reads them = the fused group G */
  unsigned nops; /* operations per 32-element block (FP6: 3 x 11 = 33, one zero pad) */
} fmtinfo;

static const fmtinfo FMTS[] = {
  { "e4m3", MX_E4M3, F_FP8ALT, 0, 8, 4 },
  { "e5m2", MX_E5M2, F_FP8, 0, 8, 4 },
  { "e2m1", MX_E2M1, F_FP4, 0, 16, 2 },
  { "int8", MX_INT8, F_FP8, 1, 8, 4 },
  { "e3m2", MX_E3M2, F_FP6, 0, 11, 3 },
  { "e2m3", MX_E2M3, F_FP6ALT, 0, 11, 3 },
};
#define BLOCK 32
#define NFMTS (sizeof FMTS / sizeof FMTS[0])

typedef struct rndinfo {
  const char *name; /* fpnew mnemonic */
  unsigned code;
  mx_rounding golden;
} rndinfo;

/* fpnew's RMM is ties away (mxgold rna), ROD is round to odd (mxgold rto) */
static const rndinfo RNDS[] = {
  { "rne", R_RNE, MX_RNE }, { "rtz", R_RTZ, MX_RTZ }, { "rdn", R_RDN, MX_RDN },
  { "rup", R_RUP, MX_RUP }, { "rmm", R_RMM, MX_RNA }, { "rod", R_ROD, MX_RTO },
};
#define NRNDS (sizeof RNDS / sizeof RNDS[0])

/* documented deviations (README.md "Deviations") */
enum {
  DEV_NONE = 0,
  DEV_ACC_PASS,   /* D1: tiny nonzero SoP, result is C_in unrounded in a directed mode */
  DEV_RDN_ZERO,   /* D2: exact-zero result of the regular path is always +0 */
  DEV_INT8_SCALE, /* D3: MXINT8 elements taken as integers, without 2^-6 each */
  DEV_NAN_NV,     /* D4: NaN operand (element, scale, C_in) gives qNaN without invalid */
  DEV_ZERO_SOP,   /* D6: SoP exactly zero: C_in returned verbatim, so -0 + (+0) = -0 */
  DEV_ACC_UF,     /* D7: C_in returned (correctly) but underflow not raised */
  DEV_UF_AFTER,   /* D8: tininess after rounding (a result that rounds up to the min normal) */
  DEV_VLT_NANSCALE, /* V1: Verilator 5.006 only: E8M0 0xFF not seen as NaN (signed select) */
  DEV_MAXEXP,     /* D9: FP6/FP4 codes with an all-ones exponent classified as Inf/NaN/unnormal */
  DEV_COUNT
};
static const char *const DEV_NAMES[] = { "none", "acc-passthrough", "exact-zero-plus",
                                         "int8-no-2^-6", "nan-no-invalid",
                                         "zero-sop-cin", "acc-no-underflow", "uf-after-round",
                                         "vlt-nan-scale", "narrow-maxexp" };

static unsigned long n_pass, n_fail, n_dev, dev_count[DEV_COUNT];
static unsigned max_print = 10;
static unsigned emit_repro; /* print the first few cases of each deviation as repro lines */
static int avoid_maxexp;    /* random FP6/FP4 codes without an all-ones exponent (D9-free) */

#include "../cvfpu-mxdotp/common.h" /* the generator, flags, values, option helpers */
/* --- the unit's element packing ------------------------------------------------------------ */
static unsigned
lane_bits (const uint32_t w[2], unsigned pos, unsigned n)
{
  uint64_t lo = w[pos / 32], hi = pos / 32 + 1 < 2 ? w[pos / 32 + 1] : 0;
  return (unsigned) ((((hi << 32) | lo) >> (pos % 32)) & ((1u << n) - 1));
}
static void
lane_set (uint32_t w[2], unsigned pos, unsigned n, unsigned v)
{
  for (unsigned i = 0; i < n; i++) {
    unsigned p = pos + i;
    w[p / 32] = (w[p / 32] & ~(1u << (p % 32))) | (((v >> i) & 1u) << (p % 32));
  }
}

/* The element codes exactly as fpnew_mxdotp_multi (VectorSize 8) reads them: FP8/INT8 byte i;
 * FP4 both nibbles of every byte (low nibble first); FP6 11 fields at 6i, the last one with its
 * top 2 bits from the remainder input.  All three are the natural packing of the 64-bit word. */
static size_t
unit_elems (const fmtinfo *f, const uint32_t w[2], unsigned rem, uint64_t c[16])
{
  size_t n = 0;
  if (f->src_fmt == F_FP4) {
    for (unsigned i = 0; i < 8; i++) {
      c[n++] = lane_bits (w, 8 * i, 4);
      c[n++] = lane_bits (w, 8 * i + 4, 4);
    }
  } else if (f->src_fmt == F_FP6 || f->src_fmt == F_FP6ALT) {
    for (unsigned i = 0; i < 10; i++)
      c[n++] = lane_bits (w, 6 * i, 6);
    c[n++] = lane_bits (w, 60, 4) | (rem & 3) << 4;
  } else {
    for (unsigned i = 0; i < 8; i++)
      c[n++] = lane_bits (w, 8 * i, 8);
  }
  return n;
}

/* element i (0..k-1) of one operation, in the unit's packing */
static void
put_code (const fmtinfo *f, uint32_t w[2], unsigned *rem, unsigned i, unsigned code)
{
  if (f->src_fmt == F_FP6 || f->src_fmt == F_FP6ALT) {
    if (i == 10) {
      lane_set (w, 60, 4, code & 0xF);
      *rem = (code >> 4) & 3;
    } else lane_set (w, 6 * i, 6, code);
  } else if (f->src_fmt == F_FP4) lane_set (w, 4 * i, 4, code);
  else lane_set (w, 8 * i, 8, code);
}

/* --- golden ------------------------------------------------------------------------------- */
typedef struct opcase {
  const fmtinfo *f;
  const rndinfo *r;
  unsigned dst; /* F_FP32 or F_FP16ALT */
  cvfpu8_op op;
} opcase;

static uint64_t
cin_fp32 (const opcase *c)
{
  return c->dst == F_FP16ALT ? (uint64_t) (c->op.acc & 0xFFFF) << 16 : c->op.acc;
}

/* mx_dot of the operation, scales adjusted by xadj (D3 check); result as the unit's 32-bit port */
static int
golden (const opcase *c, int xadj, uint32_t *res, unsigned *flags)
{
  uint64_t ca[16], cb[16], out = 0, sa = c->op.xa, sb = c->op.xb;
  size_t k = unit_elems (c->f, c->op.a, c->op.a_rem, ca);
  unit_elems (c->f, c->op.b, c->op.b_rem, cb);
  /* xadj: raise X_A + X_B by this much (D3 model), spread so both stay finite E8M0 codes */
  if (xadj) {
    if (sa == 0xFF || sb == 0xFF || sa + sb + (uint64_t) xadj > 2 * 0xFE) return -1;
    uint64_t da = 0xFE - sa < (uint64_t) xadj ? 0xFE - sa : (uint64_t) xadj;
    sa += da;
    sb += (uint64_t) xadj - da;
  }
  const mx_format *ef = mx_format_get (c->f->id);
  const mx_format *of = mx_format_get (c->dst == F_FP16ALT ? MX_BF16 : MX_FP32);
  mx_dot_policy dp = mx_dot_policy_default ();
  dp.accum = MX_ACCUM_EXACT;
  *flags = 0;
  int rc = mx_dot (&out, flags, of, &sa, ca, ef, &sb, cb, ef, mx_format_get (MX_E8M0), k, 1,
                   cin_fp32 (c), &dp, c->r->golden);
  if (rc != MX_OK) return rc;
  *res = c->dst == F_FP16ALT ? 0xFFFF0000u | (uint32_t) out : (uint32_t) out;
  return 0;
}


static int
narrow_model (const opcase *c, uint32_t *res)
{
  if (c->f->src_fmt != F_FP4 && c->f->src_fmt != F_FP6 && c->f->src_fmt != F_FP6ALT) return -1;
  uint64_t sa = c->op.xa, sb = c->op.xb;
  /* under Verilator 0xFF is 2^-128 (V1): scales 0x00 and X-1 */
  if (sa == 0xFF && sb == 0xFF) return -1;
  if (sa == 0xFF) { if (sb == 0) return -1; sa = 0; sb--; }
  else if (sb == 0xFF) { if (sa == 0) return -1; sb = 0; sa--; }
  const mx_format *ef = mx_format_get (c->f->id);
  uint64_t cd[2][16];
  size_t k = unit_elems (c->f, c->op.a, c->op.a_rem, cd[0]);
  unit_elems (c->f, c->op.b, c->op.b_rem, cd[1]);
  unsigned emax = (1u << ef->ebits) - 1, sbit = 1u << (ef->bits - 1), fmask = (1u << ef->mbits) - 1;
  int seen = 0, nanp = 0, opnan = 0, pinf = 0, ninf = 0;
  for (size_t i = 0; i < k; i++) {
    int special_lane = c->f->src_fmt == F_FP4 ? !(i & 1) : i < 8;
    int inf[2] = { 0, 0 }, nan[2] = { 0, 0 }, zero[2];
    for (int w = 0; w < 2; w++) {
      unsigned code = (unsigned) cd[w][i];
      zero[w] = !(code & ~sbit);
      if (((code >> ef->mbits) & emax) != emax) continue;
      seen = 1;
      if (special_lane) {
        inf[w] = !(code & fmask);
        nan[w] = !!(code & fmask);
      } else {
        /* 0.f x 2^(emax-bias), re-encoded in the same format (always representable) */
        double v = (code & fmask) / (double) (1u << ef->mbits);
        for (int ex = (int) emax - ef->bias; ex > 0; ex--) v *= 2;
        unsigned nc = 0;
        while (nc < sbit && code_value (ef, nc) != v) nc++;
        if (nc == sbit) return -1;
        cd[w][i] = nc | (code & sbit);
      }
    }
    int neg = ((cd[0][i] ^ cd[1][i]) & sbit) != 0;
    if ((inf[0] && zero[1]) || (inf[1] && zero[0])) nanp = 1;
    if (nan[0] || nan[1]) opnan = 1;
    if ((inf[0] || inf[1]) && !neg) pinf = 1;
    if ((inf[0] || inf[1]) && neg) ninf = 1;
  }
  if (!seen) return -1;
  int bf = c->dst == F_FP16ALT;
  uint32_t acc = bf ? (c->op.acc & 0xFFFF) << 16 : c->op.acc;
  if ((acc & 0x7F800000u) == 0x7F800000u) {
    if (acc & 0x7FFFFF) opnan = 1;
    else if (acc >> 31) ninf = 1;
    else pinf = 1;
  }
  uint32_t r;
  if (nanp || opnan || (pinf && ninf)) r = 0x7FC00000u;
  else if (pinf) r = 0x7F800000u;
  else if (ninf) r = 0xFF800000u;
  else {
    uint64_t out;
    unsigned fl;
    mx_dot_policy dp = mx_dot_policy_default ();
    if (mx_dot (&out, &fl, mx_format_get (bf ? MX_BF16 : MX_FP32), &sa, cd[0], ef, &sb, cd[1], ef,
                mx_format_get (MX_E8M0), k, 1, cin_fp32 (c), &dp, c->r->golden) != MX_OK)
      return -1;
    *res = bf ? 0xFFFF0000u | (uint32_t) out : (uint32_t) out;
    return 0;
  }
  *res = bf ? 0xFFFF0000u | r >> 16 : r;
  return 0;
}

/* the unit's flags agree with mxgold's, or differ only as in D8 (result at the min normal) */
static int
flags_match_d8 (const opcase *c, uint32_t res, unsigned gfl, unsigned dfl)
{
  uint32_t mn = c->dst == F_FP16ALT ? 0x0080u : 0x00800000u, mag = res & (c->dst == F_FP16ALT ? 0x7FFFu : 0x7FFFFFFFu);
  return gfl == dfl || (mag == mn && (gfl & MX_FLAG_UNDERFLOW) && dfl == (gfl & ~MX_FLAG_UNDERFLOW));
}

/* D1's shape: the unit returned C_in (acc, as the result port shows it) where r is one unit in
 * the last place away, or C_in is a zero and r the other zero or the smallest subnormal */
static int
acc_adjacent (const opcase *c, uint32_t acc, uint32_t r)
{
  uint32_t mask = c->dst == F_FP16ALT ? 0xFFFFu : 0xFFFFFFFFu, sign = c->dst == F_FP16ALT ? 0x8000u : 0x80000000u;
  uint32_t a = acc & mask & ~sign, g = r & mask & ~sign;
  if ((r & sign) == (acc & sign) && (g == a + 1 || g + 1 == a)) return 1;
  return a == 0 && (g == 0 || g == 1);
}

/* D9 explains the unit's answer (compound with the zero-sign deviations D2/D6 and with D1) */
static int
narrow_ok (const opcase *c, uint32_t dres, uint32_t acc)
{
  uint32_t r, zmask = c->dst == F_FP16ALT ? 0x7FFFu : 0x7FFFFFFFu;
  if (narrow_model (c, &r) != 0) return 0;
  return r == dres || (!(r & zmask) && !(dres & zmask)) || (dres == acc && acc_adjacent (c, acc, r));
}

static int
any_nonzero_product (const opcase *c)
{
  uint64_t ca[16], cb[16];
  size_t k = unit_elems (c->f, c->op.a, c->op.a_rem, ca);
  unit_elems (c->f, c->op.b, c->op.b_rem, cb);
  const mx_format *ef = mx_format_get (c->f->id);
  /* sign-magnitude codes: the magnitude bits; INT8 is two's complement (0x80 is -2) */
  uint64_t magmask = c->f->is_int ? 0xFF : (1ull << (ef->bits - 1)) - 1;
  for (size_t i = 0; i < k; i++)
    if ((ca[i] & magmask) && (cb[i] & magmask)) return 1;
  return 0;
}

static int
classify (const opcase *c, uint32_t dres, unsigned dfl, uint32_t gres, unsigned gfl)
{
  uint32_t mask = c->dst == F_FP16ALT ? 0xFFFFu : 0xFFFFFFFFu;
  uint32_t sign = c->dst == F_FP16ALT ? 0x8000u : 0x80000000u;
  uint32_t acc = c->dst == F_FP16ALT ? 0xFFFF0000u | (c->op.acc & 0xFFFF) : c->op.acc;
  int scale_nan = c->op.xa == 0xFF || c->op.xb == 0xFF;
  if (dres == gres) {
    /* D4: NaN in -> both give qNaN; mxgold flags invalid, the unit raises NV only for sNaN */
    if (is_nan_bits (gres & mask, c->dst) && (gfl & MX_FLAG_INVALID) && !(dfl & MX_FLAG_INVALID)
        && (gfl & ~MX_FLAG_INVALID) == dfl)
      return DEV_NAN_NV;
    /* D7: the accumulator path (C_in returned, right here) never raises underflow */
    if (dres == acc && (gfl & MX_FLAG_UNDERFLOW) && dfl == (gfl & ~MX_FLAG_UNDERFLOW))
      return DEV_ACC_UF;
    /* D8: tininess after rounding -- a result that rounds up to the smallest normal */
    if ((dres & mask & ~sign) == (c->dst == F_FP16ALT ? 0x0080u : 0x00800000u)
        && (gfl & MX_FLAG_UNDERFLOW) && dfl == (gfl & ~MX_FLAG_UNDERFLOW))
      return DEV_UF_AFTER;
    {
      uint32_t r;
      unsigned fl;
      if (narrow_ok (c, dres, acc)) return DEV_MAXEXP;
      if (c->f->is_int && golden (c, 12, &r, &fl) == 0 && r == dres && flags_match_d8 (c, r, fl, dfl))
        return DEV_INT8_SCALE;
    }
    return DEV_NONE - 1; /* flags only: not documented */
  }
  /* V1: Verilator 5.006 evaluates the scale NaN test on a signed element select */
  if (scale_nan && is_nan_bits (gres & mask, c->dst) && !is_nan_bits (dres & mask, c->dst)) {
    /* what Verilator computes: 0xFF - 127 wraps to -128 in the 8-bit signed scale, so
     * 2^-128 * 2^(X-127) = mx_dot with scales 0x00 and X-1; C_in passthrough (D1) may follow */
    opcase m = *c;
    uint32_t r;
    unsigned fl;
    if (c->op.xa == 0xFF && c->op.xb != 0xFF && c->op.xb >= 1) { m.op.xa = 0; m.op.xb = c->op.xb - 1; }
    else if (c->op.xb == 0xFF && c->op.xa != 0xFF && c->op.xa >= 1) { m.op.xb = 0; m.op.xa = c->op.xa - 1; }
    else return DEV_VLT_NANSCALE; /* both 0xFF: 2^-256, outside E8M0 */
    if (golden (&m, c->f->is_int ? 12 : 0, &r, &fl) == 0
        && (r == dres || dres == acc || ((r & mask & ~sign) == 0 && (dres & mask & ~sign) == 0)))
      return DEV_VLT_NANSCALE;
    /* else: D9 below may still explain it (it models V1 too) */
  }
  /* D3: MXINT8 -- the unit equals mxgold with X_A + X_B raised by 12 (2^-6 per element missing) */
  if (c->f->is_int) {
    uint32_t r6;
    unsigned f6;
    /* compound with D2: the D3 model cancels exactly to -0 under RDN, the unit gives +0 (frequent
     * in blocks: an accumulator of integer-valued sums cancelled by the next group) */
    if (golden (c, 12, &r6, &f6) == 0
        && (r6 == dres || ((dres & mask) == 0 && (r6 & mask) == sign && dres != acc))
        && flags_match_d8 (c, r6, f6, dfl))
      return DEV_INT8_SCALE;
  }
  /* D2: an exact zero from the regular path is +0: IEEE 754 6.3 (and mxgold) give -0 under RDN
   * for cancelling terms, and in every mode when all terms are -0 */
  if ((dres & mask) == 0 && (gres & mask) == sign && dfl == gfl && dres != acc)
    return DEV_RDN_ZERO;
  /* D6: the SoP is exactly zero (zero or cancelling products) -- C_in comes back verbatim, also
   * when IEEE 754 6.3 gives the zero of the other sign (an exact zero: no inexact flag) */
  if (dres == acc && (acc & mask & ~sign) == 0 && (gres & mask & ~sign) == 0 && dfl == gfl
      && !(gfl & MX_FLAG_INEXACT))
    return DEV_ZERO_SOP;
  /* D9: FP6/FP4 all-ones exponents (result compared; the flags follow the special path) */
  if (narrow_ok (c, dres, acc)) return DEV_MAXEXP;
  /* D1: result_is_accumulator -- C_in returned unrounded, the nonzero SoP ignored: mxgold is one
   * unit in the last place away (directed modes), or the oppositely signed zero */
  if (dres == acc && any_nonzero_product (c) && !is_nan_bits (acc & mask, c->dst)
      && acc_adjacent (c, acc, gres))
    return DEV_ACC_PASS;
  return DEV_NONE - 1;
}

/* --- running ------------------------------------------------------------------------------- */
static void
print_case (FILE *o, const opcase *c)
{
  fprintf (o, "%s %s %s xa=0x%02x xb=0x%02x acc=0x%08" PRIx32, c->f->name, c->r->name,
           c->dst == F_FP16ALT ? "bf16" : "fp32", c->op.xa, c->op.xb, c->op.acc);
  fprintf (o, " a=");
  for (int i = 1; i >= 0; i--) fprintf (o, "%08" PRIx32, c->op.a[i]);
  fprintf (o, " b=");
  for (int i = 1; i >= 0; i--) fprintf (o, "%08" PRIx32, c->op.b[i]);
  fprintf (o, " rem=%u,%u", c->op.a_rem, c->op.b_rem);
}

/* Runs one case; expect_dev >= 0 (repro files): the case must show exactly that deviation. */
static int
run_case_out (cvfpu8_dut *d, const opcase *c, int expect_dev, const char *where, uint32_t *dres_out,
              unsigned *dfl_out)
{
  uint32_t dres, gres;
  unsigned st, gfl;
  cvfpu8_run (d, &c->op, &dres, &st);
  unsigned dfl = dut_flags (st);
  if (dres_out) *dres_out = dres;
  if (dfl_out) *dfl_out = dfl;
  if (golden (c, 0, &gres, &gfl) != 0) {
    fprintf (stderr, "%s: mx_dot rejected the case\n", where);
    exit (2);
  }
  int dev = (dres == gres && dfl == gfl) ? DEV_NONE : classify (c, dres, dfl, gres, gfl);
  int ok = expect_dev < 0 ? dev >= 0 : dev == expect_dev;
  if (ok && dev == DEV_NONE) n_pass++;
  else if (ok) {
    n_dev++;
    dev_count[dev]++;
    if (expect_dev < 0 && dev_count[dev] <= emit_repro) {
      printf ("REPRO %s %s %s %s %02x %02x %08" PRIx32 " ", DEV_NAMES[dev], c->f->name, c->r->name,
              c->dst == F_FP16ALT ? "bf16" : "fp32", c->op.xa, c->op.xb, c->op.acc);
      for (int i = 1; i >= 0; i--) printf ("%08" PRIx32, c->op.a[i]);
      printf (" ");
      for (int i = 1; i >= 0; i--) printf ("%08" PRIx32, c->op.b[i]);
      printf (" %x %x %08" PRIx32 " %08" PRIx32 "\n", c->op.a_rem, c->op.b_rem, gres, dres);
    }
  } else {
    n_fail++;
    if (n_fail <= max_print) {
      printf ("MISMATCH %s: ", where);
      print_case (stdout, c);
      printf ("\n  dut    0x%08" PRIx32 " flags 0x%02x\n  golden 0x%08" PRIx32
              " flags 0x%02x  (%s differs%s)\n", dres, dfl, gres, gfl,
              dres != gres ? which_field (dres, gres, c->dst) : "flags",
              expect_dev >= 0 ? ", expected a documented deviation" : "");
    }
  }
  return dev;
}

static int
run_case (cvfpu8_dut *d, const opcase *c, int expect_dev, const char *where)
{
  return run_case_out (d, c, expect_dev, where, NULL, NULL);
}

/* --- random cases -------------------------------------------------------------------------- */
static unsigned
rand_code (const fmtinfo *f, int allow_special)
{
  const mx_format *ef = mx_format_get (f->id);
  for (;;) {
    unsigned v = rndu (1u << ef->bits);
    if (avoid_maxexp && !f->is_int && ef->ebits <= 3 && ((v >> ef->mbits) & ((1u << ef->ebits) - 1)) == (1u << ef->ebits) - 1)
      continue;
    if (allow_special || f->is_int) return v;
    if (f->id == MX_E4M3 && (v & 0x7F) == 0x7F) continue;
    if (f->id == MX_E5M2 && (v & 0x7C) == 0x7C) continue;
    return v;
  }
}

static uint32_t
rand_acc (const opcase *c)
{
  unsigned m = rndu (100);
  /* the scaled products are around 2^(xa+xb-254); put C_in near, far, zero or anywhere */
  int e0 = (int) c->op.xa + (int) c->op.xb - 254 + 127;
  uint32_t s = (uint32_t) (rnd64 () & 1) << 31, e;
  if (m < 45) {
    int e1 = e0 + (int) rndu (61) - 30;
    if (e1 < 0) e1 = 0;
    if (e1 > 254) e1 = 254;
    e = (uint32_t) e1;
  } else if (m < 55) {
    int e1 = e0 + 20 + (int) rndu (60);
    e = e1 > 254 ? 254u : (uint32_t) e1;
  } else if (m < 70) {
    return s; /* signed zero */
  } else if (m < 73) {
    return s | 0x7F800000u; /* infinity */
  } else if (m < 74) {
    return 0x7FC00000u | (uint32_t) rndu (2) << 21; /* NaN (quiet, or signalling with bit 21) */
  } else {
    e = rndu (256);
    if (e == 255) e = 254;
  }
  uint32_t v = s | e << 23 | ((uint32_t) rnd64 () & 0x7FFFFF);
  return v;
}

/* --- directed cases ------------------------------------------------------------------------ */
static void
base_case (opcase *c)
{
  memset (&c->op, 0, sizeof c->op);
  c->op.src_fmt = c->f->src_fmt;
  c->op.is_int = c->f->is_int;
  c->op.dst_fmt = c->dst;
  c->op.rnd = c->r->code;
  c->op.xa = c->op.xb = 127;
  if (c->dst == F_FP16ALT) c->op.acc = 0xFFFF0000u;
}

/* one element code (raw format bits) at position i of the unit's natural packing */
static void
put_elem (opcase *c, int which, unsigned i, unsigned code)
{
  unsigned width = c->f->src_fmt == F_FP4 ? 4 : (c->f->src_fmt == F_FP6 || c->f->src_fmt == F_FP6ALT) ? 6 : 8;
  lane_set (which ? c->op.b : c->op.a, i * width, width, code);
}

/* a handful of codes per format: one, minus one, max, min subnormal, NaN/Inf where they exist */
typedef struct fcodes { unsigned one, max, minsub, nan, inf; } fcodes;
static fcodes
codes_of (const fmtinfo *f)
{
  const mx_format *ef = mx_format_get (f->id);
  fcodes k = { 0, 0, 1, 0, 0 };
  if (f->is_int) {
    k.one = 64; /* 1.0 = 64 * 2^-6 */
    k.max = 127;
  } else {
    k.one = (unsigned) ef->bias << ef->mbits;
    k.max = (unsigned) ef->max_mag;
  }
  if (f->id == MX_E4M3) k.nan = 0x7F;
  if (f->id == MX_E5M2) { k.nan = 0x7E; k.inf = 0x7C; }
  return k;
}

static void
directed (cvfpu8_dut *d, const fmtinfo *f, const rndinfo *r, unsigned dst)
{
  opcase c;
  memset (&c, 0, sizeof c);
  c.f = f;
  c.r = r;
  c.dst = dst;
  fcodes k = codes_of (f);
  unsigned sbit = 1u << (mx_format_get (f->id)->bits - 1);
  char where[64];
  snprintf (where, sizeof where, "directed %s/%s/%s", f->name, r->name, dst == F_FP16ALT ? "bf16" : "fp32");
  uint32_t one = dst == F_FP16ALT ? 0xFFFF3F80u : 0x3F800000u;
  uint32_t neg = dst == F_FP16ALT ? 0x8000u : 0x80000000u;
  /* all zero, C_in +0 / -0 */
  for (int s = 0; s < 2; s++) {
    base_case (&c);
    c.op.acc |= s ? neg : 0;
    run_case (d, &c, -1, where);
  }
  /* x - x = 0 with C_in = +0 (cancelling products) and 1*1 + (-1) (cancelling C_in) */
  base_case (&c);
  put_elem (&c, 0, 0, k.one); put_elem (&c, 1, 0, k.one);
  put_elem (&c, 0, 1, k.one | sbit); put_elem (&c, 1, 1, k.one);
  run_case (d, &c, -1, where);
  base_case (&c);
  put_elem (&c, 0, 0, k.one); put_elem (&c, 1, 0, k.one);
  c.op.acc = one | neg;
  run_case (d, &c, -1, where);
  /* tiny product under a large C_in (result_is_accumulator), both signs */
  for (int s = 0; s < 4; s++) {
    base_case (&c);
    put_elem (&c, 0, 0, k.one | (s & 1 ? sbit : 0)); put_elem (&c, 1, 0, k.one);
    c.op.xa = 1; c.op.xb = 1;
    c.op.acc = one | (s & 2 ? neg : 0);
    run_case (d, &c, -1, where);
  }
  /* a product just below C_in's last place (regular path) */
  base_case (&c);
  put_elem (&c, 0, 0, k.one); put_elem (&c, 1, 0, k.one);
  c.op.xa = 127 - 30; c.op.xb = 127;
  c.op.acc = one;
  run_case (d, &c, -1, where);
  /* overflow: max * max with the largest scales */
  for (int s = 0; s < 2; s++) {
    base_case (&c);
    put_elem (&c, 0, 0, k.max | (s ? sbit : 0)); put_elem (&c, 1, 0, k.max);
    c.op.xa = 254; c.op.xb = 254;
    run_case (d, &c, -1, where);
  }
  /* smallest subnormal products with the smallest scales: underflow to 0 or min subnormal */
  base_case (&c);
  put_elem (&c, 0, 0, k.minsub); put_elem (&c, 1, 0, k.minsub);
  c.op.xa = 0; c.op.xb = 0;
  run_case (d, &c, -1, where);
  /* E8M0 NaN scale */
  base_case (&c);
  put_elem (&c, 0, 0, k.one); put_elem (&c, 1, 0, k.one);
  c.op.xa = 0xFF;
  run_case (d, &c, -1, where);
  /* NaN / Inf elements, Inf * 0, Inf - Inf */
  if (k.nan) {
    base_case (&c);
    put_elem (&c, 0, 3, k.nan); put_elem (&c, 1, 3, k.one);
    run_case (d, &c, -1, where);
  }
  if (k.inf) {
    base_case (&c);
    put_elem (&c, 0, 0, k.inf); put_elem (&c, 1, 0, k.one);
    run_case (d, &c, -1, where);
    base_case (&c);
    put_elem (&c, 0, 0, k.inf); put_elem (&c, 1, 0, 0);
    run_case (d, &c, -1, where);
    base_case (&c);
    put_elem (&c, 0, 0, k.inf); put_elem (&c, 1, 0, k.one);
    put_elem (&c, 0, 1, k.inf | sbit); put_elem (&c, 1, 1, k.one);
    run_case (d, &c, -1, where);
  }
  /* C_in Inf and NaN */
  base_case (&c);
  put_elem (&c, 0, 0, k.one); put_elem (&c, 1, 0, k.one);
  c.op.acc = dst == F_FP16ALT ? 0xFFFF7F80u : 0x7F800000u;
  run_case (d, &c, -1, where);
  c.op.acc = dst == F_FP16ALT ? 0xFFFF7FC0u : 0x7FC00000u;
  run_case (d, &c, -1, where);
}

static int
parse_lane (uint32_t w[2], const char *s)
{
  if (strlen (s) != 16) return -1;
  for (int i = 0; i < 2; i++) {
    char buf[9];
    memcpy (buf, s + 8 * (1 - i), 8);
    buf[8] = 0;
    char *e;
    errno = 0;
    unsigned long v = strtoul (buf, &e, 16);
    if (*e || errno) return -1;
    w[i] = (uint32_t) v;
  }
  return 0;
}

static int
run_repro (cvfpu8_dut *d, const char *path)
{
  FILE *fp = fopen (path, "r");
  if (!fp) {
    fprintf (stderr, "%s: cannot open: %s\n", path, strerror (errno));
    return 2;
  }
  char line[1024];
  unsigned ln = 0;
  while (fgets (line, sizeof line, fp)) {
    ln++;
    char *p = line;
    while (*p == ' ' || *p == '\t') p++;
    if (*p == '#' || *p == '\n' || !*p) continue;
    char dev[32], fmt[16], rnd[16], dst[16], a[80], b[80];
    unsigned xa, xb, arem, brem;
    uint32_t acc, gexp, dexp;
    if (sscanf (p, "%31s %15s %15s %15s %x %x %" SCNx32 " %79s %79s %x %x %" SCNx32 " %" SCNx32,
                dev, fmt, rnd, dst, &xa, &xb, &acc, a, b, &arem, &brem, &gexp, &dexp) != 13) {
      fprintf (stderr, "%s:%u: expected DEVIATION FMT RND DST XA XB ACC A B AREM BREM GOLDEN DUT\n", path, ln);
      fclose (fp);
      return 2;
    }
    int di = find_named (dev, DEV_NAMES, DEV_COUNT);
    opcase c;
    int fi = -1, ri = -1;
    for (size_t i = 0; i < NFMTS; i++) if (!strcmp (fmt, FMTS[i].name)) fi = (int) i;
    for (size_t i = 0; i < NRNDS; i++) if (!strcmp (rnd, RNDS[i].name)) ri = (int) i;
    if (di <= 0 || fi < 0 || ri < 0 || (strcmp (dst, "fp32") && strcmp (dst, "bf16")) || xa > 255
        || xb > 255 || arem > 3 || brem > 3) {
      fprintf (stderr, "%s:%u: unknown deviation, format, rounding or destination, or a field out of range\n", path, ln);
      fclose (fp);
      return 2;
    }
    c.f = &FMTS[fi];
    c.r = &RNDS[ri];
    c.dst = strcmp (dst, "bf16") ? F_FP32 : F_FP16ALT;
    base_case (&c);
    c.op.xa = xa; c.op.xb = xb; c.op.acc = acc; c.op.a_rem = arem; c.op.b_rem = brem;
    if (parse_lane (c.op.a, a) || parse_lane (c.op.b, b)) {
      fprintf (stderr, "%s:%u: A and B must be 16 hex digits\n", path, ln);
      fclose (fp);
      return 2;
    }
    char where[300];
    snprintf (where, sizeof where, "%s:%u", path, ln);
    uint32_t gres = 0, dres = 0;
    unsigned gfl = 0, st = 0;
    int grc = golden (&c, 0, &gres, &gfl);
    if (grc != 0 || gres != gexp) {
      printf ("MISMATCH %s: golden now gives 0x%08" PRIx32 ", the file says 0x%08" PRIx32 "\n", where, gres, gexp);
      n_fail++;
      continue;
    }
    cvfpu8_run (d, &c.op, &dres, &st);
    if (dres != dexp) {
      printf ("MISMATCH %s: dut 0x%08" PRIx32 ", recorded 0x%08" PRIx32 "\n", where, dres, dexp);
      n_fail++;
      continue;
    }
    run_case (d, &c, di, where);
  }
  fclose (fp);
  return 0;
}

/* --- 32-element blocks ---------------------------------------------------------------------- */
/* One OCP block pair run as the instruction is used: nops operations of G = f->k elements, the
 * unit's result fed back as the next accumulator.  a/b: the 32 element codes, a zero at 32 (FP6
 * pads the block to 33 = 3 x 11; a zero element adds an exact zero product). */
typedef struct blockcase {
  const fmtinfo *f;
  const rndinfo *r;
  unsigned dst;
  unsigned xa, xb;
  uint32_t acc0; /* the accumulator as the unit's port takes it (BF16 in bits 15..0) */
  uint64_t a[BLOCK + 1], b[BLOCK + 1];
} blockcase;

static unsigned long blk_pass, blk_fail, blk_dev, blk_dev_count[DEV_COUNT], fg_checks, fg_not_exact;
static int sabotage; /* check the chains against `exact` instead: must fail (run.sh checks) */

/* mxgold's fused-group model over the first k elements of the block: the unit's accumulator
 * after k / G operations */
static int
golden_fg (const blockcase *bc, size_t k, mx_accum accum, uint32_t *res, unsigned *flags)
{
  uint64_t out = 0, sa = bc->xa, sb = bc->xb;
  int bf = bc->dst == F_FP16ALT;
  uint64_t cin = bf ? (uint64_t) (bc->acc0 & 0xFFFF) << 16 : bc->acc0;
  const mx_format *ef = mx_format_get (bc->f->id);
  mx_dot_policy dp = mx_dot_policy_default ();
  dp.accum = accum;
  dp.group = bc->f->k;
  *flags = 0;
  int rc = mx_dot (&out, flags, mx_format_get (bf ? MX_BF16 : MX_FP32), &sa, bc->a, ef, &sb, bc->b,
                   ef, mx_format_get (MX_E8M0), k, 1, cin, &dp, bc->r->golden);
  *res = bf ? 0xFFFF0000u | (uint32_t) out : (uint32_t) out;
  return rc;
}

/* Runs one block; returns the unit's final accumulator.  expect: when not NULL, the value both the
 * unit and mxgold must give (a hand-worked row of docs/semantics.md). */
static uint32_t
run_block (cvfpu8_dut *d, const blockcase *bc, const char *where, const uint32_t *expect)
{
  const fmtinfo *f = bc->f;
  unsigned G = f->k, dflags_or = 0;
  uint32_t acc = bc->acc0, dres = 0;
  int clean = 1, failed = 0, first_dev = DEV_NONE;
  opcase c;
  memset (&c, 0, sizeof c);
  c.f = f;
  c.r = bc->r;
  c.dst = bc->dst;
  for (unsigned i = 0; i < f->nops; i++) {
    base_case (&c);
    c.op.xa = bc->xa;
    c.op.xb = bc->xb;
    c.op.acc = acc;
    for (unsigned j = 0; j < G; j++) {
      put_code (f, c.op.a, &c.op.a_rem, j, (unsigned) bc->a[G * i + j]);
      put_code (f, c.op.b, &c.op.b_rem, j, (unsigned) bc->b[G * i + j]);
    }
    unsigned dfl = 0;
    int dev = run_case_out (d, &c, -1, where, &dres, &dfl);
    if (dev < 0) failed = 1;
    else if (dev != DEV_NONE) {
      clean = 0;
      if (first_dev == DEV_NONE) first_dev = dev;
    }
    dflags_or |= dfl;
    if (clean) {
      /* every operation so far was bit-exact: the chain must be mxgold's fused-group model */
      uint32_t fres;
      unsigned ffl;
      fg_checks++;
      if (golden_fg (bc, (size_t) G * (i + 1), sabotage ? MX_ACCUM_EXACT : MX_ACCUM_FUSED_GROUP, &fres, &ffl) != MX_OK
          || fres != dres || ffl != dflags_or) {
        failed = 1;
        if (n_fail < max_print)
          printf ("FG-MISMATCH %s: %s %s %s op %u: unit 0x%08" PRIx32 " flags 0x%02x, fused-group"
                  " 0x%08" PRIx32 " flags 0x%02x\n", where, f->name, bc->r->name,
                  bc->dst == F_FP16ALT ? "bf16" : "fp32", i, dres, dflags_or, fres, ffl);
        n_fail++;
      }
    }
    acc = dres;
  }
  if (clean && !failed) {
    /* how often the chained roundings differ from one rounding of the block (`exact`) */
    uint32_t eres;
    unsigned efl;
    if (golden_fg (bc, (size_t) G * f->nops, MX_ACCUM_EXACT, &eres, &efl) == MX_OK && eres != dres)
      fg_not_exact++;
  }
  if (expect && dres != *expect) {
    printf ("MISMATCH %s: the unit gives 0x%08" PRIx32 ", the hand-worked row 0x%08" PRIx32 "\n", where,
            dres, *expect);
    failed = 1;
    n_fail++;
  }
  if (failed) blk_fail++;
  else if (first_dev != DEV_NONE) {
    blk_dev++;
    blk_dev_count[first_dev]++;
  } else blk_pass++;
  return dres;
}

static void
rand_block (blockcase *bc)
{
  const fmtinfo *f = bc->f;
  const mx_format *ef = mx_format_get (f->id);
  int special = rndu (100) < 4;
  unsigned sparse = rndu (100) < 35 ? 1 + rndu (4) : 0; /* few nonzero products: exact sums */
  for (unsigned i = 0; i < BLOCK; i++) {
    int keep = !sparse || rndu (BLOCK) < sparse;
    bc->a[i] = keep ? rand_code (f, special) : 0;
    bc->b[i] = keep ? rand_code (f, special) : 0;
  }
  bc->a[BLOCK] = bc->b[BLOCK] = 0;
  if (rndu (100) < 20) {
    /* group 1 cancels group 0 (up to the signs of zeros): the groups' roundings matter */
    unsigned G = f->k, sbit = 1u << (ef->bits - 1);
    for (unsigned j = 0; j < G && G + j < BLOCK; j++) {
      bc->a[G + j] = f->is_int ? (uint64_t) (-(int64_t) bc->a[j] & 0xFF) : bc->a[j] ^ sbit;
      bc->b[G + j] = bc->b[j];
    }
  }
  unsigned m = rndu (100);
  if (m < 80) {
    bc->xa = 127 + rndu (41) - 20;
    bc->xb = 127 + rndu (41) - 20;
  } else if (m < 99) {
    bc->xa = rndu (255);
    bc->xb = rndu (255);
  } else {
    bc->xa = rndu (2) ? 0xFF : rndu (255);
    bc->xb = 0xFF;
  }
  opcase c;
  memset (&c, 0, sizeof c);
  c.f = f;
  c.r = bc->r;
  c.dst = bc->dst;
  c.op.xa = bc->xa;
  c.op.xb = bc->xb;
  bc->acc0 = rand_acc (&c);
  if (bc->dst == F_FP16ALT) bc->acc0 = 0xFFFF0000u | (bc->acc0 >> 16); /* BF16, NaN-boxed */
}

/* the hand-worked rows of docs/semantics.md "The fused-group model" (E4M3, X = 1, RNE) */
static void
hand_worked (cvfpu8_dut *d)
{
  blockcase bc;
  memset (&bc, 0, sizeof bc);
  bc.f = &FMTS[0];
  bc.r = &RNDS[0];
  bc.xa = bc.xb = 127;
  /* 448*448 + 2^-9*2^-9, then 448*(-448) + 2^-9*2^-9: G = 8 gives 2^-18 */
  bc.dst = F_FP32;
  bc.a[0] = bc.b[0] = 0x7E;
  bc.a[1] = bc.b[1] = 0x01;
  bc.a[8] = 0xFE;
  bc.b[8] = 0x7E;
  bc.a[9] = bc.b[9] = 0x01;
  uint32_t want = 0x36800000u;
  run_block (d, &bc, "hand-worked fp32", &want);
  /* BF16 accumulator 1.0, then + 2^-8 twice: stays 1.0 (two ties to even) */
  memset (&bc, 0, sizeof bc);
  bc.f = &FMTS[0];
  bc.r = &RNDS[0];
  bc.xa = bc.xb = 127;
  bc.dst = F_FP16ALT;
  bc.acc0 = 0xFFFF3F80u;
  bc.a[0] = bc.b[0] = 0x18; /* 2^-4 */
  bc.a[8] = bc.b[8] = 0x18;
  want = 0xFFFF3F80u;
  run_block (d, &bc, "hand-worked bf16", &want);
}

/* --- main ---------------------------------------------------------------------------------- */
static void
usage (FILE *o)
{
  fprintf (o,
    "usage: cvfpu-mxdotp8-harness [options]\n"
    "  --formats LIST   comma list of e4m3,e5m2,e2m1,int8,e3m2,e2m3 (default all six)\n"
    "  --roundings LIST comma list of rne,rtz,rdn,rup,rmm,rod (default all)\n"
    "  --dst LIST       comma list of fp32,bf16 (default fp32,bf16)\n"
    "  --blocks N       random 32-element blocks per format/rounding/destination (default 200)\n"
    "  --seed S         PRNG seed (default 1)\n"
    "  --no-directed    skip the directed cases\n"
    "  --no-maxexp      random FP6/FP4 codes avoid the all-ones exponent (checks the rest, see D9)\n"
    "  --sabotage       check the blocks against `exact` (one rounding) instead of `fused-group`:\n"
    "                   a run that must fail, to show the block check can tell the two apart\n"
    "  --repro FILE     replay a reproducer file (repeatable); its cases must show their deviation\n"
    "  --pipe P         pipeline registers in the built model (default 0; must match the build)\n"
    "  --max-print K    print at most K mismatches (default 10)\n"
    "  --emit-repro K   print the first K cases of each documented deviation as repro lines\n"
    "  --help\n"
    "Ends with the block and operation counts and 'N passed, M failed, D documented deviations'\n"
    "(operations); exit 0 iff M is 0, 2 on bad usage.\n");
}

int
main (int argc, char **argv)
{
  const char *formats = "e4m3,e5m2,e2m1,int8,e3m2,e2m3", *roundings = "rne,rtz,rdn,rup,rmm,rod", *dsts = "fp32,bf16";
  unsigned long nrand = 200, seed = 1, pipe = 0, mp = 10;
  int do_directed = 1;
  const char *repro[16];
  int nrepro = 0;
  static const char *const fnames[] = { "e4m3", "e5m2", "e2m1", "int8", "e3m2", "e2m3" };
  static const char *const rnames[] = { "rne", "rtz", "rdn", "rup", "rmm", "rod" };
  static const char *const dnames[] = { "fp32", "bf16" };
  for (int i = 1; i < argc; i++) {
    const char *o = argv[i];
    int has = i + 1 < argc;
    if (!strcmp (o, "--help")) { usage (stdout); return 0; }
    else if (!strcmp (o, "--no-directed")) do_directed = 0;
    else if (!strcmp (o, "--no-maxexp")) avoid_maxexp = 1;
    else if (!strcmp (o, "--sabotage")) sabotage = 1;
    else if (!has) { fprintf (stderr, "%s: unknown option or missing value\n", o); usage (stderr); return 2; }
    else if (!strcmp (o, "--formats")) { formats = argv[++i]; if (check_list (o, formats, fnames, 6)) return 2; }
    else if (!strcmp (o, "--roundings")) { roundings = argv[++i]; if (check_list (o, roundings, rnames, 6)) return 2; }
    else if (!strcmp (o, "--dst")) { dsts = argv[++i]; if (check_list (o, dsts, dnames, 2)) return 2; }
    else if (!strcmp (o, "--blocks")) { if (parse_ulong (o, argv[++i], &nrand)) return 2; }
    else if (!strcmp (o, "--seed")) { if (parse_ulong (o, argv[++i], &seed)) return 2; }
    else if (!strcmp (o, "--pipe")) {
      if (parse_ulong (o, argv[++i], &pipe)) return 2;
      if (pipe > 8) { fprintf (stderr, "--pipe: expected 0..8, got %lu\n", pipe); return 2; }
    }
    else if (!strcmp (o, "--max-print")) { if (parse_ulong (o, argv[++i], &mp)) return 2; }
    else if (!strcmp (o, "--emit-repro")) {
      unsigned long e;
      if (parse_ulong (o, argv[++i], &e)) return 2;
      emit_repro = (unsigned) e;
    }
    else if (!strcmp (o, "--repro")) {
      if (nrepro == 16) { fprintf (stderr, "--repro: at most 16 files\n"); return 2; }
      repro[nrepro++] = argv[++i];
    } else { fprintf (stderr, "%s: unknown option\n", o); usage (stderr); return 2; }
  }
  max_print = (unsigned) mp;
  gen.s = seed;
  cvfpu8_dut *d = cvfpu8_new ((unsigned) pipe);
  for (int i = 0; i < nrepro; i++) {
    int rc = run_repro (d, repro[i]);
    if (rc) { cvfpu8_free (d); return rc; }
  }
  if (in_list (formats, "e4m3") && in_list (roundings, "rne")) hand_worked (d);
  for (size_t fi = 0; fi < NFMTS; fi++) {
    if (!in_list (formats, FMTS[fi].name)) continue;
    for (size_t ri = 0; ri < NRNDS; ri++) {
      if (!in_list (roundings, RNDS[ri].name)) continue;
      for (int di = 0; di < 2; di++) {
        if (!in_list (dsts, dnames[di])) continue;
        unsigned dst = di ? F_FP16ALT : F_FP32;
        if (do_directed) directed (d, &FMTS[fi], &RNDS[ri], dst);
        blockcase bc;
        memset (&bc, 0, sizeof bc);
        bc.f = &FMTS[fi];
        bc.r = &RNDS[ri];
        bc.dst = dst;
        char where[64];
        snprintf (where, sizeof where, "random %s/%s/%s", FMTS[fi].name, RNDS[ri].name, dnames[di]);
        unsigned long f0 = n_fail, p0 = n_pass, d0 = n_dev;
        unsigned long bp0 = blk_pass, bf0 = blk_fail, bd0 = blk_dev;
        for (unsigned long n = 0; n < nrand; n++) {
          rand_block (&bc);
          run_block (d, &bc, where, NULL);
        }
        printf ("%-20s blocks %lu passed, %lu failed, %lu documented; ops %lu passed, %lu failed, %lu documented\n",
                where, blk_pass - bp0, blk_fail - bf0, blk_dev - bd0, n_pass - p0, n_fail - f0, n_dev - d0);
      }
    }
  }
  cvfpu8_free (d);
  for (int i = 1; i < DEV_COUNT; i++)
    if (dev_count[i]) printf ("deviation %-16s %lu operations, %lu blocks (first deviation)\n", DEV_NAMES[i],
                              dev_count[i], blk_dev_count[i]);
  printf ("fused-group checks %lu (chain prefixes equal to mx_dot fused-group), %lu clean blocks differ from exact\n",
          fg_checks, fg_not_exact);
  printf ("blocks: %lu passed, %lu failed, %lu documented\n", blk_pass, blk_fail, blk_dev);
  printf ("%lu passed, %lu failed, %lu documented deviations\n", n_pass, n_fail, n_dev);
  return n_fail ? 1 : 0;
}
