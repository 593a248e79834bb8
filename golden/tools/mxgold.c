/* mxgold -- command-line front end of libmxgold: quantize, dequantize and cast hex bit patterns.
 * The output format is a contract (README "CLI"); keep it stable.
 * SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "mx.h"
#include "mxv.h"

#define MAX_BLOCK 4096

static const char *prog = "mxgold";

static void
usage (FILE *o)
{
  fprintf (o,
"Usage: mxgold COMMAND [OPTIONS]   (reads stdin, writes stdout; '*' marks defaults)\n"
"\n"
"Commands:\n"
"  quantize    each line: K input bit patterns (hex) -> 'SS E0 E1 ... E(K-1)' (hex codes)\n"
"  dequantize  each line: 'SS E0 ... E(K-1)' -> K output bit patterns (hex)\n"
"  cast        each line: one bit pattern -> one code (--to F), or one code -> a value (--from F)\n"
"  formats     list the formats          profiles    list the named profiles\n"
"  dot         each line: n x 'SA A0..A(k-1) SB B0..B(k-1)' [CIN] -> the dot product (hex)\n"
"  gemm F      each case of a gemm .mxv file F (or -) -> its C values and flags (bare outputs)\n"
"  gen         write conformance vectors (.mxv, docs/vectors.md)\n"
"  verify      check observed results against vectors\n"
"\n"
"Options:\n"
"  --format F        element format: e4m3 e5m2 e2m3 e3m2 e2m1 int8 (or mxfp8_e4m3 ... mxint8)\n"
"  --block K         block size, *32\n"
"  --input T         quantize input: *fp32 bf16 fp16 fp64\n"
"  --output T        dequantize output: *fp32 bf16 fp16 fp64\n"
"  --scale-format S  *e8m0, ue4m3 (linear NVFP4-style scale)\n"
"  --profile P       start from a named profile, *ocp (see 'mxgold profiles'); options below override\n"
"  --rounding R      *rne rna rnz rtz rup rdn rto sr\n"
"  --scale-rule S    *floor ceil even rceil rceil-fp32 floor-log2f\n"
"  --overflow O      *sat ovf\n"
"  --nan-block P     *propagate ignore\n"
"  --inf-block P     *nan maxscale sat\n"
"  --zero-scale HEX  scale code of an all-zero block, *00\n"
"  --subnormals P    *keep flush      (input subnormals)\n"
"  --zero-sign P     *keep positive\n"
"  --int-range P     *sym full        (INT8: -127..127 or -128..127)\n"
"  --scale-overflow P *nan clamp\n"
"  --nan-elem P      *zero negzero max (NaN into FP6/FP4/INT8)\n"
"  --sr-bits R       random bits per element for sr, 1..32, *16\n"
"  --random-bits H[,H...]  sr random words: one for all elements, or one per element\n"
"  --to F / --from F cast target / source (the other side defaults to fp32)\n"
"  --flags           append the flags (2 hex digits: 01 inexact 02 underflow 04 overflow\n"
"                    10 invalid 20 scale clamped; per block for quantize)\n"
"  --help, --version\n"
"\n"
"dot:     --format-a F [--format-b G, *F] [--accum *exact|block-fp32|tensor-core] [--blocks n, *1]\n"
"         [--rounding R: output rounding] [--out *fp32|bf16|fp16] [--flags]\n"
"         [--tc-preset *h100-fp8|b200-fp8|mi300-fp8] [--tc-group G] [--tc-frac-bits F]\n"
"         [--tc-align rtz|rdn|rne] [--tc-out rtz|rne] [--tc-cin 0|1] [--tc-scale-point product|group]\n"
"gen:     --op quantize|cast|decode|dequantize|dot|gemm --format F [policy options] [--level *1|2]\n"
"         (dot, gemm: the dot options above; gemm: --m M --n N --kdim K, *2 2 64)\n"
"         [-n N random cases, *0] [--exhaustive] [--seed S, *1] [-o FILE] [--quiet]\n"
"         [--emit *mxv|bin|readmemh|jsonl] [--packing *unpacked|fp4-lo-first|fp4-j-j16|fp6-3byte]\n"
"verify:  verify --vectors F --results R  |  verify F  |  verify -   (F carries observed outputs)\n"
"         [--errors N, *20, 0 = all] [--check-nans] [--check-zero-sign] [--ignore-flags]\n"
"         [--strict: also codes under a NaN scale]; prints 'N passed, M failed'; exit 1 on mismatch\n"
"\n"
"Errors in the input print 'stdin:LINE: what was expected' and exit 2.\n"
"Semantics: docs/semantics.md.  Profiles: docs/profiles.md.\n");
}

static void
die_usage (const char *fmt, const char *arg)
{
  fprintf (stderr, "%s: ", prog);
  fprintf (stderr, fmt, arg);
  fprintf (stderr, "\n(try 'mxgold --help')\n");
  exit (2);
}

typedef struct
{
  const char *format, *input, *output, *scale_format, *to, *from, *format_b;
  mx_dot_policy dp;
  size_t nblocks, gm, gn, gk;
  size_t block;
  int flags;
  mx_policy pol;
  uint32_t rbits[MAX_BLOCK];
  size_t n_rbits;
} opts;

/* Parse one hex word (optional 0x) of at most 'bits' bits.  Returns 0 or -1. */
static int
parse_hex (const char *s, unsigned bits, uint64_t *v)
{
  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
    s += 2;
  size_t n = strlen (s);
  if (n == 0 || n > 16)
    return -1;
  uint64_t x = 0;
  for (size_t i = 0; i < n; i++)
    {
      int c = s[i], d;
      if (c >= '0' && c <= '9') d = c - '0';
      else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
      else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
      else return -1;
      x = x << 4 | (uint64_t) d;
    }
  if (bits < 64 && x >> bits)
    return -1;
  *v = x;
  return 0;
}

