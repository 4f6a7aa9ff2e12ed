#!/bin/bash
# Tests spec_refs on the sources in testdata/: valid references pass and are
# listed; an unknown clause and a test without a clause each fail, naming
# the file and line.
#
# Usage: spec_refs_cli_test.sh PATH_TO_SPEC_REFS
set -u
refs="$1"
data="$(dirname "$refs")/testdata"
out="$(mktemp "${TEST_TMPDIR:-/tmp}/spec_refs.XXXXXX")"
source tools/testing/check.sh

# Control: valid references pass and are listed.
run "$refs" --ids="$data/clause_ids.txt" --out="$out" "$data/valid_test.cc"
check valid-passes '[ "$status" -eq 0 ]'
check valid-listed '[ "$(head -n 1 "$out")" = "StreamCreate.ReturnsDistinctHandles api.stream.create.returns-distinct-handles" ]'

run "$refs" --ids="$data/clause_ids.txt" "$data/unknown_clause_test.cc"
check unknown-fails '[ "$status" -eq 1 ]'
check unknown-named '[[ "$output" == *"unknown_clause_test.cc:7: test StreamCreate.Misspelled names '"'"'api.stream.create.retruns-distinct-handles'"'"', which is not a clause"* ]]'

run "$refs" --ids="$data/clause_ids.txt" "$data/unnamed_clause_test.cc"
check unnamed-fails '[ "$status" -eq 1 ]'
check unnamed-named '[[ "$output" == *"unnamed_clause_test.cc:2: test StreamCreate.NamesNothing names no spec clause"* ]]'

run "$refs" --ids="$data/missing_ids.txt" "$data/valid_test.cc"
check missing-ids-exits-2 '[ "$status" -eq 2 ]'
check missing-ids-named '[[ "$output" == *"missing_ids.txt"* ]]'

run "$refs" "$data/valid_test.cc"
check usage-exits-2 '[ "$status" -eq 2 ]'

finish spec_refs_cli_test
