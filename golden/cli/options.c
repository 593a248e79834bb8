/* options.c -- the one table of mxgold's options, the parser built from it for each command, the
 * --help and man page text generated from it, and the typed, checked option values.
 * SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

/* What an option's help line lists after its text. */
typedef enum
{
  V_NONE, V_ELEM, V_IEEE, V_SCALE, V_ANY_FORMAT, V_ROUNDING, V_PROFILE, V_ACCUM, V_PRESET,
  V_PACKING, V_EMIT, V_OP, V_TC_ALIGN, V_POLICY
} values;

typedef struct
{
  int id;
  const char *name;
  int short_name;
  const char *arg;       /* metavar, NULL for a flag */
  const char *help;
  values list;
  const char *def;       /* the default, marked with '*' (NULL: none to mark) */
} opt;

static const opt table[] = {
  { O_HELP, "help", 'h', NULL, "print this help and exit", V_NONE, NULL },
  { O_HELP_MAN, "help-man", 0, NULL, "print this help as a man page (roff) and exit", V_NONE, NULL },
  { O_FORMAT, "format", 0, "F", "element format (OCP names mxfp8_e4m3 ... mxint8 also work)", V_ELEM, NULL },
  { O_FORMAT_B, "format-b", 0, "G", "B's element format, *the same as --format (--format-a)", V_ELEM, NULL },
  { O_BLOCK, "block", 0, "K", "block size, 1..4096", V_NONE, "32" },
  { O_INPUT, "input", 0, "T", "input format", V_IEEE, "fp32" },
  { O_OUTPUT_FORMAT, "output-format", 0, "T", "output format", V_IEEE, "fp32" },
  { O_SCALE_FORMAT, "scale-format", 0, "S", "scale format; eKmM: unsigned, K 2..15 exponent bits, M 0..7 mantissa bits (M > 0, as ue4m3: a linear scale, --scale-round)", V_SCALE, "e8m0" },
  { O_TO, "to", 0, "F", "target format; the source is then fp32", V_ANY_FORMAT, NULL },
  { O_FROM, "from", 0, "F", "source format; the target is then fp32", V_ANY_FORMAT, NULL },
  { O_PROFILE, "profile", 0, "P", "start from a named profile (mxgold profiles); the options below override it", V_PROFILE, "ocp" },
  { O_ROUNDING, "rounding", 0, "R", "element rounding (dot: output rounding)", V_ROUNDING, "rne" },
  { O_RANDOM_BITS, "random-bits", 0, "H[,H...]", "sr random words (hex, at most 32 bits): one for all elements, or one per element", V_NONE, NULL },
  { O_FLAGS, "flags", 0, NULL, "append the flags: 2 hex digits, 01 inexact 02 underflow 04 overflow 10 invalid 20 scale-clamped", V_NONE, NULL },
  { O_ACCUM, "accum", 0, "A", "accumulation model (docs/semantics.md section 7)", V_ACCUM, "exact" },
  { O_BLOCKS, "blocks", 0, "N", "block pairs per dot product, 1..64 (blocks x block <= 4096)", V_NONE, "1" },
  { O_GROUP, "group", 0, "G", "fused-group: products per group, 1..--block, dividing it (MXDOTP: 8, 16 for FP4)", V_NONE, NULL },
  { O_TC_PRESET, "tc-preset", 0, "P", "tensor-core model preset", V_PRESET, "h100-fp8" },
  { O_TC_GROUP, "tc-group", 0, "G", "tensor-core products per fused group, 1..4096", V_NONE, NULL },
  { O_TC_FRAC, "tc-frac-bits", 0, "F", "tensor-core fraction bits kept after alignment, 0..60", V_NONE, NULL },
  { O_TC_ALIGN, "tc-align", 0, "R", "tensor-core rounding of the aligned terms", V_TC_ALIGN, NULL },
  { O_TC_OUT, "tc-out", 0, "R", "tensor-core rounding of each group result (a deterministic mode)", V_NONE, NULL },
  { O_TC_CIN, "tc-cin", 0, "0|1", "tensor-core: 1 if the accumulator takes part in each group's alignment", V_NONE, NULL },
  { O_TC_SP, "tc-scale-point", 0, "P", "tensor-core: block scales applied to each product or to each group sum: product group", V_NONE, NULL },
  { O_TC_DENORM, "tc-denorm-products", 0, "0|1", "tensor-core: 1 if products align by e_a + e_b, unnormalized", V_NONE, NULL },
  { O_GEMM_M, "gemm-m", 0, "M", "gemm: rows of A and C, 1..4096", V_NONE, "2" },
  { O_GEMM_N, "gemm-n", 0, "N", "gemm: columns of B and C, 1..4096", V_NONE, "2" },
  { O_GEMM_K, "gemm-k", 0, "K", "gemm: the contracted dimension, a multiple of --block", V_NONE, "64" },
  { O_OP, "op", 0, "OP", "the operation of the vectors", V_OP, NULL },
  { O_LEVEL, "level", 0, "L", "structured cases: 1 or 2 (more exponents and patterns)", V_NONE, "1" },
  { O_NRANDOM, "random", 'n', "N", "seeded random cases after the structured ones", V_NONE, "0" },
  { O_EXHAUSTIVE, "exhaustive", 0, NULL, "every input (cast: 16-bit inputs; dot: every element pair; dequantize: every scale)", V_NONE, NULL },
  { O_SEED, "seed", 0, "S", "seed of the random cases (SplitMix64; docs/vectors.md)", V_NONE, "1" },
  { O_EMIT, "emit", 0, "E", "output form (docs/vectors.md \"Export forms\")", V_EMIT, "mxv" },
  { O_PACKING, "packing", 0, "P", "element packing (quantize and dequantize vectors)", V_PACKING, "unpacked" },
  { O_QUIET, "quiet", 0, NULL, "no progress on stderr", V_NONE, NULL },
  { O_OUTPUT, "output", 'o', "FILE", "write to FILE, replaced only when complete (- : stdout)", V_NONE, "stdout" },
  { O_VECTORS, "vectors", 0, "F", "the vectors (with expected outputs)", V_NONE, NULL },
  { O_RESULTS, "results", 0, "R", "the observed outputs: full lines or outputs only, one per case", V_NONE, NULL },
  { O_ERRORS, "errors", 0, "N", "report at most N mismatches in full (0: all)", V_NONE, "20" },
  { O_CHECK_NANS, "check-nans", 0, NULL, "NaN payloads and signs must match too", V_NONE, NULL },
  { O_CHECK_ZERO_SIGN, "check-zero-sign", 0, NULL, "the sign of zero must match too", V_NONE, NULL },
  { O_IGNORE_FLAGS, "ignore-flags", 0, NULL, "do not compare the flags", V_NONE, NULL },
  { O_STRICT, "strict", 0, NULL, "every bit counts, element codes under a NaN scale included", V_NONE, NULL },
  { O_COLS, "cols", 0, "N", "values per line (one tensor row), a multiple of 16, 16..4096 (gen --op nvfp4: the tensor's columns)", V_NONE, "16" },
  { O_ROWS, "rows", 0, "N", "gen --op nvfp4: rows of the tensor (rows x cols <= 4096)", V_NONE, "16" },
  { O_TILE, "tile", 0, "1d|2d", "gen --op nvfp4: one scale per 1x16 block (1d) or per 16x16 tile (2d)", V_NONE, "1d" },
  { O_AMAX, "amax", 0, "tensor|given", "gen --op nvfp4: the amax computed from each tensor, or given with each case (a calibrated amax)", V_NONE, "tensor" },
  { O_MXS_FORMAT, "mxs-format", 0, "F", "gen --op mxs: the shared-microexponent format: mx9 mx6 mx4", V_NONE, "mx9" },
};
#define NTABLE (sizeof table / sizeof table[0])

