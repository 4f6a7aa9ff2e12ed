#!/bin/bash
# End-to-end test of tools/mutate on testdata/smoke, a library of three
# clause-tagged checks and one untagged one, built with the host compiler,
# and a fuzzer of it (lib/fuzz) with a tagged check of its own: Clamp's
# strong test kills both of its mutants, Halve's weak test lets the mutant
# that skips the odd case survive, Cap's clause has no test, and neither the
# untagged check nor the fuzzer's is mutated. Also checks that mutants of
# tests failing unmutated are "broken", not killed, the filters (--list,
# --shard, --max, --chapter, --changed), that the source is restored, and
# that bad flags are refused.
#
# Usage: mutate_smoke_test.sh PATH_TO_MUTATE
set -u
mutate="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
data="$(dirname "$1")/testdata/smoke"
source tools/testing/check.sh

work="$(mktemp -d "${TEST_TMPDIR:-/tmp}/mutate_smoke.XXXXXX")"
cp -rL "$data/." "$work/"
chmod -R u+w "$work"
original="$(cat "$work/lib/fixture.cc")"
out="$work/results.tsv"
fixture_flags=(--workspace="$work" --roots=lib --tests=tests --spec_dir=spec
  --query_command='echo {files}'
  --build_command='c++ -fsyntax-only lib/fixture.cc'
  --test_command='sh run_fixture_test.sh {targets}'
  --log_dir="$work/logs" --timeout=120)

run "$mutate" "${fixture_flags[@]}" --list
check list-exits-0 '[ "$status" -eq 0 ]'
check list-has-six '[[ "$output" == *"6 mutants"* ]]'
check list-names-clamp '[[ "$output" == *"lib/fixture.cc:5:negate	smoke.fixture.negative-is-zero	smoke	1 test sources"* ]]'
check untagged-not-mutated '[[ "$output" != *"lib/fixture.cc:27:"* ]]'
check fuzzer-not-mutated '[[ "$output" != *"lib/fuzz/"* ]]'
# Control: the same check outside the fuzz directory is a mutant.
cp "$work/lib/fuzz/fixture_fuzzer.cc" "$work/lib/fuzzer_copy.cc"
run "$mutate" "${fixture_flags[@]}" --list
check fuzzer-copy-mutated '[[ "$output" == *"lib/fuzzer_copy.cc:8:negate"* ]]'
rm "$work/lib/fuzzer_copy.cc"

run "$mutate" "${fixture_flags[@]}" --out="$out"
check run-exits-0 '[ "$status" -eq 0 ]'
status_of() { awk -F'\t' -v id="$1" '$1 == id { print $7 }' "$out"; }
check clamp-negate-killed '[ "$(status_of lib/fixture.cc:5:negate)" = killed ]'
check clamp-skip-killed '[ "$(status_of lib/fixture.cc:5:skip)" = killed ]'
check halve-negate-killed '[ "$(status_of lib/fixture.cc:13:negate)" = killed ]'
check halve-skip-survives '[ "$(status_of lib/fixture.cc:13:skip)" = survived ]'
check cap-has-no-tests '[ "$(status_of lib/fixture.cc:20:negate)" = no-tests ]'
check six-results '[ "$(tail -n +2 "$out" | wc -l)" -eq 6 ]'
check summary-score '[[ "$output" == *"smoke"*"75.0%"* ]]'
check source-restored '[ "$(cat "$work/lib/fixture.cc")" = "$original" ]'

# --resume runs nothing already in the results file.
run "$mutate" "${fixture_flags[@]}" --out="$out" --resume
check resume-runs-nothing '[[ "$output" != *"] killed"* ]]'
check resume-keeps-six '[ "$(tail -n +2 "$out" | wc -l)" -eq 6 ]'

