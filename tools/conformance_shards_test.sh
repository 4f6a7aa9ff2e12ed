#!/bin/bash
# Tests splitting the conformance suite over machines (conformance_shards.sh,
# behind tools/run_conformance --shard=I/N and --merge): the split of labels
# is a partition, the same whatever order the labels come in; results are
# collected per target, a Bazel-sharded target's from its current shards
# only; and on the results in testdata/conformance_shards, three machines'
# parts counted and reported together give the same cases and the same
# coverage report as one unsharded run. Incomplete, repeated and mismatched
# parts are refused.
#
# Usage: conformance_shards_test.sh RESULTS_SUMMARY SPEC_COVERAGE
#   RESULTS_SUMMARY  //tools/results_summary (the program of tools/test_summary)
#   SPEC_COVERAGE    //tools/spec_coverage
set -u
source tools/testing/check.sh
source tools/conformance_shards.sh

summary="$1"
coverage="$2"
data="tools/testdata/conformance_shards"
scratch="$(mktemp -d "${TEST_TMPDIR:-/tmp}/conformance_shards_test.XXXXXX")"
trap 'rm -rf "$scratch"' EXIT

# 1. Parsing --shard.
for spec in 1/1 1/3 3/3 03/10; do
  run shard_parse "$spec"
  check "$spec is a shard" '[ "$status" -eq 0 ]'
done
shard_parse 03/10
check "03/10 is part 3 of 10" '[ "$shard_index" = 3 ] && [ "$shard_total" = 10 ]'
for spec in 0/3 4/3 1/0 3 a/b 1/3/5 "" -1/3; do
  run shard_parse "$spec"
  check "'$spec' is refused" '[ "$status" -eq 2 ] && [[ "$output" == *"--shard takes I/N"* ]]'
done

# 2. The split: 10 labels over 3 machines.
labels=()
for k in $(seq 10); do labels+=("//conformance/p$((k % 4)):t${k}_test"); done
printf '%s\n' "${labels[@]}" >"$scratch/labels"
sort -r "$scratch/labels" >"$scratch/labels_reversed"
for i in 1 2 3; do
  shard_select "$i" 3 <"$scratch/labels" >"$scratch/part$i"
  shard_select "$i" 3 <"$scratch/labels_reversed" >"$scratch/part${i}_reversed"
  check "part $i does not depend on the input's order" \
    'cmp -s "$scratch/part$i" "$scratch/part${i}_reversed"'
done
check "the parts are 4, 3 and 3 labels" \
  '[ "$(cat "$scratch/part1" | wc -l) $(cat "$scratch/part2" | wc -l) $(cat "$scratch/part3" | wc -l)" = "4 3 3" ]'
check "the parts' union is every label, each once" \
  '[ "$(cat "$scratch"/part[123] | LC_ALL=C sort)" = "$(LC_ALL=C sort "$scratch/labels")" ]'
check "one part of one is everything" \
  '[ "$(shard_select 1 1 <"$scratch/labels")" = "$(LC_ALL=C sort "$scratch/labels")" ]'
# Control: another number of machines splits differently.
check "a split into 2 is another split" \
  '[ "$(shard_select 1 2 <"$scratch/labels")" != "$(cat "$scratch/part1")" ]'

# 3. Collecting results: testdata's testlogs hold six current targets,
# sync_test sharded by Bazel in two, stale files of an earlier unsharded and
# 3-shard sync_test, and a deleted target.
testlogs="$data/testlogs"
targets=()
for name in create destroy flags priority query sync; do
  targets+=("//conformance/stream:${name}_test")
done
echo "//conformance/stream:sync_test 2" >"$scratch/counts"
run results_collect "$testlogs" "$scratch/whole" "$scratch/counts" "${targets[@]}"
check "collecting every target's results succeeds" '[ "$status" -eq 0 ]'
check "a sharded target's current shards are collected, not its stale files" \
  '[ "$(cd "$scratch/whole/conformance/stream/sync_test" && find . -type f | sort | tr "\n" " ")" = "./shard_1_of_2/test.xml ./shard_2_of_2/test.xml " ]'
check "a deleted target's results are not collected" \
  '[ ! -e "$scratch/whole/conformance/stream/deleted_test" ]'
: >"$scratch/no_counts"
run results_collect "$testlogs" "$scratch/unsharded" "$scratch/no_counts" \
  //conformance/stream:sync_test
check "a target Bazel does not shard gives its test.xml" \
  '[ -f "$scratch/unsharded/conformance/stream/sync_test/test.xml" ] && [ "$status" -eq 0 ]'
run results_collect "$testlogs" "$scratch/missing" "$scratch/counts" \
  //conformance/stream:sync_test //conformance/stream:never_built_test
