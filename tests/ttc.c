/* ttc -- mx_dot's tensor-core accumulation (MX_ACCUM_TENSOR_CORE) against the independent model
 * s_dot_tc (tests/slow_tc.c: integers only, no MPFR, no GMP), bit for bit: result and flags.
 * Usage: ttc [quick|full]   (default quick; MX_TEST_SEED overrides the fixed seed)
 *  - every preset x every ordered element-format pair x block size {1, 2, 7, 32}; full mode
 *    also x every output format {FP32, BF16, FP16} x every deterministic output rounding
 *  - random custom models: group 1..64, frac_bits 0..40, align rtz/rdn/rne, every deterministic
 *    group rounding, cin_in_group 0/1, scale_point product/group, denorm_products 0/1
 *  - inputs: random codes, max and min-subnormal elements, NaN/Inf codes, cancellation across
 *    groups and blocks, sticky bits below the alignment quantum, exact-zero sums, scales
 *    0x00/0xFE/0xFF and near the FP32 range's ends, C_in specials and C_in = -(the exact sum)
 *  - the linear UE4M3 scale (zero and NaN scales included)
 *  - every element-code pair as one product (k = 1) under the presets (full mode)
 *  - the hand-worked examples of docs/semantics.md, on the model alone
 * SPDX-License-Identifier: MIT */
#include <string.h>
#include "tests.h"

#define KMAX 32
#define NBMAX 4

static const mx_format *E8M0, *UE4M3, *F32;
static long n;
static long n_class[4]; /* results seen: zero, finite, Inf, NaN (the comparison's coverage) */

/* The one call of mx_dot in this file (its signature is about to change: port only this). */
static unsigned
lib_dot_tc (uint64_t *out, const mx_format *of, const uint64_t sa[], const uint64_t ca[],
            const mx_format *ea, const uint64_t sb[], const uint64_t cb[], const mx_format *eb,
            const mx_format *sf, size_t k, size_t nb, uint64_t cin, const mx_tc_model *m,
            mx_rounding rnd)
{
  mx_dot_policy dp = mx_dot_policy_default ();
  unsigned fl = 0;
  dp.accum = MX_ACCUM_TENSOR_CORE;
  dp.tc = *m;
  int rc = mx_dot (out, &fl, of, sa, ca, ea, sb, cb, eb, sf, k, nb, cin, &dp, rnd);
  CHECK (rc == MX_OK, "mx_dot returned %d", rc);
  return fl;
}

static const mx_rounding det[] = { MX_RNE, MX_RNA, MX_RNZ, MX_RHU, MX_RHD, MX_RTZ, MX_RUP, MX_RDN, MX_RTO };
#define N_DET ((int) (sizeof det / sizeof det[0]))
static const mx_rounding aligns[] = { MX_RTZ, MX_RDN, MX_RNE };
static const mx_format_id out_ids[] = { MX_FP32, MX_BF16, MX_FP16 };
static const size_t ks[] = { 1, 2, 7, 32 };

typedef struct
{
  mx_tc_model m;
  const mx_format *ea, *eb, *of, *sf; /* sf: E8M0, or the linear UE4M3 */
  mx_rounding rnd;
  size_t k, nb;
  uint64_t sa[NBMAX], sb[NBMAX], a[NBMAX * KMAX], b[NBMAX * KMAX], cin;
  const char *style;
  int keep_cin; /* the element generator chose C_in */
} tcase;

static void
dump (const tcase *c)
{
  const mx_tc_model *m = &c->m;
  fprintf (stderr,
           "  model group=%u frac_bits=%d align=%s out=%s cin_in_group=%d scale_point=%s "
           "denorm_products=%d\n  %s x %s k=%zu nb=%zu scales %s out %s %s cin=0x%08llX "
           "style %s\n  sa:",
           m->group, m->frac_bits, mx_rounding_name (m->align), mx_rounding_name (m->out),
           m->cin_in_group, m->scale_point == MX_TC_SCALE_GROUP ? "group" : "product",
           m->denorm_products, c->ea->name, c->eb->name, c->k, c->nb, c->sf->name, c->of->name,
           mx_rounding_name (c->rnd), (unsigned long long) c->cin, c->style);
  for (size_t j = 0; j < c->nb; j++)
    fprintf (stderr, " %02llX", (unsigned long long) c->sa[j]);
  fprintf (stderr, "  sb:");
  for (size_t j = 0; j < c->nb; j++)
    fprintf (stderr, " %02llX", (unsigned long long) c->sb[j]);
  fprintf (stderr, "\n  a:");
  for (size_t i = 0; i < c->nb * c->k; i++)
    fprintf (stderr, " %02llX", (unsigned long long) c->a[i]);
  fprintf (stderr, "\n  b:");
  for (size_t i = 0; i < c->nb * c->k; i++)
    fprintf (stderr, " %02llX", (unsigned long long) c->b[i]);
  fputc ('\n', stderr);
}

