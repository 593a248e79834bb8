/* gen.c -- conformance-case generation (mxgold gen): TestFloat-style structured cases relative
 * to the block maximum, every element tie and midpoint, the special blocks, the 2.2 probes,
 * seeded random cases, and exhaustive sweeps.  Order and content depend only on the header,
 * the level, n and the seed (docs/vectors.md "Cases").
 * SPDX-License-Identifier: MIT */
#include <string.h>
#include "internal.h"

typedef struct
{
  const mxv_header *h;
  mxv_emit_fn emit;      /* NULL: count the cases only */
  void *ctx;
  long long n;
  mxv_case *c;
  mxv_rng rng;
  int stop;              /* emit or the golden model failed: no more cases */
} gen;

static void
put (gen *g)
{
  if (g->emit == NULL || g->stop)
    {
      g->n += !g->stop;
      return;
    }
  /* random bits for sr are part of the case */
  if (g->h->rnd == MX_SR)
    for (size_t i = 0; i < g->h->k; i++)
      g->c->rbits[i] = mxv_rng_next (&g->rng) & 0xFFFFFFFF;
  if (mxv_compute (g->h, g->c) != MX_OK || g->emit (g->ctx, g->c) != 0)
    g->stop = 1;
  else
    g->n++;
}

/* FP32 bits of sig * 2^e (sig < 2^24, the result representable or flushed to FP32 RNE). */
static uint64_t
f32_of_mpfr (mpfr_srcptr x)
{
  mx_policy ieee = mx_policy_ieee ();
  uint64_t b;
  mx_encode (&b, NULL, mx_format_get (MX_FP32), x, 0, &ieee, MX_RNE);
  return b;
}

static uint64_t
f32_of (uint64_t sig, long e, int neg)
{
  mpfr_t x;
  mpfr_init2 (x, 64);
  mpfr_set_ui_2exp (x, sig, e, MPFR_RNDN);
  if (neg)
    mpfr_neg (x, x, MPFR_RNDN);
  uint64_t b = f32_of_mpfr (x);
  mpfr_clear (x);
  return b;
}

/* Convert an FP32 pattern to the header's input format (RNE) so every input kind works. */
static uint64_t
to_in (const mxv_header *h, uint64_t f32bits)
{
  mx_policy ieee = mx_policy_ieee ();
  uint64_t b;
  if (h->in->special == MX_SPECIAL_IEEE && h->in->bits == 32)
    return f32bits;
  mx_cast (&b, NULL, h->in, mx_format_get (MX_FP32), f32bits, 0, &ieee, MX_RNE);
  return b;
}

/* The element value of code c as sig * 2^e (sig odd or 0). */
static void
elem_value (const mx_format *f, uint64_t c, uint64_t *sig, long *e)
{
  mpfr_t x;
  mpfr_init2 (x, 64);
  mx_decode (x, f, c);
  if (!mpfr_regular_p (x))
    *sig = 0, *e = 0;
  else
    {
      mpfr_abs (x, x, MPFR_RNDN);
      *e = (long) mpfr_get_exp (x) - 24;
      mpfr_mul_2si (x, x, -*e, MPFR_RNDN);
      *sig = mpfr_get_ui (x, MPFR_RNDN);
    }
  mpfr_clear (x);
}

/* The +Inf code of an IEEE-style format. */
static uint64_t
inf_code (const mx_format *f)
{
  return (((uint64_t) 1 << f->ebits) - 1) << f->mbits;
}

/* Significand patterns of TestFloat (P2: single bits and runs from both ends), 24-bit. */
static uint64_t
pattern (int i)
{
  int j = i % 46;
  if (j < 23)
    return 0x800000 | (1u << (22 - j));          /* one extra bit */
  return 0x800000 | (0x7FFFFFu >> (j - 22)); /* runs of ones from the bottom */
}

