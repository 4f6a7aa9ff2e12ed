#!/bin/bash
# Copyright mxcts authors.
#
# run.sh: runs the conformance tests of a CUDA backend bundle
# (make_bundle.sh) on a machine with an NVIDIA GPU, as Bazel would run each
# test target: under the expectation runner, with the backend's capability
# manifest in $MXMACA_CAPABILITIES, GoogleTest's XML in $XML_OUTPUT_FILE,
# one process per target, a timeout each. The runner isolates the cases of
# each binary (docs/backend-guide.md, "Crash and hang isolation"): a case
# that crashes or makes no progress for half the timeout is reported as
# that case's failure, and the binary's other cases still run and report.
#
# Usage: run.sh [RESULTS_DIR] [JOBS]   (defaults: results, 4)
#
# The memory chapter and the pool tests that measure free memory run alone
# after the rest (see below; MXCTS_SERIAL_TARGETS is the pattern of labels
# that do). A chapter with no such test runs no serial part (xargs -r).
# Writes RESULTS_DIR/<target>.xml and .log per target, and
# RESULTS_DIR/summary.txt: one line per target, "PASSED", "FAILED" or
# "TIMEOUT" and the label, then the counts, the crashed or hung cases among
# them. The manifest's device_count is the number of GPUs nvidia-smi lists.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")" || exit 1
bundle="$(pwd)"
results="${1:-results}"
jobs="${2:-4}"
mkdir -p "$results"
results="$(cd "$results" && pwd)"
export LD_LIBRARY_PATH="$bundle/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

devices="$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')"
sed "s/^device_count .*/device_count             ${devices:-1}/" capabilities.txt \
  > "$results/capabilities.txt"
export MXMACA_CAPABILITIES="$results/capabilities.txt"

run_one() {
  local label="$1" binary="$2"
  local scratch
  scratch="$(mktemp -d)"
  local status=0
  (
    cd "$scratch" || exit 1
    export XML_OUTPUT_FILE="$results/$binary.xml" TEST_TMPDIR="$scratch"
    export TEST_TIMEOUT="${MXCTS_TEST_TIMEOUT:-300}"
    timeout -k 10 "$TEST_TIMEOUT" "$bundle/expectation_runner" \
      --target="$label" --backend=cuda \
      --expectations="$bundle/expectations.txt" \
      --expectations_name=conformance/expectations/cuda.txt \
      -- "$bundle/bin/$binary"
  ) > "$results/$binary.log" 2>&1 || status=$?
  rm -rf "$scratch"
  case "$status" in
    0) echo "PASSED $label" ;;
    124 | 137) echo "TIMEOUT $label" ;;
    *) echo "FAILED $label" ;;
  esac
}
export -f run_one
export bundle results

# The memory chapter's tests, and the pool tests that do the same
# (pool_lifecycle_test, stream_ordered_allocation_test), compare the
# device's free memory before and after a call; on a real GPU that memory is
# shared by every process on it, so they run alone, one after another, once
# the rest have run in parallel.
serial="${MXCTS_SERIAL_TARGETS:-^//conformance/api/memory/|^//conformance/api/memory_pools/(execution:pool_lifecycle|validation:stream_ordered_allocation)_test( |\$)}"
{
  grep -v -E "$serial" targets.txt | xargs -r -P "$jobs" -L 1 bash -c 'run_one "$0" "$1"'
  grep -E "$serial" targets.txt | xargs -r -P 1 -L 1 bash -c 'run_one "$0" "$1"'
} | sort -k2 > "$results/summary.txt"
{
  echo "passed: $(grep -c '^PASSED' "$results/summary.txt")"
  echo "failed: $(grep -c '^FAILED' "$results/summary.txt")"
  echo "timed out: $(grep -c '^TIMEOUT' "$results/summary.txt")"
  echo "crashed or hung cases: $(cat "$results"/*.log 2>/dev/null |
    grep -c 'a crash or hang is never a known failure')"
} >> "$results/summary.txt"
tail -n 4 "$results/summary.txt"
