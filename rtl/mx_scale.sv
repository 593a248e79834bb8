// mx_scale -- the shared exponent a scale rule picks for a block's amax (FP32 magnitude, nonzero,
// finite), as libmxgold's mx_scale_exponent:
//   floor  floor(log2 amax) - emax                 ceil   ceil(log2 amax) - emax
//   even   floor(log2(amax + 2^(E'-mbits-1))) - emax, E' = max(floor(log2 amax), -126)
//   rceil  ceil(log2(amax / max))  (e0 = floor rule; +1 iff amax's significand exceeds max's)
// Unclamped; the caller clamps to the E8M0 range.
// SPDX-License-Identifier: MIT
module mx_scale (
  input  logic [30:0]        amax_i,
  input  logic [2:0]         rule_i,    // MX_SCALE_* (the scale-rule row of policies.def); 4, 5 unsupported: floor
  input  logic [2:0]         mbits_i,
  input  logic signed [5:0]  emax_i,
  input  logic [7:0]         sigmax_i,
  output logic signed [11:0] e_o
);
  /* verilator lint_off UNUSEDPARAM */
  `include "mx_pkg.svh"
  /* verilator lint_on UNUSEDPARAM */

  logic [23:0]        m, mn;
  logic [24:0]        se;
  logic signed [11:0] ep, ea, e0;
  logic [4:0]         lz, lz25m1;
  logic [4:0]         lzs;
  logic               pow2, above;

  assign m  = {amax_i[30:23] != 8'd0, amax_i[22:0]};
  assign ep = (amax_i[30:23] == 8'd0) ? 12'sd1 : $signed({4'd0, amax_i[30:23]});
  // even: add half a unit in the mbits-th fraction place (at FP32's fixed position)
  assign se = {1'b0, m} + (25'd1 << (5'd22 - {2'd0, mbits_i}));

  mx_lzc #(.WIDTH(24), .CW(5)) u_lzc (.x_i(m), .cnt_o(lz));
  mx_lzc #(.WIDTH(25), .CW(5)) u_lzcs (.x_i(se), .cnt_o(lzs));

  always_comb begin
    ea    = 12'sd23 - $signed({7'd0, lz}) + ep - 12'sd150;    // floor(log2 amax)
    e0    = ea - 12'(emax_i);
    pow2  = (m & (m - 24'd1)) == 24'd0;
    mn    = m << lz;                                          // 1.f with 23 fraction bits
    above = mn > ({16'd0, sigmax_i} << (5'd23 - {2'd0, mbits_i}));
    lz25m1 = lzs;
    unique case (rule_i)
      3'(MX_SCALE_CEIL):  e_o = e0 + (pow2 ? 12'sd0 : 12'sd1);
      3'(MX_SCALE_EVEN):  e_o = 12'sd24 - $signed({7'd0, lz25m1}) + ep - 12'sd150 - 12'(emax_i);
      3'(MX_SCALE_RCEIL): e_o = e0 + (above ? 12'sd1 : 12'sd0);
      default:            e_o = e0;
    endcase
  end
endmodule
