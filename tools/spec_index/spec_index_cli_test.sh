#!/bin/bash
# Tests the spec_index command: a clean spec writes the JSON index, the ID
# list and an updated lock; a malformed one exits 1 naming file and line and
# writes nothing; a missing directory exits 2.
#
# Usage: spec_index_cli_test.sh PATH_TO_SPEC_INDEX
set -u
tool="$1"
data="$(dirname "$tool")/testdata"
scratch="$(mktemp -d "${TEST_TMPDIR:-/tmp}/spec_index.XXXXXX")"
source tools/testing/check.sh

# Control: a clean spec.
cp -r "$data/good" "$scratch/good"
run "$tool" --spec_dir="$scratch/good" --json_out="$scratch/index.json" \
  --ids_out="$scratch/ids.txt" --update_lock
check clean-exits-0 '[ "$status" -eq 0 ]'
check clean-summary '[[ "$output" == *"2 clauses in 1 chapters, 0 problems"* ]]'
check json-written 'grep -q "\"id\": \"api.stream.create.returns-distinct-handles\"" "$scratch/index.json"'
check ids-written '[ "$(wc -l <"$scratch/ids.txt")" -eq 2 ]'
check lock-written 'grep -qx "api.stream.create.null-pointer-is-invalid-value" "$scratch/good/clauses.lock"'

# Renaming a locked clause without an alias is caught.
sed -i 's/^### api.stream.create.returns-distinct-handles$/### api.stream.create.renamed/' \
  "$scratch/good/api-stream.md"
run "$tool" --spec_dir="$scratch/good"
check rename-fails '[ "$status" -eq 1 ]'
check rename-named '[[ "$output" == *"'"'"'api.stream.create.returns-distinct-handles'"'"' was published but is no longer in the spec"* ]]'
echo "api.stream.create.returns-distinct-handles -> api.stream.create.renamed" \
  >"$scratch/good/aliases.txt"
run "$tool" --spec_dir="$scratch/good"
check alias-repairs-rename '[ "$status" -eq 0 ]'

run "$tool" --spec_dir="$data/bad" --json_out="$scratch/bad.json"
check malformed-exits-1 '[ "$status" -eq 1 ]'
check malformed-names-line '[[ "$output" == *"bad/api-stream.md:5: malformed clause ID"* ]]'
check malformed-writes-nothing '[ ! -e "$scratch/bad.json" ]'

run "$tool" --spec_dir="$scratch/missing"
check missing-exits-2 '[ "$status" -eq 2 ]'
check missing-named '[[ "$output" == *"$scratch/missing"* ]]'

rm -rf "$scratch"
finish spec_index_cli_test
