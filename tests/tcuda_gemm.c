/* tcuda_gemm.c -- mxk_cuda_gemm on a GPU against libmxgold's mx_gemm, bit for bit: for each
 * model (exact, block-fp32), every format pair several times over (at least 100 cases each,
 * tcuda_gemm_cases.h: m, n of 1..5 and 33..70, off every CTA tile, k = 32..1024, scales equal to
 * spread and NaN, codes random to adversarial, C_in absent to NaN), then the refusals: k not a
 * multiple of 32 (MX_EINVAL), a model it does not run.  Skipped (77) without a CUDA device.
 * Usage: tcuda_gemm [cases per pair and model, 3] [seed, 1]
 * SPDX-License-Identifier: MIT */
#include "tcuda_gemm_cases.h"
#include "mxk_cuda.h"

static void
cuda_ok (cudaError_t e, const char *what)
{
  if (e != cudaSuccess)
    {
      fprintf (stderr, "tcuda_gemm: %s: %s\n", what, cudaGetErrorString (e));
      exit (1);
    }
}

static void *
to_device (const void *p, size_t bytes)
{
  void *d = NULL;
  if (p == NULL)
    return NULL;
  cuda_ok (cudaMalloc (&d, bytes ? bytes : 1), "cudaMalloc");
  cuda_ok (cudaMemcpy (d, p, bytes, cudaMemcpyHostToDevice), "cudaMemcpy to the device");
  return d;
}

/* mxk_cuda_gemm of case c into out. */
static void
device_gemm (uint32_t *out, const gcase *c)
{
  size_t nb = c->k / 32;
  uint8_t *as = to_device (c->as, c->m * nb), *ac = to_device (c->ac, c->m * c->k);
  uint8_t *bs = to_device (c->bs, c->n * nb), *bc = to_device (c->bc, c->n * c->k);
  uint32_t *ci = to_device (c->cin, c->m * c->n * 4), *co = NULL;
  cuda_ok (cudaMalloc ((void **) &co, c->m * c->n * 4), "cudaMalloc");
  int rc = mxk_cuda_gemm (co, c->m, c->n, c->k, as, ac, c->fa, bs, bc, c->fb, ci, c->accum, 0);
  if (rc != MX_OK)
    {
      fprintf (stderr, "tcuda_gemm: mxk_cuda_gemm returned %d (%s)\n", rc,
               cudaGetErrorString (cudaGetLastError ()));
      exit (1);
    }
  cuda_ok (cudaDeviceSynchronize (), "the GEMM kernel");
  cuda_ok (cudaMemcpy (out, co, c->m * c->n * 4, cudaMemcpyDeviceToHost), "cudaMemcpy back");
  cudaFree (as), cudaFree (ac), cudaFree (bs), cudaFree (bc), cudaFree (ci), cudaFree (co);
}

int
main (int argc, char **argv)
{
  int ndev = 0;
  cudaError_t e = cudaGetDeviceCount (&ndev);
  if (e != cudaSuccess || ndev == 0)
    {
      printf ("tcuda_gemm: no CUDA device (%s): skipped\n",
              e != cudaSuccess ? cudaGetErrorString (e) : "0 devices");
      return SKIP;
    }
  long cases = test_count (argc, argv, 1, 3);
  rng r = { argc > 2 ? (uint64_t) test_number (argv[2], "seed") : 1 };
  long per_model[2] = { 0, 0 };
  for (int a = 0; a < 6; a++)
    for (int b = 0; b < 6; b++)
      for (int md = 0; md < 2; md++)
        for (long t = 0; t < cases; t++)
          {
            gcase c;
            /* every third case per pair a large one: several CTA tiles, edges off the tile */
            gen_case (&c, &r, fmts[a], fmts[b], models[md], t % 3 == 2);
            uint32_t *want = malloc (c.m * c.n * 4), *got = malloc (c.m * c.n * 4);
            if (!want || !got)
              exit (1);
            golden (want, &c);
            device_gemm (got, &c);
            compare ("device", &c, want, got);
            per_model[md]++;
            free (want), free (got);
            free_case (&c);
          }
  /* refusals: nothing is launched, so the pointers are never read */
  uint32_t dummy[1];
  uint8_t d8[64];
  int bad_args = 0;
  if (mxk_cuda_gemm (dummy, 1, 1, 48, d8, d8, MX_E4M3, d8, d8, MX_E4M3, NULL, MX_ACCUM_EXACT, 0)
      != MX_EINVAL)
    bad_args++, fprintf (stderr, "tcuda_gemm: k = 48 was not refused\n");
  if (mxk_cuda_gemm (dummy, 1, 1, 32, d8, d8, MX_E2M1, d8, d8, MX_E2M1, NULL,
                     MX_ACCUM_TENSOR_CORE, 0) != MX_EINVAL)
    bad_args++, fprintf (stderr, "tcuda_gemm: the tensor-core model was not refused\n");
  if (mxk_cuda_gemm (dummy, 1, 1, 32, d8, d8, MX_FP32, d8, d8, MX_E2M1, NULL, MX_ACCUM_EXACT, 0)
      != MX_EINVAL)
    bad_args++, fprintf (stderr, "tcuda_gemm: FP32 as an element format was not refused\n");
  printf ("tcuda_gemm: %ld exact and %ld block-fp32 cases, %ld outputs compared, %ld mismatches, "
          "%d refusals wrong\n", per_model[0], per_model[1], checked, bad, bad_args);
  printf ("tcuda_gemm: expected NaN %ld, Inf %ld, +0 %ld, -0 %ld, subnormal %ld, normal %ld\n",
          classes[0], classes[1], classes[2], classes[3], classes[4], classes[5]);
  return bad != 0 || bad_args != 0;
}
