#!/usr/bin/env bash
# thostile -- the CLI under hostile input (issue 10): every item is a regression test that
# failed before the hardening.  The file-format items (.mxv headers, .gz streams, results files)
# are in tverify.c; this is the command line, special files, signals and memory.
# Usage: thostile.sh BUILD_BIN_DIR
set -u
dir=$1
bin="${MX_RUN:-} $dir/mxgold"
. "$(dirname "$0")/expect.sh"
ones=$(printf '3F800000 %.0s' $(seq 32)); ones=${ones% }

# 1. a gemm line longer than the old reader's word array: every reader reads what gen writes
$bin gen --op gemm --format-a e4m3 --gemm-m 32 --gemm-n 32 --gemm-k 32 --quiet -o "$t/g.mxv" && ok || ko "gen 32x32x32 gemm"
[ "$(grep -v '^#' "$t/g.mxv" | head -1 | wc -w)" = 4161 ] && ok || ko "the gemm line has 4161 words"
$bin verify "$t/g.mxv" > "$t/out" 2>&1 && grep -q "^56 passed, 0 failed" "$t/out" && ok || ko "verify of the 32x32x32 gemm file: $(tail -1 "$t/out")"
[ "$($bin gemm "$t/g.mxv" | wc -l)" = 56 ] && ok || ko "gemm of the 32x32x32 file"
if [ -x "$dir/mxsim" ]; then
  "$dir/mxsim" --vectors "$t/g.mxv" > "$t/out" 2>&1; rc=$?
  [ $rc = 77 ] && grep -q "not implemented by the RTL" "$t/out" && ok || ko "mxsim --vectors gemm: rc $rc [$(head -c 200 "$t/out")]"
