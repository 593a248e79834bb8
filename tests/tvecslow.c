/* tvecslow -- every expected output of the committed vector files (vectors/MANIFEST), checked
 * against the independent integer model (tests/slow*.c: no MPFR, no libmxgold arithmetic) --
 * not against libmxgold, which wrote them.  Scale, codes, values and flags, bit for bit.
 * Usage: tvecslow VECTORS_DIR [EVERY]   (EVERY > 1: only every EVERY-th file, for a quick run)
 * SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include <string.h>
#include "tests.h"

static long n, files, skipped;

/* mx_cast's definition, on the slow model: exact decode, input subnormals flushed under the
 * policy, one rounding */
static uint64_t
slow_cast (const mx_format *to, const mx_format *from, uint64_t x, mx_rounding rnd, uint32_t rb,
           const mx_policy *pol, unsigned *fl)
{
  s_val v = s_decode (from, x);
  int flushed = 0;
  if (pol->subnormals != MX_SUBNORMALS_KEEP && v.cls == S_FINITE && from->ebits > 0
      && from->special != MX_SPECIAL_POW2)
    {
      /* below 2^(1 - bias): the subnormal range of the input format */
      long top = v.exp;
      for (uint64_t s = v.sig; s > 1; s >>= 1)
        top++;
      if (top < 1 - from->bias)
        v.cls = S_ZERO, flushed = 1;
    }
  if (pol->subnormals == MX_SUBNORMALS_FLUSH_POS && v.cls == S_ZERO)
    v.neg = 0; /* -0 and the flushed become +0 */
  uint64_t c = s_encode (to, v, rnd, rb, pol, fl);
  if (flushed)
    *fl |= MX_FLAG_UNDERFLOW | MX_FLAG_INEXACT;
  return c;
}

