/* cmd_formats.c -- mxgold formats: the format table (formats.def) with the derived fields, then
 * the two-level formats: MX9/MX6/MX4 (mxs.def) and NVFP4 (docs/semantics.md sections 5b, 9).
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
  /* Two-level formats, their element's columns, and their bits per element, fixed by their
   * layout: MXS (8 + (k1/k2) d2) / k1 + m + 1, an E8M0 exponent and the shifts per block of
   * k1; NVFP4 4 + 8/16 and one FP32 amax per tensor of N elements. */
  for (int i = 0; i <= MX_MXS_COUNT; i++)
    {
      const mx_mxs_desc *d = i < MX_MXS_COUNT ? mx_mxs_get ((mx_mxs_format) i) : NULL;
      const mx_format *f = d ? d->elem : mx_format_get (MX_E2M1);
      mpfr_t m;
      mpfr_init2 (m, 64);
      mx_decode (m, f, f->max_mag);
      fprintf (o, "%-6s %-12s %-8s %4u %4u %5u %5u %5d %5d  %-9s ", d ? d->name : "nvfp4",
               d ? d->aie : "e2m1+ue4m3", "2-level", f->bits, f->sign, f->ebits, f->mbits, f->bias,
               f->emax, specials[f->special]);
      mpfr_fprintf (o, "%-16.10Rg", m);
      if (d)
        {
          mpfr_set_ui (m, 8 + d->k1 / d->k2 * d->d2 + f->bits * d->k1, MPFR_RNDN);
          mpfr_div_ui (m, m, d->k1, MPFR_RNDN);
          mpfr_fprintf (o, " %.6Rg\n", m);
        }
      else
        {
          mpfr_set_ui (m, f->bits * MX_NVFP4_BLOCK + 8, MPFR_RNDN);
          mpfr_div_ui (m, m, MX_NVFP4_BLOCK, MPFR_RNDN);
          mpfr_fprintf (o, " %.6Rg+32/N\n", m);
        }
      mpfr_clear (m);
    }
  return cli_out_close (a);
}

static const int options[] = { O_BLOCK, O_SCALE_FORMAT, 0 };

const cli_command cli_formats = {
  "formats", "List the formats: name, OCP alias, role, bit layout, bias, emax, specials, the "
  "largest finite value, and an element format's bits per element in blocks of --block K under "
  "one --scale-format S stored in whole bytes (OCP MX: 32 and E8M0; NVFP4: --block 16 "
  "--scale-format ue4m3).  Then the two-level formats (role 2-level): MX9, MX6, MX4 (alias: "
  "the AIE-ML v2 type) and NVFP4, with their element's columns and the bits per element of "
  "their fixed layout, which --block and --scale-format do not change (NVFP4: 4.5 plus one "
  "FP32 amax per tensor of N elements).", "", NULL, options, 0, run
};