fi
# 2. sizes from input are overflow-checked
expect gemm-2^63 2 "gemm-m wants an integer 1..4096" $bin gen --op gemm --format e4m3 --block 1 --gemm-m 9223372036854775808 --gemm-n 2 --gemm-k 2
# 3. one checked parser for every number
expect tc-group-neg 2 "tc-group wants an integer 1..4096, not '-1'" $bin dot --format e4m3 --accum tensor-core --tc-group -1
expect tc-group-gen 2 "tc-group wants an integer" $bin gen --op dot --format e4m3 --accum tensor-core --tc-group -1
# fused-group's --group: a number 1..4096 that divides --block, only with --accum fused-group
expect group-neg 2 "group wants an integer 1..4096, not '-1'" $bin dot --format e4m3 --accum fused-group --group -1
expect group-zero 2 "group wants an integer 1..4096, not '0'" $bin dot --format e4m3 --accum fused-group --group 0
expect group-wrap 2 "group wants an integer 1..4096, not '4294967304'" $bin dot --format e4m3 --accum fused-group --group 4294967304
expect group-junk 2 "group wants an integer 1..4096, not '8x'" $bin dot --format e4m3 --accum fused-group --group 8x
expect group-empty 2 "group wants an integer 1..4096, not ''" $bin dot --format e4m3 --accum fused-group --group ''
expect group-12 2 "--group 12 does not divide --block 32" $bin dot --format e4m3 --accum fused-group --group 12
expect group-64 2 "--group 64 does not divide --block 32" $bin dot --format e4m3 --accum fused-group --group 64
expect group-gen-k 2 "--group 16 does not divide --block 24" $bin gen --op gemm --format e4m3 --block 24 --gemm-k 48 --accum fused-group --group 16
expect group-none 2 "fused-group needs --group G" $bin gen --op dot --format e4m3 --accum fused-group
expect group-accum 2 "--group goes with --accum fused-group" $bin dot --format e4m3 --accum block-fp32 --group 8
expect group-gen-op 2 "--group does not apply to --op quantize" $bin gen --op quantize --format e4m3 --group 8
expect group-tc 2 "the --tc-\* options go with --accum tensor-core" $bin dot --format e4m3 --accum fused-group --group 8 --tc-group 8
$bin gen --op dot --format e2m1 --accum fused-group --group 16 --blocks 2 -n 5 --quiet -o "$t/fg.mxv" && ok || ko "gen fused-group"
$bin verify "$t/fg.mxv" > "$t/out" 2>&1 && grep -q " 0 failed" "$t/out" && ok || ko "verify fused-group: $(tail -1 "$t/out")"
sed 's/^# group: 16$/# group: 12/' "$t/fg.mxv" > "$t/fg2.mxv"
expect group-header-12 2 "fg2.mxv:[0-9]+: header: group 12 does not divide the block size 32" $bin verify "$t/fg2.mxv"
sed 's/^# group: 16$/# group: 0/' "$t/fg.mxv" > "$t/fg2.mxv"
expect group-header-0 2 "fg2.mxv:[0-9]+: group '0' is not an integer in 1..4096" $bin verify "$t/fg2.mxv"
sed '/^# group: 16$/d' "$t/fg.mxv" > "$t/fg2.mxv"
expect group-header-none 2 "fg2.mxv:[0-9]+: header: accum fused-group needs a 'group' key" $bin verify "$t/fg2.mxv"
sed 's/^# accum: fused-group$/# accum: exact/' "$t/fg.mxv" > "$t/fg2.mxv"
expect group-header-accum 2 "fg2.mxv:[0-9]+: header: key 'group' goes with accum fused-group" $bin verify "$t/fg2.mxv"
sed 's/^# group: 16$/# group: 16 16/' "$t/fg.mxv" > "$t/fg2.mxv"
expect group-header-junk 2 "fg2.mxv:[0-9]+: group '16 16' is not an integer" $bin verify "$t/fg2.mxv"
{ grep '^#' "$t/fg.mxv" | sed 's/^# group: 16$/# group: 8/'; grep -v '^#' "$t/fg.mxv"; } > "$t/fgr.mxv"
expect group-results 2 "header 'group: 8' does not match the vectors' '16'" $bin verify --vectors "$t/fg.mxv" --results "$t/fgr.mxv"
expect tc-frac-wrap 2 "tc-frac-bits wants an integer 0..60, not '4294967297'" $bin dot --format e4m3 --accum tensor-core --tc-frac-bits 4294967297
expect zero-scale-mask 2 "zero-scale 85 does not fit the 7-bit scale format ue4m3" $bin quantize --format e2m1 --zero-scale 85 --scale-format ue4m3
expect scale-min-fmt 2 "scale-min 7F is not a finite code of the scale format ue4m3" $bin quantize --format e2m1 --scale-min 7F --scale-format ue4m3
expect scale-min-nan 2 "scale-min wants a base-16 number in 00..FE" $bin quantize --format e2m1 --scale-min FF
expect sr-frac-value 2 "unknown --sr-frac value 'sideways'" $bin quantize --format e2m1 --rounding sr --sr-frac sideways
expect scale-cast-value 2 "unknown --scale-cast value 'up'" $bin cast --to e8m0 --scale-cast up
expect scale-bump-value 2 "unknown --scale-bump value 'twice'" $bin quantize --format int8 --scale-bump twice
expect rounding-rhx 2 "unknown rounding 'rhx'" $bin quantize --format e2m1 --rounding rhx
$bin gen --op quantize --format int8 -n 3 --seed 1 --quiet -o "$t/b.mxv" && ok || ko "gen for the scale-bump header"
sed 's/^# scale-bump: none$/# scale-bump: twice/' "$t/b.mxv" > "$t/b2.mxv"
expect scale-bump-header 2 "b2.mxv:[0-9]+: unknown scale-bump value 'twice'" $bin verify "$t/b2.mxv"
# EkMm scale names: out of range, an element format as a scale, a bad scale-round, a 9-bit scale
expect scale-e16m0 2 "--scale-format 'e16m0' is not one of: e8m0 ue4m3 eKmM" $bin quantize --format e2m1 --scale-format e16m0
expect scale-e8m8 2 "--scale-format 'e8m8' is not one of" $bin quantize --format e2m1 --scale-format e8m8
expect scale-elem 2 "--scale-format 'e4m3' is not one of" $bin quantize --format e2m1 --scale-format e4m3
expect elem-scale 2 "--format 'e8m1' is not one of" $bin quantize --format e8m1
expect scale-round-value 2 "unknown --scale-round value 'nearest'" $bin quantize --format e2m1 --scale-format e8m1 --scale-round nearest
[ "$(echo 40A00000 | $bin quantize --format e2m1 --block 1 --scale-format e8m1 --scale-round up)" = "0FE 06" ] && ok || ko "e8m1 scale-round up: a 9-bit scale is written with 3 digits"
sed 's/^# scale: e8m0$/# scale: e8m9/' "$t/b.mxv" > "$t/b3.mxv"
expect scale-header 2 "b3.mxv:[0-9]+: unknown format 'e8m9' in header key 'scale'" $bin verify "$t/b3.mxv"
expect scale-rule-min 2 "unknown --scale-rule value 'min-sse'" $bin quantize --format e2m1 --scale-rule min-sse
expect wide-input-dequantize 2 "option .--wide-input. is not an option of dequantize" $bin dequantize --format e4m3 --wide-input fp32
expect n-huge 2 "wants an integer 0..[0-9]+, not '99999999999999999999'" $bin gen --op cast --format e2m1 -n 99999999999999999999
expect decode-fp32 2 "decode lists every code: 'fp32' has more than 16 bits" $bin gen --op decode --format fp32
expect block-junk 2 "block wants an integer 1..4096, not '32x'" $bin quantize --format e4m3 --block 32x
expect seed-sign 2 "seed wants an integer" $bin gen --op cast --format e2m1 --seed -1
expect sr-bits-range 2 "sr-bits wants a base-10 number" $bin cast --to e2m1 --rounding sr --random-bits 1 --sr-bits 33
# 4. the golden answer for a tiny FP64 amax under floor-log2f: a finite (clamped) scale
[ "$(echo 0000000000000001 | $bin quantize --format e2m1 --input fp64 --scale-rule floor-log2f --block 1 --flags)" = "00 00 23" ] && ok || ko "floor-log2f of 2^-1074 (FP64)"

