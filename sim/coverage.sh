#!/usr/bin/env bash
# sim/coverage.sh -- build the coverage co-simulation (mxsim-cov), run random blocks through
# both units, report line, branch and toggle coverage (annotated sources in build/coverage/),
# and fail when line or toggle coverage falls below its floor (docs/rtl.md "Co-simulation").
# Usage: sim/coverage.sh [BUILD_DIR] [BLOCKS]
set -euo pipefail
usage() {
  cat <<EOF
Usage: sim/coverage.sh [BUILD_DIR] [BLOCKS]
  BUILD_DIR  the CMake build directory (default: build)
  BLOCKS     random quantize blocks; the MAC gets BLOCKS/4 random dots (default: 20000, >= 100)
Fails (exit 1) when line coverage is below MX_COV_LINE_FLOOR (default 93.0) or toggle coverage
below MX_COV_TOGGLE_FLOOR (default 88.5) percent; exit 2 on a bad argument.
EOF
}
case ${1:-} in -h|--help) usage; exit 0 ;; esac
[ $# -le 2 ] || { echo "sim/coverage.sh: at most two arguments" >&2; usage >&2; exit 2; }
cd "$(dirname "$0")/.."
build=${1:-build} n=${2:-20000}
line_floor=${MX_COV_LINE_FLOOR:-93.0} toggle_floor=${MX_COV_TOGGLE_FLOOR:-88.5}
[[ $n =~ ^[0-9]+$ ]] && [ "$n" -ge 100 ] || { echo "sim/coverage.sh: BLOCKS is a count >= 100, not '$n'" >&2; exit 2; }
for f in "$line_floor" "$toggle_floor"; do
  [[ $f =~ ^[0-9]+(\.[0-9]+)?$ ]] || { echo "sim/coverage.sh: a floor is a percentage, not '$f'" >&2; exit 2; }
done
[ -d "$build" ] || { echo "sim/coverage.sh: no build directory '$build'" >&2; exit 2; }
cmake --build "$build" -j"$(nproc)" --target mxsim-cov > /dev/null
out=$build/coverage
rm -rf "$out"; mkdir -p "$out"
"$build/bin/mxsim-cov" --unit quantize --random "$n" --stalls 20 --coverage "$out/quantize.dat" --quiet
"$build/bin/mxsim-cov" --unit mac --random "$((n / 4))" --stalls 20 --coverage "$out/mac.dat" --quiet
verilator_coverage --write "$out/all.dat" "$out/quantize.dat" "$out/mac.dat"
verilator_coverage --annotate "$out/annotated" "$out/all.dat" > /dev/null
# points by kind: the 'page' field says v_line, v_branch or v_toggle
fail=0
for kind in line branch toggle; do
  pct=$(tr '\001\002' '|=' < "$out/all.dat" | awk -v k="v_$kind" '
    index($0, "page=" k) { n++; if ($NF + 0 > 0) c++ }
    END { if (n) printf "%d/%d %.1f", c, n, 100 * c / n }')
  [ -n "$pct" ] || { echo "sim/coverage.sh: no $kind points in $out/all.dat" >&2; exit 1; }
  set -- $pct
  printf '%-7s coverage: %s points, %s%%\n' "$kind" "$1" "$2"
  floor=
  case $kind in line) floor=$line_floor ;; toggle) floor=$toggle_floor ;; esac
  if [ -n "$floor" ] && awk -v p="$2" -v f="$floor" 'BEGIN { exit !(p < f) }'; then
    echo "FAIL: $kind coverage $2% is below its floor $floor%"
    fail=1
  fi
done
echo "annotated sources: $out/annotated (lines marked %00 were never hit)"
exit $fail