static void
run (const tcase *c)
{
  uint64_t o1 = 0, o2 = 0;
  unsigned f1 = lib_dot_tc (&o1, c->of, c->sa, c->a, c->ea, c->sb, c->b, c->eb, c->sf, c->k,
                            c->nb, c->cin, &c->m, c->rnd);
  unsigned f2 = s_dot_tc (&o2, c->of, c->sa, c->a, c->ea, c->sb, c->b, c->eb, c->sf, c->k, c->nb,
                          c->cin, &c->m, c->rnd);
  n++;
  n_class[s_decode (c->of, o2).cls]++;
  long before = failures;
  CHECK (o1 == o2 && f1 == f2, "tensor-core: mx_dot %08llX/%02X, s_dot_tc %08llX/%02X",
         (unsigned long long) o1, f1, (unsigned long long) o2, f2);
  if (failures > before && failures <= 8)
    dump (c);
}

/*------------------------------------------------------------ code helpers -*/
static uint64_t cmask (const mx_format *f) { return (1ull << f->bits) - 1; }

static uint64_t
neg_code (const mx_format *f, uint64_t c)
{
  return f->special == MX_SPECIAL_INT ? (0 - c) & cmask (f) : c ^ (1ull << (f->bits - 1));
}

static int
is_special (const mx_format *f, uint64_t c)
{
  s_val v = s_decode (f, c);
  return v.cls == S_NAN || v.cls == S_INF;
}

/* a random finite code */
static uint64_t
finite_code (rng *r, const mx_format *f)
{
  uint64_t c;
  do
    c = rng_next (r) & cmask (f);
  while (is_special (f, c));
  return c;
}

/* NaN and Inf codes of f, from its raw parameters; returns how many */
static int
special_codes (const mx_format *f, uint64_t out[4])
{
  uint64_t sign = 1ull << (f->bits - 1), ones = ((1ull << f->ebits) - 1) << f->mbits;
  if (f->special == MX_SPECIAL_IEEE)
    {
      out[0] = ones, out[1] = ones | sign;         /* +-Inf */
      out[2] = ones | 1, out[3] = ones | sign | 2; /* NaNs */
      return 4;
    }
  if (f->special == MX_SPECIAL_FN)
    {
      out[0] = cmask (f) >> 1, out[1] = cmask (f); /* +-NaN */
      return 2;
    }
  return 0;
}

/* one of: +-max, +-min subnormal (the smallest nonzero magnitude), +-0 */
static uint64_t
extreme_code (rng *r, const mx_format *f)
{
  uint64_t mag;
  switch (rng_below (r, 3))
    {
    case 0: mag = s_max_mag (f); break;
    case 1: mag = 1; break;
    default: mag = 0; break;
    }
  if (f->special == MX_SPECIAL_INT && mag == 0)
    return 0;
  return rng_below (r, 2) ? neg_code (f, mag) : mag;
}

/* a small magnitude: the lowest few codes, random sign */
static uint64_t
tiny_code (rng *r, const mx_format *f)
{
  uint64_t mag = 1 + rng_below (r, 3);
  return rng_below (r, 2) ? neg_code (f, mag) : mag;
}

/* a large magnitude: the top few finite codes, random sign */
static uint64_t
big_code (rng *r, const mx_format *f)
{
  uint64_t mag = s_max_mag (f) - rng_below (r, 4);
  return rng_below (r, 2) ? neg_code (f, mag) : mag;
}

