// mx_quantize_pipe_formal -- formal harness (not a synthesizable unit) for the valid/ready
// pipeline of mx_quantize: no block is lost, duplicated or reordered under any valid/ready
// pattern, and a stalled output holds its beat.  Proved by BMC + k-induction (mx_quantize_pipe.sby).
//
// Tags: beat n carries the tag t = n mod 64 (n counts accepted beats).  Lane i gets the FP32 value
// 64 + (t + 21 i) mod 64, an integer in [64, 128).  With INT8, rne, the floor rule and sat, every
// block has the shared exponent 6 (scale code 133) and lane i's code is that integer itself, so
// the tag comes out unchanged on every lane.  Beat n must leave as the n-th output.
//
// Why fixed data and configuration is sound: the pipeline's control (v1, v2, out_valid_o and the
// advance enable) reads no data or configuration bit, and every data register loads under the
// valid of its stage ANDed with advance.  A proof with one injective tag per beat thus covers any
// data (data independence).  The datapath itself is proved by co-simulation and by the lane miter.
//
// SEARCH (the search task, BMC from reset only): every beat takes min-mse, which holds each block
// K + 1 cycles more in stage 1 (mx_scale_search).  floor's scale is exact for these blocks and
// both neighbours' errors are larger (x - 1 saturates; x + 1 rounds the odd value each block
// has, lane 1's tag being lane 0's plus 21), so the expected outputs are the same and the
// search never picks a neighbour here (co-simulation checks that path); the search's
// accumulators are not invariants a k-induction could be given, so this task is a bounded
// proof from reset, deep enough for several searches.
//
// Probes: Yosys cannot read hierarchical references, so the p_* wires are left undriven here and
// the .sby script connects them to the flattened DUT's registers (connect -set p_v1 dut.v1).
// They carry the stage invariants that make the proof inductive.
// SPDX-License-Identifier: MIT
module mx_quantize_pipe_formal #(
  parameter int K = 2
) (
  input logic clk_i,
  input logic in_valid_i,
  input logic out_ready_i
);
  /* verilator lint_off UNUSEDPARAM */
  `include "mx_pkg.svh"
  /* verilator lint_on UNUSEDPARAM */
  localparam int SRB = 16;
`ifdef SEARCH
  localparam int RULE = MX_SCALE_MIN_MSE;
