/* mxk_avx512.c -- AVX-512 (F, BW, VL) path: 16 lanes per vector, two vectors per block.
 * Quantize, every rounding (sr too, with its random words), takes the magic-add route below,
 * sixteen blocks at a time below 32 MiB of input and four from there on, two blocks' codes
 * narrowed together; a NaN/Inf block gets the NaN scale and codes 0 in the same loop, and an
 * all-zero block its zero codes.  Of the blocks off the fast range, those of FP32 subnormals
 * alone take the magic route under a shifted scale (magic_block), and the tiny and huge normal
 * ones mxk_generic.c's lane formula with masks instead of branches, extended to FP32
 * subnormals (block_any).  Dequantize and dot decode a block's codes from BF16 word tables in
 * registers.  The two element pairs whose exact dot needs more than a double's 53 bits take
 * the scalar routine.  Compiled with -mavx512f -mavx512bw -mavx512vl (x86-64 only).
 * SPDX-License-Identifier: MIT */
#include "internal.h"
#if defined(__AVX512F__) && defined(__AVX512BW__)
#include <immintrin.h>
#include <pthread.h>
#include "pack_sse.h"

typedef struct
{
  __m512i emin, bias, mbits, one_m, maxmag, signbit, shbase, c23m;
  int is_int;
} vfmt;

static inline vfmt
vf (const mxk_fmt *f)
{
  vfmt v;
  v.emin = _mm512_set1_epi32 (f->emin);
  v.bias = _mm512_set1_epi32 (f->bias);
  v.mbits = _mm512_set1_epi32 (f->mbits);
  v.one_m = _mm512_set1_epi32 (1 << f->mbits);
  v.maxmag = _mm512_set1_epi32 ((int) f->maxmag);
  v.signbit = _mm512_set1_epi32 ((int) f->signbit);
  v.c23m = _mm512_set1_epi32 (23 - f->mbits);
  v.shbase = _mm512_setzero_si512 ();
  v.is_int = f->is_int;
  return v;
}

/* 16 FP32 lanes (finite; FP32 subnormals only when sub is set) under scale exponent x -> 16
 * codes in 32-bit lanes; r: the random words of sr.  With sub, a subnormal's exponent comes
 * from the exact int-to-float conversion of its significand, so no FP32 subnormal is ever
 * operated on. */
static inline __m512i
lanes_k (__m512i b, int x, const vfmt *f, mx_rounding rnd, int sub, __m512i r)
{
  const __m512i one = _mm512_set1_epi32 (1), zero = _mm512_setzero_si512 ();
  __mmask16 ks = _mm512_test_epi32_mask (b, _mm512_set1_epi32 ((int) 0x80000000u));
  __m512i e = _mm512_and_si512 (_mm512_srli_epi32 (b, 23), _mm512_set1_epi32 (0xFF));
  __m512i m = _mm512_and_si512 (b, _mm512_set1_epi32 (0x7FFFFF));
  __mmask16 kne = _mm512_test_epi32_mask (e, e);
  __m512i M = _mm512_mask_or_epi32 (m, kne, m, _mm512_set1_epi32 (0x800000));
  __m512i et = _mm512_sub_epi32 (e, _mm512_set1_epi32 (127 + x));
  __m512i sh;
  if (sub)
    {
      /* a subnormal (e = 0): value M * 2^-149, exponent floor(log2 M) - 149; the quantum's
       * shift q - (-149 - x) with q = max(et, emin) - mbits (INT: -6) */
      __mmask16 ksub = ~kne;
      __m512i lm = _mm512_sub_epi32 (_mm512_srli_epi32 (_mm512_castps_si512 (_mm512_cvtepi32_ps (M)), 23),
                                     _mm512_set1_epi32 (127));
      et = _mm512_mask_sub_epi32 (et, ksub, lm, _mm512_set1_epi32 (149 + x));
      __m512i shs = f->is_int ? _mm512_set1_epi32 (143 + x)
                              : _mm512_add_epi32 (_mm512_sub_epi32 (_mm512_max_epi32 (et, f->emin), f->mbits),
                                                  _mm512_set1_epi32 (149 + x));
      if (f->is_int)
        sh = _mm512_sub_epi32 (_mm512_set1_epi32 (144 + x), e);
      else
        sh = _mm512_add_epi32 (f->c23m, _mm512_max_epi32 (_mm512_sub_epi32 (f->emin, et), zero));
      sh = _mm512_mask_mov_epi32 (sh, ksub, shs);
    }
  else if (f->is_int)
    sh = _mm512_sub_epi32 (_mm512_set1_epi32 (144 + x), e);
  else
    sh = _mm512_add_epi32 (f->c23m, _mm512_max_epi32 (_mm512_sub_epi32 (f->emin, et), zero));
  __m512i n = _mm512_srlv_epi32 (M, sh);
  __m512i shm1 = _mm512_sub_epi32 (sh, one);
  __mmask16 kr = _mm512_test_epi32_mask (_mm512_srlv_epi32 (M, shm1), one);
  __mmask16 kst = _mm512_test_epi32_mask (M, _mm512_sub_epi32 (_mm512_sllv_epi32 (one, shm1), one));
  __mmask16 kinc;
  switch (rnd)
    {
    case MX_RNA: kinc = kr; break;
    case MX_RTZ: kinc = 0; break;
    case MX_RUP: kinc = (kr | kst) & ~ks; break;
    case MX_RDN: kinc = (kr | kst) & ks; break;
    case MX_SR:
      {
        /* mxk__sr_inc: the discarded fraction's top 16 bits (a shift count out of 0..31
         * gives 0), plus r, carry into bit 16 */
        __m512i fr = _mm512_or_si512 (_mm512_sllv_epi32 (M, _mm512_sub_epi32 (_mm512_set1_epi32 (MXK_SR_BITS), sh)),
                                      _mm512_srlv_epi32 (M, _mm512_sub_epi32 (sh, _mm512_set1_epi32 (MXK_SR_BITS))));
        fr = _mm512_and_si512 (fr, _mm512_set1_epi32 ((1 << MXK_SR_BITS) - 1));
        kinc = _mm512_test_epi32_mask (_mm512_add_epi32 (fr, r), _mm512_set1_epi32 (1 << MXK_SR_BITS));
        break;
      }
    default: kinc = kr & (kst | _mm512_test_epi32_mask (n, one)); break;
    }
  __m512i nr = _mm512_mask_add_epi32 (n, kinc, n, one);
  __m512i mag;
  if (f->is_int)
    mag = nr;
  else
    {
      __m512i normal = _mm512_add_epi32 (_mm512_sub_epi32 (_mm512_sllv_epi32 (_mm512_add_epi32 (et, f->bias), f->mbits), f->one_m), nr);
      mag = _mm512_mask_blend_epi32 (_mm512_cmplt_epi32_mask (et, f->emin), normal, nr);
    }
  mag = _mm512_min_epu32 (mag, f->maxmag);
  mag = _mm512_maskz_mov_epi32 (_mm512_test_epi32_mask (M, M), mag);
  if (f->is_int)
    return _mm512_mask_sub_epi32 (mag, ks, zero, mag);
  return _mm512_mask_or_epi32 (mag, ks, mag, f->signbit);
}

/* A whole block off the fast path (OCP): NaN or Inf gives the NaN scale and codes 0, a scale
 * exponent above 127 likewise (INT8 rceil near FLT_MAX), anything else -- tiny and huge values,
 * FP32 subnormals among them (magic_block takes zero blocks and blocks of subnormals alone,
 * but any block is right here) -- the lane formula with subnormals, as mxk__quant_block. */
static inline uint8_t
block_any (uint8_t *dst, __m512i b0, __m512i b1, uint32_t amax, const mxk_fmt *f,
           mx_scale_rule rule, mx_rounding rnd, __m512i r0, __m512i r1)
{
  int x = amax >= 0x7F800000u ? 128 : amax == 0 ? -127 : mxk__scale_exp (amax, f, rule);
  if (x > 127)
    {
      _mm256_storeu_si256 ((void *) dst, _mm256_setzero_si256 ());
      return 0xFF;
    }
  x = x < -127 ? -127 : x;
  const vfmt v = vf (f);
  _mm_storeu_si128 ((void *) dst, _mm512_cvtepi32_epi8 (lanes_k (b0, x, &v, rnd, 1, r0)));
  _mm_storeu_si128 ((void *) (dst + 16), _mm512_cvtepi32_epi8 (lanes_k (b1, x, &v, rnd, 1, r1)));
  return (uint8_t) (x + 127);
}

/* Every rounding, a shorter exact route, for blocks whose scale exponent x lies in -97..127.
 * t = |b| / 2^x exactly, by subtracting x from the FP32 exponent field (see lanes_code for the
 * lanes where that fails).  The element rounding is one FP32 add of a magic in the binade
 * 2^(E'+23-mbits), E' = max(exponent of t, emin), whose ulp is exactly the element quantum
 * q = 2^(E'-mbits), normal and subnormal alike.  The magic's low bits hold the code's exponent
 * part expo = (E'+bias-1) << mbits, so the sum's low 23 bits are the code itself, expo plus the
 * count of quanta (at most 2^(mbits+1): no carry out of the 23 bits).  expo is even, so rne's
 * tie still goes to the even count.  The add's rounding is the element rounding of the
 * magnitude t >= 0: nearest-even for rne, the instruction's embedded round-toward-zero for rtz,
 * toward zero or toward +inf by the lane's sign for rup and rdn (rup: up on positive lanes, rdn:
 * on negative ones).  rna has no IEEE mode: the add truncates at half the quantum instead (a
 * magic one binade lower, low bits 2 expo + 1), which counts h = floor(2t/q) half quanta, and
 * code = expo + floor(t/q + 1/2) = (2 expo + 1 + h) >> 1.  The magic comes from a 32-entry table
 * indexed by E' mod 32 (E' spans at most 30 binades).  No FP32 subnormal is ever produced (those
 * are slow on Intel cores).  INT8: t*64 by the same exponent subtraction, rounded at the integer
 * quantum by adding 1.5*2^23 (rna: 1.5*2^22).  sr looks 16 bits deeper: the magic 16 binades
 * lower, in 2^(E'+7-mbits) (t stays in its binade), its ulp 2^-16 quanta, its low bits
 * expo << 16, and the add truncating, so that the sum's low 23 bits are expo << 16 plus
 * v = floor(t/q * 2^16), the count above bit 16 and the discarded fraction's top 16 bits below;
 * adding the random word r carries exactly when libmxgold's sr (R = 16) rounds up, and code =
 * (low bits + r) >> 16.  INT8: the magic 128 (t < 128), ulp 2^-16.  t is clamped to at least
 * 2^-126 (no FP32 subnormal; far below 2^-16 of every quantum, as the true t of such a lane
 * is), or higher where the table has room (magic_consts).  Until 2026-11-28 a second table held
 * magic - expo, subtracted from the sum: two more vector operations per 16 lanes, and on a Zen 5
 * core in cache 3.85 ns per block of 32 against 3.55 now (E5M2, which keeps the max: 3.84 ->
 * 3.79). */
typedef struct
{
  __m512i absm, eminf, tlo, tm0, tm1, magicb, expm, xoff, fastlo, nidx;
  __m512i sidx;           /* the avx512vbmi narrowing's permute of the inputs' sign bytes */
  __m512i p6idx;          /* fp6-3byte: the three low bytes of each dword (avx512vbmi) */
  __m512i maxmag, signbit; /* in every byte */
  int sgnshift;            /* signbit's distance below bit 7 */
  __m512 magic, rcp;
} magk;

/* The quantize loops' mode, beside their constants (magk): each copy of a loop passes its own
 * compile-time values by value, so that every test of them folds away. */
typedef struct
{
  mx_rounding rnd;
  int is_int; /* INT8: no table, the magic 1.5 * 2^23 */
  int nomax;  /* the table index needs no maximum (magic_nomax) */
} qmode;

/* The rounding add of the magnitudes t (kup: for rup and rdn, the lanes whose magnitude rounds
 * up). */
static inline __attribute__ ((always_inline)) __m512
magic_add (__m512 t, __m512 magic, mx_rounding rnd, __mmask16 kup)
{
  /* macros, not variables: the rounding operand must be a constant expression even at -O0 */
#define MXK_RZ (_MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC)
#define MXK_RU (_MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC)
  switch (rnd)
    {
    case MX_RNE: return _mm512_add_ps (t, magic);
    case MX_RUP:
    case MX_RDN: return _mm512_mask_add_round_ps (_mm512_add_round_ps (t, magic, MXK_RZ), kup, t, magic, MXK_RU);
    default: return _mm512_add_round_ps (t, magic, MXK_RZ); /* rtz; rna at half quanta */
    }
#undef MXK_RZ
#undef MXK_RU
}

/* The slots of the magic's table below emin (32 less the format's binades) hold emin's entry;
 * where the lowest is at most a quarter of the smallest quantum (sr: 2^-18 of it), t is clamped
 * to it instead of 2^-126, so it rounds as every smaller t does, and E' needs no max (nomax).
 * E5M2 (30 binades) has no room. */
static inline int
magic_slack (const mxk_fmt *f)
{
  return f->is_int ? 0 : 32 - (f->emax - f->emin + 1);
}

static inline int
magic_nomax (const mxk_fmt *f, int sr)
{
  return magic_slack (f) >= f->mbits + 2 + (sr ? 16 : 0);
}

/* The magic's table of a float format (half: rna's; sr: MXK_SR_BITS for sr's, else 0). */
static void
magic_table (uint32_t tm[32], const mxk_fmt *f, int half, int sr)
{
  int nomax = magic_nomax (f, sr), slack = magic_slack (f);
  memset (tm, 0, 32 * sizeof *tm);
  for (int e = f->emin - (nomax ? slack : 0); e <= f->emax; e++)
    {
      int ee = e < f->emin ? f->emin : e;
      uint32_t expo = (uint32_t) (ee + f->bias - 1) << f->mbits;
      /* the magic's low bits carry the code's exponent part (rna: twice it, plus 1; sr: 16
       * bits up), so that code = the sum's low 23 bits; expo is even, so rne's ties still go
       * to the even count */
      tm[(e + 127) & 31] = ((uint32_t) (ee + 127 + 23 - f->mbits - half - sr) << 23)
                           + (half ? 2 * expo + 1 : expo << sr);
    }
}

