# Runs the steps of tools/run_tests and tools/run_conformance: one line each
# on the terminal, the full output in a log file. Source it, do not run it.
#
#   source tools/steps.sh
#   steps_begin reports/logs          # where the logs go (created, emptied)
#   run_step format_check '' tools/check_format
#   run_step bazel_test 'Executed [0-9]+ out of' bazel test //...
#   exit "$steps_status"              # 1 if any step failed, else 0
#
# run_step NAME RESULT_PATTERN COMMAND... runs COMMAND with stdout and stderr
# in $steps_log_dir/NAME.log and prints
#   NAME  ok|FAILED  SECONDSs  RESULT
# where RESULT is the last line of the log matching the extended regular
# expression RESULT_PATTERN (the last non-blank line if it is empty), cut to
# 120 characters. A failed step (non-zero exit) is followed by the last
# $steps_tail_lines lines of its log, so the reason is on the terminal; a
# passing step's output stays in its log, which is why a long run (Bazel's
# progress, libFuzzer's statistics) ends in one short page. run_step returns
# COMMAND's status and sets steps_status to 1 when it fails; later steps still
# run. Tested by tools/steps_test.sh.

steps_log_dir=""
steps_status=0
steps_tail_lines="${STEPS_TAIL_LINES:-200}"

steps_begin() {
  steps_log_dir="$1"
  mkdir -p "$steps_log_dir" || return 1
  rm -f "$steps_log_dir"/*.log
  echo "logs of each step: $steps_log_dir/"
}

run_step() {
  local name="$1" pattern="$2"
  shift 2
  local log="$steps_log_dir/$name.log"
  local start="$SECONDS"
  "$@" >"$log" 2>&1 </dev/null
  local rc=$?
  local took=$((SECONDS - start))
  local result
  if [ -n "$pattern" ]; then
    result="$(grep -E -- "$pattern" "$log" | tail -n 1)"
  else
    result="$(grep -v '^[[:space:]]*$' "$log" | tail -n 1)"
  fi
  result="${result:0:120}"
  if [ "$rc" -eq 0 ]; then
    printf '%-16s ok      %5ss  %s\n' "$name" "$took" "$result"
  else
    printf '%-16s FAILED  %5ss  %s\n' "$name" "$took" \
      "exit $rc; log: $log${result:+ ($result)}"
    echo "---- last $steps_tail_lines lines of $log ----"
    tail -n "$steps_tail_lines" "$log"
    echo "---- end of $log ----"
    steps_status=1
  fi
  return "$rc"
}
