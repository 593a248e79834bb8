#!/usr/bin/env bash
# tvectors -- the committed suite: every file matches its MANIFEST sha256 and case count, and
# regenerates byte for byte from its MANIFEST command (only the '# generator:' provenance line
# may differ).  That its expected outputs are right is checked apart, against the independent
# model (tvecslow, test vectors-slow): verifying them with the code that wrote them proves nothing.
# Usage: tvectors.sh BUILD_BIN_DIR SOURCE_DIR
set -u
bin=$(cd "$1" && pwd) src=$2
cd "$src/vectors" || exit 1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
[ -s MANIFEST ] || { echo "tvectors: vectors/MANIFEST is missing or empty"; exit 1; }
while read -r sum cases path cmd; do
  if [ "$(sha256sum "$path" | cut -d' ' -f1)" != "$sum" ]; then
    echo "FAIL: $path: sha256 differs from MANIFEST"; fail=$((fail+1)); continue
  fi
  cat_=cat; [ "${path%.gz}" != "$path" ] && cat_="gzip -dc"
  got=$($cat_ "$path" | grep -m1 '^# cases: ' | cut -d' ' -f3)
  [ "$got" = "$cases" ] || { echo "FAIL: $path: $got cases, MANIFEST says $cases"; fail=$((fail+1)); continue; }
  # shellcheck disable=SC2086
  "$bin/mxgold" ${cmd#mxgold } --quiet -o "$tmp/new.mxv" || { echo "FAIL: $path: cannot regenerate"; fail=$((fail+1)); continue; }
  if ! diff <($cat_ "$path" | grep -v '^# generator: ') <(grep -v '^# generator: ' "$tmp/new.mxv") > "$tmp/diff"; then
    echo "FAIL: $path: regenerates differently:"; head -5 "$tmp/diff"; fail=$((fail+1)); continue
  fi
  pass=$((pass+1))
done < MANIFEST
echo "tvectors: $pass passed, $fail failed"
[ "$fail" = 0 ] && [ "$pass" -gt 0 ]
