/* mxk_cuda_gemm.h -- the arithmetic of libmxk_cuda's MX GEMM (mxk_cuda_gemm): element codes as
 * integers, exact block dots, the block-fp32 step and the exact accumulator with its one
 * rounding to FP32.  Integer arithmetic only, but for the one IEEE FP32 add of the block-fp32
 * model (device __fadd_rn, host a C float add), so one definition is bit-exact on both sides:
 * under nvcc each function is __host__ __device__, under a C11 compiler plain static inline.
 * tests/tcuda_gemm_host.c runs the kernels' algorithms through these functions on the host and
 * compares every bit with libmxgold's mx_gemm; the kernels (kernels/cuda/src/gemm.cu) call
 * nothing else to compute a bit.
 *
 * Values.  Every finite code of a format f is an integer multiple of 2^lsb(f) (lsb: the weight
 * of the least subnormal, 2^-6 for INT8): E2M1 x 2, E2M3 x 8 and INT8 as is are integers of at
 * most 8 bits, so a block dot of two such formats is the int32 sum of 32 int8 products (the
 * tensor-core path, at most 32 x 128 x 128 = 2^19); any other pair's product magnitudes are
 * below 2^64 (E5M2 x E5M2: 7 x 2^29 squared) and a block dot is kept in 128 bits.
 * SPDX-License-Identifier: MIT */
#ifndef MXK_CUDA_GEMM_H
#define MXK_CUDA_GEMM_H
#include "mxk_cuda_conv.h"

/* The canonical NaN of every NaN result (libmxgold's FP32 NaN). */
#define MXKC_NAN32 0x7FC00000u

/* The superaccumulator: 32-bit digits (each in an int64, so additions need no carries) with
 * digit 0 of weight 2^MXKC_SA_BASE.  Its range covers every term: a product of two least
 * subnormals under the least scales is 2^(-16 - 16 - 127 - 127) = 2^-286, a block dot under the
 * largest scales is below 2^(37 + 254), a sum of 2^58 of those below 2^349, C_in below 2^128. */
#define MXKC_SA_BASE (-320)
#define MXKC_SA_DIGITS 22
/* additions between two carry propagations: each adds less than 2^32 to a digit */
#define MXKC_SA_BATCH (1u << 29)

/* A signed 128-bit integer, two's complement. */
typedef struct
{
  uint64_t lo, hi;
} mxkc_i128;

/* The IEEE special-value state of a sum (libmxgold's mx__acc): a NaN term or Inf x 0, an
 * infinite term of each sign, and whether every term so far was -0 (the sign of an exact
 * zero: IEEE 754 6.3, RNE). */
typedef struct
{
  int nan, pinf, ninf, negzero;
} mxkc_spec;

/* One block's exact dot: d x 2^(lsb_a + lsb_b), and its specials. */
typedef struct
{
  mxkc_i128 d;
  mxkc_spec sp;
} mxkc_bdot;

typedef struct
{
  int64_t d[MXKC_SA_DIGITS];
  uint32_t adds;
} mxkc_sacc;

/*------------------------------------------------------------------ codes -*/
/* The exponent of the least significant bit of every finite value of f. */
MXKC_FN int
mxkc_lsb (const mxkc_fmt *f)
{
  return f->is_int ? -f->mbits : f->emin - f->mbits;
}

/* A code decoded for the dot products: bits 31:0 the magnitude in units of 2^lsb, bit 32 the
 * sign, bit 33 NaN, bit 34 Inf (magnitude 0). */
#define MXKC_DEC_NEG ((uint64_t) 1 << 32)
#define MXKC_DEC_NAN ((uint64_t) 1 << 33)
#define MXKC_DEC_INF ((uint64_t) 1 << 34)

MXKC_FN uint64_t
mxkc_dec (uint8_t code, const mxkc_fmt *f)
{
  uint32_t neg, sig;
  int e;
  if (!mxkc_decode (code, f, &neg, &sig, &e))
    return (neg ? MXKC_DEC_NEG : 0) | (sig ? MXKC_DEC_NAN : MXKC_DEC_INF);
  return (neg ? MXKC_DEC_NEG : 0) | ((uint64_t) sig << (e - mxkc_lsb (f)));
}

