// mx_quantize -- streaming MX quantizer: one block of 32 FP32 (or BF16) values per beat to an
// E8M0 scale, 32 element codes and block flags, bit-exact with libmxgold's mx_quantize under the
// OCP-default special-value policy (NaN/Inf in the block: scale 0xFF and codes 0; all-zero block:
// scale 0x00; zero signs kept; INT8 -127..127; FP32 subnormal inputs kept).
// Runtime: element format (the six OCP formats, or those of FMT_MASK; an unsupported fmt_i gives
// the NaN scale 0xFF, codes 0 and the INVALID flag), rounding (all eight modes of roundings.def; sr
// with SR_BITS random bits per element on rbits_i), scale rule (floor ceil even rceil rceil-fp32
// floor-log2f floor-log2-input ceil-log2-input even-fp32; any other rule_i gives the NaN scale,
// codes 0 and the INVALID flag, as an unsupported format), overflow (sat | ovf), FP32 or BF16 lanes.
// valid/ready, fully pipelined: II = 1, latency 3 cycles (input register, scale register, output
// register); a stalled output holds the whole pipeline, so no beat is lost or duplicated.
// SPDX-License-Identifier: MIT
module mx_quantize #(
  parameter int K = 32,
  parameter int SR_BITS = 16,
  parameter logic [5:0] FMT_MASK = 6'b111111  // bit f: MX_FMT f supported (elaboration time)
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic                 in_valid_i,
  output logic                 in_ready_o,
  input  logic [32*K-1:0]      in_data_i,     // lane i in bits [32i +: 32]; BF16 in the low half
  input  logic                 in_bf16_i,
  input  logic [2:0]           fmt_i,         // MX_FMT_*
  input  logic [MX_RND_W-1:0]  rnd_i,         // MX_RND_*
  input  logic [3:0]           rule_i,        // MX_SCALE_* (mx_scale: those it implements)
  input  logic                 ovf_i,         // 0 sat, 1 ovf
  input  logic [SR_BITS*K-1:0] rbits_i,       // lane i's random bits in [SR_BITS*i +: SR_BITS]
  output logic                 out_valid_o,
  input  logic                 out_ready_i,
  output logic [7:0]           out_scale_o,
  output logic [8*K-1:0]       out_codes_o,   // lane i's code in bits [8i +: 8]
  output logic [7:0]           out_flags_o
);
  /* verilator lint_off UNUSEDPARAM */
  `include "mx_pkg.svh"
  /* verilator lint_on UNUSEDPARAM */

  logic advance;
  assign advance    = !out_valid_o || out_ready_i;
  assign in_ready_o = advance;

  // ---- stage 1: inputs ----
  logic                 v1, bf1, ovf1;
  logic [32*K-1:0]      d1;
  logic [2:0]           fmt1;
  logic [3:0]           rule1;
  logic [MX_RND_W-1:0]  rnd1;
  logic [SR_BITS*K-1:0] rb1;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) v1 <= 1'b0;
    else if (advance) v1 <= in_valid_i;
  end
  always_ff @(posedge clk_i) begin
    if (advance && in_valid_i) begin
      d1 <= in_data_i; bf1 <= in_bf16_i; fmt1 <= fmt_i; rnd1 <= rnd_i; rule1 <= rule_i;
      ovf1 <= ovf_i; rb1 <= rbits_i;
    end
  end

  // lanes as FP32
  logic [32*K-1:0] x1;
  always_comb begin
    for (int i = 0; i < K; i++)
      x1[32*i +: 32] = bf1 ? {d1[32*i +: 16], 16'd0} : d1[32*i +: 32];
  end

  // amax and specials
  logic [30:0] amax;
  logic        any_nan_inf;
  always_comb begin
    amax = 31'd0;
    any_nan_inf = 1'b0;
    for (int i = 0; i < K; i++) begin
      if (x1[32*i+23 +: 8] == 8'hFF) any_nan_inf = 1'b1;
      else if (x1[32*i +: 31] > amax) amax = x1[32*i +: 31];
    end
  end

  logic [2:0]        mbits1;
  logic [4:0]        bias1;
  logic signed [5:0] emin1, emax1;
  logic [7:0]        maxmag1, sigmax1, signbit1;
  logic [23:0]       rcp1;
  logic              isint1, isieee1, isfn1, fmtok1;
  mx_fmt_params #(.FMT_MASK(FMT_MASK)) u_fp1 (
                       .fmt_i(fmt1), .ok_o(fmtok1), .mbits_o(mbits1), .bias_o(bias1),
                       .emin_o(emin1), .emax_o(emax1), .maxmag_o(maxmag1), .sigmax_o(sigmax1),
                       .rcp_o(rcp1),
                       .signbit_o(signbit1), .is_int_o(isint1), .is_ieee_o(isieee1),
                       .is_fn_o(isfn1));

  logic signed [11:0] e_rule;
  logic               ruleok1;
  mx_scale u_scale (.amax_i(amax), .rule_i(rule1), .bf16_i(bf1), .is_int_i(isint1),
                    .mbits_i(mbits1), .emax_i(emax1), .sigmax_i(sigmax1), .rcp_i(rcp1),
                    .e_o(e_rule), .ok_o(ruleok1));

  // shared exponent, clamped; scale code; NaN scale
  logic signed [9:0] x_scale;
  logic [7:0]        scale_code, bflags;
  logic              nan_scale;
  always_comb begin
    nan_scale = any_nan_inf || !fmtok1 || !ruleok1; // an unsupported format or rule: invalid too
    bflags = 8'd0;
    x_scale = 10'sd0;
    if (nan_scale) begin
      x_scale = 10'sd0;                          // NaN scale: no exponent, no clamp flag
    end else if (amax == 31'd0) begin
      x_scale = -10'sd127;                       // all-zero block: scale 0x00 (2^-127)
    end else if (e_rule < -12'sd127) begin
      x_scale = -10'sd127;
      bflags = MX_FLAG_SCALE_CLAMPED;
    end else if (e_rule > 12'sd127) begin
      nan_scale = 1'b1;                          // INT8 rceil/ceil near FLT_MAX; even-fp32's 2^128
    end else begin
      x_scale = e_rule[9:0];
    end
    scale_code = nan_scale ? 8'hFF : 8'(x_scale + 10'sd127);
  end

  // ---- stage 2: scale ----
  logic                 v2, ovf2, nan2;
  logic [32*K-1:0]      x2;
  logic [MX_RND_W-1:0]  rnd2;
  logic signed [9:0]    xs2;
  logic [7:0]           sc2, bf2;
  logic [SR_BITS*K-1:0] rb2;
  logic [2:0]           mbits2;
  logic [4:0]           bias2;
  logic signed [5:0]    emin2;
  logic [7:0]           maxmag2, signbit2;
  logic                 isint2, isieee2, isfn2;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) v2 <= 1'b0;
    else if (advance) v2 <= v1;
  end
  always_ff @(posedge clk_i) begin
    if (advance && v1) begin
      x2 <= x1; rnd2 <= rnd1; ovf2 <= ovf1; rb2 <= rb1; xs2 <= x_scale; sc2 <= scale_code;
      nan2 <= nan_scale; bf2 <= bflags | (nan_scale ? MX_FLAG_INVALID : 8'd0);
      mbits2 <= mbits1; bias2 <= bias1; emin2 <= emin1; maxmag2 <= maxmag1; signbit2 <= signbit1;
      isint2 <= isint1; isieee2 <= isieee1; isfn2 <= isfn1;
    end
  end

  // lanes
  logic [8*K-1:0] codes;
  logic [5*K-1:0] lflags;
  for (genvar i = 0; i < K; i++) begin : g_lane
    mx_quant_lane #(.SR_BITS(SR_BITS)) u_lane (
      .x_i(x2[32*i +: 32]), .scale_i(xs2), .rnd_i(rnd2), .ovf_i(ovf2),
      .rbits_i(rb2[SR_BITS*i +: SR_BITS]), .mbits_i(mbits2), .bias_i(bias2), .emin_i(emin2),
      .maxmag_i(maxmag2), .signbit_i(signbit2), .is_int_i(isint2), .is_ieee_i(isieee2),
      .is_fn_i(isfn2), .code_o(codes[8*i +: 8]), .flags_o(lflags[5*i +: 5]));
  end

  logic [7:0] eflags;
  always_comb begin
    eflags = 8'd0;
    for (int i = 0; i < K; i++) eflags = eflags | {3'd0, lflags[5*i +: 5]};
  end

  // ---- stage 3: outputs ----
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) out_valid_o <= 1'b0;
    else if (advance) out_valid_o <= v2;
  end
  always_ff @(posedge clk_i) begin
    if (advance && v2) begin
      out_scale_o <= sc2;
      out_codes_o <= nan2 ? '0 : codes;          // codes under a NaN scale: out of scope, 0
      out_flags_o <= nan2 ? bf2 : (bf2 | eflags);
    end
  end
endmodule
