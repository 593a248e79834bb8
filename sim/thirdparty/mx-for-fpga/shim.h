/* shim.h -- the C view of the Verilated mxfpga_top (shim.cpp owns the C++ model).
 * SPDX-License-Identifier: MIT */
#ifndef MXFPGA_SHIM_H
#define MXFPGA_SHIM_H
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

#define MXF_K 32     /* block size k of every instance (the upstream default) */
#define MXF_NFMT 5   /* formats, in mxgold's order: e4m3 e5m2 e2m3 e3m2 e2m1 */

/* 0 on success. */
int mxf_open (void);
void mxf_close (void);
/* conv_bf16tomxfp of every format: apply one block for one rising clock edge, then read what the
 * output registers hold (the result of an earlier block: the pipeline is 5 registers deep). */
void mxf_conv_clock (const uint16_t bf16[MXF_K], uint8_t scale[MXF_NFMT],
                     uint8_t codes[MXF_NFMT][MXF_K]);
/* conv_bf16tomxfp_spec, variant v = 2 f + 1 - sat (f: 0 e4m3, 1 e5m2): the outputs after the
 * last mxf_conv_clock. */
void mxf_conv_spec (uint8_t scale[4], uint8_t codes[4][MXF_K]);
/* dot_fp of every format (combinational): format f reads the low bits of each code.  out[f]:
 * the fixed-point result sign-extended to 128 bits, least significant 32-bit word first. */
void mxf_dot (const uint8_t a[MXF_K], const uint8_t b[MXF_K], uint32_t out[MXF_NFMT][4]);
/* dot_fp_spec for f = 0 e4m3, 1 e5m2: the outputs after the last mxf_dot (o_dp as above). */
void mxf_dot_spec (uint32_t out[2][4], uint8_t nan[2]);

#ifdef __cplusplus
}
#endif
#endif
