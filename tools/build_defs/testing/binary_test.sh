#!/bin/bash
# Runs the mxmaca_binary targets built with the fake backend: each prints
# what it was compiled and linked with.
#
# Usage: binary_test.sh HELLO HELLO_EXPLICIT_ROOT
set -u
source tools/testing/check.sh

for binary in "$@"; do
  run "$binary"
  check "$(basename "$binary")-exits-0" '[ "$status" -eq 0 ]'
  check "$(basename "$binary")-prints" '[ "$output" = "hello from fake SDK 7 with 1 device(s)" ]'
done
finish binary_test
