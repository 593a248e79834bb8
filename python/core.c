/* core.c -- mxgold._core: the CPython binding of libmxgold (exact, MPFR), libmxk (fast kernels)
 * and libmxvec (.mxv files).  It is deliberately thin: every argument arrives already checked and
 * converted by the package (python/mxgold/), arrays arrive as C-contiguous buffers that the C
 * library reads and writes in place (no copy, no text), and the GIL is released around every loop.
 * Each function checks buffer sizes itself all the same, so a wrong call raises, never crashes.
 *
 * Formats travel as tuples (id, sign, ebits, mbits, bias, special, role): id < MX_FORMAT_COUNT
 * names a built-in format, anything else is built with mx_format_custom.  A policy travels as a
 * tuple of MX_POLICY_FIELD_COUNT integers in policies.def order.
 * SPDX-License-Identifier: MIT */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "mx.h"
#include "mxk.h"
#include "mxvec.h"

/*---------------------------------------------------------------- helpers -*/
static int
raise_status (int st, const char *what)
{
  if (st == MX_ENOMEM)
    PyErr_NoMemory ();
  else
    PyErr_Format (PyExc_ValueError, "%s: %s", what, mx_strerror (st));
  return -1;
}

/* A format from its tuple, into *buf; *f points at the table entry or at buf. */
static int
get_format (PyObject *o, mx_format *buf, const mx_format **f)
{
  long id, sign, ebits, mbits, bias, special, role;
  if (!PyArg_ParseTuple (o, "lllllll;format tuple", &id, &sign, &ebits, &mbits, &bias, &special,
                         &role))
    return -1;
  if (id >= 0 && id < MX_FORMAT_COUNT)
    {
      *f = mx_format_get ((mx_format_id) id);
      return 0;
    }
  if (sign < 0 || ebits < 0 || mbits < 0 || special < 0 || role < 0 || role > MX_ROLE_IEEE
      || bias < INT_MIN || bias > INT_MAX
      || mx_format_custom (buf, (unsigned) sign, (unsigned) ebits, (unsigned) mbits, (int) bias,
                           (mx_special) special) != MX_OK)
    {
      PyErr_SetString (PyExc_ValueError, "these parameters make no format");
      return -1;
    }
  buf->role = (mx_role) role;
  *f = buf;
  return 0;
}

static int
get_policy (PyObject *o, mx_policy *pol)
{
  PyObject *t = PySequence_Fast (o, "policy must be a sequence");
  if (!t)
    return -1;
  int rc = 0;
  *pol = mx_policy_ocp ();
  if (PySequence_Fast_GET_SIZE (t) != MX_POLICY_FIELD_COUNT)
    {
      PyErr_Format (PyExc_ValueError, "policy needs %d fields", (int) MX_POLICY_FIELD_COUNT);
      rc = -1;
    }
  for (int i = 0; rc == 0 && i < MX_POLICY_FIELD_COUNT; i++)
    {
      long v = PyLong_AsLong (PySequence_Fast_GET_ITEM (t, i));
      if (v == -1 && PyErr_Occurred ())
        rc = -1;
      else if (mx_policy_set (pol, (mx_policy_field) i, v) != MX_OK)
        {
          PyErr_Format (PyExc_ValueError, "policy field %s: value %ld out of range",
                        mx_policy_field_get ((mx_policy_field) i)->name, v);
          rc = -1;
        }
    }
  Py_DECREF (t);
  return rc;
}

static int
get_rounding (int r, int deterministic)
{
  if (r < 0 || r >= MX_ROUNDING_COUNT || (deterministic && r == MX_SR))
    {
      PyErr_Format (PyExc_ValueError, "rounding %d is not allowed here", r);
      return -1;
    }
  return 0;
}

/* A C-contiguous buffer of exactly count items of itemsize bytes (itemsize 0: any). */
static int
get_buf (Py_buffer *b, PyObject *o, int writable, Py_ssize_t count, Py_ssize_t itemsize,
         const char *what)
{
  if (PyObject_GetBuffer (o, b, PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0)) < 0)
    return -1;
  if ((itemsize && b->itemsize != itemsize) || b->itemsize <= 0 || b->len / b->itemsize != count
      || b->len % b->itemsize)
    {
      PyErr_Format (PyExc_ValueError, "%s: expected %zd items of %zd bytes, got %zd bytes", what,
                    count, itemsize ? itemsize : b->itemsize, b->len);
      PyBuffer_Release (b);
      return -1;
    }
  return 0;
}

/* Buffers taken together and released together (a failed take keeps the ones before it). */
typedef struct
{
  Py_buffer b[8];
  int n;
} bufset;

static int
bufs_get (bufset *s, PyObject *o, int writable, Py_ssize_t count, Py_ssize_t itemsize,
          const char *what)
{
  if (get_buf (&s->b[s->n], o, writable, count, itemsize, what))
    return -1;
  s->n++;
  return 0;
}

/* The next buffer of the set, into *b */
static int
bufs_take (bufset *s, Py_buffer **b, PyObject *o, int writable, Py_ssize_t count,
           Py_ssize_t itemsize, const char *what)
{
  if (bufs_get (s, o, writable, count, itemsize, what))
    return -1;
  *b = &s->b[s->n - 1];
  return 0;
}

/* The same for an optional argument: *b = NULL when o is None */
static int
bufs_opt (bufset *s, Py_buffer **b, PyObject *o, int writable, Py_ssize_t count,
          Py_ssize_t itemsize, const char *what)
{
  *b = NULL;
  return o == Py_None ? 0 : bufs_take (s, b, o, writable, count, itemsize, what);
}

static void
bufs_release (bufset *s)
{
  while (s->n > 0)
    PyBuffer_Release (&s->b[--s->n]);
}

static inline uint64_t
load (const Py_buffer *b, size_t i)
{
  const char *p = (const char *) b->buf;
  switch (b->itemsize)
    {
    case 1: return ((const uint8_t *) p)[i];
    case 2: return ((const uint16_t *) p)[i];
    case 4: return ((const uint32_t *) p)[i];
    default: return ((const uint64_t *) p)[i];
    }
}

static inline void
store (Py_buffer *b, size_t i, uint64_t v)
{
  char *p = (char *) b->buf;
  switch (b->itemsize)
    {
    case 1: ((uint8_t *) p)[i] = (uint8_t) v; break;
    case 2: ((uint16_t *) p)[i] = (uint16_t) v; break;
    case 4: ((uint32_t *) p)[i] = (uint32_t) v; break;
    default: ((uint64_t *) p)[i] = v; break;
    }
}

/* n patterns from b at element base into dst, and back: the per-chunk copies of the array
 * wrappers (the library works on uint64_t patterns, numpy on items of b->itemsize). */
static void
load_n (uint64_t *dst, const Py_buffer *b, size_t base, size_t n)
{
  for (size_t i = 0; i < n; i++)
    dst[i] = load (b, base + i);
}

static void
store_n (Py_buffer *b, size_t base, const uint64_t *src, size_t n)
{
  for (size_t i = 0; i < n; i++)
    store (b, base + i, src[i]);
}

/* The item size that holds a bits-wide pattern: 1, 2, 4 or 8. */
static Py_ssize_t
item_for (unsigned bits)
{
  return bits <= 8 ? 1 : bits <= 16 ? 2 : bits <= 32 ? 4 : 8;
}

static int
check_items (const Py_buffer *b, unsigned bits, const char *what)
{
  if (b->itemsize != item_for (bits))
    {
      PyErr_Format (PyExc_ValueError, "%s: items of %zd bytes expected", what, item_for (bits));
      return -1;
    }
  return 0;
}

