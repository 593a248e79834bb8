#!/usr/bin/env bash
# tcli -- the mxgold CLI contract: outputs for hand-computed inputs, and errors (stdin:LINE, exit 2).
# Usage: tcli.sh BUILD_BIN_DIR
set -u
bin="${MX_RUN:-} $1/mxgold" # MX_RUN: a runner such as valgrind (ci/test.sh)
pass=0 fail=0
err=$(mktemp); trap 'rm -f "$err"' EXIT
ok() { pass=$((pass+1)); }
ko() { fail=$((fail+1)); echo "FAIL: $*" >&2; }
expect_out() { # name, expected stdout, command (stdin from $in)
  local name=$1 want=$2; shift 2
  local got; got=$(printf '%b' "$in" | $* 2>"$err"); local rc=$?
  if [ "$rc" = 0 ] && [ "$got" = "$want" ]; then ok; else ko "$name: rc=$rc got [$got] want [$want] $(cat "$err")"; fi
}
expect_err() { # name, expected rc, stderr regex, command
  local name=$1 want_rc=$2 re=$3; shift 3
  local out; out=$(printf '%b' "$in" | $* 2>"$err"); local rc=$?
  if [ "$rc" = "$want_rc" ] && grep -Eq -e "$re" "$err"; then ok; else ko "$name: rc=$rc stderr [$(cat "$err")] want rc $want_rc /$re/"; fi
  last_out=$out
}
ones=$(printf '3F800000 %.0s' $(seq 32)); ones=${ones% }
codes=$(printf ' 78%.0s' $(seq 32))

# 32 x 1.0 -> amax 1, X = 2^(0-8): scale 0x77, each 1.0/2^-8 = 256 = E4M3 0x78
in="$ones\n"; expect_out quantize "77$codes" "$bin" quantize --format e4m3
in="0x${ones// / 0x}\n"; expect_out quantize-0x "77$codes" "$bin" quantize --format mxfp8_e4m3
in="$ones\n"; expect_out quantize-flags "77$codes 00" "$bin" quantize --format e4m3 --flags
in="77$codes\n"; expect_out dequantize "$ones" "$bin" dequantize --format e4m3
# E2M1 ties: 5.0 -> 4 (code 6) under rne, 6 (code 7) under rna; 0.25 -> 0, flags 03
in="40A00000\n3E800000\n"; expect_out cast-e2m1 "06 01
00 03" "$bin" cast --to e2m1 --flags
in="40A00000\n"; expect_out cast-rna "07" "$bin" cast --to e2m1 --rounding rna
in="40A00000\n"; expect_out cast-profile "07" "$bin" cast --to e2m1 --profile microxcaling
in="00\nFE\nFF\n"; expect_out cast-e8m0 "00400000
7F000000
7FC00000" "$bin" cast --from e8m0
in="3F80\n"; expect_out cast-bf16 "38" "$bin" cast --from bf16 --to e4m3
in="43F00000\n"; expect_out cast-ovf "7F" "$bin" cast --to e4m3 --overflow ovf
# SR, R = 1: 1.25 is half an E2M1 ulp above 1; r = 0 keeps 1 (code 2), r = 1 reaches 1.5 (code 3)
in="3FA00000\n"; expect_out cast-sr0 "02" "$bin" cast --to e2m1 --rounding sr --sr-bits 1 --random-bits 0
in="3FA00000\n"; expect_out cast-sr1 "03" "$bin" cast --to e2m1 --rounding sr --sr-bits 1 --random-bits 1
# the cast fields as the libraries answered (docs/profiles.md): onnx E8M0 round up of 2^-127,
# onnxruntime saturate=1 of -2^-127, onnxruntime E5M2 NaN, ml_dtypes astype of an FP64 near-tie
in="00400000\n"; expect_out cast-scale-bottom "01" "$bin" cast --to e8m0 --rounding rup --scale-bottom subnormal
in="80400000\n"; expect_out cast-scale-clamp "00" "$bin" cast --to e8m0 --scale-cast clamp
in="7FC00000\n"; expect_out cast-nan-ones "7F" "$bin" cast --to e5m2 --nan-code ones
in="3F67FFFFFFFFFFFF\n"; expect_out cast-wide-fp32 "02" "$bin" cast --from fp64 --to e4m3 --wide-input fp32
in=""; expect_out empty "" "$bin" quantize --format e4m3
in="# comment\n$ones\n"; expect_out comment "77$codes" "$bin" quantize --format e4m3

