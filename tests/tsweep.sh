#!/usr/bin/env bash
# tsweep -- the exhaustive sweep's own contract (docs/kernels.md, "The exhaustive sweep"): its
# options under hostile input, and the checkpoint: interrupted by --limit or SIGTERM and resumed,
# a run gives the same counts and digest as an uninterrupted one; a checkpoint made with other
# parameters, a damaged one and an unwritable place are refused.
# Usage: tsweep.sh BUILD_BIN_DIR
set -u
sweep="${MX_RUN:-} $1/sweep"
. "$(dirname "$0")/expect.sh"
# the summary lines that must agree between runs (not the timings)
summary() { grep -E '^sweep: (units|digest)' "$1"; }

expect help 0 "" $sweep --help
grep -q -- "--shard I/N" "$t/out" && ok || ko "--help lists --shard"
# options
for bad in 3/2 0/0 1/1 a/b 1/ /2 -1/2 1/2x 2 "" 4294967296/4294967297 " 1/2"; do
  expect "shard '$bad'" 2 "bad shard" $sweep --shard "$bad" --list
done
expect format 2 "unknown format" $sweep --format e9m9 --list
expect format-list 2 "unknown format" $sweep --format e4m3,,e5m2 --list
expect rounding-sr 2 "unknown rounding" $sweep --rounding sr --list
expect rule 2 "unknown rule" $sweep --rule ceil --list
expect path 2 "unknown path" $sweep --path avx1024 --list
for bad in avx512vbm avx512vbmi2 AVX512VBMI "avx512 vbmi" avx512,vbmi; do
  expect "path '$bad'" 2 "unknown path" $sweep --path "$bad" --list
done
# the path a VBMI CPU runs: listed where it is supported, 77 (not supported here) elsewhere
$sweep --path avx512vbmi --list > "$t/out" 2> "$t/err"; rc=$?
[ "$rc" = 0 ] || [ "$rc" = 77 ] && ok || ko "--path avx512vbmi --list: rc=$rc"
expect chunk-small 2 "bad --chunk-bits" $sweep --chunk-bits 11 --list
expect chunk-big 2 "bad --chunk-bits" $sweep --chunk-bits 25 --list
expect chunk-nan 2 "bad --chunk-bits" $sweep --chunk-bits x --list
expect limit-neg 2 "bad --limit" $sweep --limit -1 --list
expect limit-word 2 "bad --limit" $sweep --limit many --list
expect limit-huge 2 "bad --limit" $sweep --limit 99999999999999999999999 --list
for bad in 200 -128 1,,2 ,1 1, abc "" 0x10; do
  expect "scales '$bad'" 2 "bad --scales" $sweep --scales "$bad" --list
done
expect scales-unreachable 2 "nothing to sweep" $sweep --format e4m3 --rule floor --scales 127 --list
expect model 2 "bad --model" $sweep --model medium --list
expect unknown-option 2 "unknown option" $sweep --frobnicate 1
expect lacking-value 2 "lacks its value" $sweep --shard
expect empty-checkpoint 2 "empty checkpoint" $sweep --checkpoint ""
expect progress 2 "bad --progress" $sweep --progress -5 --list
# the scale sets: every format and rule, -127 and 0 in each
$sweep --list > "$t/list" 2>&1 && [ "$(grep -c '^sweep: scale set .*: -127 .* 0 ' "$t/list")" = 12 ] && ok \
  || ko "--list: 12 scale sets with -127 and 0 [$(head -c 300 "$t/list")]"