/*--------------------------------------------------------------- quantize -*/
static PyObject *
py_quantize (PyObject *self, PyObject *args)
{
  (void) self;
  PyObject *oin, *oelem, *oscale, *opol, *orb, *osc, *ocodes, *oflags, *oef;
  int in_id, rnd;
  Py_ssize_t nb, k;
  if (!PyArg_ParseTuple (args, "OinnOOOiOOOOO:quantize", &oin, &in_id, &nb, &k, &oelem, &oscale,
                         &opol, &rnd, &orb, &osc, &ocodes, &oflags, &oef))
    return NULL;
  mx_format eb, sb;
  const mx_format *elem, *sfmt, *in = mx_format_get ((mx_format_id) in_id);
  mx_policy pol;
  if (get_format (oelem, &eb, &elem) || get_format (oscale, &sb, &sfmt) || get_policy (opol, &pol)
      || get_rounding (rnd, 0))
    return NULL;
  if (!in || in->role != MX_ROLE_IEEE || nb < 0 || k < 1 || k > MXV_MAX_K
      || (nb && (size_t) nb > PY_SSIZE_T_MAX / (size_t) k))
    {
      PyErr_SetString (PyExc_ValueError, "quantize: bad input format or sizes");
      return NULL;
    }
  Py_ssize_t n = nb * k;
  if (rnd == MX_SR && orb == Py_None)
    {
      PyErr_SetString (PyExc_ValueError, "sr rounding needs random bits");
      return NULL;
    }
  bufset bs = { .n = 0 };
  Py_buffer *bin, *brb, *bsc, *bco, *bfl, *bef;
  if (bufs_take (&bs, &bin, oin, 0, n, item_for (in->bits), "input")
      || bufs_opt (&bs, &brb, orb, 0, n, 4, "random_bits")
      || bufs_take (&bs, &bsc, osc, 1, nb, 0, "scales")
      || bufs_take (&bs, &bco, ocodes, 1, n, 0, "codes")
      || bufs_take (&bs, &bfl, oflags, 1, nb, 1, "flags")
      || bufs_opt (&bs, &bef, oef, 1, n, 1, "element flags")
      || check_items (bsc, sfmt->bits, "scales") || check_items (bco, elem->bits, "codes"))
    return bufs_release (&bs), NULL;
  uint64_t *ib = malloc ((size_t) k * sizeof *ib), *cb = malloc ((size_t) k * sizeof *cb);
  unsigned *efb = malloc ((size_t) k * sizeof *efb);
  int st = (ib && cb && efb) ? MX_OK : MX_ENOMEM;
  Py_BEGIN_ALLOW_THREADS
  for (Py_ssize_t b = 0; st == MX_OK && b < nb; b++)
    {
      size_t base = (size_t) b * (size_t) k;
      load_n (ib, bin, base, (size_t) k);
      const uint32_t *rb = brb ? (const uint32_t *) brb->buf + base : NULL;
      uint64_t sc;
      unsigned fl;
      st = mx_quantize (&sc, cb, &fl, efb, elem, sfmt, in, ib, (size_t) k, rb, &pol,
                        (mx_rounding) rnd);
      if (st != MX_OK)
        break;
      store (bsc, (size_t) b, sc);
      ((uint8_t *) bfl->buf)[b] = (uint8_t) fl;
      for (Py_ssize_t i = 0; i < k; i++)
        {
          store (bco, base + (size_t) i, cb[i]);
          if (bef)
            ((uint8_t *) bef->buf)[base + (size_t) i] = (uint8_t) efb[i];
        }
    }
  Py_END_ALLOW_THREADS
  free (ib);
  free (cb);
  free (efb);
  bufs_release (&bs);
  if (st != MX_OK)
    return raise_status (st, "mx_quantize"), NULL;
  Py_RETURN_NONE;
}

/* quantize_fast(input, in_id, n, elem_id, rule, rnd, scales, codes[, rbits]): libmxk, block
 * 32, OCP policy; rbits (sr): n uint16 words, mxk_quantize_sr. */
static PyObject *
py_quantize_fast (PyObject *self, PyObject *args)
{
  (void) self;
  PyObject *oin, *osc, *oco, *orb = Py_None;
  int in_id, elem, rule, rnd;
  Py_ssize_t n;
  if (!PyArg_ParseTuple (args, "OiniiiOO|O:quantize_fast", &oin, &in_id, &n, &elem, &rule, &rnd,
                         &osc, &oco, &orb))
    return NULL;
  if (n < 0 || n % MX_BLOCK || (in_id != MX_FP32 && in_id != MX_BF16))
    {
      PyErr_SetString (PyExc_ValueError, "quantize_fast: FP32 or BF16 input, n a multiple of 32");
      return NULL;
    }
  bufset s = { .n = 0 };
  Py_buffer *rb;
  if (bufs_get (&s, oin, 0, n, in_id == MX_FP32 ? 4 : 2, "input")
      || bufs_get (&s, osc, 1, n / MX_BLOCK, 1, "scales") || bufs_get (&s, oco, 1, n, 1, "codes")
      || bufs_opt (&s, &rb, orb, 0, n, 2, "rbits"))
    return bufs_release (&s), NULL;
  int st;
  Py_BEGIN_ALLOW_THREADS
  if (n == 0)
    st = MX_OK;
  else if (rnd == MX_SR)
    st = mxk_quantize_sr (s.b[1].buf, s.b[2].buf, s.b[0].buf, (mx_format_id) in_id, (size_t) n,
                          (mx_format_id) elem, (mx_scale_rule) rule, rb ? rb->buf : NULL,
                          MX_PACKING_UNPACKED);
  else
    st = mxk_quantize (s.b[1].buf, s.b[2].buf, s.b[0].buf, (mx_format_id) in_id, (size_t) n,
                       (mx_format_id) elem, (mx_scale_rule) rule, (mx_rounding) rnd,
                       MX_PACKING_UNPACKED);
  Py_END_ALLOW_THREADS
  bufs_release (&s);
  if (st != MX_OK)
    return raise_status (st, "mxk_quantize"), NULL;
  Py_RETURN_NONE;
}

/*------------------------------------------------------------- dequantize -*/
/* dequantize(scales, codes, nb, k, elem, scale, out_id, rnd, out) -> flags */
static PyObject *
py_dequantize (PyObject *self, PyObject *args)
{
  (void) self;
  PyObject *osc, *oco, *oelem, *oscale, *oout;
  Py_ssize_t nb, k;
  int out_id, rnd;
  if (!PyArg_ParseTuple (args, "OOnnOOiiO:dequantize", &osc, &oco, &nb, &k, &oelem, &oscale,
                         &out_id, &rnd, &oout))
    return NULL;
  mx_format eb, sb;
  const mx_format *elem, *sfmt, *out = mx_format_get ((mx_format_id) out_id);
  if (get_format (oelem, &eb, &elem) || get_format (oscale, &sb, &sfmt) || get_rounding (rnd, 1))
    return NULL;
  if (!out || out->role != MX_ROLE_IEEE || nb < 0 || k < 1 || k > MXV_MAX_K
      || (nb && (size_t) nb > PY_SSIZE_T_MAX / (size_t) k))
    {
      PyErr_SetString (PyExc_ValueError, "dequantize: bad output format or sizes");
      return NULL;
    }
  Py_ssize_t n = nb * k;
  bufset bs = { .n = 0 };
  Py_buffer *bsc, *bco, *bout;
  if (bufs_take (&bs, &bsc, osc, 0, nb, item_for (sfmt->bits), "scales")
      || bufs_take (&bs, &bco, oco, 0, n, item_for (elem->bits), "codes")
      || bufs_take (&bs, &bout, oout, 1, n, item_for (out->bits), "out"))
    return bufs_release (&bs), NULL;
  uint64_t *cb = malloc ((size_t) k * sizeof *cb), *ob = malloc ((size_t) k * sizeof *ob);
  int st = (cb && ob) ? MX_OK : MX_ENOMEM;
  unsigned all = 0;
  Py_BEGIN_ALLOW_THREADS
  for (Py_ssize_t b = 0; st == MX_OK && b < nb; b++)
    {
      size_t base = (size_t) b * (size_t) k;
      load_n (cb, bco, base, (size_t) k);
      unsigned fl;
      st = mx_dequantize (ob, &fl, out, load (bsc, (size_t) b), cb, elem, sfmt, (size_t) k,
                          (mx_rounding) rnd);
      all |= fl;
      if (st == MX_OK)
        store_n (bout, base, ob, (size_t) k);
    }
  Py_END_ALLOW_THREADS
  free (cb);
  free (ob);
  bufs_release (&bs);
  if (st != MX_OK)
    return raise_status (st, "mx_dequantize"), NULL;
  return PyLong_FromUnsignedLong (all);
}

