// mx_fused_step -- one step of mx_mac's fused-group model: acc + sum * 2^k, exact, rounded once
// to FP32 or BF16 (bf16_i) in a given mode, with the IEEE flags of that rounding, and the rules
// of docs/semantics.md 7 for NaN, Inf and the sign of an exact zero (IEEE 754 6.3) applied to
// the one sum acc + the group's products.
// acc is an FP32 pattern (a BF16 accumulator is held as its FP32 pattern); sum is the group's
// exact signed sum with its lsb weighing 2^k.  The two are aligned in an exact window of
// SW + 28 bits whose lsb L is the lower of the two lsbs, raised so that neither operand sits
// more than SW + 3 (acc) or 26 (sum) bits above it.  An operand cut by that bound lies wholly
// below the other's rounding position (far path): its bits under L are jammed into bit 0 of the
// window, which keeps the rounding and its flags exact (the result's quantum is at least 2^(L+2)).
// SPDX-License-Identifier: MIT
module mx_fused_step #(
  parameter int SW = 72               // width of the group's signed sum
) (
  input  logic [31:0]          acc_i,   // FP32 pattern
  input  logic signed [SW-1:0] sum_i,
  input  logic signed [11:0]   k_i,     // weight of sum_i bit 0 is 2^k_i
  input  logic                 nan_i,   // a NaN product, NaN scale or unsupported format
  input  logic                 pinf_i, ninf_i,
  input  logic                 zneg_i,  // every product of the group is -0
  input  logic                 zpos_i,  // every product of the group is +0
  input  logic [MX_RND_W-1:0]  rnd_i,   // MX_RND_*, not sr
  input  logic                 bf16_i,  // round to BF16 (the result's FP32 pattern)
  output logic [31:0]          acc_o,   // FP32 pattern (BF16: the low 16 bits zero)
  output logic [7:0]           flags_o  // MX_FLAG_*
);
  /* verilator lint_off UNUSEDPARAM */
  `include "mx_pkg.svh"
  /* verilator lint_on UNUSEDPARAM */

  localparam int W = SW + 28;           // the window's magnitude bits

  logic               asign, anan, ainf, azero, ssign, snz, nan, pinf, ninf, zsign;
  logic [23:0]        amag;
  logic [SW-1:0]      smag;
  logic signed [11:0] ka, kae, kse, lo, dA, dS;
  logic [W-1:0]       wa, ws, mag;
  logic signed [W:0]  t;
  logic [31:0]        rounded;
  logic [7:0]         rflags;

  mx_fp32_round #(.W(W)) u_round (.sign_i(t < 0), .mag_i(mag), .k_i(lo), .rnd_i(rnd_i),
                                  .bf16_i(bf16_i), .bits_o(rounded), .flags_o(rflags));

  always_comb begin
    asign = acc_i[31];
    anan  = acc_i[30:23] == 8'hFF && acc_i[22:0] != 23'd0;
    ainf  = acc_i[30:23] == 8'hFF && acc_i[22:0] == 23'd0;
    azero = acc_i[30:0] == 31'd0;
    amag  = {acc_i[30:23] != 8'd0, acc_i[22:0]};
    ka    = ((acc_i[30:23] == 8'd0) ? 12'sd1 : $signed({4'd0, acc_i[30:23]})) - 12'sd150;
    ssign = sum_i < 0;
    smag  = ssign ? SW'(-sum_i) : SW'(sum_i);
    snz   = sum_i != '0;
    // a zero operand takes the other's lsb, so that it places nothing
    kae = azero ? k_i : ka;
    kse = snz ? k_i : kae;
    lo  = (kae < kse) ? kae : kse;
    if (kse - 12'sd26 > lo) lo = kse - 12'sd26;
    if (kae - 12'(SW + 3) > lo) lo = kae - 12'(SW + 3);
    dA = kae - lo;                      // <= SW + 3
    dS = kse - lo;                      // <= 26
    if (azero) wa = '0;
    else if (dA >= 0) wa = W'(amag) << dA;
    else if (dA <= -12'sd24) wa = W'(1);                                 // jammed
    else wa = (W'(amag) >> (-dA)) | W'((amag & ~(24'hFF_FFFF << (-dA))) != 24'd0);
    if (!snz) ws = '0;
    else if (dS >= 0) ws = W'(smag) << dS;
    else if (dS <= -12'(SW)) ws = W'(1);                                 // jammed
    else ws = (W'(smag) >> (-dS)) | W'((smag & ~({SW{1'b1}} << (-dS))) != '0);
    t   = (asign ? -$signed({1'b0, wa}) : $signed({1'b0, wa}))
        + (ssign ? -$signed({1'b0, ws}) : $signed({1'b0, ws}));
    mag = (t < 0) ? W'(-t) : W'(t);
  end

  // the result: specials first, then an exact zero, then the rounding
  always_comb begin
    nan  = nan_i || anan;
    pinf = pinf_i || (ainf && !asign);
    ninf = ninf_i || (ainf && asign);
    // IEEE 754 6.3: -0 only when every term is -0, +0 when every one is +0, else by the mode
    zsign = (azero && asign && zneg_i) ? 1'b1
          : (azero && !asign && zpos_i) ? 1'b0 : rnd_i == MX_RND_W'(MX_RND_RDN);
    flags_o = '0;
    if (nan || (pinf && ninf)) begin
      acc_o = 32'h7FC0_0000;
      flags_o = MX_FLAG_INVALID;
    end
    else if (pinf) acc_o = 32'h7F80_0000;
    else if (ninf) acc_o = 32'hFF80_0000;
    else if (t == 0) acc_o = {zsign, 31'd0};
    else begin
      acc_o = bf16_i ? {rounded[15:0], 16'd0} : rounded;
      flags_o = rflags;
    end
  end
endmodule
