/* tests.h -- shared helpers of mxgold's test programs (MPFR style: tests/tests.c).
 * SPDX-License-Identifier: MIT */
#ifndef MX_TESTS_H
#define MX_TESTS_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "mx.h"
#include "slow.h"

#define SKIP 77

/* SplitMix64: our own PRNG, so a seed gives the same cases on every libc. */
typedef struct { uint64_t s; } rng;
static inline uint64_t
rng_next (rng *r)
{
  uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
static inline uint64_t rng_below (rng *r, uint64_t n) { return rng_next (r) % n; }

/* Seed: MX_TEST_SEED from the environment, else the fixed default; printed on failure. */
static inline uint64_t
test_seed (void)
{
  const char *s = getenv ("MX_TEST_SEED");
  return s ? strtoull (s, NULL, 0) : 0x2143FEDCull;
}

static const mx_format_id elem_ids[] = { MX_E4M3, MX_E5M2, MX_E2M3, MX_E3M2, MX_E2M1, MX_INT8 };
#define N_ELEM 6

/* Count failures; print the first few. */
static long failures;
#define CHECK(cond, ...)                                                   \
  do                                                                       \
    {                                                                      \
      if (!(cond))                                                         \
        {                                                                  \
          if (failures++ < 20)                                             \
            {                                                              \
              fprintf (stderr, "%s:%d: FAIL: ", __FILE__, __LINE__);       \
              fprintf (stderr, __VA_ARGS__);                               \
              fputc ('\n', stderr);                                        \
            }                                                              \
        }                                                                  \
    }                                                                      \
  while (0)

static inline int
finish (const char *name, long checks)
{
  if (checks == 0)
    {
      fprintf (stderr, "%s: ran 0 checks\n", name);
      return 1;
    }
  printf ("%s: %ld checks, %ld failed (seed 0x%llX)\n", name, checks, failures,
          (unsigned long long) test_seed ());
  return failures ? 1 : 0;
}
#endif