static const mx_format *
need_format (const char *name, const char *what)
{
  const mx_format *f = mx_format_by_name (name);
  if (f == NULL)
    {
      fprintf (stderr, "%s: unknown %s format '%s' (see 'mxgold formats')\n", prog, what, name);
      exit (2);
    }
  return f;
}

static const mx_format *
need_ieee (const char *name, const char *what)
{
  const mx_format *f = need_format (name, what);
  if (f->role != MX_ROLE_IEEE)
    {
      fprintf (stderr, "%s: %s must be one of fp32 bf16 fp16 fp64, not '%s'\n", prog, what, name);
      exit (2);
    }
  return f;
}

/* Split a line into whitespace-separated words (in place).  Returns the count (capped). */
static size_t
split (char *line, char **w, size_t max)
{
  size_t n = 0;
  for (char *p = strtok (line, " \t\r\n"); p; p = strtok (NULL, " \t\r\n"))
    {
      if (n < max)
        w[n] = p;
      n++;
    }
  return n;
}

/* Fixed field width in hex digits: at least 2 (element and scale codes are always 2 digits). */
static int
hexdigits (const mx_format *f)
{
  int d = (int) (f->bits + 3) / 4;
  return d < 2 ? 2 : d;
}

/* Read the words of every stdin line, check them, call fn; stop at the first bad line. */
typedef int (*line_fn) (const opts *, char **w, size_t n, unsigned long line);

static int
bad (unsigned long line, const char *fmt, ...) __attribute__ ((format (printf, 2, 3)));

static int
bad (unsigned long line, const char *fmt, ...)
{
  va_list ap;
  fflush (stdout);
  fprintf (stderr, "stdin:%lu: ", line);
  va_start (ap, fmt);
  vfprintf (stderr, fmt, ap);
  va_end (ap);
  fputc ('\n', stderr);
  return 2;
}

static int
parse_words (char **w, size_t n, const mx_format *f, uint64_t *out, unsigned long line,
             size_t first, const char *what)
{
  for (size_t i = 0; i < n; i++)
    if (parse_hex (w[i], f->bits, &out[i]) != 0)
      return bad (line, "word %zu '%s' is not a %s (hex, at most %d digits, < 2^%u)",
                  first + i + 1, w[i], what, hexdigits (f), f->bits);
  return 0;
}

static int
each_line (const opts *o, line_fn fn, size_t maxw)
{
  char *buf = NULL;
  size_t cap = 0;
  unsigned long line = 0;
  char **w = malloc (maxw * sizeof *w);
  int rc = 0;
  while (rc == 0 && getline (&buf, &cap, stdin) != -1)
    {
      line++;
      size_t n = split (buf, w, maxw);
      if (n == 0)
        {
          rc = bad (line, "empty line (expected hex words)");
          break;
        }
      if (w[0][0] == '#')
        continue;
      rc = fn (o, w, n, line);
    }
  free (buf);
  free (w);
  if (ferror (stdout) || fflush (stdout) != 0)
    {
      fprintf (stderr, "%s: write error: %s\n", prog, strerror (errno));
      return 1;
    }
  return rc;
}

/*--------------------------------------------------------------- quantize -*/
static int
quantize_line (const opts *o, char **w, size_t n, unsigned long line)
{
  const mx_format *elem = mx_format_by_name (o->format), *in = mx_format_by_name (o->input),
                  *sf = mx_format_by_name (o->scale_format);
  uint64_t bits[MAX_BLOCK], codes[MAX_BLOCK], scale;
  uint32_t rb[MAX_BLOCK];
  if (n != o->block)
    return bad (line, "expected %zu hex words (%s bit patterns, one block), got %zu", o->block,
                in->name, n);
  int rc = parse_words (w, n, in, bits, line, 0, "bit pattern");
  if (rc)
    return rc;
  for (size_t i = 0; i < o->block; i++)
    rb[i] = o->n_rbits == 1 ? o->rbits[0] : o->n_rbits ? o->rbits[i] : 0;
  unsigned f = mx_quantize (&scale, codes, NULL, elem, sf, in, bits, o->block,
                            o->pol.rounding == MX_SR ? rb : NULL, &o->pol);
  printf ("%0*llX", hexdigits (sf), (unsigned long long) scale);
  for (size_t i = 0; i < o->block; i++)
    printf (" %0*llX", hexdigits (elem), (unsigned long long) codes[i]);
  if (o->flags)
    printf (" %02X", f);
  putchar ('\n');
  return 0;
}

