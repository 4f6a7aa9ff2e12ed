#!/bin/bash
# Tests expectation_runner as a process, on fake_gtest_binary: a known
# failure passes and stays failed in the XML, an unlisted failure, an
# unexpected pass, a crash and a stray exit status fail, a filtered run
# ignores listed tests that did not run, and a malformed expectations file
# is a usage error naming file and line.
#
# Usage: expectation_runner_cli_test.sh RUNNER FAKE_GTEST_BINARY
set -u
runner="$1"
binary="$2"
source tools/testing/check.sh

# The runner must not write into this test's own result, nor leave a
# premature-exit marker of a crashing child behind.
unset XML_OUTPUT_FILE TEST_PREMATURE_EXIT_FILE TESTBRIDGE_TEST_ONLY \
  TEST_TOTAL_SHARDS TEST_SHARD_INDEX TEST_SHARD_STATUS_FILE GTEST_FILTER
tmp="$(mktemp -d "${TEST_TMPDIR:-/tmp}/runner_cli.XXXXXX")"
target="//conformance/testing:fake_test"
listed="$tmp/listed.txt"
echo "testing:fake_test FakeSuite.Fails the fake backend cannot add" >"$listed"
unrelated="$tmp/unrelated.txt"
echo "testing:other_test FakeSuite.Fails listed for another target" >"$unrelated"

runner() {
  run "$runner" --target="$target" --backend=fake "$@"
}

# Control: with the failing test filtered out, nothing is listed and all pass.
runner -- "$binary" --gtest_filter=FakeSuite.Passes
check filtered-passes '[ "$status" -eq 0 ]'
check filtered-summary '[[ "$output" == *"PASSED: 1 test cases, 0 failing"* ]]'

runner -- "$binary"
check unlisted-failure-fails '[ "$status" -eq 1 ]'
check unlisted-failure-named '[[ "$output" == *"FAILED: FakeSuite.Fails is not a known failure of this backend"* ]]'

runner --expectations="$unrelated" -- "$binary"
check other-targets-entry-does-not-apply '[ "$status" -eq 1 ]'

XML_OUTPUT_FILE="$tmp/known.xml" runner --expectations="$listed" \
  --expectations_name=fake.txt -- "$binary"
check known-failure-passes '[ "$status" -eq 0 ]'
check known-failure-reported '[[ "$output" == *"KNOWN FAILURE: FakeSuite.Fails (the fake backend cannot add) [fake.txt:1]"* ]]'
check known-failure-stays-failed-in-xml 'grep -q "<failure" "$tmp/known.xml"'
check skip-stays-in-xml 'grep -q "unsupported: ipc" "$tmp/known.xml"'

FAKE_GTEST_FIXED=1 runner --expectations="$listed" \
  --expectations_name=fake.txt -- "$binary"
check unexpected-pass-fails '[ "$status" -eq 1 ]'
check unexpected-pass-named '[[ "$output" == *"unexpected pass: FakeSuite.Fails passes; remove it from fake.txt (line 1)"* ]]'

runner --expectations="$listed" -- "$binary" --gtest_filter=FakeSuite.Passes
check listed-but-filtered-passes '[ "$status" -eq 0 ]'

FAKE_GTEST_CRASH=1 runner --expectations="$listed" -- "$binary"
check crash-fails '[ "$status" -eq 1 ]'
check crash-named '[[ "$output" == *"FakeSuite.Crashes crashed: SIGABRT (signal 6); a crash or hang is never a known failure"* ]]'
check crash-others-judged '[[ "$output" == *"KNOWN FAILURE: FakeSuite.Fails"* ]]'

FAKE_GTEST_SEGV_AT_EXIT=1 runner --expectations="$listed" -- "$binary"
check crash-outside-cases-fails '[ "$status" -eq 1 ]'
check crash-outside-cases-named '[[ "$output" == *"FAILED: OutsideCases.AfterTheLastCase crashed: SIGSEGV (signal 11) outside any case, after FakeLater.RunsLast; a crash or hang is never a known failure"* ]]'
check crash-outside-cases-others-judged '[[ "$output" == *"KNOWN FAILURE: FakeSuite.Fails"* ]]'

FAKE_GTEST_EXIT=3 runner -- "$binary" --gtest_filter=FakeSuite.Passes
check stray-exit-fails '[ "$status" -eq 1 ]'
check stray-exit-named '[[ "$output" == *"exited with status 3 but its result shows no failing test"* ]]'

printf 'testing:fake_test FakeSuite.Fails\n' >"$tmp/bad.txt"
runner --expectations="$tmp/bad.txt" -- "$binary"
check bad-expectations-exits-2 '[ "$status" -eq 2 ]'
check bad-expectations-named '[[ "$output" == *"bad.txt:1: an entry is"* ]]'

runner -- "$tmp/no_such_binary"
check missing-binary-fails '[ "$status" -eq 1 ]'
check missing-binary-named '[[ "$output" == *"cannot run"* ]]'

run "$runner" -- "$binary"
check usage-exits-2 '[ "$status" -eq 2 ]'

rm -rf "$tmp"
finish expectation_runner_cli_test
