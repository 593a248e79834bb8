/* shim.h -- C interface to the Verilated 8-element cvfpu MXDOTP wrapper (shim.cpp).
 * SPDX-License-Identifier: MIT */
#ifndef MXG_CVFPU8_SHIM_H
#define MXG_CVFPU8_SHIM_H
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

/* One MXDOTP operation: the wrapper's ports (mxg_cvfpu8_wrap.sv). */
typedef struct cvfpu8_op {
  uint32_t a[2], b[2];   /* the 64-bit A and B operands, word 0 = bits 31..0 */
  unsigned a_rem, b_rem; /* FP6: top 2 bits of the 11th element */
  unsigned xa, xb;       /* E8M0 scales */
  uint32_t acc;          /* FP32 accumulator, or BF16 in bits 15..0 */
  unsigned rnd;          /* fpnew roundmode_e: RNE 0 RTZ 1 RDN 2 RUP 3 RMM 4 ROD 5 */
  unsigned is_int;       /* MXDOTPI */
  unsigned src_fmt, dst_fmt; /* fpnew fp_format_e */
} cvfpu8_op;

typedef struct cvfpu8_dut cvfpu8_dut;
cvfpu8_dut *cvfpu8_new (unsigned pipe);
void cvfpu8_free (cvfpu8_dut *d);
/* status: {NV, DZ, OF, UF, NX} as bits 4..0 */
void cvfpu8_run (cvfpu8_dut *d, const cvfpu8_op *op, uint32_t *result, unsigned *status);

#ifdef __cplusplus
}
#endif
#endif
