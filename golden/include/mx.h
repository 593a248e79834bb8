/* mx.h -- libmxgold: a bit-exact, MPFR-backed reference model of the OCP Microscaling (MX) formats.
 *
 * Every operation takes its rounding mode and special-value policy explicitly; there is no global
 * state.  Values travel as raw bit patterns (uint64_t) plus a format descriptor.  Flags are
 * TestFloat-style bits (MX_FLAG_*).  This header depends on no build-time macro.
 * SPDX-License-Identifier: MIT */
#ifndef MX_H
#define MX_H

#include <stddef.h>
#include <stdint.h>
#include <mpfr.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MX_VERSION_STRING "0.1.0"

#include "mx/ids.h"

/*------------------------------------------------------------- descriptors -*/
typedef enum mx_role { MX_ROLE_ELEM, MX_ROLE_SCALE, MX_ROLE_IEEE } mx_role;
typedef enum mx_special {
  MX_SPECIAL_IEEE, /* all-ones exponent: Inf or NaN */
  MX_SPECIAL_FN,   /* finite; all-ones code is NaN */
  MX_SPECIAL_NONE, /* finite only */
  MX_SPECIAL_INT,  /* two's complement integer times 2^-mbits */
  MX_SPECIAL_POW2  /* exponent only, no zero; all-ones is NaN */
} mx_special;

/* A number format.  Built-in ones come from mx_format_get(); custom ExMy/EkM0 ones from
 * mx_format_custom().  Derived fields are filled in by those two functions. */
typedef struct mx_format {
  const char *name, *alias;
  mx_role role;
  unsigned bits, sign, ebits, mbits;
  int bias;
  mx_special special;
  /* derived */
  int emin;            /* unbiased exponent of the smallest normal (INT: 0, the integer bit) */
  int emax;            /* unbiased exponent of the largest normal (the "emax" of OCP 6.3) */
  uint64_t max_mag;    /* magnitude code of the largest finite value */
} mx_format;

const mx_format *mx_format_get (mx_format_id id);
/* NULL if the name (or OCP alias) is unknown. */
const mx_format *mx_format_by_name (const char *name);
/* Fills *f with a custom format; returns 0, or -1 if the parameters make no format. */
int mx_format_custom (mx_format *f, unsigned sign, unsigned ebits, unsigned mbits, int bias,
                      mx_special special);

/*------------------------------------------------------------------ flags -*/
#define MX_FLAG_INEXACT   0x01u /* the result differs from the exact value */
#define MX_FLAG_UNDERFLOW 0x02u /* inexact and tiny (below the smallest normal) before rounding */
#define MX_FLAG_OVERFLOW  0x04u /* the rounded value exceeded max finite: saturated or overflowed */
#define MX_FLAG_INVALID   0x10u /* NaN in or NaN out, or a value with no encoding (E8M0 of <= 0) */
#define MX_FLAG_SCALE_CLAMPED 0x20u /* the shared exponent was clamped to the scale's range */

/*---------------------------------------------------------------- policy -*/
typedef struct mx_policy {
  mx_rounding rounding;        /* element rounding */
  mx_overflow overflow;        /* element overflow */
  mx_scale_rule scale_rule;
  mx_nan_block nan_block;
  mx_inf_block inf_block;
  uint32_t zero_scale;         /* scale code of a block whose amax is 0 */
  mx_subnormals subnormals;    /* input subnormals */
  mx_zero_sign zero_sign;
  mx_int_range int_range;
  mx_scale_overflow scale_overflow;
  mx_nan_elem nan_elem;
  unsigned sr_bits;            /* R for MX_SR: random bits per element, 1..32 */
} mx_policy;

#define MX_SR_BITS_DEFAULT 16u

/* The OCP-strict policy (every field's first value). */
mx_policy mx_policy_default (void);
/* The named profile's policy; returns 0, or -1 if id is out of range. */
int mx_policy_profile (mx_policy *pol, mx_profile_id id);

