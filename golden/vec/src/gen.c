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
  int keep_rbits;        /* the case set its own sr words (nvfp4 carry cases) */
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
  if (g->h->rnd == MX_SR && !g->keep_rbits)
    for (size_t i = 0; i < mxv_elems (g->h); i++)
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
gen_specials (gen *g, int probes_too)
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
  if (!probes_too)
    return;
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
  gen_specials (g, 1);
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

/*------------------------------------------------------------------- nvfp4 -*/
/* The structured tensors are built so that TE's FP32 steps are exact: with amax = 2688 * 2^-k,
 * S_enc = 2^k, and a block whose maximum is 6 times a power-of-two scale gets that scale and a
 * power-of-two reciprocal, so x * rcp lands exactly where the table puts it (ties, SR
 * fractions).  Scales that are not powers of two are mixed in for the inexact paths. */

/* Element magnitudes in 1/1024 of the block's decode scale (E2M1 units); entry 0 is the block
 * maximum 6. */
static const uint16_t nv_tab[3][16] = {
  /* every E2M1 value and every midpoint (exact ties) */
  { 6144, 0, 512, 1024, 1536, 2048, 3072, 4096, 256, 768, 1280, 1792, 2560, 3584, 5120, 6144 },
  /* the midpoints, each nudged one FP32 ulp down (even index) or up (odd) */
  { 6144, 5120, 5120, 3584, 3584, 2560, 2560, 1792, 1792, 1280, 1280, 768, 768, 256, 256, 0 },
  /* SR fractions f/256 of a step above a grid value (f = 1, 8, 255, 2, 254, ...), and values
   * that round to 0 */
  { 6144, 514, 528, 768, 1022, 1028, 1536, 2044, 2056, 2560, 4092, 4112, 5120, 6136, 128, 1 },
};
/* UE4M3 scale codes: the powers of two 2^0, 2^-9 .. 2^8, then others (448, subnormals, ...). */
static const uint8_t nv_sc[] = { 0x38, 0x01, 0x02, 0x04, 0x08, 0x10, 0x18, 0x20, 0x28, 0x30, 0x40,
                                 0x48, 0x50, 0x58, 0x60, 0x68, 0x70, 0x78, 0x7E, 0x79, 0x3C, 0x03,
                                 0x05, 0x0F, 0x33, 0x7D };
#define NV_NSC (sizeof nv_sc / sizeof nv_sc[0])

/* value of UE4M3 code c as num * 2^exp */
static void
ue4m3_of (unsigned c, uint64_t *num, long *exp)
{
  unsigned e = c >> 3, m = c & 7;
  *num = e ? 8 + m : m;
  *exp = e ? (long) e - 10 : -9;
}

/* The scale group (block or tile) of element i. */
static size_t
nv_group (const mxv_header *h, size_t i)
{
  size_t r = i / h->cols, nbc = h->cols / MX_NVFP4_BLOCK;
  return (h->tile_2d ? r / MX_NVFP4_BLOCK : r) * nbc + (i % h->cols) / MX_NVFP4_BLOCK;
}

/* A grid tensor: S_enc 2^k, table v, group g under scale code nv_sc[(g + off) % NV_NSC] (group 0:
 * 448, holding the tensor amax 2688 * 2^-k). */
static void
nv_grid (gen *g, long k, int v, size_t off)
{
  const mxv_header *h = g->h;
  size_t ne = h->rows * h->cols;
  for (size_t i = 0; i < ne; i++)
    {
      size_t r = i / h->cols, gid = nv_group (h, i);
      unsigned ti = (unsigned) ((i % MX_NVFP4_BLOCK + r) % MX_NVFP4_BLOCK);
      uint64_t sn, t = nv_tab[v][ti];
      long se;
      ue4m3_of (gid == 0 ? 0x7E : nv_sc[(gid + off) % NV_NSC], &sn, &se);
      int neg = (int) ((i + r + (size_t) v) & 1);
      uint64_t x = t ? f32_of (t * sn, se - k - 10, neg) : (neg ? 0x80000000u : 0);
      if (v == 1 && ti != 0 && t != 0)
        x = ti & 1 ? x + 1 : x - 1; /* one FP32 ulp off the midpoint */
      g->c->in[i] = to_in (h, x);
    }
}

/* Put a grid tensor's case, its amax computed from it when the header gives the amax. */
static void
nv_put (gen *g)
{
  if (g->h->amax_given)
    mx_nvfp4_amax (&g->c->amax, g->h->in, g->c->in, mxv_elems (g->h));
  put (g);
}

