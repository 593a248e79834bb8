#!/usr/bin/env bash
# sim/coverage.sh -- build the coverage co-simulation (mxsim-cov), run random blocks through
# both units, and report line and toggle coverage (annotated sources in build/coverage/).
# Usage: sim/coverage.sh [BUILD_DIR] [BLOCKS]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build} n=${2:-20000}
cmake --build "$build" -j"$(nproc)" --target mxsim-cov > /dev/null
out=$build/coverage
rm -rf "$out"; mkdir -p "$out"
"$build/bin/mxsim-cov" --unit quantize --random "$n" --stalls 20 --coverage "$out/quantize.dat" --quiet
"$build/bin/mxsim-cov" --unit mac --random "$((n / 4))" --stalls 20 --coverage "$out/mac.dat" --quiet
verilator_coverage --write "$out/all.dat" "$out/quantize.dat" "$out/mac.dat"
verilator_coverage --annotate "$out/annotated" "$out/all.dat" > /dev/null
# points by kind: the 'page' field says v_line, v_branch or v_toggle
for kind in line branch toggle; do
  tr '\001\002' '|=' < "$out/all.dat" | awk -v k="v_$kind" '
    index($0, "page=" k) { n++; if ($NF + 0 > 0) c++ }
    END { if (n) printf "%-7s coverage: %d/%d points, %.1f%%\n", substr(k, 3), c, n, 100 * c / n }'
done
echo "annotated sources: $out/annotated (lines marked %00 were never hit)"
