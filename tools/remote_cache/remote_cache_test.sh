#!/bin/bash
# Tests the shared HTTP cache: `--config=remote-cache` of the project's
# .bazelrc against a real cache (tools/remote_cache/serve, nginx with WebDAV
# PUT) on loopback.
#
#   1. A tiny workspace (testdata/workspace, with the project's .bazelrc) is
#      built and tested from one output base: every action runs here and its
#      results are uploaded (the cache answers PUTs with 201).
#   2. The same from a second, clean output base with the disk cache
#      disabled: every action that ran in 1 is a remote cache hit (Bazel's
#      process summary and its execution log), none runs, the test's result
#      is taken from the cache, and the cache answered GETs with 200.
#   3. Control: a third clean output base without the config runs every
#      action itself (no cache hit), so the checks of 2 can fail.
#
# Usage: remote_cache_test.sh SERVE BAZELRC WORKSPACE_FILE...
#   SERVE           tools/remote_cache/serve
#   BAZELRC         the project's .bazelrc (its real path locates the
#                   checkout, whose tools/rules_cc and tools/coverage_stub the
#                   workspace uses as the project's WORKSPACE does)
#   WORKSPACE_FILE  the files of testdata/workspace (*.in without .in)
#
# Runs Bazel inside a Bazel test: --batch (no server outlives a run), its own
# output user root, HOME and disk cache under TEST_TMPDIR, and a clean
# environment. Tagged local: it must not be sandboxed or cached itself.
set -u
source tools/testing/check.sh

serve="$(pwd)/$1"
bazelrc="$2"
shift 2
checkout="$(realpath "$bazelrc")"
checkout="${checkout%/.bazelrc}"
scratch="$(mktemp -d "${TEST_TMPDIR:-/tmp}/remote_cache_test.XXXXXX")"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then
    kill "$server_pid" 2>/dev/null
    wait "$server_pid" 2>/dev/null
  fi
  chmod -R u+w "$scratch" 2>/dev/null
  rm -rf "$scratch"
}
trap cleanup EXIT

# The workspace: sources copied, templates filled in, the project's .bazelrc.
workspace="$scratch/workspace"
mkdir -p "$workspace"
for file in "$@"; do
  name="$(basename "$file")"
  sed "s|@CHECKOUT@|$checkout|g" "$file" >"$workspace/${name%.in}"
done
cp "$bazelrc" "$workspace/.bazelrc"

# The cache, on the first free port of a few tried.
cache="$scratch/cache"
port=""
for candidate in $(shuf -i 20000-60000 -n 20); do
  "$serve" --port="$candidate" "$cache" >"$scratch/serve.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 50); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$candidate") 2>/dev/null; then
      port="$candidate"
      break 2
    fi
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.2
  done
  kill "$server_pid" 2>/dev/null
  wait "$server_pid" 2>/dev/null
  server_pid=""
done
check "the cache starts on a free port" '[ -n "$port" ]'
if [ -z "$port" ]; then
  cat "$scratch/serve.log" "$cache/error.log" 2>/dev/null
  finish remote_cache_test
  exit 1
fi
remote=(--config=remote-cache "--remote_cache=http://127.0.0.1:$port/mxcts")