/* The largest magnitude of f in units of 2^lsb (INT8: 128, the code 0x80). */
MXKC_FN uint32_t
mxkc_maxint (const mxkc_fmt *f)
{
  return f->is_int ? 128u : f->max_sig << (f->max_exp - mxkc_lsb (f));
}

/* f takes the int8 path: E2M1, E2M3, INT8 (every value times 2^-lsb an int8, no NaN or Inf). */
MXKC_FN int
mxkc_is_i8 (const mxkc_fmt *f)
{
  return f->bits != 0 && !f->is_ieee && !f->is_fn && mxkc_maxint (f) <= 128u;
}

/* An int8-path code as its integer (value x 2^-lsb); a -0 code gives 0. */
MXKC_FN int
mxkc_i8_of (uint8_t code, const mxkc_fmt *f)
{
  uint64_t v = mxkc_dec (code, f);
  int m = (int) (uint32_t) v;
  return v & MXKC_DEC_NEG ? -m : m;
}

/* Bits of the largest |block dot| of formats fa, fb in units of 2^(lsb_a + lsb_b). */
MXKC_FN int
mxkc_dot_bits (const mxkc_fmt *fa, const mxkc_fmt *fb)
{
  uint64_t p = (uint64_t) mxkc_maxint (fa) * mxkc_maxint (fb);
  return 64 - mxkc_clz64 (p) + 5; /* 32 products */
}

/* Bits of n (0 for 0). */
MXKC_FN int
mxkc_bitlen (uint64_t n)
{
  return n ? 64 - mxkc_clz64 (n) : 0;
}

/*--------------------------------------------------------------- 128 bits -*/
MXKC_FN mxkc_i128
mxkc_i128_of (int64_t v)
{
  mxkc_i128 r;
  r.lo = (uint64_t) v, r.hi = v < 0 ? ~(uint64_t) 0 : 0;
  return r;
}

MXKC_FN mxkc_i128
mxkc_add128 (mxkc_i128 a, mxkc_i128 b)
{
  mxkc_i128 r;
  r.lo = a.lo + b.lo;
  r.hi = a.hi + b.hi + (r.lo < a.lo);
  return r;
}

MXKC_FN mxkc_i128
mxkc_neg128 (mxkc_i128 a)
{
  mxkc_i128 r;
  r.lo = ~a.lo + 1;
  r.hi = ~a.hi + (r.lo == 0);
  return r;
}

/* a x 2^s, 0 <= s < 128 (callers keep the result in range). */
MXKC_FN mxkc_i128
mxkc_shl128 (mxkc_i128 a, int s)
{
  mxkc_i128 r;
  if (s == 0)
    return a;
  if (s >= 64)
    r.hi = a.lo << (s - 64), r.lo = 0;
  else
    r.hi = (a.hi << s) | (a.lo >> (64 - s)), r.lo = a.lo << s;
  return r;
}

MXKC_FN int
mxkc_isneg128 (mxkc_i128 a)
{
  return (a.hi >> 63) != 0;
}

MXKC_FN int
mxkc_iszero128 (mxkc_i128 a)
{
  return (a.lo | a.hi) == 0;
}

/*---------------------------------------------------------------- specials -*/
MXKC_FN mxkc_spec
mxkc_spec_init (void)
{
  mxkc_spec s;
  s.nan = s.pinf = s.ninf = 0, s.negzero = 1;
  return s;
}

/* Merge the state of another sum's terms into s. */
MXKC_FN void
mxkc_spec_merge (mxkc_spec *s, const mxkc_spec *t)
{
  s->nan |= t->nan, s->pinf |= t->pinf, s->ninf |= t->ninf, s->negzero &= t->negzero;
}

