// mx_lzc -- leading-zero count of a WIDTH-bit word (WIDTH for an all-zero word).
// Two levels, as a wide normalizer is built: a priority search for the highest non-zero 32-bit
// word, then a five-step binary count inside that word.  Besides the logic depth, it keeps the
// Verilated model cheap: a bit-serial loop over the 600-bit exact accumulator was the largest
// single cost of a mx_mac cycle.  sim/formal/mx_lzc_equiv proves it equal to the bit-serial
// description (mx_lzc_ref) at every width the units use.
// SPDX-License-Identifier: MIT
module mx_lzc #(
  parameter int WIDTH = 24,
  parameter int CW = 7
) (
  input  logic [WIDTH-1:0] x_i,
  output logic [CW-1:0]    cnt_o
);
  localparam int NW = (WIDTH + 31) / 32; // 32-bit words, the top one padded with zeros below
  localparam int PW = NW * 32;
  localparam int TW = NW > 1 ? $clog2(NW) : 1;

  logic [TW-1:0] top;  // the highest non-zero word
  logic          any;
  // x_i with its most significant bit at PW - 1: its toggles are x_i's, its padding is constant
  /* verilator coverage_off */
  logic [PW-1:0] xp;
  /* verilator coverage_on */
  logic [31:0]   w;
  logic [4:0]    c;    // leading zeros inside word top
  always_comb begin
    xp = PW'(x_i) << (PW - WIDTH);
    top = '0;
    any = 1'b0;
    for (int j = 0; j < NW; j++) begin
      if (xp[j*32 +: 32] != 32'd0) begin
        top = TW'(j);
        any = 1'b1;
      end
    end
    w = xp[32*top +: 32];
    c = 5'd0;
    if (w[31:16] == 16'd0) begin c[4] = 1'b1; w = w << 16; end
    if (w[31:24] == 8'd0)  begin c[3] = 1'b1; w = w << 8;  end
    if (w[31:28] == 4'd0)  begin c[2] = 1'b1; w = w << 4;  end
    if (w[31:30] == 2'd0)  begin c[1] = 1'b1; w = w << 2;  end
    if (w[31] == 1'b0)     c[0] = 1'b1;
    cnt_o = any ? CW'(PW - 32) - (CW'(top) << 5) + CW'(c) : CW'(WIDTH); // < WIDTH: fits CW bits
  end
endmodule
