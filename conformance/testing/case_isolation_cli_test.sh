#!/bin/bash
# Tests case isolation (case_isolation.h) through expectation_runner, on
# fake_gtest_binary: a case that segfaults, aborts, hangs or exits the
# process is reported as that case's failure, with its signal, timeout or
# status and its last output, and every other case of the binary still runs
# and reports its own verdict in one XML result, under a filter and on every
# shard too. A crash outside any case (before the first, between two,
# after the last) is a failure of its own beside the cases' results. The
# controls run the binary without the runner: the cases after the crash,
# and the XML, are lost.
#
# Usage: case_isolation_cli_test.sh RUNNER FAKE_GTEST_BINARY
set -u
runner="$1"
binary="$2"
source tools/testing/check.sh

unset XML_OUTPUT_FILE TEST_PREMATURE_EXIT_FILE TESTBRIDGE_TEST_ONLY \
  TEST_TOTAL_SHARDS TEST_SHARD_INDEX TEST_SHARD_STATUS_FILE GTEST_FILTER \
  GTEST_TOTAL_SHARDS GTEST_SHARD_INDEX MXCTS_CASE_TIMEOUT
tmp="$(mktemp -d "${TEST_TMPDIR:-/tmp}/isolation_cli.XXXXXX")"
export TEST_TMPDIR="$tmp"
target="//conformance/testing:fake_test"

runner() {
  run "$runner" --target="$target" --backend=fake "$@"
}

# outcome XML SUITE NAME: passed, failed, skipped, disabled or missing, from
# the <testcase> element of SUITE.NAME in XML.
outcome() {
  awk -v name="$3" -v suite="$2" '
    /<testcase / {
      inside = index($0, "name=\"" name "\"") && index($0, "classname=\"" suite "\"")
      if (inside) { found = 1; verdict = "passed" }
      if (inside && index($0, "notrun")) verdict = "disabled"
    }
    inside && /<failure/ { verdict = "failed" }
    inside && /<skipped/ && verdict == "passed" { verdict = "skipped" }
    inside && /<\/testcase>|\/>[[:space:]]*$/ && !/<testcase .*[^\/]>[[:space:]]*$/ { }
    END { print found ? verdict : "missing" }' "$1"
}

# The names of the cases in XML, sorted.
case_names() {
  grep -o '<testcase name="[^"]*"[^>]*classname="[^"]*"' "$1" |
    sed -E 's/<testcase name="([^"]*)".*classname="([^"]*)"/\2.\1/' | sort
}

# Control: without isolation a segfault ends the binary; the cases after it
# never run and no result is written.
FAKE_GTEST_SEGV=1 run "$binary" --gtest_output=xml:"$tmp/direct.xml"
check control-killed '[ "$status" -eq 139 ]'
check control-later-cases-lost '[[ "$output" != *"FakeLater.RunsLast"* ]]'
check control-no-result '[ ! -e "$tmp/direct.xml" ]'

# A normal run takes the fast path: one process, GoogleTest's own result.
XML_OUTPUT_FILE="$tmp/normal.xml" runner -- "$binary"
check normal-fails-on-its-failing-case '[ "$status" -eq 1 ]'
check normal-not-isolated '[[ "$output" != *"case isolation:"* ]]'
check normal-all-reported '[ "$(case_names "$tmp/normal.xml" | wc -l)" -eq 10 ]'