/*--------------------------------------------------------------- quantize -*/
static void
fill_block (gen *g, uint64_t amax_f32, int fill)
{
  const mxv_header *h = g->h;
  const mx_format *e = h->elem;
  mxv_case *c = g->c;
  uint64_t top = amax_f32 & 0x7FFFFFFF;
  int E = (int) (top >> 23) - 127; /* FP32 exponent (subnormals: -127, close enough to place) */
  long X = E - e->emax;            /* FLOOR exponent: ties land exactly on the element grid */
  uint64_t maxc = e->max_mag;
  for (size_t i = 0; i < h->k; i++)
    {
      uint64_t v = 0;
      int neg = (int) (i & 1);
      switch (fill)
        {
        case 0: /* zeros and signed zeros */
          v = neg ? 0x80000000u : 0;
          break;
        case 1: /* element values and midpoints (ties) under the FLOOR scale */
          {
            uint64_t code = (uint64_t) (i / 2) % (maxc + 1), s0, s1;
            long e0, e1;
            elem_value (e, code, &s0, &e0);
            if (i % 4 < 2 || code == maxc)
              v = s0 ? f32_of (s0, e0 + X, neg) : (neg ? 0x80000000u : 0);
            else
              {
                elem_value (e, code + 1, &s1, &e1);
                long lo = s0 ? (e0 < e1 ? e0 : e1) : e1;
                uint64_t a = s0 ? s0 << (e0 - lo) : 0, b = s1 << (e1 - lo);
                v = f32_of (a + b, lo - 1 + X, neg); /* the midpoint */
              }
            break;
          }
        default: /* TestFloat patterns at exponents below the top */
          v = f32_of (pattern ((int) i + fill), E - 23 - (long) (i % 12) * (fill - 1), neg);
          break;
        }
      if ((v & 0x7FFFFFFF) > top)
        v &= 0x807FFFFF; /* keep amax the block maximum */
      c->in[i] = to_in (h, v);
    }
  c->in[(size_t) (g->n * 7) % h->k] = to_in (h, amax_f32); /* amax at a moving position */
  put (g);
}

static void
gen_specials (gen *g)
{
  const mxv_header *h = g->h;
  mxv_case *c = g->c;
  static const uint64_t sp[][3] = {
    /* {value at pos 0, value at pos k-1, filler} */
    { 0x7FC00000, 0x3F800000, 0x3F800000 }, { 0x3F800000, 0x7FC00000, 0xBF800000 },
    { 0x7F800000, 0x3F800000, 0x3F800000 }, { 0x3F800000, 0xFF800000, 0x3F800000 },
    { 0x7F800000, 0x7FC00000, 0x00000000 }, { 0xFFC00001, 0x00000000, 0x00000000 },
    { 0x00000000, 0x00000000, 0x80000000 }, { 0x00000001, 0x80000001, 0x00000000 },
    { 0x007FFFFF, 0x00400000, 0x00000001 }, { 0x7F7FFFFF, 0xFF7FFFFF, 0x3F800000 },
    { 0x00400000, 0x00000000, 0x00000000 }, { 0x00800000, 0x80800000, 0x00000000 },
  };
  for (size_t s = 0; s < sizeof sp / sizeof sp[0]; s++)
    {
      for (size_t i = 0; i < h->k; i++)
        c->in[i] = to_in (h, sp[s][2]);
      c->in[0] = to_in (h, sp[s][0]);
      c->in[h->k - 1] = to_in (h, sp[s][1]);
      if (s < 4) /* NaN/Inf also in the middle */
        c->in[h->k / 2] = to_in (h, sp[s][0] ^ 0x80000000u);
      put (g);
    }
  /* the discriminating probe blocks of docs/profiles.md (the numbers are the probes') */
  static const uint64_t probes[][8] = {
    { 0x404001A3 },                                                   /* 1: 3.0001 */
    { 0x40C00000, 0x3E800000, 0x3F400000, 0x3FA00000, 0x3FE00000, 0x40200000, 0x40600000, 0x40A00000 }, /* 2 */
    { 0x417FFFFF }, { 0x3F7FFFFF }, { 0x407FFFFF },                   /* 3: pred 2^k */
    { 0x43E80000, 0x43E80001, 0x43F00000 },                           /* 4: 464, 464+, 480 */
    { 0x3F800000, 0x80000000, 0xB5800000 },                           /* 8: 1, -0, -2^-20 */
    { 0x04600001 },                                                   /* 9: rceil edge */
    { 0xBFFFE000 },                                                   /* 10: -1.99902 */
    { 0x40600000 },                                                   /* 14: 3.5 */
  };
  for (size_t p = 0; p < sizeof probes / sizeof probes[0]; p++)
    {
      memset (c->in, 0, h->k * sizeof c->in[0]);
      for (size_t i = 0; i < 8 && i < h->k; i++)
        c->in[i] = to_in (h, probes[p][i]);
      put (g);
    }
}

