// mx_lzc -- leading-zero count of a WIDTH-bit word (WIDTH for an all-zero word).
// SPDX-License-Identifier: MIT
module mx_lzc #(
  parameter int WIDTH = 24,
  parameter int CW = 7
) (
  input  logic [WIDTH-1:0] x_i,
  output logic [CW-1:0]    cnt_o
);
  always_comb begin
    cnt_o = CW'(WIDTH);
    for (int i = 0; i < WIDTH; i++) begin
      if (x_i[i]) cnt_o = CW'(WIDTH - 1 - i);
    end
  end
endmodule