/*------------------------------------------------------------- dequantize -*/
static int
dequantize_line (const opts *o, char **w, size_t n, unsigned long line)
{
  const mx_format *elem = mx_format_by_name (o->format), *out = mx_format_by_name (o->output),
                  *sf = mx_format_by_name (o->scale_format);
  uint64_t codes[MAX_BLOCK], res[MAX_BLOCK], scale;
  if (n != o->block + 1)
    return bad (line, "expected 1 scale code and %zu element codes (hex), got %zu words",
                o->block, n);
  if (parse_hex (w[0], sf->bits, &scale) != 0)
    return bad (line, "word 1 '%s' is not a %s scale code (hex, < 2^%u)", w[0], sf->name, sf->bits);
  int rc = parse_words (w + 1, n - 1, elem, codes, line, 1, "element code");
  if (rc)
    return rc;
  unsigned f = mx_dequantize (res, out, scale, codes, elem, sf, o->block, o->pol.rounding);
  for (size_t i = 0; i < o->block; i++)
    printf (i ? " %0*llX" : "%0*llX", hexdigits (out), (unsigned long long) res[i]);
  if (o->flags)
    printf (" %02X", f);
  putchar ('\n');
  return 0;
}

/*------------------------------------------------------------------- cast -*/
static int
cast_line (const opts *o, char **w, size_t n, unsigned long line)
{
  const mx_format *from = mx_format_by_name (o->from), *to = mx_format_by_name (o->to);
  uint64_t x;
  unsigned f;
  if (n != 1)
    return bad (line, "expected one hex word (a %s bit pattern), got %zu", from->name, n);
  if (parse_hex (w[0], from->bits, &x) != 0)
    return bad (line, "'%s' is not a %s bit pattern (hex, at most %d digits, < 2^%u)", w[0],
                from->name, hexdigits (from), from->bits);
  uint64_t r = mx_cast (to, from, x, o->pol.rounding, o->n_rbits ? o->rbits[0] : 0, &o->pol, &f);
  printf ("%0*llX", hexdigits (to), (unsigned long long) r);
  if (o->flags)
    printf (" %02X", f);
  putchar ('\n');
  return 0;
}

/*---------------------------------------------------------------- listing -*/
static int
list_formats (void)
{
  static const char *roles[] = { "element", "scale", "ieee" };
  static const char *specials[] = { "inf+nan", "nan-only", "finite", "integer", "pow2+nan" };
  printf ("%-6s %-12s %-8s %4s %4s %5s %5s %5s %5s  %-9s %s\n", "name", "alias", "role", "bits",
          "sign", "ebits", "mbits", "bias", "emax", "specials", "max");
  for (int i = 0; i < MX_FORMAT_COUNT; i++)
    {
      const mx_format *f = mx_format_get ((mx_format_id) i);
      mpfr_t m;
      mpfr_init2 (m, 64);
      mx_decode (m, f, f->max_mag);
      printf ("%-6s %-12s %-8s %4u %4u %5u %5u %5d %5d  %-9s ", f->name, f->alias, roles[f->role],
              f->bits, f->sign, f->ebits, f->mbits, f->bias, f->emax, specials[f->special]);
      mpfr_printf ("%.10Rg\n", m);
      mpfr_clear (m);
    }
  return 0;
}

static int
list_profiles (void)
{
  for (int i = 0; i < MX_PROFILE_COUNT; i++)
    {
      mx_policy p;
      mx_policy_profile (&p, (mx_profile_id) i);
      printf ("%-14s rounding=%s scale-rule=%s overflow=%s nan-block=%s inf-block=%s "
              "zero-scale=%02X subnormals=%s zero-sign=%s int-range=%s scale-overflow=%s "
              "nan-elem=%s\n    %s\n",
              mx_profile_name ((mx_profile_id) i), mx_rounding_name (p.rounding),
              mx_scale_rule_name (p.scale_rule), mx_policy_value_name ("overflow", p.overflow),
              mx_policy_value_name ("nan-block", p.nan_block),
              mx_policy_value_name ("inf-block", p.inf_block), (unsigned) p.zero_scale,
              mx_policy_value_name ("subnormals", p.subnormals),
              mx_policy_value_name ("zero-sign", p.zero_sign),
              mx_policy_value_name ("int-range", p.int_range),
              mx_policy_value_name ("scale-overflow", p.scale_overflow),
              mx_policy_value_name ("nan-elem", p.nan_elem),
              mx_profile_description ((mx_profile_id) i));
    }
  return 0;
}



/*-------------------------------------------------------------------- dot -*/
static const mx_format *
need_elem (const char *name)
{
  const mx_format *f = need_format (name, "element");
  if (f->role != MX_ROLE_ELEM)
    die_usage ("'%s' is not an element format", name);
  return f;
}

