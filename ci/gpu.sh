#!/usr/bin/env bash
# ci/gpu.sh -- libmxk_cuda on a GPU in one command: build the CUDA parts (build-gpu/, Release,
# -Werror), run the gpu tests (tcuda: quantize/dequantize against libmxgold and the committed
# vectors; tcuda_fast: the quantize kernels' magic-add route on every FP32 input; tcuda_gemm: MX
# GEMM against mx_gemm where built) and bench-cuda, print a summary.
#   bash ci/gpu.sh              build here and run here (needs nvcc, a GPU, ci/deps.sh's packages)
#   bash ci/gpu.sh --bundle     build only, and copy the shared libraries the programs need
#                               (MPFR, GMP, zlib) into build-gpu/bundle: build-gpu/ can then be
#                               carried to a GPU machine that has none of them
#   bash ci/gpu.sh --run        run what build-gpu/ holds (a carried build), no compiler needed
# Options after the mode: --quick (10^5 random blocks per format instead of 10^6; bench at 8192).
# Exit: 0 all passed, 77 no GPU (nothing checked), else the first failure's status.
set -uo pipefail
cd "$(dirname "$0")/.."
mode=all quick=0
for a in "$@"; do
  case "$a" in
    --bundle) mode=bundle ;;
    --run) mode=run ;;
    --quick) quick=1 ;;
    -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "ci/gpu.sh: unknown argument '$a' (see --help)" >&2; exit 2 ;;
  esac
done
b=build-gpu
t0=$(date +%s)

if [ "$mode" != run ]; then
  [ "$mode" = bundle ] || bash ci/deps.sh || exit $?
  cmake -S . -B "$b" -DCMAKE_BUILD_TYPE=Release -DMX_WERROR=ON -DMX_CUDA=ON -DMX_SIM=OFF \
        -DMX_PYTHON=OFF >/dev/null || exit $?
  targets="tcuda tcuda_fast bench-cuda"
  grep -q '^tcuda_gemm:' "$b/Makefile" 2>/dev/null && targets="$targets tcuda_gemm"
  cmake --build "$b" -j"$(nproc 2>/dev/null || echo 2)" --target $targets || exit $?
  if [ "$mode" = bundle ]; then
    mkdir -p "$b/bundle"
    for p in "$b"/bin/tcuda* "$b"/bin/bench-cuda; do
      ldd "$p" | awk '/=> \// && /(mpfr|gmp|libz)/ {print $3}'
    done | sort -u | xargs -r cp -L -t "$b/bundle"
    echo "ci/gpu.sh: $b/ is ready to carry ($(ls "$b/bundle" | tr '\n' ' ')); run: bash ci/gpu.sh --run"
    exit 0
  fi
fi

[ -x "$b/bin/tcuda" ] || { echo "ci/gpu.sh: $b/bin/tcuda is missing: build first" >&2; exit 2; }
export LD_LIBRARY_PATH="$PWD/$b/bundle${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
blocks=1000000 size=16384
[ "$quick" = 1 ] && blocks=100000 size=8192
status=0 summary=""
run() { # name, command...
  local name=$1; shift
  local s0=$(date +%s) rc=0
  echo; echo "== $name"
  "$@" || rc=$?
  summary="$summary$(printf '%-12s %-8s %4d s' "$name" "$([ $rc = 0 ] && echo passed || { [ $rc = 77 ] && echo skipped || echo FAILED; })" $(( $(date +%s) - s0 )))\n"
  if [ $rc != 0 ] && [ $status = 0 ]; then status=$rc; fi
}
run tcuda "$b/bin/tcuda" "$blocks" vectors
run tcuda_fast "$b/bin/tcuda_fast"
[ -x "$b/bin/tcuda_gemm" ] && run tcuda_gemm "$b/bin/tcuda_gemm" 10
run bench-cuda "$b/bin/bench-cuda" "$size"
echo; echo "== summary ($(( $(date +%s) - t0 )) s)"; printf "$summary"
exit $status
