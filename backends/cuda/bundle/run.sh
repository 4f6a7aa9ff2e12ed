#!/bin/bash
# Copyright mxcts authors.
#
# run.sh: runs the conformance tests of a CUDA backend bundle
# (make_bundle.sh) on a machine with an NVIDIA GPU: the package's own
# runner (tools/certify/run_package.sh, `run` in the bundle), which says
# what it writes.
#
# Usage: run.sh [RESULTS_DIR] [JOBS]   (defaults: results, 4)
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
exec "$here/run" "$here" --out="${1:-results}" --jobs="${2:-4}"
