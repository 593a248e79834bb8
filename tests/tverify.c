/* tverify -- mxgold verify catches exactly what it must:
 *  - for every op, flipping any single bit of any expected field of a results file makes verify
 *    report exactly that case (and exit 1); the untouched file passes;
 *  - malformed vector/result files (truncated line, bad hex, wrong field count, header mismatch,
 *    empty file, ...) give exit 2, never a crash.
 * SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "mxv.h"
#include "tests.h"

#define NC 3
static mxv_case cases[NC + 1], all[4096];
static long nall;
static char dir[] = "/tmp/tverifyXXXXXX", vec[256], res[256];

static void
collect (void *ctx, mxv_case *c)
{
  (void) ctx;
  if (nall < 4096)
    all[nall++] = *c;
}

static void
write_file (const char *path, const mxv_header *h, const mxv_case *cs, int n)
{
  FILE *f = fopen (path, "w");
  mxv_header hh = *h;
  hh.cases = n;
  mxv_writer w;
  mxv_writer_begin (&w, f, MXV_EMIT_MXV, &hh);
  for (int i = 0; i < n; i++)
    {
      mxv_case c = cs[i];
      mxv_writer_case (&w, &c);
    }
  fclose (f);
}

static int
run_verify (const char *v, const char *r, long *failed, long *first)
{
  mxv_verify_opts o = { 0, 0, 0, 0, 1, 0, 0, 0 }; /* strict: every bit counts */
  fflush (stdout);
  fflush (stderr);
  int so = dup (1), se = dup (2), nul = open ("/dev/null", O_WRONLY);
  dup2 (nul, 1);
  dup2 (nul, 2);
  int rc = mxv_verify_file (v, r, &o);
  fflush (stdout);
  fflush (stderr);
  dup2 (so, 1);
  dup2 (se, 2);
  close (so);
  close (se);
  close (nul);
  *failed = o.failed;
  *first = o.first_failed;
  return rc;
}

static long n;

static void
flips (const mxv_header *h)
{
  long failed, first;
  write_file (vec, h, cases, NC);
  n++;
  CHECK (run_verify (vec, vec, &failed, &first) == 0 && failed == 0, "%s: untouched file fails",
         mxv_op_names[h->op]);
  for (int ci = 0; ci < NC; ci++)
    {
      mxv_case c = cases[ci];
      mxv_field f[MXV_MAX_FIELDS];
      uint64_t packed[MXV_MAX_K];
      int nf = mxv_fields (h, &c, packed, f);
      for (int fi = 0; fi < nf; fi++)
        {
          if (!f[fi].output)
            continue;
          int packed_codes = f[fi].codes == 2;
          size_t count = packed_codes ? h->k : f[fi].count;
          unsigned bits = packed_codes ? h->elem->bits : f[fi].bits;
          for (size_t j = 0; j < count; j++)
            for (unsigned b = 0; b < bits; b++)
              {
                mxv_case mod[NC];
                memcpy (mod, cases, sizeof mod);
                uint64_t *v = f[fi].v == NULL ? NULL : packed_codes ? &mod[ci].codes[j]
                              : (uint64_t *) ((char *) &mod[ci] + ((char *) &f[fi].v[j] - (char *) &c));
                if (v)
                  *v ^= (uint64_t) 1 << b;
                else
                  mod[ci].flags ^= 1u << b;
                write_file (res, h, mod, NC);
                int rc = run_verify (vec, res, &failed, &first);
                n++;
                CHECK (rc == 1 && failed == 1 && first == ci + 1,
                       "%s: flip of %s[%zu] bit %u in case %d: rc %d, %ld failed, first %ld",
                       mxv_op_names[h->op], f[fi].name, j, b, ci + 1, rc, failed, first);
              }
        }
    }
}

static void
expect_malformed (const char *what, const char *vtext, const char *rtext)
{
  long failed, first;
  FILE *f = fopen (vec, "w");
  fputs (vtext, f);
  fclose (f);
  if (rtext)
    {
      f = fopen (res, "w");
      fputs (rtext, f);
      fclose (f);
    }
  n++;
  int rc = run_verify (vec, rtext ? res : NULL, &failed, &first);
  CHECK (rc == 2, "malformed (%s): rc %d, want 2", what, rc);
}

static char *
slurp (const char *path)
{
  FILE *f = fopen (path, "r");
  static char buf[1 << 20];
  size_t len = fread (buf, 1, sizeof buf - 1, f);
  buf[len] = 0;
  fclose (f);
  return strdup (buf);
}

