// mxg_cvfpu8_wrap -- flat ports around the 8-element build of pulp-platform/cvfpu
// fpnew_mxdotp_multi (VectorSize 8, the paper's MXDOTP instruction) for the mxgold co-simulation
// (our code; the upstream files are used unmodified).  Every operand is NaN-boxed (is_boxed all
// ones), tag/mask/aux are unused and the handshake is always valid/ready, so with PIPE = 0 one
// evaluation is one operation and with PIPE > 0 the result appears PIPE clocks later.
module mxg_cvfpu8_wrap #(
  parameter int unsigned PIPE = 0,
  parameter int unsigned PIPE_CFG = 0  // fpnew_pkg::pipe_config_t: 0 BEFORE, 2 INSIDE
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic [63:0]  a_i,        // 8 bytes of A (element packing depends on src_fmt_i)
  input  logic [63:0]  b_i,
  input  logic [1:0]   a_rem_i,    // FP6: top 2 bits of the 11th element
  input  logic [1:0]   b_rem_i,
  input  logic [7:0]   xa_i,       // E8M0 scales
  input  logic [7:0]   xb_i,
  input  logic [31:0]  acc_i,      // accumulator: FP32, or BF16 in [15:0]
  input  logic [2:0]   rnd_i,      // fpnew_pkg::roundmode_e
  input  logic         int_i,      // 1: MXDOTPI (INT8 elements)
  input  logic [3:0]   src_fmt_i,  // fpnew_pkg::fp_format_e
  input  logic [3:0]   dst_fmt_i,
  output logic [31:0]  result_o,
  output logic [4:0]   status_o    // {NV, DZ, OF, UF, NX}
);
  localparam int unsigned VS = 8;
  localparam int unsigned NF = fpnew_pkg::NUM_FP_FORMATS;
  localparam int unsigned NO = 2*VS+1;

  fpnew_pkg::status_t status;
  logic unused_ext, unused_tag, unused_mask, unused_aux, unused_valid, unused_ready, unused_busy;

  fpnew_mxdotp_multi #(
    .VectorSize  ( VS ),
    .NumPipeRegs ( PIPE ),
    .PipeConfig  ( fpnew_pkg::pipe_config_t'(PIPE_CFG) )
  ) i_dut (
    .clk_i, .rst_ni,
    .operands_a_i         ( a_i ),
    .operands_b_i         ( b_i ),
    .operands_a_fp6_rem_i ( a_rem_i ),
    .operands_b_fp6_rem_i ( b_rem_i ),
    .operands_c_i         ( {xb_i, xa_i} ),
    .operand_d_i          ( acc_i ),
    .is_boxed_i           ( {NF*NO{1'b1}} ),
    .rnd_mode_i           ( fpnew_pkg::roundmode_e'(rnd_i) ),
    .op_i                 ( int_i ? fpnew_pkg::MXDOTPI : fpnew_pkg::MXDOTPF ),
    .op_mod_i             ( 1'b0 ),
    .src_fmt_i            ( fpnew_pkg::fp_format_e'(src_fmt_i) ),
    .int_fmt_i            ( fpnew_pkg::INT8 ),
    .dst_fmt_i            ( fpnew_pkg::fp_format_e'(dst_fmt_i) ),
    .tag_i                ( 1'b0 ),
    .mask_i               ( 1'b1 ),
    .aux_i                ( 1'b0 ),
    .in_valid_i           ( 1'b1 ),
    .in_ready_o           ( unused_ready ),
    .flush_i              ( 1'b0 ),
    .result_o             ( result_o ),
    .status_o             ( status ),
    .extension_bit_o      ( unused_ext ),
    .tag_o                ( unused_tag ),
    .mask_o               ( unused_mask ),
    .aux_o                ( unused_aux ),
    .out_valid_o          ( unused_valid ),
    .out_ready_i          ( 1'b1 ),
    .busy_o               ( unused_busy )
  );
  assign status_o = status;
endmodule
