#!/bin/sh
# tconform.sh VENV ADAPTER [sabotage] -- one light third-party adapter (python -m mxgold.conform)
# on reduced counts in VENV, which ci/test.sh makes (pip install '.[test]' plus
# python/mxgold/conform/requirements-light.txt).  With "sabotage", the run flips the policy
# field the adapter names (SABOTAGE) and must report mismatches.  Skipped (77) without the venv
# or the library.
py="$1/bin/python"
[ -x "$py" ] || { echo "no venv at $1 (ci/test.sh makes it): skipped"; exit 77; }
"$py" -c "import mxgold.conform" 2>/dev/null || { echo "mxgold is not installed in $1: skipped"; exit 77; }
set -- --only "$2" --random "${MX_CONFORM_RANDOM:-500}" --probe "${MX_CONFORM_PROBE:-100}" \
  --vectors "$(dirname "$0")/../vectors" ${3:+--sabotage adapter --expect-mismatch}
exec env CUDA_VISIBLE_DEVICES="" "$py" -m mxgold.conform "$@"
