/* mt.c -- mxk_quantize_mt, mxk_quantize_sr_mt and mxk_dequantize_mt: the n/32 blocks cut into contiguous chunks that
 * the threads take in turn, each run by one path's one-thread kernel.  A block's results depend
 * on that block alone and every kernel writes only its own blocks' bytes (whole packed blocks,
 * the scales of its own blocks), so the chunks never share a byte and the output is the
 * one-thread call's.
 * SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
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
  const uint16_t *rbits;               /* sr: one word per element; else NULL */
  mx_packing packing;
  void *out;                           /* dequantize */
  const uint8_t *cscales, *ccodes;
  int whole;                           /* the whole call's size class (quantize: mxk__q_whole;
                                          dequantize: MXK_WHOLE_NT where mxk__dq_nt) */
} mt_call;

/* The chunks still to take, from a shared counter: chunk k is blocks [k * MXK_MT_CHUNK_BLOCKS,
 * (k + 1) * MXK_MT_CHUNK_BLOCKS) of nb.  A thread that runs slower (its core busy with other
 * work) takes fewer, so the call ends with the fastest threads, not the slowest. */
typedef struct
{
  const mt_call *c;
  size_t nb, nchunks;
  _Atomic size_t next;                 /* relaxed: it hands out indices; join orders the data */
} mt_queue;

typedef struct
{
  mt_queue *q;
  int rc;
  pthread_t tid;
} mt_worker;

static int
run_chunk (const mt_call *c, size_t b0, size_t nb)
{
  size_t pb = mxk__packed_block_bytes (c->packing), io = c->io_fmt == MX_BF16 ? 2 : 4;
  size_t e0 = b0 * MX_BLOCK;           /* first element */
  if (c->dq)
    return (c->whole == MXK_WHOLE_NT ? c->ops->dequantize_nt : c->ops->dequantize) (
      (uint8_t *) c->out + e0 * io, c->io_fmt, c->cscales + b0, c->ccodes + b0 * pb, nb * MX_BLOCK, c->elem,
      c->packing);
  /* the loop and stores of a one-thread call the size of the whole */
  int (*q) (uint8_t *, uint8_t *, const void *, mx_format_id, size_t, mx_format_id, mx_scale_rule,
            mx_rounding, const uint16_t *, mx_packing)
    = c->whole == MXK_WHOLE_NT ? c->ops->quantize_nt : c->whole == MXK_WHOLE_BIG ? c->ops->quantize_big
                                                                                  : c->ops->quantize;
  return q (c->scales + b0, c->codes + b0 * pb, (const uint8_t *) c->in + e0 * io, c->io_fmt, nb * MX_BLOCK,
            c->elem, c->rule, c->rnd, c->rbits ? c->rbits + e0 : NULL, c->packing);
}

static int
take_chunks (mt_queue *q)
{
  int rc = MX_OK;
  for (;;)
    {
      size_t k = atomic_fetch_add_explicit (&q->next, 1, memory_order_relaxed);
      if (k >= q->nchunks)
        return rc;
      size_t b0 = k * MXK_MT_CHUNK_BLOCKS, nb = q->nb - b0;
      int r = run_chunk (q->c, b0, nb < MXK_MT_CHUNK_BLOCKS ? nb : MXK_MT_CHUNK_BLOCKS);
      rc = rc ? rc : r;
    }
}

static void *
worker (void *arg)
{
  mt_worker *w = arg;
  w->rc = take_chunks (w->q);
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

/* Threads 1.. started, the caller taking chunks too, all joined; the first error returned.  If
 * a thread cannot be started, the chunks not yet taken are dropped (the counter set past the
 * end), the threads started are joined, and the call fails. */
static int
run (const mt_call *c, size_t nb, unsigned threads)
{
  size_t w = nworkers (threads, nb);
  if (w == 1)
    return run_chunk (c, 0, nb);
  mt_worker *ws = calloc (w, sizeof *ws);
  if (ws == NULL)
    return MX_ENOMEM;
  mt_queue q = { c, nb, (nb + MXK_MT_CHUNK_BLOCKS - 1) / MXK_MT_CHUNK_BLOCKS, 0 };
  size_t started = 1;
  int rc = MX_OK;
  for (; started < w; started++)
    {
      ws[started].q = &q;
      if (pthread_create (&ws[started].tid, NULL, worker, &ws[started]) != 0)
        {
          atomic_store (&q.next, q.nchunks);
          rc = MX_ENOMEM;
          break;
        }
    }
  if (rc == MX_OK)
    ws[0].rc = take_chunks (&q);
  for (size_t i = 1; i < started; i++)
    if (pthread_join (ws[i].tid, NULL) != 0 && rc == MX_OK)
      rc = MX_ENOMEM;                  /* not seen: a thread of ours, joined once */
  for (size_t i = 0; i < started && rc == MX_OK; i++)
    rc = ws[i].rc;
  free (ws);
  return rc;
}

int
mxk_quantize_mt (uint8_t *scales, uint8_t *codes, const void *in, mx_format_id in_fmt, size_t n,
                 mx_format_id elem, mx_scale_rule rule, mx_rounding rnd, mx_packing packing,
                 unsigned threads)
{
  if (threads > MXK_MT_MAX_THREADS || mxk__check (in_fmt, n, elem, rule, rnd, NULL, packing))
    return MX_EINVAL;
  mt_call c = { mxk__ops_now (), 0, scales, codes, in, in_fmt, elem, rule, rnd, NULL, packing,
                NULL, NULL, NULL, mxk__q_whole (in_fmt, elem, n, packing) };
  return run (&c, n / MX_BLOCK, threads);
}

int
mxk_quantize_sr_mt (uint8_t *scales, uint8_t *codes, const void *in, mx_format_id in_fmt,
                    size_t n, mx_format_id elem, mx_scale_rule rule, const uint16_t *rbits,
                    mx_packing packing, unsigned threads)
{
  if (threads > MXK_MT_MAX_THREADS || mxk__check (in_fmt, n, elem, rule, MX_SR, rbits, packing))
    return MX_EINVAL;
  mt_call c = { mxk__ops_now (), 0, scales, codes, in, in_fmt, elem, rule, MX_SR, rbits,
                packing, NULL, NULL, NULL, mxk__q_whole (in_fmt, elem, n, packing) };
  return run (&c, n / MX_BLOCK, threads);
}

int
mxk_dequantize_mt (void *out, mx_format_id out_fmt, const uint8_t *scales, const uint8_t *codes,
                   size_t n, mx_format_id elem, mx_packing packing, unsigned threads)
{
  if (threads > MXK_MT_MAX_THREADS || mxk__check_dq (out_fmt, n, elem, packing))
    return MX_EINVAL;
  mt_call c = { mxk__ops_now (), 1, NULL, NULL, NULL, out_fmt, elem, MX_SCALE_FLOOR, MX_RNE,
                NULL, packing, out, scales, codes,
                mxk__dq_nt (out_fmt, n) ? MXK_WHOLE_NT : MXK_WHOLE_SMALL };
  return run (&c, n / MX_BLOCK, threads);
}
