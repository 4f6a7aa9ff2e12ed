#!/bin/bash
# Tests tools/check_format on a scratch tree: a formatted file passes, an
# unformatted one fails and is named, --fix repairs it, fixtures/ is skipped,
# and a tree without .clang-format is a usage error.
#
# Usage: check_format_test.sh PATH_TO_CHECK_FORMAT PATH_TO_CLANG_FORMAT_FILE
set -u
check="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
style="$2"
tree="$(mktemp -d "${TEST_TMPDIR:-/tmp}/check_format_test.XXXXXX")"
source tools/testing/check.sh

# expect NAME STATUS ARGS...: runs check_format with ARGS and checks its exit
# status.
expect() {
  local name="$1" want_status="$2"
  shift 2
  run "$check" "$@"
  check "$name" "[ \"\$status\" -eq $want_status ]"
}
# expect_output NAME TEXT: the last run's output contains TEXT.
expect_output() {
  check "$1" "[[ \"\$output\" == *\"$2\"* ]]"
}

cp "$style" "$tree/.clang-format"
mkdir -p "$tree/src" "$tree/fixtures"
printf 'int Add(int a, int b) { return a + b; }\n' >"$tree/src/good.cc"
printf 'int   Bad( int a ){return a;}\n' >"$tree/fixtures/user_style.cc"

expect formatted-tree-passes 0 "$tree"
expect_output formatted-tree-counts "1 files formatted"

printf 'int   Sub( int a,int b ){return a-b;}\n' >"$tree/src/bad.cc"
expect unformatted-tree-fails 1 "$tree"
expect_output unformatted-file-named "src/bad.cc is not formatted"
expect_output fixtures-not-named-in-failure "1 of 2 files not formatted"

expect fix-succeeds 0 --fix "$tree"
expect fixed-tree-passes 0 "$tree"

rm "$tree/.clang-format"
expect missing-style-is-usage-error 2 "$tree"
expect_output missing-style-names-file "$tree/.clang-format: missing"

expect extra-argument-is-usage-error 2 "$tree" "$tree"

rm -rf "$tree"
finish check_format_test
