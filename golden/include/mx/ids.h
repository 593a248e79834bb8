/* mx/ids.h -- the enums derived from the .def tables, the status codes and the OCP block size, with
 * no dependency (no MPFR): shared by libmxgold (mx.h) and the fast kernels (mxk.h).
 * SPDX-License-Identifier: MIT */
#ifndef MX_IDS_H
#define MX_IDS_H

/* The OCP MX v1.0 block size k (section 5, Table 1); operations take k as an argument. */
#define MX_BLOCK 32

/* Status of an operation that can fail (IEEE-style flags are reported apart, in *flags). */
typedef enum mx_status {
  MX_OK = 0,
  MX_EINVAL = -1,  /* an argument out of its documented range */
  MX_ENOMEM = -2,  /* memory could not be allocated */
  MX_ESYNTAX = -3, /* text parsers: not a number or a name of the expected kind */
  MX_ERANGE = -4   /* text parsers: a number out of the allowed range */
} mx_status;

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

/* One enum per named policy field (mx_scale_rule, mx_overflow, ...); value 0 is OCP-strict. */
#define MX_VALUE(id, name, doc) MX_##id,
#define MX_POLICY_ENUM(ID, field, name, doc, values) typedef enum { values MX_##ID##_COUNT } mx_##field;
#define MX_POLICY_NUM(ID, field, name, base, lo, hi, ocp, doc)
#include "mx/policies.def"
#undef MX_POLICY_ENUM
#undef MX_POLICY_NUM
#undef MX_VALUE

/* The policy fields themselves, for access by name (mx_policy_get, mx_policy_set). */
typedef enum mx_policy_field {
#define MX_POLICY_ENUM(ID, field, name, doc, values) MX_POLICY_##ID,
#define MX_POLICY_NUM(ID, field, name, base, lo, hi, ocp, doc) MX_POLICY_##ID,
#include "mx/policies.def"
#undef MX_POLICY_ENUM
#undef MX_POLICY_NUM
  MX_POLICY_FIELD_COUNT
} mx_policy_field;

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

typedef enum mx_packing {
#define MX_PACKING(id, name, elem_bits, group, desc) MX_PACKING_##id,
#include "mx/packings.def"
#undef MX_PACKING
  MX_PACKING_COUNT
} mx_packing;

/* The shared-microexponent formats (mx/mxs.def). */
typedef enum mx_mxs_format {
#define MX_MXS(id, name, aie, k1, k2, d2, m, doc) MX_MXS_##id,
#include "mx/mxs.def"
#undef MX_MXS
  MX_MXS_COUNT
} mx_mxs_format;

/* How each format's special values work (the 'special' column of formats.def). */
typedef enum mx_special {
  MX_SPECIAL_IEEE, /* all-ones exponent: Inf (fraction 0) or NaN */
  MX_SPECIAL_FN,   /* finite; only the all-ones magnitude code is NaN */
  MX_SPECIAL_NONE, /* finite only */
  MX_SPECIAL_INT,  /* two's complement integer times 2^-mbits */
  MX_SPECIAL_POW2  /* exponent only, no zero; all-ones is NaN */
} mx_special;

/* What a format is for (the 'role' column of formats.def). */
typedef enum mx_role { MX_ROLE_ELEM, MX_ROLE_SCALE, MX_ROLE_IEEE } mx_role;

/* The fields every format derives from its formats.def row, as constant expressions, so that
 * libmxgold's format table and the kernels' are computed by the same rules.  TOP_FIELD: the
 * largest exponent field of a finite value. */
#define MX_FMT_TOP_FIELD(ebits, sp) \
  (((sp) == MX_SPECIAL_IEEE || (sp) == MX_SPECIAL_POW2) ? (1ull << (ebits)) - 2 : (1ull << (ebits)) - 1)
/* unbiased exponent of the smallest normal (INT: 0, the weight of the integer bit) */
#define MX_FMT_EMIN(bias, sp) \
  ((sp) == MX_SPECIAL_INT ? 0 : (sp) == MX_SPECIAL_POW2 ? -(bias) : 1 - (bias))
/* unbiased exponent of the largest normal, OCP 6.3's emax */
#define MX_FMT_EMAX(ebits, bias, sp) \
  ((sp) == MX_SPECIAL_INT ? 0 : (int) MX_FMT_TOP_FIELD (ebits, sp) - (bias))
/* magnitude code of the largest finite value */
#define MX_FMT_MAX_MAG(bits, ebits, mbits, sp)                                               \
  ((sp) == MX_SPECIAL_INT    ? (1ull << ((bits) - 1)) - 1                                     \
   : (sp) == MX_SPECIAL_POW2 ? MX_FMT_TOP_FIELD (ebits, sp)                                   \
   : (sp) == MX_SPECIAL_FN   ? (MX_FMT_TOP_FIELD (ebits, sp) << (mbits)) | ((1ull << (mbits)) - 2) \
                             : (MX_FMT_TOP_FIELD (ebits, sp) << (mbits)) | ((1ull << (mbits)) - 1))

#endif