/* The dot/gemm options (indexed from O_ACCUM) into o->dp, o->nblocks and the gemm shape. */
static int
parse_dot_options (opts *o, const char **v, const char *rounding)
{
  enum { ACC, BLK, PRE, GRP, FRAC, ALIGN, OUT, CIN, SP, GM, GN, GK };
  char *end;
  int x;
  o->dp = mx_dot_policy_default ();
  o->nblocks = 1;
  o->gm = o->gn = 2;
  o->gk = 64;
  if (rounding && o->pol.rounding != MX_SR)
    o->dp.rounding = o->pol.rounding;
  if (v[ACC] && (x = mx_accum_parse (v[ACC])) < 0)
    die_usage ("unknown --accum '%s' (exact block-fp32 tensor-core)", v[ACC]);
  if (v[ACC])
    o->dp.accum = (mx_accum) x;
  if (v[PRE] && (x = mx_tc_preset_parse (v[PRE])) < 0)
    die_usage ("unknown --tc-preset '%s' (h100-fp8 b200-fp8 mi300-fp8)", v[PRE]);
  if (v[PRE])
    mx_tc_model_preset (&o->dp.tc, (mx_tc_preset) x);
  if (v[GRP] && ((o->dp.tc.group = (unsigned) strtoul (v[GRP], &end, 10)) < 1 || *end))
    die_usage ("--tc-group wants an integer >= 1, not '%s'", v[GRP]);
  if (v[FRAC] && ((o->dp.tc.frac_bits = (int) strtol (v[FRAC], &end, 10)) < 0 || *end || o->dp.tc.frac_bits > 60))
    die_usage ("--tc-frac-bits wants an integer 0..60, not '%s'", v[FRAC]);
  if (v[ALIGN])
    {
      x = mx_rounding_parse (v[ALIGN]);
      if (x != MX_RTZ && x != MX_RDN && x != MX_RNE)
        die_usage ("--tc-align is rtz, rdn or rne, not '%s'", v[ALIGN]);
      o->dp.tc.align = (mx_rounding) x;
    }
  if (v[OUT])
    {
      x = mx_rounding_parse (v[OUT]);
      if (x < 0 || x == MX_SR)
        die_usage ("--tc-out wants a deterministic rounding, not '%s'", v[OUT]);
      o->dp.tc.out = (mx_rounding) x;
    }
  if (v[CIN] && (strcmp (v[CIN], "0") == 0 || strcmp (v[CIN], "1") == 0))
    o->dp.tc.cin_in_group = v[CIN][0] == '1';
  else if (v[CIN])
    die_usage ("--tc-cin is 0 or 1, not '%s'", v[CIN]);
  if (v[SP] && strcmp (v[SP], "product") != 0 && strcmp (v[SP], "group") != 0)
    die_usage ("--tc-scale-point is product or group, not '%s'", v[SP]);
  if (v[SP])
    o->dp.tc.scale_point = v[SP][0] == 'g' ? MX_TC_SCALE_GROUP : MX_TC_SCALE_PRODUCT;
  if (v[BLK] && ((o->nblocks = strtoul (v[BLK], &end, 10)) < 1 || *end || o->nblocks > 4096))
    die_usage ("--blocks wants an integer >= 1, not '%s'", v[BLK]);
  if (v[GM] && ((o->gm = strtoul (v[GM], &end, 10)) < 1 || *end))
    die_usage ("--m wants an integer >= 1, not '%s'", v[GM]);
  if (v[GN] && ((o->gn = strtoul (v[GN], &end, 10)) < 1 || *end))
    die_usage ("--n wants an integer >= 1, not '%s'", v[GN]);
  if (v[GK] && ((o->gk = strtoul (v[GK], &end, 10)) < 1 || *end))
    die_usage ("--kdim wants an integer >= 1, not '%s'", v[GK]);
  return 0;
}

static int
dot_line (const opts *o, char **w, size_t n, unsigned long line)
{
  const mx_format *ea = mx_format_by_name (o->format);
  const mx_format *eb = mx_format_by_name (o->format_b ? o->format_b : o->format);
  const mx_format *sf = mx_format_by_name (o->scale_format), *of = mx_format_by_name (o->output);
  static uint64_t sa[MAX_BLOCK], sb[MAX_BLOCK], a[MAX_BLOCK], b[MAX_BLOCK];
  size_t per = 2 * o->block + 2, want = o->nblocks * per;
  uint64_t cin = 0, out;
  if (n != want && n != want + 1)
    return bad (line, "expected %zu block pair(s) of 'SA A0..A%zu SB B0..B%zu' (%zu hex words), "
                "then an optional C_in; got %zu words", o->nblocks, o->block - 1, o->block - 1,
                want, n);
  for (size_t j = 0; j < o->nblocks; j++)
    {
      char **p = w + j * per;
      int rc;
      if (parse_hex (p[0], sf->bits, &sa[j]) != 0)
        return bad (line, "word %zu '%s' is not a %s scale code", j * per + 1, p[0], sf->name);
      if ((rc = parse_words (p + 1, o->block, ea, a + j * o->block, line, j * per + 1, "A code")))
        return rc;
      if (parse_hex (p[o->block + 1], sf->bits, &sb[j]) != 0)
        return bad (line, "word %zu '%s' is not a %s scale code", j * per + o->block + 2,
                    p[o->block + 1], sf->name);
      if ((rc = parse_words (p + o->block + 2, o->block, eb, b + j * o->block, line,
                             j * per + o->block + 2, "B code")))
        return rc;
    }
  if (n == want + 1 && parse_hex (w[want], 32, &cin) != 0)
    return bad (line, "word %zu '%s' is not a C_in (fp32 bit pattern)", want + 1, w[want]);
  unsigned f = mx_dot (&out, of, sa, a, ea, sb, b, eb, sf, o->block, o->nblocks, cin, &o->dp);
  printf ("%0*llX", hexdigits (of), (unsigned long long) out);
  if (o->flags)
    printf (" %02X", f);
  putchar ('\n');
  return 0;
}

