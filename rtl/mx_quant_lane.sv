// mx_quant_lane -- one element of mx_quantize: an FP32 value divided by 2^x_i (the shared
// exponent) and rounded once onto the element format's grid, exactly as libmxgold's mx_encode:
//   t = x / 2^X;  q = max(floor(log2|t|), emin) - mbits  (INT: q = -mbits);  N = trunc(|t| / 2^q)
//   round bit R, sticky S, and the SR_BITS bits fr below the last kept bit decide the increment:
//   of the element rounding (mx_round_inc.svh; sr: the carry of fr + r)
// Overflow (rounded magnitude above max): sat clamps; ovf gives Inf (E5M2) / NaN (E4M3) unless the
// rounding points toward zero, and always clamps for FP6/FP4/INT8 (docs/semantics.md 3).
// The input must be finite (the block logic replaces NaN/Inf blocks); zero results keep the sign.
// SPDX-License-Identifier: MIT
module mx_quant_lane #(
  parameter int SR_BITS = 16
) (
  input  logic [31:0]         x_i,       // FP32 bits, finite
  input  logic signed [9:0]   scale_i,   // shared exponent X, -127..127
  input  logic [MX_RND_W-1:0] rnd_i,     // MX_RND_* (roundings.def order)
  input  logic                ovf_i,     // 0 sat, 1 ovf
  input  logic [SR_BITS-1:0]  rbits_i,
  input  logic [2:0]          mbits_i,
  input  logic [4:0]          bias_i,
  input  logic signed [5:0]   emin_i,
  input  logic [7:0]          maxmag_i,
  input  logic [7:0]          signbit_i,
  input  logic                is_int_i,
  input  logic                is_ieee_i,
  input  logic                is_fn_i,
  output logic [7:0]          code_o,
  output logic [4:0]          flags_o    // {invalid, 0, overflow, underflow, inexact} as MX_FLAG_*
);
  /* verilator no_inline_module */  // one copy of the code for all lanes (build time)
  /* verilator lint_off UNUSEDPARAM */
  `include "mx_pkg.svh"
  /* verilator lint_on UNUSEDPARAM */
  `include "mx_round_inc.svh"

  localparam int XW = 24 + SR_BITS;     // {M, SR_BITS zeros}
  localparam int SHMAX = XW + 1;        // any larger shift leaves only sticky bits

  logic              s;
  logic [7:0]        e32;
  logic [23:0]       m;
  logic signed [11:0] ep;               // value = m * 2^(ep - 150)
  logic [4:0]        lz;
  logic signed [11:0] et;               // floor(log2 |t|)
  logic signed [11:0] q, sh;
  logic [XW-1:0]     xe, y, lost_mask;
  logic [10:0]       n, nr;
  logic [SR_BITS-1:0] fr;
  logic              rb, sb, lsb, sticky, inexact, inc, tiny, toward_zero;
  logic [SR_BITS:0]  srsum;
  logic [11:0]       mag;
  logic [5:0]        shc;

  assign s   = x_i[31];
  assign e32 = x_i[30:23];
  assign m   = {e32 != 8'd0, x_i[22:0]};
  assign ep  = (e32 == 8'd0) ? 12'sd1 : $signed({4'd0, e32});

  mx_lzc #(.WIDTH(24), .CW(5)) u_lzc (.x_i(m), .cnt_o(lz));

  always_comb begin
    et  = 12'sd23 - $signed({7'd0, lz}) + ep - 12'sd150 - 12'(scale_i);
    if (is_int_i) q = -$signed({9'd0, mbits_i});
    else q = ((et > 12'(emin_i)) ? et : 12'(emin_i)) - $signed({9'd0, mbits_i});
    // |t| = m * 2^(ep - 150 - X); keep bits at and above 2^q
    sh  = q - (ep - 12'sd150 - 12'(scale_i));
    shc = (sh <= 12'sd0) ? 6'd0 : (sh >= 12'(SHMAX)) ? 6'(SHMAX) : sh[5:0];
    xe  = {m, {SR_BITS{1'b0}}};
    y   = (shc >= 6'(XW)) ? '0 : (xe >> shc);
    lost_mask = (shc >= 6'(XW)) ? '1 : ~({XW{1'b1}} << shc);
    sticky = |(xe & lost_mask);
    n   = 11'(y >> SR_BITS);
    fr  = y[SR_BITS-1:0];
    rb  = fr[SR_BITS-1];
    sb  = (|fr[SR_BITS-2:0]) | sticky;
    lsb = n[0];
    inexact = rb | sb;
    srsum = {1'b0, fr} + {1'b0, rbits_i};
    inc = mx_round_inc (rnd_i, lsb, rb, sb, s, srsum[SR_BITS]); // sr: fr + r carries out
    nr = n + {10'd0, inc};
    // magnitude code: subnormal range keeps N, normal range adds the biased exponent
    if (is_int_i || et < 12'(emin_i)) mag = {1'b0, nr};
    else mag = 12'((et + $signed({7'd0, bias_i})) <<< mbits_i) + {1'b0, nr} - (12'd1 << mbits_i);
    tiny = et < (is_int_i ? -$signed({9'd0, mbits_i}) : 12'(emin_i));
    toward_zero = rnd_i == MX_RND_W'(MX_RND_RTZ) || rnd_i == MX_RND_W'(MX_RND_RTO)
                  || (rnd_i == MX_RND_W'(MX_RND_RDN) && !s) || (rnd_i == MX_RND_W'(MX_RND_RUP) && s);

    flags_o = (inexact ? 5'(MX_FLAG_INEXACT) : 5'd0) | (inexact & tiny ? 5'(MX_FLAG_UNDERFLOW) : 5'd0);
    if (m == 24'd0) begin
      // +-0 is exact; the sign survives (zero-sign keep), INT has one zero
      code_o = (s && !is_int_i) ? signbit_i : 8'd0;
      flags_o = 5'd0;
    end else if (mag > {4'd0, maxmag_i}) begin
      flags_o = 5'(MX_FLAG_OVERFLOW | MX_FLAG_INEXACT);
      if (!ovf_i || toward_zero || !(is_ieee_i || is_fn_i)) code_o = maxmag_i;
      else if (is_ieee_i) code_o = 8'h7C;            // E5M2 +Inf (sign below)
      else code_o = 8'h7F;                           // E4M3 NaN
      code_o = pack(code_o);
    end else begin
      code_o = pack(mag[7:0]);
    end
  end

  // sign-magnitude packing (two's complement for INT)
  function automatic logic [7:0] pack(input logic [7:0] mg);
    if (is_int_i) pack = s ? (8'd0 - mg) : mg;
    else if (mg == 8'd0) pack = s ? signbit_i : 8'd0;
    else pack = mg | (s ? signbit_i : 8'd0);
  endfunction

  logic unused;
  assign unused = ^{mag[11:8], srsum[SR_BITS-1:0], y[XW-1:SR_BITS+11]};
endmodule
