// mx_elem_decode -- an element code as sign, integer significand and a shift that places it in a
// fixed-point window with its lsb at 2^-16 (E5M2's smallest subnormal): value = sig * 2^(sh - 16).
// Flags NaN (E4M3 S.1111.111, E5M2 NaN), Inf (E5M2) and zero.
// SPDX-License-Identifier: MIT
module mx_elem_decode (
  input  logic [7:0]        code_i,
  input  logic [2:0]        mbits_i,
  input  logic [4:0]        bias_i,
  input  logic signed [5:0] emin_i,
  input  logic [7:0]        signbit_i,
  input  logic              is_int_i,
  input  logic              is_ieee_i,
  input  logic              is_fn_i,
  output logic              sign_o,
  output logic [7:0]        sig_o,
  output logic [5:0]        sh_o,
  output logic              zero_o,
  output logic              nan_o,
  output logic              inf_o
);
  /* verilator no_inline_module */  // one copy of the code for all lanes (build time)
  logic [7:0] mag, frac, efield, allones;
  always_comb begin
    mag    = code_i & (signbit_i - 8'd1);
    frac   = mag & ((8'd1 << mbits_i) - 8'd1);
    efield = mag >> mbits_i;
    allones = (signbit_i - 8'd1) >> mbits_i;       // the all-ones exponent field
    nan_o  = 1'b0;
    inf_o  = 1'b0;
    if (is_int_i) begin
      sign_o = code_i[7];
      sig_o  = code_i[7] ? (8'd0 - code_i) : code_i; // |c|, 128 for -128
      sh_o   = 6'd10;                              // 2^-6 = 2^(10 - 16)
    end else begin
      sign_o = (code_i & signbit_i) != 8'd0;
      if (efield == 8'd0) begin
        sig_o = frac;
        sh_o  = 6'(7'sd16 + 7'(emin_i) - $signed({4'd0, mbits_i}));
      end else begin
        sig_o = frac | (8'd1 << mbits_i);
        sh_o  = 6'($signed({2'd0, efield[4:0]}) - $signed({2'd0, bias_i}) - $signed({4'd0, mbits_i}) + 7'sd16);
      end
      if (is_fn_i && mag == (signbit_i - 8'd1)) nan_o = 1'b1;
      if (is_ieee_i && efield == allones) begin
        nan_o = frac != 8'd0;
        inf_o = frac == 8'd0;
      end
    end
    zero_o = sig_o == 8'd0 && !nan_o && !inf_o;
  end
endmodule