/* Old spellings, kept for one release with a warning. */
static const struct
{
  const char *name;
  int id;
} aliases[] = {
  { "format-a", O_FORMAT }, /* not deprecated: dot and gemm name their two formats A and B */
  { "output-file", O_OUTPUT }, { "out", O_OUTPUT_FORMAT }, { "m", O_GEMM_M }, { "n", O_GEMM_N },
  { "kdim", O_GEMM_K },
};
#define NALIASES (sizeof aliases / sizeof aliases[0])

/* An option of the table or a policy field, by id. */
static opt
lookup (int id)
{
  if (id > O_POLICY)
    {
      const mx_policy_field_desc *d = mx_policy_field_get ((mx_policy_field) (id - O_FIELD (0)));
      opt o = { id, d->name, 0, d->nvalues ? "V" : d->base == 16 ? "HEX" : "N", d->doc, V_POLICY,
                NULL };
      return o;
    }
  for (size_t i = 0; i < NTABLE; i++)
    if (table[i].id == id)
      return table[i];
  opt none = { 0, "?", 0, NULL, "", V_NONE, NULL };
  return none;
}

static int
takes (const cli_command *c, int id)
{
  if (id == O_HELP || id == O_HELP_MAN)
    return 1;
  for (const int *p = c->options; *p; p++)
    if (*p == id || (*p == O_POLICY && id > O_POLICY))
      return 1;
  return 0;
}

