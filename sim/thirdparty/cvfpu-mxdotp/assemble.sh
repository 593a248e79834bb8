#!/bin/sh
# assemble.sh -- build the MXG_RTL_CVFPU source directory from git trees of the upstream projects
# (nothing is downloaded; the trees are yours: clones, or `fetch` mirrors).  The layout is the one
# run.sh expects: DEST/src/{fpnew_*.sv,lfsr_sr.sv,mxdotp/*} and DEST/src/common_cells/{src,include}.
# It then prints the SHA-256 of every file next to the set this adapter was run against
# (README.md), so you see at once whether your set is that one.
# SPDX-License-Identifier: MIT
set -eu
usage() {
  cat <<USAGE
usage: assemble.sh --cvfpu GITDIR[@COMMIT] --common-cells GITDIR[@COMMIT]
                   [--classifier GITDIR@COMMIT] DEST
  --cvfpu         pulp-platform/cvfpu (git dir or work tree); default commit 12ad208cb4cf
  --common-cells  pulp-platform/common_cells; default commit HEAD
  --classifier    take src/fpnew_classifier.sv from another tree (the run in README.md used
                  gamzeisl/cvfpu@446cd5a0d9a7, the MX-parameterised classifier)
USAGE
}
cv= cc= cl= dest=
while [ $# -gt 0 ]; do
  case $1 in
    --cvfpu) cv=$2; shift 2 ;;
    --common-cells) cc=$2; shift 2 ;;
    --classifier) cl=$2; shift 2 ;;
    --help|-h) usage; exit 0 ;;
    -*) echo "assemble.sh: unknown option '$1'" >&2; usage >&2; exit 2 ;;
    *) dest=$1; shift ;;
  esac
done
[ -n "$cv" ] && [ -n "$cc" ] && [ -n "$dest" ] || { usage >&2; exit 2; }
split() { case $1 in *@*) echo "${1%@*} ${1##*@}" ;; *) echo "$1 $2" ;; esac; }
set -- $(split "$cv" 12ad208cb4cf0c77cf8fd7f0ccc249d3630cf34e); cvdir=$1 cvrev=$2
set -- $(split "$cc" HEAD); ccdir=$1 ccrev=$2
show() { git -C "$1" show "$2:$3" 2>/dev/null || git --git-dir="$1" show "$2:$3"; }
mkdir -p "$dest/src/mxdotp" "$dest/src/common_cells/src" "$dest/src/common_cells/include/common_cells"
for f in src/fpnew_pkg.sv src/fpnew_classifier.sv src/fpnew_rounding.sv src/lfsr_sr.sv \
         src/fpnew_mxdotp_multi.sv src/mxdotp/fpnew_mxdotp_multi_pkg.sv \
         src/mxdotp/fpnew_mxdotp_multi_modules.sv; do
  show "$cvdir" "$cvrev" "$f" > "$dest/$f" || { echo "assemble.sh: $f not in $cvdir@$cvrev" >&2; exit 2; }
done
if [ -n "$cl" ]; then
  set -- $(split "$cl" HEAD)
  show "$1" "$2" src/fpnew_classifier.sv > "$dest/src/fpnew_classifier.sv"
fi
for f in src/cc_pkg.sv src/cc_lzc.sv include/common_cells/registers.svh include/common_cells/assertions.svh; do
  show "$ccdir" "$ccrev" "$f" > "$dest/src/common_cells/$f" || { echo "assemble.sh: $f not in $ccdir@$ccrev" >&2; exit 2; }
done
# the set of README.md "Source set" (sha256, path)
cat > "$dest/expected.sha256" <<'SUMS'
adf14452b649a978d7161360e5c16a37dc24610a64067c0d32d7ccd08a91aab6  src/fpnew_pkg.sv
781ca9b90dbf0861670de487eff1e8d85c0af9895cabc11aedeeae97a70eda92  src/fpnew_classifier.sv
b7ca1dcbe08ccd4eb0da15c4d514f1c23cc35be98d0363e832d518ebf4b3c543  src/fpnew_rounding.sv
1c5838704de774cbaae271cc12d1036c246e4cd2d7a3ac60a6de2fd7da3c1287  src/lfsr_sr.sv
48bebfdf833800d2b9e2eed94637eec7147c071ab232aed27b739733b58b8a49  src/fpnew_mxdotp_multi.sv
6bd390ad8b507d3d078a2e90100222c8991da5d1e1c7504e99f450fc0e1255af  src/mxdotp/fpnew_mxdotp_multi_pkg.sv
c1238bf24f07f7f5bd89474574fff2ddaa5f9673a92c87bbe2c800481c0a86d5  src/mxdotp/fpnew_mxdotp_multi_modules.sv
SUMS
(cd "$dest" && sha256sum -c expected.sha256) || echo "assemble.sh: the set differs from the one in README.md (results may differ)"
echo "assemble.sh: $dest ready: MXG_RTL_CVFPU=$dest sim/thirdparty/cvfpu-mxdotp/run.sh"