/*-------------------------------------------------------------- block dots -*/
/* One product of two decoded codes into b (libmxgold's mx__acc_add_product). */
MXKC_FN void
mxkc_bdot_add (mxkc_bdot *b, uint64_t x, uint64_t y)
{
  int neg = ((x ^ y) & MXKC_DEC_NEG) != 0;
  uint64_t mx = x & 0xFFFFFFFFu, my = y & 0xFFFFFFFFu;
  if ((x | y) & MXKC_DEC_NAN)
    b->sp.nan = 1;
  else if ((x | y) & MXKC_DEC_INF)
    {
      if ((!(x & MXKC_DEC_INF) && mx == 0) || (!(y & MXKC_DEC_INF) && my == 0))
        b->sp.nan = 1;                                /* Inf x 0 */
      else if (neg)
        b->sp.ninf = 1, b->sp.negzero = 0;
      else
        b->sp.pinf = 1, b->sp.negzero = 0;
    }
  else if (mx == 0 || my == 0)
    b->sp.negzero &= neg;
  else
    {
      uint64_t p = mx * my;                           /* < 2^64: at most (7 x 2^29)^2 (E5M2) */
      mxkc_i128 t;
      t.lo = p, t.hi = 0;
      b->d = mxkc_add128 (b->d, neg ? mxkc_neg128 (t) : t);
      b->sp.negzero = 0;
    }
}

MXKC_FN void
mxkc_bdot_reset (mxkc_bdot *b)
{
  b->d.lo = b->d.hi = 0;
  b->sp = mxkc_spec_init ();
}

/* The exact dot of n decoded codes x[i * xs], y[i * ys] (the general path, any pair). */
MXKC_FN void
mxkc_block_dot (mxkc_bdot *b, const uint64_t *x, int xs, const uint64_t *y, int ys, int n)
{
  mxkc_bdot_reset (b);
  for (int i = 0; i < n; i++)
    mxkc_bdot_add (b, x[i * xs], y[i * ys]);
}

/* Every product of the block is -0 (decides the sign of an exact-zero block): needed only
 * where the int8 path's integer dot is 0, since any nonzero product clears it. */
MXKC_FN int
mxkc_block_negzero (const uint8_t *a, const mxkc_fmt *fa, const uint8_t *b,
                    const mxkc_fmt *fb, int n)
{
  for (int i = 0; i < n; i++)
    {
      uint64_t x = mxkc_dec (a[i], fa), y = mxkc_dec (b[i], fb);
      if (((x | y) & (MXKC_DEC_NAN | MXKC_DEC_INF)) || ((x & 0xFFFFFFFFu) && (y & 0xFFFFFFFFu))
          || !((x ^ y) & MXKC_DEC_NEG))
        return 0;
    }
  return 1;
}

/* The int8 path's block: the integer dot d (the tensor core's int32) as a block dot; negzero
 * from mxkc_block_negzero where d is 0 (else ignored). */
MXKC_FN void
mxkc_bdot_of_i32 (mxkc_bdot *b, int32_t d, int negzero)
{
  b->d = mxkc_i128_of (d);
  b->sp = mxkc_spec_init ();
  b->sp.negzero = d == 0 && negzero;
}

/*---------------------------------------------------------------- rounding -*/
/* (-1)^neg sig 2^e rounded once (RNE) to FP32, subnormals and overflow to Inf included. */
MXKC_FN uint32_t
mxkc_round_f32 (uint32_t neg, uint64_t sig, int e)
{
  if (sig == 0)
    return neg << 31;
  int top = 63 - mxkc_clz64 (sig) + e;
  if (top < -150)
    return neg << 31;                                 /* below half the least subnormal */
  if (top > 128)
    return (neg << 31) | 0x7F800000u;
  /* now mxkc_round_e8's shift stays within 64 bits */
  return mxkc_round_e8 (neg, sig, e, 23);
}

/* (-1)^neg mag 2^e (mag unsigned 128 bits) rounded once to FP32: the top 62 bits with every
 * lower one folded into a sticky bit 0 (at least 37 bits below the rounding position). */
