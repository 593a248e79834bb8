/* cmd_formats.c -- mxgold formats: the format table (formats.def) with the derived fields.
 * SPDX-License-Identifier: MIT */
#include "cli.h"

static int
run (cli_args *a)
{
  static const char *roles[] = { "element", "scale", "ieee" };
  static const char *specials[] = { "inf+nan", "nan-only", "finite", "integer", "pow2+nan" };
  FILE *o = cli_out_open (a);
  fprintf (o, "%-6s %-12s %-8s %4s %4s %5s %5s %5s %5s  %-9s %s\n", "name", "alias", "role",
           "bits", "sign", "ebits", "mbits", "bias", "emax", "specials", "max");
  for (int i = 0; i < MX_FORMAT_COUNT; i++)
    {
      const mx_format *f = mx_format_get ((mx_format_id) i);
      mpfr_t m;
      mpfr_init2 (m, 64);
      mx_decode (m, f, f->max_mag);
      fprintf (o, "%-6s %-12s %-8s %4u %4u %5u %5u %5d %5d  %-9s ", f->name, f->alias,
               roles[f->role], f->bits, f->sign, f->ebits, f->mbits, f->bias, f->emax,
               specials[f->special]);
      mpfr_fprintf (o, "%.10Rg\n", m);
      mpfr_clear (m);
    }
  return cli_out_close (a);
}

static const int options[] = { 0 };

const cli_command cli_formats = {
  "formats", "List the formats: name, OCP alias, role, bit layout, bias, emax, specials and the "
  "largest finite value.", "", NULL, options, 0, run
};
