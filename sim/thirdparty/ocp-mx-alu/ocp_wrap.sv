// ocp_wrap.sv -- one Verilated top for the two pncel/ocp_mx_alu units the adapter tests:
// mxint8_dot_product (ports passed through) and mxint8_broadcast (its unpacked element array
// flattened, element i in bits 8i+7..8i).  Our code; the units themselves come from the
// upstream checkout (run.sh).
// SPDX-License-Identifier: MIT
module ocp_wrap (
    input  logic [7:0]   dot_scale_a,
    input  logic [7:0]   dot_scale_b,
    input  logic [255:0] dot_a,
    input  logic [255:0] dot_b,
    output logic [31:0]  dot_fp32,
    output logic         dot_overflow,
    output logic         dot_underflow,
    output logic         dot_is_unused,
    output logic         dot_is_nan,
    input  logic [31:0]  bc_fp32,
    output logic [7:0]   bc_scale,
    output logic [255:0] bc_elements
);
  mxint8_dot_product dot (
      .i_scale_a(dot_scale_a), .i_scale_b(dot_scale_b),
      .i_mxint8_elements_a(dot_a), .i_mxint8_elements_b(dot_b),
      .o_float32(dot_fp32), .o_overflow(dot_overflow), .o_underflow(dot_underflow),
      .o_is_unused(dot_is_unused), .o_is_NaN(dot_is_nan));

  wire [7:0] elems[31:0]; // the upstream port's index order
  mxint8_broadcast bc (.i_float32(bc_fp32), .o_scale(bc_scale), .o_mxint8_elements(elems));
  for (genvar i = 0; i < 32; i++) begin : g_flat
    assign bc_elements[8*i+:8] = elems[i];
  end
endmodule