static void
gen_quantize_structured (gen *g)
{
  static const int exps1[] = { -149, -133, -127, -126, -125, -20, -1, 0, 1, 8, 15, 64, 126, 127 };
  const mx_format *e = g->h->elem;
  uint64_t ms, maxsig[8];
  long me;
  elem_value (e, e->max_mag, &ms, &me);
  while (ms < 0x800000)
    ms <<= 1;
  /* significands: 1, succ 1, pred 2, 1.5, and the element's saturation threshold: max, the
   * midpoint above max (where RNE starts to saturate) and its FP32 neighbours */
  uint64_t mid = ms + (0x800000 >> (e->special == MX_SPECIAL_INT ? 7 : e->mbits + 1));
  uint64_t sigs[] = { 0x800000, 0x800001, 0xFFFFFF, 0xC00000, ms, mid - 1, mid, mid + 1 };
  memcpy (maxsig, sigs, sizeof sigs);
  int nexp = g->h->level >= 2 ? 277 : (int) (sizeof exps1 / sizeof exps1[0]);
  for (int xi = 0; xi < nexp; xi++)
    {
      int E = g->h->level >= 2 ? xi - 149 : exps1[xi];
      for (int s = 0; s < 8; s++)
        for (int fill = 0; fill < 3; fill++)
          {
            uint64_t sig = maxsig[s] & 0xFFFFFF;
            if (sig > 0xFFFFFF)
              sig = 0xFFFFFF;
            uint64_t a = E < -126 ? f32_of (sig, E - 23, 0) : ((uint64_t) (E + 127) << 23) | (sig & 0x7FFFFF);
            if (E >= 128 || a == 0)
              continue;
            fill_block (g, a, fill);
          }
    }
  gen_specials (g);
}

/* Weighted random block: random top exponent, elements at random depths below it, ties,
 * zeros, subnormals, a NaN or Inf now and then. */
static void
gen_quantize_random (gen *g)
{
  const mxv_header *h = g->h;
  mxv_case *c = g->c;
  unsigned long long r = mxv_rng_next (&g->rng);
  long top = (long) (r % 278) - 149;
  for (size_t i = 0; i < h->k; i++)
    {
      unsigned long long x = mxv_rng_next (&g->rng);
      long d = (long) ((x >> 40) % 40);
      uint64_t v;
      switch (x % 8)
        {
        case 0: v = x & 0x80000000u; break;
        case 1: v = (x >> 8) & 0x807FFFFF; break; /* FP32 subnormal */
        default:
          v = f32_of (0x800000 | ((x >> 8) & 0x7FFFFF), top - d - 23, (int) ((x >> 63) & 1));
        }
      c->in[i] = to_in (h, v);
    }
  if (r >> 60 == 0)
    c->in[(r >> 32) % h->k] = to_in (h, (r >> 59) & 1 ? 0x7F800000u : 0x7FC00000u);
  put (g);
}

