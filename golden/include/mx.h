/* mx.h -- libmxgold: a bit-exact, MPFR-backed reference model of the OCP Microscaling (MX) formats.
 *
 * Conventions (those of MPFR):
 *   - outputs first, then inputs, then the policy, and the rounding mode always last and explicit;
 *   - values travel as raw bit patterns (uint64_t) plus a format descriptor;
 *   - IEEE-style flags (MX_FLAG_*) go to an unsigned *flags that may be NULL; operations that can
 *     fail return an mx_status (MX_OK, MX_EINVAL, MX_ENOMEM), never a flag;
 *   - mx_encode and mx_cast return the ternary value: the sign of (result - exact value);
 *   - no global state.  Each call saves MPFR's exponent range and flags, works in the widest range
 *     and restores both, so callers need no setup.  MPFR keeps them per thread when it is built
 *     thread-safe (mpfr_buildopt_tls_p), as Debian's is; libmxgold is then thread-safe too.
 * This header depends on no build-time macro.  Semantics: docs/semantics.md.
 * SPDX-License-Identifier: MIT */
#ifndef MX_H
#define MX_H

#include <stddef.h>
#include <stdint.h>
#include <mpfr.h>
#include "mx/version.h"
#include "mx/ids.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The library's version at run time (MX_VERSION_STRING is the headers'). */
const char *mx_version (void);
/* A short English description of an mx_status. */
const char *mx_strerror (int status);

/*------------------------------------------------------------- descriptors -*/
/* A number format.  Built-in ones come from mx_format_get(); custom ExMy/EkM0/INT ones from
 * mx_format_custom().  Derived fields are filled in by those two functions. */
typedef struct mx_format {
  const char *name, *alias;
  mx_role role;
  unsigned bits, sign, ebits, mbits;
  int bias;
  mx_special special;
  mx_format_id id;     /* MX_FORMAT_COUNT for a custom format */
  /* derived (MX_FMT_* in mx/ids.h) */
  int emin;            /* unbiased exponent of the smallest normal (INT: 0, the integer bit) */
  int emax;            /* unbiased exponent of the largest normal (the "emax" of OCP 6.3) */
  uint64_t max_mag;    /* magnitude code of the largest finite value */
} mx_format;

/* NULL if id is out of range. */
const mx_format *mx_format_get (mx_format_id id);
/* NULL if the name (or OCP alias) is unknown.  Names the EkMm scale formats too ("e5m0"). */
const mx_format *mx_format_by_name (const char *name);
/* The unsigned scale format EkMm (ebits 2..15, mbits 0..7, bias 2^(ebits-1)-1), or NULL.
 * mbits 0: a power of two as E8M0 (all-ones NaN, no zero); mbits > 0: a value as UE4M3 (only the
 * all-ones code is NaN; zero and subnormals), a linear scale (scale-round).  E8M0 and UE4M3
 * themselves come back as the built-in rows. */
const mx_format *mx_format_scale (unsigned ebits, unsigned mbits);
/* Fills *f with a custom format; MX_OK, or MX_EINVAL if the parameters make no format. */
int mx_format_custom (mx_format *f, unsigned sign, unsigned ebits, unsigned mbits, int bias,
                      mx_special special);

/*------------------------------------------------------------------ flags -*/
#define MX_FLAG_INEXACT   0x01u /* the result differs from the exact value */
#define MX_FLAG_UNDERFLOW 0x02u /* inexact and tiny (below the smallest normal) before rounding */
#define MX_FLAG_OVERFLOW  0x04u /* the rounded value exceeded max finite: saturated or overflowed */
#define MX_FLAG_INVALID   0x10u /* NaN in or NaN out, or a value with no encoding (E8M0 of <= 0) */
#define MX_FLAG_SCALE_CLAMPED 0x20u /* the shared exponent was clamped to the scale's range */

/*---------------------------------------------------------------- policy -*/
/* Every choice the spec leaves open, one member per row of mx/policies.def (the row's doc line
 * says what it decides; docs/policies.md lists the values).  A zeroed policy is OCP-strict except
 * for sr_bits: start from mx_policy_ocp(). */
