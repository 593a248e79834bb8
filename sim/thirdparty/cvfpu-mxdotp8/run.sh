#!/bin/sh
# run.sh -- co-simulate the 8-element build (VectorSize 8) of pulp-platform/cvfpu's MXDOTP unit
# (fpnew_mxdotp_multi) against libmxgold: single operations against `exact`, 32-element blocks
# (the accumulator fed back) against `fused-group`.  The upstream sources are never part of
# mxgold: point MXG_RTL_CVFPU8 (or --src) at a source set (see README.md for the commits and
# files.sha256).  Exit 77 when it is absent, 2 when it is not the expected design or on bad
# usage, 1 when a non-documented mismatch was found, 0 otherwise.
# SPDX-License-Identifier: MIT
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
src=${MXG_RTL_CVFPU8:-}
build=${MXG_BUILD:-$root/build}
keep=
pipe=0
args=
usage() {
  cat <<EOT
usage: run.sh [--src DIR] [--build DIR] [--keep DIR] [--pipe P] [-- harness options]
  --src DIR    the source set (default \$MXG_RTL_CVFPU8); it must hold src/fpnew_pkg.sv,
               src/mxdotp/*, src/common_cells/{src,include} (see README.md)
  --build DIR  mxgold's CMake build tree with lib/libmxgold.a (default \$MXG_BUILD or ./build)
  --keep DIR   build the model in DIR and reuse it when nothing changed (default: a temporary dir)
  --pipe P     pipeline registers, PipeConfig INSIDE (default 0: combinational, one eval per op)
Harness options after --: see '--help' of the harness; default: the hand-worked rows, the
directed operations, 200 random blocks per format/rounding/destination, every reproducer in repro/.
EOT
}
while [ $# -gt 0 ]; do
  case $1 in
    --src) [ $# -ge 2 ] || { usage >&2; exit 2; }; src=$2; shift 2 ;;
    --build) [ $# -ge 2 ] || { usage >&2; exit 2; }; build=$(cd "$2" 2>/dev/null && pwd || echo "$2"); shift 2 ;; # absolute: the model builds elsewhere
    --keep) [ $# -ge 2 ] || { usage >&2; exit 2; }; keep=$2; shift 2 ;;
    --pipe) [ $# -ge 2 ] || { usage >&2; exit 2; }; pipe=$2; shift 2 ;;
    --help|-h) usage; exit 0 ;;
    --) shift; args="$*"; break ;;
    *) echo "run.sh: unknown option '$1'" >&2; usage >&2; exit 2 ;;
  esac
done
case $pipe in [0-8]) ;; *) echo "run.sh: --pipe expects 0..8, got '$pipe'" >&2; exit 2 ;; esac

if [ -z "$src" ]; then
  echo "run.sh: MXG_RTL_CVFPU8 is not set (and no --src): skipping (see README.md)"; exit 77
fi
if [ ! -d "$src" ]; then
  echo "run.sh: $src: no such directory: skipping"; exit 77
fi
command -v verilator >/dev/null 2>&1 || { echo "run.sh: verilator not found: skipping"; exit 77; }
lib=$build/lib/libmxgold.a
[ -f "$lib" ] || { echo "run.sh: $lib not found: build mxgold first (cmake --build build --target mxgold_static): skipping"; exit 77; }

S=$src/src
files="$S/fpnew_pkg.sv $S/common_cells/src/cc_pkg.sv $S/mxdotp/fpnew_mxdotp_multi_pkg.sv
  $S/fpnew_classifier.sv $S/fpnew_rounding.sv $S/lfsr_sr.sv $S/common_cells/src/cc_lzc.sv
  $S/common_cells/src/deprecated/lzc.sv $S/mxdotp/fpnew_mxdotp_multi_modules.sv
  $S/fpnew_mxdotp_multi.sv"
for f in $files $S/common_cells/include/common_cells/registers.svh; do
  [ -f "$f" ] || { echo "run.sh: $f missing: not the expected cvfpu MXDOTP source set" >&2; exit 2; }
done
# the design this adapter was written for: VectorSize a module parameter (FP6VectorSize and
# FP4VectorSize derived from it), the MX classifier, MXDOTPF
grep -q 'parameter int unsigned *VectorSize *=' "$S/fpnew_mxdotp_multi.sv" &&
  grep -q 'FP6_VECTOR_SIZE' "$S/fpnew_mxdotp_multi.sv" &&
  grep -q 'parameter int unsigned *MX *=' "$S/fpnew_classifier.sv" &&
  grep -q 'MXDOTPF' "$S/fpnew_pkg.sv" ||
  { echo "run.sh: $src: not the expected design (fpnew_mxdotp_multi with a VectorSize parameter, MX classifier; see README.md)" >&2; exit 2; }

if [ -n "$keep" ]; then obj=$keep; mkdir -p "$obj" || exit 2
else obj=$(mktemp -d "${TMPDIR:-/tmp}/mxg-cvfpu8.XXXXXX") || exit 2; trap 'rm -rf "$obj"' EXIT INT TERM
fi
stamp=$(cat $files "$here/mxg_cvfpu8_wrap.sv" "$here/shim.cpp" "$here/shim.h" "$here/harness.c" "$here/../cvfpu-mxdotp/common.h" | cksum)
stamp="$stamp pipe=$pipe lib=$(cksum < "$lib")"
bin=$obj/Vmxg_cvfpu8_wrap
if [ ! -x "$bin" ] || [ "$(cat "$obj/stamp" 2>/dev/null)" != "$stamp" ]; then
  echo "run.sh: building the model in $obj"
  rm -f "$bin" "$obj/stamp" # harness.o is not a make dependency of the Verilator build
  cc -std=c11 -O2 -Wall -Wextra -Werror -I"$here" -I"$root/golden/include" -I"$root/golden/vec/include" -I"$build/include" \
     -c "$here/harness.c" -o "$obj/harness.o" || exit 2
  # -Wno-BLKANDNBLK: fpnew's pipeline arrays mix the stage-0 assign with register writes; only
  # needed with --pipe > 0 (Verilator 5.006 rejects it otherwise)
  # shellcheck disable=SC2086
  verilator --cc --build --exe -j 1 -O3 --top-module mxg_cvfpu8_wrap --Mdir "$obj" \
     -Wno-fatal -Wno-lint -Wno-style -Wno-UNOPTFLAT -Wno-BLKANDNBLK \
     -GPIPE="$pipe" -GPIPE_CFG=2 -I"$S/common_cells/include" -CFLAGS "-O1" \
     $files "$here/mxg_cvfpu8_wrap.sv" "$here/shim.cpp" \
     -LDFLAGS "$obj/harness.o $lib -lmpfr -lgmp" -o Vmxg_cvfpu8_wrap > "$obj/build.log" 2>&1 ||
     { tail -30 "$obj/build.log" >&2; echo "run.sh: verilator build failed" >&2; exit 2; }
  echo "$stamp" > "$obj/stamp"
fi
repros=
for r in "$here"/repro/*.txt; do [ -f "$r" ] && repros="$repros --repro $r"; done
[ -n "$args" ] || args="--blocks 200"
rc=0
# shellcheck disable=SC2086
"$bin" --pipe "$pipe" $repros $args || rc=$?
[ "$rc" = 0 ] || exit "$rc"
# the sabotage run: the same blocks checked against `exact` instead of `fused-group` must fail
echo "== sabotage: blocks against exact (must report mismatches)"
sab=0
"$bin" --pipe "$pipe" --sabotage --formats e4m3 --roundings rne --dst fp32 --no-directed --blocks 200 \
  --max-print 0 > "$obj/sabotage.log" 2>&1 || sab=$?
tail -1 "$obj/sabotage.log"
[ "$sab" = 1 ] || { echo "run.sh: the sabotaged check was not caught (exit $sab)"; exit 1; }
exit 0
