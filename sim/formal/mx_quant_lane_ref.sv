// mx_quant_lane_ref -- a second, independent description of one quantize lane, for the formal
// miter against mx_quant_lane (mx_quant_lane_miter.sv).  It is written from docs/semantics.md
// sections 2-4, not from the RTL, and works by comparison with the format's decoded values:
//   1. t = x / 2^X is placed, exactly, in one universal fixed-point window (units of 2^-G,
//      G = 34): T = floor(|t| 2^G) and a sticky bit for the rest.  The same window serves every
//      format, so no per-format grid shift happens here.
//   2. Every magnitude code c of the format is decoded to its value v(c) in those units; the code
//      just above max finite decodes, with an unbounded exponent, to the next grid point.
//      lo = the largest c with v(c) <= |t|; L = v(lo), H = v(lo + 1).
//   3. The rounding compares |t| with L, the midpoint (L + H) / 2, or, for sr, the threshold
//      L + (2^R - r) (H - L) 2^-R (section 2's rule: truncate(|t| + r 2^-R ulp)).
//   4. Overflow: the rounded magnitude (lo or lo + 1, or |t| at or above v(max + 1)) beyond max.
// Exactness of the window: every v(c), (L + H) / 2 and the sr threshold are whole units, because
// the finest quantum of the RTL's formats is 2^-16 = 2^(G-16) units (E5M2 subnormals), and
// R = 16 <= G - 16, so a step of the sr threshold is at least 4 units; the
// largest v(max + 1) is 2^16 (E5M2), and |t| >= 2^18 is recorded as "big".
// Format numbers come from the per-format constants of mx_pkg.svh (MX_E4M3_EBITS, ...), not from
// the packed MX_ELEM_* tables that the RTL reads.
// Formal only: it is not a synthesizable unit of the project.
// SPDX-License-Identifier: MIT
module mx_quant_lane_ref #(
  parameter int FMT = 0,
  parameter int R = 16
) (
  input  logic [31:0]         x_i,       // FP32, finite
  input  logic signed [9:0]   scale_i,   // X
  input  logic [MX_RND_W-1:0] rnd_i,
  input  logic                ovf_i,
  input  logic [R-1:0]        rbits_i,
  output logic [7:0]          code_o,
  output logic [4:0]          flags_o
);
  /* verilator lint_off UNUSEDPARAM */
  `include "mx_pkg.svh"
  /* verilator lint_on UNUSEDPARAM */

  `include "mx_quant_lane_fmt.svh"

  logic              s, big, sticky, exact, above, tie, up, beyond, ovfl, tiny, tz;
  logic [7:0]        lo, mag;
  logic [63:0]       T, L, H, mid, thr;
  logic [87:0]       wide;
  logic signed [11:0] sh;                 // |t| 2^G = M 2^sh
  logic [23:0]       M;

  always_comb begin
    `include "mx_quant_lane_window.svh"

    // lo = the largest code whose value is at most |t| (values grow with the code)
    lo = 8'd0; L = 64'd0; H = val(1);
    for (int c = 1; c <= MAXC; c++) begin
      if (val(c) <= T) begin lo = 8'(c); L = val(c); H = val(c + 1); end
    end
    beyond = big || T >= val(MAXC + 1);

    `include "mx_quant_lane_round.svh"
    ovfl = beyond || (lo == 8'(MAXC) && up);
    mag  = lo + 8'(up);
    tiny = T < (64'd1 << (G + EMIN));                          // |t| < 2^emin, before rounding
    tz   = rnd_i == MX_RND_W'(MX_RND_RTZ) || rnd_i == MX_RND_W'(MX_RND_RTO) ||
           (rnd_i == MX_RND_W'(MX_RND_RDN) && !s) || (rnd_i == MX_RND_W'(MX_RND_RUP) && s);

    if (x_i[30:0] == 31'd0) begin
      code_o  = (s && !IS_INT) ? SIGN : 8'd0;                 // zero keeps its sign; INT: one zero
      flags_o = 5'd0;
    end else begin
      if (ovfl) begin
        flags_o = 5'(MX_FLAG_OVERFLOW | MX_FLAG_INEXACT);
        if (ovf_i && !tz && SPECIAL == MX_SPECIAL_IEEE) mag = 8'(((1 << EB) - 1) << MB);   // Inf
        else if (ovf_i && !tz && SPECIAL == MX_SPECIAL_FN) mag = 8'(ALL1);                 // NaN
        else mag = 8'(MAXC);
      end else begin
        flags_o = exact ? 5'd0 : (tiny ? 5'(MX_FLAG_INEXACT | MX_FLAG_UNDERFLOW) : 5'(MX_FLAG_INEXACT));
      end
      if (IS_INT) code_o = s ? 8'd0 - mag : mag;
      else code_o = s ? (mag | SIGN) : mag;
    end
  end
endmodule
