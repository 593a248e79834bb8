// mx_fp32_round -- round sign * mag * 2^k (mag != 0) once to FP32 in a given mode, with FP32
// subnormals and IEEE 754 overflow (Inf, or max finite when the mode points toward zero).
// The one rounding of the block dot and of the accumulator add in mx_mac.
// SPDX-License-Identifier: MIT
module mx_fp32_round #(
  parameter int W = 72
) (
  input  logic               sign_i,
  input  logic [W-1:0]       mag_i,
  input  logic signed [11:0] k_i,       // weight of mag bit 0 is 2^k
  input  logic [MX_RND_W-1:0] rnd_i,     // MX_RND_* (sr rounds as rne here)
  output logic [31:0]        bits_o
);
  /* verilator lint_off UNUSEDPARAM */
  `include "mx_pkg.svh"
  /* verilator lint_on UNUSEDPARAM */
  `include "mx_round_inc.svh"

  logic [6:0]         lz;
  logic signed [11:0] p, e, q, sh;
  logic [7:0]         shc;
  logic [W-1:0]       shifted, lowmask, rvec;
  logic [8:0]         ef;
  logic [24:0]        n, nr;
  logic               rb, sb, lsb, inc, toward_zero, ovf;
  logic [31:0]        f;

  mx_lzc #(.WIDTH(W), .CW(7)) u_lzc (.x_i(mag_i), .cnt_o(lz));

  always_comb begin
    p  = 12'(W - 1) - $signed({5'd0, lz});
    e  = p + k_i;                                      // floor(log2 |value|)
    q  = ((e < -12'sd126) ? -12'sd126 : e) - 12'sd23;  // quantum exponent
    sh = q - k_i;
    rb = 1'b0;
    sb = 1'b0;
    shc = 8'd0;
    rvec = '0;
    lowmask = '0;
    if (sh <= 12'sd0) begin
      shifted = mag_i << (-sh);
    end else begin
      shc = (sh > 12'(W)) ? 8'(W + 1) : sh[7:0];
      shifted = (shc > 8'(W - 1)) ? '0 : (mag_i >> shc);
      rvec = (shc > 8'(W)) ? '0 : (mag_i >> (shc - 8'd1));
      rb = rvec[0];
      lowmask = (shc <= 8'd1) ? '0 : (shc > 8'(W)) ? '1 : ~({W{1'b1}} << (shc - 8'd1));
      sb = |(mag_i & lowmask);
    end
    n   = shifted[24:0];
    lsb = n[0];
    inc = mx_round_inc (rnd_i, lsb, rb, sb, sign_i, rb & (sb | lsb)); // sr rounds as rne here
    nr = n + {24'd0, inc};
    toward_zero = rnd_i == MX_RND_W'(MX_RND_RTZ) || rnd_i == MX_RND_W'(MX_RND_RTO)
                  || (rnd_i == MX_RND_W'(MX_RND_RDN) && !sign_i) || (rnd_i == MX_RND_W'(MX_RND_RUP) && sign_i);
    ef = 9'(e + 12'sd127);
    if (e < -12'sd126) f = {7'd0, nr};                 // subnormal (a carry makes it the min normal)
    else f = {ef, 23'd0} + {7'd0, nr} - 32'h0080_0000;
    ovf = e > 12'sd127 || f[31:23] >= 9'd255;
    if (ovf) bits_o = {sign_i, toward_zero ? 31'h7F7F_FFFF : 31'h7F80_0000};
    else bits_o = {sign_i, f[30:0]};
  end

  logic unused;
  assign unused = ^{shifted[W-1:25], rvec[W-1:1]};
endmodule
