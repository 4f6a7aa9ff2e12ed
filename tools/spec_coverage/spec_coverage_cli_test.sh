#!/bin/bash
# Tests the spec_coverage command on testdata/: a two-backend run writes the
# three outputs with the right counts; mutation results add a score column;
# the reference's testlogs beside a certification run (side_by_side/) give
# each clause a status per backend; bad inputs fail with a message naming
# what is wrong.
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

# Side by side: the reference's testlogs beside a certification run's
# results (tools/certify run's layout) and its expectations file.
sbs="$data/side_by_side"
run "$tool" --spec_dir="$sbs/spec" --sources="$sbs/sources" \
  --results="reference=$sbs/reference,cuda=$sbs/cuda" \
  --expectations="cuda=$sbs/cuda.txt" --out="$out/sbs"
check sbs-writes-report '[ "$status" -eq 0 ]'
check sbs-prints-location '[[ "$output" == *"side by side in $out/sbs/side_by_side.md"* ]]'
md="$(cat "$out/sbs/side_by_side.md" 2>/dev/null)"
check sbs-both-pass '[[ "$md" == *"returns-distinct-handles\` | passing | passing | |"* ]]'
check sbs-unexpected-failure '[[ "$md" == *"null-pointer-is-invalid-value\` | passing | failing | **yes** |"* ]]'
check sbs-runner-marked '[[ "$md" == *"flags-are-kept\` | passing | expected-failure | **yes** |"* ]]'
check sbs-listed '[[ "$md" == *"priority-is-clamped\` | passing | expected-failure | **yes** |"* ]]'
check sbs-unsupported '[[ "$md" == *"on-each-device\` | passing | unsupported | **yes** |"* ]]'
check sbs-timed-out-not-run '[[ "$md" == *"waits-for-event\` | passing | not-run | **yes** |"* ]]'
check sbs-chapter-counts '[[ "$md" == *"|  | cuda | 1 | 1 | 2 | 1 | 1 |"* ]]'
check sbs-timeout-noted '[[ "$md" == *"stream_wait_test has no results (it timed out"* ]]'
check sbs-json '[[ "$(cat "$out/sbs/coverage.json")" == *"\"clauses_differing\": 5"* ]]'
check sbs-html '[[ "$(cat "$out/sbs/index.html")" == *"only-differing"* ]]'
# Control: without the expectations file the listed failure is a failure.
run "$tool" --spec_dir="$sbs/spec" --sources="$sbs/sources" \
  --results="reference=$sbs/reference,cuda=$sbs/cuda" --out="$out/sbs2"
check sbs-unlisted-fails 'grep -q "priority-is-clamped\` | passing | failing |" "$out/sbs2/side_by_side.md"'
# Control: one backend writes no side-by-side report.
check one-backend-no-side-by-side '[ ! -e "$out/alone/side_by_side.md" ]'
run "$tool" --spec_dir="$sbs/spec" --sources="$sbs/sources" \
  --results="cuda=$sbs/cuda" --expectations="vendor=$sbs/cuda.txt" --out="$out/w"
check expectations-unknown-backend-exits-2 '[ "$status" -eq 2 ]'
check expectations-unknown-backend-named '[[ "$output" == *"names backend '"'"'vendor'"'"'"* ]]'

run "$tool" --spec_dir="$data/spec"
check missing-out-exits-2 '[ "$status" -eq 2 ]'

rm -rf "$out"
finish spec_coverage_cli_test
