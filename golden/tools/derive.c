/* mxgold-derive -- write the files derived from the .def tables, to stdout:
 *   sv    rtl/mx_pkg.svh: format, rounding, accumulation, policy-value, flag and MXS constants
 *         for the RTL, and the layout of mx_quantize's policy word
 *   py    python/mxgold/_names.py: the names of every table, for the Python package
 *   docs  docs/policies.md: the policy fields, the profiles and the MXS formats, as tables
 * CTest diffs each output against the committed file (labels unit: derived-*).
 * SPDX-License-Identifier: MIT */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <mpfr.h>
#include "mx.h"
#include "../../sim/qpol.h" /* mx_quantize's policy word: the one list of its fields */

static void
upper (char *dst, const char *s)
{
  for (; *s; s++)
    *dst++ = (char) (isalnum ((unsigned char) *s) ? toupper ((unsigned char) *s) : '_');
  *dst = 0;
}

static const char *const special_names[] = { "IEEE", "FN", "NONE", "INT", "POW2" };

/* The RTL's element formats: the first ones of the table, of at most 8 bits. */
static int
rtl_elems (void)
{
  int n = 0;
  while (n < MX_FORMAT_COUNT && mx_format_get ((mx_format_id) n)->role == MX_ROLE_ELEM
         && mx_format_get ((mx_format_id) n)->bits <= 8)
    n++;
  return n;
}

/* One packed table of width w bits per element format, index 0 in the low bits. */
static void
sv_table (const char *name, int w, int n, long long (*get) (const mx_format *), const char *what)
{
  printf ("// %s\nlocalparam logic [%d:0] MX_ELEM_%s = {", what, n * w - 1, name);
  for (int i = n - 1; i >= 0; i--)
    {
      long long v = get (mx_format_get ((mx_format_id) i));
      printf ("%s%d'h%llX", i == n - 1 ? "" : ", ", w, (unsigned long long) v & ((1ull << w) - 1));
    }
  printf ("};\n");
}

static long long f_mbits (const mx_format *f) { return f->mbits; }
static long long f_bias (const mx_format *f) { return f->bias; }
static long long f_emin (const mx_format *f) { return f->emin; }
static long long f_emax (const mx_format *f) { return f->emax; }
static long long f_maxmag (const mx_format *f) { return (long long) f->max_mag; }
static long long f_signbit (const mx_format *f) { return 1ll << (f->bits - 1); }
static long long
f_sigmax (const mx_format *f)
{
  if (f->special == MX_SPECIAL_INT)
    return (long long) f->max_mag;
  return (long long) ((f->max_mag & ((1ull << f->mbits) - 1)) | (1ull << f->mbits));
}
/* fl32(1/max)'s significand, the constant of rceil-fp32: 1/max = 2^(mbits - emax) / SIGMAX, so
 * RNE(2^(24 + mbits) / SIGMAX) in [2^23, 2^24) (no format has max = 2^emax exactly) and
 * 1/max = RCP * 2^(-24 - emax) */
static long long
f_rcp (const mx_format *f)
{
  unsigned long long s = (unsigned long long) f_sigmax (f), num = 1ull << (24 + f->mbits);
  unsigned long long q = num / s, r = num % s;
  if (2 * r > s || (2 * r == s && (q & 1)))
    q++;
  return (long long) q;
}
/* The thresholds of the log2 scale rules (floor-log2f, floor-log2-input, ceil-log2-input).
 * log2 amax = e + log2(1.f) is irrational unless f = 0, so its rounding to a format T of p
 * significant bits (RNE) is never a tie, and floor or ceil of it moves only where it rounds onto
 * the integer next to it: within d = 2^(k-p), half an ulp of T on that side of the integer (k:
 * the exponent of the binade the value lies in, -1 to 7 for every integer an FP32 amax reaches).
 * floor: below N = e + 1 iff log2(1.f) > 1 - d, iff f >= TF = floor((2^(1-d) - 1) 2^23) + 1;
 * ceil (f != 0): above e iff log2(1.f) < d, iff f < TC = floor((2^d - 1) 2^23) + 1.
 * Entry 9j + k + 1 of each table: T = FP32 (j = 0, p = 24) or BF16 (j = 1, p = 8).  Computed at
 * 256 bits rounded down and up: the two floors agree, or the tool fails. */
