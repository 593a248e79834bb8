/* vecdirs.h -- the committed vector files of one directory of the suite, for the tests that
 * stream them (tkernels, tcuda).  SPDX-License-Identifier: MIT */
#ifndef MX_VECDIRS_H
#define MX_VECDIRS_H

/* fn (path, ctx) for every DIR/SUB/NAME.mxv, in byte (strcmp) order of NAME.  Returns the
 * number of files, 0 when the directory does not exist, -1 when it cannot be read (another
 * opendir or readdir error, a path too long, out of memory). */
long vec_each_file (const char *dir, const char *sub, void (*fn) (const char *path, void *ctx),
                    void *ctx);
#endif
