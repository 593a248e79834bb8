/* shim.h -- the C view of the Verilated MX units (sim/shim.cpp owns the C++ models).
 * SPDX-License-Identifier: MIT */
#ifndef MX_SHIM_H
#define MX_SHIM_H
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

#define SIM_K 32

typedef struct dut dut;

/* unit: 0 mx_quantize, 1 mx_mac.  fst: waveform file or NULL. */
dut *dut_new (int unit, const char *fst);
/* Write coverage (if compiled in) to path; returns 0 if written, -1 if not a coverage build. */
int dut_write_coverage (dut *d, const char *path);
void dut_free (dut *d);
void dut_reset (dut *d);
/* Evaluate the combinational logic for the current inputs. */
void dut_eval (dut *d);
/* One rising clock edge (inputs as last set). */
void dut_tick (dut *d);
int dut_in_ready (dut *d);
int dut_out_valid (dut *d);
void dut_set_out_ready (dut *d, int ready);

/* mx_quantize inputs and outputs; pol: the policy word (sim/qpol.h) */
void q_set_in (dut *d, int valid, const uint32_t lanes[SIM_K], int bf16, int fmt, int rnd,
               int rule, uint64_t pol, const uint32_t rbits[SIM_K]);
void q_get_out (dut *d, uint8_t *scale, uint8_t codes[SIM_K], uint8_t *flags);

/* mx_mac inputs and outputs.  accum: MX_ACCUM_*; glog: fused-group G = 2^glog; bf16: a BF16
 * result (in the low 16 bits). */
void m_set_in (dut *d, int valid, uint8_t scale_a, const uint8_t a[SIM_K], int fmt_a,
               uint8_t scale_b, const uint8_t b[SIM_K], int fmt_b, int clear, uint32_t cin,
               int rnd, int accum, int glog, int bf16);
uint32_t m_get_out (dut *d, uint8_t *flags);

#ifdef __cplusplus
}
#endif
#endif