enum { LOG2_KMIN = -1, LOG2_KMAX = 7, LOG2_N = LOG2_KMAX - LOG2_KMIN + 1 };
static int
log2_threshold (unsigned long *t, int up, int k, int p)
{
  unsigned long r[2];
  for (int i = 0; i < 2; i++)
    {
      mpfr_rnd_t rnd = i ? MPFR_RNDU : MPFR_RNDD;
      mpfr_t x;
      mpfr_init2 (x, 256);
      mpfr_set_si_2exp (x, 1, k - p, rnd); /* d, exact */
      if (!up)
        mpfr_ui_sub (x, 1, x, rnd);        /* 1 - d, exact */
      mpfr_exp2 (x, x, rnd);
      mpfr_sub_ui (x, x, 1, rnd);
      mpfr_mul_2ui (x, x, 23, rnd);
      r[i] = mpfr_get_ui (x, MPFR_RNDD) + 1;
      mpfr_clear (x);
    }
  *t = r[0];
  return r[0] == r[1] ? 0 : -1;
}

static int
sv_log2_table (const char *name, int up, const char *what)
{
  printf ("// %s\nlocalparam logic [%d:0] MX_LOG2_%s = {", what, 2 * LOG2_N * 24 - 1, name);
  for (int i = 2 * LOG2_N - 1; i >= 0; i--)
    {
      unsigned long t;
      if (log2_threshold (&t, up, i % LOG2_N + LOG2_KMIN, i < LOG2_N ? 24 : 8))
        {
          fprintf (stderr, "mxgold-derive: a log2 threshold is too close to an integer\n");
          return -1;
        }
      printf ("%s24'h%06lX", i == 2 * LOG2_N - 1 ? "" : ", ", t);
    }
  printf ("};\n");
  return 0;
}

static long long f_int (const mx_format *f) { return f->special == MX_SPECIAL_INT; }
static long long f_ieee (const mx_format *f) { return f->special == MX_SPECIAL_IEEE; }
static long long f_fn (const mx_format *f) { return f->special == MX_SPECIAL_FN; }

