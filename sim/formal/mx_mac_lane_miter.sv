// mx_mac_lane_miter -- formal miter (not a synthesizable unit): rtl/mx_mac_lane.sv against
// mx_mac_lane_ref (the product shifted in one 72-bit expression), every input.
// SPDX-License-Identifier: MIT
module mx_mac_lane_miter (
  input logic       sign_a_i, sign_b_i,
  input logic [7:0] sig_a_i, sig_b_i,
  input logic [5:0] sh_a_i, sh_b_i,
  input logic       zero_a_i, nan_a_i, inf_a_i, zero_b_i, nan_b_i, inf_b_i
);
  logic signed [71:0] term_dut, term_ref;
  logic [4:0]         cls_dut, cls_ref;   // nan, pinf, ninf, zero, neg
  mx_mac_lane u_dut (
    .sign_a_i, .sig_a_i, .sh_a_i, .zero_a_i, .nan_a_i, .inf_a_i,
    .sign_b_i, .sig_b_i, .sh_b_i, .zero_b_i, .nan_b_i, .inf_b_i,
    .term_o(term_dut), .nan_o(cls_dut[4]), .pinf_o(cls_dut[3]), .ninf_o(cls_dut[2]),
    .zero_o(cls_dut[1]), .neg_o(cls_dut[0]));
  mx_mac_lane_ref u_ref (
    .sign_a_i, .sig_a_i, .sh_a_i, .zero_a_i, .nan_a_i, .inf_a_i,
    .sign_b_i, .sig_b_i, .sh_b_i, .zero_b_i, .nan_b_i, .inf_b_i,
    .term_o(term_ref), .nan_o(cls_ref[4]), .pinf_o(cls_ref[3]), .ninf_o(cls_ref[2]),
    .zero_o(cls_ref[1]), .neg_o(cls_ref[0]));
`ifdef FORMAL
  always_comb assert (term_dut == term_ref && cls_dut == cls_ref);
`endif
endmodule
