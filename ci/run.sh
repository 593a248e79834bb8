#!/usr/bin/env bash
# ci/run.sh -- mxgold's main job on a fresh Debian machine: install what is missing, build, show the
# golden model at work on the blocks the ecosystem disagrees about, cross-check it against the
# independent model, and print a summary.  (Later: generate the vector suite, co-simulate the RTL,
# validate the kernels.)
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
bash ci/deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
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
t1=$(date +%s)

echo
echo "== bench"
$bin/bench-golden 1000000 | tee build/bench-golden.txt | sed -n '1,8p'

echo
echo "== summary"
printf '%-34s %s\n' "formats / roundings / scale rules / profiles" \
  "$($bin/mxgold formats | tail -n +2 | wc -l) / 8 / 6 / $($bin/mxgold profiles | grep -c '^[a-z]')"
printf '%-34s %s\n' "cross-check (MPFR vs integer model)" "passed in $((t1 - t0)) s"
printf '%-34s %s\n' "MPFR conversions/s (one core)" "$(grep '^golden_conversions_per_s=' build/bench-golden.txt | cut -d= -f2)"
echo "vectors, RTL co-simulation, kernels: not built yet (issues 3-6)"
