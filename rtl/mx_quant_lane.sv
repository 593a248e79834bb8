// mx_quant_lane -- one element of mx_quantize: an FP32 value divided by 2^x_i (the shared
// exponent) and rounded once onto the element format's grid, exactly as libmxgold's mx_encode:
//   t = x / 2^X;  q = max(floor(log2|t|), emin) - mbits  (INT: q = -mbits);  N = trunc(|t| / 2^q)
//   round bit R, sticky S, and the SR_BITS bits fr below the last kept bit decide the increment:
//   of the element rounding (mx_round_inc.svh; sr: the carry of fr + r)
// Overflow (rounded magnitude above max): sat clamps; ovf gives Inf (E5M2) / NaN (E4M3) unless the
// rounding points toward zero, and always clamps for FP6/FP4/INT8 (docs/semantics.md 3).
// The special-value policies the block logic passes down (docs/policies.md):
//   zero-sign   keep: zeros keep the sign (t's for a result that rounds to 0); positive: +0;
//               nonzero: a zero input is +0, a nonzero t that rounds to 0 keeps its sign
//   int-range   full: -128 (code 0x80) is the INT8 limit of negative values
//   scale-div   input: t first rounded (RNE) into the lanes' type; it matters only where that
//               gives +-0 (|t| <= 2^-150, BF16 2^-134): the result is then a zero, flag inexact
//               (above that the element rounding of t and of fl(t) agree, t being far below
//               every element format's smallest subnormal)
//   NaN input   (nan-block ignore) the element NaN: E4M3 S.1111.111, E5M2 S.11111.10 (nan-code
//               quiet) or S.11111.11 (ones), the others by nan-elem; flag invalid
//   Inf input   inf_zero_i: +0, flag invalid; else encoded as overflow under inf_ovf_i (E5M2
//               under ovf: Inf itself, exact)
// SPDX-License-Identifier: MIT
module mx_quant_lane #(
  parameter int SR_BITS = 16
) (
  input  logic [31:0]         x_i,       // FP32 bits
  input  logic signed [9:0]   scale_i,   // the exponent X the value is divided by, -127..128
  input  logic [MX_RND_W-1:0] rnd_i,     // MX_RND_* (roundings.def order)
  input  logic                ovf_i,     // 0 sat, 1 ovf
  input  logic                inf_ovf_i, // the overflow an Inf input takes (0 sat, 1 ovf)
  input  logic                inf_zero_i,// an Inf input gives +0 (inf-block zero)
  input  logic [MX_ZERO_SIGN_W-1:0] zero_sign_i, // MX_ZERO_SIGN_*
  input  logic                int_full_i,// int-range full
  input  logic [MX_NAN_ELEM_W-1:0] nan_elem_i,   // MX_NAN_ELEM_*
  input  logic                nan_ones_i,// nan-code ones
  input  logic                div_in_i,  // scale-div input
  input  logic                bf16_i,    // the lanes' type (scale-div input): BF16, else FP32
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
  logic              xnan, xinf, zneg, divzero;
  logic [7:0]        limit;

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

    // the largest magnitude code of this sign (INT8 -128 under int-range full)
    limit = maxmag_i + {7'd0, is_int_i && s && int_full_i};
    xnan = e32 == 8'hFF && x_i[22:0] != 23'd0;
    xinf = e32 == 8'hFF && x_i[22:0] == 23'd0;
    // scale-div input: t rounds to +-0 in the lanes' type (ties to even at half its smallest
    // subnormal, 2^-150 or 2^-134)
    divzero = div_in_i && m != 24'd0
              && (et < (bf16_i ? -12'sd134 : -12'sd150)
                  || (et == (bf16_i ? -12'sd134 : -12'sd150) && (m & (m - 24'd1)) == 24'd0));
    // the sign of a zero result: zero-sign keep for every zero, nonzero for a t that rounds to 0
    zneg = s && (zero_sign_i == MX_ZERO_SIGN_W'(MX_ZERO_SIGN_KEEP)
                 || (zero_sign_i == MX_ZERO_SIGN_W'(MX_ZERO_SIGN_NONZERO) && m != 24'd0
                     && !divzero));

    flags_o = (inexact ? 5'(MX_FLAG_INEXACT) : 5'd0) | (inexact & tiny ? 5'(MX_FLAG_UNDERFLOW) : 5'd0);
    if (xnan) begin
      flags_o = 5'(MX_FLAG_INVALID);
      if (is_fn_i) code_o = 8'h7F | (s ? signbit_i : 8'd0);
      else if (is_ieee_i) code_o = (nan_ones_i ? 8'h7F : 8'h7E) | (s ? signbit_i : 8'd0);
      else if (nan_elem_i == MX_NAN_ELEM_W'(MX_NAN_ELEM_MAX)) code_o = maxmag_i;
      else if (nan_elem_i == MX_NAN_ELEM_W'(MX_NAN_ELEM_FLIPZERO) && !is_int_i && !s)
        code_o = signbit_i;                          // +NaN: the -0 code
      else code_o = 8'd0;
    end else if (xinf && inf_zero_i) begin
      flags_o = 5'(MX_FLAG_INVALID);
      code_o = 8'd0;
    end else if (xinf && is_ieee_i && inf_ovf_i) begin
      flags_o = 5'd0;                                // Inf to Inf: exact
      code_o = 8'h7C | (s ? signbit_i : 8'd0);
    end else if (xinf) begin
      flags_o = 5'(MX_FLAG_OVERFLOW | MX_FLAG_INEXACT);
      code_o = (!inf_ovf_i || toward_zero || !is_fn_i) ? pack(limit) : 8'h7F | (s ? signbit_i : 8'd0);
    end else if (m == 24'd0 || divzero) begin
      // a zero, exact (INT has one zero); scale-div input's zero is inexact
      code_o = (zneg && !is_int_i) ? signbit_i : 8'd0;
      flags_o = divzero ? 5'(MX_FLAG_INEXACT) : 5'd0;
    end else if ((is_int_i && et > 12'sd1) || mag > {4'd0, limit}) begin
      // INT: |t| >= 4 overflows, whatever the truncated N above says (t is unbounded where
      // min-scale-elem unit divides a block clamped up to scale-min by 1)
      flags_o = 5'(MX_FLAG_OVERFLOW | MX_FLAG_INEXACT);
      if (!ovf_i || toward_zero || !(is_ieee_i || is_fn_i)) code_o = limit;
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
    else if (mg == 8'd0) pack = zneg ? signbit_i : 8'd0;
    else pack = mg | (s ? signbit_i : 8'd0);
  endfunction

  logic unused;
  assign unused = ^{mag[11:8], srsum[SR_BITS-1:0], y[XW-1:SR_BITS+11]};
endmodule