`else
  localparam int RULE = MX_SCALE_FLOOR;
`endif

  // reset in the first cycle only
  logic init = 1'b1;
  always_ff @(posedge clk_i) init <= 1'b0;
  logic rst_ni;
  assign rst_ni = !init;

  // accepted and emitted beat counts (mod 64: at most 3 beats are in flight)
  logic [5:0] n_in = 6'd0, n_out = 6'd0;
  logic in_ready, out_valid;
  always_ff @(posedge clk_i) begin
    if (rst_ni && in_valid_i && in_ready) n_in <= n_in + 6'd1;
    if (rst_ni && out_valid && out_ready_i) n_out <= n_out + 6'd1;
  end

  // the block of tag t, and its expected codes
  function automatic logic [32*K-1:0] block_of(input logic [5:0] t);
    for (int i = 0; i < K; i++) block_of[32*i +: 32] = {1'b0, 8'd133, 6'(t + 6'(21 * i)), 17'd0};
  endfunction
  function automatic logic [8*K-1:0] codes_of(input logic [5:0] t);
    for (int i = 0; i < K; i++) codes_of[8*i +: 8] = {2'b01, 6'(t + 6'(21 * i))};
  endfunction

  logic [7:0]   out_scale, out_flags;
  logic [8*K-1:0] out_codes;
  mx_quantize #(.K(K), .SR_BITS(SRB)) dut (
    .clk_i(clk_i), .rst_ni(rst_ni), .in_valid_i(in_valid_i), .in_ready_o(in_ready),
    .in_data_i(block_of(n_in)), .in_bf16_i(1'b0), .fmt_i(3'(MX_FMT_INT8)),
    .rnd_i(MX_RND_W'(MX_RND_RNE)), .rule_i(4'(RULE)), .pol_i('0),
    .rbits_i('0), .out_valid_o(out_valid), .out_ready_i(out_ready_i),
    .out_scale_o(out_scale), .out_codes_o(out_codes), .out_flags_o(out_flags));

  // probes (connected by the .sby script)
  logic                 p_v1, p_bf1;
  logic [MX_QPOL_W-1:0] p_pol1;
  logic [32*K-1:0]      p_d1;
  logic [2:0]           p_fmt1;
  logic [3:0]           p_rule1;
  logic [MX_RND_W-1:0]  p_rnd1;
  logic [SRB*K-1:0]     p_rb1;
  logic                 p_v2, p_ovf2, p_nan2, p_isint2, p_isieee2, p_isfn2;
  logic                 p_bfl2, p_infovf2, p_infzero2, p_intfull2, p_nanones2, p_divin2;
  logic [MX_ZERO_SIGN_W-1:0] p_zsign2;
  logic [MX_NAN_ELEM_W-1:0]  p_nanelem2;
  logic [32*K-1:0]      p_x2;
  logic [MX_RND_W-1:0]  p_rnd2;
  logic [SRB*K-1:0]     p_rb2;
  logic signed [9:0]    p_xs2;
  logic [7:0]           p_sc2, p_bf2, p_maxmag2, p_signbit2;
  logic [2:0]           p_mbits2;
  logic [4:0]           p_bias2;
  logic signed [5:0]    p_emin2;

`ifdef FORMAL
  // the tags the valid stages hold, oldest first: output register, stage 2, stage 1
  logic [5:0] t_out, t_2, t_1;
  assign t_out = n_out;
  assign t_2   = n_out + 6'(out_valid);
  assign t_1   = t_2 + 6'(p_v2);

  logic out_valid_q = 1'b0, out_ready_q;
  logic [7:0] out_scale_q, out_flags_q;
  logic [8*K-1:0] out_codes_q;
  always_ff @(posedge clk_i) begin
    out_valid_q <= rst_ni && out_valid; out_ready_q <= out_ready_i;
    out_scale_q <= out_scale; out_codes_q <= out_codes; out_flags_q <= out_flags;
  end

  always_comb begin
    if (rst_ni) begin
      // the handshake: ready exactly when the output register is free or being read (the
      // port-level properties: this one, the tag order and the stall hold); a search holds
      // stage 1, so ready then only ever when the output is free or being read
`ifdef SEARCH
      if (in_ready) assert (!out_valid || out_ready_i);
`else
      assert (in_ready == (!out_valid || out_ready_i));
`endif
      // the n-th output is the n-th accepted block (no loss, duplicate or reorder)
      if (out_valid) begin
        assert (out_codes == codes_of(t_out));
        assert (out_scale == 8'd133);
        assert (out_flags == 8'd0);
      end
      // a stalled output holds its beat unchanged
      if (out_valid_q && !out_ready_q) begin
        assert (out_valid);
        assert (out_codes == out_codes_q && out_scale == out_scale_q && out_flags == out_flags_q);
      end
`ifndef PORTS_ONLY
      // stage invariants (what makes the property inductive; PORTS_ONLY leaves them out, for
      // the sabotage run that shows the port-level assertions alone catch a dropped beat)
      // no beat is created or lost inside: in flight = accepted - emitted
      assert (6'(n_in - n_out) == 6'(p_v1) + 6'(p_v2) + 6'(out_valid));
      // (on registers, not on the lanes' outputs: an invariant on a function of held registers
      // would ask the solver to prove two unrolled copies of the datapath equal)
      if (p_v2) begin
        assert (p_x2 == block_of(t_2) && p_xs2 == 10'sd6 && p_sc2 == 8'd133 && !p_nan2);
        assert (p_bf2 == 8'd0 && p_rnd2 == MX_RND_W'(MX_RND_RNE) && !p_ovf2 && p_rb2 == '0);
        assert (p_mbits2 == MX_ELEM_MBITS[3*MX_FMT_INT8 +: 3] && p_bias2 == MX_ELEM_BIAS[5*MX_FMT_INT8 +: 5]);
        assert (p_emin2 == MX_ELEM_EMIN[6*MX_FMT_INT8 +: 6] && p_maxmag2 == MX_ELEM_MAX_MAG[8*MX_FMT_INT8 +: 8]);
        assert (p_signbit2 == MX_ELEM_SIGNBIT[8*MX_FMT_INT8 +: 8] && p_isint2 == MX_ELEM_IS_INT[MX_FMT_INT8]);
        assert (p_isieee2 == MX_ELEM_IS_IEEE[MX_FMT_INT8] && p_isfn2 == MX_ELEM_IS_FN[MX_FMT_INT8]);
        assert (!p_bfl2 && !p_infovf2 && !p_infzero2 && !p_intfull2 && !p_nanones2 && !p_divin2);
        assert (p_zsign2 == '0 && p_nanelem2 == '0);
      end
      if (p_v1) begin
        assert (p_d1 == block_of(t_1) && !p_bf1 && p_fmt1 == 3'(MX_FMT_INT8) && p_pol1 == '0);
        assert (p_rnd1 == MX_RND_W'(MX_RND_RNE) && p_rule1 == 4'(RULE) && p_rb1 == '0);
      end
`endif
      // not vacuous (the cover task): a full pipeline stalls, and beats stream through
`ifdef SEARCH
      // (stage 2 and the output are never both full here: each block spends K + 2 cycles in
      // stage 1, one in stage 2)
      cover (out_valid && !out_ready_i && p_v1 && in_valid_i);
`else
      cover (out_valid && !out_ready_i && p_v1 && p_v2 && in_valid_i);
`endif
      cover (n_out == 6'd5);
    end
  end
`endif
endmodule
