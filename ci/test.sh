#!/usr/bin/env bash
# ci/test.sh -- the test run, in legs: deps; the main build (-Werror) and every CTest test;
# the formal proofs' venv (ci/formal.sh; the proofs run in ctest, label formal); the RTL
# coverage floors (sim/coverage.sh);
# the exhaustive sweep's fixed shard (every kernel path x format x rounding x rule, issue 18);
# the unit and fuzz-replay suites again under AddressSanitizer + UndefinedBehaviorSanitizer;
# the CLI tests under valgrind; the Python package, pip-installed into a venv, under pytest; the
# light third-party implementations against their profiles (python -m mxgold.conform);
# libFuzzer on every harness for a bounded time (clang).
# Exit non-zero on any failure.  MX_FUZZ_SECONDS (default 45; the harnesses run side by side) sets
# the time per harness.
# MX_DEPS_MPI=1 also installs Open MPI (ci/deps.sh) and builds and tests the sweep under MPI.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
t0=$(date +%s)
leg() { echo; echo "== $* ($(( $(date +%s) - t0 )) s)"; }
# a leg's jobs in the background (bg, vbg; fbg and pipbg: process groups) do not outlive the script
bg= vbg= fbg= pipbg=
trap '[ -z "$bg" ] || kill "$bg" 2>/dev/null; [ -z "$vbg" ] || kill "$vbg" 2>/dev/null
      [ -z "$fbg" ] || kill -- -"$fbg" 2>/dev/null; [ -z "$pipbg" ] || kill -- -"$pipbg" 2>/dev/null' EXIT

bash ci/deps.sh

leg "build (RelWithDebInfo, -Wall -Wextra -Werror); beside it, the formal proofs' venv"
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMX_WERROR=ON -DMX_PYTHON=ON \
      -DMX_MPI="${MX_DEPS_MPI:-0}" >/dev/null
# The Yosys/SymbiYosys/Yices venv from PyPI (ci/formal.sh; the proofs are CTest label formal):
# its downloads wait on the network, and Yosys's WebAssembly compiles on first use, while the
# build's last minute is one long compile (mxk_avx512.c) on one core.
setsid bash ci/formal.sh --install-only > build/formal-venv.log 2>&1 &
fbg=$!
cmake --build build -j"$jobs"

leg "formal: the venv made beside the build"
rc=0; wait "$fbg" || rc=$?; fbg=
cat build/formal-venv.log
[ "$rc" = 0 ] || [ "$rc" = 77 ] || exit "$rc"

leg "ctest (every label but thirdparty, which runs in the Python leg's venv; the sweep shard next)"
(cd build && ctest -j"$jobs" -LE thirdparty -E '^sweep-shard$' --output-on-failure)

leg "RTL coverage: line and toggle floors (sim/coverage.sh, docs/rtl.md); beside it, the exhaustive sweep's CI shard"
# The shard (one unit in 1511 of every path x format x rounding x rule x X) is one process on one
# core, as is the coverage run after its build: side by side they fill both.
(cd build && exec ctest -R '^sweep-shard$' -V) > build/sweep-shard.log 2>&1 &
bg=$!
bash sim/coverage.sh build 5000
rc=0; wait "$bg" || rc=$?; bg=
echo "-- the sweep's CI shard (exit $rc)"
grep -E '^[0-9]+: (sweep: (units|path|model)|MISMATCH|sweep: INTERNAL)|Failed|Passed' build/sweep-shard.log || true
[ "$rc" = 0 ] || { tail -40 build/sweep-shard.log; exit "$rc"; }

leg "ASan + UBSan build: unit and fuzz-replay suites; the Python package's venv made beside it and the next leg"
# The Python leg's venv and pip install run beside the ASan and valgrind legs: the package's build
# is mostly one compile (of mxk_avx512.c, about 70 s) and its downloads wait on the network, while
# the ASan build and tests leave a core idle a third of their time.  Begun with the valgrind leg
# instead, the install outlasted it by 35 s (AMD EPYC, 2 cores, 2026-12-07).
rm -rf build/pyvenv
# Its own process group (setsid), so that the trap stops pip and the build under it too.
setsid bash -c 'set -e; "${PYTHON:-python3}" -m venv build/pyvenv
  build/pyvenv/bin/pip install -q ".[test]" -r python/mxgold/conform/requirements-light.txt
  # real model weights shipped inside a wheel, for the planning example (python/tests/test_plan.py)
  build/pyvenv/bin/pip install -q --no-deps wordllama==0.4.0.post1' > build/pip.log 2>&1 &
