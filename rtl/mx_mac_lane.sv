// mx_mac_lane -- one element pair of mx_mac: the exact signed product in the 72-bit fixed-point
// window (lsb 2^-32, before the block scales) and its special-value class.
// SPDX-License-Identifier: MIT
module mx_mac_lane (
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
  /* verilator no_inline_module */  // one copy of the code for all lanes (build time)
  logic [15:0] p;
  logic [6:0]  s;
  logic [71:0] mag;
  always_comb begin
    neg_o  = sign_a_i ^ sign_b_i;
    nan_o  = nan_a_i || nan_b_i || (inf_a_i && zero_b_i) || (zero_a_i && inf_b_i);
    pinf_o = !nan_o && (inf_a_i || inf_b_i) && !neg_o;
    ninf_o = !nan_o && (inf_a_i || inf_b_i) && neg_o;
    zero_o = !nan_o && !(inf_a_i || inf_b_i) && (zero_a_i || zero_b_i);
    p      = {8'd0, sig_a_i} * {8'd0, sig_b_i};
    // mag = p << s in two pieces of at most 64 bits (a simulator's native words; the same
    // 72-bit shifter): bits 63:0, and bits 71:64, p's bits 71-s..64-s
    s      = {1'b0, sh_a_i} + {1'b0, sh_b_i};
    mag[63:0]  = {48'd0, p} << s;
    mag[71:64] = (s > 7'd64) ? 8'(p << (s - 7'd64)) : 8'(p >> (7'd64 - s));
    if (nan_o || pinf_o || ninf_o || zero_o) term_o = 72'sd0;
    else term_o = neg_o ? -$signed(mag) : $signed(mag);
  end
endmodule
