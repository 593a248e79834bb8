// mx_quant_lane_fmt.svh -- the format constants and the code-value function of the lane models
// (mx_quant_lane_ref.sv, mx_quant_lane_pref.sv), from the per-format rows of mx_pkg.svh; include
// it inside the module, after mx_pkg.svh, with parameter FMT in scope.  Formal only.
  localparam int G = 34;
  // the format, from its own row of constants
  localparam int EB  = FMT == MX_FMT_E4M3 ? MX_E4M3_EBITS : FMT == MX_FMT_E5M2 ? MX_E5M2_EBITS :
                       FMT == MX_FMT_E2M3 ? MX_E2M3_EBITS : FMT == MX_FMT_E3M2 ? MX_E3M2_EBITS :
                       FMT == MX_FMT_E2M1 ? MX_E2M1_EBITS : MX_INT8_EBITS;
  localparam int MB  = FMT == MX_FMT_E4M3 ? MX_E4M3_MBITS : FMT == MX_FMT_E5M2 ? MX_E5M2_MBITS :
                       FMT == MX_FMT_E2M3 ? MX_E2M3_MBITS : FMT == MX_FMT_E3M2 ? MX_E3M2_MBITS :
                       FMT == MX_FMT_E2M1 ? MX_E2M1_MBITS : MX_INT8_MBITS;
  localparam int BIAS = FMT == MX_FMT_E4M3 ? MX_E4M3_BIAS : FMT == MX_FMT_E5M2 ? MX_E5M2_BIAS :
                        FMT == MX_FMT_E2M3 ? MX_E2M3_BIAS : FMT == MX_FMT_E3M2 ? MX_E3M2_BIAS :
                        FMT == MX_FMT_E2M1 ? MX_E2M1_BIAS : MX_INT8_BIAS;
  localparam int SPECIAL = FMT == MX_FMT_E4M3 ? MX_E4M3_SPECIAL : FMT == MX_FMT_E5M2 ? MX_E5M2_SPECIAL :
                           FMT == MX_FMT_E2M3 ? MX_E2M3_SPECIAL : FMT == MX_FMT_E3M2 ? MX_E3M2_SPECIAL :
                           FMT == MX_FMT_E2M1 ? MX_E2M1_SPECIAL : MX_INT8_SPECIAL;
  localparam int BITS = FMT == MX_FMT_E4M3 ? MX_E4M3_BITS : FMT == MX_FMT_E5M2 ? MX_E5M2_BITS :
                        FMT == MX_FMT_E2M3 ? MX_E2M3_BITS : FMT == MX_FMT_E3M2 ? MX_E3M2_BITS :
                        FMT == MX_FMT_E2M1 ? MX_E2M1_BITS : MX_INT8_BITS;
  localparam bit IS_INT = SPECIAL == MX_SPECIAL_INT;
  // largest finite magnitude code: IEEE reserves the top exponent, FN only the all-ones code
  localparam int ALL1 = (1 << (BITS - 1)) - 1;
  localparam int MAXC = IS_INT ? ALL1 : SPECIAL == MX_SPECIAL_IEEE ? ALL1 - (1 << MB) :
                        SPECIAL == MX_SPECIAL_FN ? ALL1 - 1 : ALL1;
  localparam logic [7:0] SIGN = 8'(1 << (BITS - 1));
  // smallest normal: 2^(1 - bias); INT8: 2^-mbits (the underflow threshold, section 4)
  localparam int EMIN = IS_INT ? -MB : 1 - BIAS;

  // the value of magnitude code c in units of 2^-G (unbounded exponent above the top field)
  function automatic logic [63:0] val(input int c);
    int e, f;
    if (IS_INT) val = 64'(c) << (G - MB);
    else begin
      e = c >> MB;
      f = c & ((1 << MB) - 1);
      if (e == 0) val = 64'(f) << (G + 1 - BIAS - MB);
      else val = 64'((1 << MB) + f) << (G + e - BIAS - MB);
    end
  endfunction
