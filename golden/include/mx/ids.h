/* mx/ids.h -- the enums derived from the .def tables, with no dependency (no MPFR): shared by
 * libmxgold (mx.h) and the kernels (mxk.h).
 * SPDX-License-Identifier: MIT */
#ifndef MX_IDS_H
#define MX_IDS_H

/*---------------------------------------------------------------- tables -*/
typedef enum mx_format_id {
#define MX_FORMAT(id, name, alias, role, bits, sign, ebits, mbits, bias, special) MX_##id,
#include "mx/formats.def"
#undef MX_FORMAT
  MX_FORMAT_COUNT
} mx_format_id;

typedef enum mx_rounding {
#define MX_ROUNDING(id, name, desc) MX_##id,
#include "mx/roundings.def"
#undef MX_ROUNDING
  MX_ROUNDING_COUNT
} mx_rounding;

typedef enum mx_scale_rule {
#define MX_SCALE_RULE(id, name, desc) MX_SCALE_##id,
#include "mx/scale_rules.def"
#undef MX_SCALE_RULE
  MX_SCALE_RULE_COUNT
} mx_scale_rule;

/* Special-value policy fields; value 0 of each is the OCP-strict default.  Names and meanings:
 * docs/semantics.md; the CLI names are in policy.c (mx_policy_value_parse). */
typedef enum { MX_OVERFLOW_SAT, MX_OVERFLOW_OVF } mx_overflow;
typedef enum { MX_NAN_BLOCK_PROPAGATE, MX_NAN_BLOCK_IGNORE } mx_nan_block;
typedef enum { MX_INF_BLOCK_NAN, MX_INF_BLOCK_MAXSCALE, MX_INF_BLOCK_SAT } mx_inf_block;
typedef enum { MX_SUBNORMALS_KEEP, MX_SUBNORMALS_FLUSH } mx_subnormals;
typedef enum { MX_ZERO_SIGN_KEEP, MX_ZERO_SIGN_POSITIVE } mx_zero_sign;
typedef enum { MX_INT_RANGE_SYM, MX_INT_RANGE_FULL } mx_int_range;
typedef enum { MX_SCALE_OVERFLOW_NAN, MX_SCALE_OVERFLOW_CLAMP } mx_scale_overflow;
typedef enum { MX_NAN_ELEM_ZERO, MX_NAN_ELEM_NEGZERO, MX_NAN_ELEM_MAX } mx_nan_elem;

typedef enum mx_profile_id {
#define MX_PROFILE(id, name, ...) MX_PROFILE_##id,
#include "mx/profiles.def"
#undef MX_PROFILE
  MX_PROFILE_COUNT
} mx_profile_id;

typedef enum mx_accum {
#define MX_ACCUM(id, name, desc) MX_ACCUM_##id,
#include "mx/accums.def"
#undef MX_ACCUM
  MX_ACCUM_COUNT
} mx_accum;

typedef enum mx_tc_preset {
#define MX_TC_PRESET(id, name, ...) MX_TC_##id,
#include "mx/tc_presets.def"
#undef MX_TC_PRESET
  MX_TC_PRESET_COUNT
} mx_tc_preset;

#endif
