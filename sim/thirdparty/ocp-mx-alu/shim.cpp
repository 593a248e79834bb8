// shim.cpp -- the C view of pncel/ocp_mx_alu's mxint8_dot_product and mxint8_broadcast, Verilated
// under ocp_wrap.sv (combinational: set the inputs, eval, read the outputs).  The upstream
// Verilog is not in this repository; run.sh verilates it from MXG_RTL_OCP_MX_ALU.
// SPDX-License-Identifier: MIT
#include <cstdint>
#include "verilated.h"
#include "Vocp_wrap.h"

extern "C" {
#include "shim.h"
}

struct ocp_dut {
  VerilatedContext ctx;
  Vocp_wrap *top;
};

extern "C" ocp_dut *
ocp_new (void)
{
  ocp_dut *d = new ocp_dut;
  d->ctx.randReset (0);
  d->top = new Vocp_wrap (&d->ctx);
  return d;
}

extern "C" void
ocp_free (ocp_dut *d)
{
  d->top->final ();
  delete d->top;
  delete d;
}

// The element ports are 256 bits: element i is bits 8i+7..8i, i.e. byte i % 4 of 32-bit word
// i / 4 of the VlWide.
extern "C" void
ocp_dot (ocp_dut *d, uint8_t scale_a, uint8_t scale_b, const uint8_t a[OCP_K],
         const uint8_t b[OCP_K], ocp_out *o)
{
  Vocp_wrap *t = d->top;
  t->dot_scale_a = scale_a;
  t->dot_scale_b = scale_b;
  for (int w = 0; w < OCP_K / 4; w++) {
    uint32_t wa = 0, wb = 0;
    for (int j = 0; j < 4; j++) {
      wa |= (uint32_t) a[4 * w + j] << (8 * j);
      wb |= (uint32_t) b[4 * w + j] << (8 * j);
    }
    t->dot_a[w] = wa;
    t->dot_b[w] = wb;
  }
  t->eval ();
  o->fp32 = t->dot_fp32;
  o->overflow = t->dot_overflow;
  o->underflow = t->dot_underflow;
  o->is_unused = t->dot_is_unused;
  o->is_nan = t->dot_is_nan;
}

extern "C" void
ocp_broadcast (ocp_dut *d, uint32_t x, uint8_t *scale, uint8_t codes[OCP_K])
{
  Vocp_wrap *t = d->top;
  t->bc_fp32 = x;
  t->eval ();
  *scale = t->bc_scale;
  for (int i = 0; i < OCP_K; i++)
    codes[i] = (uint8_t) (t->bc_elements[i / 4] >> (8 * (i % 4)));
}
