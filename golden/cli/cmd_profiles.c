/* cmd_profiles.c -- mxgold profiles: each named profile's rounding and policy (profiles.def).
 * SPDX-License-Identifier: MIT */
#include "cli.h"

static const char *const proof[] = {
  "not run: derived from the source (docs/profiles.md says why)",
  "proven: a real run matches it bit for bit (docs/conformance.md)",
  "the specification itself",
};

static int
run (cli_args *a)
{
  FILE *o = cli_out_open (a);
  for (int i = 0; i < MX_PROFILE_COUNT; i++)
    {
      mx_policy p;
      mx_rounding r;
      char v[32];
      mx_profile_get (&p, &r, (mx_profile_id) i);
      fprintf (o, "%-14s rounding=%s", mx_profile_name ((mx_profile_id) i), mx_rounding_name (r));
      for (int f = 0; f < MX_POLICY_FIELD_COUNT; f++)
        {
          mx_policy_value_format (v, sizeof v, (mx_policy_field) f,
                                  mx_policy_get (&p, (mx_policy_field) f));
          fprintf (o, " %s=%s", mx_policy_field_get ((mx_policy_field) f)->name, v);
        }
      fprintf (o, "\n    %s\n    source: %s\n    %s\n", mx_profile_doc ((mx_profile_id) i),
               mx_profile_source ((mx_profile_id) i), proof[mx_profile_proven ((mx_profile_id) i)]);
    }
  return cli_out_close (a);
}

static const int options[] = { 0 };

const cli_command cli_profiles = {
  "profiles", "List the named profiles: each one's rounding and every policy field, the "
  "implementation and code path it reproduces, and whether a real run proved it "
  "(docs/profiles.md, docs/conformance.md).", "", NULL, options, 0, run
};
