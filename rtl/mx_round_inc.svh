// mx_round_inc.svh -- the one round-up decision of every element rounding (roundings.def), from
// the last kept bit L, the round bit R, the sticky bit S and the sign s:
//   rne R&(S|L)  rna R  rnz R&S  rhu R&(S|~s)  rhd R&(S|s)  rtz 0  rup (R|S)&~s  rdn (R|S)&s
//   rto (R|S)&~L  sr: sr_carry (the discarded fraction plus the random bits carried out; a unit
//   without sr passes rne's decision)
// Included after mx_pkg.svh inside each module that rounds (mx_quant_lane, mx_fp32_round).
function automatic logic mx_round_inc (input logic [MX_RND_W-1:0] rnd, input logic lsb,
                                       input logic rb, input logic sb, input logic s,
                                       input logic sr_carry);
  case (rnd)
    MX_RND_W'(MX_RND_RNE): mx_round_inc = rb & (sb | lsb);
    MX_RND_W'(MX_RND_RNA): mx_round_inc = rb;
    MX_RND_W'(MX_RND_RNZ): mx_round_inc = rb & sb;
    MX_RND_W'(MX_RND_RHU): mx_round_inc = rb & (sb | ~s);
    MX_RND_W'(MX_RND_RHD): mx_round_inc = rb & (sb | s);
    MX_RND_W'(MX_RND_RTZ): mx_round_inc = 1'b0;
    MX_RND_W'(MX_RND_RUP): mx_round_inc = (rb | sb) & ~s;
    MX_RND_W'(MX_RND_RDN): mx_round_inc = (rb | sb) & s;
    MX_RND_W'(MX_RND_RTO): mx_round_inc = (rb | sb) & ~lsb;
    default:               mx_round_inc = sr_carry;
  endcase
endfunction
