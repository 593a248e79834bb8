#!/usr/bin/env bash
# tsweep-mpi -- the sweep under MPI (built with -DMX_MPI=ON): two ranks split a shard, rank 0's
# sums and digest equal those of one process over the same shard, and the ranks' checkpoints
# resume after --limit.
# Usage: tsweep-mpi.sh BUILD_BIN_DIR MPIEXEC [PROGRAM]   (PROGRAM sweep (default) or sweep-rtl:
# PROGRAM against PROGRAM-mpi)
set -u
bin=$1 mpiexec=$2 prog=${3:-sweep}
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
flags=()
# Open MPI refuses root without this flag, and two ranks may outnumber the cores
if "$mpiexec" --version 2>&1 | grep -Eq "Open MPI|OpenRTE|open-mpi"; then flags=(--allow-run-as-root --oversubscribe); fi
a=(--format e2m1,int8 --rounding rne,rup --rule all --chunk-bits 12 --shard 5/4099 --progress 0)
fail=0
"$bin/$prog" "${a[@]}" > "$t/one" 2>&1 || { echo "FAIL: one process"; fail=1; }
"$mpiexec" "${flags[@]}" -np 2 "$bin/$prog-mpi" "${a[@]}" > "$t/two" 2> "$t/err" || { echo "FAIL: 2 ranks: $(tail -3 "$t/err")"; fail=1; }
one=$(grep -E '^sweep: (units|digest)' "$t/one" | sed 's/^sweep: //')
two=$(grep -E '^sweep total: (units|digest)' "$t/two" | sed 's/^sweep total: //')
[ -n "$one" ] && [ "$one" = "$two" ] || { echo "FAIL: 2 ranks [$two] vs one process [$one]"; fail=1; }
"$mpiexec" "${flags[@]}" -np 2 "$bin/$prog-mpi" "${a[@]}" --checkpoint "$t/ck" --limit 500 > /dev/null 2>&1
rc=$?
[ $rc = 3 ] && [ -s "$t/ck.rank0" ] && [ -s "$t/ck.rank1" ] || { echo "FAIL: --limit under MPI: rc $rc"; fail=1; }
"$mpiexec" "${flags[@]}" -np 2 "$bin/$prog-mpi" "${a[@]}" --checkpoint "$t/ck" > "$t/res" 2>&1
res=$(grep -E '^sweep total: (units|digest)' "$t/res" | sed 's/^sweep total: //')
[ "$one" = "$res" ] || { echo "FAIL: resumed under MPI [$res] vs [$one]"; fail=1; }
cat "$t/two" | grep -E '^sweep (total|rank)' | grep -E 'units|digest'
[ $fail = 0 ] && echo "tsweep-mpi: $prog passed"
exit $fail