/*-------------------------------------------------------------- generators -*/
static void
random_model (rng *r, mx_tc_model *m)
{
  static const unsigned groups[] = { 1, 2, 3, 4, 8, 16, 32, 64 };
  m->group = rng_below (r, 2) ? groups[rng_below (r, 8)] : 1 + (unsigned) rng_below (r, 64);
  switch (rng_below (r, 4))
    {
    case 0: m->frac_bits = (int) rng_below (r, 4); break;      /* coarse: many ties and zeros */
    case 1: m->frac_bits = 22 + (int) rng_below (r, 6); break; /* about FP32's */
    default: m->frac_bits = (int) rng_below (r, 41); break;
    }
  m->align = aligns[rng_below (r, 3)];
  m->out = det[rng_below (r, N_DET)];
  m->cin_in_group = (int) rng_below (r, 2);
  m->scale_point = rng_below (r, 2) ? MX_TC_SCALE_GROUP : MX_TC_SCALE_PRODUCT;
  m->denorm_products = (int) rng_below (r, 2);
}

static void
gen_scales (rng *r, tcase *c)
{
  uint64_t kind = rng_below (r, 16);
  for (size_t j = 0; j < c->nb; j++)
    {
      switch (kind)
        {
        case 0: /* the ends of E8M0, NaN included */
          {
            static const uint64_t ends[] = { 0x00, 0x01, 0xFD, 0xFE, 0xFF, 0x7F };
            c->sa[j] = ends[rng_below (r, 6)];
            c->sb[j] = ends[rng_below (r, 6)];
            break;
          }
        case 1: /* products near FP32's subnormals: 2^(ea + eb) about 2^-140 */
          c->sa[j] = 0x7F - 70 + rng_below (r, 21) - 10;
          c->sb[j] = 0x7F - 70 + rng_below (r, 21) - 10;
          break;
        case 2: /* products near FP32's overflow threshold */
          c->sa[j] = 0x7F + 60 + rng_below (r, 9);
          c->sb[j] = 0x7F + 60 + rng_below (r, 9);
          break;
        case 3: /* anything */
          c->sa[j] = rng_below (r, 256);
          c->sb[j] = rng_below (r, 256);
          break;
        case 4: /* equal scales in every block (lets cancellation across blocks be exact) */
          c->sa[j] = j ? c->sa[0] : 0x7F + rng_below (r, 41) - 20;
          c->sb[j] = j ? c->sb[0] : 0x7F + rng_below (r, 41) - 20;
          break;
        default: /* near 1 */
          c->sa[j] = 0x7F + rng_below (r, 41) - 20;
          c->sb[j] = 0x7F + rng_below (r, 41) - 20;
          break;
        }
    }
  if (kind >= 5 && rng_below (r, 24) == 0) /* one NaN scale now and then */
    c->sa[rng_below (r, c->nb)] = 0xFF;
}

enum { ST_FINITE, ST_UNIFORM, ST_SPECIAL, ST_EXTREME, ST_CANCEL, ST_STICKY, ST_ZERO, ST_SUBNORMAL,
       ST_COUNT };
static const char *const st_names[]
    = { "finite", "uniform", "special", "extreme", "cancel", "sticky", "zero", "subnormal" };