/* mxgold gemm FILE: compute every case of a gemm .mxv and print its outputs and flags. */
static int
gemm_file (const char *path)
{
  return mxv_compute_file (path, stdout);
}

/*-------------------------------------------------------------------- gen -*/
typedef struct
{
  mxv_writer w;
  long n;
  int progress;
} gen_sink;

static void
gen_emit (void *ctx, mxv_case *c)
{
  gen_sink *g = ctx;
  mxv_writer_case (&g->w, c);
  if (g->progress && ++g->n % 8192 == 0)
    fprintf (stderr, "\rgen: %ld cases", g->n);
}

static int
gen_cmd (opts *o, int argc, char **argv, const char *op, const char *level, const char *nrand,
         const char *seed, const char *outfile, const char *emit, const char *packing,
         int exhaustive, int quiet, int input_set, const char *profile)
{
  static mxv_header h;
  char err[256];
  int v;
  mxv_header_init (&h);
  if (!op)
    die_usage ("%s", "gen needs --op quantize|cast|decode|dequantize|dot|gemm");
  if ((v = mxv_lookup (mxv_op_names, MXV_OP_COUNT, op)) < 0)
    die_usage ("unknown --op '%s' (quantize cast decode dequantize dot gemm)", op);
  h.op = (mxv_op) v;
  if ((h.op == MXV_DOT || h.op == MXV_GEMM) && o->pol.rounding == MX_SR)
    die_usage ("%s", "dot and gemm take a deterministic output rounding, not sr");
  if (!o->format)
    die_usage ("%s", "gen needs --format F");
  h.elem = need_format (o->format, "element");
  h.scale = need_format (o->scale_format, "scale");
  h.in = need_ieee (o->input, "--input");
  h.out = need_ieee (o->output, "--output");
  (void) input_set;
  h.k = o->block;
  h.pol = o->pol;
  h.dp = o->dp;
  h.nblocks = o->nblocks;
  h.gm = o->gm;
  h.gn = o->gn;
  h.gkdim = o->gk;
  if (o->format_b)
    h.elem_b = need_elem (o->format_b);
  snprintf (h.profile, sizeof h.profile, "%s", profile);
  if (level && (strcmp (level, "1") == 0 || strcmp (level, "2") == 0))
    h.level = level[0] - '0';
  else if (level)
    die_usage ("--level is 1 or 2, not '%s'", level);
  long n = 0;
  if (nrand)
    {
      char *end;
      n = strtol (nrand, &end, 10);
      if (*end || n < 0)
        die_usage ("-n wants a count >= 0, not '%s'", nrand);
    }
  if (seed)
    {
      char *end;
      h.seed = strtoull (seed, &end, 0);
      if (*end || !*seed)
        die_usage ("--seed wants an integer, not '%s'", seed);
    }
  int em = MXV_EMIT_MXV;
  if (emit && (em = mxv_lookup (mxv_emit_names, 4, emit)) < 0)
    die_usage ("unknown --emit '%s' (mxv bin readmemh jsonl)", emit);
  if (packing && (v = mxv_lookup (mxv_packing_names, 4, packing)) < 0)
    die_usage ("unknown --packing '%s' (unpacked fp4-lo-first fp4-j-j16 fp6-3byte)", packing);
  if (packing)
    h.packing = (mxv_packing) v;
  if (mxv_header_validate (&h, err, sizeof err) != 0)
    die_usage ("%s", err);
  if (o->n_rbits)
    die_usage ("%s", "gen draws sr random bits from --seed; --random-bits does not apply");
  /* the command, without the output path and display options: part of the file's content */
  size_t len = (size_t) snprintf (h.command, sizeof h.command, "mxgold");
  for (int i = 1; i < argc && len < sizeof h.command; i++)
    {
      if (strcmp (argv[i], "-o") == 0 || strcmp (argv[i], "--output-file") == 0)
        {
          i++;
          continue;
        }
      if (strncmp (argv[i], "-o", 2) == 0 || strncmp (argv[i], "--output-file=", 14) == 0
          || strcmp (argv[i], "--quiet") == 0)
        continue;
      len += (size_t) snprintf (h.command + len, sizeof h.command - len, " %s", argv[i]);
    }

  /* cases go to memory first: the header carries their count, and nothing half-written is
   * ever left at -o FILE */
  char *body = NULL;
  size_t blen = 0;
  FILE *mem = open_memstream (&body, &blen);
  gen_sink g = { { 0 }, 0, !quiet && isatty (2) };
  mxv_header hb = h;
  g.w = (mxv_writer) { mem, (mxv_emit) em, &hb, 0 };
  long cases = mxv_generate (&h, n, exhaustive, gen_emit, &g, err, sizeof err);
  fclose (mem);
  if (cases < 0)
    {
      free (body);
      die_usage ("%s", err);
    }
  if (g.progress)
    fprintf (stderr, "\rgen: %ld cases\n", cases);
  h.cases = cases;

  char tmp[4096];
  FILE *out = stdout;
  if (outfile)
    {
      snprintf (tmp, sizeof tmp, "%s.tmp%ld", outfile, (long) getpid ());
      out = fopen (tmp, "wb");
      if (!out)
        {
          fprintf (stderr, "%s: cannot write '%s': %s\n", prog, tmp, strerror (errno));
          free (body);
          return 1;
        }
    }
  mxv_writer w;
  mxv_writer_begin (&w, out, (mxv_emit) em, &h);
  fwrite (body, 1, blen, out);
  free (body);
  int werr = ferror (out) || fflush (out) != 0;
  if (outfile)
    {
      werr |= fclose (out) != 0;
      if (werr || rename (tmp, outfile) != 0)
        {
          fprintf (stderr, "%s: cannot write '%s': %s\n", prog, outfile, strerror (errno));
          remove (tmp);
          return 1;
        }
    }
  else if (werr)
    {
      fprintf (stderr, "%s: write error: %s\n", prog, strerror (errno));
      return 1;
    }
  return 0;
}

