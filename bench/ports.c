/* ports.c -- the throughput of the AVX-512 instructions libmxk's loops are made of, on this core:
 * each instruction 8 times per iteration into 8 registers, in instructions per cycle, alone and
 * mixed half and half with a 512-bit shift (vpsrld) and with a dword permute (vpermd).  For an
 * instruction of one operation, a mix at about 1 per cycle means it shares that unit, about 2
 * that it does not.  The cycles are those of a chain of dependent 64-bit imul (latency 3 on every
 * x86-64 core of the last decade), timed before and after each probe, so the figures need no
 * performance counters (the KVM guests this project runs on expose none); where the vector code
 * runs at another clock than the scalar chain, or another thread shares the core, they are off
 * by as much (on the Intel Xeon of docs/kernels.md about 5%: 2.1 for two units).  The operands
 * are normal floats.  vpternlogd and the vpermt2* read their destination, so each register is a
 * chain of their latency: alone, 8 of them an iteration, they measure throughput while that
 * latency is at most 8 cycles.  docs/kernels.md, "Intel Xeon (Emerald Rapids) as the development
 * machine", reads the quantize and sr budgets off them.  With VBMI it also times the quantize
 * loop's instructions for a pair of blocks as one mix (pair_mix).  Usage: bench-ports.  Ends
 * with key=value lines.  SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>
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
#define UNPCKQ(r) "vpunpcklqdq %%zmm8, %%zmm9, %%zmm" #r "\n\t"
#define SHUFPS(r) "vshufps $0x88, %%zmm8, %%zmm9, %%zmm" #r "\n\t"
#define SHUF128(r) "vshufi64x2 $0x44, %%zmm8, %%zmm9, %%zmm" #r "\n\t"
#define ZXWD(r) "vpmovzxwd %%ymm8, %%zmm" #r "\n\t"
#define PS2PD(r) "vcvtps2pd %%ymm8, %%zmm" #r "\n\t"
#define MOVDB(r) "vpmovdb %%zmm8, %%xmm" #r "\n\t"
#define SUBUSW(r) "vpsubusw %%zmm8, %%zmm9, %%zmm" #r "\n\t"

#define LOOP(name, body)                                                                          \
  __attribute__ ((target ("avx512f,avx512bw"), noinline)) static double name (void)   \
  {                                                                                               \
    double t = bench_now ();                                                                      \
    __asm__ volatile ("mov $0x3f800000, %%eax\n\t" /* the operands: 1.0f, 2.0f, every lane */     \
                      "vpbroadcastd %%eax, %%zmm8\n\t"                                            \
                      "mov $0x40000000, %%eax\n\t"                                                \
                      "vpbroadcastd %%eax, %%zmm9\n\t"                                            \
                      "kxnorw %%k1, %%k1, %%k1\n\t"                                               \
                      "mov %0, %%rcx\n\t"                                                         \
                      "1:\n\t" body "dec %%rcx\n\t"                                               \
                      "jnz 1b"                                                                    \
                      :                                                                           \
                      : "r"(N_ITER)                                                               \
                      : "rax", "rcx", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6",     \
                        "xmm7", "xmm8", "xmm9", "k1", "cc");                                      \
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
TRIPLE (vpunpcklqdq, UNPCKQ)
TRIPLE (vshufps, SHUFPS)
TRIPLE (vshufi64x2, SHUF128)
TRIPLE (vpmovzxwd, ZXWD)
TRIPLE (vcvtps2pd, PS2PD)
TRIPLE (vpmovdb, MOVDB)

/* The sixteen-block quantize loop's codes for a pair of blocks (E4M3 rne, pair_fast): per 16
 * lanes an and, a sub, a maximum, a shift, vpermi2d and the rounding add, then for the 64 lanes
 * four vpermt2b, a ternary op, two blends and vpminub, 32 instructions, here without the
 * loop's dependences: 30 destinations, the last two (a blend and vpminub, which do not read
 * theirs) writing the first two again, so that an instruction that reads its destination (the
 * permutes, the ternary op) waits only on the previous iteration's.  The cycles the pipes need
 * for them, against which the loop's own time is read (docs/kernels.md, "The sixth session"). */