typedef struct mx_policy {
#define MX_POLICY_ENUM(ID, field, name, doc, values) mx_##field field;
#define MX_POLICY_NUM(ID, field, name, base, lo, hi, ocp, doc) unsigned field;
#include "mx/policies.def"
#undef MX_POLICY_ENUM
#undef MX_POLICY_NUM
} mx_policy;

/* The OCP-strict policy: every field's default. */
mx_policy mx_policy_ocp (void);
/* The policy of a result in an IEEE 754 interchange format (dequantize, dot, casts to FP32):
 * OCP-strict but overflowing to Inf, as IEEE 754 does. */
mx_policy mx_policy_ieee (void);

/* A policy field as data: its name (the CLI option and .mxv header key), what it decides, and its
 * values: names (nvalues > 0, value v named values[v]) or a number in lo..hi. */
typedef struct mx_policy_field_desc {
  const char *name, *doc;
  int nvalues;
  const char *const *values, *const *value_docs;
  long lo, hi, ocp;  /* range and OCP-strict default */
  int base;          /* a number is written in base 10 or 16 */
} mx_policy_field_desc;

/* NULL if f is out of range. */
const mx_policy_field_desc *mx_policy_field_get (mx_policy_field f);
/* The field of that name ("scale-rule"), or -1. */
int mx_policy_field_parse (const char *name);
long mx_policy_get (const mx_policy *pol, mx_policy_field f);
/* MX_OK, or MX_EINVAL if f or v is out of range (pol unchanged). */
int mx_policy_set (mx_policy *pol, mx_policy_field f, long v);
/* A value from text: a value name, or a number in range in the field's base.
 * MX_OK, MX_ESYNTAX or MX_ERANGE. */
int mx_policy_value_parse (long *v, mx_policy_field f, const char *s);
/* A value as text ("sat", "00", "16") into buf[n]; MX_OK or MX_EINVAL. */
int mx_policy_value_format (char *buf, size_t n, mx_policy_field f, long v);

/*-------------------------------------------------------------- profiles -*/
/* The named profile's policy and element rounding (rnd may be NULL); MX_OK or MX_EINVAL. */
int mx_profile_get (mx_policy *pol, mx_rounding *rnd, mx_profile_id id);
const char *mx_profile_name (mx_profile_id p);
const char *mx_profile_doc (mx_profile_id p);
/* The library version(s) and code path a profile reproduces, and how it is known: 1 a real run
 * of that code matches it bit for bit (docs/conformance.md), 0 derived from the source, not run,
 * 2 the specification itself; -1 for no such profile. */
const char *mx_profile_source (mx_profile_id p);
int mx_profile_proven (mx_profile_id p);

/*------------------------------------------------------------------ names -*/
/* Name and doc line of each table entry (NULL out of range); parse: the entry, or -1. */
const char *mx_rounding_name (mx_rounding r);
const char *mx_rounding_doc (mx_rounding r);
const char *mx_accum_name (mx_accum a);
const char *mx_accum_doc (mx_accum a);
const char *mx_tc_preset_name (mx_tc_preset p);
const char *mx_tc_preset_doc (mx_tc_preset p);
const char *mx_packing_name (mx_packing p);
const char *mx_packing_doc (mx_packing p);
int mx_rounding_parse (const char *s);
int mx_accum_parse (const char *s);
int mx_tc_preset_parse (const char *s);
int mx_packing_parse (const char *s);
int mx_profile_parse (const char *s);
/* The lookup behind every *_parse: the index of s in names[0..n-1], or -1. */
int mx_name_lookup (const char *const names[], int n, const char *s);

/*------------------------------------------------------------------- text -*/
/* The one parser of numbers in text, behind every option and .mxv header field: s must be all
 * digits of base 10 or 16 (no sign, no space, no prefix), at most 64 bits, and in lo..hi.
 * MX_OK, MX_ESYNTAX or MX_ERANGE; *v is written only on MX_OK. */
int mx_parse_uint (unsigned long long *v, const char *s, int base, unsigned long long lo,
                   unsigned long long hi);
/* A bit pattern of a bits-wide format: an optional 0x, then exactly mx_hex_digits(bits) hex
 * digits, value < 2^bits.  MX_OK, MX_ESYNTAX or MX_ERANGE. */
int mx_parse_hex (uint64_t *v, const char *s, unsigned bits);
/* Hex digits of a bits-wide pattern in text: ceil(bits/4), at least 2. */
int mx_hex_digits (unsigned bits);

