// mx_lzc_ref -- the plain description of a leading-zero count (not a synthesizable unit of
// mxgold): the index of the highest set bit, found bit by bit; WIDTH for an all-zero word.
// mx_lzc_miter proves rtl/mx_lzc.sv equal to it.
// SPDX-License-Identifier: MIT
module mx_lzc_ref #(
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