# silent failures are now reported
printf '3F800000\0FFFF\n' | $bin cast --to e4m3 > /dev/null 2> "$t/err"; [ $? = 2 ] && grep -q "NUL byte" "$t/err" && ok || ko "NUL byte in a line"
for c in "formats" "profiles" "verify $t/g.mxv" "gemm $t/g.mxv" "gen --op cast --format e2m1"; do
  $bin $c > /dev/full 2> "$t/err"; rc=$?
  [ $rc != 0 ] && grep -qi "write error\|cannot write\|no space" "$t/err" && ok || ko "$c > /dev/full: rc $rc"
done
echo "$ones" | $bin quantize --format e4m3 > /dev/full 2> /dev/null; [ $? = 1 ] && ok || ko "quantize > /dev/full"
expect both-stdin 2 "cannot both be stdin" $bin verify --vectors - --results -
expect directory 2 "is a directory" $bin verify "$t"
# truncated files: at a line boundary, or a header count that the file does not reach
head -n -3 "$t/g.mxv" > "$t/trunc.mxv"
expect gemm-truncated 2 "declares 56 cases, the file has 53" $bin gemm "$t/trunc.mxv"
$bin gen --op quantize --format e4m3 --quiet -o "$t/q.mxv"
expect gemm-not-gemm 2 "holds quantize vectors" $bin gemm "$t/q.mxv"
sed 's/^# cases: .*/# cases: 99999/' "$t/q.mxv" > "$t/q99.mxv"
expect verify-count 2 "declares 99999 cases" $bin verify "$t/q99.mxv"
if [ -x "$dir/mxsim" ]; then
  head -n -10 "$t/q.mxv" > "$t/qt.mxv"
  expect mxsim-truncated 2 "declares [0-9]+ cases, the file has" "$dir/mxsim" --vectors "$t/qt.mxv"
  expect mxsim-count 2 "declares 99999 cases" "$dir/mxsim" --vectors "$t/q99.mxv"
  expect mxsim-prefix 2 "^$t/none.mxv: cannot open" "$dir/mxsim" --vectors "$t/none.mxv"
  expect mxsim-random 2 "random wants a count" "$dir/mxsim" --unit quantize --random -5
  expect mxsim-threads0 2 "threads wants a count 1..64" "$dir/mxsim" --unit quantize --random 5 --threads 0
  expect mxsim-threads65 2 "threads wants a count 1..64" "$dir/mxsim" --unit quantize --random 5 --threads 65
  expect mxsim-threadsx 2 "threads wants a count 1..64" "$dir/mxsim" --unit mac --random 5 --threads 2x
  expect mxsim-accum-tc 2 "accum is exact, block-fp32 or fused-group" "$dir/mxsim" --unit mac --random 5 --accum tensor-core
  expect mxsim-accum-empty 2 "accum is exact, block-fp32 or fused-group" "$dir/mxsim" --unit mac --random 5 --accum ''
  expect mxsim-accum-quantize 2 "accum goes with --unit mac --random" "$dir/mxsim" --unit quantize --random 5 --accum exact
  expect mxsim-accum-vectors 2 "accum goes with --unit mac --random" "$dir/mxsim" --vectors "$t/q.mxv" --accum exact
