#!/usr/bin/env bash
# bench/area.sh -- Yosys 0.23 generic synthesis of both RTL units: cell counts, flip-flops, and a
# check that no latch is inferred; each unit as built (all formats, run-time fmt_i) and as a
# single-format build of the same RTL (FMT_MASK with one bit set), and the ratio all-format /
# largest single-format.  Not a test: one synthesis takes 0.3 to 2.5 minutes, all 14 took
# 13 minutes of CPU (17 at load 2; one synthesis at a time).  Ends with key=value lines.
set -euo pipefail
usage() {
  cat <<EOF
Usage: bench/area.sh [--units LIST] [--formats LIST]
  --units LIST    comma-separated, of: mx_quantize mx_mac          (default: both)
  --formats LIST  the single-format builds, comma-separated names of mx_pkg.svh's element
                  formats (e4m3 e5m2 e2m3 e3m2 e2m1 int8), "all" (default) or "none"
The all-format build of each unit always runs; the ratio needs --formats all.
Exit 77 when yosys is missing, 2 on a bad option.
EOF
}
rtl=$(cd "$(dirname "$0")/../rtl" && pwd)
bad() { echo "bench/area.sh: $*" >&2; usage >&2; exit 2; }

# the element formats the RTL implements, from the generated package: name number
nfmt=$(sed -n 's/^localparam int MX_ELEM_COUNT = \([0-9]*\);.*/\1/p' "$rtl/mx_pkg.svh")
[ -n "$nfmt" ] || bad "$rtl/mx_pkg.svh: no MX_ELEM_COUNT"
fmts=$(sed -n 's/^localparam int MX_FMT_\([A-Z0-9]*\) = \([0-9]*\);.*/\1 \2/p' "$rtl/mx_pkg.svh" \
       | awk -v n="$nfmt" '$2 < n { print tolower($1), $2 }')

units="mx_quantize mx_mac" want=$(echo "$fmts" | cut -d' ' -f1 | tr '\n' ' ')
while [ $# -gt 0 ]; do
  case $1 in
    --help|-h) usage; exit 0 ;;
    --units) [ $# -ge 2 ] || bad "--units needs a list"; units=${2//,/ }; shift 2
      for u in $units; do case $u in mx_quantize|mx_mac) ;; *) bad "--units: '$u' is not mx_quantize or mx_mac" ;; esac; done ;;
    --formats) [ $# -ge 2 ] || bad "--formats needs a list"
      case $2 in all) ;; none) want= ;; *) want=${2//,/ }
        for f in $want; do echo "$fmts" | grep -q "^$f " || bad "--formats: '$f' is not one of: $(echo "$fmts" | cut -d' ' -f1 | tr '\n' ' ')"; done ;;
      esac; shift 2 ;;
    *) bad "unknown option '$1'" ;;
  esac
done
command -v yosys >/dev/null || { echo "bench/area.sh: yosys is not installed (apt-get install yosys)"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
files() { sed -n "s/^$1: //p" "$rtl/files.txt"; } # the one list of each unit's files

# synth NAME LABEL MASK: one synthesis; appends "NAME LABEL cells ffs" to the summary.
# -noshare: Yosys 0.23's resource sharing ran out of 24 GiB on mx_mac's two chained fused-group
# steps (its activation patterns multiply); on the unit before them it saved 354 of 56,804 cells
# (K = 4), so the counts stay comparable.
synth() {
  local name=$1 label=$2 mask=$3 start cells ffs
  start=$(date +%s)
  (cd "$rtl" && yosys -q -p "read_verilog -sv -I. $(files "$name"); chparam -set FMT_MASK $mask $name; synth -flatten -noshare -top $name; select -assert-none t:\$_DLATCH*; tee -o $tmp/$name-$label.stat stat") > "$tmp/$name-$label.log" 2>&1 \
    || { tail -20 "$tmp/$name-$label.log"; echo "bench/area.sh: synthesis of $name ($label) failed" >&2; exit 1; }
  cells=$(awk '/Number of cells:/ {print $4; exit}' "$tmp/$name-$label.stat")
  ffs=$(awk '/\$_.*DFF/ {s += $2} END {print s + 0}' "$tmp/$name-$label.stat")
  printf '%-12s %-5s %8s generic cells, %6s flip-flops, no latches (%d s)\n' "$name" "$label" "$cells" "$ffs" $(( $(date +%s) - start ))
  echo "$name $label $cells $ffs" >> "$tmp/summary"
}

for name in $units; do
  synth "$name" all $(( (1 << nfmt) - 1 ))
  for f in $want; do
    synth "$name" "$f" $(( 1 << $(echo "$fmts" | awk -v f="$f" '$1 == f { print $2 }') ))
  done
done

# ratio all-format / largest single-format, only when every single-format build ran
nwant=$(echo $want | wc -w)
for name in $units; do
  awk -v u="$name" -v n="$nwant" -v all="$nfmt" '$1 == u && $2 == "all" { a = $3 }
    $1 == u && $2 != "all" { k++; if ($3 > m) { m = $3; f = $2 } }
    END { if (n == all && k == all) printf "%-12s all / largest single (%s): %.2f\n", u, f, a / m }' "$tmp/summary"
done
echo "key=value"
while read -r name label cells ffs; do
  [ "$label" = all ] || continue
  echo "area_${name}_cells=$cells"
  echo "area_${name}_ffs=$ffs"
done < "$tmp/summary"
while read -r name label cells ffs; do
  [ "$label" != all ] || continue
  echo "area_${name}_${label}_cells=$cells"
  echo "area_${name}_${label}_ffs=$ffs"
done < "$tmp/summary"
for name in $units; do
  awk -v u="$name" -v n="$nwant" -v all="$nfmt" '$1 == u && $2 == "all" { a = $3 }
    $1 == u && $2 != "all" { k++; if ($3 > m) m = $3 }
    END { if (n == all && k == all) printf "area_%s_ratio=%.2f\n", u, a / m }' "$tmp/summary"
done
