// mx_quant_lane_pref -- mx_quant_lane_ref (the independent model of one quantize lane, written
// from docs/semantics.md sections 2-4, not from the RTL) with the special-value policies a lane
// sees, for the miter's pol_* tasks.  The OCP-strict tasks keep the plain model: the policies'
// logic, even folded away by constant inputs, made the solver take minutes on proofs with sr
// that the plain model gives in seconds.
//   1. t = x / 2^X is placed, exactly, in one universal fixed-point window (units of 2^-G,
//      G = 34): T = floor(|t| 2^G) and a sticky bit for the rest.  The same window serves every
//      format, so no per-format grid shift happens here.
//   2. Every magnitude code c of the format is decoded to its value v(c) in those units; the code
//      just above max finite decodes, with an unbounded exponent, to the next grid point.
//      lo = the largest c with v(c) <= |t|; L = v(lo), H = v(lo + 1).
//   3. The rounding compares |t| with L, the midpoint (L + H) / 2, or, for sr, the threshold
//      L + (2^R - r) (H - L) 2^-R (section 2's rule: truncate(|t| + r 2^-R ulp)).
//   4. Overflow: the rounded magnitude (lo or lo + 1, or |t| at or above v(max + 1)) beyond max
//      (the limit: max, or 128 for a negative INT8 under int-range full).
//   5. The special-value policies (docs/policies.md) a lane sees: NaN and Inf inputs (nan-elem,
//      nan-code, inf-block's encodings), zero-sign, and scale-div input, whose rounding of t into
//      FP32 (BF16) gives a zero exactly when |t| <= 2^-150 (2^-134), the half of its smallest
//      subnormal where ties go to the even 0: M 2^(E-150-X) <= 2^-150 iff M <= 2^(X-E)
//      (BF16: M <= 2^(X-E+16)).
// Exactness of the window: every v(c), (L + H) / 2 and the sr threshold are whole units, because
// the finest quantum of the RTL's formats is 2^-16 = 2^(G-16) units (E5M2 subnormals), and
// R = 16 <= G - 16, so a step of the sr threshold is at least 4 units; the
// largest v(max + 1) is 2^16 (E5M2), and |t| >= 2^18 is recorded as "big".
// Format numbers come from the per-format constants of mx_pkg.svh (MX_E4M3_EBITS, ...), not from
// the packed MX_ELEM_* tables that the RTL reads.
// Formal only: it is not a synthesizable unit of the project.
// SPDX-License-Identifier: MIT
module mx_quant_lane_pref #(
  parameter int FMT = 0,
  parameter int R = 16
) (
  input  logic [31:0]         x_i,       // FP32
  input  logic signed [9:0]   scale_i,   // X
  input  logic [MX_RND_W-1:0] rnd_i,
  input  logic                ovf_i,
  input  logic                inf_ovf_i, // the overflow policy of an Inf (0 sat, 1 ovf)
  input  logic                inf_zero_i,// inf-block zero
  input  logic [1:0]          zero_sign_i, // keep, positive, nonzero
  input  logic                int_full_i,
  input  logic [1:0]          nan_elem_i,  // zero, flipzero, max
  input  logic                nan_ones_i,
  input  logic                div_in_i,
  input  logic                bf16_i,
  input  logic [R-1:0]        rbits_i,
  output logic [7:0]          code_o,
  output logic [4:0]          flags_o
);
  /* verilator lint_off UNUSEDPARAM */
  `include "mx_pkg.svh"
  /* verilator lint_on UNUSEDPARAM */

  `include "mx_quant_lane_fmt.svh"

  logic              s, big, sticky, exact, above, tie, up, beyond, ovfl, tiny, tz, dz, zs;
  logic [7:0]        lo, mag, lim;
  logic signed [11:0] d;
  logic [63:0]       T, L, H, mid, thr;
  logic [87:0]       wide;
  logic signed [11:0] sh;                 // |t| 2^G = M 2^sh
  logic [23:0]       M;

  always_comb begin
    `include "mx_quant_lane_window.svh"

    // the limit of this sign; lo = the largest code up to it whose value is at most |t|
    lim = 8'(MAXC) + 8'(IS_INT && s && int_full_i);
    lo = 8'd0; L = 64'd0; H = val(1);
    for (int c = 1; c <= MAXC; c++) begin
      if (val(c) <= T) begin lo = 8'(c); L = val(c); H = val(c + 1); end
    end
    if (IS_INT && s && int_full_i && val(MAXC + 1) <= T) begin
      lo = 8'(MAXC + 1); L = val(MAXC + 1); H = val(MAXC + 2);
    end
    beyond = big || T >= ((IS_INT && s && int_full_i) ? val(MAXC + 2) : val(MAXC + 1));
    `include "mx_quant_lane_round.svh"
    ovfl = beyond || (lo == lim && up);
    mag  = lo + 8'(up);
    tiny = T < (64'd1 << (G + EMIN));                          // |t| < 2^emin, before rounding
    tz   = rnd_i == MX_RND_W'(MX_RND_RTZ) || rnd_i == MX_RND_W'(MX_RND_RTO) ||
           (rnd_i == MX_RND_W'(MX_RND_RDN) && !s) || (rnd_i == MX_RND_W'(MX_RND_RUP) && s);

    // scale-div input: t rounds to a zero of the lanes' type
    d  = 12'(scale_i) - $signed({4'd0, (x_i[30:23] == 8'd0) ? 8'd1 : x_i[30:23]})
         + (bf16_i ? 12'sd16 : 12'sd0);
    dz = div_in_i && M != 24'd0 && d >= 12'sd0 && (d >= 12'sd24 || {8'd0, M} <= (32'd1 << d[4:0]));
    // the sign a zero result shows
    zs = s && (zero_sign_i == 2'd0 || (zero_sign_i == 2'd2 && M != 24'd0 && !dz));

    // the number path
    if (x_i[30:0] == 31'd0 || dz) begin
      ncode  = (zs && !IS_INT) ? SIGN : 8'd0;                 // INT: one zero
      nflags = dz ? 5'(MX_FLAG_INEXACT) : 5'd0;
    end else begin
      if (ovfl) begin
        nflags = 5'(MX_FLAG_OVERFLOW | MX_FLAG_INEXACT);
        if (ovf_i && !tz && SPECIAL == MX_SPECIAL_IEEE) mag = 8'(((1 << EB) - 1) << MB);   // Inf
        else if (ovf_i && !tz && SPECIAL == MX_SPECIAL_FN) mag = 8'(ALL1);                 // NaN
        else mag = lim;
      end else begin
        nflags = exact ? 5'd0 : (tiny ? 5'(MX_FLAG_INEXACT | MX_FLAG_UNDERFLOW) : 5'(MX_FLAG_INEXACT));
      end
      if (IS_INT) ncode = s ? 8'd0 - mag : mag;
      else if (mag == 8'd0) ncode = zs ? SIGN : 8'd0;
      else ncode = s ? (mag | SIGN) : mag;
    end
  end

  // NaN and Inf inputs, apart from the numbers
  logic [7:0] scode, ncode;
  logic [4:0] sflags, nflags;
  logic       xnan, xinf;
  always_comb begin
    xnan = x_i[30:23] == 8'hFF && x_i[22:0] != 23'd0;
    xinf = x_i[30:0] == 31'h7F800000;
    sflags = 5'(MX_FLAG_INVALID);
    scode  = 8'd0;
    if (xnan) begin
      if (SPECIAL == MX_SPECIAL_FN) scode = 8'(ALL1) | (s ? SIGN : 8'd0);
      else if (SPECIAL == MX_SPECIAL_IEEE) scode = 8'((((1 << EB) - 1) << MB) | (nan_ones_i ? 3 : 2)) | (s ? SIGN : 8'd0);
      else if (nan_elem_i == 2'd2) scode = 8'(MAXC);
      else if (nan_elem_i == 2'd1 && !IS_INT && !s) scode = SIGN;
    end else if (inf_zero_i) begin
      scode = 8'd0;                                           // inf-block zero: +0, invalid
    end else if (inf_ovf_i && SPECIAL == MX_SPECIAL_IEEE) begin
      scode  = 8'(((1 << EB) - 1) << MB) | (s ? SIGN : 8'd0); // Inf stays Inf, exactly
      sflags = 5'd0;
    end else begin
      sflags = 5'(MX_FLAG_OVERFLOW | MX_FLAG_INEXACT);        // an Inf overflows
      if (inf_ovf_i && !tz && SPECIAL == MX_SPECIAL_FN) scode = 8'(ALL1) | (s ? SIGN : 8'd0);
      else if (IS_INT) scode = s ? 8'd0 - lim : lim;
      else scode = s ? (lim | SIGN) : lim;
    end
    code_o  = (xnan || xinf) ? scode : ncode;
    flags_o = (xnan || xinf) ? sflags : nflags;
  end
endmodule
