#!/bin/bash
# Copyright mxcts authors.
#
# backends/cuda/bundle/make_bundle.sh: packs the conformance tests built
# with the CUDA backend into a self-contained folder for a GPU machine that
# has neither Bazel nor the network: `tools/certify/certify build` without
# the build (tools/certify/README.md), its package folder moved to OUT_DIR,
# with run.sh beside the package's own runner.
#
# Usage (from the repository root, after
#   bazel build --//conformance:backend=//backends/cuda:backend --keep_going PATTERNS):
#   backends/cuda/bundle/make_bundle.sh OUT_DIR PATTERN...
#
# A test whose binary is missing, or lacks CUDA's fat binary (it was built
# with another backend), is listed in OUT_DIR/not_built.txt. For a
# certificate, use `tools/certify/certify build` itself: it builds, and
# writes the compressed pieces the device tool carries.
set -u
if [[ $# -lt 2 ]]; then
  echo "usage: $0 OUT_DIR PATTERN..." >&2
  exit 2
fi
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="$1"
shift
scratch="$out.certify"
"$here/../../../tools/certify/certify" build --backend=//backends/cuda:backend \
  --out="$scratch" --no_build --marker=__cudaRegisterFatBinary "$@" || exit 1
rm -rf "$out"
mv "$scratch/package" "$out"
rm -rf "$scratch"
cp "$here/run.sh" "$out/run.sh"
chmod +x "$out/run.sh"