/*------------------------------------------------------------------- main -*/
enum
{
  O_FORMAT = 256, O_BLOCK, O_INPUT, O_OUTPUT, O_SCALE_FORMAT, O_PROFILE, O_ROUNDING, O_SCALE_RULE,
  O_RBITS, O_SRBITS, O_ZERO_SCALE, O_TO, O_FROM, O_FLAGS, O_HELP, O_VERSION, O_OP, O_LEVEL,
  O_EXHAUSTIVE, O_SEED, O_EMIT, O_PACKING, O_QUIET, O_VECTORS, O_RESULTS, O_ERRORS, O_CHECK_NANS,
  O_CHECK_ZERO_SIGN, O_IGNORE_FLAGS, O_STRICT, O_FORMAT_B, O_ACCUM, O_BLOCKS, O_TC_PRESET,
  O_TC_GROUP, O_TC_FRAC, O_TC_ALIGN, O_TC_OUT, O_TC_CIN, O_TC_SP, O_GM, O_GN, O_GK, O_FIELD
};

#define N_FIELDS MX_POLICY_FIELD_COUNT
#define field_opts mx_policy_field_names

int
main (int argc, char **argv)
{
  static struct option lo[] = {
    { "format", 1, 0, O_FORMAT }, { "block", 1, 0, O_BLOCK }, { "input", 1, 0, O_INPUT },
    { "output", 1, 0, O_OUTPUT }, { "scale-format", 1, 0, O_SCALE_FORMAT },
    { "profile", 1, 0, O_PROFILE }, { "rounding", 1, 0, O_ROUNDING },
    { "scale-rule", 1, 0, O_SCALE_RULE }, { "random-bits", 1, 0, O_RBITS },
    { "sr-bits", 1, 0, O_SRBITS }, { "zero-scale", 1, 0, O_ZERO_SCALE }, { "to", 1, 0, O_TO },
    { "from", 1, 0, O_FROM }, { "flags", 0, 0, O_FLAGS }, { "help", 0, 0, O_HELP },
    { "version", 0, 0, O_VERSION }, { "op", 1, 0, O_OP }, { "level", 1, 0, O_LEVEL },
    { "exhaustive", 0, 0, O_EXHAUSTIVE }, { "seed", 1, 0, O_SEED }, { "emit", 1, 0, O_EMIT },
    { "packing", 1, 0, O_PACKING }, { "quiet", 0, 0, O_QUIET }, { "vectors", 1, 0, O_VECTORS },
    { "results", 1, 0, O_RESULTS }, { "errors", 1, 0, O_ERRORS },
    { "check-nans", 0, 0, O_CHECK_NANS }, { "check-zero-sign", 0, 0, O_CHECK_ZERO_SIGN },
    { "ignore-flags", 0, 0, O_IGNORE_FLAGS }, { "strict", 0, 0, O_STRICT },
    { "output-file", 1, 0, 'o' }, { "format-a", 1, 0, O_FORMAT }, { "format-b", 1, 0, O_FORMAT_B },
    { "accum", 1, 0, O_ACCUM }, { "blocks", 1, 0, O_BLOCKS }, { "out", 1, 0, O_OUTPUT },
    { "tc-preset", 1, 0, O_TC_PRESET }, { "tc-group", 1, 0, O_TC_GROUP },
    { "tc-frac-bits", 1, 0, O_TC_FRAC }, { "tc-align", 1, 0, O_TC_ALIGN }, { "tc-out", 1, 0, O_TC_OUT },
    { "tc-cin", 1, 0, O_TC_CIN }, { "tc-scale-point", 1, 0, O_TC_SP }, { "m", 1, 0, O_GM },
    { "n", 1, 0, O_GN }, { "kdim", 1, 0, O_GK },
    { "overflow", 1, 0, O_FIELD + 0 }, { "nan-block", 1, 0, O_FIELD + 1 },
    { "inf-block", 1, 0, O_FIELD + 2 }, { "subnormals", 1, 0, O_FIELD + 3 },
    { "zero-sign", 1, 0, O_FIELD + 4 }, { "int-range", 1, 0, O_FIELD + 5 },
    { "scale-overflow", 1, 0, O_FIELD + 6 }, { "nan-elem", 1, 0, O_FIELD + 7 },
    { 0, 0, 0, 0 }
  };
  static opts o;
  /* getopt_long permutes argv; gen records the command as it was typed */
  char *argv0[argc + 1];
  for (int i = 0; i <= argc; i++)
    argv0[i] = argv[i];
  const char *profile = "ocp", *rounding = NULL, *rule = NULL, *zero_scale = NULL,
             *sr_bits = NULL, *rbits = NULL, *field[N_FIELDS] = { 0 };
  const char *op = NULL, *level = NULL, *nrand = NULL, *seed = NULL, *outfile = NULL,
             *emit = NULL, *packing = NULL, *vectors = NULL, *results = NULL, *errors = NULL;
  int exhaustive = 0, quiet = 0, input_set = 0;
  mxv_verify_opts vo = { 20, 0, 0, 0, 0, 0, 0, 0 };
  const char *dotopt[O_GK - O_ACCUM + 1] = { 0 };
  o.input = o.output = "fp32";
  o.scale_format = "e8m0";
  o.block = 32;

  int c;
  while ((c = getopt_long (argc, argv, "n:o:", lo, NULL)) != -1)
    {
      char *end;
      switch (c)
        {
        case O_FORMAT: o.format = optarg; break;
        case O_BLOCK:
          errno = 0;
          o.block = strtoul (optarg, &end, 10);
          if (errno || *end || o.block < 1 || o.block > MAX_BLOCK)
            die_usage ("--block wants an integer 1..4096, not '%s'", optarg);
          break;
        case O_INPUT: o.input = optarg; input_set = 1; break;
        case O_OP: op = optarg; break;
        case O_LEVEL: level = optarg; break;
        case 'n': nrand = optarg; break;
        case O_EXHAUSTIVE: exhaustive = 1; break;
        case O_SEED: seed = optarg; break;
        case 'o': outfile = optarg; break;
        case O_EMIT: emit = optarg; break;
        case O_PACKING: packing = optarg; break;
        case O_QUIET: quiet = 1; break;
        case O_VECTORS: vectors = optarg; break;
        case O_RESULTS: results = optarg; break;
        case O_ERRORS: errors = optarg; break;
        case O_CHECK_NANS: vo.check_nans = 1; break;
        case O_CHECK_ZERO_SIGN: vo.check_zero_sign = 1; break;
        case O_IGNORE_FLAGS: vo.ignore_flags = 1; break;
        case O_STRICT: vo.strict = 1; break;
        case O_FORMAT_B: o.format_b = optarg; break;
        case O_ACCUM: case O_BLOCKS: case O_TC_PRESET: case O_TC_GROUP: case O_TC_FRAC:
        case O_TC_ALIGN: case O_TC_OUT: case O_TC_CIN: case O_TC_SP: case O_GM: case O_GN: case O_GK:
          dotopt[c - O_ACCUM] = optarg;
          break;
        case O_OUTPUT: o.output = optarg; break;
        case O_SCALE_FORMAT: o.scale_format = optarg; break;
        case O_PROFILE: profile = optarg; break;
        case O_ROUNDING: rounding = optarg; break;
        case O_SCALE_RULE: rule = optarg; break;
        case O_RBITS: rbits = optarg; break;
        case O_SRBITS: sr_bits = optarg; break;
        case O_ZERO_SCALE: zero_scale = optarg; break;
        case O_TO: o.to = optarg; break;
        case O_FROM: o.from = optarg; break;
        case O_FLAGS: o.flags = 1; break;
        case O_HELP: usage (stdout); return 0;
        case O_VERSION:
          printf ("mxgold %s (libmxgold, MPFR %s)\nOCP MX v1.0 reference model. License: MIT.\n",
                  MX_VERSION_STRING, mpfr_get_version ());
          return 0;
        default:
          if (c >= O_FIELD && c < O_FIELD + (int) N_FIELDS)
            field[c - O_FIELD] = optarg;
          else
            {
              fprintf (stderr, "(try 'mxgold --help')\n");
              return 2;
            }
        }
    }
  if (optind >= argc)
    {
      usage (stderr);
      return 2;
    }
  const char *cmd = argv[optind];
  if (strcmp (cmd, "gemm") == 0 && optind + 1 < argc)
    {
      if (optind + 2 < argc)
        die_usage ("unexpected argument '%s'", argv[optind + 2]);
      return gemm_file (argv[optind + 1]);
    }
  if (strcmp (cmd, "verify") == 0)
    {
      const char *file = optind + 1 < argc ? argv[optind + 1] : NULL;
      if (optind + 2 < argc)
        die_usage ("unexpected argument '%s'", argv[optind + 2]);
      if (errors)
        {
          char *end;
          vo.errors = strtol (errors, &end, 10);
          if (*end || vo.errors < 0)
            die_usage ("--errors wants a count >= 0, not '%s'", errors);
        }
      if (file && vectors)
        die_usage ("verify takes a file or --vectors, not both ('%s')", file);
      if (results && !vectors)
        die_usage ("%s", "--results goes with --vectors F");
      if (!file && !vectors)
        die_usage ("%s", "verify needs --vectors F --results R, or a file (or - for stdin)");
      return mxv_verify_file (file ? file : vectors, results, &vo);
    }
  if (optind + 1 < argc)
    die_usage ("unexpected argument '%s'", argv[optind + 1]);
  if (strcmp (cmd, "formats") == 0)
    return list_formats ();
  if (strcmp (cmd, "profiles") == 0)
    return list_profiles ();

  /* Policy: the profile first, then each explicit option over it. */
  int v = mx_profile_parse (profile);
  if (v < 0)
    die_usage ("unknown profile '%s' (see 'mxgold profiles')", profile);
  mx_policy_profile (&o.pol, (mx_profile_id) v);
  if (rounding && (v = mx_rounding_parse (rounding)) < 0)
    die_usage ("unknown rounding '%s' (rne rna rnz rtz rup rdn rto sr)", rounding);
  if (rounding)
    o.pol.rounding = (mx_rounding) v;
  if (rule && (v = mx_scale_rule_parse (rule)) < 0)
    die_usage ("unknown scale rule '%s' (floor ceil even rceil rceil-fp32 floor-log2f)", rule);
  if (rule)
    o.pol.scale_rule = (mx_scale_rule) v;
  for (size_t i = 0; i < N_FIELDS; i++)
    if (field[i])
      {
        if ((v = mx_policy_value_parse (field_opts[i], field[i])) < 0)
          {
            fprintf (stderr, "%s: unknown --%s value '%s' (see 'mxgold --help')\n", prog,
                     field_opts[i], field[i]);
            return 2;
          }
        mx_policy_set_field (&o.pol, field_opts[i], v);
      }
  if (zero_scale)
    {
      uint64_t z;
      if (parse_hex (zero_scale, 8, &z) != 0)
        die_usage ("--zero-scale wants a scale code in hex (00..FF), not '%s'", zero_scale);
      o.pol.zero_scale = (uint32_t) z;
    }
  if (sr_bits)
    {
      char *end;
      unsigned long r = strtoul (sr_bits, &end, 10);
      if (*end || r < 1 || r > 32)
        die_usage ("--sr-bits wants an integer 1..32, not '%s'", sr_bits);
      o.pol.sr_bits = (unsigned) r;
    }
  if (rbits)
    {
      if (o.pol.rounding != MX_SR)
        die_usage ("--random-bits only goes with --rounding sr (rounding is '%s')",
                   mx_rounding_name (o.pol.rounding));
      char *copy = strdup (rbits);
      for (char *p = strtok (copy, ","); p; p = strtok (NULL, ","))
        {
          uint64_t r;
          if (o.n_rbits == MAX_BLOCK || parse_hex (p, 32, &r) != 0)
            die_usage ("--random-bits wants hex words of at most 32 bits, not '%s'", p);
          o.rbits[o.n_rbits++] = (uint32_t) r;
        }
      free (copy);
    }
  if (o.pol.rounding == MX_SR && o.n_rbits == 0 && strcmp (cmd, "gen") != 0 && strcmp (cmd, "dot") != 0)
    die_usage ("%s", "--rounding sr needs --random-bits HEX[,HEX...] (gen draws them from --seed)");

  if (parse_dot_options (&o, dotopt, rounding) != 0)
    return 2;
  if (strcmp (cmd, "dot") == 0)
    {
      if (!o.format)
        die_usage ("%s", "dot needs --format-a F (and --format-b G if B differs)");
      if (o.pol.rounding == MX_SR)
        die_usage ("%s", "dot takes a deterministic output rounding, not sr");
      need_elem (o.format);
      need_elem (o.format_b ? o.format_b : o.format);
      need_ieee (o.output, "--out");
      if (o.nblocks * o.block > MAX_BLOCK)
        die_usage ("%s", "--blocks x --block must be at most 4096");
      return each_line (&o, dot_line, o.nblocks * (2 * o.block + 2) + 2);
    }
  if (strcmp (cmd, "gemm") == 0)
    die_usage ("%s", "gemm takes a .mxv file of gemm cases: mxgold gemm FILE (or -)");
  if (strcmp (cmd, "quantize") == 0 || strcmp (cmd, "dequantize") == 0)
    {
      int q = cmd[0] == 'q';
      if (!o.format)
        die_usage ("%s needs --format F", cmd);
      const mx_format *e = need_format (o.format, "element");
      if (e->role != MX_ROLE_ELEM)
        die_usage ("--format wants an element format, '%s' is not one", o.format);
      const mx_format *s = need_format (o.scale_format, "scale");
      if (s->role != MX_ROLE_SCALE)
        die_usage ("--scale-format wants a scale format (e8m0 ue4m3), not '%s'", o.scale_format);
      need_ieee (q ? o.input : o.output, q ? "--input" : "--output");
      if (o.n_rbits > 1 && o.n_rbits != o.block)
        die_usage ("--random-bits wants 1 or K (block size) words, got %s", rbits);
      return each_line (&o, q ? quantize_line : dequantize_line, o.block + 2);
    }
  if (strcmp (cmd, "cast") == 0)
    {
      if (!o.to && !o.from)
        die_usage ("%s", "cast needs --to F (fp32 -> F) or --from F (F -> fp32)");
      if (!o.to)
        o.to = "fp32";
      if (!o.from)
        o.from = "fp32";
      need_format (o.to, "--to");
      need_format (o.from, "--from");
      if (o.n_rbits > 1)
        die_usage ("cast takes one --random-bits word, got '%s'", rbits);
      return each_line (&o, cast_line, 2);
    }
  if (strcmp (cmd, "gen") == 0)
    return gen_cmd (&o, argc, argv0, op, level, nrand, seed, outfile, emit, packing, exhaustive,
                    quiet, input_set, profile);
  die_usage ("unknown command '%s' (quantize dequantize cast gen verify formats profiles)", cmd);
  return 2;
}
