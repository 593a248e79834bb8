#!/usr/bin/env bash
# tconsumer -- the installed tree as a consumer sees it.
#   tconsumer.sh install BUILD_DIR PREFIX    cmake --install, then check the files are there
#   tconsumer.sh cmake PREFIX SOURCE_DIR     build tests/consumer with find_package(mxgold)
#                                            (shared and static targets) and run it
#   tconsumer.sh pkgconfig PREFIX SOURCE_DIR compile it with pkg-config and run it
set -eu
mode=$1
case $mode in
  install)
    build=$2 prefix=$3
    rm -rf "$prefix"
    cmake --install "$build" --prefix "$prefix" > /dev/null
    libdir=$(ls -d "$prefix"/lib* | head -1)
    for f in include/mx.h include/mxvec.h include/mxk.h include/mx/version.h include/mx/ids.h \
             include/mx/policies.def "${libdir#"$prefix"/}/cmake/mxgold/mxgoldConfig.cmake" \
             "${libdir#"$prefix"/}/pkgconfig/mxgold.pc" "${libdir#"$prefix"/}/libmxgold.so.0" \
             "${libdir#"$prefix"/}/libmxvec.a" bin/mxgold share/man/man1/mxgold-gen.1 \
             share/mxgold/vectors/MANIFEST share/doc/mxgold/library.md; do
      [ -e "$prefix/$f" ] || { echo "tconsumer: $f was not installed"; exit 1; }
    done
    # only the public names are exported
    if nm -D --defined-only "$libdir/libmxgold.so" | awk '{print $3}' | grep -q '^mx__'; then
      echo "tconsumer: libmxgold.so exports internal mx__ symbols"; exit 1
    fi
    LD_LIBRARY_PATH=$libdir "$prefix/bin/mxgold" --version | head -1
    echo "tconsumer: installed under $prefix" ;;
  cmake)
    prefix=$2 src=$3 tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
    libdir=$(ls -d "$prefix"/lib* | head -1)
    cmake -S "$src" -B "$tmp" -DCMAKE_PREFIX_PATH="$prefix" > "$tmp.log" 2>&1 || { cat "$tmp.log"; exit 1; }
    cmake --build "$tmp" > "$tmp.log" 2>&1 || { cat "$tmp.log"; exit 1; }
    rm -f "$tmp.log"
    LD_LIBRARY_PATH=$libdir "$tmp/consumer"
    "$tmp/consumer_static" ;;
  pkgconfig)
    prefix=$2 src=$3 tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
    libdir=$(ls -d "$prefix"/lib* | head -1)
    export PKG_CONFIG_PATH=$libdir/pkgconfig
    # shellcheck disable=SC2046
    cc -std=c11 -o "$tmp/pc" "$src/consumer.c" $(pkg-config --cflags --libs mxgold-vec mxgold-mxk)
    LD_LIBRARY_PATH=$libdir "$tmp/pc" ;;
  *) echo "usage: tconsumer.sh install|cmake|pkgconfig ..."; exit 2 ;;
esac
