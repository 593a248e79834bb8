#!/usr/bin/env bash
# tsweep-rtl -- sweep-rtl's own contract (docs/rtl.md, "Exhaustive lane sweep"): the kernel paths
# and what the RTL path has not are refused, its extra rules and roundings are accepted, and its
# checkpoint resumes to the counts and digest of an uninterrupted run.  The engine's other
# hostile-input and checkpoint cases are tsweep.sh's (the same code).
# Usage: tsweep-rtl.sh BUILD_BIN_DIR
set -u
sweep="${MX_RUN:-} $1/sweep-rtl"
. "$(dirname "$0")/expect.sh"
summary() { grep -E '^sweep: (units|digest)' "$1"; }

expect help 0 "" $sweep --help
grep -q -- "--path rtl|all" "$t/out" && grep -q "rto" "$t/out" && ok || ko "--help names the rtl path and rto"
for p in ref generic avx2 avx512 avx512vbmi rtl,avx2; do
  expect "path $p" 2 "build/bin/sweep's" $sweep --path "$p" --list
done
expect path-unknown 2 "unknown path" $sweep --path gpu --list
expect path-twice 0 "" $sweep --path rtl,rtl --list
expect rounding-sr 2 "unknown rounding" $sweep --rounding sr --list
expect rule-unknown 2 "unknown rule" $sweep --rule min-mse --list
expect shard 2 "bad shard" $sweep --shard 2/2 --list
expect rtl-rules 0 "" $sweep --format e2m1 --rule ceil,even,rceil --rounding rnz,rhu,rhd,rto --list
# every format and rule: 60 scale sets, -127 and 0 in each
$sweep --list > "$t/list" 2>&1 && [ "$(grep -c '^sweep: scale set .*: -127 .* 0 ' "$t/list")" = 60 ] && ok \
  || ko "--list: 60 scale sets with -127 and 0 [$(head -c 300 "$t/list")]"

# the checkpoint: whole, stopped by --limit and resumed, the same counts and digest
a=(--format e2m1,int8 --rounding rto,rne --rule rceil,floor --chunk-bits 12 --shard 7/8191 --progress 0)
$sweep "${a[@]}" > "$t/whole" 2> "$t/err"; rc=$?
[ $rc = 0 ] && grep -q "(complete)" "$t/whole" && ok || ko "whole run: rc $rc [$(head -c 300 "$t/err")]"
expect limit 3 "stopped at unit .* \(--limit\)" $sweep "${a[@]}" --checkpoint "$t/ck" --limit 40
grep -q "^units 40$" "$t/ck" && grep -q "^lanes_rtl " "$t/ck" && ok || ko "checkpoint: 40 units, rtl counts [$(head -5 "$t/ck")]"
$sweep "${a[@]}" --checkpoint "$t/ck" > "$t/resumed" 2> "$t/err"; rc=$?
[ $rc = 0 ] && [ "$(summary "$t/whole")" = "$(summary "$t/resumed")" ] && ok \
  || ko "resumed run: rc $rc, [$(summary "$t/resumed")] vs [$(summary "$t/whole")]"
expect other-params 2 "other parameters" $sweep "${a[@]}" --rounding rne --checkpoint "$t/ck"
# the same explicit work gives the kernel sweep's digest of expected codes (one engine)
if [ -x "$1/sweep" ]; then
  b=(--format e4m3 --rounding rne,rdn --rule rceil-fp32 --scales -120,0,119 --chunk-bits 12 --shard 3/1021 --progress 0)
  $sweep "${b[@]}" > "$t/r" 2>&1; ${MX_RUN:-} "$1/sweep" "${b[@]}" > "$t/k" 2>&1
  [ -n "$(summary "$t/r")" ] && [ "$(summary "$t/r")" = "$(summary "$t/k")" ] && ok \
    || ko "sweep-rtl and sweep disagree on the same work [$(summary "$t/r")] vs [$(summary "$t/k")]"
fi

echo "tsweep-rtl: $pass passed, $fail failed"
[ $fail = 0 ]
