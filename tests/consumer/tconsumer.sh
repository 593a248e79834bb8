#!/usr/bin/env bash
# tconsumer -- install the build into a temporary prefix, then build tests/consumer against it
# twice: with CMake's find_package(mxgold) (shared and static targets) and with pkg-config.
# Usage: tconsumer.sh BUILD_DIR CONSUMER_SOURCE_DIR
set -eu
build=$1 src=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" > "$tmp/install.log"
libdir=$(ls -d "$tmp"/prefix/lib* | head -1)
for f in include/mx.h include/mxvec.h include/mxk.h include/mx/version.h include/mx/policies.def \
         "${libdir#$tmp/prefix/}/cmake/mxgold/mxgoldConfig.cmake" "${libdir#$tmp/prefix/}/pkgconfig/mxgold.pc" \
         bin/mxgold share/man/man1/mxgold-gen.1; do
  [ -e "$tmp/prefix/$f" ] || { echo "tconsumer: $f was not installed"; exit 1; }
done
# find_package
cmake -S "$src" -B "$tmp/b" -DCMAKE_PREFIX_PATH="$tmp/prefix" > "$tmp/cfg.log" 2>&1 \
  || { cat "$tmp/cfg.log"; exit 1; }
cmake --build "$tmp/b" > "$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; exit 1; }
LD_LIBRARY_PATH=$libdir "$tmp/b/consumer"
"$tmp/b/consumer_static"
# pkg-config
export PKG_CONFIG_PATH=$libdir/pkgconfig
# shellcheck disable=SC2046
cc -std=c11 -o "$tmp/pc" "$src/consumer.c" $(pkg-config --cflags --libs mxgold-vec mxgold-mxk)
LD_LIBRARY_PATH=$libdir "$tmp/pc"
# the installed command runs, and its version is the project's
LD_LIBRARY_PATH=$libdir "$tmp/prefix/bin/mxgold" --version | head -1
echo "tconsumer: find_package (shared, static) and pkg-config consumers built and ran"
