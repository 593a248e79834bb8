// mx_scale -- the shared exponent a scale rule picks for a block's amax (FP32 magnitude, nonzero,
// finite), as libmxgold's mx_scale_exponent:
//   floor  floor(log2 amax) - emax                 ceil   ceil(log2 amax) - emax
//   even   floor(log2(amax + 2^(E'-mbits-1))) - emax, E' = max(floor(log2 amax), -126)
//   rceil  ceil(log2(amax / max))  (e0 = floor rule; +1 iff amax's significand exceeds max's)
//   rceil-fp32  ceil(log2(fl32(amax * fl32(1/max)))), as cuBLAS/TransformerEngine compute it: the
//          24 x 24-bit product of amax's significand and fl32(1/max)'s (rcp_i, from the package)
//          rounded to FP32 (RNE, FP32 subnormals kept), then its exponent, +1 unless the rounded
//          significand is a power of two
// Unclamped; the caller clamps to the E8M0 range.
// SPDX-License-Identifier: MIT
module mx_scale (
  input  logic [30:0]        amax_i,
  input  logic [2:0]         rule_i,    // MX_SCALE_* (the scale-rule row of policies.def): 0-4; 5-7: floor
  input  logic [2:0]         mbits_i,
  input  logic signed [5:0]  emax_i,
  input  logic [7:0]         sigmax_i,
  input  logic [23:0]        rcp_i,     // fl32(1/max) = rcp_i * 2^(-24 - emax)
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

  // rceil-fp32: P = m * rcp_i weighs 2^(ep - 174 - emax) at its bit 0
  logic [47:0]        p, pm, pmask;
  logic [5:0]         plz;
  logic signed [11:0] pe, ptop, pq, psh, e_r32;
  logic               prb, pst;
  assign p = {24'd0, m} * {24'd0, rcp_i};
  logic [4:0]         pmlz;
  mx_lzc #(.WIDTH(48), .CW(6)) u_lzcp (.x_i(p), .cnt_o(plz));
  mx_lzc #(.WIDTH(24), .CW(5)) u_lzcm (.x_i(pm[23:0]), .cnt_o(pmlz));
  always_comb begin
    pe    = ep - 12'sd174 - 12'(emax_i);
    ptop  = 12'sd47 - $signed({6'd0, plz}) + pe;            // floor(log2) of the exact product
    pq    = (ptop >= -12'sd126) ? ptop - 12'sd23 : -12'sd149;  // FP32's quantum there
    psh   = pq - pe;                                        // product bits below the quantum
    pmask = '0;
    prb   = 1'b0;
    pst   = 1'b0;
    if (psh <= 12'sd0) pm = p << 6'(-psh);                 // exact: fewer than 24 bits
    else begin
      pm    = p >> 6'(psh);
      prb   = p[6'(psh - 12'sd1)];
      pmask = (48'd1 << 6'(psh - 12'sd1)) - 48'd1;
      pst   = (p & pmask) != 48'd0;
      if (prb && (pst || pm[0])) pm = pm + 48'd1;           // RNE
    end
  end
  always_comb begin
    // normal: pm in [2^23, 2^24] (2^24: the carry into the next binade, a power of two);
    // subnormal: pm * 2^-149 <= 2^-126, ceil(log2) from pm's leading one (the caller clamps and
    // flags what lies below the E8M0 range, as for every rule)
    if (ptop >= -12'sd126) e_r32 = pq + 12'sd23 + ((pm != 48'h800000) ? 12'sd1 : 12'sd0);
    else if (pm == 48'd0)  e_r32 = -12'sd2047;             // a zero product: below every scale
    else                   e_r32 = 12'sd23 - $signed({7'd0, pmlz}) - 12'sd149
                                   + (((pm & (pm - 48'd1)) != 48'd0) ? 12'sd1 : 12'sd0);
  end

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
      3'(MX_SCALE_RCEIL_FP32): e_o = e_r32;
      default:            e_o = e0;
    endcase
  end
endmodule
