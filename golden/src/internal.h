/* internal.h -- helpers shared by libmxgold's operations; not installed.
 * Public functions are thin wrappers that bracket an internal mx__ function with mx__enter and
 * mx__leave; internal functions call each other directly.
 * SPDX-License-Identifier: MIT */
#ifndef MX_INTERNAL_H
#define MX_INTERNAL_H

#include <limits.h>
#include "mx.h"

/* A stack MPFR variable of up to MX__TMP_BITS bits: no allocation per element (custom interface,
 * MPFR manual "Custom Interface").  Use in place only: the struct holds a pointer to itself. */
#define MX__TMP_BITS 192
#define MX__LIMBS(bits) (((bits) + GMP_NUMB_BITS - 1) / GMP_NUMB_BITS)
typedef struct {
  mpfr_t x;
  mp_limb_t d[MX__LIMBS (MX__TMP_BITS)];
} mx__tmp;

static inline mpfr_ptr
mx__tmp_init (mx__tmp *t, mpfr_prec_t prec)
{
  mpfr_custom_init (t->d, prec);
  mpfr_custom_init_set (t->x, MPFR_ZERO_KIND, 0, prec, t->d);
  return t->x;
}

/* The caller's MPFR exponent range and flags, saved by mx__enter and given back by mx__leave:
 * the library leaves no trace in MPFR's state.  Every exponent libmxgold forms lies within
 * +-2^26 (formats' biases are at most 2^20: mx_format_custom), so the caller's range is widened
 * only when it is narrower than that -- MPFR's default range (+-2^30) is used as it is. */
#define MX__EXP_NEED ((mpfr_exp_t) 1 << 26)
typedef struct {
  mpfr_exp_t emin, emax;
  mpfr_flags_t flags;
  int widened;
} mx__state;

static inline mx__state
mx__enter (void)
{
  mx__state s = { mpfr_get_emin (), mpfr_get_emax (), mpfr_flags_save (), 0 };
  if (s.emin > -MX__EXP_NEED || s.emax < MX__EXP_NEED)
    {
      mpfr_set_emin (mpfr_get_emin_min ());
      mpfr_set_emax (mpfr_get_emax_max ());
      s.widened = 1;
    }
  return s;
}

static inline void
mx__leave (mx__state s)
{
  if (s.widened)
    {
      mpfr_set_emin (s.emin);
      mpfr_set_emax (s.emax);
    }
  mpfr_flags_restore (s.flags, MPFR_FLAGS_ALL);
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

/* Exponent of the value of a POW2 scale code (no NaN). */
static inline long
mx__pow2_exponent (const mx_format *s, uint64_t code)
{
  return (long) code - s->bias;
}

/* The built-in formats (formats.def), by id: an address constant for static tables. */
extern const mx_format mx__format_table[MX_FORMAT_COUNT];

/* A code's exact value in integers: NaN, +-Inf, or (-1)^neg m 2^e (m = 0 for a zero, signed by
 * neg).  mx__decode is this into MPFR; the dot products' inner loops take it as it is. */
typedef enum { MX__ZERO, MX__FINITE, MX__INF, MX__NAN } mx__class;
typedef struct
{
  mx__class cls;
  int neg;
  uint64_t m;
  long e;
} mx__exact;
/* Returns MX_FLAG_INVALID for a NaN code, as mx__decode. */
unsigned mx__decode_exact (mx__exact *x, const mx_format *f, uint64_t code);
/* m (below 2^53: at most 52 stored fraction bits) goes to MPFR and GMP as an unsigned long */
_Static_assert (sizeof (unsigned long) * CHAR_BIT >= 64, "libmxgold needs a 64-bit unsigned long (LP64)");

/* The internal operations (the public ones without the MPFR state handling). */
unsigned mx__decode (mpfr_ptr rop, const mx_format *f, uint64_t code);
int mx__encode (uint64_t *code, unsigned *flags, const mx_format *f, mpfr_srcptr x,
                uint32_t rbits, const mx_policy *pol, mx_rounding rnd);
long mx__scale_exponent (mpfr_srcptr amax, const mx_format *elem, const mx_format *in,
                         mx_scale_rule rule);

/* mx_policy_ieee(), for the library's own use. */
extern const mx_policy mx__ieee;

/* x rounded to FP32 by RNE, as its bits, under IEEE 754 overflow (to Inf). */
uint64_t mx__fp32_bits (mpfr_srcptr x);

/* FP32 arithmetic (fp32.c): r = fl32(r), or fl32(a op b), RNE with gradual underflow and IEEE
 * overflow; r needs precision >= 64 and ends holding the FP32 value (a NaN result: the positive
 * quiet NaN).  Return the FP32 bits; *flags (may be NULL) gets the rounding's flags. */
uint64_t mx__f32_round (mpfr_ptr r, unsigned *flags);
uint64_t mx__f32_mul (mpfr_ptr r, mpfr_srcptr a, mpfr_srcptr b, unsigned *flags);
uint64_t mx__f32_div (mpfr_ptr r, mpfr_srcptr a, mpfr_srcptr b, unsigned *flags);
uint64_t mx__f32_add (mpfr_ptr r, mpfr_srcptr a, mpfr_srcptr b, unsigned *flags);

/* The NaN code of f with the given sign, per pol->nan_elem where f has no NaN. */
uint64_t mx__nan_code (const mx_format *f, int neg, const mx_policy *pol);

/* Flush a subnormal value of format in to a signed zero; returns 1 if it did. */
/* The subnormals policy on one decoded input: 1 if a subnormal was flushed (underflow, inexact);
 * flush-pos also makes -0 +0, exactly (0). */
int mx__flush_subnormal (mpfr_ptr v, const mx_format *in, mx_subnormals how);
/* wide-input fp32: v (from an input of format in, NULL for an exact value) rounded to FP32 when
 * in is wider; returns the format the value now has (FP32, or in) and sets *inexact. */
const mx_format *mx__wide_input (mpfr_ptr v, const mx_format *in, const mx_policy *pol,
                                 int *inexact);

/* The quantize core shared by mx_quantize, mx_quantize_mpfr and mx_requantize (arguments
 * checked by the caller).  in: the input format, or NULL for exact values. */
unsigned mx__quantize_values (uint64_t *scale, uint64_t codes[], unsigned elem_flags[],
                              const mx_format *elem, const mx_format *scale_fmt,
                              const mx_format *in, const mpfr_t v[], size_t k,
                              const uint32_t rbits[], const mx_policy *pol, mx_rounding rnd);

/* Common argument checks of the block operations: MX_OK or MX_EINVAL. */
int mx__check_block (const mx_format *elem, const mx_format *scale_fmt, size_t k,
                     const mx_policy *pol);

/* mx_dot's argument check and its body (mx_gemm calls both). */
int mx__check_dot (const mx_format *of, const mx_format *ea, const mx_format *eb,
                   const mx_format *sf, size_t k, size_t nb, const mx_dot_policy *dp,
                   mx_rounding rnd);
int mx__dot (uint64_t *out, unsigned *flags, const mx_format *of, const uint64_t scale_a[],
             const uint64_t codes_a[], const mx_format *ea, const uint64_t scale_b[],
             const uint64_t codes_b[], const mx_format *eb, const mx_format *sf, size_t k,
             size_t nb, uint64_t cin, const mx_dot_policy *dp, mx_rounding rnd);

/* a * b into *r unless it overflows size_t (then 1). */
static inline int
mx__mul_overflow (size_t a, size_t b, size_t *r)
{
  return __builtin_mul_overflow (a, b, r);
}

#endif
