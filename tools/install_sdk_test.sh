#!/bin/bash
# Tests `bazel run //:install` (tools/install_sdk behind the
# mxmaca_sdk_installer rule): its arguments and errors, the installed layout
# [api.compile.mxcc.install-layout], that nothing installed refers back to the
# checkout or to Bazel's output tree [api.compile.mxcc.install-relocatable],
# and that the installed SDK compiles and runs a program where it was
# installed and again after being moved elsewhere, with the environment the
# runtime guide sets.
#
# Usage: install_sdk_test.sh INSTALLER
#   INSTALLER  the executable of //:install (it finds the SDK in the test's
#              runfiles)
set -u
source tools/testing/check.sh

installer="$(pwd)/$1"
scratch="$(mktemp -d "${TEST_TMPDIR:-/tmp}/install_sdk_test.XXXXXX")"
trap 'rm -rf "$scratch"' EXIT
unset MACA_PATH BUILD_WORKING_DIRECTORY
base_path="$PATH"
base_library_path="${LD_LIBRARY_PATH:-}"

# The places the install must not name: this checkout (where the test's own
# source lives) and Bazel's output base (where the built SDK lives).
checkout="$(realpath "${BASH_SOURCE[0]}")"
checkout="${checkout%/tools/install_sdk_test.sh}"
built="$(realpath "$installer")"
output_base="${built%%/execroot/*}"
manifest="$(dirname "$installer")/install.files"
runfiles="$(dirname "$installer")"

# 1. Arguments.
run "$installer" --help
check "--help exits 0" '[ "$status" -eq 0 ]'
check "--help gives the usage and the default prefix" \
  '[[ "$output" == *"--prefix=DIR"* ]] && [[ "$output" == *"default: /opt/maca"* ]]'
check "--help names the guide's environment" \
  '[[ "$output" == *"export MACA_PATH=DIR"* ]] && [[ "$output" == *"LD_LIBRARY_PATH"* ]]'

run "$installer" --prefx="$scratch/x"
check "an unknown option is exit 2" '[ "$status" -eq 2 ]'
check "an unknown option is named" '[[ "$output" == *"unknown option '"'"'--prefx=$scratch/x'"'"'"* ]]'
run "$installer" "$scratch/x"
check "a bare directory is exit 2, naming --prefix" \
  '[ "$status" -eq 2 ] && [[ "$output" == *"--prefix=DIR"* ]]'
run "$installer" --prefix=
check "an empty --prefix is exit 2" '[ "$status" -eq 2 ] && [[ "$output" == *"--prefix is empty"* ]]'
run "$installer" --prefix
check "--prefix without a directory is exit 2" \
  '[ "$status" -eq 2 ] && [[ "$output" == *"--prefix needs a directory"* ]]'
touch "$scratch/a_file"
run "$installer" --prefix="$scratch/a_file"
check "a prefix that is a file is refused, naming it" \
  '[ "$status" -eq 1 ] && [[ "$output" == *"$scratch/a_file exists and is not a directory"* ]]'
run "$installer" --prefix=/proc/mxcts-install-test
check "an unwritable prefix is refused, naming the directory" \
  '[ "$status" -eq 1 ] && [[ "$output" == *"cannot create /proc/mxcts-install-test"* ]]'
check "no stray files of a refused install" '[ "$(ls "$scratch")" = a_file ]'
run "$(realpath "$runfiles/tools/install_sdk")" --prefix="$scratch/x"
check "the script alone asks for bazel run" \
  '[ "$status" -eq 2 ] && [[ "$output" == *"bazel run //:install"* ]] && [ ! -e "$scratch/x" ]'

