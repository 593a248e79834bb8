/* tstate -- libmxgold leaves MPFR's state as it found it and does not depend on it: every
 * operation, called with the caller's exponent range narrowed and MPFR flags raised, gives the
 * same bits as with MPFR's defaults, and the caller's range and flags come back unchanged.
 * SPDX-License-Identifier: MIT */
#include <string.h>
#include "tests.h"

static long n;

/* one round of every operation on fixed inputs: its results, as a byte string */
static mpfr_t x; /* built once in the default range: 3 * 2^-1000 */

static void
run_all (uint64_t *out)
{
  const mx_format *e4m3 = mx_format_get (MX_E4M3), *e8m0 = mx_format_get (MX_E8M0),
                  *f32 = mx_format_get (MX_FP32), *f64 = mx_format_get (MX_FP64);
  mx_policy pol = mx_policy_ocp ();
  uint64_t in[32], codes[32], scale, o[32];
  unsigned fl;
  for (int i = 0; i < 32; i++)
    in[i] = 0x3F800000u + (uint64_t) i * 0x00C00001u; /* 1 .. 2^18, varied fractions */
  in[5] = 0x00000001; /* an FP32 subnormal: below a narrowed emin */
  size_t j = 0;
  mx_quantize (&scale, codes, &fl, NULL, e4m3, e8m0, f32, in, 32, NULL, &pol, MX_RNE);
  out[j++] = scale, out[j++] = fl;
  memcpy (out + j, codes, sizeof codes), j += 32;
  mx_dequantize (o, &fl, f32, 0x00, codes, e4m3, e8m0, 32, MX_RNE); /* 2^-127 scale */
  memcpy (out + j, o, sizeof o), j += 32;
  mx_cast (&out[j++], &fl, e4m3, f64, 0x48B0000000000000ull, 0, &pol, MX_RNE); /* 2^140 */
  int t = mx_cast (&out[j], &fl, f64, e8m0, 0x00, 0, &pol, MX_RNE); /* 2^-127 */
  out[j + 1] = (uint64_t) t;
  j += 2;
  t = mx_encode (&out[j], &fl, f64, x, 0, &pol, MX_RNE);
  out[j + 1] = (uint64_t) t;
  j += 2;
  mx_dot_policy dp = mx_dot_policy_default ();
  uint64_t sa[2] = { 0x01, 0xFE }, sb[2] = { 0x01, 0xFE };
  mx_dot (&out[j++], &fl, f32, sa, codes, e4m3, sb, codes, e4m3, e8m0, 16, 2, 0, &dp, MX_RNE);
}

int
main (void)
{
  static uint64_t ref[128], got[128];
  mpfr_init2 (x, 64);
  mpfr_set_ui_2exp (x, 3, -1000, MPFR_RNDN);
  run_all (ref);
  mpfr_exp_t emin = -50, emax = 50; /* FP32 subnormals, 2^-127 scales and 2^140 lie outside */
  mpfr_set_emin (emin);
  mpfr_set_emax (emax);
  mpfr_set_inexflag ();
  mpfr_set_erangeflag ();
  mpfr_flags_t flags = mpfr_flags_save ();
  run_all (got);
  n++;
  CHECK (memcmp (ref, got, sizeof ref) == 0, "results differ under a narrowed exponent range");
  n++;
  CHECK (mpfr_get_emin () == emin && mpfr_get_emax () == emax, "the caller's exponent range changed");
  n++;
  CHECK (mpfr_flags_save () == flags, "the caller's MPFR flags changed");
  mpfr_set_emin (mpfr_get_emin_min ());
  mpfr_set_emax (mpfr_get_emax_max ());
  mpfr_clear_flags ();
  run_all (got);
  n++;
  CHECK (memcmp (ref, got, sizeof ref) == 0, "results differ under the widest exponent range");
  n++;
  CHECK (mpfr_flags_save () == 0, "libmxgold raised MPFR flags");
  mpfr_clear (x);
  return finish ("tstate", n);
}
