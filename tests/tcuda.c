/* tcuda.c -- libmxk_cuda's quantize and dequantize on the GPU against libmxgold.
 *   tcuda args     the argument checks (no GPU needed: nothing is launched)
 *   tcuda emulate [N [vectors]]  everything below without a GPU: each kernel's per-thread code
 *                  (kernels/cuda/src/threads.h, the same source the kernels compile) run on
 *                  the host thread by thread, the block's amax taken over its eight threads
 *                  where the kernel shuffles (label kernels)
 *   tcuda [N]      on a GPU: N random blocks per element format (default 10^6) through
 *                  mxk_cuda_quantize, spread over input format (FP32 BF16 FP16) x rule (floor
 *                  rceil-fp32) x rounding (rne rna rtz rup rdn sr) x direction (row, column),
 *                  packings and scale layouts alternating; random codes and scales through
 *                  mxk_cuda_dequantize to FP32 and BF16 in every packing and layout; then every
 *                  applicable committed vector file (vectors/ocp/quantize, ocp/dequantize) when
 *                  its directory is given as the second argument.  Exact bytes, scale padding
 *                  included.  Exits 77 without a CUDA device.
 * SPDX-License-Identifier: MIT */
#include <string.h>
#include <cuda_runtime_api.h>
#include "tests.h"
#include "vecdirs.h"
#include "mxk_cuda.h"
#include "threads.h"

static const mx_format *E8M0;
static long n;
static int emulate;                    /* run the kernels' thread code on the host */

