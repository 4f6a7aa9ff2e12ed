#!/bin/bash
# Tests test_lint on the packages in testdata/: a package that follows every
# rule passes; one that breaks each rule once fails, naming file, line and
# rule of each violation and counting them per rule; a missing path exits 2.
#
# Usage: test_lint_cli_test.sh PATH_TO_TEST_LINT
set -u
lint="$1"
source tools/testing/check.sh

# The packages are copied out with their BUILD.testdata files named BUILD
# (in the source tree that name would make them Bazel packages).
data="$(mktemp -d "${TEST_TMPDIR:-/tmp}/test_lint.XXXXXX")"
cp -r "$(dirname "$lint")/testdata/." "$data/"
for build in "$data"/*/BUILD.testdata; do mv "$build" "${build%.testdata}"; done

# Control: the good package passes (its header is found beside the test).
run "$lint" "$data/good"
check good-passes '[ "$status" -eq 0 ]'
check good-counted '[[ "$output" == *"no violations"* ]]'

run "$lint" "$data/bad"
check bad-fails '[ "$status" -eq 1 ]'
check no-clause '[[ "$output" == *"bad/bad_test.cc:3: [clause] test Stream.NamesNothing names no spec clause"* ]]'
check no-assertion '[[ "$output" == *"bad/bad_test.cc:5: [assertion] test Stream.AssertsNothing asserts nothing"* ]]'
check no-trap-control '[[ "$output" == *"bad/bad_test.cc:10: [trap-control] trap test Memory.OutOfBoundsTraps has no legal control"* ]]'
check no-compile-control '[[ "$output" == *"bad/BUILD:2: [compile-control] must-not-compile test no_control_test has no \`control\`"* ]]'
check counted '[[ "$output" == *"test_lint: 1 assertion violations"* && "$output" == *"test_lint: 1 trap-control violations"* ]]'

# The excluded part is not linted.
run "$lint" --exclude=bad/ "$data/bad"
check excluded-passes '[ "$status" -eq 0 ]'

run "$lint" "$data/missing"
check missing-exits-2 '[ "$status" -eq 2 ]'
check missing-named '[[ "$output" == *"missing"* ]]'

run "$lint"
check usage-exits-2 '[ "$status" -eq 2 ]'

finish test_lint_cli_test
