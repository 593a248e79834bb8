// mxfpga_top -- our wrapper around two units of ebby-s/MX-for-FPGA (MIT), for co-simulation
// with libmxgold: one conv_bf16tomxfp and one dot_fp per element format, each with its upstream
// defaults (k = 32, freq_mhz = 400), all driven by the same inputs.  Flat packed ports keep the
// C++ shim simple.  Format f, in mxgold's order: 0 e4m3, 1 e5m2, 2 e2m3, 3 e3m2, 4 e2m1.
// Beside them, the upstream's FP8 variants with special values, on the same inputs:
// conv_bf16tomxfp_spec for E4M3 and E5M2 with sat = 1 and sat = 0 (variant v = 2 f + 1 - sat),
// and dot_fp_spec for E4M3 and E5M2.
// SPDX-License-Identifier: MIT
module mxfpga_top (
  input  logic           clk_i,
  // conv_bf16tomxfp: 32 BF16 values, lane i at [16i +: 16]
  input  logic [511:0]   bf16_i,
  // format f: E8M0 scale at [8f +: 8]; element code of lane i at [256f + 8i +: 8] (zero-extended)
  output logic [39:0]    conv_scale_o,
  output logic [1279:0]  conv_codes_o,
  // dot_fp: 32 codes per operand, lane i at [8i +: 8]; format f reads the low bits
  input  logic [255:0]   dot_a_i,
  input  logic [255:0]   dot_b_i,
  // format f: the fixed-point dot product at [128f +: 128], sign-extended
  output logic [639:0]   dot_o,
  // conv_bf16tomxfp_spec: variant v's scale at [8v +: 8], lane i's code at [256v + 8i +: 8]
  output logic [31:0]    spec_scale_o,
  output logic [1023:0]  spec_codes_o,
  // dot_fp_spec: format f (0 e4m3, 1 e5m2) at [128f +: 128], sign-extended; its o_nan at [f]
  output logic [255:0]   spec_dot_o,
  output logic [1:0]     spec_nan_o
);
  localparam int K = 32;

  for (genvar f = 0; f < 5; f++) begin : g_fmt
    localparam int EW = f == 0 ? 4 : f == 1 ? 5 : f == 2 ? 2 : f == 3 ? 3 : 2;
    localparam int MW = f == 0 ? 3 : f == 1 ? 2 : f == 2 ? 3 : f == 3 ? 2 : 1;
    localparam int BW = 1 + EW + MW;
    localparam int OW = 2 * ((1 << EW) + MW) + $clog2(K);  // dot_fp's out_width

    logic [15:0]   bf16 [K];
    logic [BW-1:0] codes [K];
    logic [7:0]    scale;
    logic [BW-1:0] a [K];
    logic [BW-1:0] b [K];
    logic [OW-1:0] dp;

    for (genvar i = 0; i < K; i++) begin : g_lane
      assign bf16[i] = bf16_i[16*i +: 16];
      assign conv_codes_o[256*f + 8*i +: 8] = 8'(codes[i]);
      assign a[i] = dot_a_i[8*i +: BW];
      assign b[i] = dot_b_i[8*i +: BW];
    end
    assign conv_scale_o[8*f +: 8] = scale;
    assign dot_o[128*f +: 128] = 128'($signed(dp));

    conv_bf16tomxfp #(.exp_width(EW), .man_width(MW), .k(K)) u_conv (
      .i_clk(clk_i), .i_bf16_vec(bf16), .o_mx_vec(codes), .o_mx_exp(scale));

    dot_fp #(.exp_width(EW), .man_width(MW), .k(K)) u_dot (
      .i_vec_a(a), .i_vec_b(b), .o_dp(dp));
  end

  for (genvar f = 0; f < 2; f++) begin : g_spec
    localparam int EW = f == 0 ? 4 : 5;
    localparam int MW = f == 0 ? 3 : 2;
    localparam int OW = 2 * ((1 << EW) + MW) + $clog2(K);

    logic [7:0]    a [K];
    logic [7:0]    b [K];
    logic [OW-1:0] dp;

    for (genvar i = 0; i < K; i++) begin : g_lane
      assign a[i] = dot_a_i[8*i +: 8];
      assign b[i] = dot_b_i[8*i +: 8];
    end
    assign spec_dot_o[128*f +: 128] = 128'($signed(dp));

    dot_fp_spec #(.exp_width(EW), .man_width(MW), .k(K)) u_dot (
      .i_vec_a(a), .i_vec_b(b), .o_dp(dp), .o_nan(spec_nan_o[f]));

    for (genvar s = 0; s < 2; s++) begin : g_sat
      localparam int V = 2 * f + 1 - s;
      logic [7:0] codes [K];

      for (genvar i = 0; i < K; i++) begin : g_lane
        assign spec_codes_o[256*V + 8*i +: 8] = codes[i];
      end

      conv_bf16tomxfp_spec #(.exp_width(EW), .man_width(MW), .k(K), .sat(s)) u_conv (
        .i_clk(clk_i), .i_bf16_vec(g_fmt[0].bf16), .o_mx_vec(codes),
        .o_mx_exp(spec_scale_o[8*V +: 8]));
    end
  end
endmodule