static void
gen_elems (rng *r, tcase *c, int st)
{
  size_t t = c->nb * c->k;
  const mx_format *ea = c->ea, *eb = c->eb;
  c->style = st_names[st];
  for (size_t i = 0; i < t; i++)
    {
      c->a[i] = finite_code (r, ea);
      c->b[i] = finite_code (r, eb);
    }
  switch (st)
    {
    case ST_UNIFORM:
      for (size_t i = 0; i < t; i++)
        c->a[i] = rng_next (r) & cmask (ea), c->b[i] = rng_next (r) & cmask (eb);
      break;
    case ST_SPECIAL: /* one or two NaN/Inf codes among finite ones */
      for (int s = 0, ns = 1 + (int) rng_below (r, 2); s < ns; s++)
        {
          uint64_t sc[4];
          int na = special_codes (ea, sc), zero = rng_below (r, 3) == 0; /* Inf * 0 */
          size_t i = rng_below (r, t);
          if (na && rng_below (r, 2))
            {
              c->a[i] = sc[rng_below (r, (uint64_t) na)];
              if (zero)
                c->b[i] = rng_below (r, 2) ? neg_code (eb, 0) : 0;
            }
          else if ((na = special_codes (eb, sc)) != 0)
            {
              c->b[i] = sc[rng_below (r, (uint64_t) na)];
              if (zero)
                c->a[i] = rng_below (r, 2) ? neg_code (ea, 0) : 0;
            }
        }
      break;
    case ST_EXTREME:
      for (size_t i = 0; i < t; i++)
        {
          if (rng_below (r, 4))
            c->a[i] = extreme_code (r, ea);
          if (rng_below (r, 4))
            c->b[i] = extreme_code (r, eb);
        }
      break;
    case ST_CANCEL:
      {
        /* the second half of the products negates the first (in K order: across blocks when
         * nb is even, across groups otherwise), then a perturbation or two */
        size_t h = t / 2, off = t - h;
        for (size_t i = 0; i < h; i++)
          {
            size_t src = rng_below (r, 4) ? i : rng_below (r, h);
            c->a[off + i] = c->a[src];
            c->b[off + i] = neg_code (eb, c->b[src]);
          }
        if (t % 2)
          c->a[h] = rng_below (r, 2) ? 0 : tiny_code (r, ea);
        for (size_t j = 1; j < c->nb && rng_below (r, 4); j++)
          c->sa[j] = c->sa[0], c->sb[j] = c->sb[0];
        for (int p = (int) rng_below (r, 3); p > 0; p--)
          {
            size_t i = rng_below (r, t);
            c->a[i] = tiny_code (r, ea);
            c->b[i] = rng_below (r, 2) ? tiny_code (r, eb) : big_code (r, eb);
          }
        break;
      }
    case ST_STICKY:
      {
        /* a few big products and many far smaller ones (below the alignment quantum) */
        for (size_t i = 0; i < t; i++)
          {
            c->a[i] = tiny_code (r, ea);
            if (rng_below (r, 2))
              c->b[i] = tiny_code (r, eb);
          }
        for (int p = 1 + (int) rng_below (r, 3); p > 0; p--)
          {
            size_t i = rng_below (r, t);
            c->a[i] = big_code (r, ea);
            c->b[i] = big_code (r, eb);
          }
        break;
      }
    case ST_ZERO:
      {
        /* zero products of either sign, or pairs that cancel exactly */
        int pairs = rng_below (r, 2) != 0;
        for (size_t i = 0; i < t; i++)
          {
            uint64_t z = ea->special == MX_SPECIAL_INT || rng_below (r, 2) ? 0 : neg_code (ea, 0);
            if (pairs && i % 2)
              c->a[i] = c->a[i - 1], c->b[i] = neg_code (eb, c->b[i - 1]);
            else if (!pairs || rng_below (r, 2))
              c->a[i] = z;
          }
        for (size_t j = 1; j < c->nb; j++)
          c->sa[j] = c->sa[0], c->sb[j] = c->sb[0];
        break;
      }
    case ST_SUBNORMAL:
      {
        /* subnormal (and zero) operands only: with denorm_products, products below their own
         * alignment exponent, which coarse alignment rounds to zeros of either sign */
        int one_sign = rng_below (r, 2) != 0, neg = rng_below (r, 2) != 0;
        for (size_t i = 0; i < t; i++)
          {
            uint64_t ma = rng_below (r, 1ull << ea->mbits), mb = rng_below (r, 1ull << eb->mbits);
            if (ea->special == MX_SPECIAL_INT) /* INT8 has no subnormals: its smallest codes */
              ma = rng_below (r, 4);
            if (eb->special == MX_SPECIAL_INT)
              mb = rng_below (r, 4);
            if (one_sign) /* every product of one sign, and C_in a zero of that sign */
              c->a[i] = ma, c->b[i] = neg ? neg_code (eb, mb) : mb;
            else
              {
                c->a[i] = rng_below (r, 2) ? neg_code (ea, ma) : ma;
                c->b[i] = rng_below (r, 2) ? neg_code (eb, mb) : mb;
              }
          }
        if (one_sign && rng_below (r, 4))
          c->cin = neg ? 0x80000000 : 0, c->keep_cin = 1;
        break;
      }
    default:
      break;
    }
}