/* dequantize_fast(scales, codes, n, elem_id, out_id, out) */
static PyObject *
py_dequantize_fast (PyObject *self, PyObject *args)
{
  (void) self;
  PyObject *osc, *oco, *oout;
  Py_ssize_t n;
  int elem, out_id;
  if (!PyArg_ParseTuple (args, "OOniiO:dequantize_fast", &osc, &oco, &n, &elem, &out_id, &oout))
    return NULL;
  if (n < 0 || n % MX_BLOCK || (out_id != MX_FP32 && out_id != MX_BF16))
    {
      PyErr_SetString (PyExc_ValueError, "dequantize_fast: FP32 or BF16 output, n a multiple of 32");
      return NULL;
    }
  bufset s = { .n = 0 };
  if (bufs_get (&s, osc, 0, n / MX_BLOCK, 1, "scales") || bufs_get (&s, oco, 0, n, 1, "codes")
      || bufs_get (&s, oout, 1, n, out_id == MX_FP32 ? 4 : 2, "out"))
    return bufs_release (&s), NULL;
  int st;
  Py_BEGIN_ALLOW_THREADS
  st = n ? mxk_dequantize (s.b[2].buf, (mx_format_id) out_id, s.b[0].buf, s.b[1].buf, (size_t) n,
                           (mx_format_id) elem, MX_PACKING_UNPACKED)
         : MX_OK;
  Py_END_ALLOW_THREADS
  bufs_release (&s);
  if (st != MX_OK)
    return raise_status (st, "mxk_dequantize"), NULL;
  Py_RETURN_NONE;
}

/*------------------------------------------------------------------ NVFP4 -*/
/* nvfp4_amax(input, in_id, n) -> the FP32 bits of max |x| (mx_nvfp4_amax).  The input goes
 * through in chunks; the chunks' amaxes (FP32, never NaN) go through mx_nvfp4_amax once more. */
#define NVFP4_AMAX_CHUNK 65536
static PyObject *
py_nvfp4_amax (PyObject *self, PyObject *args)
{
  (void) self;
  PyObject *oin;
  int in_id;
  Py_ssize_t n;
  if (!PyArg_ParseTuple (args, "Oin:nvfp4_amax", &oin, &in_id, &n))
    return NULL;
  const mx_format *in = mx_format_get ((mx_format_id) in_id);
  if (!in || n < 0)
    {
      PyErr_SetString (PyExc_ValueError, "nvfp4_amax: bad input format or size");
      return NULL;
    }
  Py_buffer b;
  if (get_buf (&b, oin, 0, n, item_for (in->bits), "input"))
    return NULL;
  size_t nch = ((size_t) n + NVFP4_AMAX_CHUNK - 1) / NVFP4_AMAX_CHUNK;
  uint64_t *w = malloc (NVFP4_AMAX_CHUNK * sizeof *w), *part = malloc ((nch + 1) * sizeof *part);
  uint64_t amax = 0;
  int st = (w && part) ? MX_OK : MX_ENOMEM;
  Py_BEGIN_ALLOW_THREADS
  for (size_t c = 0; st == MX_OK && c < nch; c++)
    {
      size_t base = c * NVFP4_AMAX_CHUNK, m = (size_t) n - base;
      if (m > NVFP4_AMAX_CHUNK)
        m = NVFP4_AMAX_CHUNK;
      load_n (w, &b, base, m);
      st = mx_nvfp4_amax (&part[c], in, w, m);
    }
  if (st == MX_OK && nch)
    st = mx_nvfp4_amax (&amax, mx_format_get (MX_FP32), part, nch);
  Py_END_ALLOW_THREADS
  free (w);
  free (part);
  PyBuffer_Release (&b);
  if (st != MX_OK)
    return raise_status (st, "mx_nvfp4_amax"), NULL;
  return PyLong_FromUnsignedLongLong (amax);
}

/* nvfp4_global_scale(amax bits) -> the FP32 bits of S_enc */
static PyObject *
py_nvfp4_global_scale (PyObject *self, PyObject *args)
{
  (void) self;
  unsigned long long amax;
  if (!PyArg_ParseTuple (args, "K:nvfp4_global_scale", &amax))
    return NULL;
  uint64_t s;
  int st = amax >> 32 ? MX_EINVAL : mx_nvfp4_global_scale (&s, amax);
  if (st != MX_OK)
    return raise_status (st, "mx_nvfp4_global_scale"), NULL;
  return PyLong_FromUnsignedLongLong (s);
}

/* Rows go through the C library 16 at a time (a 2D tile's height: the results are those of the
 * whole tensor), so the uint64 copies stay small. */
#define NVFP4_CHUNK_ROWS 16

/* quantize_nvfp4(input, in_id, rows, cols, amax, tile_2d, rnd, rbits|None, scales, codes)
 * -> the OR of the flags; scales rows x cols/16 and codes rows x cols, uint8. */
static PyObject *
py_quantize_nvfp4 (PyObject *self, PyObject *args)
{
  (void) self;
  PyObject *oin, *orb, *osc, *oco;
  int in_id, tile_2d, rnd;
  Py_ssize_t rows, cols;
  unsigned long long amax;
  if (!PyArg_ParseTuple (args, "OinnKpiOOO:quantize_nvfp4", &oin, &in_id, &rows, &cols, &amax,
                         &tile_2d, &rnd, &orb, &osc, &oco))
    return NULL;
  const mx_format *in = mx_format_get ((mx_format_id) in_id);
  if (!in || rows < 0 || cols < MX_NVFP4_BLOCK || cols % MX_NVFP4_BLOCK || amax >> 32
      || (rows && cols > PY_SSIZE_T_MAX / rows) || (rnd != MX_RNE && rnd != MX_SR)
      || (rnd == MX_SR) != (orb != Py_None))
    {
      PyErr_SetString (PyExc_ValueError, "quantize_nvfp4: bad format, sizes, amax, rounding or "
                       "random bits");
      return NULL;
    }
  Py_ssize_t n = rows * cols, nsc = rows * (cols / MX_NVFP4_BLOCK);
  bufset bs = { .n = 0 };
  Py_buffer *bin, *brb, *bsc, *bco;
  if (bufs_take (&bs, &bin, oin, 0, n, item_for (in->bits), "input")
      || bufs_opt (&bs, &brb, orb, 0, n, 4, "random_bits")
      || bufs_take (&bs, &bsc, osc, 1, nsc, 1, "scales")
      || bufs_take (&bs, &bco, oco, 1, n, 1, "codes"))
    return bufs_release (&bs), NULL;
  size_t chunk = (size_t) NVFP4_CHUNK_ROWS * (size_t) cols;
  uint64_t *ib = malloc (chunk * sizeof *ib), *cb = malloc (chunk * sizeof *cb);
  uint64_t *sb = malloc (chunk / MX_NVFP4_BLOCK * sizeof *sb);
  int st = (ib && cb && sb) ? MX_OK : MX_ENOMEM;
  unsigned all = 0;
  Py_BEGIN_ALLOW_THREADS
  for (Py_ssize_t r = 0; st == MX_OK && r < rows; r += NVFP4_CHUNK_ROWS)
    {
      size_t nr = (size_t) (rows - r < NVFP4_CHUNK_ROWS ? rows - r : NVFP4_CHUNK_ROWS);
      size_t base = (size_t) r * (size_t) cols, m = nr * (size_t) cols;
      size_t sbase = base / MX_NVFP4_BLOCK, ms = m / MX_NVFP4_BLOCK;
      load_n (ib, bin, base, m);
      unsigned fl = 0;
      st = mx_quantize_nvfp4 (sb, cb, &fl, in, ib, nr, (size_t) cols, amax, tile_2d,
                              brb ? (const uint32_t *) brb->buf + base : NULL, (mx_rounding) rnd);
      all |= fl;
      if (st == MX_OK)
        {
          store_n (bco, base, cb, m);
          store_n (bsc, sbase, sb, ms);
        }
    }
  Py_END_ALLOW_THREADS
  free (ib);
  free (cb);
  free (sb);
  bufs_release (&bs);
  if (st != MX_OK)
    return raise_status (st, "mx_quantize_nvfp4"), NULL;
  return PyLong_FromUnsignedLong (all);
}

