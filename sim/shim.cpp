// shim.cpp -- the only C++ in mxgold: owns the Verilated models and exposes them to the C
// harness (sim/mxsim.c) through shim.h.  Built with MX_SHIM_QUANTIZE_ONLY (sweep-rtl), it owns
// mx_quantize alone: mx_mac is neither Verilated nor compiled, and unit 1 does not exist.
// SPDX-License-Identifier: MIT
#include <cstdio>
#include <cstdlib>
#include "shim.h"
#include "verilated.h"
#include "Vmx_quantize.h"
#ifndef MX_SHIM_QUANTIZE_ONLY
#include "Vmx_mac.h"
#define MAC(x) x
#else
struct Vmx_mac; // never made: dut_new refuses unit 1, so these branches are never taken
#define MAC(x) (abort (), 0)
#endif
#if VM_TRACE
#include "verilated_fst_c.h"
#endif

struct dut {
  VerilatedContext ctx;
  Vmx_quantize *q = nullptr;
  Vmx_mac *m = nullptr;
#if VM_TRACE
  VerilatedFstC *tfp = nullptr;
#endif
  uint64_t time = 0;
  bool low_seen = false; // the model has evaluated clk_i = 0 since the last rising edge
};

// One clock cycle.  clk_i falls right after the rising edge's evaluation; the harness's
// dut_eval of the next cycle's inputs is then also the falling edge's, and clock evaluates the
// low phase itself only when no dut_eval came between (Verilator sees an edge only between two
// evaluations).  Nothing is sensitive to the falling edge: the same cycles, one evaluation less.
template <typename T> static void
clock (dut *d, T *top)
{
  if (!d->low_seen) top->eval ();
#if VM_TRACE
  if (d->tfp) d->tfp->dump (d->time);
#endif
  d->time++;
  top->clk_i = 1;
  top->eval ();
#if VM_TRACE
  if (d->tfp) d->tfp->dump (d->time);
#endif
  d->time++;
  top->clk_i = 0;
  d->low_seen = false;
}

extern "C" dut *
dut_new (int unit, const char *fst)
{
#ifdef MX_SHIM_QUANTIZE_ONLY
  if (unit != 0) {
    fprintf (stderr, "shim: built without mx_mac (MX_SHIM_QUANTIZE_ONLY)\n");
    return nullptr;
  }
#endif
  dut *d = new dut;
  d->ctx.randReset (0);
  if (unit == 0)
    d->q = new Vmx_quantize (&d->ctx);
  else
    MAC (d->m = new Vmx_mac (&d->ctx));
#if VM_TRACE
  if (fst) {
    d->ctx.traceEverOn (true);
    d->tfp = new VerilatedFstC;
    if (d->q) d->q->trace (d->tfp, 99);
    else MAC (d->m->trace (d->tfp, 99));
    d->tfp->open (fst);
  }
#else
  (void) fst;
#endif
  return d;
}

extern "C" int
dut_write_coverage (dut *d, const char *path)
{
#if VM_COVERAGE
  d->ctx.coveragep ()->write (path);
  return 0;
#else
  (void) d; (void) path;
  return -1;
#endif
}

extern "C" void
dut_free (dut *d)
{
#if VM_TRACE
  if (d->tfp) { d->tfp->close (); delete d->tfp; }
#endif
  if (d->q) { d->q->final (); delete d->q; }
  if (d->m) { MAC (d->m->final ()); MAC (delete d->m); }
  delete d;
}

extern "C" void
dut_reset (dut *d)
{
  if (d->q) {
    d->q->rst_ni = 0; d->q->in_valid_i = 0; d->q->out_ready_i = 1;
    clock (d, d->q); d->q->rst_ni = 1; clock (d, d->q);
  } else {
    MAC ((d->m->rst_ni = 0, d->m->in_valid_i = 0, d->m->out_ready_i = 1));
    MAC (clock (d, d->m)); MAC (d->m->rst_ni = 1); MAC (clock (d, d->m));
  }
}

extern "C" void
dut_eval (dut *d)
{
  if (d->q) d->q->eval (); else MAC (d->m->eval ());
  d->low_seen = true;
}
extern "C" void dut_tick (dut *d) { if (d->q) clock (d, d->q); else MAC (clock (d, d->m)); }
extern "C" int dut_in_ready (dut *d) { return d->q ? d->q->in_ready_o : MAC (d->m->in_ready_o); }
extern "C" int dut_out_valid (dut *d) { return d->q ? d->q->out_valid_o : MAC (d->m->out_valid_o); }
extern "C" void
dut_set_out_ready (dut *d, int r)
{
  if (d->q) d->q->out_ready_i = r; else MAC (d->m->out_ready_i = r);
}

extern "C" void
q_set_in (dut *d, int valid, const uint32_t lanes[SIM_K], int bf16, int fmt, int rnd, int rule,
          uint64_t pol, const uint32_t rbits[SIM_K])
{
  Vmx_quantize *q = d->q;
  q->in_valid_i = valid;
  for (int i = 0; i < SIM_K; i++) q->in_data_i[i] = lanes[i];
  for (int i = 0; i < SIM_K / 2; i++)
    q->rbits_i[i] = (rbits[2 * i] & 0xFFFF) | (rbits[2 * i + 1] & 0xFFFF) << 16;
  q->in_bf16_i = bf16; q->fmt_i = fmt; q->rnd_i = rnd; q->rule_i = rule; q->pol_i = pol;
}

extern "C" void
q_get_out (dut *d, uint8_t *scale, uint8_t codes[SIM_K], uint8_t *flags)
{
  *scale = d->q->out_scale_o;
  *flags = d->q->out_flags_o;
  for (int i = 0; i < SIM_K; i++) codes[i] = (d->q->out_codes_o[i / 4] >> (8 * (i % 4))) & 0xFF;
}

#ifndef MX_SHIM_QUANTIZE_ONLY
extern "C" void
m_set_in (dut *d, int valid, uint8_t sa, const uint8_t a[SIM_K], int fa, uint8_t sb,
          const uint8_t b[SIM_K], int fb, int clear, uint32_t cin, int rnd, int accum, int glog,
          int bf16)
{
  Vmx_mac *m = d->m;
  m->in_valid_i = valid;
  m->scale_a_i = sa; m->scale_b_i = sb; m->fmt_a_i = fa; m->fmt_b_i = fb;
  for (int i = 0; i < SIM_K / 4; i++) {
    m->codes_a_i[i] = a[4 * i] | a[4 * i + 1] << 8 | a[4 * i + 2] << 16 | (uint32_t) a[4 * i + 3] << 24;
    m->codes_b_i[i] = b[4 * i] | b[4 * i + 1] << 8 | b[4 * i + 2] << 16 | (uint32_t) b[4 * i + 3] << 24;
  }
  m->clear_i = clear; m->cin_i = cin; m->rnd_i = rnd; m->accum_i = accum; m->group_i = glog;
  m->out_bf16_i = bf16;
}

extern "C" uint32_t
m_get_out (dut *d, uint8_t *flags)
{
  *flags = d->m->out_flags_o;
  return d->m->out_acc_o;
}
#endif
