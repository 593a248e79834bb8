/* tdequantize -- exhaustive: every scale code x every element code of every element format,
 * to FP32, BF16 and FP16 under every deterministic rounding: MPFR model == slow model.
 * Also mx_requantize against the slow model on seeded random blocks.
 * SPDX-License-Identifier: MIT */
#include <string.h>
#include "tests.h"

int
main (void)
{
  static const mx_rounding det[] = { MX_RNE, MX_RNA, MX_RNZ, MX_RHU, MX_RHD, MX_RTZ, MX_RUP, MX_RDN, MX_RTO };
  static const mx_format_id outs[] = { MX_FP32, MX_BF16, MX_FP16 };
  const mx_format *e8m0 = mx_format_get (MX_E8M0);
  long n = 0;
  mx_format_id elems[MX_FORMAT_COUNT];
  int nelem = formats_of_role (MX_ROLE_ELEM, elems);
  for (int fi = 0; fi < nelem; fi++)
    {
      const mx_format *elem = mx_format_get (elems[fi]);
      uint64_t codes[256], o1[256], o2[256];
      size_t nc = (size_t) 1 << elem->bits;
      for (size_t c = 0; c < nc; c++)
        codes[c] = c;
      for (uint64_t s = 0; s < 256; s++)
        for (size_t oi = 0; oi < 3; oi++)
          for (size_t m = 0; m < sizeof det / sizeof det[0]; m++)
            {
              const mx_format *of = mx_format_get (outs[oi]);
              if (oi > 0 && m > 0 && (s & 7)) /* BF16/FP16: every mode on every 8th scale */
                continue;
              unsigned f1 = 0;
              mx_dequantize (o1, &f1, of, s, codes, elem, e8m0, nc, det[m]);
              unsigned f2 = s_dequantize (o2, of, s, codes, elem, e8m0, nc, det[m]);
              n++;
              CHECK (f1 == f2 && memcmp (o1, o2, nc * sizeof o1[0]) == 0,
                     "%s scale %02llX -> %s %s", elem->name, (unsigned long long) s, of->name,
                     mx_rounding_name (det[m]));
            }
    }
  /* spot values by hand: E8M0 0x00 is 2^-127 (an FP32 subnormal), 0xFF is NaN */
  {
    uint64_t code = 0x38, out; /* e4m3 1.0 */
    const mx_format *f32 = mx_format_get (MX_FP32), *e4m3 = mx_format_get (MX_E4M3);
    mx_dequantize (&out, NULL, f32, 0x00, &code, e4m3, e8m0, 1, MX_RNE);
    CHECK (out == 0x00400000, "1.0 * 2^-127 = %08llX", (unsigned long long) out);
    mx_dequantize (&out, NULL, f32, 0xFF, &code, e4m3, e8m0, 1, MX_RNE);
    CHECK ((out & 0x7F800000) == 0x7F800000 && (out & 0x7FFFFF), "NaN scale gives %08llX",
           (unsigned long long) out);
    code = 0x7E; /* 448 * 2^127 overflows FP32: Inf under RNE, max under RTZ */
    mx_dequantize (&out, NULL, f32, 0xFE, &code, e4m3, e8m0, 1, MX_RNE);
    CHECK (out == 0x7F800000, "448*2^127 RNE = %08llX", (unsigned long long) out);
    mx_dequantize (&out, NULL, f32, 0xFE, &code, e4m3, e8m0, 1, MX_RTZ);
    CHECK (out == 0x7F7FFFFF, "448*2^127 RTZ = %08llX", (unsigned long long) out);
    n += 4;
  }
  /* requantize: decode exactly then quantize, against the slow model fed the FP64 values
   * (every E8M0-scaled element product below 2^128 is exact in FP64 unless it underflows, so
   * scales 0x20..0xDF keep it exact) */
  rng r = { test_seed () };
  const mx_format *f64 = mx_format_get (MX_FP64);
  for (int it = 0; it < 20000; it++, n++)
    {
      const mx_format *ein = mx_format_get (elems[rng_below (&r, (uint64_t) nelem)]);
      const mx_format *eout = mx_format_get (elems[rng_below (&r, (uint64_t) nelem)]);
      uint64_t cin[32], cout1[32], cout2[32], s1, s2, vals[32];
      uint64_t sin = 0x20 + rng_below (&r, 0xC0);
      for (int i = 0; i < 32; i++)
        cin[i] = rng_next (&r) & ((1u << ein->bits) - 1);
      mx_policy pol = mx_policy_ocp ();
      mx_rounding rnd = (mx_rounding) rng_below (&r, MX_SR); /* deterministic modes */
      pol.scale_rule = (mx_scale_rule) rng_below (&r, MX_SCALE_RULE_COUNT);
      if (pol.scale_rule == MX_SCALE_EVEN || pol.scale_rule == MX_SCALE_RCEIL_FP32
          || pol.scale_rule == MX_SCALE_FLOOR_LOG2F)
        pol.scale_rule = MX_SCALE_FLOOR; /* those read the input format; exact values have none */
      unsigned f1 = 0;
      int rc = mx_requantize (&s1, cout1, &f1, eout, e8m0, sin, cin, ein, e8m0, 32, NULL, &pol, rnd);
      s_dequantize (vals, f64, sin, cin, ein, e8m0, 32, MX_RNE);
      unsigned f2 = s_quantize (&s2, cout2, eout, e8m0, NULL, vals, 32, NULL, &pol, rnd);
      CHECK (rc == MX_OK && s1 == s2 && f1 == f2 && memcmp (cout1, cout2, sizeof cout1) == 0,
             "requantize %s -> %s scale %02llX: %02llX/%02llX flags %02X/%02X", ein->name,
             eout->name, (unsigned long long) sin, (unsigned long long) s1,
             (unsigned long long) s2, f1, f2);
    }
  return finish ("tdequantize", n);
}