MXKC_FN uint32_t
mxkc_round_u128 (uint32_t neg, mxkc_i128 mag, int e)
{
  if (mag.hi == 0)
    return mxkc_round_f32 (neg, mag.lo, e);
  int lz = mxkc_clz64 (mag.hi);
  uint64_t top = (mag.hi << lz) | (lz ? mag.lo >> (64 - lz) : 0);
  uint64_t rest = mag.lo << lz;
  uint64_t sig = (top >> 2) | ((top & 3) != 0 || rest != 0);
  return mxkc_round_f32 (neg, sig, e + 64 - lz + 2);
}

/* A signed 128-bit d x 2^e rounded once to FP32 (d nonzero). */
MXKC_FN uint32_t
mxkc_round_i128 (mxkc_i128 d, int e)
{
  int neg = mxkc_isneg128 (d);
  return mxkc_round_u128 ((uint32_t) neg, neg ? mxkc_neg128 (d) : d, e);
}

/* The FP32 result of a sum whose specials are sp and whose finite part is zero. */
MXKC_FN uint32_t
mxkc_special_result (const mxkc_spec *sp)
{
  if (sp->nan || (sp->pinf && sp->ninf))
    return MXKC_NAN32;
  if (sp->pinf)
    return 0x7F800000u;
  if (sp->ninf)
    return 0xFF800000u;
  return sp->negzero ? 0x80000000u : 0;
}

/*------------------------------------------------------------ block-fp32 -*/
/* A block's exponent: its dot's unit 2^(lsb_a + lsb_b) under both scales (not 0xFF). */
MXKC_FN int
mxkc_block_exp (uint8_t sa, uint8_t sb, int lsb_ab)
{
  return (int) sa + (int) sb - 254 + lsb_ab;
}

/* The block-fp32 model's d_j: the block's exact dot times both scales rounded once to FP32
 * (RNE); a NaN scale gives NaN. */
MXKC_FN uint32_t
mxkc_block_f32 (const mxkc_bdot *b, uint8_t sa, uint8_t sb, int lsb_ab)
{
  if (sa == 0xFF || sb == 0xFF)
    return MXKC_NAN32;
  if (b->sp.nan || b->sp.pinf || b->sp.ninf || mxkc_iszero128 (b->d))
    return mxkc_special_result (&b->sp);
  return mxkc_round_i128 (b->d, mxkc_block_exp (sa, sb, lsb_ab));
}

/* acc + d in FP32, RNE (IEEE 754 addition: signed zeros, Inf - Inf = NaN, subnormals kept).
 * Device: __fadd_rn (never contracted or flushed); host: a C float add (SSE, no excess
 * precision: FLT_EVAL_METHOD 0). */
MXKC_FN uint32_t
mxkc_fadd (uint32_t acc, uint32_t d)
{
#ifdef __CUDA_ARCH__
  return __float_as_uint (__fadd_rn (__uint_as_float (acc), __uint_as_float (d)));
#else
  volatile float s = mxkc_u2f (acc) + mxkc_u2f (d);
  return mxkc_f2u (s);
#endif
}

/* The block-fp32 output: any NaN as libmxgold's one NaN. */
MXKC_FN uint32_t
mxkc_fp32_out (uint32_t acc)
{
  return (acc & 0x7FFFFFFFu) > 0x7F800000u ? MXKC_NAN32 : acc;
}

/*------------------------------------------------------ exact accumulation -*/
MXKC_FN void
mxkc_sa_reset (mxkc_sacc *s)
{
  for (int i = 0; i < MXKC_SA_DIGITS; i++)
    s->d[i] = 0;
  s->adds = 0;
}

/* Carries out of every digit but the top one, which keeps the sign: after it the value is
 * sum d[i] 2^(32 i) with d[i] in [0, 2^32) below the top. */