/* dequantize_nvfp4(scales, codes, rows, cols, amax, out_id, out) -> the OR of the flags */
static PyObject *
py_dequantize_nvfp4 (PyObject *self, PyObject *args)
{
  (void) self;
  PyObject *osc, *oco, *oout;
  Py_ssize_t rows, cols;
  unsigned long long amax;
  int out_id;
  if (!PyArg_ParseTuple (args, "OOnnKiO:dequantize_nvfp4", &osc, &oco, &rows, &cols, &amax,
                         &out_id, &oout))
    return NULL;
  const mx_format *out = mx_format_get ((mx_format_id) out_id);
  if (!out || rows < 0 || cols < MX_NVFP4_BLOCK || cols % MX_NVFP4_BLOCK || amax >> 32
      || (rows && cols > PY_SSIZE_T_MAX / rows))
    {
      PyErr_SetString (PyExc_ValueError, "dequantize_nvfp4: bad format, sizes or amax");
      return NULL;
    }
  Py_ssize_t n = rows * cols, nsc = rows * (cols / MX_NVFP4_BLOCK);
  bufset bs = { .n = 0 };
  Py_buffer *bsc, *bco, *bout;
  if (bufs_take (&bs, &bsc, osc, 0, nsc, 1, "scales")
      || bufs_take (&bs, &bco, oco, 0, n, 1, "codes")
      || bufs_take (&bs, &bout, oout, 1, n, item_for (out->bits), "out"))
    return bufs_release (&bs), NULL;
  size_t chunk = (size_t) NVFP4_CHUNK_ROWS * (size_t) cols;
  uint64_t *cb = malloc (chunk * sizeof *cb), *ob = malloc (chunk * sizeof *ob);
  uint64_t *sb = malloc (chunk / MX_NVFP4_BLOCK * sizeof *sb);
  int st = (cb && ob && sb) ? MX_OK : MX_ENOMEM;
  unsigned all = 0;
  Py_BEGIN_ALLOW_THREADS
  for (Py_ssize_t r = 0; st == MX_OK && r < rows; r += NVFP4_CHUNK_ROWS)
    {
      size_t nr = (size_t) (rows - r < NVFP4_CHUNK_ROWS ? rows - r : NVFP4_CHUNK_ROWS);
      size_t base = (size_t) r * (size_t) cols, m = nr * (size_t) cols;
      size_t sbase = base / MX_NVFP4_BLOCK, ms = m / MX_NVFP4_BLOCK;
      load_n (cb, bco, base, m);
      load_n (sb, bsc, sbase, ms);
      unsigned fl = 0;
      st = mx_dequantize_nvfp4 (ob, &fl, out, sb, cb, nr, (size_t) cols, amax, MX_RNE);
      all |= fl;
      if (st == MX_OK)
        store_n (bout, base, ob, m);
    }
  Py_END_ALLOW_THREADS
  free (cb);
  free (ob);
  free (sb);
  bufs_release (&bs);
  if (st != MX_OK)
    return raise_status (st, "mx_dequantize_nvfp4"), NULL;
  return PyLong_FromUnsignedLong (all);
}

/*--------------------------------------------------- shared microexponents -*/
/* quantize_mxs(input, in_id, nb, fmt, policy, rnd, scales, shifts, codes, flags): nb blocks of
 * k1; scales and flags nb, shifts nb * k1/k2, codes nb * k1, all uint8. */
static PyObject *
py_quantize_mxs (PyObject *self, PyObject *args)
{
  (void) self;
  PyObject *oin, *opol, *osc, *osh, *oco, *ofl;
  int in_id, fmt, rnd;
  Py_ssize_t nb;
  if (!PyArg_ParseTuple (args, "OiniOiOOOO:quantize_mxs", &oin, &in_id, &nb, &fmt, &opol, &rnd,
                         &osc, &osh, &oco, &ofl))
    return NULL;
  const mx_format *in = mx_format_get ((mx_format_id) in_id);
  const mx_mxs_desc *d = mx_mxs_get ((mx_mxs_format) fmt);
  mx_policy pol;
  if (get_policy (opol, &pol) || get_rounding (rnd, 1))
    return NULL;
  if (!in || in->role != MX_ROLE_IEEE || !d || nb < 0
      || (nb && (size_t) nb > PY_SSIZE_T_MAX / d->k1))
    {
      PyErr_SetString (PyExc_ValueError, "quantize_mxs: bad format, input format or sizes");
      return NULL;
    }
  size_t k = d->k1, nsub = k / d->k2;
  bufset bs = { .n = 0 };
  Py_buffer *bin, *bsc, *bsh, *bco, *bfl;
  if (bufs_take (&bs, &bin, oin, 0, nb * (Py_ssize_t) k, item_for (in->bits), "input")
      || bufs_take (&bs, &bsc, osc, 1, nb, 1, "scales")
      || bufs_take (&bs, &bsh, osh, 1, nb * (Py_ssize_t) nsub, 1, "shifts")
      || bufs_take (&bs, &bco, oco, 1, nb * (Py_ssize_t) k, 1, "codes")
      || bufs_take (&bs, &bfl, ofl, 1, nb, 1, "flags"))
    return bufs_release (&bs), NULL;
  uint64_t *ib = malloc (k * sizeof *ib), *cb = malloc (k * sizeof *cb);
  int st = (ib && cb) ? MX_OK : MX_ENOMEM;
  Py_BEGIN_ALLOW_THREADS
  for (Py_ssize_t b = 0; st == MX_OK && b < nb; b++)
    {
      size_t base = (size_t) b * k;
      load_n (ib, bin, base, k);
      uint64_t sc;
      unsigned fl;
      st = mx_quantize_mxs (&sc, (uint8_t *) bsh->buf + (size_t) b * nsub, cb, &fl,
                            (mx_mxs_format) fmt, in, ib, k, &pol, (mx_rounding) rnd);
      if (st != MX_OK)
        break;
      ((uint8_t *) bsc->buf)[b] = (uint8_t) sc;
      ((uint8_t *) bfl->buf)[b] = (uint8_t) fl;
      store_n (bco, base, cb, k);
    }
  Py_END_ALLOW_THREADS
  free (ib);
  free (cb);
  bufs_release (&bs);
  if (st != MX_OK)
    return raise_status (st, "mx_quantize_mxs"), NULL;
  Py_RETURN_NONE;
}