/*------------------------------------------------------------------- args -*/
static void
args_tests (void)
{
  uint8_t s[4] = { 0 }, c[64] = { 0 };
  float in[64] = { 0 };
  uint16_t rb[64] = { 0 };
  /* each of these is refused before anything reaches the device */
#define BAD(call) do { n++; CHECK ((call) == MX_EINVAL, "%s: not MX_EINVAL", #call); } while (0)
  BAD (mxk_cuda_quantize (s, c, in, MX_FP32, 1, 33, MX_E4M3, MX_SCALE_FLOOR, MX_RNE, NULL,
                          MX_PACKING_UNPACKED, MXK_CUDA_ROWWISE, MXK_CUDA_SCALES_LINEAR, 0));
  BAD (mxk_cuda_quantize (s, c, in, MX_FP32, 33, 1, MX_E4M3, MX_SCALE_FLOOR, MX_RNE, NULL,
                          MX_PACKING_UNPACKED, MXK_CUDA_COLWISE, MXK_CUDA_SCALES_LINEAR, 0));
  BAD (mxk_cuda_quantize (s, c, in, MX_FP32, 0, 32, MX_E4M3, MX_SCALE_FLOOR, MX_RNE, NULL,
                          MX_PACKING_UNPACKED, MXK_CUDA_ROWWISE, MXK_CUDA_SCALES_LINEAR, 0));
  BAD (mxk_cuda_quantize (s, c, in, MX_FP64, 1, 32, MX_E4M3, MX_SCALE_FLOOR, MX_RNE, NULL,
                          MX_PACKING_UNPACKED, MXK_CUDA_ROWWISE, MXK_CUDA_SCALES_LINEAR, 0));
  BAD (mxk_cuda_quantize (s, c, in, MX_FP32, 1, 32, MX_FP32, MX_SCALE_FLOOR, MX_RNE, NULL,
                          MX_PACKING_UNPACKED, MXK_CUDA_ROWWISE, MXK_CUDA_SCALES_LINEAR, 0));
  BAD (mxk_cuda_quantize (s, c, in, MX_FP32, 1, 32, MX_E4M3, MX_SCALE_EVEN, MX_RNE, NULL,
                          MX_PACKING_UNPACKED, MXK_CUDA_ROWWISE, MXK_CUDA_SCALES_LINEAR, 0));
  BAD (mxk_cuda_quantize (s, c, in, MX_FP32, 1, 32, MX_E4M3, MX_SCALE_FLOOR, MX_RTO, NULL,
                          MX_PACKING_UNPACKED, MXK_CUDA_ROWWISE, MXK_CUDA_SCALES_LINEAR, 0));
  BAD (mxk_cuda_quantize (s, c, in, MX_FP32, 1, 32, MX_E4M3, MX_SCALE_FLOOR, MX_SR, NULL,
                          MX_PACKING_UNPACKED, MXK_CUDA_ROWWISE, MXK_CUDA_SCALES_LINEAR, 0));
  BAD (mxk_cuda_quantize (s, c, in, MX_FP32, 1, 32, MX_E4M3, MX_SCALE_FLOOR, MX_RNE, rb,
                          MX_PACKING_UNPACKED, MXK_CUDA_ROWWISE, MXK_CUDA_SCALES_LINEAR, 0));
  BAD (mxk_cuda_quantize (s, c, in, MX_FP32, 1, 32, MX_E4M3, MX_SCALE_FLOOR, MX_RNE, NULL,
                          MX_PACKING_FP4_LO_FIRST, MXK_CUDA_ROWWISE, MXK_CUDA_SCALES_LINEAR, 0));
  BAD (mxk_cuda_quantize (s, c, in, MX_FP32, 1, 32, MX_E2M1, MX_SCALE_FLOOR, MX_RNE, NULL,
                          MX_PACKING_FP4_J_J16, MXK_CUDA_ROWWISE, MXK_CUDA_SCALES_LINEAR, 0));
  BAD (mxk_cuda_quantize (s, c, in, MX_FP32, 1, 32, MX_E2M1, MX_SCALE_FLOOR, MX_RNE, NULL,
                          MX_PACKING_UNPACKED, (mxk_cuda_dir) 2, MXK_CUDA_SCALES_LINEAR, 0));
  BAD (mxk_cuda_quantize (s, c, in, MX_FP32, 1, 32, MX_E2M1, MX_SCALE_FLOOR, MX_RNE, NULL,
                          MX_PACKING_UNPACKED, MXK_CUDA_ROWWISE, (mxk_cuda_scales) 2, 0));
  BAD (mxk_cuda_quantize (NULL, c, in, MX_FP32, 1, 32, MX_E2M1, MX_SCALE_FLOOR, MX_RNE, NULL,
                          MX_PACKING_UNPACKED, MXK_CUDA_ROWWISE, MXK_CUDA_SCALES_LINEAR, 0));
  BAD (mxk_cuda_quantize (s, c, in, MX_FP32, (size_t) 1 << 40, (size_t) 1 << 40, MX_E2M1,
                          MX_SCALE_FLOOR, MX_RNE, NULL, MX_PACKING_UNPACKED, MXK_CUDA_ROWWISE,
                          MXK_CUDA_SCALES_LINEAR, 0));
  BAD (mxk_cuda_dequantize (in, MX_FP16, s, c, 1, 32, MX_E4M3, MX_PACKING_UNPACKED,
                            MXK_CUDA_SCALES_LINEAR, 0));
  BAD (mxk_cuda_dequantize (in, MX_FP32, s, c, 1, 31, MX_E4M3, MX_PACKING_UNPACKED,
                            MXK_CUDA_SCALES_LINEAR, 0));
  BAD (mxk_cuda_dequantize (in, MX_FP32, s, c, 1, 32, MX_E3M2, MX_PACKING_FP4_LO_FIRST,
                            MXK_CUDA_SCALES_LINEAR, 0));
  BAD (mxk_cuda_dequantize (in, MX_FP32, s, c, 1, 32, MX_UE4M3, MX_PACKING_UNPACKED,
                            MXK_CUDA_SCALES_LINEAR, 0));
  BAD (mxk_cuda_dequantize (NULL, MX_FP32, s, c, 1, 32, MX_E4M3, MX_PACKING_UNPACKED,
                            MXK_CUDA_SCALES_LINEAR, 0));
#undef BAD
  /* sizes: the swizzled layout pads rows to 128 and scale columns to 4 */
  n += 4;
  CHECK (mxk_cuda_scale_bytes (1, 32, MXK_CUDA_SCALES_SWIZZLED) == 512, "swizzled 1 x 1 scales");
  CHECK (mxk_cuda_scale_bytes (129, 32 * 5, MXK_CUDA_SCALES_SWIZZLED) == 256 * 8, "swizzled 129 x 5");
  CHECK (mxk_cuda_code_bytes (3, 64, MX_PACKING_FP6_3BYTE) == 3 * 48, "fp6 code bytes");
  CHECK (mxk_cuda_code_bytes (3, 64, MX_PACKING_FP4_J_J16) == 0, "fp4-j-j16 is not written");
}

