#!/bin/bash
# Tests the perf_dashboard command and inject_step on testdata/: a history
# of imported runs, a step planted in a copy and found there (and not in the
# original), the page written, the local machine's fingerprint recorded, and
# each bad input refused with a message naming what is wrong.
#
# Usage: perf_dashboard_cli_test.sh PATH_TO_PERF_DASHBOARD PATH_TO_INJECT_STEP
set -u
tool="$1"
inject="$2"
data="$(dirname "$tool")/testdata"
work="$(mktemp -d "${TEST_TMPDIR:-/tmp}/perf_dashboard.XXXXXX")"
source tools/testing/check.sh
db="$work/history.sqlite"

# Eight nightly runs of the reference, a day apart, at commits c0..c7.
for i in 0 1 2 3 4 5 6 7; do
  run "$tool" import --db="$db" --backend=reference --commit="c$i" \
    --date="2026-11-1${i}T02:30:00+00:00" "$data/reference.json"
  check "import-$i" '[ "$status" -eq 0 ]'
done
check import-says-what '[[ "$output" == *"recorded run 8 (reference at c7, 2026-11-17T02:30:00Z): 2 benchmarks, 6 repetitions"* ]]'
# The CUDA adapter's results from a GPU machine: the date and core count
# come from the file, the CPU from a flag.
run "$tool" import --db="$db" --backend=cuda --commit=c7 \
  --cpu_model="Intel Xeon" --memory_bytes=68719476736 --kernel="Linux 6.8" \
  "$data/cuda.json"
check import-cuda '[ "$status" -eq 0 ]'
run "$tool" runs --db="$db"
check runs-listed '[[ "$output" == *"perf_dashboard: 9 runs"* ]]'
check cuda-machine '[[ "$output" == *"2026-11-21T04:00:00Z cuda c7 Intel Xeon, 32 cores, 64.0 GiB, Linux 6.8"* ]]'

run "$tool" detect --db="$db"
check steady-history-no-alarm '[ "$status" -eq 0 ]'
check steady-history-counts '[[ "$output" == *"0 current regressions"* ]]'

# A 30% step in the launch ratio from the fifth run (c4) on, in a copy.
run "$inject" --db="$db" --out="$work/injected.sqlite" --backend=reference \
  --benchmark=BM_EmptyLaunchAndSynchronize/real_time \
  --counter=ratio_to_context_switch --from_run=4 --factor=1.3
check inject-ok '[ "$status" -eq 0 ]'
check inject-count '[[ "$output" == *"12 values of"* ]]'
run "$tool" detect --db="$work/injected.sqlite"
check step-found '[ "$status" -eq 1 ]'
check step-named '[[ "$output" == *"REGRESSION BM_EmptyLaunchAndSynchronize/real_time ratio_to_context_switch on reference: +30.0%"* ]]'
check step-commit-range '[[ "$output" == *"at commits c3..c4 (2026-11-13T02:30:00Z .. 2026-11-14T02:30:00Z)"* ]]'
check step-only '[[ "$output" == *"1 changes, 1 current regressions"* ]]'
# Control: below a minimum effect of 40% the same step is not reported.
run "$tool" detect --db="$work/injected.sqlite" --min_effect=0.4
check min-effect-control '[ "$status" -eq 0 ]'
# The original is untouched.
run "$tool" detect --db="$db"
check original-untouched '[ "$status" -eq 0 ]'

run "$tool" html --db="$work/injected.sqlite" --out="$work/no/such/dir/dashboard.html"
check html-unwritable '[ "$status" -eq 2 ] && [[ "$output" == *"$work/no/such/dir/dashboard.html"* ]]'
run "$tool" html --db="$work/injected.sqlite" --out="$work/dashboard.html"
check html-written '[ "$status" -eq 0 ] && [ -s "$work/dashboard.html" ]'
check html-says '[[ "$output" == *"(9 runs, 3 series, 1 changes)"* ]]'
page="$(cat "$work/dashboard.html")"
check html-regression-table '[[ "$page" == *"id=\"current-regressions\""* ]]'
check html-three-charts '[ "$(grep -o "class=\"chart\" id=" <<<"$page" | wc -l)" -eq 3 ]'

# record: this machine's fingerprint, now.
run "$tool" record --db="$db" --backend=reference --commit=c8 "$data/reference.json"
check record-ok '[ "$status" -eq 0 ]'
run "$tool" runs --db="$db"
check record-fingerprint '[[ "$(tail -n 2 <<<"$output" | head -n 1)" == *" reference c8 "*" cores"*"Linux "* ]]'

# A benchmark that reported an error is left out; the rest is recorded.
run "$tool" import --db="$db" --backend=reference --commit=c9 "$data/with_error.json"
check error-left-out '[ "$status" -eq 0 ] && [[ "$output" == *"warning: $data/with_error.json: left out: BM_MallocFreePair/bytes:4096: mcMalloc returned"* ]]'
check error-rest-recorded '[[ "$output" == *"1 benchmarks, 1 repetitions"* ]]'

