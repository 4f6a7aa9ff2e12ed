# Assertions for the project's shell tests; source it, do not run it.
#
#   source tools/testing/check.sh
#   run "$tool" --flag          # sets $output (stdout and stderr) and $status
#   check name '[ "$status" -eq 0 ]'
#   finish my_test              # prints "my_test: N passed, N failed"; fails if any did
#
# A failed check prints its name, the condition, $status and $output. A test
# that wants more context on failure defines check_context, which is called
# after that report.

passes=0
failures=0
output=""
status=0

run() {
  output="$("$@" 2>&1)"
  status=$?
}

check() {
  local name="$1" condition="$2"
  if eval "$condition"; then
    passes=$((passes + 1))
    return
  fi
  failures=$((failures + 1))
  echo "FAIL [$name]: $condition" >&2
  echo "  status=$status output:" >&2
  sed 's/^/    /' <<<"$output" >&2
  if declare -F check_context >/dev/null; then check_context >&2; fi
}

finish() {
  echo "$1: $passes passed, $failures failed"
  [ "$failures" -eq 0 ]
}