check "a target without results is named" \
  '[ "$status" -eq 1 ] && [[ "$output" == *"no results of //conformance/stream:never_built_test"* ]]'

# 4. Three machines, each with its part; then merged.
commit="0123abc"
printf '%s\n' "${targets[@]}" >"$scratch/targets"
for i in 1 2 3; do
  mapfile -t part < <(shard_select "$i" 3 <"$scratch/targets")
  results_collect "$testlogs" "$scratch/machine$i" "$scratch/counts" "${part[@]}"
  shard_manifest_write "$scratch/machine$i" "$i" 3 reference "$commit" "${part[@]}"
done
machines=("$scratch/machine1" "$scratch/machine2" "$scratch/machine3")
run shard_manifests_check "${machines[@]}"
check "the three parts are one split" '[ "$status" -eq 0 ] && [ "$output" = reference ]'
check "the parts hold every target once" \
  '[ "$(sed -n "s/^target //p" "$scratch"/machine*/shard.txt | sort)" = "$(sort "$scratch/targets")" ]'

run "$summary" "$scratch/whole"
whole_count="$(tail -n 1 <<<"$output")"
check "the unsharded count" \
  '[ "$whole_count" = "tests: 7 passed, 1 failed, 1 skipped" ]'
run "$summary" "${machines[@]}"
check "the three parts count the same cases" \
  '[ "$(tail -n 1 <<<"$output")" = "$whole_count" ]'
run "$summary" "$scratch/machine1" "$scratch/machine2"
check "two parts of three count fewer (control)" \
  '[ "$(tail -n 1 <<<"$output")" != "$whole_count" ]'

report() { # report OUT DIR...: the coverage report of DIR... as one backend
  local out="$1" spec="" dir
  shift
  for dir in "$@"; do spec+="${spec:+,}reference=$dir"; done
  run "$coverage" --spec_dir="$data/spec" --sources="$data/sources" \
    --results="$spec" --out="$out"
}
report "$scratch/report_whole" "$scratch/whole"
check "the unsharded report is written" '[ "$status" -eq 0 ]'
json="$(cat "$scratch/report_whole/coverage.json" 2>/dev/null)"
check "the unsharded report sees the failing and skipped clauses" \
  '[[ "$json" == *"\"clauses_covered\": 7,"* ]] && [[ "$json" == *"\"clauses_passing\": 5,"* ]]'
report "$scratch/report_merged" "${machines[@]}"
check "the merged report is written" '[ "$status" -eq 0 ]'
for file in coverage.json summary.md index.html; do
  check "the merged $file is the unsharded one" \
    'cmp -s "$scratch/report_whole/$file" "$scratch/report_merged/$file"'
done
report "$scratch/report_two" "$scratch/machine1" "$scratch/machine2"
check "two parts of three report less (control)" \
  '! cmp -s "$scratch/report_whole/coverage.json" "$scratch/report_two/coverage.json"'
report "$scratch/report_overlap" "$scratch/machine1" "$scratch/whole"
check "overlapping parts are refused by the report" \
  '[ "$status" -eq 2 ] && [[ "$output" == *"is in both $scratch/machine1 and $scratch/whole"* ]]'

# 5. Parts that are not one split.
run shard_manifests_check "$scratch/machine1" "$scratch/machine2"
check "a missing part is named" '[ "$status" -ne 0 ] && [[ "$output" == *"part 3/3 is missing"* ]]'
run shard_manifests_check "$scratch/machine1" "$scratch/machine1" "$scratch/machine2"
check "a repeated part is named" '[ "$status" -ne 0 ] && [[ "$output" == *"part 1/3 is given twice"* ]]'
run shard_manifests_check "$scratch/machine1" "$scratch/whole"
check "a directory without shard.txt is named" \
  '[ "$status" -ne 0 ] && [[ "$output" == *"$scratch/whole has no shard.txt"* ]]'
cp -r "$scratch/machine3" "$scratch/other_commit"
sed -i 's/^commit .*/commit 4567def/' "$scratch/other_commit/shard.txt"
run shard_manifests_check "$scratch/machine1" "$scratch/machine2" "$scratch/other_commit"
check "a part of another commit is refused" \
  '[ "$status" -ne 0 ] && [[ "$output" == *"at commit 4567def, the others at $commit"* ]]'
cp -r "$scratch/machine3" "$scratch/other_split"
sed -i 's|^shard .*|shard 3/4|' "$scratch/other_split/shard.txt"
run shard_manifests_check "$scratch/machine1" "$scratch/machine2" "$scratch/other_split"
check "a part of another split is refused" \
  '[ "$status" -ne 0 ] && [[ "$output" == *"is a part of 4, the others of 3"* ]]'

finish conformance_shards_test