# errors: message names stdin:LINE, exit 2, earlier lines kept, nothing for the bad line
in="$ones\n${ones/3F800000 3F800000/3F800000 zz}\n$ones\n"
expect_err bad-hex 2 "^stdin:2: word 2 'zz' is not a bit pattern" "$bin" quantize --format e4m3
[ "$last_out" = "77$codes" ] && ok || ko "bad-hex: output before the error: [$last_out]"
in="3F800000 3F800000\n"; expect_err count 2 "^stdin:1: expected 32 hex words" "$bin" quantize --format e4m3
in="$ones 3F800000\n"; expect_err count-long 2 "^stdin:1: expected 32 hex words .* got 33" "$bin" quantize --format e4m3
in="1FFFFFFFF\n"; expect_err wide 2 "^stdin:1: '1FFFFFFFF' is not a fp32 bit pattern" "$bin" cast --to e4m3
in="100\n"; expect_err wide-code 2 "^stdin:1: '100' is not a e4m3 bit pattern" "$bin" cast --from e4m3
in="\n"; expect_err empty-line 2 "^stdin:1: empty line" "$bin" cast --to e4m3
in="77 78\n"; expect_err deq-count 2 "^stdin:1: expected 1 scale code and 32 element codes" "$bin" dequantize --format e4m3
in="100$codes\n"; expect_err deq-scale 2 "^stdin:1: word 1 '100' is not a scale code" "$bin" dequantize --format e4m3
in=""
expect_err unknown-format 2 "--format 'e9m9' is not one of: e4m3 e5m2" "$bin" quantize --format e9m9
expect_err unknown-profile 2 "unknown profile 'nope'" "$bin" quantize --format e4m3 --profile nope
expect_err unknown-rounding 2 "unknown rounding 'rnx'" "$bin" quantize --format e4m3 --rounding rnx
expect_err unknown-field 2 "unknown --inf-block value 'x'" "$bin" quantize --format e4m3 --inf-block x
expect_err conflict-rbits 2 "random-bits only goes with --rounding sr" "$bin" cast --to e4m3 --random-bits 1
expect_err sr-needs-bits 2 "needs --random-bits" "$bin" cast --to e4m3 --rounding sr
expect_err no-format 2 "quantize: needs --format" "$bin" quantize
expect_err not-elem 2 "not one" "$bin" quantize --format e8m0
expect_err cast-needs 2 "cast needs --to" "$bin" cast
expect_err unknown-cmd 2 "unknown command 'frob'" "$bin" frob
expect_err block 2 "--block wants an integer" "$bin" quantize --format e4m3 --block 0
# dot: 32 x 1.0*1.0 = 32 (0x42000000); with C_in 1.0 and BF16 out: 33 = 0x4204
ones38=$(printf ' 38%.0s' $(seq 32))
in="7F$ones38 7F$ones38\n"; expect_out dot "42000000 00" "$bin" dot --format-a e4m3 --flags
in="7F$ones38 7F$ones38 3F800000\n"; expect_out dot-cin "4204" "$bin" dot --format-a e4m3 --accum block-fp32 --out bf16
in="7F$ones38 7F$ones38 7F$ones38 7F$ones38\n"; expect_out dot-blocks "42800000" "$bin" dot --format-a e4m3 --blocks 2
in="7F$ones38 7F$ones38\n"; expect_err dot-count 2 "^stdin:1: expected 2 block pair" "$bin" dot --format-a e4m3 --blocks 2
in="7F$ones38 7F$ones38\n"; expect_err dot-accum 2 "unknown --accum 'fast'" "$bin" dot --format-a e4m3 --accum fast
in="7F$ones38 7F$ones38\n"; expect_err dot-sr 2 "rounding wants a deterministic mode" "$bin" dot --format-a e4m3 --rounding sr
# fused-group (tdot's hand-worked row 1): group 0 = 448*448 + 2^-18, group 1 = 448*-448 + 2^-18.
# --group 8 rounds 200704 + 2^-18 to 200704 first: 2^-18 = 0x36800000 (inexact); --group 16 and
# exact keep both 2^-18: 2^-17 = 0x37000000; BF16 accumulator: 0x3680
z6=$(printf ' 00%.0s' $(seq 6)); z22=$(printf ' 00%.0s' $(seq 22))
fa="7F 7E 01$z6 7E 01$z22"; fb="7F 7E 01$z6 FE 01$z22"
in="$fa $fb\n"; expect_out dot-fused8 "36800000 01" "$bin" dot --format-a e4m3 --accum fused-group --group 8 --flags
in="$fa $fb\n"; expect_out dot-fused16 "37000000 00" "$bin" dot --format-a e4m3 --accum fused-group --group 16 --flags
in="$fa $fb\n"; expect_out dot-fused-exact "37000000" "$bin" dot --format-a e4m3
in="$fa $fb\n"; expect_out dot-fused8-bf16 "3680" "$bin" dot --format-a e4m3 --accum fused-group --group 8 --output-format bf16
in="$fa $fb\n"; expect_err dot-fused-nogroup 2 "fused-group needs --group G" "$bin" dot --format-a e4m3 --accum fused-group