static void
gen_cin (rng *r, tcase *c)
{
  static const uint64_t specials[] = {
    0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x7F800001,
    0x7F7FFFFF, 0xFF7FFFFF, 0x00000001, 0x80000001, 0x007FFFFF, 0x807FFFFF, 0x00800000,
    0x3F800000, 0xBF800000,
  };
  uint64_t x = rng_next (r);
  if (c->keep_cin)
    return;
  switch (rng_below (r, 8))
    {
    case 0:
    case 1: c->cin = specials[rng_below (r, 16)]; break;
    case 2: c->cin = x & 0x807FFFFF; break; /* a subnormal */
    case 3: c->cin = x & 0xFFFFFFFF; break;
    case 4:
    case 5:
      {
        /* -(the exact sum rounded to FP32), give or take an ulp: cancellation with C_in */
        uint64_t s;
        s_dot (&s, F32, c->sa, c->a, c->ea, c->sb, c->b, c->eb, E8M0, c->k, c->nb, 0,
               MX_ACCUM_EXACT, 0, MX_RNE);
        if ((s & 0x7F800000) != 0x7F800000 && (s & 0x7FFFFFFF) != 0)
          s += rng_below (r, 3) - 1;
        c->cin = (s ^ 0x80000000) & 0xFFFFFFFF;
        break;
      }
    default: /* a normal number near the products' size */
      {
        long e = (long) c->sa[0] + (long) c->sb[0] - 254 + (long) rng_below (r, 21) - 10;
        e = e < -126 ? -126 : e > 127 ? 127 : e;
        c->cin = (x & 0x807FFFFF) | (uint64_t) (e + 127) << 23;
        break;
      }
    }
}

/* a random case for model m, formats ea x eb, block size k; output format and rounding given */
static void
gen_case (rng *r, tcase *c, const mx_tc_model *m, const mx_format *ea, const mx_format *eb,
          size_t k, const mx_format *of, mx_rounding rnd)
{
  memset (c, 0, sizeof *c);
  c->m = *m, c->ea = ea, c->eb = eb, c->k = k, c->of = of, c->rnd = rnd, c->sf = E8M0;
  c->nb = 1 + rng_below (r, NBMAX);
  gen_scales (r, c);
  gen_elems (r, c, (int) rng_below (r, ST_COUNT));
  gen_cin (r, c);
  if (!c->keep_cin && rng_below (r, 4) == 0 && (c->m.out == MX_RDN || rng_below (r, 2)))
    c->cin = rng_below (r, 2) ? 0x80000000 : 0; /* exact-zero sums: the sign of zero */
}

/* the same case with linear UE4M3 scales (NVFP4 style): each E8M0 code mapped to a UE4M3 one,
 * equal codes to equal codes, 0xFF (NaN) to 0x7F (NaN), 0x00 to the zero scale 0x00.  (C_in
 * stays as chosen for the E8M0 scales.) */
static void
to_ue4m3 (rng *r, tcase *c)
{
  c->sf = UE4M3;
  if (rng_below (r, 6) == 0) /* a zero scale (times an Inf element: NaN) */
    (rng_below (r, 2) ? c->sa : c->sb)[rng_below (r, c->nb)] = 0;
  for (size_t j = 0; j < c->nb; j++)
    {
      uint64_t *s[2] = { &c->sa[j], &c->sb[j] };
      for (int i = 0; i < 2; i++)
        *s[i] = *s[i] == 0xFF ? 0x7F : *s[i] == 0 ? 0 : 0x18 + (*s[i] * 37) % 0x40;
    }
}

