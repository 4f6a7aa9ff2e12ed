#!/bin/bash
# Tests tools/test_summary on the result files in tools/testdata/test_summary:
# every case is counted once, failures are named with their file, a log text
# that looks like XML is not counted, and a tree with no results or a
# malformed result file is an error; several directories (a run split over
# machines) are counted together unless they overlap.
#
# Usage: test_summary_test.sh PATH_TO_TEST_SUMMARY
set -u
summary="$1"
data="$(dirname "$summary")/testdata/test_summary"
empty="$(mktemp -d "${TEST_TMPDIR:-/tmp}/test_summary_test.XXXXXX")"
source tools/testing/check.sh

run "$summary" "$data"
check all-counted '[ "$(tail -n 1 <<<"$output")" = "tests: 2 passed, 2 failed, 2 skipped, 1 known failures" ]'
check failure-exits-1 '[ "$status" -eq 1 ]'
check gtest-failure-named '[[ "$output" == *"FAILED: Stream.Fails  ($data/gtest_mixed/test.xml)"* ]]'
check bazel-failure-named '[[ "$output" == *"FAILED: tools/example_test  ($data/bazel_generated_error/test.xml)"* ]]'

# Control: the passing results alone exit 0.
run "$summary" "$data/bazel_generated_pass"
check passing-line '[ "$output" = "tests: 1 passed, 0 failed, 0 skipped" ]'
check passing-exits-0 '[ "$status" -eq 0 ]'

# A failure the backend's expectations list is counted apart and does not
# fail the summary; the unexpected failures above (control) do.
run "$summary" "$data/known_failure"
known_line="$(printf 'KNOWN FAILURE: Peer.NeedsTwoDevices  (%s)\ntests: 0 passed, 0 failed, 0 skipped, 1 known failures' "$data/known_failure/test.xml")"
check known-failure-line '[ "$output" = "$known_line" ]'
check known-failure-exits-0 '[ "$status" -eq 0 ]'

# A result file that is not well-formed XML: exit 2, naming the file, the
# line and the reason (the control is every passing run above).
malformed="$(dirname "$summary")/testdata/test_summary_malformed"
run "$summary" "$malformed"
check malformed-exits-2 '[ "$status" -eq 2 ]'
check malformed-names-file-and-line \
  '[[ "$output" == *"$malformed/truncated/test.xml: line 5: "* ]]'

run "$summary" "$empty"
check no-results-exits-2 '[ "$status" -eq 2 ]'
check no-results-message '[[ "$output" == *"no test.xml files"* ]]'

run "$summary" "$empty/missing"
check missing-dir-exits-2 '[ "$status" -eq 2 ]'

# Several directories, the parts of one run split over machines, are counted
# together: two parts holding $data's results between them count as $data.
parts="$empty/parts"
mkdir -p "$parts/one" "$parts/two" "$parts/overlapping"
for name in bazel_generated_pass gtest_mixed; do
  ln -s "$(realpath "$data/$name")" "$parts/one/$name"
done
for name in bazel_generated_error known_failure; do
  ln -s "$(realpath "$data/$name")" "$parts/two/$name"
done
ln -s "$(realpath "$data/gtest_mixed")" "$parts/overlapping/gtest_mixed"
run "$summary" "$parts/one"
check one-part '[ "$(tail -n 1 <<<"$output")" = "tests: 2 passed, 1 failed, 2 skipped" ]'
run "$summary" "$parts/one" "$parts/two"
check parts-are-the-whole '[ "$(tail -n 1 <<<"$output")" = "tests: 2 passed, 2 failed, 2 skipped, 1 known failures" ]'
# Parts that overlap would count cases twice: exit 2, naming the file.
run "$summary" "$parts/one" "$parts/overlapping"
check overlap-exits-2 '[ "$status" -eq 2 ]'
check overlap-named '[[ "$output" == *"gtest_mixed/test.xml is in both $parts/one and $parts/overlapping"* ]]'
run "$summary" "$data/gtest_mixed" --verbose
check option-is-usage '[ "$status" -eq 2 ] && [[ "$output" == *"usage:"* ]]'

rm -rf "$empty"
finish test_summary_test