/*--------------------------------------------------------------- helpers -*/
/* The test's own statement of the swizzled layout (cuBLAS "1D block scaling factors layout"):
 * 128 x 4 tiles of 512 bytes, tile rows in order, column tiles fastest; in a tile the 32 x 16
 * byte matrix whose row is r % 32 and whose column is 4 * (r / 32 % 4) + c % 4. */
static size_t
swz (size_t r, size_t c, size_t ncols)
{
  size_t tile = (r / 128) * ((ncols + 3) / 4) + c / 4;
  size_t row32 = r % 32, col16 = 4 * ((r % 128) / 32) + c % 4;
  return tile * 512 + row32 * 16 + col16;
}

static void *
dev_copy (const void *h, size_t bytes)
{
  void *d = NULL;
  if (cudaMalloc (&d, bytes ? bytes : 1) != cudaSuccess
      || (bytes && cudaMemcpy (d, h, bytes, cudaMemcpyHostToDevice) != cudaSuccess))
    {
      fprintf (stderr, "tcuda: cudaMalloc/cudaMemcpy of %zu bytes failed\n", bytes);
      exit (1);
    }
  return d;
}

static void
host_copy (void *h, const void *d, size_t bytes)
{
  if (cudaDeviceSynchronize () != cudaSuccess || cudaMemcpy (h, d, bytes, cudaMemcpyDeviceToHost) != cudaSuccess)
    {
      fprintf (stderr, "tcuda: kernel or copy failed: %s\n", cudaGetErrorString (cudaGetLastError ()));
      exit (1);
    }
}

/* A random input pattern of format in around binade eb (FP32 exponent field): subnormals,
 * zeros, ties, neighbours of the block's largest, rarely NaN/Inf. */
static uint32_t
random_input (rng *g, mx_format_id in, int eb)
{
  uint32_t u = (uint32_t) rng_next (g), k = (uint32_t) rng_below (g, 64);
  uint32_t v;
  if (k == 0)
    v = u & 0x807FFFFFu;                                   /* FP32 subnormal */
  else if (k == 1)
    v = u & 0x80000000u;                                   /* +-0 */
  else if (k == 2 && rng_below (g, 64) == 0)
    v = (u & 0x80000000u) | 0x7F800000u | (rng_below (g, 2) ? 0x400000u : 0);
  else
    {
      int e = eb - (int) rng_below (g, k < 8 ? 40 : 12);
      e = e < 0 ? 0 : e > 254 ? 254 : e;
      v = (u & 0x807FFFFFu) | ((uint32_t) e << 23);
      if (k < 12)
        v &= 0xFFFF8000u | ((u >> 7) & 0x7FFF & (0x7FFFu >> rng_below (g, 16)));
    }
  if (in == MX_BF16)
    return v >> 16;
  if (in == MX_FP16)
    {
      /* an FP16 pattern of the same flavour: exponent near eb mapped into FP16's range */
      uint32_t s = (v >> 16) & 0x8000u, e = (v >> 23) & 0xFF, m = (v >> 13) & 0x3FF;
      if (e == 0xFF)
        return s | 0x7C00u | (m ? 0x200u : 0);
      int fe = (int) e - 127 + 15 - (eb - 127) / 8;        /* squeeze 8 exponent bits into 5 */
      fe = e == 0 ? 0 : fe < 0 ? 0 : fe > 30 ? 30 : fe;
      return s | ((uint32_t) fe << 10) | m;
    }
  return v;
}

