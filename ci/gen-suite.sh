#!/usr/bin/env bash
# ci/gen-suite.sh -- (re)generate the committed conformance suite under vectors/ and its MANIFEST.
# Usage: ci/gen-suite.sh [BUILD_BIN_DIR [OUT_DIR]]   (defaults: build/bin, vectors)
# MANIFEST lines: sha256  cases  path  command   (the command is what regenerates the file)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/bin}
out=${2:-vectors}
mkdir -p "$out"
rm -rf "$out/ocp" "$out/profiles"
manifest=$(mktemp)
fmts="e4m3 e5m2 e2m3 e3m2 e2m1 int8"
rnds="rne rna rnz rhu rhd rtz rup rdn rto"

cmds=()
for f in $fmts; do
  for r in $rnds; do
    cmds+=("ocp/quantize/$f-$r.mxv|gen --op quantize --format $f --rounding $r --level 1 --seed 1")
    cmds+=("ocp/cast/$f-$r.mxv|gen --op cast --format $f --rounding $r --level 1 --seed 1")
    cmds+=("ocp/dequantize/$f-$r.mxv|gen --op dequantize --format $f --rounding $r --level 1 --seed 1")
  done
  cmds+=("ocp/decode/$f.mxv|gen --op decode --format $f")
done
cmds+=("ocp/decode/e8m0.mxv|gen --op decode --format e8m0")
cmds+=("ocp/quantize/e2m1-rne-fp4-lo-first.mxv|gen --op quantize --format e2m1 --packing fp4-lo-first --level 1 --seed 1")
cmds+=("ocp/quantize/e2m1-rne-fp4-j-j16.mxv|gen --op quantize --format e2m1 --packing fp4-j-j16 --level 1 --seed 1")
cmds+=("ocp/quantize/e3m2-rne-fp6-3byte.mxv|gen --op quantize --format e3m2 --packing fp6-3byte --level 1 --seed 1")
cmds+=("ocp/quantize/e4m3-sr-random.mxv|gen --op quantize --format e4m3 --rounding sr -n 500 --seed 1")
# the error-optimal scale rules (docs/semantics.md "Error-optimal scales")
for f in $fmts; do
  for rule in min-mse min-maxerr; do
    cmds+=("ocp/quantize/$f-rne-$rule.mxv|gen --op quantize --format $f --scale-rule $rule --level 1 --seed 1")
  done
done
# EkMm scales (docs/semantics.md "Custom scales"): a linear E8M1 scale for every element format,
# E5M0 powers of two, and UE4M3 under each scale-round
for f in $fmts; do
  cmds+=("ocp/quantize/$f-rne-e8m1.mxv|gen --op quantize --format $f --scale-format e8m1 --level 1 --seed 1")
done
for f in e4m3 e2m1; do
  cmds+=("ocp/quantize/$f-rne-e5m0.mxv|gen --op quantize --format $f --scale-format e5m0 --level 1 --seed 1")
done
for sr in rne up down; do
  cmds+=("ocp/quantize/e2m1-rne-ue4m3-$sr.mxv|gen --op quantize --format e2m1 --scale-format ue4m3 --scale-round $sr --level 1 --seed 1")
done
# dot: every ordered element-format pair under exact and block-fp32 (2 blocks of 32 per case);
# every element-pair product (one-element blocks, unordered pairs; products are the same under
# both models), gzip -9n compressed
for fa in $fmts; do
  for fb in $fmts; do
    for acc in exact block-fp32; do
      cmds+=("ocp/dot/$fa-$fb-$acc.mxv|gen --op dot --format-a $fa --format-b $fb --accum $acc --blocks 2 --level 1 --seed 1")
    done
  done
done
seen=""
for fa in $fmts; do
  seen="$seen $fa"
  for fb in $seen; do
    cmds+=("ocp/dot-products/$fb-$fa.mxv.gz|gen --op dot --format-a $fb --format-b $fa --block 1 --exhaustive")
  done
done
cmds+=("ocp/dot/e4m3-e4m3-h100-fp8.mxv|gen --op dot --format-a e4m3 --accum tensor-core --tc-preset h100-fp8 --blocks 2 --level 1 --seed 1")
cmds+=("ocp/dot/e4m3-e4m3-b200-fp8.mxv|gen --op dot --format-a e4m3 --accum tensor-core --tc-preset b200-fp8 --blocks 2 --level 1 --seed 1")
cmds+=("ocp/dot/e4m3-e4m3-mi300-fp8.mxv|gen --op dot --format-a e4m3 --accum tensor-core --tc-preset mi300-fp8 --blocks 2 --level 1 --seed 1")
cmds+=("ocp/gemm/e4m3-e2m1-block-fp32.mxv|gen --op gemm --format-a e4m3 --format-b e2m1 --accum block-fp32 --gemm-m 2 --gemm-n 2 --gemm-k 64 -n 20 --seed 1")
# chained fused groups (MXDOTP-style: one rounding per group of G products), FP32 and BF16 accumulators
for f in $fmts; do
  for g in 8 16; do
    cmds+=("ocp/dot/$f-$f-fused-g$g.mxv|gen --op dot --format-a $f --format-b $f --accum fused-group --group $g --output-format fp32 --blocks 2 --level 1 -n 200 --seed 1")
    cmds+=("ocp/dot/$f-$f-fused-g$g-bf16.mxv|gen --op dot --format-a $f --format-b $f --accum fused-group --group $g --output-format bf16 --blocks 2 --level 1 -n 200 --seed 1")
  done
