/* fuzz_results -- the results reader of 'verify --vectors V --results R': byte 0 chooses one of
 * a few generated vector files (every op, packed codes, sr, tensor-core dot, gemm); the rest is
 * the results file.
 * SPDX-License-Identifier: MIT */
#include "fuzz.h"
#include "mxvec.h"

static int
sink (void *ctx, mxv_case *c)
{
  mxv_writer_case (ctx, c);
  return 0;
}

/* Write vectors file i (generated once): its path. */
static const char *
vectors (int i)
{
  static char made[8], paths[8][160];
  static const struct { mxv_op op; mx_format_id f; mx_packing pk; mx_rounding r; mx_accum a; } v[8] = {
    { MXV_QUANTIZE, MX_E2M1, MX_PACKING_FP4_LO_FIRST, MX_RNE, MX_ACCUM_EXACT },
    { MXV_QUANTIZE, MX_E3M2, MX_PACKING_FP6_3BYTE, MX_SR, MX_ACCUM_EXACT },
    { MXV_CAST, MX_E4M3, MX_PACKING_UNPACKED, MX_RNA, MX_ACCUM_EXACT },
    { MXV_DECODE, MX_E8M0, MX_PACKING_UNPACKED, MX_RNE, MX_ACCUM_EXACT },
    { MXV_DEQUANTIZE, MX_INT8, MX_PACKING_UNPACKED, MX_RTZ, MX_ACCUM_EXACT },
    { MXV_DOT, MX_E5M2, MX_PACKING_UNPACKED, MX_RNE, MX_ACCUM_TENSOR_CORE },
    { MXV_GEMM, MX_E2M3, MX_PACKING_UNPACKED, MX_RDN, MX_ACCUM_BLOCK_FP32 },
    { MXV_QUANTIZE, MX_E4M3, MX_PACKING_UNPACKED, MX_RNE, MX_ACCUM_EXACT },
  };
  i &= 7;
  if (!made[i])
    {
      static mxv_header h;
      char name[32], err[256];
      mxv_header_init (&h);
      h.op = v[i].op;
      h.elem = mx_format_get (v[i].f);
      h.packing = v[i].pk;
      h.rnd = v[i].r;
      h.out_rnd = h.op == MXV_DOT || h.op == MXV_GEMM ? v[i].r : MX_RNE;
      h.dp.accum = v[i].a;
      h.k = h.op == MXV_GEMM ? 4 : 8;
      h.gm = h.gn = 2, h.gkdim = 8;
      snprintf (name, sizeof name, "v%d.mxv", i);
      snprintf (paths[i], sizeof paths[i], "%s", fuzz_path (name));
      /* only a few cases: the count first, then the file */
      h.cases = mxv_generate (&h, 0, 0, NULL, NULL, err, sizeof err);
      FILE *f = fopen (paths[i], "w");
      mxv_writer w;
      if (f == NULL || h.cases < 0)
        abort ();
      mxv_writer_begin (&w, f, MXV_EMIT_MXV, &h);
      mxv_generate (&h, 0, 0, sink, &w, err, sizeof err);
      fclose (f);
      made[i] = 1;
    }
  return paths[i];
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  if (size < 1)
    return 0;
  const char *vec = vectors (data[0]);
  const char *res = fuzz_path (data[0] & 8 ? "r.mxv.gz" : "r.mxv");
  fuzz_write (res, data + 1, size - 1);
  mxv_verify_opts o = { 20, 0, 0, 0, 0, 0, 0, 0 };
  mxv_verify_file (vec, res, &o);
  return 0;
}