MXKC_FN void
mxkc_sa_norm (mxkc_sacc *s)
{
  for (int i = 0; i < MXKC_SA_DIGITS - 1; i++)
    {
      int64_t low = (int64_t) ((uint64_t) s->d[i] & 0xFFFFFFFFu);
      s->d[i + 1] += (s->d[i] - low) / ((int64_t) 1 << 32); /* exact: a multiple of 2^32 */
      s->d[i] = low;
    }
  s->adds = 0;
}

/* s += v x 2^e exactly (v signed 128 bits; e - MXKC_SA_BASE >= 0 and the sum in range). */
MXKC_FN void
mxkc_sa_add (mxkc_sacc *s, mxkc_i128 v, int e)
{
  int neg = mxkc_isneg128 (v);
  mxkc_i128 m = neg ? mxkc_neg128 (v) : v;            /* at most 2^127: fits unsigned */
  int p = e - MXKC_SA_BASE, q = p >> 5, off = p & 31;
  uint32_t w[5] = { (uint32_t) m.lo, (uint32_t) (m.lo >> 32), (uint32_t) m.hi,
                    (uint32_t) (m.hi >> 32), 0 };
  for (int i = 0; i < 5 && q + i < MXKC_SA_DIGITS; i++)
    {
      /* bits 32 i .. 32 i + 31 of m x 2^off */
      uint64_t pair = ((uint64_t) w[i] << 32) | (i ? w[i - 1] : 0);
      int64_t c = (int64_t) (uint32_t) ((pair << off) >> 32);
      s->d[q + i] += neg ? -c : c;
    }
  if (++s->adds >= MXKC_SA_BATCH)
    mxkc_sa_norm (s);
}

/* s += the FP32 value f (finite). */
MXKC_FN void
mxkc_sa_add_f32 (mxkc_sacc *s, uint32_t f)
{
  uint32_t e = (f >> 23) & 0xFF, m = f & 0x7FFFFFu;
  if (e == 0 && m == 0)
    return;
  int64_t sig = (int64_t) (e ? m | 0x800000u : m);
  mxkc_sa_add (s, mxkc_i128_of (f >> 31 ? -sig : sig), (e ? (int) e : 1) - 150);
}

/* C_in as a term: its specials into sp, its value into s. */
MXKC_FN void
mxkc_sa_add_cin (mxkc_sacc *s, mxkc_spec *sp, uint32_t f)
{
  uint32_t neg = f >> 31, mag = f & 0x7FFFFFFFu;
  if (mag > 0x7F800000u)
    sp->nan = 1;
  else if (mag == 0x7F800000u)
    {
      if (neg)
        sp->ninf = 1;
      else
        sp->pinf = 1;
      sp->negzero = 0;
    }
  else if (mag == 0)
    sp->negzero &= (int) neg;
  else
    {
      mxkc_sa_add_f32 (s, f);
      sp->negzero = 0;
    }
}

/* The exact sum rounded once (RNE) to FP32, its specials sp (destroys s). */
MXKC_FN uint32_t
mxkc_sa_round (mxkc_sacc *s, const mxkc_spec *sp)
{
  if (sp->nan || sp->pinf || sp->ninf)
    return mxkc_special_result (sp);
  mxkc_sa_norm (s);
  uint32_t neg = s->d[MXKC_SA_DIGITS - 1] < 0;
  if (neg)
    {
      for (int i = 0; i < MXKC_SA_DIGITS; i++)
        s->d[i] = -s->d[i];
      mxkc_sa_norm (s);
    }
  int h = MXKC_SA_DIGITS - 1;
  while (h >= 0 && s->d[h] == 0)
    h--;
  if (h < 0)
    return mxkc_special_result (sp);                  /* an exact zero */
  /* digits h..h-3 as 128 bits, every lower nonzero digit folded into bit 0 (at least 96 bits
   * below the leading one) */
  uint64_t g[4];
  for (int i = 0; i < 4; i++)
    g[i] = h - i >= 0 ? (uint64_t) s->d[h - i] : 0;
  mxkc_i128 mag;
  mag.hi = (g[0] << 32) | g[1], mag.lo = (g[2] << 32) | g[3];
  for (int i = 0; i < h - 3; i++)
    mag.lo |= s->d[i] != 0;
  return mxkc_round_u128 (neg, mag, MXKC_SA_BASE + 32 * (h - 3));
}

