/* bench-gen -- conformance-vector generation rate: level-1 structured cases and seeded random
 * cases per second (quantize, E4M3, 32-element blocks; casts), written to /dev/null.
 * Not a test: figures vary by machine.  Ends with key=value lines.
 * SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include "bench.h"
#include "mxvec.h"

static int
sink (void *ctx, mxv_case *c)
{
  mxv_writer_case (ctx, c);
  return 0;
}

static double
rate (mxv_op op, int level, long n_random, long long *cases)
{
  static mxv_header h;
  char err[256];
  mxv_header_init (&h);
  h.op = op;
  h.level = level;
  h.elem = mx_format_get (MX_E4M3);
  FILE *m = fopen ("/dev/null", "w");
  if (m == NULL)
    {
      perror ("bench-gen: /dev/null");
      exit (1);
    }
  mxv_writer w;
  mxv_writer_begin (&w, m, MXV_EMIT_MXV, &h);
  double t0 = bench_now ();
  *cases = mxv_generate (&h, n_random, 0, sink, &w, err, sizeof err);
  double dt = bench_now () - t0;
  fclose (m);
  return (double) *cases / dt;
}

int
main (int argc, char **argv)
{
  unsigned long long nr = 20000;
  long long c1, c2, c3, c4;
  if (argc > 1 && mx_parse_uint (&nr, argv[1], 10, 1, 100000000) != MX_OK)
    {
      fprintf (stderr, "usage: bench-gen [RANDOM_CASES (1..10^8, *20000)]\n");
      return 2;
    }
  double l1 = rate (MXV_QUANTIZE, 1, 0, &c1);
  double l2 = rate (MXV_QUANTIZE, 2, 0, &c2);
  double rnd = rate (MXV_QUANTIZE, 1, (long) nr, &c3);
  double cast = rate (MXV_CAST, 1, (long) nr, &c4);
  printf ("quantize e4m3 level 1:        %8lld cases %10.0f cases/s\n", c1, l1);
  printf ("quantize e4m3 level 2:        %8lld cases %10.0f cases/s\n", c2, l2);
  printf ("quantize e4m3 level 1 + rand: %8lld cases %10.0f cases/s\n", c3, rnd);
  printf ("cast e4m3 level 1 + rand:     %8lld cases %10.0f cases/s\n", c4, cast);
  printf ("key=value\n");
  printf ("gen_quantize_level1_cases_per_s=%.0f\n", l1);
  printf ("gen_quantize_level2_cases_per_s=%.0f\n", l2);
  printf ("gen_quantize_random_cases_per_s=%.0f\n", rnd);
  printf ("gen_cast_cases_per_s=%.0f\n", cast);
  return 0;
}
