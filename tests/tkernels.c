/* tkernels -- the CPU kernels (libmxk) against libmxgold, bit for bit, on every path this CPU
 * runs (ref, generic, avx2, avx512, avx512vbmi; others reported as not run):
 *   quantize: every BF16 input in three block arrangements x every format x rne rna rtz rup rdn
 *             sr x floor rceil-fp32 (and the packed outputs); N seeded random FP32 blocks per
 *             format with NaN, Inf, zeros and subnormals mixed in; 1024 wide-range FP32 blocks
 *             (normal values down to 2^-126, zeros, ties) x every rounding x both rules;
 *             1024 blocks of FP32 subnormals and zeros alone, likewise; sr
 *             through mxk_quantize_sr with fresh random words per call (libmxgold: the same
 *             low 16 bits under random high ones)
 *   dequantize: every scale x every code of every format, to FP32 and BF16, unpacked and packed
 *   dot (block-fp32, rne): random 1..4-block pairs of every format pair, specials mixed in
 *   vectors: every applicable committed file (quantize, dequantize rne, block-fp32 dot)
 *   and all of it but the BF16 sweeps again with the FPU flushing FP32 subnormals (FTZ+DAZ), on
 *   data whose golden results hold none: no kernel has a subnormal intermediate that matters;
 *   and all of it again with the MXCSR's DE and UE flags checked after every call (FTZ on, DAZ
 *   off; dequantize and dot results that are subnormal left out): no kernel has one at all
 *   threads (tkernels mt [FORMAT|all]): mxk_quantize_mt, mxk_quantize_sr_mt and
 *             mxk_dequantize_mt on 1 2 3 7 and 0 threads, byte-identical to the one-thread calls
 *             and libmxgold (mt_tests); every rejected argument (mt_invalid)
 *   large outputs (tkernels nt): dequantize outputs past the non-temporal threshold, at every
 *             element offset from a 64-byte line, every path (nt_tests); quantize's codes past
 *             it, one call and mxk_quantize_mt, against 1 MiB calls (nt_quantize)
 * Usage: tkernels [FORMAT|all] [RANDOM_BLOCKS] [VECTORS_DIR] | mt [FORMAT|all] | nt
 * SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include <string.h>
#include "mxk.h"
#include "tests.h"
#include "vecdirs.h"

static long n;
static const mx_rounding rnds[] = { MX_RNE, MX_RNA, MX_RTZ, MX_RUP, MX_RDN, MX_SR };
#define NRND (sizeof rnds / sizeof rnds[0])
static mxk_path paths[MXK_PATH_COUNT];
static int npaths;

static const mx_format *E8M0;

/* The flush pass (issue 18): the kernels run with the FPU flushing FP32 subnormals (MXCSR DAZ and
 * FTZ) on data whose golden results hold none.  A kernel whose inner loop produces or consumes a
 * subnormal intermediate (Intel cores pay a microcode assist for each) then gives another result,
 * so the pass proves there is none -- where the subnormal mattered.  One that did not matter (t
 * below 2^-126 element units rounds to 0 whether it is a subnormal or DAZ's 0) leaves the bits
 * alone, so the flag pass follows: MXCSR FTZ on (a subnormal result is flushed and raises UE),
 * DAZ off, the exception flags cleared before each kernel call and read after it; DE (a
 * subnormal operand) or UE must not be raised, on every input but dequantize blocks and dots
 * whose golden results are themselves subnormal (FP32 or BF16 at most 2^-126) -- FP32-subnormal
 * quantize inputs included: they are data, never an FP operand.  The AVX-512 rounding adds with
 * embedded rounding ({sae}) raise no flag at all; they take the same t as rne's add, which does.
 * The golden results are computed with the MXCSR untouched. */
static int flush; /* 0: the MXCSR as it is; 1: FTZ+DAZ; 2: FTZ, DE and UE checked */
#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#define HAVE_FLUSH 1
#define CSR_FLAGS 0x3Fu /* IE DE ZE OE UE PE */
#define CSR_DE_UE 0x12u
static unsigned
flush_on (void)
{
  unsigned old = _mm_getcsr ();
  if (flush == 1)
    _mm_setcsr (old | 0x8040u); /* FTZ | DAZ */
  else if (flush == 2)
    _mm_setcsr ((old | 0x8000u) & ~0x0040u & ~CSR_FLAGS); /* FTZ, no DAZ, flags clear */
  return old;
}
/* restores the MXCSR; the flag pass: the DE and UE flags the kernel raised (else 0) */
static unsigned
flush_off (unsigned old)
{
  unsigned fl = flush == 2 ? _mm_getcsr () & CSR_DE_UE : 0;
  _mm_setcsr (old);
  return fl;
}
#else
#define HAVE_FLUSH 0
static unsigned flush_on (void) { return 0; }
static unsigned flush_off (unsigned old) { (void) old; return 0; }
#endif
static const char *const pass_name[] = { "", " (FTZ+DAZ)", " (flags)" };

/* an FP32 (bf16: BF16) pattern that is a subnormal */
static int
is_sub (uint32_t u, int bf16)
{
  uint32_t m = bf16 ? u & 0x7FFF : u & 0x7FFFFFFF;
  /* BF16: 2^-126 too, which an FP32 subnormal may round up to */
  return m != 0 && m <= (bf16 ? 0x0080u : 0x007FFFFFu);
}

/* sr's random words: libmxgold's full 32-bit words (rw) and the kernels' 16-bit ones (rk, the
 * low half, as mxk.h says: libmxgold's sr_bits is 16), from the tests' generator.  The low
 * halves favour the edges (0: truncation; 0xFFFF: up on any discarded bit of weight 2^-16
 * quanta or more; 0x8000; 1), the high halves are random, which libmxgold must ignore. */
static rng rbits_rng;
static void
gen_rbits (uint32_t *rw, uint16_t *rk, size_t count)
{
  static const uint16_t edge[] = { 0, 0xFFFF, 0x8000, 1 };
  for (size_t i = 0; i < count; i++)
    {
      uint64_t y = rng_next (&rbits_rng);
      uint16_t lo = y % 8 < 4 ? edge[y % 8] : (uint16_t) (y >> 8);
      rw[i] = (uint32_t) (y >> 32) << 16 | lo;
      rk[i] = lo;
    }
}

/* Input i of in (FP32 or BF16 patterns, at any byte address: offset_q's inputs span lines) */
static uint32_t
in_word (const void *in, mx_format_id infmt, size_t i)
{
  uint32_t w = 0;
  if (infmt == MX_BF16)
    {
      uint16_t h;
      memcpy (&h, (const uint8_t *) in + 2 * i, 2);
      return h;
    }
  memcpy (&w, (const uint8_t *) in + 4 * i, 4);
  return w;
}

/* golden quantize of nb blocks (in: FP32 or BF16 patterns; rw: sr's words, else NULL) */
static void
golden_q (uint8_t *scales, uint8_t *codes, const void *in, mx_format_id infmt, size_t nb,
          mx_format_id elem, mx_scale_rule rule, mx_rounding rnd, const uint32_t *rw)
{
  mx_policy p = mx_policy_ocp ();
  p.scale_rule = rule;
  if (rnd == MX_SR && p.sr_bits != 16)
    {
      fprintf (stderr, "tkernels: libmxgold's default sr_bits is %u, not the kernels' 16\n", p.sr_bits);
      exit (1);
    }
  for (size_t b = 0; b < nb; b++)
    {
      uint64_t x[32], s, c[32];
      for (int i = 0; i < 32; i++)
        x[i] = in_word (in, infmt, b * 32 + (size_t) i);
      mx_quantize (&s, c, NULL, NULL, mx_format_get (elem), E8M0, mx_format_get (infmt), x, 32,
                   rw ? rw + b * 32 : NULL, &p, rnd);
      scales[b] = (uint8_t) s;
      for (int i = 0; i < 32; i++)
        codes[b * 32 + (size_t) i] = (uint8_t) c[i];
    }
}

/* The golden dequantize of nb blocks into out (FP32 or BF16 patterns, of). */
static void
golden_dequantize (uint32_t *out, const uint8_t *codes, const uint8_t *scales, size_t nb,
                   const mx_format *f, const mx_format *of)
{
  for (size_t b = 0; b < nb; b++)
    {
      uint64_t c64[32], o64[32];
      for (int i = 0; i < 32; i++)
        c64[i] = codes[b * 32 + (size_t) i];
      mx_dequantize (o64, NULL, of, scales[b], c64, f, E8M0, 32, MX_RNE);
      for (int i = 0; i < 32; i++)
        out[b * 32 + (size_t) i] = (uint32_t) o64[i];
    }
}

/* Every scale x every code of format f: 256 * ceil(2^bits / 32) blocks (returned), the scale
 * varying fastest, so that neighbouring blocks, which some paths decode two at a time, have
 * different scales (with eight blocks to a scale, a swap of a pair's two scales passed).  FP4's
 * 16 codes fill a block twice, the second time in reverse, so that no two groups of a block
 * hold the same codes in the same order (with both halves alike, a swap of groups 3 and 7
 * passed). */
static size_t
every_scale_code (uint8_t *sc, uint8_t *cd, const mx_format *f)
{
  size_t ncodes = (size_t) 1 << f->bits, blk = 0;
  for (size_t base = 0; base < ncodes; base += 32)
    for (int s = 0; s < 256; s++, blk++)
      {
        sc[blk] = (uint8_t) s;
        for (int i = 0; i < 32; i++)
          cd[blk * 32 + (size_t) i] = (uint8_t) (i < (int) ncodes ? (base + (size_t) i) % ncodes
                                                                   : ncodes - 1 - (size_t) i % ncodes);
      }
  return blk;
}