# bazel_run NAME BAZEL_FLAGS...: `bazel test //:all` from output base NAME;
# sets $output, $status, $seconds (the times taken, for the log), $log (the
# output's file) and $execlog.
bazel_run() {
  local name="$1"
  shift
  log="$scratch/$name.log"
  execlog="$scratch/$name.exec.json"
  local start="$SECONDS"
  (cd "$workspace" && env -i HOME="$scratch/home" USER="${USER:-mxcts}" \
    PATH=/usr/local/bin:/usr/bin:/bin \
    bazel --batch --output_user_root="$scratch/root" \
    --output_base="$scratch/$name" \
    test --symlink_prefix=/ --curses=no --color=no \
    --execution_log_json_file="$execlog" "$@" //:all) >"$log" 2>&1
  status=$?
  local elapsed
  elapsed="$(grep -oE 'Elapsed time: [0-9.]+s, Critical Path: [0-9.]+s' "$log" | tail -n 1)"
  seconds="$((SECONDS - start))s wall; Bazel's $elapsed"
  output="$(tail -n 30 "$log")"
}

# processes KIND: the count of KIND in Bazel's "INFO: N processes: ..." line
# (e.g. "remote cache hit", "linux-sandbox"); 0 if absent.
processes() {
  grep -E '^INFO: [0-9]+ processes' "$log" | tail -n 1 |
    grep -oE "[0-9]+ $1" | grep -oE '^[0-9]+' || echo 0
}

# executed: the count of processes that ran on this machine, whatever the
# strategy (linux-sandbox, processwrapper-sandbox, local, worker).
executed() {
  grep -E '^INFO: [0-9]+ processes' "$log" | tail -n 1 |
    sed -e 's/^INFO: [0-9]* processes[:.]//' | tr ',' '\n' |
    grep -vE 'internal|remote cache hit|^ *$' | grep -oE '[0-9]+' |
    awk '{n += $1} END {print n + 0}'
}

# access_count FIRST_LINE METHOD STATUS: requests in the cache's access log
# from line FIRST_LINE on with that method and status.
access_count() {
  tail -n "+$1" "$cache/access.log" 2>/dev/null |
    awk -v m="\"$2" -v s="$3" '$6 == m && $9 == s {n++} END {print n + 0}'
}

# 1. The first output base fills the cache. Its disk cache is a fresh one:
# Bazel expands the .bazelrc's ~ from the user database, not from HOME, so
# the default would be the machine's shared one, which may hold these
# actions from an earlier run.
bazel_run first "${remote[@]}" --disk_cache="$scratch/disk-cache"
first_seconds="$seconds"
first_executed="$(executed)"
check "the first build and test pass" '[ "$status" -eq 0 ]'
check "the first run's test passes" 'grep -qE "//:adder_test +PASSED" "$log"'
check "the first run ran its actions here" '[ "$first_executed" -ge 4 ]'
check "the first run found nothing in the empty cache" \
  '[ "$(processes "remote cache hit")" -eq 0 ]'
check "the cache stored the uploads (PUT 201)" \
  '[ "$(access_count 1 PUT 201)" -ge "$first_executed" ]'
first_log_lines="$(wc -l <"$cache/access.log")"

# 2. A second, clean output base without a disk cache: everything from the
# remote cache.
bazel_run second "${remote[@]}" --disk_cache=
second_seconds="$seconds"
hits="$(processes "remote cache hit")"
check "the second build and test pass" '[ "$status" -eq 0 ]'
check "the second run's test result is the cached one" \
  'grep -qE "//:adder_test +\(cached\) PASSED" "$log"'
check "every action the first run ran is a remote cache hit" \
  '[ "$hits" -eq "$first_executed" ]'
check "no action ran in the second run" '[ "$(executed)" -eq 0 ]'
check "the execution log marks every spawn a remote cache hit" \
  '[ "$(grep -c "\"remoteCacheHit\": true" "$execlog")" -eq "$hits" ] &&
   ! grep -q "\"remoteCacheHit\": false" "$execlog"'
check "the cache served the second run (GET 200)" \
  '[ "$(access_count $((first_log_lines + 1)) GET 200)" -ge "$hits" ]'
check "nothing was missing from the cache (no GET 404)" \
  '[ "$(access_count $((first_log_lines + 1)) GET 404)" -eq 0 ]'

# 3. Control: a clean output base without the config builds everything.
bazel_run control --disk_cache=
check "the control passes" '[ "$status" -eq 0 ]'
check "the control has no remote cache hit" \
  '[ "$(processes "remote cache hit")" -eq 0 ]'
check "the control ran its actions itself" '[ "$(executed)" -eq "$first_executed" ]'

echo "first run: $first_executed actions run here ($first_seconds)"
echo "second run: $hits remote cache hits ($second_seconds)"
finish remote_cache_test
