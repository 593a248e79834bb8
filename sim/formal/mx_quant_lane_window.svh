// mx_quant_lane_window.svh -- step 1 (|t| placed in the window: T, sticky, big) of the lane models (mx_quant_lane_ref.sv,
// mx_quant_lane_pref.sv): statements included inside their always_comb.  Formal only.
    s = x_i[31];
    M = {x_i[30:23] != 8'd0, x_i[22:0]};
    // |x| = M 2^(E - 150) with E the biased exponent (1 for subnormals)
    sh = $signed({4'd0, (x_i[30:23] == 8'd0) ? 8'd1 : x_i[30:23]}) - 12'sd150 - 12'(scale_i) + 12'(G);
    big = 1'b0; sticky = 1'b0; T = 64'd0; wide = 88'd0;
    if (sh >= 12'sd52) big = 1'b1;                            // |t| >= 2^(52 - G) = 2^18
    else if (sh >= 12'sd0) begin
      wide = {64'd0, M} << sh[5:0];
      big = wide[87:52] != 36'd0;
      T = wide[63:0];
    end else if (sh > -12'sd24) begin
      T = 64'(M >> (-sh));
      sticky = (M & ~(24'hFFFFFF << (-sh))) != 24'd0;
    end else sticky = M != 24'd0;
