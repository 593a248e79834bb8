// shim.cpp -- the only C++ of this adapter: owns the Verilated mxfpga_top and exposes it to the
// C harness through shim.h.
// SPDX-License-Identifier: MIT
#include "shim.h"
#include "Vmxfpga_top.h"
#include "verilated.h"

static VerilatedContext *ctx;
static Vmxfpga_top *top;

int mxf_open (void)
{
  ctx = new VerilatedContext;
  top = new Vmxfpga_top{ctx};
  top->clk_i = 0;
  top->eval ();
  return 0;
}

void mxf_close (void)
{
  top->final ();
  delete top;
  delete ctx;
}

void mxf_conv_clock (const uint16_t bf16[MXF_K], uint8_t scale[MXF_NFMT],
                     uint8_t codes[MXF_NFMT][MXF_K])
{
  for (int i = 0; i < MXF_K / 2; i++)  // two BF16 lanes per 32-bit word
    top->bf16_i[i] = (uint32_t) bf16[2 * i] | (uint32_t) bf16[2 * i + 1] << 16;
  top->clk_i = 1;
  top->eval ();
  top->clk_i = 0;
  top->eval ();
  for (int f = 0; f < MXF_NFMT; f++) {
    uint64_t s = top->conv_scale_o;  // 40 bits: a uint64_t in Verilator
    scale[f] = (uint8_t) (s >> (8 * f));
    for (int i = 0; i < MXF_K; i++) {
      int bit = 256 * f + 8 * i;
      codes[f][i] = (uint8_t) (top->conv_codes_o[bit / 32] >> (bit % 32));
    }
  }
}

void mxf_dot (const uint8_t a[MXF_K], const uint8_t b[MXF_K], uint32_t out[MXF_NFMT][4])
{
  for (int w = 0; w < MXF_K / 4; w++) {
    top->dot_a_i[w] = 0;
    top->dot_b_i[w] = 0;
    for (int j = 0; j < 4; j++) {
      top->dot_a_i[w] |= (uint32_t) a[4 * w + j] << (8 * j);
      top->dot_b_i[w] |= (uint32_t) b[4 * w + j] << (8 * j);
    }
  }
  top->eval ();
  for (int f = 0; f < MXF_NFMT; f++)
    for (int w = 0; w < 4; w++)
      out[f][w] = top->dot_o[4 * f + w];
}

void mxf_conv_spec (uint8_t scale[4], uint8_t codes[4][MXF_K])
{
  for (int v = 0; v < 4; v++) {
    scale[v] = (uint8_t) (top->spec_scale_o >> (8 * v));
    for (int i = 0; i < MXF_K; i++) {
      int bit = 256 * v + 8 * i;
      codes[v][i] = (uint8_t) (top->spec_codes_o[bit / 32] >> (bit % 32));
    }
  }
}

void mxf_dot_spec (uint32_t out[2][4], uint8_t nan[2])
{
  for (int f = 0; f < 2; f++) {
    for (int w = 0; w < 4; w++)
      out[f][w] = top->spec_dot_o[4 * f + w];
    nan[f] = (uint8_t) (top->spec_nan_o >> f & 1);
  }
}
