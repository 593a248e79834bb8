/* tcuda_gemm_host.c -- libmxk_cuda's MX GEMM arithmetic (kernels/cuda/include/mxk_cuda_gemm.h)
 * run on the host, without a GPU, through the kernels' own algorithms, against libmxgold's
 * mx_gemm (out FP32, RNE, E8M0 scales, blocks of 32), bit for bit:
 *   general  the CUDA-core kernel: codes decoded per tile, exact 128-bit block dots, any pair
 *   slow     the same with every output forced onto the superaccumulator (the exact model's
 *            fallback when its 128-bit window cannot hold an output's scale spread)
 *   tc       the tensor-core kernel for pairs within {E2M1, E2M3, INT8}: CTA tiles of
 *            MXKT_M x MXKT_N with guarded edges, each MMA k-step (one block of 32) replaced by
 *            the int32 dot of the same int8 operands
 * on every format pair x exact and block-fp32, over shapes with m, n off the tile (1..70) and
 * k = 32..1024, scales equal, narrow, spread over 0x00..0xFE, with 0xFF, or at both extremes,
 * codes random (NaN/Inf codes included), finite, all-max magnitudes of random sign, mostly
 * zeros of both signs, and mirrored halves that cancel exactly, C_in absent, +-0, random,
 * subnormal, Inf, NaN.
 * Usage: tcuda_gemm_host [cases per pair and model, 40] [seed, 1]
 * SPDX-License-Identifier: MIT */
#include <string.h>
#include "tests.h"
#include "mxk_cuda_gemm.h"

/* the tensor-core kernel's CTA tile (kernels/cuda/src/gemm.cu) */
#define MXKT_M 32
#define MXKT_N 32

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

/*-------------------------------------------------- the kernels' algorithms -*/
static long nwin, nsa; /* exact outputs in the window, on the superaccumulator */

/* One output's per-block step and result, as both kernels run them. */
typedef struct
{
  mxkc_xacc x;
  mxkc_sacc s;
  uint32_t acc;
} outstate;

static void
out_init (outstate *o, const gcase *c, size_t i, size_t j, int lsb_ab, int dbits, int slow)
{
  size_t nb = c->k / 32;
  int amin, amax, bmin, bmax;
  mxkc_scale_range (c->as + i * nb, nb, &amin, &amax);
  mxkc_scale_range (c->bs + j * nb, nb, &bmin, &bmax);
  mxkc_xacc_init (&o->x, &o->s, amin, amax, bmin, bmax, lsb_ab, dbits, nb);
  if (slow)
    o->x.window = 0;
  else if (c->accum == MX_ACCUM_EXACT)
    {
      if (o->x.window)
        nwin++;
      else
        nsa++;
    }
  o->acc = c->cin ? c->cin[i * c->n + j] : 0;
}

static void
out_block (outstate *o, const gcase *c, const mxkc_bdot *b, uint8_t sa, uint8_t sb, int lsb_ab)
{
  if (c->accum == MX_ACCUM_EXACT)
    mxkc_xacc_add (&o->x, &o->s, b, sa, sb, lsb_ab);
  else
    o->acc = mxkc_fadd (o->acc, mxkc_block_f32 (b, sa, sb, lsb_ab));
}

static uint32_t
out_result (outstate *o, const gcase *c, size_t i, size_t j)
{
  if (c->accum == MX_ACCUM_EXACT)
    return mxkc_xacc_result (&o->x, &o->s, c->cin ? c->cin[i * c->n + j] : 0);
  return mxkc_fp32_out (o->acc);
}

/* The CUDA-core kernel: one thread per output, codes decoded once (per tile, in shared memory
 * on the GPU), 128-bit block dots. */
static void
emu_general (uint32_t *out, const gcase *c, int slow)
{
  mxkc_fmt fa = mxkc_fmt_of (c->fa), fb = mxkc_fmt_of (c->fb);
  int lsb_ab = mxkc_lsb (&fa) + mxkc_lsb (&fb), dbits = mxkc_dot_bits (&fa, &fb);
  size_t nb = c->k / 32;
  uint64_t *da = malloc (c->m * c->k * 8), *db = malloc (c->n * c->k * 8);
  if (!da || !db)
    exit (1);
  for (size_t i = 0; i < c->m * c->k; i++)
    da[i] = mxkc_dec (c->ac[i], &fa);
  for (size_t i = 0; i < c->n * c->k; i++)
    db[i] = mxkc_dec (c->bc[i], &fb);
  for (size_t i = 0; i < c->m; i++)
    for (size_t j = 0; j < c->n; j++)
      {
        outstate o;
        mxkc_bdot b;
        out_init (&o, c, i, j, lsb_ab, dbits, slow);
        for (size_t q = 0; q < nb; q++)
          {
            mxkc_block_dot (&b, da + i * c->k + q * 32, 1, db + j * c->k + q * 32, 1, 32);
            out_block (&o, c, &b, c->as[i * nb + q], c->bs[j * nb + q], lsb_ab);
          }
        out[i * c->n + j] = out_result (&o, c, i, j);
      }
  free (da), free (db);
}

/* The tensor-core kernel: CTA tiles of MXKT_M x MXKT_N outputs, rows and columns past m, n
 * staged as code 0 and never written; per k-step the int8 operands of one block, their int32
 * dot (the MMA's), the raw codes for the sign of an exact-zero block. */