# Bad input: each names the file or flag and records nothing.
run "$tool" runs --db="$db"
runs_before="$output"
# compare: the same benchmark sources on one machine, two implementations.
# The launch benchmark has the same times on both sides; a copy of the
# CUDA file 20% slower is the control.
run "$tool" compare --baseline="$data/reference.json" --candidate_name=cuda \
  --baseline_name=native "$data/cuda.json"
check compare-within '[ "$status" -eq 0 ] && [[ "$output" == *"| BM_EmptyLaunchAndSynchronize/real_time | 101.0 ns | 101.0 ns | 1.000 | yes |"* ]]'
check compare-one-sided '[[ "$output" == *"only native ran BM_MemcpyHostToDevice/pinned:1/bytes:1048576/real_time"* ]]'
check compare-summary '[[ "$output" == *"1 benchmarks compared, 0 beyond 5% of native"* ]]'
sed 's/"real_time": 10\([0-9]\)\.0/"real_time": 12\1.0/' "$data/cuda.json" > "$work/slower.json"
run "$tool" compare --baseline="$data/reference.json" "$work/slower.json"
check compare-beyond '[ "$status" -eq 1 ] && [[ "$output" == *"| 1.198 | **no** |"* ]] && [[ "$output" == *"1 beyond 5% of baseline"* ]]'
run "$tool" compare --baseline="$data/reference.json" --tolerance=0.25 "$work/slower.json"
check compare-tolerance '[ "$status" -eq 0 ] && [[ "$output" == *"within 25% |"* ]]'
run "$tool" compare "$data/cuda.json"
check compare-needs-baseline '[ "$status" -eq 2 ] && [[ "$output" == *"compare needs --baseline"* ]]'
run "$tool" compare --baseline="$work/missing.json" "$data/cuda.json"
check compare-missing-file '[ "$status" -eq 2 ] && [[ "$output" == *"$work/missing.json"* ]]'
run "$tool" compare --baseline="$data/truncated.json" "$data/cuda.json"
check compare-truncated '[ "$status" -eq 2 ] && [[ "$output" == *"$data/truncated.json: not Google Benchmark JSON"* ]]'

run "$tool" import --db="$db" --backend=reference --commit=x "$work/missing.json"
check missing-file '[ "$status" -eq 2 ] && [[ "$output" == *"$work/missing.json"* ]]'
run "$tool" import --db="$db" --backend=reference --commit=x "$data/truncated.json"
check truncated-file '[ "$status" -eq 2 ] && [[ "$output" == *"$data/truncated.json: not Google Benchmark JSON"* ]]'
run "$tool" import --db="$db" --backend=reference --commit=x "$data/reference.json" "$data/reference.json"
check duplicate-benchmark '[ "$status" -eq 2 ] && [[ "$output" == *"is also in $data/reference.json"* ]]'
run "$tool" import --db="$db" --backend=reference --commit=x --date=yesterday "$data/reference.json"
check bad-date '[ "$status" -eq 2 ] && [[ "$output" == *"date \"yesterday\" is not RFC 3339"* ]]'
run "$tool" import --db="$db" --backend=reference "$data/reference.json"
check needs-commit '[ "$status" -eq 2 ] && [[ "$output" == *"--backend and --commit are required"* ]]'
run "$tool" runs --db="$db"
check nothing-recorded '[ "$output" = "$runs_before" ]'
run "$tool" detect --db="$work/nowhere.sqlite"
check missing-history '[ "$status" -eq 2 ] && [[ "$output" == *"$work/nowhere.sqlite: no such history"* ]]'
run "$tool" detect --db="$data/reference.json"
check not-a-database '[ "$status" -eq 2 ] && [[ "$output" == *"$data/reference.json"* ]]'
run "$tool" detect --db="$db" --alpha=2
check bad-alpha '[ "$status" -eq 2 ] && [[ "$output" == *"--alpha must be between 0 and 1"* ]]'
run "$tool" detect --db="$db" --window=1
check bad-window '[ "$status" -eq 2 ] && [[ "$output" == *"--window must be at least --min_runs"* ]]'
run "$tool" frobnicate --db="$db"
check unknown-command '[ "$status" -eq 2 ] && [[ "$output" == *"unknown command \"frobnicate\""* ]]'
run "$inject" --db="$db" --out="$work/none.sqlite" --benchmark=BM_Nothing \
  --counter=ratio_to_memcpy --from_run=0 --factor=2
check inject-nothing '[ "$status" -eq 2 ] && [[ "$output" == *"no value of BM_Nothing"* ]] && [ ! -e "$work/none.sqlite" ]'
run "$inject" --db="$db" --out="$work/injected.sqlite" --benchmark=BM_X \
  --counter=ratio_to_memcpy --from_run=0 --factor=2
check inject-existing-copy '[ "$status" -eq 2 ] && [[ "$output" == *"$work/injected.sqlite: already exists"* ]]'

finish perf_dashboard_cli_test
