#!/bin/bash
# Runs the benchmark binary given as $1 briefly and checks that it reports its
# benchmark in JSON; a filter that matches nothing must report none (control).
set -u
probe="$1"
fail() { echo "FAIL: $*" >&2; exit 1; }

out="$("$probe" --benchmark_min_time=0.001 --benchmark_format=json)" ||
  fail "benchmark binary exited $?"
grep -q '"name": "BM_LinkProbe"' <<<"$out" || fail "BM_LinkProbe missing: $out"

none="$("$probe" --benchmark_filter=NoSuchBenchmark --benchmark_format=json 2>&1)"
if grep -q '"name": "BM_LinkProbe"' <<<"$none"; then
  fail "a filter matching nothing still ran BM_LinkProbe"
fi
echo "PASS"