static size_t
in_size (mx_format_id in)
{
  return in == MX_FP32 ? 4 : 2;
}

/*---------------------------------------------------------------- runners -*/
/* mxk_cuda_quantize on host buffers: through the GPU, or emulated thread by thread.  The
 * scales buffer arrives filled with 0xA5: the swizzled layout's padding must come back 0. */
static int
run_q (uint8_t *hs, uint8_t *hc, size_t sb, size_t cb, const void *hin, size_t inb,
       const uint16_t *hr, mx_format_id in, size_t rows, size_t cols, mx_format_id elem,
       mx_scale_rule rule, mx_rounding rnd, mx_packing pk, mxk_cuda_dir dir, mxk_cuda_scales sl)
{
  memset (hs, 0xA5, sb);
  if (emulate)
    {
      mxkc_qargs a;
      int rc = mxkc_q_setup (&a, hs, hc, hin, in, rows, cols, elem, rule, rnd, rnd == MX_SR ? hr : NULL,
                             pk, dir == MXK_CUDA_COLWISE, sl == MXK_CUDA_SCALES_SWIZZLED);
      if (rc != MX_OK)
        return rc;
      if (a.swizzled)
        memset (hs, 0, a.scale_bytes);            /* mxk_cuda_quantize's cudaMemsetAsync */
      if (a.colwise)
        for (size_t rb = 0; rb < rows / MX_BLOCK; rb++)
          for (size_t c = 0; c < cols; c++)
            mxkc_q_cw_thread (&a, c, rb);
      else
        for (size_t b = 0; b < a.nblk; b++)
          {
            uint32_t v[MX_BLOCK], m = 0;
            for (int g = 0; g < 8; g++)
              mxkc_q_load4 (v + 4 * g, &a, (b * 8 + (size_t) g) * 4);
            for (int j = 0; j < MX_BLOCK; j++)
              m = (v[j] & 0x7FFFFFFFu) > m ? v[j] & 0x7FFFFFFFu : m;
            for (int g = 0; g < 8; g += 2)  /* two groups a thread, as quantize.cu */
              mxkc_q_rw_thread (&a, b * 8 + (size_t) g, 2, v + 4 * g, m, elem, rnd);
          }
      return MX_OK;
    }
  void *din = dev_copy (hin, inb), *dr = dev_copy (hr, rows * cols * 2);
  uint8_t *ds = dev_copy (hs, sb), *dc = dev_copy (hc, cb);
  int rc = mxk_cuda_quantize (ds, dc, din, in, rows, cols, elem, rule, rnd, rnd == MX_SR ? dr : NULL,
                              pk, dir, sl, 0);
  host_copy (hs, ds, sb);
  host_copy (hc, dc, cb);
  cudaFree (din), cudaFree (dr), cudaFree (ds), cudaFree (dc);
  return rc;
}

/* mxk_cuda_dequantize on host buffers (ob: bytes of out). */
static int
run_dq (void *hout, size_t ob, mx_format_id out_fmt, const uint8_t *hs, size_t sb, const uint8_t *hc,
        size_t cb, size_t r, size_t c, mx_format_id elem, mx_packing pk, mxk_cuda_scales sl)
{
  if (emulate)
    {
      mxkc_dqargs a;
      int rc = mxkc_dq_setup (&a, hout, out_fmt, hs, hc, r, c, elem, pk, sl == MXK_CUDA_SCALES_SWIZZLED);
      if (rc != MX_OK)
        return rc;
      mxkc_fmt f = mxkc_fmt_of (elem);
      uint32_t lut[256];
      for (int k = 0; k < (1 << f.bits); k++)
        lut[k] = mxkc_decode_f32 ((uint8_t) k, &f);
      for (size_t t = 0; t < a.nblk * 8; t++)
        mxkc_dq_thread (&a, lut, t);
      return MX_OK;
    }
  uint8_t *ds = dev_copy (hs, sb), *dc = dev_copy (hc, cb);
  void *dout = dev_copy (hout, ob);
  int rc = mxk_cuda_dequantize (dout, out_fmt, ds, dc, r, c, elem, pk, sl, 0);
  host_copy (hout, dout, ob);
  cudaFree (ds), cudaFree (dc), cudaFree (dout);
  return rc;
}