static int
check_case (void *ctx, const mxv_header *h, mxv_case *c, const char *file, unsigned long line)
{
  (void) ctx;
  static uint64_t out[MXV_MAX_WORDS], codes[MXV_MAX_WORDS], scales[MXV_MAX_WORDS];
  static uint32_t rb[MXV_MAX_WORDS];
  uint64_t scale = 0;
  unsigned fl = 0;
  for (size_t i = 0; i < mxv_elems (h); i++)
    rb[i] = (uint32_t) c->rbits[i];
  const mx_format *eb = h->elem_b ? h->elem_b : h->elem;
  n++;
  switch (h->op)
    {
    case MXV_QUANTIZE:
      fl = s_quantize (&scale, codes, h->elem, h->scale, h->in, c->in, h->k,
                       h->rnd == MX_SR ? rb : NULL, &h->pol, h->rnd);
      CHECK (scale == c->scale && memcmp (codes, c->codes, h->k * sizeof codes[0]) == 0
             && fl == c->flags, "%s:%lu: scale %02llX/%02llX flags %02X/%02llX", file, line,
             (unsigned long long) scale, (unsigned long long) c->scale, fl,
             (unsigned long long) c->flags);
      break;
    case MXV_CAST:
      out[0] = slow_cast (h->elem, h->in, c->in[0], h->rnd, rb[0], &h->pol, &fl);
      CHECK (out[0] == c->codes[0] && fl == c->flags, "%s:%lu: code %02llX/%02llX flags %02X/%02llX",
             file, line, (unsigned long long) out[0], (unsigned long long) c->codes[0], fl,
             (unsigned long long) c->flags);
      break;
    case MXV_DECODE:
      out[0] = slow_cast (h->out, h->elem, c->in[0], MX_RNE, 0, &h->pol, &fl);
      CHECK (out[0] == c->out[0], "%s:%lu: %llX/%llX", file, line, (unsigned long long) out[0],
             (unsigned long long) c->out[0]);
      break;
    case MXV_DEQUANTIZE:
      s_dequantize (out, h->out, c->scale, c->codes, h->elem, h->scale, h->k,
                    h->rnd == MX_SR ? MX_RNE : h->rnd);
      CHECK (memcmp (out, c->out, h->k * sizeof out[0]) == 0, "%s:%lu: dequantize differs", file, line);
      break;
    case MXV_DOT:
      if (h->dp.accum == MX_ACCUM_TENSOR_CORE)
        fl = s_dot_tc (&out[0], h->out, c->scale_a, c->codes, h->elem, c->scale_b, c->codes_b, eb,
                       h->scale, h->k, h->nblocks, c->in[0], &h->dp.tc, h->out_rnd);
      else
        fl = s_dot (&out[0], h->out, c->scale_a, c->codes, h->elem, c->scale_b, c->codes_b, eb,
                    h->scale, h->k, h->nblocks, c->in[0], h->dp.accum, h->dp.group, h->out_rnd);
      CHECK (out[0] == c->out[0] && fl == c->flags, "%s:%lu: dot %llX/%llX flags %02X/%02llX", file,
             line, (unsigned long long) out[0], (unsigned long long) c->out[0], fl,
             (unsigned long long) c->flags);
      break;
    case MXV_GEMM:
      {
        size_t nb = h->gkdim / h->k;
        unsigned all = 0;
        if (h->dp.accum == MX_ACCUM_TENSOR_CORE)
          return skipped++, 77;
        for (size_t i = 0; i < h->gm; i++)
          for (size_t j = 0; j < h->gn; j++)
            {
              all |= s_dot (&out[0], h->out, c->scale_a + i * nb, c->codes + i * h->gkdim, h->elem,
                            c->scale_b + j * nb, c->codes_b + j * h->gkdim, eb, h->scale, h->k, nb,
                            c->in[i * h->gn + j], h->dp.accum, h->dp.group, h->out_rnd);
              CHECK (out[0] == c->out[i * h->gn + j], "%s:%lu: gemm [%zu][%zu]", file, line, i, j);
            }
        CHECK (all == c->flags, "%s:%lu: gemm flags %02X/%02llX", file, line, all,
               (unsigned long long) c->flags);
        break;
      }
    case MXV_NVFP4:
      {
        size_t ne = h->rows * h->cols;
        uint64_t amax = h->amax_given ? c->amax : s_nvfp4_amax (h->in, c->in, ne);
        uint64_t senc = s_nvfp4_global_scale (amax);
        fl = s_quantize_nvfp4 (scales, codes, h->in, c->in, h->rows, h->cols, amax, h->tile_2d,
                               h->rnd == MX_SR ? rb : NULL, h->rnd);
        s_dequantize_nvfp4 (out, h->out, c->scale_a, c->codes, h->rows, h->cols, amax);
        CHECK (amax == c->amax && senc == c->senc, "%s:%lu: amax %08llX/%08llX S_enc %08llX/%08llX",
               file, line, (unsigned long long) amax, (unsigned long long) c->amax,
               (unsigned long long) senc, (unsigned long long) c->senc);
        CHECK (memcmp (scales, c->scale_a, ne / MX_NVFP4_BLOCK * sizeof scales[0]) == 0
               && memcmp (codes, c->codes, ne * sizeof codes[0]) == 0 && fl == c->flags,
               "%s:%lu: nvfp4 scales or codes differ, flags %02X/%02llX", file, line, fl,
               (unsigned long long) c->flags);
        CHECK (memcmp (out, c->out, ne * sizeof out[0]) == 0, "%s:%lu: nvfp4 dequantized values differ",
               file, line);
        break;
      }
    case MXV_MXS:
      {
        const mx_mxs_desc *d = mx_mxs_get (h->mxs);
        uint8_t sh[MXV_MAX_K], esh[MXV_MAX_K];
        int same_sh = 1;
        fl = s_quantize_mxs (&scale, sh, codes, d, h->in, c->in, h->k, &h->pol, h->rnd);
        for (size_t j = 0; j < h->k / d->k2; j++)
          same_sh &= sh[j] == c->shifts[j], esh[j] = (uint8_t) c->shifts[j];
        CHECK (scale == c->scale && same_sh && memcmp (codes, c->codes, h->k * sizeof codes[0]) == 0
               && fl == c->flags, "%s:%lu: mxs scale %02llX/%02llX flags %02X/%02llX", file, line,
               (unsigned long long) scale, (unsigned long long) c->scale, fl,
               (unsigned long long) c->flags);
        s_dequantize_mxs (out, h->out, c->scale, esh, c->codes, d, h->k, h->rnd);
        CHECK (memcmp (out, c->out, h->k * sizeof out[0]) == 0, "%s:%lu: mxs dequantized values differ",
               file, line);
        break;
      }
    default:
      return 2;
    }
  return 0;
}

int
main (int argc, char **argv)
{
  if (argc < 2)
    {
      fprintf (stderr, "usage: tvecslow VECTORS_DIR [EVERY]\n");
      return 2;
    }
  long every = test_count (argc, argv, 2, 1), i = 0;
  char manifest[4096], line[8192], path[4096];
  snprintf (manifest, sizeof manifest, "%s/MANIFEST", argv[1]);
  FILE *m = fopen (manifest, "r");
  if (m == NULL)
    {
      fprintf (stderr, "tvecslow: cannot open %s\n", manifest);
      return 1;
    }
  while (fgets (line, sizeof line, m))
    {
      char sum[80], cases[32], rel[2048];
      if (sscanf (line, "%79s %31s %2047s", sum, cases, rel) != 3 || i++ % every)
        continue;
      snprintf (path, sizeof path, "%s/%s", argv[1], rel);
      long before = skipped;
      int rc = mxv_each_case (path, check_case, NULL);
      CHECK (rc == 0 || (rc == 77 && skipped > before), "%s: rc %d", path, rc);
      files += rc == 0;
    }
  fclose (m);
  printf ("tvecslow: %ld files checked against the independent model (%ld skipped: not modelled)\n",
          files, skipped);
  CHECK (files > 0, "no vector file was checked");
  return finish ("tvecslow", n);
}
