/* bench-golden -- MPFR-path conversion rate of libmxgold on one core.
 * Prints a table, then key=value lines for scripts.  Not a test: figures vary by machine.
 * SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include "bench.h"
#include "mxvec.h"


int
main (int argc, char **argv)
{
  unsigned long long nn = 2000000;
  if (argc > 1 && mx_parse_uint (&nn, argv[1], 10, 64, 1000000000) != MX_OK)
    {
      fprintf (stderr, "usage: bench-golden [CONVERSIONS (64..10^9, *2000000)]\n");
      return 2;
    }
  size_t n = (size_t) nn;
  uint64_t *in = malloc (n * sizeof *in), sink = 0;
  mxv_rng r = { 0x2143FEDC };
  if (in == NULL)
    return 1;
  for (size_t i = 0; i < n; i++)
    {
      uint64_t s = mxv_rng_next (&r);
      /* FP32 values around 1 with random signs and fractions: the common case */
      in[i] = ((s >> 33) & 0x807FFFFF) | ((uint64_t) (120 + (s >> 60)) << 23);
    }
  mx_policy pol = mx_policy_ocp ();
  const mx_format *f32 = mx_format_get (MX_FP32);
  double total = 0;
  int nelem = 0;
  printf ("%-6s %14s\n", "format", "conversions/s");
  for (int f = 0; f < MX_FORMAT_COUNT; f++)
    {
      const mx_format *e = mx_format_get ((mx_format_id) f);
      unsigned fl;
      uint64_t c;
      if (e->role != MX_ROLE_ELEM)
        continue;
      nelem++;
      double t0 = bench_now ();
      for (size_t i = 0; i < n; i++)
        {
          mx_cast (&c, &fl, e, f32, in[i], 0, &pol, MX_RNE);
          sink += c;
        }
      double rate = (double) n / (bench_now () - t0);
      total += rate;
      printf ("%-6s %14.0f\n", e->name, rate);
    }
  /* block quantize (32 elements, FLOOR, OCP) */
  size_t nb = n / 32;
  uint64_t scale, codes[32];
  double t0 = bench_now ();
  for (size_t b = 0; b < nb; b++)
    {
      mx_quantize (&scale, codes, NULL, NULL, mx_format_get (MX_E4M3), mx_format_get (MX_E8M0), f32,
                   in + 32 * b, 32, NULL, &pol, MX_RNE);
      sink += scale;
    }
  double qrate = (double) nb / (bench_now () - t0);
  printf ("quantize e4m3 blocks/s %.0f (%.0f elements/s)\n", qrate, 32 * qrate);
  /* dot: E4M3 x E4M3 block pairs (k = 32), each accumulation model */
  static const char *const names[] = { "exact", "block_fp32", "tensor_core_h100" };
  double drate[3];
  size_t npairs = n / 64 > 20000 ? 20000 : n / 64 + 1;
  for (int m = 0; m < 3; m++)
    {
      mx_dot_policy dp = mx_dot_policy_default ();
      dp.accum = (mx_accum) m;
      uint64_t sa = 0x7F, sb = 0x7B, codes_a[32], codes_b[32], out;
      double t1 = bench_now ();
      for (size_t p = 0; p < npairs; p++)
        {
          for (int i = 0; i < 32; i++)
            codes_a[i] = in[(64 * p + (size_t) i) % n] & 0x7E, codes_b[i] = in[(64 * p + 32 + (size_t) i) % n] & 0xFE;
          mx_dot (&out, NULL, f32, &sa, codes_a, mx_format_get (MX_E4M3), &sb, codes_b,
                  mx_format_get (MX_E4M3), mx_format_get (MX_E8M0), 32, 1, 0, &dp, MX_RNE);
          sink += out;
        }
      drate[m] = (double) npairs / (bench_now () - t1);
      printf ("dot e4m3 x e4m3 (k=32) %-17s %10.0f block pairs/s\n", names[m], drate[m]);
    }
  printf ("key=value\n");
  for (int m = 0; m < 3; m++)
    printf ("golden_dot_%s_block_pairs_per_s=%.0f\n", names[m], drate[m]);
  printf ("golden_conversions_per_s=%.0f\n", total / nelem);
  printf ("golden_quantize_blocks_per_s=%.0f\n", qrate);
  printf ("golden_quantize_elements_per_s=%.0f\n", 32 * qrate);
  printf ("sink=%llu\n", (unsigned long long) (sink & 0xFF));
  free (in);
  return 0;
}