pipbg=$!
# -O1, as AddressSanitizer's documentation advises: at -O0 the suites took 309 s of CPU, at -O1
# 106 (AMD EPYC family 25, 2 cores); mxk_avx512.c stays at -O0 (kernels/cpu/CMakeLists.txt)
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG="-g -O1" -DMX_SANITIZE=ON -DMX_SIM=OFF \
      -DMX_BUILD_BENCH=OFF -DMX_WERROR=ON >/dev/null
cmake --build build-asan -j"$jobs"
(cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
   ctest -j"$jobs" -L 'unit|fuzz' --output-on-failure)

leg "valgrind: the CLI tests and the verifier's (MPFR's way: --error-exitcode), side by side; then pytest beside the verifier"
vg="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite"
# each on one core: the verifier's (about 65 s) beside the CLI tests' (about 25 s)
$vg build/bin/tverify > /dev/null 2> build/tverify-valgrind.log &
vbg=$!
rc=0; MX_RUN="$vg" bash tests/tcli.sh build/bin || rc=$?
echo "tcli.sh under valgrind: exit $rc"
[ "$rc" = 0 ] || exit "$rc"
# The Python package: pip install '.[test]' into build/pyvenv, begun beside the ASan leg, then
# pytest (docs/python.md), begun on the core the CLI tests leave to the verifier.  test_agreement
# runs at an eighth of its 10^5 blocks per combination (docs/python.md: the full run).  pytest is
# one process, so the third-party conformance (the next leg, in the same venv, its ctest on every
# core) runs beside it too: three processes on two cores took 182 s where the two legs one after
# the other took 284 (2026-12-07: pytest 118 s alone, the third-party ctest 39 s alone).  pytest's
# output follows that leg's.
rc=0; wait "$pipbg" || rc=$?; pipbg=
echo "-- pip install '.[test]' into build/pyvenv (exit $rc)"
cat build/pip.log
[ "$rc" = 0 ] || exit "$rc"
(cd build && MXGOLD_TEST_SCALE="${MXGOLD_TEST_SCALE:-8}" MXGOLD_CLI="$PWD/bin/mxgold" exec pyvenv/bin/python -m pytest -q -rs \
   -p no:cacheprovider ../python/tests) > build/pytest.log 2>&1 &
bg=$!
vrc=0; wait "$vbg" || vrc=$?; vbg=
echo "tverify under valgrind: exit $vrc"
[ "$vrc" = 0 ] || { cat build/tverify-valgrind.log; exit "$vrc"; }

leg "third-party conformance: the light adapters and their sabotage runs (ctest -L thirdparty), beside pytest (its output after this leg's)"
rc=0; (cd build && ctest -j"$jobs" -L thirdparty --output-on-failure) > build/thirdparty.log 2>&1 || rc=$?
prc=0; wait "$bg" || prc=$?; bg=
echo "-- pytest (exit $prc)"; cat build/pytest.log
echo "-- ctest -L thirdparty (exit $rc)"; cat build/thirdparty.log
[ "$prc" = 0 ] || exit "$prc"
[ "$rc" = 0 ] || exit "$rc"

# The three harnesses side by side, 45 s each: on 2 cores each gets about the 30 s of a core it
# had when two ran and the third waited, and no core idles while the third runs alone.
fz=${MX_FUZZ_SECONDS:-45}
leg "fuzz: libFuzzer + ASan + UBSan, every harness at once, $fz s each (clang)"
if command -v clang >/dev/null; then
  CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMX_FUZZ=ON -DMX_SANITIZE=ON \
        -DMX_SIM=OFF -DMX_BUILD_BENCH=OFF -DMX_WERROR=ON -DMX_FUZZ_SECONDS="$fz" >/dev/null
  # the harnesses and what they link only (the whole tree took some 200 s of this leg on 2 cores)
  cmake --build build-fuzz -j"$jobs" --target fuzz-harnesses
  rc=0
  (cd build-fuzz && ctest -j"$(( jobs > 3 ? jobs : 3 ))" -L fuzz -V > fuzz.log 2>&1) || rc=$?
  grep -E '^[0-9]+: (Done|stat::number_of_executed_units|coverage|FOUND)|Test +#' build-fuzz/fuzz.log || true
  if [ "$rc" != 0 ]; then tail -60 build-fuzz/fuzz.log; exit "$rc"; fi
else
  echo "clang is not installed: the timed fuzz leg is skipped (the replays above ran)"
fi
leg "all legs passed"
