// mx_fp32_round -- round sign * mag * 2^k (mag != 0) once to FP32, or to BF16 (bf16_i: the
// result in bits_o[15:0], bits_o[31:16] zero), in a given mode, with subnormals and IEEE 754
// overflow (Inf, or max finite when the mode points toward zero), and the IEEE flags as
// libmxgold's encoder raises them: inexact; underflow = inexact and tiny before rounding
// (|value| < 2^-126); overflow (with inexact, underflow cleared).
// The one rounding of the block dot, of the accumulator add, of the exact accumulator and of
// the BF16 output in mx_mac.
// SPDX-License-Identifier: MIT
module mx_fp32_round #(
  parameter int W = 72   // at least 26
) (
  input  logic               sign_i,
  input  logic [W-1:0]       mag_i,
  input  logic signed [11:0] k_i,       // weight of mag bit 0 is 2^k
  input  logic [MX_RND_W-1:0] rnd_i,     // MX_RND_* (sr rounds as rne here)
  input  logic               bf16_i,    // round to BF16 (7 fraction bits) instead of FP32
  output logic [31:0]        bits_o,
  output logic [7:0]         flags_o    // MX_FLAG_*
);
  /* verilator lint_off UNUSEDPARAM */
  `include "mx_pkg.svh"
  /* verilator lint_on UNUSEDPARAM */
  `include "mx_round_inc.svh"

  localparam int CW = $clog2(W + 1);     // bits of a leading-zero count 0..W
  localparam int SW = $clog2(W + 2) + 1; // bits of a shift 0..W+1

  logic [CW-1:0]      lz;
  logic signed [11:0] p, e, q, sh;
  logic [SW-1:0]      shc;
  logic [W-1:0]       shifted, lowmask, rvec;
  logic [8:0]         ef, fexp;
  logic [24:0]        n, nr;
  logic               rb, sb, lsb, inc, toward_zero, ovf;
  logic [31:0]        f;

  mx_lzc #(.WIDTH(W), .CW(CW)) u_lzc (.x_i(mag_i), .cnt_o(lz));

  always_comb begin
    p  = 12'(W - 1) - 12'(lz);
    e  = p + k_i;                                      // floor(log2 |value|)
    q  = ((e < -12'sd126) ? -12'sd126 : e) - (bf16_i ? 12'sd7 : 12'sd23); // quantum exponent
    sh = q - k_i;
    rb = 1'b0;
    sb = 1'b0;
    shc = '0;
    rvec = '0;
    lowmask = '0;
    if (sh <= 12'sd0) begin
      shifted = mag_i << (-sh);
    end else begin
      shc = (sh > 12'(W)) ? SW'(W + 1) : SW'(sh);
      shifted = (shc > SW'(W - 1)) ? '0 : (mag_i >> shc);
      rvec = (shc > SW'(W)) ? '0 : (mag_i >> (shc - SW'(1)));
      rb = rvec[0];
      lowmask = (shc <= SW'(1)) ? '0 : (shc > SW'(W)) ? '1 : ~({W{1'b1}} << (shc - SW'(1)));
      sb = |(mag_i & lowmask);
    end
    n   = shifted[24:0];
    lsb = n[0];
    inc = mx_round_inc (rnd_i, lsb, rb, sb, sign_i, rb & (sb | lsb)); // sr rounds as rne here
    nr = n + {24'd0, inc};
    toward_zero = rnd_i == MX_RND_W'(MX_RND_RTZ) || rnd_i == MX_RND_W'(MX_RND_RTO)
                  || (rnd_i == MX_RND_W'(MX_RND_RDN) && !sign_i) || (rnd_i == MX_RND_W'(MX_RND_RUP) && sign_i);
    ef = 9'(e + 12'sd127);
    // the field layout: {exponent, fraction}, with the significand's carry into the exponent
    if (e < -12'sd126) f = {7'd0, nr};                 // subnormal (a carry makes it the min normal)
    else if (bf16_i) f = ({23'd0, ef} << 7) + {7'd0, nr} - 32'h0000_0080;
    else f = {ef, 23'd0} + {7'd0, nr} - 32'h0080_0000;
    fexp = bf16_i ? f[15:7] : f[31:23];
    ovf = e > 12'sd127 || fexp >= 9'd255;
    if (ovf) bits_o = bf16_i ? {16'd0, sign_i, toward_zero ? 15'h7F7F : 15'h7F80}
                             : {sign_i, toward_zero ? 31'h7F7F_FFFF : 31'h7F80_0000};
    else bits_o = bf16_i ? {16'd0, sign_i, f[14:0]} : {sign_i, f[30:0]};
    flags_o = '0;
    if (ovf) flags_o = MX_FLAG_OVERFLOW | MX_FLAG_INEXACT;
    else if (rb | sb) flags_o = MX_FLAG_INEXACT | ((e < -12'sd126) ? MX_FLAG_UNDERFLOW : 8'd0);
  end

  logic unused;
  assign unused = ^{shifted[W-1:25], rvec[W-1:1]};
endmodule
