// mx_fmt_params -- the numbers of one element format, selected at run time by its index
// (MX_FMT_* of the generated mx_pkg.svh): entries of the packed MX_ELEM_* tables that
// mxgold-derive writes from golden/include/mx/formats.def.  Nothing here restates a format.
// FMT_MASK (bit f: format f is supported) is fixed at elaboration: with one bit set every
// output but ok_o is a constant, so synthesis folds the other formats' logic away.  An
// unsupported fmt_i (6 and 7 included) gives ok_o = 0 and the numbers of the lowest supported
// format; the units then mark the block invalid.
// SPDX-License-Identifier: MIT
module mx_fmt_params #(
  parameter logic [5:0] FMT_MASK = 6'b111111
) (
  input  logic [2:0]        fmt_i,
  output logic              ok_o,      // fmt_i is one of the supported formats
  output logic [2:0]        mbits_o,   // stored fraction bits
  output logic [4:0]        bias_o,
  output logic signed [5:0] emin_o,    // smallest normal exponent (INT: 0)
  output logic signed [5:0] emax_o,    // largest normal exponent (the OCP 6.3 emax)
  output logic [7:0]        maxmag_o,  // magnitude code of max finite
  output logic [7:0]        sigmax_o,  // significand of max finite, as an integer (1.m << mbits)
  output logic [23:0]       rcp_o,     // fl32(1/max) = rcp_o * 2^(-24 - emax) (rceil-fp32)
  output logic [7:0]        signbit_o, // the sign bit of the code (INT: 0x80, two's complement)
  output logic              is_int_o,
  output logic              is_ieee_o, // has Inf (E5M2)
  output logic              is_fn_o    // NaN-only all-ones code (E4M3)
);
  /* verilator lint_off UNUSEDPARAM */
  `include "mx_pkg.svh"
  /* verilator lint_on UNUSEDPARAM */

  // the lowest supported format: the numbers an unsupported fmt_i reads
  function automatic logic [2:0] first_fmt(input logic [5:0] m);
    first_fmt = 3'd0;
    for (int j = 5; j >= 0; j--) if (m[j]) first_fmt = 3'(j);
  endfunction
  localparam logic [7:0] SUPPORTED = 8'(FMT_MASK) & 8'((1 << MX_ELEM_COUNT) - 1);
  localparam logic [2:0] FIRST     = first_fmt(FMT_MASK);
  localparam bit         SINGLE    = (FMT_MASK & (FMT_MASK - 6'd1)) == 6'd0;

  logic [2:0] f;
  assign ok_o = SUPPORTED[fmt_i];
  assign f    = (SINGLE || !ok_o) ? FIRST : fmt_i;   // single format: a constant index

  assign mbits_o   = MX_ELEM_MBITS[3*f +: 3];
  assign bias_o    = MX_ELEM_BIAS[5*f +: 5];
  assign emin_o    = MX_ELEM_EMIN[6*f +: 6];
  assign emax_o    = MX_ELEM_EMAX[6*f +: 6];
  assign maxmag_o  = MX_ELEM_MAX_MAG[8*f +: 8];
  assign sigmax_o  = MX_ELEM_SIGMAX[8*f +: 8];
  assign rcp_o     = MX_ELEM_RCP[24*f +: 24];
  assign signbit_o = MX_ELEM_SIGNBIT[8*f +: 8];
  assign is_int_o  = MX_ELEM_IS_INT[f];
  assign is_ieee_o = MX_ELEM_IS_IEEE[f];
  assign is_fn_o   = MX_ELEM_IS_FN[f];
endmodule
