# Splitting the conformance suite over machines, for tools/run_conformance
# (--shard=I/N and --merge). Source it, do not run it.
#
#   source tools/conformance_shards.sh
#   shard_parse 2/3                          # sets shard_index=2 shard_total=3
#   shard_select 2 3 <labels                 # the labels machine 2 of 3 runs
#   results_collect bazel-testlogs DIR COUNTS LABEL...
#   shard_manifest_write DIR 2 3 reference LABEL...
#   shard_manifests_check DIR...             # a complete set of N parts?
#
# The split is deterministic: the labels are sorted (bytewise) and the K-th
# (from 0) goes to machine K mod N + 1, so every machine given the same
# checkout and the same N agrees on it, the parts are disjoint and their union
# is the whole, and each part gets every package's tests in turn (the
# neighbours of a sorted list share a package and its build). A Bazel-sharded
# test (shard_count) is one label, so it runs, with all its Bazel shards, on
# one machine.
#
# Each function prints its own error message (prefixed "run_conformance:")
# and returns non-zero on failure. Tested by tools/conformance_shards_test.sh.

shard_index=""
shard_total=""

# shard_parse SPEC: accepts "I/N" with 1 <= I <= N, sets shard_index and
# shard_total.
shard_parse() {
  if ! [[ "$1" =~ ^([0-9]+)/([0-9]+)$ ]] ||
    [ "$((10#${BASH_REMATCH[2]}))" -lt 1 ] ||
    [ "$((10#${BASH_REMATCH[1]}))" -lt 1 ] ||
    [ "$((10#${BASH_REMATCH[1]}))" -gt "$((10#${BASH_REMATCH[2]}))" ]; then
    echo "run_conformance: --shard takes I/N with 1 <= I <= N (e.g. 2/3), not '$1'" >&2
    return 2
  fi
  shard_index="$((10#${BASH_REMATCH[1]}))"
  shard_total="$((10#${BASH_REMATCH[2]}))"
}

# shard_select I N: reads labels, one a line, and prints machine I's share
# of them (of N), sorted.
shard_select() {
  LC_ALL=C sort -u | awk -v i="$1" -v n="$2" 'NF && (k++ % n) == i - 1'
}

# shard_counts_query LABEL...: prints "LABEL COUNT" for each test among the
# labels that Bazel shards (shard_count > 1), from `bazel query`.
shard_counts_query() {
  [ "$#" -gt 0 ] || return 0
  local query="attr(shard_count, '^([2-9]|[1-9][0-9]+)$', set($*))"
  bazel query --noshow_progress --output=xml "$query" 2>/dev/null |
    awk '
      /<rule / { match($0, /name="[^"]*"/); label = substr($0, RSTART + 6, RLENGTH - 7) }
      /<int name="shard_count"/ { match($0, /value="[0-9]+"/); print label, substr($0, RSTART + 7, RLENGTH - 8) }'
}

# results_collect TESTLOGS DIR COUNTS LABEL...: copies each label's test.xml
# from TESTLOGS (bazel-testlogs) to the same place under DIR; for a label
# that COUNTS (a file of "LABEL COUNT" lines, as shard_counts_query prints)
# says Bazel shards into COUNT, the shard_K_of_COUNT/test.xml of every K
# instead, so stale files of an earlier shard count are never taken. A label
# without results (it failed to build) is named on stderr and skipped;
# returns 1 if there was any.
results_collect() {
  local testlogs="$1" dir="$2" counts="$3"
  shift 3
  local label path count k missing=0 files
  for label in "$@"; do
    path="${label#//}"
    path="${path/://}"
    count="$(awk -v l="$label" '$1 == l {print $2}' "$counts")"
    if [ -n "$count" ]; then
      files=()
      for ((k = 1; k <= count; k++)); do
        files+=("$path/shard_${k}_of_${count}/test.xml")
      done
    else
      files=("$path/test.xml")
    fi
    for file in "${files[@]}"; do
      if [ -f "$testlogs/$file" ]; then
        mkdir -p "$dir/$(dirname "$file")"
        cp "$testlogs/$file" "$dir/$file"
      else
        echo "run_conformance: no results of $label ($testlogs/$file)" >&2
        missing=1
      fi
    done
  done
  return "$missing"
}

# shard_manifest_write DIR I N BACKEND COMMIT LABEL...: records in
# DIR/shard.txt which part of the suite DIR holds: "shard I/N",
# "backend BACKEND", "commit COMMIT" (the checkout's, so parts run from
# different commits are not merged), then one "target LABEL" line per label.
shard_manifest_write() {
  local dir="$1" index="$2" total="$3" backend="$4" commit="$5"
  shift 5
  mkdir -p "$dir" || return 1
  {
    echo "shard $index/$total"
    echo "backend $backend"
    echo "commit $commit"
    printf 'target %s\n' "$@"
  } >"$dir/shard.txt"
}

# shard_manifests_check DIR...: checks that the directories are the N parts
# of one split, each once (their shard.txt say 1/N ... N/N), of one backend
# and one commit, and prints that backend. Names the missing, repeated or
# unreadable part otherwise.
shard_manifests_check() {
  local dir line total="" backend="" commit="" seen=" " index part_total
  local part_backend part_commit
  for dir in "$@"; do
    if [ ! -f "$dir/shard.txt" ]; then
      echo "run_conformance: $dir has no shard.txt: it is not the results" \
        "of tools/run_conformance --shard=I/N" >&2
      return 1
    fi
    line="$(grep -E '^shard [0-9]+/[0-9]+$' "$dir/shard.txt" | head -n 1)"
    part_backend="$(sed -n 's/^backend //p' "$dir/shard.txt" | head -n 1)"
    part_commit="$(sed -n 's/^commit //p' "$dir/shard.txt" | head -n 1)"
    if [ -z "$line" ] || [ -z "$part_backend" ] || [ -z "$part_commit" ]; then
      echo "run_conformance: $dir/shard.txt: no 'shard I/N', 'backend' or" \
        "'commit' line" >&2
      return 1
    fi
    line="${line#shard }"
    index="${line%/*}"
    part_total="${line#*/}"
    if [ -n "$total" ] && [ "$part_total" != "$total" ]; then
      echo "run_conformance: $dir is a part of $part_total, the others of" \
        "$total: they are not one split" >&2
      return 1
    fi
    if [ -n "$backend" ] && [ "$part_backend" != "$backend" ]; then
      echo "run_conformance: $dir holds results of $part_backend, the" \
        "others of $backend" >&2
      return 1
    fi
    if [ -n "$commit" ] && [ "$part_commit" != "$commit" ]; then
      echo "run_conformance: $dir was run at commit $part_commit, the" \
        "others at $commit: a split is only one run on one commit" >&2
      return 1
    fi
    if [[ "$seen" == *" $index "* ]]; then
      echo "run_conformance: part $index/$part_total is given twice ($dir)" >&2
      return 1
    fi
    total="$part_total"
    backend="$part_backend"
    commit="$part_commit"
    seen+="$index "
  done
  if [ -z "$total" ]; then
    echo "run_conformance: --merge needs the parts' directories" >&2
    return 1
  fi
  for ((index = 1; index <= total; index++)); do
    if [[ "$seen" != *" $index "* ]]; then
      echo "run_conformance: part $index/$total is missing" >&2
      return 1
    fi
  done
  echo "$backend"
}
