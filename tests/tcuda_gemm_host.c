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
 * k = 32..1024, scales equal, narrow, spread over 0x00..0xFE, with 0xFF, at both extremes, or low
 * (results about the FP32 subnormals),
 * codes random (NaN/Inf codes included), finite, all-max magnitudes of random sign, mostly
 * zeros of both signs, and mirrored halves that cancel exactly, C_in absent, +-0, random,
 * subnormal, Inf, NaN.
 * Usage: tcuda_gemm_host [cases per pair and model, 40] [seed, 1]
 * SPDX-License-Identifier: MIT */
/* the tensor-core kernel's CTA tile (kernels/cuda/src/gemm.cu) */
#define MXKT_M 32
#define MXKT_N 32

#include "tcuda_gemm_cases.h"

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
  /* slow: a dot width no window holds, so every output takes the superaccumulator */
  mxkc_xacc_init (&o->x, &o->s, amin, amax, bmin, bmax, lsb_ab, slow ? 1000 : dbits, nb);
  if (slow && o->x.window)
    {
      fprintf (stderr, "tcuda_gemm_host: a window for dot width 1000\n");
      exit (1);
    }
  if (!slow && c->accum == MX_ACCUM_EXACT)
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
                  /* as the kernel: the sign of an exact-zero block only while the sum so
                   * far is a zero */
                  outstate *os = &o[ti][tj];
                  int need = c->accum == MX_ACCUM_EXACT ? os->x.sp.negzero
                                                        : (os->acc & 0x7FFFFFFFu) == 0;
                  mxkc_bdot b;
                  mxkc_bdot_of_i32 (&b, d, d == 0 && need
                                           && mxkc_block_negzero (ra[ti], &fa, rb[tj], &fb, 32));
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