static void
emu_tc (uint32_t *out, const gcase *c)
{
  mxkc_fmt fa = mxkc_fmt_of (c->fa), fb = mxkc_fmt_of (c->fb);
  int lsb_ab = mxkc_lsb (&fa) + mxkc_lsb (&fb), dbits = mxkc_dot_bits (&fa, &fb);
  size_t nb = c->k / 32;
  static outstate o[MXKT_M][MXKT_N];
  for (size_t i0 = 0; i0 < c->m; i0 += MXKT_M)
    for (size_t j0 = 0; j0 < c->n; j0 += MXKT_N)
      {
        for (int ti = 0; ti < MXKT_M; ti++)
          for (int tj = 0; tj < MXKT_N; tj++)
            if (i0 + ti < c->m && j0 + tj < c->n)
              out_init (&o[ti][tj], c, i0 + ti, j0 + tj, lsb_ab, dbits, 0);
        for (size_t q = 0; q < nb; q++)
          {
            int8_t ta[MXKT_M][32], tb[MXKT_N][32];
            uint8_t ra[MXKT_M][32], rb[MXKT_N][32];
            for (int ti = 0; ti < MXKT_M; ti++)
              for (int e = 0; e < 32; e++)
                {
                  ra[ti][e] = i0 + ti < c->m ? c->ac[(i0 + ti) * c->k + q * 32 + e] : 0;
                  ta[ti][e] = (int8_t) mxkc_i8_of (ra[ti][e], &fa);
                }
            for (int tj = 0; tj < MXKT_N; tj++)
              for (int e = 0; e < 32; e++)
                {
                  rb[tj][e] = j0 + tj < c->n ? c->bc[(j0 + tj) * c->k + q * 32 + e] : 0;
                  tb[tj][e] = (int8_t) mxkc_i8_of (rb[tj][e], &fb);
                }
            for (int ti = 0; ti < MXKT_M; ti++)
              for (int tj = 0; tj < MXKT_N; tj++)
                {
                  int32_t d = 0; /* the MMA: s32 += s8 x s8 over k = 32 */
                  for (int e = 0; e < 32; e++)
                    d += (int32_t) ta[ti][e] * tb[tj][e];
                  if (i0 + ti >= c->m || j0 + tj >= c->n)
                    continue;
                  mxkc_bdot b;
                  mxkc_bdot_of_i32 (&b, d, d == 0 && mxkc_block_negzero (ra[ti], &fa, rb[tj],
                                                                        &fb, 32));
                  out_block (&o[ti][tj], c, &b, c->as[(i0 + ti) * nb + q],
                             c->bs[(j0 + tj) * nb + q], lsb_ab);
                }
          }
        for (int ti = 0; ti < MXKT_M; ti++)
          for (int tj = 0; tj < MXKT_N; tj++)
            if (i0 + ti < c->m && j0 + tj < c->n)
              out[(i0 + ti) * c->n + j0 + tj] = out_result (&o[ti][tj], c, i0 + ti, j0 + tj);
      }
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
 * zeros of both signs. */
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

/* A scale by mode: 0 all 127, 1 narrow, 2 spread 0x00..0xFE, 3 spread with 0xFF, 4 the two
 * extremes. */
static uint8_t
gen_scale (rng *r, int mode)
{
  switch (mode)
    {
    case 0: return 127;
    case 1: return (uint8_t) (120 + rng_below (r, 15));
    case 2: return (uint8_t) rng_below (r, 255);
    case 3: return rng_below (r, 40) ? (uint8_t) rng_below (r, 255) : 0xFF;
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
  int smode = (int) rng_below (r, 5), cmode = (int) rng_below (r, 5);
  int cinmode = (int) rng_below (r, 3);
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
          rc[e] = gen_code (r, &f[t], cmode == 4 ? 1 : cmode);
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

int
main (int argc, char **argv)
{
  long cases = test_count (argc, argv, 1, 40);
  rng r = { argc > 2 ? (uint64_t) test_number (argv[2], "seed") : 1 };
  long ncases = 0, nslow = 0;
  for (int a = 0; a < 6; a++)
    for (int b = 0; b < 6; b++)
      for (int md = 0; md < 2; md++)
        for (long t = 0; t < cases; t++)
          {
            gcase c;
            gen_case (&c, &r, fmts[a], fmts[b], models[md], t % 10 == 9);
            size_t mn = c.m * c.n;
            uint32_t *want = malloc (mn * 4), *got = malloc (mn * 4);
            if (!want || !got)
              exit (1);
            golden (want, &c);
            emu_general (got, &c, 0);
            compare ("general", &c, want, got);
            if (c.accum == MX_ACCUM_EXACT)
              {
                emu_general (got, &c, 1);
                compare ("slow", &c, want, got);
                nslow++;
              }
            mxkc_fmt fa = mxkc_fmt_of (c.fa), fb = mxkc_fmt_of (c.fb);
            if (mxkc_is_i8 (&fa) && mxkc_is_i8 (&fb))
              {
                emu_tc (got, &c);
                compare ("tc", &c, want, got);
              }
            ncases++;
            free (want), free (got);
            free_case (&c);
          }
  printf ("tcuda_gemm_host: %ld cases (%ld also forced slow), %ld outputs compared, "
          "%ld mismatches\n", ncases, nslow, checked, bad);
  printf ("tcuda_gemm_host: expected NaN %ld, Inf %ld, +0 %ld, -0 %ld, subnormal %ld, normal %ld;"
          " exact outputs in the window %ld, on the superaccumulator %ld\n", classes[0],
          classes[1], classes[2], classes[3], classes[4], classes[5], nwin, nsa);
  return bad != 0;
}