/*------------------------------------------------------------ error exit -*/
_Noreturn void
cli_usage_error (const cli_args *a, const char *fmt, ...)
{
  va_list ap;
  fflush (stdout);
  fprintf (stderr, "mxgold %s: ", a->cmd);
  va_start (ap, fmt);
  vfprintf (stderr, fmt, ap);
  va_end (ap);
  fprintf (stderr, "\n(try 'mxgold %s --help')\n", a->cmd);
  exit (2);
}

/*------------------------------------------------------------------ help -*/
/* The values an option lists, '*' before the default, into buf. */
static void
value_list (const opt *o, char *buf, size_t n)
{
  size_t len = 0;
  buf[0] = 0;
#define ADD(name_)                                                                            \
  do                                                                                          \
    {                                                                                         \
      const char *nm_ = (name_);                                                              \
      int star_ = o->def && strcmp (o->def, nm_) == 0;                                        \
      int w_ = snprintf (buf + len, n - len, "%s%s%s", len ? " " : "", star_ ? "*" : "", nm_); \
      if (w_ > 0 && (size_t) w_ < n - len)                                                    \
        len += (size_t) w_;                                                                   \
    }                                                                                         \
  while (0)
  switch (o->list)
    {
    case V_ELEM: case V_IEEE: case V_SCALE: case V_ANY_FORMAT:
      for (int i = 0; i < MX_FORMAT_COUNT; i++)
        {
          const mx_format *f = mx_format_get ((mx_format_id) i);
          int want = o->list == V_ANY_FORMAT || (o->list == V_ELEM && f->role == MX_ROLE_ELEM)
                     || (o->list == V_IEEE && f->role == MX_ROLE_IEEE)
                     || (o->list == V_SCALE && f->role == MX_ROLE_SCALE);
          if (want)
            ADD (f->name);
        }
      if (o->list == V_SCALE)
        ADD ("eKmM");
      break;
    case V_ROUNDING:
      for (int i = 0; i < MX_ROUNDING_COUNT; i++)
        ADD (mx_rounding_name ((mx_rounding) i));
      break;
    case V_TC_ALIGN:
      ADD ("rtz");
      ADD ("rdn");
      ADD ("rne");
      break;
    case V_PROFILE:
      for (int i = 0; i < MX_PROFILE_COUNT; i++)
        ADD (mx_profile_name ((mx_profile_id) i));
      break;
    case V_ACCUM:
      for (int i = 0; i < MX_ACCUM_COUNT; i++)
        ADD (mx_accum_name ((mx_accum) i));
      break;
    case V_PRESET:
      for (int i = 0; i < MX_TC_PRESET_COUNT; i++)
        ADD (mx_tc_preset_name ((mx_tc_preset) i));
      break;
    case V_PACKING:
      for (int i = 0; i < MX_PACKING_COUNT; i++)
        ADD (mx_packing_name ((mx_packing) i));
      break;
    case V_EMIT:
      for (int i = 0; i < MXV_EMIT_COUNT; i++)
        ADD (mxv_emit_names[i]);
      break;
    case V_OP:
      for (int i = 0; i < MXV_OP_COUNT; i++)
        ADD (mxv_op_names[i]);
      break;
    case V_POLICY:
      {
        mx_policy_field f = (mx_policy_field) (o->id - O_FIELD (0));
        const mx_policy_field_desc *d = mx_policy_field_get (f);
        char def[32];
        mx_policy_value_format (def, sizeof def, f, d->ocp);
        opt od = *o;
        od.def = def;
        o = &od;
        if (d->nvalues)
          for (int i = 0; i < d->nvalues; i++)
            ADD (d->values[i]);
        else
          {
            char r[64];
            snprintf (r, sizeof r, d->base == 16 ? "%02lX..%02lX (hex)" : "%ld..%ld", d->lo, d->hi);
            ADD (r);
            ADD (def);
          }
        break;
      }
    default:
      if (o->def)
        ADD (o->def);
      break;
    }
#undef ADD
}

