#!/usr/bin/env bash
# ci/run.sh -- mxgold's main job on a fresh Debian machine: install what is missing, build, show the
# golden model at work on the blocks the ecosystem disagrees about, cross-check it against the
# independent model, generate and verify the vector suite, co-simulate the RTL, validate the CPU
# kernels, benchmark, and print a summary.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
bash ci/deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMX_WERROR=ON >/dev/null
cmake --build build -j"$jobs" >/dev/null
bin=build/bin

echo "== formats (one table: golden/include/mx/formats.def)"
$bin/mxgold formats

echo
echo "== one block, every profile: the choices the spec leaves open"
# E2M1: amax 3.0001 (FLOOR: X = 0.5 and 6.0002 -> 6; RCEIL: X = 1 and 3), then 0.375 1.25 0.875
# (ties 0.75 2.5 1.75 under X = 0.5), -0, an FP32 subnormal, zeros
block="404001A3 3EC00000 3FA00000 3F600000 80000000 80000200$(printf ' 00000000%.0s' $(seq 26))"
printf '%-14s %s\n' profile "scale codes[0..5] flags"
for p in $($bin/mxgold profiles | awk '/^[a-z]/ {print $1}'); do
  printf '%-14s %s\n' "$p" "$(echo "$block" | $bin/mxgold quantize --format e2m1 --profile "$p" --flags | awk '{print $1, $2, $3, $4, $5, $6, $7, $NF}')"
done

echo
echo "== cross-check: MPFR model vs independent integer model"
t0=$(date +%s)
$bin/tcast bf16
$bin/tcast fp16
$bin/tdequantize
$bin/tquantize all 5000
$bin/tprobes
$bin/tdot all 2000
t1=$(date +%s)

echo
echo "== conformance suite: generate (build/vectors), compare with the committed vectors/, verify"
t2=$(date +%s)
bash ci/gen-suite.sh "$bin" build/vectors
# compare content, .gz decompressed, ignoring only the '# generator:' provenance line
content() { if [ "${1%.gz}" != "$1" ]; then gzip -dc "$1"; else cat "$1"; fi | grep -v '^# generator: '; }
ndiff=0
while read -r _ _ path _; do
  cmp -s <(content "vectors/$path") <(content "build/vectors/$path") || ndiff=$((ndiff + 1))
done < vectors/MANIFEST
if [ "$ndiff" = 0 ]; then
  same="identical to the committed suite"
else
  same="$ndiff files DIFFER from the committed suite (run ci/gen-suite.sh and review)"
fi
printf '%-22s %6s %9s %8s  %s\n' "set" files cases size verify
for d in build/vectors/ocp/* build/vectors/profiles; do
  files=$(find "$d" -name '*.mxv*' | wc -l)
  cases=$(for f in $(find "$d" -name '*.mxv*'); do
            if [ "${f%.gz}" != "$f" ]; then (gzip -dc "$f" || true) | grep -m1 '^# cases: '; else grep -m1 '^# cases: ' "$f"; fi
          done | awk '{s += $3} END {print s}')
  size=$(du -sh "$d" | cut -f1)
  bad=0
  for f in $(find "$d" -name '*.mxv*'); do $bin/mxgold verify "$f" >/dev/null || bad=$((bad + 1)); done
  printf '%-22s %6s %9s %8s  %s\n' "${d#build/vectors/}" "$files" "$cases" "$size" \
    "$([ $bad = 0 ] && echo "all pass" || echo "$bad FAIL")"
done
t3=$(date +%s)
echo "suite: $same; generated and verified in $((t3 - t2)) s"

echo
echo "== RTL co-simulation (Verilator): committed vectors, random blocks with random stalls"
t4=$(date +%s)
rtl_files=0 rtl_fail=0
for f in vectors/ocp/quantize/*.mxv vectors/ocp/dot/*-block-fp32.mxv; do
  rc=0; $bin/mxsim --vectors "$f" --quiet > build/mxsim.log 2>&1 || rc=$?
  if [ $rc = 0 ]; then rtl_files=$((rtl_files + 1)); elif [ $rc != 77 ]; then rtl_fail=$((rtl_fail + 1)); tail -5 build/mxsim.log; fi
done
echo "vector files through the RTL: $rtl_files passed, $rtl_fail failed"
$bin/mxsim --unit quantize --random 100000 --stalls 25 | tail -2
$bin/mxsim --unit mac --random 20000 --stalls 25 | tail -2
t5=$(date +%s)

echo
echo "== CPU kernels: every path this CPU runs against the golden model, then their speed"
t6=$(date +%s)
$bin/tkernels e4m3 100000 | tail -2
$bin/tkernels int8 20000 | tail -1
$bin/tkernels none 0 vectors | tail -2
t7=$(date +%s)

echo
echo "== bench"
$bin/bench-golden 1000000 | tee build/bench-golden.txt | sed -n '1,11p'
$bin/bench-gen | tee build/bench-gen.txt | sed -n '1,4p'
$bin/bench-cosim | tee build/bench-cosim.txt | grep -v '^key=value' | grep -v '='
$bin/bench-kernels 256 | tee build/bench-kernels.txt | sed -n '1,14p'

echo
echo "== summary"
nvals() { $bin/mxgold quantize --help | grep -- "--$1 " | sed 's/.*: //' | wc -w; }
printf '%-34s %s\n' "formats / roundings / scale rules / profiles" \
  "$($bin/mxgold formats | tail -n +2 | wc -l) / $(nvals rounding) / $(nvals scale-rule) / $($bin/mxgold profiles | grep -c '^[a-z]')"
printf '%-34s %s\n' "cross-check (MPFR vs integer model)" "passed in $((t1 - t0)) s"
printf '%-34s %s\n' "MPFR conversions/s (one core)" "$(grep '^golden_conversions_per_s=' build/bench-golden.txt | cut -d= -f2)"
printf '%-34s %s\n' "conformance suite" "$(wc -l < vectors/MANIFEST) files, $same"
printf '%-34s %s\n' "dot block pairs/s (exact, one core)" "$(grep '^golden_dot_exact_block_pairs_per_s=' build/bench-golden.txt | cut -d= -f2)"
printf '%-34s %s\n' "RTL co-simulation" "$rtl_files vector files + 120k random blocks, $rtl_fail failures, $((t5 - t4)) s"
printf '%-34s %s\n' "co-sim elements/s (quantize, mac)" "$(grep '^cosim_quantize_elements_per_s=' build/bench-cosim.txt | cut -d= -f2), $(grep '^cosim_mac_elements_per_s=' build/bench-cosim.txt | cut -d= -f2)"
kv() { grep "^$1=" build/bench-kernels.txt | cut -d= -f2; }
printf '%-34s %s\n' "CPU kernels ($(kv path))" "bit-exact on every path (validated in $((t7 - t6)) s)"
printf '%-34s %s\n' "kernels vs stream (q e4m3, dq e4m3)" "$(kv quantize_e4m3_vs_stream), $(kv dequantize_e4m3_vs_stream); dot $(kv dot_e4m3_gelem_per_s) G elem/s"
printf '%-34s %s\n' "kernels worst data set (q, dq e4m3)" "$(kv quantize_e4m3_worst_vs_stream), $(kv dequantize_e4m3_worst_vs_stream); dispatch regret $(kv dispatch_regret)"
[ "$rtl_fail" = 0 ]
