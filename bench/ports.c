/* ports.c -- the throughput of the AVX-512 instructions libmxk's loops are made of, on this core:
 * each instruction 8 times per iteration on independent registers, in instructions per cycle,
 * alone and mixed half and half with a 512-bit shift (vpsrld) and with a dword permute (vpermd).
 * A mix that runs at about 1 per cycle shares that instruction's one unit; about 2, it does not.
 * Cycles are counted by a chain of dependent 64-bit imul (latency 3 on every x86-64 core of the
 * last decade), so the figures need no performance counters (the KVM guests this project runs on
 * expose none).  docs/kernels.md, "Intel Xeon (Emerald Rapids) as the development machine", reads
 * the quantize and sr budgets off them.  Usage: bench-ports.  Ends with key=value lines.
 * SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include "bench.h"

#if defined(__x86_64__) && defined(__GNUC__)
#define N_ITER 20000000L

/* Eight copies of an instruction template on zmm0..7 (destinations) from zmm8, zmm9. */
#define R8(f) f (0) f (1) f (2) f (3) f (4) f (5) f (6) f (7)
#define R4A(f) f (0) f (1) f (2) f (3)
#define R4B(f) f (4) f (5) f (6) f (7)
#define ADDD(r) "vpaddd %%zmm8, %%zmm9, %%zmm" #r "\n\t"
#define ADDPS(r) "vaddps %%zmm8, %%zmm9, %%zmm" #r "\n\t"
#define TERN(r) "vpternlogd $0xd8, %%zmm8, %%zmm9, %%zmm" #r "\n\t"
#define BLEND(r) "vpblendmq %%zmm8, %%zmm9, %%zmm" #r "%{%%k1%}\n\t"
#define SRLD(r) "vpsrld $3, %%zmm8, %%zmm" #r "\n\t"
#define MAXUD(r) "vpmaxud %%zmm8, %%zmm9, %%zmm" #r "\n\t"
#define MINUB(r) "vpminub %%zmm8, %%zmm9, %%zmm" #r "\n\t"
#define MAXPS(r) "vmaxps %%zmm8, %%zmm9, %%zmm" #r "\n\t"
#define PERMD(r) "vpermd %%zmm8, %%zmm9, %%zmm" #r "\n\t"
#define PERMT2D(r) "vpermt2d %%zmm8, %%zmm9, %%zmm" #r "\n\t"
#define PERMB(r) "vpermb %%zmm8, %%zmm9, %%zmm" #r "\n\t"
#define PERMT2B(r) "vpermt2b %%zmm8, %%zmm9, %%zmm" #r "\n\t"
#define PERMT2W(r) "vpermt2w %%zmm8, %%zmm9, %%zmm" #r "\n\t"
#define MSHIFT(r) "vpmultishiftqb %%zmm8, %%zmm9, %%zmm" #r "\n\t"
#define PACKUS(r) "vpackusdw %%zmm8, %%zmm9, %%zmm" #r "\n\t"
#define UNPCK(r) "vpunpcklwd %%zmm8, %%zmm9, %%zmm" #r "\n\t"
#define SHUF128(r) "vshufi64x2 $0x44, %%zmm8, %%zmm9, %%zmm" #r "\n\t"
#define ZXWD(r) "vpmovzxwd %%ymm8, %%zmm" #r "\n\t"
#define PS2PD(r) "vcvtps2pd %%ymm8, %%zmm" #r "\n\t"
#define MOVDB(r) "vpmovdb %%zmm8, %%xmm" #r "\n\t"
#define SUBUSW(r) "vpsubusw %%zmm8, %%zmm9, %%zmm" #r "\n\t"

