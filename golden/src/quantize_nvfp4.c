/* mx_quantize_nvfp4, mx_nvfp4_amax, mx_nvfp4_global_scale -- NVFP4 two-level quantization as
 * NVIDIA TransformerEngine computes it (docs/semantics.md section 9): every FP32 operation of its
 * kernel, in its order, each one rounding modelled by fp32.c.
 * SPDX-License-Identifier: MIT */
#include "internal.h"

#define FP32_MAX_BITS 0x7F7FFFFFu /* FLT_MAX */

static int
nvfp4_input (const mx_format *in)
{
  return in != NULL && (in->id == MX_FP32 || in->id == MX_BF16 || in->id == MX_FP16);
}

/* m = max(m, |x|) as fmaxf does it: a NaN never wins.  x: an input pattern, t: scratch. */
static void
fmax_abs (mpfr_ptr m, mpfr_ptr t, const mx_format *in, uint64_t x)
{
  mx__decode (t, in, x); /* exact, and exact in FP32: TE widens BF16 and FP16 to float */
  if (!mpfr_nan_p (t) && mpfr_cmpabs (t, m) > 0)
    mpfr_abs (m, t, MPFR_RNDN);
}

int
mx_nvfp4_amax (uint64_t *amax, const mx_format *in, const uint64_t in_bits[], size_t n)
{
  if (amax == NULL || !nvfp4_input (in) || (n > 0 && in_bits == NULL))
    return MX_EINVAL;
  mx__state s = mx__enter ();
  mx__tmp tm, tt;
  mpfr_ptr m = mx__tmp_init (&tm, 64), t = mx__tmp_init (&tt, 64);
  mpfr_set_zero (m, 1);
  for (size_t i = 0; i < n; i++)
    fmax_abs (m, t, in, in_bits[i]);
  *amax = mx__fp32_bits (m); /* exact */
  mx__leave (s);
  return MX_OK;
}

/* senc = S_enc of an FP32 amax value (sign clear):
 *   fminf(fl32(2688 / amax), FLT_MAX), then 1 if amax == 0 or the quotient is 0.
 * fminf drops a NaN quotient (NaN amax), leaving FLT_MAX. */
static void
s_enc_of (mpfr_ptr senc, mpfr_srcptr amax)
{
  mx__tmp tn;
  mpfr_ptr num = mx__tmp_init (&tn, 64);
  const mx_format *f32 = mx_format_get (MX_FP32);
  mpfr_set_ui (num, 448 * 6, MPFR_RNDN); /* fl32(448.0f * 6.0f), exact */
  mx__f32_div (senc, num, amax, NULL);
  if (mpfr_nan_p (senc) || mpfr_inf_p (senc))
    mx__decode (senc, f32, FP32_MAX_BITS);
  if (mpfr_zero_p (amax) || mpfr_zero_p (senc))
    mpfr_set_ui (senc, 1, MPFR_RNDN);
}

int
mx_nvfp4_global_scale (uint64_t *s_enc, uint64_t amax)
{
  if (s_enc == NULL || amax > 0x7FFFFFFFu)
    return MX_EINVAL;
  mx__state s = mx__enter ();
  mx__tmp ta, te;
  mpfr_ptr a = mx__tmp_init (&ta, 64), e = mx__tmp_init (&te, 64);
  mx__decode (a, mx_format_get (MX_FP32), amax);
  s_enc_of (e, a);
  *s_enc = mx__fp32_bits (e);
  mx__leave (s);
  return MX_OK;
}

/* The element conversion of cvt.rn.satfinite.e2m1x2.f32: RNE, +-6 beyond, NaN gives +6. */
static mx_policy
satfinite (void)
{
  mx_policy p = mx_policy_ocp ();
  p.overflow = MX_OVERFLOW_SAT;
  p.nan_elem = MX_NAN_ELEM_MAX;
  p.zero_sign = MX_ZERO_SIGN_KEEP;
  return p;
}

/* TE's stochastic_round_fp4_e2m1 (ptx.cuh), the software form of cvt.rs.satfinite.e2m1x4.f32:
 *   a = |v|; step = 2 (a >= 4), 1 (a >= 2), else 0.5; t = fl32(fmaf(u, step, a)), u = r8/256;
 *   step_t likewise from t; q = fminf(floor(t / step_t) * step_t, 6); the sign of v put back,
 *   NaN giving +6.  u * step is exact, so fmaf is one rounding of the exact sum. */
static unsigned
sr_elem (uint64_t *code, mpfr_srcptr v, uint32_t rbits, const mx_format *e2m1,
         const mx_policy *pol)
{
  unsigned f = 0;
  if (mpfr_nan_p (v))
    {
      *code = e2m1->max_mag; /* +6 */
      return MX_FLAG_INVALID;
    }
  mx__tmp ta, tu, tt;
  mpfr_ptr a = mx__tmp_init (&ta, 64), u = mx__tmp_init (&tu, 64), t = mx__tmp_init (&tt, 64);
  mpfr_abs (a, v, MPFR_RNDN);
  long ls = mpfr_cmp_ui (a, 4) >= 0 ? 1 : mpfr_cmp_ui (a, 2) >= 0 ? 0 : -1; /* log2 step */
  mpfr_set_ui_2exp (u, rbits & 0xFFu, ls - 8, MPFR_RNDN); /* u * step, exact */
  mx__f32_add (t, u, a, NULL);
  long lt = mpfr_cmp_ui (t, 4) >= 0 ? 1 : mpfr_cmp_ui (t, 2) >= 0 ? 0 : -1;
  mpfr_mul_2si (t, t, -lt, MPFR_RNDN); /* t * inv_step_t: exact */
  mpfr_floor (t, t);
  mpfr_mul_2si (t, t, lt, MPFR_RNDN);
  if (mpfr_cmp_ui (t, 6) > 0)
    {
      mpfr_set_ui (t, 6, MPFR_RNDN);
      f |= MX_FLAG_OVERFLOW;
    }
  if (!mpfr_equal_p (t, a))
    f |= MX_FLAG_INEXACT;
  mpfr_setsign (t, t, mpfr_signbit (v), MPFR_RNDN);
  mx__encode (code, NULL, e2m1, t, 0, pol, MX_RNE); /* exact: t is on the E2M1 grid */
  return f;
}

