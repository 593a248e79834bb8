/* tcuda_gemm_cases.h -- the cases of libmxk_cuda's GEMM tests (tcuda_gemm_host.c on the host,
 * tcuda_gemm.c on a GPU): random and adversarial MX operands, libmxgold's mx_gemm as the oracle,
 * the bit-exact comparison.
 * SPDX-License-Identifier: MIT */
#ifndef TCUDA_GEMM_CASES_H
#define TCUDA_GEMM_CASES_H
#include <string.h>
#include "tests.h"
#include "mxk_cuda_gemm.h"

static const mx_format_id fmts[] = { MX_E4M3, MX_E5M2, MX_E2M3, MX_E3M2, MX_E2M1, MX_INT8 };
static const mx_accum models[] = { MX_ACCUM_EXACT, MX_ACCUM_BLOCK_FP32 };

typedef struct
{
  size_t m, n, k;
  uint8_t *as, *ac, *bs, *bc;
  uint32_t *cin; /* NULL: zeros */
  mx_format_id fa, fb;
  mx_accum accum;
} gcase;

/*---------------------------------------------------------------- oracle -*/
static void
golden (uint32_t *out, const gcase *c)
{
  size_t nb = c->k / 32;
  uint64_t *as = malloc (c->m * nb * 8), *ac = malloc (c->m * c->k * 8);
  uint64_t *bs = malloc (c->n * nb * 8), *bc = malloc (c->n * c->k * 8);
  uint64_t *ci = malloc (c->m * c->n * 8), *co = malloc (c->m * c->n * 8);
  if (!as || !ac || !bs || !bc || !ci || !co)
    exit (1);
  for (size_t i = 0; i < c->m * nb; i++)
    as[i] = c->as[i];
  for (size_t i = 0; i < c->m * c->k; i++)
    ac[i] = c->ac[i];
  for (size_t i = 0; i < c->n * nb; i++)
    bs[i] = c->bs[i];
  for (size_t i = 0; i < c->n * c->k; i++)
    bc[i] = c->bc[i];
  for (size_t i = 0; i < c->m * c->n; i++)
    ci[i] = c->cin ? c->cin[i] : 0;
  mx_dot_policy dp = mx_dot_policy_default ();
  dp.accum = c->accum;
  int rc = mx_gemm (co, NULL, mx_format_get (MX_FP32), c->m, c->n, c->k, as, ac,
                    mx_format_get (c->fa), bs, bc, mx_format_get (c->fb), mx_format_get (MX_E8M0),
                    32, c->cin ? ci : NULL, &dp, MX_RNE);
  if (rc != MX_OK)
    {
      fprintf (stderr, "tcuda_gemm_host: mx_gemm refused a case (%d)\n", rc);
      exit (1);
    }
  for (size_t i = 0; i < c->m * c->n; i++)
    out[i] = (uint32_t) co[i];
  free (as), free (ac), free (bs), free (bc), free (ci), free (co);
}

/*------------------------------------------------------------------ inputs -*/
static uint8_t
neg_code (uint8_t code, const mxkc_fmt *f)
{
  if (f->is_int)
    return (uint8_t) (code == 0x80 ? 0x7F : -(int) (int8_t) code);
  return (uint8_t) (code ^ f->signbit);
}

/* A code of f by mode: 0 any, 1 finite, 2 the largest magnitude of random sign, 3 mostly
 * zeros of both signs (mode 4, mirrored halves, and 5, gen_zero_side, are gen_case's). */
static uint8_t
gen_code (rng *r, const mxkc_fmt *f, int mode)
{
  uint32_t mask = (1u << f->bits) - 1;
  for (;;)
    {
      uint8_t c = (uint8_t) (rng_next (r) & mask);
      uint64_t v = mxkc_dec (c, f);
      int special = (v & (MXKC_DEC_NAN | MXKC_DEC_INF)) != 0;
      switch (mode)
        {
        case 0:
          if (special && rng_below (r, 4))
            continue; /* some, not too many */
          return c;
        case 2:
          c = (uint8_t) (f->is_int ? 0x7F : f->maxmag);
          return rng_below (r, 2) ? neg_code (c, f) : c;
        case 3:
          if (rng_below (r, 8) == 0 && !special)
            return c;
          c = (uint8_t) (f->is_int ? 0 : rng_below (r, 2) ? f->signbit : 0);
          if (f->is_int && rng_below (r, 3) == 0)
            c = (uint8_t) (rng_below (r, 2) ? 0xFF : 1); /* a nonzero times a zero: -0 or +0 */
          return c;
        default:
          if (!special)
            return c;
        }
    }
}

/* Code mode 5, every product -0 (the sign of exact-zero blocks and sums): A's codes -0 and B's
 * nonnegative, or, A being INT8 (no -0), A's 0 and B's negative; one A code in 256 nonzero. */
static uint8_t
gen_zero_side (rng *r, const mxkc_fmt f[2], int t)
{
  int a_int = f[0].is_int;
  if (t == 0)
    {
      if (rng_below (r, 256) == 0)
        return gen_code (r, &f[0], 1);
      return (uint8_t) (a_int ? 0 : f[0].signbit);
    }
  uint8_t c = gen_code (r, &f[1], 1);
  int neg = (mxkc_dec (c, &f[1]) & MXKC_DEC_NEG) != 0;
  if (f[1].is_int && a_int && (c == 0 || !neg))
    c = (uint8_t) (c == 0 ? 0xFF : neg_code (c, &f[1])); /* negative, never 0 */
  else if (neg != a_int)
    c = neg_code (c, &f[1]);
  return c;
}

/* A scale by mode: 0 all 127, 1 narrow, 2 spread 0x00..0xFE, 3 spread with 0xFF, 4 the two
 * extremes, 5 low (products of 2^-180..2^-110: FP32 subnormals, ties at half the least one). */
