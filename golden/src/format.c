/* mx_format_get, mx_format_by_name, mx_format_scale, mx_format_custom -- the format table
 * (formats.def) and the family of EkMm scale formats.
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

/* The unsigned scale formats EkMm, k = 2..15 exponent bits, m = 0..7 mantissa bits, bias
 * 2^(k-1)-1: m = 0 powers of two as E8M0 (all-ones NaN, no zero), m > 0 values as UE4M3 (only
 * the all-ones code NaN; zero and subnormals).  A constant table, so that every caller holds a
 * stable pointer and the vectors' headers can name them (pychop scale_exp_bits/scale_sig_bits). */
#define SCALE_SP(m) ((m) ? MX_SPECIAL_FN : MX_SPECIAL_POW2)
#define SCALE_FMT(k, m)                                                                      \
  { "e" #k "m" #m, "e" #k "m" #m, MX_ROLE_SCALE, (k) + (m), 0, k, m, (1 << ((k) - 1)) - 1,    \
    SCALE_SP (m), MX_FORMAT_COUNT, MX_FMT_EMIN ((1 << ((k) - 1)) - 1, SCALE_SP (m)),          \
    MX_FMT_EMAX (k, (1 << ((k) - 1)) - 1, SCALE_SP (m)),                                      \
    MX_FMT_MAX_MAG ((k) + (m), k, m, SCALE_SP (m)) }
#define SCALE_ROW(k)                                                                         \
  { SCALE_FMT (k, 0), SCALE_FMT (k, 1), SCALE_FMT (k, 2), SCALE_FMT (k, 3),                 \
    SCALE_FMT (k, 4), SCALE_FMT (k, 5), SCALE_FMT (k, 6), SCALE_FMT (k, 7) }
enum { SCALE_KMIN = 2, SCALE_KMAX = 15, SCALE_MMAX = 7 };
static const mx_format scales[SCALE_KMAX - SCALE_KMIN + 1][SCALE_MMAX + 1] = {
  SCALE_ROW (2), SCALE_ROW (3), SCALE_ROW (4), SCALE_ROW (5), SCALE_ROW (6), SCALE_ROW (7),
  SCALE_ROW (8), SCALE_ROW (9), SCALE_ROW (10), SCALE_ROW (11), SCALE_ROW (12), SCALE_ROW (13),
  SCALE_ROW (14), SCALE_ROW (15)
};

const mx_format *
mx_format_scale (unsigned ebits, unsigned mbits)
{
  if (ebits < SCALE_KMIN || ebits > SCALE_KMAX || mbits > SCALE_MMAX)
    return NULL;
  /* the built-in rows are the same formats under their own names */
  for (int i = 0; i < MX_FORMAT_COUNT; i++)
    if (mx__format_table[i].role == MX_ROLE_SCALE && mx__format_table[i].ebits == ebits
        && mx__format_table[i].mbits == mbits)
      return &mx__format_table[i];
  return &scales[ebits - SCALE_KMIN][mbits];
}

const mx_format *
mx_format_by_name (const char *name)
{
  for (int i = 0; name && i < MX_FORMAT_COUNT; i++)
    if (strcmp (name, mx__format_table[i].name) == 0
        || strcmp (name, mx__format_table[i].alias) == 0)
      return &mx__format_table[i];
  for (int k = SCALE_KMIN; name && k <= SCALE_KMAX; k++)
    for (int m = 0; m <= SCALE_MMAX; m++)
      if (strcmp (name, scales[k - SCALE_KMIN][m].name) == 0)
        return mx_format_scale ((unsigned) k, (unsigned) m);
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