static void
gen_nvfp4 (gen *g)
{
  const mxv_header *h = g->h;
  mxv_case *c = g->c;
  size_t ne = h->rows * h->cols, nbc = h->cols / MX_NVFP4_BLOCK;
  int f16 = h->in->id == MX_FP16;
  static const long ks[] = { 0, 9, -100, 100 }, ks16[] = { 0, 4, 9 };
  int nk = h->level >= 2 ? (f16 ? 17 : 57) : f16 ? 3 : 4;
  for (int ki = 0; ki < nk; ki++)
    {
      long k = h->level >= 2 ? (f16 ? ki - 4 : 4 * ki - 112) : f16 ? ks16[ki] : ks[ki];
      for (int v = 0; v < 3; v++)
        nv_grid (g, k, v, (size_t) (ki * 3 + v) * 7), nv_put (g);
    }
  /* special tensors, on the k = 0 grid */
  for (int s = 0; s < 12; s++)
    {
      nv_grid (g, 0, 0, 0);
      switch (s)
        {
        case 0: /* all zero, both signs: amax 0, S_enc 1 */
          for (size_t i = 0; i < ne; i++)
            c->in[i] = to_in (h, i & 1 ? 0x80000000u : 0);
          break;
        case 1: /* NaN: ignored by the amaxes, +6 */
          c->in[5] = c->in[ne - 1] = to_in (h, 0x7FC00000);
          break;
        case 2: /* +Inf: amax Inf, S_enc 1 */
          c->in[ne - h->cols + 3] = to_in (h, 0x7F800000);
          break;
        case 3:
          c->in[1] = to_in (h, 0xFF800000);
          c->in[ne / 2 + h->cols / 2] = to_in (h, 0xFFC00000);
          break;
        case 4: /* FLT_MAX: S_enc 0x05280001 */
          c->in[0] = to_in (h, 0x7F7FFFFF);
          c->in[ne - 1] = to_in (h, 0xFF7FFFFF);
          break;
        case 5: /* FP32 subnormals only: 2688 / amax overflows, S_enc FLT_MAX */
          for (size_t i = 0; i < ne; i++)
            c->in[i] = to_in (h, ((i * 2654435761u) & 0x807FFFFF) | (i == 0 ? 0x7FFFFF : 0));
          break;
        case 6: /* every group but the first 2^-40 below: scale 0, rcp FLT_MAX, saturation */
          for (size_t i = 0; i < ne; i++)
            if (nv_group (h, i) != 0 && (c->in[i] & 0x7FFFFFFF) != 0)
              {
                uint64_t x = c->in[i];
                c->in[i] = to_in (h, f32_of (0x800000 | (x & 0x7FFF), -40 - 23 - (long) (i % 16), (int) (i & 1)));
              }
          break;
        case 7: case 8: case 9: /* the amax where 2688 / amax overflows: 0x05280000 and below */
          for (size_t i = 0; i < ne; i++)
            c->in[i] = to_in (h, f32_of (pattern ((int) i), -118 - 23 - (long) (i % 24), (int) (i & 1)));
          c->in[0] = to_in (h, 0x0527FFFF + (uint64_t) (s - 7));
          break;
        case 10: /* block maxima whose decode scale is an E4M3 midpoint (or beyond 448), +-1 ulp */
          {
            /* midpoints as num * 2^exp: 1.0625, 1.9375, 464, 2^-10, 1.5 * 2^-9, 15 * 2^-10 */
            static const uint64_t mn[] = { 17, 31, 29, 1, 3, 15 };
            static const long me[] = { -4, -4, 4, -10, -10, -10 };
            for (size_t i = 0; i < ne; i++)
              {
                size_t gid = nv_group (h, i), mi = (gid + g->n) % 6;
                if (gid == 0)
                  continue;
                unsigned ti = (unsigned) (i % MX_NVFP4_BLOCK);
                uint64_t x = f32_of (nv_tab[0][ti] * mn[mi], me[mi] - 10, 0);
                if (ti == 0)
                  x += (uint64_t) (gid % 3) - 1; /* the block maximum, an ulp either way */
                c->in[i] = to_in (h, x);
              }
            break;
          }
        default: /* NaN only: amax +0, every code +6 */
          for (size_t i = 0; i < ne; i++)
            c->in[i] = to_in (h, 0x7FC00000);
          break;
        }
      nv_put (g);
    }
  if (h->amax_given) /* a calibrated amax: none, Inf, NaN, huge, tiny, below and above the data */
    {
      static const uint64_t am[] = { 0x00000000, 0x7F800000, 0x7FC00000, 0x7F7FFFFF, 0x00000001,
                                     0x00800000, 0x43A80000, 0x49A80000, 0x05280000, 0x05280001 };
      for (size_t a = 0; a < sizeof am / sizeof am[0]; a++)
        {
          nv_grid (g, 0, (int) (a % 3), a);
          c->amax = am[a];
          put (g);
        }
    }
  if (h->rnd == MX_SR) /* carries: r8 + the element's fraction (in 256ths) is exactly 256, or 255 */
    for (int below = 0; below < 2; below++)
      {
        nv_grid (g, 0, 2, 0);
        for (size_t i = 0; i < ne; i++)
          {
            size_t gid = nv_group (h, i);
            uint64_t sn, t = nv_tab[2][(i % MX_NVFP4_BLOCK + i / h->cols) % MX_NVFP4_BLOCK];
            long se;
            ue4m3_of (gid == 0 ? 0x7E : nv_sc[gid % NV_NSC], &sn, &se);
            uint64_t step = t < 2048 ? 512 : t < 4096 ? 1024 : 2048;
            uint64_t f = (t % step) * 256 / step;
            c->rbits[i] = (mxv_rng_next (&g->rng) & 0xFFFFFF00) | ((256 - f - (uint64_t) below) & 0xFF);
          }
        g->keep_rbits = 1;
        nv_put (g);
        g->keep_rbits = 0;
      }
  (void) nbc;
}

