/* bench-kernels -- libmxk throughput on one thread over a 256 MiB FP32 input (64 Mi elements),
 * each figure beside a copy-shaped stream timed alternating with it on the same buffers:
 *   quantize:   read 4 B, write 1 B per element   (stream: out[i] = in[i] >> 24)
 *   dequantize: read 1 B, write 4 B per element   (stream: out[i] = in[i] << 24)
 *   (and, for reference, the widening stream by non-temporal stores, as dequantize writes its
 *   outputs of 32 MiB and more on the AVX-512 paths)
 *   dot:        elements/s (two 1-byte codes per element)
 * on several data sets (issue 18): uniform (random normal values), gauss (weights-like, with
 * outliers), elemsub (blocks whose elements are mostly subnormal in the element format), special
 * (NaN/Inf sprinkled), zeros (uniform, one block in eight all +0 and -0: sparse activations,
 * padding) and, reported apart, tiny (FP32-subnormal inputs, so scale 2^-127 and FP32-subnormal
 * dequantized outputs); the worst ratio of the first five per op and format; the
 * speed-up over the scalar reference path; and dispatch_regret, the largest ratio over every op
 * and format of the path cpuid picks to the fastest path this CPU has.  Then the multi-threaded
 * entry points (mxk_quantize_mt, mxk_dequantize_mt) on T = the online CPUs, beside the same
 * streams run on T threads over the same buffers (an all-core stream, with the kernels' chunks,
 * scheduling, thread start and join).  Then quantize under rna rtz rup rdn and sr
 * (mxk_quantize_sr, random words generated once, outside the timing) against rne on the same
 * path, alternating (over the whole input, and in cache).  Not a test; ends with key=value
 * lines.
 * Usage: bench-kernels [MiB] [path: auto ref generic avx2 avx512 avx512vbmi]
 * SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bench.h"
#include "mxk.h"
#include "mxvec.h"

#if defined(__x86_64__)
#include <immintrin.h>
__attribute__ ((target ("avx2"))) static void
stream_narrow_avx2 (uint8_t *out, const uint32_t *in, size_t n)
{
  const __m256i idx = _mm256_setr_epi32 (0, 4, 1, 5, 2, 6, 3, 7);
  for (size_t i = 0; i < n; i += 32)
    {
      __m256i v0 = _mm256_srli_epi32 (_mm256_loadu_si256 ((const void *) (in + i)), 24);
      __m256i v1 = _mm256_srli_epi32 (_mm256_loadu_si256 ((const void *) (in + i + 8)), 24);
      __m256i v2 = _mm256_srli_epi32 (_mm256_loadu_si256 ((const void *) (in + i + 16)), 24);
      __m256i v3 = _mm256_srli_epi32 (_mm256_loadu_si256 ((const void *) (in + i + 24)), 24);
      __m256i p = _mm256_packus_epi16 (_mm256_packus_epi32 (v0, v1), _mm256_packus_epi32 (v2, v3));
      _mm256_storeu_si256 ((void *) (out + i), _mm256_permutevar8x32_epi32 (p, idx));
    }
}
/* The widening stream by non-temporal stores, as dequantize writes outputs of 32 MiB and more
 * on the AVX-512 paths: a reference figure, printed apart (the ratios stay to stream_widen). */
__attribute__ ((target ("avx512f"))) static void
stream_widen_nt (uint32_t *out, const uint8_t *in, size_t n)
{
  size_t i = 0;
  for (; i < n && (uintptr_t) (out + i) % 64; i++)
    out[i] = (uint32_t) in[i] << 24;
  for (; i + 16 <= n; i += 16)
    _mm512_stream_si512 ((void *) (out + i),
                         _mm512_slli_epi32 (_mm512_cvtepu8_epi32 (_mm_loadu_si128 ((const void *) (in + i))), 24));
  for (; i < n; i++)
    out[i] = (uint32_t) in[i] << 24;
  _mm_sfence ();
}
__attribute__ ((target ("avx2"))) static void
stream_widen_avx2 (uint32_t *out, const uint8_t *in, size_t n)
{
  for (size_t i = 0; i < n; i += 8)
    _mm256_storeu_si256 ((void *) (out + i),
                         _mm256_slli_epi32 (_mm256_cvtepu8_epi32 (_mm_loadl_epi64 ((const void *) (in + i))), 24));
}
#endif