# the checkpoint: a small shard, whole and interrupted
a=(--format e2m1,int8 --rounding rne,rup --rule all --chunk-bits 12 --shard 5/4099 --progress 0)
$sweep "${a[@]}" > "$t/whole" 2> "$t/err"; rc=$?
[ $rc = 0 ] && grep -q "(complete)" "$t/whole" && ok || ko "whole run: rc $rc [$(head -c 300 "$t/err")]"
expect limit 3 "stopped at unit .* \(--limit\)" $sweep "${a[@]}" --checkpoint "$t/ck" --limit 100
[ -s "$t/ck" ] && [ ! -e "$t/ck.tmp" ] && ok || ko "checkpoint written whole (no .tmp left)"
grep -q "^units 100$" "$t/ck" && ok || ko "checkpoint holds 100 units [$(head -5 "$t/ck")]"
expect limit-again 3 "resumes from .* \(100/" $sweep "${a[@]}" --checkpoint "$t/ck" --limit 50
cp "$t/ck" "$t/ck150"
$sweep "${a[@]}" --checkpoint "$t/ck" > "$t/resumed" 2> "$t/err"; rc=$?
[ $rc = 0 ] && [ "$(summary "$t/whole")" = "$(summary "$t/resumed")" ] && ok \
  || ko "resumed run: rc $rc, [$(summary "$t/resumed")] vs [$(summary "$t/whole")]"
$sweep "${a[@]}" --checkpoint "$t/ck" > "$t/again" 2> "$t/err"; rc=$?
[ $rc = 0 ] && [ "$(summary "$t/whole")" = "$(summary "$t/again")" ] && ok || ko "a complete checkpoint rerun: rc $rc"
# refused: other parameters, damage of every kind
cp "$t/ck150" "$t/ck"
expect other-params 2 "other parameters" $sweep "${a[@]}" --rounding rne --checkpoint "$t/ck"
expect other-shard 2 "other parameters" $sweep "${a[@]}" --shard 6/4099 --checkpoint "$t/ck"
sed 's/^inputs \([0-9]*\)/inputs 1\1/' "$t/ck150" > "$t/ck"
expect edited-count 2 "damaged" $sweep "${a[@]}" --checkpoint "$t/ck"
sed 's/^next \([0-9]*\)/next 1\1/' "$t/ck150" > "$t/ck"
expect edited-next 2 "damaged" $sweep "${a[@]}" --checkpoint "$t/ck"
head -c 200 "$t/ck150" > "$t/ck"
expect truncated 2 "damaged" $sweep "${a[@]}" --checkpoint "$t/ck"
: > "$t/ck"
expect empty 2 "damaged" $sweep "${a[@]}" --checkpoint "$t/ck"
head -c 3000 /dev/urandom > "$t/ck"
expect garbage 2 "damaged" $sweep "${a[@]}" --checkpoint "$t/ck"
{ cat "$t/ck150"; echo extra; } > "$t/ck"
expect trailing 2 "damaged" $sweep "${a[@]}" --checkpoint "$t/ck"
mkdir "$t/dir"
expect directory 2 "checkpoint" $sweep "${a[@]}" --checkpoint "$t/dir"
expect unwritable 2 "cannot write checkpoint" $sweep "${a[@]}" --checkpoint "$t/no/such/dir/ck" --limit 1
cmp -s "$t/ck" "$t/ck" && ok
# SIGTERM: stop after the unit under way, checkpoint, exit 3; the resumed run agrees
b=(--format e4m3 --rounding rne --rule floor --chunk-bits 12 --shard 1/97 --progress 0)
$sweep "${b[@]}" > "$t/bwhole" 2>/dev/null
$sweep "${b[@]}" --checkpoint "$t/ckb" > /dev/null 2> "$t/err" & pid=$!
sleep 1; kill -TERM $pid; wait $pid; rc=$?
if [ $rc = 3 ]; then
  grep -q "(signal)" "$t/err" && ok || ko "SIGTERM: no message"
  $sweep "${b[@]}" --checkpoint "$t/ckb" > "$t/bres" 2>/dev/null
  [ "$(summary "$t/bwhole")" = "$(summary "$t/bres")" ] && ok || ko "resumed after SIGTERM differs"
elif [ $rc = 0 ]; then
  echo "tsweep: the SIGTERM run finished within 1 s: that case not exercised"
else
  ko "SIGTERM: rc $rc"
fi

echo "tsweep: $pass passed, $fail failed"
[ $fail = 0 ]