/* A random tensor: a random top exponent, each group at its own depth below it, elements at
 * random depths in the group, zeros, FP32 subnormals, now and then a NaN or an Inf; a given
 * amax is the tensor's, or that times a power of two. */
static void
gen_nvfp4_random (gen *g)
{
  const mxv_header *h = g->h;
  mxv_case *c = g->c;
  size_t ne = h->rows * h->cols;
  unsigned long long r = mxv_rng_next (&g->rng);
  int f16 = h->in->id == MX_FP16;
  long top = f16 ? (long) (r % 30) - 14 : (long) (r % 250) - 125;
  for (size_t i = 0; i < ne; i++)
    {
      unsigned long long x = mxv_rng_next (&g->rng);
      mxv_rng gr = { r ^ (nv_group (h, i) * 0x9E3779B97F4A7C15ull) };
      long d = (long) (mxv_rng_next (&gr) % 24) + (long) ((x >> 40) % 12);
      uint64_t v;
      switch (x % 16)
        {
        case 0: v = x & 0x80000000u; break;
        case 1: v = (x >> 8) & 0x807FFFFF; break;
        default: v = f32_of (0x800000 | ((x >> 8) & 0x7FFFFF), top - d - 23, (int) ((x >> 63) & 1));
        }
      c->in[i] = to_in (h, v);
    }
  if (r >> 60 == 0)
    c->in[(r >> 32) % ne] = to_in (h, (r >> 59) & 1 ? 0x7F800000u : 0x7FC00000u);
  if (h->amax_given)
    {
      mx_nvfp4_amax (&c->amax, h->in, c->in, ne);
      long e = (long) ((r >> 8) % 9) - 4;
      if ((r >> 16) % 4 == 0 && c->amax >= 0x10000000 && c->amax < 0x70000000)
        c->amax = (uint64_t) ((long) c->amax + e * (1L << 23));
    }
  put (g);
}

/*--------------------------------------------------------------------- mxs -*/
/* Depths below the block exponent of the two elements of a sub-block (-1: zero, 30: far below,
 * rounds to 0): level with E, one or two below (the shift), and empty sub-blocks. */
static const signed char mxs_pairs[8][2] = { { 0, 0 }, { 1, 1 }, { 0, 1 }, { 1, 2 },
                                             { -1, -1 }, { 1, -1 }, { 2, 3 }, { 30, 30 } };

static void
mxs_block (gen *g, int E, uint64_t topsig, int fill)
{
  const mxv_header *h = g->h;
  const mx_mxs_desc *d = mx_mxs_get (h->mxs);
  int m = (int) d->mbits, maxs = (1 << d->d2) - 1;
  mxv_case *c = g->c;
  for (size_t j = 0; j < h->k / d->k2; j++)
    {
      const signed char *p = mxs_pairs[(j + (size_t) fill * 3 + (size_t) (E & 7)) % 8];
      int s = maxs;
      for (size_t e = 0; e < d->k2; e++)
        if (p[e % 2] >= 0 && p[e % 2] < s)
          s = p[e % 2];
      if (j == 0)
        s = 0; /* element 0 is the block maximum */
      for (size_t e = 0; e < d->k2; e++)
        {
          size_t i = j * d->k2 + e;
          int dd = j == 0 && e == 0 ? 0 : p[e % 2], neg = (int) ((i + (size_t) fill) & 1);
          uint64_t sig;
          if (dd < 0)
            {
              c->in[i] = to_in (h, neg ? 0x80000000u : 0);
              continue;
            }
          int q = m + s - dd; /* a tie of the sub-block's grid has q + 1 significant bits */
          if (j == 0 && e == 0)
            sig = topsig;
          else if (fill < 2 && q >= 0)
            {
              uint64_t o = ((uint64_t) 1 << q) | ((((uint64_t) i * 5 + (uint64_t) (E & 0xFF)) << 1 | 1)
                                                  & (((uint64_t) 1 << q) - 1));
              sig = (q == 0 ? 1 : o) << (23 - q);
              if (fill == 1)
                sig = sig == 0x800000 || (i & 1) ? sig + 1 : sig - 1; /* an ulp off the tie */
            }
          else
            sig = fill == 3 ? 0xFFFFFF : pattern ((int) i + E + 149);
          c->in[i] = to_in (h, f32_of (sig, E - dd - 23, neg));
        }
    }
  put (g);
}