static int
emit_sv (void)
{
  int n = rtl_elems ();
  printf ("// mx_pkg.svh -- GENERATED by mxgold-derive from golden/include/mx/*.def; do not edit.\n"
          "// Format parameters as plain localparams (Yosys 0.23 cannot import packages): include it\n"
          "// inside each module that needs them (no include guard, on purpose).\n\n");
  for (int i = 0; i < 5; i++)
    printf ("localparam int MX_SPECIAL_%s = %d;\n", special_names[i], i);
  printf ("\n");
  for (int i = 0; i < MX_FORMAT_COUNT; i++)
    {
      const mx_format *f = mx_format_get ((mx_format_id) i);
      char u[32];
      upper (u, f->name);
      printf ("localparam int MX_FMT_%s = %d;\n", u, i);
      printf ("localparam int MX_%s_BITS = %u, MX_%s_SIGN = %u, MX_%s_EBITS = %u, MX_%s_MBITS = %u;\n",
              u, f->bits, u, f->sign, u, f->ebits, u, f->mbits);
      printf ("localparam int MX_%s_BIAS = %d, MX_%s_EMIN = %d, MX_%s_EMAX = %d, MX_%s_SPECIAL = MX_SPECIAL_%s;\n",
              u, f->bias, u, f->emin, u, f->emax, u, special_names[f->special]);
      printf ("localparam longint unsigned MX_%s_MAX_MAG = 64'h%llX;\n\n", u,
              (unsigned long long) f->max_mag);
    }
  printf ("// The element formats the RTL implements (MX_FMT_* 0 .. MX_ELEM_COUNT-1), as packed\n"
          "// tables: the entry of format i is bits [i*W +: W].\n"
          "localparam int MX_ELEM_COUNT = %d;\n", n);
  sv_table ("MBITS", 3, n, f_mbits, "stored fraction bits");
  sv_table ("BIAS", 5, n, f_bias, "exponent bias");
  sv_table ("EMIN", 6, n, f_emin, "smallest normal exponent, signed (INT: 0)");
  sv_table ("EMAX", 6, n, f_emax, "largest normal exponent, signed (the OCP 6.3 emax)");
  sv_table ("MAX_MAG", 8, n, f_maxmag, "magnitude code of max finite");
  sv_table ("SIGMAX", 8, n, f_sigmax, "significand of max finite as an integer (1.m << mbits; INT: the magnitude)");
  sv_table ("RCP", 24, n, f_rcp, "fl32(1/max)'s significand (rceil-fp32): 1/max = RCP * 2^(-24 - emax)");
  printf ("// log2 scale rules: entry 9j + k + 1 (24 bits), k the binade class -1..7 of the integer\n"
          "// the rounded log2 may reach, j = 0 for FP32 (p = 24), 1 for BF16 (p = 8), d = 2^(k-p)\n");
  if (sv_log2_table ("TF", 0, "floor: f >= TF iff log2(1.f) > 1 - d (TF = floor((2^(1-d) - 1) 2^23) + 1)")
      || sv_log2_table ("TC", 1, "ceil: f < TC iff log2(1.f) < d (TC = floor((2^d - 1) 2^23) + 1)"))
    return 1;
  sv_table ("SIGNBIT", 8, n, f_signbit, "the sign bit of the code (INT: the two's-complement top bit)");
  sv_table ("IS_INT", 1, n, f_int, "two's complement integer");
  sv_table ("IS_IEEE", 1, n, f_ieee, "Inf and NaN in the all-ones exponent (E5M2)");
  sv_table ("IS_FN", 1, n, f_fn, "only the all-ones magnitude is NaN (E4M3)");
  printf ("\n");
  for (int i = 0; i < MX_ROUNDING_COUNT; i++)
    {
      char u[32];
      upper (u, mx_rounding_name ((mx_rounding) i));
      printf ("localparam int MX_RND_%s = %d;\n", u, i);
    }
  int w = 1;
  while ((1 << w) < MX_ROUNDING_COUNT)
    w++;
  printf ("localparam int MX_RND_W = %d; // bits of a rounding-mode input\n", w);
  printf ("\n");
  for (int i = 0; i < MX_ACCUM_COUNT; i++)
    {
      char u[32];
      upper (u, mx_accum_name ((mx_accum) i));
      printf ("localparam int MX_ACCUM_%s = %d;\n", u, i);
    }
  w = 1;
  while ((1 << w) < MX_ACCUM_COUNT)
    w++;
  printf ("localparam int MX_ACCUM_W = %d; // bits of an accumulation-model input\n", w);
  printf ("\n");
  const mx_policy_field_desc *rules = mx_policy_field_get (MX_POLICY_SCALE_RULE);
  for (int i = 0; i < rules->nvalues; i++)
    {
      char u[32];
      upper (u, rules->values[i]);
      printf ("localparam int MX_SCALE_%s = %d;\n", u, i);
    }
  /* the other policy fields' values (MX_<FIELD>_<VALUE>) and widths (MX_<FIELD>_W) */
  for (int f = 0; f < MX_POLICY_FIELD_COUNT; f++)
    {
      const mx_policy_field_desc *d = mx_policy_field_get ((mx_policy_field) f);
      char uf[40], u[40];
      if (f == MX_POLICY_SCALE_RULE)
        continue;
      upper (uf, d->name);
      printf ("\n");
      for (int i = 0; i < d->nvalues; i++)
        {
          upper (u, d->values[i]);
          printf ("localparam int MX_%s_%s = %d;\n", uf, u, i);
        }
      printf ("localparam int MX_%s_W = %d;\n", uf, mx_qpol_width ((mx_policy_field) f));
    }
  printf ("\n// mx_quantize's policy word pol_i (sim/qpol.h): field F in bits [MX_QPOL_F +: MX_F_W]\n");
  for (int i = 0; i < MX_QPOL_COUNT; i++)
    {
      char u[40];
      upper (u, mx_policy_field_get (mx_qpol_fields[i])->name);
      printf ("localparam int MX_QPOL_%s = %d;\n", u, mx_qpol_lsb (i));
    }
  printf ("localparam int MX_QPOL_W = %d;\n", mx_qpol_bits ());
  printf ("\n// flags (golden/include/mx.h MX_FLAG_*)\n"
          "localparam logic [7:0] MX_FLAG_INEXACT = 8'h%02X, MX_FLAG_UNDERFLOW = 8'h%02X, "
          "MX_FLAG_OVERFLOW = 8'h%02X;\n"
          "localparam logic [7:0] MX_FLAG_INVALID = 8'h%02X, MX_FLAG_SCALE_CLAMPED = 8'h%02X;\n",
          MX_FLAG_INEXACT, MX_FLAG_UNDERFLOW, MX_FLAG_OVERFLOW, MX_FLAG_INVALID,
          MX_FLAG_SCALE_CLAMPED);
  printf ("\n// shared-microexponent formats (golden/include/mx/mxs.def): k1 elements per E8M0 block\n"
          "// exponent, k2 per d2-bit shift, sign + m-bit magnitude elements\n");
  for (int i = 0; i < MX_MXS_COUNT; i++)
    {
      const mx_mxs_desc *d = mx_mxs_get ((mx_mxs_format) i);
      char u[32];
      upper (u, d->name);
      printf ("localparam int MX_MXS_%s = %d;\n", u, i);
      printf ("localparam int MX_%s_K1 = %u, MX_%s_K2 = %u, MX_%s_D2 = %u, MX_%s_M = %u;\n", u,
              d->k1, u, d->k2, u, d->d2, u, d->mbits);
    }
  return 0;
}

