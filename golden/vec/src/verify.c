/* verify.c -- mxgold verify: compare an implementation's observed outputs with the expected ones,
 * TestFloat-style (first N mismatches decoded, then "N passed, M failed").
 *   verify --vectors F --results R   R: the same lines with observed outputs, or bare outputs
 *   verify F  (or -)                 F carries a header and observed outputs; expected values are
 *                                    recomputed from the header with libmxgold
 * Exit 0 all passed, 1 any mismatch, 2 malformed input (FILE:LINE: what was expected).
 * SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include <string.h>
#include "internal.h"

/*--------------------------------------------------------------- compare -*/
static int
same (const mx_format *f, uint64_t a, uint64_t b, const mxv_verify_opts *o)
{
  if (a == b)
    return 1;
  if (o->strict || f == NULL) /* a word without a format (mxs shifts): exact */
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
  if (f == NULL)
    {
      printf ("%02llX", (unsigned long long) v);
      return;
    }
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
  if (h->op == MXV_DOT || h->op == MXV_GEMM || h->op == MXV_NVFP4 || h->op == MXV_MXS)
    {
      /* the input fields, as they appear on the line (mxv_fields only points into c) */
      mxv_field f[MXV_MAX_FIELDS];
      int nf = mxv_fields (h, (mxv_case *) c, f);
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
  int w = mx_hex_digits (f->bits);
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
                                       MX_SPECIAL_INT, MX_FORMAT_COUNT, 0, 0, 255 };
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
    case MXV_NVFP4:
    case MXV_MXS:
      {
        /* every expected field but the flags; mxs: shifts and codes under a NaN scale are out
         * of scope as quantize's codes are */
        mxv_field fe[MXV_MAX_FIELDS], fo[MXV_MAX_FIELDS];
        int nf = mxv_fields (h, (mxv_case *) e, fe);
        mxv_fields (h, (mxv_case *) o, fo);
        int nan_scale = h->op == MXV_MXS && e->scale == 0xFF;
        for (int i = 0; i < nf; i++)
          {
            if (!fe[i].output || fe[i].kind == MXV_F_FLAGS
                || (nan_scale && !opt->strict && fe[i].kind == MXV_F_CODES))
              continue;
            for (size_t j = 0; j < fe[i].count; j++)
              if (!same (fe[i].fmt, fo[i].v[j], fe[i].v[j], opt))
                MISMATCH (fe[i].fmt, fe[i].name, fe[i].count > 1 ? (long) j : -1, fo[i].v[j],
                          fe[i].v[j]);
          }
        break;
      }
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
    MISMATCH (&flags_fmt, "flags", -1, o->flags, e->flags);
#undef MISMATCH
  return bad_fields;
}

/*----------------------------------------------------------------- verify -*/
typedef struct
{
  mxv_header h, hr;  /* the vectors' header, and what the results file declares over it */
  mxv_case e, o;     /* expected, observed */
} verify_state;

int
mxv_verify_file (const char *vectors, const char *results, mxv_verify_opts *opt)
{
  /* zeroed once: each line clears only the words its header uses (mxv__case_clear), and the
   * observed case o of a results file is read in its output fields alone */
  verify_state *st = calloc (1, sizeof *st);
  mxv_file *fv = NULL, *fr = NULL;
  long long passed = 0, failed = 0;
  char err[256], where[600];
  int rc = 2;

  opt->passed = opt->failed = opt->first_failed = 0;
  if (st == NULL)
    {
      fprintf (stderr, "mxvec: out of memory\n");
      return 2;
    }
  if (results && strcmp (vectors, "-") == 0 && strcmp (results, "-") == 0)
    {
      fprintf (stderr, "verify: the vectors and the results cannot both be stdin ('-')\n");
      goto out;
    }
  mxv_header_init (&st->h);
  if ((fv = mxv_open (vectors, &st->h, 1)) == NULL)
    goto out;
  st->hr = st->h;
  if (results)
    {
      if ((fr = mxv_open (results, &st->hr, 0)) == NULL)
        goto out;
      if (mxv_header_compare (&st->h, &st->hr, err, sizeof err) != 0)
        {
          mxv_lines_error (mxv_file_lines (fr), "%s", err);
          goto out;
        }
    }
  for (;;)
    {
      int has_flags = 1, gv, gr;
      mxv__case_clear (&st->h, &st->e);
      if ((gv = mxv_read_case (fv, &st->e, MXV_LINE_FULL, &has_flags)) < 0)
        goto out;
      if (results)
        {
          gr = mxv_read_case (fr, &st->o, MXV_LINE_FULL_OR_OUTPUTS, &has_flags);
          if (gr < 0)
            goto out;
          if (gr != gv)
            {
              mxv_lines_error (mxv_file_lines (fr), gv ? "fewer cases than the vectors (expected one line per case)"
                                                       : "more cases than the vectors");
              goto out;
            }
        }
      if (gv == 0)
        break;
      mxv_lines *at = mxv_file_lines (results ? fr : fv);
      snprintf (where, sizeof where, "case %lld (%s:%lu)", passed + failed + 1, mxv_lines_name (at),
                mxv_lines_number (at));
      if (!results)
        {
          /* the file carries observed outputs: recompute the expected ones */
          mxv__case_copy (&st->h, &st->o, &st->e);
          if (mxv_compute (&st->h, &st->e) != MX_OK)
            {
              mxv_lines_error (at, "the golden model rejected this case");
              goto out;
            }
        }
      int report = opt->errors == 0 || failed < opt->errors;
      if (compare (&st->h, &st->e, &st->o, has_flags, opt, report, where) == 0)
        passed++;
      else
        {
          if (report)
            show_inputs (&st->h, &st->e);
          if (failed++ == 0)
            opt->first_failed = passed + failed;
        }
    }
  opt->passed = passed;
  opt->failed = failed;
  printf ("%lld passed, %lld failed\n", passed, failed);
  rc = failed ? 1 : 0;
out:
  mxv_close (fv);
  mxv_close (fr);
  free (st);
  if (fflush (stdout) != 0 || ferror (stdout))
    {
      fprintf (stderr, "verify: write error on standard output\n");
      rc = 2;
    }
  return rc;
}
