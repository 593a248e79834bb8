#!/bin/sh
# run.sh -- co-simulate ebby-s/MX-for-FPGA's conv_bf16tomxfp and dot_fp against libmxgold.
#
#   MXG_RTL_MX_FOR_FPGA=/path/to/MX-for-FPGA sim/thirdparty/mx-for-fpga/run.sh [options]
#   options: --src PATH (instead of the variable)  --build DIR (mxgold's build tree, default
#            ./build)  --random N (random blocks per unit, default 100000)  --seed S  --keep
# Exit: 0 every case matches or is a documented deviation; 1 a mismatch; 2 bad usage, or the
# path is not the expected design; 77 the upstream checkout or Verilator is absent (a skip).
# SPDX-License-Identifier: MIT
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
src=${MXG_RTL_MX_FOR_FPGA:-}
build=$root/build
random=100000
seed=1
keep=0

usage() {
  sed -n '2,8s/^# \{0,1\}//p' "$0"
}
while [ $# -gt 0 ]; do
  case $1 in
  --src) [ $# -ge 2 ] || { usage >&2; exit 2; }; src=$2; shift 2 ;;
  --build) [ $# -ge 2 ] || { usage >&2; exit 2; }; build=$(cd "$2" 2>/dev/null && pwd || echo "$2"); shift 2 ;; # absolute: the model builds elsewhere
  --random) [ $# -ge 2 ] || { usage >&2; exit 2; }; random=$2; shift 2 ;;
  --seed) [ $# -ge 2 ] || { usage >&2; exit 2; }; seed=$2; shift 2 ;;
  --keep) keep=1; shift ;;
  --help|-h) usage; exit 0 ;;
  *) echo "run.sh: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
  esac
done
case $random$seed in *[!0-9]*|'') echo "run.sh: --random and --seed take decimal numbers" >&2; exit 2 ;; esac

if [ -z "$src" ]; then
  echo "run.sh: MXG_RTL_MX_FOR_FPGA is not set (the path of a checkout of" \
       "https://github.com/ebby-s/MX-for-FPGA): skipped"
  exit 77
fi
if [ ! -d "$src" ]; then
  echo "run.sh: $src does not exist: skipped"
  exit 77
fi
command -v verilator >/dev/null || { echo "run.sh: verilator not found: skipped"; exit 77; }

# The upstream files, in dependency order; each must exist and declare its module.
files="src/util/clz_int.sv src/util/unsigned_max.sv src/util/rnd/fp_rnd_rne.sv
src/util/arith/mul_int.sv src/util/arith/mul_fp.sv src/util/arith/vec_mul_fp.sv
src/util/arith/vec_sum_int.sv src/convert/conv_bf16tomxfp.sv src/dot/dot_fp.sv
src/util/rnd/fp_rnd_nan_rne.sv src/convert/conv_bf16tomxfp_spec.sv src/dot/dot_fp_spec.sv"
paths=
for f in $files; do
  m=$(basename "$f" .sv)
  if [ ! -f "$src/$f" ] || ! grep -q "^module $m\b" "$src/$f"; then
    echo "run.sh: $src is not the expected design: $f with module $m is missing" >&2
    exit 2
  fi
  paths="$paths $src/$f"
done
lib=$build/lib/libmxgold.a
if [ ! -f "$lib" ] || [ ! -f "$build/include/mx/version.h" ]; then
  echo "run.sh: $lib or $build/include/mx/version.h is missing: build mxgold first (--build DIR)" >&2
  exit 2
fi
commit=$(git -C "$src" rev-parse HEAD 2>/dev/null || echo "unknown (not a git checkout)")
echo "upstream: $src at $commit"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mxfpga.XXXXXX")
if [ "$keep" = 1 ]; then echo "build directory: $tmp"; else trap 'rm -rf "$tmp"' EXIT; fi

# The harness is C11 and must stay warning-free; the generated model is compiled at -O1 (build
# time).  -Wno-WIDTH: the upstream relies on SystemVerilog's width extension (its lint warnings
# are its own; the wrapper is -Wall clean).
cc -std=c11 -O2 -Wall -Wextra -Wmissing-prototypes -Wstrict-prototypes -Werror -I"$root/golden/include" -I"$root/golden/vec/include" -I"$build/include" -I"$here" \
   -c "$here/harness.c" -o "$tmp/harness.o"
# Libraries as files: Verilator links its -LDFLAGS before the objects, files in their order.
mpfr=$(cc -print-file-name=libmpfr.so) gmp=$(cc -print-file-name=libgmp.so)
t0=$(date +%s)
verilator --cc --exe --build -j 1 -Wno-fatal -Wno-WIDTH --top-module mxfpga_top \
  --Mdir "$tmp/obj" -o harness -CFLAGS "-O1 -I$here" \
  "$here/mxfpga_top.sv" $paths "$here/shim.cpp" "$tmp/harness.o" "$lib" "$mpfr" "$gmp" \
  > "$tmp/verilator.log" 2>&1 || { cat "$tmp/verilator.log" >&2; exit 2; }
echo "verilated and built in $(( $(date +%s) - t0 )) s"
h=$tmp/obj/harness

# Every run adds to the totals; a failing run does not stop the others.
np=0 nf=0 nd=0 bad=0
step() {
  echo "== harness $*"
  rc=0
  "$h" "$@" > "$tmp/out" || rc=$?
  cat "$tmp/out"
  [ "$rc" -le 1 ] || { echo "run.sh: harness $* exited $rc" >&2; exit 2; }
  set -- $(tail -n 1 "$tmp/out")
  np=$((np + $1)) nf=$((nf + $3)) nd=$((nd + $5))
  [ "$rc" = 0 ] || bad=1
}
for unit in conv dot; do
  step --unit "$unit" --directed --random "$random" --seed "$seed"
  step --unit "$unit" --format e4m3 --model nospec --directed --random "$random" --seed "$seed"
  step --unit "$unit" --format e5m2 --model nospec --directed --random "$random" --seed "$seed"
done
# The upstream's FP8 variants with special values: against OCP, deviations explained in-line.
for unit in conv-spec dot-spec; do
  step --unit "$unit" --directed --random "$random" --seed "$seed"
done
# The comparison must be able to fail: a deliberately wrong golden model must mismatch.
for unit in conv dot conv-spec dot-spec; do
  echo "== harness --unit $unit --sabotage (must report mismatches)"
  rc=0
  "$h" --unit "$unit" --directed --random 1000 --sabotage --errors 0 > "$tmp/out" || rc=$?
  tail -n 1 "$tmp/out"
  [ "$rc" = 1 ] || { echo "run.sh: the sabotaged model was not caught (exit $rc)"; bad=1; }
done
for r in "$here"/repro/*.txt; do
  echo "== harness --repro repro/$(basename "$r")"
  rc=0
  "$h" --repro "$r" > "$tmp/out" || rc=$?
  cat "$tmp/out"
  [ "$rc" -le 1 ] || { echo "run.sh: harness --repro $r exited $rc" >&2; exit 2; }
  [ "$rc" = 0 ] || bad=1
done
echo "$np passed, $nf failed, $nd documented deviations"
[ "$bad" = 0 ] && [ "$nf" = 0 ]