/*------------------------------------------------- hand-worked, model only -*/
static void
hand (void)
{
  const mx_format *e = mx_format_get (MX_E4M3);
  uint64_t a[32] = { 0x38, 0x04 }, b[32] = { 0x38, 0x04 }, s[1] = { 0x7F }, o;
  mx_tc_model m;
  /* products 1 and 2^-14: H100 (13 fraction bits, RZ) drops 2^-14, B200 keeps it */
  mx_tc_model_preset (&m, MX_TC_H100_FP8);
  s_dot_tc (&o, F32, s, a, e, s, b, e, E8M0, 32, 1, 0, &m, MX_RNE);
  CHECK (o == 0x3F800000, "model h100 1 + 2^-14 = %08llX", (unsigned long long) o);
  mx_tc_model_preset (&m, MX_TC_B200_FP8);
  s_dot_tc (&o, F32, s, a, e, s, b, e, E8M0, 32, 1, 0, &m, MX_RNE);
  CHECK (o == 0x3F800200, "model b200 1 + 2^-14 = %08llX", (unsigned long long) o);
  /* MI300 adds C_in = -2^-30 after the product sum and rounds it away; H100 truncates it */
  a[1] = b[1] = 0;
  mx_tc_model_preset (&m, MX_TC_MI300_FP8);
  s_dot_tc (&o, F32, s, a, e, s, b, e, E8M0, 32, 1, 0xB0800000, &m, MX_RNE);
  CHECK (o == 0x3F800000, "model mi300 1 - 2^-30 = %08llX", (unsigned long long) o);
  mx_tc_model_preset (&m, MX_TC_H100_FP8);
  s_dot_tc (&o, F32, s, a, e, s, b, e, E8M0, 32, 1, 0xB0800000, &m, MX_RNE);
  CHECK (o == 0x3F800000, "model h100 1 - 2^-30 = %08llX", (unsigned long long) o);
  /* rdn alignment: 1 - 2^-18 with 13 fraction bits floors to 1 - 2^-13 */
  m.align = MX_RDN;
  a[1] = 0x01, b[1] = 0x81;
  s_dot_tc (&o, F32, s, a, e, s, b, e, E8M0, 32, 1, 0, &m, MX_RNE);
  CHECK (o == 0x3F7FF800, "model rdn 1 - 2^-18 = %08llX", (unsigned long long) o);
  /* the sign of an exact zero: 1 - 1 is +0, or -0 when the group rounding is rdn; -0 + -0 is -0 */
  a[1] = 0x38, b[1] = 0xB8;
  s_dot_tc (&o, F32, s, a, e, s, b, e, E8M0, 32, 1, 0, &m, MX_RNE);
  CHECK (o == 0x00000000, "model 1 - 1 = %08llX", (unsigned long long) o);
  m.out = MX_RDN;
  s_dot_tc (&o, F32, s, a, e, s, b, e, E8M0, 32, 1, 0, &m, MX_RNE);
  CHECK (o == 0x80000000, "model 1 - 1 (rdn) = %08llX", (unsigned long long) o);
  memset (a, 0, sizeof a);
  for (int i = 0; i < 32; i++)
    b[i] = 0x80; /* every product +0 x -0 = -0 */
  m.out = MX_RNE;
  s_dot_tc (&o, F32, s, a, e, s, b, e, E8M0, 32, 1, 0x80000000, &m, MX_RNE);
  CHECK (o == 0x80000000, "model -0 sum = %08llX", (unsigned long long) o);
  /* a subnormal product aligned away by its own exponent: E4M3 2^-9 x -1 with denormalized
   * products and 0 fraction bits aligns to -0; with C_in = -0 the sum is -0 */
  a[0] = 0x01, b[0] = 0xB8;
  m = (mx_tc_model) { 1, 0, MX_RTZ, MX_RNE, 1, MX_TC_SCALE_PRODUCT, 1 };
  s_dot_tc (&o, F32, s, a, e, s, b, e, E8M0, 1, 1, 0x80000000, &m, MX_RNE);
  CHECK (o == 0x80000000, "model 2^-9 x -1, F = 0 = %08llX", (unsigned long long) o);
  m.denorm_products = 0; /* aligned to its own leading bit, it stays */
  s_dot_tc (&o, F32, s, a, e, s, b, e, E8M0, 1, 1, 0x80000000, &m, MX_RNE);
  CHECK (o == 0xBB000000, "model 2^-9 x -1, normalized = %08llX", (unsigned long long) o);
  /* INT8 operands are fixed point: e = max(floor(log2 |x|), emin) with INT8's emin 0, so 2^-6
   * (code 0x01) times 1.0 has the alignment exponent 0 and with 0 fraction bits aligns to +0 */
  {
    const mx_format *i8 = mx_format_get (MX_INT8);
    uint64_t x[1] = { 0x01 }, y[1] = { 0x38 };
    m.denorm_products = 1;
    s_dot_tc (&o, F32, s, x, i8, s, y, e, E8M0, 1, 1, 0, &m, MX_RNE);
    CHECK (o == 0x00000000, "model int8 2^-6 x 1, F = 0 = %08llX", (unsigned long long) o);
  }
  n += 11;
}

