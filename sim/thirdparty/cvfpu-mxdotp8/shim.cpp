// shim.cpp -- owns the Verilated 8-element pulp-platform/cvfpu MXDOTP model (through our wrapper
// mxg_cvfpu8_wrap.sv) and exposes it to the C harness (harness.c) through shim.h.
// SPDX-License-Identifier: MIT
#include "shim.h"
#include "verilated.h"
#include "Vmxg_cvfpu8_wrap.h"

struct cvfpu8_dut {
  VerilatedContext ctx;
  Vmxg_cvfpu8_wrap *top = nullptr;
  unsigned pipe = 0;
};

static void
clock (Vmxg_cvfpu8_wrap *t)
{
  t->clk_i = 0;
  t->eval ();
  t->clk_i = 1;
  t->eval ();
}

extern "C" cvfpu8_dut *
cvfpu8_new (unsigned pipe)
{
  cvfpu8_dut *d = new cvfpu8_dut;
  d->ctx.randReset (0);
  d->top = new Vmxg_cvfpu8_wrap (&d->ctx);
  d->pipe = pipe;
  d->top->rst_ni = 0;
  clock (d->top);
  d->top->rst_ni = 1;
  clock (d->top);
  return d;
}

extern "C" void
cvfpu8_free (cvfpu8_dut *d)
{
  d->top->final ();
  delete d->top;
  delete d;
}

extern "C" void
cvfpu8_run (cvfpu8_dut *d, const cvfpu8_op *op, uint32_t *result, unsigned *status)
{
  Vmxg_cvfpu8_wrap *t = d->top;
  t->a_i = (uint64_t) op->a[1] << 32 | op->a[0];
  t->b_i = (uint64_t) op->b[1] << 32 | op->b[0];
  t->a_rem_i = op->a_rem & 3;
  t->b_rem_i = op->b_rem & 3;
  t->xa_i = op->xa & 0xff;
  t->xb_i = op->xb & 0xff;
  t->acc_i = op->acc;
  t->rnd_i = op->rnd & 7;
  t->int_i = op->is_int & 1;
  t->src_fmt_i = op->src_fmt & 15;
  t->dst_fmt_i = op->dst_fmt & 15;
  t->eval ();
  // with pipeline registers the inputs stay put until the result has crossed every stage
  for (unsigned c = 0; c < d->pipe; c++)
    clock (t);
  *result = t->result_o;
  *status = t->status_o;
}