static void
stream_narrow (uint8_t *out, const uint32_t *in, size_t n)
{
#if defined(__x86_64__)
  if (__builtin_cpu_supports ("avx2"))
    {
      stream_narrow_avx2 (out, in, n);
      return;
    }
#endif
  for (size_t i = 0; i < n; i++)
    out[i] = (uint8_t) (in[i] >> 24);
}

static void
stream_widen (uint32_t *out, const uint8_t *in, size_t n)
{
#if defined(__x86_64__)
  if (__builtin_cpu_supports ("avx2"))
    {
      stream_widen_avx2 (out, in, n);
      return;
    }
#endif
  for (size_t i = 0; i < n; i++)
    out[i] = (uint32_t) in[i] << 24;
}

/* The all-core stream: the elements in chunks of MXK_MT_CHUNK_BLOCKS blocks taken in turn from
 * a shared counter by T threads, threads 1.. started, the caller streaming too, all joined (as
 * mxk_*_mt do: the same scheduling, thread start and join). */
typedef struct
{
  int narrow;
  void *out;
  const void *in;
  size_t n;
  _Atomic size_t next;
} stream_queue;

static void *
stream_run (void *arg)
{
  stream_queue *q = arg;
  const size_t ce = (size_t) MXK_MT_CHUNK_BLOCKS * 32;
  for (;;)
    {
      size_t i0 = atomic_fetch_add_explicit (&q->next, 1, memory_order_relaxed) * ce;
      if (i0 >= q->n)
        return NULL;
      size_t m = q->n - i0 < ce ? q->n - i0 : ce;
      if (q->narrow)
        stream_narrow ((uint8_t *) q->out + i0, (const uint32_t *) q->in + i0, m);
      else
        stream_widen ((uint32_t *) q->out + i0, (const uint8_t *) q->in + i0, m);
    }
}

static void
stream_mt (int narrow, void *out, const void *in, size_t n, unsigned t)
{
  pthread_t tid[64];
  stream_queue q = { narrow, out, in, n, 0 };
  t = t > 64 ? 64 : t;
  for (unsigned i = 1; i < t; i++)
    if (pthread_create (&tid[i], NULL, stream_run, &q) != 0)
      {
        fprintf (stderr, "bench-kernels: pthread_create failed\n");
        exit (1);
      }
  stream_run (&q);
  for (unsigned i = 1; i < t; i++)
    if (pthread_join (tid[i], NULL) != 0)
      {
        fprintf (stderr, "bench-kernels: pthread_join failed\n");
        exit (1);
      }
}

/* Calls per timing: one for inputs of 16 MiB and more, else as many as make 16 MiB (set in
 * main).  A single call on 1 MiB lasts some 10 us, and the worst of some thirty such ratios,
 * each the best of three, strayed by a few hundredths from run to run on a shared machine. */
static unsigned bench_reps = 1, bench_rounds = 3;

/* best of bench_rounds runs of bench_reps calls, seconds per call */
#define TIME(expr)                                    \
  ({                                                  \
    double best_ = 1e30;                              \
    for (unsigned r_ = 0; r_ < bench_rounds; r_++)    \
      {                                               \
        double t0_ = bench_now ();                    \
        for (unsigned i_ = 0; i_ < bench_reps; i_++)  \
          expr;                                       \
        double dt_ = (bench_now () - t0_) / bench_reps; \
        best_ = dt_ < best_ ? dt_ : best_;            \
      }                                               \
    best_;                                            \
  })

/* A kernel beside its stream: the two alternate, best of 3 each, and the result is the ratio of
 * the stream's time to the kernel's (*t_op gets the kernel's best).  Until 2026-11-28 the
 * stream was timed once at the start, for every kernel: on a shared machine a spell of other
 * load on either side moved a ratio by up to a tenth (AMD EPYC family 26 model 2: the same
 * build's worst quantize 0.77-0.88 in three runs). */
