#!/bin/bash
# Tests tools/nightly in a stand-in checkout: bazel, git-less commit, setup
# and the benchmark binaries are stubs on a private PATH and tree, the
# history and the page are written by the real perf_dashboard. Checks that
# a run is recorded with the flags passed on, that a binary the filter
# leaves out is skipped, that a failing benchmark records nothing, and that
# bad usage is refused.
#
# Usage: nightly_test.sh PATH_TO_NIGHTLY PATH_TO_STEPS_SH PATH_TO_PERF_DASHBOARD TESTDATA_DIR
set -u
nightly="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
steps="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"
dashboard="$(cd "$(dirname "$3")" && pwd)/$(basename "$3")"
data="$(cd "$4" && pwd)"
work="$(mktemp -d "${TEST_TMPDIR:-/tmp}/nightly_test.XXXXXX")"
source tools/testing/check.sh

# The stand-in checkout: the real script and steps.sh, a setup that is
# satisfied, and bazel-bin with two stub benchmark binaries and the real
# perf_dashboard.
root="$work/checkout"
mkdir -p "$root/tools" "$root/bazel-bin/perf/engine" "$root/bazel-bin/perf/runtime" \
  "$root/bazel-bin/tools/perf_results" "$work/bin"
cp "$nightly" "$root/tools/nightly"
cp "$steps" "$root/tools/steps.sh"
printf '#!/bin/bash\necho "setup: all required packages are installed"\n' >"$root/tools/setup"
chmod +x "$root/tools/setup" "$root/tools/nightly"
ln -s "$dashboard" "$root/bazel-bin/tools/perf_results/perf_dashboard"

# A benchmark stub: lists its benchmarks (filtered by --benchmark_filter),
# or logs its arguments and MACA_PATH and writes its JSON to
# --benchmark_out; fails when $work/fail exists.
make_benchmark() {
  local path="$1" json="$2" names="$3"
  cat >"$path" <<STUB
#!/bin/bash
filter=""
for arg in "\$@"; do
  case "\$arg" in
    --benchmark_filter=*) filter="\${arg#*=}" ;;
    --benchmark_out=*) out="\${arg#*=}" ;;
  esac
done
if [[ " \$* " == *" --benchmark_list_tests "* ]]; then
  for name in $names; do [[ "\$name" =~ \$filter ]] && echo "\$name"; done
  exit 0
fi
echo "\$(basename "\$0") \$* MACA_PATH=\$MACA_PATH" >>"$work/calls.log"
[ -e "$work/fail" ] && { echo "benchmark failed"; exit 1; }
cp "$json" "\$out"
echo "BM_done"
STUB
  chmod +x "$path"
}
make_benchmark "$root/bazel-bin/perf/engine/engine_benchmark" "$data/reference.json" \
  "BM_EmptyLaunchAndSynchronize BM_MemcpyHostToDevice"
make_benchmark "$root/bazel-bin/perf/runtime/runtime_benchmark" "$data/with_error.json" \
  "BM_StreamQueryIdle BM_MallocFreePair"
cat >"$work/bin/bazel" <<STUB
#!/bin/bash
echo "bazel \$*" >>"$work/bazel.log"
case "\$1" in
  query) printf '//perf/runtime:runtime_benchmark\n//perf/engine:engine_benchmark\n' ;;
  build) echo "INFO: Build completed successfully, 3 total actions" ;;
esac
STUB
chmod +x "$work/bin/bazel"
export PATH="$work/bin:$PATH"
db="$work/history.sqlite"
html="$work/dashboard.html"

run "$root/tools/nightly" --db="$db" --html="$html" --commit=abc123 \
  --repetitions=3 --min_time=0.01
check records '[ "$status" -eq 0 ] && [[ "$output" == *"recorded run 1 (reference at abc123"* ]]'
check both-binaries-ran '[ "$(wc -l <"$work/calls.log")" -eq 2 ]'
check flags-passed '[[ "$(cat "$work/calls.log")" == *"--benchmark_repetitions=3"*"--benchmark_min_time=0.01"* ]]'
check maca-path '[[ "$(cat "$work/calls.log")" == *"MACA_PATH=$root/bazel-bin/reference/sdk"* ]]'
check built-for-backend '[[ "$(cat "$work/bazel.log")" == *"build --compilation_mode=opt --//conformance:backend=//reference/backend"*"//perf/engine:engine_benchmark"*"//reference:sdk"* ]]'
check page-written '[ -s "$html" ] && [[ "$output" == *"nightly: dashboard $html"* ]]'
run "$dashboard" runs --db="$db"
check run-in-history '[[ "$output" == *" reference abc123 "*"[nightly]"* ]]'

# A filter that only the engine's benchmarks match: the runtime is skipped.
: >"$work/calls.log"
run "$root/tools/nightly" --db="$db" --html="$html" --commit=abc124 \
  --filter=BM_EmptyLaunch --name=ref2
check filtered-records '[ "$status" -eq 0 ] && [[ "$output" == *"recorded run 2 (ref2 at abc124"* ]]'
check filtered-skips '[[ "$output" == *"runtime_benchmark skipped"* ]]'
check filtered-one-call '[ "$(wc -l <"$work/calls.log")" -eq 1 ] && [[ "$(cat "$work/calls.log")" == *"--benchmark_filter=BM_EmptyLaunch"* ]]'

# A failing benchmark: the nightly fails and records nothing.
touch "$work/fail"
run "$root/tools/nightly" --db="$db" --html="$html" --commit=abc125
check failing-benchmark-fails '[ "$status" -eq 1 ] && [[ "$output" == *"engine_benchmark FAILED"* ]]'
rm -f "$work/fail"
run "$dashboard" runs --db="$db"
check nothing-recorded '[[ "$output" == *"perf_dashboard: 2 runs"* ]]'

# A filter nothing matches.
run "$root/tools/nightly" --db="$db" --html="$html" --commit=abc126 --filter=BM_Nothing
check no-match '[ "$status" -eq 1 ] && [[ "$output" == *"no benchmark matches the filter"* ]]'

# Bad usage.
run "$root/tools/nightly" --repetitions=zero
check bad-repetitions '[ "$status" -eq 2 ] && [[ "$output" == *"--repetitions must be a positive number"* ]]'
run "$root/tools/nightly" --min_time=soon
check bad-min-time '[ "$status" -eq 2 ] && [[ "$output" == *"--min_time must be a number of seconds"* ]]'
run "$root/tools/nightly" --frobnicate
check unknown-argument '[ "$status" -eq 2 ] && [[ "$output" == *"unknown argument"* ]] && [[ "$output" == *"Usage: tools/nightly"* ]]'

finish nightly_test