static void
gen_mxs (gen *g)
{
  static const int exps1[] = { -149, -140, -133, -128, -127, -126, -125, -20, -1, 0, 1, 15, 64,
                               126, 127 };
  const mx_mxs_desc *d = mx_mxs_get (g->h->mxs);
  int m = (int) d->mbits;
  /* the top significands: 1, succ 1, pred 2, 1.5, the largest magnitude, the midpoint above it
   * (where rounding saturates) and that midpoint's FP32 neighbours */
  uint64_t ms = (((uint64_t) 1 << m) - 1) << (24 - m), mid = ms + ((uint64_t) 1 << (23 - m));
  uint64_t sigs[] = { 0x800000, 0x800001, 0xFFFFFF, 0xC00000, ms, mid - 1, mid, mid + 1 };
  int nexp = g->h->level >= 2 ? 277 : (int) (sizeof exps1 / sizeof exps1[0]);
  for (int xi = 0; xi < nexp; xi++)
    for (int s = 0; s < 8; s++)
      for (int fill = 0; fill < (g->h->level >= 2 ? 4 : 3); fill++)
        mxs_block (g, g->h->level >= 2 ? xi - 149 : exps1[xi], sigs[s], fill);
  gen_specials (g, 0);
}

/* A random block: a random exponent, each sub-block at a random depth 0..2, its elements at
 * random depths below that, zeros, FP32 subnormals, now and then a NaN or an Inf. */
static void
gen_mxs_random (gen *g)
{
  const mxv_header *h = g->h;
  const mx_mxs_desc *d = mx_mxs_get (h->mxs);
  mxv_case *c = g->c;
  unsigned long long r = mxv_rng_next (&g->rng);
  long top = (long) (r % 278) - 149;
  for (size_t i = 0; i < h->k; i++)
    {
      unsigned long long x = mxv_rng_next (&g->rng);
      long dd = (long) ((r >> (8 + 2 * (i / d->k2))) % 3) + (long) ((x >> 40) % (d->mbits + 2));
      uint64_t v;
      switch (x % 8)
        {
        case 0: v = x & 0x80000000u; break;
        case 1: v = (x >> 8) & 0x807FFFFF; break;
        default: v = f32_of (0x800000 | ((x >> 8) & 0x7FFFFF), top - dd - 23, (int) ((x >> 63) & 1));
        }
      c->in[i] = to_in (h, v);
    }
  if (r >> 60 == 0)
    c->in[(r >> 32) % h->k] = to_in (h, (r >> 59) & 1 ? 0x7F800000u : 0x7FC00000u);
  put (g);
}

long long
mxv_generate (const mxv_header *h, long long n_random, int exhaustive, mxv_emit_fn emit,
              void *ctx, char *err, size_t errlen)
{
  mxv_case *c = calloc (1, sizeof *c);
  gen g = { h, emit, ctx, 0, c, { h->seed }, 0, 0 };
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
  if (exhaustive && (h->op == MXV_GEMM || h->op == MXV_QUANTIZE || h->op == MXV_NVFP4 || h->op == MXV_MXS))
    {
      snprintf (err, errlen, h->op == MXV_GEMM ? "--exhaustive applies to dot (every element pair), not gemm"
                             : "--exhaustive does not apply to %s (use --level 2 and -n)", mxv_op_names[h->op]);
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
    case MXV_NVFP4:
      gen_nvfp4 (&g);
      for (long long i = 0; i < n_gen && !g.stop; i++)
        gen_nvfp4_random (&g);
      break;
    case MXV_MXS:
      gen_mxs (&g);
      for (long long i = 0; i < n_gen && !g.stop; i++)
        gen_mxs_random (&g);
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