/* Every float format's three tables (rne and the others, rna, sr) and the narrowing's and
 * fp6-3byte packing's byte indices, made once, as the format table is (mxk__fmt): made per call
 * they were half of a call's fixed cost (AMD EPYC family 26 model 2: some 40 of 78 ns). */
static uint32_t magic_tabs[MX_FORMAT_COUNT][3][32];
static uint8_t magic_nidx[2][64], magic_sidx[64], magic_p6idx[64];
static pthread_once_t magic_once = PTHREAD_ONCE_INIT;

static void
magic_init (void)
{
  /* the avx512vbmi narrowing (pair_fast): byte j is byte tb of dword j mod 32, the code's byte
   * in lanes_code's dwords under trunc (sr: 2, above its 16 bits of fraction; else 0), or the
   * input's sign byte (3); fp6-3byte: output byte j is byte j mod 3 of dword j / 3 (j < 48) */
  for (int j = 0; j < 64; j++)
    magic_nidx[0][j] = (uint8_t) (4 * (j % 32)), magic_nidx[1][j] = (uint8_t) (4 * (j % 32) + 2),
    magic_sidx[j] = (uint8_t) (4 * (j % 32) + 3), /* the sign's byte */
    magic_p6idx[j] = (uint8_t) (j < 48 ? 4 * (j / 3) + j % 3 : 0);
  for (int id = 0; id < MX_FORMAT_COUNT; id++)
    {
      const mxk_fmt *f = mxk__fmt ((mx_format_id) id);
      if (f == NULL || f->is_int)
        continue;
      for (int v = 0; v < 3; v++)
        magic_table (magic_tabs[id][v], f, v == 1, v == 2 ? MXK_SR_BITS : 0);
    }
}

/* The constants of quantize's loops for format f, rule and rounding rnd. */
static inline magk
magic_consts (const mxk_fmt *f, mx_scale_rule rule, mx_rounding rnd)
{
  pthread_once (&magic_once, magic_init);
  magk k;
  int half = rnd == MX_RNA; /* rna: the magic one binade lower, its ulp half a quantum */
  int sr = rnd == MX_SR ? MXK_SR_BITS : 0; /* sr: 16 binades lower */
  k.expm = _mm512_set1_epi32 (0x7F800000);
  k.xoff = _mm512_set1_epi32 (rule == MX_SCALE_RCEIL_FP32 ? 127 << 23 : (127 + f->emax) << 23);
  k.rcp = _mm512_set1_ps (f->rcp_max);
  k.absm = _mm512_set1_epi32 (0x7FFFFFFF);
  k.eminf = _mm512_set1_epi32 (f->emin + 127);
  /* t clamped to the table's lowest binade where it has room (magic_slack), else 2^-126 */
  int slack = magic_slack (f);
  k.tlo = _mm512_set1_epi32 (magic_nomax (f, sr) ? (f->emin - slack + 127) << 23 : 0x800000);
  static const uint32_t zeros[32];
  const uint32_t *tm = f->is_int ? zeros : magic_tabs[f->id][half ? 1 : sr ? 2 : 0];
  k.tm0 = _mm512_loadu_si512 ((const void *) tm), k.tm1 = _mm512_loadu_si512 ((const void *) (tm + 16));
  k.nidx = _mm512_loadu_si512 ((const void *) magic_nidx[sr != 0]);
  /* the avx512vbmi narrowing's signs: byte 3 of each input (pair_fast) */
  k.sidx = _mm512_loadu_si512 ((const void *) magic_sidx);
  k.p6idx = _mm512_loadu_si512 ((const void *) magic_p6idx);
  k.maxmag = _mm512_set1_epi8 ((char) f->maxmag);
  k.signbit = _mm512_set1_epi8 ((char) f->signbit);
  k.sgnshift = f->is_int ? 0 : 7 - __builtin_ctz (f->signbit);
  /* 1.5 * 2^(23 - half), rna's plus one ulp (its sum's bits: magic's + 1 + h, so that the code
   * (h + 1) >> 1 is byte 0 of them shifted once); sr: 128 */
  uint32_t im = mxk__f2u (sr ? 128.0f : half ? 6291456.0f : 12582912.0f) + (uint32_t) half;
  k.magic = _mm512_castsi512_ps (_mm512_set1_epi32 ((int) im));
  k.magicb = _mm512_set1_epi32 ((int) (im - (uint32_t) half));
  k.fastlo = _mm512_set1_epi32 ((int) (rnd == MX_SR ? MXK_FAST_LO_SR : MXK_FAST_LO));
  return k;
}

/* 16 lanes: b the FP32 bits, xs = x << 23 (INT8: (x - 6) << 23); returns the 16 magnitude
 * codes in dwords, not yet saturated nor signed (trunc: see below).  Every lane the exponent
 * subtraction cannot represent (zeros, FP32 subnormals, values below 2^(x-126)) is below 2^-26
 * in element units.  Where t is not a normal FP32 (negative: exponent field below x; an FP32
 * subnormal: the field equal to x) it is clamped to k->tlo (2^-126, or the table's lowest
 * binade, at most a quarter of the smallest quantum; sr: 2^-18 of it), a normal t below half
 * the smallest quantum (and 2^-16 of it, for sr): rne, rtz, rna and sr round such a lane to 0,
 * and rup and rdn, where any nonzero input counts, round it up if it is nonzero and to 0 if it
 * is a zero.  So no FP32 subnormal is an operand or a result of the add, which Intel cores
 * would take a microcode assist for (the {sae} adds raise no flag to show it).  An
 * FP32-subnormal input under x < 0 gets a wrong but normal t, still below 2^-26 element units,
 * and under x >= 0 the clamp.  The unsaturated magnitude codes lie in 0..255 (at most 128), so
 * neither vpmovdb's truncation nor the packs' saturation changes them, and saturation and the
 * sign are applied after narrowing, on bytes.  Always inlined: a call would turn the rounding
 * into a run-time branch (with sr's code added GCC stopped inlining it, and rne in cache took
 * 13.2 ns per block instead of 6.8). */
static inline __attribute__ ((always_inline)) __m512i
lanes_code (__m512i b, __m512i xs, __m512i r, const magk *k, qmode mode, int trunc)
{
  __m512i t = _mm512_max_epi32 (_mm512_sub_epi32 (_mm512_and_si512 (b, k->absm), xs), k->tlo), code;
  /* rup rounds the magnitude up on the positive lanes, rdn on the negative ones, zeros (+0, -0)
   * not: their t is the clamp, which rounds to 0 toward zero */
  __mmask16 kup = mode.rnd == MX_RUP ? _mm512_cmpgt_epi32_mask (b, _mm512_setzero_si512 ())
                  : mode.rnd == MX_RDN ? _mm512_cmpgt_epu32_mask (b, _mm512_set1_epi32 ((int) 0x80000000u))
                                     : 0;
  /* trunc: the caller keeps only the code's byte of each dword (byte 0; sr: byte 2, above its
   * 16 bits of fraction), so the bits above it may stay: the sum's exponent field (cleared for
   * sr all the same, since the carry from its random word can reach bit 23, and its byte holds
   * bit 23), and for INT8 the magic's bits, whose bits 0-7 and 16-23 are zeros.  The codes are
   * not saturated: below 2^(emax+1) (floor) or at most max * (1 + 2^-23) (rceil), t
   * rounds at most to 2^(emax+1), whose code is at most 128, as INT8's is */
  if (mode.is_int)
    {
      code = _mm512_castps_si512 (magic_add (_mm512_castsi512_ps (t), k->magic, mode.rnd, kup));
      if (!trunc)
        code = _mm512_sub_epi32 (code, k->magicb);
    }
  else
    {
      /* E' = max(exponent of t, emin) indexes the magic's table (mod 32) */
      __m512i idx = _mm512_srli_epi32 (t, 23);
      if (!mode.nomax)
        idx = _mm512_max_epi32 (idx, k->eminf);
      __m512i magic = _mm512_permutex2var_epi32 (k->tm0, idx, k->tm1);
      code = _mm512_castps_si512 (magic_add (_mm512_castsi512_ps (t), _mm512_castsi512_ps (magic), mode.rnd, kup));
      if (!trunc || mode.rnd == MX_SR)
        code = _mm512_and_si512 (code, _mm512_set1_epi32 (0x7FFFFF));
    }
  if (mode.rnd == MX_SR)
    {
      code = _mm512_add_epi32 (code, r);
      if (!trunc)
        code = _mm512_srli_epi32 (code, MXK_SR_BITS);
    }
  if (mode.rnd == MX_RNA)
    code = _mm512_srli_epi32 (code, 1);
  return code;
}

/* Saturation and the sign, on bytes (ks: the negative lanes). */
static inline __attribute__ ((always_inline)) __m128i
sat_sign16 (__m128i mag, __mmask16 ks, const magk *k, qmode mode)
{
  mag = _mm_min_epu8 (mag, _mm512_castsi512_si128 (k->maxmag));
  if (mode.is_int)
    return _mm_mask_sub_epi8 (mag, ks, _mm_setzero_si128 (), mag);
  return _mm_mask_add_epi8 (mag, ks, mag, _mm512_castsi512_si128 (k->signbit)); /* = or: mag < signbit */
}

static inline __attribute__ ((always_inline)) __m128i
lanes_magic (__m512i b, __m512i xs, __m512i r, const magk *k, qmode mode)
{
  __mmask16 ks = _mm512_cmplt_epi32_mask (b, _mm512_setzero_si512 ());
  return sat_sign16 (_mm512_cvtepi32_epi8 (lanes_code (b, xs, r, k, mode, 0)), ks, k, mode);
}

/* Block blk's 32 inputs as FP32 bits; pf: prefetch MXK_PREFETCH elements on (not for a block
 * loaded a second time, from L1). */
static inline __attribute__ ((always_inline)) void
load_block (__m512i *b0, __m512i *b1, const void *in, mx_format_id in_fmt, size_t blk, int pf)
{
  if (in_fmt == MX_BF16)
    {
      const uint16_t *p = (const uint16_t *) in + blk * MX_BLOCK;
      if (pf)
        _mm_prefetch ((const char *) (p + MXK_PREFETCH), _MM_HINT_T0);
      *b0 = _mm512_slli_epi32 (_mm512_cvtepu16_epi32 (_mm256_loadu_si256 ((const void *) p)), 16);
      *b1 = _mm512_slli_epi32 (_mm512_cvtepu16_epi32 (_mm256_loadu_si256 ((const void *) (p + 16))), 16);
    }
  else
    {
      const uint32_t *p = (const uint32_t *) in + blk * MX_BLOCK;
      if (pf)
        {
          _mm_prefetch ((const char *) (p + MXK_PREFETCH), _MM_HINT_T0);
          _mm_prefetch ((const char *) (p + MXK_PREFETCH + 16), _MM_HINT_T0);
        }
      *b0 = _mm512_loadu_si512 ((const void *) p);
      *b1 = _mm512_loadu_si512 ((const void *) (p + 16));
    }
}

/* Block blk's 32 random words (sr; else zeros). */
static inline __attribute__ ((always_inline)) void
load_rbits (__m512i *r0, __m512i *r1, const uint16_t *rbits, size_t blk, mx_rounding rnd)
{
  if (rnd != MX_SR)
    {
      *r0 = *r1 = _mm512_setzero_si512 ();
      return;
    }
  const uint16_t *p = rbits + blk * MX_BLOCK;
  _mm_prefetch ((const char *) (p + MXK_PREFETCH), _MM_HINT_T0);
  *r0 = _mm512_cvtepu16_epi32 (_mm256_loadu_si256 ((const void *) p));
  *r1 = _mm512_cvtepu16_epi32 (_mm256_loadu_si256 ((const void *) (p + 16)));
}

/* One block by itself: the tails, and the blocks off the fast path. */
static inline void
magic_block (uint8_t *scales, uint8_t *dst, const void *in, mx_format_id in_fmt, size_t blk,
           const mxk_fmt *f, mx_scale_rule rule, const uint16_t *rbits, magk kv, qmode mode)
{
  /* k by value: a pointer to the caller's would let every call in the caller's loop change
   * it, and GCC would read its constants again there */
  const magk *k = &kv;
  __m512i b0, b1, r0, r1;
  load_block (&b0, &b1, in, in_fmt, blk, 1);
  load_rbits (&r0, &r1, rbits, blk, mode.rnd);
  uint32_t amax = _mm512_reduce_max_epu32 (_mm512_max_epu32 (_mm512_and_si512 (b0, k->absm), _mm512_and_si512 (b1, k->absm)));
  /* an all-zero block by the loops' rule (scale_lanes): its codes under x = 0, scale byte 0
   * (until 2026-12-06 through block_any's masked integer formula: a call of three zero blocks
   * took 63 ns on AMD EPYC family 26 model 2, 35 now) */
  int x = 0, xt = 0; /* the scale exponent, and the one the lanes' t is taken under */
  if (amax != 0 && !mxk__fast_amax (amax, mode.rnd))
    {
      if (amax >= 0x00800000u) /* NaN, Inf, tiny or huge: first, so that no scale exponent is
                                  computed from a NaN's bits */
        {
          scales[blk] = block_any (dst, b0, b1, amax, f, rule, mode.rnd, r0, r1);
          return;
        }
      /* every lane an FP32 subnormal or a zero, M * 2^-149 (M its 23 low bits): the codes of
       * the FP32 value M (exact: M < 2^24), its sign kept, under the scale exponent x + 149.
       * An amax below 2^-126 gives x = -127 (rceil, INT8: -126 at most), so x + 149 is 22 or
       * 23: t = M * 2^-(x + 149) is a normal below 2, at least 2^-23 where M is not 0, and a
       * zero lane's t the clamp, as on the fast route.  So the route takes no FP32 subnormal,
       * and block_any's integer lane formula is left to the normal blocks off the range. */
      x = mxk__scale_exp (amax, f, rule);
      x = x < -127 ? -127 : x;
      xt = x + 149;
      const __m512i mm = _mm512_set1_epi32 (0x7FFFFF), sg = _mm512_set1_epi32 ((int) 0x80000000u);
      b0 = _mm512_ternarylogic_epi32 (_mm512_castps_si512 (_mm512_cvtepi32_ps (_mm512_and_si512 (b0, mm))), b0, sg, 0xF8);
      b1 = _mm512_ternarylogic_epi32 (_mm512_castps_si512 (_mm512_cvtepi32_ps (_mm512_and_si512 (b1, mm))), b1, sg, 0xF8);
    }
  else if (amax != 0)
    x = xt = mxk__scale_exp (amax, f, rule);
  __m512i xs = _mm512_set1_epi32 ((int) ((uint32_t) (mode.is_int ? xt - 6 : xt) << 23));
  _mm_storeu_si128 ((void *) dst, lanes_magic (b0, xs, r0, k, mode));
  _mm_storeu_si128 ((void *) (dst + 16), lanes_magic (b1, xs, r1, k, mode));
  scales[blk] = amax ? (uint8_t) (x + 127) : 0;
}

