// mx_mac_pipe_formal -- formal harness (not a synthesizable unit) for the valid/ready pipeline of
// mx_mac: no beat is lost, duplicated or reordered, a stalled output holds its value, and each
// beat accumulates onto the output of the beat before it, with single-cycle (block-fp32) and
// multi-cycle (fused-group, one cycle per group) beats.  Proved by BMC + k-induction
// (mx_mac_pipe.sby), as mx_quantize_pipe_formal.
//
// Tags: beat n (n counts accepted beats, mod 64) brings C_in = 1 + t 2^-23 with t = n mod 64, and
// starts a new accumulation (clear) when n mod 4 = 0.  Accumulations alternate between the
// models: n bit 2 set is fused-group, with G = 1 (two groups of K = 2, two cycles) when n bit 3
// is clear and G = 2 (one group) when it is set; n bit 2 clear is block-fp32.  Its blocks are
// all-zero codes (E4M3, scales 2^0), so each block's dot and each group's sum is +0 and the
// accumulator after beat n is exactly C_in of the last clearing beat:
// E(n) = 1 + (n - n mod 4) 2^-23.  A lost, duplicated or reordered beat, or one accumulated onto
// the wrong predecessor, changes the output sequence.
// As in mx_quantize_pipe_formal: the control reads no data bit (data independence), and the
// p_* probes are connected to the flattened DUT by the .sby script.
// SPDX-License-Identifier: MIT
module mx_mac_pipe_formal #(
  parameter int K = 2
) (
  input logic clk_i,
  input logic in_valid_i,
  input logic out_ready_i
);
  /* verilator lint_off UNUSEDPARAM */
  `include "mx_pkg.svh"
  /* verilator lint_on UNUSEDPARAM */

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
  function automatic logic [MX_ACCUM_W-1:0] model(input logic [5:0] t);
    model = t[2] ? MX_ACCUM_W'(MX_ACCUM_FUSED_GROUP) : MX_ACCUM_W'(MX_ACCUM_BLOCK_FP32);
  endfunction
  function automatic logic two(input logic [5:0] t);              // a beat of two groups
    two = t[2] && !t[3];
  endfunction

  logic [31:0] out_acc;
  logic [7:0]  out_flags;
  mx_mac #(.K(K)) dut (
    .clk_i(clk_i), .rst_ni(rst_ni), .in_valid_i(in_valid_i), .in_ready_o(in_ready),
    .scale_a_i(8'd127), .codes_a_i('0), .fmt_a_i(3'(MX_FMT_E4M3)),
    .scale_b_i(8'd127), .codes_b_i('0), .fmt_b_i(3'(MX_FMT_E4M3)),
    .clear_i(n_in[1:0] == 2'd0), .cin_i(tagf(n_in)), .rnd_i(MX_RND_W'(MX_RND_RNE)),
    .accum_i(model(n_in)), .group_i({2'd0, n_in[3]}), .out_bf16_i(1'b0),
    .out_valid_o(out_valid), .out_ready_i(out_ready_i), .out_acc_o(out_acc), .out_flags_o(out_flags));

  // probes (connected by the .sby script)
  logic                p_v1, p_clr1, p_v2, p_clr2;
  logic [7:0]          p_sa1, p_sb1;
  logic [8*K-1:0]      p_ca1, p_cb1;
  logic [2:0]          p_fa1, p_fb1;
  logic [MX_RND_W-1:0] p_rnd1;
  logic [31:0]         p_cin1, p_d2, p_cin2, p_acc32;
  logic [MX_ACCUM_W-1:0] p_acm1, p_acm2;
  logic                p_bf1, p_bf2;
  logic [$clog2(K):0]  p_gi1;
  logic [2:0]          p_grp1;
  logic                p_fg2, p_first2, p_last2;
  logic [31:0]         p_accf;
  logic signed [71:0]  p_sum2;
  logic                p_bnan2, p_bpinf2, p_bninf2;

`ifdef FORMAL
  logic [5:0] t_out, t_2, t_1;
  assign t_out = n_out;
  assign t_2   = n_out + 6'(out_valid);               // the beat in stage 2 (a group of it)
  assign t_1   = t_2 + 6'(p_v2 && p_last2);            // the beat in stage 1
  logic [5:0] t_last;                                  // the last beat through stage 3
  assign t_last = t_2 - 6'd1;

  logic out_valid_q = 1'b0, out_ready_q;
  logic [31:0] out_acc_q;
  always_ff @(posedge clk_i) begin
    out_valid_q <= rst_ni && out_valid; out_ready_q <= out_ready_i; out_acc_q <= out_acc;
  end

  always_comb begin
    if (rst_ni) begin
      // a two-group beat holds stage 1 (and in_ready low) for its first group
      assert (in_ready == ((!out_valid || out_ready_i) && (!p_v1 || !two(t_1) || p_gi1 == 1)));
      assert (6'(n_in - n_out) == 6'(p_v1) + 6'(p_v2 && p_last2) + 6'(out_valid));
      // the group counter: group 1 of a beat is in stage 1 exactly when its group 0 is in stage 2
      assert (p_gi1 <= ((p_v1 && two(t_1)) ? 1 : 0));
      assert ((p_v1 && p_gi1 == 1) == (p_v2 && !p_last2));
      if (p_v2) assert (p_fg2 == t_2[2] && p_last2 == (!two(t_2) || !p_first2)
                        && (two(t_2) || p_first2));
      if (p_v1) assert (p_grp1 == {2'd0, t_1[3]});
      // the n-th output is the accumulator after the n-th accepted beat
      if (out_valid) assert (out_acc == acc_of(t_out));
      if (out_valid_q && !out_ready_q) assert (out_valid && out_acc == out_acc_q);
      // stage invariants; the accumulator register holds the last output between beats, and the
      // accumulator of the last finished beat's model (FP32 out) equals the output register
      if (!out_valid && t_out[1:0] != 2'd0) assert (out_acc == acc_of(t_out));
      assert ((t_last[2] ? p_accf : p_acc32) == out_acc);
      // between a fused-group beat's groups the accumulator holds that beat's partial result
      if (p_v2 && !p_first2) assert (p_accf == acc_of(t_2));
      if (p_v2) assert (p_d2 == 32'd0 && p_clr2 == (t_2[1:0] == 2'd0) && p_cin2 == tagf(t_2));
      // and the group's exact sum and class, which the fused-group step reads
      if (p_v2) assert (p_sum2 == 72'sd0 && !p_bnan2 && !p_bpinf2 && !p_bninf2);
      // the model and the result format travel with their beat (they choose what it reports)
      if (p_v2) assert (p_acm2 == model(t_2) && !p_bf2);
      if (p_v1) assert (p_acm1 == model(t_1) && !p_bf1);
      if (p_v1) begin
        assert (p_sa1 == 8'd127 && p_sb1 == 8'd127 && p_ca1 == '0 && p_cb1 == '0);
        assert (p_fa1 == 3'(MX_FMT_E4M3) && p_fb1 == 3'(MX_FMT_E4M3) && p_rnd1 == MX_RND_W'(MX_RND_RNE));
        assert (p_clr1 == (t_1[1:0] == 2'd0) && p_cin1 == tagf(t_1));
      end
      cover (out_valid && !out_ready_i && p_v1 && p_v2 && in_valid_i);
      cover (n_out == 6'd6);
      cover (p_v1 && p_gi1 == 1 && out_valid && !out_ready_i);   // a two-group beat stalled
      cover (n_out == 6'd9);              // past an accumulation of two-group fused-group beats
    end
  end
`endif
endmodule
