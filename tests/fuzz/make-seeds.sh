#!/usr/bin/env bash
# make-seeds.sh -- (re)make the fuzz seed corpora in tests/fuzz/corpus/ from mxgold's own output:
# small, valid inputs of every kind each harness reads.  Usage: make-seeds.sh BUILD_BIN_DIR
set -euo pipefail
bin=$1/mxgold
here=$(cd "$(dirname "$0")" && pwd)
c=$here/corpus
rm -rf "$c"; mkdir -p "$c/fuzz_mxv" "$c/fuzz_results" "$c/fuzz_cli"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# a vector file cut to its header and first N cases (the count adjusted)
trim() { # file n
  awk -v n="$2" '/^#/ { if ($0 ~ /^# cases: /) print "# cases: " n; else print; next } k < n { print; k++ }' "$1"
}
seed() { # harness name byte file
  { printf "\\x$(printf %02x "$3")"; cat "$4"; } > "$c/$1/$2"
}
i=0
for args in "--op quantize --format e4m3" "--op quantize --format e2m1 --packing fp4-j-j16" \
            "--op quantize --format e3m2 --packing fp6-3byte --rounding sr -n 2" \
            "--op cast --format e5m2 --input bf16" "--op decode --format e8m0" \
            "--op dequantize --format int8 --output-format fp16" \
            "--op dot --format e4m3 --format-b e2m1 --blocks 2 --accum tensor-core" \
            "--op gemm --format e2m3 --block 4 --gemm-m 2 --gemm-n 3 --gemm-k 8 --accum block-fp32" \
            "--op quantize --format int8 --input fp64 --scale-rule floor-log2f --profile pychop" \
            "--op nvfp4 --rows 2 --cols 16 --tile 2d --amax given --rounding sr" \
            "--op mxs --mxs-format mx6 --rounding rna"; do
  # shellcheck disable=SC2086
  $bin gen $args --quiet -o "$tmp/v.mxv"
  trim "$tmp/v.mxv" 2 > "$tmp/t.mxv"
  seed fuzz_mxv "v$i" 0 "$tmp/t.mxv"
  seed fuzz_mxv "c$i" 2 "$tmp/t.mxv"
  gzip -9nc "$tmp/t.mxv" > "$tmp/t.mxv.gz"
  seed fuzz_mxv "z$i" 1 "$tmp/t.mxv.gz"
  i=$((i + 1))
done
# results files for the eight vectors of fuzz_results (their full lines are valid results)
r=0
for args in "--op quantize --format e2m1 --packing fp4-lo-first --block 8" \
            "--op quantize --format e3m2 --packing fp6-3byte --block 8 --rounding sr" \
            "--op cast --format e4m3 --rounding rna --block 8" "--op decode --format e8m0 --block 8" \
            "--op dequantize --format int8 --rounding rtz --block 8" \
            "--op dot --format e5m2 --accum tensor-core --block 8" \
            "--op gemm --format e2m3 --accum block-fp32 --rounding rdn --block 4 --gemm-m 2 --gemm-n 2 --gemm-k 8" \
            "--op quantize --format e4m3 --block 8"; do
  # shellcheck disable=SC2086
  $bin gen $args --quiet -o "$tmp/r.mxv"
  awk '!/^#/ && n++ < 3' "$tmp/r.mxv" > "$tmp/r.txt"
  seed fuzz_results "r$r" "$r" "$tmp/r.txt"
  r=$((r + 1))
done
# stdin of each command line of fuzz_cli (the order of its table)
ones=$(printf '3F800000 %.0s' $(seq 32))
printf '%s\n%s\n' "$ones" "${ones//3F800000/7FC00000}" > "$tmp/0"
printf '3F80 4000 C040 0001\n' > "$tmp/1"
printf '0000000000000001 7FF0000000000000\n' > "$tmp/2"
printf '40C00000 3F800000 00000000\n' > "$tmp/3"
printf '7F 7C 01 02\n' > "$tmp/4"
printf '38 3F 01\n' > "$tmp/5"
printf '7C\nFF\n01\n' > "$tmp/6"
printf '3FA00000\n' > "$tmp/7"
printf '3FF8000000000000\n' > "$tmp/8"
printf '7F 38 38 7F 40 40 7F 38 38 7F 40 40 3F800000\n' > "$tmp/9"
printf '7F 1 2 3 4 7F 1 2 3 4\n' > "$tmp/10"
printf '7F 1F 7F 1F\n' > "$tmp/11"
for n in $(seq 0 11); do seed fuzz_cli "l$n" "$n" "$tmp/$n"; done
echo "make-seeds: $(find "$c" -type f | wc -l) seeds under $c"
