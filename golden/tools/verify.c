/* verify.c -- mxgold verify: compare an implementation's observed outputs with the expected ones,
 * TestFloat-style (first N mismatches decoded, then "N passed, M failed").
 *   verify --vectors F --results R   R: the same lines with observed outputs, or bare outputs
 *   verify F  (or -)                 F carries a header and observed outputs; expected values are
 *                                    recomputed from the header with libmxgold
 * Exit 0 all passed, 1 any mismatch, 2 malformed input (FILE:LINE: what was expected).
 * SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "mxv.h"

typedef struct
{
  FILE *f;
  const char *name;
  unsigned long line;
  char *buf;
  size_t cap;
  pid_t gz; /* a "gzip -dc" child for .gz files, else 0 */
} reader;

/* A .gz file is read through "gzip -dc -- FILE" (no shell involved). */
static FILE *
open_gz (const char *name, pid_t *pid)
{
  int fd[2];
  if (pipe (fd) != 0)
    return NULL;
  *pid = fork ();
  if (*pid < 0)
    return NULL;
  if (*pid == 0)
    {
      dup2 (fd[1], 1);
      close (fd[0]);
      close (fd[1]);
      execlp ("gzip", "gzip", "-dc", "--", name, (char *) NULL);
      _exit (127);
    }
  close (fd[1]);
  return fdopen (fd[0], "r");
}

static int
rd_open (reader *r, const char *name)
{
  memset (r, 0, sizeof *r);
  int in = strcmp (name, "-") == 0;
  size_t len = strlen (name);
  r->name = in ? "stdin" : name;
  if (!in && len > 3 && strcmp (name + len - 3, ".gz") == 0)
    {
      if (access (name, R_OK) != 0)
        {
          fprintf (stderr, "mxgold: cannot open '%s': %s\n", name, strerror (errno));
          return -1;
        }
      r->f = open_gz (name, &r->gz);
    }
  else
    r->f = in ? stdin : fopen (name, "r");
  if (r->f == NULL)
    {
      fprintf (stderr, "mxgold: cannot open '%s': %s\n", name, strerror (errno));
      return -1;
    }
  return 0;
}

static void
rd_close (reader *r)
{
  if (r->f && r->f != stdin)
    fclose (r->f);
  if (r->gz > 0)
    waitpid (r->gz, NULL, 0);
  free (r->buf);
}

static int
bad (const reader *r, const char *fmt, const char *a, const char *b)
{
  fflush (stdout);
  fprintf (stderr, "%s:%lu: ", r->name, r->line ? r->line : 1);
  fprintf (stderr, fmt, a, b);
  fputc ('\n', stderr);
  return 2;
}

/* Next line that is not a header; header lines go into h (if h).  Returns 1 with a case line,
 * 0 at the end, 2 on error. */
static int
rd_next (reader *r, mxv_header *h, int *saw_header)
{
  char err[256];
  for (;;)
    {
      ssize_t n = getline (&r->buf, &r->cap, r->f);
      if (n < 0)
        return 0;
      r->line++;
      if (r->buf[0] == '#')
        {
          if (h && mxv_header_line (h, r->buf, err, sizeof err) < 0)
            return bad (r, "%s%s", err, "");
          if (saw_header)
            *saw_header = 1;
          continue;
        }
      if (n > 0 && r->buf[n - 1] != '\n')
        return bad (r, "%s%s", "truncated last line (no newline at the end of the file)", "");
      return 1;
    }
}

/* Parse a case line into c.  Accepts all fields, or only the output fields (with or without the
 * flags).  *has_flags tells whether flags were given. */
