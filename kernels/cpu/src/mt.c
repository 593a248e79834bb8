/* mt.c -- mxk_quantize_mt and mxk_dequantize_mt: the n/32 blocks cut into contiguous chunks, one
 * per thread, each run by one path's one-thread kernel.  A block's results depend on that block
 * alone and every kernel writes only its own blocks' bytes (whole packed blocks, scales of its
 * own blocks), so the chunks never share a byte and the output is the one-thread call's.
 * SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>
#include "internal.h"

/* One call's arguments; the pointers of chunk 0 (the whole call's). */
typedef struct
{
  const mxk__ops *ops;                 /* read once: every chunk runs the same path */
  int dq;                              /* 0 quantize, 1 dequantize */
  uint8_t *scales, *codes;             /* quantize outputs */
  const void *in;
  mx_format_id io_fmt, elem;           /* io_fmt: quantize's input, dequantize's output */
  mx_scale_rule rule;
  mx_rounding rnd;
  mx_packing packing;
  void *out;                           /* dequantize */
  const uint8_t *cscales, *ccodes;
} mt_call;

typedef struct
{
  const mt_call *c;
  size_t b0, nb;                       /* first block, blocks */
  int rc;
  pthread_t tid;
} mt_chunk;

static int
run_chunk (mt_chunk *k)
{
  const mt_call *c = k->c;
  size_t pb = mxk__packed_block_bytes (c->packing), io = c->io_fmt == MX_BF16 ? 2 : 4;
  size_t e0 = k->b0 * MX_BLOCK;        /* first element */
  if (c->dq)
    return c->ops->dequantize ((uint8_t *) c->out + e0 * io, c->io_fmt, c->cscales + k->b0,
                               c->ccodes + k->b0 * pb, k->nb * MX_BLOCK, c->elem, c->packing);
  return c->ops->quantize (c->scales + k->b0, c->codes + k->b0 * pb,
                           (const uint8_t *) c->in + e0 * io, c->io_fmt, k->nb * MX_BLOCK,
                           c->elem, c->rule, c->rnd, c->packing);
}

static void *
worker (void *arg)
{
  mt_chunk *k = arg;
  k->rc = run_chunk (k);
  return NULL;
}

/* The threads a call uses: the count asked (0: online CPUs), at most one per MXK_MT_MIN_BLOCKS
 * blocks, at least 1. */
static size_t
nworkers (unsigned threads, size_t nb)
{
  size_t t = threads;
  if (t == 0)
    {
      long cpus = sysconf (_SC_NPROCESSORS_ONLN);
      t = cpus < 1 ? 1 : cpus > MXK_MT_MAX_THREADS ? MXK_MT_MAX_THREADS : (size_t) cpus;
    }
  size_t most = (nb + MXK_MT_MIN_BLOCKS - 1) / MXK_MT_MIN_BLOCKS;
  t = t < most ? t : most;
  return t ? t : 1;
}

/* Chunks on multiples of MXK_MT_ALIGN_BLOCKS blocks (the last one ends at nb), as even as that
 * allows; threads 1.. started, the caller runs chunk 0, all joined; the first error returned. */
static int
run (const mt_call *c, size_t nb, unsigned threads)
{
  size_t w = nworkers (threads, nb);
  if (w == 1)
    {
      mt_chunk k = { .c = c, .nb = nb };
      return run_chunk (&k);
    }
  mt_chunk *ks = calloc (w, sizeof *ks);
  if (ks == NULL)
    return MX_ENOMEM;
  size_t units = (nb + MXK_MT_ALIGN_BLOCKS - 1) / MXK_MT_ALIGN_BLOCKS; /* >= w: nb > (w-1) * MIN */
  for (size_t i = 0; i < w; i++)
    {
      size_t u0 = i * units / w, u1 = (i + 1) * units / w;
      size_t e = u1 * MXK_MT_ALIGN_BLOCKS < nb ? u1 * MXK_MT_ALIGN_BLOCKS : nb;
      ks[i].c = c, ks[i].b0 = u0 * MXK_MT_ALIGN_BLOCKS, ks[i].nb = e - ks[i].b0;
    }
  size_t started = 1;
  int rc = MX_OK;
  for (; started < w; started++)
    if (pthread_create (&ks[started].tid, NULL, worker, &ks[started]) != 0)
      {
        rc = MX_ENOMEM;
        break;
      }
  if (rc == MX_OK)
    ks[0].rc = run_chunk (&ks[0]);
  for (size_t i = 1; i < started; i++)
    if (pthread_join (ks[i].tid, NULL) != 0 && rc == MX_OK)
      rc = MX_ENOMEM;                  /* not seen: a thread of ours, joined once */
  for (size_t i = 0; i < started && rc == MX_OK; i++)
    rc = ks[i].rc;
  free (ks);
  return rc;
}

int
mxk_quantize_mt (uint8_t *scales, uint8_t *codes, const void *in, mx_format_id in_fmt, size_t n,
                 mx_format_id elem, mx_scale_rule rule, mx_rounding rnd, mx_packing packing,
                 unsigned threads)
{
  if (threads > MXK_MT_MAX_THREADS || mxk__check (in_fmt, n, elem, rule, rnd, packing))
    return MX_EINVAL;
  mt_call c = { mxk__ops_now (), 0, scales, codes, in, in_fmt, elem, rule, rnd, packing,
                NULL, NULL, NULL };
  return run (&c, n / MX_BLOCK, threads);
}

int
mxk_dequantize_mt (void *out, mx_format_id out_fmt, const uint8_t *scales, const uint8_t *codes,
                   size_t n, mx_format_id elem, mx_packing packing, unsigned threads)
{
  if (threads > MXK_MT_MAX_THREADS || mxk__check_dq (out_fmt, n, elem, packing))
    return MX_EINVAL;
  mt_call c = { mxk__ops_now (), 1, NULL, NULL, NULL, out_fmt, elem, MX_SCALE_FLOOR, MX_RNE,
                packing, out, scales, codes };
  return run (&c, n / MX_BLOCK, threads);
}
