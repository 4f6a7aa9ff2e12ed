#!/bin/bash
# Copyright mxcts authors.
#
# perf/native_cuda/build_pair.sh: builds the perf/ benchmarks twice, with
# the CUDA backend (//backends/cuda:backend) and with the native CUDA twin
# (//perf/native_cuda:backend), and packs both for a GPU machine without
# Bazel, where run_pair.sh runs them (README.md here).
#
# Usage, from anywhere in the checkout:
#   perf/native_cuda/build_pair.sh --out=DIR
#
# The benchmarks are the targets of perf/ tagged "benchmark", less those
# tagged with a capability either manifest does not claim (their sources
# would not compile). DIR gets:
#   cuda/<binary>, native/<binary>   the stripped benchmark binaries
#   lib/                             their shared libraries beyond the C
#                                    library's (not the GPU driver's, not
#                                    NVRTC: the GPU machine's toolkit has it)
#   run_pair.sh, targets.txt         the runner and the labels built
# and DIR.tar.xz, the same folder compressed.
#
# Both builds use this checkout's output tree one after the other, so run
# it where no other build is running.
set -u
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out=""
for arg in "$@"; do
  case "$arg" in
    --out=*) out="${arg#--out=}" ;;
    *) echo "build_pair: unknown argument '$arg' (usage: build_pair.sh --out=DIR)" >&2; exit 2 ;;
  esac
done
if [[ -z "$out" ]]; then
  echo "usage: perf/native_cuda/build_pair.sh --out=DIR" >&2
  exit 2
fi
cd "$root" || exit 2
source tools/certify/manifest_claims.sh

universe='attr(tags, "\bbenchmark\b", //perf/...)'
mapfile -t all < <(bazel query --noshow_progress "$universe" 2>/dev/null | sort)
if [[ ${#all[@]} -eq 0 ]]; then
  echo "build_pair: bazel query found no benchmark under //perf" >&2
  exit 1
fi
unclaimed="$({
  unclaimed_targets backends/cuda/capabilities.txt "$universe"
  unclaimed_targets perf/native_cuda/capabilities.txt "$universe"
} 2>/dev/null | awk '{print $1}' | sort -u)"
targets=()
for target in "${all[@]}"; do
  grep -qxF "$target" <<< "$unclaimed" || targets+=("$target")
done
echo "build_pair: ${#targets[@]} of ${#all[@]} benchmark binaries (the rest need an unclaimed capability)"

rm -rf "$out" && mkdir -p "$out/cuda" "$out/native" "$out/lib" || exit 2
out="$(cd "$out" && pwd)"
printf '%s\n' "${targets[@]}" > "$out/targets.txt"
for side in native cuda; do
  backend=//backends/cuda:backend
  [[ "$side" == native ]] && backend=//perf/native_cuda:backend
  if ! bazel build --noshow_progress "--//conformance:backend=$backend" \
    "${targets[@]}" > "$out/build_$side.log" 2>&1; then
    echo "build_pair: the $side build failed ($out/build_$side.log)" >&2
    exit 1
  fi
  for target in "${targets[@]}"; do
    path="${target#//}"
    strip -o "$out/$side/${target##*:}" "bazel-bin/${path/://}" || exit 1
  done
done

for f in "$out"/cuda/* "$out"/native/*; do
  ldd "$f" | awk '/=> \// {print $3}'
done | sort -u | while read -r lib; do
  case "$(basename "$lib")" in
    libc.so.* | libm.so.* | libdl.so.* | librt.so.* | libpthread.so.* | \
      ld-linux*.so.* | libcuda.so.* | libnvrtc*) ;;
    *) cp -L "$lib" "$out/lib/" ;;
  esac
done
cp "$here/run_pair.sh" "$out/"
tar -C "$(dirname "$out")" -cJf "$out.tar.xz" "$(basename "$out")" || exit 1
echo "build_pair: $out ($(du -sh "$out" | cut -f1)), $out.tar.xz ($(du -h "$out.tar.xz" | cut -f1))"