# gen / verify
t=$(mktemp -d)
$bin gen --op quantize --format e4m3 -n 50 --seed 7 -o "$t/a.mxv" && $bin gen --op quantize --format e4m3 -n 50 --seed 7 -o "$t/b.mxv"
cmp -s "$t/a.mxv" "$t/b.mxv" && ok || ko "gen: same command, different bytes"
$bin gen --op quantize --format e4m3 -n 50 --seed 8 -o "$t/c.mxv"
if cmp -s <(grep -v '^#' "$t/a.mxv" | tail -50) <(grep -v '^#' "$t/c.mxv" | tail -50); then ko "gen: seeds 7 and 8 give the same random cases"; else ok; fi
[ "$(grep -v '^#' "$t/a.mxv" | head -358)" = "$(grep -v '^#' "$t/c.mxv" | head -358)" ] && ok || ko "gen: structured cases depend on the seed"
# renamed options: the old spellings still work for one release, with a warning
in=""; expect_err deprecated-m 0 "warning: --m is deprecated, use --gemm-m" $bin gen --op gemm --format e4m3 --m 1 --n 1 --kdim 32 -o "$t/dep.mxv"
grep -q '^# gemm: m 1 n 1 kdim 32$' "$t/dep.mxv" && ok || ko "deprecated --m/--n/--kdim not applied"
in="77$codes\n"; expect_err deprecated-output 0 "warning: --output fp16 is read as --output-format fp16" $bin dequantize --format e4m3 --output fp16
[ "$last_out" = "$(printf '3C00 %.0s' $(seq 31))3C00" ] && ok || ko "deprecated --output fp16: [$last_out]"
grep -q '^# command: mxgold gen --op quantize --format e4m3 -n 50 --seed 7$' "$t/a.mxv" && ok || ko "gen: command header"
# the pipeline form reads stdin: a hand-written E2M1 cast file whose outputs were worked by
# hand (5.0 -> 4, code 06, inexact; 0.25 -> 0, underflow|inexact; 6.0 -> 07 exact)
hand='# mxv-version: 1\n# op: cast\n# elem: e2m1\n# cases: 3\n40A00000 06 01\n3E800000 00 03\n40C00000 07 00\n'
[ "$(printf '%b' "$hand" | $bin verify -)" = "3 passed, 0 failed" ] && ok || ko "verify - of a hand-derived file"
printf '%b' "${hand/40C00000 07/40C00000 06}" | $bin verify - > /dev/null; [ $? = 1 ] && ok || ko "verify - misses a wrong code"
# bare outputs against the vectors: the hand-derived ones pass, one flipped flag fails
printf '%b' "$hand" > "$t/hand.mxv"
printf '06 01\n00 03\n07 00\n' > "$t/hand.out"
[ "$($bin verify --vectors "$t/hand.mxv" --results "$t/hand.out")" = "3 passed, 0 failed" ] && ok || ko "verify --results hand-derived"
printf '06 01\n00 01\n07 00\n' > "$t/hand.bad"
$bin verify --vectors "$t/hand.mxv" --results "$t/hand.bad" > /dev/null; [ $? = 1 ] && ok || ko "verify --results misses a wrong flag"
# a wrong scale in case 2 of the results: exit 1, that case named, decoded
l2=$(( $(grep -c '^#' "$t/a.mxv") + 2 ))  # the line of case 2, after the header
sed "${l2}s/^\(\([0-9A-F]* \)\{32\}\)[0-9A-F][0-9A-F]/\1FE/" "$t/a.mxv" > "$t/bad.mxv"
out=$($bin verify --vectors "$t/a.mxv" --results "$t/bad.mxv"); rc=$?
[ $rc = 1 ] && echo "$out" | grep -q "^case 2 (.*bad.mxv:$l2): scale: observed FE" && echo "$out" | grep -q "^407 passed, 1 failed" \
  && ! echo "$out" | grep -q "^case [13-9]" && ok || ko "verify mismatch report: rc=$rc [$out]"