# A segfault: reported as the case's failure, the others as they ended.
xml="$tmp/segv.xml"
XML_OUTPUT_FILE="$xml" FAKE_GTEST_SEGV=1 runner -- "$binary"
check segv-fails '[ "$status" -eq 1 ]'
check segv-announced '[[ "$output" == *"case isolation: FakeSuite.Segfaults crashed: SIGSEGV (signal 11)"* ]]'
check segv-verdict '[[ "$output" == *"FAILED: FakeSuite.Segfaults crashed: SIGSEGV (signal 11); a crash or hang is never a known failure"* ]]'
check segv-others-judged '[[ "$output" == *"FAILED: FakeSuite.Fails is not a known failure"* ]]'
check segv-summary '[[ "$output" == *"FAILED: 10 test cases, 2 failing, 0 of them known, 2 problems above"* ]]'
check segv-case-failed '[ "$(outcome "$xml" FakeSuite Segfaults)" = failed ]'
check segv-message-in-xml 'grep -q "message=\"crashed: SIGSEGV (signal 11)\"" "$xml"'
check segv-last-output-in-xml 'grep -q "about to fault" "$xml"'
check segv-before-passes '[ "$(outcome "$xml" FakeSuite Passes)" = passed ]'
check segv-before-fails '[ "$(outcome "$xml" FakeSuite Fails)" = failed ]'
check segv-before-skip-kept 'grep -q "unsupported: ipc" "$xml"'
check segv-after-passes '[ "$(outcome "$xml" FakeSuite Hangs)" = passed ]'
check segv-death-test-passes '[ "$(outcome "$xml" FakeSuite DiesAsExpected)" = passed ]'
check segv-disabled-reported '[ "$(outcome "$xml" FakeSuite DISABLED_Planned)" = disabled ]'
check segv-last-suite-passes '[ "$(outcome "$xml" FakeLater RunsLast)" = passed ]'
check segv-spec-property-kept 'grep -q "fake.runs-last" "$xml"'
check segv-same-cases-as-normal '[ "$(case_names "$xml")" = "$(case_names "$tmp/normal.xml")" ]'

# An abort stays a failure even when the case is listed as a known one.
listed="$tmp/listed.txt"
printf '%s\n' "testing:fake_test FakeSuite.Fails the fake backend cannot add" \
  "testing:fake_test FakeSuite.Crashes it aborts" >"$listed"
XML_OUTPUT_FILE="$tmp/abort.xml" FAKE_GTEST_CRASH=1 runner \
  --expectations="$listed" -- "$binary"
check abort-fails '[ "$status" -eq 1 ]'
check abort-named '[[ "$output" == *"FAILED: FakeSuite.Crashes crashed: SIGABRT (signal 6); a crash or hang is never a known failure"* ]]'
check abort-others-known '[[ "$output" == *"KNOWN FAILURE: FakeSuite.Fails (the fake backend cannot add)"* ]]'
check abort-later-passes '[ "$(outcome "$tmp/abort.xml" FakeLater RunsLast)" = passed ]'

# A hang: killed after the per-case limit, the rest still run.
xml="$tmp/hang.xml"
XML_OUTPUT_FILE="$xml" FAKE_GTEST_HANG=1 runner --case_timeout=2 -- "$binary"
check hang-fails '[ "$status" -eq 1 ]'
check hang-named '[[ "$output" == *"FAILED: FakeSuite.Hangs timed out after 2 s"* ]]'
check hang-case-failed '[ "$(outcome "$xml" FakeSuite Hangs)" = failed ]'
check hang-last-output-in-xml 'grep -q "waiting for ever" "$xml"'
hang_time="$(grep -o '<testcase name="Hangs"[^>]*time="[0-9.]*"' "$xml" | sed -E 's/.*time="([0-9]+).*/\1/')"
check hang-time-is-the-limit '[ "${hang_time:-0}" -ge 2 ] && [ "$hang_time" -lt 10 ]'
check hang-after-runs '[ "$(outcome "$xml" FakeSuite ExitsInCase)" = passed ]'
check hang-last-suite-passes '[ "$(outcome "$xml" FakeLater RunsLast)" = passed ]'

# The limit also comes from the environment.
XML_OUTPUT_FILE="$xml" FAKE_GTEST_HANG=1 MXCTS_CASE_TIMEOUT=1 runner -- "$binary"
check hang-env-limit '[[ "$output" == *"FakeSuite.Hangs timed out after 1 s"* ]]'

# A case that exits the process.
xml="$tmp/exit.xml"
XML_OUTPUT_FILE="$xml" FAKE_GTEST_EXIT_IN_CASE=1 runner -- "$binary"
check exit-named '[[ "$output" == *"FAILED: FakeSuite.ExitsInCase exited with status 3 before the case ended"* ]]'
check exit-later-passes '[ "$(outcome "$xml" FakeLater RunsLast)" = passed ]'

