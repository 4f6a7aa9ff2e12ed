#!/bin/bash
# Copyright mxcts authors.
#
# tools/certify/build.sh (`tools/certify/certify build`): builds the
# conformance suite with a backend and packs it for a machine without
# Bazel (tools/certify/README.md).
#
# Usage, from anywhere in the checkout:
#   tools/certify/certify build --backend=LABEL --out=PKG [--piece_mib=N]
#       [--no_build [--judge]] [--marker=SYMBOL] [--build_timeout=S] [PATTERN...]
#
# Without PATTERNs, every chapter of tools/certify/chapters.txt whose
# capability the backend's manifest claims. The build runs with
# --keep_going: a test that does not build stays in the mustpass list and
# in PKG/package/not_built.txt, so the verifier reports it (never silently
# dropped). A test that cannot compile without a capability the manifest
# does not claim (conformance_test's required_capability) is neither built nor
# required: PKG/package/not_claimed.txt lists it with that capability. --no_build packs what the last build left in bazel-bin
# and judges no must-not-compile test; with --judge it judges them all the
# same (a package of unchanged binaries whose expectations file changed);
# --marker names a symbol every binary of the backend holds (pack.sh).
# --build_timeout interrupts the build and the judging of the
# must-not-compile tests after S seconds in all and packs what completed:
# the rest is listed as not built.
#
# Writes:
#   PKG/package/            the tree that travels (pack.sh lists it), with
#                           mustpass.txt, chapters.txt, backend.txt,
#                           judged/ (the XML of the must-not-compile tests,
#                           judged here with `bazel test`, and a summary), and
#                           MANIFEST: "<sha256>  <path>" of every other file
#   PKG/pieces/package.tar.xz.NNN   the tree compressed, in pieces of at
#                           most --piece_mib MiB (default 48: a piece and
#                           the checkout fit the 64 MiB a device call carries)
#   PKG/build.log           Bazel's output
set -u
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
backend=""
out=""
piece_mib=48
build=1
judge=""
marker=""
limit=""
patterns=()
for arg in "$@"; do
  case "$arg" in
    --backend=*) backend="${arg#--backend=}" ;;
    --out=*) out="${arg#--out=}" ;;
    --piece_mib=*) piece_mib="${arg#--piece_mib=}" ;;
    --no_build) build=0 ;;
    --judge) judge=1 ;;
    --marker=*) marker="${arg#--marker=}" ;;
    --build_timeout=*) limit="${arg#--build_timeout=}" ;;
    -*) echo "certify build: unknown option '$arg'" >&2; exit 2 ;;
    *) patterns+=("$arg") ;;
  esac
done
if [[ -z "$backend" || -z "$out" ]]; then
  echo "usage: tools/certify/certify build --backend=LABEL --out=PKG [--piece_mib=N] [--no_build [--judge]] [--marker=SYMBOL] [--build_timeout=S] [PATTERN...]" >&2
  exit 2
fi
if [[ -n "$limit" ]] && ! [[ "$limit" =~ ^[1-9][0-9]*$ ]]; then
  echo "certify build: --build_timeout=$limit is not a positive number of seconds" >&2
  exit 2
fi
started="$(date +%s)"
limited=()
[[ -n "$limit" ]] && limited=(timeout -s INT -k 120 "$limit")
if ! [[ "$piece_mib" =~ ^[1-9][0-9]*$ ]]; then
  echo "certify build: --piece_mib=$piece_mib is not a positive number of MiB" >&2
  exit 2
fi
mkdir -p "$out" || exit 2
out="$(cd "$out" && pwd)"
cd "$root" || exit 2

# The backend's rule: its name, manifest and expectations files.
rule="$(bazel query --output=build "$backend" 2>"$out/query.log")"
if [[ $? -ne 0 || "$rule" != *mxmaca_backend* ]]; then
  echo "certify build: $backend is not an mxmaca_backend target (see $out/query.log)" >&2
  exit 2
