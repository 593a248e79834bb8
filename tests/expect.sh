# expect.sh -- sourced by the shell tests: a scratch directory $t (removed on exit), the pass and
# fail counts with ok/ko, and expect NAME RC STDERR_REGEX CMD... (exit status and a message,
# stdin from /dev/null; an empty regex checks the status alone).
pass=0 fail=0
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
ok() { pass=$((pass+1)); }
ko() { fail=$((fail+1)); echo "FAIL: $*" >&2; }
expect() {
  local name=$1 want=$2 re=$3; shift 3
  "$@" < /dev/null > "$t/out" 2> "$t/err"; local rc=$?
  if [ "$rc" = "$want" ] && { [ -z "$re" ] || grep -Eq -e "$re" "$t/err"; }; then ok; else ko "$name: rc=$rc (want $want) stderr [$(head -c 300 "$t/err")]"; fi
}
