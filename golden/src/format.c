/* mx_format_get, mx_format_by_name, mx_format_custom -- the format table.
 * SPDX-License-Identifier: MIT */
#include <string.h>
#include "internal.h"

/* Derived fields, as constant expressions so the built-in table can be const. */
#define TOP_FIELD(eb, sp) \
  (((sp) == MX_SPECIAL_IEEE || (sp) == MX_SPECIAL_POW2) ? (1ull << (eb)) - 2 : (1ull << (eb)) - 1)
#define EMIN(bias, sp) \
  ((sp) == MX_SPECIAL_INT ? 0 : (sp) == MX_SPECIAL_POW2 ? -(bias) : 1 - (bias))
#define EMAX(eb, bias, sp) \
  ((sp) == MX_SPECIAL_INT ? 0 : (int) TOP_FIELD (eb, sp) - (bias))
#define MAX_MAG(bits, sign, eb, mb, sp)                                           \
  ((sp) == MX_SPECIAL_INT    ? (1ull << ((bits) - 1)) - 1                          \
   : (sp) == MX_SPECIAL_POW2 ? TOP_FIELD (eb, sp)                                  \
   : (sp) == MX_SPECIAL_FN   ? (TOP_FIELD (eb, sp) << (mb)) | ((1ull << (mb)) - 2) \
                             : (TOP_FIELD (eb, sp) << (mb)) | ((1ull << (mb)) - 1))

static const mx_format table[MX_FORMAT_COUNT] = {
#define MX_FORMAT(id, nm, al, role, bits, sign, eb, mb, bias, sp)                           \
  { nm, al, MX_ROLE_##role, bits, sign, eb, mb, bias, MX_SPECIAL_##sp,                    \
    EMIN (bias, MX_SPECIAL_##sp), EMAX (eb, bias, MX_SPECIAL_##sp),                       \
    MAX_MAG (bits, sign, eb, mb, MX_SPECIAL_##sp) },
#include "mx/formats.def"
#undef MX_FORMAT
};

const mx_format *
mx_format_get (mx_format_id id)
{
  return (unsigned) id < MX_FORMAT_COUNT ? &table[id] : NULL;
}

const mx_format *
mx_format_by_name (const char *name)
{
  for (int i = 0; i < MX_FORMAT_COUNT; i++)
    if (strcmp (name, table[i].name) == 0 || strcmp (name, table[i].alias) == 0)
      return &table[i];
  return NULL;
}

int
mx_format_custom (mx_format *f, unsigned sign, unsigned ebits, unsigned mbits, int bias,
                  mx_special special)
{
  unsigned bits = sign + ebits + mbits;
  if (sign > 1 || bits < 2 || bits > 64 || mbits > 52 || ebits > 15)
    return -1;
  if (special == MX_SPECIAL_INT ? (ebits != 0 || !sign || bias != 1) : ebits < 1)
    return -1;
  if (special == MX_SPECIAL_POW2 && (mbits != 0 || ebits < 2))
    return -1;
  if ((special == MX_SPECIAL_IEEE && ebits < 2) || (special == MX_SPECIAL_FN && bits - sign < 2))
    return -1;
  memset (f, 0, sizeof *f);
  f->name = "custom";
  f->alias = "custom";
  f->role = MX_ROLE_ELEM;
  f->bits = bits;
  f->sign = sign;
  f->ebits = ebits;
  f->mbits = mbits;
  f->bias = bias;
  f->special = special;
  f->emin = EMIN (bias, special);
  f->emax = EMAX (ebits, bias, special);
  f->max_mag = MAX_MAG (bits, sign, ebits, mbits, special);
  return 0;
}
