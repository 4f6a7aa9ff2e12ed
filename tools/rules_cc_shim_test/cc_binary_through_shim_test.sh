#!/bin/bash
# Runs the shim-built cc_binary given as $1: it must print the greeting and
# exit 0 with an argument, and exit 2 (its usage error) without one.
set -u
greeter="$1"
fail() { echo "FAIL: $*" >&2; exit 1; }

out="$("$greeter" grid)" || fail "greeter exited $? with an argument"
[ "$out" = "hello, grid" ] || fail "expected 'hello, grid', got '$out'"

# Control: without its argument the binary reports a usage error.
"$greeter" >/dev/null 2>&1
status=$?
[ "$status" -eq 2 ] || fail "expected exit 2 without an argument, got $status"
echo "PASS"
