#!/bin/sh
# run.sh -- co-simulate pncel/ocp_mx_alu's mxint8_dot_product and mxint8_broadcast against libmxgold.
#   run.sh [--src PATH] [--build DIR] [--keep] [harness options: --unit dot|broadcast|all
#          --model ocp|rtl --rounding R --random N --seed S --errors N --quiet]
# The upstream checkout comes from --src or MXG_RTL_OCP_MX_ALU; the mxgold build tree from --build,
# MXG_BUILD or ./build of this repository.  Exit: 0 every case matched or is a documented
# deviation, 1 a mismatch, 2 bad usage or not the expected design, 77 no checkout or no Verilator.
# SPDX-License-Identifier: MIT
set -u
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
src=${MXG_RTL_OCP_MX_ALU:-}
build=${MXG_BUILD:-$repo/build}
keep=0
tested=8d0740b5d467869429faf15de4fdd737b3994b1c

usage() {
  echo "usage: run.sh [--src PATH] [--build DIR] [--keep] [--unit dot|broadcast|all] [--model ocp|rtl] [--rounding R] [--random N] [--seed S] [--errors N] [--quiet]"
  echo "  PATH: a checkout of https://github.com/pncel/ocp_mx_alu (or set MXG_RTL_OCP_MX_ALU)"
  echo "  DIR:  the mxgold build tree with lib/libmxgold.a (default \$MXG_BUILD, then $repo/build)"
}

while [ $# -gt 0 ]; do
  case $1 in
    --src) [ $# -ge 2 ] || { echo "run.sh: --src: expected a path" >&2; exit 2; }; src=$2; shift 2 ;;
    --build) [ $# -ge 2 ] || { echo "run.sh: --build: expected a directory" >&2; exit 2; }; build=$(cd "$2" 2>/dev/null && pwd || echo "$2"); shift 2 ;; # absolute: the model builds elsewhere
    --keep) keep=1; shift ;;
    --help|-h) usage; exit 0 ;;
    --quiet) break ;;
    --unit|--model|--rounding|--random|--seed|--errors) break ;;
    *) echo "run.sh: unknown option '$1'" >&2; usage >&2; exit 2 ;;
  esac
done

if [ -z "$src" ]; then
  echo "run.sh: MXG_RTL_OCP_MX_ALU is not set (a checkout of https://github.com/pncel/ocp_mx_alu): skipped"
  exit 77
fi
if [ ! -d "$src" ]; then
  echo "run.sh: $src: no such directory: skipped"
  exit 77
fi
v=$src/src/v
for f in mxint8_dot_product.v mxint8_broadcast.v scalar_includes.v mxint8_includes.v mx_general_includes.v; do
  if [ ! -f "$v/$f" ]; then
    echo "run.sh: $src: not pncel/ocp_mx_alu (no src/v/$f)" >&2
    exit 2
  fi
done
for m in mxint8_dot_product mxint8_broadcast; do
  if ! grep -q "^module $m" "$v/$m.v"; then
    echo "run.sh: $v/$m.v: no 'module $m'" >&2
    exit 2
  fi
done
if ! command -v verilator >/dev/null 2>&1; then
  echo "run.sh: verilator not found: skipped"
  exit 77
fi
if [ ! -f "$build/lib/libmxgold.a" ] || [ ! -f "$build/include/mx/version.h" ]; then
  echo "run.sh: $build: no lib/libmxgold.a (build mxgold first, or pass --build DIR)" >&2
  exit 2
fi
commit=$(git -C "$src" rev-parse HEAD 2>/dev/null || echo unknown)
echo "upstream: $src (commit $commit)"
[ "$commit" = "$tested" ] || echo "note: README.md records the results of commit $tested"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ocp-mx-alu.XXXXXX") || exit 2
if [ $keep = 0 ]; then trap 'rm -rf "$tmp"' EXIT; else echo "build directory: $tmp"; fi

cc=${CC:-cc}
if ! "$cc" -std=c11 -O2 -Wall -Wextra -Werror -I"$repo/golden/include" -I"$repo/golden/vec/include" -I"$build/include" \
     -I"$here" -c "$here/harness.c" -o "$tmp/harness.o"; then
  echo "run.sh: harness.c did not compile" >&2
  exit 2
fi
# The upstream Verilog is not lint-clean (widths, unused bits): lint warnings are not ours to fix.
if ! verilator --cc --exe --build -j 1 -Wno-fatal -Wno-lint -Wno-style \
     --top-module ocp_wrap -I"$v" "$here/ocp_wrap.sv" "$v/mxint8_dot_product.v" "$v/mxint8_broadcast.v" \
     "$here/shim.cpp" "$tmp/harness.o" "$build/lib/libmxgold.a" \
     -CFLAGS "-I$here -O1" -LDFLAGS "-lmpfr -lgmp -lm" \
     --Mdir "$tmp/obj" -o ocp_alu >"$tmp/verilate.log" 2>&1; then
  cat "$tmp/verilate.log" >&2
  echo "run.sh: verilating the upstream units failed" >&2
  exit 2
fi
"$tmp/obj/ocp_alu" --repro "$here/repro/dot.txt" --repro-bc "$here/repro/broadcast.txt" "$@"