/* The option's left column: "-o, --output FILE". */
static void
left (const opt *o, char *buf, size_t n)
{
  if (o->short_name)
    snprintf (buf, n, "-%c, --%s%s%s", o->short_name, o->name, o->arg ? " " : "", o->arg ? o->arg : "");
  else
    snprintf (buf, n, "    --%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
}

static void
help_line (const opt *o, FILE *out)
{
  char l[64], vals[1024];
  left (o, l, sizeof l);
  value_list (o, vals, sizeof vals);
  fprintf (out, "  %-26s %s%s%s\n", l, o->help, vals[0] ? ": " : "", vals);
}

/* The policy fields c takes: all of them (O_POLICY listed), or those listed one by one. */
static int
takes_field (const cli_command *c, int f)
{
  for (const int *p = c->options; *p; p++)
    if (*p == O_POLICY || *p == O_FIELD (f))
      return 1;
  return 0;
}

void
cli_help (const cli_command *c, FILE *o)
{
  int policy = 0;
  fprintf (o, "Usage: mxgold %s %s\n%s\n\nOptions ('*' marks a default):\n", c->name, c->usage,
           c->summary);
  for (const int *p = c->options; *p; p++)
    if (*p < O_POLICY)
      {
        opt x = lookup (*p);
        help_line (&x, o);
      }
  for (int f = 0; f < MX_POLICY_FIELD_COUNT; f++)
    if (takes_field (c, f))
      {
        if (!policy++)
          fprintf (o, "\nPolicy fields (over --profile; the choices OCP MX v1.0 leaves open, "
                      "docs/semantics.md):\n");
        opt x = lookup (O_FIELD (f));
        help_line (&x, o);
      }
  fprintf (o, "\n");
  opt h = lookup (O_HELP);
  help_line (&h, o);
  if (c->details)
    fprintf (o, "\n%s\n", c->details);
}

/* roff-escape s: backslashes and leading dots/quotes, '-' as \- */
static void
roff (FILE *o, const char *s)
{
  for (const char *p = s; *p; p++)
    {
      if (*p == '\\')
        fputs ("\\e", o);
      else if (*p == '-')
        fputs ("\\-", o);
      else if ((*p == '.' || *p == '\'') && (p == s || p[-1] == '\n'))
        fprintf (o, "\\&%c", *p);
      else
        fputc (*p, o);
    }
}

void
cli_man (const cli_command *c, FILE *o)
{
  fprintf (o, ".TH MXGOLD-%s 1 \"\" \"mxgold %s\" \"mxgold manual\"\n.SH NAME\nmxgold\\-%s \\- ",
           c->name, mx_version (), c->name);
  roff (o, c->summary);
  fprintf (o, "\n.SH SYNOPSIS\n.B mxgold %s\n", c->name);
  roff (o, c->usage);
  fprintf (o, "\n.SH OPTIONS\nA '*' marks a default.\n");
  for (int id = 1; id < O_COUNT; id++)
    if (id != O_POLICY && (id > O_POLICY ? takes_field (c, id - O_FIELD (0)) : takes (c, id)))
      {
        opt x = lookup (id);
        char l[64], vals[1024];
        left (&x, l, sizeof l);
        value_list (&x, vals, sizeof vals);
        fprintf (o, ".TP\n.B ");
        roff (o, l[0] == ' ' ? l + 4 : l);
        fprintf (o, "\n");
        roff (o, x.help);
        if (vals[0])
          fprintf (o, ": "), roff (o, vals);
        fprintf (o, "\n");
      }
  if (c->details)
    {
      fprintf (o, ".SH DESCRIPTION\n");
      for (const char *p = c->details; *p;)
        {
          const char *e = strstr (p, "\n\n");
          size_t n = e ? (size_t) (e - p) : strlen (p);
          char *para = strndup (p, n);
          fprintf (o, ".PP\n");
          if (para)
            roff (o, para);
          free (para);
          fprintf (o, "\n");
          p += n;
          while (*p == '\n')
            p++;
        }
    }
  fprintf (o, ".SH SEE ALSO\nmxgold(1), docs/semantics.md, docs/vectors.md\n");
}

/*----------------------------------------------------------------- parse -*/
/* getopt_long values: short options are their character, deprecated aliases ALIAS_ID + index,
 * every other long option LONG_ID + its id (ids grow with policies.def past '?' and ':') */
enum { ALIAS_ID = 1000, LONG_ID = 2000 };

void
cli_parse (const cli_command *c, int argc, char **argv, cli_args *a)
{
  struct option lo[NTABLE + NALIASES + MX_POLICY_FIELD_COUNT + 1];
  char shorts[16] = ":"; /* ':' first: a missing argument is reported as ':' */
  size_t n = 0, ns = 1;
  memset (a, 0, sizeof *a);
  a->cmd = c->name;
  a->argc = argc;
  /* the command line as typed: getopt_long permutes argv */
  static char *typed[4096];
  if (argc >= (int) (sizeof typed / sizeof typed[0]))
    cli_usage_error (a, "too many arguments");
  memcpy (typed, argv, (size_t) argc * sizeof *argv);
  typed[argc] = NULL;
  a->argv = typed;
  for (int id = 1; id < O_COUNT; id++)
    if (id != O_POLICY && (id > O_POLICY ? takes_field (c, id - O_FIELD (0)) : takes (c, id)))
      {
        opt x = lookup (id);
        /* long options return LONG_ID + id: never a character getopt_long itself returns */
        lo[n++] = (struct option) { x.name, x.arg ? required_argument : no_argument, NULL,
                                    LONG_ID + id };
        if (x.short_name && ns + 2 < sizeof shorts)
          {
            shorts[ns++] = (char) x.short_name;
            if (x.arg)
              shorts[ns++] = ':';
          }
      }
  for (size_t i = 0; i < NALIASES; i++)
    if (takes (c, aliases[i].id))
      {
        opt x = lookup (aliases[i].id);
        lo[n++] = (struct option) { aliases[i].name, x.arg ? required_argument : no_argument,
                                    NULL, ALIAS_ID + (int) i };
      }
  lo[n] = (struct option) { NULL, 0, NULL, 0 };
  shorts[ns] = 0;

  optind = 0; /* glibc: a full reset, so that a process can parse more than one command line */
  opterr = 0;
  int r;
  while ((r = getopt_long (argc, argv, shorts, lo, NULL)) != -1)
    {
      int id = r >= LONG_ID ? r - LONG_ID : r;
      if (r == '?' || r == ':')
        {
          const char *bad = argv[optind - 1];
          char q[64];
          if (r == ':')
            cli_usage_error (a, "option '%s' needs an argument", mxv_quote (q, sizeof q, bad));
          if (strncmp (bad, "--", 2) == 0)
            cli_usage_error (a, "option '%s' is not an option of %s", mxv_quote (q, sizeof q, bad),
                             c->name);
          cli_usage_error (a, "option '-%c' is not an option of %s", optopt ? optopt : '?', c->name);
        }
      if (r < 256)
        for (size_t i = 0; i < NTABLE; i++)
          if (table[i].short_name == r)
            id = table[i].id;
      if (r >= ALIAS_ID && r < LONG_ID)
        {
          id = aliases[r - ALIAS_ID].id;
          if (id != O_FORMAT)
            fprintf (stderr, "mxgold %s: warning: --%s is deprecated, use --%s\n", c->name,
                     aliases[r - ALIAS_ID].name, lookup (id).name);
        }
      if (id == O_OUTPUT && takes (c, O_OUTPUT_FORMAT) && optarg
          && mx_format_by_name (optarg) != NULL && mx_format_by_name (optarg)->role == MX_ROLE_IEEE)
        {
          /* the old meaning of --output: a format; a file of that name needs -o ./NAME */
          fprintf (stderr, "mxgold %s: warning: --output %s is read as --output-format %s "
                           "(deprecated; --output now names the output file)\n", c->name, optarg,
                   optarg);
          id = O_OUTPUT_FORMAT;
        }
      if (id == O_HELP)
        {
          cli_help (c, stdout);
          exit (fflush (stdout) != 0 || ferror (stdout) ? 1 : 0);
        }
      if (id == O_HELP_MAN)
        {
          cli_man (c, stdout);
          exit (fflush (stdout) != 0 || ferror (stdout) ? 1 : 0);
        }
      a->v[id] = optarg ? optarg : "";
    }
  a->pos = argv + optind;
  a->npos = argc - optind;
  if (a->npos > c->max_pos)
    {
      char q[64];
      cli_usage_error (a, "unexpected argument '%s'", mxv_quote (q, sizeof q, a->pos[c->max_pos]));
    }
}

/*---------------------------------------------------------- typed values -*/
const mx_format *
cli_format (const cli_args *a, int id, unsigned roles, const char *def)
{
  const char *name = a->v[id] ? a->v[id] : def;
  char q[64];
  if (name == NULL)
    cli_usage_error (a, "needs --%s", lookup (id).name);
  const mx_format *f = mx_format_by_name (name);
  if (f == NULL || !(roles & ROLE (f->role)))
    {
      char vals[1024];
      opt x = lookup (id);
      x.def = NULL;
      value_list (&x, vals, sizeof vals);
      cli_usage_error (a, "--%s '%s' is not one of: %s", x.name, mxv_quote (q, sizeof q, name),
                       vals);
    }
  return f;
}

unsigned long long
cli_uint (const cli_args *a, int id, unsigned long long lo, unsigned long long hi,
          unsigned long long def)
{
  unsigned long long v;
  char q[64];
  if (a->v[id] == NULL)
    return def;
  if (mx_parse_uint (&v, a->v[id], 10, lo, hi) != MX_OK)
    cli_usage_error (a, "--%s wants an integer %llu..%llu, not '%s'", lookup (id).name, lo, hi,
                     mxv_quote (q, sizeof q, a->v[id]));
  return v;
}

void
cli_block_args (const cli_args *a, const mx_format **elem, const mx_format **sf, size_t *k)
{
  *elem = cli_format (a, O_FORMAT, ROLE (MX_ROLE_ELEM), NULL);
  *sf = cli_format (a, O_SCALE_FORMAT, ROLE (MX_ROLE_SCALE), "e8m0");
  *k = (size_t) cli_uint (a, O_BLOCK, 1, MXV_MAX_K, MX_BLOCK);
}

void
cli_policy (const cli_args *a, mx_policy *pol, mx_rounding *rnd)
{
  char q[64];
  int p = mx_profile_parse (a->v[O_PROFILE] ? a->v[O_PROFILE] : "ocp");
  if (p < 0)
    cli_usage_error (a, "unknown profile '%s' (see 'mxgold profiles')",
                     mxv_quote (q, sizeof q, a->v[O_PROFILE]));
  mx_profile_get (pol, rnd, (mx_profile_id) p);
  if (a->v[O_ROUNDING])
    {
      int r = mx_rounding_parse (a->v[O_ROUNDING]);
      if (r < 0)
        {
          char vals[256];
          opt x = lookup (O_ROUNDING);
          x.def = NULL;
          value_list (&x, vals, sizeof vals);
          cli_usage_error (a, "unknown rounding '%s' (%s)", mxv_quote (q, sizeof q, a->v[O_ROUNDING]), vals);
        }
      *rnd = (mx_rounding) r;
    }
  for (int f = 0; f < MX_POLICY_FIELD_COUNT; f++)
    {
      const char *s = a->v[O_FIELD (f)];
      long v;
      if (s == NULL)
        continue;
      if (mx_policy_value_parse (&v, (mx_policy_field) f, s) != MX_OK)
        {
          char vals[512];
          opt x = lookup (O_FIELD (f));
          const mx_policy_field_desc *d = mx_policy_field_get ((mx_policy_field) f);
          value_list (&x, vals, sizeof vals);
          if (d->nvalues)
            cli_usage_error (a, "unknown --%s value '%s' (%s)", d->name, mxv_quote (q, sizeof q, s), vals);
          cli_usage_error (a, "--%s wants a base-%d number in %s, not '%s'", d->name, d->base,
                           vals, mxv_quote (q, sizeof q, s));
        }
      mx_policy_set (pol, (mx_policy_field) f, v);
    }
}

void
cli_check_scale_codes (const cli_args *a, const mx_policy *pol, const mx_format *sf)
{
  if (pol->zero_scale > (1u << sf->bits) - 1)
    cli_usage_error (a, "--zero-scale %02X does not fit the %u-bit scale format %s (00..%02X)",
                     pol->zero_scale, sf->bits, sf->name, (1u << sf->bits) - 1);
  if (pol->scale_min > sf->max_mag)
    cli_usage_error (a, "--scale-min %02X is not a finite code of the scale format %s (00..%02llX)",
                     pol->scale_min, sf->name, (unsigned long long) sf->max_mag);
}

size_t
cli_random_bits (const cli_args *a, mx_rounding rnd, uint32_t *rbits, size_t n)
{
  const char *s = a->v[O_RANDOM_BITS];
  char q[64];
  size_t got = 0;
  if (s == NULL && rnd == MX_SR)
    cli_usage_error (a, "--rounding sr needs --random-bits H[,H...] (%s)",
                     n > 1 ? "one word for all elements, or one per element" : "one word");
  if (s != NULL && rnd != MX_SR)
    cli_usage_error (a, "--random-bits only goes with --rounding sr (rounding is %s)",
                     mx_rounding_name (rnd));
  if (s == NULL)
    return 0;
  char *copy = strdup (s), *save = NULL;
  if (copy == NULL)
    cli_usage_error (a, "out of memory");
  for (char *p = strtok_r (copy, ",", &save); p; p = strtok_r (NULL, ",", &save))
    {
      unsigned long long v;
      if (got == n || mx_parse_uint (&v, p, 16, 0, 0xFFFFFFFFull) != MX_OK)
        {
          if (got == n)
            cli_usage_error (a, "--random-bits: more than %zu words", n);
          cli_usage_error (a, "--random-bits wants hex words of at most 32 bits, not '%s'",
                           mxv_quote (q, sizeof q, p));
        }
      rbits[got++] = (uint32_t) v;
    }
  free (copy);
  if (got == 0)
    cli_usage_error (a, "--random-bits wants hex words of at most 32 bits, separated by commas; "
                        "got none");
  if (got != 1 && got != n)
    cli_usage_error (a, "--random-bits wants 1 or %zu words, got %zu", n, got);
  for (size_t i = got; i < n; i++)
    rbits[i] = rbits[0];
  return got;
}

mx_rounding
cli_det_rounding (const cli_args *a)
{
  char q[64];
  if (a->v[O_ROUNDING] == NULL)
    return MX_RNE;
  int r = mx_rounding_parse (a->v[O_ROUNDING]);
  if (r < 0 || r == MX_SR)
    cli_usage_error (a, "--rounding wants a deterministic mode (rne rna rnz rtz rup rdn rto), "
                        "not '%s'", mxv_quote (q, sizeof q, a->v[O_ROUNDING]));
  return (mx_rounding) r;
}

mx_dot_policy
cli_dot_policy (const cli_args *a)
{
  mx_dot_policy dp = mx_dot_policy_default ();
  char q[64];
  int x;
  if (a->v[O_ACCUM])
    {
      if ((x = mx_accum_parse (a->v[O_ACCUM])) < 0)
        cli_usage_error (a, "unknown --accum '%s' (exact block-fp32 tensor-core fused-group)",
                         mxv_quote (q, sizeof q, a->v[O_ACCUM]));
      dp.accum = (mx_accum) x;
    }
  if (a->v[O_TC_PRESET])
    {
      if ((x = mx_tc_preset_parse (a->v[O_TC_PRESET])) < 0)
        cli_usage_error (a, "unknown --tc-preset '%s' (see 'mxgold dot --help')",
                         mxv_quote (q, sizeof q, a->v[O_TC_PRESET]));
      mx_tc_model_preset (&dp.tc, (mx_tc_preset) x);
    }
  dp.tc.group = (unsigned) cli_uint (a, O_TC_GROUP, 1, MX_TC_GROUP_MAX, dp.tc.group);
  dp.tc.frac_bits = (int) cli_uint (a, O_TC_FRAC, 0, MX_TC_FRAC_BITS_MAX, (unsigned) dp.tc.frac_bits);
  if (a->v[O_TC_ALIGN])
    {
      x = mx_rounding_parse (a->v[O_TC_ALIGN]);
      if (x != MX_RTZ && x != MX_RDN && x != MX_RNE)
        cli_usage_error (a, "--tc-align is rtz, rdn or rne, not '%s'", mxv_quote (q, sizeof q, a->v[O_TC_ALIGN]));
      dp.tc.align = (mx_rounding) x;
    }
  if (a->v[O_TC_OUT])
    {
      x = mx_rounding_parse (a->v[O_TC_OUT]);
      if (x < 0 || x == MX_SR)
        cli_usage_error (a, "--tc-out wants a deterministic rounding, not '%s'", mxv_quote (q, sizeof q, a->v[O_TC_OUT]));
      dp.tc.out = (mx_rounding) x;
    }
  dp.tc.cin_in_group = (int) cli_uint (a, O_TC_CIN, 0, 1, (unsigned) dp.tc.cin_in_group);
  dp.tc.denorm_products = (int) cli_uint (a, O_TC_DENORM, 0, 1, (unsigned) dp.tc.denorm_products);
  if (a->v[O_TC_SP])
    {
      if (strcmp (a->v[O_TC_SP], "product") != 0 && strcmp (a->v[O_TC_SP], "group") != 0)
        cli_usage_error (a, "--tc-scale-point is product or group, not '%s'", mxv_quote (q, sizeof q, a->v[O_TC_SP]));
      dp.tc.scale_point = a->v[O_TC_SP][0] == 'g' ? MX_TC_SCALE_GROUP : MX_TC_SCALE_PRODUCT;
    }
  int tc_opt = 0;
  for (int id = O_TC_PRESET; id <= O_TC_DENORM; id++)
    tc_opt |= a->v[id] != NULL;
  if (tc_opt && dp.accum != MX_ACCUM_TENSOR_CORE)
    cli_usage_error (a, "the --tc-* options go with --accum tensor-core");
  dp.group = (size_t) cli_uint (a, O_GROUP, 1, MXV_MAX_K, 0);
  if (a->v[O_GROUP] && dp.accum != MX_ACCUM_FUSED_GROUP)
    cli_usage_error (a, "--group goes with --accum fused-group");
  if (dp.accum == MX_ACCUM_FUSED_GROUP && dp.group == 0)
    cli_usage_error (a, "--accum fused-group needs --group G, a divisor of --block "
                        "(MXDOTP: 8, 16 for FP4)");
  return dp;
}

void
cli_check_group (const cli_args *a, const mx_dot_policy *dp, size_t k)
{
  if (dp->accum == MX_ACCUM_FUSED_GROUP && (dp->group > k || k % dp->group))
    cli_usage_error (a, "--group %zu does not divide --block %zu (a group lies inside one block)",
                     dp->group, k);
}
