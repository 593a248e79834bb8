/* cuda.cu -- bench-cuda: libmxk_cuda against copy kernels of the same shape, in one run.
 *   bench-cuda [N [reps]]   N x N FP32 (default 16384, the issue's shape), reps timed runs of each
 *                           kernel (default 15), medians compared
 * Quantize of every element format (row-wise, RNE, floor, unpacked or the dense packing, linear
 * scales) is timed beside a copy kernel that moves the same bytes (read 4 B per element, write
 * the packed code bytes plus 1 B per 32); dequantize to FP32 beside the reverse copy.  Then the
 * MX GEMM figures (bench/cuda_gemm.cu) where that file is built in.  Each figure is the median of
 * reps runs timed with CUDA events after one warm-up, kernels interleaved so that clocks and
 * temperature drift evenly.  Ends with key=value lines.
 * SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mxk_cuda.h"
#ifdef MXKB_HAVE_GEMM
#include "cuda_gemm.h"
#endif

#define REPS_MAX 101

/* The copy shape of quantize: each thread reads 16 B (4 FP32) and writes ob bytes (the packed
 * codes of 4 elements), every 8th thread 1 more byte (the scale). */
static __global__ void
copy_q (uint8_t *s, uint8_t *o, const uint4 *in, size_t nthreads, int ob)
{
  size_t t = (size_t) blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= nthreads)
    return;
  uint4 v = in[t];
  uint32_t w = v.x ^ (v.y << 1) ^ (v.z << 2) ^ (v.w << 3);  /* depends on every byte read */
  if (ob == 4)
    *(uint32_t *) (o + 4 * t) = w;
  else if (ob == 2)
    *(uint16_t *) (o + 2 * t) = (uint16_t) w;
  else
    o[3 * t] = (uint8_t) w, o[3 * t + 1] = (uint8_t) (w >> 8), o[3 * t + 2] = (uint8_t) (w >> 16);
  if ((t & 7) == 0)
    s[t / 8] = (uint8_t) (w >> 24);
}

/* The copy shape of dequantize: read ib code bytes and (every 8th thread) a scale byte, write 16 B. */
static __global__ void
copy_dq (uint4 *out, const uint8_t *s, const uint8_t *c, size_t nthreads, int ib)
{
  size_t t = (size_t) blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= nthreads)
    return;
  uint32_t w = ib == 4 ? *(const uint32_t *) (c + 4 * t)
               : ib == 2 ? *(const uint16_t *) (c + 2 * t)
               : (uint32_t) c[3 * t] | (uint32_t) c[3 * t + 1] << 8 | (uint32_t) c[3 * t + 2] << 16;
  uint32_t sc = s[t / 8];
  out[t] = make_uint4 (w, w ^ sc, w + sc, w - sc);
}

static int
cmp_float (const void *a, const void *b)
{
  float x = *(const float *) a, y = *(const float *) b;
  return (x > y) - (x < y);
}

static float
median (float *v, int n)
{
  qsort (v, (size_t) n, sizeof *v, cmp_float);
  return v[n / 2];
}