# 2. Install; the layout.
prefix="$scratch/maca"
run "$installer" --prefix "$prefix"
check "install exits 0" '[ "$status" -eq 0 ]'
check "install names the prefix" '[[ "$output" == *"in $prefix"* ]]'
for path in mxgpu_llvm/bin/mxcc include/mc_runtime.h include/mc_runtime_api.h \
  include/mcr/mc_runtime.h include/mcr/detail/launch_abi.h include/mcrtc.h \
  include/mxlog/mxlog.h lib/libmcruntime.so lib/libmcrtc.so lib/libmcanalyzer.so \
  lib/libmcdevice.a lib/mcdevice.version lib/mcconstant.ld; do
  check "layout has $path" '[ -f "$prefix/$path" ]'
done
check "the driver is executable" '[ -x "$prefix/mxgpu_llvm/bin/mxcc" ]'
check "headers are not executable" '[ ! -x "$prefix/include/mc_runtime.h" ]'
# Every file of the SDK, whatever it holds, is installed as a copy of it.
missing=""
while IFS=$'\t' read -r source path; do
  cmp -s "$runfiles/$source" "$prefix/$path" || missing+=" $path"
done <"$manifest"
check "every SDK file is installed unchanged" '[ -z "$missing" ]'
check "the install has exactly the SDK's files" \
  '[ "$(cd "$prefix" && find . -type f | sed "s|^\./||" | sort)" = "$(cut -f2 "$manifest" | sort)" ]'
check "the install holds no links" '[ -z "$(find "$prefix" -type l)" ]'

# 3. Relocatable: no file names the checkout or Bazel's tree. The control
#    shows the scan finds such a path where there is one.
names_build_paths() {
  grep -rlF -e "$checkout/" -e "$output_base" -e "/execroot/" "$1"
}
check "the checkout and output base are known" \
  '[ -d "$checkout/tools" ] && [ -d "$output_base" ] && [ "$checkout" != "$output_base" ]'
run names_build_paths "$prefix"
check "no installed file names the checkout or Bazel's output tree" '[ -z "$output" ]'
mkdir -p "$scratch/control/lib"
printf 'RUNPATH\0%s/reference\0' "$checkout" >"$scratch/control/lib/libcontrol.so"
run names_build_paths "$scratch/control"
check "control: the scan finds a path into the checkout" \
  '[[ "$output" == *libcontrol.so* ]]'