/*------------------------------------------------------------ operations -*/
/* mx_decode -- rop = the exact value of code in format f (rop needs precision >= mbits + 1;
 * 64 bits suffice for every built-in format).  NaN codes give NaN and return MX_FLAG_INVALID,
 * other codes 0.  Bits above f->bits are ignored. */
unsigned mx_decode (mpfr_ptr rop, const mx_format *f, uint64_t code);

/* mx_encode -- *code = x in format f, rounded by rnd (rbits: the random word of MX_SR, its low
 * pol->sr_bits used) under pol's overflow, zero-sign, int-range and nan-elem fields.  An infinite
 * x into an IEEE-role format is exact.  Returns the ternary value. */
int mx_encode (uint64_t *code, unsigned *flags, const mx_format *f, mpfr_srcptr x, uint32_t rbits,
               const mx_policy *pol, mx_rounding rnd);

/* mx_cast -- *code = bits of format from converted to format to: exact decode, then mx_encode
 * (subnormal inputs flushed first under pol->subnormals).  Returns the ternary value. */
int mx_cast (uint64_t *code, unsigned *flags, const mx_format *to, const mx_format *from,
             uint64_t bits, uint32_t rbits, const mx_policy *pol, mx_rounding rnd);

/* mx_scale_exponent -- the unclamped shared exponent that rule picks for a block whose largest
 * finite magnitude is amax (finite, nonzero), for element format elem.  in is the input format
 * (its exponent range matters to EVEN; NULL for exact MPFR inputs).  Rules that work in FP32 give
 * LONG_MIN/2 where fl32(amax) or their product is 0 and LONG_MAX/2 where it is Inf.  min-mse and
 * min-maxerr need the whole block: this gives floor, where their search starts (mx_quantize). */
long mx_scale_exponent (mpfr_srcptr amax, const mx_format *elem, const mx_format *in,
                        mx_scale_rule rule);

/* mx_quantize -- one block of k inputs (bit patterns of format in) to a scale code and k element
 * codes.  rbits: k random words for MX_SR (else NULL).  *flags: the block's flags (OR of the
 * element flags plus block-level ones); elem_flags: k entries or NULL.
 * MX_EINVAL: k = 0, a format of the wrong role, MX_SR without rbits, or a zero-scale the scale
 * format cannot hold.  MX_ENOMEM. */
int mx_quantize (uint64_t *scale, uint64_t codes[], unsigned *flags, unsigned elem_flags[],
                 const mx_format *elem, const mx_format *scale_fmt, const mx_format *in,
                 const uint64_t in_bits[], size_t k, const uint32_t rbits[],
                 const mx_policy *pol, mx_rounding rnd);

/* mx_quantize_mpfr -- as mx_quantize, from exact MPFR values (no input format). */
int mx_quantize_mpfr (uint64_t *scale, uint64_t codes[], unsigned *flags, unsigned elem_flags[],
                      const mx_format *elem, const mx_format *scale_fmt, const mpfr_t v[],
                      size_t k, const uint32_t rbits[], const mx_policy *pol, mx_rounding rnd);

/* mx_dequantize -- k element codes under one scale into format out (FP32 usually): X * P_i,
 * rounded by rnd only where out cannot hold it; overflow follows IEEE 754.  A NaN scale gives
 * NaN for every element.  *flags: the OR of the output flags.  MX_EINVAL: rnd is MX_SR. */
int mx_dequantize (uint64_t out_bits[], unsigned *flags, const mx_format *out, uint64_t scale,
                   const uint64_t codes[], const mx_format *elem, const mx_format *scale_fmt,
                   size_t k, mx_rounding rnd);

/* mx_requantize -- a block of one element format to another, through the exact values. */
int mx_requantize (uint64_t *scale_out, uint64_t codes_out[], unsigned *flags,
                   const mx_format *elem_out, const mx_format *scale_fmt_out, uint64_t scale_in,
                   const uint64_t codes_in[], const mx_format *elem_in,
                   const mx_format *scale_fmt_in, size_t k, const uint32_t rbits[],
                   const mx_policy *pol, mx_rounding rnd);

