/* fuzz.h -- shared by the fuzz harnesses: a scratch directory, files written there, and the
 * harnesses' standard output sent to /dev/null (a fuzzer checks for crashes, leaks and hangs, not text).
 * SPDX-License-Identifier: MIT */
#ifndef MX_FUZZ_H
#define MX_FUZZ_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

/* A private scratch directory (created once) and a path in it. */
static inline const char *
fuzz_path (const char *name)
{
  static char dir[64];
  static char path[160];
  if (!dir[0])
    {
      snprintf (dir, sizeof dir, "/tmp/mxfuzzXXXXXX");
      if (mkdtemp (dir) == NULL)
        abort ();
      /* the commands' output is not what a fuzzer checks (libFuzzer closes stderr too) */
      if (freopen ("/dev/null", "w", stdout) == NULL)
        abort ();
    }
  snprintf (path, sizeof path, "%s/%s", dir, name);
  return path;
}

/* Write n bytes to path (replacing it). */
static inline void
fuzz_write (const char *path, const uint8_t *data, size_t n)
{
  FILE *f = fopen (path, "wb");
  if (f == NULL || (n && fwrite (data, 1, n, f) != n) || fclose (f) != 0)
    abort ();
}
#endif
