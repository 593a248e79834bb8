/* mx_format_get, mx_format_by_name, mx_format_custom -- the format table (formats.def).
 * SPDX-License-Identifier: MIT */
#include <string.h>
#include "internal.h"

const mx_format mx__format_table[MX_FORMAT_COUNT] = {
#define MX_FORMAT(id, nm, al, role, bits, sign, eb, mb, bias, sp)                              \
  { nm, al, MX_ROLE_##role, bits, sign, eb, mb, bias, MX_SPECIAL_##sp, MX_##id,              \
    MX_FMT_EMIN (bias, MX_SPECIAL_##sp), MX_FMT_EMAX (eb, bias, MX_SPECIAL_##sp),            \
    MX_FMT_MAX_MAG (bits, eb, mb, MX_SPECIAL_##sp) },
#include "mx/formats.def"
#undef MX_FORMAT
};

const mx_format *
mx_format_get (mx_format_id id)
{
  return (unsigned) id < MX_FORMAT_COUNT ? &mx__format_table[id] : NULL;
}

const mx_format *
mx_format_by_name (const char *name)
{
  for (int i = 0; name && i < MX_FORMAT_COUNT; i++)
    if (strcmp (name, mx__format_table[i].name) == 0
        || strcmp (name, mx__format_table[i].alias) == 0)
      return &mx__format_table[i];
  return NULL;
}

int
mx_format_custom (mx_format *f, unsigned sign, unsigned ebits, unsigned mbits, int bias,
                  mx_special special)
{
  unsigned bits = sign + ebits + mbits;
  if (sign > 1 || bits < 2 || bits > 64 || mbits > 52 || ebits > 15 || (unsigned) special > MX_SPECIAL_POW2)
    return MX_EINVAL;
  if (special == MX_SPECIAL_INT ? (ebits != 0 || !sign || bias != 1) : ebits < 1)
    return MX_EINVAL;
  if (special == MX_SPECIAL_POW2 && (mbits != 0 || ebits < 2))
    return MX_EINVAL;
  if ((special == MX_SPECIAL_IEEE && (ebits < 2 || mbits < 1)) || (special == MX_SPECIAL_FN && bits - sign < 2))
    return MX_EINVAL;
  if (bias < -(1 << 20) || bias > (1 << 20))
    return MX_EINVAL; /* keeps every exponent far inside long and MPFR's range */
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
  f->id = MX_FORMAT_COUNT;
  f->emin = MX_FMT_EMIN (bias, special);
  f->emax = MX_FMT_EMAX (ebits, bias, special);
  f->max_mag = MX_FMT_MAX_MAG (bits, ebits, mbits, special);
  return MX_OK;
}