/* dequantize_mxs(scales, shifts, codes, nb, fmt, out_id, rnd, out) -> the OR of the flags */
static PyObject *
py_dequantize_mxs (PyObject *self, PyObject *args)
{
  (void) self;
  PyObject *osc, *osh, *oco, *oout;
  Py_ssize_t nb;
  int fmt, out_id, rnd;
  if (!PyArg_ParseTuple (args, "OOOniiiO:dequantize_mxs", &osc, &osh, &oco, &nb, &fmt, &out_id,
                         &rnd, &oout))
    return NULL;
  const mx_format *out = mx_format_get ((mx_format_id) out_id);
  const mx_mxs_desc *d = mx_mxs_get ((mx_mxs_format) fmt);
  if (get_rounding (rnd, 1))
    return NULL;
  if (!out || out->role != MX_ROLE_IEEE || !d || nb < 0
      || (nb && (size_t) nb > PY_SSIZE_T_MAX / d->k1))
    {
      PyErr_SetString (PyExc_ValueError, "dequantize_mxs: bad format, output format or sizes");
      return NULL;
    }
  size_t k = d->k1, nsub = k / d->k2;
  bufset bs = { .n = 0 };
  Py_buffer *bsc, *bsh, *bco, *bout;
  if (bufs_take (&bs, &bsc, osc, 0, nb, 1, "scales")
      || bufs_take (&bs, &bsh, osh, 0, nb * (Py_ssize_t) nsub, 1, "shifts")
      || bufs_take (&bs, &bco, oco, 0, nb * (Py_ssize_t) k, 1, "codes")
      || bufs_take (&bs, &bout, oout, 1, nb * (Py_ssize_t) k, item_for (out->bits), "out"))
    return bufs_release (&bs), NULL;
  uint64_t *cb = malloc (k * sizeof *cb), *ob = malloc (k * sizeof *ob);
  int st = (cb && ob) ? MX_OK : MX_ENOMEM;
  unsigned all = 0;
  Py_BEGIN_ALLOW_THREADS
  for (Py_ssize_t b = 0; st == MX_OK && b < nb; b++)
    {
      size_t base = (size_t) b * k;
      load_n (cb, bco, base, k);
      unsigned fl = 0;
      st = mx_dequantize_mxs (ob, &fl, out, ((const uint8_t *) bsc->buf)[b],
                              (const uint8_t *) bsh->buf + (size_t) b * nsub, cb,
                              (mx_mxs_format) fmt, k, (mx_rounding) rnd);
      all |= fl;
      if (st == MX_OK)
        store_n (bout, base, ob, k);
    }
  Py_END_ALLOW_THREADS
  free (cb);
  free (ob);
  bufs_release (&bs);
  if (st != MX_OK)
    return raise_status (st, "mx_dequantize_mxs"), NULL;
  return PyLong_FromUnsignedLong (all);
}

/*------------------------------------------------------------------- cast -*/
/* cast(input, n, from, to, policy, rnd, rbits|None, out, flags|None) -> OR of the flags */
static PyObject *
py_cast (PyObject *self, PyObject *args)
{
  (void) self;
  PyObject *oin, *ofrom, *oto, *opol, *orb, *oout, *ofl;
  Py_ssize_t n;
  int rnd;
  if (!PyArg_ParseTuple (args, "OnOOOiOOO:cast", &oin, &n, &ofrom, &oto, &opol, &rnd, &orb, &oout,
                         &ofl))
    return NULL;
  mx_format fb, tb;
  const mx_format *from, *to;
  mx_policy pol;
  if (get_format (ofrom, &fb, &from) || get_format (oto, &tb, &to) || get_policy (opol, &pol)
      || get_rounding (rnd, 0))
    return NULL;
  if (n < 0)
    {
      PyErr_SetString (PyExc_ValueError, "cast: negative size");
      return NULL;
    }
  if (rnd == MX_SR && orb == Py_None)
    {
      PyErr_SetString (PyExc_ValueError, "sr rounding needs random bits");
      return NULL;
    }
  bufset bs = { .n = 0 };
  Py_buffer *bin, *brb, *bout, *bfl;
  if (bufs_take (&bs, &bin, oin, 0, n, item_for (from->bits), "input")
      || bufs_opt (&bs, &brb, orb, 0, n, 4, "random_bits")
      || bufs_take (&bs, &bout, oout, 1, n, item_for (to->bits), "out")
      || bufs_opt (&bs, &bfl, ofl, 1, n, 1, "flags"))
    return bufs_release (&bs), NULL;
  unsigned all = 0;
  Py_BEGIN_ALLOW_THREADS
  for (Py_ssize_t i = 0; i < n; i++)
    {
      uint64_t c;
      unsigned fl = 0;
      uint32_t r = brb ? ((const uint32_t *) brb->buf)[i] : 0;
      mx_cast (&c, &fl, to, from, load (bin, (size_t) i), r, &pol, (mx_rounding) rnd);
      store (bout, (size_t) i, c);
      if (bfl)
        ((uint8_t *) bfl->buf)[i] = (uint8_t) fl;
      all |= fl;
    }
  Py_END_ALLOW_THREADS
  bufs_release (&bs);
  return PyLong_FromUnsignedLong (all);
}

/*---------------------------------------------------------------- packing -*/
/* pack(codes, n, elem, packing, out) and unpack(bytes, n, elem, packing, out) */
static PyObject *
pack_common (PyObject *args, int unpack)
{
  PyObject *oin, *oelem, *oout;
  Py_ssize_t n;
  int p;
  if (!PyArg_ParseTuple (args, "OnOiO", &oin, &n, &oelem, &p, &oout))
    return NULL;
  mx_format eb;
  const mx_format *elem;
  if (get_format (oelem, &eb, &elem))
    return NULL;
  size_t ps = (n > 0 && p >= 0 && p < MX_PACKING_COUNT) ? mx_packed_size ((mx_packing) p, (size_t) n) : 0;
  if (n <= 0 || ps == 0)
    {
      PyErr_SetString (PyExc_ValueError, "pack: the length is not a whole number of packing groups");
      return NULL;
    }
  bufset s = { .n = 0 };
  if (bufs_get (&s, oin, 0, unpack ? (Py_ssize_t) ps : n, 1, unpack ? "packed" : "codes")
      || bufs_get (&s, oout, 1, unpack ? n : (Py_ssize_t) ps, 1, "out"))
    return bufs_release (&s), NULL;
  int st;
  Py_BEGIN_ALLOW_THREADS
  st = unpack ? mx_unpack (s.b[1].buf, s.b[0].buf, (size_t) n, elem, (mx_packing) p)
              : mx_pack (s.b[1].buf, s.b[0].buf, (size_t) n, elem, (mx_packing) p);
  Py_END_ALLOW_THREADS
  bufs_release (&s);
  if (st != MX_OK)
    return raise_status (st, unpack ? "mx_unpack" : "mx_pack"), NULL;
  Py_RETURN_NONE;
}

static PyObject *py_pack (PyObject *s, PyObject *a) { (void) s; return pack_common (a, 0); }
static PyObject *py_unpack (PyObject *s, PyObject *a) { (void) s; return pack_common (a, 1); }

static PyObject *
py_packed_size (PyObject *self, PyObject *args)
{
  (void) self;
  int p;
  Py_ssize_t n;
  if (!PyArg_ParseTuple (args, "in:packed_size", &p, &n))
    return NULL;
  if (p < 0 || p >= MX_PACKING_COUNT || n < 0)
    return PyLong_FromLong (0);
  return PyLong_FromSize_t (mx_packed_size ((mx_packing) p, (size_t) n));
}

/*------------------------------------------------------------------- gemm -*/
static int
get_tc (PyObject *o, mx_tc_model *m)
{
  int group, frac, align, out, cin, sp, den;
  if (!PyArg_ParseTuple (o, "iiiiiii;tensor-core model tuple", &group, &frac, &align, &out, &cin,
                         &sp, &den))
    return -1;
  if (group < 1 || align < 0 || align >= MX_ROUNDING_COUNT || out < 0 || out >= MX_ROUNDING_COUNT
      || (sp != MX_TC_SCALE_PRODUCT && sp != MX_TC_SCALE_GROUP))
    goto bad;
  m->group = (unsigned) group;
  m->frac_bits = frac;
  m->align = (mx_rounding) align;
  m->out = (mx_rounding) out;
  m->cin_in_group = cin;
  m->scale_point = (mx_tc_scale_point) sp;
  m->denorm_products = den;
  if (mx_tc_model_check (m) == MX_OK)
    return 0;
bad:
  PyErr_SetString (PyExc_ValueError, "invalid tensor-core model (docs/semantics.md)");
  return -1;
}

/* gemm(m, n, kdim, k, a_scales, a_codes, elem_a, b_scales, b_codes, elem_b, scale, c_in|None,
 *      out_id, accum, tc, rnd, out, group) -> flags; every array uint64; group: fused-group's
 *      products per group (0 for the other models). */