/*------------------------------------------------------------------- cast -*/
static void
gen_cast (gen *g, int exhaustive)
{
  const mxv_header *h = g->h;
  const mx_format *e = h->elem;
  mxv_case *c = g->c;
  if (exhaustive)
    {
      uint64_t n = (uint64_t) 1 << h->in->bits;
      for (uint64_t x = 0; x < n; x++)
        c->in[0] = x, put (g);
      return;
    }
  /* every element value, the midpoint v + ulp/2 above it (for max: where saturation starts)
   * and the midpoint's FP32 neighbours, both signs */
  mpfr_t v;
  mpfr_init2 (v, 64);
  for (uint64_t code = 0; code <= e->max_mag; code++)
    for (int neg = 0; neg < 2; neg++)
      {
        mx_decode (v, e, code);
        if (neg)
          mpfr_neg (v, v, MPFR_RNDN);
        c->in[0] = to_in (h, f32_of_mpfr (v)), put (g);
        long ue = e->special == MX_SPECIAL_INT ? -(long) e->mbits
                  : (mpfr_zero_p (v) || (long) mpfr_get_exp (v) - 1 < e->emin ? e->emin
                                                                          : (long) mpfr_get_exp (v) - 1)
                      - (long) e->mbits;
        mpfr_t half;
        mpfr_init2 (half, 2);
        mpfr_set_si_2exp (half, neg ? -1 : 1, ue - 1, MPFR_RNDN);
        mpfr_add (v, v, half, MPFR_RNDN); /* exact: 64 bits */
        mpfr_clear (half);
        uint64_t m = f32_of_mpfr (v);
        c->in[0] = to_in (h, m), put (g);
        c->in[0] = to_in (h, m + 1), put (g);
        if ((m & 0x7FFFFFFF) != 0)
          c->in[0] = to_in (h, m - 1), put (g);
      }
  mpfr_clear (v);
  /* specials, far ranges, TestFloat patterns around the element's exponent range */
  static const uint64_t sp[] = { 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x7F800001,
                                 0x7F7FFFFF, 0xFF7FFFFF, 0x00000001, 0x807FFFFF, 0x00800000 };
  for (size_t i = 0; i < sizeof sp / sizeof sp[0]; i++)
    c->in[0] = to_in (h, sp[i]), put (g);
  int lo = e->emin - (int) e->mbits - 3, hi = e->emax + 3;
  for (int E = lo; E <= hi; E++)
    for (int p = 0; p < (h->level >= 2 ? 46 : 4); p++)
      {
        uint64_t sig = h->level >= 2 ? pattern (p) : (uint64_t[]) { 0x800000, 0x800001, 0xFFFFFF, 0xFFFFFE }[p];
        c->in[0] = to_in (h, f32_of (sig, E - 23, p & 1)), put (g);
      }
}

static void
gen_cast_random (gen *g)
{
  unsigned long long x = mxv_rng_next (&g->rng);
  const mx_format *e = g->h->elem;
  long E = (long) (x % (unsigned long long) (e->emax - e->emin + (long) e->mbits + 8)) + e->emin - (long) e->mbits - 4;
  g->c->in[0] = to_in (g->h, f32_of (0x800000 | ((x >> 16) & 0x7FFFFF), E - 23, (int) (x >> 63)));
  put (g);
}

/*------------------------------------------------------ decode, dequantize -*/
static void
gen_dequantize (gen *g, int exhaustive)
{
  const mxv_header *h = g->h;
  mxv_case *c = g->c;
  static const uint64_t scales1[] = { 0x00, 0x01, 0x02, 0x3F, 0x76, 0x77, 0x7E, 0x7F, 0x80,
                                      0xBF, 0xF0, 0xF7, 0xFD, 0xFE, 0xFF };
  size_t ncodes = (size_t) 1 << h->elem->bits, ns = exhaustive || h->level >= 2 ? 256 : sizeof scales1 / sizeof scales1[0];
  if (h->scale->special != MX_SPECIAL_POW2)
    ns = exhaustive ? (size_t) 1 << h->scale->bits : 16;
  for (size_t si = 0; si < ns; si++)
    for (size_t base = 0; base < ncodes; base += h->k)
      {
        c->scale = exhaustive || h->level >= 2 || h->scale->special != MX_SPECIAL_POW2 ? si * (ns == 16 ? 7 : 1) : scales1[si];
        for (size_t i = 0; i < h->k; i++)
          c->codes[i] = (base + i) % ncodes;
        put (g);
      }
}

/*---------------------------------------------------------------- dot, gemm -*/
/* Fill n codes of f by pattern p (0 zeros, 1 max, 2 alternating +-max, 3 max and the smallest
 * subnormal (sticky), 4 every code in turn, 5 random, 6 a NaN/Inf/max code first then random). */