#define VS(stream, expr, t_op)                                          \
  ({                                                                    \
    double bs_ = 1e30, bo_ = 1e30;                                      \
    for (unsigned r_ = 0; r_ < bench_rounds; r_++)                      \
      {                                                                 \
        double t0_ = bench_now ();                                      \
        for (unsigned i_ = 0; i_ < bench_reps; i_++)                    \
          stream;                                                       \
        double t1_ = bench_now ();                                      \
        for (unsigned i_ = 0; i_ < bench_reps; i_++)                    \
          expr;                                                         \
        double t2_ = bench_now ();                                      \
        bs_ = t1_ - t0_ < bs_ ? t1_ - t0_ : bs_;                        \
        bo_ = t2_ - t1_ < bo_ ? t2_ - t1_ : bo_;                        \
      }                                                                 \
    *(t_op) = bo_ / bench_reps;                                         \
    bs_ / bo_;                                                          \
  })

/* the data sets; tiny is reported apart from the worst case */
enum { SET_UNIFORM, SET_GAUSS, SET_ELEMSUB, SET_SPECIAL, SET_ZEROS, SET_TINY, NSETS };
static const char *const set_names[NSETS] = { "uniform", "gauss", "elemsub", "special", "zeros", "tiny" };

static float
u01 (mxv_rng *r) /* uniform in [0, 1) with 24 random bits */
{
  return (float) (mxv_rng_next (r) >> 40) * 0x1p-24f;
}

static uint32_t
f2u (float f)
{
  uint32_t u;
  memcpy (&u, &f, 4);
  return u;
}

static void
gen_set (uint32_t *in, size_t n, int set, mxv_rng *r)
{
  for (size_t b = 0; b < n / 32; b++)
    {
      uint32_t *x = in + b * 32;
      int te = 100 + (int) (mxv_rng_next (r) % 40); /* the block's top exponent field */
      for (int i = 0; i < 32; i++)
        {
          unsigned long long s = mxv_rng_next (r);
          uint32_t sign = (uint32_t) (s >> 63) << 31, mant = (uint32_t) (s >> 33) & 0x7FFFFF;
          switch (set)
            {
            case SET_GAUSS: /* sum of four uniforms (about normal), one outlier in 1024 x64 */
              {
                float g = (u01 (r) + u01 (r) + u01 (r) + u01 (r) - 2.0f) * 0.02f;
                x[i] = f2u (s % 1024 == 0 ? g * 64.0f : g);
                break;
              }
            case SET_ELEMSUB: /* the top 2^te, the rest 9..16 binades below it */
              x[i] = sign | (uint32_t) (te - 9 - (int) (s % 8)) << 23 | mant;
              break;
            case SET_TINY:
              x[i] = sign | (mant ? mant : 1); /* FP32 subnormals */
              break;
            default:
              x[i] = sign | mant | (uint32_t) (100 + (s >> 59)) << 23; /* normal values */
            }
        }
      if (set == SET_ELEMSUB)
        x[mxv_rng_next (r) % 32] = (uint32_t) te << 23 | 0x400000;
      if (set == SET_ZEROS && mxv_rng_next (r) % 8 == 0) /* sparse: a block of +0 and -0 */
        for (int i = 0; i < 32; i++)
          x[i] &= 0x80000000u;
      if (set == SET_SPECIAL && mxv_rng_next (r) % 16 == 0)
        {
          unsigned long long s = mxv_rng_next (r);
          x[s % 32] = (s >> 8) % 2 ? 0x7FC00000u : 0x7F800000u | (uint32_t) ((s >> 9) & 1) << 31;
        }
    }
}

