// shim.cpp -- the C view of pncel/ocp_mx_alu's mxint8_dot_product, Verilated (combinational: set
// the inputs, eval, read the outputs).  The upstream Verilog is not in this repository; run.sh
// verilates it from MXG_RTL_OCP_MX_ALU.
// SPDX-License-Identifier: MIT
#include <cstdint>
#include "verilated.h"
#include "Vmxint8_dot_product.h"

extern "C" {
#include "shim.h"
}

struct ocp_dut {
  VerilatedContext ctx;
  Vmxint8_dot_product *top;
};

extern "C" ocp_dut *
ocp_new (void)
{
  ocp_dut *d = new ocp_dut;
  d->ctx.randReset (0);
  d->top = new Vmxint8_dot_product (&d->ctx);
  return d;
}

extern "C" void
ocp_free (ocp_dut *d)
{
  d->top->final ();
  delete d->top;
  delete d;
}

// The element ports are packed [31:0][7:0]: element i is bits 8i+7..8i, i.e. byte i % 4 of
// 32-bit word i / 4 of the VlWide.
extern "C" void
ocp_dot (ocp_dut *d, uint8_t scale_a, uint8_t scale_b, const uint8_t a[OCP_K],
         const uint8_t b[OCP_K], ocp_out *o)
{
  Vmxint8_dot_product *t = d->top;
  t->i_scale_a = scale_a;
  t->i_scale_b = scale_b;
  for (int w = 0; w < OCP_K / 4; w++) {
    uint32_t wa = 0, wb = 0;
    for (int j = 0; j < 4; j++) {
      wa |= (uint32_t) a[4 * w + j] << (8 * j);
      wb |= (uint32_t) b[4 * w + j] << (8 * j);
    }
    t->i_mxint8_elements_a[w] = wa;
    t->i_mxint8_elements_b[w] = wb;
  }
  t->eval ();
  o->fp32 = t->o_float32;
  o->overflow = t->o_overflow;
  o->underflow = t->o_underflow;
  o->is_unused = t->o_is_unused;
  o->is_nan = t->o_is_NaN;
}
