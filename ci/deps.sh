#!/usr/bin/env bash
# ci/deps.sh -- install what mxgold needs from Debian packages, only what is missing (idempotent).
set -euo pipefail
# zlib: .gz vector files; clang + its runtime: the libFuzzer leg; valgrind: the valgrind leg;
# python3-dev and -venv: the Python package's leg (its own dependencies come from PyPI)
pkgs=(gcc g++ make cmake pkg-config libmpfr-dev libgmp-dev zlib1g-dev verilator yosys gzip
      clang libclang-rt-14-dev valgrind python3-dev python3-venv)
# MX_DEPS_MPI=1: also Open MPI, for the exhaustive sweep's MPI build only (cmake -DMX_MPI=ON,
# docs/kernels.md "The exhaustive sweep"); the default set leaves it out
if [ "${MX_DEPS_MPI:-0}" = 1 ]; then
  pkgs+=(openmpi-bin libopenmpi-dev)
fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "deps: all present (${pkgs[*]})"
  exit 0
fi
echo "deps: installing ${missing[*]}"
SUDO=
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
export DEBIAN_FRONTEND=noninteractive
# A fresh machine's package lists may be empty: update first.
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
