#!/bin/bash
# Copyright mxcts authors.
#
# tools/certify/run_package.sh (`tools/certify/certify run`, and `run` in
# every package): runs the conformance tests of a package that
# `tools/certify/certify build` made, on the machine of the backend's
# device, with bash and coreutils alone (no Bazel), as Bazel would run each
# test target: under the expectation runner, with the backend's capability
# manifest in $MXMACA_CAPABILITIES, GoogleTest's XML in $XML_OUTPUT_FILE,
# one process per target, a timeout each. The runner isolates the cases of
# each binary (docs/backend-guide.md, "Crash and hang isolation"): a case
# that crashes, or makes no progress for half the timeout, is reported as
# that case's failure, and the binary's other cases still run and report.
#
# Usage:
#   run PKG --out=RESULTS [--jobs=N] [--timeout=S]
# PKG is the package folder (PKG/package, or a folder holding it), or a
# folder of its pieces (package.tar.xz.NNN), which are joined and unpacked
# beside RESULTS first. Defaults: 4 jobs, 300 s a target.
#
# Writes into RESULTS:
#   <binary>.xml, <binary>.log   each target's GoogleTest XML and output
#                    (the package's judged/*.xml too: the must-not-compile
#                    tests, judged where the package was built)
#   summary.txt      "PASSED|FAILED|TIMEOUT <label>" per target, then counts
#   capabilities.txt the manifest the tests read (device_count: the GPUs
#                    nvidia-smi lists, where it is installed)
#   machine.txt      date, host, kernel, GPUs, driver, CUDA version
#   package.sha256   the hash of every package file as found before the run
#                    (the verifier compares it with the package's MANIFEST)
#   MANIFEST         "<sha256>  <file>" of every other file of RESULTS
set -u
package=""
results=""
jobs=4
timeout_s=300
for arg in "$@"; do
  case "$arg" in
    --out=*) results="${arg#--out=}" ;;
    --jobs=*) jobs="${arg#--jobs=}" ;;
    --timeout=*) timeout_s="${arg#--timeout=}" ;;
    -*) echo "run: unknown option '$arg'" >&2; exit 2 ;;
    *) package="$arg" ;;
  esac
done
if [[ -z "$package" || -z "$results" ]]; then
  echo "usage: run PKG --out=RESULTS [--jobs=N] [--timeout=S]" >&2
  exit 2
fi
for n in "$jobs" "$timeout_s"; do
  [[ "$n" =~ ^[1-9][0-9]*$ ]] || { echo "run: '$n' is not a positive number" >&2; exit 2; }
done
mkdir -p "$results" || exit 2
results="$(cd "$results" && pwd)"
[[ -d "$package/package" ]] && package="$package/package"
[[ -d "$package/pieces" ]] && package="$package/pieces"
if [[ ! -f "$package/MANIFEST" ]]; then
  if ! ls "$package"/package.tar.xz.[0-9]* > /dev/null 2>&1; then
    echo "run: $package holds neither a package (MANIFEST) nor its pieces (package.tar.xz.NNN)" >&2
    exit 2
  fi
  unpacked="$results.package"
  rm -rf "$unpacked"
  mkdir -p "$unpacked"
  if ! (set -o pipefail
    cat "$package"/package.tar.xz.[0-9]* | xz -dc | tar -C "$unpacked" -xf -); then
    echo "run: $package: the pieces do not unpack (missing or damaged piece?)" >&2
    exit 2
  fi
  package="$unpacked/package"
fi
cd "$package" || exit 2
bundle="$(pwd)"
for f in MANIFEST targets.txt expectation_runner capabilities.txt; do
  [[ -f "$f" ]] || { echo "run: $bundle/$f: missing from the package" >&2; exit 2; }
done
name="$(cat backend_name.txt 2>/dev/null)"
expectations_name="$(cat expectations_name.txt 2>/dev/null)"

