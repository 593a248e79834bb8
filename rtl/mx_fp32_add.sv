// mx_fp32_add -- a + b in FP32 with RNE, exactly as an exact sum rounded once (IEEE 754):
// NaN in or Inf - Inf gives the quiet NaN 0x7FC00000 and flag invalid; an exact zero sum is +0
// unless both operands are -0; the rounding's inexact/underflow/overflow flags otherwise.
// The smaller operand is aligned into a 55-bit window and jammed (sticky) when it falls more
// than 31 bits below, which keeps the rounding (and its flags) exact.
// SPDX-License-Identifier: MIT
module mx_fp32_add (
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  output logic [31:0] sum_o,
  output logic [7:0]  flags_o     // MX_FLAG_*
);
  /* verilator lint_off UNUSEDPARAM */
  `include "mx_pkg.svh"
  /* verilator lint_on UNUSEDPARAM */

  logic               nan_a, nan_b, inf_a, inf_b, sa, sb, big_is_a;
  logic [23:0]        ma, mb, mbig, msml;
  logic signed [11:0] ela, elb, elbig, d;
  logic               sbig, ssml;
  logic [54:0]        wbig, wsml;
  logic signed [56:0] sum;
  logic [71:0]        mag;
  logic [23:0]        lost_mask;
  logic [31:0]        rounded;
  logic [7:0]         rflags;

  mx_fp32_round #(.W(72)) u_round (.sign_i(sum < 57'sd0), .mag_i(mag), .k_i(elbig - 12'sd31),
                                   .rnd_i(MX_RND_W'(MX_RND_RNE)), .bf16_i(1'b0), .bits_o(rounded),
                                   .flags_o(rflags));

  always_comb begin
    sa = a_i[31];
    sb = b_i[31];
    nan_a = a_i[30:23] == 8'hFF && a_i[22:0] != 23'd0;
    nan_b = b_i[30:23] == 8'hFF && b_i[22:0] != 23'd0;
    inf_a = a_i[30:23] == 8'hFF && a_i[22:0] == 23'd0;
    inf_b = b_i[30:23] == 8'hFF && b_i[22:0] == 23'd0;
    ma  = {a_i[30:23] != 8'd0, a_i[22:0]};
    mb  = {b_i[30:23] != 8'd0, b_i[22:0]};
    ela = ((a_i[30:23] == 8'd0) ? 12'sd1 : $signed({4'd0, a_i[30:23]})) - 12'sd150;
    elb = ((b_i[30:23] == 8'd0) ? 12'sd1 : $signed({4'd0, b_i[30:23]})) - 12'sd150;
    big_is_a = ela >= elb;
    mbig  = big_is_a ? ma : mb;
    msml  = big_is_a ? mb : ma;
    sbig  = big_is_a ? sa : sb;
    ssml  = big_is_a ? sb : sa;
    elbig = big_is_a ? ela : elb;
    d     = big_is_a ? (ela - elb) : (elb - ela);
    wbig  = {mbig, 31'd0};
    lost_mask = '0;
    if (d <= 12'sd31) begin
      wsml = {31'd0, msml} << (12'sd31 - d);
    end else if (d >= 12'sd55) begin
      wsml = {54'd0, msml != 24'd0};                 // only a sticky bit is left
    end else begin
      lost_mask = ~(24'hFF_FFFF << (d - 12'sd31));
      wsml = ({31'd0, msml} >> (d - 12'sd31)) | {54'd0, (msml & lost_mask) != 24'd0};
    end
    sum = (sbig ? -$signed({2'b0, wbig}) : $signed({2'b0, wbig}))
        + (ssml ? -$signed({2'b0, wsml}) : $signed({2'b0, wsml}));
    mag = {15'd0, (sum < 57'sd0) ? 57'(-sum) : 57'(sum)};
  end

  always_comb begin
    flags_o = '0;
    if (nan_a || nan_b || (inf_a && inf_b && sa != sb)) begin
      sum_o = 32'h7FC0_0000;
      flags_o = MX_FLAG_INVALID;
    end
    else if (inf_a) sum_o = a_i;
    else if (inf_b) sum_o = b_i;
    else if (sum == 57'sd0) sum_o = {sa && sb && ma == 24'd0 && mb == 24'd0, 31'd0};
    else begin
      sum_o = rounded;
      flags_o = rflags;
    end
  end
endmodule
