// mx_quant_lane_round.svh -- step 3 (the rounding decision up, from T, L, H and the mode) of the lane models (mx_quant_lane_ref.sv,
// mx_quant_lane_pref.sv): statements included inside their always_comb.  Formal only.
    exact = !big && T == L && !sticky;
    mid   = (L + H) >> 1;
    above = T > mid || (T == mid && sticky);
    tie   = T == mid && !sticky;
    // sr: up iff |t| - L >= (2^R - r) (H - L) 2^-R, a whole number of units
    thr   = L + (((64'd1 << R) - 64'(rbits_i)) * (H - L) >> R);
    unique case (rnd_i)
      MX_RND_W'(MX_RND_RNE): up = above || (tie && lo[0]);
      MX_RND_W'(MX_RND_RNA): up = above || tie;
      MX_RND_W'(MX_RND_RNZ): up = above;
      MX_RND_W'(MX_RND_RHU): up = above || (tie && !s);
      MX_RND_W'(MX_RND_RHD): up = above || (tie && s);
      MX_RND_W'(MX_RND_RTZ): up = 1'b0;
      MX_RND_W'(MX_RND_RUP): up = !exact && !s;
      MX_RND_W'(MX_RND_RDN): up = !exact && s;
      MX_RND_W'(MX_RND_RTO): up = !exact && !lo[0];
      default:               up = T >= thr;                    // sr
    endcase
