#!/bin/bash
# Tests the installed SDK tree (//reference:sdk) as a user meets it: its
# layout, and its driver run from a directory outside the tree with no
# MACA_PATH set, so that the driver finds the tree from its own location;
# programs it builds run on the reference runtime and engine.
#
# Usage: sdk_test.sh SDK_FILE...
#   SDK_FILE...  the files of //reference:sdk; the driver is the one ending
#                in mxgpu_llvm/bin/mxcc.
set -u
source tools/testing/check.sh

mxcc=""
for file in "$@"; do
  case "$file" in */mxgpu_llvm/bin/mxcc) mxcc="$(realpath "$file")" ;; esac
done
if [ -z "$mxcc" ]; then
  echo "sdk_test: no mxgpu_llvm/bin/mxcc among the SDK files" >&2
  exit 1
fi
# realpath leaves the runfiles links behind: this is the tree the driver
# itself finds from /proc/self/exe.
root="${mxcc%/mxgpu_llvm/bin/mxcc}"
scratch="$(mktemp -d "${TEST_TMPDIR:-/tmp}/sdk_test.XXXXXX")"
trap 'rm -rf "$scratch"' EXIT
unset MACA_PATH
cd "$scratch" || exit 1

# 1. The layout [api.compile.mxcc.install-layout].
for path in mxgpu_llvm/bin/mxcc include/mc_runtime.h include/mcr/mc_runtime.h \
  include/mcr/detail/launch_abi.h include/mcr/detail/device_abi.h \
  lib/libmcruntime.so lib/libmcdevice.a lib/mcdevice.version \
  lib/mcconstant.ld include/mxlog/mxlog.h lib/libmcanalyzer.so; do
  check "layout has $path" '[ -f "$root/$path" ]'
done
check "the driver is executable" '[ -x "$root/mxgpu_llvm/bin/mxcc" ]'

run "$mxcc" --version
check "--version" '[ "$status" -eq 0 ] && [[ "$output" == *mxcc* ]]'

# 2. A kernel program, compiled and linked in one call, runs
#    [api.compile.mxcc.source-to-executable].
cat >add.cpp <<'EOF'
#include <mc_runtime.h>
__global__ void Add(const int* a, const int* b, int* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
int main() {
  const int n = 300;
  int a[n], b[n], c[n];
  for (int i = 0; i < n; ++i) { a[i] = i; b[i] = 2 * i; }
  int *da, *db, *dc;
  mcMalloc((void**)&da, sizeof(a));
  mcMalloc((void**)&db, sizeof(b));
  mcMalloc((void**)&dc, sizeof(c));
  mcMemcpy(da, a, sizeof(a), mcMemcpyHostToDevice);
  mcMemcpy(db, b, sizeof(b), mcMemcpyHostToDevice);
  Add<<<(n + 127) / 128, 128>>>(da, db, dc, n);
  mcMemcpy(c, dc, sizeof(c), mcMemcpyDeviceToHost);
  long sum = 0;
  for (int i = 0; i < n; ++i) sum += c[i];
  printf("sum %ld\n", sum);
  return mcDeviceSynchronize() == mcSuccess ? 0 : 1;
}
EOF
run "$mxcc" -x maca -O2 add.cpp -o add
check "kernel program builds" '[ "$status" -eq 0 ] && [ -x add ]'
run ./add
check "kernel program runs" '[ "$status" -eq 0 ] && [ "$output" = "sum 134550" ]'

# 3. Separate compilation; the object links with plain g++ too
#    [api.compile.mxcc.separate-compilation].
run "$mxcc" -x maca -c add.cpp -o add.o
check "-c builds an object" '[ "$status" -eq 0 ] && [ -f add.o ]'
run g++ add.o -o add_gxx -L"$root/lib" -lmcruntime -Wl,-rpath,"$root/lib"
check "the object links with plain g++" '[ "$status" -eq 0 ]'
run ./add_gxx
check "the g++-linked program runs" '[ "$output" = "sum 134550" ]'

# 4. Device code calling a host-only function is rejected, naming the
#    function and the line [api.compile.mxcc.rejects-ill-formed-device-code].
cat >bad.cu <<'EOF'
#include <mc_runtime.h>
int HostOnly(int x) { return x + 1; }
__global__ void K(int* p) {
  *p = HostOnly(1);
}
int main() { K<<<1, 1>>>(nullptr); }
EOF
run "$mxcc" bad.cu -o bad
check "host-only call fails" '[ "$status" -ne 0 ] && [ ! -e bad ]'
check "host-only call is named with its line" \
  '[[ "$output" == *"bad.cu:4: error: device code calls host-only function '"'"'HostOnly(int)'"'"'"* ]]'

# 5. MACA_PATH and --maca-path choose the installation.
run env MACA_PATH="$scratch/nowhere" "$mxcc" -x maca add.cpp -o add2
check "a wrong MACA_PATH is named" \
  '[ "$status" -ne 0 ] && [[ "$output" == *"$scratch/nowhere"* ]] && [[ "$output" == *MACA_PATH* ]]'
run env MACA_PATH="$scratch/nowhere" "$mxcc" --maca-path="$root" -x maca add.cpp -o add2
check "--maca-path wins over MACA_PATH" '[ "$status" -eq 0 ] && [ -x add2 ]'

# 6. The mcLog API: mxlog/mxlog.h and -lmcanalyzer
#    [api.log.mclog.header-and-library].
cat >logs.cpp <<'EOF'
#define MXLOG_TAG "DEMO"
#include <mxlog/mxlog.h>
#include <mc_runtime.h>
int main() {
  LOGE("error %d", 1);
  LOGW("warning %s", "two");
  LOGI("info %.1f", 3.0);
  LOGD("debug");
  return 0;
}
EOF
run "$mxcc" -x maca logs.cpp -o logs -lmcanalyzer
check "a program with mcLog builds with -lmcanalyzer" '[ "$status" -eq 0 ] && [ -x logs ]'
run env MXLOG_LEVEL=warning ./logs
check "mcLog messages at the warning level" \
  '[ "$status" -eq 0 ] && [[ "$output" == *"[DEMO][E]logs.cpp:5: error 1"* ]] && [[ "$output" == *"[DEMO][W]logs.cpp:6: warning two"* ]] && [[ "$output" != *info* ]]'
run objdump -p "$root/lib/libmcanalyzer.so"
check "libmcanalyzer.so names itself by its file name" \
  '[[ "$output" == *SONAME*libmcanalyzer.so* ]]'

finish sdk_test