/*------------------------------------------------------------------ NVFP4 -*/
/* NVFP4 two-level scaling as NVIDIA TransformerEngine computes it (docs/semantics.md section 9):
 * E2M1 element codes, one UE4M3 decode scale per 16 elements of a row (or per 16x16 tile), and
 * an FP32 tensor amax that gives the encode scale S_enc.  Every step is an FP32 operation
 * (RNE, gradual underflow, IEEE overflow) modelled exactly; FP32 values travel as bit patterns.
 * Tensors are rows x cols, row-major; cols must be a multiple of MX_NVFP4_BLOCK. */
#define MX_NVFP4_BLOCK 16

/* mx_nvfp4_amax -- *amax = the FP32 bits of max |x| over n inputs of format in (FP32, BF16 or
 * FP16), NaNs ignored as fmaxf ignores them; +0 if there is no other value.  MX_EINVAL: bad
 * format. */
int mx_nvfp4_amax (uint64_t *amax, const mx_format *in, const uint64_t in_bits[], size_t n);

/* mx_nvfp4_global_scale -- *s_enc = the FP32 bits of S_enc = fminf(fl32(448 * 6 / amax),
 * FLT_MAX), or 1 where amax is 0 or that quotient is 0 (amax Inf); a NaN amax gives FLT_MAX.
 * MX_EINVAL: amax has its sign bit set. */
int mx_nvfp4_global_scale (uint64_t *s_enc, uint64_t amax);

/* mx_quantize_nvfp4 -- a rows x cols tensor (format in: FP32, BF16 or FP16) to E2M1 codes
 * (rows x cols) and UE4M3 scales (rows x cols/16: the scale of row r, block j at r*cols/16 + j;
 * with tile_2d every row of a 16x16 tile holds the tile's scale, and a last tile may have fewer
 * than 16 rows).  amax: FP32 bits of the tensor amax (mx_nvfp4_amax of the same tensor, as TE
 * computes it, or a calibrated one).  Per block, with S_enc from mx_nvfp4_global_scale:
 *   S_dec_b = fl32(block_amax * fl32(S_enc * fl32(1/6)))    block_amax: max |x|, NaNs ignored
 *   scale   = UE4M3(S_dec_b), RNE, saturating (Inf and beyond 448 give 448)
 *   rcp     = fminf(fl32(1 / fl32(scale * fl32(fl64(1 / S_enc)))), FLT_MAX)   (1/0 = Inf)
 *   code_i  = E2M1(fl32(x_i * rcp)): MX_RNE, or MX_SR with the low 8 bits of rbits[i] (one word
 *             per element, row-major); saturating, NaN gives +6 (0x7).
 * *flags: MX_FLAG_INVALID (a NaN input), MX_FLAG_OVERFLOW (an element or a scale saturated),
 * MX_FLAG_INEXACT (an element or a scale conversion was inexact).
 * MX_EINVAL: bad format, rows or cols 0, cols not a multiple of 16, size overflow, amax with the
 * sign bit set, rnd not MX_RNE or MX_SR, MX_SR without rbits. */
int mx_quantize_nvfp4 (uint64_t scales[], uint64_t codes[], unsigned *flags, const mx_format *in,
                       const uint64_t in_bits[], size_t rows, size_t cols, uint64_t amax,
                       int tile_2d, const uint32_t rbits[], mx_rounding rnd);

/* mx_dequantize_nvfp4 -- E2M1 codes and UE4M3 scales (layout as mx_quantize_nvfp4) back to
 * format out (FP32, BF16 or FP16), as TE's dequantize kernel does it, with the tensor amax:
 *   f     = fl32(fl32(scale * amax) * fl32(1 / 2688))
 *   out_i = out(fl32(x_i * f))      rounded by rnd, which must be MX_RNE; IEEE overflow
 * *flags: the OR of the flags of the last two roundings.  MX_EINVAL: bad format, sizes, rnd. */
int mx_dequantize_nvfp4 (uint64_t out_bits[], unsigned *flags, const mx_format *out,
                         const uint64_t scales[], const uint64_t codes[], size_t rows,
                         size_t cols, uint64_t amax, mx_rounding rnd);
