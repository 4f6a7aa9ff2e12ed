#!/bin/bash
# Runs the fake backend's negative targets (tagged manual: each must fail)
# and checks that each fails for its reason, with the message the rules
# promise: an unlisted failure, an unexpected pass, a must-not-compile
# source that compiles, a diagnostic that does not match, a control that
# does not compile, a diagnostic (of a backend with its own wording) that
# points at another line.
#
# Usage: rule_failure_test.sh UNLISTED UNEXPECTED_PASS COMPILES_ANYWAY
#            WRONG_PATTERN BROKEN_CONTROL WRONG_LINE
set -u
source tools/testing/check.sh

# The targets run inside this test: they must not write its result, nor
# take its premature-exit marker.
unset XML_OUTPUT_FILE TEST_PREMATURE_EXIT_FILE TESTBRIDGE_TEST_ONLY \
  TEST_TOTAL_SHARDS TEST_SHARD_INDEX TEST_SHARD_STATUS_FILE

run "$1"
check unlisted-failure-fails '[ "$status" -eq 1 ]'
check unlisted-failure-named '[[ "$output" == *"FAILED: UnlistedFailure.Fails is not a known failure of this backend (not listed in tools/build_defs/testing/fake_expectations.txt)"* ]]'

run "$2"
check unexpected-pass-fails '[ "$status" -eq 1 ]'
check unexpected-pass-named '[[ "$output" == *"unexpected pass: UnexpectedPass.Passes passes; remove it from tools/build_defs/testing/fake_expectations.txt (line 6)"* ]]'

run "$3"
check compiles-anyway-fails '[ "$status" -eq 1 ]'
check compiles-anyway-names-file-and-pattern '[[ "$output" == *"tools/build_defs/testing/accepted.cc: the driver must reject it with a diagnostic matching '"'"'invalid conversion'"'"', but it compiled it. The driver printed:"* ]]'

run "$4"
check wrong-pattern-fails '[ "$status" -eq 1 ]'
check wrong-pattern-named '[[ "$output" == *"tools/build_defs/testing/rejected.cc: the driver rejected it (exit 1), but no diagnostic matches '"'"'no such diagnostic'"'"'"* ]]'
check wrong-pattern-quotes-driver '[[ "$output" == *"invalid conversion from"* ]]'

run "$5"
check broken-control-fails '[ "$status" -eq 1 ]'
check broken-control-named '[[ "$output" == *"tools/build_defs/testing/rejected.cc (the control): the driver must compile it, but it failed (exit 1)"* ]]'

run "$6"
check wrong-line-fails '[ "$status" -eq 1 ]'
check wrong-line-named '[[ "$output" == *"tools/build_defs/testing/rejected.cc: the driver rejected it (exit 1), but no diagnostic matches"*"rejected\\.cc"*"5"* ]]'

finish rule_failure_test