/* The amax of one block (rows r0..r1-1, cols c0..c0+15), NaNs ignored. */
static void
block_amax (mpfr_ptr m, mpfr_ptr t, const mx_format *in, const uint64_t b[], size_t cols,
            size_t r0, size_t r1, size_t c0)
{
  mpfr_set_zero (m, 1);
  for (size_t r = r0; r < r1; r++)
    for (size_t c = c0; c < c0 + MX_NVFP4_BLOCK; c++)
      fmax_abs (m, t, in, b[r * cols + c]);
}

int
mx_quantize_nvfp4 (uint64_t scales[], uint64_t codes[], unsigned *flags, const mx_format *in,
                   const uint64_t in_bits[], size_t rows, size_t cols, uint64_t amax,
                   int tile_2d, const uint32_t rbits[], mx_rounding rnd)
{
  size_t n;
  if (scales == NULL || codes == NULL || in_bits == NULL || !nvfp4_input (in) || rows == 0
      || cols == 0 || cols % MX_NVFP4_BLOCK != 0 || mx__mul_overflow (rows, cols, &n)
      || amax > 0x7FFFFFFFu || (rnd != MX_RNE && rnd != MX_SR) || (rnd == MX_SR && rbits == NULL))
    return MX_EINVAL;
  mx__state s = mx__enter ();
  const mx_format *f32 = mx_format_get (MX_FP32), *e2m1 = mx_format_get (MX_E2M1),
                  *ue4m3 = mx_format_get (MX_UE4M3);
  const mx_policy pol = satfinite ();
  mx__tmp tg, te, td, tk, tm, tx, tv, tr;
  mpfr_ptr g = mx__tmp_init (&tg, 64), senc = mx__tmp_init (&te, 64);
  mpfr_ptr sdec = mx__tmp_init (&td, 53), k = mx__tmp_init (&tk, 64);
  mpfr_ptr m = mx__tmp_init (&tm, 64), x = mx__tmp_init (&tx, 64), v = mx__tmp_init (&tv, 64);
  mpfr_ptr rcp = mx__tmp_init (&tr, 64);
  unsigned all = 0;

  mx__decode (g, f32, amax);
  s_enc_of (senc, g);
  /* S_dec = 1.0 / S_enc in double, stored to float (TE: "to match with how emulation code was
   * written"): fl64 then fl32 */
  mpfr_ui_div (sdec, 1, senc, MPFR_RNDN);
  mx__f32_round (sdec, NULL);
  /* k = fl32(S_enc * fl32(1/6)), the factor of compute_decoding_scaling_factor */
  mpfr_set_ui (x, 1, MPFR_RNDN);
  mpfr_set_ui (v, 6, MPFR_RNDN);
  mx__f32_div (k, x, v, NULL);
  mx__f32_mul (k, senc, k, NULL);

  size_t nb = cols / MX_NVFP4_BLOCK, step = tile_2d ? MX_NVFP4_BLOCK : 1;
  for (size_t r0 = 0; r0 < rows; r0 += step)
    {
      size_t r1 = rows - r0 < step ? rows : r0 + step;
      for (size_t j = 0; j < nb; j++)
        {
          size_t c0 = j * MX_NVFP4_BLOCK;
          unsigned f;
          uint64_t sc;
          block_amax (m, x, in, in_bits, cols, r0, r1, c0);
          /* S_dec_b = fl32(block_amax * k), then e4m3 satfinite */
          mx__f32_mul (v, m, k, NULL);
          mx__encode (&sc, &f, ue4m3, v, 0, &pol, MX_RNE);
          all |= f & (MX_FLAG_INEXACT | MX_FLAG_OVERFLOW);
          /* rcp = fminf(1 / (float(scale) * S_dec), FLT_MAX); 1/0 is +Inf */
          mx__decode (x, ue4m3, sc);
          mx__f32_mul (v, x, sdec, NULL);
          mpfr_set_ui (x, 1, MPFR_RNDN);
          mx__f32_div (rcp, x, v, NULL);
          if (mpfr_inf_p (rcp))
            mx__decode (rcp, f32, FP32_MAX_BITS);
          for (size_t r = r0; r < r1; r++)
            {
              scales[r * nb + j] = sc;
              for (size_t c = c0; c < c0 + MX_NVFP4_BLOCK; c++)
                {
                  size_t i = r * cols + c;
                  mx__decode (x, in, in_bits[i]); /* exact in FP32 */
                  mx__f32_mul (v, x, rcp, NULL);  /* mul.f32x2, RN */
                  if (rnd == MX_SR)
                    f = sr_elem (&codes[i], v, rbits[i], e2m1, &pol);
                  else
                    {
                      mx__encode (&codes[i], &f, e2m1, v, 0, &pol, MX_RNE);
                      f &= MX_FLAG_INEXACT | MX_FLAG_OVERFLOW | MX_FLAG_INVALID;
                    }
                  all |= f;
                }
            }
        }
    }
  mx__leave (s);
  if (flags)
    *flags = all;
  return MX_OK;
}
