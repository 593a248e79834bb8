/* mxgold -- the command-line front end of libmxgold and libmxvec (mxgold --help).
 * SPDX-License-Identifier: MIT */
#include <errno.h>
#include <string.h>
#include "cli.h"

int
main (int argc, char **argv)
{
  int rc = mxgold_main (argc, argv);
  /* the final close of stdout: a write error that no earlier check saw */
  if (fclose (stdout) != 0 && rc == 0)
    {
      fprintf (stderr, "mxgold: write error on standard output: %s\n", strerror (errno));
      return 1;
    }
  return rc;
}