/* The packed bytes of nb blocks, by libmxgold's mx_pack (the reference layout). */
static void
pack_all (uint8_t *dst, const uint8_t *codes, size_t nb, mx_format_id elem, mx_packing p)
{
  size_t pb = mx_packed_size (p, 32);
  for (size_t b = 0; b < nb; b++)
    mx_pack (dst + b * pb, codes + b * 32, 32, mx_format_get (elem), p);
}

/* The kernel quantize of rnd: mxk_quantize_sr with rk for sr, else mxk_quantize. */
static int
kernel_q (uint8_t *scales, uint8_t *codes, const void *in, mx_format_id infmt, size_t n,
          mx_format_id elem, mx_scale_rule rule, mx_rounding rnd, const uint16_t *rk, mx_packing pk)
{
  if (rnd == MX_SR)
    return mxk_quantize_sr (scales, codes, in, infmt, n, elem, rule, rk, pk);
  return mxk_quantize (scales, codes, in, infmt, n, elem, rule, rnd, pk);
}

/* The flag pass: the first block whose quantize alone raises DE or UE, printed. */
static void
flag_block (const void *in, mx_format_id infmt, size_t nb, mx_format_id elem, mx_scale_rule rule,
            mx_rounding rnd, const uint16_t *rk, mx_packing use)
{
  for (size_t b = 0; b < nb; b++)
    {
      uint8_t s, c[32];
      const void *inb = infmt == MX_BF16 ? (const void *) ((const uint16_t *) in + b * 32)
                                         : (const void *) ((const uint32_t *) in + b * 32);
      unsigned csr = flush_on ();
      kernel_q (&s, c, inb, infmt, 32, elem, rule, rnd, rk ? rk + b * 32 : NULL, use);
      unsigned fl = flush_off (csr);
      if (!fl)
        continue;
      fprintf (stderr, "  block %zu alone raises%s%s (scale %02X); in:", b, fl & 2 ? " DE" : "", fl & 0x10 ? " UE" : "", s);
      for (int i = 0; i < 32; i++)
        fprintf (stderr, " %08X", infmt == MX_BF16 ? (unsigned) ((const uint16_t *) in)[b * 32 + (size_t) i]
                                                  : ((const uint32_t *) in)[b * 32 + (size_t) i]);
      fprintf (stderr, "\n");
      return;
    }
  fprintf (stderr, "  no block raises it alone\n");
}

/* every path's quantize of the same input against the golden result (sr: fresh random words) */
static void
check_q (const void *in, mx_format_id infmt, size_t nb, mx_format_id elem, mx_scale_rule rule,
         mx_rounding rnd, const char *what)
{
  static uint8_t gs[4096], gc[4096 * 32], ks[4096], kc[4096 * 32], gp[4096 * 32];
  static uint32_t rw[4096 * 32];
  static uint16_t rk[4096 * 32];
  if (rnd == MX_SR)
    gen_rbits (rw, rk, nb * 32);
  golden_q (gs, gc, in, infmt, nb, elem, rule, rnd, rnd == MX_SR ? rw : NULL);
  const mx_format *f = mx_format_get (elem);
  mx_packing pk = f->bits == 4 ? MX_PACKING_FP4_LO_FIRST : f->bits == 6 ? MX_PACKING_FP6_3BYTE : MX_PACKING_UNPACKED;
  pack_all (gp, gc, nb, elem, pk);
  size_t pbytes = nb * mx_packed_size (pk, 32);
  for (int p = 0; p < npaths; p++)
    {
      mxk_use_path (paths[p]);
      for (int packed = 0; packed < 2; packed++)
        {
          mx_packing use = packed ? pk : MX_PACKING_UNPACKED;
          if (packed && pk == MX_PACKING_UNPACKED)
            continue;
          unsigned csr = flush_on ();
          int rc = kernel_q (ks, kc, in, infmt, nb * 32, elem, rule, rnd, rk, use);
          unsigned fl = flush_off (csr);
          n++;
          const uint8_t *want = packed ? gp : gc;
          size_t bytes = packed ? pbytes : nb * 32;
          int ok = rc == 0 && memcmp (ks, gs, nb) == 0 && memcmp (kc, want, bytes) == 0;
          CHECK (ok && fl == 0, "quantize %s %s %s %s %s path %s%s%s%s", what, f->name, mx_rounding_name (rnd),
                 mx_policy_field_get (MX_POLICY_SCALE_RULE)->values[rule], infmt == MX_BF16 ? "bf16" : "fp32",
                 mxk_path_name (paths[p]), packed ? " packed" : "", pass_name[flush],
                 fl & 2 ? ": DE raised" : fl ? ": UE raised" : "");
          if (fl && failures <= 3)
            flag_block (in, infmt, nb, elem, rule, rnd, rk, use);
          if (!ok && failures <= 3)
            for (size_t b = 0; b < nb; b++)
              if (ks[b] != gs[b] || memcmp (kc + b * 32, gc + b * 32, 32))
                {
                  fprintf (stderr, "  block %zu: scale %02X/%02X\n  in:", b, ks[b], gs[b]);
                  for (int i = 0; i < 32; i++)
                    fprintf (stderr, " %08X", (unsigned) in_word (in, infmt, b * 32 + (size_t) i));
                  fprintf (stderr, "\n  kernel/golden:");
                  for (int i = 0; i < 32; i++)
                    if (kc[b * 32 + (size_t) i] != gc[b * 32 + (size_t) i])
                      {
                        fprintf (stderr, " [%d] %02X/%02X", i, kc[b * 32 + (size_t) i], gc[b * 32 + (size_t) i]);
                        if (rnd == MX_SR)
                          fprintf (stderr, " (r %04X)", rk[b * 32 + (size_t) i]);
                      }
                  fprintf (stderr, "\n");
                  break;
                }
        }
    }
}

static uint32_t
rand_f32 (rng *r, int top)
{
  uint64_t x = rng_next (r);
  switch (x % 16)
    {
    case 0: return (uint32_t) (x >> 8) & 0x80000000u;
    case 1: return (uint32_t) (x >> 8) & 0x807FFFFFu;
    default:
      {
        int e = top - (int) ((x >> 40) % 30);
        e = e < 1 ? 1 : e;
        uint32_t frac = (uint32_t) (x >> 8) & 0x7FFFFF;
        if ((x >> 60) % 4 == 0)
          frac &= 0x7F0000;
        return (uint32_t) (x >> 63) << 31 | (uint32_t) e << 23 | frac;
      }
    }
}

/*--------------------------------------------------------------- vectors -*/

static int
vcase (void *ctx, const mxv_header *h, mxv_case *c, const char *file, unsigned long line)
{
  vec_stat *v = ctx;
  mx_policy ocp = mx_policy_ocp ();
  (void) line;
  if (h->k != 32 || h->scale != E8M0)
    return 77;
  if (h->op == MXV_QUANTIZE)
    {
      if ((h->in != mx_format_get (MX_FP32) && h->in != mx_format_get (MX_BF16))
          || (h->pol.scale_rule != MX_SCALE_FLOOR && h->pol.scale_rule != MX_SCALE_RCEIL_FP32)
          || (h->rnd != MX_RNE && h->rnd != MX_RNA && h->rnd != MX_RTZ
              && h->rnd != MX_RUP && h->rnd != MX_RDN && h->rnd != MX_SR)
          || (h->rnd == MX_SR && (h->pol.sr_bits != 16 || h->pol.sr_frac != MX_SR_FRAC_TRUNC))
          || h->pol.nan_block != ocp.nan_block || h->pol.inf_block != ocp.inf_block
          || h->pol.zero_sign != ocp.zero_sign || h->pol.int_range != ocp.int_range
          || h->pol.subnormals != ocp.subnormals || h->pol.zero_scale != 0
          || h->packing == MX_PACKING_FP4_J_J16)
        return 77;
      uint32_t in32[32];
      uint16_t in16[32], rk[32];
      for (int i = 0; i < 32; i++)
        in32[i] = (uint32_t) c->in[i], in16[i] = (uint16_t) c->in[i], rk[i] = (uint16_t) c->rbits[i];
      for (int p = 0; p < npaths; p++)
        {
          uint8_t s, k[32], want[32];
          mxk_use_path (paths[p]);
          mx_packing pk = h->packing;
          kernel_q (&s, k, h->in == mx_format_get (MX_BF16) ? (const void *) in16 : in32,
                    h->in == mx_format_get (MX_BF16) ? MX_BF16 : MX_FP32, 32, h->elem->id,
                    h->pol.scale_rule, h->rnd, rk, pk);
          uint8_t codes[32];
          for (int i = 0; i < 32; i++)
            codes[i] = (uint8_t) c->codes[i];
          pack_all (want, codes, 1, h->elem->id, pk);
          n++;
          CHECK (s == c->scale && memcmp (k, want, mx_packed_size (pk, 32)) == 0,
                 "%s:%lu path %s", file, line, mxk_path_name (paths[p]));
        }
    }
  else if (h->op == MXV_DEQUANTIZE)
    {
      if (h->rnd != MX_RNE || (h->out != mx_format_get (MX_FP32) && h->out != mx_format_get (MX_BF16))
          || h->packing != MX_PACKING_UNPACKED)
        return 77;
      uint8_t s = (uint8_t) c->scale, codes[32];
      for (int i = 0; i < 32; i++)
        codes[i] = (uint8_t) c->codes[i];
      int bf = h->out == mx_format_get (MX_BF16);
      for (int p = 0; p < npaths; p++)
        {
          uint32_t o32[32];
          uint16_t o16[32];
          mxk_use_path (paths[p]);
          mxk_dequantize (bf ? (void *) o16 : (void *) o32, bf ? MX_BF16 : MX_FP32, &s, codes, 32,
                          h->elem->id, MX_PACKING_UNPACKED);
          int ok = 1;
          for (int i = 0; i < 32; i++)
            ok &= (bf ? o16[i] : o32[i]) == c->out[i];
          n++;
          CHECK (ok, "%s:%lu path %s", file, line, mxk_path_name (paths[p]));
        }
    }
  else if (h->op == MXV_DOT)
    {
      if (h->dp.accum != MX_ACCUM_BLOCK_FP32 || h->out_rnd != MX_RNE || h->out != mx_format_get (MX_FP32))
        return 77;
      uint8_t sa[MXV_MAX_NB], sb[MXV_MAX_NB], a[MXV_MAX_K], b[MXV_MAX_K];
      for (size_t j = 0; j < h->nblocks; j++)
        sa[j] = (uint8_t) c->scale_a[j], sb[j] = (uint8_t) c->scale_b[j];
      for (size_t i = 0; i < h->nblocks * 32; i++)
        a[i] = (uint8_t) c->codes[i], b[i] = (uint8_t) c->codes_b[i];
      mx_format_id fa = h->elem->id;
      mx_format_id fb = (mx_format_id) ((h->elem_b ? h->elem_b : h->elem) - mx_format_get (MX_E4M3));
      for (int p = 0; p < npaths; p++)
        {
          uint32_t o;
          mxk_use_path (paths[p]);
          mxk_dot (&o, sa, a, fa, sb, b, fb, h->nblocks * 32, (uint32_t) c->in[0]);
          n++;
          CHECK (o == c->out[0], "%s:%lu path %s: %08X vs %08llX", file, line,
                 mxk_path_name (paths[p]), o, (unsigned long long) c->out[0]);
        }
    }
  else
    return 77;
  v->cases++;
  return 0;
}

