/* shim.h -- C interface to the Verilated cvfpu MXDOTP wrapper (shim.cpp).
 * SPDX-License-Identifier: MIT */
#ifndef MXG_CVFPU_SHIM_H
#define MXG_CVFPU_SHIM_H
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

/* One MXDOTP operation: the wrapper's ports (mxg_cvfpu_wrap.sv). */
typedef struct cvfpu_op {
  uint32_t a[8], b[8];   /* the 256-bit A and B lanes, word 0 = bits 31..0 */
  unsigned a_rem, b_rem; /* FP6 remainder bits */
  unsigned xa, xb;       /* E8M0 scales */
  uint32_t acc;          /* FP32 accumulator, or BF16 in bits 15..0 */
  unsigned rnd;          /* fpnew roundmode_e: RNE 0 RTZ 1 RDN 2 RUP 3 RMM 4 ROD 5 */
  unsigned is_int;       /* MXDOTPI */
  unsigned src_fmt, dst_fmt; /* fpnew fp_format_e */
} cvfpu_op;

typedef struct cvfpu_dut cvfpu_dut;
cvfpu_dut *cvfpu_new (unsigned pipe);
void cvfpu_free (cvfpu_dut *d);
/* status: {NV, DZ, OF, UF, NX} as bits 4..0 */
void cvfpu_run (cvfpu_dut *d, const cvfpu_op *op, uint32_t *result, unsigned *status);

#ifdef __cplusplus
}
#endif
#endif
