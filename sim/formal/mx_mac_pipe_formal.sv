// mx_mac_pipe_formal -- formal harness (not a synthesizable unit) for the valid/ready pipeline of
// mx_mac: no beat is lost, duplicated or reordered, a stalled output holds its value, each beat
// accumulates onto the output of the beat before it, and a fused-group beat holds the input for
// exactly K/2G cycles (two groups a cycle; one cycle for G = K).  Proved by BMC + k-induction
// (mx_mac_pipe.sby) at K = 4 (tasks prove, cover; the least K with a beat of two cycles) and at
// the deployed K = 32 (tasks prove32, cover32), on the real mx_mac, whole: nothing of it is
// replaced or cut.
//
// Tags: beat n (n counts accepted beats, mod 64; t = n mod 64) brings C_in = 1 + t 2^-23 and
// starts a new accumulation (clear) when t mod 4 = 0.  Accumulations alternate between the
// models: t bit 2 set is fused-group, with G = 2^group_i taking every value from 1 to K (see grp:
// G = 1 at K = 32 is 32 groups, 16 cycles); t bit 2 clear mixes exact (t[0] ^ t[3]) and
// block-fp32 beats, a clearing beat being exact in every other accumulation.  The blocks are
// all-zero codes (E4M3, scales 2^0), so every block's dot and every group's sum is +0 and every
// accumulator after beat t holds exactly C_in of the last clearing beat:
// E(t) = 1 + (t - t mod 4) 2^-23.  Every output, of every model, must be E of its beat, and
// the beats in flight must equal accepted minus emitted, stage by stage.
// A reference model of stage 1 written from the spec (h_busy, h_g: which pair of groups of the
// beat in stage 1 is issued; the beat leaves after K/2G, or 1) gives the expected in_ready_o,
// independent of the RTL's gi1/last1; the RTL's counter must equal it.
// The invariants below (the reference model against the RTL's stage 1 and counter, stage 2's
// group flags, the accumulators, every stage register's beat values) close k-induction in two
// steps, so depth 4 suffices although a G = 1 beat takes 16 cycles.
// As in mx_quantize_pipe_formal: the control reads no data bit but the beat's model and group
// size (data independence), and the p_* probes are connected to the flattened DUT by the .sby.
// SPDX-License-Identifier: MIT
module mx_mac_pipe_formal #(
  parameter int K = 4
) (
  input logic clk_i,
  input logic in_valid_i,
  input logic out_ready_i
);
  /* verilator lint_off UNUSEDPARAM */
  `include "mx_pkg.svh"
  /* verilator lint_on UNUSEDPARAM */

  localparam int LK  = $clog2(K);      // group_i 0..LK: G = 1..K
  localparam int GIW = LK + 1;         // mx_mac's group counter width
  localparam int ACC_W = 573 + LK + 22; // mx_mac's exact accumulator (ACC_GUARD = 22)

  logic init = 1'b1;
  always_ff @(posedge clk_i) init <= 1'b0;
  logic rst_ni;
  assign rst_ni = !init;

  logic [5:0] n_in = 6'd0, n_out = 6'd0;
  logic in_ready, out_valid;
  always_ff @(posedge clk_i) begin
    if (rst_ni && in_valid_i && in_ready) n_in <= n_in + 6'd1;
    if (rst_ni && out_valid && out_ready_i) n_out <= n_out + 6'd1;
  end

  function automatic logic [31:0] tagf(input logic [5:0] t);
    tagf = {1'b0, 8'd127, 17'd0, t};
  endfunction
  function automatic logic [31:0] acc_of(input logic [5:0] t);   // E(t)
    acc_of = tagf({t[5:2], 2'b00});
  endfunction
  function automatic logic fused(input logic [5:0] t);
    fused = t[2];
  endfunction
  function automatic logic [ACC_W-1:0] accw_of(input logic [5:0] t);   // E(t), lsb 2^-286
    accw_of = ACC_W'({1'b1, 17'd0, t[5:2], 2'b00}) << 263;
  endfunction
  function automatic logic exact(input logic [5:0] t);
    exact = !t[2] && (t[0] ^ t[3]);
  endfunction
  function automatic logic [MX_ACCUM_W-1:0] model(input logic [5:0] t);
    model = fused(t) ? MX_ACCUM_W'(MX_ACCUM_FUSED_GROUP)
          : exact(t) ? MX_ACCUM_W'(MX_ACCUM_EXACT) : MX_ACCUM_W'(MX_ACCUM_BLOCK_FP32);
  endfunction
  // group_i of the i-th fused-group beat, i = {t[5:3], t[1:0]}: 0, LK, 1, LK - 1, 2, LK - 2, ...
  // (mod LK + 1), so G = 1 and G = K come first and every G follows a longer and a shorter one
  function automatic logic [2:0] grp(input logic [5:0] t);
    logic [7:0] h;
    h = 8'({t[5:3], t[1]});                                     // i / 2
    grp = 3'((t[0] ? 8'(LK + 16 * (LK + 1)) - h : h) % 8'(LK + 1));
  endfunction
  function automatic logic [GIW-1:0] ngroups(input logic [5:0] t);  // cycles in stage 1:
    ngroups = fused(t) && K >> grp(t) > 1 ? GIW'(K >> grp(t) >> 1) : GIW'(1); // K/2G, or 1
  endfunction

  logic [31:0] out_acc;
  logic [7:0]  out_flags;
  mx_mac #(.K(K)) dut (
    .clk_i(clk_i), .rst_ni(rst_ni), .in_valid_i(in_valid_i), .in_ready_o(in_ready),
    .scale_a_i(8'd127), .codes_a_i('0), .fmt_a_i(3'(MX_FMT_E4M3)),
    .scale_b_i(8'd127), .codes_b_i('0), .fmt_b_i(3'(MX_FMT_E4M3)),
    .clear_i(n_in[1:0] == 2'd0), .cin_i(tagf(n_in)), .rnd_i(MX_RND_W'(MX_RND_RNE)),
    .accum_i(model(n_in)), .group_i(grp(n_in)), .out_bf16_i(1'b0),
    .out_valid_o(out_valid), .out_ready_i(out_ready_i), .out_acc_o(out_acc), .out_flags_o(out_flags));

  // reference model of stage 1, from the spec: a beat is taken when stage 1 is empty or issues
  // its last groups, and issues its K/G groups two per advancing cycle
  logic           advance;
  assign advance = !out_valid || out_ready_i;
  logic           h_busy = 1'b0;
  logic [GIW-1:0] h_g = '0;
  logic [5:0]     h_t = '0;                // the tag of the beat in stage 1
  logic           h_last;
  assign h_last = h_g == ngroups(h_t) - GIW'(1);
  always_ff @(posedge clk_i) begin
    if (rst_ni && advance) begin
      if (h_busy && !h_last) h_g <= h_g + GIW'(1);
      else begin
        h_busy <= in_valid_i; h_g <= '0; h_t <= n_in;
      end
    end
  end

  // probes (connected by the .sby script)
  logic                p_v1, p_clr1, p_v2, p_clr2;
  logic [7:0]          p_sa1, p_sb1;
  logic [8*K-1:0]      p_ca1, p_cb1;
  logic [2:0]          p_fa1, p_fb1;
  logic [MX_RND_W-1:0] p_rnd1;
  logic [31:0]         p_cin1, p_d2, p_cin2, p_acc32;
  logic [MX_ACCUM_W-1:0] p_acm1, p_acm2;
  logic                p_bf1, p_bf2;
  logic [GIW-1:0]      p_gi1;
  logic [2:0]          p_grp1;
  logic                p_fg2, p_first2, p_last2;
  logic [31:0]         p_accf;
  logic [ACC_W-1:0]    p_accw;
  logic                p_snan, p_spinf, p_sninf, p_szneg, p_szpos;
  logic signed [71:0]  p_sum2, p_sum2b;
  logic                p_bnan2, p_bpinf2, p_bninf2, p_bnan2b, p_bpinf2b, p_bninf2b, p_two2;

`ifdef FORMAL
  logic [5:0] t_out, t_2, t_1;
  assign t_out = n_out;
  assign t_2   = n_out + 6'(out_valid);               // the beat in stage 2 (a group of it)
  assign t_1   = t_2 + 6'(p_v2 && p_last2);            // the beat in stage 1
  logic [5:0] t_last;                                  // the last beat through stage 3
  assign t_last = t_2 - 6'd1;
  logic [5:0] t_held;                                  // the beat whose result out_acc holds
  assign t_held = t_out - 6'd1;

  logic out_valid_q = 1'b0, out_ready_q;
  logic [31:0] out_acc_q;
  always_ff @(posedge clk_i) begin
    out_valid_q <= rst_ni && out_valid; out_ready_q <= out_ready_i; out_acc_q <= out_acc;
  end

  always_comb begin
    if (rst_ni) begin
      // ports: in_ready_o as the reference model says (low while a fused-group beat has groups
      // left), the beats in flight, and the n-th output is the n-th beat's result
      assert (in_ready == (advance && (!h_busy || h_last)));
      assert (6'(n_in - n_out) == 6'(h_busy) + 6'(p_v2 && p_last2) + 6'(out_valid));
      if (out_valid) assert (out_acc == acc_of(t_out));
      if (out_valid_q && !out_ready_q) assert (out_valid && out_acc == out_acc_q);
      // the reference model's own invariants: its counter stays below K/2G, its tag is t_1
      if (h_busy) assert (h_t == t_1 && h_g < ngroups(h_t));
      else assert (h_g == '0);
      // the RTL's stage 1 and group counter are the reference model's
      assert (p_v1 == h_busy && p_gi1 == h_g);
      // stage 2 holds pair h_g - 1 of the beat in stage 1 exactly when h_g > 0; otherwise it
      // holds (if valid) the last pair of the beat before, which is its first if K/2G <= 1
      assert ((p_v2 && !p_last2) == (h_busy && h_g != '0));
      if (p_v2 && !p_last2) assert (p_first2 == (h_g == GIW'(1)));
      if (p_v2 && p_last2) assert (p_first2 == (ngroups(t_2) == GIW'(1)));
      if (p_v2) assert (p_fg2 == fused(t_2));
      if (p_v1) assert (p_grp1 == grp(t_1));
      // stage invariants: the output register holds the last output between beats
      if (!out_valid && t_out[1:0] != 2'd0) assert (out_acc == acc_of(t_held));
      // the accumulators that the next beat of an accumulation reads hold E of the last beat:
      // block-fp32's and exact's (with its sticky classes: no NaN, no Inf, not zero)
      if (!fused(t_last) && t_last[1:0] != 2'd3)
        assert (p_acc32 == acc_of(t_last) && p_accw == accw_of(t_last)
                && !p_snan && !p_spinf && !p_sninf && !p_szneg && !p_szpos);
      // fused-group: between a beat's groups accf holds its partial result, else the last beat's
      if (p_v2 && !p_first2) assert (p_accf == acc_of(t_2));
      else if (fused(t_last) && t_last[1:0] != 2'd3) assert (p_accf == acc_of(t_last));
      if (p_v2) assert (p_d2 == 32'd0 && p_clr2 == (t_2[1:0] == 2'd0) && p_cin2 == tagf(t_2));
      // and the two groups' exact sums and classes, which the fused-group steps read; the
      // second exactly on fused-group beats of two or more groups
      if (p_v2) assert (p_sum2 == 72'sd0 && !p_bnan2 && !p_bpinf2 && !p_bninf2);
      if (p_v2) assert (p_sum2b == 72'sd0 && !p_bnan2b && !p_bpinf2b && !p_bninf2b);
      if (p_v2) assert (p_two2 == (fused(t_2) && K >> grp(t_2) > 1));
      // the model and the result format travel with their beat (they choose what it reports)
      if (p_v2) assert (p_acm2 == model(t_2) && !p_bf2);
      if (p_v1) assert (p_acm1 == model(t_1) && !p_bf1);
      if (p_v1) begin
        assert (p_sa1 == 8'd127 && p_sb1 == 8'd127 && p_ca1 == '0 && p_cb1 == '0);
        assert (p_fa1 == 3'(MX_FMT_E4M3) && p_fb1 == 3'(MX_FMT_E4M3) && p_rnd1 == MX_RND_W'(MX_RND_RNE));
        assert (p_clr1 == (t_1[1:0] == 2'd0) && p_cin1 == tagf(t_1));
      end
      cover (out_valid && !out_ready_i && p_v1 && p_v2 && in_valid_i);
      cover (p_v1 && p_gi1 == GIW'(1) && out_valid && !out_ready_i);   // a multi-cycle beat stalled
      cover (out_valid && exact(t_out) && t_out[1:0] == 2'd3 && out_ready_i);
      // the output of a beat of K groups (G = 1) and of one of one group (G = K)
      cover (out_valid && fused(t_out) && grp(t_out) == 3'd0);
      cover (out_valid && fused(t_out) && grp(t_out) == 3'(LK));
    end
  end
`endif
endmodule