int
main (void)
{
  if (!mkdtemp (dir))
    return 1;
  snprintf (vec, sizeof vec, "%s/v.mxv", dir);
  snprintf (res, sizeof res, "%s/r.mxv", dir);
  struct { mxv_op op; mx_format_id f; mxv_packing pk; mx_rounding r; } ops[] = {
    { MXV_QUANTIZE, MX_E4M3, MXV_UNPACKED, MX_RNE }, { MXV_QUANTIZE, MX_E2M1, MXV_FP4_J_J16, MX_RNE },
    { MXV_QUANTIZE, MX_E3M2, MXV_FP6_3BYTE, MX_SR }, { MXV_CAST, MX_E2M1, MXV_UNPACKED, MX_RNA },
    { MXV_DECODE, MX_E5M2, MXV_UNPACKED, MX_RNE }, { MXV_DEQUANTIZE, MX_INT8, MXV_UNPACKED, MX_RNE },
    { MXV_DOT, MX_E4M3, MXV_UNPACKED, MX_RNE }, { MXV_GEMM, MX_E2M1, MXV_UNPACKED, MX_RNE },
  };
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
    {
      mxv_header h;
      char err[256];
      mxv_header_init (&h);
      h.op = ops[i].op;
      h.elem = mx_format_get (ops[i].f);
      h.packing = ops[i].pk;
      h.pol.rounding = ops[i].r;
      h.elem_b = mx_format_get (MX_E5M2);
      h.dp.accum = h.op == MXV_GEMM ? MX_ACCUM_BLOCK_FP32 : MX_ACCUM_EXACT;
      h.nblocks = 2;
      strcpy (h.command, "tverify");
      nall = 0;
      mxv_generate (&h, 0, 0, collect, NULL, err, sizeof err);
      /* cases: the first, one from the middle, and (quantize) a NaN-scale block */
      cases[0] = all[0];
      cases[1] = all[nall / 2];
      cases[2] = all[nall - 1];
      for (long j = 0; h.op == MXV_QUANTIZE && j < nall; j++)
        if (all[j].scale == 0xFF)
          {
            cases[2] = all[j];
            break;
          }
      flips (&h);
    }

  /* malformed input, built from a good 3-case quantize file */
  mxv_header h;
  mxv_header_init (&h);
  h.elem = mx_format_get (MX_E2M1);
  strcpy (h.command, "tverify");
  nall = 0;
  char err[256];
  mxv_generate (&h, 0, 0, collect, NULL, err, sizeof err);
  write_file (vec, &h, all, NC);
  char *good = slurp (vec);
  size_t len = strlen (good);
  char *last = good + len - 2;
  while (*last != '\n')
    last--;
  char *bad = malloc (2 * len + 64);

  expect_malformed ("empty file", "", NULL);
  expect_malformed ("header only", "# mxv-version: 1\n# op: quantize\n# elem: e2m1\n", NULL);
  expect_malformed ("no header", last + 1, NULL);
  strcpy (bad, good);
  bad[len - 1] = 0; /* no newline at the end */
  expect_malformed ("truncated last line", bad, NULL);
  strcpy (bad, good);
  strcpy (bad + len - 4, "\n"); /* one word short */
  expect_malformed ("wrong field count (short)", bad, NULL);
  strcpy (bad, good);
  strcpy (bad + len - 1, " 00\n");
  expect_malformed ("wrong field count (long)", bad, NULL);
  strcpy (bad, good);
  bad[len - 2] = 'G';
  expect_malformed ("bad hex", bad, NULL);
  strcpy (bad, good);
  memcpy (bad + len - 3, "1FF\n", 5); /* wider than the field */
  expect_malformed ("word too wide", bad, NULL);
  strcpy (bad, good);
  memcpy (strstr (bad, "mxv-version: 1"), "mxv-version: 9", 14);
  expect_malformed ("unknown version", bad, NULL);
  strcpy (bad, good);
  memcpy (strstr (bad, "elem: e2m1"), "elem: e9m9", 10);
  expect_malformed ("unknown format in header", bad, NULL);
  strcpy (bad, good);
  memcpy (strstr (bad, "cases: 3"), "cases: 4", 8);
  expect_malformed ("case count differs from header", bad, NULL);
  strcpy (bad, good);
  memcpy (strstr (bad, "elem: e2m1"), "elem: e3m2", 10);
  expect_malformed ("results header mismatch", good, bad);
  expect_malformed ("results empty", good, "");
  strcpy (bad, good);
  bad[last + 1 - good] = 0; /* drop the last case */
  expect_malformed ("results with fewer cases", good, bad);
  strcpy (bad, good);
  strcat (bad, last + 1); /* repeat the last case */
  expect_malformed ("results with more cases", good, bad);
  expect_malformed ("results: bad hex in bare outputs", good, "7E 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 ZZ 00\n");
  free (bad);
  free (good);
  remove (vec);
  remove (res);
  rmdir (dir);
  return finish ("tverify", n);
}