/*----------------------------------------------- shared-microexponent formats -*/
/* MX9, MX6, MX4 (mx/mxs.def; docs/semantics.md section 5b): a block of k1 elements under one
 * E8M0 exponent E, cut into sub-blocks of k2 that each carry a d2-bit shift s (0 or 1 for the
 * built-in rows).  Element i of sub-block j is (-1)^sign M 2^(1-m) 2^(E - s_j), M <= 2^m - 1.
 * Its code is sign << m | M: a code of the element format elem, E1M(m-1) with bias 1 and no
 * Inf or NaN, whose value is exactly (-1)^sign M 2^(1-m), so every mx_ operation on element
 * codes (mx_decode, mx_cast, ...) applies to it. */
typedef struct mx_mxs_desc {
  const char *name;        /* "mx9" */
  const char *aie;         /* the AIE-ML v2 vector type, "bfp16" */
  const char *doc;
  unsigned k1, k2, d2, mbits;
  const mx_format *elem;   /* E1M(m-1), bias 1, no specials; not in formats.def */
  const mx_format *scale;  /* E8M0 */
} mx_mxs_desc;

/* NULL if f is out of range. */
const mx_mxs_desc *mx_mxs_get (mx_mxs_format f);
/* The format of that name ("mx9"), or -1. */
int mx_mxs_parse (const char *s);

/* mx_quantize_mxs -- one block of k = k1 inputs (bit patterns of the IEEE format in) to an E8M0
 * scale code, k/k2 sub-block shifts and k element codes.  *flags: the block's flags (may be
 * NULL).  Policy fields that apply: nan-block, inf-block (nan, sat or zero), subnormals,
 * zero-sign, nan-elem, scale-overflow, wide-input, scale-min, zero-scale.  MX_EINVAL: fmt out of
 * range, in not an IEEE format, k != k1, rnd MX_SR, a policy field out of range, or one that has
 * no MXS meaning set away from its default (scale-rule other than floor, scale-bump,
 * min-scale-elem, scale-div, inf-block maxscale, pow128 or pass). */
int mx_quantize_mxs (uint64_t *scale, uint8_t shifts[], uint64_t codes[], unsigned *flags,
                     mx_mxs_format fmt, const mx_format *in, const uint64_t in_bits[], size_t k,
                     const mx_policy *pol, mx_rounding rnd);

/* mx_dequantize_mxs -- a block back to values in out (FP32 usually): each element's exact value
 * rounded by rnd only where out cannot hold it, overflow as IEEE 754.  A NaN scale gives NaN
 * everywhere.  MX_EINVAL: as mx_quantize_mxs, or a shift above 2^d2 - 1, or out not IEEE. */
int mx_dequantize_mxs (uint64_t out_bits[], unsigned *flags, const mx_format *out,
                       uint64_t scale, const uint8_t shifts[], const uint64_t codes[],
                       mx_mxs_format fmt, size_t k, mx_rounding rnd);

/*---------------------------------------------------------------- packing -*/
/* Packed bytes of k codes under packing p, or 0 if k is not a multiple of p's group. */
size_t mx_packed_size (mx_packing p, size_t k);
/* mx_pack -- k codes of elem (one per byte) into mx_packed_size(p, k) bytes; mx_unpack back.
 * MX_EINVAL: p unknown, elem not of p's width, or k not a multiple of p's group. */
int mx_pack (uint8_t *bytes, const uint8_t *codes, size_t k, const mx_format *elem, mx_packing p);
int mx_unpack (uint8_t *codes, const uint8_t *bytes, size_t k, const mx_format *elem,
               mx_packing p);

/*------------------------------------------------------------- dot, gemm -*/
typedef enum { MX_TC_SCALE_PRODUCT, MX_TC_SCALE_GROUP } mx_tc_scale_point;

/* A tensor-core accumulation model (docs/semantics.md "Accumulation models"). */
typedef struct mx_tc_model {
  unsigned group;          /* products per fused group, 1..MX_TC_GROUP_MAX */
  int frac_bits;           /* fraction bits kept below the largest term after alignment, 0..60 */
  mx_rounding align;       /* rounding of each aligned term: MX_RTZ, MX_RDN or MX_RNE */
  mx_rounding out;         /* rounding of each group result to FP32 (not MX_SR) */
  int cin_in_group;        /* 1: the accumulator takes part in each group's alignment (0 or 1) */
  mx_tc_scale_point scale_point;
  int denorm_products;     /* 1: a product's alignment exponent is e_a + e_b (significand in
                              [1,4) kept unnormalized); 0: floor(log2 |product|) */
} mx_tc_model;
#define MX_TC_GROUP_MAX 4096
#define MX_TC_FRAC_BITS_MAX 60

