// mx_mac -- streaming MX multiply-accumulate, bit-exact with libmxgold's mx_dot under three
// accumulation models (accum_i), result and IEEE flags:
//   block-fp32   each block's exact dot times both scales rounded once to FP32 (rnd_i), added to
//                an FP32 accumulator with RNE; a BF16 result is that accumulator rounded (rnd_i)
//   exact        every scaled block dot and C_in summed exactly in an ACC_W-bit fixed-point
//                (Kulisch) accumulator, lsb 2^-286; the result is its one rounding (rnd_i) to
//                FP32 or BF16
//   fused-group  chained fused groups (as MXDOTP): for each group of G = 2^group_i consecutive
//                products, acc <- rnd_i(acc + 2^(X_A+X_B-254) * the group's exact sum), one
//                rounding per group into the output format (FP32 or BF16), from C_in
// Each beat brings one block pair (E8M0 scale + K codes per operand, element format per operand,
// mixed formats allowed); the block's dot is computed exactly in a 72-bit fixed-point adder
// tree, whose node K/G + g is the exact sum of group g.  clear_i starts a new accumulation from
// cin_i (FP32).  The exact and block-fp32 accumulators both run on every beat that is not
// fused-group, and accum_i, out_bf16_i and rnd_i choose what such a beat reports; the
// fused-group accumulator runs on fused-group beats only.  out_acc_o and out_flags_o are mx_dot
// of the blocks since the last clear (flags of the whole accumulation).
// Specials: a NaN scale or element, Inf * 0, +Inf + -Inf give NaN (0x7FC00000, BF16 0x7FC0) and
// flag invalid; E5M2 Inf operands give +-Inf; the sign of an exact zero follows IEEE 754 6.3
// (docs/semantics.md 7), at each step for fused-group.  valid/ready, latency 3 cycles; II = 1
// for exact and block-fp32; a fused-group beat iterates over its K/G groups, two per cycle
// (stage 1 holds the beat with in_ready_o low; each pair of groups goes down stages 2 and 3 as
// one sub-beat, stage 3 chaining two fused steps, and only the last pair reports), so II =
// K/2G for it (2 for G = 8, 1 for G = 16 and G = K).  A fused-group beat with G > K gives NaN
// and invalid, as a model the RTL does not implement.  FMT_MASK (elaboration
// time) names the formats both operands support; an unsupported fmt_a_i or fmt_b_i makes the
// block's dot NaN.  The exact accumulator is exact for up to 2^ACC_GUARD blocks per accumulation.
// SPDX-License-Identifier: MIT
module mx_mac #(
  parameter int K = 32,
  parameter logic [5:0] FMT_MASK = 6'b111111, // bit f: MX_FMT f supported
  parameter int ACC_GUARD = 22                 // exact model: exact for 2^ACC_GUARD blocks
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
  input  logic [MX_RND_W-1:0] rnd_i,    // MX_RND_*, not sr: block-fp32 each block's dot and the
                                        // BF16 result; exact the one rounding; fused-group each
                                        // group's step
  input  logic [MX_ACCUM_W-1:0] accum_i,// MX_ACCUM_EXACT, _BLOCK_FP32 or _FUSED_GROUP (others: NaN)
  input  logic [2:0]     group_i,       // fused-group: G = 2^group_i products per step (G <= K)
  input  logic           out_bf16_i,    // the result in BF16 (out_acc_o[15:0]) instead of FP32
  output logic           out_valid_o,
  input  logic           out_ready_i,
  output logic [31:0]    out_acc_o,     // FP32, or BF16 in [15:0] with [31:16] zero
  output logic [7:0]     out_flags_o    // MX_FLAG_* of the accumulation so far
);
  /* verilator lint_off UNUSEDPARAM */
  `include "mx_pkg.svh"
  /* verilator lint_on UNUSEDPARAM */

  localparam int GIW = $clog2(K) + 1;   // bits of a group index 0..K-1

  // A fused-group beat stays in stage 1 for its K/G groups, two per cycle (gi1 counts the
  // pairs); every pair moves down stages 2 and 3 as a sub-beat, and the last one reports.
  logic           advance, last1;
  logic [GIW-1:0] gi1;
  assign advance    = !out_valid_o || out_ready_i;
  assign in_ready_o = advance && (!v1 || last1);

  // ---- stage 1: inputs ----
  logic           v1, clr1;
  logic [7:0]     sa1, sb1;
  logic [8*K-1:0] ca1, cb1;
  logic [2:0]     fa1, fb1;
  logic [MX_RND_W-1:0] rnd1;
  logic [MX_ACCUM_W-1:0] acm1;
  logic           bf1;
  logic [31:0]    cin1;
  logic [2:0]     grp1;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      v1 <= 1'b0;
      gi1 <= '0;
    end else if (advance) begin
      v1  <= (v1 && !last1) || in_valid_i;
      gi1 <= (v1 && !last1) ? gi1 + GIW'(1) : '0;
    end
  end
  always_ff @(posedge clk_i) begin
    if (in_ready_o && in_valid_i) begin
      sa1 <= scale_a_i; sb1 <= scale_b_i; ca1 <= codes_a_i; cb1 <= codes_b_i;
      fa1 <= fmt_a_i; fb1 <= fmt_b_i; rnd1 <= rnd_i; clr1 <= clear_i; cin1 <= cin_i;
      acm1 <= accum_i; bf1 <= out_bf16_i; grp1 <= group_i;
    end
  end

  // the beat's groups: a fused-group beat with G <= K has K/G, any other beat one (the block).
  // Cycle gi1 of a beat of two or more groups takes groups 2 gi1 (a) and 2 gi1 + 1 (b).
  logic           fg1, two1;
  logic [GIW-1:0] ng1;                   // the beat's groups
  logic [GIW-1:0] nsel, nselb;           // groups a and b: their nodes in the adder tree below
  logic [K-1:0]   gmask, gmaskb;         // and their lanes
  always_comb begin
    fg1    = acm1 == MX_ACCUM_W'(MX_ACCUM_FUSED_GROUP) && (32'd1 << grp1) <= 32'(K);
    ng1    = fg1 ? GIW'(K >> grp1) : GIW'(1);
    two1   = ng1 != GIW'(1);
    last1  = !two1 || gi1 == (ng1 >> 1) - GIW'(1);
    nsel   = fg1 ? ng1 + (gi1 << 1) : GIW'(1);
    nselb  = nsel + GIW'(1);
    gmask  = fg1 ? ~({K{1'b1}} << (32'd1 << grp1)) << ((32'(gi1) << 1) << grp1) : '1;
    gmaskb = gmask << (32'd1 << grp1);
  end

  // format parameters of each operand
  logic [2:0]        mb_a, mb_b;
  logic [4:0]        bi_a, bi_b;
  logic signed [5:0] en_a, en_b, ex_a, ex_b;
  logic [7:0]        mm_a, mm_b, sm_a, sm_b, sg_a, sg_b;
  logic              ii_a, ii_b, ie_a, ie_b, if_a, if_b, ok_a, ok_b;
  logic [23:0]       rc_a, rc_b;                 // rceil-fp32's constant: unused by the MAC
  mx_fmt_params #(.FMT_MASK(FMT_MASK)) u_pa (
                      .fmt_i(fa1), .ok_o(ok_a), .mbits_o(mb_a), .bias_o(bi_a), .emin_o(en_a),
                      .emax_o(ex_a), .maxmag_o(mm_a), .sigmax_o(sm_a), .rcp_o(rc_a), .signbit_o(sg_a),
                      .is_int_o(ii_a), .is_ieee_o(ie_a), .is_fn_o(if_a));
  mx_fmt_params #(.FMT_MASK(FMT_MASK)) u_pb (
                      .fmt_i(fb1), .ok_o(ok_b), .mbits_o(mb_b), .bias_o(bi_b), .emin_o(en_b),
                      .emax_o(ex_b), .maxmag_o(mm_b), .sigmax_o(sm_b), .rcp_o(rc_b), .signbit_o(sg_b),
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

  // node n (1-based heap): leaves K..2K-1, root 1; node K/G + g is the sum of group g of size G
  logic signed [72*(2*K)-1:0] tree;
  always_comb begin
    tree = '0;
    for (int i = 0; i < K; i++) tree[72*(K+i) +: 72] = terms[72*i +: 72];
    for (int n = K - 1; n >= 1; n--)
      tree[72*n +: 72] = $signed(tree[72*(2*n) +: 72]) + $signed(tree[72*(2*n+1) +: 72]);
  end

  logic signed [71:0] sum, sumb;
  logic               bad, nan, pinf, ninf, any_nz, all_neg, all_pos;
  logic               nanb, pinfb, ninfb, all_negb, all_posb;
  always_comb begin
    // the block's (or the fused-group beat's current group's, a) sum and class
    bad     = sa1 == 8'hFF || sb1 == 8'hFF                        // OCP 5.1: a NaN scale
              || !ok_a || !ok_b;                                  // an unsupported format
    sum     = $signed(tree[72*nsel +: 72]);
    nan     = bad || |(l_nan & gmask);
    pinf    = |(l_pinf & gmask);
    ninf    = |(l_ninf & gmask);
    // an exact-zero sum: -0 only if every product is -0 (IEEE 754 6.3)
    any_nz  = |(~(l_nan | l_pinf | l_ninf | l_zero) & gmask);
    all_neg = &(l_zero & l_neg | ~gmask);
    all_pos = &(l_zero & ~l_neg | ~gmask);
    // the same of group b (fused-group beats of two or more groups)
    sumb     = $signed(tree[72*nselb +: 72]);
    nanb     = bad || |(l_nan & gmaskb);
    pinfb    = |(l_pinf & gmaskb);
    ninfb    = |(l_ninf & gmaskb);
    all_negb = &(l_zero & l_neg | ~gmaskb);
    all_posb = &(l_zero & ~l_neg | ~gmaskb);
  end

  logic [71:0]        mag;
  logic signed [11:0] kexp;
  logic [31:0]        rounded, dblk;
  logic [7:0]         rflags, fblk;
  assign mag  = (sum < 72'sd0) ? 72'(-sum) : 72'(sum);
  assign kexp = $signed({4'd0, sa1}) + $signed({4'd0, sb1}) - 12'sd286;   // 2^-127 * 2^-127 * 2^-32
  mx_fp32_round #(.W(72)) u_round (.sign_i(sum < 72'sd0), .mag_i(mag), .k_i(kexp), .rnd_i(rnd1),
                                   .bf16_i(1'b0), .bits_o(rounded), .flags_o(rflags));
  // block-fp32: the block's dot rounded to FP32, and that rounding's flags
  always_comb begin
    fblk = '0;
    if (nan || (pinf && ninf)) begin
      dblk = 32'h7FC0_0000;
      fblk = MX_FLAG_INVALID;
    end
    else if (pinf) dblk = 32'h7F80_0000;
    else if (ninf) dblk = 32'hFF80_0000;
    else if (sum == 72'sd0)
      dblk = {!any_nz ? (all_neg || (!all_pos && rnd1 == MX_RND_W'(MX_RND_RDN))) : rnd1 == MX_RND_W'(MX_RND_RDN), 31'd0};
    else begin
      dblk = rounded;
      fblk = rflags;
    end
  end

    // ---- stage 2: the block's FP32 dot (block-fp32) and its exact sum and class (exact) ----
  logic        v2, clr2, bf2, bnan2, bpinf2, bninf2, bzneg2, bzpos2, fg2, first2, last2;
  logic        two2, bnan2b, bpinf2b, bninf2b, bzneg2b, bzpos2b;   // group b (two2: present)
  logic [31:0] d2, cin2;
  logic [7:0]  fblk2;
  logic [MX_RND_W-1:0] rnd2;
  logic [MX_ACCUM_W-1:0] acm2;
  logic signed [71:0] sum2, sum2b;
  logic [8:0]  sab2;                       // X_A + X_B + 254: the block's shift in the accumulator
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) v2 <= 1'b0;
    else if (advance) v2 <= v1;
  end
  always_ff @(posedge clk_i) begin
    if (advance && v1) begin
      d2 <= dblk; clr2 <= clr1; cin2 <= cin1; fblk2 <= fblk; rnd2 <= rnd1; acm2 <= acm1;
      bf2 <= bf1; sum2 <= sum; sab2 <= {1'b0, sa1} + {1'b0, sb1};
      fg2 <= fg1; first2 <= gi1 == '0; last2 <= last1;
      bnan2 <= nan; bpinf2 <= pinf; bninf2 <= ninf;
      bzneg2 <= all_neg; bzpos2 <= all_pos;    // every product -0 / +0 (nonzero or special: 0)
      two2 <= two1; sum2b <= sumb;
      bnan2b <= nanb; bpinf2b <= pinfb; bninf2b <= ninfb; bzneg2b <= all_negb; bzpos2b <= all_posb;
    end
  end

  // ---- stage 3: accumulate, and round the result ----
  // block-fp32: the FP32 accumulator, plus the flags of every rounding so far
  logic [31:0] acc32, acc32_new;
  logic [7:0]  fl32, fadd, fl32_new;
  mx_fp32_add u_add (.a_i(clr2 ? cin2 : acc32), .b_i(d2), .sum_o(acc32_new), .flags_o(fadd));
  assign fl32_new = (clr2 ? 8'd0 : fl32) | fblk2 | fadd;

  // exact: the Kulisch accumulator.  Bit 0 weighs 2^-286: a block's sum (lsb 2^-32 before the
  // scales) times 2^(X_A + X_B - 254) is sum2 << sab2, sab2 in 0..508 (0xFF scales are NaN); a
  // K = 32 block is below 2^69 before the shift, so below 2^577 after it; FP32 C_in (lsb 2^-149,
  // below 2^128) is bits 137..413.  ACC_W = 578 + ACC_GUARD holds 2^ACC_GUARD such blocks.
  localparam int ACC_W = 573 + $clog2(K) + ACC_GUARD;
  logic signed [ACC_W-1:0] accw, accw_base, accw_new, term, cin_fx;
  logic [ACC_W-1:0]        accw_mag;
  logic                    snan, spinf, sninf, szneg, szpos;               // sticky classes
  logic                    bnan, bpinf, bninf, bzneg, bzpos, cnan, cinf, czero;
  logic [7:0]              cexp;
  always_comb begin
    cexp  = cin2[30:23];
    cnan  = cexp == 8'hFF && cin2[22:0] != 23'd0;
    cinf  = cexp == 8'hFF && cin2[22:0] == 23'd0;
    czero = cin2[30:0] == 31'd0;
    cin_fx = '0;
    if (cexp != 8'hFF)                    // m * 2^(max(e,1) - 150), placed at bit max(e,1) + 136
      cin_fx = ACC_W'({cexp != 8'd0, cin2[22:0]}) << ((cexp == 8'd0) ? 9'd137 : {1'b0, cexp} + 9'd136);
    if (cin2[31]) cin_fx = -cin_fx;
    term = (ACC_W'(sum2)) <<< sab2;
    // the classes of C_in (on a clear) or of the accumulation so far, then this block's
    bnan  = clr2 ? cnan : snan;
    bpinf = clr2 ? cinf && !cin2[31] : spinf;
    bninf = clr2 ? cinf && cin2[31] : sninf;
    bzneg = clr2 ? czero && cin2[31] : szneg;
    bzpos = clr2 ? czero && !cin2[31] : szpos;
    accw_base = clr2 ? cin_fx : accw;
    accw_new  = accw_base + term;
    accw_mag  = accw_new[ACC_W-1] ? ACC_W'(-accw_new) : ACC_W'(accw_new);
  end
  logic xnan, xpinf, xninf, xzneg, xzpos;
  assign xnan  = bnan | bnan2;
  assign xpinf = bpinf | bpinf2;
  assign xninf = bninf | bninf2;
  assign xzneg = bzneg & bzneg2;
  assign xzpos = bzpos & bzpos2;

  // the exact result: one rounding of the accumulator (k = -286)
  logic [31:0] xr_bits;
  logic [7:0]  xr_flags;
  mx_fp32_round #(.W(ACC_W)) u_xround (.sign_i(accw_new[ACC_W-1]), .mag_i(accw_mag),
                                       .k_i(-12'sd286), .rnd_i(rnd2), .bf16_i(bf2),
                                       .bits_o(xr_bits), .flags_o(xr_flags));
  // the block-fp32 BF16 result: the FP32 accumulator rounded to BF16
  logic [31:0] br_bits;
  logic [7:0]  br_flags;
  logic [7:0]  aexp;
  assign aexp = acc32_new[30:23];
  mx_fp32_round #(.W(32)) u_bround (.sign_i(acc32_new[31]),
                                    .mag_i({8'd0, aexp != 8'd0, acc32_new[22:0]}),
                                    .k_i(((aexp == 8'd0) ? 12'sd1 : $signed({4'd0, aexp})) - 12'sd150),
                                    .rnd_i(rnd2), .bf16_i(1'b1), .bits_o(br_bits), .flags_o(br_flags));

  // fused-group: the accumulator (FP32 pattern; a BF16 one has its low 16 bits zero) and the
  // flags of every step so far; a clearing beat's first group starts from C_in.  Two steps
  // chained: group a, then group b on a's result where the sub-beat has one.
  logic [31:0] accf, accf_new, accf_a, accf_b;
  logic [7:0]  flf, fstep, fstepb, flf_new;
  logic        fclr;
  assign fclr = clr2 && first2;
  mx_fused_step #(.SW(72)) u_fstep (.acc_i(fclr ? cin2 : accf), .sum_i(sum2),
                                    .k_i($signed({3'd0, sab2}) - 12'sd286), .nan_i(bnan2),
                                    .pinf_i(bpinf2), .ninf_i(bninf2), .zneg_i(bzneg2),
                                    .zpos_i(bzpos2), .rnd_i(rnd2), .bf16_i(bf2),
                                    .acc_o(accf_a), .flags_o(fstep));
  mx_fused_step #(.SW(72)) u_fstepb (.acc_i(accf_a), .sum_i(sum2b),
                                     .k_i($signed({3'd0, sab2}) - 12'sd286), .nan_i(bnan2b),
                                     .pinf_i(bpinf2b), .ninf_i(bninf2b), .zneg_i(bzneg2b),
                                     .zpos_i(bzpos2b), .rnd_i(rnd2), .bf16_i(bf2),
                                     .acc_o(accf_b), .flags_o(fstepb));
  assign accf_new = two2 ? accf_b : accf_a;
  assign flf_new  = (fclr ? 8'd0 : flf) | fstep | (two2 ? fstepb : 8'd0);

  logic [31:0] res;
  logic [7:0]  res_fl;
  logic        rdn2, xneg0;
  assign rdn2  = rnd2 == MX_RND_W'(MX_RND_RDN);
  assign xneg0 = xzneg || (!xzpos && rdn2);   // IEEE 754 6.3, as mx__acc_value
  always_comb begin
    res_fl = '0;
    if (acm2 == MX_ACCUM_W'(MX_ACCUM_EXACT)) begin
      if (xnan || (xpinf && xninf)) begin
        res = bf2 ? 32'h7FC0 : 32'h7FC0_0000;
        res_fl = MX_FLAG_INVALID;
      end
      else if (xpinf) res = bf2 ? 32'h7F80 : 32'h7F80_0000;
      else if (xninf) res = bf2 ? 32'hFF80 : 32'hFF80_0000;
      else if (accw_new == '0) res = bf2 ? {16'd0, xneg0, 15'd0} : {xneg0, 31'd0};
      else begin
        res = xr_bits;
        res_fl = xr_flags;
      end
    end else if (acm2 == MX_ACCUM_W'(MX_ACCUM_BLOCK_FP32)) begin
      res_fl = fl32_new;
      if (aexp == 8'hFF && acc32_new[22:0] != 23'd0) begin
        res = bf2 ? 32'h7FC0 : acc32_new;
        res_fl = fl32_new | MX_FLAG_INVALID;
      end
      else if (!bf2) res = acc32_new;
      else if (aexp == 8'hFF || acc32_new[30:0] == 31'd0) res = {16'd0, acc32_new[31:16]}; // Inf, 0
      else begin
        res = br_bits;
        res_fl = fl32_new | br_flags;
      end
    end else if (fg2) begin
      res = bf2 ? {16'd0, accf_new[31:16]} : accf_new;
      res_fl = flf_new;
    end else begin                              // a model the RTL does not implement
      res = bf2 ? 32'h7FC0 : 32'h7FC0_0000;
      res_fl = MX_FLAG_INVALID;
    end
  end

  // reset leaves the accumulators as a clear with C_in = +0 would.  Exact and block-fp32 take
  // every beat but fused-group ones; the fused-group accumulator takes only fused-group beats.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      out_valid_o <= 1'b0;
      out_acc_o <= 32'd0;
      out_flags_o <= 8'd0;
      acc32 <= 32'd0; fl32 <= 8'd0; accw <= '0;
      snan <= 1'b0; spinf <= 1'b0; sninf <= 1'b0; szneg <= 1'b0; szpos <= 1'b1;
      accf <= 32'd0; flf <= 8'd0;
    end else if (advance) begin
      out_valid_o <= v2 && last2;
      if (v2 && last2) begin
        out_acc_o <= res; out_flags_o <= res_fl;
      end
      if (v2 && !fg2) begin
        acc32 <= acc32_new; fl32 <= fl32_new; accw <= accw_new;
        snan <= xnan; spinf <= xpinf; sninf <= xninf; szneg <= xzneg; szpos <= xzpos;
      end
      if (v2 && fg2) begin
        accf <= accf_new; flf <= flf_new;
      end
    end
  end

  logic unused;
  assign unused = ^{ex_a, ex_b, mm_a, mm_b, sm_a, sm_b, rc_a, rc_b, tree[71:0]};
endmodule
