/* cmd_formats.c -- mxgold formats: the format table (formats.def) with the derived fields.
 * SPDX-License-Identifier: MIT */
#include "cli.h"

static int
run (cli_args *a)
{
  static const char *roles[] = { "element", "scale", "ieee" };
  static const char *specials[] = { "inf+nan", "nan-only", "finite", "integer", "pow2+nan" };
  /* bits per element of an element format in blocks of K under one scale S, the scale stored in
   * whole bytes (UE4M3 in a byte, as NVFP4 stores it) */
  unsigned long k = (unsigned long) cli_uint (a, O_BLOCK, 1, 4096, 32);
  const mx_format *sf = cli_format (a, O_SCALE_FORMAT, ROLE (MX_ROLE_SCALE), "e8m0");
  unsigned long sbits = (sf->bits + 7) / 8 * 8;
  FILE *o = cli_out_open (a);
  fprintf (o, "%-6s %-12s %-8s %4s %4s %5s %5s %5s %5s  %-9s %-16s %s\n", "name", "alias",
           "role", "bits", "sign", "ebits", "mbits", "bias", "emax", "specials", "max",
           "bits/elem");
  for (int i = 0; i < MX_FORMAT_COUNT; i++)
    {
      const mx_format *f = mx_format_get ((mx_format_id) i);
      mpfr_t m;
      mpfr_init2 (m, 64);
      mx_decode (m, f, f->max_mag);
      fprintf (o, "%-6s %-12s %-8s %4u %4u %5u %5u %5d %5d  %-9s ", f->name, f->alias,
               roles[f->role], f->bits, f->sign, f->ebits, f->mbits, f->bias, f->emax,
               specials[f->special]);
      mpfr_fprintf (o, "%-16.10Rg", m);
      if (f->role == MX_ROLE_ELEM)
        {
          mpfr_set_ui (m, f->bits * k + sbits, MPFR_RNDN);
          mpfr_div_ui (m, m, k, MPFR_RNDN);
          mpfr_fprintf (o, " %.6Rg", m);
        }
      else
        fprintf (o, " -");
      fputc ('\n', o);
      mpfr_clear (m);
    }
  return cli_out_close (a);
}

static const int options[] = { O_BLOCK, O_SCALE_FORMAT, 0 };

const cli_command cli_formats = {
  "formats", "List the formats: name, OCP alias, role, bit layout, bias, emax, specials, the "
  "largest finite value, and an element format's bits per element in blocks of --block K under "
  "one --scale-format S stored in whole bytes (OCP MX: 32 and E8M0; NVFP4: --block 16 "
  "--scale-format ue4m3).", "", NULL, options, 0, run
};