static int
parse_case (const reader *r, const mxv_header *h, mxv_case *c, int want_inputs, int *has_flags)
{
  mxv_field f[MXV_MAX_FIELDS];
  uint64_t packed[MXV_MAX_K];
  int nf = mxv_fields (h, c, packed, f);
  size_t all = 0, outs = 0, nw = 0;
  for (int i = 0; i < nf; i++)
    {
      all += f[i].count;
      outs += f[i].output ? f[i].count : 0;
    }
  int flags_last = nf > 0 && f[nf - 1].v == NULL;
  char *words[3 * MXV_MAX_K + 8], *save = NULL;
  for (char *p = strtok_r (r->buf, " \t\r\n", &save); p; p = strtok_r (NULL, " \t\r\n", &save))
    {
      if (nw < sizeof words / sizeof words[0])
        words[nw] = p;
      nw++;
    }
  char msg[160];
  if (nw == 0)
    return bad (r, "%s%s", "empty line (expected a case)", "");
  int inputs = 1;
  *has_flags = flags_last;
  if (nw == all)
    inputs = 1;
  else if (want_inputs == 2 && nw == all - outs)
    inputs = 2; /* the inputs only */
  else if (!want_inputs && nw == outs)
    inputs = 0;
  else if (!want_inputs && flags_last && nw == outs - 1)
    inputs = 0, *has_flags = 0;
  else
    {
      snprintf (msg, sizeof msg, "expected %zu fields (%s line)", all, mxv_op_names[h->op]);
      char got[64];
      snprintf (got, sizeof got, ", or %zu output fields; got %zu", outs, nw);
      return bad (r, "%s%s", msg, want_inputs ? "" : got);
    }
  size_t w = 0;
  for (int i = 0; i < nf; i++)
    {
      if ((!inputs && !f[i].output) || (inputs == 2 && f[i].output))
        continue;
      if (f[i].v == NULL && !*has_flags)
        continue;
      for (size_t j = 0; j < f[i].count; j++, w++)
        {
          const char *s = words[w];
          size_t len = strlen (s);
          char *end;
          errno = 0;
          unsigned long long v = strtoull (s, &end, 16);
          if (*end || len == 0 || (int) len > f[i].width || s[0] == '-' || s[0] == '+' || errno
              || (f[i].bits < 64 && v >> f[i].bits))
            {
              snprintf (msg, sizeof msg, "field %zu ('%s'", w + 1, s);
              char what[96];
              snprintf (what, sizeof what, ") is not a %s word (%d hex digits, < 2^%u)", f[i].name,
                        f[i].width, f[i].bits);
              return bad (r, "%s%s", msg, what);
            }
          if (f[i].v)
            f[i].v[j] = v;
          else
            c->flags = (unsigned) v;
        }
    }
  if (h->packing != MXV_UNPACKED && (h->op == MXV_QUANTIZE || h->op == MXV_DEQUANTIZE))
    mxv_unpack (h, packed, c->codes);
  return 0;
}

/*--------------------------------------------------------------- compare -*/
static int
same (const mx_format *f, uint64_t a, uint64_t b, const mxv_verify_opts *o)
{
  if (a == b)
    return 1;
  if (o->strict)
    return 0;
  mpfr_t x, y;
  mpfr_init2 (x, 64);
  mpfr_init2 (y, 64);
  mx_decode (x, f, a);
  mx_decode (y, f, b);
  int eq = (!o->check_nans && mpfr_nan_p (x) && mpfr_nan_p (y))
           || (!o->check_zero_sign && mpfr_zero_p (x) && mpfr_zero_p (y));
  mpfr_clear (x);
  mpfr_clear (y);
  return eq;
}

static void
show (const mx_format *f, uint64_t v)
{
  mpfr_t x;
  mpfr_init2 (x, 64);
  mx_decode (x, f, v);
  mpfr_printf ("%0*llX (%.9Rg)", f->bits > 32 ? 16 : f->bits > 16 ? 8 : f->bits > 8 ? 4 : 2,
               (unsigned long long) v, x);
  mpfr_clear (x);
}