/* The exact model's window: a 128-bit integer w with bit 0 of weight 2^base, where block j
 * (exponent E_j) adds d_j x 2^(E_j - base).  For an output of row scales in [amin, amax] and
 * column scales in [bmin, bmax] (0xFF left out), base = amin + bmin - 254 + lsb_a + lsb_b and
 * every shift is at most spread = amax - amin + bmax - bmin; |w| < nb 2^(dot_bits + spread),
 * so the window is exact when dot_bits + spread + bitlen(nb) <= 126.  Otherwise that output
 * takes the superaccumulator for every block. */
MXKC_FN int
mxkc_window_ok (int dot_bits, int spread, uint64_t nb)
{
  return dot_bits + spread + mxkc_bitlen (nb) <= 126;
}

/* The range of n scales (stride 1): *lo, *hi of the non-NaN ones, returns 1 if one is NaN. */
MXKC_FN int
mxkc_scale_range (const uint8_t *s, size_t n, int *lo, int *hi)
{
  int l = 255, h = -1, nan = 0;
  for (size_t i = 0; i < n; i++)
    {
      if (s[i] == 0xFF)
        nan = 1;
      else
        l = s[i] < l ? s[i] : l, h = s[i] > h ? s[i] : h;
    }
  if (h < 0)
    l = h = 0;
  *lo = l, *hi = h;
  return nan;
}

/* The exact model's state of one output. */
typedef struct
{
  mxkc_i128 w;      /* the window */
  int base;         /* the window's bit 0 exponent */
  int amin, bmin;   /* the scales the shifts are counted from */
  int window;       /* 1: the window, 0: the superaccumulator */
  mxkc_spec sp;
} mxkc_xacc;

/* dot_bits: mxkc_dot_bits of the pair (a larger one only narrows the window). */
MXKC_FN void
mxkc_xacc_init (mxkc_xacc *x, mxkc_sacc *s, int amin, int amax, int bmin, int bmax,
                int lsb_ab, int dot_bits, uint64_t nb)
{
  x->w.lo = x->w.hi = 0;
  x->amin = amin, x->bmin = bmin;
  x->base = mxkc_block_exp ((uint8_t) amin, (uint8_t) bmin, lsb_ab);
  x->window = mxkc_window_ok (dot_bits, amax - amin + bmax - bmin, nb);
  x->sp = mxkc_spec_init ();
  if (!x->window)
    mxkc_sa_reset (s); /* a window output's is reset at the end (local memory on the GPU) */
}

/* Block (b, scales sa, sb) into the exact sum. */
MXKC_FN void
mxkc_xacc_add (mxkc_xacc *x, mxkc_sacc *s, const mxkc_bdot *b, uint8_t sa, uint8_t sb,
               int lsb_ab)
{
  mxkc_spec_merge (&x->sp, &b->sp);
  if (sa == 0xFF || sb == 0xFF)
    {
      x->sp.nan = 1;                                  /* OCP 5.1: a NaN scale */
      return;
    }
  if (mxkc_iszero128 (b->d))
    return;
  if (x->window)
    x->w = mxkc_add128 (x->w, mxkc_shl128 (b->d, sa - x->amin + sb - x->bmin));
  else
    mxkc_sa_add (s, b->d, mxkc_block_exp (sa, sb, lsb_ab));
}

/* The exact model's output: C_in (FP32 bits) plus the sum, rounded once. */
MXKC_FN uint32_t
mxkc_xacc_result (mxkc_xacc *x, mxkc_sacc *s, uint32_t cin)
{
  mxkc_spec sp = x->sp;
  if (x->window)
    {
      mxkc_sa_reset (s);
      mxkc_sa_add (s, x->w, x->base);
    }
  mxkc_sa_add_cin (s, &sp, cin);
  return mxkc_sa_round (s, &sp);
}
#endif
