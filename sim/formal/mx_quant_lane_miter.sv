// mx_quant_lane_miter -- formal miter (not a synthesizable unit): mx_quant_lane, configured by
// mx_fmt_params as mx_quantize configures it, against the independent model mx_quant_lane_ref
// (OCP-strict policies) or mx_quant_lane_pref (the same with the policies), for one element
// format FMT.  Free inputs: the FP32 value (any: subnormals, both zeros, Infs
// and NaNs included), the shared exponent X in [-127, 127], every rounding (MX_RND_*, sr
// included), sat/ovf, the SR_BITS random bits, and every value of the special-value policies
// a lane sees (how an Inf encodes, zero-sign, int-range, nan-elem, nan-code, scale-div, FP32 or
// BF16 lanes; POLS = 0 ties them to OCP-strict and keeps x finite, as the block logic does
// under those policies).
// |t| = |x| / 2^X is unbounded (ANYT = 1): min-scale-elem unit divides a block clamped up to
// scale-min by 1, so the lane must overflow correctly from any t.  ANYT = 0 assumes the bound
// every other policy guarantees, |t| < 2^(emax + 1) (X >= floor(log2 amax) - emax under every
// scale rule; clamps only raise X; min-scale-elem flt-min divides by more), which keeps the
// proofs with sr short.
// The code and the 5 flag bits must agree.
// SPDX-License-Identifier: MIT
module mx_quant_lane_miter #(
  parameter int FMT = 0,
  parameter int RNDS = 'h3FF,        // the roundings proved, a mask of bits 1 << MX_RND_* (all 10)
  parameter bit POLS = 1'b1,         // the policy inputs free (0: tied to OCP-strict)
  parameter bit ANYT = 1'b1          // any |t| (0: the bound below)
) (
  input logic [31:0]         x_i,
  input logic signed [9:0]   scale_i,
  input logic [3:0]          rnd_i,
  input logic                ovf_i,
  input logic                inf_ovf_i,
  input logic                inf_zero_i,
  input logic [1:0]          zero_sign_i,
  input logic                int_full_i,
  input logic [1:0]          nan_elem_i,
  input logic                nan_ones_i,
  input logic                div_in_i,
  input logic                bf16_i,
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

  // the policy inputs, or (POLS = 0) OCP-strict constants the tools fold away
  logic       p_inf_ovf, p_inf_zero, p_int_full, p_nan_ones, p_div_in, p_bf16;
  logic [1:0] p_zero_sign, p_nan_elem;
  assign p_inf_ovf   = POLS ? inf_ovf_i : 1'b0;
  assign p_inf_zero  = POLS ? inf_zero_i : 1'b0;
  assign p_zero_sign = POLS ? zero_sign_i : 2'(MX_ZERO_SIGN_KEEP);
  assign p_int_full  = POLS ? int_full_i : 1'b0;
  assign p_nan_elem  = POLS ? nan_elem_i : 2'(MX_NAN_ELEM_ZERO);
  assign p_nan_ones  = POLS ? nan_ones_i : 1'b0;
  assign p_div_in    = POLS ? div_in_i : 1'b0;
  assign p_bf16      = POLS ? bf16_i : 1'b0;

  logic [7:0] code_dut, code_ref;
  logic [4:0] flags_dut, flags_ref;
  mx_quant_lane #(.SR_BITS(16)) u_dut (
    .x_i(x_i), .scale_i(scale_i), .rnd_i(rnd_i), .ovf_i(ovf_i), .rbits_i(rbits_i),
    .inf_ovf_i(p_inf_ovf), .inf_zero_i(p_inf_zero), .zero_sign_i(p_zero_sign),
    .int_full_i(p_int_full), .nan_elem_i(p_nan_elem), .nan_ones_i(p_nan_ones),
    .div_in_i(p_div_in), .bf16_i(p_bf16),
    .mbits_i(mbits), .bias_i(bias), .emin_i(emin), .maxmag_i(maxmag), .signbit_i(signbit),
    .is_int_i(isint), .is_ieee_i(isieee), .is_fn_i(isfn), .code_o(code_dut), .flags_o(flags_dut));
  if (POLS) begin : g_pref
    mx_quant_lane_pref #(.FMT(FMT), .R(16)) u_ref (
      .x_i(x_i), .scale_i(scale_i), .rnd_i(rnd_i), .ovf_i(ovf_i), .rbits_i(rbits_i),
      .inf_ovf_i(inf_ovf_i), .inf_zero_i(inf_zero_i), .zero_sign_i(zero_sign_i),
      .int_full_i(int_full_i), .nan_elem_i(nan_elem_i), .nan_ones_i(nan_ones_i),
      .div_in_i(div_in_i), .bf16_i(bf16_i), .code_o(code_ref), .flags_o(flags_ref));
  end else begin : g_ref
    mx_quant_lane_ref #(.FMT(FMT), .R(16)) u_ref (
      .x_i(x_i), .scale_i(scale_i), .rnd_i(rnd_i), .ovf_i(ovf_i), .rbits_i(rbits_i),
      .code_o(code_ref), .flags_o(flags_ref));
  end

  logic signed [11:0] k;
  logic               in_range;
  always_comb begin
    k = 12'(scale_i) + 12'(emax) + 12'sd151 - $signed({4'd0, (x_i[30:23] == 8'd0) ? 8'd1 : x_i[30:23]});
    if (x_i[30:23] == 8'hFF) in_range = 1'b1;                 // NaN, Inf: no magnitude
    else if (k >= 12'sd24) in_range = 1'b1;
    else if (k <= 12'sd0) in_range = x_i[30:0] == 31'd0;
    else in_range = {x_i[30:23] != 8'd0, x_i[22:0]} < (24'd1 << k[4:0]);
  end

`ifdef FORMAL
  always_comb begin
    // the lane's contract: X in range, a defined rounding, policy values their rows name (the
    // block logic refuses the others)
    assume (scale_i >= -10'sd127 && scale_i <= 10'sd127);
    assume (rnd_i <= 4'(MX_RND_SR));
    assume (RNDS[rnd_i]);
    if (!ANYT) assume (in_range);
    if (!POLS) assume (x_i[30:23] != 8'hFF);  // OCP-strict: a NaN or Inf never reaches a lane
    assume (zero_sign_i <= 2'(MX_ZERO_SIGN_NONZERO) && nan_elem_i <= 2'(MX_NAN_ELEM_MAX));
    assert (code_dut == code_ref);
    assert (flags_dut == flags_ref);
  end
`endif
endmodule
