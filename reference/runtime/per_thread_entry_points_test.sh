#!/bin/bash
# Copyright mxcts authors.
#
# Checks that mcr/detail/runtime_api_per_thread.h covers the runtime API
# declared by the other per-family headers:
#   - every function that takes a stream (an `mcStream_t name` parameter)
#     has a `_ptsz` form, and every `_ptsz` form is such a function's;
#   - every `_ptds` form is a function's that takes no stream;
#   - each form takes the same parameters as its function, defaults
#     included;
#   - each form is renamed to by exactly one `#define F F_suffix`, and each
#     such macro renames to a declared form.
# [api.sync.per-thread.renamed-entry-points]
#
# Usage: per_thread_entry_points_test.sh HEADER...  (runtime_api_per_thread.h
# among them)

set -euo pipefail

per_thread=""
families=()
for header in "$@"; do
  if [[ "$(basename "$header")" == "runtime_api_per_thread.h" ]]; then
    per_thread="$header"
  else
    families+=("$header")
  fi
done
if [[ -z "$per_thread" || "${#families[@]}" -eq 0 ]]; then
  echo "FAIL: give runtime_api_per_thread.h and the family headers" >&2
  exit 1
fi

# One line per function declaration: "NAME PARAMETERS", the declaration's
# lines joined and its spaces collapsed.
declarations() {
  awk '
    /^(mcError_t|const char\*) mc[A-Za-z0-9_]+\(/ { text = ""; open = 1 }
    open { text = text " " $0 }
    open && /;/ {
      open = 0
      sub(/^ *(mcError_t|const char\*) /, "", text)
      gsub(/[ \t]+/, " ", text)
      gsub(/\( /, "(", text)
      gsub(/ \)/, ")", text)
      name = text; sub(/\(.*/, "", name)
      parameters = text; sub(/^[^(]*/, "", parameters)
      print name " " parameters
    }
  ' "$@"
}

plain="$(declarations "${families[@]}")"
forms="$(declarations "$per_thread")"
renames="$(grep -E '^#define mc[A-Za-z0-9_]+ mc[A-Za-z0-9_]+_pt(sz|ds)$' \
  "$per_thread" | awk '{print $2 " " $3}')"

failed=0
fail() {
  echo "FAIL: $*" >&2
  failed=1
}

takes_stream() { grep -qE '[(,] ?mcStream_t [A-Za-z_]' <<<"$1"; }

stream_taking=0
while read -r name parameters; do
  if takes_stream "$parameters"; then
    stream_taking=$((stream_taking + 1))
    if ! grep -q "^${name}_ptsz " <<<"$forms"; then
      fail "$name takes a stream but has no ${name}_ptsz"
    fi
  fi
done <<<"$plain"
if [[ "$stream_taking" -lt 30 ]]; then
  fail "found only $stream_taking functions that take a stream"
fi

while read -r form parameters; do
  base="${form%_pt??}"
  suffix="${form#"$base"}"
  if [[ "$suffix" != "_ptsz" && "$suffix" != "_ptds" ]]; then
    fail "$form is neither a _ptsz nor a _ptds form"
    continue
  fi
  base_parameters="$(grep "^$base " <<<"$plain" | cut -d' ' -f2- || true)"
  if [[ -z "$base_parameters" ]]; then
    fail "$form has no function $base"
    continue
  fi
  if [[ "$base_parameters" != "$parameters" ]]; then
    fail "$form takes $parameters but $base takes $base_parameters"
  fi
  if [[ "$suffix" == "_ptsz" ]] && ! takes_stream "$base_parameters"; then
    fail "$form: $base takes no stream (a _ptds form?)"
  fi
  if [[ "$suffix" == "_ptds" ]] && takes_stream "$base_parameters"; then
    fail "$form: $base takes a stream (a _ptsz form?)"
  fi
  if [[ "$(grep -c "^$base $form$" <<<"$renames")" -ne 1 ]]; then
    fail "$form is not renamed to by exactly one '#define $base $form'"
  fi
done <<<"$forms"

while read -r base form; do
  if ! grep -q "^$form " <<<"$forms"; then
    fail "'#define $base $form' renames to an undeclared function"
  fi
  if [[ "$form" != "${base}_ptsz" && "$form" != "${base}_ptds" ]]; then
    fail "'#define $base $form' renames to another function's form"
  fi
done <<<"$renames"

# Control: the check tells a stream parameter from a stream pointer.
if ! takes_stream "(void* p, mcStream_t stream)" ||
  takes_stream "(mcStream_t* stream)"; then
  fail "the stream-parameter check is broken"
fi

if [[ "$failed" -ne 0 ]]; then exit 1; fi
echo "PASS: $stream_taking functions take a stream;" \
  "$(grep -c . <<<"$forms") forms, $(grep -c . <<<"$renames") renames"
