#!/usr/bin/env bash
# bench/area.sh -- Yosys 0.23 generic synthesis of both RTL units: cell counts, flip-flops, and a
# check that no latch is inferred.  Not a test (about 2 minutes on 2 cores); ends with key=value.
set -euo pipefail
rtl=$(cd "$(dirname "$0")/../rtl" && pwd)
command -v yosys >/dev/null || { echo "bench/area.sh: yosys is not installed (apt-get install yosys)"; exit 77; }
files() { sed -n "s/^$1: //p" "$rtl/files.txt"; } # the one list of each unit's files
quant=$(files mx_quantize) mac=$(files mx_mac)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for top in "mx_quantize:$quant" "mx_mac:$mac"; do
  name=${top%%:*} files=${top#*:}
  start=$(date +%s)
  (cd "$rtl" && yosys -q -p "read_verilog -sv -I. $files; synth -flatten -top $name; select -assert-none t:\$_DLATCH*; tee -o $tmp/$name.stat stat") > "$tmp/$name.log" 2>&1
  cells=$(awk '/Number of cells:/ {print $4; exit}' "$tmp/$name.stat")
  ffs=$(awk '/\$_.*DFF/ {s += $2} END {print s + 0}' "$tmp/$name.stat")
  printf '%-12s %8s generic cells, %6s flip-flops, no latches (%d s)\n' "$name" "$cells" "$ffs" $(( $(date +%s) - start ))
  echo "$name $cells $ffs" >> "$tmp/summary"
done
echo "key=value"
while read -r name cells ffs; do
  echo "area_${name}_cells=$cells"
  echo "area_${name}_ffs=$ffs"
done < "$tmp/summary"