fi
# bounded line length and memory: /dev/zero is an error, quickly
timeout 20 $bin verify /dev/zero > /dev/null 2> "$t/err"; [ $? = 2 ] && grep -q "NUL byte" "$t/err" && ok || ko "verify /dev/zero"
# a long bad token is cut in the message
{ head -c 900000 /dev/zero | tr '\0' 'z'; echo; } | $bin cast --to e4m3 2> "$t/err" > /dev/null
[ $? = 2 ] && [ "$(wc -c < "$t/err")" -lt 400 ] && ok || ko "a 900 kB bad token: $(wc -c < "$t/err") bytes of message"
expect random-bits-empty 2 "random-bits wants hex words .* got none" $bin cast --to e4m3 --rounding sr --random-bits ''
echo 3F80 | $bin cast --to e4m3 > /dev/null 2> "$t/err"; [ $? = 2 ] && grep -q "exactly 8 digits" "$t/err" && ok || ko "short hex word for fp32"
# options a command does not use are rejected
for o in "--to fp32" "--emit mxv" "--op cast" "--accum exact"; do
  expect "quantize $o" 2 "is not an option of quantize" $bin quantize --format e4m3 $o
done
expect "cast --scale-rule" 2 "is not an option of cast" $bin cast --to e4m3 --scale-rule ceil
expect "gen --op cast --accum" 2 "accum does not apply to --op cast" $bin gen --op cast --format e2m1 --accum exact
# decoding is exact: Inf stays Inf
[ "$(echo 7C | $bin cast --from e5m2 --flags)" = "7F800000 00" ] && ok || ko "cast e5m2 +Inf to fp32"
[ "$(echo FC | $bin cast --from e5m2 --profile pychop)" = "FF800000" ] && ok || ko "cast e5m2 -Inf to fp32 (pychop)"
[ "$(echo 7F800000 | $bin cast --to fp64)" = "7FF0000000000000" ] && ok || ko "cast fp32 +Inf to fp64"