#define N_MIX 32
__attribute__ ((target ("avx512f,avx512bw,avx512vbmi"), noinline)) static double
pair_mix (void)
{
  double t = bench_now ();
  __asm__ volatile ("mov $0x3f800000, %%eax\n\t"
                    "vpbroadcastd %%eax, %%zmm8\n\t"
                    "mov $0x40000000, %%eax\n\t"
                    "vpbroadcastd %%eax, %%zmm9\n\t"
                    "kxnorw %%k1, %%k1, %%k1\n\t"
                    "mov %0, %%rcx\n\t"
                    "1:\n\t"
                    "vpandd %%zmm8, %%zmm9, %%zmm0\n\t"
                    "vpsubd %%zmm8, %%zmm9, %%zmm1\n\t"
                    "vpmaxsd %%zmm8, %%zmm9, %%zmm2\n\t"
                    "vpsrld $23, %%zmm9, %%zmm3\n\t"
                    "vpermi2d %%zmm8, %%zmm9, %%zmm4\n\t"
                    "vaddps %%zmm8, %%zmm9, %%zmm5\n\t"
                    "vpandd %%zmm8, %%zmm9, %%zmm6\n\t"
                    "vpsubd %%zmm8, %%zmm9, %%zmm7\n\t"
                    "vpmaxsd %%zmm8, %%zmm9, %%zmm10\n\t"
                    "vpsrld $23, %%zmm9, %%zmm11\n\t"
                    "vpermi2d %%zmm8, %%zmm9, %%zmm12\n\t"
                    "vaddps %%zmm8, %%zmm9, %%zmm13\n\t"
                    "vpandd %%zmm8, %%zmm9, %%zmm14\n\t"
                    "vpsubd %%zmm8, %%zmm9, %%zmm15\n\t"
                    "vpmaxsd %%zmm8, %%zmm9, %%zmm16\n\t"
                    "vpsrld $23, %%zmm9, %%zmm17\n\t"
                    "vpermi2d %%zmm8, %%zmm9, %%zmm18\n\t"
                    "vaddps %%zmm8, %%zmm9, %%zmm19\n\t"
                    "vpandd %%zmm8, %%zmm9, %%zmm20\n\t"
                    "vpsubd %%zmm8, %%zmm9, %%zmm21\n\t"
                    "vpmaxsd %%zmm8, %%zmm9, %%zmm22\n\t"
                    "vpsrld $23, %%zmm9, %%zmm23\n\t"
                    "vpermi2d %%zmm8, %%zmm9, %%zmm24\n\t"
                    "vaddps %%zmm8, %%zmm9, %%zmm25\n\t"
                    "vpermt2b %%zmm8, %%zmm9, %%zmm26\n\t"
                    "vpermt2b %%zmm8, %%zmm9, %%zmm27\n\t"
                    "vpermt2b %%zmm8, %%zmm9, %%zmm28\n\t"
                    "vpermt2b %%zmm8, %%zmm9, %%zmm29\n\t"
                    "vpternlogd $0xd8, %%zmm8, %%zmm9, %%zmm30\n\t"
                    "vpblendmq %%zmm8, %%zmm9, %%zmm31%{%%k1%}\n\t"
                    "vpblendmq %%zmm8, %%zmm9, %%zmm0%{%%k1%}\n\t"
                    "vpminub %%zmm8, %%zmm9, %%zmm1\n\t"
                    "dec %%rcx\n\t"
                    "jnz 1b"
                    :
                    : "r"(N_ITER)
                    : "rax", "rcx", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8",
                      "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", "xmm16", "xmm17",
                      "xmm18", "xmm19", "xmm20", "xmm21", "xmm22", "xmm23", "xmm24", "xmm25", "xmm26",
                      "xmm27", "xmm28", "xmm29", "xmm30", "xmm31", "k1", "cc");
  return bench_now () - t;
}

/* seconds per cycle: N_ITER iterations of two dependent imuls (3 cycles each, 6 an iteration) */
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

/* widens [*lo, *hi] (GHz) to the clock of one cycle of cyc seconds */
static void
clock_range (double cyc, double *lo, double *hi)
{
  double ghz = 1e-9 / cyc;
  *lo = ghz < *lo ? ghz : *lo;
  *hi = ghz > *hi ? ghz : *hi;
}

typedef struct
{
  const char *name;
  int vbmi; /* needs AVX-512 VBMI */
  double (*f[3]) (void);
} probe;

