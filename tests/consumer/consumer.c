/* consumer -- a program outside mxgold that uses its three installed libraries: E4M3 quantize of
 * one block (libmxgold), the same block through the fast kernels (libmxk), and a .mxv case
 * computed from a header (libmxvec).  Expected bits are worked by hand: 32 x 1.0 -> scale 0x77
 * (2^-8), every element 256 = E4M3 0x78.
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>
#include <mx.h>
#include <mxk.h>
#include <mxvec.h>

int
main (void)
{
  uint64_t in[MX_BLOCK], scale, codes[MX_BLOCK];
  uint32_t f32[MX_BLOCK];
  uint8_t ks, kc[MX_BLOCK];
  unsigned fl;
  mx_policy pol = mx_policy_ocp ();
  for (int i = 0; i < MX_BLOCK; i++)
    in[i] = f32[i] = 0x3F800000;
  if (mx_quantize (&scale, codes, &fl, NULL, mx_format_get (MX_E4M3), mx_format_get (MX_E8M0),
                   mx_format_get (MX_FP32), in, MX_BLOCK, NULL, &pol, MX_RNE) != MX_OK
      || scale != 0x77 || codes[0] != 0x78 || fl != 0)
    return printf ("libmxgold: scale %02llX code %02llX\n", (unsigned long long) scale,
                   (unsigned long long) codes[0]), 1;
  if (mxk_quantize (&ks, kc, f32, MX_FP32, MX_BLOCK, MX_E4M3, MX_SCALE_FLOOR, MX_RNE,
                    MX_PACKING_UNPACKED) != MX_OK || ks != 0x77 || kc[31] != 0x78)
    return printf ("libmxk: scale %02X code %02X\n", ks, kc[31]), 1;
  static mxv_header h;
  static mxv_case c;
  mxv_header_init (&h);
  h.elem = mx_format_get (MX_E4M3);
  memcpy (c.in, in, sizeof in);
  if (mxv_compute (&h, &c) != MX_OK || c.scale != 0x77)
    return printf ("libmxvec: scale %02llX\n", (unsigned long long) c.scale), 1;
  printf ("consumer: libmxgold %s, libmxk (%s path), libmxvec: ok\n", mx_version (),
          mxk_path_name (mxk_current_path ()));
  return 0;
}
