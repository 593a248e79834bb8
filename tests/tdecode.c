/* tdecode -- every code of every format decodes to the OCP table values; MPFR model == slow model.
 * SPDX-License-Identifier: MIT */
#include <math.h>
#include "tests.h"

/* MPFR decode as a dyadic (sig odd) for comparison with the slow model. */
static int
same (mpfr_srcptr x, s_val v)
{
  if (mpfr_nan_p (x))
    return v.cls == S_NAN;
  if (mpfr_inf_p (x))
    return v.cls == S_INF && v.neg == (mpfr_signbit (x) != 0);
  if (mpfr_zero_p (x))
    return v.cls == S_ZERO && v.neg == (mpfr_signbit (x) != 0);
  if (v.cls != S_FINITE)
    return 0;
  mpfr_t y;
  mpfr_init2 (y, 64);
  mpfr_set_ui_2exp (y, v.sig, v.exp, MPFR_RNDN);
  if (v.neg)
    mpfr_neg (y, y, MPFR_RNDN);
  int eq = mpfr_equal_p (x, y);
  mpfr_clear (y);
  return eq;
}

/* Hand-written table values (OCP MX v1.0 Tables 1, 5-7; OFP8 v1.0) as doubles. */
static void
check_tables (long *n)
{
  static const double e2m1[8] = { 0, 0.5, 1, 1.5, 2, 3, 4, 6 };
  mpfr_t x;
  mpfr_init2 (x, 64);
  for (int c = 0; c < 16; c++, (*n)++)
    {
      mx_decode (x, mx_format_get (MX_E2M1), (uint64_t) c);
      double want = (c & 8 ? -1 : 1) * e2m1[c & 7];
      CHECK (mpfr_get_d (x, MPFR_RNDN) == want && (mpfr_signbit (x) != 0) == (c >= 8),
             "e2m1 code %X", c);
    }
  struct { mx_format_id f; uint64_t code; double v; } t[] = {
    { MX_E4M3, 0x7E, 448 }, { MX_E4M3, 0x08, 0x1p-6 }, { MX_E4M3, 0x07, 0.875 * 0x1p-6 },
    { MX_E4M3, 0x01, 0x1p-9 }, { MX_E4M3, 0xFE, -448 }, { MX_E4M3, 0x38, 1.0 },
    { MX_E5M2, 0x7B, 57344 }, { MX_E5M2, 0x04, 0x1p-14 }, { MX_E5M2, 0x03, 0.75 * 0x1p-14 },
    { MX_E5M2, 0x01, 0x1p-16 }, { MX_E5M2, 0x7C, INFINITY }, { MX_E5M2, 0xFC, -INFINITY },
    { MX_E2M3, 0x1F, 7.5 }, { MX_E2M3, 0x08, 1.0 }, { MX_E2M3, 0x07, 0.875 },
    { MX_E2M3, 0x01, 0.125 }, { MX_E2M3, 0x3F, -7.5 },
    { MX_E3M2, 0x1F, 28 }, { MX_E3M2, 0x04, 0.25 }, { MX_E3M2, 0x03, 0.1875 },
    { MX_E3M2, 0x01, 0.0625 },
    { MX_INT8, 0x7F, 127.0 / 64 }, { MX_INT8, 0x01, 1.0 / 64 }, { MX_INT8, 0x80, -2.0 },
    { MX_INT8, 0x81, -127.0 / 64 }, { MX_INT8, 0xFF, -1.0 / 64 },
    { MX_E8M0, 0x00, 0x1p-127 }, { MX_E8M0, 0x7F, 1.0 }, { MX_E8M0, 0xFE, 0x1p127 },
    { MX_UE4M3, 0x7E, 448 },
  };
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++, (*n)++)
    {
      mx_decode (x, mx_format_get (t[i].f), t[i].code);
      CHECK (mpfr_get_d (x, MPFR_RNDN) == t[i].v, "%s code %llX: got %g want %g",
             mx_format_get (t[i].f)->name, (unsigned long long) t[i].code,
             mpfr_get_d (x, MPFR_RNDN), t[i].v);
    }
  /* the NaN codes and nothing else */
  struct { mx_format_id f; int nans; } nn[] = { { MX_E4M3, 2 }, { MX_E5M2, 6 }, { MX_E2M3, 0 },
    { MX_E3M2, 0 }, { MX_E2M1, 0 }, { MX_INT8, 0 }, { MX_E8M0, 1 } };
  for (size_t i = 0; i < sizeof nn / sizeof nn[0]; i++, (*n)++)
    {
      const mx_format *f = mx_format_get (nn[i].f);
      int nans = 0;
      for (uint64_t c = 0; c < (1u << f->bits); c++)
        nans += mx_decode (x, f, c) != 0;
      CHECK (nans == nn[i].nans, "%s has %d NaN codes, want %d", f->name, nans, nn[i].nans);
    }
  mpfr_clear (x);
}

int
main (void)
{
  long n = 0;
  mpfr_t x;
  mpfr_init2 (x, 64);
  check_tables (&n);
  /* every code of every format up to 16 bits against the slow model */
  for (int id = 0; id < MX_FORMAT_COUNT; id++)
    {
      const mx_format *f = mx_format_get ((mx_format_id) id);
      if (f->bits > 16)
        continue;
      for (uint64_t c = 0; c < (1u << f->bits); c++, n++)
        {
          mx_decode (x, f, c);
          CHECK (same (x, s_decode (f, c)), "%s code %llX", f->name, (unsigned long long) c);
        }
      CHECK (f->max_mag == s_max_mag (f), "%s max_mag", f->name);
      CHECK (f->emax == s_emax (f), "%s emax %d vs %d", f->name, f->emax, s_emax (f));
    }
  /* FP32/FP64: a sweep of exponents and fraction patterns */
  rng r = { test_seed () };
  for (int i = 0; i < 200000; i++, n += 2)
    {
      uint64_t b32 = rng_next (&r) & 0xFFFFFFFF, b64 = rng_next (&r);
      mx_decode (x, mx_format_get (MX_FP32), b32);
      CHECK (same (x, s_decode (mx_format_get (MX_FP32), b32)), "fp32 %08llX", (unsigned long long) b32);
      mx_decode (x, mx_format_get (MX_FP64), b64);
      CHECK (same (x, s_decode (mx_format_get (MX_FP64), b64)), "fp64 %016llX", (unsigned long long) b64);
    }
  mpfr_clear (x);
  return finish ("tdecode", n);
}