static void
show_inputs (const mxv_header *h, const mxv_case *c)
{
  if (h->op == MXV_DOT || h->op == MXV_GEMM)
    {
      /* the input fields, as they appear on the line */
      mxv_case cc = *c;
      mxv_field f[MXV_MAX_FIELDS];
      uint64_t packed[MXV_MAX_K];
      int nf = mxv_fields (h, &cc, packed, f);
      printf ("  inputs:");
      for (int i = 0; i < nf; i++)
        if (!f[i].output)
          for (size_t j = 0; j < f[i].count; j++)
            printf (" %0*llX", f[i].width, (unsigned long long) f[i].v[j]);
      printf ("\n");
      return;
    }
  size_t n = h->op == MXV_QUANTIZE ? h->k : h->op == MXV_DEQUANTIZE ? h->k : 1;
  const uint64_t *v = h->op == MXV_DEQUANTIZE ? c->codes : c->in;
  printf ("  inputs:");
  if (h->op == MXV_DEQUANTIZE)
    printf (" scale %02llX, codes", (unsigned long long) c->scale);
  const mx_format *f = h->op == MXV_DEQUANTIZE || h->op == MXV_DECODE ? h->elem : h->in;
  int w = (int) (f->bits + 3) / 4 < 2 ? 2 : (int) (f->bits + 3) / 4;
  for (size_t i = 0; i < n; i++)
    printf (" %0*llX", w, (unsigned long long) v[i]);
  printf ("\n");
}

/* Returns the number of mismatching fields; prints them if report. */
static int
compare (const mxv_header *h, const mxv_case *e, const mxv_case *o, int has_flags,
         const mxv_verify_opts *opt, int report, const char *where)
{
  int bad_fields = 0;
#define MISMATCH(fmt_, name_, idx_, ov_, ev_)                                    \
  do                                                                          \
    {                                                                         \
      if (report && bad_fields < 8)                                           \
        {                                                                     \
          printf ("%s: %s", where, name_);                                    \
          if ((idx_) >= 0)                                                    \
            printf ("[%d]", (int) (idx_));                                    \
          printf (": observed ");                                             \
          show (fmt_, ov_);                                                   \
          printf (" expected ");                                              \
          show (fmt_, ev_);                                                   \
          printf ("\n");                                                      \
        }                                                                     \
      bad_fields++;                                                           \
    }                                                                         \
  while (0)
  static const mx_format flags_fmt = { "flags", "flags", MX_ROLE_ELEM, 8, 0, 0, 0, 1,
                                       MX_SPECIAL_INT, 0, 0, 255 };
  switch (h->op)
    {
    case MXV_QUANTIZE:
      {
        mpfr_t s;
        mpfr_init2 (s, 64);
        int nan_scale = mx_decode (s, h->scale, e->scale) != 0;
        mpfr_clear (s);
        if (!same (h->scale, o->scale, e->scale, opt))
          MISMATCH (h->scale, "scale", -1, o->scale, e->scale);
        if (!nan_scale || opt->strict)
          for (size_t i = 0; i < h->k; i++)
            if (!same (h->elem, o->codes[i], e->codes[i], opt))
              MISMATCH (h->elem, "codes", (long) i, o->codes[i], e->codes[i]);
        break;
      }
    case MXV_CAST:
      if (!same (h->elem, o->codes[0], e->codes[0], opt))
        MISMATCH (h->elem, "code", -1, o->codes[0], e->codes[0]);
      break;
    case MXV_DECODE:
      if (!same (h->out, o->out[0], e->out[0], opt))
        MISMATCH (h->out, "out", -1, o->out[0], e->out[0]);
      break;
    default:
      {
        size_t n = h->op == MXV_DOT ? 1 : h->op == MXV_GEMM ? h->gm * h->gn : h->k;
        for (size_t i = 0; i < n; i++)
          if (!same (h->out, o->out[i], e->out[i], opt))
            MISMATCH (h->out, "out", n > 1 ? (long) i : -1, o->out[i], e->out[i]);
        break;
      }
    }
  if (h->op != MXV_DECODE && h->op != MXV_DEQUANTIZE && has_flags && !opt->ignore_flags
      && o->flags != e->flags)
    MISMATCH (&flags_fmt, "flags", -1, (uint64_t) o->flags, (uint64_t) e->flags);
#undef MISMATCH
  return bad_fields;
}