/* one committed vector file through every path: every file of the directories applies */
static void
vfile (const char *path, void *ctx)
{
  int empty, rc = vec_stream_file (path, vcase, ctx, &empty);
  if (rc != 77)
    CHECK (rc == 0 && !empty, "%s: rc %d%s", path, rc, empty ? ", no case" : "");
}

/*------------------------------------------------------------ threads -*/
/* mxk_quantize_mt / mxk_dequantize_mt (issue 18 item 5): on every path, every format, 1 2 3 7
 * and 0 threads, block counts around the chunking's limits (1 block, fewer blocks than threads,
 * one MXK_MT_MIN_BLOCKS either side, 3 and 7 threads' worth with ragged ends), unpacked and
 * packed: byte-identical to the one-thread call and to libmxgold, and no byte written past n
 * (the buffers are filled with a canary first).  Invalid arguments rejected like the one-thread
 * functions', before anything is written. */
#define MT_NB (6 * MXK_MT_MIN_BLOCKS + 37) /* 7 threads' worth: ragged last chunk */
static const size_t mt_sizes[] = { 1, 5, MXK_MT_MIN_BLOCKS - 1, MXK_MT_MIN_BLOCKS + 1,
                                   2 * MXK_MT_MIN_BLOCKS + 17, MT_NB };
static const unsigned mt_threads[] = { 1, 2, 3, 7, 0 };
#define CANARY 0xA5

static void
mt_quantize (mx_format_id elem, const void *in, mx_format_id infmt, mx_scale_rule rule,
             mx_rounding rnd)
{
  static uint8_t gs[MT_NB], gc[MT_NB * 32], gp[MT_NB * 32];
  static uint8_t s1[MT_NB + 64], c1[MT_NB * 32 + 64], sm[MT_NB + 64], cm[MT_NB * 32 + 64];
  static uint32_t rw[MT_NB * 32];
  static uint16_t rk[MT_NB * 32];
  const mx_format *f = mx_format_get (elem);
  if (rnd == MX_SR)
    gen_rbits (rw, rk, MT_NB * 32);
  golden_q (gs, gc, in, infmt, MT_NB, elem, rule, rnd, rnd == MX_SR ? rw : NULL);
  mx_packing pk = f->bits == 4 ? MX_PACKING_FP4_LO_FIRST : f->bits == 6 ? MX_PACKING_FP6_3BYTE : MX_PACKING_UNPACKED;
  pack_all (gp, gc, MT_NB, elem, pk);
  for (int p = 0; p < npaths; p++)
    for (int packed = 0; packed < 1 + (pk != MX_PACKING_UNPACKED); packed++)
      {
        mx_packing use = packed ? pk : MX_PACKING_UNPACKED;
        size_t pb = mx_packed_size (use, 32);
        mxk_use_path (paths[p]);
        for (size_t si = 0; si < sizeof mt_sizes / sizeof mt_sizes[0]; si++)
          {
            size_t nb = mt_sizes[si];
            memset (s1, CANARY, sizeof s1), memset (c1, CANARY, sizeof c1);
            int rc1 = kernel_q (s1, c1, in, infmt, nb * 32, elem, rule, rnd, rk, use);
            for (size_t ti = 0; ti < sizeof mt_threads / sizeof mt_threads[0]; ti++)
              {
                memset (sm, CANARY, sizeof sm), memset (cm, CANARY, sizeof cm);
                int rc = rnd == MX_SR ? mxk_quantize_sr_mt (sm, cm, in, infmt, nb * 32, elem, rule, rk, use, mt_threads[ti])
                                      : mxk_quantize_mt (sm, cm, in, infmt, nb * 32, elem, rule, rnd, use, mt_threads[ti]);
                n++;
                CHECK (rc == 0 && rc1 == 0 && memcmp (sm, s1, sizeof sm) == 0 && memcmp (cm, c1, sizeof cm) == 0
                       && memcmp (sm, gs, nb) == 0 && memcmp (cm, packed ? gp : gc, nb * pb) == 0
                       && sm[nb] == CANARY && cm[nb * pb] == CANARY,
                       "quantize_mt %s %s %s %s path %s%s: %zu blocks, %u threads: rc %d", f->name,
                       infmt == MX_BF16 ? "bf16" : "fp32", mx_rounding_name (rnd),
                       mx_policy_field_get (MX_POLICY_SCALE_RULE)->values[rule],
                       mxk_path_name (paths[p]), packed ? " packed" : "", nb, mt_threads[ti], rc);
              }
          }
      }
}

static void
mt_dequantize (mx_format_id elem, rng *r)
{
  static uint8_t sc[MT_NB], cd[MT_NB * 32], cdp[MT_NB * 32];
  static uint32_t g32[MT_NB * 32];
  static uint8_t o1[(MT_NB * 32 + 16) * 4], om[(MT_NB * 32 + 16) * 4];
  const mx_format *f = mx_format_get (elem);
  for (size_t b = 0; b < MT_NB; b++)
    {
      uint64_t y = rng_next (r);
      sc[b] = (uint8_t) (y % 8 == 0 ? y >> 8 : 0x70 + (y >> 8) % 32); /* all 256, NaN included */
      for (int i = 0; i < 32; i++)
        cd[b * 32 + (size_t) i] = (uint8_t) (rng_next (r) & ((1u << f->bits) - 1));
    }
  mx_packing pk = f->bits == 4 ? MX_PACKING_FP4_LO_FIRST : f->bits == 6 ? MX_PACKING_FP6_3BYTE : MX_PACKING_UNPACKED;
  pack_all (cdp, cd, MT_NB, elem, pk);
  for (int bfo = 0; bfo < 2; bfo++)
    {
      const mx_format *of = mx_format_get (bfo ? MX_BF16 : MX_FP32);
      size_t ob = bfo ? 2 : 4;
      golden_dequantize (g32, cd, sc, MT_NB, f, of);
      for (int p = 0; p < npaths; p++)
        for (int packed = 0; packed < 1 + (pk != MX_PACKING_UNPACKED); packed++)
          {
            mx_packing use = packed ? pk : MX_PACKING_UNPACKED;
            mxk_use_path (paths[p]);
            for (size_t si = 0; si < sizeof mt_sizes / sizeof mt_sizes[0]; si++)
              {
                size_t nb = mt_sizes[si];
                memset (o1, CANARY, sizeof o1);
                int rc1 = mxk_dequantize (o1, of->id, sc, packed ? cdp : cd, nb * 32, elem, use);
                int gold = 1;
                for (size_t i = 0; i < nb * 32 && gold; i++)
                  gold = (bfo ? ((const uint16_t *) o1)[i] : ((const uint32_t *) o1)[i]) == g32[i];
                for (size_t ti = 0; ti < sizeof mt_threads / sizeof mt_threads[0]; ti++)
                  {
                    memset (om, CANARY, sizeof om);
                    int rc = mxk_dequantize_mt (om, of->id, sc, packed ? cdp : cd, nb * 32, elem, use, mt_threads[ti]);
                    n++;
                    CHECK (rc == 0 && rc1 == 0 && gold && memcmp (om, o1, sizeof om) == 0
                           && om[nb * 32 * ob] == CANARY,
                           "dequantize_mt %s to %s path %s%s: %zu blocks, %u threads: rc %d", f->name,
                           of->name, mxk_path_name (paths[p]), packed ? " packed" : "", nb, mt_threads[ti], rc);
                  }
              }
            /* the workers inherit the caller's floating-point environment (POSIX): with FTZ on,
             * the subnormal outputs flush as on the caller's thread */
            if (HAVE_FLUSH && !bfo)
              {
                memset (o1, CANARY, sizeof o1), memset (om, CANARY, sizeof om);
                flush = 1;
                unsigned csr = flush_on ();
                int rc1 = mxk_dequantize (o1, MX_FP32, sc, packed ? cdp : cd, MT_NB * 32, elem, use);
                int rc = mxk_dequantize_mt (om, MX_FP32, sc, packed ? cdp : cd, MT_NB * 32, elem, use, 7);
                flush_off (csr);
                flush = 0;
                n++;
                CHECK (rc == 0 && rc1 == 0 && memcmp (om, o1, sizeof om) == 0,
                       "dequantize_mt %s path %s%s (FTZ+DAZ): not the one-thread bytes", f->name,
                       mxk_path_name (paths[p]), packed ? " packed" : "");
              }
          }
    }
}