#define CK(call)                                                                          \
  do                                                                                      \
    {                                                                                     \
      cudaError_t e_ = (call);                                                            \
      if (e_ != cudaSuccess)                                                              \
        {                                                                                 \
          fprintf (stderr, "bench-cuda: %s: %s\n", #call, cudaGetErrorString (e_));      \
          exit (1);                                                                       \
        }                                                                                 \
    }                                                                                     \
  while (0)

/* Milliseconds from e0 (recorded before the work) to now, once the work is done. */
static float
since (cudaEvent_t e0, cudaEvent_t e1)
{
  float ms;
  CK (cudaEventRecord (e1));
  CK (cudaEventSynchronize (e1));
  CK (cudaEventElapsedTime (&ms, e0, e1));
  return ms;
}

/* A decimal count, the whole argument (not atol: "64x" is refused), or -1. */
static long
count_arg (const char *s)
{
  char *end;
  errno = 0;
  unsigned long v = strtoul (s, &end, 10);
  return s[0] < '0' || s[0] > '9' || *end || errno || v > 1000000ul ? -1 : (long) v;
}

int
main (int argc, char **argv)
{
  if (argc > 1 && strcmp (argv[1], "--help") == 0)
    {
      printf ("usage: bench-cuda [N (a multiple of 32, <= 65536) [reps (1..%d)]]\n", REPS_MAX);
      return 0;
    }
  long N = argc > 1 ? count_arg (argv[1]) : 16384;
  int reps = argc > 2 ? (int) count_arg (argv[2]) : 15;
  if (argc > 3 || N < 32 || N % 32 || N > 65536 || reps < 1 || reps > REPS_MAX)
    {
      if (argc > 3)
        fprintf (stderr, "bench-cuda: at most two arguments, N and reps\n");
      else if (N < 32 || N % 32 || N > 65536)
        fprintf (stderr, "bench-cuda: N: expected a multiple of 32 in 32..65536, got '%s'\n", argv[1]);
      else
        fprintf (stderr, "bench-cuda: reps: expected 1..%d, got '%s'\n", REPS_MAX, argv[2]);
      fprintf (stderr, "usage: bench-cuda [N (a multiple of 32, <= 65536) [reps (1..%d)]]\n", REPS_MAX);
      return 2;
    }
  int ndev = 0;
  if (cudaGetDeviceCount (&ndev) != cudaSuccess || ndev == 0)
    {
      printf ("bench-cuda: no CUDA device: nothing measured\n");
      return 77;
    }
  struct cudaDeviceProp pr;
  CK (cudaGetDeviceProperties (&pr, 0));
  int mclk = 0, bus = 0;
  cudaDeviceGetAttribute (&mclk, cudaDevAttrMemoryClockRate, 0);
  cudaDeviceGetAttribute (&bus, cudaDevAttrGlobalMemoryBusWidth, 0);
  double peak = 2.0 * mclk * 1e3 * (bus / 8) / 1e9;
  size_t n = (size_t) N * (size_t) N;
  printf ("bench-cuda: %s, %d SMs, memory peak %.0f GB/s (from its attributes); %ld x %ld FP32, "
          "median of %d runs\n", pr.name, pr.multiProcessorCount, peak, N, N, reps);
  float *in;
  uint8_t *codes, *scales;
  uint32_t *out;
  CK (cudaMalloc (&in, n * 4));
  CK (cudaMalloc (&out, n * 4));
  CK (cudaMalloc (&codes, n));
  CK (cudaMalloc (&scales, n / 32));
  /* values of every size and sign: what the quantizer sees from real tensors, not zeros */
  {
    uint32_t *h = (uint32_t *) malloc (n * 4);
    if (!h)
      return 1;
    unsigned long long z = 0x9E3779B97F4A7C15ull;
    for (size_t i = 0; i < n; i++)
      {
        z ^= z << 13, z ^= z >> 7, z ^= z << 17;
        h[i] = (uint32_t) (z & 0x807FFFFFu) | (uint32_t) (112 + (z >> 40) % 24) << 23;
      }
    CK (cudaMemcpy (in, h, n * 4, cudaMemcpyHostToDevice));
    free (h);
  }
  cudaEvent_t e0, e1;
  CK (cudaEventCreate (&e0));
  CK (cudaEventCreate (&e1));
  static const mx_format_id fmts[] = { MX_E4M3, MX_E5M2, MX_E2M3, MX_E3M2, MX_E2M1, MX_INT8 };
  static const char *names[] = { "e4m3", "e5m2", "e2m3", "e3m2", "e2m1", "int8" };
  double qr[6], dr[6], worst_q = 1e9, worst_dq = 1e9;
  size_t nthreads = n / 4;
  unsigned ctas = (unsigned) ((nthreads + 255) / 256);
  for (int f = 0; f < 6; f++)
    {
      mx_packing pk = fmts[f] == MX_E2M1 ? MX_PACKING_FP4_LO_FIRST
                      : fmts[f] == MX_E2M3 || fmts[f] == MX_E3M2 ? MX_PACKING_FP6_3BYTE
                                                                 : MX_PACKING_UNPACKED;
      int ob = pk == MX_PACKING_FP4_LO_FIRST ? 2 : pk == MX_PACKING_FP6_3BYTE ? 3 : 4;
      /* t[k][0]: the warm-up of kernel k (not counted); t[k][1..reps]: the timed runs */
      float t[4][REPS_MAX + 1], *tq = t[0] + 1, *tc = t[1] + 1, *td = t[2] + 1, *tcd = t[3] + 1;
      for (int r = 0; r <= reps; r++)
        {
          CK (cudaEventRecord (e0));
          if (mxk_cuda_quantize (scales, codes, in, MX_FP32, (size_t) N, (size_t) N, fmts[f],
                                 MX_SCALE_FLOOR, MX_RNE, NULL, pk, MXK_CUDA_ROWWISE,
                                 MXK_CUDA_SCALES_LINEAR, 0) != MX_OK)
            {
              fprintf (stderr, "bench-cuda: mxk_cuda_quantize failed\n");
              return 1;
            }
          t[0][r] = since (e0, e1);
          CK (cudaEventRecord (e0));
          copy_q<<<ctas, 256>>> (scales, codes, (const uint4 *) in, nthreads, ob);
          t[1][r] = since (e0, e1);
          CK (cudaEventRecord (e0));
          if (mxk_cuda_dequantize (out, MX_FP32, scales, codes, (size_t) N, (size_t) N, fmts[f], pk,
                                   MXK_CUDA_SCALES_LINEAR, 0) != MX_OK)
            {
              fprintf (stderr, "bench-cuda: mxk_cuda_dequantize failed\n");
              return 1;
            }
          t[2][r] = since (e0, e1);
          CK (cudaEventRecord (e0));
          copy_dq<<<ctas, 256>>> ((uint4 *) out, scales, codes, nthreads, ob);
          t[3][r] = since (e0, e1);
        }
      double bytes = (double) n * 4 + (double) n * ob / 4 + (double) n / 32;
      double mq = median (tq, reps), mc = median (tc, reps), md = median (td, reps), mcd = median (tcd, reps);
      qr[f] = mc / mq, dr[f] = mcd / md;
      worst_q = qr[f] < worst_q ? qr[f] : worst_q;
      worst_dq = dr[f] < worst_dq ? dr[f] : worst_dq;
      printf ("%-5s quantize %.3f ms (%.0f GB/s), copy %.3f ms (%.0f GB/s): %.3fx | dequantize %.3f ms "
              "(%.0f GB/s), copy %.3f ms: %.3fx\n", names[f], mq, bytes / mq / 1e6, mc, bytes / mc / 1e6,
              qr[f], md, bytes / md / 1e6, mcd, dr[f]);
    }
#ifdef MXKB_HAVE_GEMM
  int grc = mxkb_gemm (8192);
  if (grc)
    return grc;
#endif
  printf ("device=%s\n", pr.name);
  for (int f = 0; f < 6; f++)
    printf ("quantize_%s_ratio=%.3f\ndequantize_%s_ratio=%.3f\n", names[f], qr[f], names[f], dr[f]);
  printf ("quantize_worst_ratio=%.3f\ndequantize_worst_ratio=%.3f\n", worst_q, worst_dq);
  cudaFree (in), cudaFree (out), cudaFree (codes), cudaFree (scales);
  return 0;
}
