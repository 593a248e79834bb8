/* mx_dot_policy_default, mx_tc_model_preset and the accumulation names -- from accums.def and
 * tc_presets.def.
 * SPDX-License-Identifier: MIT */
#include <string.h>
#include "internal.h"

static const char *const accum_names[] = {
#define MX_ACCUM(id, nm, desc) nm,
#include "mx/accums.def"
#undef MX_ACCUM
};

static const struct
{
  const char *name, *source;
  mx_tc_model m;
} presets[] = {
#define MX_TC_PRESET(id, nm, grp, fb, al, outr, cin, sp, dn, src) \
  { nm, src, { grp, fb, MX_##al, MX_##outr, cin, MX_TC_SCALE_##sp, dn } },
#include "mx/tc_presets.def"
#undef MX_TC_PRESET
};

mx_dot_policy
mx_dot_policy_default (void)
{
  mx_dot_policy p;
  memset (&p, 0, sizeof p);
  p.accum = MX_ACCUM_EXACT;
  p.rounding = MX_RNE;
  p.tc = presets[0].m;
  return p;
}

int
mx_tc_model_preset (mx_tc_model *m, mx_tc_preset id)
{
  if ((unsigned) id >= MX_TC_PRESET_COUNT)
    return -1;
  *m = presets[id].m;
  return 0;
}

const char *mx_accum_name (mx_accum a) { return (unsigned) a < MX_ACCUM_COUNT ? accum_names[a] : NULL; }
const char *mx_tc_preset_name (mx_tc_preset p) { return (unsigned) p < MX_TC_PRESET_COUNT ? presets[p].name : NULL; }
const char *mx_tc_preset_source (mx_tc_preset p) { return (unsigned) p < MX_TC_PRESET_COUNT ? presets[p].source : NULL; }

int
mx_accum_parse (const char *s)
{
  for (int i = 0; i < MX_ACCUM_COUNT; i++)
    if (strcmp (accum_names[i], s) == 0)
      return i;
  return -1;
}

int
mx_tc_preset_parse (const char *s)
{
  for (int i = 0; i < MX_TC_PRESET_COUNT; i++)
    if (strcmp (presets[i].name, s) == 0)
      return i;
  return -1;
}