/*--------------------------------------------------------------- quantize -*/
/* One call: a rows x cols input, everything compared with libmxgold block by block. */
static void
one_quantize (rng *g, mx_format_id in, mx_format_id elem, mx_scale_rule rule, mx_rounding rnd,
              mx_packing pk, mxk_cuda_dir dir, mxk_cuda_scales sl, size_t rows, size_t cols)
{
  size_t N = rows * cols, R = dir == MXK_CUDA_ROWWISE ? rows : cols, C = N / R, bpr = C / 32;
  size_t sb = mxk_cuda_scale_bytes (R, C, sl), cb = mxk_cuda_code_bytes (R, C, pk);
  void *hin = malloc (N * in_size (in));
  uint16_t *hr = malloc (N * 2);
  uint8_t *ws = calloc (sb, 1), *wc = calloc (cb, 1), *gs = calloc (sb, 1), *gc = calloc (cb, 1);
  if (!hin || !hr || !ws || !wc || !gs || !gc)
    exit (1);
  int eb = 1 + (int) rng_below (g, 253);
  for (size_t i = 0; i < N; i++)
    {
      if (i % 32 == 0 && rng_below (g, 4) == 0)
        eb = 1 + (int) rng_below (g, 253);
      uint32_t v = random_input (g, in, eb);
      if (in == MX_FP32)
        ((uint32_t *) hin)[i] = v;
      else
        ((uint16_t *) hin)[i] = (uint16_t) v;
      hr[i] = (uint16_t) rng_next (g);
    }
  mx_policy p = mx_policy_ocp ();
  p.scale_rule = rule;
  for (size_t b = 0; b < N / 32; b++)
    {
      size_t r = b / bpr, cb0 = (b % bpr) * 32;  /* result row r, columns cb0.. */
      uint64_t x[32], s, c[32];
      uint32_t w[32];
      for (int i = 0; i < 32; i++)
        {
          /* the input element behind result (r, cb0 + i) */
          size_t at = dir == MXK_CUDA_ROWWISE ? r * cols + cb0 + (size_t) i : (cb0 + (size_t) i) * cols + r;
          x[i] = in == MX_FP32 ? ((uint32_t *) hin)[at] : ((uint16_t *) hin)[at];
          w[i] = hr[at];
        }
      mx_quantize (&s, c, NULL, NULL, mx_format_get (elem), E8M0, mx_format_get (in), x, 32,
                   rnd == MX_SR ? w : NULL, &p, rnd);
      uint8_t c8[32];
      for (int i = 0; i < 32; i++)
        c8[i] = (uint8_t) c[i];
      mx_pack (wc + b * (cb / (N / 32)), c8, 32, mx_format_get (elem), pk);
      ws[sl == MXK_CUDA_SCALES_SWIZZLED ? swz (r, b % bpr, bpr) : b] = (uint8_t) s;
    }
  int rc = run_q (gs, gc, sb, cb, hin, N * in_size (in), hr, in, rows, cols, elem, rule, rnd, pk, dir, sl);
  n++;
  size_t bad = 0;
  while (bad < cb && gc[bad] == wc[bad])
    bad++;
  CHECK (rc == MX_OK && memcmp (gs, ws, sb) == 0 && bad == cb,
         "quantize %s -> %s %s %s %s %s %s %zux%zu: rc %d, scales %s, first code byte off: %ld",
         mx_format_get (in)->name, mx_format_get (elem)->name,
         mx_policy_field_get (MX_POLICY_SCALE_RULE)->values[rule], mx_rounding_name (rnd),
         mx_packing_name (pk), dir == MXK_CUDA_ROWWISE ? "row" : "col",
         sl == MXK_CUDA_SCALES_SWIZZLED ? "swizzled" : "linear", rows, cols, rc,
         memcmp (gs, ws, sb) ? "differ" : "equal", bad == cb ? -1L : (long) bad);
  free (hin), free (hr), free (ws), free (wc), free (gs), free (gc);
}

