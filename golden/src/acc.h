/* acc.h -- mx__acc, an exact (Kulisch-style) accumulator for sums of products: a GMP integer times 2^lsb, plus the
 * IEEE 754 special-value state (NaN, +-Inf, the sign of an exact zero).  Internal.
 * SPDX-License-Identifier: MIT */
#ifndef MX_ACC_H
#define MX_ACC_H
#include <gmp.h>
#include "internal.h"

typedef struct
{
  mpz_t sum;
  long lsb;        /* weight of bit 0 of sum; LONG_MAX while nothing nonzero was added */
  int nan;         /* a NaN term, or Inf * 0 */
  int pinf, ninf;  /* an infinite term of each sign */
  int all_negzero; /* every term so far was -0 } these two decide the sign of an exact zero */
  int all_poszero; /* every term so far was +0 } */
  int terms;
  mpz_t t, zx;     /* scratch, kept between terms: a dot's products allocate nothing */
} mx__acc;

void mx__acc_init (mx__acc *a);
void mx__acc_clear (mx__acc *a);
void mx__acc_reset (mx__acc *a);
/* Add x (exact, any precision). */
void mx__acc_add (mx__acc *a, mpfr_srcptr x);
/* Add x * y exactly (Inf * 0 is NaN): two codes decoded by mx__decode_exact. */
void mx__acc_add_exact_product (mx__acc *a, const mx__exact *x, const mx__exact *y);
/* Add v * 2^e exactly: v the 128-bit sum of finite nonzero products whose terms and classes
 * the caller counted (a->terms, a->all_negzero = a->all_poszero = 0). */
void mx__acc_add_i128 (mx__acc *a, __int128 v, long e);
/* Add another accumulator. */
void mx__acc_add_acc (mx__acc *a, const mx__acc *b);
/* Multiply the finite part by 2^e (exact). */
void mx__acc_scale (mx__acc *a, long e);
/* The exact value into rop (rop's precision is raised as needed): NaN, +-Inf, the exact sum, or
 * a zero signed as IEEE 754 6.3 says: every term -0 gives -0, every term +0 gives +0, otherwise
 * (mixed zeros, or nonzero terms that cancel) +0, or -0 under rdn. */
void mx__acc_value (mpfr_t rop, const mx__acc *a, mx_rounding rnd);
/* Round the exact value into format f (IEEE 754 overflow); returns the code, flags in *fl. */
uint64_t mx__acc_round (const mx__acc *a, const mx_format *f, unsigned *fl, mx_rounding rnd);
/* floor(log2 |finite part|), or LONG_MIN if it is zero. */
long mx__acc_ilogb (const mx__acc *a);
#endif
