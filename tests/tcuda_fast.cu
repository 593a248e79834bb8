/* tcuda_fast.cu -- on a GPU, the quantize kernels' magic-add route (mxkc_quant_elem_fast, one
 * IEEE add per element in the device's rounding modes) against their integer route
 * (mxkc_quant_elem, checked against libmxgold by tcuda_conv), both run on the device: every one
 * of the 2^32 FP32 inputs allowed under each shared exponent of a set (the least a fast-range
 * block has, the FP32-subnormal and overflow edges, 127), for every element format and rounding
 * (sr under a word drawn from the input's bits).  The host model of the add is checked by
 * tcuda_conv; this is the device's add itself.  Exits 77 without a CUDA device.
 * Usage: tcuda_fast
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime_api.h>
#include "mxk_cuda_conv.h"

struct result
{
  unsigned long long bad;
  uint32_t first, got, want;
};

/* One input per thread and step: b = the grid-stride index; skipped where |b| is NaN, Inf or
 * above what scale exponent x allows (floor(log2 |b|) - x > emax). */
template <int E, int R>
static __global__ void
sweep (int x, result *res)
{
  const mxkc_fmt f = mxkc_fmt_of ((mx_format_id) E);
  for (uint64_t i = (uint64_t) blockIdx.x * blockDim.x + threadIdx.x; i < ((uint64_t) 1 << 32);
       i += (uint64_t) gridDim.x * blockDim.x)
    {
      uint32_t b = (uint32_t) i, e = (b >> 23) & 0xFF;
      if (e == 0xFF || (e && (int) e - 127 - x > f.emax))
        continue;
      uint32_t r = (b * 0x9E3779B1u) >> 16;   /* sr's word, from the input's bits */
      uint8_t want = mxkc_quant_elem (b, x, &f, (mx_rounding) R, r);
      uint8_t got = mxkc_quant_elem_fast (b, x, &f, (mx_rounding) R, r);
      if (got != want && atomicAdd (&res->bad, 1ull) == 0)
        res->first = b, res->got = got, res->want = want;
    }
}

typedef void (*sweep_fn) (int, result *);

#define ROW(E) { sweep<MX_##E, MX_RNE>, sweep<MX_##E, MX_RNA>, sweep<MX_##E, MX_RTZ>, \
                 sweep<MX_##E, MX_RUP>, sweep<MX_##E, MX_RDN>, sweep<MX_##E, MX_SR> }
static const sweep_fn fns[6][6] = { ROW (E4M3), ROW (E5M2), ROW (E2M3), ROW (E3M2), ROW (E2M1),
                                    ROW (INT8) };
static const mx_format_id fmts[6] = { MX_E4M3, MX_E5M2, MX_E2M3, MX_E3M2, MX_E2M1, MX_INT8 };
static const mx_rounding rnds[6] = { MX_RNE, MX_RNA, MX_RTZ, MX_RUP, MX_RDN, MX_SR };
static const char *const fnames[6] = { "e4m3", "e5m2", "e2m3", "e3m2", "e2m1", "int8" };
static const char *const rnames[6] = { "rne", "rna", "rtz", "rup", "rdn", "sr" };

static void
ok (cudaError_t e, const char *what)
{
  if (e != cudaSuccess)
    {
      fprintf (stderr, "tcuda_fast: %s: %s\n", what, cudaGetErrorString (e));
      exit (1);
    }
}

int
main (int argc, char **argv)
{
  (void) argv;
  if (argc > 1)
    {
      fprintf (stderr, "usage: tcuda_fast (no arguments)\n");
      return 2;
    }
  int ndev = 0;
  if (cudaGetDeviceCount (&ndev) != cudaSuccess || ndev == 0)
    {
      printf ("tcuda_fast: no CUDA device: skipped\n");
      return 77;
    }
  result *res, h;
  ok (cudaMalloc (&res, sizeof *res), "cudaMalloc");
  long sweeps = 0, failed = 0;
  unsigned long long inputs = 0;
  for (int fi = 0; fi < 6; fi++)
    for (int ri = 0; ri < 6; ri++)
      {
        mxkc_fmt f = mxkc_fmt_of (fmts[fi]);
        int xlo = (rnds[ri] == MX_SR ? -64 : -80) - f.emax - 1;
        const int xs[] = { xlo, xlo + 1, -64, -40, -24, -3, 0, 1, 100, 126 - f.emax, 127 };
        for (size_t k = 0; k < sizeof xs / sizeof xs[0]; k++)
          {
            if (xs[k] < xlo)
              continue;
            h = result { 0, 0, 0, 0 };
            ok (cudaMemcpy (res, &h, sizeof h, cudaMemcpyHostToDevice), "cudaMemcpy");
            fns[fi][ri]<<<132 * 16, 256>>> (xs[k], res);
            ok (cudaGetLastError (), "launch");
            ok (cudaMemcpy (&h, res, sizeof h, cudaMemcpyDeviceToHost), "the sweep");
            sweeps++, inputs += 1ull << 32;
            if (h.bad)
              {
                failed++;
                fprintf (stderr, "tcuda_fast: FAIL: %s %s x %d: %llu inputs differ, first 0x%08X: "
                         "0x%02X, integer route 0x%02X\n", fnames[fi], rnames[ri], xs[k], h.bad, h.first,
                         h.got, h.want);
              }
          }
      }
  cudaFree (res);
  printf ("tcuda_fast: %ld sweeps of 2^32 inputs (%llu), %ld failed\n", sweeps, inputs, failed);
  return failed ? 1 : 0;
}
