// mx_scale -- the shared exponent a scale rule picks for a block's amax (FP32 magnitude, nonzero,
// finite, or 0x7F800000 read as 2^128 under inf-block pow128), as libmxgold's mx_scale_exponent:
//   floor  floor(log2 amax) - emax                 ceil   ceil(log2 amax) - emax
//   even   floor(log2(amax + 2^(E'-mbits-1))) - emax, E' = max(floor(log2 amax), -126)
//   rceil  ceil(log2(amax / max))  (e0 = floor rule; +1 iff amax's significand exceeds max's)
//   rceil-fp32  ceil(log2(fl32(amax * fl32(1/max)))), as cuBLAS/TransformerEngine compute it: the
//          24 x 24-bit product of amax's significand and fl32(1/max)'s (rcp_i, from the package)
//          rounded to FP32 (RNE, FP32 subnormals kept), then its exponent, +1 unless the rounded
//          significand is a power of two
//   floor-log2f       floor(fl32(log2 amax)) - emax (ggml's floorf(log2f))
//   floor-log2-input  floor(fl_T(log2 amax)) - emax, T the lanes' type: FP32, or BF16 (bf16_i)
//   ceil-log2-input   ceil(fl_T(log2 amax)) - emax
//          log2 amax = ea + log2(1.f) rounds onto the integer next to it only within half an ulp
//          of T there: a comparison of f with a threshold of the package (MX_LOG2_TF, _TC; see
//          mxgold-derive), chosen by T and by the binade of that integer
//   even-fp32  even on FP32 bits (Quark): INT8 counts 8 fraction bits, and a carry to 2^128 (FP32
//          Inf) lies above every scale
//   rceil-log2f  ceil(fl32(log2 fl32(amax / max))) (torchao RCEIL's eager path): the quotient
//          rounded to FP32 by an integer division, then the ceil rule's threshold
//   min-mse, min-maxerr  floor, where mx_scale_search starts
// ok_o is 0 for rule_i 12-15.
// Unclamped; the caller clamps to the E8M0 range.
// SPDX-License-Identifier: MIT
module mx_scale (
  input  logic [30:0]        amax_i,
  input  logic [3:0]         rule_i,    // MX_SCALE_* (the scale-rule row of policies.def)
  input  logic               bf16_i,    // the lanes are BF16 (the -input rules round log2 to it)
  input  logic               is_int_i,  // INT8 (even-fp32 counts 8 fraction bits)
  input  logic [2:0]         mbits_i,
  input  logic signed [5:0]  emax_i,
  input  logic [7:0]         sigmax_i,
  input  logic [23:0]        rcp_i,     // fl32(1/max) = rcp_i * 2^(-24 - emax)
  output logic signed [11:0] e_o,
  output logic               ok_o       // rule_i is a rule this unit implements
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

  // even-fp32: the half unit at FP32's fixed position (INT8: 8 fraction bits); the sum's leading
  // one at bit 24 - lze weighs 2^(ep - 150) * 2^(24 - lze)
  logic [24:0]        se32;
  logic [4:0]         lze;
  logic signed [11:0] r32;
  assign se32 = {1'b0, m} + (25'd1 << (is_int_i ? 5'd14 : 5'd22 - {2'd0, mbits_i}));
  mx_lzc #(.WIDTH(25), .CW(5)) u_lzce (.x_i(se32), .cnt_o(lze));
  assign r32 = 12'sd24 - $signed({7'd0, lze}) + ep - 12'sd150;

  always_comb begin
    ea    = 12'sd23 - $signed({7'd0, lz}) + ep - 12'sd150;    // floor(log2 amax)
    e0    = ea - 12'(emax_i);
    pow2  = (m & (m - 24'd1)) == 24'd0;
    mn    = m << lz;                                          // 1.f with 23 fraction bits
    above = mn > ({16'd0, sigmax_i} << (5'd23 - {2'd0, mbits_i}));
    lz25m1 = lzs;
  end

  // the log2 rules.  log2 y = e + log2(1.f) (y = 2^e 1.f) rounds onto an integer n next to it
  // only within half an ulp of T there, 2^(k-p) with k the binade (-1..7) the value lies in on
  // n's side; the package's thresholds (mxgold-derive) are indexed 9j + k + 1, j = 1 for BF16.
  function automatic logic [3:0] flog2_8(input logic [7:0] n);   // floor(log2 n), n >= 1
    flog2_8 = 4'd0;
    for (int i = 1; i < 8; i++) if (n[i]) flog2_8 = 4'(i);
  endfunction
  // k + 1 + 9j for n approached from below (the floor rules' n = e + 1) or from above (ceil's
  // n = e): the binade under |n| is ceil(log2 |n|) - 1 (-1 for |n| = 1), the one over it floor(log2 |n|)
  function automatic logic [4:0] kidx(input logic signed [11:0] n, input logic below, input logic bf);
    logic [7:0] a;
    a = (n < 12'sd0) ? 8'(-n) : 8'(n);
    if ((n > 12'sd0) == below) kidx = (a == 8'd1) ? 5'd0 : 5'(flog2_8(a - 8'd1)) + 5'd1;
    else                       kidx = 5'(flog2_8(a)) + 5'd1;
    if (bf) kidx = kidx + 5'd9;
  endfunction
  // floor(fl_T(log2 y)) is e + 1 iff log2 y rounds up onto e + 1 (never onto 0: T has the tiny
  // values)
  function automatic logic floor_up(input logic signed [11:0] e, input logic [22:0] f, input logic bf);
    floor_up = e != -12'sd1 && {1'b0, f} >= MX_LOG2_TF[24*kidx(e + 12'sd1, 1'b1, bf) +: 24];
  endfunction
  // ceil(fl_T(log2 y)) is e + 1 iff y is not 2^e and log2 y does not round down onto e
  function automatic logic ceil_up(input logic signed [11:0] e, input logic [22:0] f, input logic bf);
    ceil_up = f != 23'd0 && (e == 12'sd0 || {1'b0, f} >= MX_LOG2_TC[24*kidx(e, 1'b0, bf) +: 24]);
  endfunction

  // rceil-log2f: q = fl32(amax / max), then ceil(fl32(log2 q)).  amax / max is
  // (mn / sigmax) 2^(ea - 23 - emax + mbits): the quotient of mn 2^10 by sigmax (3 to 127)
  // has 27 to 33 bits, which with the remainder's sticky bit round to FP32 (RNE; below 2^-126 at
  // the subnormal quantum 2^-149; a q that rounds to 0 lies below every scale).  Rounded here, not
  // by mx_fp32_round: with the mode fixed to RNE and no BF16 or overflow, most of that module
  // would be constant logic (line coverage of mx_quantize fell from 94.9% to 90.5% with it).
  logic [33:0]        qd, qk, qmask;
  logic [41:0]        qp;                                        // qd * sigmax: exact iff no remainder
  logic [5:0]         qlz;
  logic [4:0]         qklz;
  logic signed [11:0] qb, qt, qq, qsh, qe, e_rl2;
  logic [22:0]        qf;
  logic               qrb, qst;
  // one divider; the remainder is only tested for zero, by multiplying back (a divider and a
  // modulo are two dividers to a synthesis tool).  sigmax_i is 0 only for an unsupported format,
  // whose block gets the NaN scale whatever this gives: the divisor is then taken as 1.
  logic [7:0]         qdiv;
  assign qdiv = (sigmax_i == 8'd0) ? 8'd1 : sigmax_i;
  assign qd = {mn, 10'd0} / {26'd0, qdiv};
  assign qp = {8'd0, qd} * {34'd0, qdiv};
  mx_lzc #(.WIDTH(34), .CW(6)) u_lzcq (.x_i(qd), .cnt_o(qlz));
  mx_lzc #(.WIDTH(24), .CW(5)) u_lzck (.x_i(qk[23:0]), .cnt_o(qklz));
  always_comb begin
    qb    = ea - 12'sd33 - 12'(emax_i) + 12'($unsigned(mbits_i));   // the weight of qd's bit 0
    qt    = qb + 12'sd33 - $signed({6'd0, qlz});                    // floor(log2 (amax / max))
    qq    = (qt >= -12'sd126) ? qt - 12'sd23 : -12'sd149;           // FP32's quantum there
    qsh   = qq - qb;                                                 // quotient bits below it (>= 3)
    qk    = '0;
    qrb   = 1'b0;
    qmask = '0;
    if (qsh <= 12'sd34) begin
      qk    = qd >> 6'(qsh);
      qrb   = qd[6'(qsh - 12'sd1)];
      qmask = (34'd1 << 6'(qsh - 12'sd1)) - 34'd1;
    end else qmask = '1;
    qst   = (qd & qmask) != 34'd0 || qp != {8'd0, mn, 10'd0};
    if (qrb && (qst || qk[0])) qk = qk + 34'd1;                      // RNE
  end
  always_comb begin
    // the rounded q = qk 2^qq, qk <= 2^24: normalized to 2^qe 1.qf
    qf    = 23'(qk[23:0] << qklz);                                  // below the leading one
    qe    = qq + 12'sd23 - $signed({7'd0, qklz});
    if (qk[24]) begin                                                // the carry to 2^24: 2^(qq + 24)
      qe  = qq + 12'sd24;
      qf  = 23'd0;
    end
    if (qk == 34'd0) e_rl2 = -12'sd2047;                            // q = 0: below every scale
    else             e_rl2 = qe + (ceil_up(qe, qf, 1'b0) ? 12'sd1 : 12'sd0);
  end

  always_comb begin
    ok_o  = 1'b1;
    unique case (rule_i)
      4'(MX_SCALE_CEIL):  e_o = e0 + (pow2 ? 12'sd0 : 12'sd1);
      4'(MX_SCALE_EVEN):  e_o = 12'sd24 - $signed({7'd0, lz25m1}) + ep - 12'sd150 - 12'(emax_i);
      4'(MX_SCALE_RCEIL): e_o = e0 + (above ? 12'sd1 : 12'sd0);
      4'(MX_SCALE_RCEIL_FP32): e_o = e_r32;
      4'(MX_SCALE_FLOOR_LOG2F): e_o = e0 + (floor_up(ea, mn[22:0], 1'b0) ? 12'sd1 : 12'sd0);
      4'(MX_SCALE_FLOOR_LOG2_INPUT): e_o = e0 + (floor_up(ea, mn[22:0], bf16_i) ? 12'sd1 : 12'sd0);
      4'(MX_SCALE_CEIL_LOG2_INPUT): e_o = e0 + (ceil_up(ea, mn[22:0], bf16_i) ? 12'sd1 : 12'sd0);
      4'(MX_SCALE_RCEIL_LOG2F): e_o = e_rl2;
      4'(MX_SCALE_EVEN_FP32): e_o = (r32 >= 12'sd128) ? 12'sd2047 : r32 - 12'(emax_i);
      4'(MX_SCALE_FLOOR), 4'(MX_SCALE_MIN_MSE), 4'(MX_SCALE_MIN_MAXERR): e_o = e0; // the searches start at floor
      default: begin
        e_o  = e0;
        ok_o = 1'b0;
      end
    endcase
    // amax 2^128 (inf-block pow128): fl32 of it is Inf, so the rules that model FP32 arithmetic
    // find no exponent and go above every scale; the others read it as the number
    if (amax_i[30:23] == 8'hFF && (rule_i == 4'(MX_SCALE_RCEIL_FP32) || rule_i == 4'(MX_SCALE_FLOOR_LOG2F)
                                   || rule_i == 4'(MX_SCALE_RCEIL_LOG2F) || rule_i == 4'(MX_SCALE_EVEN_FP32)))
      e_o = 12'sd2047;
  end
endmodule