/*--------------------------------------------------------------------- main -*/
int
main (int argc, char **argv)
{
  const char *mode = argc > 1 ? argv[1] : "quick";
  int full = strcmp (mode, "full") == 0;
  if (!full && strcmp (mode, "quick") != 0)
    {
      fprintf (stderr, "usage: ttc [quick|full]\n");
      return 2;
    }
  E8M0 = mx_format_get (MX_E8M0);
  UE4M3 = mx_format_get (MX_UE4M3);
  F32 = mx_format_get (MX_FP32);
  rng r = { test_seed () ^ (full ? 0xF0F0ull : 0) };
  mx_format_id elem_ids[MX_FORMAT_COUNT];
  const int N_ELEM = formats_of_role (MX_ROLE_ELEM, elem_ids);
  tcase c;
  /* cases per preset, pair, block size (and in full mode per output format and rounding);
   * random custom-model cases; UE4M3 cases */
  const int per_combo = full ? 6 : 2;
  const long custom = full ? 1500000 : 40000, linear = full ? 150000 : 6000;

  hand ();

  /* 1. the presets: every pair and block size; full: x output format x output rounding */
  for (int p = 0; p < MX_TC_PRESET_COUNT; p++)
    {
      mx_tc_model m;
      mx_tc_model_preset (&m, (mx_tc_preset) p);
      for (int ia = 0; ia < N_ELEM; ia++)
        for (int ib = 0; ib < N_ELEM; ib++)
          for (int ik = 0; ik < 4; ik++)
            for (int o = 0; o < (full ? 3 * N_DET : 1) * per_combo; o++)
              {
                int of = full ? o / per_combo / N_DET : (int) rng_below (&r, 3);
                mx_rounding rnd = full ? det[o / per_combo % N_DET] : det[rng_below (&r, N_DET)];
                gen_case (&r, &c, &m, mx_format_get (elem_ids[ia]), mx_format_get (elem_ids[ib]),
                          ks[ik], mx_format_get (out_ids[of]), rnd);
                run (&c);
              }
    }

  /* 2. random custom models, every pair and block size in rotation */
  for (long it = 0; it < custom; it++)
    {
      mx_tc_model m;
      random_model (&r, &m);
      int pair = (int) (it % (N_ELEM * N_ELEM));
      gen_case (&r, &c, &m, mx_format_get (elem_ids[pair / N_ELEM]),
                mx_format_get (elem_ids[pair % N_ELEM]), ks[(it / 36) % 4],
                mx_format_get (out_ids[rng_below (&r, 3)]), det[rng_below (&r, N_DET)]);
      run (&c);
    }

  /* 3. linear UE4M3 scales (zero and NaN scales included), presets and random models */
  for (long it = 0; it < linear; it++)
    {
      mx_tc_model m;
      if (it % 4 < MX_TC_PRESET_COUNT)
        mx_tc_model_preset (&m, (mx_tc_preset) (it % 4));
      else
        random_model (&r, &m);
      int pair = (int) rng_below (&r, N_ELEM * N_ELEM);
      gen_case (&r, &c, &m, mx_format_get (elem_ids[pair / N_ELEM]),
                mx_format_get (elem_ids[pair % N_ELEM]), ks[rng_below (&r, 4)],
                mx_format_get (out_ids[rng_below (&r, 3)]), det[rng_below (&r, N_DET)]);
      to_ue4m3 (&r, &c);
      run (&c);
    }

  /* 4. full: every element-code pair as one product, with C_in from the special list or
   *    random, under each preset and a random custom model */
  if (full)
    for (int ia = 0; ia < N_ELEM; ia++)
      for (int ib = 0; ib < N_ELEM; ib++)
        {
          const mx_format *ea = mx_format_get (elem_ids[ia]), *eb = mx_format_get (elem_ids[ib]);
          for (uint64_t x = 0; x <= cmask (ea); x++)
            for (uint64_t y = 0; y <= cmask (eb); y++)
              {
                mx_tc_model m;
                uint64_t pick = rng_below (&r, 4);
                if (pick < MX_TC_PRESET_COUNT)
                  mx_tc_model_preset (&m, (mx_tc_preset) pick);
                else
                  random_model (&r, &m);
                memset (&c, 0, sizeof c);
                c.m = m, c.ea = ea, c.eb = eb, c.k = 1, c.nb = 1, c.style = "pair", c.sf = E8M0;
                c.of = mx_format_get (out_ids[rng_below (&r, 3)]);
                c.rnd = det[rng_below (&r, N_DET)];
                c.sa[0] = 0x7F + rng_below (&r, 9) - 4, c.sb[0] = 0x7F;
                c.a[0] = x, c.b[0] = y;
                gen_cin (&r, &c);
                run (&c);
              }
        }
  printf ("results: %ld zero, %ld finite, %ld Inf, %ld NaN\n", n_class[S_ZERO],
          n_class[S_FINITE], n_class[S_INF], n_class[S_NAN]);
  return finish (full ? "ttc full" : "ttc quick", n);
}
