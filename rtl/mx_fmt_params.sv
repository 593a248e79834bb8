// mx_fmt_params -- the numbers of one element format, selected at run time by its index
// (MX_FMT_* of the generated mx_pkg.svh, from golden/include/mx/formats.def).
// SPDX-License-Identifier: MIT
module mx_fmt_params (
  input  logic [2:0]        fmt_i,
  output logic [2:0]        mbits_o,   // stored fraction bits
  output logic [4:0]        bias_o,
  output logic signed [5:0] emin_o,    // smallest normal exponent (INT: 0)
  output logic signed [5:0] emax_o,    // largest normal exponent (the OCP 6.3 emax)
  output logic [7:0]        maxmag_o,  // magnitude code of max finite
  output logic [7:0]        sigmax_o,  // significand of max finite, as an integer (1.m << mbits)
  output logic [7:0]        signbit_o, // the sign bit of the code (INT: 0x80, two's complement)
  output logic              is_int_o,
  output logic              is_ieee_o, // has Inf (E5M2)
  output logic              is_fn_o    // NaN-only all-ones code (E4M3)
);
  /* verilator lint_off UNUSEDPARAM */
  `include "mx_pkg.svh"
  /* verilator lint_on UNUSEDPARAM */

  always_comb begin
    mbits_o = 3'(MX_E4M3_MBITS);
    bias_o = 5'(MX_E4M3_BIAS);
    emin_o = 6'(MX_E4M3_EMIN);
    emax_o = 6'(MX_E4M3_EMAX);
    maxmag_o = 8'(MX_E4M3_MAX_MAG);
    signbit_o = 8'h80;
    is_int_o = 1'b0;
    is_ieee_o = 1'b0;
    is_fn_o = 1'b1;
    unique case (fmt_i)
      3'(MX_FMT_E5M2): begin
        mbits_o = 3'(MX_E5M2_MBITS); bias_o = 5'(MX_E5M2_BIAS); emin_o = 6'(MX_E5M2_EMIN);
        emax_o = 6'(MX_E5M2_EMAX); maxmag_o = 8'(MX_E5M2_MAX_MAG); is_fn_o = 1'b0; is_ieee_o = 1'b1;
      end
      3'(MX_FMT_E2M3): begin
        mbits_o = 3'(MX_E2M3_MBITS); bias_o = 5'(MX_E2M3_BIAS); emin_o = 6'(MX_E2M3_EMIN);
        emax_o = 6'(MX_E2M3_EMAX); maxmag_o = 8'(MX_E2M3_MAX_MAG); is_fn_o = 1'b0; signbit_o = 8'h20;
      end
      3'(MX_FMT_E3M2): begin
        mbits_o = 3'(MX_E3M2_MBITS); bias_o = 5'(MX_E3M2_BIAS); emin_o = 6'(MX_E3M2_EMIN);
        emax_o = 6'(MX_E3M2_EMAX); maxmag_o = 8'(MX_E3M2_MAX_MAG); is_fn_o = 1'b0; signbit_o = 8'h20;
      end
      3'(MX_FMT_E2M1): begin
        mbits_o = 3'(MX_E2M1_MBITS); bias_o = 5'(MX_E2M1_BIAS); emin_o = 6'(MX_E2M1_EMIN);
        emax_o = 6'(MX_E2M1_EMAX); maxmag_o = 8'(MX_E2M1_MAX_MAG); is_fn_o = 1'b0; signbit_o = 8'h08;
      end
      3'(MX_FMT_INT8): begin
        mbits_o = 3'(MX_INT8_MBITS); bias_o = 5'(MX_INT8_BIAS); emin_o = 6'(MX_INT8_EMIN);
        emax_o = 6'(MX_INT8_EMAX); maxmag_o = 8'(MX_INT8_MAX_MAG); is_fn_o = 1'b0; is_int_o = 1'b1;
      end
      default: ;
    endcase
    // 1.m of max finite as an integer: for INT the magnitude itself (127 = 1.984375 * 64)
    sigmax_o = is_int_o ? maxmag_o : ((maxmag_o & ((8'd1 << mbits_o) - 8'd1)) | (8'd1 << mbits_o));
  end
endmodule
