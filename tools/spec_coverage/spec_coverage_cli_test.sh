#!/bin/bash
# Tests the spec_coverage command on testdata/: a two-backend run writes the
# three outputs with the right counts; mutation results add a score column;
# bad inputs fail with a message naming what is wrong.
#
# Usage: spec_coverage_cli_test.sh PATH_TO_SPEC_COVERAGE
set -u
tool="$1"
data="$(dirname "$tool")/testdata"
out="$(mktemp -d "${TEST_TMPDIR:-/tmp}/spec_coverage.XXXXXX")"
source tools/testing/check.sh

run "$tool" --spec_dir="$data/spec" --sources="$data/sources" \
  --results="reference=$data/results/reference,$data/results/vendor" \
  --out="$out/report"
check writes-report '[ "$status" -eq 0 ]'
check prints-location '[[ "$output" == *"report written to $out/report/index.html"* ]]'
for file in index.html coverage.json summary.md; do
  check "writes-$file" "[ -s \"$out/report/$file\" ]"
done
json="$(cat "$out/report/coverage.json" 2>/dev/null)"
check total '[[ "$json" == *"\"clauses_total\": 2,"* ]]'
check covered '[[ "$json" == *"\"clauses_covered\": 1,"* ]]'
# Passing on reference, failing on vendor (named after its directory): the
# clause does not pass on every backend.
check passing-needs-every-backend '[[ "$json" == *"\"clauses_passing\": 0,"* ]]'
check vendor-named '[[ "$json" == *"\"vendor\": \"failing\""* ]]'
check reference-passing '[[ "$json" == *"\"reference\": \"passing\""* ]]'

# Control: with the reference alone the clause passes.
run "$tool" --spec_dir="$data/spec" --sources="$data/sources" \
  --results="reference=$data/results/reference" --out="$out/alone"
check reference-alone-passes 'grep -q "\"clauses_passing\": 1," "$out/alone/coverage.json"'

run "$tool" --spec_dir="$data/spec" --sources="$data/sources" \
  --results="$data/results/missing" --out="$out/x"
check missing-results-exits-2 '[ "$status" -eq 2 ]'
check missing-results-named '[[ "$output" == *"$data/results/missing"* ]]'

run "$tool" --spec_dir="$data/bad_spec" --sources="$data/sources" --out="$out/y"
check bad-spec-exits-1 '[ "$status" -eq 1 ]'
check bad-spec-names-line '[[ "$output" == *"bad_spec/api-stream.md:5: malformed clause ID"* ]]'

# Mutation results add a score column; a malformed file is named.
run "$tool" --spec_dir="$data/spec" --sources="$data/sources" \
  --mutation="$data/mutation/results.tsv" --out="$out/mutation"
check mutation-writes-report '[ "$status" -eq 0 ]'
check mutation-column '[[ "$output" == *"| mutation score |"* ]]'
check mutation-score '[[ "$output" == *"| 50.0% (1/2) |"* ]]'
check no-mutation-no-column '! grep -q "mutation score" "$out/alone/summary.md"'
run "$tool" --spec_dir="$data/spec" --sources="$data/sources" \
  --mutation="$data/mutation/malformed.tsv" --out="$out/z"
check malformed-mutation-exits-2 '[ "$status" -eq 2 ]'
check malformed-mutation-named '[[ "$output" == *"malformed.tsv:1: not a tools/mutate results file"* ]]'

run "$tool" --spec_dir="$data/spec"
check missing-out-exits-2 '[ "$status" -eq 2 ]'

rm -rf "$out"
finish spec_coverage_cli_test
