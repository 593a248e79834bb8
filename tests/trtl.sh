#!/usr/bin/env bash
# trtl -- RTL checks: Verilator -Wall lint (also of a single-format FMT_MASK build of each unit),
# the Yosys 0.23 subset (parses, elaborates, no latches), every committed quantize file and
# every exact, block-fp32 and fused-group dot file (FP32 and BF16 results) through the
# co-simulation (result bits and flags), a corrupted expected field that mxsim must catch and
# name, and a waveform dump.
# Usage: trtl.sh BUILD_BIN_DIR SOURCE_DIR      (exit 77 when Verilator or Yosys is missing)
set -u
bin=$(cd "$1" && pwd) src=$(cd "$2" && pwd)
rtl=$src/rtl
command -v verilator >/dev/null && [ -x "$bin/mxsim" ] && [ -x "$bin/mxsim-e5m2" ] || { echo "trtl: no verilator/mxsim/mxsim-e5m2: skipped"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass+1)); }
ko() { fail=$((fail+1)); echo "FAIL: $*"; }
files() { sed -n "s/^$1: //p" "$rtl/files.txt"; } # the one list of each unit's files
quant=$(files mx_quantize) mac=$(files mx_mac)

# 1. lint: -Wall clean, both units
for top in "mx_quantize:$quant" "mx_mac:$mac"; do
  name=${top%%:*} files=${top#*:}
  (cd "$rtl" && verilator --lint-only -Wall -I. --top-module "$name" $files) > "$tmp/lint" 2>&1 \
    && ok || { ko "verilator -Wall lint of $name"; head -20 "$tmp/lint"; }
done
# and the single-format build of each (FMT_MASK = E5M2 only, the others constant-folded away)
for top in "mx_quantize:$quant:6'h02" "mx_mac:$mac:6'h02"; do
  name=${top%%:*} rest=${top#*:} files=${rest%:*} mask=${top##*:}
  (cd "$rtl" && verilator --lint-only -Wall -I. --top-module "$name" -GFMT_MASK="$mask" $files) > "$tmp/lint" 2>&1 \
    && ok || { ko "verilator -Wall lint of $name FMT_MASK=$mask"; head -20 "$tmp/lint"; }
done
# every .sv file is one module named after the file (DECLFILENAME is part of -Wall above)
for f in "$rtl"/*.sv; do
  m=$(grep -m1 -oE '^module [a-z0-9_]+' "$f" | cut -d' ' -f2)
  [ "$m" = "$(basename "$f" .sv)" ] && ok || ko "$f: module '$m' is not named after its file"
done

# 2. Yosys 0.23 accepts the subset we write in and finds no latch (the full builds: each run is
# some 10 s of proc; the single-format ones are linted above, Verilator's LATCH included)
if command -v yosys >/dev/null; then
  for top in "mx_quantize:$quant" "mx_mac:$mac"; do
    name=${top%%:*} files=${top#*:}
    (cd "$rtl" && yosys -q -p "read_verilog -sv -I. $files; hierarchy -check -top $name; proc; check -assert; select -assert-none t:\$dlatch t:\$dlatchsr t:\$sr") > "$tmp/ys" 2>&1 \
      && ok || { ko "yosys parse/no-latch of $name"; tail -20 "$tmp/ys"; }
  done
else
  echo "trtl: yosys not installed: the synthesis-subset check is skipped"
fi

# 3. every committed quantize file (OCP and profiles) and every block-fp32, exact and fused-group
# dot file
nv=0 ns=0
for f in "$src"/vectors/ocp/quantize/*.mxv "$src"/vectors/ocp/dot/*-block-fp32*.mxv "$src"/vectors/ocp/dot/*-exact*.mxv "$src"/vectors/ocp/dot/*-fused-*.mxv "$src"/vectors/profiles/*/quantize-*.mxv; do
  "$bin/mxsim" --vectors "$f" --quiet > "$tmp/out" 2>&1; rc=$?
  case $rc in
    0) nv=$((nv+1)); ok ;;
    77) ns=$((ns+1)) ;;
    *) ko "$f"; tail -8 "$tmp/out" ;;
  esac
