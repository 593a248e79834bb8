/* vecdirs.h -- the committed vector files of one directory of the suite, for the tests that
 * stream them (tkernels, tcuda).  SPDX-License-Identifier: MIT */
#ifndef MX_VECDIRS_H
#define MX_VECDIRS_H
#include "mxvec.h"

/* fn (path, ctx) for every DIR/SUB/NAME.mxv, in byte (strcmp) order of NAME.  Returns the
 * number of files, 0 when the directory does not exist, -1 when it cannot be read (another
 * opendir or readdir error, a path too long, out of memory). */
long vec_each_file (const char *dir, const char *sub, void (*fn) (const char *path, void *ctx),
                    void *ctx);

/* What the vector cases streamed so far gave: files with cases, cases served. */
typedef struct { long files, cases; } vec_stat;

/* Every case of the vector file PATH through fn, whose ctx is v (fn counts v->cases); the file
 * counts in v->files when it gave cases.  Returns mxv_each_case's status (77: fn does not
 * serve the file); *empty is 1 when the file was read whole (status 0) but gave no case. */
int vec_stream_file (const char *path, mxv_case_fn fn, vec_stat *v, int *empty);
#endif