/* Blocks under the NaN scale dequantize to NaN with no arithmetic exception: every path, every
 * format (every code), FP32 and BF16 out, the MXCSR's flags cleared before the call and all six
 * checked after.  The flag pass checks DE and UE only; this catches the rest (an AVX-512
 * dequantize that computed such blocks' values under 2^128, overwritten after, raised overflow
 * and inexact). */
static void
nan_scale_quiet (const char *which, const mx_format_id *elems, int nelem)
{
#if HAVE_FLUSH
  enum { NB = 8 };
  static uint8_t sc[NB], cd[NB * 32];
  static uint32_t o[NB * 32];
  memset (sc, 0xFF, sizeof sc);
  for (int fi = 0; fi < nelem; fi++)
    {
      const mx_format *f = mx_format_get (elems[fi]);
      if (strcmp (which, "all") != 0 && strcmp (which, f->name) != 0)
        continue;
      for (int i = 0; i < NB * 32; i++)
        cd[i] = (uint8_t) (i & ((1 << f->bits) - 1));
      for (int p = 0; p < npaths; p++)
        for (int bfo = 0; bfo < 2; bfo++)
          {
            mxk_use_path (paths[p]);
            memset (o, 0, sizeof o);
            unsigned old = _mm_getcsr ();
            _mm_setcsr (old & ~CSR_FLAGS);
            int rc = mxk_dequantize (o, bfo ? MX_BF16 : MX_FP32, sc, cd, NB * 32, elems[fi], MX_PACKING_UNPACKED);
            unsigned fl = _mm_getcsr () & CSR_FLAGS;
            _mm_setcsr (old);
            int nan = 1;
            for (int i = 0; i < NB * 32; i++)
              nan &= bfo ? ((const uint16_t *) o)[i] == 0x7FC0 : o[i] == 0x7FC00000u;
            n++;
            CHECK (rc == 0 && nan && fl == 0, "dequantize %s under the NaN scale to %s path %s: rc %d, %s, flags %02X",
                   f->name, bfo ? "bf16" : "fp32", mxk_path_name (paths[p]), rc, nan ? "NaN" : "not NaN", fl);
          }
    }
#else
  (void) which, (void) elems, (void) nelem;
#endif
}

/* every rejected argument of the one-thread functions, and a thread count over the limit:
 * MX_EINVAL from both, nothing written */
static void
mt_invalid (void)
{
  static uint32_t in[64 * 32];
  static uint8_t s[64 + 8], c[64 * 32 + 8];
  static uint32_t o[64 * 32 + 8];
  /* dq_ok: valid for dequantize (which has no rule or rounding) */
  struct { mx_format_id in, elem; mx_scale_rule rule; mx_rounding rnd; mx_packing pk; size_t n; int dq_ok; } bad[] = {
    { MX_FP32, MX_E4M3, MX_SCALE_FLOOR, MX_RNE, MX_PACKING_UNPACKED, 33, 0 },
    { MX_FP32, MX_E4M3, MX_SCALE_FLOOR, MX_RNE, MX_PACKING_UNPACKED, 64 * 32 - 1, 0 },
    { MX_FP16, MX_E4M3, MX_SCALE_FLOOR, MX_RNE, MX_PACKING_UNPACKED, 64, 0 },
    { MX_FP32, MX_FP32, MX_SCALE_FLOOR, MX_RNE, MX_PACKING_UNPACKED, 64, 0 },
    { MX_FP32, MX_E8M0, MX_SCALE_FLOOR, MX_RNE, MX_PACKING_UNPACKED, 64, 0 },
    { MX_FP32, MX_E4M3, (mx_scale_rule) 99, MX_RNE, MX_PACKING_UNPACKED, 64, 1 },
    { MX_FP32, MX_E4M3, MX_SCALE_FLOOR, (mx_rounding) 99, MX_PACKING_UNPACKED, 64, 1 },
    { MX_FP32, MX_E4M3, MX_SCALE_FLOOR, MX_RNE, MX_PACKING_FP4_LO_FIRST, 64, 0 },
    { MX_FP32, MX_E2M1, MX_SCALE_FLOOR, MX_RNE, MX_PACKING_FP6_3BYTE, 64, 0 },
    { MX_FP32, MX_E2M1, MX_SCALE_FLOOR, MX_RNE, MX_PACKING_FP4_J_J16, 64, 0 },
  };
  static const unsigned ths[] = { 0, 1, 2, 7, MXK_MT_MAX_THREADS };
  for (int p = 0; p < npaths; p++)
    {
      mxk_use_path (paths[p]);
      for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        for (size_t t = 0; t < sizeof ths / sizeof ths[0]; t++)
          {
            memset (s, CANARY, sizeof s), memset (c, CANARY, sizeof c), memset (o, CANARY, sizeof o);
            int rq1 = mxk_quantize (s, c, in, bad[i].in, bad[i].n, bad[i].elem, bad[i].rule, bad[i].rnd, bad[i].pk);
            int rq = mxk_quantize_mt (s, c, in, bad[i].in, bad[i].n, bad[i].elem, bad[i].rule, bad[i].rnd, bad[i].pk, ths[t]);
            /* dequantize: the same element formats, packings and sizes, in_fmt as the output */
            int rd1 = mxk_dequantize (o, bad[i].in, s, c, bad[i].n, bad[i].elem, bad[i].pk);
            int rd = mxk_dequantize_mt (o, bad[i].in, s, c, bad[i].n, bad[i].elem, bad[i].pk, ths[t]);
            int dq_bad = !bad[i].dq_ok;
            int untouched = s[0] == CANARY && c[0] == CANARY && (((uint8_t *) o)[0] == CANARY || !dq_bad);
            n++;
            CHECK (rq == MX_EINVAL && rq1 == rq && (dq_bad ? rd == MX_EINVAL : rd == MX_OK) && rd1 == rd && untouched,
                   "invalid case %zu, %u threads, path %s: quantize %d/%d, dequantize %d/%d",
                   i, ths[t], mxk_path_name (paths[p]), rq, rq1, rd, rd1);
          }
      /* sr (mxk_quantize_sr, _sr_mt): every case above but the bad rounding (sr takes none)
       * rejected with random words given; no words (NULL), on valid arguments, and MX_SR
       * through mxk_quantize (which takes none) rejected too; n = 0 with words is MX_OK */
      static uint16_t rk[64 * 32];
      for (size_t i = 0; i <= sizeof bad / sizeof bad[0] + 1; i++)
        for (size_t t = 0; t < sizeof ths / sizeof ths[0]; t++)
          {
            int valid = i >= sizeof bad / sizeof bad[0];
            if (!valid && bad[i].rnd != MX_RNE)
              continue;
            memset (s, CANARY, sizeof s), memset (c, CANARY, sizeof c);
            const uint16_t *rb = valid ? NULL : rk;
            mx_format_id inf = valid ? MX_FP32 : bad[i].in, el = valid ? MX_E4M3 : bad[i].elem;
            mx_scale_rule ru = valid ? MX_SCALE_FLOOR : bad[i].rule;
            mx_packing pk = valid ? MX_PACKING_UNPACKED : bad[i].pk;
            size_t nn = valid ? 64 * 32 : bad[i].n;
            int rq1, rq;
            if (i == sizeof bad / sizeof bad[0] + 1)
              {
                rq1 = mxk_quantize (s, c, in, inf, nn, el, ru, MX_SR, pk);
                rq = mxk_quantize_mt (s, c, in, inf, nn, el, ru, MX_SR, pk, ths[t]);
              }
            else
              {
                rq1 = mxk_quantize_sr (s, c, in, inf, nn, el, ru, rb, pk);
                rq = mxk_quantize_sr_mt (s, c, in, inf, nn, el, ru, rb, pk, ths[t]);
              }
            n++;
            CHECK (rq == MX_EINVAL && rq1 == MX_EINVAL && s[0] == CANARY && c[0] == CANARY,
                   "sr invalid case %zu, %u threads, path %s: quantize_sr %d, quantize_sr_mt %d",
                   i, ths[t], mxk_path_name (paths[p]), rq1, rq);
          }
      int rz1 = mxk_quantize_sr (s, c, in, MX_FP32, 0, MX_E4M3, MX_SCALE_FLOOR, rk, MX_PACKING_UNPACKED);
      int rz = mxk_quantize_sr_mt (s, c, in, MX_FP32, 0, MX_E4M3, MX_SCALE_FLOOR, rk, MX_PACKING_UNPACKED, 3);
      n++;
      CHECK (rz1 == MX_OK && rz == MX_OK, "sr n = 0, path %s: %d %d", mxk_path_name (paths[p]), rz1, rz);
      /* threads past the limit: rejected on valid arguments too; n = 0: nothing to do */
      static const unsigned huge[] = { MXK_MT_MAX_THREADS + 1, 65536, ~0u };
      for (size_t t = 0; t < sizeof huge / sizeof huge[0]; t++)
        {
          memset (s, CANARY, sizeof s), memset (c, CANARY, sizeof c), memset (o, CANARY, sizeof o);
          int rq = mxk_quantize_mt (s, c, in, MX_FP32, 64 * 32, MX_E4M3, MX_SCALE_FLOOR, MX_RNE, MX_PACKING_UNPACKED, huge[t]);
          rq = rq == MX_EINVAL && s[0] == CANARY && c[0] == CANARY
               ? mxk_quantize_sr_mt (s, c, in, MX_FP32, 64 * 32, MX_E4M3, MX_SCALE_FLOOR, rk, MX_PACKING_UNPACKED, huge[t]) : MX_OK;
          int rd = mxk_dequantize_mt (o, MX_FP32, s, c, 64 * 32, MX_E4M3, MX_PACKING_UNPACKED, huge[t]);
          n++;
          CHECK (rq == MX_EINVAL && rd == MX_EINVAL && s[0] == CANARY && c[0] == CANARY && ((uint8_t *) o)[0] == CANARY,
                 "%u threads, path %s: quantize %d, dequantize %d", huge[t], mxk_path_name (paths[p]), rq, rd);
        }
      int rq = mxk_quantize_mt (s, c, in, MX_FP32, 0, MX_E4M3, MX_SCALE_FLOOR, MX_RNE, MX_PACKING_UNPACKED, 0);
      int rd = mxk_dequantize_mt (o, MX_FP32, s, c, 0, MX_E4M3, MX_PACKING_UNPACKED, 7);
      n++;
      CHECK (rq == MX_OK && rd == MX_OK, "n = 0, path %s: quantize %d, dequantize %d", mxk_path_name (paths[p]), rq, rd);
    }
}

