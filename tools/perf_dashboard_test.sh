#!/bin/bash
# Tests the tools/perf_dashboard wrapper: it runs the program beside it in
# Bazel's runfiles and passes the arguments and the exit status through.
#
# Usage: perf_dashboard_test.sh PATH_TO_PERF_DASHBOARD_SCRIPT TESTDATA_DIR
set -u
tool="$1"
data="$2"
work="$(mktemp -d "${TEST_TMPDIR:-/tmp}/perf_dashboard_test.XXXXXX")"
source tools/testing/check.sh

run "$tool" import --db="$work/h.sqlite" --backend=cuda --commit=c1 "$data/cuda.json"
check imports '[ "$status" -eq 0 ] && [[ "$output" == *"recorded run 1 (cuda at c1, 2026-11-21T04:00:00Z)"* ]]'
run "$tool" detect --db="$work/h.sqlite"
check detects '[ "$status" -eq 0 ] && [[ "$output" == *"0 current regressions"* ]]'
run "$tool" runs --db="$work/missing.sqlite"
check passes-failure '[ "$status" -eq 2 ] && [[ "$output" == *"$work/missing.sqlite: no such history"* ]]'

finish perf_dashboard_test