static void
quantize_tests (rng *g, long per_format)
{
  static const mx_format_id ins[] = { MX_FP32, MX_BF16, MX_FP16 };
  static const mx_scale_rule rules[] = { MX_SCALE_FLOOR, MX_SCALE_RCEIL_FP32 };
  static const mx_rounding rnds[] = { MX_RNE, MX_RNA, MX_RTZ, MX_RUP, MX_RDN, MX_SR };
  mx_format_id elems[MX_FORMAT_COUNT];
  int ne = formats_of_role (MX_ROLE_ELEM, elems), combo = 0;
  long per_call = per_format / (3 * 2 * 6 * 2) + 1;
  for (int fi = 0; fi < ne; fi++)
    {
      const mx_format *f = mx_format_get (elems[fi]);
      if (f->bits > 8)
        continue;
      for (int ii = 0; ii < 3; ii++)
        for (int ri = 0; ri < 2; ri++)
          for (int rn = 0; rn < 6; rn++)
            for (int d = 0; d < 2; d++, combo++)
              {
                mx_packing pk = combo % 2 == 0 ? MX_PACKING_UNPACKED
                                : f->bits == 4 ? MX_PACKING_FP4_LO_FIRST
                                : f->bits == 6 ? MX_PACKING_FP6_3BYTE : MX_PACKING_UNPACKED;
                mxk_cuda_scales sl = combo / 2 % 2 ? MXK_CUDA_SCALES_SWIZZLED : MXK_CUDA_SCALES_LINEAR;
                /* odd shapes: rows not a multiple of 128, 32 * bpr with bpr not a multiple of 4 */
                size_t other = 1 + (size_t) rng_below (g, 300), bpr = (size_t) per_call / other + 1;
                size_t rows = d == 0 ? other : 32 * bpr, cols = d == 0 ? 32 * bpr : other;
                one_quantize (g, ins[ii], elems[fi], rules[ri], rnds[rn], pk,
                              d == 0 ? MXK_CUDA_ROWWISE : MXK_CUDA_COLWISE, sl, rows, cols);
              }
    }
}

/*------------------------------------------------------------- dequantize -*/
static void
dequantize_tests (rng *g)
{
  mx_format_id elems[MX_FORMAT_COUNT];
  int ne = formats_of_role (MX_ROLE_ELEM, elems);
  for (int fi = 0; fi < ne; fi++)
    {
      const mx_format *f = mx_format_get (elems[fi]);
      if (f->bits > 8)
        continue;
      for (int bf = 0; bf < 2; bf++)
        for (int pi = 0; pi < 2; pi++)
          for (int si = 0; si < 2; si++)
            {
              mx_packing pk = pi == 0 ? MX_PACKING_UNPACKED : f->bits == 4 ? MX_PACKING_FP4_LO_FIRST
                              : f->bits == 6 ? MX_PACKING_FP6_3BYTE : MX_PACKING_UNPACKED;
              mxk_cuda_scales sl = si ? MXK_CUDA_SCALES_SWIZZLED : MXK_CUDA_SCALES_LINEAR;
              size_t R = 1 + (size_t) rng_below (g, 300), bpr = 1 + (size_t) rng_below (g, 40), C = 32 * bpr;
              size_t N = R * C, sb = mxk_cuda_scale_bytes (R, C, sl), cb = mxk_cuda_code_bytes (R, C, pk);
              uint8_t *hs = calloc (sb, 1), *hc = malloc (cb), *codes = malloc (N);
              uint32_t *want = malloc (N * 4), *got = malloc (N * 4);
              if (!hs || !hc || !codes || !want || !got)
                exit (1);
              for (size_t b = 0; b < N / 32; b++)
                {
                  uint8_t s = (uint8_t) rng_next (g);
                  uint64_t c64[32], o[32];
                  unsigned fl;
                  for (int i = 0; i < 32; i++)
                    codes[b * 32 + (size_t) i] = (uint8_t) (rng_next (g) & ((1u << f->bits) - 1)),
                    c64[i] = codes[b * 32 + (size_t) i];
                  hs[sl == MXK_CUDA_SCALES_SWIZZLED ? swz (b / bpr, b % bpr, bpr) : b] = s;
                  mx_dequantize (o, &fl, mx_format_get (bf ? MX_BF16 : MX_FP32), s, c64, f, E8M0, 32, MX_RNE);
                  for (int i = 0; i < 32; i++)
                    want[b * 32 + (size_t) i] = (uint32_t) o[i];
                  mx_pack (hc + b * (cb / (N / 32)), codes + b * 32, 32, f, pk);
                }
              int rc = run_dq (got, N * (bf ? 2 : 4), bf ? MX_BF16 : MX_FP32, hs, sb, hc, cb, R, C,
                               elems[fi], pk, sl);
              size_t bad = N;
              for (size_t i = 0; i < N && bad == N; i++)
                if ((bf ? ((uint16_t *) got)[i] : got[i]) != want[i])
                  bad = i;
              n++;
              CHECK (rc == MX_OK && bad == N, "dequantize %s -> %s %s %s %zux%zu: rc %d, element %zu: 0x%X, libmxgold 0x%X",
                     f->name, bf ? "bf16" : "fp32", mx_packing_name (pk), si ? "swizzled" : "linear", R, C, rc,
                     bad, bad < N ? (bf ? ((uint16_t *) got)[bad] : got[bad]) : 0, bad < N ? want[bad] : 0);
              free (hs), free (hc), free (codes), free (want), free (got);
            }
    }
}

