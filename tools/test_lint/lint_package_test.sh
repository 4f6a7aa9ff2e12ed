#!/bin/bash
# The `conformance_lint` test of one conformance package
# (tools/build_defs/conformance.bzl): runs test_lint over the files given.
#
# Usage: lint_package_test.sh TEST_LINT FILE...
exec "$@"