static PyObject *
py_gemm (PyObject *self, PyObject *args)
{
  (void) self;
  Py_ssize_t m, n, kdim, k, group;
  PyObject *oas, *oac, *oea, *obs, *obc, *oeb, *osf, *ocin, *otc, *oout;
  int out_id, accum, rnd;
  if (!PyArg_ParseTuple (args, "nnnnOOOOOOOOiiOiOn:gemm", &m, &n, &kdim, &k, &oas, &oac, &oea,
                         &obs, &obc, &oeb, &osf, &ocin, &out_id, &accum, &otc, &rnd, &oout,
                         &group))
    return NULL;
  mx_format ab, bb, sb;
  const mx_format *ea, *eb, *sf, *out = mx_format_get ((mx_format_id) out_id);
  mx_dot_policy dp = mx_dot_policy_default ();
  if (get_format (oea, &ab, &ea) || get_format (oeb, &bb, &eb) || get_format (osf, &sb, &sf)
      || get_rounding (rnd, 1) || get_tc (otc, &dp.tc))
    return NULL;
  size_t mk, nk, mn;
  if (!out || m < 1 || n < 1 || k < 1 || kdim < 1 || kdim % k || accum < 0
      || accum >= MX_ACCUM_COUNT || __builtin_mul_overflow ((size_t) m, (size_t) kdim, &mk)
      || __builtin_mul_overflow ((size_t) n, (size_t) kdim, &nk)
      || __builtin_mul_overflow ((size_t) m, (size_t) n, &mn) || mk > PY_SSIZE_T_MAX
      || nk > PY_SSIZE_T_MAX || mn > PY_SSIZE_T_MAX || group < 0)
    {
      PyErr_SetString (PyExc_ValueError, "gemm: bad sizes or output format");
      return NULL;
    }
  dp.accum = (mx_accum) accum;
  dp.group = (size_t) group;
  Py_ssize_t nb = kdim / k;
  bufset bs = { .n = 0 };
  Py_buffer *bas, *bac, *bbs, *bbc, *bcin, *bout;
  if (bufs_take (&bs, &bas, oas, 0, m * nb, 8, "a scales")
      || bufs_take (&bs, &bac, oac, 0, (Py_ssize_t) mk, 8, "a codes")
      || bufs_take (&bs, &bbs, obs, 0, n * nb, 8, "b scales")
      || bufs_take (&bs, &bbc, obc, 0, (Py_ssize_t) nk, 8, "b codes")
      || bufs_opt (&bs, &bcin, ocin, 0, (Py_ssize_t) mn, 8, "c_in")
      || bufs_take (&bs, &bout, oout, 1, (Py_ssize_t) mn, 8, "out"))
    return bufs_release (&bs), NULL;
  unsigned fl = 0;
  int st;
  Py_BEGIN_ALLOW_THREADS
  st = mx_gemm (bout->buf, &fl, out, (size_t) m, (size_t) n, (size_t) kdim, bas->buf, bac->buf,
                ea, bbs->buf, bbc->buf, eb, sf, (size_t) k, bcin ? bcin->buf : NULL, &dp,
                (mx_rounding) rnd);
  Py_END_ALLOW_THREADS
  bufs_release (&bs);
  if (st != MX_OK)
    return raise_status (st, "mx_gemm"), NULL;
  return PyLong_FromUnsignedLong (fl);
}

/*------------------------------------------------------------- .mxv files -*/
/* write_mxv(path, elem_id, scale_id, in_id, k, policy, rnd, profile, inputs, scales, codes,
 *           flags, rbits|None): a quantize vectors file of nb cases, every buffer uint64, written
 * to a temporary file beside path and renamed over it only when complete. */
static PyObject *
py_write_mxv (PyObject *self, PyObject *args)
{
  (void) self;
  PyObject *opath, *opol, *oin, *osc, *oco, *ofl, *orb;
  int elem_id, scale_id, in_id, rnd;
  Py_ssize_t k;
  const char *profile;
  if (!PyArg_ParseTuple (args, "O&iiinOisOOOOO:write_mxv", PyUnicode_FSConverter, &opath, &elem_id,
                         &scale_id, &in_id, &k, &opol, &rnd, &profile, &oin, &osc, &oco, &ofl, &orb))
    return NULL;
  PyObject *ret = NULL;
  mxv_header *h = calloc (1, sizeof *h);
  mxv_case *c = calloc (1, sizeof *c);
  Py_buffer bin = { 0 }, bsc = { 0 }, bco = { 0 }, bfl = { 0 }, brb = { 0 };
  if (!h || !c)
    {
      PyErr_NoMemory ();
      goto out;
    }
  mxv_header_init (h);
  h->op = MXV_QUANTIZE;
  h->elem = mx_format_get ((mx_format_id) elem_id);
  h->scale = mx_format_get ((mx_format_id) scale_id);
  h->in = mx_format_get ((mx_format_id) in_id);
  h->k = (size_t) k;
  h->rnd = (mx_rounding) rnd;
  snprintf (h->profile, sizeof h->profile, "%s", profile);
  snprintf (h->command, sizeof h->command, "mxgold (Python) MXArray.to_mxv");
  char err[256];
  if (!h->elem || !h->scale || !h->in || k < 1 || get_policy (opol, &h->pol)
      || get_rounding (rnd, 0))
    {
      if (!PyErr_Occurred ())
        PyErr_SetString (PyExc_ValueError, "to_mxv: bad formats or block size");
      goto out;
    }
  if (mxv_header_validate (h, err, sizeof err))
    {
      PyErr_Format (PyExc_ValueError, "to_mxv: %s", err);
      goto out;
    }
  if (PyObject_GetBuffer (osc, &bsc, PyBUF_C_CONTIGUOUS) < 0)
    goto out;
  Py_ssize_t nb = bsc.len / 8;
  if (get_buf (&bin, oin, 0, nb * k, 8, "inputs") || get_buf (&bco, oco, 0, nb * k, 8, "codes")
      || get_buf (&bfl, ofl, 0, nb, 8, "flags")
      || (orb != Py_None && get_buf (&brb, orb, 0, nb * k, 8, "random bits")))
    goto out;
  if (bsc.len != nb * 8 || (rnd == MX_SR) != (orb != Py_None))
    {
      PyErr_SetString (PyExc_ValueError, "to_mxv: scales of uint64, random bits with sr only");
      goto out;
    }
  h->cases = nb;
  const char *path = PyBytes_AS_STRING (opath);
  size_t plen = strlen (path);
  char *tmp = malloc (plen + 16);
  if (!tmp)
    {
      PyErr_NoMemory ();
      goto out;
    }
  memcpy (tmp, path, plen);
  memcpy (tmp + plen, ".tmp.XXXXXX", 12);
  int fd = mkstemp (tmp), saved = 0, ok = 0;
  FILE *o = fd >= 0 ? fdopen (fd, "w") : NULL;
  if (o)
    {
      Py_BEGIN_ALLOW_THREADS
      mxv_writer w;
      mxv_writer_begin (&w, o, MXV_EMIT_MXV, h);
      for (Py_ssize_t b = 0; b < nb; b++)
        {
          size_t base = (size_t) b * (size_t) k;
          memcpy (c->in, (const uint64_t *) bin.buf + base, (size_t) k * 8);
          memcpy (c->codes, (const uint64_t *) bco.buf + base, (size_t) k * 8);
          if (brb.buf)
            memcpy (c->rbits, (const uint64_t *) brb.buf + base, (size_t) k * 8);
          c->scale = ((const uint64_t *) bsc.buf)[b];
          c->flags = ((const uint64_t *) bfl.buf)[b];
          mxv_writer_case (&w, c);
        }
      ok = mxv_writer_end (&w) == 0 && fsync (fileno (o)) == 0;
      saved = errno;
      ok = (fclose (o) == 0) && ok;
      if (!ok && !saved)
        saved = errno;
      if (ok && rename (tmp, path) != 0)
        {
          saved = errno;
          ok = 0;
        }
      Py_END_ALLOW_THREADS
    }
  else
    {
      saved = errno;
      if (fd >= 0)
        close (fd);
    }
  if (!ok)
    {
      if (fd >= 0)
        unlink (tmp);
      errno = saved ? saved : EIO;
      PyErr_SetFromErrnoWithFilenameObject (PyExc_OSError, opath);
    }
  else
    ret = Py_NewRef (Py_None);
  free (tmp);
out:
  if (brb.buf)
    PyBuffer_Release (&brb);
  if (bfl.buf)
    PyBuffer_Release (&bfl);
  if (bco.buf)
    PyBuffer_Release (&bco);
  if (bin.buf)
    PyBuffer_Release (&bin);
  if (bsc.buf)
    PyBuffer_Release (&bsc);
  free (c);
  free (h);
  Py_DECREF (opath);
  return ret;
}