static int
header_matches (const reader *r, const mxv_header *a, const mxv_header *b)
{
  char x[64], y[64];
#define KEY(cond, name, va, vb)                                                        \
  if (cond)                                                                            \
    {                                                                                  \
      snprintf (x, sizeof x, "header '%s: %s'", name, va);                            \
      snprintf (y, sizeof y, " does not match the vectors' '%s'", vb);                \
      return bad (r, "%s%s", x, y);                                                    \
    }
  KEY (a->op != b->op, "op", mxv_op_names[a->op], mxv_op_names[b->op]);
  KEY (a->elem != b->elem, "elem", a->elem ? a->elem->name : "?", b->elem->name);
  KEY (a->in != b->in, "input", a->in->name, b->in->name);
  KEY (a->scale != b->scale, "scale", a->scale->name, b->scale->name);
  KEY (a->k != b->k, "block", "(other)", "(this)");
  KEY (a->packing != b->packing, "packing", mxv_packing_names[a->packing], mxv_packing_names[b->packing]);
  KEY ((a->elem_b ? a->elem_b : a->elem) != (b->elem_b ? b->elem_b : b->elem), "elem-b",
       (a->elem_b ? a->elem_b : a->elem)->name, (b->elem_b ? b->elem_b : b->elem)->name);
  KEY (a->dp.accum != b->dp.accum, "accum", mx_accum_name (a->dp.accum), mx_accum_name (b->dp.accum));
  KEY (a->nblocks != b->nblocks, "blocks", "(other)", "(this)");
  KEY (a->pol.rounding != b->pol.rounding, "rounding", mx_rounding_name (a->pol.rounding),
       mx_rounding_name (b->pol.rounding));
  KEY (a->pol.scale_rule != b->pol.scale_rule, "scale-rule", mx_scale_rule_name (a->pol.scale_rule),
       mx_scale_rule_name (b->pol.scale_rule));
#undef KEY
  return 0;
}

int
mxv_verify_file (const char *vectors, const char *results, mxv_verify_opts *opt)
{
  static mxv_header h, hr;
  static mxv_case e, o;
  reader rv, rr;
  int rc = 0, saw = 0, have_results = results != NULL;
  long passed = 0, failed = 0;
  char err[256], where[512];

  opt->passed = opt->failed = opt->first_failed = 0;
  mxv_header_init (&h);
  if (rd_open (&rv, vectors) != 0)
    return 2;
  if (have_results && rd_open (&rr, results) != 0)
    {
      rd_close (&rv);
      return 2;
    }
  mxv_header_init (&hr);
  int sv = rd_next (&rv, &h, &saw);
  if (sv == 2)
    {
      rc = 2;
      goto out;
    }
  if (!saw)
    {
      rc = bad (&rv, "%s%s", sv == 0 ? "empty file (expected a '# mxv-version: 1' header and cases)"
                                     : "no header (expected '# key: value' lines first)", "");
      goto out;
    }
  if (mxv_header_validate (&h, err, sizeof err) != 0)
    {
      rc = bad (&rv, "header: %s%s", err, "");
      goto out;
    }
  if (sv == 0)
    {
      rc = bad (&rv, "%s%s", "no cases after the header", "");
      goto out;
    }
  hr = h;
  while (sv == 1)
    {
      int has_flags = 1;
      memset (&e, 0, sizeof e);
      if (parse_case (&rv, &h, &e, 1, &has_flags) != 0)
        {
          rc = 2;
          goto out;
        }
      o = e;
      if (have_results)
        {
          int rsaw = 0, sr = rd_next (&rr, &hr, &rsaw);
          if (sr == 2)
            {
              rc = 2;
              goto out;
            }
          if (rsaw && header_matches (&rr, &hr, &h) != 0)
            {
              rc = 2;
              goto out;
            }
          if (sr == 0)
            {
              rc = bad (&rr, "%s%s", "fewer cases than the vectors (expected one line per case)", "");
              goto out;
            }
          if (parse_case (&rr, &h, &o, 0, &has_flags) != 0)
            {
              rc = 2;
              goto out;
            }
          snprintf (where, sizeof where, "case %ld (%s:%lu)", passed + failed + 1, rr.name, rr.line);
        }
      else
        {
          /* the file carries observed outputs: recompute the expected ones */
          mxv_compute (&h, &e);
          snprintf (where, sizeof where, "case %ld (%s:%lu)", passed + failed + 1, rv.name, rv.line);
        }
      int report = opt->errors == 0 || failed < opt->errors;
      if (compare (&h, &e, &o, has_flags, opt, report, where) == 0)
        passed++;
      else
        {
          if (report)
            show_inputs (&h, &e);
          if (failed++ == 0)
            opt->first_failed = passed + failed;
        }
      sv = rd_next (&rv, NULL, NULL);
      if (sv == 2)
        {
          rc = 2;
          goto out;
        }
    }
  if (have_results)
    {
      int sr = rd_next (&rr, NULL, NULL);
      if (sr == 1)
        {
          rc = bad (&rr, "%s%s", "more cases than the vectors", "");
          goto out;
        }
      if (sr == 2)
        {
          rc = 2;
          goto out;
        }
    }
  if (h.cases && h.cases != passed + failed)
    {
      /* a declared count that does not match is a truncated or padded file */
      snprintf (err, sizeof err, "%ld", h.cases);
      char got[64];
      snprintf (got, sizeof got, " cases but has %ld", passed + failed);
      rc = bad (&rv, "header says %s%s", err, got);
      goto out;
    }
  opt->passed = passed;
  opt->failed = failed;
  printf ("%ld passed, %ld failed\n", passed, failed);
  rc = failed ? 1 : 0;
out:
  rd_close (&rv);
  if (have_results)
    rd_close (&rr);
  fflush (stdout);
  return rc;
}

