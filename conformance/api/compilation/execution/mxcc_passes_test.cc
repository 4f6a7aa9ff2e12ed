// Conformance: the two compilation passes of mxcc
// (docs/spec/api-compilation.md, "Offline compilation with mxcc"). Each
// source is compiled for the host and for the device
// [api.compile.mxcc.two-passes], and only the device pass defines
// __MACA_ARCH__ [api.compile.mxcc.maca-arch-device-pass-only]. The tests
// build programs with the installed driver and run them; a backend whose
// tests run without MACA_PATH reports them unsupported.

#include <string>

#include "conformance/testing/installed_sdk.h"
#include "conformance/testing/spec.h"

namespace {

using ::mxcts::conformance::CommandResult;

class MxccPasses : public ::mxcts::conformance::InstalledSdkTest {};

// A file both passes read whole. BREAK_DEVICE_PASS and BREAK_HOST_PASS
// each add an error that only one pass sees.
constexpr char kPassErrors[] = R"(#include <mc_runtime.h>
#include <stdio.h>
#if defined(__MACA_ARCH__) && defined(BREAK_DEVICE_PASS)
int device_pass_value = undeclared_in_device_pass;
#endif
#if !defined(__MACA_ARCH__) && defined(BREAK_HOST_PASS)
int host_pass_value = undeclared_in_host_pass;
#endif
__global__ void Increment(int* v) { v[threadIdx.x] += 1; }
int main() {
  int* v;
  if (mcMallocManaged(&v, 2 * sizeof(int)) != mcSuccess) return 2;
  v[0] = 10;
  v[1] = 20;
  Increment<<<1, 2>>>(v);
  if (mcDeviceSynchronize() != mcSuccess) return 3;
  printf("%d %d\n", v[0], v[1]);
  return 0;
}
)";

TEST_F(MxccPasses, EachPassCompilesTheWholeFile) {
  MX_SPEC("api.compile.mxcc.two-passes");
  Write("passes.cu", kPassErrors);
  // Control: with neither error the file builds and runs.
  CommandResult control = Mxcc("passes.cu -o passes");
  ASSERT_EQ(control.status, 0) << control.output;
  CommandResult run = Shell("./passes");
  EXPECT_EQ(run.status, 0) << run.output;
  EXPECT_EQ(run.output, "11 21\n");
  // An error only the device pass sees is reported: there is a device pass.
  CommandResult device = Mxcc("-DBREAK_DEVICE_PASS passes.cu -o device");
  EXPECT_NE(device.status, 0) << device.output;
  EXPECT_NE(device.output.find("undeclared_in_device_pass"), std::string::npos)
      << device.output;
  // An error only the host pass sees is reported: there is a host pass.
  CommandResult host = Mxcc("-DBREAK_HOST_PASS passes.cu -o host");
  EXPECT_NE(host.status, 0) << host.output;
  EXPECT_NE(host.output.find("undeclared_in_host_pass"), std::string::npos)
      << host.output;
}

// Host-only code uses what exists only on the host: files, the environment,
// threads. CALL_FROM_DEVICE makes a device function call it.
constexpr char kHostOnlyCode[] = R"(#include <mc_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <thread>
int HostOnlyBytes(const char* path) {
  int bytes = 0;
  std::thread reader([&] {
    FILE* file = fopen(path, "rb");
    if (file == nullptr) return;
    while (fgetc(file) != EOF) ++bytes;
    fclose(file);
  });
  reader.join();
  return getenv("HOME") != nullptr ? bytes : bytes;
}
#ifdef CALL_FROM_DEVICE
__device__ int DeviceCallsHost(const char* path) { return HostOnlyBytes(path); }
#endif
__global__ void Store(int* out, int value) {
#ifdef CALL_FROM_DEVICE
  value = DeviceCallsHost("input.txt");
#endif
  out[threadIdx.x] = value + static_cast<int>(threadIdx.x);
}
int main() {
  int* out;
  if (mcMallocManaged(&out, 3 * sizeof(int)) != mcSuccess) return 2;
  Store<<<1, 3>>>(out, HostOnlyBytes("input.txt"));
  if (mcDeviceSynchronize() != mcSuccess) return 3;
  printf("%d %d %d\n", out[0], out[1], out[2]);
  return 0;
}
)";

