/* output.c -- where a command's output goes (-o FILE), written so that nothing is ever left
 * half-written:
 *   - no -o, or '-': standard output;
 *   - a regular file (or a new one): a temporary file beside it, renamed over it only when every
 *     write and the close succeeded; the replaced file's mode is kept (a new file gets 0666 less
 *     the umask); SIGINT, SIGTERM, SIGHUP and SIGPIPE remove the temporary file;
 *   - a symlink: written through, to the file it points to (the link stays a link);
 *   - a character device, FIFO or socket (/dev/null, /dev/stdout, a pipe): written directly,
 *     never replaced.
 * SPDX-License-Identifier: MIT */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli.h"

static FILE *out;
static char target[PATH_MAX];            /* the file the temporary one replaces */
static volatile sig_atomic_t have_tmp;
static char tmp[PATH_MAX + 32];           /* read by the signal handler: set before have_tmp */

static void
on_signal (int sig)
{
  if (have_tmp)
    unlink (tmp);
  signal (sig, SIG_DFL);
  raise (sig);
}

static void
catch_signals (void)
{
  static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
  for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
    {
      struct sigaction sa;
      memset (&sa, 0, sizeof sa);
      sa.sa_handler = on_signal;
      sigemptyset (&sa.sa_mask);
      sigaction (sigs[i], &sa, NULL);
    }
}

static _Noreturn void
fail (const cli_args *a, const char *what, const char *path)
{
  fprintf (stderr, "mxgold %s: cannot write '%s': %s%s\n", a->cmd, path, what ? what : "",
           what ? "" : strerror (errno));
  exit (1);
}

FILE *
cli_out_open (const cli_args *a)
{
  const char *path = a->v[O_OUTPUT];
  struct stat st, lst;
  if (path == NULL || strcmp (path, "-") == 0)
    return out = stdout;
  if (strlen (path) >= sizeof target)
    fail (a, "the path is too long", path);
  strcpy (target, path);
  int exists = stat (path, &st) == 0;
  if (exists && S_ISDIR (st.st_mode))
    fail (a, "it is a directory", path);
  if (exists && !S_ISREG (st.st_mode))
    {
      /* a device, FIFO or socket: never replaced, written directly */
      if ((out = fopen (path, "w")) == NULL)
        fail (a, NULL, path);
      return out;
    }
  if (lstat (path, &lst) == 0 && S_ISLNK (lst.st_mode))
    {
      char *real = realpath (path, NULL);
      if (real == NULL || strlen (real) >= sizeof target)
        {
          /* a dangling link: create what it points to, directly */
          free (real);
          if ((out = fopen (path, "w")) == NULL)
            fail (a, NULL, path);
          return out;
        }
      strcpy (target, real);
      free (real);
    }
  /* the temporary file sits beside the target, so that rename is atomic */
  const char *slash = strrchr (target, '/');
  int dirlen = slash ? (int) (slash - target) + 1 : 0;
  snprintf (tmp, sizeof tmp, "%.*s.%s.tmpXXXXXX", dirlen, target, slash ? slash + 1 : target);
  catch_signals ();
  int fd = mkstemp (tmp);
  if (fd < 0)
    fail (a, NULL, path);
  have_tmp = 1;
  mode_t mode;
  if (exists)
    mode = st.st_mode & 07777;
  else
    {
      mode_t mask = umask (0);
      umask (mask);
      mode = 0666 & ~mask;
    }
  if (fchmod (fd, mode) != 0 || (out = fdopen (fd, "w")) == NULL)
    {
      int e = errno;
      close (fd);
      cli_out_discard ();
      errno = e;
      fail (a, NULL, path);
    }
  return out;
}

int
cli_out_failed (void)
{
  return out && ferror (out);
}

void
cli_out_discard (void)
{
  if (have_tmp)
    {
      if (out && out != stdout)
        fclose (out);
      out = NULL;
      unlink (tmp);
      have_tmp = 0;
    }
}

int
cli_out_close (const cli_args *a)
{
  int err = fflush (out) != 0 || ferror (out);
  int e = errno;
  if (out == stdout)
    {
      /* stdout is closed at exit too; a late error there is still caught by main */
      if (err)
        fprintf (stderr, "mxgold %s: write error on standard output: %s\n", a->cmd,
                 strerror (e ? e : EIO));
      return err;
    }
  err |= fclose (out) != 0;
  e = e ? e : errno;
  out = NULL;
  if (!err && have_tmp && rename (tmp, target) != 0)
    err = 1, e = errno;
  if (err)
    {
      fprintf (stderr, "mxgold %s: cannot write '%s': %s%s\n", a->cmd, a->v[O_OUTPUT],
               strerror (e ? e : EIO), have_tmp ? " (the file is left as it was)" : "");
      if (have_tmp)
        unlink (tmp);
      have_tmp = 0;
      return 1;
    }
  have_tmp = 0;
  return 0;
}