/* A thread that cannot be created: in a child process whose address space is capped a little
 * above its current size, so that two threads' stacks (8 MiB each by default) fit and the third
 * does not.  The call must
 * return MX_ENOMEM with the threads it started joined (the process has one thread again). */
#if defined(__linux__)
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
static long
threads_now (void)
{
  FILE *st = fopen ("/proc/self/status", "r");
  char line[256];
  long t = -1;
  while (st && fgets (line, sizeof line, st))
    if (strncmp (line, "Threads:", 8) == 0)
      t = strtol (line + 8, NULL, 10);
  if (st)
    fclose (st);
  return t;
}

static void
mt_no_thread (const uint32_t *in)
{
  static uint8_t s[MT_NB], c[MT_NB * 32];
  fflush (NULL);
  pid_t pid = fork ();
  if (pid == 0)
    {
      FILE *sm = fopen ("/proc/self/statm", "r");
      unsigned long pages = 0;
      if (sm == NULL || fscanf (sm, "%lu", &pages) != 1)
        _exit (77);
      fclose (sm);
      long ps = sysconf (_SC_PAGESIZE);
      struct rlimit rl = { (rlim_t) pages * (rlim_t) ps + (20u << 20), (rlim_t) pages * (rlim_t) ps + (20u << 20) };
      if (setrlimit (RLIMIT_AS, &rl) != 0)
        _exit (77);
      int rc = mxk_quantize_mt (s, c, in, MX_FP32, MT_NB * 32, MX_E4M3, MX_SCALE_FLOOR, MX_RNE, MX_PACKING_UNPACKED, 7);
      long t = threads_now ();
      if (rc == MX_OK)
        _exit (77); /* stacks small enough to fit: not provoked */
      _exit (rc == MX_ENOMEM && t == 1 ? 0 : 1);
    }
  int st = 0;
  n++;
  CHECK (pid > 0 && waitpid (pid, &st, 0) == pid && WIFEXITED (st) && WEXITSTATUS (st) != 1,
         "a thread that cannot be created: not MX_ENOMEM with every thread joined (status %d)", st);
  if (WIFEXITED (st) && WEXITSTATUS (st) == 77)
    printf ("tkernels: the thread-creation failure could not be provoked: not checked\n");
}
#else
static void mt_no_thread (const uint32_t *in) { (void) in; }
#endif

/* A call whose input is 32 MiB (MXK_Q16_MAX_BYTES; INT8: 16 MiB) or more: mxk_quantize_mt's
 * chunks then run the loop a one-thread call of that size takes (on avx512vbmi four blocks at
 * a time, not sixteen); its result against the same input quantized in 1 MiB calls, which take
 * the other loop (both are checked against libmxgold above, at their sizes). */
static void
mt_big (rng *r)
{
  size_t ne = (size_t) 8 << 20, nb = ne / 32;
  uint32_t *in = malloc (ne * 4);
  uint8_t *s1 = malloc (nb), *c1 = malloc (ne), *sm = malloc (nb), *cm = malloc (ne);
  CHECK (in && s1 && c1 && sm && cm, "mt_big: allocation");
  if (in && s1 && c1 && sm && cm)
    {
      for (size_t b = 0; b < nb; b++)
        {
          int top = 70 + (int) (rng_next (r) % 180);
          for (int i = 0; i < 32; i++)
            in[b * 32 + (size_t) i] = rand_f32 (r, top);
        }
      /* INT8 at its own limit, 16 MiB */
      const mx_format_id el[3] = { MX_E4M3, MX_E5M2, MX_INT8 };
      const mx_rounding rn[3] = { MX_RNE, MX_RNA, MX_RUP };
      const size_t nj[3] = { ne, ne, ne / 2 };
      for (int p = 0; p < npaths; p++)
        for (int j = 0; j < 3; j++)
          {
            mxk_use_path (paths[p]);
            int rc = 0;
            for (size_t i = 0; i < nj[j]; i += (size_t) 1 << 18)
              rc |= mxk_quantize (s1 + i / 32, c1 + i, in + i, MX_FP32, (size_t) 1 << 18, el[j], MX_SCALE_FLOOR,
                                  rn[j], MX_PACKING_UNPACKED);
            int rcm = mxk_quantize_mt (sm, cm, in, MX_FP32, nj[j], el[j], MX_SCALE_FLOOR, rn[j], MX_PACKING_UNPACKED, 2);
            n++;
            CHECK (rc == 0 && rcm == 0 && memcmp (s1, sm, nj[j] / 32) == 0 && memcmp (c1, cm, nj[j]) == 0,
                   "quantize_mt of %zu MiB %s %s path %s against 1 MiB calls", nj[j] >> 18, mx_format_get (el[j])->name,
                   mx_rounding_name (rn[j]), mxk_path_name (paths[p]));
          }
    }
  free (in), free (s1), free (c1), free (sm), free (cm);
}

static void
mt_tests (const char *which, rng *r)
{
  mx_format_id elems[MX_FORMAT_COUNT];
  int nelem = formats_of_role (MX_ROLE_ELEM, elems);
  static uint32_t in[MT_NB * 32];
  static uint16_t in16[MT_NB * 32];
  for (size_t i = 0; i < MT_NB * 32; i++)
    in[i] = 0x3F800000u + (uint32_t) i;
  mt_no_thread (in); /* first: glibc keeps joined threads' stacks for reuse, a fork too */
  mt_invalid ();
  for (int fi = 0; fi < nelem; fi++)
    {
      mx_format_id elem = elems[fi];
      if (strcmp (which, "all") != 0 && strcmp (which, mx_format_get (elem)->name) != 0)
        continue;
      for (size_t b = 0; b < MT_NB; b++)
        {
          int top = 1 + (int) (rng_next (r) % 254);
          for (int i = 0; i < 32; i++)
            in[b * 32 + (size_t) i] = rand_f32 (r, top);
          uint64_t y = rng_next (r);
          if (y % 32 == 0)
            in[b * 32 + (y >> 8) % 32] = (y >> 16) & 1 ? 0x7F800000u : 0x7FC00000u;
        }
      for (size_t i = 0; i < MT_NB * 32; i++)
        in16[i] = (uint16_t) (rng_next (r) >> 48);
      mt_quantize (elem, in, MX_FP32, MX_SCALE_FLOOR, MX_RNE);
      mt_quantize (elem, in16, MX_BF16, MX_SCALE_RCEIL_FP32, rnds[1 + fi % 4]);
      mt_quantize (elem, in, MX_FP32, fi % 2 ? MX_SCALE_RCEIL_FP32 : MX_SCALE_FLOOR, MX_SR);
      mt_dequantize (elem, r);
    }
  mt_big (r);
}

/* mxk_dot of nb blocks on every path against libmxgold's block-fp32 model (rne) */
static void
check_dot (mx_format_id elem, mx_format_id fb, size_t nb, const uint8_t *sa8, const uint8_t *a8,
           const uint8_t *sb8, const uint8_t *b8, uint32_t cin, const char *what)
{
  uint64_t sa[4], sb[4], a[128], b[128], g;
  for (size_t j = 0; j < nb; j++)
    sa[j] = sa8[j], sb[j] = sb8[j];
  for (size_t i = 0; i < nb * 32; i++)
    a[i] = a8[i], b[i] = b8[i];
  mx_dot_policy dp = mx_dot_policy_default ();
  dp.accum = MX_ACCUM_BLOCK_FP32;
  mx_dot (&g, NULL, mx_format_get (MX_FP32), sa, a, mx_format_get (elem), sb, b, mx_format_get (fb), E8M0, 32,
          nb, cin, &dp, MX_RNE);
  for (int p = 0; p < npaths; p++)
    {
      uint32_t o;
      mxk_use_path (paths[p]);
      unsigned csr = flush_on ();
      mxk_dot (&o, sa8, a8, elem, sb8, b8, fb, nb * 32, cin);
      unsigned fl = flush_off (csr);
      n++;
      /* the flush passes: a subnormal C_in or result is the data's, not the kernel's */
      int excused = flush && (is_sub ((uint32_t) g, 0) || is_sub (cin, 0));
      CHECK ((o == g && fl == 0) || excused, "dot %s %s x %s nb %zu path %s%s: %08X vs %08llX%s", what,
             mx_format_get (elem)->name, mx_format_get (fb)->name, nb, mxk_path_name (paths[p]), pass_name[flush], o,
             (unsigned long long) g, fl & 2 ? ", DE raised" : fl ? ", UE raised" : "");
    }
}

/* Unpacked codes of MXK_NT_MIN_BYTES (32 MiB) and more, which the AVX-512 paths write by
 * non-temporal stores (the avx512vbmi path at any offset in a line, avx512 at a multiple of 4
 * bytes), the tail's 3 blocks by plain ones, and packed codes as large, which keep plain
 * stores: one call and a two-thread mxk_quantize_mt call (whose chunks store alike), codes 0, 4
 * and 5 bytes into a line with a canary line either side, against the same input quantized in
 * 1 MiB calls (a check that the loops and stores agree, not of which ones ran).  Blocks off the fast path (all zero,
 * tiny, huge, NaN or Inf) are mixed in, so that the four-block loop's fallback feeds the writer
 * too.  Every path but the scalar reference, which is slow at this size. */
