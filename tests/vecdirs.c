/* vecdirs -- walk one directory of the vector suite in name order (POSIX dirent), and stream
 * one file's cases.
 * SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "vecdirs.h"

static int
by_name (const void *a, const void *b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

long
vec_each_file (const char *dir, const char *sub, void (*fn) (const char *path, void *ctx),
               void *ctx)
{
  char path[4096];
  if (snprintf (path, sizeof path, "%s/%s", dir, sub) >= (int) sizeof path)
    return -1;
  DIR *d = opendir (path);
  if (d == NULL)
    return errno == ENOENT ? 0 : -1;
  char **names = NULL;
  size_t n = 0, cap = 0;
  long rc = 0;
  errno = 0;
  for (struct dirent *e; (e = readdir (d)) != NULL; errno = 0)
    {
      size_t len = strlen (e->d_name);
      if (len <= 4 || strcmp (e->d_name + len - 4, ".mxv") != 0)
        continue;
      if (n == cap)
        {
          char **grown = realloc (names, (cap = cap ? 2 * cap : 64) * sizeof *names);
          if (grown == NULL)
            {
              rc = -1;
              break;
            }
          names = grown;
        }
      if ((names[n] = malloc (len + 1)) == NULL)
        {
          rc = -1;
          break;
        }
      memcpy (names[n++], e->d_name, len + 1);
    }
  if (errno != 0)
    rc = -1; /* readdir failed */
  closedir (d);
  if (rc == 0)
    {
      qsort (names, n, sizeof *names, by_name);
      rc = (long) n;
      for (size_t i = 0; i < n && rc >= 0; i++)
        if (snprintf (path, sizeof path, "%s/%s/%s", dir, sub, names[i]) < (int) sizeof path)
          fn (path, ctx);
        else
          rc = -1; /* a path too long to open */
    }
  for (size_t i = 0; i < n; i++)
    free (names[i]);
  free (names);
  return rc;
}

int
vec_stream_file (const char *path, mxv_case_fn fn, vec_stat *v, int *empty)
{
  long before = v->cases;
  int rc = mxv_each_case (path, fn, v);
  *empty = rc == 0 && v->cases == before;
  if (rc == 0 && !*empty)
    v->files++;
  return rc;
}
