#!/bin/bash
# Copyright mxcts authors.
#
# backends/cuda/bundle/make_bundle.sh: packs the conformance tests built
# with the CUDA backend into a self-contained folder for a GPU machine that
# has neither Bazel nor the network (docs/backend-guide.md, "Certifying a
# backend that runs elsewhere").
#
# Usage (from the repository root, after
#   bazel build --//conformance:backend=//backends/cuda:backend --keep_going PATTERNS):
#   backends/cuda/bundle/make_bundle.sh OUT_DIR PATTERN...
#
# PATTERN is a Bazel target pattern (//conformance/api/...). Every test
# target it holds whose binary was built with the CUDA backend goes in:
#   OUT_DIR/bin/<package with _ for />__<target>   the GoogleTest binaries
#   OUT_DIR/expectation_runner                     the suite's verdict tool
#   OUT_DIR/lib/                                   shared libraries they
#                                                  need beyond glibc's, and
#                                                  NVRTC if a test compiles
#                                                  at run time
#   OUT_DIR/capabilities.txt, expectations.txt     the backend's files
#   OUT_DIR/targets.txt                            "<label> <binary>" lines
#   OUT_DIR/run.sh                                 the runner (run.sh)
# A test whose binary is missing, or was built with another backend, is
# listed in OUT_DIR/not_built.txt. Binaries are stripped.
set -u
if [[ $# -lt 2 ]]; then
  echo "usage: $0 OUT_DIR PATTERN..." >&2
  exit 2
fi
out="$1"
shift
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bin="$(bazel info bazel-bin 2>/dev/null)"
if [[ -z "$bin" ]]; then
  echo "$0: bazel info bazel-bin failed" >&2
  exit 1
fi
rm -rf "$out"
mkdir -p "$out/bin" "$out/lib"
: > "$out/targets.txt"
: > "$out/not_built.txt"

# The test targets: the launchers mxmaca_test writes (their binaries are
# <name>_binary beside them). Variants share their base's binary; only the
# base runs here, since the variables they set are the reference's.
targets="$(bazel query "kind('_mxmaca_expectation_test', $(printf '%s + ' "$@") set())" 2>/dev/null)"
for label in $targets; do
  package="${label%%:*}"
  package="${package#//}"
  name="${label##*:}"
  binary="$bin/$package/${name}_binary"
  if [[ ! -f "$binary" ]]; then
    case "$name" in
      # A variant: its binary is its base's.
      *_deferred | *_shuffle | *_engine_shuffle | *_mps_exclusive | *_mps_shared | *_checked) ;;
      *) echo "$label not built" >> "$out/not_built.txt" ;;
    esac
    continue
  fi
  if ! grep -q __cudaRegisterFatBinary "$binary"; then
    echo "$label built with another backend" >> "$out/not_built.txt"
    continue
  fi
  flat="${package//\//_}__${name}"
  strip -o "$out/bin/$flat" "$binary"
  echo "$label $flat" >> "$out/targets.txt"
done
strip -o "$out/expectation_runner" "$bin/conformance/testing/expectation_runner"
cp "$here/../capabilities.txt" "$out/capabilities.txt"
cp "$here/../../../conformance/expectations/cuda.txt" "$out/expectations.txt"
cp "$here/run.sh" "$out/run.sh"
chmod +x "$out/run.sh"

# Shared libraries beyond the C library's own (abseil, GoogleTest, the C++
# library), one copy each.
for f in "$out/expectation_runner" "$out"/bin/*; do
  ldd "$f" | awk '/=> \// {print $3}'
done | sort -u | while read -r lib; do
  case "$(basename "$lib")" in
    libc.so.* | libm.so.* | libdl.so.* | librt.so.* | libpthread.so.* | \
      ld-linux*.so.* | libcuda.so.*) ;;
    *) cp -L "$lib" "$out/lib/" ;;
  esac
done
# NVRTC, which runtime compilation opens while the program runs
# (backends/cuda/runtime/rtc.cc): only when a bundled test compiles at run
# time, as it is large (about 30 MiB compressed).
if grep -lq nvrtcCompileProgram "$out"/bin/* 2>/dev/null; then
  cuda_lib="${CUDA_PATH:-/usr/local/cuda}/lib64"
  for lib in "$cuda_lib"/libnvrtc.so.[0-9]* "$cuda_lib"/libnvrtc-builtins.so.[0-9]*; do
    [[ -f "$lib" && ! -L "$lib" ]] && cp "$lib" "$out/lib/"
  done
fi
echo "$(wc -l < "$out/targets.txt") test binaries in $out ($(du -sh "$out" | cut -f1));" \
  "$(wc -l < "$out/not_built.txt") not built (not_built.txt)"