# Shards partition the mutants; --max caps them; --only and --chapter
# filter.
run "$mutate" "${fixture_flags[@]}" --list --shard=0/2
check shard-0-has-three '[[ "$output" == *"3 mutants"* ]]'
shard0="$output"
run "$mutate" "${fixture_flags[@]}" --list --shard=1/2
check shards-disjoint '[ "$(printf "%s\n%s\n" "$shard0" "$output" | grep -c ":5:negate")" -eq 1 ]'
run "$mutate" "${fixture_flags[@]}" --list --max=2
check max-caps '[[ "$output" == *"2 mutants"* ]]'
run "$mutate" "${fixture_flags[@]}" --list --only=lib/fixture.cc:13:skip
check only-selects '[[ "$output" == *"1 mutants"* ]] && [[ "$output" == *"lib/fixture.cc:13:skip"* ]]'
run "$mutate" "${fixture_flags[@]}" --list --chapter=other
check chapter-filters '[[ "$output" == *"0 mutants"* ]]'

# --changed: only files differing from the revision.
git -C "$work" init -q
git -C "$work" add -A
git -C "$work" -c user.name=t -c user.email=t@t commit -qm fixture
run "$mutate" "${fixture_flags[@]}" --list --changed=HEAD
check unchanged-has-none '[[ "$output" == *"0 mutants"* ]]'
echo "// edited" >>"$work/lib/fixture.cc"
run "$mutate" "${fixture_flags[@]}" --list --changed=HEAD
check changed-has-six '[[ "$output" == *"6 mutants"* ]]'

# Tests failing unmutated make their mutants "broken", not killed.
run "$mutate" "${fixture_flags[@]}" --out="$work/broken.tsv" \
  --test_command='false {targets}'
check failing-baseline-runs '[ "$status" -eq 0 ]'
check failing-baseline-is-broken '[ "$(grep -c "	broken	" "$work/broken.tsv")" -eq 4 ]'
check broken-kills-nothing '[ "$(grep -c "	killed	" "$work/broken.tsv")" -eq 0 ]'

# Equivalent mutants (--equivalents) are not run and do not count; an
# entry that matches nothing is reported.
status_in() { awk -F'\t' -v id="$2" '$1 == id { print $7 }' "$1"; }
{
  printf '# file\toperator\tcheck\treason\n'
  printf 'lib/fixture.cc\tskip\tv  %%  2 != 0\tfixture: listed as equivalent\n'
  printf 'lib/fixture.cc\tnegate\tv > 999\tstale\n'
} >"$work/equivalents.tsv"
run "$mutate" "${fixture_flags[@]}" --equivalents=equivalents.tsv --list
check list-shows-equivalent '[[ "$output" == *"lib/fixture.cc:13:skip"*"equivalent: fixture: listed as equivalent"* ]]'
check stale-entry-reported '[[ "$output" == *"equivalents line 3: no negate mutant of \"v > 999\""* ]]'
run "$mutate" "${fixture_flags[@]}" --equivalents=equivalents.tsv \
  --out="$work/equivalent.tsv" --only=lib/fixture.cc:13:skip,lib/fixture.cc:13:negate
check equivalent-status '[ "$(status_in "$work/equivalent.tsv" lib/fixture.cc:13:skip)" = equivalent ]'
check equivalent-score '[[ "$output" == *"smoke"*"100.0%"* ]]'
# Control: without the file the same mutant runs and survives.
run "$mutate" "${fixture_flags[@]}" --out="$work/plain.tsv" --only=lib/fixture.cc:13:skip
check plain-survives '[ "$(status_in "$work/plain.tsv" lib/fixture.cc:13:skip)" = survived ]'
run "$mutate" "${fixture_flags[@]}" --equivalents=missing.tsv --list
check missing-equivalents-named '[ "$status" -eq 2 ] && [[ "$output" == *"missing.tsv"* ]]'

run "$mutate" "${fixture_flags[@]}" --list --shard=2/2
check bad-shard-exits-2 '[ "$status" -eq 2 ]'
run "$mutate" "${fixture_flags[@]}" --list --operators=invert
check bad-operator-named '[ "$status" -eq 2 ] && [[ "$output" == *"invert"* ]]'
run "$mutate" --workspace="$work/missing" --list
check missing-workspace-named '[ "$status" -eq 2 ] && [[ "$output" == *"missing: not a directory"* ]]'

finish mutate_smoke_test
