/* internal.h -- helpers shared by libmxgold's operations; not installed.
 * SPDX-License-Identifier: MIT */
#ifndef MX_INTERNAL_H
#define MX_INTERNAL_H

#include "mx.h"

/* A stack MPFR variable of up to MX__TMP_BITS bits: no allocation per element (custom interface,
 * MPFR manual "Custom Interface").  Use in place only: the struct holds a pointer to itself. */
#define MX__TMP_BITS 192
typedef struct {
  mpfr_t x;
  mp_limb_t d[(MX__TMP_BITS + GMP_NUMB_BITS - 1) / GMP_NUMB_BITS];
} mx__tmp;

static inline mpfr_ptr
mx__tmp_init (mx__tmp *t, mpfr_prec_t prec)
{
  mpfr_custom_init (t->d, prec);
  mpfr_custom_init_set (t->x, MPFR_ZERO_KIND, 0, prec, t->d);
  return t->x;
}

static inline uint64_t
mx__mask (unsigned bits)
{
  return bits >= 64 ? ~(uint64_t) 0 : ((uint64_t) 1 << bits) - 1;
}

/* Bits that hold the magnitude (everything but the sign). */
static inline unsigned
mx__mag_bits (const mx_format *f)
{
  return f->bits - f->sign;
}

/* The NaN code of f with the given sign, per pol->nan_elem where f has no NaN. */
uint64_t mx__nan_code (const mx_format *f, int neg, const mx_policy *pol);

/* Flush a subnormal value of format in to a signed zero; returns 1 if it did. */
int mx__flush_subnormal (mpfr_ptr v, const mx_format *in);

/* The quantize core shared by mx_quantize, mx_quantize_mpfr and mx_requantize.
 * in: the input format, or NULL for exact values. */
unsigned mx__quantize_values (uint64_t *scale, uint64_t codes[], unsigned elem_flags[],
                              const mx_format *elem, const mx_format *scale_fmt,
                              const mx_format *in, const mpfr_t v[], size_t k,
                              const uint32_t rbits[], const mx_policy *pol);

/* Exponent of the value of a POW2 scale code (no NaN). */
static inline long
mx__pow2_exponent (const mx_format *s, uint64_t code)
{
  return (long) code - s->bias;
}

#endif
