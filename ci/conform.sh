#!/usr/bin/env bash
# ci/conform.sh [--full] [runner options] -- the third-party conformance matrix: a venv with the
# pinned versions (python/mxgold/conform/requirements-light.txt, or -full.txt with torch,
# torchao and amd-quark), mxgold pip-installed into it, then python -m mxgold.conform on the
# committed suite's inputs and the seeded probe classes and random sweep.
# Writes build/conformance/{conformance.json,index.html,conformance.md}; with --full also the
# committed docs/conformance.md.  Exit status: the runner's (0: every profile reproduced).
set -euo pipefail
cd "$(dirname "$0")/.."
set_=light
if [ "${1:-}" = --full ]; then set_=full; shift; fi
bash ci/deps.sh
venv=build/conform-$set_
req=python/mxgold/conform/requirements-$set_.txt
if [ ! -x "$venv/bin/python" ] || ! cmp -s "$req" "$venv/requirements.txt"; then
  rm -rf "$venv"
  "${PYTHON:-python3}" -m venv "$venv"
  "$venv/bin/pip" install -q -r "$req"
  cp "$req" "$venv/requirements.txt"
fi
"$venv/bin/pip" install -q --no-deps --force-reinstall .
out=build/conformance
mkdir -p "$out"
rc=0
(cd build && CUDA_VISIBLE_DEVICES="" "conform-$set_/bin/python" -m mxgold.conform \
   $([ $set_ = light ] && echo --light) --vectors ../vectors \
   --json conformance/conformance.json --html conformance/index.html \
   --markdown conformance/conformance.md "$@") || rc=$?
if [ $set_ = full ] && [ $# = 0 ] && [ "$rc" != 2 ]; then
  cp "$out/conformance.md" docs/conformance.md
  echo "docs/conformance.md updated"
fi
echo "matrix: $out/conformance.md, $out/index.html, $out/conformance.json"
exit "$rc"
