#!/bin/bash
# Tests check_backend_files: valid files pass and are summarized; a bad
# manifest and a bad expectations file each fail, naming file and line.
#
# Usage: check_backend_files_cli_test.sh PATH_TO_CHECK_BACKEND_FILES
set -u
tool="$1"
source tools/testing/check.sh
tmp="$(mktemp -d "${TEST_TMPDIR:-/tmp}/check_backend.XXXXXX")"
printf '# ok\ndevice_count 2\npeer_access yes\nipc no\n' >"$tmp/caps.txt"
printf 'api:t Suite.Name why it fails\n' >"$tmp/expect.txt"

run "$tool" --capabilities="$tmp/caps.txt" --expectations="$tmp/expect.txt" \
  --out="$tmp/stamp"
check valid-passes '[ "$status" -eq 0 ]'
check summary-lists-claims '[[ "$output" == *"claimed: device_count peer_access"$'"'"'\n'"'"'* ]]'
check summary-counts-entries '[[ "$output" == *": 1 known failures"* ]]'
check stamp-written '[ -s "$tmp/stamp" ]'

# The stamp is an input of every compile action of the backend's tests: a
# new expectation or claim must leave it byte for byte the same. Control:
# the summary does change.
printf 'api:t Suite.Name why it fails\napi:t Suite.Other why\n' \
  >"$tmp/expect.txt"
printf '# ok\ndevice_count 2\npeer_access yes\nipc yes\n' >"$tmp/caps.txt"
run "$tool" --capabilities="$tmp/caps.txt" --expectations="$tmp/expect.txt" \
  --out="$tmp/stamp_after_edit"
check edited-files-pass '[ "$status" -eq 0 ]'
check stamp-ignores-content 'cmp -s "$tmp/stamp" "$tmp/stamp_after_edit"'
check summary-follows-content '[[ "$output" == *": 2 known failures"* && "$output" == *"peer_access ipc"* ]]'

run "$tool" --capabilities="$tmp/caps.txt" --out="$tmp/stamp2"
check expectations-optional '[ "$status" -eq 0 ]'

printf 'device_count 2\npeer_acces yes\n' >"$tmp/bad_caps.txt"
run "$tool" --capabilities="$tmp/bad_caps.txt" --out="$tmp/stamp3"
check bad-manifest-fails '[ "$status" -eq 1 ]'
check bad-manifest-named '[[ "$output" == *"bad_caps.txt:2: unknown feature '"'"'peer_acces'"'"'"* ]]'
check no-stamp-on-failure '[ ! -e "$tmp/stamp3" ]'

printf '\napi:t Suite.Name\n' >"$tmp/bad_expect.txt"
run "$tool" --capabilities="$tmp/caps.txt" --expectations="$tmp/bad_expect.txt" \
  --out="$tmp/stamp4"
check bad-expectations-fails '[ "$status" -eq 1 ]'
check bad-expectations-named '[[ "$output" == *"bad_expect.txt:2: an entry is"* ]]'

run "$tool" --out="$tmp/stamp5"
check usage-exits-2 '[ "$status" -eq 2 ]'

rm -rf "$tmp"
finish check_backend_files_cli_test