/*---------------------------------------------------------------- vectors -*/

static int
vcase (void *ctx, const mxv_header *h, mxv_case *c, const char *file, unsigned long line)
{
  vec_stat *v = ctx;
  mx_policy ocp = mx_policy_ocp ();
  mx_format_id in = h->in ? h->in->id : MX_FP32;
  mx_policy q = h->pol;
  q.scale_rule = ocp.scale_rule;        /* every other field must be the OCP default */
  if (h->k != 32 || h->scale != E8M0)
    return 77;
  if (h->op == MXV_QUANTIZE)
    {
      if ((in != MX_FP32 && in != MX_BF16 && in != MX_FP16)
          || (h->pol.scale_rule != MX_SCALE_FLOOR && h->pol.scale_rule != MX_SCALE_RCEIL_FP32)
          || (h->rnd != MX_RNE && h->rnd != MX_RNA && h->rnd != MX_RTZ && h->rnd != MX_RUP
              && h->rnd != MX_RDN && h->rnd != MX_SR)
          || memcmp (&q, &ocp, sizeof q) != 0 || ocp.sr_bits != 16 || ocp.sr_frac != MX_SR_FRAC_TRUNC
          || h->packing == MX_PACKING_FP4_J_J16)
        return 77;
      uint32_t in32[32];
      uint16_t in16[32], rk[32];
      for (int i = 0; i < 32; i++)
        in32[i] = (uint32_t) c->in[i], in16[i] = (uint16_t) c->in[i], rk[i] = (uint16_t) c->rbits[i];
      uint8_t codes[32], want[32], s, got[32];
      for (int i = 0; i < 32; i++)
        codes[i] = (uint8_t) c->codes[i];
      mx_pack (want, codes, 32, h->elem, h->packing);
      size_t cb = mx_packed_size (h->packing, 32);
      for (int d = 0; d < 2; d++)       /* a 1 x 32 row, and a 32 x 1 column: the same block */
        {
          int rc = run_q (&s, got, 1, cb, in == MX_FP32 ? (void *) in32 : (void *) in16, 32 * in_size (in),
                          rk, in, d ? 32 : 1, d ? 1 : 32, h->elem->id, h->pol.scale_rule, h->rnd,
                          h->packing, d ? MXK_CUDA_COLWISE : MXK_CUDA_ROWWISE, MXK_CUDA_SCALES_LINEAR);
          n++;
          CHECK (rc == MX_OK && s == c->scale && memcmp (got, want, cb) == 0, "%s:%lu (%s)", file, line,
                 d ? "column" : "row");
        }
    }
  else if (h->op == MXV_DEQUANTIZE)
    {
      if (h->rnd != MX_RNE || (h->out != mx_format_get (MX_FP32) && h->out != mx_format_get (MX_BF16)))
        return 77;
      if (h->packing != MX_PACKING_UNPACKED && h->packing != MX_PACKING_FP4_LO_FIRST
          && h->packing != MX_PACKING_FP6_3BYTE)
        return 77;
      uint8_t s = (uint8_t) c->scale, codes[32], packed[32];
      for (int i = 0; i < 32; i++)
        codes[i] = (uint8_t) c->codes[i];
      mx_pack (packed, codes, 32, h->elem, h->packing);
      int bf = h->out == mx_format_get (MX_BF16);
      uint32_t out[32];
      int rc = run_dq (out, bf ? 64 : 128, bf ? MX_BF16 : MX_FP32, &s, 1, packed, mx_packed_size (h->packing, 32),
                       1, 32, h->elem->id, h->packing, MXK_CUDA_SCALES_LINEAR);
      int ok = rc == MX_OK;
      for (int i = 0; i < 32; i++)
        ok &= (bf ? ((uint16_t *) out)[i] : out[i]) == c->out[i];
      n++;
      CHECK (ok, "%s:%lu", file, line);
    }
  else
    return 77;
  v->cases++;
  return 0;
}

