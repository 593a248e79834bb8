/* main.c -- the mxgold command table: mxgold_main runs one command; main (mxgold.c) adds the
 * final close of stdout.  The fuzz harnesses call mxgold_main directly.
 * SPDX-License-Identifier: MIT */
#include <errno.h>
#include <string.h>
#include "cli.h"

static const cli_command *const commands[] = {
  &cli_quantize, &cli_dequantize, &cli_cast, &cli_dot, &cli_gemm, &cli_gen, &cli_verify,
  &cli_nvfp4, &cli_formats, &cli_profiles,
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void
usage (FILE *o)
{
  fprintf (o, "Usage: mxgold COMMAND [OPTIONS]     (mxgold COMMAND --help for its options)\n"
              "The bit-exact OCP MX v1.0 reference: values travel as hex bit patterns.\n\n"
              "Commands:\n");
  for (size_t i = 0; i < NCOMMANDS; i++)
    {
      const char *s = commands[i]->summary, *dot = strchr (s, ':');
      int n = dot ? (int) (dot - s) : (int) strlen (s);
      fprintf (o, "  %-11s %.*s\n", commands[i]->name, n, s);
    }
  fprintf (o, "\n  --help, --version\n\nSemantics: docs/semantics.md.  Vectors: docs/vectors.md."
              "  Profiles: docs/profiles.md.\n");
}

/* stdout flushed and checked (main closes it) */
static int
finish (int rc)
{
  if ((fflush (stdout) != 0 || ferror (stdout)) && rc == 0)
    {
      fprintf (stderr, "mxgold: write error on standard output: %s\n", strerror (errno));
      return 1;
    }
  return rc;
}

int
mxgold_main (int argc, char **argv)
{
  if (argc < 2)
    {
      usage (stderr);
      return 2;
    }
  const char *cmd = argv[1];
  if (strcmp (cmd, "--help") == 0 || strcmp (cmd, "-h") == 0)
    {
      usage (stdout);
      return finish (0);
    }
  if (strcmp (cmd, "--help-man") == 0)
    {
      printf (".TH MXGOLD 1 \"\" \"mxgold %s\" \"mxgold manual\"\n.SH NAME\nmxgold \\- the "
              "bit\\-exact OCP MX v1.0 reference\n.SH SYNOPSIS\n.B mxgold\nCOMMAND [OPTIONS]\n"
              ".SH COMMANDS\n", mx_version ());
      for (size_t i = 0; i < NCOMMANDS; i++)
        printf (".TP\n.B %s\nSee mxgold\\-%s(1).\n", commands[i]->name, commands[i]->name);
      printf (".SH SEE ALSO\ndocs/semantics.md, docs/vectors.md, docs/profiles.md\n");
      return finish (0);
    }
  if (strcmp (cmd, "--version") == 0)
    {
      printf ("mxgold %s (libmxgold %s, MPFR %s)\nOCP MX v1.0 reference model. License: MIT.\n",
              MX_VERSION_STRING, mx_version (), mpfr_get_version ());
      return finish (0);
    }
  for (size_t i = 0; i < NCOMMANDS; i++)
    if (strcmp (cmd, commands[i]->name) == 0)
      {
        cli_args a;
        cli_parse (commands[i], argc - 1, argv + 1, &a);
        return finish (commands[i]->run (&a));
      }
  fprintf (stderr, "mxgold: unknown command '%.40s' (", cmd);
  for (size_t i = 0; i < NCOMMANDS; i++)
    fprintf (stderr, "%s%s", i ? " " : "", commands[i]->name);
  fprintf (stderr, ")\n(try 'mxgold --help')\n");
  return 2;
}
