/* cmd_verify.c -- mxgold verify: compare observed outputs with the vectors' (TestFloat style).
 * SPDX-License-Identifier: MIT */
#include "cli.h"

static int
run (cli_args *a)
{
  mxv_verify_opts vo = { 20, 0, 0, 0, 0, 0, 0, 0 };
  const char *file = a->npos ? a->pos[0] : NULL, *vectors = a->v[O_VECTORS];
  vo.errors = (long) cli_uint (a, O_ERRORS, 0, 1000000000, 20);
  vo.check_nans = a->v[O_CHECK_NANS] != NULL;
  vo.check_zero_sign = a->v[O_CHECK_ZERO_SIGN] != NULL;
  vo.ignore_flags = a->v[O_IGNORE_FLAGS] != NULL;
  vo.strict = a->v[O_STRICT] != NULL;
  if (file && vectors)
    cli_usage_error (a, "verify takes a file or --vectors, not both");
  if (a->v[O_RESULTS] && !vectors)
    cli_usage_error (a, "--results goes with --vectors F");
  if (!file && !vectors)
    cli_usage_error (a, "verify needs --vectors F --results R, or a file (or - for stdin)");
  if (vectors && !a->v[O_RESULTS])
    cli_usage_error (a, "--vectors goes with --results R (or give the file alone)");
  return mxv_verify_file (file ? file : vectors, a->v[O_RESULTS], &vo);
}

static const int options[] = { O_VECTORS, O_RESULTS, O_ERRORS, O_CHECK_NANS, O_CHECK_ZERO_SIGN,
                               O_IGNORE_FLAGS, O_STRICT, 0 };

const cli_command cli_verify = {
  "verify", "Check an implementation's outputs against conformance vectors; report the first "
  "mismatches decoded, then 'N passed, M failed'.",
  "--vectors F --results R | FILE | -",
  "With --vectors and --results, R holds one line per case: the full line with observed\n"
  "outputs, or the outputs alone (flags optional).  With FILE (or - for stdin), the file\n"
  "carries a header and observed outputs, and the expected ones are recomputed from it.\n"
  "By default NaN payloads, the sign of zero and element codes under a NaN scale are not\n"
  "compared.  .gz files are read through zlib.\n"
  "Exit 0: every case passed; 1: mismatches; 2: malformed input or an I/O error.",
  options, 1, run
};