TEST_F(MxccPasses, HostOnlyCodeIsNotCompiledIntoTheDeviceImage) {
  MX_SPEC("api.compile.mxcc.two-passes",
          "lang.function.call.device-calls-host-only");
  Write("host_only.cu", kHostOnlyCode);
  Write("input.txt", "0123456789");  // 10 bytes
  CommandResult build = Mxcc("host_only.cu -o host_only");
  ASSERT_EQ(build.status, 0) << build.output;
  CommandResult run = Shell("./host_only");
  EXPECT_EQ(run.status, 0) << run.output;
  EXPECT_EQ(run.output, "10 11 12\n");
  // Control: once device code calls the host-only function, it is part of
  // the device code, and the driver rejects the file naming it.
  CommandResult rejected =
      Mxcc("-DCALL_FROM_DEVICE host_only.cu -o from_device");
  EXPECT_NE(rejected.status, 0) << rejected.output;
  EXPECT_NE(rejected.output.find("HostOnlyBytes"), std::string::npos)
      << rejected.output;
  EXPECT_NE(Shell("test -e from_device").status, 0)
      << "no executable may be made";
}

// Prints which branch of #ifdef __MACA_ARCH__ each side took.
// BOTH_SIDES_TAKE_DEVICE_BRANCH stands for a macro defined in both passes.
constexpr char kWhichPass[] = R"(#include <mc_runtime.h>
#include <stdio.h>
__host__ __device__ void Report(const char* side) {
#if defined(__MACA_ARCH__) || defined(BOTH_SIDES_TAKE_DEVICE_BRANCH)
  printf("%s: __MACA_ARCH__ defined\n", side);
#else
  printf("%s: __MACA_ARCH__ not defined\n", side);
#endif
}
__global__ void FromDevice() { Report("device"); }
int main() {
  Report("host");
  fflush(stdout);
  FromDevice<<<1, 1>>>();
  return mcDeviceSynchronize() == mcSuccess ? 0 : 1;
}
)";

TEST_F(MxccPasses, MacaArchIsDefinedForTheDeviceSideOnly) {
  MX_SPEC("api.compile.mxcc.maca-arch-device-pass-only");
  Write("which_pass.cu", kWhichPass);
  CommandResult build = Mxcc("which_pass.cu -o which_pass");
  ASSERT_EQ(build.status, 0) << build.output;
  CommandResult run = Shell("./which_pass");
  EXPECT_EQ(run.status, 0) << run.output;
  EXPECT_EQ(run.output,
            "host: __MACA_ARCH__ not defined\n"
            "device: __MACA_ARCH__ defined\n");
  // Control: when the condition holds in both passes, the output shows it.
  CommandResult both =
      Mxcc("-DBOTH_SIDES_TAKE_DEVICE_BRANCH which_pass.cu -o both");
  ASSERT_EQ(both.status, 0) << both.output;
  CommandResult run_both = Shell("./both");
  EXPECT_EQ(run_both.status, 0) << run_both.output;
  EXPECT_EQ(run_both.output,
            "host: __MACA_ARCH__ defined\n"
            "device: __MACA_ARCH__ defined\n");
}

// A function of both sides whose host branch calls a host-only function;
// UNGUARDED drops the #ifdef, so the device side calls it too.
constexpr char kGuardedHostCall[] = R"(#include <mc_runtime.h>
#include <stdio.h>
#include <stdlib.h>
__host__ __device__ int Scale() {
#if defined(__MACA_ARCH__) && !defined(UNGUARDED)
  return 3;
#else
  return getenv("SCALE") != nullptr ? 5 : 4;
#endif
}
__global__ void Apply(int* v) { v[threadIdx.x] *= Scale(); }
int main() {
  int* v;
  if (mcMallocManaged(&v, 2 * sizeof(int)) != mcSuccess) return 2;
  v[0] = 1;
  v[1] = 2;
  Apply<<<1, 2>>>(v);
  if (mcDeviceSynchronize() != mcSuccess) return 3;
  printf("device %d %d, host %d\n", v[0], v[1], Scale());
  return 0;
}
)";

TEST_F(MxccPasses, HostBranchOfMacaArchMayCallHostOnlyFunctions) {
  MX_SPEC("api.compile.mxcc.maca-arch-device-pass-only",
          "lang.function.call.device-calls-host-only");
  Write("guarded.cu", kGuardedHostCall);
  CommandResult build = Mxcc("guarded.cu -o guarded");
  ASSERT_EQ(build.status, 0) << build.output;
  CommandResult run = Shell("SCALE=5 ./guarded");
  EXPECT_EQ(run.status, 0) << run.output;
  EXPECT_EQ(run.output, "device 3 6, host 5\n");
  // Control: without the #ifdef the device side calls getenv, which device
  // code cannot, and the driver rejects the file.
  CommandResult unguarded = Mxcc("-DUNGUARDED guarded.cu -o unguarded");
  EXPECT_NE(unguarded.status, 0) << unguarded.output;
  EXPECT_NE(unguarded.output.find("getenv"), std::string::npos)
      << unguarded.output;
}

}  // namespace
