/* internal.cuh -- shared by libmxk_cuda's sources: the per-thread work (threads.h), launch
 * status.  Not installed.
 * SPDX-License-Identifier: MIT */
#ifndef MXK_CUDA_INTERNAL_CUH
#define MXK_CUDA_INTERNAL_CUH
#include "mxk_cuda.h"
#include "mxk_cuda_conv.h"
#include "threads.h"

/* MX_OK, or MXK_CUDA_EDEVICE when the launch just made failed. */
static inline int
mxk__launched (void)
{
  return cudaGetLastError () == cudaSuccess ? MX_OK : MXK_CUDA_EDEVICE;
}
#endif