fi
attribute() {  # the string value of attribute $1 of the rule
  sed -n "s/^  $1 = \"\\(.*\\)\",\$/\\1/p" <<< "$rule" | head -n 1
}
source_of() {  # the source file of label $1 (//pkg:file), as a path
  local label="$1" package name
  package="${label#//}"
  name="${package##*:}"
  package="${package%%:*}"
  echo "$package/$name"
}
name="$(attribute backend_name)"
[[ -n "$name" ]] || name="${backend##*:}"
capabilities="$(source_of "$(attribute capabilities)")"
expectations="$(attribute expectations)"
[[ -n "$expectations" ]] && expectations="$(source_of "$expectations")"
if [[ ! -f "$capabilities" ]]; then
  echo "certify build: $backend: its capability manifest $capabilities is not a source file" >&2
  exit 2
fi

# The chapters the manifest claims.
source "$here/manifest_claims.sh"
claims() { manifest_claims "$capabilities" "$1"; }
chapters="$(grep -v -e '^#' -e '^ *$' "$here/chapters.txt")"
claimed=()
while read -r chapter spec capability; do
  claims "$capability" && claimed+=("$chapter")
done <<< "$chapters"
if [[ ${#patterns[@]} -eq 0 ]]; then
  for chapter in "${claimed[@]}"; do patterns+=("//conformance/$chapter/..."); done
fi
echo "certify build: backend $name ($backend), ${#patterns[@]} patterns"

# Tests that need a capability to compile (the tag
# mxmaca_capability=<capability> of conformance_test's required_capability):
# those of an unclaimed capability leave the build, with their binaries and
# objects, and the mustpass list.
universe="$(printf '%s + ' "${patterns[@]}") set()"
unclaimed_targets "$capabilities" "$universe" > "$out/not_claimed.txt" 2>"$out/query.log"
exclusions=()
if [[ -s "$out/not_claimed.txt" ]]; then
  tests="set($(awk '{print $1}' "$out/not_claimed.txt" | xargs))"
  while read -r label; do
    exclusions+=("-$label")
  done < <(bazel query "$tests + labels(binary, $tests) + labels(srcs, labels(binary, $tests))" 2>>"$out/query.log")
  echo "certify build: $(grep -c . "$out/not_claimed.txt") tests need capabilities the manifest does not claim ($out/not_claimed.txt)"
fi

status=0
if [[ $build -eq 1 ]]; then
  # The test targets themselves: their binaries and launchers.
  "${limited[@]}" bazel build --keep_going "--//conformance:backend=$backend" \
    --build_event_json_file="$out/build_events.json" -- "${patterns[@]}" "${exclusions[@]}" \
    > "$out/build.log" 2>&1 || status=$?
  # The targets the build completed, from its build events.
  grep '"targetCompleted"' "$out/build_events.json" | grep '"success":true' |
    sed 's/.*"targetCompleted":{"label":"\([^"]*\)".*/\1/' | sort -u > "$out/built.txt"
  echo "certify build: bazel build exited $status ($out/build.log;" \
    "$(grep -c '^ERROR: .* failed' "$out/build.log") failed actions)"
fi

rm -rf "$out/package" "$out/pieces"
built_flag=()
[[ $build -eq 1 ]] && built_flag=(--built="$out/built.txt")
"$here/pack.sh" --out="$out/package" --name="$name" "${built_flag[@]}" \
  ${marker:+--marker="$marker"} --exclude="$out/not_claimed.txt" \
  --capabilities="$capabilities" ${expectations:+--expectations="$expectations"} \
  "${patterns[@]}" || exit 1

# Must-not-compile tests are judged here, where their compiles ran: their
# verdicts depend only on the build's compile records. Their XML results go
# into the package (judged/), and the runner adds them to the results.
judged_targets="$(bazel query "kind('mxmaca_compile_fail_test', $universe) except set($(awk '{print $1}' "$out/not_claimed.txt" | xargs))" 2>/dev/null)"
if [[ -n "$judged_targets" && $build -eq 0 && -z "$judge" ]]; then
  for label in $judged_targets; do
    echo "$label not judged (--no_build)" >> "$out/package/not_built.txt"
  done
elif [[ -n "$judged_targets" ]]; then
  if [[ -n "$limit" ]]; then
    left=$((limit - ($(date +%s) - started)))
    [[ $left -lt 30 ]] && left=30
    limited=(timeout -s INT -k 120 "$left")
  fi
  testlogs="$(bazel info bazel-testlogs 2>/dev/null)"
  for label in $judged_targets; do
    package="${label#//}"
    rm -f "$testlogs/${package%%:*}/${label##*:}/test.xml"
  done
  # A cached verdict would leave its removed test.xml unwritten, and the
  # test would count as not built: every verdict is made again (each takes
  # a fraction of a second; the compiles themselves stay cached).
  "${limited[@]}" bazel test --keep_going --nocache_test_results \
    "--//conformance:backend=$backend" $judged_targets \
    > "$out/judged.log" 2>&1
  mkdir -p "$out/package/judged"
  : > "$out/package/judged/summary.txt"
  for label in $judged_targets; do
    package="${label#//}"
    package="${package%%:*}"
    xml="$testlogs/$package/${label##*:}/test.xml"
    flat="${package//\//_}__${label##*:}"
    if [[ -f "$xml" ]]; then
      cp "$xml" "$out/package/judged/$flat.xml"
      echo "PASSED $label" >> "$out/package/judged/summary.txt"
    else
      echo "$label not built (its compiles did not run)" >> "$out/package/not_built.txt"
    fi
  done
  echo "certify build: $(grep -c . "$out/package/judged/summary.txt") must-not-compile" \
    "tests judged here ($out/judged.log)"
fi

# The mustpass list: every test target of a claimed chapter among the
# patterns, built or not.
{
  echo "# The mustpass list of this package (tools/certify/README.md): every"
  echo "# test target below must run and report its cases, and no case may fail"
  echo "# unless the expectations list it. A case that needs a feature the"
  echo "# manifest does not claim reports itself unsupported."
  echo "# <label> <chapter> <capability the chapter needs, or ->"
  cat "$out/package/targets.txt" "$out/package/not_built.txt" \
    "$out/package/judged/summary.txt" 2>/dev/null | awk '{print $1 == "PASSED" ? $2 : $1}' |
    sort -u | while read -r label; do
      chapter="$(awk -v l="$label" 'BEGIN {
        sub("^//conformance/", "", l); sub(":.*", "", l); n = split(l, p, "/");
        print (n >= 2 ? p[1] "/" p[2] : p[1]) }')"
      for c in "${claimed[@]}"; do
        if [[ "$c" == "$chapter" ]]; then
          echo "$label $chapter $(awk -v c="$chapter" '$1 == c {print $3}' <<< "$chapters")"
        fi
      done
    done
} > "$out/package/mustpass.txt"
{
  echo "# The chapters table this package was built with (tools/certify/chapters.txt),"
  echo "# a fourth column saying whether the manifest claims the chapter."
  while read -r chapter spec capability; do
    claim=no
    claims "$capability" && claim=yes
    echo "$chapter $spec $capability $claim"
  done <<< "$chapters"
} > "$out/package/chapters.txt"
commit="$(git rev-parse HEAD 2>/dev/null)"
[[ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]] && commit="$commit (with local changes)"
{
  echo "backend $name"
  echo "label $backend"
  echo "commit $commit"
  echo "built $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "build_host $(uname -srm)"
  echo "bazel_exit $status"
  echo "patterns ${patterns[*]}"
} > "$out/package/backend.txt"
{
  echo "# Tests left out: each cannot compile without the capability named,"
  echo "# which the manifest does not claim (conformance_test's required_capability)."
  echo "# <label> <capability>"
  cat "$out/not_claimed.txt"
} > "$out/package/not_claimed.txt"
cp "$here/run_package.sh" "$out/package/run"
chmod +x "$out/package/run"

# MANIFEST: the hash of every file, so that the verifier can tell the
# binaries that ran are the ones built here.
(cd "$out/package" && find . -type f ! -name MANIFEST | sed 's|^\./||' | LC_ALL=C sort |
  xargs -d '\n' sha256sum > MANIFEST)

mkdir -p "$out/pieces"
tar -C "$out" -cf - package | xz -T0 -6 |
  split -b "${piece_mib}M" -d -a 3 - "$out/pieces/package.tar.xz."
(cd "$out/pieces" && sha256sum package.tar.xz.* > SHA256SUMS)
echo "certify build: $(grep -c . "$out/package/targets.txt") test binaries," \
  "$(grep -vc '^#' "$out/package/mustpass.txt") mustpass targets," \
  "$(grep -c . "$out/package/not_built.txt") not built;" \
  "$(du -sh "$out/package" | cut -f1) in $out/package," \
  "$(ls "$out/pieces" | grep -c 'xz\.') pieces of $(du -sh "$out/pieces" | cut -f1) in $out/pieces"