done
echo "trtl: $nv vector files passed through the RTL, $ns not implemented by it (scale-bump once, block 8)"
[ "$nv" -ge 280 ] && ok || ko "too few vector files ran ($nv)"
# every profile's quantize files run, but Quark BFP16's (scale-bump once: a second pass over the
# block, which the RTL does not implement; docs/rtl.md)
for f in "$src"/vectors/profiles/*/quantize-*.mxv; do
  "$bin/mxsim" --vectors "$f" --quiet > "$tmp/out" 2>&1; rc=$?
  case $f in
    */quark-bfp16/*) [ $rc = 77 ] && grep -q "scale-bump once\|block size" "$tmp/out" && ok || ko "$f: rc=$rc, not refused" ;;
    *) [ $rc = 0 ] && ok || ko "$f: rc=$rc" ;;
  esac
done

# 3d. each value of each field of the policy word alone (level-2 files: NaNs, Infs, zeros,
# subnormals, ties, clamps), every format, FP32 and BF16 lanes in turn
np=0 i=0
for pv in overflow=ovf nan-block=ignore inf-block=maxscale inf-block=sat inf-block=pow128 inf-block=zero \
          inf-block=pass subnormals=flush subnormals=flush-pos zero-sign=positive zero-sign=nonzero \
          int-range=full scale-overflow=clamp nan-elem=flipzero nan-elem=max nan-code=ones \
          min-scale-elem=flt-min min-scale-elem=unit scale-div=input scale-min=07 scale-min=FE \
          zero-scale=6E zero-scale=FF; do
  for f in e4m3 e5m2 e2m3 e3m2 e2m1 int8; do
    i=$((i+1)); t=fp32; [ $((i % 2)) = 0 ] && t=bf16
    extra=; case $pv in nan-block=*|nan-elem=*|nan-code=*) extra=--nan-block=ignore ;; esac
    "$bin/mxgold" gen --op quantize --format $f --input $t --"$pv" $extra --level 2 -n 300 --seed 23 \
      --quiet -o "$tmp/pol.mxv" && "$bin/mxsim" --vectors "$tmp/pol.mxv" --quiet > "$tmp/out" 2>&1 \
      && np=$((np+1)) && ok || { ko "policy $pv $extra $f $t"; tail -8 "$tmp/out"; }
  done
done
echo "trtl: $np generated files, one policy value each"
"$bin/mxgold" gen --op quantize --format int8 --scale-bump once --quiet -o "$tmp/pol.mxv"
"$bin/mxsim" --vectors "$tmp/pol.mxv" > "$tmp/out" 2>&1; rc=$?
[ $rc = 77 ] && grep -q "scale-bump once" "$tmp/out" && ok || { ko "scale-bump once not refused: rc=$rc"; tail -3 "$tmp/out"; }

# 3b. the single-format builds (FMT_MASK = E5M2 only) on E5M2: the same bits as the golden model
nf=0
for f in "$src"/vectors/ocp/quantize/e5m2-*.mxv "$src"/vectors/ocp/dot/e5m2-e5m2-block-fp32.mxv "$src"/vectors/ocp/dot/e5m2-e5m2-exact.mxv \
         "$src"/vectors/ocp/dot/e5m2-e5m2-fused-g8.mxv "$src"/vectors/ocp/dot/e5m2-e5m2-fused-g16-bf16.mxv; do
  "$bin/mxsim-e5m2" --vectors "$f" --quiet > "$tmp/out" 2>&1; rc=$?
  case $rc in
    0) nf=$((nf+1)); ok ;;
    77) ;;
    *) ko "mxsim-e5m2 $f"; tail -8 "$tmp/out" ;;
  esac
done
"$bin/mxsim-e5m2" --unit quantize --random 2000 --format e5m2 --stalls 25 --quiet > "$tmp/out" 2>&1 \
  && ok || { ko "mxsim-e5m2 --unit quantize --random 2000 --format e5m2"; tail -8 "$tmp/out"; }
# ... and the mask is in effect: every E4M3 block gives the NaN scale, flag invalid, codes 0
"$bin/mxsim-e5m2" --vectors "$src/vectors/ocp/quantize/e4m3-rne.mxv" --errors 1000 > "$tmp/out" 2>&1; rc=$?
[ $rc = 1 ] && grep -q "^  dut: " "$tmp/out" && ! grep "^  dut: " "$tmp/out" | grep -vq "scale FF flags 10 codes\( 00\)\{32\}$" \
  && ok || { ko "mxsim-e5m2 on E4M3 vectors: rc=$rc, or a block not refused"; grep -m3 "^  dut: " "$tmp/out"; }
echo "trtl: $nf E5M2 vector files and 2000 random E5M2 blocks through the single-format build"

# 3c. the scale rules no committed OCP-policy file uses (the suite has them in profiles only):
# level-2 structured cases and 300 random ones per format, FP32 and BF16 lanes, generated here
ng=0
for r in floor-log2f rceil-log2f floor-log2-input ceil-log2-input even-fp32; do
  for f in e4m3 e5m2 e2m3 e3m2 e2m1 int8; do
    for t in fp32 bf16; do
      "$bin/mxgold" gen --op quantize --format $f --input $t --scale-rule $r --level 2 -n 300 --seed 19 \
        --quiet -o "$tmp/rule.mxv" && "$bin/mxsim" --vectors "$tmp/rule.mxv" --quiet > "$tmp/out" 2>&1 \
        && ng=$((ng+1)) && ok || { ko "$r $f $t"; tail -8 "$tmp/out"; }
    done
  done
done
echo "trtl: $ng generated files of the rules floor-log2f rceil-log2f floor-log2-input ceil-log2-input even-fp32"
# ... and every amax that can move their scale, each alone in a block (docs/rtl.md): the amax
# patterns on stdin, the expected outputs from the golden model's CLI, the header from gen
# golden_file NAME RULE FORMAT INPUT ROUNDING < blocks: $tmp/NAME.mxv, the blocks' expected
# outputs from the golden model's CLI, the header from gen
golden_file() {
  local n=$1 r=$2 f=$3 t=$4 rnd=$5
  cat > "$tmp/$n.in"
  "$bin/mxgold" gen --op quantize --format $f --input $t --scale-rule $r --rounding $rnd --quiet | grep '^#' \
    | sed "s/^# cases: .*/# cases: $(wc -l < "$tmp/$n.in")/" > "$tmp/$n.mxv"
  "$bin/mxgold" quantize --format $f --input $t --scale-rule $r --rounding $rnd --flags < "$tmp/$n.in" \
    | paste -d' ' "$tmp/$n.in" - >> "$tmp/$n.mxv"
}
amax_file() { # RULE FORMAT INPUT < amax patterns
  local r=$1 f=$2 t=$3 z
  if [ "$t" = bf16 ]; then z=$(printf ' 0000%.0s' $(seq 31)); else z=$(printf ' 00000000%.0s' $(seq 31)); fi
  sed "s/\$/$z/" | golden_file amax $r $f $t rne
  "$bin/mxsim" --vectors "$tmp/amax.mxv" --quiet > "$tmp/out" 2>&1 \
    && ok || { ko "amax windows: $r $f $t"; tail -8 "$tmp/out"; }
  na=$((na + $(grep -vc '^#' "$tmp/amax.mxv")))
}
# FP32: every binade's lowest and highest 96 fractions, and the subnormals' likewise
fp32_edges() {
  awk 'BEGIN { for (e = 1; e < 255; e++) for (f = 0; f < 96; f++) printf "%08X\n%08X\n", e * 8388608 + f, e * 8388608 + 8388607 - f
               for (j = 0; j < 23; j++) for (m = 2 ^ j; m < 2 ^ (j + 1); m++) { if (m - 2 ^ j < 96 || 2 ^ (j + 1) - 1 - m < 96) printf "%08X\n", m } }'
}
na=0
amax_file floor-log2f e4m3 fp32 < <(fp32_edges)
amax_file floor-log2-input e2m1 fp32 < <(fp32_edges)
amax_file ceil-log2-input int8 fp32 < <(fp32_edges)
# BF16: every finite amax
bf16_all() { awk 'BEGIN { for (v = 1; v < 32640; v++) printf "%04X\n", v }'; }
amax_file floor-log2-input e2m3 bf16 < <(bf16_all)
amax_file ceil-log2-input e3m2 bf16 < <(bf16_all)
# rceil-log2f, each format: the 128 fractions from 32 below max's significand S in every binade,
# and subnormal amax around max * 2^-127 and below (S >> 1 .. S >> 4, 64 either side)
for fs in e4m3:600000 e5m2:600000 e2m3:700000 e3m2:600000 e2m1:400000 int8:7E0000; do
  amax_file rceil-log2f ${fs%%:*} fp32 < <(awk -v s=$((0x${fs#*:})) 'BEGIN {
      for (e = 1; e < 255; e++) for (d = -32; d < 96; d++) printf "%08X\n", e * 8388608 + (s + d) % 8388608
      for (k = 1; k <= 4; k++) { c = int((8388608 + s) / 2 ^ k); for (d = -64; d < 64; d++) printf "%08X\n", c + d } }')
done
echo "trtl: $na single-amax blocks of the log2 rules' edges through the RTL"
# 3e. the searches (min-mse, min-maxerr: mx_scale_search): level-2 files in every format, FP32
# and BF16 lanes, under every rounding in turn, and random blocks of each under every rounding,
# field of the policy word and stalls (the committed OCP files of both ran above)
ns=0 i=0
for r in min-mse min-maxerr; do
  for f in e4m3 e5m2 e2m3 e3m2 e2m1 int8; do
    for t in fp32 bf16; do
      i=$((i+1)); rnd=$(echo rne rna rnz rhu rhd rtz rup rdn rto sr | cut -d' ' -f$((i % 10 + 1)))
      "$bin/mxgold" gen --op quantize --format $f --input $t --scale-rule $r --rounding $rnd \
        --level 2 -n 200 --seed 29 --quiet -o "$tmp/rule.mxv" \
        && "$bin/mxsim" --vectors "$tmp/rule.mxv" --quiet > "$tmp/out" 2>&1 \
        && ns=$((ns+1)) && ok || { ko "$r $f $t $rnd"; tail -8 "$tmp/out"; }
    done
  done
  "$bin/mxsim" --unit quantize --random 3000 --rule $r --seed 31 --stalls 20 --quiet > "$tmp/out" 2>&1 \
    && ok || { ko "mxsim --random 3000 --rule $r"; tail -8 "$tmp/out"; }
done
echo "trtl: $ns generated files and 6000 random blocks of min-mse and min-maxerr"
# ... and blocks whose choice hangs on the last bits of the exact sums (docs/rtl.md): INT8 at
# e = -127, four elements above max and one 2^-149 that rup rounds up to the smallest step: the
# q^2 parts of floor and floor + 1 cancel, and the sums differ by 2^-5 * 2^-127 * 2^-149 =
# 2^-281 (the accumulator's lsb is 2^-291); then max |V - q| of 32770 and 32769 units of 2^-149.
# Each also negated (rdn for rup).  floor + 1 wins every one; equal sums would keep floor.
block_file() { # RULE ROUNDING < blocks (INT8, FP32)
  local r=$1 rnd=$2
  golden_file blk $r int8 fp32 $rnd
  grep -v '^#' "$tmp/blk.mxv" | awk '$33 != "01" { exit 1 }' || ko "near-tie $r $rnd: the golden model keeps floor"
  "$bin/mxsim" --vectors "$tmp/blk.mxv" --quiet > "$tmp/out" 2>&1 \
    && ok || { ko "near-tie $r $rnd"; tail -8 "$tmp/out"; }
}
z27=$(printf ' 00000000%.0s' $(seq 27)) z30=$(printf ' 00000000%.0s' $(seq 30))
block_file min-mse rup <<< "007FE000 007FE000 007FE000 007FE000 00000001$z27"
block_file min-mse rdn <<< "807FE000 807FE000 807FE000 807FE000 80000001$z27"
block_file min-maxerr rne < <(printf '%s\n' "007F8002 00017FFF$z30" "807F8002 80017FFF$z30")
# ... and the rule_i values no rule names (12-15) are refused as beats (NaN scale, INVALID:
# mxsim --random draws them), as are mxsim's own bad options
"$bin/mxsim" --unit quantize --random 10 --rule none > "$tmp/out" 2>&1; rc=$?
[ $rc = 2 ] && grep -q "rule wants a scale rule" "$tmp/out" && ok || { ko "--rule none: rc=$rc"; tail -3 "$tmp/out"; }
"$bin/mxsim" --unit mac --random 10 --rule floor > "$tmp/out" 2>&1; rc=$?
[ $rc = 2 ] && grep -q "rule goes with --unit quantize" "$tmp/out" && ok || { ko "--unit mac --rule: rc=$rc"; tail -3 "$tmp/out"; }

# 4. a corrupted expected field is caught and its case named (file:line)
v=$src/vectors/ocp/quantize/e4m3-rne.mxv
line=$(grep -n -v '^#' "$v" | sed -n 5p | cut -d: -f1)
awk -v L="$line" 'NR == L { n = split($0, w, " "); w[34] = (w[34] == "7E" ? "7D" : "7E"); s = w[1]; for (i = 2; i <= n; i++) s = s " " w[i]; print s; next } { print }' "$v" > "$tmp/bad.mxv"
"$bin/mxsim" --vectors "$tmp/bad.mxv" > "$tmp/out" 2>&1; rc=$?
[ $rc = 1 ] && grep -q "^MISMATCH .*bad.mxv:$line:" "$tmp/out" && grep -q "^$(( $(grep -vc '^#' "$v") - 1 )) passed, 1 failed" "$tmp/out" \
  && ok || { ko "corrupted expected field (line $line): rc=$rc"; tail -6 "$tmp/out"; }
d=$src/vectors/ocp/dot/e4m3-e2m1-block-fp32.mxv
dline=$(grep -n -v '^#' "$d" | sed -n 3p | cut -d: -f1)
awk -v L="$dline" 'NR == L { n = split($0, w, " "); w[n-1] = (w[n-1] == "00000000" ? "00000001" : "00000000"); s = w[1]; for (i = 2; i <= n; i++) s = s " " w[i]; print s; next } { print }' "$d" > "$tmp/badd.mxv"
"$bin/mxsim" --vectors "$tmp/badd.mxv" > "$tmp/out" 2>&1; rc=$?
[ $rc = 1 ] && grep -q "^MISMATCH .*badd.mxv:$dline:" "$tmp/out" && ok || { ko "corrupted dot result (line $dline): rc=$rc"; tail -6 "$tmp/out"; }

# 6. the golden model's thread count changes nothing that is checked: the same beats, per model
for u in quantize mac; do
  "$bin/mxsim" --unit $u --random 3000 --seed 7 --stalls 20 --threads 1 > "$tmp/t1" 2>&1
  "$bin/mxsim" --unit $u --random 3000 --seed 7 --stalls 20 --threads 3 > "$tmp/t3" 2>&1
  cmp -s "$tmp/t1" "$tmp/t3" && grep -q " 0 failed$" "$tmp/t1" && ok || ko "mxsim --unit $u: --threads 1 and 3 differ"
done

# 7. --accum: the random dots of one model only, each model's beats all compared
for a in exact block-fp32 fused-group; do
  "$bin/mxsim" --unit mac --random 400 --seed 5 --stalls 10 --accum $a > "$tmp/acc" 2>&1
  line=$(grep "^mxsim: mac beats compared" "$tmp/acc")
  # "exact fp32 N, exact bf16 N, block-fp32 fp32 N, ...": the model's counts and the total
  n=$(echo "${line##*: }" | awk -v a="$a" -F', ' '{ for (i = 1; i <= NF; i++) { k = split($i, w, " ")
        t += w[k]; if (w[1] == a) m += w[k] } } END { print m "/" t }')
  tot=${n#*/} n=${n%/*}
  [ -n "$n" ] && [ "$n" -gt 400 ] && [ "$n" = "$tot" ] && grep -q "^$n passed, 0 failed" "$tmp/acc" \
    && ok || { ko "mxsim --accum $a: $line"; tail -3 "$tmp/acc"; }
done

# 5. waveforms
"$bin/mxsim" --unit quantize --random 20 --trace "$tmp/q.fst" --quiet > /dev/null && [ -s "$tmp/q.fst" ] \
  && ok || ko "--trace wrote no FST"

echo "trtl: $pass passed, $fail failed"
[ "$fail" = 0 ]