/* read_mxv(path) -> (header dict, [(field name, is output)], [bytearray of uint64 words]) */
typedef struct
{
  mxv_header h;
  int have_h, nf;
  char names[MXV_MAX_FIELDS][32];
  int outputs[MXV_MAX_FIELDS];
  char *data[MXV_MAX_FIELDS];
  size_t len[MXV_MAX_FIELDS], cap[MXV_MAX_FIELDS];
} read_ctx;

static int
read_case (void *vctx, const mxv_header *h, mxv_case *c, const char *file, unsigned long line)
{
  (void) file;
  (void) line;
  read_ctx *x = vctx;
  mxv_field f[MXV_MAX_FIELDS];
  int nf = mxv_fields (h, c, f);
  if (!x->have_h)
    {
      x->h = *h;
      x->have_h = 1;
      x->nf = nf;
      for (int i = 0; i < nf; i++)
        {
          snprintf (x->names[i], sizeof x->names[i], "%s", f[i].name);
          x->outputs[i] = f[i].output;
        }
    }
  for (int i = 0; i < nf; i++)
    {
      size_t add = f[i].count * 8;
      if (x->len[i] + add > x->cap[i])
        {
          size_t cap = x->cap[i] ? x->cap[i] * 2 : 4096;
          while (cap < x->len[i] + add)
            cap *= 2;
          char *p = realloc (x->data[i], cap);
          if (!p)
            return 3;
          x->data[i] = p;
          x->cap[i] = cap;
        }
      memcpy (x->data[i] + x->len[i], f[i].v, add);
      x->len[i] += add;
    }
  return 0;
}

static PyObject *
py_read_mxv (PyObject *self, PyObject *args)
{
  (void) self;
  PyObject *opath;
  if (!PyArg_ParseTuple (args, "O&:read_mxv", PyUnicode_FSConverter, &opath))
    return NULL;
  read_ctx *x = calloc (1, sizeof *x);
  if (!x)
    {
      Py_DECREF (opath);
      return PyErr_NoMemory ();
    }
  int rc;
  const char *path = PyBytes_AS_STRING (opath);
  Py_BEGIN_ALLOW_THREADS
  rc = mxv_each_case (path, read_case, x);
  Py_END_ALLOW_THREADS
  PyObject *ret = NULL;
  if (rc == 3)
    PyErr_NoMemory ();
  else if (rc)
    PyErr_Format (PyExc_ValueError, "%s: not a readable .mxv file (the reason is on stderr)", path);
  else if (!x->have_h)
    PyErr_Format (PyExc_ValueError, "%s: no cases", path);
  else
    {
      const mxv_header *h = &x->h;
      PyObject *pol = PyTuple_New (MX_POLICY_FIELD_COUNT);
      for (int i = 0; pol && i < MX_POLICY_FIELD_COUNT; i++)
        PyTuple_SET_ITEM (pol, i, PyLong_FromLong (mx_policy_get (&h->pol, (mx_policy_field) i)));
      PyObject *hd = pol ? Py_BuildValue (
                       "{s:s,s:s,s:s,s:s,s:s,s:n,s:n,s:s,s:N,s:s,s:L,s:s}", "op",
                       mxv_op_names[h->op], "elem", h->elem ? h->elem->name : "", "scale",
                       h->scale ? h->scale->name : "", "in", h->in ? h->in->name : "", "out",
                       h->out ? h->out->name : "", "k", (Py_ssize_t) h->k, "nblocks",
                       (Py_ssize_t) h->nblocks, "rounding", mx_rounding_name (h->rnd), "policy",
                       pol, "profile", h->profile, "cases", h->cases, "packing",
                       mx_packing_name (h->packing))
                         : NULL;
      PyObject *names = PyList_New (x->nf), *data = PyList_New (x->nf);
      for (int i = 0; hd && names && data && i < x->nf; i++)
        {
          PyList_SET_ITEM (names, i, Py_BuildValue ("(si)", x->names[i], x->outputs[i]));
          PyList_SET_ITEM (data, i,
                           PyByteArray_FromStringAndSize (x->data[i] ? x->data[i] : "",
                                                          (Py_ssize_t) x->len[i]));
        }
      if (hd && names && data && !PyErr_Occurred ())
        ret = Py_BuildValue ("(NNN)", hd, names, data);
      else
        {
          Py_XDECREF (hd);
          Py_XDECREF (names);
          Py_XDECREF (data);
        }
    }
  for (int i = 0; i < MXV_MAX_FIELDS; i++)
    free (x->data[i]);
  free (x);
  Py_DECREF (opath);
  return ret;
}

/*---------------------------------------------------------------- tables -*/
static PyObject *
format_tuple (const mx_format *f)
{
  return Py_BuildValue ("(ssiIIIIiiiiK)", f->name, f->alias, (int) f->role, f->bits, f->sign,
                        f->ebits, f->mbits, f->bias, (int) f->special, f->emin, f->emax,
                        (unsigned long long) f->max_mag);
}

/* format_info(format tuple) -> (name, alias, role, bits, sign, ebits, mbits, bias, special, emin,
 * emax, max_mag); raises ValueError for parameters that make no format. */
static PyObject *
py_format_info (PyObject *self, PyObject *args)
{
  (void) self;
  PyObject *o;
  if (!PyArg_ParseTuple (args, "O:format_info", &o))
    return NULL;
  mx_format b;
  const mx_format *f;
  if (get_format (o, &b, &f))
    return NULL;
  return format_tuple (f);
}

/* profile(id) -> (policy tuple, rounding, name, doc) */
static PyObject *
py_profile (PyObject *self, PyObject *args)
{
  (void) self;
  int id;
  if (!PyArg_ParseTuple (args, "i:profile", &id))
    return NULL;
  mx_policy pol;
  mx_rounding r;
  if (mx_profile_get (&pol, &r, (mx_profile_id) id) != MX_OK)
    {
      PyErr_Format (PyExc_ValueError, "no profile %d", id);
      return NULL;
    }
  PyObject *t = PyTuple_New (MX_POLICY_FIELD_COUNT);
  for (int i = 0; t && i < MX_POLICY_FIELD_COUNT; i++)
    PyTuple_SET_ITEM (t, i, PyLong_FromLong (mx_policy_get (&pol, (mx_policy_field) i)));
  if (!t)
    return NULL;
  return Py_BuildValue ("(Nisssi)", t, (int) r, mx_profile_name ((mx_profile_id) id),
                        mx_profile_doc ((mx_profile_id) id),
                        mx_profile_source ((mx_profile_id) id),
                        mx_profile_proven ((mx_profile_id) id));
}

