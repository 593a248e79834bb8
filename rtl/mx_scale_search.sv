// mx_scale_search -- the min-mse and min-maxerr scale rules of mx_quantize, as libmxgold's
// block_error: of floor's shared exponent e and its neighbours e - 1 and e + 1 (those the caller
// allows: the ones inside [lo, 127]), the one under which the dequantized block q_i = 2^E P_i
// lies nearest the block V_i over its finite elements.  P_i is V_i / 2^D rounded (D = E but at
// the bottom of the range, where min-scale-elem moves it), so q_i has V_i's sign or is 0.
//   min-mse     the least sum of (V_i - q_i)^2.  That sum is sum V_i^2, the same under every
//               candidate, plus T = sum q_i (q_i - 2 V_i), which is what is summed here, exactly,
//               in a TW-bit two's-complement accumulator with lsb 2^-291: q_i^2 is a multiple of
//               2^-286 (|q_i| >= 2^-143, E5M2's smallest step under 2^-127) and 2 q_i V_i of
//               2^-291 (V_i's lsb 2^-149).  Each term lies in (-V_i^2, q_i^2]: |V_i| < 2^128,
//               and |q_i| < 2^130 (|P| < 2^(emax+1) and E <= e + 1 <= 129 - emax, pow128's amax
//               2^128 included), so |T| < K 2^260.  The window must be that wide: under rup, rdn,
//               rto and sr an arbitrarily small V_i (2^-149) can give a nonzero q_i.
//   min-maxerr  the least max |V_i - q_i| < max(|V_i|, |q_i|) < 2^130, exact in DW bits with lsb
//               2^-149
// Each candidate's elements go through a lane of their own (mx_quant_lane, with the candidate's
// divisor) and are decoded back (mx_elem_decode).  A finite V_i that encodes to a NaN or Inf
// code makes its candidate's error infinite.  Ties keep e, then the smaller exponent
// (libmxgold tries e, e - 1, e + 1 and keeps a strictly smaller error).  A candidate the caller
// does not allow still runs through its lane (its divisor may then be -128 or 128, its shifts
// wrap): cand_i masks its sums out of the comparison.
// One element a cycle: start_i (a new block) clears the search; every cycle with run_i set
// takes the next element, the cycle after the K-th compares, and done_o then holds, with
// pick_o, until start_i.
// SPDX-License-Identifier: MIT
module mx_scale_search #(
  parameter int K = 32,
  parameter int SR_BITS = 16
) (
  input  logic                 clk_i,
  input  logic                 start_i,    // a new block: the search starts over
  input  logic                 run_i,      // the block searches (stage 1 holds it)
  input  logic                 maxerr_i,   // min-maxerr, else min-mse
  input  logic [32*K-1:0]      x_i,        // the block, FP32 (subnormals flushed if the policy says)
  input  logic [SR_BITS*K-1:0] rbits_i,
  input  logic signed [9:0]    e_i,        // floor's exponent, in the scale range
  input  logic [2:0]           cand_i,     // candidates e - 1, e, e + 1 allowed (bit 1: e, always)
  input  logic signed [9:0]    div_m_i, div_f_i, div_p_i, // their divisors' exponents
  // the element rounding, policies and format, as the lanes of mx_quantize take them
  input  logic [MX_RND_W-1:0]  rnd_i,
  input  logic                 ovf_i, inf_ovf_i, inf_zero_i, int_full_i, nan_ones_i, div_in_i,
  input  logic                 bf16_i,
  input  logic [MX_ZERO_SIGN_W-1:0] zero_sign_i,
  input  logic [MX_NAN_ELEM_W-1:0]  nan_elem_i,
  input  logic [2:0]           mbits_i,
  input  logic [4:0]           bias_i,
  input  logic signed [5:0]    emin_i,
  input  logic [7:0]           maxmag_i, signbit_i,
  input  logic                 is_int_i, is_ieee_i, is_fn_i,
  output logic                 done_o,
  output logic [1:0]           pick_o      // 0: e - 1, 1: e, 2: e + 1
);
  /* verilator lint_off UNUSEDPARAM */
  `include "mx_pkg.svh"
  /* verilator lint_on UNUSEDPARAM */

  localparam int IW = $clog2(K + 2);    // idx: elements 0..K-1, K the comparison, K + 1 done
  localparam int XW = (K > 1) ? $clog2(K) : 1;
  localparam int TW = 553 + $clog2(K);  // |T| < K 2^260 at lsb 2^-291, and the sign
  localparam int DW = 282;

  logic [IW-1:0] idx;
  assign done_o = idx == IW'(K + 1);

  // element idx under each candidate c (0: e - 1, 1: e, 2: e + 1)
  logic [31:0]        v;
  logic [SR_BITS-1:0] rb;
  assign v  = x_i[32*idx[XW-1:0] +: 32];
  assign rb = rbits_i[SR_BITS*idx[XW-1:0] +: SR_BITS];

  // one slice per candidate in flat vectors: the Yosys of bench/area.sh (0.23) reads no packed
  // 2-D arrays, and the formal tools' Yosys read unpacked ones indexed in a function otherwise
  // than Verilator (the formal search task caught it)
  logic [23:0] code, qsig;
  logic [14:0] lflag;
  logic [2:0]  qs, qz, qnan, qinf;
  logic [17:0] qsh;
  logic [29:0] div;
  assign div = {div_p_i, div_f_i, div_m_i};
  for (genvar c = 0; c < 3; c++) begin : g_cand
    mx_quant_lane #(.SR_BITS(SR_BITS)) u_lane (
      .x_i(v), .scale_i($signed(div[10*c +: 10])), .rnd_i(rnd_i), .ovf_i(ovf_i), .inf_ovf_i(inf_ovf_i),
      .inf_zero_i(inf_zero_i), .zero_sign_i(zero_sign_i), .int_full_i(int_full_i),
      .nan_elem_i(nan_elem_i), .nan_ones_i(nan_ones_i), .div_in_i(div_in_i), .bf16_i(bf16_i),
      .rbits_i(rb), .mbits_i(mbits_i), .bias_i(bias_i), .emin_i(emin_i), .maxmag_i(maxmag_i),
      .signbit_i(signbit_i), .is_int_i(is_int_i), .is_ieee_i(is_ieee_i), .is_fn_i(is_fn_i),
      .code_o(code[8*c +: 8]), .flags_o(lflag[5*c +: 5]));
    mx_elem_decode u_dec (.code_i(code[8*c +: 8]), .mbits_i(mbits_i), .bias_i(bias_i),
      .emin_i(emin_i), .signbit_i(signbit_i), .is_int_i(is_int_i), .is_ieee_i(is_ieee_i),
      .is_fn_i(is_fn_i), .sign_o(qs[c]), .sig_o(qsig[8*c +: 8]), .sh_o(qsh[6*c +: 6]), .zero_o(qz[c]),
      .nan_o(qnan[c]), .inf_o(qinf[c]));
  end

  // the accumulated errors, candidate c in slice c
  logic [3*TW-1:0] t;                   // min-mse: sum q (q - 2V), two's complement
  logic [3*DW-1:0] mx;                  // min-maxerr: max |V - q|
  logic [2:0]      inf;

  // V = vm 2^(ve - 150); q = +-sig 2^(sh - 16 + ec) under candidate exponent ec
  logic [23:0]          vm;
  logic signed [11:0]   ve;
  logic                 vfin;
  assign vm   = {v[30:23] != 8'd0, v[22:0]};
  assign ve   = (v[30:23] == 8'd0) ? 12'sd1 : $signed({4'd0, v[30:23]});
  assign vfin = v[30:23] != 8'hFF;

  // a candidate's terms: q (q - 2V) at lsb 2^-291 (q^2 at 2^(2(sh - 16 + ec)), 2qV at
  // 2^(sh - 16 + ec + ve - 149)), and |V - q| at lsb 2^-149, both formed from the magnitudes
  // (q has V's sign or is 0)
  function automatic logic [TW-1:0] mse_term(input logic [7:0] sig, input logic [5:0] sh,
                                             input logic signed [11:0] ec);
    logic [15:0]   p2;                  // the products first, at their own widths
    logic [31:0]   pv;
    logic [TW-1:0] q2, qv;
    p2 = {8'd0, sig} * {8'd0, sig};
    pv = {24'd0, sig} * {8'd0, vm};
    q2 = TW'(p2) << (12'({6'd0, sh} << 1) + (ec <<< 1) + 12'sd259);
    qv = TW'(pv) << (12'({6'd0, sh}) + ec + ve + 12'sd126);
    mse_term = q2 - qv;
  endfunction
  function automatic logic [DW-1:0] max_err(input logic [7:0] sig, input logic [5:0] sh,
                                            input logic signed [11:0] ec,
                                            input logic [DW-1:0] prev);  // max(prev, |V - q|)
    logic [DW-1:0] vfx, qfx, d;
    vfx = DW'(vm) << (ve - 12'sd1);
    qfx = DW'(sig) << (12'({6'd0, sh}) + ec + 12'sd133);
    d   = (vfx >= qfx) ? vfx - qfx : qfx - vfx;
    max_err = (prev > d) ? prev : d;
  endfunction

  // candidate a's error strictly below candidate b's
  function automatic logic less(input logic ia, input logic [TW-1:0] ta, input logic [DW-1:0] ma,
                                input logic ib, input logic [TW-1:0] tb, input logic [DW-1:0] mb);
    if (ia) less = 1'b0;
    else if (ib) less = 1'b1;
    else if (maxerr_i) less = ma < mb;
    else less = $signed(ta) < $signed(tb);
  endfunction
  logic       lt01, lt20, lt21;
  logic [1:0] pick;
  always_comb begin
    lt01 = less(inf[0], t[0 +: TW], mx[0 +: DW], inf[1], t[TW +: TW], mx[DW +: DW]);
    lt20 = less(inf[2], t[2*TW +: TW], mx[2*DW +: DW], inf[0], t[0 +: TW], mx[0 +: DW]);
    lt21 = less(inf[2], t[2*TW +: TW], mx[2*DW +: DW], inf[1], t[TW +: TW], mx[DW +: DW]);
    pick = 2'd1;
    if (cand_i[0] && lt01) pick = 2'd0;
    if (cand_i[2] && ((pick == 2'd0) ? lt20 : lt21)) pick = 2'd2;
  end

  // the wide arithmetic runs only while a block searches (a simulator skips it on every other
  // cycle); NaN and Inf inputs carry no error
  always_ff @(posedge clk_i) begin
    if (start_i) begin
      idx <= '0;
      t   <= '0;
      mx  <= '0;
      inf <= '0;
    end else if (run_i && idx == IW'(K)) begin
      idx <= idx + IW'(1);
      pick_o <= pick;
    end else if (run_i && !done_o) begin
      idx <= idx + IW'(1);
      for (int c = 0; c < 3; c++) begin
        if (vfin && (qnan[c] || qinf[c])) inf[c] <= 1'b1;
        else if (vfin && maxerr_i)
          mx[DW*c +: DW] <= max_err(qsig[8*c +: 8], qsh[6*c +: 6], 12'(e_i) + 12'(c) - 12'sd1,
                                    mx[DW*c +: DW]);
        else if (vfin)
          t[TW*c +: TW] <= t[TW*c +: TW]
                           + mse_term(qsig[8*c +: 8], qsh[6*c +: 6], 12'(e_i) + 12'(c) - 12'sd1);
      end
    end
  end

  logic unused;
  assign unused = ^{lflag, qz, qs, cand_i[1]};
endmodule