#define LOOP(name, body)                                                                          \
  __attribute__ ((target ("avx512f,avx512bw,avx512vbmi"), noinline)) static double name (void)   \
  {                                                                                               \
    double t = bench_now ();                                                                      \
    __asm__ volatile ("mov %0, %%rcx\n\t"                                                         \
                      "1:\n\t" body "dec %%rcx\n\t"                                               \
                      "jnz 1b"                                                                    \
                      :                                                                           \
                      : "r"(N_ITER)                                                               \
                      : "rcx", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7",    \
                        "k1", "cc");                                                              \
    return bench_now () - t;                                                                      \
  }
/* each instruction alone, and half and half with the shift and with the permute */
#define TRIPLE(name, M)                                                                           \
  LOOP (name##_alone, R8 (M))                                                                     \
  LOOP (name##_shift, R4A (M) R4B (SRLD))                                                         \
  LOOP (name##_perm, R4A (M) R4B (PERMD))

TRIPLE (vpaddd, ADDD)
TRIPLE (vaddps, ADDPS)
TRIPLE (vpternlogd, TERN)
TRIPLE (vpblendmq, BLEND)
TRIPLE (vpsrld, SRLD)
TRIPLE (vpmaxud, MAXUD)
TRIPLE (vpminub, MINUB)
TRIPLE (vmaxps, MAXPS)
TRIPLE (vpsubusw, SUBUSW)
TRIPLE (vpermd, PERMD)
TRIPLE (vpermt2d, PERMT2D)
TRIPLE (vpermb, PERMB)
TRIPLE (vpermt2b, PERMT2B)
TRIPLE (vpermt2w, PERMT2W)
TRIPLE (vpmultishiftqb, MSHIFT)
TRIPLE (vpackusdw, PACKUS)
TRIPLE (vpunpcklwd, UNPCK)
TRIPLE (vshufi64x2, SHUF128)
TRIPLE (vpmovzxwd, ZXWD)
TRIPLE (vcvtps2pd, PS2PD)
TRIPLE (vpmovdb, MOVDB)

/* seconds per cycle: N_ITER iterations of two dependent imuls, 6 cycles each */
static double
cycle_seconds (void)
{
  double t = bench_now ();
  __asm__ volatile ("mov %0, %%rcx\n\t"
                    "mov $1, %%rax\n\t"
                    "1:\n\t"
                    "imul %%rax, %%rax\n\t"
                    "imul %%rax, %%rax\n\t"
                    "dec %%rcx\n\t"
                    "jnz 1b"
                    :
                    : "r"(N_ITER)
                    : "rax", "rcx", "cc");
  return (bench_now () - t) / (6.0 * (double) N_ITER);
}

typedef struct
{
  const char *name;
  double (*f[3]) (void);
} probe;

#define PROBE(name) { #name, { name##_alone, name##_shift, name##_perm } }
static const probe probes[] = {
  PROBE (vpaddd), PROBE (vaddps), PROBE (vpternlogd), PROBE (vpblendmq), PROBE (vpsrld),
  PROBE (vpmaxud), PROBE (vpminub), PROBE (vmaxps), PROBE (vpsubusw), PROBE (vpermd),
  PROBE (vpermt2d), PROBE (vpermb), PROBE (vpermt2b), PROBE (vpermt2w), PROBE (vpmultishiftqb),
  PROBE (vpackusdw), PROBE (vpunpcklwd), PROBE (vshufi64x2), PROBE (vpmovzxwd), PROBE (vcvtps2pd),
  PROBE (vpmovdb),
};

int
main (int argc, char **argv)
{
  (void) argv;
  if (argc > 1)
    {
      puts ("usage: bench-ports\n"
            "  instructions per cycle of the AVX-512 instructions libmxk's loops use, alone and\n"
            "  mixed half and half with vpsrld and with vpermd (cycles from a dependent imul\n"
            "  chain; best of 3).  Ends with key=value lines.");
      return 0;
    }
  __builtin_cpu_init ();
  if (!__builtin_cpu_supports ("avx512f") || !__builtin_cpu_supports ("avx512bw")
      || !__builtin_cpu_supports ("avx512vbmi"))
    {
      puts ("bench-ports: this CPU lacks AVX-512 F, BW or VBMI: nothing measured\nkey=value\nports_measured=0");
      return 0;
    }
  double cyc = 1e30;
  for (int r = 0; r < 3; r++)
    {
      double c = cycle_seconds ();
      cyc = c < cyc ? c : cyc;
    }
  size_t np = sizeof probes / sizeof probes[0];
  double ipc[sizeof probes / sizeof probes[0]][3];
  printf ("bench-ports: clock %.2f GHz (imul chain); instructions per cycle, best of 3\n", 1e-9 / cyc);
  printf ("%-16s %7s %12s %12s\n", "instruction", "alone", "with vpsrld", "with vpermd");
  for (size_t i = 0; i < np; i++)
    {
      for (int m = 0; m < 3; m++)
        {
          double best = 1e30;
          for (int r = 0; r < 3; r++)
            {
              double t = probes[i].f[m] ();
              best = t < best ? t : best;
            }
          ipc[i][m] = 8.0 * (double) N_ITER / (best / cyc);
        }
      printf ("%-16s %7.2f %12.2f %12.2f\n", probes[i].name, ipc[i][0], ipc[i][1], ipc[i][2]);
    }
  printf ("key=value\nports_measured=1\nclock_ghz=%.3f\n", 1e-9 / cyc);
  for (size_t i = 0; i < np; i++)
    printf ("%s_per_cycle=%.3f\n%s_with_vpsrld_per_cycle=%.3f\n%s_with_vpermd_per_cycle=%.3f\n",
            probes[i].name, ipc[i][0], probes[i].name, ipc[i][1], probes[i].name, ipc[i][2]);
  return 0;
}
#else
int
main (void)
{
  puts ("bench-ports: x86-64 only: nothing measured\nkey=value\nports_measured=0");
  return 0;
}
#endif