in=""; expect_err verify-empty 2 "^.*empty.mxv:1: empty file" "$bin" verify "$(: > "$t/empty.mxv"; echo "$t/empty.mxv")"
head -40 "$t/a.mxv" | sed '$s/ [0-9A-F]*$//' > "$t/trunc.mxv"
expect_err verify-fields 2 "trunc.mxv:40: expected 66 fields" "$bin" verify "$t/trunc.mxv"
expect_err gen-no-op 2 "gen needs --op" "$bin" gen --format e4m3
expect_err gen-packing 2 "packing fp4-lo-first does not fit e4m3 blocks" "$bin" gen --op quantize --format e4m3 --packing fp4-lo-first
expect_err gen-exh 2 "needs a 16-bit input" "$bin" gen --op cast --format e4m3 --exhaustive
$bin gen --op cast --format e2m1 -o /nonexistent/dir/x.mxv 2>/dev/null; [ $? = 1 ] && ok || ko "gen -o unwritable: exit 1"
# gemm FILE on a hand-made 1x1x1 case (block 1): 1.0 (E4M3 38) x 1.0 (E2M1 2) + C_in 1.0 = 2.0
printf '# mxv-version: 1\n# op: gemm\n# elem: e4m3\n# elem-b: e2m1\n# block: 1\n# gemm: m 1 n 1 kdim 1\n# cases: 1\n7F 38 7F 02 3F800000\n' > "$t/g1.mxv"
[ "$($bin gemm "$t/g1.mxv")" = "40000000 00" ] && ok || ko "gemm of a hand-made case"
rm -rf "$t"
$bin --help | grep -q "^Usage: mxgold" && ok || ko "--help"
$bin --version | grep -q "^mxgold [0-9]" && ok || ko "--version"
# a header, the 12 rows of formats.def, then the 2-level formats: mx9, mx6, mx4 and nvfp4
n_fmt=$(grep -c '^MX_FORMAT(' "$(dirname "$0")/../golden/include/mx/formats.def")
n_mxs=$(grep -c '^MX_MXS(' "$(dirname "$0")/../golden/include/mx/mxs.def")
[ "$($bin formats | wc -l)" = $((1 + n_fmt + n_mxs + 1)) ] && ok || ko "formats lists $n_fmt + $n_mxs + 1"
[ "$($bin formats | grep -c ' 2-level ')" = $((n_mxs + 1)) ] && ok || ko "formats: $n_mxs + 1 2-level rows"
# MXS: (8 + (k1/k2) d2) / k1 + m + 1 = (8 + 8) / 16 + m + 1: MX9 (m 7) 9, MX6 (m 4) 6, MX4 (m 2) 4,
# whatever --block; NVFP4: 4 + 8/16 and a 32-bit amax per tensor of N elements
[ "$($bin formats | awk '$1 == "mx9" { print $2, $4, $NF }')" = "bfp16 8 9" ] && ok || ko "formats: mx9 bfp16, 8 bits, 9 bits/elem"
[ "$($bin formats --block 8 | awk '$1 == "mx6" { print $2, $4, $NF }')" = "bfp13 5 6" ] && ok || ko "formats: mx6 bfp13, 5 bits, 6 bits/elem"
[ "$($bin formats | awk '$1 == "mx4" { print $2, $4, $11, $NF }')" = "bfp11 3 1.5 4" ] && ok || ko "formats: mx4 bfp11, 3 bits, max 1.5, 4 bits/elem"
[ "$($bin formats | awk '$1 == "mx9" { print $11 }')" = 1.984375 ] && ok || ko "formats: mx9 max 127/64"
[ "$($bin formats --scale-format e8m1 | awk '$1 == "nvfp4" { print $2, $4, $11, $NF }')" = "e2m1+ue4m3 4 6 4.5+32/N" ] && ok || ko "formats: nvfp4 4.5+32/N bits/elem"
# bits per element: 4 + 8/32, NVFP4 4 + 8/16 (UE4M3 stored in a byte), BFP16 8 + 8/8, E8M1 in 2 bytes
[ "$($bin formats | awk '$1 == "e2m1" { print $NF }')" = 4.25 ] && ok || ko "formats: e2m1 4.25 bits/elem"
[ "$($bin formats --block 16 --scale-format ue4m3 | awk '$1 == "e2m1" { print $NF }')" = 4.5 ] && ok || ko "formats: nvfp4 4.5 bits/elem"
[ "$($bin formats --block 8 | awk '$1 == "int8" { print $NF }')" = 9 ] && ok || ko "formats: bfp16 9 bits/elem"
[ "$($bin formats --scale-format e8m1 | awk '$1 == "e4m3" { print $NF }')" = 8.5 ] && ok || ko "formats: e8m1 scale 8.5 bits/elem"
n_prof=$(grep -c '^MX_PROFILE(' "$(dirname "$0")/../golden/include/mx/profiles.def")
[ "$($bin profiles | grep -c '^[a-z]')" = "$n_prof" ] && ok || ko "profiles lists every profiles.def row ($n_prof)"
# every command has its own --help (its options and no others) and a man page form
for c in quantize dequantize cast dot gemm gen verify nvfp4 formats profiles; do
  $bin $c --help | grep -q "^Usage: mxgold $c" && ok || ko "$c --help"
  $bin $c --help-man | grep -q '^\.TH MXGOLD-'"$c" && ok || ko "$c --help-man"