/* one committed vector file through the kernels (77: a file they do not serve) */
static void
vfile (const char *path, void *ctx)
{
  int empty, rc = vec_stream_file (path, vcase, ctx, &empty);
  if (rc != 77)
    CHECK (rc == 0, "%s: rc %d", path, rc); /* a file that gives no case passes here */
}

static void
vector_tests (const char *vdir)
{
  static const char *globs[] = { "ocp/quantize", "ocp/dequantize", "profiles/torchao-rceil" };
  vec_stat v = { 0, 0 };
  for (size_t gi = 0; gi < sizeof globs / sizeof globs[0]; gi++)
    CHECK (vec_each_file (vdir, globs[gi], vfile, &v) > 0, "%s/%s: no vector file, or unreadable", vdir, globs[gi]);
  printf ("tcuda: %ld committed vector files (%ld cases) through the %s\n", v.files, v.cases,
          emulate ? "kernels' thread code on the host" : "GPU");
  CHECK (v.files >= 35, "only %ld vector files applied", v.files);
}

int
main (int argc, char **argv)
{
  E8M0 = mx_format_get (MX_E8M0);
  if (argc > 1 && strcmp (argv[1], "args") == 0)
    {
      args_tests ();
      return finish ("tcuda args", n);
    }
  if (argc > 1 && strcmp (argv[1], "emulate") == 0)
    emulate = 1, argc--, argv++;
  long per_format = test_count (argc, argv, 1, 1000000);
  rng g = { test_seed () ^ 0xC0DAu };
  if (emulate)
    {
      args_tests ();
      quantize_tests (&g, per_format);
      dequantize_tests (&g);
      if (argc > 2)
        vector_tests (argv[2]);
      return finish ("tcuda emulate", n);
    }
  int dev = 0;
  cudaError_t e = cudaGetDeviceCount (&dev);
  if (e != cudaSuccess || dev == 0)
    {
      printf ("tcuda: no CUDA device (%s): skipped\n", e != cudaSuccess ? cudaGetErrorString (e) : "0 devices");
      return SKIP;
    }
  struct cudaDeviceProp pr;
  cudaGetDeviceProperties (&pr, 0);
  printf ("tcuda: device %s (sm_%d%d)\n", pr.name, pr.major, pr.minor);
  args_tests ();
  quantize_tests (&g, per_format);
  dequantize_tests (&g);
  if (argc > 2)
    vector_tests (argv[2]);
  return finish ("tcuda", n);
}