int
main (int argc, char **argv)
{
  if (argc > 1 && (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0))
    {
      printf ("usage: bench-kernels [MiB] [path]\n"
              "  libmxk throughput on one thread over an FP32 input of MiB (default 256), each\n"
              "  kernel timed alternating with a copy-shaped stream (best of 3 each; below 16 MiB\n"
              "  best of 7, each of 16 MiB worth of calls; the ratio is to that stream), on\n"
              "  six data sets (uniform gauss elemsub special zeros, and tiny\n"
              "  apart); path: auto ref generic avx2 avx512 avx512vbmi (default: the one\n"
              "  cpuid picks).  Then mxk_quantize_mt / mxk_dequantize_mt on the online CPUs\n"
              "  beside the same streams on as many threads; then quantize under rna rtz rup\n"
              "  rdn and sr (16-bit random words made beforehand) against rne on the same path\n"
              "  (alternating, best of 7; whole input and a 256 KiB slice in cache).  Ends with\n"
              "  key=value lines.\n");
      return 0;
    }
  unsigned long long mib = 256;
  if (argc > 1 && mx_parse_uint (&mib, argv[1], 10, 1, 65536) != MX_OK)
    {
      fprintf (stderr, "bench-kernels: '%s' is not a size in MiB, 1..65536 (try --help)\n", argv[1]);
      return 2;
    }
  if (argc > 2)
    {
      int ok = -1;
      for (int p = 0; p < MXK_PATH_COUNT; p++)
        if (strcmp (argv[2], mxk_path_name ((mxk_path) p)) == 0)
          ok = mxk_use_path ((mxk_path) p);
      if (ok)
        {
          fprintf (stderr, "bench-kernels: path '%s' is not available here\n", argv[2]);
          return 2;
        }
    }
  size_t n = mib * 1024 * 1024 / 4 / 32 * 32;
  bench_reps = mib >= 16 ? 1 : (unsigned) (16 / mib);
  bench_rounds = mib >= 16 ? 3 : 7;
  uint32_t *in = malloc (n * 4), *wide = malloc (n * 4);
  uint8_t *codes = malloc (n), *codes2 = malloc (n), *scales = malloc (n / 32 + 1), *scales2 = malloc (n / 32 + 1);
  if (!in || !wide || !codes || !codes2 || !scales || !scales2)
    {
      fprintf (stderr, "bench-kernels: out of memory\n");
      return 1;
    }
  mxv_rng r = { 0x2143FEDC };
  gen_set (in, n, SET_UNIFORM, &r);
  memset (wide, 0, n * 4);
  memset (codes, 0, n);
  mxk_path chosen = mxk_current_path ();
  printf ("bench-kernels: %llu MiB FP32 (%zu elements), one thread, path %s\n", mib, n,
          mxk_path_name (chosen));
  double gb = (double) n * 5 / 1e9;
  double t_sn = TIME (stream_narrow (codes, in, n));
  double t_sw = TIME (stream_widen (wide, codes, n));
  printf ("%-26s %8.2f GB/s\n", "stream 4B->1B", gb / t_sn);
  printf ("%-26s %8.2f GB/s\n", "stream 1B->4B", gb / t_sw);
  double t_swnt = 0;
#if defined(__x86_64__)
  if (__builtin_cpu_supports ("avx512f"))
    {
      t_swnt = TIME (stream_widen_nt (wide, codes, n));
      printf ("%-26s %8.2f GB/s (non-temporal stores; a reference, not a ratio's base)\n",
              "stream 1B->4B NT", gb / t_swnt);
    }
#endif

  /* the element formats of the table, E4M3 first (the headline figures) */
  mx_format_id fmts[MX_FORMAT_COUNT];
  const char *names[MX_FORMAT_COUNT];
  int nf = 0;
#define MX_FORMAT(id, nm, al, role, ...) \
  if (MX_ROLE_##role == MX_ROLE_ELEM)    \
    fmts[nf] = MX_##id, names[nf++] = nm;
#include "mx/formats.def"
#undef MX_FORMAT
  /* every data set: quantize, then dequantize of its codes; ratios of times to the streams */
  double rq[NSETS][MX_FORMAT_COUNT], rdq[NSETS][MX_FORMAT_COUNT], q0[MX_FORMAT_COUNT], t_any;
  for (int set = 0; set < NSETS; set++)
    {
      gen_set (in, n, set, &r);
      for (int f = 0; f < nf; f++)
        {
          /* the stream writes codes2: dequantize reads the codes quantize wrote */
          double tq;
          rq[set][f] = VS (stream_narrow (codes2, in, n),
                           mxk_quantize (scales, codes, in, MX_FP32, n, fmts[f], MX_SCALE_FLOOR, MX_RNE, MX_PACKING_UNPACKED), &tq);
          rdq[set][f] = VS (stream_widen (wide, codes, n),
                            mxk_dequantize (wide, MX_FP32, scales, codes, n, fmts[f], MX_PACKING_UNPACKED), &t_any);
          if (set == SET_UNIFORM)
            q0[f] = tq;
        }
    }
  printf ("%-14s %-30s %-30s\n", "x stream", "quantize", "dequantize");
  printf ("%-14s", "format");
  for (int op = 0; op < 2; op++)
    {
      for (int set = 0; set < NSETS; set++)
        printf (" %5.5s", set_names[set]);
      printf ("  ");
    }
  printf ("\n");
  double worst_q[MX_FORMAT_COUNT], worst_dq[MX_FORMAT_COUNT];
  for (int f = 0; f < nf; f++)
    {
      worst_q[f] = worst_dq[f] = 1e30;
      printf ("%-14s", names[f]);
      for (int set = 0; set < NSETS; set++)
        printf (" %5.2f", rq[set][f]);
      printf ("  ");
      for (int set = 0; set < NSETS; set++)
        printf (" %5.2f", rdq[set][f]);
      printf ("\n");
      for (int set = 0; set < SET_TINY; set++)
        {
          worst_q[f] = rq[set][f] < worst_q[f] ? rq[set][f] : worst_q[f];
          worst_dq[f] = rdq[set][f] < worst_dq[f] ? rdq[set][f] : worst_dq[f];
        }
    }
  gen_set (in, n, SET_UNIFORM, &r);
  /* packed outputs (fewer bytes written than the stream; the ratio is of times) */
  static const struct { mx_format_id f; mx_packing p; const char *name; } pk[] = {
    { MX_E2M1, MX_PACKING_FP4_LO_FIRST, "e2m1_fp4_lo_first" }, { MX_E2M3, MX_PACKING_FP6_3BYTE, "e2m3_fp6_3byte" } };
  double pq[2], pdq[2];
  for (int j = 0; j < 2; j++)
    {
      pq[j] = VS (stream_narrow (codes2, in, n),
                  mxk_quantize (scales, codes, in, MX_FP32, n, pk[j].f, MX_SCALE_FLOOR, MX_RNE, pk[j].p), &t_any);
      pdq[j] = VS (stream_widen (wide, codes, n), mxk_dequantize (wide, MX_FP32, scales, codes, n, pk[j].f, pk[j].p), &t_any);
      printf ("packed %-19s quantize %5.2fx stream | dequantize %5.2fx stream\n", pk[j].name, pq[j], pdq[j]);
    }
  /* dot over the whole arrays: E4M3 x E4M3 (codes from the quantize above) */
  mxk_quantize (scales, codes, in, MX_FP32, n, MX_E4M3, MX_SCALE_FLOOR, MX_RNE, MX_PACKING_UNPACKED);
  memcpy (codes2, codes, n);
  memcpy (scales2, scales, n / 32);
  uint32_t out;
  double t_dot = TIME (mxk_dot (&out, scales, codes, MX_E4M3, scales2, codes2, MX_E4M3, n, 0));
  double t_dot2 = TIME (mxk_dot (&out, scales, codes, MX_E2M1, scales2, codes2, MX_INT8, n, 0));
  printf ("dot e4m3 x e4m3 %11.2f G elements/s\n", (double) n / t_dot / 1e9);
  printf ("dot e2m1 x int8 %11.2f G elements/s\n", (double) n / t_dot2 / 1e9);

  /* every path on a 1/16 slice (uniform data): the scalar reference's speed-up, and the regret
   * of cpuid's choice, the largest time of the chosen path over the fastest one.  The paths take
   * turns, one call each, best of 2np per path: on a machine whose cores other work may
   * take, every path sees the same spells (timed one path after the other, a spell that fell on
   * one path alone read as regret).  2np turns for the np paths present: turn 2s takes them in
   * order from path s on, turn 2s + 1 the same order backwards, so that each path has each
   * place twice and each neighbour before it.  In one fixed order (five turns on 64 KiB slices)
   * avx512vbmi's INT8 dequantize, which is avx512's function itself, read 1.03-1.05 of
   * avx512's time in 1 MiB runs (0.6 us calls; AMD EPYC family 26 model 2, 2026-12-07), by its
   * place after it alone.  Five paths make ten turns, twice the calls of the five turns, most
   * of their time the scalar reference's. */
  /* at least 1 MiB of FP32 (or all of n): a 64 KiB slice's calls lasted 0.6 us, and one path
   * against itself read up to 1.03 */
  size_t nr = n / 16 / 32 * 32, nr_least = (size_t) 1 << 18;
  if (nr < nr_least)
    nr = n < nr_least ? n : nr_least;
  double tp[MXK_PATH_COUNT][2 * MX_FORMAT_COUNT + 1];
  int have[MXK_PATH_COUNT], order[MXK_PATH_COUNT], np = 0;
  for (int p = 0; p < MXK_PATH_COUNT; p++)
    {
      /* auto is not a path of its own but the chosen one again: until 2026-11-25 it took part,
       * and a spell on either timing of the same kernel read as regret */
      have[p] = p != MXK_PATH_AUTO && mxk_path_supported ((mxk_path) p) && mxk_use_path ((mxk_path) p) == 0;
      if (have[p])
        order[np++] = p;
      for (int j = 0; j <= 2 * nf; j++)
        tp[p][j] = 1e30;
    }
  for (int j = 0; j <= 2 * nf; j++)
    {
      mxk_use_path (chosen);
      if (j % 2 || j == 2 * nf) /* dequantize and dot: the codes of the format (every path's alike) */
        mxk_quantize (scales, codes, in, MX_FP32, nr, j == 2 * nf ? MX_E4M3 : fmts[j / 2], MX_SCALE_FLOOR, MX_RNE,
                      MX_PACKING_UNPACKED);
      for (int turn = 0; turn < 2 * np; turn++)
        for (int q = 0; q < np; q++)
          {
            int p = order[(turn / 2 + (turn % 2 ? np - 1 - q : q)) % np];
            mxk_use_path ((mxk_path) p);
            double t0 = bench_now ();
            if (j == 2 * nf)
              mxk_dot (&out, scales, codes, MX_E4M3, scales, codes, MX_E4M3, nr, 0);
            else if (j % 2)
              mxk_dequantize (wide, MX_FP32, scales, codes, nr, fmts[j / 2], MX_PACKING_UNPACKED);
            else /* into codes2: the codes the next dequantize reads stay as they are */
              mxk_quantize (scales2, codes2, in, MX_FP32, nr, fmts[j / 2], MX_SCALE_FLOOR, MX_RNE, MX_PACKING_UNPACKED);
            double dt = bench_now () - t0;
            tp[p][j] = dt < tp[p][j] ? dt : tp[p][j];
          }
    }
  mxk_use_path (chosen);
  double regret = 1.0;
  const char *regret_at = "-", *regret_fastest = "-";
  static char where[64];
  for (int j = 0; j <= 2 * nf; j++)
    {
      double best = 1e30;
      int fastest = chosen;
      for (int p = 0; p < MXK_PATH_COUNT; p++)
        if (have[p] && tp[p][j] < best)
          best = tp[p][j], fastest = p;
      double g = tp[chosen][j] / best;
      if (g > regret)
        {
          regret = g;
          regret_fastest = mxk_path_name ((mxk_path) fastest);
          snprintf (where, sizeof where, "%s_%s", j == 2 * nf ? "dot" : j % 2 ? "dequantize" : "quantize",
                    j == 2 * nf ? "e4m3" : names[j / 2]);
          regret_at = where;
        }
    }
  double su_q = tp[MXK_PATH_REF][0] / tp[chosen][0], su_dq = tp[MXK_PATH_REF][1] / tp[chosen][1];
  double su_dot = tp[MXK_PATH_REF][2 * nf] / tp[chosen][2 * nf];
  printf ("speed-up over the scalar reference (e4m3): quantize %.1fx, dequantize %.1fx, dot %.1fx\n",
          su_q, su_dq, su_dot);
  printf ("dispatch regret (chosen path / fastest, worst op): %.2f (%s; fastest there: %s)\n", regret, regret_at,
          regret_fastest);

  /* multi-threaded, on the online CPUs (uniform data) */
  long cpus = sysconf (_SC_NPROCESSORS_ONLN);
  unsigned nt = cpus < 1 ? 1 : cpus > 64 ? 64 : (unsigned) cpus;
  /* each kernel alternates with its stream, best of 5 each: on a machine whose cores other work
   * may take, both see the same spells (the ratio is to the stream beside it; the stream figures
   * printed are the best of all) */
  double t_snm = 1e30, t_swm = 1e30;
  double rqm[MX_FORMAT_COUNT], rdqm[MX_FORMAT_COUNT], qm_gbs[MX_FORMAT_COUNT];
  int mt_rc = 0;
  for (int f = 0; f < nf; f++)
    {
      double tq = 1e30, tdq = 1e30, sq = 1e30, sdq = 1e30;
      for (int rep = 0; rep < 5; rep++)
        {
          double t0 = bench_now ();
          stream_mt (1, codes, in, n, nt);
          double t1 = bench_now ();
          mt_rc |= mxk_quantize_mt (scales, codes, in, MX_FP32, n, fmts[f], MX_SCALE_FLOOR, MX_RNE, MX_PACKING_UNPACKED, nt);
          double t2 = bench_now ();
          mt_rc |= mxk_dequantize_mt (wide, MX_FP32, scales, codes, n, fmts[f], MX_PACKING_UNPACKED, nt);
          double t3 = bench_now ();
          stream_mt (0, wide, codes, n, nt);
          double t4 = bench_now ();
          sq = t1 - t0 < sq ? t1 - t0 : sq, tq = t2 - t1 < tq ? t2 - t1 : tq;
          tdq = t3 - t2 < tdq ? t3 - t2 : tdq, sdq = t4 - t3 < sdq ? t4 - t3 : sdq;
        }
      rqm[f] = sq / tq, rdqm[f] = sdq / tdq, qm_gbs[f] = gb / tq;
      t_snm = sq < t_snm ? sq : t_snm, t_swm = sdq < t_swm ? sdq : t_swm;
    }
  if (mt_rc)
    {
      fprintf (stderr, "bench-kernels: a multi-threaded call failed (%d)\n", mt_rc);
      return 1;
    }
  printf ("multi-threaded, %u threads: stream 4B->1B %.2f GB/s (%.2fx one thread), 1B->4B %.2f GB/s (%.2fx)\n",
          nt, gb / t_snm, t_sn / t_snm, gb / t_swm, t_sw / t_swm);
  printf ("%-14s %-18s %-18s\n", "x stream_mt", "quantize_mt", "dequantize_mt");
  for (int f = 0; f < nf; f++)
    printf ("%-14s %5.2f (%5.2f GB/s) %5.2f\n", names[f], rqm[f], qm_gbs[f], rdqm[f]);

  /* every rounding against rne on the same path (uniform data), each call alternating with an
   * rne call, best of RND_REPS each, so both see the same spells of other load: over the whole
   * input (DRAM), and over its first 256 KiB quantized RND_LOOPS times per timing (in cache,
   * where the kernels' own speed shows) */
  enum { RND_REPS = 7, RND_LOOPS = 32 };
  static const mx_rounding rrnd[] = { MX_RNA, MX_RTZ, MX_RUP, MX_RDN, MX_SR };
  static const char *const rrname[] = { "rna", "rtz", "rup", "rdn", "sr" };
  enum { NRR = sizeof rrnd / sizeof rrnd[0] };
  double rr[MX_FORMAT_COUNT][NRR], rrc[MX_FORMAT_COUNT][NRR];
  size_t nc = n < 65536 ? n : 65536; /* 256 KiB of FP32 */
  /* sr's random words, one per element (2 B more read per element) */
  uint16_t *rbits = malloc (n * 2);
  if (!rbits)
    {
      fprintf (stderr, "bench-kernels: out of memory\n");
      return 1;
    }
  for (size_t i = 0; i < n; i += 4)
    {
      unsigned long long y = mxv_rng_next (&r);
      for (size_t j = 0; j < 4 && i + j < n; j++)
        rbits[i + j] = (uint16_t) (y >> (16 * j));
    }
  for (int f = 0; f < nf; f++)
    for (int j = 0; j < NRR; j++)
      for (int cache = 0; cache < 2; cache++)
        {
          size_t m = cache ? nc : n;
          int loops = cache ? RND_LOOPS : 1;
          double tn = 1e30, tr = 1e30;
          for (int rep = 0; rep < RND_REPS; rep++)
            for (int which = 0; which < 2; which++)
              {
                mx_rounding rd = which ? rrnd[j] : MX_RNE;
                double t0 = bench_now ();
                for (int l = 0; l < loops; l++)
                  if (rd == MX_SR)
                    mxk_quantize_sr (scales, codes, in, MX_FP32, m, fmts[f], MX_SCALE_FLOOR, rbits, MX_PACKING_UNPACKED);
                  else
                    mxk_quantize (scales, codes, in, MX_FP32, m, fmts[f], MX_SCALE_FLOOR, rd, MX_PACKING_UNPACKED);
                double dt = bench_now () - t0;
                if (which)
                  tr = dt < tr ? dt : tr;
                else
                  tn = dt < tn ? dt : tn;
              }
          if (cache)
            rrc[f][j] = tn / tr;
          else
            rr[f][j] = tn / tr;
        }
  printf ("quantize, each rounding's throughput / rne's (same path, alternating, best of %d), DRAM | in cache\n", RND_REPS);
  printf ("%-14s", "format");
  for (int j = 0; j < NRR; j++)
    printf (" %5s", rrname[j]);
  printf ("  |");
  for (int j = 0; j < NRR; j++)
    printf (" %5s", rrname[j]);
  printf ("\n");
  for (int f = 0; f < nf; f++)
    {
      printf ("%-14s", names[f]);
      for (int j = 0; j < NRR; j++)
        printf (" %5.2f", rr[f][j]);
      printf ("  |");
      for (int j = 0; j < NRR; j++)
        printf (" %5.2f", rrc[f][j]);
      printf ("\n");
    }

  printf ("key=value\n");
  printf ("path=%s\n", mxk_path_name (chosen));
  printf ("stream_narrow_gbs=%.3f\nstream_widen_gbs=%.3f\n", gb / t_sn, gb / t_sw);
  if (t_swnt > 0)
    printf ("stream_widen_nt_gbs=%.3f\n", gb / t_swnt);
  for (int f = 0; f < nf; f++)
    {
      printf ("quantize_%s_gbs=%.3f\nquantize_%s_vs_stream=%.3f\ndequantize_%s_vs_stream=%.3f\n",
              names[f], gb / q0[f], names[f], rq[SET_UNIFORM][f], names[f], rdq[SET_UNIFORM][f]);
      for (int set = 1; set < NSETS; set++)
        printf ("quantize_%s_%s_vs_stream=%.3f\ndequantize_%s_%s_vs_stream=%.3f\n", names[f],
                set_names[set], rq[set][f], names[f], set_names[set], rdq[set][f]);
      printf ("quantize_%s_worst_vs_stream=%.3f\ndequantize_%s_worst_vs_stream=%.3f\n", names[f],
              worst_q[f], names[f], worst_dq[f]);
    }
  for (int j = 0; j < 2; j++)
    printf ("quantize_%s_vs_stream=%.3f\ndequantize_%s_vs_stream=%.3f\n", pk[j].name, pq[j], pk[j].name, pdq[j]);
  printf ("dot_e4m3_gelem_per_s=%.3f\ndot_e2m1_int8_gelem_per_s=%.3f\n", (double) n / t_dot / 1e9, (double) n / t_dot2 / 1e9);
  printf ("quantize_e4m3_vs_ref=%.1f\ndequantize_e4m3_vs_ref=%.1f\ndot_e4m3_vs_ref=%.1f\n", su_q, su_dq, su_dot);
  printf ("dispatch_regret=%.3f\ndispatch_regret_at=%s\ndispatch_regret_fastest=%s\n", regret, regret_at,
          regret_fastest);
  printf ("threads=%u\nstream_mt_narrow_gbs=%.3f\nstream_mt_widen_gbs=%.3f\n", nt, gb / t_snm, gb / t_swm);
  for (int f = 0; f < nf; f++)
    printf ("quantize_mt_%s_gbs=%.3f\nquantize_mt_%s_vs_stream_mt=%.3f\ndequantize_mt_%s_vs_stream_mt=%.3f\n",
            names[f], qm_gbs[f], names[f], rqm[f], names[f], rdqm[f]);
  /* sr's keys (the last rounding) after all the others' */
  for (int last = 0; last < 2; last++)
    for (int f = 0; f < nf; f++)
      for (int j = last ? NRR - 1 : 0; j < (last ? NRR : NRR - 1); j++)
        printf ("quantize_%s_%s_vs_rne=%.3f\nquantize_%s_%s_vs_rne_cache=%.3f\n", names[f], rrname[j], rr[f][j],
                names[f], rrname[j], rrc[f][j]);
  free (in), free (wide), free (codes), free (codes2), free (scales), free (scales2), free (rbits);
  return 0;
}