static void
nt_quantize (rng *r)
{
  size_t nb = ((size_t) 1 << 20) + 3, ne = nb * 32, step = (size_t) 1 << 18;
  size_t bsz = (ne + 256 + 63) / 64 * 64; /* aligned_alloc: a multiple of the alignment */
  uint32_t *in = malloc (ne * 4);
  uint16_t *rb = malloc (ne * 2);
  uint8_t *s1 = malloc (nb), *c1 = malloc (ne), *sm = malloc (nb), *buf = aligned_alloc (64, bsz);
  CHECK (in && rb && s1 && c1 && sm && buf, "nt_quantize: allocation");
  if (in && rb && s1 && c1 && sm && buf)
    {
      for (size_t b = 0; b < nb; b++)
        {
          uint64_t y = rng_next (r);
          int top = y % 16 == 0 ? 1 + (int) (y >> 8) % 8 : y % 16 == 1 ? 254 : 70 + (int) ((y >> 8) % 180);
          for (int i = 0; i < 32; i++)
            in[b * 32 + (size_t) i] = y % 16 == 2 ? 0 : rand_f32 (r, top);
          if (y % 16 == 3)
            in[b * 32 + (y >> 16) % 32] = (y >> 24) & 1 ? 0x7F800000u : 0x7FC00000u;
        }
      for (size_t i = 0; i < ne; i++)
        rb[i] = (uint16_t) (rng_next (r) >> 48);
      /* the last, packed, must keep its plain stores (a packed output never takes the writer) */
      const mx_format_id el[4] = { MX_E4M3, MX_INT8, MX_E2M1, MX_E2M1 };
      const mx_rounding rn[4] = { MX_RNE, MX_RUP, MX_SR, MX_RNE };
      const mx_packing pk[4] = { MX_PACKING_UNPACKED, MX_PACKING_UNPACKED, MX_PACKING_UNPACKED,
                                 MX_PACKING_FP4_LO_FIRST };
      const unsigned offs[3] = { 0, 4, 5 };
      for (int p = 0; p < npaths; p++)
        for (int j = 0; j < 4; j++)
          {
            if (paths[p] == MXK_PATH_REF)
              continue;
            mxk_use_path (paths[p]);
            const uint16_t *w = rn[j] == MX_SR ? rb : NULL;
            size_t pb = pk[j] == MX_PACKING_UNPACKED ? 32 : 16, nc = nb * pb; /* codes bytes */
            int rc = 0;
            for (size_t i = 0; i < ne; i += step)
              {
                size_t m = ne - i < step ? ne - i : step;
                uint8_t *ci = c1 + i / 32 * pb;
                rc |= w ? mxk_quantize_sr (s1 + i / 32, ci, in + i, MX_FP32, m, el[j], MX_SCALE_FLOOR, w + i, pk[j])
                        : mxk_quantize (s1 + i / 32, ci, in + i, MX_FP32, m, el[j], MX_SCALE_FLOOR, rn[j], pk[j]);
              }
            CHECK (rc == 0, "nt_quantize: 1 MiB calls");
            for (int o = 0; o < 3; o++)
              for (int mt = 0; mt < 2; mt++)
                {
                  uint8_t *c = buf + 64 + offs[o];
                  memset (buf, CANARY, bsz);
                  int rcm = w && mt ? mxk_quantize_sr_mt (sm, c, in, MX_FP32, ne, el[j], MX_SCALE_FLOOR, w, pk[j], 2)
                            : w     ? mxk_quantize_sr (sm, c, in, MX_FP32, ne, el[j], MX_SCALE_FLOOR, w, pk[j])
                            : mt    ? mxk_quantize_mt (sm, c, in, MX_FP32, ne, el[j], MX_SCALE_FLOOR, rn[j], pk[j], 2)
                                    : mxk_quantize (sm, c, in, MX_FP32, ne, el[j], MX_SCALE_FLOOR, rn[j], pk[j]);
                  int canary = 1;
                  for (size_t i = 0; i < 64 + offs[o]; i++)
                    canary &= buf[i] == CANARY;
                  for (size_t i = 64 + offs[o] + nc; i < bsz; i++)
                    canary &= buf[i] == CANARY;
                  n++;
                  CHECK (rcm == 0 && canary && memcmp (s1, sm, nb) == 0 && memcmp (c1, c, nc) == 0,
                         "quantize%s of %zu blocks %s %s %s, codes %u bytes into a line, path %s, against 1 MiB calls",
                         mt ? "_mt" : "", nb, mx_format_get (el[j])->name, mx_rounding_name (rn[j]),
                         mx_packing_name (pk[j]), offs[o], mxk_path_name (paths[p]));
                }
          }
    }
  free (in), free (rb), free (s1), free (c1), free (sm), free (buf);
}

/* Dequantize outputs of 32 MiB and more (MXK_NT_MIN_BYTES) go by non-temporal stores on the
 * AVX-512 paths, which write whole aligned lines: every path, FP8 (decoded two blocks at a time
 * on avx512vbmi) and E2M1, FP32 and BF16, the output at every element offset from a 64-byte line
 * and at an odd byte (no non-temporal stores), an odd block count, and canary bytes on both
 * sides that must stay untouched.  The blocks repeat the every-scale x every-code pattern, whose
 * golden values are computed once. */
static void
nt_tests (void)
{
  static const mx_format_id fmts[] = { MX_E4M3, MX_E2M1 };
  for (size_t fi = 0; fi < sizeof fmts / sizeof fmts[0]; fi++)
    for (int bfo = 0; bfo < 2; bfo++)
      {
        const mx_format *f = mx_format_get (fmts[fi]), *of = mx_format_get (bfo ? MX_BF16 : MX_FP32);
        size_t es = bfo ? 2 : 4, pnb = 256 * ((((size_t) 1 << f->bits) + 31) / 32);
        uint8_t *psc = malloc (pnb), *pcd = malloc (pnb * 32);
        uint32_t *g = malloc (pnb * 32 * 4);
        if (!psc || !pcd || !g)
          {
            CHECK (0, "nt: out of memory");
            return;
          }
        every_scale_code (psc, pcd, f);
        golden_dequantize (g, pcd, psc, pnb, f, of);
        size_t nb = (((size_t) 32 << 20) / es + 32 * 32) / 32 | 1; /* past the threshold, odd */
        /* want: the whole expected output, once; memcmp compares each call's with it (an
         * index modulo the pattern's length for each element was most of this test's time) */
        uint8_t *sc = malloc (nb), *cd = malloc (nb * 32), *buf = malloc (nb * 32 * es + 320);
        uint8_t *want = malloc (nb * 32 * es);
        if (!sc || !cd || !buf || !want)
          {
            CHECK (0, "nt: out of memory");
            return;
          }
        for (size_t b = 0; b < nb; b++)
          {
            sc[b] = psc[b % pnb];
            memcpy (cd + b * 32, pcd + (b % pnb) * 32, 32);
          }
        for (size_t i = 0; i < nb * 32; i++)
          {
            uint32_t v = g[i % (pnb * 32)];
            memcpy (want + i * es, &v, es); /* little-endian: BF16's word is v's low half */
          }
        uint8_t *base = (uint8_t *) (((uintptr_t) buf + 127) & ~(uintptr_t) 63);
        for (int p = 0; p < npaths; p++)
          /* offsets 0, es, .. 64 - es, then 65; the paths without non-temporal stores at 0 and 65 */
          for (size_t off = 0; off <= 65; off = off == 65 ? 66 : off == 64 - es || paths[p] < MXK_PATH_AVX512 ? 65 : off + es)
            for (int mt = 0; mt < 2; mt++) /* one call; two threads, whose chunks store alike */
            {
              uint8_t *o = base + off;
              memset (base - 64, 0xA5, nb * 32 * es + 256);
              mxk_use_path (paths[p]);
              int rc = mt ? mxk_dequantize_mt (o, of->id, sc, cd, nb * 32, f->id, MX_PACKING_UNPACKED, 2)
                          : mxk_dequantize (o, of->id, sc, cd, nb * 32, f->id, MX_PACKING_UNPACKED);
              size_t bad = nb * 32;
              if (memcmp (o, want, nb * 32 * es) != 0)
                for (size_t i = 0; i < nb * 32 && bad == nb * 32; i++)
                  if (memcmp (o + i * es, want + i * es, es) != 0)
                    bad = i;
              int canary = 1;
              for (uint8_t *q = base - 64; q < o; q++)
                canary &= *q == 0xA5;
              for (uint8_t *q = o + nb * 32 * es; q < o + nb * 32 * es + 64; q++)
                canary &= *q == 0xA5;
              n++;
              CHECK (rc == 0 && bad == nb * 32 && canary,
                     "nt: dequantize%s %s to %s path %s, %zu blocks, output %zu bytes past a 64-byte line: rc %d, %s%s",
                     mt ? "_mt" : "", f->name, of->name, mxk_path_name (paths[p]), nb, off, rc,
                     bad < nb * 32 ? "wrong value at element " : "", canary ? "" : "a byte outside the output written");
              if (bad < nb * 32)
                fprintf (stderr, "  element %zu\n", bad);
            }
        free (sc), free (cd), free (buf), free (psc), free (pcd), free (g), free (want);
      }
}

