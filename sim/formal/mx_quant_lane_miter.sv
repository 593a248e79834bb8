// mx_quant_lane_miter -- formal miter (not a synthesizable unit): mx_quant_lane, configured by
// mx_fmt_params as mx_quantize configures it, against the independent model mx_quant_lane_ref,
// for one element format FMT.  Free inputs: the FP32 value (any finite one, subnormals and both
// zeros included), the shared exponent X in [-127, 127], every rounding (MX_RND_*, sr included),
// sat/ovf, and the SR_BITS random bits, with the one contract the block logic guarantees:
// |x| / 2^X < 2^(emax + 1) (define MITER_ANY_T to drop it: the FP formats then still agree, INT8
// does not, because the lane's integer path is only as wide as INT8's range needs).
// The code and the 5 flag bits must agree.
// SPDX-License-Identifier: MIT
module mx_quant_lane_miter #(
  parameter int FMT = 0,
  parameter int RNDS = 'h3FF         // the roundings proved, a mask of bits 1 << MX_RND_* (all 10)
) (
  input logic [31:0]         x_i,
  input logic signed [9:0]   scale_i,
  input logic [3:0]          rnd_i,
  input logic                ovf_i,
  input logic [15:0]         rbits_i
);
  /* verilator lint_off UNUSEDPARAM */
  `include "mx_pkg.svh"
  /* verilator lint_on UNUSEDPARAM */

  logic [2:0]        mbits;
  logic [4:0]        bias;
  logic signed [5:0] emin, emax;
  logic [7:0]        maxmag, sigmax, signbit;
  logic              isint, isieee, isfn;
  mx_fmt_params u_fp (.fmt_i(3'(FMT)), .mbits_o(mbits), .bias_o(bias), .emin_o(emin),
                      .emax_o(emax), .maxmag_o(maxmag), .sigmax_o(sigmax), .signbit_o(signbit),
                      .is_int_o(isint), .is_ieee_o(isieee), .is_fn_o(isfn));

  logic [7:0] code_dut, code_ref;
  logic [4:0] flags_dut, flags_ref;
  mx_quant_lane #(.SR_BITS(16)) u_dut (
    .x_i(x_i), .scale_i(scale_i), .rnd_i(rnd_i), .ovf_i(ovf_i), .rbits_i(rbits_i),
    // the OCP-strict special-value policies (mxsim's random beats cover the others)
    .inf_ovf_i(1'b0), .inf_zero_i(1'b0), .zero_sign_i(MX_ZERO_SIGN_W'(MX_ZERO_SIGN_KEEP)),
    .int_full_i(1'b0), .nan_elem_i(MX_NAN_ELEM_W'(MX_NAN_ELEM_ZERO)), .nan_ones_i(1'b0),
    .div_in_i(1'b0), .bf16_i(1'b0),
    .mbits_i(mbits), .bias_i(bias), .emin_i(emin), .maxmag_i(maxmag), .signbit_i(signbit),
    .is_int_i(isint), .is_ieee_i(isieee), .is_fn_i(isfn), .code_o(code_dut), .flags_o(flags_dut));
  mx_quant_lane_ref #(.FMT(FMT), .R(16)) u_ref (
    .x_i(x_i), .scale_i(scale_i), .rnd_i(rnd_i), .ovf_i(ovf_i), .rbits_i(rbits_i),
    .code_o(code_ref), .flags_o(flags_ref));

  // |x| < 2^(X + emax + 1): the shared exponent of any block holding x is at least
  // floor(log2 amax) - emax under every scale rule (floor; ceil, even and rceil only add, a clamp
  // at -127 only raises it), so |t| = |x| / 2^X < 2^(emax + 1) in mx_quantize
  logic signed [11:0] k;
  logic               in_range;
  always_comb begin
    k = 12'(scale_i) + 12'(emax) + 12'sd151 - $signed({4'd0, (x_i[30:23] == 8'd0) ? 8'd1 : x_i[30:23]});
    if (k >= 12'sd24) in_range = 1'b1;
    else if (k <= 12'sd0) in_range = x_i[30:0] == 31'd0;
    else in_range = {x_i[30:23] != 8'd0, x_i[22:0]} < (24'd1 << k[4:0]);
  end

`ifdef FORMAL
  always_comb begin
    // the lane's contract: finite input (the block logic replaces NaN/Inf blocks), X in range,
    // a defined rounding
    assume (x_i[30:23] != 8'hFF);
    assume (scale_i >= -10'sd127 && scale_i <= 10'sd127);
    assume (rnd_i <= 4'(MX_RND_SR));
    assume (RNDS[rnd_i]);
`ifndef MITER_ANY_T
    assume (in_range);
`endif
    assert (code_dut == code_ref);
    assert (flags_dut == flags_ref);
  end
`endif
endmodule