# Everything at once: each abort costs only its own case.
xml="$tmp/all.xml"
XML_OUTPUT_FILE="$xml" FAKE_GTEST_SEGV=1 FAKE_GTEST_CRASH=1 FAKE_GTEST_HANG=1 \
  FAKE_GTEST_EXIT_IN_CASE=1 FAKE_GTEST_FIXED=1 runner --case_timeout=2 -- "$binary"
check all-fails '[ "$status" -eq 1 ]'
for case in Crashes Segfaults Hangs ExitsInCase; do
  check "all-$case-failed" '[ "$(outcome "$xml" FakeSuite $case)" = failed ]'
done
for case in Passes Fails DiesAsExpected; do
  check "all-$case-passed" '[ "$(outcome "$xml" FakeSuite $case)" = passed ]'
done
check all-last-suite-passes '[ "$(outcome "$xml" FakeLater RunsLast)" = passed ]'
check all-same-cases-as-normal '[ "$(case_names "$xml")" = "$(case_names "$tmp/normal.xml")" ]'
check all-summary '[[ "$output" == *"FAILED: 10 test cases, 4 failing, 0 of them known, 4 problems above"* ]]'

# A filter holds through the recovery.
xml="$tmp/filtered.xml"
XML_OUTPUT_FILE="$xml" FAKE_GTEST_SEGV=1 GTEST_FILTER='FakeSuite.S*:FakeLater.*' \
  runner -- "$binary"
check filtered-cases '[ "$(case_names "$xml" | tr "\n" " ")" = "FakeLater.RunsLast FakeSuite.Segfaults FakeSuite.Skipped " ]'
XML_OUTPUT_FILE="$xml" FAKE_GTEST_SEGV=1 runner -- "$binary" \
  --gtest_filter='FakeSuite.P*:FakeSuite.Seg*'
check flag-filtered-cases '[ "$(case_names "$xml" | tr "\n" " ")" = "FakeSuite.Passes FakeSuite.Segfaults " ]'
XML_OUTPUT_FILE="$xml" FAKE_GTEST_SEGV=1 TESTBRIDGE_TEST_ONLY='-FakeSuite.*' \
  runner -- "$binary"
check bazel-filter-without-the-crash '[ "$(case_names "$xml" | tr "\n" " ")" = "FakeLater.RunsLast " ]'
XML_OUTPUT_FILE="$xml" FAKE_GTEST_SEGV=1 TESTBRIDGE_TEST_ONLY='FakeSuite.Seg*:FakeLater.*' \
  runner -- "$binary"
check bazel-filtered-cases '[ "$(case_names "$xml" | tr "\n" " ")" = "FakeLater.RunsLast FakeSuite.Segfaults " ]'

# Every shard recovers exactly the cases GoogleTest gives it.
for shard in 0 1 2; do
  XML_OUTPUT_FILE="$tmp/shard$shard.xml" GTEST_TOTAL_SHARDS=3 \
    GTEST_SHARD_INDEX=$shard run "$runner" --target="$target" -- "$binary"
  XML_OUTPUT_FILE="$tmp/shard${shard}_segv.xml" GTEST_TOTAL_SHARDS=3 \
    GTEST_SHARD_INDEX=$shard FAKE_GTEST_SEGV=1 FAKE_GTEST_HANG=1 \
    runner --case_timeout=2 -- "$binary"
  check "shard$shard-same-cases" '[ "$(case_names "$tmp/shard${shard}_segv.xml")" = "$(case_names "$tmp/shard$shard.xml")" ]'
  check "shard$shard-not-empty" '[ -n "$(case_names "$tmp/shard$shard.xml")" ]'
done
check shards-cover-all '[ "$(cat "$tmp"/shard?.xml | case_names /dev/stdin | sort | tr "\n" " ")" = "$(case_names "$tmp/normal.xml" | tr "\n" " ")" ]'

# Bazel's timeout (SIGTERM to the runner) takes the hanging binary with it.
XML_OUTPUT_FILE="$tmp/term.xml" FAKE_GTEST_HANG=1 "$runner" --target="$target" \
  --case_timeout=0 -- "$binary" >"$tmp/term.log" 2>&1 &
runner_pid=$!
for _ in $(seq 50); do
  grep -q "waiting for ever" "$tmp/term.log" && break
  sleep 0.1