/* How a dot product accumulates (the output rounding is the operation's rnd argument). */
typedef struct mx_dot_policy {
  mx_accum accum;
  mx_tc_model tc;          /* used by MX_ACCUM_TENSOR_CORE */
  size_t group;            /* MX_ACCUM_FUSED_GROUP: products per group, 1..k, dividing the
                              block size k (MXDOTP: 8, 16 for FP4); 0 = unset, an error there */
} mx_dot_policy;

/* Exact accumulation; tc = the h100-fp8 preset, group 0 (unused unless accum says so). */
mx_dot_policy mx_dot_policy_default (void);
/* MX_OK, or MX_EINVAL if id is out of range. */
int mx_tc_model_preset (mx_tc_model *m, mx_tc_preset id);
/* MX_OK, or MX_EINVAL if a field is outside the range documented above. */
int mx_tc_model_check (const mx_tc_model *m);

/* mx_dot -- OCP MX 6.1/6.2 DotGeneral of nblocks block pairs (k elements each):
 *   C = C_in + sum_j X_A[j] X_B[j] sum_i P_A[j][i] P_B[j][i]
 * A and B may have different element formats.  cin: the bit pattern of C_in in FP32.  The result
 * goes to *out in out_fmt (FP32, BF16 or FP16), rounded by rnd (deterministic modes only).
 * MX_EINVAL: k or nblocks 0, k * nblocks overflows, bad formats, an invalid tc model, a
 * fused-group group that does not divide k (or is 0), MX_SR. */
int mx_dot (uint64_t *out, unsigned *flags, const mx_format *out_fmt,
            const uint64_t scale_a[], const uint64_t codes_a[], const mx_format *elem_a,
            const uint64_t scale_b[], const uint64_t codes_b[], const mx_format *elem_b,
            const mx_format *scale_fmt, size_t k, size_t nblocks, uint64_t cin,
            const mx_dot_policy *dp, mx_rounding rnd);

/* mx_dot_prefix -- mx_dot of every prefix: out[j] and flags[j] are mx_dot's result and flags for
 * blocks 0..j (j < nblocks), what a MAC that reports its accumulation after every block shows.
 * One pass for exact, block-fp32 and fused-group; a dot per prefix for tensor-core.  Arguments and
 * errors as mx_dot; out (nblocks entries) must not be NULL (MX_EINVAL); flags (nblocks entries)
 * may be NULL, as for mx_dot. */
int mx_dot_prefix (uint64_t out[], unsigned flags[], const mx_format *out_fmt,
                   const uint64_t scale_a[], const uint64_t codes_a[], const mx_format *elem_a,
                   const uint64_t scale_b[], const uint64_t codes_b[], const mx_format *elem_b,
                   const mx_format *scale_fmt, size_t k, size_t nblocks, uint64_t cin,
                   const mx_dot_policy *dp, mx_rounding rnd);

/* mx_gemm -- C[i][j] = C_in[i][j] + sum_k A[i][k] B[k][j], MX blocks along K (kdim = nb * k).
 * A: m rows, a_codes row-major m x kdim, a_scales m x nb.  B is given transposed (column j of B
 * is row j): b_codes n x kdim, b_scales n x nb.  c_in: m x n FP32 patterns, or NULL for zeros.
 * c_out: m x n in out_fmt.  Each C element is mx_dot of its row and column.
 * MX_EINVAL also when kdim is not a multiple of k or a size product overflows. */
int mx_gemm (uint64_t c_out[], unsigned *flags, const mx_format *out_fmt, size_t m, size_t n,
             size_t kdim, const uint64_t a_scales[], const uint64_t a_codes[],
             const mx_format *elem_a, const uint64_t b_scales[], const uint64_t b_codes[],
             const mx_format *elem_b, const mx_format *scale_fmt, size_t k,
             const uint64_t c_in[], const mx_dot_policy *dp, mx_rounding rnd);

#ifdef __cplusplus
}
#endif
#endif
