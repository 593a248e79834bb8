/* internal.cuh -- shared by libmxk_cuda's sources: argument checks, sizes, launch status.
 * Not installed.
 * SPDX-License-Identifier: MIT */
#ifndef MXK_CUDA_INTERNAL_CUH
#define MXK_CUDA_INTERNAL_CUH
#include "mxk_cuda.h"
#include "mxk_cuda_conv.h"

/* Threads per CTA of the streaming kernels: 8 threads per block of 32, 32 blocks per CTA. */
#define MXK_CUDA_THREADS 256

/* a * b, or 0 when it overflows a size_t (every caller treats 0 as "too large"). */
static inline size_t
mxk__mul (size_t a, size_t b)
{
  return b && a > (size_t) -1 / b ? 0 : a * b;
}

/* MX_OK, or MXK_CUDA_EDEVICE when the launch just made failed. */
static inline int
mxk__launched (void)
{
  return cudaGetLastError () == cudaSuccess ? MX_OK : MXK_CUDA_EDEVICE;
}

/* The packing of elem's codes is supported: unpacked, or the dense one of its width. */
static inline int
mxk__packing_ok (const mxkc_fmt *f, mx_packing p)
{
  return p == MX_PACKING_UNPACKED || (p == MX_PACKING_FP4_LO_FIRST && f->bits == 4)
         || (p == MX_PACKING_FP6_3BYTE && f->bits == 6);
}

/* ptr is a multiple of a bytes. */
static inline int
mxk__aligned (const void *p, size_t a)
{
  return ((size_t) p & (a - 1)) == 0;
}
#endif
