/* cmd_gemm.c -- mxgold gemm FILE: every case of a gemm .mxv file computed by libmxgold (mx_gemm),
 * its C values and flags printed as bare output lines (what 'mxgold verify --results' reads).
 * SPDX-License-Identifier: MIT */
#include "cli.h"

static int
one_case (void *ctx, const mxv_header *h, mxv_case *c, const char *file, unsigned long line)
{
  if (h->op != MXV_GEMM) /* checked at the first case, before any output */
    {
      fprintf (stderr, "%s:%lu: the file holds %s vectors; mxgold gemm reads gemm vectors\n", file,
               line, mxv_op_names[h->op]);
      return 2;
    }
  return mxv_print_outputs (ctx, h, c, file, line);
}

static int
run (cli_args *a)
{
  const char *path = a->npos ? a->pos[0] : NULL;
  if (path == NULL)
    cli_usage_error (a, "needs a .mxv file of gemm cases (or - for stdin)");
  FILE *o = cli_out_open (a);
  int rc = mxv_each_case_inputs (path, one_case, o);
  if (rc == 1)
    {
      cli_out_close (a); /* a write error: it says so; -o FILE is left as it was */
      return 1;
    }
  if (rc != 0)
    {
      cli_out_discard ();
      if (o == stdout && fflush (o) == 0 && rc == 2)
        fprintf (stderr, "mxgold gemm: the output above, if any, is incomplete\n");
      return rc;
    }
  return cli_out_close (a);
}

static const int options[] = { O_OUTPUT, 0 };

const cli_command cli_gemm = {
  "gemm", "Compute every case of a gemm .mxv file (docs/vectors.md): one line of C values and "
  "flags per case, in the form 'mxgold verify --results' reads.",
  "FILE|- [-o OUT]",
  "Lines may carry the inputs only, or inputs and outputs (the outputs are ignored).  The file\n"
  "must hold gemm vectors and as many cases as its header declares, else exit 2 (with -o\n"
  "nothing is written; on stdout the lines so far stand, and a message says so).",
  options, 1, run
};