/*------------------------------------------------------------------ names -*/
const char *mx_rounding_name (mx_rounding r);
const char *mx_scale_rule_name (mx_scale_rule s);
const char *mx_profile_name (mx_profile_id p);
const char *mx_profile_description (mx_profile_id p);
/* Parse a name; return the enum value or -1. */
int mx_rounding_parse (const char *s);
int mx_scale_rule_parse (const char *s);
int mx_profile_parse (const char *s);
/* field is one of "overflow" "nan-block" "inf-block" "subnormals" "zero-sign" "int-range"
 * "scale-overflow" "nan-elem"; returns the value or -1. */
int mx_policy_value_parse (const char *field, const char *s);
const char *mx_policy_value_name (const char *field, int value);
/* The fields above by name: get returns the value (-1 for an unknown field); set returns 0 or -1. */
int mx_policy_get_field (const mx_policy *pol, const char *field);
int mx_policy_set_field (mx_policy *pol, const char *field, int value);
/* The field names, in a fixed order: mx_policy_field_names[i] for i < MX_POLICY_FIELD_COUNT. */
#define MX_POLICY_FIELD_COUNT 8
extern const char *const mx_policy_field_names[MX_POLICY_FIELD_COUNT];

/*------------------------------------------------------------ operations -*/
/* mx_decode -- rop = the exact value of code in format f (rop needs precision >= mbits + 1;
 * 64 bits suffice for every built-in format).  NaN codes give NaN.  Returns MX_FLAG_INVALID
 * for NaN codes, else 0. */
unsigned mx_decode (mpfr_ptr rop, const mx_format *f, uint64_t code);

/* mx_encode -- the code of x in format f, rounded by rnd (rbits: random bits for MX_SR, low
 * pol->sr_bits used) under pol's overflow, zero-sign, int-range and nan-elem fields.
 * *flags gets MX_FLAG_* (may be NULL). */
uint64_t mx_encode (const mx_format *f, mpfr_srcptr x, mx_rounding rnd, uint32_t rbits,
                    const mx_policy *pol, unsigned *flags);

/* mx_cast -- convert bits of format from to format to: decode exactly, then mx_encode. */
uint64_t mx_cast (const mx_format *to, const mx_format *from, uint64_t bits, mx_rounding rnd,
                  uint32_t rbits, const mx_policy *pol, unsigned *flags);

/* mx_scale_exponent -- the unclamped shared exponent that rule picks for a block whose largest
 * finite magnitude is amax > 0, for element format elem.  in is the input format (its exponent
 * range matters to EVEN and RCEIL_FP32; NULL for exact MPFR inputs). */
long mx_scale_exponent (mpfr_srcptr amax, const mx_format *elem, const mx_format *in,
                        mx_scale_rule rule);

/* mx_quantize -- one block of k inputs (bit patterns of format in) to a scale code and k element
 * codes.  rbits: k random words for MX_SR (else may be NULL).  elem_flags: k entries or NULL.
 * Returns the block flags (OR of element flags plus block-level flags). */
unsigned mx_quantize (uint64_t *scale, uint64_t codes[], unsigned elem_flags[],
                      const mx_format *elem, const mx_format *scale_fmt, const mx_format *in,
                      const uint64_t in_bits[], size_t k, const uint32_t rbits[],
                      const mx_policy *pol);

/* mx_quantize_mpfr -- as mx_quantize, from exact MPFR values (no input format). */
unsigned mx_quantize_mpfr (uint64_t *scale, uint64_t codes[], unsigned elem_flags[],
                           const mx_format *elem, const mx_format *scale_fmt,
                           const mpfr_t v[], size_t k, const uint32_t rbits[],
                           const mx_policy *pol);

/* mx_dequantize -- k element codes under one scale to format out (FP32 usually), each X*P_i
 * rounded by rnd where out cannot hold it; overflow follows IEEE 754 (to Inf).  NaN scale gives
 * NaN for every element.  Returns the OR of the output flags. */
unsigned mx_dequantize (uint64_t out_bits[], const mx_format *out, uint64_t scale,
                        const uint64_t codes[], const mx_format *elem, const mx_format *scale_fmt,
                        size_t k, mx_rounding rnd);