# Prints each entry of the search path $2 (one a line) of the ELF file $1
# that is not a $ORIGIN-relative folder inside the install.
search_outside() {
  local elf="$1" entry resolved
  while read -r entry; do
    [ -n "$entry" ] || continue
    case "$entry" in
      '$ORIGIN' | '$ORIGIN'/*)
        resolved="$(realpath -m "$(dirname "$elf")/${entry#\$ORIGIN}")"
        case "$resolved/" in "$prefix"/*) continue ;; esac
        ;;
    esac
    echo "$entry"
  done <<<"$2"
}
run search_outside "$prefix/lib/libx.so" $'$ORIGIN\n$ORIGIN/../lib\n$ORIGIN/../../_solib_k8\n/usr/lib/x'
check "control: search paths that leave the install are found" \
  '[ "$output" = $'"'"'$ORIGIN/../../_solib_k8\n/usr/lib/x'"'"' ]'

for elf in "$prefix"/mxgpu_llvm/bin/mxcc "$prefix"/lib/*.so; do
  file="${elf#"$prefix"/}"
  dynamic="$(readelf -d "$elf" 2>&1)"
  search="$(sed -n 's/.*(R\(UN\)\{0,1\}PATH).*\[\(.*\)\]/\2/p' <<<"$dynamic" | tr ':' '\n')"
  outside="$(search_outside "$elf" "$search")"
  check "$file has no search path outside the install" '[ -z "$outside" ]'
  case "$file" in
    *.so)
      check "$file's soname is its name" \
        '[[ "$dynamic" == *"Library soname: [$(basename "$file")]"* ]]'
      ;;
  esac
done

# 4. Installing again over an install restores it.
echo "changed" >"$prefix/include/mc_runtime.h"
run "$installer" --prefix="$prefix"
check "a second install exits 0" '[ "$status" -eq 0 ]'
check "a second install restores a changed file" \
  '[ "$(grep -c changed "$prefix/include/mc_runtime.h")" -eq 0 ]'

# 5. A relative prefix is taken from the directory bazel run started in.
mkdir -p "$scratch/workdir"
run env BUILD_WORKING_DIRECTORY="$scratch/workdir" "$installer" --prefix=relative/maca
check "a relative prefix is below the working directory" \
  '[ "$status" -eq 0 ] && [ -x "$scratch/workdir/relative/maca/mxgpu_llvm/bin/mxcc" ]'
rm -rf "$scratch/workdir"

# 6. The installed SDK at work, with the guide's environment.
use_sdk() {
  export MACA_PATH="$1"
  export PATH="$MACA_PATH/mxgpu_llvm/bin:$base_path"
  export LD_LIBRARY_PATH="$MACA_PATH/lib${base_library_path:+:$base_library_path}"
}
mkdir -p "$scratch/program"
cd "$scratch/program" || exit 1
cat >sum.cpp <<'EOF'
#include <mc_runtime.h>
#include <stdio.h>
__global__ void Square(int* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = v[i] * v[i];
}
int main() {
  const int n = 200;
  int h[n];
  for (int i = 0; i < n; ++i) h[i] = i;
  int* d = nullptr;
  if (mcMalloc(&d, sizeof(h)) != mcSuccess) return 1;
  mcMemcpy(d, h, sizeof(h), mcMemcpyHostToDevice);
  Square<<<(n + 63) / 64, 64>>>(d, n);
  mcMemcpy(h, d, sizeof(h), mcMemcpyDeviceToHost);
  long sum = 0;
  for (int i = 0; i < n; ++i) sum += h[i];
  printf("sum of squares %ld\n", sum);
  return mcFree(d) == mcSuccess ? 0 : 1;
}
EOF
use_sdk "$prefix"
run mxcc -x maca sum.cpp -o sum
check "the installed mxcc (from PATH) builds a program" '[ "$status" -eq 0 ] && [ -x sum ]'
run ./sum
check "the program runs" '[ "$status" -eq 0 ] && [ "$output" = "sum of squares 2646700" ]'
check "the program uses the installed runtime" \
  '[[ "$(ldd ./sum)" == *"$prefix/lib/libmcruntime.so"* ]]'

# 7. Moved elsewhere, the tree still works: found from the driver's own
#    location, and through MACA_PATH.
moved="$scratch/elsewhere/sdk"
mkdir -p "$scratch/elsewhere"
mv "$prefix" "$moved"
run env -u LD_LIBRARY_PATH ./sum
check "control: the program no longer finds the moved runtime on its own" \
  '[ "$status" -ne 0 ] && [[ "$output" == *libmcruntime.so* ]]'
use_sdk "$moved"
run ./sum
check "the program runs on the moved runtime through LD_LIBRARY_PATH" \
  '[ "$status" -eq 0 ] && [ "$output" = "sum of squares 2646700" ]'
run mxcc -x maca sum.cpp -o sum_moved
check "the moved mxcc builds with MACA_PATH set" '[ "$status" -eq 0 ] && [ -x sum_moved ]'
run ./sum_moved
check "its program runs" '[ "$status" -eq 0 ] && [ "$output" = "sum of squares 2646700" ]'
run env -u MACA_PATH -u LD_LIBRARY_PATH "$moved/mxgpu_llvm/bin/mxcc" -x maca sum.cpp -o sum_found
check "the moved mxcc finds its tree without MACA_PATH" '[ "$status" -eq 0 ] && [ -x sum_found ]'
run env -u LD_LIBRARY_PATH ./sum_found
check "its program runs" '[ "$status" -eq 0 ] && [ "$output" = "sum of squares 2646700" ]'

finish install_sdk_test
