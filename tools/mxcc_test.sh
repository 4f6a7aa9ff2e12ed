#!/bin/bash
# Tests tools/mxcc without running Bazel inside Bazel: a copy of the script
# runs in a fake checkout whose `bazel` (MXCC_BAZEL) is a stand-in that
# records how it was called and lays out an SDK tree whose driver records
# its arguments, directory and MACA_PATH.
#
# Usage: mxcc_test.sh PATH_TO_TOOLS_MXCC
set -u
source tools/testing/check.sh
script="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
work="$(mktemp -d "${TEST_TMPDIR:-/tmp}/mxcc_test.XXXXXX")"
trap 'rm -rf "$work"' EXIT

repo="$work/checkout"
mkdir -p "$repo/tools" "$work/elsewhere/deeper"
cp "$script" "$repo/tools/mxcc"
chmod +x "$repo/tools/mxcc"

# The stand-in bazel: logs its directory and arguments, prints noise, and
# either fails (when $work/build_fails exists) or writes the SDK tree.
cat >"$work/bazel" <<STUB
#!/bin/bash
echo "\$PWD \$*" >>"$work/bazel.log"
echo "INFO: Analyzed target //reference:sdk (noise)"
if [ -e "$work/build_fails" ]; then
  echo "ERROR: reference/BUILD:3:1: compile failed" >&2
  exit 1
fi
sdk="\$PWD/bazel-bin/reference/sdk"
mkdir -p "\$sdk/mxgpu_llvm/bin"
cat >"\$sdk/mxgpu_llvm/bin/mxcc" <<'DRIVER'
#!/bin/bash
{
  echo "cwd=\$PWD"
  echo "MACA_PATH=\$MACA_PATH"
  for argument in "\$@"; do echo "arg=[\$argument]"; done
} >"$work/driver.log"
echo "driver stdout"
exit "\${DRIVER_STATUS:-0}"
DRIVER
chmod +x "\$sdk/mxgpu_llvm/bin/mxcc"
STUB
chmod +x "$work/bazel"
export MXCC_BAZEL="$work/bazel"

reset_logs() { rm -f "$work/bazel.log" "$work/driver.log" "$work/build_fails"; }
driver_log() { cat "$work/driver.log" 2>/dev/null; }
check_context() {
  echo "  bazel calls:"
  sed 's/^/    /' "$work/bazel.log" 2>/dev/null
  echo "  driver log:"
  driver_log | sed 's/^/    /'
}

# 1. From another directory: builds from the checkout's root, then runs the
#    driver in the caller's directory with the arguments exactly as given.
reset_logs
cd "$work/elsewhere/deeper" || exit 1
run "$repo/tools/mxcc" -x maca "my file.cpp" -o 'a b' '-DX="1 2"' '$HOME' '*' ''
check builds-sdk-from-repo-root \
  '[ "$(cat "$work/bazel.log")" = "$repo build //reference:sdk" ]'
check runs-in-callers-directory \
  'grep -qx "cwd=$work/elsewhere/deeper" "$work/driver.log"'
check passes-arguments-verbatim \
  '[ "$(grep "^arg=" "$work/driver.log")" = "$(printf "%s\n" "arg=[-x]" "arg=[maca]" "arg=[my file.cpp]" "arg=[-o]" "arg=[a b]" "arg=[-DX=\"1 2\"]" "arg=[\$HOME]" "arg=[*]" "arg=[]")" ]'
check sets-maca-path-to-the-sdk \
  'grep -qx "MACA_PATH=$repo/bazel-bin/reference/sdk" "$work/driver.log"'
check build-noise-is-hidden '[[ "$output" != *"noise"* ]]'
check driver-output-is-shown '[ "$output" = "driver stdout" ] && [ "$status" -eq 0 ]'

# 2. The driver's exit status is mxcc's.
reset_logs
DRIVER_STATUS=3 run "$repo/tools/mxcc" bad.cu
check driver-status-propagates '[ "$status" -eq 3 ]'

# 3. A user's MACA_PATH does not redirect the checkout's compiler.
reset_logs
MACA_PATH=/opt/maca run "$repo/tools/mxcc" a.cu
check user-maca-path-overridden \
  'grep -qx "MACA_PATH=$repo/bazel-bin/reference/sdk" "$work/driver.log"'

# 4. A failed build shows Bazel's output and runs no driver.
reset_logs
touch "$work/build_fails"
run "$repo/tools/mxcc" a.cu
check build-failure-fails '[ "$status" -ne 0 ]'
check build-failure-shows-errors '[[ "$output" == *"ERROR: reference/BUILD:3:1: compile failed"* ]]'
check build-failure-says-what-failed '[[ "$output" == *"building //reference:sdk failed"* ]]'
check build-failure-runs-no-driver '[ ! -e "$work/driver.log" ]'

# 5. Through a symbolic link elsewhere (a ~/bin/mxcc), the checkout is still
#    found.
reset_logs
ln -s "$repo/tools/mxcc" "$work/elsewhere/mxcc"
run "$work/elsewhere/mxcc" -c a.cu
check symlink-finds-checkout '[ "$status" -eq 0 ] && grep -qx "arg=\[-c\]" "$work/driver.log"'
check symlink-builds-in-checkout \
  '[ "$(cat "$work/bazel.log")" = "$repo build //reference:sdk" ]'

finish mxcc_test