static int
each_case (const char *path, mxv_case_fn fn, void *ctx, int want)
{
  static mxv_header h;
  static mxv_case c;
  reader r;
  char err[256];
  int saw = 0, rc = 0;
  mxv_header_init (&h);
  if (rd_open (&r, path) != 0)
    return 2;
  int s = rd_next (&r, &h, &saw);
  if (s == 2)
    rc = 2;
  else if (!saw)
    rc = bad (&r, "%s%s", "no header (expected '# key: value' lines first)", "");
  else if (mxv_header_validate (&h, err, sizeof err) != 0)
    rc = bad (&r, "header: %s%s", err, "");
  while (rc == 0 && s == 1)
    {
      int has_flags;
      memset (&c, 0, sizeof c);
      if (parse_case (&r, &h, &c, want, &has_flags) != 0)
        {
          rc = 2;
          break;
        }
      rc = fn (ctx, &h, &c, r.name, r.line);
      if (rc == 0)
        {
          s = rd_next (&r, NULL, NULL);
          if (s == 2)
            rc = 2;
        }
    }
  rd_close (&r);
  return rc;
}

int
mxv_each_case (const char *path, mxv_case_fn fn, void *ctx)
{
  return each_case (path, fn, ctx, 1);
}

/* Full lines or lines with the inputs only. */
static int
mxv_each_case_inputs (const char *path, mxv_case_fn fn, void *ctx)
{
  return each_case (path, fn, ctx, 2);
}

/* mxv_compute_file: every case's computed outputs as a bare output line. */
static int
print_outputs (void *ctx, const mxv_header *hc, mxv_case *c, const char *file, unsigned long line)
{
  FILE *out = ctx;
  mxv_header h = *hc;
  mxv_field f[MXV_MAX_FIELDS];
  uint64_t packed[MXV_MAX_K], flags;
  (void) file;
  (void) line;
  mxv_compute (&h, c);
  flags = c->flags;
  if (h.packing != MXV_UNPACKED)
    mxv_pack (&h, c->codes, packed);
  int nf = mxv_fields (&h, c, packed, f), first = 1;
  for (int i = 0; i < nf; i++)
    if (f[i].output)
      for (size_t j = 0; j < f[i].count; j++, first = 0)
        fprintf (out, first ? "%0*llX" : " %0*llX", f[i].width,
                 (unsigned long long) (f[i].v ? f[i].v[j] : flags));
  fputc ('\n', out);
  return 0;
}

int
mxv_compute_file (const char *path, FILE *out)
{
  int rc = mxv_each_case_inputs (path, print_outputs, out);
  fflush (out);
  return rc;
}
