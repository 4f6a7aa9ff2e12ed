#!/bin/bash
# Copyright mxcts authors.
#
# perf/native_cuda/run_pair.sh: runs, on the GPU machine, the benchmark
# binaries that build_pair.sh packed: each binary of the CUDA backend and
# its native twin in turn, several rounds, so that both meet the same
# machine state. Results are Google Benchmark JSON, one file per binary,
# side and round; `perf_dashboard compare` reads them (README.md here).
#
# Usage: run_pair.sh --out=DIR [--rounds=N] [--repetitions=N]
#          [--min_time=SECONDS] [--filter=REGEX]
#   --rounds       alternations of the two sides (default 2)
#   --repetitions  Google Benchmark repetitions per run (default 5)
#   --min_time     seconds each repetition runs at least
#                  (--benchmark_min_time; default Google Benchmark's)
#   --filter       only benchmarks matching REGEX (--benchmark_filter)
#
# DIR gets cuda/<binary>.<round>.json, native/<binary>.<round>.json and
# machine.txt (the GPU and driver as nvidia-smi reports them).
set -u
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out=""
rounds=2
repetitions=5
filter=""
min_time=""
for arg in "$@"; do
  case "$arg" in
    --out=*) out="${arg#--out=}" ;;
    --rounds=*) rounds="${arg#--rounds=}" ;;
    --repetitions=*) repetitions="${arg#--repetitions=}" ;;
    --filter=*) filter="${arg#--filter=}" ;;
    --min_time=*) min_time="${arg#--min_time=}" ;;
    *) echo "run_pair: unknown argument '$arg'" >&2; exit 2 ;;
  esac
done
for number in "$rounds" "$repetitions"; do
  if ! [[ "$number" =~ ^[1-9][0-9]*$ ]]; then
    echo "run_pair: '$number' is not a positive count" >&2
    exit 2
  fi
done
if [[ -n "$min_time" ]] && ! [[ "$min_time" =~ ^[0-9]*\.?[0-9]+$ ]]; then
  echo "run_pair: --min_time must be a number of seconds, not '$min_time'" >&2
  exit 2
fi
if [[ -z "$out" ]]; then
  echo "usage: run_pair.sh --out=DIR [--rounds=N] [--repetitions=N] [--min_time=SECONDS] [--filter=REGEX]" >&2
  exit 2
fi
mkdir -p "$out/cuda" "$out/native" || exit 2
export LD_LIBRARY_PATH="$here/lib:${CUDA_PATH:-/usr/local/cuda}/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$out/machine.txt" 2>&1
status=0
for round in $(seq "$rounds"); do
  for binary in "$here"/cuda/*; do
    name="$(basename "$binary")"
    # Odd rounds run the CUDA backend first, even rounds the native twin.
    order=(cuda native)
    [[ $((round % 2)) -eq 0 ]] && order=(native cuda)
    for side in "${order[@]}"; do
      flags=("--benchmark_repetitions=$repetitions"
        "--benchmark_out=$out/$side/$name.$round.json" --benchmark_out_format=json)
      [[ -n "$filter" ]] && flags+=("--benchmark_filter=$filter")
      [[ -n "$min_time" ]] && flags+=("--benchmark_min_time=$min_time")
      if ! "$here/$side/$name" "${flags[@]}" > "$out/$side/$name.$round.log" 2>&1; then
        echo "run_pair: $side/$name round $round failed ($out/$side/$name.$round.log)" >&2
        status=1
      fi
    done
  done
done
exit $status
