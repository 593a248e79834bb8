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
#include <zlib.h>
#include "tests.h"

#define NC 3
/* cases are 288 KiB each: static, never on the stack */
static mxv_case cases[NC], mod[NC], scratch;
static long long nall, want[NC];
static int want_nan, have_nan;
static char dir[] = "/tmp/tverifyXXXXXX", vec[256], res[256];

/* keep the cases whose index is in want[]; with want_nan, the first NaN-scale block replaces the
 * last case */
static int
collect (void *ctx, mxv_case *c)
{
  (void) ctx;
  for (int i = 0; i < NC; i++)
    if (nall == want[i] && !(i == NC - 1 && have_nan))
      cases[i] = *c;
  if (want_nan && !have_nan && c->scale == 0xFF)
    {
      cases[NC - 1] = *c;
      have_nan = 1;
    }
  nall++;
  return 0;
}

/* Generate h's cases and keep the first, the middle and the last one (quantize: the last is
 * replaced by a NaN-scale block, whose codes verify must ignore). */
static void
pick_cases (const mxv_header *h)
{
  char err[256];
  long long total = mxv_generate (h, 0, 0, NULL, NULL, err, sizeof err);
  want[0] = 0, want[1] = total / 2, want[2] = total - 1;
  want_nan = h->op == MXV_QUANTIZE || h->op == MXV_MXS, have_nan = 0;
  nall = 0;
  mxv_generate (h, 0, 0, collect, NULL, err, sizeof err);
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

static int strict = 1;

static int
run_verify (const char *v, const char *r, long *failed, long *first)
{
  mxv_verify_opts o = { 0, 0, 0, 0, strict, 0, 0, 0 }; /* strict: every bit counts */
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
      mxv_case *c = &scratch;
      mxv_field f[MXV_MAX_FIELDS];
      *c = cases[ci];
      int nf = mxv_fields (h, c, f);
      for (int fi = 0; fi < nf; fi++)
        {
          if (!f[fi].output)
            continue;
          int packed_codes = f[fi].kind == MXV_F_PACKED;
          size_t count = packed_codes ? h->k : f[fi].count;
          unsigned bits = packed_codes ? h->elem->bits : f[fi].bits;
          for (size_t j = 0; j < count; j++)
            for (unsigned b = 0; b < bits; b++)
              {
                memcpy (mod, cases, sizeof mod);
                /* the same field of mod[ci] (packed codes: the unpacked code they carry) */
                uint64_t *v = packed_codes ? &mod[ci].codes[j]
                              : (uint64_t *) ((char *) &mod[ci] + ((char *) &f[fi].v[j] - (char *) c));
                *v ^= (uint64_t) 1 << b;
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

/* good with the first occurrence of from replaced by to, into bad */
static const char *
edit (char *bad, const char *good, const char *from, const char *to)
{
  const char *at = strstr (good, from);
  CHECK (at != NULL, "edit: '%s' not found", from);
  if (at == NULL)
    return strcpy (bad, good);
  size_t pre = (size_t) (at - good);
  memcpy (bad, good, pre);
  strcpy (bad + pre, to);
  strcat (bad, at + strlen (from));
  return bad;
}

/* good with word w (0-based) of its first case line replaced by to, into bad */
static const char *
edit_word (char *bad, const char *good, size_t w, const char *to)
{
  const char *p = good;
  while (*p == '#')
    p = strchr (p, '\n') + 1;
  for (size_t i = 0; i < w; i++)
    p = strchr (p, ' ') + 1;
  size_t pre = (size_t) (p - good), len = strcspn (p, " \n");
  memcpy (bad, good, pre);
  strcpy (bad + pre, to);
  strcat (bad, p + len);
  return bad;
}

/* Write n raw bytes (NULs included) to path. */
static void
write_raw (const char *path, const char *bytes, size_t len)
{
  FILE *f = fopen (path, "wb");
  fwrite (bytes, 1, len, f);
  fclose (f);
}

/* verify FILE on a file written raw, which must be malformed (exit 2) */
static void
expect_malformed_raw (const char *what, const char *path, const char *bytes, size_t len)
{
  long failed, first;
  write_raw (path, bytes, len);
  n++;
  int rc = run_verify (path, NULL, &failed, &first);
  CHECK (rc == 2, "malformed (%s): rc %d, want 2", what, rc);
}

/* text gzip-compressed with zlib into *len bytes (malloc'd) */
static char *
gzip_of (const char *text, size_t *len)
{
  z_stream z;
  memset (&z, 0, sizeof z);
  deflateInit2 (&z, 9, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
  size_t cap = deflateBound (&z, strlen (text)) + 64;
  char *out = malloc (cap);
  z.next_in = (unsigned char *) text;
  z.avail_in = (uInt) strlen (text);
  z.next_out = (unsigned char *) out;
  z.avail_out = (uInt) cap;
  deflate (&z, Z_FINISH);
  *len = cap - z.avail_out;
  deflateEnd (&z);
  return out;
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
  struct { mxv_op op; mx_format_id f; mx_packing pk; mx_rounding r; } ops[] = {
    { MXV_QUANTIZE, MX_E4M3, MX_PACKING_UNPACKED, MX_RNE }, { MXV_QUANTIZE, MX_E2M1, MX_PACKING_FP4_J_J16, MX_RNE },
    { MXV_QUANTIZE, MX_E3M2, MX_PACKING_FP6_3BYTE, MX_SR }, { MXV_CAST, MX_E2M1, MX_PACKING_UNPACKED, MX_RNA },
    { MXV_DECODE, MX_E5M2, MX_PACKING_UNPACKED, MX_RNE }, { MXV_DEQUANTIZE, MX_INT8, MX_PACKING_UNPACKED, MX_RNE },
    { MXV_DOT, MX_E4M3, MX_PACKING_UNPACKED, MX_RNE }, { MXV_GEMM, MX_E2M1, MX_PACKING_UNPACKED, MX_RNE },
  };
  static mxv_header h;
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
    {
      mxv_header_init (&h);
      h.op = ops[i].op;
      h.elem = mx_format_get (ops[i].f);
      h.packing = ops[i].pk;
      h.rnd = ops[i].r;
      h.elem_b = mx_format_get (MX_E5M2);
      h.dp.accum = h.op == MXV_GEMM ? MX_ACCUM_BLOCK_FP32 : MX_ACCUM_EXACT;
      h.nblocks = 2;
      strcpy (h.command, "tverify");
      pick_cases (&h);
      flips (&h);
    }

  /* the two-level ops: nvfp4 with the amax computed, and given under sr in 2D; mxs with a
   * NaN-scale block last (its shifts and codes are out of scope unless strict), and under
   * Quark's torch policy */
  for (int i = 0; i < 4; i++)
    {
      mxv_header_init (&h);
      h.op = i < 2 ? MXV_NVFP4 : MXV_MXS;
      h.k = 16;
      if (h.op == MXV_NVFP4)
        {
          h.elem = mx_format_get (MX_E2M1);
          h.scale = mx_format_get (MX_UE4M3);
          h.rows = 1, h.cols = 16;
          h.tile_2d = h.amax_given = i == 1;
          h.rnd = i == 1 ? MX_SR : MX_RNE;
        }
      else
        {
          h.mxs = i == 2 ? MX_MXS_MX6 : MX_MXS_MX4;
          h.elem = mx_mxs_get (h.mxs)->elem;
          h.rnd = i == 2 ? MX_RNA : MX_RNE;
          if (i == 3)
            h.pol.subnormals = MX_SUBNORMALS_FLUSH, h.pol.nan_block = MX_NAN_BLOCK_IGNORE,
            h.pol.inf_block = MX_INF_BLOCK_ZERO;
        }
      strcpy (h.command, "tverify");
      pick_cases (&h);
      CHECK (h.op != MXV_MXS || i == 3 || have_nan, "mxs: no NaN-scale block");
      flips (&h);
      if (h.op == MXV_MXS && have_nan)
        {
          /* without --strict, every shift and code of the NaN-scale block may differ */
          long failed, first;
          memcpy (mod, cases, sizeof mod);
          for (size_t j = 0; j < 8; j++)
            mod[NC - 1].shifts[j] ^= 1;
          for (size_t j = 0; j < 16; j++)
            mod[NC - 1].codes[j] ^= 1;
          write_file (res, &h, mod, NC);
          strict = 0;
          n++;
          CHECK (run_verify (vec, res, &failed, &first) == 0, "mxs: shifts and codes under a NaN scale are compared");
          strict = 1;
          n++;
          CHECK (run_verify (vec, res, &failed, &first) == 1, "mxs --strict: shifts and codes under a NaN scale are not compared");
        }
    }

  /* malformed input, built from a good 3-case quantize file */
  mxv_header_init (&h);
  h.elem = mx_format_get (MX_E2M1);
  strcpy (h.command, "tverify");
  want[0] = 0, want[1] = 1, want[2] = 2, want_nan = 0, have_nan = 0, nall = 0;
  char err[256];
  mxv_generate (&h, 0, 0, collect, NULL, err, sizeof err);
  write_file (vec, &h, cases, NC);
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

  /* issue 10: the declared count is checked, and so is every header number */
  expect_malformed ("cases: abc", edit (bad, good, "cases: 3", "cases: abc"), NULL);
  expect_malformed ("cases: 0", edit (bad, good, "cases: 3", "cases: 0"), NULL);
  expect_malformed ("no cases key", edit (bad, good, "# cases: 3\n", ""), NULL);
  expect_malformed ("cases: 99999", edit (bad, good, "cases: 3", "cases: 99999"), NULL);
  expect_malformed ("block -1", edit (bad, good, "block: 32", "block: -1"), NULL);
  expect_malformed ("block 12abc", edit (bad, good, "block: 32", "block: 12abc"), NULL);
  expect_malformed ("sr-bits 4294967297", edit (bad, good, "sr-bits: 16", "sr-bits: 4294967297"), NULL);
  expect_malformed ("zero-scale 1FF", edit (bad, good, "zero-scale: 00", "zero-scale: 1FF"), NULL);
  expect_malformed ("seed 99999999999999999999", edit (bad, good, "seed: 1", "seed: 99999999999999999999"), NULL);
  expect_malformed ("header line after a case", strcat (strcpy (bad, good), "# op: cast\n"), NULL);
  expect_malformed ("results header output: bf16", good, edit (bad, good, "output: fp32", "output: bf16"));
  expect_malformed ("results header overflow: ovf", good, edit (bad, good, "overflow: sat", "overflow: ovf"));
  {
    long failed, first;
    n++;
    CHECK (run_verify ("-", "-", &failed, &first) == 2, "--vectors - --results - is accepted");
    n++;
    CHECK (run_verify (dir, NULL, &failed, &first) == 2, "a directory is accepted");
  }
  /* a NUL byte inside a line is an error, not the end of the line */
  {
    size_t l = strlen (good);
    char *raw = malloc (l + 1);
    memcpy (raw, good, l);
    raw[l - 5] = 0;
    expect_malformed_raw ("NUL byte", vec, raw, l);
    free (raw);
  }
  /* an endless line: bounded memory, a clear error */
  {
    size_t l = (size_t) MXV_MAX_LINE + 4096;
    char *raw = malloc (l);
    memset (raw, '0', l);
    size_t hl = (size_t) (last + 1 - good);
    memcpy (raw, good, hl); /* the header, then the endless line */
    expect_malformed_raw ("line longer than the limit", vec, raw, l);
    free (raw);
  }
  /* .gz: a good stream verifies; a bad CRC, a missing trailer, trailing junk do not */
  {
    char gz[300];
    size_t gl;
    long failed, first;
    char *z = gzip_of (good, &gl), *zz = malloc (gl + 16);
    snprintf (gz, sizeof gz, "%s/g.mxv.gz", dir);
    write_raw (gz, z, gl);
    n++;
    CHECK (run_verify (gz, NULL, &failed, &first) == 0, "good .gz does not verify");
    memcpy (zz, z, gl);
    zz[gl - 8] ^= 1; /* the CRC */
    expect_malformed_raw (".gz bad CRC", gz, zz, gl);
    expect_malformed_raw (".gz missing trailer", gz, z, gl - 4);
    memcpy (zz, z, gl);
    memcpy (zz + gl, "junk\n", 5);
    expect_malformed_raw (".gz trailing junk", gz, zz, gl + 5);
    expect_malformed_raw (".gz empty", gz, z, 0);
    memcpy (zz, z, gl);
    zz[gl / 2] ^= 0x55; /* the compressed data */
    expect_malformed_raw (".gz corrupt data", gz, zz, gl);
    remove (gz);
    free (z);
    free (zz);
  }
  /* dot and gemm header fields: tc parameters and sizes are range-checked */
  {
    mxv_header_init (&h);
    h.op = MXV_DOT;
    h.elem = mx_format_get (MX_E4M3);
    h.dp.accum = MX_ACCUM_TENSOR_CORE;
    strcpy (h.command, "tverify");
    want[0] = 0, want[1] = 1, want[2] = 2, want_nan = 0, have_nan = 0, nall = 0;
    mxv_generate (&h, 0, 0, collect, NULL, err, sizeof err);
    write_file (vec, &h, cases, NC);
    char *dot = slurp (vec), *bd = malloc (strlen (dot) + 64);
    long failed, first;
    n++;
    CHECK (run_verify (vec, vec, &failed, &first) == 0, "good tensor-core dot file fails");
    expect_malformed ("tc group 0", edit (bd, dot, "group 32 ", "group 0 "), NULL);
    expect_malformed ("tc group 4294967295", edit (bd, dot, "group 32 ", "group 4294967295 "), NULL);
    expect_malformed ("tc frac-bits 1000", edit (bd, dot, "frac-bits 13 ", "frac-bits 1000 "), NULL);
    expect_malformed ("tc frac-bits -5", edit (bd, dot, "frac-bits 13 ", "frac-bits -5 "), NULL);
    expect_malformed ("tc cin-in-group 7", edit (bd, dot, "cin-in-group 1 ", "cin-in-group 7 "), NULL);
    expect_malformed ("tc junk", edit (bd, dot, "scale-point product", "scale-point product x 1"), NULL);
    expect_malformed ("blocks 0", edit (bd, dot, "blocks: 1", "blocks: 0"), NULL);
    free (dot);
    free (bd);
    h.op = MXV_GEMM;
    h.dp.accum = MX_ACCUM_EXACT;
    h.k = 1, h.gm = h.gn = h.gkdim = 2;
    want[0] = 0, want[1] = 1, want[2] = 2, nall = 0;
    mxv_generate (&h, 0, 0, collect, NULL, err, sizeof err);
    write_file (vec, &h, cases, NC);
    char *gm = slurp (vec), *bg = malloc (strlen (gm) + 64);
    n++;
    CHECK (run_verify (vec, vec, &failed, &first) == 0, "good gemm file fails");
    expect_malformed ("gemm m 2^63", edit (bg, gm, "m 2 n 2 kdim 2", "m 9223372036854775808 n 2 kdim 2"), NULL);
    expect_malformed ("gemm m*kdim > limit", edit (bg, gm, "m 2 n 2 kdim 2", "m 4096 n 2 kdim 2"), NULL);
    expect_malformed ("gemm kdim 0", edit (bg, gm, "m 2 n 2 kdim 2", "m 2 n 2 kdim 0"), NULL);
    free (gm);
    free (bg);
  }
  /* nvfp4 and mxs headers and bodies */
  {
    long failed, first;
    mxv_header_init (&h);
    h.op = MXV_NVFP4;
    h.elem = mx_format_get (MX_E2M1);
    h.scale = mx_format_get (MX_UE4M3);
    h.k = 16, h.rows = 1, h.cols = 16;
    strcpy (h.command, "tverify");
    want[0] = 0, want[1] = 1, want[2] = 2, want_nan = 0, have_nan = 0, nall = 0;
    mxv_generate (&h, 0, 0, collect, NULL, err, sizeof err);
    write_file (vec, &h, cases, NC);
    char *nv = slurp (vec), *bn = malloc (strlen (nv) + 64);
    n++;
    CHECK (run_verify (vec, vec, &failed, &first) == 0, "good nvfp4 file fails");
    const char *sh = "rows 1 cols 16 tile 1d amax tensor";
    expect_malformed ("nvfp4 rows 0", edit (bn, nv, sh, "rows 0 cols 16 tile 1d amax tensor"), NULL);
    expect_malformed ("nvfp4 cols 20", edit (bn, nv, sh, "rows 1 cols 20 tile 1d amax tensor"), NULL);
    expect_malformed ("nvfp4 cols 0", edit (bn, nv, sh, "rows 1 cols 0 tile 1d amax tensor"), NULL);
    expect_malformed ("nvfp4 rows x cols > limit", edit (bn, nv, sh, "rows 4096 cols 16 tile 1d amax tensor"), NULL);
    expect_malformed ("nvfp4 rows 2^64", edit (bn, nv, sh, "rows 18446744073709551616 cols 16 tile 1d amax tensor"), NULL);
    expect_malformed ("nvfp4 tile 3d", edit (bn, nv, sh, "rows 1 cols 16 tile 3d amax tensor"), NULL);
    expect_malformed ("nvfp4 amax maybe", edit (bn, nv, sh, "rows 1 cols 16 tile 1d amax maybe"), NULL);
    expect_malformed ("nvfp4 trailing junk", edit (bn, nv, sh, "rows 1 cols 16 tile 1d amax tensor x"), NULL);
    expect_malformed ("nvfp4 no tile", edit (bn, nv, sh, "rows 1 cols 16"), NULL);
    expect_malformed ("nvfp4 elem e4m3", edit (bn, nv, "elem: e2m1", "elem: e4m3"), NULL);
    expect_malformed ("nvfp4 scale e8m0", edit (bn, nv, "scale: ue4m3", "scale: e8m0"), NULL);
    expect_malformed ("nvfp4 block 32", edit (bn, nv, "block: 16", "block: 32"), NULL);
    expect_malformed ("nvfp4 input fp64", edit (bn, nv, "input: fp32", "input: fp64"), NULL);
    expect_malformed ("nvfp4 rounding rna", edit (bn, nv, "rounding: rne", "rounding: rna"), NULL);
    expect_malformed ("nvfp4 policy key", edit (bn, nv, "# op: nvfp4\n", "# op: nvfp4\n# scale-rule: ceil\n"), NULL);
    expect_malformed ("nvfp4 packing", edit (bn, nv, "# op: nvfp4\n", "# op: nvfp4\n# packing: fp4-lo-first\n"), NULL);
    /* the body: 16 inputs, amax, S_enc, 1 scale, 16 codes, 16 values, flags */
    expect_malformed ("nvfp4 short amax word", edit_word (bn, nv, 16, "4528"), NULL);
    expect_malformed ("nvfp4 3-digit scale", edit_word (bn, nv, 18, "07E"), NULL);
    expect_malformed ("nvfp4 code 10", edit_word (bn, nv, 19, "10"), NULL);
    expect_malformed ("nvfp4 bad hex value", edit_word (bn, nv, 35, "3F80000G"), NULL);
    expect_malformed ("nvfp4 truncated line", edit_word (bn, nv, 51, ""), NULL);
    expect_malformed ("nvfp4 one word more", edit_word (bn, nv, 51, "00 00"), NULL);
    expect_malformed ("nvfp4 results header given", nv, edit (bn, nv, "amax tensor", "amax given"));
    /* given amax under sr: the amax is an input, then come 16 random words */
    h.amax_given = 1, h.rnd = MX_SR;
    want[0] = 0, want[1] = 1, want[2] = 2, nall = 0;
    mxv_generate (&h, 0, 0, collect, NULL, err, sizeof err);
    write_file (vec, &h, cases, NC);
    free (nv);
    free (bn);
    nv = slurp (vec);
    bn = malloc (strlen (nv) + 64);
    n++;
    CHECK (run_verify (vec, vec, &failed, &first) == 0, "good nvfp4 sr file fails");
    expect_malformed ("nvfp4 9-digit random word", edit_word (bn, nv, 16, "123456789"), NULL);
    expect_malformed ("nvfp4 amax with its sign set", edit_word (bn, nv, 32, "C5280000"), NULL);
    expect_malformed ("nvfp4 results: bare outputs without the given amax", nv,
                      "3F800000 7E 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00\n");
    free (nv);
    free (bn);

    mxv_header_init (&h);
    h.op = MXV_MXS;
    h.mxs = MX_MXS_MX9;
    h.elem = mx_mxs_get (h.mxs)->elem;
    h.k = 16;
    strcpy (h.command, "tverify");
    want[0] = 0, want[1] = 1, want[2] = 2, nall = 0;
    mxv_generate (&h, 0, 0, collect, NULL, err, sizeof err);
    write_file (vec, &h, cases, NC);
    char *mx = slurp (vec), *bm = malloc (strlen (mx) + 64);
    n++;
    CHECK (run_verify (vec, vec, &failed, &first) == 0, "good mxs file fails");
    expect_malformed ("mxs: mx7", edit (bm, mx, "mxs: mx9", "mxs: mx7"), NULL);
    expect_malformed ("mxs key missing", edit (bm, mx, "# mxs: mx9\n", ""), NULL);
    expect_malformed ("mxs with an elem key", edit (bm, mx, "# mxs: mx9\n", "# mxs: mx9\n# elem: e4m3\n"), NULL);
    expect_malformed ("mxs with an elem key first", edit (bm, mx, "# op: mxs\n", "# op: mxs\n# elem: e4m3\n"), NULL);
    expect_malformed ("mxs block 32", edit (bm, mx, "block: 16", "block: 32"), NULL);
    expect_malformed ("mxs scale ue4m3", edit (bm, mx, "scale: e8m0", "scale: ue4m3"), NULL);
    expect_malformed ("mxs rounding sr", edit (bm, mx, "rounding: rne", "rounding: sr"), NULL);
    expect_malformed ("mxs scale-rule ceil", edit (bm, mx, "scale-rule: floor", "scale-rule: ceil"), NULL);
    expect_malformed ("mxs inf-block maxscale", edit (bm, mx, "inf-block: nan", "inf-block: maxscale"), NULL);
    /* the body: 16 inputs, scale, 8 shifts, 16 codes, 16 values, flags */
    expect_malformed ("mxs shift 02", edit_word (bm, mx, 17, "02"), NULL);
    expect_malformed ("mxs 1-digit shift", edit_word (bm, mx, 17, "1"), NULL);
    expect_malformed ("mxs code 100", edit_word (bm, mx, 25, "100"), NULL);
    expect_malformed ("mxs truncated line", edit_word (bm, mx, 57, ""), NULL);
    expect_malformed ("mxs results header mx6", mx, edit (bm, mx, "mxs: mx9", "mxs: mx6"));
    free (mx);
    free (bm);
  }
  free (bad);
  free (good);
  remove (vec);
  remove (res);
  rmdir (dir);
  return finish ("tverify", n);
}