#define PROBE(name, vbmi) { #name, vbmi, { name##_alone, name##_shift, name##_perm } }
static const probe probes[] = {
  PROBE (vpaddd, 0),   PROBE (vaddps, 0),     PROBE (vpternlogd, 0), PROBE (vpblendmq, 0),
  PROBE (vpsrld, 0),   PROBE (vpmaxud, 0),    PROBE (vpminub, 0),    PROBE (vmaxps, 0),
  PROBE (vpsubusw, 0), PROBE (vpermd, 0),     PROBE (vpermt2d, 0),   PROBE (vpermb, 1),
  PROBE (vpermt2b, 1), PROBE (vpermt2w, 0),   PROBE (vpmultishiftqb, 1), PROBE (vpackusdw, 0),
  PROBE (vpunpcklwd, 0), PROBE (vpunpcklqdq, 0), PROBE (vshufps, 0),   PROBE (vshufi64x2, 0),
  PROBE (vpmovzxwd, 0), PROBE (vcvtps2pd, 0),  PROBE (vpmovdb, 0),
};

int
main (int argc, char **argv)
{
  if (argc > 2 || (argc == 2 && strcmp (argv[1], "--help") != 0 && strcmp (argv[1], "-h") != 0))
    {
      fprintf (stderr, "bench-ports: unexpected argument '%s' (it takes none; --help)\n", argv[1]);
      return 2;
    }
  if (argc == 2)
    {
      puts ("usage: bench-ports\n"
            "  instructions per cycle of the AVX-512 instructions libmxk's loops use, alone and\n"
            "  mixed half and half with vpsrld and with vpermd (cycles from a dependent imul\n"
            "  chain timed before and after each probe; best of 3); with AVX-512 VBMI, the cycles\n"
            "  of the quantize loop's 32 instructions for a pair of blocks (E4M3 rne) as one mix\n"
            "  without the loop's dependences.  Ends with key=value lines.");
      return 0;
    }
  __builtin_cpu_init ();
  if (!__builtin_cpu_supports ("avx512f") || !__builtin_cpu_supports ("avx512bw"))
    {
      puts ("bench-ports: this CPU lacks AVX-512 F or BW: nothing measured\nkey=value\nports_measured=0");
      return 0;
    }
  int vbmi = __builtin_cpu_supports ("avx512vbmi");
  size_t np = sizeof probes / sizeof probes[0];
  double ipc[sizeof probes / sizeof probes[0]][3], ghz_lo = 1e30, ghz_hi = 0;
  printf ("bench-ports: instructions per cycle (of a dependent imul chain's clock, timed before and\n"
          "after each probe), best of 3%s\n", vbmi ? "" : "; no AVX-512 VBMI: its instructions not run");
  printf ("%-16s %7s %12s %12s\n", "instruction", "alone", "with vpsrld", "with vpermd");
  for (size_t i = 0; i < np; i++)
    {
      if (probes[i].vbmi && !vbmi)
        continue;
      for (int m = 0; m < 3; m++)
        {
          double best = 1e30, c0 = cycle_seconds ();
          for (int r = 0; r < 3; r++)
            {
              double t = probes[i].f[m] ();
              best = t < best ? t : best;
            }
          double cyc = (c0 + cycle_seconds ()) / 2;
          clock_range (cyc, &ghz_lo, &ghz_hi);
          ipc[i][m] = 8.0 * (double) N_ITER / (best / cyc);
        }
      printf ("%-16s %7.2f %12.2f %12.2f\n", probes[i].name, ipc[i][0], ipc[i][1], ipc[i][2]);
    }
  double mix = -1;
  if (vbmi)
    {
      double best = 1e30, c0 = cycle_seconds ();
      for (int r = 0; r < 3; r++)
        {
          double t = pair_mix ();
          best = t < best ? t : best;
        }
      double cyc = (c0 + cycle_seconds ()) / 2;
      clock_range (cyc, &ghz_lo, &ghz_hi);
      mix = best / cyc / (double) N_ITER;
      printf ("quantize's codes for a pair of blocks (E4M3 rne, %d instructions, without the loop's\n"
              "dependences): %.2f cycles\n", N_MIX, mix);
    }
  printf ("the imul chain's clock: %.2f to %.2f GHz\n", ghz_lo, ghz_hi);
  printf ("key=value\nports_measured=1\nclock_ghz_min=%.3f\nclock_ghz_max=%.3f\n", ghz_lo, ghz_hi);
  if (vbmi)
    printf ("quantize_pair_mix_cycles=%.3f\n", mix);
  for (size_t i = 0; i < np; i++)
    if (!probes[i].vbmi || vbmi)
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