# -o: special files are written, never replaced; links are written through; modes are kept
mkfifo "$t/fifo"
cat "$t/fifo" > "$t/fromfifo" & reader=$!
$bin gen --op cast --format e2m1 -o "$t/fifo" && wait $reader && [ -p "$t/fifo" ] && grep -q '^# cases: 114' "$t/fromfifo" && ok || ko "gen -o FIFO"
[ "$($bin gen --op cast --format e2m1 -o /dev/stdout | grep -c '^# cases: 114')" = 1 ] && ok || ko "gen -o /dev/stdout"
$bin gen --op cast --format e2m1 -o /dev/null && [ -c /dev/null ] && ok || ko "gen -o /dev/null"
echo old > "$t/target.mxv"; ln -s target.mxv "$t/link.mxv"
$bin gen --op cast --format e2m1 -o "$t/link.mxv" && [ -L "$t/link.mxv" ] && grep -q '^# cases: 114' "$t/target.mxv" && ok || ko "gen -o symlink"
echo old > "$t/mode.mxv"; chmod 640 "$t/mode.mxv"
$bin gen --op cast --format e2m1 -o "$t/mode.mxv" && [ "$(stat -c %a "$t/mode.mxv")" = 640 ] && ok || ko "gen -o keeps the mode: $(stat -c %a "$t/mode.mxv")"
# a failed run leaves the old file as it was, and no temporary file
echo keep > "$t/keep.mxv"
printf '%s\nzz\n' "$ones" | $bin quantize --format e4m3 -o "$t/keep.mxv" 2> /dev/null; [ $? = 2 ] && [ "$(cat "$t/keep.mxv")" = keep ] && ok || ko "bad input keeps the -o file"
# SIGINT and SIGTERM during the write remove the temporary file
for sig in INT TERM; do
  $bin gen --op quantize --format e4m3 -n 100000000 --quiet -o "$t/big-$sig.mxv" & pid=$!
  sleep 1.5; kill -$sig $pid; wait $pid 2> /dev/null
  [ ! -e "$t/big-$sig.mxv" ] && [ -z "$(ls -A "$t" | grep '\.tmp')" ] && ok || ko "SIG$sig left $(ls -A "$t" | grep -E 'big|tmp' | tr '\n' ' ')"
done
# gen streams: memory stays bounded whatever -n is (skipped under a sanitizer: its shadow memory)
if ! ldd "$dir/mxgold" 2>/dev/null | grep -q asan && [ -z "${MX_RUN:-}" ]; then
  ( ulimit -v 131072; $bin gen --op quantize --format e4m3 -n 400000 --quiet -o "$t/n400k.mxv" ) \
    && [ "$(grep -m1 '^# cases:' "$t/n400k.mxv")" = "# cases: 400358" ] && ok || ko "gen -n 400000 within 128 MiB of address space"
  rm -f "$t/n400k.mxv"
