#!/bin/bash
# Tests tools/steps.sh: a passing step prints one line and keeps its output
# in its log; a failing step prints its line and its log's tail and makes the
# overall status 1; a later step still runs.
#
# Usage: steps_test.sh PATH_TO_STEPS_SH
set -u
steps="$1"
work="$(mktemp -d "${TEST_TMPDIR:-/tmp}/steps_test.XXXXXX")"
source tools/testing/check.sh
source "$steps"

noisy() {
  for i in $(seq 1 50); do echo "progress $i"; done
  echo "Done 7 runs"
  echo "cleanup"
}

failing() {
  echo "compiling"
  echo "error: the reason" >&2
  return 3
}

run steps_begin "$work/logs"
check begin-names-dir '[[ "$output" == *"$work/logs/"* ]]'
steps_begin "$work/logs" >/dev/null

run run_step fuzz 'Done [0-9]+ runs' noisy
check pass-exits-0 '[ "$status" -eq 0 ]'
check pass-prints-one-line '[ "$(wc -l <<<"$output")" -eq 1 ]'
check pass-line '[[ "$output" =~ ^fuzz\ +ok\ +[0-9]+s\ +Done\ 7\ runs$ ]]'
check pass-log-kept '[ "$(grep -c progress "$work/logs/fuzz.log")" -eq 50 ]'

# No pattern: the last non-blank line is the result.
run run_step plain '' noisy
check last-line-result '[[ "$output" == *" cleanup" ]]'

check status-ok-while-all-pass '[ "$steps_status" -eq 0 ]'

run run_step build '' failing
check fail-exits-with-command-status '[ "$status" -eq 3 ]'
check fail-line '[[ "$output" == "build"*"FAILED"*"exit 3; log: $work/logs/build.log"* ]]'
check fail-shows-log '[[ "$output" == *"error: the reason"* ]]'
# run captures output in a subshell, which cannot set steps_status here, so
# the failing step runs once more in this shell.
run_step build '' failing >/dev/null
check status-set-by-failure '[ "$steps_status" -eq 1 ]'

# A later step still runs and logs after a failure.
run_step after '' noisy >/dev/null
check later-step-runs '[ -s "$work/logs/after.log" ]'

# A fresh run starts with no stale logs.
steps_begin "$work/logs" >/dev/null
check begin-clears-old-logs '[ ! -e "$work/logs/after.log" ]'

rm -rf "$work"
finish steps_test