/* A Python string literal (the tables hold no quotes or backslashes that need more). */
static void
pystr (const char *s)
{
  putchar ('"');
  for (; *s; s++)
    printf (*s == '"' || *s == '\\' ? "\\%c" : "%c", *s);
  putchar ('"');
}

static int
emit_py (void)
{
  printf ("# _names.py -- GENERATED by mxgold-derive from golden/include/mx/*.def; do not edit.\n"
          "\"\"\"The names of libmxgold's tables: formats, roundings, policy fields, profiles,\n"
          "accumulation models, tensor-core presets, packings and shared-microexponent "
          "formats.\"\"\"\n\n");
  printf ("FORMATS = {\n");
  for (int i = 0; i < MX_FORMAT_COUNT; i++)
    {
      static const char *roles[] = { "element", "scale", "ieee" };
      const mx_format *f = mx_format_get ((mx_format_id) i);
      printf ("    \"%s\": dict(id=%d, alias=\"%s\", role=\"%s\", bits=%u, sign=%u, ebits=%u, "
              "mbits=%u, bias=%d, special=\"%s\", emin=%d, emax=%d, max_mag=0x%llX),\n",
              f->name, i, f->alias, roles[f->role], f->bits, f->sign, f->ebits, f->mbits, f->bias,
              special_names[f->special], f->emin, f->emax, (unsigned long long) f->max_mag);
    }
  printf ("}\n\nROUNDINGS = [");
  for (int i = 0; i < MX_ROUNDING_COUNT; i++)
    printf ("%s\"%s\"", i ? ", " : "", mx_rounding_name ((mx_rounding) i));
  printf ("]\n\n# field: (values, OCP default, doc); a number field has values = (lo, hi, base)\n"
          "POLICY_FIELDS = {\n");
  for (int f = 0; f < MX_POLICY_FIELD_COUNT; f++)
    {
      const mx_policy_field_desc *d = mx_policy_field_get ((mx_policy_field) f);
      printf ("    \"%s\": (", d->name);
      if (d->nvalues)
        {
          printf ("[");
          for (int v = 0; v < d->nvalues; v++)
            printf ("%s\"%s\"", v ? ", " : "", d->values[v]);
          printf ("], \"%s\", ", d->values[d->ocp]);
        }
      else
        printf ("(%ld, %ld, %d), %ld, ", d->lo, d->hi, d->base, d->ocp);
      pystr (d->doc);
      printf ("),\n");
    }
  printf ("}\n\nPROFILES = [");
  for (int i = 0; i < MX_PROFILE_COUNT; i++)
    printf ("%s\"%s\"", i ? ", " : "", mx_profile_name ((mx_profile_id) i));
  printf ("]\n\nACCUMS = [");
  for (int i = 0; i < MX_ACCUM_COUNT; i++)
    printf ("%s\"%s\"", i ? ", " : "", mx_accum_name ((mx_accum) i));
  printf ("]\n\nTC_PRESETS = [");
  for (int i = 0; i < MX_TC_PRESET_COUNT; i++)
    printf ("%s\"%s\"", i ? ", " : "", mx_tc_preset_name ((mx_tc_preset) i));
  printf ("]\n\nPACKINGS = [");
  for (int i = 0; i < MX_PACKING_COUNT; i++)
    printf ("%s\"%s\"", i ? ", " : "", mx_packing_name ((mx_packing) i));
  printf ("]\n\n# mxs.def: k1 elements per E8M0 block exponent, k2 per d2-bit shift, sign + m-bit "
          "magnitude\nMXS_FORMATS = {\n");
  for (int i = 0; i < MX_MXS_COUNT; i++)
    {
      const mx_mxs_desc *d = mx_mxs_get ((mx_mxs_format) i);
      printf ("    \"%s\": dict(id=%d, aie=\"%s\", k1=%u, k2=%u, d2=%u, m=%u, doc=", d->name, i,
              d->aie, d->k1, d->k2, d->d2, d->mbits);
      pystr (d->doc);
      printf ("),\n");
    }
  printf ("}\n");
  return 0;
}