fi
# nvfp4: every size, format and rounding checked before use; malformed lines stop with stdin:LINE
z=$(printf '00000000 %.0s' $(seq 16)); z=${z% }
expect nvfp4-cols-24 2 "cols wants a multiple of 16, not 24" $bin nvfp4 --cols 24
expect nvfp4-cols-0 2 "cols wants an integer 16..4096, not '0'" $bin nvfp4 --cols 0
expect nvfp4-cols-2^64 2 "cols wants an integer 16..4096, not '18446744073709551616'" $bin nvfp4 --cols 18446744073709551616
expect nvfp4-fp64 2 "input wants fp32, bf16 or fp16" $bin nvfp4 --input fp64
expect nvfp4-rtz 2 "rounding wants rne or sr" $bin nvfp4 --rounding rtz
expect nvfp4-sr-bits 2 "rounding sr needs --random-bits" $bin nvfp4 --rounding sr
expect nvfp4-policy 2 "'--overflow' is not an option of nvfp4" $bin nvfp4 --overflow ovf
printf '00000000\n' | $bin nvfp4 > /dev/null 2> "$t/err"; rc=$?
[ $rc = 2 ] && grep -q "^stdin:1: expected 16 hex words" "$t/err" && ok || ko "nvfp4 short line: rc $rc"
printf '%s\n%s 1FFFFFFFF\n' "$z" "${z% 00000000}" | $bin nvfp4 > "$t/out" 2> "$t/err"; rc=$?
[ $rc = 2 ] && grep -q "^stdin:2: word 16 '1FFFFFFFF' is not a bit pattern" "$t/err" && [ "$(wc -l < "$t/out")" = 1 ] && ok || ko "nvfp4 bad word: rc $rc"
printf '%s\n' "$z" | $bin nvfp4 --input bf16 > /dev/null 2> "$t/err"; rc=$?
[ $rc = 2 ] && grep -q "exactly 4 digits" "$t/err" && ok || ko "nvfp4 bf16 wants 4 digits: rc $rc"
# gen --op nvfp4 / mxs: options meaningless for the op are errors; sizes and names are checked;
# the files verify, and a damaged one stops with FILE:LINE
expect gen-nvfp4-format 2 "--format does not apply to --op nvfp4" $bin gen --op nvfp4 --format e2m1
expect gen-nvfp4-policy 2 "--scale-rule does not apply to --op nvfp4" $bin gen --op nvfp4 --scale-rule ceil
expect gen-nvfp4-profile 2 "--profile does not apply to --op nvfp4" $bin gen --op nvfp4 --profile ocp
expect gen-nvfp4-cols-20 2 "nvfp4: cols 20 is not a multiple of 16" $bin gen --op nvfp4 --cols 20
expect gen-nvfp4-rows-0 2 "rows wants an integer 1..4096, not '0'" $bin gen --op nvfp4 --rows 0
expect gen-nvfp4-big 2 "nvfp4: rows x cols must be at most 4096" $bin gen --op nvfp4 --rows 4096 --cols 32
expect gen-nvfp4-rna 2 "nvfp4 rounding is rne or sr" $bin gen --op nvfp4 --rounding rna
expect gen-nvfp4-tile 2 "--tile wants 1d or 2d, not '3d'" $bin gen --op nvfp4 --tile 3d
expect gen-nvfp4-amax 2 "--amax wants tensor or given, not 'max'" $bin gen --op nvfp4 --amax max
expect gen-nvfp4-fp64 2 "not fp64" $bin gen --op nvfp4 --input fp64
expect gen-nvfp4-exh 2 "--exhaustive does not apply to nvfp4" $bin gen --op nvfp4 --exhaustive
expect gen-mxs-name 2 "unknown --mxs-format 'mx8' \(mx9 mx6 mx4\)" $bin gen --op mxs --mxs-format mx8
expect gen-mxs-sr 2 "mxs takes a deterministic rounding, not sr" $bin gen --op mxs --rounding sr
expect gen-mxs-rule 2 "a policy field has no mxs meaning" $bin gen --op mxs --scale-rule ceil
expect gen-mxs-block 2 "--block does not apply to --op mxs" $bin gen --op mxs --block 32
expect gen-mxs-rows 2 "--rows does not apply to --op mxs" $bin gen --op mxs --rows 2
expect gen-mxs-fmt-q 2 "--mxs-format does not apply to --op quantize" $bin gen --op quantize --format e4m3 --mxs-format mx9
for g in "nvfp4 --tile 2d --rows 17 --rounding sr --amax given -n 3" "mxs --mxs-format mx4 -n 3"; do
  # shellcheck disable=SC2086
  $bin gen --op $g --quiet -o "$t/tl.mxv" && $bin verify "$t/tl.mxv" > "$t/out" 2>&1 && grep -q " 0 failed" "$t/out" && ok || ko "gen/verify --op $g: $(tail -1 "$t/out")"
  head -c $(( $(wc -c < "$t/tl.mxv") - 40 )) "$t/tl.mxv" > "$t/tl-cut.mxv"
  expect "verify-cut-$g" 2 "tl-cut.mxv:[0-9]+: " $bin verify "$t/tl-cut.mxv"
  if [ -x "$dir/mxsim" ]; then
    "$dir/mxsim" --vectors "$t/tl.mxv" > "$t/out" 2>&1; rc=$?
    [ $rc = 77 ] && grep -q "not implemented by the RTL" "$t/out" && ok || ko "mxsim --vectors $g: rc $rc"
  fi
done
echo "thostile: $pass passed, $fail failed"
[ "$fail" = 0 ]
