#!/usr/bin/env bash
# ci/test.sh -- the test run: deps, configure, build, every CTest test, then the unit suite again
# under AddressSanitizer + UndefinedBehaviorSanitizer.  Exit non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)

bash ci/deps.sh

echo "== build (RelWithDebInfo, -Wall -Wextra -Werror)"
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$jobs"

echo "== ctest (all labels)"
(cd build && ctest -j"$jobs" --output-on-failure)

echo "== ASan + UBSan build, unit suite"
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DMX_SANITIZE=ON -DMX_SIM=OFF >/dev/null
cmake --build build-asan -j"$jobs"
(cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
   ctest -j"$jobs" -L unit --output-on-failure)