int
main (int argc, char **argv)
{
  const char *which = argc > 1 ? argv[1] : "all";
  if (strcmp (which, "nt") == 0) /* tkernels nt: large outputs */
    {
      E8M0 = mx_format_get (MX_E8M0);
      for (int p = MXK_PATH_REF; p < MXK_PATH_COUNT; p++)
        if (mxk_path_supported ((mxk_path) p))
          paths[npaths++] = (mxk_path) p;
      rng r = { test_seed () ^ 0x4E54u };
      nt_tests ();
      nt_quantize (&r);
      return finish ("tkernels nt", n);
    }
  if (strcmp (which, "mt") == 0) /* tkernels mt [FORMAT|all]: the multi-threaded entry points */
    {
      E8M0 = mx_format_get (MX_E8M0);
      for (int p = MXK_PATH_REF; p < MXK_PATH_COUNT; p++)
        if (mxk_path_supported ((mxk_path) p))
          paths[npaths++] = (mxk_path) p;
        else
          printf ("tkernels: path %s is not supported on this CPU: not run\n", mxk_path_name ((mxk_path) p));
      rng r = { test_seed () ^ 0x4D54u };
      rbits_rng = (rng) { test_seed () ^ 0x5352u };
      mt_tests (argc > 2 ? argv[2] : "all", &r);
      return finish ("tkernels mt", n);
    }
  long nrand = test_count (argc, argv, 2, 1000000);
  const char *vdir = argc > 3 ? argv[3] : NULL;
  E8M0 = mx_format_get (MX_E8M0);
  for (int p = MXK_PATH_REF; p < MXK_PATH_COUNT; p++)
    if (mxk_path_supported ((mxk_path) p))
      paths[npaths++] = (mxk_path) p;
    else
      printf ("tkernels: path %s is not supported on this CPU: not run\n", mxk_path_name ((mxk_path) p));
  rng r = { test_seed () ^ (uint64_t) strlen (which) };
  rbits_rng = (rng) { test_seed () ^ 0x5352u };

  mx_format_id elems[MX_FORMAT_COUNT];
  int nelem = formats_of_role (MX_ROLE_ELEM, elems);
  if (!HAVE_FLUSH)
    printf ("tkernels: no MXCSR on this CPU: the FTZ+DAZ and flag passes are not run\n");
  nan_scale_quiet (which, elems, nelem);
  for (flush = 0; flush <= 2 * HAVE_FLUSH; flush++)
  for (int fi = 0; fi < nelem; fi++)
    {
      mx_format_id elem = elems[fi];
      if (strcmp (which, "all") != 0 && strcmp (which, mx_format_get (elem)->name) != 0)
        continue;
      /* every BF16 input: consecutive, strided, and beside anchors */
      static uint16_t bf[65536], arr[65536];
      for (uint32_t i = 0; i < 65536; i++)
        bf[i] = (uint16_t) i;
      for (int arrangement = 0; arrangement < 3 && flush != 1; arrangement++) /* BF16 subnormals: not under DAZ */
        {
          for (uint32_t i = 0; i < 65536; i++)
            arr[i] = arrangement == 0 ? bf[i] : arrangement == 1 ? bf[(i * 2053u) & 0xFFFF]
                     : (i % 32 == 0 ? (uint16_t) (0x3F80 + ((i / 32) % 64) * 0x80) : bf[i]);
          for (int rule = 0; rule < 2; rule++)
            for (size_t m = 0; m < sizeof rnds / sizeof rnds[0]; m++)
              check_q (arr, MX_BF16, 2048, elem, rule ? MX_SCALE_RCEIL_FP32 : MX_SCALE_FLOOR,
                         rnds[m], arrangement == 0 ? "bf16-all" : arrangement == 1 ? "bf16-strided" : "bf16-anchored");
        }
      /* random FP32 blocks, in batches of 1024 */
      static uint32_t in[1024 * 32];
      for (long done = 0; done < (flush ? nrand / 8 : nrand); done += 1024)
        {
          uint64_t x = rng_next (&r);
          for (int b = 0; b < 1024; b++)
            {
              int top = 1 + (int) (rng_next (&r) % 254);
              for (int i = 0; i < 32; i++)
                in[b * 32 + i] = rand_f32 (&r, top);
              uint64_t y = rng_next (&r);
              if (y % 32 == 0)
                in[b * 32 + (int) ((y >> 8) % 32)] = (y >> 16) & 1 ? 0x7F800000u | (uint32_t) ((y >> 17) & 1) << 31 : 0x7FC00000u;
              if (y % 61 == 1)
                for (int i = 0; i < 32; i++)
                  in[b * 32 + i] &= 0x807FFFFFu; /* zeros and subnormals only */
              for (int i = 0; i < 32 && flush == 1; i++)
                if (is_sub (in[b * 32 + i], 0))
                  in[b * 32 + i] &= 0x80000000u; /* the flush pass: inputs DAZ leaves alone */
            }
          check_q (in, MX_FP32, 1024, elem, x & 1 ? MX_SCALE_RCEIL_FP32 : MX_SCALE_FLOOR,
                   rnds[(x >> 1) % NRND], "random");
        }
      /* every rounding x both rules on wide-range blocks: normal FP32 values anywhere from the
       * block's top binade down to 2^-126 (so lanes far below the block's scale, which the fast
       * routes clamp), signed zeros, and ties (low mantissa bits cleared); normal values only, so
       * that the flush pass sees them too */
      {
        static uint32_t wide[1024 * 32];
        for (int b = 0; b < 1024; b++)
          {
            int top = 1 + (int) (rng_next (&r) % 254);
            for (int i = 0; i < 32; i++)
              {
                uint64_t y = rng_next (&r);
                /* half within the 12 binades under the top (the element's own range), half anywhere */
                int d = (y >> 4) % 2 ? (int) ((y >> 8) % 12) : (int) ((y >> 8) % (uint64_t) top);
                uint32_t e = (uint32_t) (top - d < 1 ? 1 : top - d), m = (uint32_t) (y >> 32) & 0x7FFFFF;
                if (y % 4 == 0)
                  m &= 0x7FFFFFu << (y >> 2) % 24; /* few significant bits: ties */
                wide[b * 32 + i] = (uint32_t) (y >> 63) << 31 | (y % 16 == 1 ? 0 : e << 23 | m);
              }
            wide[b * 32 + (int) (rng_next (&r) % 32)] = (uint32_t) top << 23; /* the top binade */
          }
        for (int rule = 0; rule < 2; rule++)
          for (size_t m = 0; m < sizeof rnds / sizeof rnds[0]; m++)
            check_q (wide, MX_FP32, 1024, elem, rule ? MX_SCALE_RCEIL_FP32 : MX_SCALE_FLOOR, rnds[m], "wide");
      }
      /* blocks of FP32 subnormals and zeros alone (AVX-512 quantizes them as the FP32 values M
       * of their significands, under the scale exponent x + 149): the largest significand's
       * length drawn per block, each lane's up to it, ties (few significant bits), the least
       * and the largest, signed zeros; every rounding x both rules (not in the flush pass, where
       * DAZ reads them as zeros) */
      if (flush != 1)
        {
          static uint32_t sub[1024 * 32];
          for (int b = 0; b < 1024; b++)
            {
              int top = (int) (rng_next (&r) % 23); /* the block's significands: at most 23 - top bits */
              for (int i = 0; i < 32; i++)
                {
                  uint64_t y = rng_next (&r);
                  uint32_t m = ((uint32_t) (y >> 32) & 0x7FFFFF) >> (top + (int) ((y >> 8) % (uint64_t) (23 - top)) * (i != 0));
                  if (y % 4 == 0)
                    m &= 0x7FFFFFu << (y >> 2) % 23; /* ties */
                  m = y % 16 == 1 ? 0 : y % 64 == 2 ? 0x7FFFFFu >> top : y % 64 == 3 ? 1 : m;
                  sub[b * 32 + i] = (uint32_t) (y >> 63) << 31 | m;
                }
            }
          for (int rule = 0; rule < 2; rule++)
            for (size_t m = 0; m < sizeof rnds / sizeof rnds[0]; m++)
              check_q (sub, MX_FP32, 1024, elem, rule ? MX_SCALE_RCEIL_FP32 : MX_SCALE_FLOOR, rnds[m], "subnormal");
        }
      /* groups of 16 blocks on the fast route (the avx512vbmi path's 16-block maximum tree):
       * each block's top binade drawn apart, so that a tree which mixed two blocks' maxima would
       * give a wrong scale; in every fourth group one block holds a NaN or an Inf, in every
       * eighth one block is all zeros (both done inside the group) */
      {
        static uint32_t g16[1024 * 32];
        for (int b = 0; b < 1024; b++)
          {
            int top = 70 + (int) (rng_next (&r) % 184);
            for (int i = 0; i < 32; i++)
              g16[b * 32 + i] = rand_f32 (&r, top);
            g16[b * 32 + (int) (rng_next (&r) % 32)] = (uint32_t) top << 23 | (uint32_t) (rng_next (&r) & 0x807FFFFF);
          }
        for (int g = 0; g < 1024 / 16; g++)
          {
            int b = 16 * g + (int) (rng_next (&r) % 16);
            if (g % 4 == 1)
              g16[b * 32 + (int) (rng_next (&r) % 32)] = g % 8 == 1 ? 0x7FC00000u : 0xFF800000u;
            if (g % 8 == 6)
              for (int i = 0; i < 32; i++) /* +0 and -0 */
                g16[b * 32 + i] = (uint32_t) (rng_next (&r) & 1) << 31;
          }
        /* all-zero blocks on the fast route too (scale 0, each -0's code signed): block 2, in
         * the four-block loop's 15 blocks below, and the whole of group 3; block 13, among
         * those 15 one of the three done one at a time (AVX-512: block_any's zero case) */
        for (int b = 2; b < 64; b = b == 2 ? 13 : b == 13 ? 48 : b + 1)
          for (int i = 0; i < 32; i++)
            g16[b * 32 + i] = (uint32_t) (rng_next (&r) & 1) << 31;
        /* and 15 blocks of them: fewer than sixteen, so four at a time, then one at a time (the
         * loop inputs of 32 MiB and more take) */
        for (int rule = 0; rule < 2; rule++)
          for (size_t m = 0; m < sizeof rnds / sizeof rnds[0]; m++)
            {
              check_q (g16, MX_FP32, 1024, elem, rule ? MX_SCALE_RCEIL_FP32 : MX_SCALE_FLOOR, rnds[m], "groups16");
              check_q (g16, MX_FP32, 15, elem, rule ? MX_SCALE_RCEIL_FP32 : MX_SCALE_FLOOR, rnds[m], "groups4");
            }
        /* the sixteen-block scan reads FP32 inputs a whole number of lanes past a 64-byte line
         * by aligned lines, each block from three (g16_scan): 69 of these blocks (four groups,
         * then a four-block and a one-block tail) at every 4-byte offset in a line and at odd
         * bytes (there the loads that span lines), block b's largest magnitude moved to lane
         * b mod 32, so that a lane counted in a neighbour's maximum moves a scale */
        {
          static _Alignas (64) uint32_t sh[69 * 32 + 16];
          static uint32_t blk[69 * 32];
          static char what[48];
          memcpy (blk, g16, sizeof blk);
          for (int b = 0; b < 69; b++)
            {
              uint32_t *x = blk + b * 32;
              int top = 0;
              for (int i = 1; i < 32; i++)
                top = (x[i] & 0x7FFFFFFFu) > (x[top] & 0x7FFFFFFFu) ? i : top;
              uint32_t t = x[top];
              x[top] = x[b % 32], x[b % 32] = t;
            }
          for (size_t off = 0; off < 64; off = off == 60 ? 1 : off == 3 ? 64 : off % 4 ? off + 1 : off + 4)
            {
              memcpy ((uint8_t *) sh + off, blk, sizeof blk);
              snprintf (what, sizeof what, "input %zu bytes past a line", off);
              for (int rule = 0; rule < 2; rule++)
                for (int m = 0; m < 2; m++)
                  check_q ((uint8_t *) sh + off, MX_FP32, 69, elem, rule ? MX_SCALE_RCEIL_FP32 : MX_SCALE_FLOOR,
                           m ? MX_SR : rule ? MX_RUP : MX_RNE, what);
            }
        }
      }
      /* dequantize: every scale x every code */
      {
        const mx_format *f = mx_format_get (elem);
        static uint8_t sc[256 * 8], cd[256 * 8 * 32];
        static uint32_t o32[256 * 8 * 32], g32[256 * 8 * 32];
        static uint16_t o16[256 * 8 * 32];
        size_t nb = every_scale_code (sc, cd, f);
        /* the flag pass: every code whose FP32 result is a subnormal (those raise UE by right)
         * replaced by code 0, so that every scale still runs with its other codes */
        if (flush == 2)
          {
            golden_dequantize (g32, cd, sc, nb, f, mx_format_get (MX_FP32));
            for (size_t i = 0; i < nb * 32; i++)
              if (is_sub (g32[i], 0))
                cd[i] = 0;
          }
        for (int bfo = 0; bfo < 2; bfo++)
          {
            const mx_format *of = mx_format_get (bfo ? MX_BF16 : MX_FP32);
            golden_dequantize (g32, cd, sc, nb, f, of);
            /* the same codes packed, where the format has a packing */
            static uint8_t cdp[256 * 8 * 32];
            mx_packing pk = f->bits == 4 ? MX_PACKING_FP4_LO_FIRST : f->bits == 6 ? MX_PACKING_FP6_3BYTE : MX_PACKING_UNPACKED;
            pack_all (cdp, cd, nb, elem, pk);
            for (int p = 0; p < npaths; p++)
              for (int packed = 0; packed < 1 + (pk != MX_PACKING_UNPACKED); packed++)
                {
                  mxk_use_path (paths[p]);
                  unsigned csr = flush_on ();
                  mxk_dequantize (bfo ? (void *) o16 : (void *) o32, bfo ? MX_BF16 : MX_FP32, sc,
                                  packed ? cdp : cd, nb * 32, elem, packed ? pk : MX_PACKING_UNPACKED);
                  unsigned fl = flush_off (csr);
                  int ok = 1;
                  size_t i = 0;
                  for (; i < nb * 32 && ok; i++)
                    ok = (bfo ? o16[i] : o32[i]) == g32[i] || (flush == 1 && is_sub (g32[i], bfo));
                  n++;
                  CHECK (ok && fl == 0, "dequantize %s to %s path %s%s%s: %s scale %02X code %02X: %08X, want %08X",
                         f->name, of->name, mxk_path_name (paths[p]), packed ? " packed" : "",
                         pass_name[flush], fl & 2 ? "DE raised;" : fl ? "UE raised;" : "",
                         i ? sc[(i - 1) / 32] : 0, i ? cd[i - 1] : 0,
                         i ? (bfo ? o16[i - 1] : o32[i - 1]) : 0, i ? g32[i - 1] : 0);
                  for (size_t b = 0; fl && failures <= 3 && b < nb; b++)
                    {
                      csr = flush_on ();
                      mxk_dequantize (o32, MX_FP32, sc + b, cd + b * 32, 32, elem, MX_PACKING_UNPACKED);
                      if (flush_off (csr))
                        {
                          fprintf (stderr, "  scale %02X, codes %02X..%02X alone raise it\n", sc[b], cd[b * 32], cd[b * 32 + 31]);
                          break;
                        }
                    }
                }
          }
      }
      /* dot: random block pairs against the golden block-fp32 model (rne) */
      for (int fj = 0; fj < nelem; fj++)
        for (int it = 0; it < 3000; it++)
          {
            mx_format_id fb = elems[fj];
            size_t nb = 1 + rng_below (&r, 4);
            uint8_t sa8[4], sb8[4], a8[128], b8[128];
            for (size_t j = 0; j < nb; j++)
              {
                uint64_t y = rng_next (&r);
                /* the flush pass: scales whose products and block sums stay normal */
                sa8[j] = (uint8_t) (y % 16 == 0 && !flush ? (y >> 8) % 256 : 0x6F + (y >> 8) % 33);
                sb8[j] = (uint8_t) ((y >> 16) % 16 == 0 && !flush ? (y >> 24) % 256 : 0x6F + (y >> 24) % 33);
              }
            for (size_t i = 0; i < nb * 32; i++)
              {
                uint64_t z = rng_next (&r);
                a8[i] = (uint8_t) (z & ((1u << mx_format_get (elem)->bits) - 1));
                b8[i] = (uint8_t) ((z >> 8) & ((1u << mx_format_get (fb)->bits) - 1));
              }
            check_dot (elem, fb, nb, sa8, a8, sb8, b8, it % 3 == 0 ? 0 : (uint32_t) rng_next (&r), "random");
          }
      /* dot: every code of the format alone in a block (at a position that moves with the
       * code) against three codes of every format, so that each code's decoded value shows
       * unrounded; and blocks of -0 x +0 products with C_in -0, whose result's sign is the
       * block sum's (a random C_in hides it) */
      for (int fj = 0; fj < nelem; fj++)
        {
          mx_format_id fb = elems[fj];
          unsigned nca = 1u << mx_format_get (elem)->bits, ncb = 1u << mx_format_get (fb)->bits;
          const unsigned kb[3] = { 1, (ncb / 2 - 1) / 3, (ncb / 2 - 1) / 3 * 2 }; /* finite, positive */
          for (unsigned c = 0; c < nca; c++)
            for (int j = 0; j < 3; j++)
              {
                uint8_t a8[32] = { 0 }, b8[32], s1 = 127, s2 = (uint8_t) (120 + c % 16);
                memset (b8, (int) kb[j], sizeof b8);
                a8[(c * 7 + (unsigned) j) % 32] = (uint8_t) c;
                check_dot (elem, fb, 1, &s1, a8, &s2, b8, 0, "code");
              }
          uint8_t z8[64], n8[64], sz[2] = { 127, 100 };
          memset (z8, 0, sizeof z8);
          memset (n8, (int) (nca / 2), sizeof n8); /* the sign bit alone: -0 but for INT8 (-128) */
          check_dot (elem, fb, 2, sz, n8, sz, z8, 0x80000000u, "-0");
          check_dot (elem, fb, 1, sz, n8, sz, z8, 0x80000000u, "-0");
          /* the NaN scale at each block of four, on either side: the paths that take two blocks
           * at a time must see it in the second block of a pair too */
          for (int pos = 0; pos < 8; pos++)
            {
              /* finite codes of A's format, every other one negative, and B's */
              const unsigned ka[3] = { 1, (nca / 2 - 1) / 3, (nca / 2 - 1) / 3 * 2 };
              uint8_t sa4[4] = { 120, 125, 130, 127 }, sb4[4] = { 126, 121, 128, 131 }, a4[128], b4[128];
              for (int i = 0; i < 128; i++)
                a4[i] = (uint8_t) (ka[i % 3] + (unsigned) i % 2 * (nca / 2)), b4[i] = (uint8_t) kb[(i + 1) % 3];
              (pos < 4 ? sa4 : sb4)[pos % 4] = 0xFF;
              check_dot (elem, fb, 4, sa4, a4, sb4, b4, 0, "NaN scale");
            }
        }
    }

  if (vdir)
    {
      /* every applicable committed vector file through every path */
      static const char *globs[] = { "ocp/quantize", "ocp/dequantize", "ocp/dot", "profiles/torchao-rceil",
                                     "profiles/microxcaling" };
      vec_stat v = { 0, 0 };
      for (size_t g = 0; g < sizeof globs / sizeof globs[0]; g++)
        CHECK (vec_each_file (vdir, globs[g], vfile, &v) > 0, "%s/%s: no vector file, or unreadable", vdir, globs[g]);
      printf ("tkernels: %ld committed vector files (%ld cases) through %d paths\n", v.files, v.cases, npaths);
      CHECK (v.files >= 80, "only %ld vector files applied", v.files);
    }
  return finish ("tkernels", n);
}
