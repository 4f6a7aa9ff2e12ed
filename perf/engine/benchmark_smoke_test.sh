#!/bin/bash
# Copyright mxcts authors.
#
# Runs a benchmark binary for the least time each benchmark allows and
# fails if it fails or reports an error (a wrong result, a failed call).
set -euo pipefail
binary="$1"
output=$("$binary" --benchmark_min_time=0.001 --benchmark_format=json 2>&1) || {
  echo "$output"
  echo "FAIL: $binary exited with an error"
  exit 1
}
if grep -q '"error_occurred": true' <<<"$output"; then
  echo "$output"
  echo "FAIL: a benchmark reported an error"
  exit 1
fi
count=$(grep -c '"name":' <<<"$output" || true)
if [[ "$count" -lt 1 ]]; then
  echo "$output"
  echo "FAIL: no benchmark ran"
  exit 1
fi
echo "PASS: $count benchmarks ran"
