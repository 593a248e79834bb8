// mx_lzc_miter -- formal miter (not a synthesizable unit): rtl/mx_lzc.sv against the bit-serial
// mx_lzc_ref at one WIDTH, every input word.
// SPDX-License-Identifier: MIT
module mx_lzc_miter #(
  parameter int WIDTH = 24
) (
  input logic [WIDTH-1:0] x_i
);
  localparam int CW = $clog2(WIDTH + 1);
  logic [CW-1:0] cnt_dut, cnt_ref;
  mx_lzc #(.WIDTH(WIDTH), .CW(CW)) u_dut (.x_i(x_i), .cnt_o(cnt_dut));
  mx_lzc_ref #(.WIDTH(WIDTH), .CW(CW)) u_ref (.x_i(x_i), .cnt_o(cnt_ref));
`ifdef FORMAL
  always_comb assert (cnt_dut == cnt_ref);
`endif
endmodule
