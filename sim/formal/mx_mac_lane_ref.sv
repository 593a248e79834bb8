// mx_mac_lane_ref -- formal reference (not a synthesizable unit): mx_mac_lane as first written,
// its 72-bit product shifted in one expression; ci/formal.sh maclane proves the unit equal to it.
// SPDX-License-Identifier: MIT
module mx_mac_lane_ref (
  input  logic              sign_a_i,
  input  logic [7:0]        sig_a_i,
  input  logic [5:0]        sh_a_i,
  input  logic              zero_a_i, nan_a_i, inf_a_i,
  input  logic              sign_b_i,
  input  logic [7:0]        sig_b_i,
  input  logic [5:0]        sh_b_i,
  input  logic              zero_b_i, nan_b_i, inf_b_i,
  output logic signed [71:0] term_o,   // 0 for special and zero products
  output logic              nan_o,     // NaN operand, or Inf * 0
  output logic              pinf_o, ninf_o,
  output logic              zero_o,    // an exact zero product (sign in neg_o)
  output logic              neg_o
);
  logic [15:0] p;
  logic [71:0] mag;
  always_comb begin
    neg_o  = sign_a_i ^ sign_b_i;
    nan_o  = nan_a_i || nan_b_i || (inf_a_i && zero_b_i) || (zero_a_i && inf_b_i);
    pinf_o = !nan_o && (inf_a_i || inf_b_i) && !neg_o;
    ninf_o = !nan_o && (inf_a_i || inf_b_i) && neg_o;
    zero_o = !nan_o && !(inf_a_i || inf_b_i) && (zero_a_i || zero_b_i);
    p      = {8'd0, sig_a_i} * {8'd0, sig_b_i};
    mag    = {56'd0, p} << ({1'b0, sh_a_i} + {1'b0, sh_b_i});
    if (nan_o || pinf_o || ninf_o || zero_o) term_o = 72'sd0;
    else term_o = neg_o ? -$signed(mag) : $signed(mag);
  end
endmodule