/* mx_requantize -- a block of one element format to another, through the exact values. */
unsigned mx_requantize (uint64_t *scale_out, uint64_t codes_out[], const mx_format *elem_out,
                        const mx_format *scale_fmt_out, uint64_t scale_in,
                        const uint64_t codes_in[], const mx_format *elem_in,
                        const mx_format *scale_fmt_in, size_t k, const uint32_t rbits[],
                        const mx_policy *pol);

/*------------------------------------------------------------ dot, gemm -*/
typedef enum { MX_TC_SCALE_PRODUCT, MX_TC_SCALE_GROUP } mx_tc_scale_point;

/* A tensor-core accumulation model (docs/semantics.md "Accumulation models"). */
typedef struct mx_tc_model {
  unsigned group;          /* products per fused group (>= 1) */
  int frac_bits;           /* fraction bits kept below the largest term after alignment */
  mx_rounding align;       /* rounding of each aligned term: MX_RTZ, MX_RDN or MX_RNE */
  mx_rounding out;         /* rounding of each group result to FP32 */
  int cin_in_group;        /* 1: the accumulator takes part in each group's alignment */
  mx_tc_scale_point scale_point;
  int denorm_products;     /* 1: a product's alignment exponent is e_a + e_b (significand in
                              [1,4) kept unnormalized); 0: floor(log2 |product|) */
} mx_tc_model;

typedef struct mx_dot_policy {
  mx_accum accum;
  mx_rounding rounding;    /* output rounding (exact: the one rounding; block-fp32: each block's) */
  mx_tc_model tc;          /* used by MX_ACCUM_TENSOR_CORE */
} mx_dot_policy;

/* Exact accumulation, RNE, tc = the h100-fp8 preset (unused unless accum says so). */
mx_dot_policy mx_dot_policy_default (void);
int mx_tc_model_preset (mx_tc_model *m, mx_tc_preset id);
const char *mx_accum_name (mx_accum a);
int mx_accum_parse (const char *s);
const char *mx_tc_preset_name (mx_tc_preset p);
const char *mx_tc_preset_source (mx_tc_preset p);
int mx_tc_preset_parse (const char *s);

/* mx_dot -- OCP MX 6.1/6.2 DotGeneral of nblocks block pairs (k elements each):
 *   C = C_in + sum_j X_A[j] X_B[j] sum_i P_A[j][i] P_B[j][i]
 * A and B may have different element formats.  cin: bit pattern of C_in in FP32.  The result
 * is written to *out in format out_fmt (FP32, BF16 or FP16) under dp.  Returns its flags. */
unsigned mx_dot (uint64_t *out, const mx_format *out_fmt,
                 const uint64_t scale_a[], const uint64_t codes_a[], const mx_format *elem_a,
                 const uint64_t scale_b[], const uint64_t codes_b[], const mx_format *elem_b,
                 const mx_format *scale_fmt, size_t k, size_t nblocks, uint64_t cin,
                 const mx_dot_policy *dp);

/* mx_gemm -- C[i][j] = C_in[i][j] + sum_k A[i][k] B[k][j], MX blocks along K (kdim = nb * k).
 * A: m rows, a_codes row-major m x kdim, a_scales m x nb.  B is given transposed (column j of B
 * is row j): b_codes n x kdim, b_scales n x nb.  c_in: m x n FP32 patterns, or NULL for zeros.
 * c_out: m x n in out_fmt.  Each C element is mx_dot of its row and column.  Returns the OR of
 * the flags. */
unsigned mx_gemm (uint64_t c_out[], const mx_format *out_fmt, size_t m, size_t n, size_t kdim,
                  const uint64_t a_scales[], const uint64_t a_codes[], const mx_format *elem_a,
                  const uint64_t b_scales[], const uint64_t b_codes[], const mx_format *elem_b,
                  const mx_format *scale_fmt, size_t k, const uint64_t c_in[],
                  const mx_dot_policy *dp);

#ifdef __cplusplus
}
#endif
#endif
