/* replay -- without libFuzzer (any compiler): run a harness on every file of the directories
 * given (the seed corpus and tests/fuzz/regress/), so that every kept input stays a test.
 * SPDX-License-Identifier: MIT */
#include <dirent.h>
#include "fuzz.h"

int
main (int argc, char **argv)
{
  long n = 0;
  int out = dup (1); /* the harness sends stdout to /dev/null: report on the original */
  for (int i = 1; i < argc; i++)
    {
      DIR *d = opendir (argv[i]);
      struct dirent *e;
      if (d == NULL)
        continue;
      while ((e = readdir (d)) != NULL)
        {
          char path[4096];
          if (e->d_name[0] == '.' || strncmp (e->d_name, "README", 6) == 0)
            continue;
          snprintf (path, sizeof path, "%s/%s", argv[i], e->d_name);
          FILE *f = fopen (path, "rb");
          if (f == NULL)
            continue;
          static uint8_t buf[1 << 22];
          size_t len = fread (buf, 1, sizeof buf, f);
          fclose (f);
          LLVMFuzzerTestOneInput (buf, len);
          n++;
        }
      closedir (d);
    }
  dprintf (out, "replay: %ld inputs, no crash\n", n);
  return n > 0 ? 0 : 1;
}
