#!/usr/bin/env bash
# run.sh -- a longer libFuzzer run of every harness: builds build-fuzz (clang, ASan, UBSan) if
# needed, runs each harness for SECONDS from its seed corpus and the kept reproducers, and
# reports executions, coverage and findings.  A crash, leak or timeout leaves its input in
# build-fuzz/tests/fuzz/HARNESS/; keep it in tests/fuzz/regress/HARNESS/ once fixed, so that
# every later build replays it.
# Usage: tests/fuzz/run.sh [SECONDS (default 600)] [HARNESS...]
set -euo pipefail
cd "$(dirname "$0")/../.."
secs=${1:-600}; shift || true
harnesses=${*:-fuzz_mxv fuzz_results fuzz_cli}
if [ ! -x build-fuzz/bin/fuzz_mxv ]; then
  CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMX_FUZZ=ON -DMX_SANITIZE=ON \
        -DMX_SIM=OFF -DMX_BUILD_BENCH=OFF > /dev/null
fi
cmake --build build-fuzz -j"$(nproc)" > /dev/null
status=0
for h in $harnesses; do
  work=build-fuzz/tests/fuzz/$h-long
  rm -rf "$work"; mkdir -p "$work/corpus"
  ASAN_OPTIONS=log_path=$work/asan:detect_leaks=1 UBSAN_OPTIONS=log_path=$work/ubsan:print_stacktrace=1 \
    build-fuzz/bin/"$h" -max_total_time="$secs" -max_len=65536 -rss_limit_mb=2048 -timeout=10 \
    -close_fd_mask=3 -dict=tests/fuzz/mxv.dict -artifact_prefix="$work/" -print_final_stats=1 \
    "$work/corpus" "tests/fuzz/corpus/$h" "tests/fuzz/regress/$h" > "$work/log" 2>&1 || true
  runs=$(grep -m1 '^stat::number_of_executed_units' "$work/log" | awk '{print $2}')
  cov=$(grep -o 'cov: [0-9]*' "$work/log" | tail -1 | awk '{print $2}')
  ft=$(grep -o 'ft: [0-9]*' "$work/log" | tail -1 | awk '{print $2}')
  found=$(ls "$work" | grep -E '^(crash|leak|timeout|oom|slow-unit)-|^(asan|ubsan)\.' || true)
  printf '%-13s %4s s  %10s execs  coverage %5s edges, %6s features  corpus +%s  %s\n' "$h" "$secs" \
    "${runs:-?}" "${cov:-?}" "${ft:-?}" "$(ls "$work/corpus" | wc -l)" "${found:-no findings}"
  [ -z "$found" ] || status=1
done
exit $status