# The package as found, hashed before anything runs.
sha256sum $(awk '{print $2}' MANIFEST) > "$results/package.sha256" 2>/dev/null
if ! sha256sum --quiet -c MANIFEST > "$results/package_check.txt" 2>&1; then
  echo "run: WARNING: the package differs from its MANIFEST (package_check.txt); the verifier will refuse these results" >&2
fi

{
  echo "date $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "host $(hostname)"
  echo "kernel $(uname -srm)"
  if command -v nvidia-smi > /dev/null; then
    nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv,noheader |
      sed 's/^/gpu /'
    echo "cuda $(nvidia-smi | sed -n 's/.*CUDA Version: *\([0-9.]*\).*/\1/p' | head -n 1)"
  fi
} > "$results/machine.txt"

export LD_LIBRARY_PATH="$bundle/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
devices=""
command -v nvidia-smi > /dev/null && devices="$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')"
if [[ -n "$devices" && "$devices" -gt 0 ]]; then
  sed "s/^device_count .*/device_count             $devices/" capabilities.txt \
    > "$results/capabilities.txt"
else
  cp capabilities.txt "$results/capabilities.txt"
fi
export MXMACA_CAPABILITIES="$results/capabilities.txt"

run_one() {
  local label="$1" binary="$2"
  local scratch status=0
  scratch="$(mktemp -d)"
  local expectations=()
  if [[ -f "$bundle/expectations.txt" ]]; then
    expectations=(--expectations="$bundle/expectations.txt"
      --expectations_name="${expectations_name:-expectations.txt}")
  fi
  (
    cd "$scratch" || exit 1
    export XML_OUTPUT_FILE="$results/$binary.xml" TEST_TMPDIR="$scratch"
    export TEST_TIMEOUT="$timeout_s"
    timeout -k 10 "$TEST_TIMEOUT" "$bundle/expectation_runner" \
      --target="$label" --backend="${name:-unknown}" "${expectations[@]}" \
      -- "$bundle/bin/$binary"
  ) > "$results/$binary.log" 2>&1 || status=$?
  rm -rf "$scratch"
  case "$status" in
    0) echo "PASSED $label" ;;
    124 | 137) echo "TIMEOUT $label" ;;
    *) echo "FAILED $label" ;;
  esac
}
export -f run_one
export bundle results name expectations_name timeout_s

# The memory chapter's tests, and the pool tests that do the same, compare
# the device's free memory before and after a call; on a real GPU that
# memory is shared by every process on it, so they run alone, one after
# another, once the rest have run in parallel.
serial="${MXCTS_SERIAL_TARGETS:-^//conformance/api/memory/|^//conformance/api/memory_pools/(execution:pool_lifecycle|validation:stream_ordered_allocation)_test( |\$)}"
{
  grep -v -E "$serial" targets.txt | xargs -r -P "$jobs" -L 1 bash -c 'run_one "$0" "$1"'
  grep -E "$serial" targets.txt | xargs -r -P 1 -L 1 bash -c 'run_one "$0" "$1"'
} | sort -k2 > "$results/summary.txt"
# The must-not-compile tests, judged where the package was built.
if [[ -f judged/summary.txt ]]; then
  for xml in judged/*.xml; do
    [[ -f "$xml" ]] && cp "$xml" "$results/"
  done
  sort -k2 "$results/summary.txt" judged/summary.txt -o "$results/summary.txt"
fi
{
  echo "passed: $(grep -c '^PASSED' "$results/summary.txt")"
  echo "failed: $(grep -c '^FAILED' "$results/summary.txt")"
  echo "timed out: $(grep -c '^TIMEOUT' "$results/summary.txt")"
  echo "crashed or hung cases: $(cat "$results"/*.log 2>/dev/null |
    grep -c 'a crash or hang is never a known failure')"
} >> "$results/summary.txt"

# The results' hashes, last.
(cd "$results" && find . -maxdepth 1 -type f ! -name MANIFEST | sed 's|^\./||' |
  LC_ALL=C sort | xargs -d '\n' sha256sum > MANIFEST)
tail -n 4 "$results/summary.txt"
