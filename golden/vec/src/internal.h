/* internal.h -- shared by libmxvec's files; not installed.
 * SPDX-License-Identifier: MIT */
#ifndef MXV_INTERNAL_H
#define MXV_INTERNAL_H
#include <stdlib.h>
#include "mxvec.h"

/* The git hash of the build, for the '# generator:' line (git_hash.c, generated at build time). */
const char *mxv__git_hash (void);

/* Call fn for every key the header writes, in file order, with its value as text. */
typedef int (*mxv__header_fn) (void *ctx, const char *key, const char *value);
int mxv__header_each (const mxv_header *h, mxv__header_fn fn, void *ctx);

/* B's element format of a dot or gemm header. */
static inline const mx_format *
mxv__elem_b (const mxv_header *h)
{
  return h->elem_b ? h->elem_b : h->elem;
}

/* A case is 288 KiB, of which a line of h uses the leading words of each array: clear or copy
 * only those and the scalars.  The whole case, cleared and copied each line, was half of
 * verify's time. */
void mxv__case_clear (const mxv_header *h, mxv_case *c);
void mxv__case_copy (const mxv_header *h, mxv_case *dst, const mxv_case *src);
#endif