static void
dot_codes (gen *g, uint64_t *c, size_t n, const mx_format *f, int p, size_t off)
{
  uint64_t sign = f->special == MX_SPECIAL_INT ? 0 : (uint64_t) 1 << (f->bits - 1);
  uint64_t maxc = f->max_mag, ncodes = (uint64_t) 1 << f->bits;
  for (size_t i = 0; i < n; i++)
    {
      uint64_t r = mxv_rng_next (&g->rng);
      switch (p)
        {
        case 0: c[i] = 0; break;
        case 1: c[i] = maxc; break;
        case 2: c[i] = i & 1 ? (f->special == MX_SPECIAL_INT ? (ncodes - maxc) : maxc | sign) : maxc; break;
        case 3: c[i] = i == 0 ? maxc : i == 1 ? 1 : 0; break;
        case 4: c[i] = (off + i) % ncodes; break;
        default: c[i] = r % ncodes; break;
        }
    }
  if (p == 6)
    c[0] = f->special == MX_SPECIAL_IEEE ? inf_code (f) : f->special == MX_SPECIAL_FN ? ncodes / 2 - 1 : maxc;
}

static void
gen_dot (gen *g, int exhaustive)
{
  const mxv_header *h = g->h;
  const mx_format *ea = h->elem, *eb = h->elem_b ? h->elem_b : h->elem;
  mxv_case *c = g->c;
  size_t nb = h->op == MXV_GEMM ? h->gkdim / h->k : h->nblocks;
  size_t rows_a = h->op == MXV_GEMM ? h->gm : 1, rows_b = h->op == MXV_GEMM ? h->gn : 1;
  size_t kd = nb * h->k, ncin = h->op == MXV_GEMM ? h->gm * h->gn : 1;
  if (exhaustive) /* every element pair: A[0] = a, B[0] = b, the rest zero, X = 1, C_in = +0 */
    {
      for (uint64_t a = 0; a < ((uint64_t) 1 << ea->bits); a++)
        for (uint64_t b = 0; b < ((uint64_t) 1 << eb->bits); b++)
          {
            memset (c->codes, 0, rows_a * kd * sizeof c->codes[0]);
            memset (c->codes_b, 0, rows_b * kd * sizeof c->codes_b[0]);
            memset (c->in, 0, ncin * sizeof c->in[0]);
            for (size_t j = 0; j < rows_a * nb; j++)
              c->scale_a[j] = 0x7F;
            for (size_t j = 0; j < rows_b * nb; j++)
              c->scale_b[j] = 0x7F;
            c->codes[0] = a, c->codes_b[0] = b;
            put (g);
          }
      return;
    }
  static const uint64_t scales[][2] = { { 0x7F, 0x7F }, { 0x00, 0x00 }, { 0x00, 0xFE }, { 0xFE, 0xFE },
                                        { 0x01, 0x7F }, { 0x80, 0x7E }, { 0x60, 0x90 }, { 0xFF, 0x7F } };
  static const uint64_t cins[] = { 0x00000000, 0x80000000, 0x3F800000, 0xBF800000, 0x7F800000,
                                   0xFF800000, 0x7FC00000, 0x7F7FFFFF, 0x00000001, 0x4B800000,
                                   0xCB800001 };
  size_t ns = sizeof scales / sizeof scales[0], ci = 0;
  for (size_t si = 0; si < ns; si++)
    for (int p = 0; p < 7; p++)
      {
        for (size_t r = 0; r < rows_a; r++)
          dot_codes (g, c->codes + r * kd, kd, ea, p, si * 7);
        for (size_t r = 0; r < rows_b; r++)
          dot_codes (g, c->codes_b + r * kd, kd, eb, p == 2 ? 1 : p, si * 11);
        for (size_t j = 0; j < rows_a * nb; j++)
          c->scale_a[j] = scales[si][0];
        for (size_t j = 0; j < rows_b * nb; j++)
          c->scale_b[j] = scales[si][1];
        if (p == 5 && nb > 1) /* block 1 cancels block 0 */
          for (size_t i = 0; i < h->k; i++)
            {
              c->codes[h->k + i] = c->codes[i];
              c->codes_b[h->k + i] = eb->special == MX_SPECIAL_INT ? (0 - c->codes_b[i]) & 0xFF
                                     : c->codes_b[i] ^ ((uint64_t) 1 << (eb->bits - 1));
            }
        for (size_t i = 0; i < ncin; i++)
          c->in[i] = cins[ci++ % (sizeof cins / sizeof cins[0])];
        put (g);
      }
}