static int
emit_docs (void)
{
  mx_policy ocp = mx_policy_ocp ();
  char v[32];
  printf ("<!-- GENERATED by mxgold-derive docs from golden/include/mx/policies.def,\n"
          "     profiles.def and mxs.def; do not edit (CTest derived-docs fails on drift). -->\n"
          "# Policy fields and profiles\n\n"
          "Every choice that OCP MX v1.0 leaves open is a policy field. Each field is a CLI\n"
          "option `--NAME` and a `.mxv` header key `NAME:`, and the first value is the\n"
          "OCP-strict default. `docs/semantics.md` gives the full rules.\n\n"
          "| field | values (OCP default first) | decides |\n|---|---|---|\n");
  for (int f = 0; f < MX_POLICY_FIELD_COUNT; f++)
    {
      const mx_policy_field_desc *d = mx_policy_field_get ((mx_policy_field) f);
      printf ("| `%s` | ", d->name);
      if (d->nvalues)
        for (int i = 0; i < d->nvalues; i++)
          printf ("%s`%s` %s", i ? "; " : "", d->values[i], d->value_docs[i]);
      else
        {
          mx_policy_value_format (v, sizeof v, (mx_policy_field) f, d->ocp);
          printf ("%s %ld..%ld%s, default `%s`", d->base == 16 ? "hex" : "integer", d->lo, d->hi,
                  d->base == 16 ? " (written in hex)" : "", v);
        }
      printf (" | %s |\n", d->doc);
    }
  printf ("\n## Profiles\n\nEach profile is an element rounding plus the fields where it differs "
          "from `ocp`.\nSources and limits: `docs/profiles.md`.\n\n"
          "| profile | rounding | differs from ocp in | reproduces | source | proven by a run |\n"
          "|---|---|---|---|---|---|\n");
  static const char *const proof[] = { "no", "yes", "(the spec)" };
  for (int p = 0; p < MX_PROFILE_COUNT; p++)
    {
      mx_policy pol;
      mx_rounding r;
      int any = 0;
      mx_profile_get (&pol, &r, (mx_profile_id) p);
      printf ("| `%s` | `%s` | ", mx_profile_name ((mx_profile_id) p), mx_rounding_name (r));
      for (int f = 0; f < MX_POLICY_FIELD_COUNT; f++)
        if (mx_policy_get (&pol, (mx_policy_field) f) != mx_policy_get (&ocp, (mx_policy_field) f))
          {
            mx_policy_value_format (v, sizeof v, (mx_policy_field) f,
                                    mx_policy_get (&pol, (mx_policy_field) f));
            printf ("%s`%s=%s`", any++ ? " " : "", mx_policy_field_get ((mx_policy_field) f)->name, v);
          }
      printf ("%s | %s | %s | %s |\n", any ? "" : "—", mx_profile_doc ((mx_profile_id) p),
              mx_profile_source ((mx_profile_id) p),
              proof[mx_profile_proven ((mx_profile_id) p)]);
    }
  printf ("\n## Shared-microexponent formats\n\n"
          "MX9, MX6 and MX4 (`golden/include/mx/mxs.def`; docs/semantics.md section 5b): k1\n"
          "elements share an E8M0 block exponent, each k2 of them a d2-bit shift, and each element\n"
          "is a sign and an m-bit magnitude. They take the policy fields `nan-block`, `inf-block`\n"
          "(`nan`, `sat` or `zero`), `subnormals`, `zero-sign`, `nan-elem`, `scale-overflow`,\n"
          "`wide-input`, `scale-min` and `zero-scale`, and refuse `sr` and the fields that choose\n"
          "or bump a scale.\n\n"
          "| format | AIE-ML v2 type | k1 | k2 | d2 | m | bits per element | what |\n"
          "|---|---|---|---|---|---|---|---|\n");
  for (int i = 0; i < MX_MXS_COUNT; i++)
    {
      const mx_mxs_desc *d = mx_mxs_get ((mx_mxs_format) i);
      /* (8 + (k1/k2) d2) / k1 + m + 1: the E8M0 exponent and the shifts spread over the block */
      unsigned num = 8 + d->k1 / d->k2 * d->d2 + (d->mbits + 1) * d->k1;
      printf ("| `%s` | `%s` | %u | %u | %u | %u | ", d->name, d->aie, d->k1, d->k2, d->d2,
              d->mbits);
      if (num % d->k1)
        printf ("%u/%u", num, d->k1);
      else
        printf ("%u", num / d->k1);
      printf (" | %s |\n", d->doc);
    }
  return 0;
}

int
main (int argc, char **argv)
{
  if (argc == 2 && strcmp (argv[1], "sv") == 0)
    return emit_sv ();
  if (argc == 2 && strcmp (argv[1], "py") == 0)
    return emit_py ();
  if (argc == 2 && strcmp (argv[1], "docs") == 0)
    return emit_docs ();
  fprintf (stderr, "usage: mxgold-derive sv|py|docs\n");
  return 2;
}
