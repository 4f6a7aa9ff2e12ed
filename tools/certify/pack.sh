#!/bin/bash
# Copyright mxcts authors.
#
# tools/certify/pack.sh: packs the conformance tests that the last
# `bazel build` left in bazel-bin into a self-contained folder for a
# machine that has neither Bazel nor the network. Used by
# `tools/certify/certify build` and backends/cuda/bundle/make_bundle.sh.
#
# Usage (from the repository root):
#   tools/certify/pack.sh --out=DIR --name=BACKEND_NAME
#       --capabilities=FILE [--expectations=FILE] [--built=FILE]
#       [--marker=SYMBOL] [--exclude=FILE] PATTERN...
#
# Every test target of the PATTERNs that mxmaca_test made (its launcher
# names the expectation runner and the binary) goes in:
#   DIR/bin/<package with _ for />__<target>   the stripped test binaries
#   DIR/expectation_runner                     the suite's verdict tool
#   DIR/lib/                                   shared libraries beyond the C
#                                              library's, and NVRTC if a
#                                              test compiles at run time
#   DIR/capabilities.txt, DIR/expectations.txt the backend's files
#   DIR/expectations_name.txt                  the expectations file's path
#                                              in the checkout (for messages)
#   DIR/targets.txt                            "<label> <binary>" lines
#   DIR/not_built.txt                          "<label> <why>" lines
# A variant target (mxmaca_test's variants, whose variables are the
# reference's) runs its base's binary and is left out. --built names the
# labels the build completed (a stale binary of an earlier build is then
# "not built"); --marker a symbol every binary of the backend holds (a
# binary without it was built with another backend). --exclude names a
# file whose lines start with labels to leave out (tests the backend cannot
# compile because it does not claim their capability).
set -u
out=""
name=""
capabilities=""
expectations=""
built=""
marker=""
exclude=""
patterns=()
for arg in "$@"; do
  case "$arg" in
    --out=*) out="${arg#--out=}" ;;
    --name=*) name="${arg#--name=}" ;;
    --capabilities=*) capabilities="${arg#--capabilities=}" ;;
    --expectations=*) expectations="${arg#--expectations=}" ;;
    --built=*) built="${arg#--built=}" ;;
    --marker=*) marker="${arg#--marker=}" ;;
    --exclude=*) exclude="${arg#--exclude=}" ;;
    -*) echo "pack.sh: unknown option '$arg'" >&2; exit 2 ;;
    *) patterns+=("$arg") ;;
  esac
done
if [[ -z "$out" || -z "$name" || -z "$capabilities" || ${#patterns[@]} -eq 0 ]]; then
  echo "usage: $0 --out=DIR --name=BACKEND_NAME --capabilities=FILE [--expectations=FILE] [--built=FILE] [--marker=SYMBOL] [--exclude=FILE] PATTERN..." >&2
  exit 2
fi
for f in "$capabilities" ${expectations:+"$expectations"} ${built:+"$built"} ${exclude:+"$exclude"}; do
  [[ -f "$f" ]] || { echo "pack.sh: $f: no such file" >&2; exit 2; }
done
bin="$(bazel info bazel-bin 2>/dev/null)"
if [[ -z "$bin" ]]; then
  echo "pack.sh: bazel info bazel-bin failed" >&2
  exit 1
fi
if [[ ! -x "$bin/conformance/testing/expectation_runner" ]]; then
  echo "pack.sh: $bin/conformance/testing/expectation_runner: not built" >&2
  exit 1
fi
rm -rf "$out"
mkdir -p "$out/bin" "$out/lib" || exit 2
: > "$out/targets.txt"
: > "$out/not_built.txt"

excluded="set($([[ -n "$exclude" ]] && awk '{print $1}' "$exclude" | xargs))"
query="kind('_mxmaca_expectation_test', $(printf '%s + ' "${patterns[@]}") set()) except $excluded"
targets="$(bazel query "$query" 2>"$out/query.log")" || {
  echo "pack.sh: bazel query failed ($out/query.log)" >&2
  exit 1
}
rm -f "$out/query.log"
for label in $targets; do
  package="${label#//}"
  package="${package%%:*}"
  target="${label##*:}"
  launcher="$bin/$package/$target"
  if [[ ! -f "$launcher" ]]; then
    case "$target" in
      # A variant of a test (its base is listed on its own).
      *_deferred | *_shuffle | *_engine_shuffle | *_mps_exclusive | *_mps_shared | *_checked) ;;
      *) echo "$label not built" >> "$out/not_built.txt" ;;
    esac
    continue
  fi
  # The launcher's last line runs the runner:
  #   exec "$root"/'<runner>' ... -- "$root"/'<binary>' "$@"
  binary="$(sed -n 's/.* -- \([^ ]*\).*/\1/p' "$launcher" | tail -n 1 | tr -d "\"'")"
  binary="${binary#\$root/}"
  if [[ "$binary" != "$package/${target}_binary" ]]; then
    continue  # a variant
  fi
  if [[ -n "$built" ]] && ! grep -qxF "$label" "$built"; then
    echo "$label not built" >> "$out/not_built.txt"
    continue
  fi
  if [[ ! -f "$bin/$binary" ]]; then
    echo "$label not built" >> "$out/not_built.txt"
    continue
  fi
  if [[ -n "$marker" ]] && ! grep -q "$marker" "$bin/$binary"; then
    echo "$label built with another backend" >> "$out/not_built.txt"
    continue
  fi
  flat="${package//\//_}__${target}"
  strip -o "$out/bin/$flat" "$bin/$binary"
  echo "$label $flat" >> "$out/targets.txt"
done
strip -o "$out/expectation_runner" "$bin/conformance/testing/expectation_runner"
cp "$capabilities" "$out/capabilities.txt"
if [[ -n "$expectations" ]]; then
  cp "$expectations" "$out/expectations.txt"
  echo "$expectations" > "$out/expectations_name.txt"
fi
echo "$name" > "$out/backend_name.txt"

# Shared libraries beyond the C library's own (abseil, GoogleTest, the C++
# library), one copy each; the GPU driver's own stays the machine's.
for f in "$out/expectation_runner" "$out"/bin/*; do
  [[ -f "$f" ]] && ldd "$f" | awk '/=> \// {print $3}'
done | sort -u | while read -r lib; do
  case "$(basename "$lib")" in
    libc.so.* | libm.so.* | libdl.so.* | librt.so.* | libpthread.so.* | \
      ld-linux*.so.* | libcuda.so.*) ;;
    *) cp -L "$lib" "$out/lib/" ;;
  esac
done
# NVRTC, which the CUDA backend's runtime compilation opens while the
# program runs (backends/cuda/runtime/rtc.cc): only when a packed test
# compiles at run time, as it is large (about 30 MiB compressed).
if grep -lq nvrtcCompileProgram "$out"/bin/* 2>/dev/null; then
  cuda_lib="${CUDA_PATH:-/usr/local/cuda}/lib64"
  for lib in "$cuda_lib"/libnvrtc.so.[0-9]* "$cuda_lib"/libnvrtc-builtins.so.[0-9]*; do
    [[ -f "$lib" && ! -L "$lib" ]] && cp "$lib" "$out/lib/"
  done
fi
echo "pack.sh: $(grep -c . "$out/targets.txt") test binaries in $out" \
  "($(du -sh "$out" | cut -f1)); $(grep -c . "$out/not_built.txt") not built (not_built.txt)"
