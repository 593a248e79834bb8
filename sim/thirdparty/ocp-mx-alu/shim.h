/* shim.h -- the C harness's view of the Verilated pncel/ocp_mx_alu units (ocp_wrap.sv).
 * SPDX-License-Identifier: MIT */
#ifndef OCP_SHIM_H
#define OCP_SHIM_H
#include <stdint.h>

#define OCP_K 32 /* the upstream BLOCK_SIZE */

typedef struct ocp_dut ocp_dut;

/* the unit's outputs, one field per port */
typedef struct {
  uint32_t fp32;           /* o_float32 */
  int overflow, underflow; /* o_overflow, o_underflow */
  int is_unused, is_nan;   /* o_is_unused (a 0x80 element), o_is_NaN (a 0xFF scale) */
} ocp_out;

ocp_dut *ocp_new (void);
void ocp_free (ocp_dut *d);
/* Drive one block pair and evaluate the combinational logic. */
void ocp_dot (ocp_dut *d, uint8_t scale_a, uint8_t scale_b, const uint8_t a[OCP_K],
              const uint8_t b[OCP_K], ocp_out *o);
/* mxint8_broadcast: one FP32 input to a scale and OCP_K element codes. */
void ocp_broadcast (ocp_dut *d, uint32_t x, uint8_t *scale, uint8_t codes[OCP_K]);
#endif
