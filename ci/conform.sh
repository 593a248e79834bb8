#!/usr/bin/env bash
# ci/conform.sh [--full] [runner options] -- the third-party conformance matrix.  The light set
# (python/mxgold/conform/requirements-light.txt) runs in one venv; --full adds the torch-based
# implementations (requirements-full.txt) in a second venv (amd-quark's onnx pin cannot share
# the first), and joins the two runs.  mxgold is pip-installed into each venv; the runner takes
# the committed suite's inputs and the seeded probe classes and random sweep.
# Writes build/conformance/{conformance.json,index.html,conformance.md}; a --full run with no
# runner options also writes the committed docs/conformance.md.
# Exit status: the runner's (0: every profile reproduced, documented exceptions aside).
set -euo pipefail
cd "$(dirname "$0")/.."
full=0
if [ "${1:-}" = --full ]; then full=1; shift; fi
bash ci/deps.sh

venv() {  # venv NAME REQUIREMENTS: (re)made when the pins change, mxgold reinstalled
  local v=build/conform-$1 req=python/mxgold/conform/$2
  if [ ! -x "$v/bin/python" ] || ! cmp -s "$req" "$v/requirements.txt"; then
    rm -rf "$v"
    "${PYTHON:-python3}" -m venv "$v"
    "$v/bin/pip" install -q -r "$req"
    cp "$req" "$v/requirements.txt"
  fi
  "$v/bin/pip" install -q --no-deps --force-reinstall .
}

out=build/conformance
mkdir -p "$out"
run() {  # run VENV JSON ARGS...: the runner in a venv, from build/ (no source tree on the path)
  local v=$1 j=$2; shift 2
  (cd build && CUDA_VISIBLE_DEVICES="" "conform-$v/bin/python" -m mxgold.conform \
     --vectors ../vectors --json "conformance/$j" "$@")
}
rc=0
venv light requirements-light.txt
run light light.json --light "$@" || rc=$?
if [ $full = 1 ]; then
  venv torch requirements-full.txt
  run torch torch.json --only torchao,quark,inc,transformers "$@" || { r=$?; [ $rc = 0 ] && rc=$r; }
  parts=(conformance/light.json conformance/torch.json)
else
  parts=(conformance/light.json)
fi
[ "$rc" = 2 ] && exit 2
(cd build && "conform-light/bin/python" -m mxgold.conform --merge "${parts[@]}" \
   --rtl ../sim/thirdparty/RESULTS.md --json conformance/conformance.json \
   --html conformance/index.html --markdown conformance/conformance.md) > /dev/null || { r=$?; [ $r = 2 ] && exit 2; }
if [ $full = 1 ] && [ $# = 0 ] && [ -s "$out/conformance.md" ]; then
  cp "$out/conformance.md" docs/conformance.md
  echo "docs/conformance.md updated"
fi
echo "matrix: $out/conformance.md, $out/index.html, $out/conformance.json"
exit "$rc"