static uint8_t
gen_scale (rng *r, int mode)
{
  switch (mode)
    {
    case 0: return 127;
    case 1: return (uint8_t) (120 + rng_below (r, 15));
    case 2: return (uint8_t) rng_below (r, 255);
    case 3: return rng_below (r, 40) ? (uint8_t) rng_below (r, 255) : 0xFF;
    case 5: return (uint8_t) (37 + rng_below (r, 35));
    default:
      return (uint8_t) (rng_below (r, 2) ? rng_below (r, 3) : 254 - rng_below (r, 3));
    }
}

static uint32_t
gen_cin (rng *r)
{
  static const uint32_t sp[] = { 0, 0x80000000u, 1, 0x80000001u, 0x007FFFFFu, 0x00800000u,
                                 0x7F7FFFFFu, 0xFF7FFFFFu, 0x7F800000u, 0xFF800000u, 0x7FC00000u,
                                 0xFFC00001u, 0x3F800000u, 0xBF800000u };
  switch (rng_below (r, 4))
    {
    case 0: return sp[rng_below (r, sizeof sp / sizeof sp[0])];
    case 1: return (uint32_t) rng_next (r) & 0x807FFFFFu;               /* subnormal */
    default:
      {
        uint32_t u = (uint32_t) rng_next (r);
        return (u & 0x7F800000u) == 0x7F800000u ? u & 0xBFFFFFFFu : u;  /* finite */
      }
    }
}

static void
gen_case (gcase *c, rng *r, mx_format_id fa, mx_format_id fb, mx_accum accum, int big)
{
  static const size_t ks[] = { 32, 64, 96, 128, 160, 256, 512, 1024 };
  mxkc_fmt f[2] = { mxkc_fmt_of (fa), mxkc_fmt_of (fb) };
  c->fa = fa, c->fb = fb, c->accum = accum;
  c->m = big ? 33 + rng_below (r, 38) : 1 + rng_below (r, 5);
  c->n = big ? 33 + rng_below (r, 38) : 1 + rng_below (r, 5);
  c->k = big ? 32 * (1 + rng_below (r, 4)) : ks[rng_below (r, 8)];
  size_t nb = c->k / 32;
  int smode = (int) rng_below (r, 6), cmode = (int) rng_below (r, 6);
  int cinmode = cmode == 5 && rng_below (r, 2) ? 1 : (int) rng_below (r, 3); /* 1: +-0 */
  c->as = malloc (c->m * nb), c->ac = malloc (c->m * c->k);
  c->bs = malloc (c->n * nb), c->bc = malloc (c->n * c->k);
  c->cin = cinmode ? malloc (c->m * c->n * 4) : NULL;
  if (!c->as || !c->ac || !c->bs || !c->bc || (cinmode && !c->cin))
    exit (1);
  uint8_t *s[2] = { c->as, c->bs }, *cd[2] = { c->ac, c->bc };
  size_t rows[2] = { c->m, c->n };
  for (int t = 0; t < 2; t++)
    for (size_t i = 0; i < rows[t]; i++)
      {
        uint8_t *rs = s[t] + i * nb, *rc = cd[t] + i * c->k;
        for (size_t q = 0; q < nb; q++)
          rs[q] = gen_scale (r, smode);
        for (size_t e = 0; e < c->k; e++)
          rc[e] = cmode == 5 ? gen_zero_side (r, f, t) : gen_code (r, &f[t], cmode == 4 ? 1 : cmode);
        if (cmode == 4 && nb >= 2)
          {
            /* mirrored halves: blocks h..2h-1 of A are blocks 0..h-1 negated under the same
             * scales (B's copied), so the big terms cancel exactly and the rest decides */
            size_t h = nb / 2;
            for (size_t q = 0; q < h; q++)
              {
                rs[h + q] = rs[q];
                for (size_t e = 0; e < 32; e++)
                  rc[(h + q) * 32 + e] = t ? rc[q * 32 + e] : neg_code (rc[q * 32 + e], &f[t]);
              }
            if (nb > 2 * h || rng_below (r, 2))
              rs[nb - 1] = (uint8_t) rng_below (r, 20); /* a tiny tail block */
          }
      }
  if (c->cin)
    for (size_t i = 0; i < c->m * c->n; i++)
      c->cin[i] = cinmode == 1 ? (rng_below (r, 2) ? 0x80000000u : 0) : gen_cin (r);
}

static void
free_case (gcase *c)
{
  free (c->as), free (c->ac), free (c->bs), free (c->bc), free (c->cin);
}

static long checked, bad;
/* what the expected results were: NaN, Inf, +0, -0, subnormal, normal */
static long classes[6];

static int
class_of (uint32_t u)
{
  uint32_t a = u & 0x7FFFFFFFu;
  return a > 0x7F800000u ? 0 : a == 0x7F800000u ? 1 : u == 0 ? 2 : a == 0 ? 3 : a < 0x00800000u ? 4 : 5;
}

static void
compare (const char *path, const gcase *c, const uint32_t *want, const uint32_t *got)
{
  for (size_t i = 0; i < c->m * c->n; i++)
    {
      checked++;
      classes[class_of (want[i])]++;
      if (want[i] == got[i])
        continue;
      if (bad++ < 10)
        fprintf (stderr, "%s %s x %s %s m=%zu n=%zu k=%zu out[%zu][%zu]: want 0x%08X got 0x%08X\n",
                 path, mx_format_get (c->fa)->name,
                 mx_format_get (c->fb)->name, mx_accum_name (c->accum), c->m, c->n,
                 c->k, i / c->n, i % c->n, want[i], got[i]);
    }
}

#endif