done
check term-child-was-running 'pgrep -f "xml:$tmp/term.xml" >/dev/null'
kill -TERM "$runner_pid"
wait "$runner_pid"
status=$?
check term-runner-dies-of-it '[ "$status" -eq 143 ]'
sleep 0.2
check term-child-gone '! pgrep -f "xml:$tmp/term.xml" >/dev/null'

# A crash outside any case is a failure of its own, named for where it
# happened; the cases that ran keep their results. Control: run directly,
# the binary does crash (139) after writing a result that has no failure
# for it.
FAKE_GTEST_SEGV_AT_EXIT=1 run "$binary" --gtest_output=xml:"$tmp/direct_exit.xml"
check exit-control-crashes '[ "$status" -eq 139 ]'
check exit-control-result-silent '! grep -q OutsideCases "$tmp/direct_exit.xml"'
xml="$tmp/at_exit.xml"
XML_OUTPUT_FILE="$xml" FAKE_GTEST_SEGV_AT_EXIT=1 runner -- "$binary"
check at-exit-fails '[ "$status" -eq 1 ]'
check at-exit-named '[[ "$output" == *"FAILED: OutsideCases.AfterTheLastCase crashed: SIGSEGV (signal 11) outside any case, after FakeLater.RunsLast; a crash or hang is never a known failure"* ]]'
check at-exit-failure-in-xml '[ "$(outcome "$xml" OutsideCases AfterTheLastCase)" = failed ]'
check at-exit-cases-kept '[ "$(outcome "$xml" FakeSuite Passes)" = passed ] && [ "$(outcome "$xml" FakeSuite Fails)" = failed ] && [ "$(outcome "$xml" FakeLater RunsLast)" = passed ]'
check at-exit-details-kept 'grep -q "fails until it is fixed" "$xml"'
check at-exit-others-judged '[[ "$output" == *"FAILED: FakeSuite.Fails is not a known failure"* ]]'
check at-exit-all-cases '[ "$(case_names "$xml" | grep -vc OutsideCases)" -eq 10 ]'
# Control: without the crash there is no such failure.
check normal-has-no-outside-failure '! grep -q OutsideCases "$tmp/normal.xml"'

# Between cases (a suite's set-up): the cases before it keep the outcomes
# the console showed, the later suite never ran.
xml="$tmp/between.xml"
XML_OUTPUT_FILE="$xml" FAKE_GTEST_SEGV_BEFORE_SUITE=1 runner -- "$binary"
check between-fails '[ "$status" -eq 1 ]'
check between-named '[[ "$output" == *"FAILED: OutsideCases.BetweenCases crashed: SIGSEGV (signal 11) outside any case, after FakeSuite.DiesAsExpected; a crash or hang is never a known failure"* ]]'
check between-last-output 'grep -q "setting up FakeLater" "$xml"'
check between-passes-kept '[ "$(outcome "$xml" FakeSuite Passes)" = passed ]'
check between-failure-kept '[ "$(outcome "$xml" FakeSuite Fails)" = failed ]'
check between-later-missing '[ "$(outcome "$xml" FakeLater RunsLast)" = missing ]'
check between-one-outside-failure '[ "$(case_names "$xml" | grep -c OutsideCases)" -eq 1 ]'

# Before the first case (the global set-up): nothing ran.
xml="$tmp/setup.xml"
XML_OUTPUT_FILE="$xml" FAKE_GTEST_SEGV_IN_SETUP=1 runner -- "$binary"
check setup-fails '[ "$status" -eq 1 ]'
check setup-named '[[ "$output" == *"FAILED: OutsideCases.BeforeTheFirstCase crashed: SIGSEGV (signal 11) outside any case, before the first case"* ]]'
check setup-only-the-failure '[ "$(case_names "$xml" | tr "\n" " ")" = "OutsideCases.BeforeTheFirstCase " ]'

runner --case_timeout=soon -- "$binary"
check bad-timeout-exits-2 '[ "$status" -eq 2 ]'
check bad-timeout-named '[[ "$output" == *"--case_timeout wants whole seconds, not '"'"'soon'"'"'"* ]]'

rm -rf "$tmp"
finish case_isolation_cli_test
