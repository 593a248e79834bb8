/* mx_policy_ocp, mx_policy_ieee, the policy fields by name, and the profiles -- all derived from
 * policies.def and profiles.def.
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>
#include "internal.h"

/* the names and docs of every named field's values */
#define MX_POLICY_NUM(ID, field, name, base, lo, hi, ocp, doc)
#define MX_VALUE(id, name, doc) name,
#define MX_POLICY_ENUM(ID, field, name, doc, values) \
  static const char *const names_##field[] = { values };
#include "mx/policies.def"
#undef MX_POLICY_ENUM
#undef MX_VALUE
#define MX_VALUE(id, name, doc) doc,
#define MX_POLICY_ENUM(ID, field, name, doc, values) \
  static const char *const docs_##field[] = { values };
#include "mx/policies.def"
#undef MX_POLICY_ENUM
#undef MX_VALUE
#undef MX_POLICY_NUM

static const mx_policy_field_desc fields[MX_POLICY_FIELD_COUNT] = {
#define MX_POLICY_ENUM(ID, field, name, doc, values) \
  { name, doc, MX_##ID##_COUNT, names_##field, docs_##field, 0, MX_##ID##_COUNT - 1, 0, 10 },
#define MX_POLICY_NUM(ID, field, name, base, lo, hi, ocp, doc) \
  { name, doc, 0, NULL, NULL, lo, hi, ocp, base },
#include "mx/policies.def"
#undef MX_POLICY_ENUM
#undef MX_POLICY_NUM
};

/* The OCP-strict policy: value 0 of every named field, the table's default of every number. */
#define MX_POLICY_ENUM(ID, field, name, doc, values)
#define MX_POLICY_NUM(ID, field, name, base, lo, hi, ocp, doc) .field = ocp,
static const mx_policy ocp = {
#include "mx/policies.def"
};
const mx_policy mx__ieee = {
#include "mx/policies.def"
  .overflow = MX_OVERFLOW_OVF,
};
#undef MX_POLICY_ENUM
#undef MX_POLICY_NUM

mx_policy
mx_policy_ocp (void)
{
  return ocp;
}

mx_policy
mx_policy_ieee (void)
{
  return mx__ieee;
}

/*------------------------------------------------------- fields by name -*/
const mx_policy_field_desc *
mx_policy_field_get (mx_policy_field f)
{
  return (unsigned) f < MX_POLICY_FIELD_COUNT ? &fields[f] : NULL;
}

int
mx_policy_field_parse (const char *name)
{
  for (int i = 0; i < MX_POLICY_FIELD_COUNT; i++)
    if (name && strcmp (fields[i].name, name) == 0)
      return i;
  return -1;
}

long
mx_policy_get (const mx_policy *pol, mx_policy_field f)
{
  switch (f)
    {
#define MX_POLICY_ENUM(ID, field, name, doc, values) \
    case MX_POLICY_##ID: return (long) pol->field;
#define MX_POLICY_NUM(ID, field, name, base, lo, hi, ocp, doc) \
    case MX_POLICY_##ID: return (long) pol->field;
#include "mx/policies.def"
#undef MX_POLICY_ENUM
#undef MX_POLICY_NUM
    default: return -1;
    }
}

int
mx_policy_set (mx_policy *pol, mx_policy_field f, long v)
{
  if ((unsigned) f >= MX_POLICY_FIELD_COUNT || v < fields[f].lo || v > fields[f].hi)
    return MX_EINVAL;
  switch (f)
    {
#define MX_POLICY_ENUM(ID, field, name, doc, values) \
    case MX_POLICY_##ID: pol->field = (mx_##field) v; break;
#define MX_POLICY_NUM(ID, field, name, base, lo, hi, ocp, doc) \
    case MX_POLICY_##ID: pol->field = (unsigned) v; break;
#include "mx/policies.def"
#undef MX_POLICY_ENUM
#undef MX_POLICY_NUM
    default: break;
    }
  return MX_OK;
}

int
mx_policy_value_parse (long *v, mx_policy_field f, const char *s)
{
  const mx_policy_field_desc *d = mx_policy_field_get (f);
  if (d == NULL || s == NULL)
    return MX_ESYNTAX;
  if (d->nvalues)
    {
      int i = mx_name_lookup (d->values, d->nvalues, s);
      if (i < 0)
        return MX_ESYNTAX;
      *v = i;
      return MX_OK;
    }
  unsigned long long x;
  int rc = mx_parse_uint (&x, s, d->base, (unsigned long long) d->lo, (unsigned long long) d->hi);
  if (rc == MX_OK)
    *v = (long) x;
  return rc;
}

int
mx_policy_value_format (char *buf, size_t n, mx_policy_field f, long v)
{
  const mx_policy_field_desc *d = mx_policy_field_get (f);
  if (d == NULL || v < d->lo || v > d->hi || n == 0)
    return MX_EINVAL;
  int len = d->nvalues ? snprintf (buf, n, "%s", d->values[v])
                       : snprintf (buf, n, d->base == 16 ? "%02lX" : "%ld", v);
  return len >= 0 && (size_t) len < n ? MX_OK : MX_EINVAL;
}

/*---------------------------------------------------------------- profiles -*/
/* One setter per profile: the OCP policy, then the row's overrides. */
#define MX_SET(field, value) p->field = MX_##value;
#define MX_SETN(field, value) p->field = (value);
#define MX_PROFILE(id, nm, rounding, desc, src, proof, ...) \
  static void set_##id (mx_policy *p) { *p = ocp; __VA_ARGS__ }
#include "mx/profiles.def"
#undef MX_PROFILE
#undef MX_SET
#undef MX_SETN

static const struct
{
  const char *name, *doc, *source;
  int proven;
  mx_rounding rnd;
  void (*set) (mx_policy *);
} profiles[MX_PROFILE_COUNT] = {
#define RUN 1
#define SOURCE 0
#define SPEC 2
#define MX_PROFILE(id, nm, rounding, desc, src, proof, ...) \
  { nm, desc, src, proof, MX_##rounding, set_##id },
#include "mx/profiles.def"
#undef MX_PROFILE
#undef RUN
#undef SOURCE
#undef SPEC
};

int
mx_profile_get (mx_policy *pol, mx_rounding *rnd, mx_profile_id id)
{
  if ((unsigned) id >= MX_PROFILE_COUNT)
    return MX_EINVAL;
  profiles[id].set (pol);
  if (rnd)
    *rnd = profiles[id].rnd;
  return MX_OK;
}

const char *
mx_profile_name (mx_profile_id p)
{
  return (unsigned) p < MX_PROFILE_COUNT ? profiles[p].name : NULL;
}

const char *
mx_profile_doc (mx_profile_id p)
{
  return (unsigned) p < MX_PROFILE_COUNT ? profiles[p].doc : NULL;
}

const char *
mx_profile_source (mx_profile_id p)
{
  return (unsigned) p < MX_PROFILE_COUNT ? profiles[p].source : NULL;
}

int
mx_profile_proven (mx_profile_id p)
{
  return (unsigned) p < MX_PROFILE_COUNT ? profiles[p].proven : -1;
}

int
mx_profile_parse (const char *s)
{
  for (int i = 0; i < MX_PROFILE_COUNT; i++)
    if (s && strcmp (profiles[i].name, s) == 0)
      return i;
  return -1;
}
