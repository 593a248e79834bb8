/* mx_mxs_get, mx_mxs_parse -- the shared-microexponent format table (mx/mxs.def).
 * SPDX-License-Identifier: MIT */
#include "internal.h"

/* An element of m magnitude bits is E1M(m-1), bias 1, no specials: the exponent bit is the top
 * magnitude bit, and M 2^(1-m) is the value of code M in both readings. */
static const mx_format elems[MX_MXS_COUNT] = {
#define MX_MXS(id, nm, aie, k1, k2, d2, m, doc)                                               \
  { nm "-elem", nm "-elem", MX_ROLE_ELEM, (m) + 1, 1, 1, (m) - 1, 1, MX_SPECIAL_NONE,          \
    MX_FORMAT_COUNT, MX_FMT_EMIN (1, MX_SPECIAL_NONE), MX_FMT_EMAX (1, 1, MX_SPECIAL_NONE),    \
    MX_FMT_MAX_MAG ((m) + 1, 1, (m) - 1, MX_SPECIAL_NONE) },
#include "mx/mxs.def"
#undef MX_MXS
};

static const mx_mxs_desc table[MX_MXS_COUNT] = {
#define MX_MXS(id, nm, aie, k1, k2, d2, m, doc)                                               \
  { nm, aie, doc, k1, k2, d2, m, &elems[MX_MXS_##id], &mx__format_table[MX_E8M0] },
#include "mx/mxs.def"
#undef MX_MXS
};

static const char *const names[MX_MXS_COUNT] = {
#define MX_MXS(id, nm, aie, k1, k2, d2, m, doc) nm,
#include "mx/mxs.def"
#undef MX_MXS
};

const mx_mxs_desc *
mx_mxs_get (mx_mxs_format f)
{
  return (unsigned) f < MX_MXS_COUNT ? &table[f] : NULL;
}

int
mx_mxs_parse (const char *s)
{
  return mx_name_lookup (names, MX_MXS_COUNT, s);
}