/* vpermt2b (AVX512_VBMI): byte i of the result is byte idx[i] mod 128 of the 128 bytes of a
 * then b.  In assembly, because the intrinsic would need the VBMI target on every function it
 * is inlined into, the avx512 path's copies too; only the avx512vbmi path runs it. */
static inline __attribute__ ((always_inline)) __m512i
permt2b (__m512i a, __m512i idx, __m512i b)
{
  __asm__ ("vpermt2b %2, %1, %0" : "+v"(a) : "v"(idx), "v"(b));
  return a;
}

/* vpermb (AVX512_VBMI), likewise: byte i is byte idx[i] mod 64 of a. */
static inline __attribute__ ((always_inline)) __m512i
permb (__m512i idx, __m512i a)
{
  __m512i r;
  __asm__ ("vpermb %2, %1, %0" : "=v"(r) : "v"(idx), "v"(a));
  return r;
}

/* vpmultishiftqb (AVX512_VBMI): byte j of each qword is the 8 bits of a's qword from bit
 * ctrl[j] mod 64 up (wrapping). */
static inline __attribute__ ((always_inline)) __m512i
multishift (__m512i ctrl, __m512i a)
{
  __m512i r;
  __asm__ ("vpmultishiftqb %2, %1, %0" : "=v"(r) : "v"(ctrl), "v"(a));
  return r;
}

/* A writer of 64-byte vectors in order (dequantize's values; quantize's unpacked codes, two
 * blocks a vector).  Large outputs (MXK_NT_MIN_BYTES) go by non-temporal stores, which need
 * 64-byte aligned addresses: where the output is a bytes past a 64-byte boundary (a multiple of
 * the element size es), each aligned line holds the last a bytes of one vector and the first
 * 64 - a of the next, put together by one two-table permute (es 1: vpermt2b, the avx512vbmi
 * path's); the first line and the last are partial, written by byte-masked stores (which touch
 * no byte outside the mask). */
typedef struct
{
  uint8_t *p; /* the output */
  size_t j;   /* 64-byte vectors put so far */
  unsigned a; /* nt: the output's offset in its 64-byte line */
  int nt, es; /* non-temporal; the element size (1, 2: dequantize's BF16 words, 4) */
  __m512i prev, idx;
} nt_out;

/* nt: the caller's choice, for an output whose offset in its line is a multiple of es */
static inline nt_out
nt_out_start (void *out, int es, int nt)
{
  nt_out w = { (uint8_t *) out, 0, (unsigned) ((uintptr_t) out & 63), nt, es,
               _mm512_setzero_si512 (), _mm512_setzero_si512 () };
  /* line element i = element (lanes - e + i) of prev:v, e = a / es elements of prev first */
  unsigned e = w.a / (unsigned) es, lanes = 64 / (unsigned) es;
  uint8_t ix[64];
  uint16_t ix16[32];
  for (unsigned i = 0; i < 64; i++)
    ix[i] = (uint8_t) (lanes - e + i);
  for (unsigned i = 0; i < 32; i++)
    ix16[i] = (uint16_t) (lanes - e + i);
  w.idx = es == 1 ? _mm512_loadu_si512 ((const void *) ix)
          : es == 2 ? _mm512_loadu_si512 ((const void *) ix16)
                    : _mm512_cvtepu16_epi32 (_mm256_loadu_si256 ((const void *) ix16));
  return w;
}

/* The aligned line that ends with v's first 64 - a bytes. */
static inline __attribute__ ((always_inline)) __m512i
nt_out_line (const nt_out *w, __m512i v)
{
  return w->es == 1   ? permt2b (w->prev, w->idx, v)
         : w->es == 2 ? _mm512_permutex2var_epi16 (w->prev, w->idx, v)
                      : _mm512_permutex2var_epi32 (w->prev, w->idx, v);
}

static inline __attribute__ ((always_inline)) void
nt_out_put (nt_out *w, __m512i v, int nt)
{
  uint8_t *q = w->p + 64 * w->j++;
  if (!nt)
    _mm512_storeu_si512 ((void *) q, v);
  else if (w->a == 0)
    _mm512_stream_si512 ((void *) q, v);
  else
    {
      __m512i line = nt_out_line (w, v);
      if (w->j == 1)
        _mm512_mask_storeu_epi8 ((void *) (q - w->a), ~(__mmask64) 0 << w->a, line);
      else
        _mm512_stream_si512 ((void *) (q - w->a), line);
      w->prev = v;
    }
}

/* The last line's first a bytes, and the fence that orders the non-temporal stores before the
 * caller's next ones. */
static inline __attribute__ ((always_inline)) void
nt_out_end (nt_out *w, int nt)
{
  if (!nt)
    return;
  if (w->a && w->j)
    _mm512_mask_storeu_epi8 ((void *) (w->p + 64 * w->j - w->a), ~(~(__mmask64) 0 << w->a),
                             nt_out_line (w, _mm512_setzero_si512 ()));
  _mm_sfence ();
}

/* Two blocks' codes on the fast path, to dst (unpacked 64 bytes, fp4-lo-first 32, fp6-3byte
 * 48), or when w is given to the non-temporal writer, which ignores dst: a0 a1 and b0 b1 their inputs, xa and xb their exponent
 * offsets (as for lanes_magic); mm: the saturation bound in every byte, block a's in the low
 * 256 bits and b's in the high (the format's largest magnitude; 0 zeroes a block's codes but
 * their signs); vbmi: the avx512vbmi path's narrowing; masked (fixed at compile
 * time, so that the sixteen-block loop has no op for it): only the bytes of keep are kept, the
 * others zeroed (a NaN/Inf block's); sgn: k->sgnshift != 0 (a constant in the sixteen-block
 * loop's copies).  The magnitude codes are saturated and signed 64 bytes at a time, after the
 * narrowing.
 *   avx512vbmi: two byte permutes, each taking one block's 32 code bytes (in both halves), and a
 * blend; the signs come from the inputs themselves, byte 3 of each FP32 (its sign in bit 7), by
 * two more byte permutes (other indices) and a blend, and go into the saturated codes by one
 * ternary-logic op (the FP6 and FP4 formats' sign bit lower: one shift first; INT8: a negation
 * under their mask).  Until the third session of 2026-11-28 the sixteen-block loop clamped t
 * to the largest value and moved the sign into each dword code by a shift and a ternary op,
 * and the four-block loop took the signs as compare masks: on AMD EPYC family 26 model 2, in
 * cache, aligned, E4M3 2.29 -> 2.12 ns per block (the FP6 and FP4 formats alike; E5M2 2.44 ->
 * 2.35, INT8 2.11 -> 1.88).
 *   avx512: the dword codes narrowed by two packs, whose in-lane order one dword permute
 * restores; the signs from compare masks.  Narrowing each vector by itself (vpmovdb) and
 * saturating and signing 16 bytes at a time took a sixth more time in cache. */
