/* bench.h -- the benches' monotonic clock.  SPDX-License-Identifier: MIT */
#ifndef MX_BENCH_H
#define MX_BENCH_H
#include <time.h>

static inline double
bench_now (void)
{
  struct timespec t;
  clock_gettime (CLOCK_MONOTONIC, &t);
  return (double) t.tv_sec + 1e-9 * (double) t.tv_nsec;
}
#endif
