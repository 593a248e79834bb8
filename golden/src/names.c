/* mx_version, mx_strerror, mx_name_lookup and the names of the rounding and packing tables.
 * SPDX-License-Identifier: MIT */
#include <string.h>
#include "internal.h"

const char *
mx_version (void)
{
  return MX_VERSION_STRING;
}

const char *
mx_strerror (int status)
{
  switch (status)
    {
    case MX_OK: return "success";
    case MX_EINVAL: return "invalid argument";
    case MX_ENOMEM: return "out of memory";
    case MX_ESYNTAX: return "not a valid name or number";
    case MX_ERANGE: return "number out of range";
    default: return "unknown status";
    }
}

int
mx_name_lookup (const char *const names[], int n, const char *s)
{
  for (int i = 0; s && i < n; i++)
    if (strcmp (names[i], s) == 0)
      return i;
  return -1;
}

static const char *const rounding_names[] = {
#define MX_ROUNDING(id, nm, desc) nm,
#include "mx/roundings.def"
#undef MX_ROUNDING
};
static const char *const rounding_docs[] = {
#define MX_ROUNDING(id, nm, desc) desc,
#include "mx/roundings.def"
#undef MX_ROUNDING
};
static const char *const packing_names[] = {
#define MX_PACKING(id, nm, bits, group, desc) nm,
#include "mx/packings.def"
#undef MX_PACKING
};
static const char *const packing_docs[] = {
#define MX_PACKING(id, nm, bits, group, desc) desc,
#include "mx/packings.def"
#undef MX_PACKING
};

const char *mx_rounding_name (mx_rounding r) { return (unsigned) r < MX_ROUNDING_COUNT ? rounding_names[r] : NULL; }
const char *mx_rounding_doc (mx_rounding r) { return (unsigned) r < MX_ROUNDING_COUNT ? rounding_docs[r] : NULL; }
const char *mx_packing_name (mx_packing p) { return (unsigned) p < MX_PACKING_COUNT ? packing_names[p] : NULL; }
const char *mx_packing_doc (mx_packing p) { return (unsigned) p < MX_PACKING_COUNT ? packing_docs[p] : NULL; }
int mx_rounding_parse (const char *s) { return mx_name_lookup (rounding_names, MX_ROUNDING_COUNT, s); }
int mx_packing_parse (const char *s) { return mx_name_lookup (packing_names, MX_PACKING_COUNT, s); }