static inline __attribute__ ((always_inline)) void
pair_fast (uint8_t *dst, __m512i a0, __m512i a1, __m512i b0, __m512i b1, __m512i xa, __m512i xb, __m512i mm,
           const uint16_t *rbits, size_t blk, const magk *k, qmode mode, int vbmi, int masked, __mmask64 keep,
           nt_out *w, mx_packing packing, int sgn)
{
  __m512i r0, r1, r2, r3;
  load_rbits (&r0, &r1, rbits, blk, mode.rnd);
  load_rbits (&r2, &r3, rbits, blk + 1, mode.rnd);
  const __m512i z = _mm512_setzero_si512 ();
  __m512i y;
  if (vbmi)
    {
      y = _mm512_mask_blend_epi64 (0xF0, permt2b (lanes_code (a0, xa, r0, k, mode, 1), k->nidx, lanes_code (a1, xa, r1, k, mode, 1)),
                                   permt2b (lanes_code (b0, xb, r2, k, mode, 1), k->nidx, lanes_code (b1, xb, r3, k, mode, 1)));
      y = _mm512_min_epu8 (y, mm); /* saturated */
      __m512i s = _mm512_mask_blend_epi64 (0xF0, permt2b (a0, k->sidx, a1), permt2b (b0, k->sidx, b1));
      if (mode.is_int)
        y = _mm512_mask_sub_epi8 (y, _mm512_movepi8_mask (s), z, y);
      else
        {
          if (sgn)
            s = _mm512_srli_epi16 (s, (unsigned) k->sgnshift); /* bit 7 to the sign bit; codes < it */
          y = _mm512_ternarylogic_epi32 (y, s, k->signbit, 0xD8); /* signbit's bit from s, the rest y's */
        }
    }
  else
    {
      y = _mm512_packus_epi16 (
        _mm512_packus_epi32 (lanes_code (a0, xa, r0, k, mode, 0), lanes_code (a1, xa, r1, k, mode, 0)),
        _mm512_packus_epi32 (lanes_code (b0, xb, r2, k, mode, 0), lanes_code (b1, xb, r3, k, mode, 0)));
      /* 128-bit lane L held dwords a0[L], a1[L], b0[L], b1[L] (4 codes each) */
      const __m512i ord = _mm512_setr_epi32 (0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
      y = _mm512_min_epu8 (_mm512_permutexvar_epi32 (ord, y), mm);
      __mmask16 ka0 = _mm512_cmplt_epi32_mask (a0, z), ka1 = _mm512_cmplt_epi32_mask (a1, z);
      __mmask16 kb0 = _mm512_cmplt_epi32_mask (b0, z), kb1 = _mm512_cmplt_epi32_mask (b1, z);
      __mmask64 s = _mm512_kunpackd (_mm512_kunpackw (kb1, kb0), _mm512_kunpackw (ka1, ka0));
      y = mode.is_int ? _mm512_mask_sub_epi8 (y, s, z, y) : _mm512_mask_add_epi8 (y, s, y, k->signbit); /* = or */
    }
  if (masked)
    y = _mm512_maskz_mov_epi8 (keep, y);
  if (w) /* the four-block loop's non-temporal stores */
    nt_out_put (w, y, 1);
  else if (packing == MX_PACKING_FP4_LO_FIRST) /* byte i: code 2i | code 2i+1 << 4 (codes < 16) */
    _mm256_storeu_si256 ((void *) dst,
                         _mm512_cvtepi16_epi8 (_mm512_maddubs_epi16 (y, _mm512_set1_epi16 (0x1001))));
  else if (packing == MX_PACKING_FP6_3BYTE)
    {
      /* dword i: codes 4i .. 4i+3 (< 64), 6 bits each from bit 0 up (byte pairs by 1 and 64, word
       * pairs by 1 and 4096), then the three low bytes of each, 48 in all, stored as 32 and 16
       * (one store under a byte mask: E2M3 at 256 MiB 0.86-0.91 of the stream, 0.95-0.99 so) */
      __m512i d = _mm512_madd_epi16 (_mm512_maddubs_epi16 (y, _mm512_set1_epi16 (0x4001)),
                                     _mm512_set1_epi32 (0x10000001));
      if (vbmi)
        d = permb (k->p6idx, d);
      else
        {
          /* in each 128-bit lane the 12 bytes first, then the lanes' 3 dwords together */
          const __m512i drop = _mm512_broadcast_i32x4 (_mm_setr_epi8 (0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1));
          d = _mm512_permutexvar_epi32 (_mm512_setr_epi32 (0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, 3, 7, 11, 15),
                                        _mm512_shuffle_epi8 (d, drop));
        }
      _mm256_storeu_si256 ((void *) dst, _mm512_castsi512_si256 (d));
      _mm_storeu_si128 ((void *) (dst + 32), _mm512_extracti32x4_epi32 (d, 2));
    }
  else
    _mm512_storeu_si512 ((void *) dst, y);
}

/* The scale step of up to 16 blocks at once, from mx (a block's largest magnitude bits in each
 * of its lanes): xs, the exponent offsets (INT8: less 6 << 23), sc, the scale bytes in dwords,
 * off, the lanes off the fast path that are not NaN or Inf, and nan, the NaN/Inf lanes.  nzp
 * NULL: an all-zero block's x is 0 here; else *nzp = the lanes not all-zero, and the caller
 * zeroes such a block's codes (group4), its x left as the formula makes it. */
static inline __attribute__ ((always_inline)) void
scale_lanes (__m512i mx, mx_scale_rule rule, const magk *k, qmode mode, __m512i *xl, __m512i *sc, __mmask16 *off,
             __mmask16 *nan, __mmask16 *nzp)
{
  /* an all-zero block (amax 0: +0 and -0 only) stays on the fast path: its scale byte 0 (X =
   * -127, as block_any gives it), its codes 0, a -0's signed as any negative lane is.  With nzp
   * NULL its x is 0, where every zero's t is the clamp and rounds to code 0 (rup and rdn leave
   * zeros alone).  With nzp (group4) x is the formula's, which is harmless: floor's t is exactly
   * 2^emax (INT8 2^(emax+6)), an exact add and a code of at most 128, rceil's a small normal; the
   * caller's saturation bound 0 then makes the codes 0.  Off the path, by block_any, such a block
   * cost 44 ns against 6.9 (Intel Xeon EMR, E4M3, in cache), and one in 16 doubled the time of
   * every block.  Zeroing x by a masked move after the ops that make it lengthened the four-block
   * loop's chain from the maxima to the codes, and quantize at 256 MiB lost 5-8% (AMD EPYC family
   * 26 model 2, 2026-12-06); hence the four-block loop's own route (nzp; group4, 2026-12-07). */
  __mmask16 nz = _mm512_test_epi32_mask (mx, mx);
  __m512i xs;
  if (rule == MX_SCALE_RCEIL_FP32)
    {
      /* cvt.rp.ue8m0(fl32(amax * fl32(1/max))): the product is normal on the fast path; a
       * block off it (FP32 subnormals, tiny) is scaled by magic_block, and its amax (a zero
       * block's too) is raised to the fast path's least here, so that the multiply never sees
       * nor makes an FP32 subnormal */
      __m512i p = _mm512_castps_si512 (_mm512_mul_ps (_mm512_castsi512_ps (_mm512_max_epu32 (mx, k->fastlo)), k->rcp));
      xs = _mm512_sub_epi32 (_mm512_and_si512 (p, k->expm), k->xoff);
      xs = _mm512_mask_add_epi32 (xs, _mm512_test_epi32_mask (p, _mm512_set1_epi32 (0x7FFFFF)), xs,
                                  _mm512_set1_epi32 (1 << 23));
    }
  else
    xs = _mm512_sub_epi32 (_mm512_and_si512 (mx, k->expm), k->xoff);
  /* the sixteen-block scan stores x for the next group's codes, so a move of its own costs it
   * no time there */
  if (nzp)
    *nzp = nz;
  else
    xs = _mm512_maskz_mov_epi32 (nz, xs);
  /* the blocks off the fast path; of those, the blocks holding a NaN or an Inf are done by the
   * caller without a branch (the NaN scale, codes 0): a branch on them, taken at random, cost
   * a sixth of the time on data with one such block in 16 (AMD EPYC family 26 model 2,
   * 2026-11-27) */
  __mmask16 o = _mm512_cmpge_epu32_mask (_mm512_sub_epi32 (mx, k->fastlo),
                                         _mm512_sub_epi32 (_mm512_set1_epi32 ((int) MXK_FAST_HI), k->fastlo));
  *nan = _mm512_cmpge_epu32_mask (mx, k->expm);
  *off = o & nz & (__mmask16) ~*nan;
  *sc = _mm512_mask_mov_epi32 (_mm512_maskz_srli_epi32 (nz, _mm512_add_epi32 (xs, _mm512_set1_epi32 (127 << 23)), 23),
                               *nan, _mm512_set1_epi32 (0xFF));
  *xl = _mm512_sub_epi32 (xs, _mm512_set1_epi32 (mode.is_int ? 6 << 23 : 0));
}

/* The packings whose codes the pair route writes (pair_fast's stores): unpacked, and
 * fp4-lo-first and fp6-3byte from the unpacked bytes. */
static inline int
pair_route (mx_packing packing)
{
  return packing == MX_PACKING_UNPACKED || packing == MX_PACKING_FP4_LO_FIRST || packing == MX_PACKING_FP6_3BYTE;
}

/* The blocks from blk to nb (fewer than a group), each by itself. */
static inline __attribute__ ((always_inline)) void
tail_blocks (uint8_t *scales, uint8_t *codes, const void *in, mx_format_id in_fmt, size_t blk, size_t nb,
             const mxk_fmt *f, mx_scale_rule rule, const uint16_t *rbits, mx_packing packing, magk k, qmode mode)
{
  size_t pb = mxk__packed_block_bytes (packing);
  uint8_t c[MX_BLOCK];
  for (; blk < nb; blk++)
    {
      magic_block (scales, packing == MX_PACKING_UNPACKED ? codes + blk * MX_BLOCK : c, in, in_fmt, blk, f, rule,
                   rbits, k, mode);
      if (packing != MX_PACKING_UNPACKED)
        mxk__pack_block (codes + blk * pb, c, packing);
    }
}

/* Four blocks from blk, each block loaded once: its two vectors stay in registers from the
 * maximum to the codes.  One maximum tree serves the four: after two cross-block 128-bit
 * shuffles and two in-lane ones, 128-bit lane j holds block j's maximum in every dword, and the
 * four scale exponents (either rule), range checks and scale bytes come from one vector.
 * Until 2026-11-25 the loop was software-pipelined: the next group's maximum tree before the
 * current group's lanes, which loaded their inputs a second time.  On the AMD EPYC (Zen 4) bench
 * host that made quantize from DRAM slower than AVX2 (medians: INT8 1.22-1.49x, E4M3
 * 1.13-1.18x), while in cache the two were level; loading once, in program order, is as fast as
 * AVX2 from DRAM and as fast as the pipelined loop in cache (docs/kernels.md, "Dispatch regret"). */
static inline __attribute__ ((always_inline)) void
group4 (uint8_t *scales, uint8_t *codes, const void *in, mx_format_id in_fmt, size_t blk,
        const mxk_fmt *f, mx_scale_rule rule, const uint16_t *rbits, mx_packing packing, const magk *k,
        qmode mode, int vbmi, nt_out *w)
{
  size_t pb = mxk__packed_block_bytes (packing);
  const __m512i pick = _mm512_setr_epi32 (0, 4, 8, 12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
  uint8_t c[MX_BLOCK];
  __m512i b[4][2], m[4];
#pragma GCC unroll 4
  for (int j = 0; j < 4; j++)
    {
      load_block (&b[j][0], &b[j][1], in, in_fmt, blk + (size_t) j, 1);
      m[j] = _mm512_max_epu32 (_mm512_and_si512 (b[j][0], k->absm), _mm512_and_si512 (b[j][1], k->absm));
    }
  __m512i ab = _mm512_max_epu32 (_mm512_shuffle_i64x2 (m[0], m[1], 0x44), _mm512_shuffle_i64x2 (m[0], m[1], 0xEE));
  __m512i cd = _mm512_max_epu32 (_mm512_shuffle_i64x2 (m[2], m[3], 0x44), _mm512_shuffle_i64x2 (m[2], m[3], 0xEE));
  __m512i mx = _mm512_max_epu32 (_mm512_shuffle_i64x2 (ab, cd, 0x88), _mm512_shuffle_i64x2 (ab, cd, 0xDD));
  mx = _mm512_max_epu32 (mx, _mm512_shuffle_epi32 (mx, 0x4E));
  mx = _mm512_max_epu32 (mx, _mm512_shuffle_epi32 (mx, 0xB1));
  __m512i xl, sc;
  __mmask16 off, nan, nz;
  /* bit 4j: block j (the dwords of 128-bit lane j agree); an all-zero block's x not zeroed */
  scale_lanes (mx, rule, k, mode, &xl, &sc, &off, &nan, &nz);
  uint32_t s4 = (uint32_t) _mm_cvtsi128_si32 (_mm512_cvtepi32_epi8 (_mm512_permutexvar_epi32 (pick, sc)));
  memcpy (scales + blk, &s4, 4);
  if (pair_route (packing) && !off)
    {
      /* the four blocks on the fast path, two at a time (unpacked; or packed from the unpacked
       * bytes, fp4-lo-first by one multiply-add of byte pairs, fp6-3byte by two and a byte
       * permute: until 2026-11-28 16 codes at a time, on AMD EPYC family 26 model 2 E2M1 in
       * cache 0.24 of the stream, then 0.35 (by the sixteen-block loop, 0.51), and at 256 MiB
       * 0.78-0.82, then 0.99-1.00; E2M3 fp6-3byte in cache 0.22, now 0.49 by the sixteen-block
       * loop, at 256 MiB 0.73, now 0.95-0.99 by this one).  A NaN/Inf block's codes are
       * zeroed by a byte mask made from its bit in nan by scalar ops (a vector mask made from
       * the maximum tree lengthened the loop's critical path: 8% more time in cache on uniform
       * data, 17% for INT8; zeroing them after, by a branch taken at random, cost quantize from
       * DRAM about a tenth on data with a NaN or an Inf in one block of 16) */
      uint64_t z = (uint64_t) (nan & 1) * 0xFFFFFFFFu | (uint64_t) (nan >> 4 & 1) * 0xFFFFFFFF00000000u;
      /* an all-zero block's codes saturate at 0 (128-bit lane j of mm: block j's bound), and a
       * -0 then gets its sign as any negative lane does.  mm is made beside the chain from the
       * maxima to the codes, where the mask on x was (AMD EPYC family 26 model 2, E4M3 at 256
       * MiB, against the code before zero blocks took the fast path: 1.03 of its time with the
       * mask on x, 1.01 so; E5M2 0.98 of the mask's time, INT8 level) */
      __m512i mm = _mm512_maskz_mov_epi32 (nz, k->maxmag);
      pair_fast (codes + blk * pb, b[0][0], b[0][1], b[1][0], b[1][1], _mm512_shuffle_i32x4 (xl, xl, 0x00),
                 _mm512_shuffle_i32x4 (xl, xl, 0x55), _mm512_shuffle_i32x4 (mm, mm, 0x50), rbits, blk, k, mode,
                 vbmi, 1, (__mmask64) ~z, w, packing, k->sgnshift != 0);
      z = (uint64_t) (nan >> 8 & 1) * 0xFFFFFFFFu | (uint64_t) (nan >> 12 & 1) * 0xFFFFFFFF00000000u;
      pair_fast (codes + (blk + 2) * pb, b[2][0], b[2][1], b[3][0], b[3][1],
                 _mm512_shuffle_i32x4 (xl, xl, 0xAA), _mm512_shuffle_i32x4 (xl, xl, 0xFF),
                 _mm512_shuffle_i32x4 (mm, mm, 0xFA), rbits, blk + 2, k, mode, vbmi, 1, (__mmask64) ~z, w, packing,
                 k->sgnshift != 0);
      return;
    }
  xl = _mm512_maskz_mov_epi32 (nz, xl); /* one at a time: an all-zero block's xl 0, t the clamp */
  /* unpacked codes to cb: the output, or for the non-temporal writer (w) the four blocks'
   * 128 bytes here first (reloaded as two vectors: a store-forwarding stall, on a rare path) */
  uint8_t c4[4 * MX_BLOCK];
  uint8_t *cb = w ? c4 : codes + blk * MX_BLOCK;
#pragma GCC unroll 4
  for (int j = 0; j < 4; j++)
    {
      size_t bj = blk + (size_t) j;
      if (off >> (4 * j) & 1)
        continue;
      __m512i r0, r1;
      load_rbits (&r0, &r1, rbits, bj, mode.rnd);
      __m512i xj = _mm512_permutexvar_epi32 (_mm512_set1_epi32 (4 * j), xl);
      __mmask16 keep = (__mmask16) (((nan >> (4 * j)) & 1) - 1); /* 0 for a NaN/Inf block */
      __m128i q0 = _mm_maskz_mov_epi8 (keep, lanes_magic (b[j][0], xj, r0, k, mode));
      __m128i q1 = _mm_maskz_mov_epi8 (keep, lanes_magic (b[j][1], xj, r1, k, mode));
      if (packing != MX_PACKING_UNPACKED)
        mxk__pack_v (codes + bj * pb, q0, q1, packing);
      else
        {
          _mm_storeu_si128 ((void *) (cb + j * MX_BLOCK), q0);
          _mm_storeu_si128 ((void *) (cb + j * MX_BLOCK + 16), q1);
        }
    }
  /* the blocks off the fast path (rare) again from memory, each by itself: a call inside
   * the loop above would make GCC keep fewer of its vectors in registers */
  for (int j = 0; off & 0x1111; j++, off >>= 4)
    if (off & 1)
      {
        size_t bj = blk + (size_t) j;
        magic_block (scales, packing == MX_PACKING_UNPACKED ? cb + j * MX_BLOCK : c, in, in_fmt, bj, f, rule,
                     rbits, *k, mode);
        if (packing != MX_PACKING_UNPACKED)
          mxk__pack_block (codes + bj * pb, c, packing);
      }
  if (w)
    {
      nt_out_put (w, _mm512_loadu_si512 ((const void *) c4), 1);
      nt_out_put (w, _mm512_loadu_si512 ((const void *) (c4 + 64)), 1);
    }
}

/* The AVX-512 paths' quantize, on the pair route (pair_route): sixteen blocks at a time (each
 * path with its own narrowing, pair_fast's; the avx512 path's since 2026-12-07, before which it
 * took four at a time, and quantize in cache took 1.3-1.5 times as long on AMD EPYC family 26
 * model 2, one process alternating both: E4M3 1 MiB 0.25-0.36 of the stream, then 0.37-0.50).
 * g16_scan finds the sixteen maxima with one transposing tree (24 in-lane shuffles, 6 cross-lane
 * ones and 15 maxima for the sixteen, where group4 spends 2, 6 and 7 on four), so that one scale
 * step serves them.  Its first two levels stay within 128-bit lanes, whose shuffles take any of
 * the four pipes of AMD EPYC family 26 model 2 where a cross-lane one takes one of two
 * (bench-ports): until 2026-12-07 the cross-lane levels came first and a permute ordered the
 * maxima, 25 cross-lane shuffles and 6 in-lane, and quantize in cache took 1-4% more time (one
 * process alternating both).  g16_codes loads the blocks again (from L1: 32 vectors would not stay
 * in registers) for their codes.  The loop scans the next group before it codes this one, so that
 * the tree's chain of shuffles and the scale step do not hold up the codes (AMD EPYC family 26
 * model 2, in cache: E4M3 2.35 -> 2.1-2.2 ns per block).  The scan and the codes still take about
 * the sum of their times, 1.2 and 1.8 ns apart (docs/kernels.md, "Quantize sixteen blocks at a
 * time"). */
typedef struct
{
  int32_t xv[16]; /* the exponent offsets of lanes_code, one per block */
  __m128i sc;     /* the scale bytes */
  __mmask16 off, nan;
} g16;

/* lines: FP32 inputs read by aligned lines, hi the lanes of a line from the input's first on */
static inline __attribute__ ((always_inline)) void
g16_scan (g16 *g, const void *in, mx_format_id in_fmt, size_t blk, mx_scale_rule rule, const magk *k, qmode mode,
          __mmask16 hi, int lines)
{
  __m512i m[16];
  if (lines)
    {
      /* FP32 inputs a whole number of lanes past a line (hi: the lanes from there on): the
       * group's 33 aligned lines, the first and last under masks (their other lanes are not the
       * group's, and may lie outside the input), so that no load spans two lines; block j's 32
       * inputs are lanes hi of line 2j, all of line 2j + 1 and lanes ~hi of line 2j + 2, one
       * blend more per block.  The 32 loads of the blocks, each across two lines, cost quantize
       * in cache 7-9% of its time (AMD EPYC family 26 model 2, E4M3 with the inputs 16 bytes
       * past a line, 2026-12-07; the codes' loads of the same blocks, from L1, cost nothing
       * measurable so).  On aligned inputs the blend is a cost only: the loop below. */
      const uint32_t *p = (const uint32_t *) ((uintptr_t) ((const uint32_t *) in + blk * MX_BLOCK) & ~(uintptr_t) 63);
      __m512i e = _mm512_and_si512 (_mm512_maskz_load_epi32 (hi, p), k->absm);
#pragma GCC unroll 16
      for (int j = 0; j < 16; j++)
        {
          const uint32_t *q = p + 32 * j;
          _mm_prefetch ((const char *) (q + MXK_PREFETCH), _MM_HINT_T0);
          _mm_prefetch ((const char *) (q + MXK_PREFETCH + 16), _MM_HINT_T0);
          __m512i o = _mm512_and_si512 (_mm512_load_si512 ((const void *) (q + 16)), k->absm);
          __m512i e2 = _mm512_and_si512 (j == 15 ? _mm512_maskz_load_epi32 ((__mmask16) ~hi, q + 32)
                                                 : _mm512_load_si512 ((const void *) (q + 32)), k->absm);
          m[j] = _mm512_max_epu32 (o, _mm512_mask_blend_epi32 (hi, e2, e));
          e = e2;
        }
    }
  else
#pragma GCC unroll 16
  for (int j = 0; j < 16; j++)
    {
      __m512i b0, b1;
      load_block (&b0, &b1, in, in_fmt, blk + (size_t) j, 1);
      m[j] = _mm512_max_epu32 (_mm512_and_si512 (b0, k->absm), _mm512_and_si512 (b1, k->absm));
    }
  /* 16 vectors of 16 lanes to one of 16 maxima: each level halves the lanes a block spans and
   * doubles the blocks a vector holds, the first two within 128-bit lanes */
  __m512i r[8], s[4], u[2];
#pragma GCC unroll 8
  for (int p = 0; p < 8; p++) /* r[p], each 128-bit lane: dwords 0-1 block 2p, 2-3 block 2p + 1 */
    r[p] = _mm512_max_epu32 (_mm512_unpacklo_epi64 (m[2 * p], m[2 * p + 1]),
                             _mm512_unpackhi_epi64 (m[2 * p], m[2 * p + 1]));
#define MXK_SHUF(a, b, imm) _mm512_castps_si512 (_mm512_shuffle_ps (_mm512_castsi512_ps (a), _mm512_castsi512_ps (b), imm))
#pragma GCC unroll 4
  for (int q = 0; q < 4; q++) /* s[q], each 128-bit lane: dword i block 4q + i */
    s[q] = _mm512_max_epu32 (MXK_SHUF (r[2 * q], r[2 * q + 1], 0x88), MXK_SHUF (r[2 * q], r[2 * q + 1], 0xDD));
#undef MXK_SHUF
#pragma GCC unroll 2
  for (int h = 0; h < 2; h++) /* u[h], 128-bit lanes: s[2h]'s 0|2 and 1|3, s[2h + 1]'s 0|2 and 1|3 */
    u[h] = _mm512_max_epu32 (_mm512_shuffle_i64x2 (s[2 * h], s[2 * h + 1], 0x44),
                             _mm512_shuffle_i64x2 (s[2 * h], s[2 * h + 1], 0xEE));
  /* 128-bit lane L: s[L] whole, so dword j is block j */
  __m512i mx = _mm512_max_epu32 (_mm512_shuffle_i64x2 (u[0], u[1], 0x88), _mm512_shuffle_i64x2 (u[0], u[1], 0xDD));
  __m512i xl, sc;
  scale_lanes (mx, rule, k, mode, &xl, &sc, &g->off, &g->nan, NULL);
  g->sc = _mm512_cvtepi32_epi8 (sc);
  _mm512_storeu_si512 ((void *) g->xv, xl);
}

/* g16_codes' loop over its eight pairs of blocks (pb: a block's bytes of codes under packing;
 * sgn: k->sgnshift != 0, as pair_fast takes it) */
static inline __attribute__ ((always_inline)) void
g16_pairs (uint8_t *codes, size_t pb, const void *in, mx_format_id in_fmt, size_t blk, const g16 *g,
           const uint16_t *rbits, const magk *k, qmode mode, mx_packing packing, int sgn, int vbmi)
{
#pragma GCC unroll 1
  for (int j = 0; j < 16; j += 2)
    {
      __m512i a0, a1, b0, b1;
      load_block (&a0, &a1, in, in_fmt, blk + (size_t) j, 0);
      load_block (&b0, &b1, in, in_fmt, blk + (size_t) j + 1, 0);
      /* each input loaded once, into a register (the barrier keeps GCC from folding the loads
       * into the codes' first op and loading again for the signs' permutes): with the inputs 16
       * bytes past a line each load spans two, and the double loads cost (AMD EPYC family 26
       * model 2, E4M3 1 MiB: 2.67 -> 2.35 ns per block at +16 bytes, 2.02 -> 2.11 aligned) */
      __asm__ ("" : "+v"(a0), "+v"(a1), "+v"(b0), "+v"(b1));
      pair_fast (codes + (blk + (size_t) j) * pb, a0, a1, b0, b1,
                 _mm512_set1_epi32 (g->xv[j]), _mm512_set1_epi32 (g->xv[j + 1]), k->maxmag, rbits,
                 blk + (size_t) j, k, mode, vbmi, 0, 0, NULL, packing, sgn);
    }
}

/* A scanned group on the fast path (NaN and Inf blocks included): its scales and codes,
 * unpacked or packed (pair_fast). */
static inline __attribute__ ((always_inline)) void
g16_codes (uint8_t *scales, uint8_t *codes, const void *in, mx_format_id in_fmt, size_t blk,
           const g16 *g, const uint16_t *rbits, const magk *k, qmode mode, mx_packing packing, int vbmi)
{
  size_t pb = mxk__packed_block_bytes (packing);
  _mm_storeu_si128 ((void *) (scales + blk), g->sc);
  /* the loop's constants taken into registers here: GCC keeps k in memory, and each use in the
   * loop loaded it again (in cache: 2.5 ns per block, 2.35 with them held) */
  magk kl = *k;
  __asm__ ("" : "+v"(kl.tm0), "+v"(kl.tm1), "+v"(kl.tlo), "+v"(kl.absm), "+v"(kl.nidx), "+v"(kl.sidx),
               "+v"(kl.maxmag), "+v"(kl.signbit), "+v"(kl.eminf));
  /* unswitched, so that whether the codes are packed and whether the sign shifts are constants
   * in each loop (as run-time tests, three compares and branches per pair: AMD EPYC family 26
   * model 2, E4M3 in cache, 4-5% of the time, one process alternating both); a packing implies
   * FP4 or FP6, whose signs take the shift */
  if (packing != MX_PACKING_UNPACKED)
    g16_pairs (codes, pb, in, in_fmt, blk, g, rbits, &kl, mode, packing, 1, vbmi);
  else if (kl.sgnshift != 0 && vbmi) /* (the packs' narrowing signs by masks, no shift) */
    g16_pairs (codes, MX_BLOCK, in, in_fmt, blk, g, rbits, &kl, mode, MX_PACKING_UNPACKED, 1, vbmi);
  else /* FP8, INT8 */
    g16_pairs (codes, MX_BLOCK, in, in_fmt, blk, g, rbits, &kl, mode, MX_PACKING_UNPACKED, 0, vbmi);
  /* a NaN/Inf block's codes zeroed after, one masked store per such block (pb bytes): the byte
   * mask of the four-block loop cost 5% on every group (AMD EPYC family 26 model 2, E4M3 1 MiB:
   * 0.51 -> 0.49 of the stream on uniform data).  Until 2026-12-07 a memset call, the loop
   * running to nan's highest bit: on data with such a block in one of 16, 1-4% more time in
   * cache (same CPU, one process alternating both).  Tried and not kept: the pair's sign op
   * zero-masked from nan's bits (uniform data 2-9% slower, by its mask's moves), and two
   * stores every group under masks 0 or pb's (2-4% slower on such data) */
  __mmask32 kb = (__mmask32) (0xFFFFFFFFu >> (32 - pb));
  for (unsigned nan = g->nan; nan; nan &= nan - 1)
    _mm256_mask_storeu_epi8 (codes + (blk + (size_t) __builtin_ctz (nan)) * pb, kb, _mm256_setzero_si256 ());
}

/* Inlined into its callers when optimizing (its rounding, flags and input format are then
 * constants); at -O0 a call, since an -O0 frame keeps every inlined copy's locals apart, and
 * the 36 copies of this loop with their inlined helpers made quantize_any_g16's frame larger
 * than an 8 MiB stack in the ASan build. */
#ifdef __OPTIMIZE__
#define MXK_INLINE_OPT inline __attribute__ ((always_inline))
#else
#define MXK_INLINE_OPT
#endif
/* The whole groups of sixteen from block 0; returns the blocks done. */
static inline __attribute__ ((always_inline)) size_t
g16_loop (uint8_t *scales, uint8_t *codes, const void *in, mx_format_id in_fmt, size_t nb, const mxk_fmt *f,
          mx_scale_rule rule, const uint16_t *rbits, mx_packing packing, const magk *k, qmode mode, int vbmi,
          __mmask16 hi, int lines)
{
  g16 gs[2];
  size_t blk = 0;
  g16_scan (&gs[0], in, in_fmt, 0, rule, k, mode, hi, lines);
  for (int i = 0; blk + 16 <= nb; blk += 16, i ^= 1)
    {
      if (blk + 32 <= nb)
        g16_scan (&gs[i ^ 1], in, in_fmt, blk + 16, rule, k, mode, hi, lines);
      if (!gs[i].off)
        g16_codes (scales, codes, in, in_fmt, blk, &gs[i], rbits, k, mode, packing, vbmi);
      else
        for (int j = 0; j < 16; j += 4)
          group4 (scales, codes, in, in_fmt, blk + (size_t) j, f, rule, rbits, packing, k, mode, vbmi, NULL);
    }
  return blk;
}

static MXK_INLINE_OPT void
quantize_loop (uint8_t *scales, uint8_t *codes, const void *in, mx_format_id in_fmt, size_t nb,
               const mxk_fmt *f, mx_scale_rule rule, const uint16_t *rbits, mx_packing packing,
               const magk *kp, qmode mode, int vbmi)
{
  magk k = *kp;
  size_t blk = 0;
  if (nb >= 16)
    {
      /* g16_scan's lanes of the first line, and whether it reads by lines (a copy of the loop
       * each: as a test per group, inputs on their lines took 3-5% more time in cache) */
      __mmask16 hi = (__mmask16) ((uintptr_t) in % 4 ? 0xFFFFu : 0xFFFFu << ((uintptr_t) in % 64 / 4));
      if (in_fmt == MX_FP32 && hi != 0xFFFF)
        blk = g16_loop (scales, codes, in, in_fmt, nb, f, rule, rbits, packing, &k, mode, vbmi, hi, 1);
      else
        blk = g16_loop (scales, codes, in, in_fmt, nb, f, rule, rbits, packing, &k, mode, vbmi, 0xFFFF, 0);
    }
  for (; blk + 4 <= nb; blk += 4)
    group4 (scales, codes, in, in_fmt, blk, f, rule, rbits, packing, &k, mode, vbmi, NULL);
  tail_blocks (scales, codes, in, in_fmt, blk, nb, f, rule, rbits, packing, k, mode);
}

static inline __attribute__ ((always_inline)) void
quantize_fast (uint8_t *scales, uint8_t *codes, const void *in, mx_format_id in_fmt, size_t nb,
               const mxk_fmt *f, mx_scale_rule rule, mx_rounding rnd, const uint16_t *rbits,
               mx_packing packing, int is_int, int vbmi, int nt)
{
  /* four blocks at a time: inputs from mxk__q16_big's limit on, and calls of fewer than
   * sixteen blocks.  nt (unpacked, the codes offset in their line by a multiple of 4, or of 1
   * on avx512vbmi): the codes of the whole groups by non-temporal stores, the tail's after them
   * by plain ones */
  magk k = magic_consts (f, rule, rnd);
  const qmode mode = { rnd, is_int, magic_nomax (f, rnd == MX_SR) };
  size_t blk = 0;
  nt_out w = nt_out_start (codes, vbmi ? 1 : 4, nt);
  for (; blk + 4 <= nb; blk += 4)
    group4 (scales, codes, in, in_fmt, blk, f, rule, rbits, packing, &k, mode, vbmi, nt ? &w : NULL);
  nt_out_end (&w, nt);
  tail_blocks (scales, codes, in, in_fmt, blk, nb, f, rule, rbits, packing, k, mode);
}

/* The sixteen-block loop (the pair route's packings, inputs below mxk__q16_big's limit), with the input format and nomax fixed at compile time in each copy: as run-time
 * tests they were two branches per block and per 16 lanes.  Apart from quantize_fast, so that -O0 builds, which keep every
 * inlined copy's locals, do not put both loops' copies in one stack frame (with them, the ASan
 * build's quantize_any outgrew an 8 MiB stack). */
static inline __attribute__ ((always_inline)) void
quantize_fast16 (uint8_t *scales, uint8_t *codes, const void *in, mx_format_id in_fmt, size_t nb,
                 const mxk_fmt *f, mx_scale_rule rule, mx_rounding rnd, const uint16_t *rbits,
                 mx_packing packing, int is_int, int vbmi)
{
  magk k = magic_consts (f, rule, rnd);
  int nomax = magic_nomax (f, rnd == MX_SR);
  if (in_fmt == MX_BF16)
    quantize_loop (scales, codes, in, MX_BF16, nb, f, rule, rbits, packing, &k, (qmode) { rnd, is_int, nomax }, vbmi);
  else if (nomax && !is_int) /* (INT8 has no table: one copy) */
    quantize_loop (scales, codes, in, MX_FP32, nb, f, rule, rbits, packing, &k, (qmode) { rnd, is_int, 1 }, vbmi);
  else
    quantize_loop (scales, codes, in, MX_FP32, nb, f, rule, rbits, packing, &k, (qmode) { rnd, is_int, 0 }, vbmi);
}

/* quantize_fast16 with its narrowing fixed, as MXK_QUANTIZE_FAST_AS below */
#define MXK_QUANTIZE_FAST16_AS(name, vbmi)                                                                 \
  static inline __attribute__ ((always_inline)) void                                                       \
  name (uint8_t *scales, uint8_t *codes, const void *in, mx_format_id in_fmt, size_t nb, const mxk_fmt *f, \
        mx_scale_rule rule, mx_rounding rnd, const uint16_t *rbits, mx_packing packing, int is_int)        \
  {                                                                                                        \
    quantize_fast16 (scales, codes, in, in_fmt, nb, f, rule, rnd, rbits, packing, is_int, vbmi);          \
  }
MXK_QUANTIZE_FAST16_AS (quantize_fast16_packs, 0)
MXK_QUANTIZE_FAST16_AS (quantize_fast16_vbmi, 1)

/* quantize_fast with its narrowing fixed, under the signature MXK__QUANTIZE_BY_ROUNDING calls */
#define MXK_QUANTIZE_FAST_AS(name, vbmi, nt)                                                        \
  static inline __attribute__ ((always_inline)) void                                               \
  name (uint8_t *scales, uint8_t *codes, const void *in, mx_format_id in_fmt, size_t nb,           \
        const mxk_fmt *f, mx_scale_rule rule, mx_rounding rnd, const uint16_t *rbits,              \
        mx_packing packing, int is_int)                                                            \
  {                                                                                                \
    quantize_fast (scales, codes, in, in_fmt, nb, f, rule, rnd, rbits, packing, is_int, vbmi, nt); \
  }
MXK_QUANTIZE_FAST_AS (quantize_fast_packs, 0, 0)
MXK_QUANTIZE_FAST_AS (quantize_fast_vbmi, 1, 0)
MXK_QUANTIZE_FAST_AS (quantize_fast_packs_nt, 0, 1)
MXK_QUANTIZE_FAST_AS (quantize_fast_vbmi_nt, 1, 1)

/* The sixteen-block loop (the pair route's packings, inputs below mxk__q16_big's limit), a
 * function of its own per narrowing: inlined beside the four-block loop, it made GCC keep that
 * loop's constants in memory, and quantize from DRAM lost a tenth (E5M2: 0.96 -> 0.87 of the
 * stream). */
static __attribute__ ((noinline)) void
quantize_any_g16 (uint8_t *scales, uint8_t *codes, const void *in, mx_format_id in_fmt, size_t nb,
                  const mxk_fmt *f, mx_scale_rule rule, mx_rounding rnd, const uint16_t *rbits,
                  mx_packing packing)
{
  MXK__QUANTIZE_BY_ROUNDING (quantize_fast16_vbmi, f, rnd, rbits, packing, scales, codes, in, in_fmt, nb, f, rule);
}

static __attribute__ ((noinline)) void
quantize_any_g16_packs (uint8_t *scales, uint8_t *codes, const void *in, mx_format_id in_fmt, size_t nb,
                        const mxk_fmt *f, mx_scale_rule rule, mx_rounding rnd, const uint16_t *rbits,
                        mx_packing packing)
{
  MXK__QUANTIZE_BY_ROUNDING (quantize_fast16_packs, f, rnd, rbits, packing, scales, codes, in, in_fmt, nb, f, rule);
}

/* One copy per rounding, so the rounding add is fixed at compile time, per narrowing (vbmi:
 * the avx512vbmi path's byte permutes, pair_fast) and per kind of store; whole: the size class
 * of the whole call (mxk__q_whole), of which this is all or a chunk (mxk_quantize_mt). */
static int
quantize_any (uint8_t *scales, uint8_t *codes, const void *in, mx_format_id in_fmt, size_t n,
              mx_format_id elem, mx_scale_rule rule, mx_rounding rnd, const uint16_t *rbits,
              mx_packing packing, int vbmi, int whole)
{
  if (mxk__check (in_fmt, n, elem, rule, rnd, rbits, packing))
    return MX_EINVAL;
  const mxk_fmt *f = mxk__fmt (elem);
  size_t nb = n / MX_BLOCK;
  /* the non-temporal writer's line permute: bytes on avx512vbmi, dwords on avx512 */
  int nt = whole == MXK_WHOLE_NT && packing == MX_PACKING_UNPACKED && (vbmi || (uintptr_t) codes % 4 == 0);
  if (vbmi && whole == MXK_WHOLE_SMALL && pair_route (packing) && nb >= 16)
    quantize_any_g16 (scales, codes, in, in_fmt, nb, f, rule, rnd, rbits, packing);
  else if (whole == MXK_WHOLE_SMALL && pair_route (packing) && nb >= 16)
    quantize_any_g16_packs (scales, codes, in, in_fmt, nb, f, rule, rnd, rbits, packing);
  else if (vbmi && nt)
    MXK__QUANTIZE_BY_ROUNDING (quantize_fast_vbmi_nt, f, rnd, rbits, packing,
                               scales, codes, in, in_fmt, nb, f, rule);
  else if (vbmi)
    MXK__QUANTIZE_BY_ROUNDING (quantize_fast_vbmi, f, rnd, rbits, packing,
                               scales, codes, in, in_fmt, nb, f, rule);
  else if (nt)
    MXK__QUANTIZE_BY_ROUNDING (quantize_fast_packs_nt, f, rnd, rbits, packing,
                               scales, codes, in, in_fmt, nb, f, rule);
  else
    MXK__QUANTIZE_BY_ROUNDING (quantize_fast_packs, f, rnd, rbits, packing,
                               scales, codes, in, in_fmt, nb, f, rule);
  return 0;
}

static int
quantize_avx512 (uint8_t *scales, uint8_t *codes, const void *in, mx_format_id in_fmt, size_t n,
                 mx_format_id elem, mx_scale_rule rule, mx_rounding rnd, const uint16_t *rbits,
                 mx_packing packing)
{
  return quantize_any (scales, codes, in, in_fmt, n, elem, rule, rnd, rbits, packing, 0,
                       mxk__q_whole (in_fmt, elem, n, packing));
}

/* The avx512vbmi path's quantize: the avx512 path's routes (below mxk__q16_big's limit the
 * sixteen-block loop), with two blocks' codes narrowed and signed by byte permutes and
 * fp6-3byte packed by one (pair_fast). */
static int
quantize_avx512vbmi (uint8_t *scales, uint8_t *codes, const void *in, mx_format_id in_fmt, size_t n,
                     mx_format_id elem, mx_scale_rule rule, mx_rounding rnd, const uint16_t *rbits,
                     mx_packing packing)
{
  return quantize_any (scales, codes, in, in_fmt, n, elem, rule, rnd, rbits, packing, 1,
                       mxk__q_whole (in_fmt, elem, n, packing));
}

/* The chunks of a large mxk_quantize_mt call: the loop and stores of a one-thread call of its
 * size.  Sixteen blocks at a time were slower there (AMD EPYC family 26 model 2, two threads,
 * 256 MiB: 0.84 of the all-core stream against 0.93). */
#define MXK_QUANTIZE_WHOLE_AS(name, vbmi, whole)                                                        \
  static int name (uint8_t *scales, uint8_t *codes, const void *in, mx_format_id in_fmt, size_t n,      \
                   mx_format_id elem, mx_scale_rule rule, mx_rounding rnd, const uint16_t *rbits,       \
                   mx_packing packing)                                                                  \
  {                                                                                                     \
    return quantize_any (scales, codes, in, in_fmt, n, elem, rule, rnd, rbits, packing, vbmi, whole);  \
  }
MXK_QUANTIZE_WHOLE_AS (quantize_avx512_nt, 0, MXK_WHOLE_NT)
MXK_QUANTIZE_WHOLE_AS (quantize_avx512vbmi_big, 1, MXK_WHOLE_BIG)
MXK_QUANTIZE_WHOLE_AS (quantize_avx512vbmi_nt, 1, MXK_WHOLE_NT)

/* The exact values of a format's codes as BF16 words in registers (dequantize's and dot's
 * decode, below). */
typedef struct
{
  __m512i t0, t1, t2, t3;
  __m512i h0, h1, l0, l1; /* FP8 on avx512vbmi: the words' high and low bytes (fp8_byte_tables) */
  __m512i uix, ush;        /* FP6, FP4 packed on avx512vbmi: unpack_words_vbmi's permute, shifts */
  int kind; /* 0: FP8 (a 128-entry magnitude table, the sign apart), 1: codes below 64, 2: INT8 */
} dotk;

static inline dotk
dot_consts (const mxk_fmt *f)
{
  dotk k;
  uint16_t t[128] = { 0 };
  k.kind = f->is_int ? 2 : f->bits == 8 ? 0 : 1;
  for (int c = 0; c < (k.kind == 0 ? 128 : k.kind == 1 ? 1 << f->bits : 0); c++)
    t[c] = (uint16_t) (mxk__f2u (mxk__decode ((uint8_t) c, f)) >> 16); /* exact: a BF16 */
  k.t0 = _mm512_loadu_si512 ((const void *) t), k.t1 = _mm512_loadu_si512 ((const void *) (t + 32));
  k.t2 = _mm512_loadu_si512 ((const void *) (t + 64)), k.t3 = _mm512_loadu_si512 ((const void *) (t + 96));
  k.h0 = k.h1 = k.l0 = k.l1 = _mm512_setzero_si512 (); /* fp8_byte_tables, where they are used */
  k.uix = k.ush = _mm512_setzero_si512 ();             /* dequantize_any, where they are used */
  return k;
}

/* 32 codes widened to words -> their values as BF16 words, from t's tables: FP8 (kind 0) by
 * its 7-bit magnitude, the sign or-ed in; codes below 64 (kind 1) directly. */
static inline __attribute__ ((always_inline)) __m512i
bf16_words (__m512i w, const dotk *t)
{
  __m512i h = _mm512_permutex2var_epi16 (t->t0, w, t->t1); /* index: the low 6 bits */
  if (t->kind == 0)
    {
      h = _mm512_mask_blend_epi16 (_mm512_test_epi16_mask (w, _mm512_set1_epi16 (0x40)), h,
                                   _mm512_permutex2var_epi16 (t->t2, w, t->t3));
      h = _mm512_ternarylogic_epi32 (h, _mm512_slli_epi16 (w, 8), _mm512_set1_epi16 ((short) 0x8000), 0xF8);
    }
  return h;
}

/* 32 codes -> their exact values (INT8: the integer codes) in two FP32 vectors: of each
 * 128-bit lane's 8 codes, the unpacks take 0-3 into the first vector and 4-7 into the second
 * (dot pairs its operands' elements alike; dequantize permutes the codes first). */
/* 32 codes widened to words (FP8, FP6, FP4) -> their exact values in two FP32 vectors, as
 * block_values orders them. */
static inline __attribute__ ((always_inline)) void
word_values (__m512 *v0, __m512 *v1, __m512i w, const dotk *k)
{
  __m512i h = bf16_words (w, k);
  *v0 = _mm512_castsi512_ps (_mm512_unpacklo_epi16 (_mm512_setzero_si512 (), h));
  *v1 = _mm512_castsi512_ps (_mm512_unpackhi_epi16 (_mm512_setzero_si512 (), h));
}

static inline __attribute__ ((always_inline)) void
block_values (__m512 *v0, __m512 *v1, __m256i c, const dotk *k)
{
  if (k->kind == 2)
    {
      __m512i w = _mm512_cvtepi8_epi16 (c), sg = _mm512_srai_epi16 (w, 15);
      *v0 = _mm512_cvtepi32_ps (_mm512_unpacklo_epi16 (w, sg));
      *v1 = _mm512_cvtepi32_ps (_mm512_unpackhi_epi16 (w, sg));
      return;
    }
  word_values (v0, v1, _mm512_cvtepu8_epi16 (c), k);
}

/* scalef's exponent operand for each scale byte S: S - 127 (INT8: S - 133), as FP32, so that a
 * block's is one broadcast load, where converting S took two vector operations per block
 * (AMD EPYC family 26 model 2, in cache, one process alternating: INT8 and E2M1, a block at a
 * time, 3-7% less time; FP8, two blocks at a time, about 1%) */
#define MXK_R4(x) (x), (x) + 1, (x) + 2, (x) + 3
#define MXK_R16(x) MXK_R4 (x), MXK_R4 ((x) + 4), MXK_R4 ((x) + 8), MXK_R4 ((x) + 12)
#define MXK_R64(x) MXK_R16 (x), MXK_R16 ((x) + 16), MXK_R16 ((x) + 32), MXK_R16 ((x) + 48)
static const float dq_sx[2][256] = {
  { MXK_R64 (-127.0f), MXK_R64 (-63.0f), MXK_R64 (1.0f), MXK_R64 (65.0f) },
  { MXK_R64 (-133.0f), MXK_R64 (-69.0f), MXK_R64 (-5.0f), MXK_R64 (59.0f) },
};
#undef MXK_R64
#undef MXK_R16
#undef MXK_R4

/* Dequantize, a block at a time: each code's exact value as dot decodes it (block_values),
 * the codes' dwords permuted first (0 4 1 5 2 6 3 7) so that the unpacks' in-lane order comes
 * out in element order; then one scalef by the block's exponent X (INT8: X - 6), which rounds
 * once, as libmxgold does, and takes no FP32 subnormal operand (a multiply by the scale 2^-127
 * would, and Intel cores take a microcode assist for each).  Until 2026-11-28 every format
 * went 16 codes at a time: FP8 by way of FP16 with a NaN patch, FP6 and FP4 from FP32 tables,
 * INT8 by conversion; FP8 changed first (on a Zen 5 core in cache 0.35 -> 0.67 of the stream),
 * FP6, FP4 and INT8 once an Intel Xeon (Emerald Rapids) showed them no slower that way
 * (docs/kernels.md, "Quantize two blocks at a time, dequantize every format by the block"). */
/* A block's 32 exact values v0 v1 times 2^(S - 127) (INT8: 2^(S - 133)), each rounded once. */
static inline __attribute__ ((always_inline)) void
dq_scale (__m512 *r0, __m512 *r1, __m512 v0, __m512 v1, int S, int kind)
{
  /* the NaN scale (S = 0xFF): every value NaN, by the scalef's mask, whose masked-off lanes
   * raise no exception (a branch on it, taken at random, cost a tenth on data with one such
   * block in 16; the values scaled by 2^128, then replaced, raised overflow) */
  __mmask16 k = (__mmask16) - (unsigned) (S != 0xFF);
  __m512 sx = _mm512_set1_ps (dq_sx[kind == 2][S]);
  const __m512 nan = _mm512_castsi512_ps (_mm512_set1_epi32 (0x7FC00000));
  *r0 = _mm512_mask_scalef_ps (nan, k, v0, sx);
  *r1 = _mm512_mask_scalef_ps (nan, k, v1, sx);
}

/* dq_block's second half, for codes already widened to words in its order (FP6, FP4). */
static inline __attribute__ ((always_inline)) void
dq_words (__m512 *r0, __m512 *r1, __m512i w, int S, const dotk *t)
{
  __m512 v0, v1;
  word_values (&v0, &v1, w, t);
  dq_scale (r0, r1, v0, v1, S, t->kind);
}

static inline __attribute__ ((always_inline)) void
dq_block (__m512 *r0, __m512 *r1, __m256i c, int S, const dotk *t)
{
  __m512 v0, v1;
  block_values (&v0, &v1, _mm256_permutevar8x32_epi32 (c, _mm256_setr_epi32 (0, 4, 1, 5, 2, 6, 3, 7)), t);
  dq_scale (r0, r1, v0, v1, S, t->kind);
}

/* The FP8 word table split into its high and low bytes, 128-entry byte tables (dq_pair_fp8). */
static inline void
fp8_byte_tables (dotk *k)
{
  uint16_t t[128];
  uint8_t h[128], l[128];
  _mm512_storeu_si512 ((void *) t, k->t0), _mm512_storeu_si512 ((void *) (t + 32), k->t1);
  _mm512_storeu_si512 ((void *) (t + 64), k->t2), _mm512_storeu_si512 ((void *) (t + 96), k->t3);
  for (int c = 0; c < 128; c++)
    h[c] = (uint8_t) (t[c] >> 8), l[c] = (uint8_t) t[c];
  k->h0 = _mm512_loadu_si512 ((const void *) h), k->h1 = _mm512_loadu_si512 ((const void *) (h + 64));
  k->l0 = _mm512_loadu_si512 ((const void *) l), k->l1 = _mm512_loadu_si512 ((const void *) (l + 64));
}

/* avx512vbmi, FP8: two blocks' 64 codes c -> their exact values in v[0..3] (dq_pair_fp8's, and
 * dot's E4M3 x E4M3), each vector's low 256 bits from the first block and its high 256 from
 * the second, in an order that depends only on the position (so two operands decoded alike
 * pair their elements; dq_pair_fp8 permutes the codes first into element order): the BF16 words'
 * bytes by two byte permutes of 128-entry tables (fp8_byte_tables), the sign or-ed in, then
 * in-lane unpacks, which keep each 128-bit lane's codes in their lane. */
static inline __attribute__ ((always_inline)) void
fp8_pair_values (__m512 v[4], __m512i c, const dotk *t)
{
  __m512i hi = _mm512_ternarylogic_epi32 (permt2b (t->h0, c, t->h1), c, _mm512_set1_epi8 ((char) 0x80), 0xF8);
  __m512i lo = permt2b (t->l0, c, t->l1);
  __m512i w0 = _mm512_unpacklo_epi8 (lo, hi), w1 = _mm512_unpackhi_epi8 (lo, hi);
  const __m512i z = _mm512_setzero_si512 ();
  v[0] = _mm512_castsi512_ps (_mm512_unpacklo_epi16 (z, w0));
  v[1] = _mm512_castsi512_ps (_mm512_unpackhi_epi16 (z, w0));
  v[2] = _mm512_castsi512_ps (_mm512_unpacklo_epi16 (z, w1));
  v[3] = _mm512_castsi512_ps (_mm512_unpackhi_epi16 (z, w1));
}

/* avx512vbmi, FP8: two blocks' 64 codes c (block A's then B's) -> their 64 values, scaled, in
 * d[0..3] (A's 0-15, A's 16-31, B's 0-15, B's 16-31).  Each value's BF16 bytes come from two
 * byte permutes of 128-entry tables by the code's 7-bit magnitude (the sign or-ed into the high
 * byte), then two unpacks make words and four more FP32 lanes; the dword permute first puts the
 * codes where those in-lane unpacks take them in element order.  10 vector operations for the
 * two blocks' decode against 20 by the word tables (dq_block). */
static inline __attribute__ ((always_inline)) void
dq_pair_fp8 (__m512 d[4], __m512i c, int SA, int SB, const dotk *t)
{
  /* P dword 4L + q = c dword 4q + L: after the unpacks, vector q's 128-bit lane L holds P's
   * bytes 16L + 4q .. 16L + 4q + 3, that is c's elements 16q + 4L .. 16q + 4L + 3 */
  const __m512i ord = _mm512_setr_epi32 (0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
  __m512 v[4];
  fp8_pair_values (v, _mm512_permutexvar_epi32 (ord, c), t);
  dq_scale (&d[0], &d[1], v[0], v[1], SA, 0);
  dq_scale (&d[2], &d[3], v[2], v[3], SB, 0);
}

/* 16 FP32 values -> BF16, nearest-even, a NaN kept quiet with its sign (mxk__bf16_of) */
static inline __m256i
bf16_16 (__m512 v)
{
  __m512i u = _mm512_castps_si512 (v);
  __m512i lsb = _mm512_and_si512 (_mm512_srli_epi32 (u, 16), _mm512_set1_epi32 (1));
  __m512i rn = _mm512_srli_epi32 (_mm512_add_epi32 (_mm512_add_epi32 (u, _mm512_set1_epi32 (0x7FFF)), lsb), 16);
  __mmask16 knan = _mm512_cmp_ps_mask (v, v, _CMP_UNORD_Q);
  return _mm512_cvtepi32_epi16 (_mm512_mask_or_epi32 (rn, knan, _mm512_srli_epi32 (u, 16), _mm512_set1_epi32 (0x40)));
}

/* Block blk's 32 values to the output: two vectors of FP32, one of BF16 (nt: w->nt, fixed at
 * compile time; without it, the stores of before, by the block's index, BF16 16 values at a
 * time) */
static inline __attribute__ ((always_inline)) void
dq_out_block (nt_out *w, size_t blk, __m512 r0, __m512 r1, int nt)
{
  if (!nt)
    {
      if (w->es == 2)
        {
          _mm256_storeu_si256 ((void *) ((uint16_t *) w->p + blk * MX_BLOCK), bf16_16 (r0));
          _mm256_storeu_si256 ((void *) ((uint16_t *) w->p + blk * MX_BLOCK + 16), bf16_16 (r1));
        }
      else
        {
          _mm512_storeu_ps ((float *) w->p + blk * MX_BLOCK, r0);
          _mm512_storeu_ps ((float *) w->p + blk * MX_BLOCK + 16, r1);
        }
    }
  else if (w->es == 2)
    nt_out_put (w, _mm512_inserti64x4 (_mm512_castsi256_si512 (bf16_16 (r0)), bf16_16 (r1), 1), nt);
  else
    {
      nt_out_put (w, _mm512_castps_si512 (r0), nt);
      nt_out_put (w, _mm512_castps_si512 (r1), nt);
    }
}

/* avx512vbmi: one packed block's 32 codes as words, in dq_block's order (dword i of its codes
 * is their dword (0 4 1 5 2 6 3 7)[i]; here qword i of the words), reading only its bytes: one
 * byte permute puts each group of 4 codes (FP6: 3 bytes; FP4: 2) at the bottom of its qword,
 * and one multishift takes each code's bits up into a word's low byte.  The bits above the code
 * are junk (the next code's, or the group's first byte): bf16_words' table lookup reads only
 * the index's low 6 bits, so FP6 needs no mask, and FP4 one and.  Two or three operations for
 * the unpack, the widening and dq_block's permute, where mxk__unpack_v and dq_block take 5 to
 * 9. */
static uint8_t unpack_ix[2][64], unpack_sh[2][64]; /* [0] fp4-lo-first, [1] fp6-3byte */
static pthread_once_t unpack_once = PTHREAD_ONCE_INIT;

static void
unpack_init (void)
{
  static const int perm[8] = { 0, 4, 1, 5, 2, 6, 3, 7 };
  for (int fp6 = 0; fp6 < 2; fp6++)
    for (int q = 0; q < 8; q++)
      for (int j = 0; j < 8; j++)
        {
          int gb = fp6 ? 3 : 2, cb = fp6 ? 6 : 4; /* a group's bytes; a code's bits */
          /* qword q: group perm[q]'s bytes; word w of it from bit cb * w up (the high bytes
           * are not read) */
          int byte = gb * perm[q] + j; /* FP6: bytes 16-23 read from lane 1, which holds 8-23 */
          unpack_ix[fp6][8 * q + j] = (uint8_t) (j >= gb ? 0 : fp6 && byte >= 16 ? byte + 8 : byte);
          unpack_sh[fp6][8 * q + j] = (uint8_t) (j % 2 ? 0 : cb * (j / 2));
        }
}

/* FP6 reads its 24 bytes as bytes 0-15 and 8-23 (lane 1), not by a masked load: that made
 * dequantize from DRAM slow (E2M3 at 256 MiB 0.71-0.77 of the stream, 1.24-1.26 so; in cache
 * 0.83-0.86, 0.87). */
static inline __attribute__ ((always_inline)) __m512i
unpack_words_vbmi (const uint8_t *c, mx_packing packing, __m512i ix, __m512i sh)
{
  int fp6 = packing == MX_PACKING_FP6_3BYTE;
  __m512i v = _mm512_castsi128_si512 (_mm_loadu_si128 ((const void *) c));
  if (fp6)
    v = _mm512_castsi256_si512 (
      _mm256_inserti128_si256 (_mm512_castsi512_si256 (v), _mm_loadu_si128 ((const void *) (c + 8)), 1));
  __m512i w = multishift (sh, permb (ix, v));
  return fp6 ? w : _mm512_and_si512 (w, _mm512_set1_epi16 (0x0F));
}

/* The block loop, one copy per decode kind (kind: dotk's, fixed at compile time; with it tested
 * at run time in the loop, and the block's values passed through an array, GCC kept both in
 * memory and tested the kind on every block); vbmi: unpacked FP8 two blocks at a time, packed
 * FP6 and FP4 by unpack_words_vbmi; nt:
 * non-temporal stores (nt_out), also fixed at compile time (decided at each store, with the
 * writer's state kept in memory, it cost the Intel Xeon a third of dequantize's in-cache speed
 * for FP6, FP4 and INT8). */
static inline __attribute__ ((always_inline)) void
dequantize_loop (nt_out w, const uint8_t *scales, const uint8_t *codes, size_t nb, mx_packing packing,
                 const dotk *tk, int kind, int vbmi, int nt)
{
  dotk t = *tk;
  t.kind = kind;
  size_t pb = mxk__packed_block_bytes (packing), blk = 0;
  if (vbmi && kind == 0 && packing == MX_PACKING_UNPACKED)
    for (; blk + 2 <= nb; blk += 2)
      {
        __m512 d[4];
        dq_pair_fp8 (d, _mm512_loadu_si512 ((const void *) (codes + blk * MX_BLOCK)), scales[blk], scales[blk + 1], &t);
        dq_out_block (&w, blk, d[0], d[1], nt);
        dq_out_block (&w, blk + 1, d[2], d[3], nt);
      }
  for (; blk < nb; blk++)
    {
      const uint8_t *c = codes + blk * pb;
      __m512 r0, r1;
      if (packing == MX_PACKING_UNPACKED)
        dq_block (&r0, &r1, _mm256_loadu_si256 ((const void *) c), scales[blk], &t);
      else if (vbmi && kind == 1)
        dq_words (&r0, &r1, unpack_words_vbmi (c, packing, t.uix, t.ush), scales[blk], &t);
      else
        dq_block (&r0, &r1, mxk__unpack_v (c, packing), scales[blk], &t);
      dq_out_block (&w, blk, r0, r1, nt);
    }
  nt_out_end (&w, nt);
}

static inline __attribute__ ((always_inline)) void
dequantize_blocks (void *out, mx_format_id out_fmt, const uint8_t *scales, const uint8_t *codes, size_t nb,
                   mx_packing packing, const dotk *tk, int kind, int vbmi, int whole_nt)
{
  int es = out_fmt == MX_BF16 ? 2 : 4;
  int nt = (whole_nt || mxk__dq_nt (out_fmt, nb * MX_BLOCK)) && ((uintptr_t) out & 63) % (unsigned) es == 0;
  nt_out w = nt_out_start (out, es, nt);
  if (w.nt)
    dequantize_loop (w, scales, codes, nb, packing, tk, kind, vbmi, 1);
  else
    dequantize_loop (w, scales, codes, nb, packing, tk, kind, vbmi, 0);
}

/* whole_nt: a chunk of an mxk_dequantize_mt call whose whole output takes non-temporal stores */
static int
dequantize_any (void *out, mx_format_id out_fmt, const uint8_t *scales, const uint8_t *codes, size_t n,
                mx_format_id elem, mx_packing packing, int vbmi, int whole_nt)
{
  const mxk_fmt *f = mxk__fmt (elem);
  if (mxk__check_dq (out_fmt, n, elem, packing))
    return MX_EINVAL;
  dotk t = dot_consts (f);
  switch (t.kind)
    {
    case 0:
      if (vbmi)
        {
          fp8_byte_tables (&t);
          dequantize_blocks (out, out_fmt, scales, codes, n / MX_BLOCK, packing, &t, 0, 1, whole_nt);
        }
      else
        dequantize_blocks (out, out_fmt, scales, codes, n / MX_BLOCK, packing, &t, 0, 0, whole_nt);
      break;
    case 1:
      if (vbmi && packing != MX_PACKING_UNPACKED)
        {
          pthread_once (&unpack_once, unpack_init);
          int fp6 = packing == MX_PACKING_FP6_3BYTE;
          t.uix = _mm512_loadu_si512 ((const void *) unpack_ix[fp6]);
          t.ush = _mm512_loadu_si512 ((const void *) unpack_sh[fp6]);
          dequantize_blocks (out, out_fmt, scales, codes, n / MX_BLOCK, packing, &t, 1, 1, whole_nt);
        }
      else
        dequantize_blocks (out, out_fmt, scales, codes, n / MX_BLOCK, packing, &t, 1, 0, whole_nt);
      break;
    default: dequantize_blocks (out, out_fmt, scales, codes, n / MX_BLOCK, packing, &t, 2, 0, whole_nt); break;
    }
  return 0;
}

/* avx512vbmi: FP8 two blocks at a time (dq_pair_fp8), packed FP6 and FP4 unpacked by
 * unpack_words_vbmi, the rest by avx512's own function (dq_vbmi_own); _nt: the chunks of a large
 * mxk_dequantize_mt call */
#define MXK_DEQUANTIZE_AS(name, vbmi, whole_nt)                                                  \
  static int name (void *out, mx_format_id out_fmt, const uint8_t *scales, const uint8_t *codes, \
                   size_t n, mx_format_id elem, mx_packing packing)                              \
  {                                                                                              \
    return dequantize_any (out, out_fmt, scales, codes, n, elem, packing, vbmi, whole_nt);       \
  }
MXK_DEQUANTIZE_AS (dequantize_avx512, 0, 0)
MXK_DEQUANTIZE_AS (dequantize_avx512_nt, 0, 1)

/* Whether avx512vbmi has a dequantize of its own for elem and packing: unpacked FP8 and packed
 * FP6 and FP4.  The others (INT8, unpacked FP6 and FP4, and invalid arguments, which both
 * reject alike) run the avx512 path's function itself: one machine code for both paths, not
 * two copies of each loop, so that bench-kernels' dispatch_regret compares one function with
 * itself there (it read 1.03-1.05 for INT8, which its fixed order of turns made: see
 * bench/kernels.c). */
static int
dq_vbmi_own (mx_format_id elem, mx_packing packing)
{
  const mxk_fmt *f = mxk__fmt (elem);
  return f != NULL && !f->is_int && (f->bits == 8) == (packing == MX_PACKING_UNPACKED);
}

#define MXK_DEQUANTIZE_VBMI_AS(name, plain, whole_nt)                                            \
  static int name (void *out, mx_format_id out_fmt, const uint8_t *scales, const uint8_t *codes, \
                   size_t n, mx_format_id elem, mx_packing packing)                              \
  {                                                                                              \
    if (!dq_vbmi_own (elem, packing))                                                            \
      return plain (out, out_fmt, scales, codes, n, elem, packing);                              \
    return dequantize_any (out, out_fmt, scales, codes, n, elem, packing, 1, whole_nt);          \
  }
MXK_DEQUANTIZE_VBMI_AS (dequantize_avx512vbmi, dequantize_avx512, 0)
MXK_DEQUANTIZE_VBMI_AS (dequantize_avx512vbmi_nt, dequantize_avx512_nt, 1)

/* Dot.  Each element's exact value comes from a table in registers: its BF16 bits (every
 * element value of the five float formats is a BF16, subnormals, Inf and NaN included) by
 * vpermi2w on the code widened to 16 bits -- one lookup for the formats of at most 6 bits, whose
 * sign is in the index, and for FP8 two (the 7-bit magnitude's halves, blended) with the sign
 * bit or-ed in.  INT8 is its integer code, an exact conversion, the 2^-6 folded into the block's
 * scale.  Widening the 16-bit words to FP32 by unpacking against zeros permutes the elements
 * within each 128-bit lane, the same way for every format, so a block's products pair the right
 * elements and stay in its vectors.  The products are exact in FP32 (8 x 8 significant bits,
 * no FP32 subnormal: the least is 2^-18) and summed in double, exact as every partial sum fits
 * 53 bits, except for the wide pairs (mxk__wide_pair), which take the scalar routine.  A NaN
 * or Inf code's table entry is the NaN or Inf itself, so nothing is patched.  On the Zen 4 bench
 * host E4M3 x E4M3 in cache went from 15.9 ns a block (the FP16 decode of dequantize, a scalef
 * and a NaN patch per operand) to 8.8-9.0 ns. */
/* One block pair's term: the exact sum of its 32 products in double, times 2^(SA + SB + koff),
 * rounded once to FP32 (a NaN scale or a pair whose sum may need more than 53 bits: the scalar
 * routine). */
static inline __attribute__ ((always_inline)) float
dot_block (const uint8_t *ab, uint8_t SA, const mxk_fmt *pa, const dotk *ka, const uint8_t *bb, uint8_t SB,
           const mxk_fmt *pb, const dotk *kb, int koff, int wide)
{
  if (wide || SA == 0xFF || SB == 0xFF)
    return mxk__block_dot (ab, pa, bb, pb, SA, SB);
  __m512 a0, a1, b0, b1;
  block_values (&a0, &a1, _mm256_loadu_si256 ((const void *) ab), ka);
  block_values (&b0, &b1, _mm256_loadu_si256 ((const void *) bb), kb);
  __m512 p0 = _mm512_mul_ps (a0, b0), p1 = _mm512_mul_ps (a1, b1); /* exact */
  /* no -0 to start from: a sum of -0 products is -0 anyway */
  __m512d s = _mm512_add_pd (_mm512_add_pd (_mm512_cvtps_pd (_mm512_castps512_ps256 (p0)),
                                            _mm512_cvtps_pd (_mm256_castpd_ps (_mm512_extractf64x4_pd (_mm512_castps_pd (p0), 1)))),
                             _mm512_add_pd (_mm512_cvtps_pd (_mm512_castps512_ps256 (p1)),
                                            _mm512_cvtps_pd (_mm256_castpd_ps (_mm512_extractf64x4_pd (_mm512_castps_pd (p1), 1)))));
  double sum = _mm512_reduce_add_pd (s); /* exact: every partial sum fits 53 bits */
  return (float) (sum * mxk__pow2d ((int) SA + (int) SB + koff));
}

/* The block loop, one copy per pair of decode kinds (fixed at compile time, as dequantize's:
 * with the kinds tested at run time, GCC kept the tables on the stack and tested a kind on
 * every block); sequential, as the other paths (acc + each block pair's term, in order).
 * pair (avx512vbmi, E4M3 x E4M3, the one FP8 pair that is not wide): two blocks at a time,
 * decoded by byte permutes (fp8_pair_values): on an Intel Xeon (Emerald Rapids), whose one
 * shuffle unit takes vpermt2w and vpermt2b twice, the word tables' decode kept it 8 cycles per
 * block and operand, the byte permutes 5. */
static inline __attribute__ ((always_inline)) float
dot_blocks (float acc, const uint8_t *sa, const uint8_t *a, const mxk_fmt *pa, const dotk *tka, int kind_a,
            const uint8_t *sb, const uint8_t *b, const mxk_fmt *pb, const dotk *tkb, int kind_b, size_t nb,
            int wide, int pair)
{
  dotk ka = *tka, kb = *tkb;
  ka.kind = kind_a, kb.kind = kind_b;
  const int koff = -254 - 6 * (kind_a == 2) - 6 * (kind_b == 2); /* INT8: codes are 2^6 x values */
  size_t blk = 0;
  if (pair)
    for (; blk + 2 <= nb; blk += 2)
      {
        const uint8_t *ab = a + blk * MX_BLOCK, *bb = b + blk * MX_BLOCK;
        if (sa[blk] == 0xFF || sa[blk + 1] == 0xFF || sb[blk] == 0xFF || sb[blk + 1] == 0xFF)
          {
            acc = acc + dot_block (ab, sa[blk], pa, &ka, bb, sb[blk], pb, &kb, koff, wide);
            acc = acc + dot_block (ab + MX_BLOCK, sa[blk + 1], pa, &ka, bb + MX_BLOCK, sb[blk + 1], pb, &kb, koff, wide);
            continue;
          }
        __m512 va[4], vb[4];
        fp8_pair_values (va, _mm512_loadu_si512 ((const void *) ab), &ka);
        fp8_pair_values (vb, _mm512_loadu_si512 ((const void *) bb), &kb);
        /* the products exact (E4M3: at most 8 significant bits, multiples of 2^-18), every
         * partial sum too (multiples of 2^-18 below 32 * 448^2 < 2^23: 41 bits), so their
         * order does not matter; from the first product up, not from +0: a sum of -0 products
         * is -0 in dot_block, and acc + -0 keeps a -0 acc */
        __m512 p = _mm512_mul_ps (va[0], vb[0]);
        __m512d s0 = _mm512_cvtps_pd (_mm512_castps512_ps256 (p));
        __m512d s1 = _mm512_cvtps_pd (_mm256_castpd_ps (_mm512_extractf64x4_pd (_mm512_castps_pd (p), 1)));
#pragma GCC unroll 3
        for (int i = 1; i < 4; i++)
          {
            p = _mm512_mul_ps (va[i], vb[i]);
            s0 = _mm512_add_pd (s0, _mm512_cvtps_pd (_mm512_castps512_ps256 (p)));
            s1 = _mm512_add_pd (s1, _mm512_cvtps_pd (_mm256_castpd_ps (_mm512_extractf64x4_pd (_mm512_castps_pd (p), 1))));
          }
        /* both sums reduced at once: 128-bit lanes 0-1 then hold s0's halves added, 2-3 s1's;
         * then each lane the sum of its pair; then element 0 s0's total, element 4 s1's */
        __m512d u = _mm512_add_pd (_mm512_shuffle_f64x2 (s0, s1, 0x44), _mm512_shuffle_f64x2 (s0, s1, 0xEE));
        u = _mm512_add_pd (u, _mm512_shuffle_f64x2 (u, u, 0xB1));
        u = _mm512_add_pd (u, _mm512_permute_pd (u, 0x55));
        double sum0 = _mm512_cvtsd_f64 (u), sum1 = _mm256_cvtsd_f64 (_mm512_extractf64x4_pd (u, 1));
        acc = acc + (float) (sum0 * mxk__pow2d ((int) sa[blk] + (int) sb[blk] + koff));
        acc = acc + (float) (sum1 * mxk__pow2d ((int) sa[blk + 1] + (int) sb[blk + 1] + koff));
      }
  for (; blk < nb; blk++)
    acc = acc + dot_block (a + blk * MX_BLOCK, sa[blk], pa, &ka, b + blk * MX_BLOCK, sb[blk], pb, &kb, koff, wide);
  return acc;
}

/* vbmi: the avx512vbmi path, which takes FP8 x FP8 two blocks at a time (dot_blocks' pair) */
static int
dot_any (uint32_t *out, const uint8_t *sa, const uint8_t *a, mx_format_id fa, const uint8_t *sb,
         const uint8_t *b, mx_format_id fb, size_t n, uint32_t cin, int vbmi)
{
  const mxk_fmt *pa, *pb;
  if (mxk__check_dot (fa, fb, n, &pa, &pb))
    return MX_EINVAL;
  int wide = mxk__wide_pair (fa, fb);
  dotk ka = dot_consts (pa), kb = dot_consts (pb);
  float acc = mxk__u2f (cin);
  size_t nb = n / MX_BLOCK;
#define MXK_DOT_KINDS(A, B) dot_blocks (acc, sa, a, pa, &ka, A, sb, b, pb, &kb, B, nb, wide, 0)
  switch (ka.kind * 3 + kb.kind)
    {
    case 0:
      if (vbmi && !wide)
        {
          fp8_byte_tables (&ka), fp8_byte_tables (&kb);
          acc = dot_blocks (acc, sa, a, pa, &ka, 0, sb, b, pb, &kb, 0, nb, 0, 1);
        }
      else
        acc = MXK_DOT_KINDS (0, 0);
      break;
    case 1: acc = MXK_DOT_KINDS (0, 1); break;
    case 2: acc = MXK_DOT_KINDS (0, 2); break;
    case 3: acc = MXK_DOT_KINDS (1, 0); break;
    case 4: acc = MXK_DOT_KINDS (1, 1); break;
    case 5: acc = MXK_DOT_KINDS (1, 2); break;
    case 6: acc = MXK_DOT_KINDS (2, 0); break;
    case 7: acc = MXK_DOT_KINDS (2, 1); break;
    default: acc = MXK_DOT_KINDS (2, 2); break;
    }
#undef MXK_DOT_KINDS
  uint32_t r = mxk__f2u (acc);
  *out = (r & 0x7FFFFFFFu) > 0x7F800000u ? 0x7FC00000u : r;
  return 0;
}

static int
dot_avx512 (uint32_t *out, const uint8_t *sa, const uint8_t *a, mx_format_id fa, const uint8_t *sb,
            const uint8_t *b, mx_format_id fb, size_t n, uint32_t cin)
{
  return dot_any (out, sa, a, fa, sb, b, fb, n, cin, 0);
}

static int
dot_avx512vbmi (uint32_t *out, const uint8_t *sa, const uint8_t *a, mx_format_id fa, const uint8_t *sb,
                const uint8_t *b, mx_format_id fb, size_t n, uint32_t cin)
{
  return dot_any (out, sa, a, fa, sb, b, fb, n, cin, 1);
}

const mxk__ops mxk__ops_avx512 = { quantize_avx512, dequantize_avx512, dot_avx512, quantize_avx512,
                                   quantize_avx512_nt, dequantize_avx512_nt };
const mxk__ops mxk__ops_avx512vbmi = { quantize_avx512vbmi, dequantize_avx512vbmi, dot_avx512vbmi,
                                       quantize_avx512vbmi_big, quantize_avx512vbmi_nt,
                                       dequantize_avx512vbmi_nt };
#endif
