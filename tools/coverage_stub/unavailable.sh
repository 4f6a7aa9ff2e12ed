#!/bin/sh
# Placeholder for Bazel's coverage tools, which cannot be fetched offline.
echo "bazel coverage is not available in mxcts: its tools cannot be fetched offline (see docs/dependencies.md)" >&2
exit 1
