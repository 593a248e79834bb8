/* mx_dot_policy_default, mx_tc_model_preset, mx_tc_model_check and the accumulation names --
 * from accums.def and tc_presets.def.
 * SPDX-License-Identifier: MIT */
#include <string.h>
#include "internal.h"

static const char *const accum_names[] = {
#define MX_ACCUM(id, nm, desc) nm,
#include "mx/accums.def"
#undef MX_ACCUM
};
static const char *const accum_docs[] = {
#define MX_ACCUM(id, nm, desc) desc,
#include "mx/accums.def"
#undef MX_ACCUM
};

static const struct
{
  const char *name, *doc;
  mx_tc_model m;
} presets[] = {
#define MX_TC_PRESET(id, nm, grp, fb, al, outr, cin, sp, dn, src) \
  { nm, src, { grp, fb, MX_##al, MX_##outr, cin, MX_TC_SCALE_##sp, dn } },
#include "mx/tc_presets.def"
#undef MX_TC_PRESET
};
static const char *const preset_names[] = {
#define MX_TC_PRESET(id, nm, ...) nm,
#include "mx/tc_presets.def"
#undef MX_TC_PRESET
};

mx_dot_policy
mx_dot_policy_default (void)
{
  mx_dot_policy p;
  memset (&p, 0, sizeof p);
  p.accum = MX_ACCUM_EXACT;
  p.tc = presets[0].m;
  return p;
}

int
mx_tc_model_preset (mx_tc_model *m, mx_tc_preset id)
{
  if ((unsigned) id >= MX_TC_PRESET_COUNT)
    return MX_EINVAL;
  *m = presets[id].m;
  return MX_OK;
}

int
mx_tc_model_check (const mx_tc_model *m)
{
  if (m == NULL || m->group < 1 || m->group > MX_TC_GROUP_MAX || m->frac_bits < 0
      || m->frac_bits > MX_TC_FRAC_BITS_MAX
      || (m->align != MX_RTZ && m->align != MX_RDN && m->align != MX_RNE)
      || (unsigned) m->out >= MX_ROUNDING_COUNT || m->out == MX_SR
      || (m->cin_in_group != 0 && m->cin_in_group != 1)
      || (m->scale_point != MX_TC_SCALE_PRODUCT && m->scale_point != MX_TC_SCALE_GROUP)
      || (m->denorm_products != 0 && m->denorm_products != 1))
    return MX_EINVAL;
  return MX_OK;
}

const char *mx_accum_name (mx_accum a) { return (unsigned) a < MX_ACCUM_COUNT ? accum_names[a] : NULL; }
const char *mx_accum_doc (mx_accum a) { return (unsigned) a < MX_ACCUM_COUNT ? accum_docs[a] : NULL; }
const char *mx_tc_preset_name (mx_tc_preset p) { return (unsigned) p < MX_TC_PRESET_COUNT ? presets[p].name : NULL; }
const char *mx_tc_preset_doc (mx_tc_preset p) { return (unsigned) p < MX_TC_PRESET_COUNT ? presets[p].doc : NULL; }
int mx_accum_parse (const char *s) { return mx_name_lookup (accum_names, MX_ACCUM_COUNT, s); }
int mx_tc_preset_parse (const char *s) { return mx_name_lookup (preset_names, MX_TC_PRESET_COUNT, s); }