done
cmds+=("ocp/dot/e4m3-e2m1-fused-g8.mxv|gen --op dot --format-a e4m3 --format-b e2m1 --accum fused-group --group 8 --blocks 2 --level 1 -n 200 --seed 1")
for r in rdn rup rtz; do
  cmds+=("ocp/dot/e4m3-e4m3-fused-g8-$r.mxv|gen --op dot --format-a e4m3 --format-b e4m3 --accum fused-group --group 8 --rounding $r --blocks 2 --level 1 -n 200 --seed 1")
done
# BF16 results and the other deterministic roundings of exact and block-fp32 (the RTL MAC's
# two models, tests/trtl.sh)
for f in $fmts; do
  for acc in exact block-fp32; do
    cmds+=("ocp/dot/$f-$f-$acc-bf16.mxv|gen --op dot --format-a $f --format-b $f --accum $acc --output-format bf16 --blocks 2 --level 1 --seed 1")
  done
done
for acc in exact block-fp32; do
  for r in rdn rup rtz rna rto; do
    cmds+=("ocp/dot/e4m3-e4m3-$acc-$r.mxv|gen --op dot --format-a e4m3 --format-b e4m3 --accum $acc --rounding $r --blocks 2 --level 1 --seed 1")
  done
done
cmds+=("ocp/gemm/e4m3-e2m1-fused-g8.mxv|gen --op gemm --format-a e4m3 --format-b e2m1 --accum fused-group --group 8 --gemm-m 2 --gemm-n 2 --gemm-k 64 -n 20 --seed 1")

# NVFP4 two-level scaling (docs/semantics.md section 9): 1D blocks and 16x16 tiles (17 rows: a
# last tile of 1), RNE and SR, FP32 and BF16 tensors with their own amax; a calibrated (given)
# amax, FP16 input and BF16 output once each
for t in 1d 2d; do
  shape="--rows 4 --cols 64"; [ $t = 2d ] && shape="--rows 17 --cols 32"
  for r in rne sr; do
    for i in fp32 bf16; do
      cmds+=("ocp/nvfp4/e2m1-$t-$r-$i.mxv|gen --op nvfp4 --tile $t $shape --input $i --rounding $r -n 4 --seed 1")
    done
    cmds+=("ocp/nvfp4/e2m1-$t-$r-fp32-given.mxv|gen --op nvfp4 --tile $t $shape --amax given --rounding $r -n 4 --seed 1")
  done
done
cmds+=("ocp/nvfp4/e2m1-1d-rne-fp16-out-bf16.mxv|gen --op nvfp4 --rows 4 --cols 64 --input fp16 --output-format bf16 -n 4 --seed 1")
# MX9/MX6/MX4 (docs/semantics.md section 5b): every deterministic rounding, 500 seeded random
# blocks; Quark's torch policy (profile quark-mxs: subnormals and -0 to +0, NaN ignored, Inf to
# zero) and its ONNX to_bfp_prime policy (flushed)
for f in mx9 mx6 mx4; do
  for r in $rnds; do
    cmds+=("ocp/mxs/$f-$r.mxv|gen --op mxs --mxs-format $f --rounding $r --level 1 --seed 1")
  done
  cmds+=("ocp/mxs/$f-rne-quark-torch.mxv|gen --op mxs --mxs-format $f --profile quark-mxs --level 1 -n 50 --seed 1")
  cmds+=("ocp/mxs/$f-rne-quark-onnx.mxv|gen --op mxs --mxs-format $f --subnormals flush --level 1 --seed 1")
  cmds+=("ocp/mxs/$f-rne-random.mxv|gen --op mxs --mxs-format $f -n 500 --seed 1")
done

# the same for every named profile but ocp and quark-mxs, a two-level one (the list is mxgold's
# own: profiles.def)
for p in $("$bin/mxgold" profiles | grep '^[a-z]' | cut -d' ' -f1 | grep -vx -e ocp -e quark-mxs); do
  for f in $fmts; do
    cmds+=("profiles/$p/quantize-$f.mxv|gen --op quantize --format $f --profile $p --level 1 --seed 1")
  done
done
# Quark BFP16 is INT8 in blocks of 8
cmds+=("profiles/quark-bfp16/quantize-int8-block8.mxv|gen --op quantize --format int8 --block 8 --profile quark-bfp16 --level 1 --seed 1")
# casts where a cast-relevant field (overflow, nan-elem, nan-code, zero-sign, int-range) is not ocp's
for p in te-mxfp8 ggml-mxfp4 pychop ml-dtypes onnx onnxruntime quark-even; do
  for f in $fmts; do
    cmds+=("profiles/$p/cast-$f.mxv|gen --op cast --format $f --profile $p --level 1 --seed 1")
  done
done

n=0
for c in "${cmds[@]}"; do
  path=${c%%|*} args=${c#*|}
  mkdir -p "$out/$(dirname "$path")"
  if [ "${path%.gz}" != "$path" ]; then
    # shellcheck disable=SC2086
    "$bin/mxgold" $args --quiet | gzip -9n > "$out/$path"
    cases=$( (gzip -dc "$out/$path" 2>/dev/null || true) | grep -m1 '^# cases: ' | cut -d' ' -f3)
  else
    # shellcheck disable=SC2086
    "$bin/mxgold" $args --quiet -o "$out/$path"
    cases=$(grep -m1 '^# cases: ' "$out/$path" | cut -d' ' -f3)
  fi
  printf '%s  %s  %s  mxgold %s\n' "$(sha256sum "$out/$path" | cut -d' ' -f1)" "$cases" "$path" "$args" >> "$manifest"
  n=$((n + 1))
done
sort -k3 "$manifest" > "$out/MANIFEST"
rm -f "$manifest"
echo "gen-suite: $n files, $(du -sh "$out" | cut -f1) under $out/"