/* policy_field(i) -> (name, doc, [value names], [value docs], lo, hi, ocp, base) */
static PyObject *
py_policy_field (PyObject *self, PyObject *args)
{
  (void) self;
  int i;
  if (!PyArg_ParseTuple (args, "i:policy_field", &i))
    return NULL;
  const mx_policy_field_desc *d = mx_policy_field_get ((mx_policy_field) i);
  if (!d)
    {
      PyErr_Format (PyExc_ValueError, "no policy field %d", i);
      return NULL;
    }
  PyObject *v = PyList_New (d->nvalues > 0 ? d->nvalues : 0);
  PyObject *vd = PyList_New (d->nvalues > 0 ? d->nvalues : 0);
  for (int j = 0; v && vd && j < d->nvalues; j++)
    {
      PyList_SET_ITEM (v, j, PyUnicode_FromString (d->values[j]));
      PyList_SET_ITEM (vd, j, PyUnicode_FromString (d->value_docs[j]));
    }
  if (!v || !vd || PyErr_Occurred ())
    {
      Py_XDECREF (v);
      Py_XDECREF (vd);
      return NULL;
    }
  return Py_BuildValue ("(ssNNllli)", d->name, d->doc, v, vd, d->lo, d->hi, d->ocp, d->base);
}

/* tc_preset(id) -> the model tuple of get_tc */
static PyObject *
py_tc_preset (PyObject *self, PyObject *args)
{
  (void) self;
  int id;
  mx_tc_model m;
  if (!PyArg_ParseTuple (args, "i:tc_preset", &id))
    return NULL;
  if (mx_tc_model_preset (&m, (mx_tc_preset) id) != MX_OK)
    {
      PyErr_Format (PyExc_ValueError, "no tensor-core preset %d", id);
      return NULL;
    }
  return Py_BuildValue ("(IiiiiIi)", m.group, m.frac_bits, (int) m.align, (int) m.out,
                        m.cin_in_group, (unsigned) m.scale_point, m.denorm_products);
}

/* docs(table) -> [doc line per entry] for "rounding", "accum", "tc", "packing", "profile" */
static PyObject *
py_docs (PyObject *self, PyObject *args)
{
  (void) self;
  const char *t;
  if (!PyArg_ParseTuple (args, "s:docs", &t))
    return NULL;
  const char *(*fn) (int) = NULL;
  int n = 0;
  if (!strcmp (t, "rounding"))
    fn = (const char *(*) (int)) mx_rounding_doc, n = MX_ROUNDING_COUNT;
  else if (!strcmp (t, "accum"))
    fn = (const char *(*) (int)) mx_accum_doc, n = MX_ACCUM_COUNT;
  else if (!strcmp (t, "tc"))
    fn = (const char *(*) (int)) mx_tc_preset_doc, n = MX_TC_PRESET_COUNT;
  else if (!strcmp (t, "packing"))
    fn = (const char *(*) (int)) mx_packing_doc, n = MX_PACKING_COUNT;
  else
    {
      PyErr_Format (PyExc_ValueError, "no table %s", t);
      return NULL;
    }
  PyObject *l = PyList_New (n);
  for (int i = 0; l && i < n; i++)
    PyList_SET_ITEM (l, i, PyUnicode_FromString (fn (i)));
  return l;
}

static PyObject *
py_versions (PyObject *self, PyObject *args)
{
  (void) self;
  (void) args;
  return Py_BuildValue ("(sss)", mx_version (), MX_VERSION_STRING, mpfr_get_version ());
}

/* kernel_path() -> the name of the path libmxk runs on this CPU */
static PyObject *
py_kernel_path (PyObject *self, PyObject *args)
{
  (void) self;
  (void) args;
  return PyUnicode_FromString (mxk_path_name (mxk_current_path ()));
}

/*----------------------------------------------------------------- random -*/
/* random(seed, out): fill a uint64 buffer from the generator's SplitMix64 (mxvec.h), the one
 * PRNG of mxgold, so Python inputs built from a seed match on every machine. */
static PyObject *
py_random (PyObject *self, PyObject *args)
{
  (void) self;
  unsigned long long seed;
  Py_buffer b;
  if (!PyArg_ParseTuple (args, "Kw*:random", &seed, &b))
    return NULL;
  if (b.len % (Py_ssize_t) sizeof (uint64_t) != 0)
    {
      PyBuffer_Release (&b);
      PyErr_SetString (PyExc_ValueError, "random: the buffer must hold whole uint64 words");
      return NULL;
    }
  mxv_rng r = { seed };
  size_t n = (size_t) b.len / sizeof (uint64_t);
  uint64_t *w = b.buf;
  Py_BEGIN_ALLOW_THREADS
  for (size_t i = 0; i < n; i++)
    w[i] = mxv_rng_next (&r);
  Py_END_ALLOW_THREADS
  PyBuffer_Release (&b);
  Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
  { "quantize", py_quantize, METH_VARARGS, "libmxgold mx_quantize over blocks" },
  { "quantize_fast", py_quantize_fast, METH_VARARGS, "libmxk mxk_quantize (sr: mxk_quantize_sr)" },
  { "dequantize", py_dequantize, METH_VARARGS, "libmxgold mx_dequantize over blocks" },
  { "dequantize_fast", py_dequantize_fast, METH_VARARGS, "libmxk mxk_dequantize" },
  { "cast", py_cast, METH_VARARGS, "libmxgold mx_cast over values" },
  { "nvfp4_amax", py_nvfp4_amax, METH_VARARGS, "mx_nvfp4_amax" },
  { "nvfp4_global_scale", py_nvfp4_global_scale, METH_VARARGS, "mx_nvfp4_global_scale" },
  { "quantize_nvfp4", py_quantize_nvfp4, METH_VARARGS, "mx_quantize_nvfp4, 16 rows at a time" },
  { "dequantize_nvfp4", py_dequantize_nvfp4, METH_VARARGS, "mx_dequantize_nvfp4" },
  { "quantize_mxs", py_quantize_mxs, METH_VARARGS, "libmxgold mx_quantize_mxs over blocks" },
  { "dequantize_mxs", py_dequantize_mxs, METH_VARARGS, "libmxgold mx_dequantize_mxs" },
  { "pack", py_pack, METH_VARARGS, "mx_pack" },
  { "unpack", py_unpack, METH_VARARGS, "mx_unpack" },
  { "packed_size", py_packed_size, METH_VARARGS, "mx_packed_size" },
  { "gemm", py_gemm, METH_VARARGS, "mx_gemm" },
  { "write_mxv", py_write_mxv, METH_VARARGS, "write a quantize .mxv file" },
  { "read_mxv", py_read_mxv, METH_VARARGS, "read a .mxv file" },
  { "format_info", py_format_info, METH_VARARGS, "a format's fields" },
  { "profile", py_profile, METH_VARARGS, "a profile's policy and rounding" },
  { "policy_field", py_policy_field, METH_VARARGS, "a policy field's description" },
  { "tc_preset", py_tc_preset, METH_VARARGS, "a tensor-core preset" },
  { "docs", py_docs, METH_VARARGS, "doc lines of a table" },
  { "versions", py_versions, METH_NOARGS, "(library, headers, MPFR) versions" },
  { "kernel_path", py_kernel_path, METH_NOARGS, "libmxk's path on this CPU" },
  { "random", py_random, METH_VARARGS, "fill a uint64 buffer from SplitMix64(seed)" },
  { NULL, NULL, 0, NULL }
};

static struct PyModuleDef module = { PyModuleDef_HEAD_INIT, "mxgold._core",
                                     "The C core of mxgold (use the mxgold package).", -1, methods,
                                     NULL, NULL, NULL, NULL };

PyMODINIT_FUNC PyInit__core (void); /* the one exported symbol */

PyMODINIT_FUNC
PyInit__core (void)
{
  PyObject *m = PyModule_Create (&module);
  if (!m)
    return NULL;
  if (PyModule_AddIntConstant (m, "POLICY_FIELD_COUNT", MX_POLICY_FIELD_COUNT)
      || PyModule_AddIntConstant (m, "FORMAT_COUNT", MX_FORMAT_COUNT)
      || PyModule_AddIntConstant (m, "MAX_K", MXV_MAX_K)
      || PyModule_AddIntConstant (m, "NVFP4_BLOCK", MX_NVFP4_BLOCK))
    {
      Py_DECREF (m);
      return NULL;
    }
  return m;
}