static void
gen_dot_random (gen *g)
{
  const mxv_header *h = g->h;
  const mx_format *ea = h->elem, *eb = h->elem_b ? h->elem_b : h->elem;
  mxv_case *c = g->c;
  size_t nb = h->op == MXV_GEMM ? h->gkdim / h->k : h->nblocks;
  size_t rows_a = h->op == MXV_GEMM ? h->gm : 1, rows_b = h->op == MXV_GEMM ? h->gn : 1;
  size_t ncin = h->op == MXV_GEMM ? h->gm * h->gn : 1;
  for (size_t i = 0; i < rows_a * nb * h->k; i++)
    c->codes[i] = mxv_rng_next (&g->rng) & (((uint64_t) 1 << ea->bits) - 1);
  for (size_t i = 0; i < rows_b * nb * h->k; i++)
    c->codes_b[i] = mxv_rng_next (&g->rng) & (((uint64_t) 1 << eb->bits) - 1);
  for (size_t j = 0; j < rows_a * nb; j++)
    c->scale_a[j] = 0x6F + mxv_rng_next (&g->rng) % 33;
  for (size_t j = 0; j < rows_b * nb; j++)
    c->scale_b[j] = 0x6F + mxv_rng_next (&g->rng) % 33;
  for (size_t i = 0; i < ncin; i++)
    {
      uint64_t x = mxv_rng_next (&g->rng);
      c->in[i] = x % 3 == 0 ? 0 : ((x >> 8) & 0x807FFFFF) | ((x >> 40) % 80 + 90) << 23;
    }
  put (g);
}

long long
mxv_generate (const mxv_header *h, long long n_random, int exhaustive, mxv_emit_fn emit,
              void *ctx, char *err, size_t errlen)
{
  mxv_case *c = calloc (1, sizeof *c);
  gen g = { h, emit, ctx, 0, c, { h->seed }, 0 };
  if (c == NULL)
    return snprintf (err, errlen, "out of memory"), -1;
  if (mxv_header_validate (h, err, errlen) != 0)
    goto fail;
  if (n_random < 0 || n_random > MXV_MAX_CASES)
    {
      snprintf (err, errlen, "the random case count is outside 0..%lld", MXV_MAX_CASES);
      goto fail;
    }
  if (exhaustive && h->op == MXV_CAST && h->in->bits > 16)
    {
      snprintf (err, errlen, "--exhaustive cast needs a 16-bit input (--input bf16 or fp16), not %s",
                h->in->name);
      goto fail;
    }
  if (exhaustive && (h->op == MXV_GEMM || h->op == MXV_QUANTIZE))
    {
      snprintf (err, errlen, h->op == MXV_GEMM ? "--exhaustive applies to dot (every element pair), not gemm"
                                               : "--exhaustive does not apply to quantize (use --level 2 and -n)");
      goto fail;
    }
  /* counting needs no random case: each of them is one case */
  long long n_gen = emit ? n_random : 0;
  switch (h->op)
    {
    case MXV_QUANTIZE:
      gen_quantize_structured (&g);
      for (long long i = 0; i < n_gen && !g.stop; i++)
        gen_quantize_random (&g);
      break;
    case MXV_CAST:
      gen_cast (&g, exhaustive);
      for (long long i = 0; i < n_gen && !g.stop; i++)
        gen_cast_random (&g);
      break;
    case MXV_DOT:
    case MXV_GEMM:
      gen_dot (&g, exhaustive);
      for (long long i = 0; i < n_gen && !g.stop; i++)
        gen_dot_random (&g);
      break;
    case MXV_DECODE:
      for (uint64_t code = 0; code < ((uint64_t) 1 << h->elem->bits) && !g.stop; code++)
        c->in[0] = code, put (&g);
      break;
    default:
      gen_dequantize (&g, exhaustive);
      break;
    }
  if (emit == NULL && h->op != MXV_DECODE && h->op != MXV_DEQUANTIZE)
    g.n += n_random;
  if (g.stop)
    {
      snprintf (err, errlen, "stopped at case %lld (write error)", g.n + 1);
      goto fail;
    }
  free (c);
  return g.n;
fail:
  free (c);
  return -1;
}