done
# nvfp4, worked out by hand (docs/semantics.md section 9): amax 7 (40E00000), S_enc =
# fl32(2688/7) = 384 (43C00000); k = fl32(384 * fl32(1/6)) = 64 exactly; S_dec_b = 7 * 64 = 448:
# scale 7E, exact.  rcp = fl32(1 / fl32(448 * fl32(1/384))) = 0.85714281; x * rcp: 6 -> 5.14 -> 6
# (07), 3 -> 2.57 -> 3 (05), -1.5 -> -1.29 -> -1.5 (0B), .25 -> .21 -> 0, .75 -> .64 -> .5 (01),
# 5 -> 4.29 -> 4 (06), -7 -> -5.9999995 -> -6 (0F); inexact (01).
in="40C00000 40400000 BFC00000 3E800000 3F400000 40A00000 C0E00000$(printf ' 00000000%.0s' $(seq 9))\n"
expect_out nvfp4-hand "40E00000 43C00000 7E 07 05 0B 00 01 06 0F 00 00 00 00 00 00 00 00 00 01" $bin nvfp4 --flags
$bin quantize --help | grep -q -- "--to" && ko "quantize --help lists --to" || ok
$bin cast --help | grep -q -- "--scale-rule" && ko "cast --help lists --scale-rule" || ok
echo "tcli: $pass passed, $fail failed"
[ "$fail" = 0 ]
