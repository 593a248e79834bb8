// mx_mac -- streaming MX multiply-accumulate, bit-exact with libmxgold's block-fp32 model:
// each beat brings one block pair (E8M0 scale + 32 codes per operand, element format per
// operand, mixed formats allowed); the block's dot product is computed exactly in a 72-bit
// fixed-point adder tree, multiplied by both scales, rounded once to FP32 (rnd_i), and added to
// the FP32 accumulator with RNE.  clear_i starts a new accumulation from cin_i (FP32).
// Specials: a NaN scale or element, Inf * 0, +Inf + -Inf give NaN (0x7FC00000); E5M2 Inf
// operands give +-Inf; an exact-zero block is -0 only if all products are -0 (or, when nonzero
// products cancel, under rdn).  valid/ready, II = 1, latency 3 cycles; out_acc_o is the
// accumulator after each beat.  FMT_MASK (elaboration time) names the formats both operands
// support; an unsupported fmt_a_i or fmt_b_i makes the block's dot NaN (0x7FC00000).
// SPDX-License-Identifier: MIT
module mx_mac #(
  parameter int K = 32,
  parameter logic [5:0] FMT_MASK = 6'b111111  // bit f: MX_FMT f supported
) (
  input  logic           clk_i,
  input  logic           rst_ni,
  input  logic           in_valid_i,
  output logic           in_ready_o,
  input  logic [7:0]     scale_a_i,
  input  logic [8*K-1:0] codes_a_i,     // element i in bits [8i +: 8]
  input  logic [2:0]     fmt_a_i,       // MX_FMT_*
  input  logic [7:0]     scale_b_i,
  input  logic [8*K-1:0] codes_b_i,
  input  logic [2:0]     fmt_b_i,
  input  logic           clear_i,       // this beat starts from cin_i instead of the accumulator
  input  logic [31:0]    cin_i,
  input  logic [MX_RND_W-1:0] rnd_i,         // rounding of each block's dot (MX_RND_*, not sr)
  output logic           out_valid_o,
  input  logic           out_ready_i,
  output logic [31:0]    out_acc_o
);
  /* verilator lint_off UNUSEDPARAM */
  `include "mx_pkg.svh"
  /* verilator lint_on UNUSEDPARAM */

  logic advance;
  assign advance    = !out_valid_o || out_ready_i;
  assign in_ready_o = advance;

  // ---- stage 1: inputs ----
  logic           v1, clr1;
  logic [7:0]     sa1, sb1;
  logic [8*K-1:0] ca1, cb1;
  logic [2:0]     fa1, fb1;
  logic [MX_RND_W-1:0] rnd1;
  logic [31:0]    cin1;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) v1 <= 1'b0;
    else if (advance) v1 <= in_valid_i;
  end
  always_ff @(posedge clk_i) begin
    if (advance && in_valid_i) begin
      sa1 <= scale_a_i; sb1 <= scale_b_i; ca1 <= codes_a_i; cb1 <= codes_b_i;
      fa1 <= fmt_a_i; fb1 <= fmt_b_i; rnd1 <= rnd_i; clr1 <= clear_i; cin1 <= cin_i;
    end
  end

  // format parameters of each operand
  logic [2:0]        mb_a, mb_b;
  logic [4:0]        bi_a, bi_b;
  logic signed [5:0] en_a, en_b, ex_a, ex_b;
  logic [7:0]        mm_a, mm_b, sm_a, sm_b, sg_a, sg_b;
  logic              ii_a, ii_b, ie_a, ie_b, if_a, if_b, ok_a, ok_b;
  mx_fmt_params #(.FMT_MASK(FMT_MASK)) u_pa (
                      .fmt_i(fa1), .ok_o(ok_a), .mbits_o(mb_a), .bias_o(bi_a), .emin_o(en_a),
                      .emax_o(ex_a), .maxmag_o(mm_a), .sigmax_o(sm_a), .signbit_o(sg_a),
                      .is_int_o(ii_a), .is_ieee_o(ie_a), .is_fn_o(if_a));
  mx_fmt_params #(.FMT_MASK(FMT_MASK)) u_pb (
                      .fmt_i(fb1), .ok_o(ok_b), .mbits_o(mb_b), .bias_o(bi_b), .emin_o(en_b),
                      .emax_o(ex_b), .maxmag_o(mm_b), .sigmax_o(sm_b), .signbit_o(sg_b),
                      .is_int_o(ii_b), .is_ieee_o(ie_b), .is_fn_o(if_b));

  // products in the fixed-point window (lsb 2^-32 before scaling)
  logic [K-1:0]    s_a, s_b, z_a, z_b, n_a, n_b, i_a, i_b;
  logic [8*K-1:0]  g_a, g_b;
  logic [6*K-1:0]  h_a, h_b;
  for (genvar i = 0; i < K; i++) begin : g_dec
    mx_elem_decode u_da (.code_i(ca1[8*i +: 8]), .mbits_i(mb_a), .bias_i(bi_a), .emin_i(en_a),
                         .signbit_i(sg_a), .is_int_i(ii_a), .is_ieee_i(ie_a), .is_fn_i(if_a),
                         .sign_o(s_a[i]), .sig_o(g_a[8*i +: 8]), .sh_o(h_a[6*i +: 6]),
                         .zero_o(z_a[i]), .nan_o(n_a[i]), .inf_o(i_a[i]));
    mx_elem_decode u_db (.code_i(cb1[8*i +: 8]), .mbits_i(mb_b), .bias_i(bi_b), .emin_i(en_b),
                         .signbit_i(sg_b), .is_int_i(ii_b), .is_ieee_i(ie_b), .is_fn_i(if_b),
                         .sign_o(s_b[i]), .sig_o(g_b[8*i +: 8]), .sh_o(h_b[6*i +: 6]),
                         .zero_o(z_b[i]), .nan_o(n_b[i]), .inf_o(i_b[i]));
  end

  // lanes, then a balanced adder tree (exact: 32 terms of < 2^64 fit 72 bits signed)
  logic signed [72*K-1:0] terms;
  logic [K-1:0]           l_nan, l_pinf, l_ninf, l_zero, l_neg;
  for (genvar i = 0; i < K; i++) begin : g_lane
    mx_mac_lane u_lane (
      .sign_a_i(s_a[i]), .sig_a_i(g_a[8*i +: 8]), .sh_a_i(h_a[6*i +: 6]), .zero_a_i(z_a[i]),
      .nan_a_i(n_a[i]), .inf_a_i(i_a[i]), .sign_b_i(s_b[i]), .sig_b_i(g_b[8*i +: 8]),
      .sh_b_i(h_b[6*i +: 6]), .zero_b_i(z_b[i]), .nan_b_i(n_b[i]), .inf_b_i(i_b[i]),
      .term_o(terms[72*i +: 72]), .nan_o(l_nan[i]), .pinf_o(l_pinf[i]), .ninf_o(l_ninf[i]),
      .zero_o(l_zero[i]), .neg_o(l_neg[i]));
  end

  logic signed [72*(2*K)-1:0] tree;   // node n (1-based heap): leaves K..2K-1, root 1
  always_comb begin
    tree = '0;
    for (int i = 0; i < K; i++) tree[72*(K+i) +: 72] = terms[72*i +: 72];
    for (int n = K - 1; n >= 1; n--)
      tree[72*n +: 72] = $signed(tree[72*(2*n) +: 72]) + $signed(tree[72*(2*n+1) +: 72]);
  end

  logic signed [71:0] sum;
  logic               nan, pinf, ninf, any_nz, all_neg, all_pos;
  always_comb begin
    sum     = $signed(tree[72 +: 72]);
    nan     = sa1 == 8'hFF || sb1 == 8'hFF || |l_nan      // OCP 5.1: a NaN scale
              || !ok_a || !ok_b;                           // an unsupported format
    pinf    = |l_pinf;
    ninf    = |l_ninf;
    // an exact-zero block: -0 only if every product is -0 (IEEE 754 6.3)
    any_nz  = |(~(l_nan | l_pinf | l_ninf | l_zero));
    all_neg = &(l_zero & l_neg);
    all_pos = &(l_zero & ~l_neg);
  end

  logic [71:0]        mag;
  logic signed [11:0] kexp;
  logic [31:0]        rounded, dblk;
  assign mag  = (sum < 72'sd0) ? 72'(-sum) : 72'(sum);
  assign kexp = $signed({4'd0, sa1}) + $signed({4'd0, sb1}) - 12'sd286;   // 2^-127 * 2^-127 * 2^-32
  mx_fp32_round #(.W(72)) u_round (.sign_i(sum < 72'sd0), .mag_i(mag), .k_i(kexp), .rnd_i(rnd1),
                                   .bits_o(rounded));
  always_comb begin
    if (nan || (pinf && ninf)) dblk = 32'h7FC0_0000;
    else if (pinf) dblk = 32'h7F80_0000;
    else if (ninf) dblk = 32'hFF80_0000;
    else if (sum == 72'sd0)
      dblk = {!any_nz ? (all_neg || (!all_pos && rnd1 == MX_RND_W'(MX_RND_RDN))) : rnd1 == MX_RND_W'(MX_RND_RDN), 31'd0};
    else dblk = rounded;
  end

  // ---- stage 2: the block's FP32 dot ----
  logic        v2, clr2;
  logic [31:0] d2, cin2;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) v2 <= 1'b0;
    else if (advance) v2 <= v1;
  end
  always_ff @(posedge clk_i) begin
    if (advance && v1) begin
      d2 <= dblk; clr2 <= clr1; cin2 <= cin1;
    end
  end

  // ---- stage 3: accumulate (FP32 RNE) ----
  logic [31:0] acc_new;
  mx_fp32_add u_add (.a_i(clr2 ? cin2 : out_acc_o), .b_i(d2), .sum_o(acc_new));
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      out_valid_o <= 1'b0;
      out_acc_o <= 32'd0;
    end else if (advance) begin
      out_valid_o <= v2;
      if (v2) out_acc_o <= acc_new;
    end
  end

  logic unused;
  assign unused = ^{ex_a, ex_b, mm_a, mm_b, sm_a, sm_b, tree[71:0]};
endmodule
