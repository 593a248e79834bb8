/* tests.h -- shared helpers of mxgold's test programs (MPFR style: tests/tests.c).
 * SPDX-License-Identifier: MIT */
#ifndef MX_TESTS_H
#define MX_TESTS_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "mx.h"
#include "mxvec.h"
#include "slow.h"

#define SKIP 77

/* The project's one PRNG (SplitMix64, mxvec.h), so a seed gives the same cases on every libc. */
typedef mxv_rng rng;
static inline uint64_t rng_next (rng *r) { return mxv_rng_next (r); }
static inline uint64_t rng_below (rng *r, uint64_t n) { return rng_next (r) % n; }

/* A number from a test's command line or environment, through the one parser: decimal, or hex
 * after 0x; anything else stops the test (exit 2). */
static inline unsigned long long
test_number (const char *s, const char *what)
{
  unsigned long long v;
  int hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
  if (mx_parse_uint (&v, hex ? s + 2 : s, hex ? 16 : 10, 0, ~0ull) != MX_OK)
    {
      fprintf (stderr, "%s '%s' is not a number\n", what, s);
      exit (2);
    }
  return v;
}

/* argv[i] as a count, or def when absent. */
static inline long
test_count (int argc, char **argv, int i, long def)
{
  return argc > i ? (long) test_number (argv[i], "count") : def;
}

/* Seed: MX_TEST_SEED from the environment, else the fixed default; printed on failure. */
static inline uint64_t
test_seed (void)
{
  const char *s = getenv ("MX_TEST_SEED");
  return s ? test_number (s, "MX_TEST_SEED") : 0x2143FEDCull;
}

/* The formats of one role, from the table (formats.def): their ids, and how many. */
static inline int
formats_of_role (mx_role role, mx_format_id *ids)
{
  int n = 0;
  for (int i = 0; i < MX_FORMAT_COUNT; i++)
    if (mx_format_get ((mx_format_id) i)->role == role)
      ids[n++] = (mx_format_id) i;
  return n;
}

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
