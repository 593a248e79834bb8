// mx_quantize -- streaming MX quantizer: one block of 32 FP32 (or BF16) values per beat to an
// E8M0 scale, 32 element codes and block flags, bit-exact with libmxgold's mx_quantize.
// Runtime: element format (the six OCP formats, or those of FMT_MASK; an unsupported fmt_i gives
// the NaN scale 0xFF, codes 0 and the INVALID flag), rounding (all ten modes of roundings.def; sr
// with SR_BITS random bits per element on rbits_i), scale rule (floor ceil even rceil rceil-fp32
// floor-log2f rceil-log2f floor-log2-input ceil-log2-input even-fp32, and the searches min-mse
// and min-maxerr; rule_i 12-15 gives the NaN scale, codes 0 and the INVALID flag, as an
// unsupported format), FP32 or BF16 lanes, and the
// policy word pol_i (its layout MX_QPOL_* from sim/qpol.h; all zeros but scale-min and
// zero-scale at 0 is OCP-strict):
//   overflow sat | ovf;  nan-block propagate | ignore;  inf-block nan | maxscale | sat | pow128 |
//   zero | pass;  subnormals keep | flush | flush-pos;  zero-sign keep | positive | nonzero;
//   int-range sym | full;  scale-overflow nan | clamp;  nan-elem zero | flipzero | max;
//   nan-code quiet | ones;  min-scale-elem exact | flt-min | unit;  scale-div exact | input;
//   scale-min (0x00-0xFE);  zero-scale (any code).
// A field value its row does not name (inf-block 6, scale-min 0xFF, ...) is refused as an
// unsupported rule is.  Not implemented, so not in the word: scale-bump once (a second pass over
// the whole block) and sr-frac other than trunc; the word leaves out the fields that cannot
// change an FP32/BF16 block with an E8M0 scale (wide-input, scale-cast, scale-bottom, scale-round).
// valid/ready, pipelined: II = 1, latency 3 cycles (input register, scale register, output
// register); a stalled output holds the whole pipeline, so no beat is lost or duplicated.  A block
// that searches (min-mse, min-maxerr: mx_scale_search, one element a cycle, then the comparison)
// stays K + 1 more cycles in stage 1 with in_ready_o low: II = K + 2 for it.
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
  input  logic [MX_QPOL_W-1:0] pol_i,         // the policy word (MX_QPOL_*)
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

  // ---- stage 1: inputs ----
  // hold1: stage 1 holds a block that searches (its elements, then the comparison); go1: the
  // block in stage 1 moves on
  logic                 advance, hold1, go1;
  logic                 v1, bf1;
  assign advance    = !out_valid_o || out_ready_i;
  assign in_ready_o = advance && !hold1;
  assign go1        = v1 && !hold1;
  logic [32*K-1:0]      d1;
  logic [2:0]           fmt1;
  logic [3:0]           rule1;
  logic [MX_RND_W-1:0]  rnd1;
  logic [MX_QPOL_W-1:0] pol1;
  logic [SR_BITS*K-1:0] rb1;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) v1 <= 1'b0;
    else if (advance) v1 <= hold1 || in_valid_i;
  end
  always_ff @(posedge clk_i) begin
    if (in_ready_o && in_valid_i) begin
      d1 <= in_data_i; bf1 <= in_bf16_i; fmt1 <= fmt_i; rnd1 <= rnd_i; rule1 <= rule_i;
      pol1 <= pol_i; rb1 <= rbits_i;
    end
  end

  // the policy fields
  logic                          p_ovf, p_nanign, p_intfull, p_sclamp, p_nanones, p_divin;
  logic [MX_INF_BLOCK_W-1:0]     p_inf;
  logic [MX_SUBNORMALS_W-1:0]    p_subn;
  logic [MX_ZERO_SIGN_W-1:0]     p_zsign;
  logic [MX_NAN_ELEM_W-1:0]      p_nanelem;
  logic [MX_MIN_SCALE_ELEM_W-1:0] p_minse;
  logic [7:0]                    p_smin, p_zscale;
  logic                          polok1;
  assign p_ovf     = pol1[MX_QPOL_OVERFLOW];
  assign p_nanign  = pol1[MX_QPOL_NAN_BLOCK] == 1'(MX_NAN_BLOCK_IGNORE);
  assign p_inf     = pol1[MX_QPOL_INF_BLOCK +: MX_INF_BLOCK_W];
  assign p_subn    = pol1[MX_QPOL_SUBNORMALS +: MX_SUBNORMALS_W];
  assign p_zsign   = pol1[MX_QPOL_ZERO_SIGN +: MX_ZERO_SIGN_W];
  assign p_intfull = pol1[MX_QPOL_INT_RANGE] == 1'(MX_INT_RANGE_FULL);
  assign p_sclamp  = pol1[MX_QPOL_SCALE_OVERFLOW] == 1'(MX_SCALE_OVERFLOW_CLAMP);
  assign p_nanelem = pol1[MX_QPOL_NAN_ELEM +: MX_NAN_ELEM_W];
  assign p_nanones = pol1[MX_QPOL_NAN_CODE] == 1'(MX_NAN_CODE_ONES);
  assign p_minse   = pol1[MX_QPOL_MIN_SCALE_ELEM +: MX_MIN_SCALE_ELEM_W];
  assign p_divin   = pol1[MX_QPOL_SCALE_DIV] == 1'(MX_SCALE_DIV_INPUT);
  assign p_smin    = pol1[MX_QPOL_SCALE_MIN +: MX_SCALE_MIN_W];
  assign p_zscale  = pol1[MX_QPOL_ZERO_SCALE +: MX_ZERO_SCALE_W];
  // every field holds a value its row names
  assign polok1 = p_inf <= MX_INF_BLOCK_W'(MX_INF_BLOCK_PASS)
                  && p_subn <= MX_SUBNORMALS_W'(MX_SUBNORMALS_FLUSH_POS)
                  && p_zsign <= MX_ZERO_SIGN_W'(MX_ZERO_SIGN_NONZERO)
                  && p_nanelem <= MX_NAN_ELEM_W'(MX_NAN_ELEM_MAX)
                  && p_minse <= MX_MIN_SCALE_ELEM_W'(MX_MIN_SCALE_ELEM_UNIT)
                  && p_smin != 8'hFF;

  // lanes as FP32, subnormal inputs flushed (subnormals flush: signed zeros; flush-pos: +0, and
  // -0 becomes +0)
  logic [32*K-1:0] x1;
  logic            flushed1;
  logic [31:0]     w;
  always_comb begin
    flushed1 = 1'b0;
    for (int i = 0; i < K; i++) begin
      w = bf1 ? {d1[32*i +: 16], 16'd0} : d1[32*i +: 32];
      if (p_subn != MX_SUBNORMALS_W'(MX_SUBNORMALS_KEEP) && w[30:23] == 8'd0 && w[22:0] != 23'd0) begin
        w = {p_subn == MX_SUBNORMALS_W'(MX_SUBNORMALS_FLUSH) && w[31], 31'd0};
        flushed1 = 1'b1;
      end else if (p_subn == MX_SUBNORMALS_W'(MX_SUBNORMALS_FLUSH_POS) && w[30:0] == 31'd0) begin
        w[31] = 1'b0;
      end
      x1[32*i +: 32] = w;
    end
  end

  // amax (inf-block pow128: an Inf counts, as 0x7F800000 read as a number, 2^128) and specials
  logic [30:0] amax;
  logic        any_nan, any_inf;
  always_comb begin
    amax = 31'd0;
    any_nan = 1'b0;
    any_inf = 1'b0;
    for (int i = 0; i < K; i++) begin
      if (x1[32*i+23 +: 8] == 8'hFF) begin
        if (x1[32*i +: 23] != 23'd0) any_nan = 1'b1;
        else any_inf = 1'b1;
      end else if (x1[32*i +: 31] > amax) amax = x1[32*i +: 31];
    end
    if (any_inf && p_inf == MX_INF_BLOCK_W'(MX_INF_BLOCK_POW128)) amax = 31'h7F800000;
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

  // the lowest shared exponent (scale-min), and the exponent the elements of a block whose scale
  // a rule chose are divided by: min-scale-elem at lo
  logic signed [9:0] lo;
  logic              maxs, nanblk;
  assign lo     = (p_smin > 8'd0) ? $signed({2'd0, p_smin}) - 10'sd127 : -10'sd127;
  assign maxs   = any_inf && p_inf == MX_INF_BLOCK_W'(MX_INF_BLOCK_MAXSCALE);
  assign nanblk = (any_nan && !p_nanign) || (any_inf && p_inf == MX_INF_BLOCK_W'(MX_INF_BLOCK_NAN));
  function automatic logic signed [9:0] divisor(input logic signed [9:0] e);
    if (e == lo && p_minse == MX_MIN_SCALE_ELEM_W'(MX_MIN_SCALE_ELEM_FLT_MIN)) divisor = lo + 10'sd1;
    else if (e == lo && p_minse == MX_MIN_SCALE_ELEM_W'(MX_MIN_SCALE_ELEM_UNIT)) divisor = 10'sd0;
    else divisor = e;
  endfunction

  // how an Inf element encodes: inf-block sat as sat, pass as ovf, maxscale and pow128 under the
  // overflow policy, zero as +0 (nan never reaches the lanes: NaN scale)
  logic inf_ovf1, inf_zero1;
  assign inf_ovf1  = p_inf == MX_INF_BLOCK_W'(MX_INF_BLOCK_PASS)
                     || (p_ovf && p_inf != MX_INF_BLOCK_W'(MX_INF_BLOCK_SAT));
  assign inf_zero1 = p_inf == MX_INF_BLOCK_W'(MX_INF_BLOCK_ZERO);

  // min-mse, min-maxerr: a block whose floor exponent lies in [lo, 127] searches it and its
  // neighbours in range (any other block's scale is floor's, clamped or NaN, as libmxgold's)
  logic               srch1, sdone;
  logic [1:0]         spick;
  logic signed [11:0] e_pick;
  assign srch1 = (rule1 == 4'(MX_SCALE_MIN_MSE) || rule1 == 4'(MX_SCALE_MIN_MAXERR))
                 && fmtok1 && ruleok1 && polok1 && !nanblk && !maxs && amax != 31'd0
                 && e_rule >= 12'(lo) && e_rule <= 12'sd127;
  assign hold1  = v1 && srch1 && !sdone;
  assign e_pick = srch1 ? e_rule + 12'(spick) - 12'sd1 : e_rule;
  mx_scale_search #(.K(K), .SR_BITS(SR_BITS)) u_search (
    .clk_i(clk_i), .start_i(in_ready_o && in_valid_i), .run_i(v1 && srch1),
    .maxerr_i(rule1 == 4'(MX_SCALE_MIN_MAXERR)), .x_i(x1), .rbits_i(rb1), .e_i(e_rule[9:0]),
    .cand_i({e_rule < 12'sd127, 1'b1, e_rule > 12'(lo)}),
    .div_m_i(divisor(e_rule[9:0] - 10'sd1)), .div_f_i(divisor(e_rule[9:0])),
    .div_p_i(divisor(e_rule[9:0] + 10'sd1)), .rnd_i(rnd1), .ovf_i(p_ovf), .inf_ovf_i(inf_ovf1),
    .inf_zero_i(inf_zero1), .int_full_i(p_intfull), .nan_ones_i(p_nanones), .div_in_i(p_divin),
    .bf16_i(bf1), .zero_sign_i(p_zsign), .nan_elem_i(p_nanelem), .mbits_i(mbits1),
    .bias_i(bias1), .emin_i(emin1), .maxmag_i(maxmag1), .signbit_i(signbit1),
    .is_int_i(isint1), .is_ieee_i(isieee1), .is_fn_i(isfn1), .done_o(sdone), .pick_o(spick));

  // shared exponent, clamped to [lo, 127]; scale code; NaN scale; the elements' divisor
  logic signed [9:0] x_scale, x_div;
  logic [7:0]        scale_code, bflags;
  logic              nan_scale, ruled;
  always_comb begin
    nan_scale = nanblk || !fmtok1 || !ruleok1 || !polok1;  // an unsupported format, rule or policy: invalid too
    // flushed subnormals are flagged under any scale but a refused block's
    bflags = (flushed1 && fmtok1 && ruleok1 && polok1) ? (MX_FLAG_UNDERFLOW | MX_FLAG_INEXACT) : 8'd0;
    x_scale = 10'sd0;
    scale_code = 8'd0;
    if (nan_scale) begin
      x_scale = 10'sd0;                          // NaN scale: no exponent, no clamp flag
    end else if (maxs) begin
      x_scale = 10'sd127;                        // the largest scale, no clamp flag
    end else if (amax == 31'd0) begin
      scale_code = p_zscale;                     // all-zero block (NaNs, Infs aside): zero-scale
    end else if (e_pick < 12'(lo)) begin
      x_scale = lo;
      bflags = bflags | MX_FLAG_SCALE_CLAMPED;
    end else if (e_pick > 12'sd127) begin
      if (p_sclamp) begin
        x_scale = 10'sd127;                      // INT8 rceil/ceil near FLT_MAX; even-fp32's 2^128
        bflags = bflags | MX_FLAG_SCALE_CLAMPED;
      end else nan_scale = 1'b1;
    end else begin
      x_scale = e_pick[9:0];
    end
    ruled = !nan_scale && !maxs && amax != 31'd0;
    if (nan_scale) scale_code = 8'hFF;
    else if (amax != 31'd0 || maxs)
      scale_code = 8'(x_scale + 10'sd127);
    // the elements' divisor: min-scale-elem where a scale rule's exponent lies at the bottom of
    // the range (a zero block's elements are zeros, NaNs and Infs, which no divisor changes)
    x_div = ruled ? divisor(x_scale) : x_scale;
  end

  // ---- stage 2: scale ----
  logic                 v2, ovf2, nan2, bfl2, infovf2, infzero2, intfull2, nanones2, divin2;
  logic [MX_ZERO_SIGN_W-1:0] zsign2;
  logic [MX_NAN_ELEM_W-1:0]  nanelem2;
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
    else if (advance) v2 <= go1;
  end
  always_ff @(posedge clk_i) begin
    if (advance && go1) begin
      x2 <= x1; rnd2 <= rnd1; ovf2 <= p_ovf; rb2 <= rb1; xs2 <= x_div; sc2 <= scale_code;
      nan2 <= nan_scale; bf2 <= bflags | (nan_scale ? MX_FLAG_INVALID : 8'd0);
      mbits2 <= mbits1; bias2 <= bias1; emin2 <= emin1; maxmag2 <= maxmag1; signbit2 <= signbit1;
      isint2 <= isint1; isieee2 <= isieee1; isfn2 <= isfn1;
      bfl2 <= bf1; infovf2 <= inf_ovf1; infzero2 <= inf_zero1; zsign2 <= p_zsign;
      intfull2 <= p_intfull; nanelem2 <= p_nanelem; nanones2 <= p_nanones; divin2 <= p_divin;
    end
  end

  // lanes
  logic [8*K-1:0] codes;
  logic [5*K-1:0] lflags;
  for (genvar i = 0; i < K; i++) begin : g_lane
    mx_quant_lane #(.SR_BITS(SR_BITS)) u_lane (
      .x_i(x2[32*i +: 32]), .scale_i(xs2), .rnd_i(rnd2), .ovf_i(ovf2),
      .inf_ovf_i(infovf2), .inf_zero_i(infzero2), .zero_sign_i(zsign2), .int_full_i(intfull2),
      .nan_elem_i(nanelem2), .nan_ones_i(nanones2), .div_in_i(divin2), .bf16_i(bfl2),
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
