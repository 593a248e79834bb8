/* mx_policy_default, mx_policy_profile and the name tables -- all derived from the .def tables.
 * SPDX-License-Identifier: MIT */
#include <string.h>
#include "internal.h"

mx_policy
mx_policy_default (void)
{
  mx_policy p;
  memset (&p, 0, sizeof p); /* value 0 of every field is the OCP-strict one */
  p.rounding = MX_RNE;
  p.scale_rule = MX_SCALE_FLOOR;
  p.zero_scale = 0x00;
  p.sr_bits = MX_SR_BITS_DEFAULT;
  return p;
}

static const mx_policy profiles[MX_PROFILE_COUNT] = {
#define MX_PROFILE(id, nm, rnd, ovf, rule, nanb, infb, zs, sub, zsign, ir, sovf, nane, desc) \
  { MX_##rnd, MX_OVERFLOW_##ovf, MX_SCALE_##rule, MX_NAN_BLOCK_##nanb, MX_INF_BLOCK_##infb,  \
    zs, MX_SUBNORMALS_##sub, MX_ZERO_SIGN_##zsign, MX_INT_RANGE_##ir,                      \
    MX_SCALE_OVERFLOW_##sovf, MX_NAN_ELEM_##nane, MX_SR_BITS_DEFAULT },
#include "mx/profiles.def"
#undef MX_PROFILE
};

int
mx_policy_profile (mx_policy *pol, mx_profile_id id)
{
  if ((unsigned) id >= MX_PROFILE_COUNT)
    return -1;
  *pol = profiles[id];
  return 0;
}

static const char *const rounding_names[] = {
#define MX_ROUNDING(id, nm, desc) nm,
#include "mx/roundings.def"
#undef MX_ROUNDING
};
static const char *const scale_rule_names[] = {
#define MX_SCALE_RULE(id, nm, desc) nm,
#include "mx/scale_rules.def"
#undef MX_SCALE_RULE
};
static const char *const profile_names[] = {
#define MX_PROFILE(id, nm, ...) nm,
#include "mx/profiles.def"
#undef MX_PROFILE
};
static const char *const profile_descs[] = {
#define MX_PROFILE(id, nm, rnd, ovf, rule, nanb, infb, zs, sub, zsign, ir, sovf, nane, desc) desc,
#include "mx/profiles.def"
#undef MX_PROFILE
};

static int
lookup (const char *const *names, int n, const char *s)
{
  for (int i = 0; i < n; i++)
    if (strcmp (names[i], s) == 0)
      return i;
  return -1;
}

const char *mx_rounding_name (mx_rounding r) { return (unsigned) r < MX_ROUNDING_COUNT ? rounding_names[r] : NULL; }
const char *mx_scale_rule_name (mx_scale_rule s) { return (unsigned) s < MX_SCALE_RULE_COUNT ? scale_rule_names[s] : NULL; }
const char *mx_profile_name (mx_profile_id p) { return (unsigned) p < MX_PROFILE_COUNT ? profile_names[p] : NULL; }
const char *mx_profile_description (mx_profile_id p) { return (unsigned) p < MX_PROFILE_COUNT ? profile_descs[p] : NULL; }
int mx_rounding_parse (const char *s) { return lookup (rounding_names, MX_ROUNDING_COUNT, s); }
int mx_scale_rule_parse (const char *s) { return lookup (scale_rule_names, MX_SCALE_RULE_COUNT, s); }
int mx_profile_parse (const char *s) { return lookup (profile_names, MX_PROFILE_COUNT, s); }

/* Value names per policy field, in enum order (value 0 = OCP default). */
static const struct
{
  const char *field;
  const char *values[4];
} fields[] = {
  { "overflow", { "sat", "ovf" } },
  { "nan-block", { "propagate", "ignore" } },
  { "inf-block", { "nan", "maxscale", "sat" } },
  { "subnormals", { "keep", "flush" } },
  { "zero-sign", { "keep", "positive" } },
  { "int-range", { "sym", "full" } },
  { "scale-overflow", { "nan", "clamp" } },
  { "nan-elem", { "zero", "negzero", "max" } },
};

int
mx_policy_value_parse (const char *field, const char *s)
{
  for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
    if (strcmp (fields[i].field, field) == 0)
      for (int v = 0; v < 4 && fields[i].values[v]; v++)
        if (strcmp (fields[i].values[v], s) == 0)
          return v;
  return -1;
}

const char *
mx_policy_value_name (const char *field, int value)
{
  for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
    if (strcmp (fields[i].field, field) == 0)
      return value >= 0 && value < 4 ? fields[i].values[value] : NULL;
  return NULL;
}

const char *const mx_policy_field_names[MX_POLICY_FIELD_COUNT] = {
  "overflow", "nan-block", "inf-block", "subnormals", "zero-sign", "int-range", "scale-overflow",
  "nan-elem"
};

/* The enum field behind each name, in mx_policy_field_names order. */
static int *
field_ptr (mx_policy *p, const char *field)
{
  int *ptrs[MX_POLICY_FIELD_COUNT] = {
    (int *) &p->overflow, (int *) &p->nan_block, (int *) &p->inf_block, (int *) &p->subnormals,
    (int *) &p->zero_sign, (int *) &p->int_range, (int *) &p->scale_overflow, (int *) &p->nan_elem
  };
  int i = lookup (mx_policy_field_names, MX_POLICY_FIELD_COUNT, field);
  return i < 0 ? NULL : ptrs[i];
}

int
mx_policy_get_field (const mx_policy *pol, const char *field)
{
  const int *v = field_ptr ((mx_policy *) pol, field);
  return v ? *v : -1;
}

int
mx_policy_set_field (mx_policy *pol, const char *field, int value)
{
  int *v = field_ptr (pol, field);
  if (v == NULL || mx_policy_value_name (field, value) == NULL)
    return -1;
  *v = value;
  return 0;
}
