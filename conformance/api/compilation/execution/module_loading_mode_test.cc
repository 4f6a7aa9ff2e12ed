// Conformance: MACA_MODULE_LOADING (docs/spec/api-compilation.md, "Modules";
// the runtime guide's table 4.1). Each check runs in a fresh process with
// the variable set, since the runtime reads it once. What differs between
// the modes is where an error of loading a module's code surfaces: an
// image built for xcore1000 loaded while a device of another architecture
// is current (device 1 is made a 9.0 device by the test's environment,
// BUILD) fails in mcModuleLoadData under EAGER, and at the first
// mcModuleGetFunction under LAZY. On device 0 (10.0) both modes load and
// run it: the control. Every mode gives the same results for launches.

#include <mc_runtime.h>

#include <string>
#include <vector>

#include "conformance/api/testing/expect_error.h"
#include "conformance/api/testing/rtc_module.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/fresh_process.h"
#include "conformance/testing/spec.h"

namespace {

using mxcts::conformance::CompiledProgram;
using mxcts::conformance::CompileProgram;
using mxcts::conformance::Expect;
using mxcts::conformance::ScopedEnvironment;

constexpr char kSource[] = R"(
extern "C" __global__ void fill(int* out) { out[threadIdx.x] = 10 + threadIdx.x; }
__device__ int value = 3;
)";

enum class Mode { kLazy, kEager };

// Loads an xcore1000 image on `device`; `expect_lazy` says which mode's
// behaviour to check.
std::string LoadOnDevice(int device, Mode mode) {
  CompiledProgram p =
      CompileProgram(kSource, "modes.cu", {"--offload-arch=xcore1000"});
  if (p.result != MCRTC_SUCCESS) return "compilation failed: " + p.log;
  std::string problems;
  problems += Expect("mcSetDevice", mcSetDevice(device), mcSuccess);
  int major = 0;
  mcDeviceGetAttribute(&major, mcDeviceAttributeComputeCapabilityMajor, device);
  const bool runs_here = major == 10;
  mcModule_t module = nullptr;
  mcError_t loaded = mcModuleLoadData(&module, p.image.data());
  if (runs_here) {
    problems += Expect("mcModuleLoadData", loaded, mcSuccess);
    mcFunction_t f = nullptr;
    problems += Expect("mcModuleGetFunction",
                       mcModuleGetFunction(&f, module, "fill"), mcSuccess);
    int* out = nullptr;
    mcMalloc(&out, 4 * sizeof(int));
    void* args[] = {&out};
    problems += Expect(
        "mcModuleLaunchKernel",
        mcModuleLaunchKernel(f, 1, 1, 1, 4, 1, 1, 0, nullptr, args, nullptr),
        mcSuccess);
    int seen[4] = {};
    mcMemcpy(seen, out, sizeof(seen), mcMemcpyDeviceToHost);
    if (seen[3] != 13) problems += "the kernel did not run; ";
    mcFree(out);
    problems += Expect("mcModuleUnload", mcModuleUnload(module), mcSuccess);
    return problems;
  }
  if (mode == Mode::kEager) {
    // [api.module.loading.reference-load-points] The load fails.
    problems += Expect("mcModuleLoadData (EAGER)", loaded,
                       mcErrorNoKernelImageForDevice);
    return problems;
  }
  // LAZY: the load succeeds; the lookups fail, each time.
  problems += Expect("mcModuleLoadData (LAZY)", loaded, mcSuccess);
  mcFunction_t f = nullptr;
  problems += Expect("mcModuleGetFunction (LAZY)",
                     mcModuleGetFunction(&f, module, "fill"),
                     mcErrorNoKernelImageForDevice);
  mcDeviceptr_t address = nullptr;
  problems += Expect("mcModuleGetGlobal (LAZY)",
                     mcModuleGetGlobal(&address, nullptr, module, "value"),
                     mcErrorNoKernelImageForDevice);
  problems += Expect("mcModuleGetFunction again (LAZY)",
                     mcModuleGetFunction(&f, module, "fill"),
                     mcErrorNoKernelImageForDevice);
  problems +=
      Expect("mcModuleUnload (LAZY)", mcModuleUnload(module), mcSuccess);
  return problems;
}

struct ModeCase {
  const char* value;  // null: unset
  Mode mode;
  const char* name;
};

class LoadingMode : public ::testing::TestWithParam<ModeCase> {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY("runtime_compilation");
    int count = 0;
    if (mcGetDeviceCount(&count) != mcSuccess || count < 2) {
      GTEST_SKIP() << "unsupported: needs a second device of another "
                      "architecture";
    }
    int major = 0;
    mcDeviceGetAttribute(&major, mcDeviceAttributeComputeCapabilityMajor, 1);
    if (major == 10) {
      GTEST_SKIP() << "unsupported: device 1 has the architecture of device 0";
    }
  }
};

TEST_P(LoadingMode, ErrorSurfacesWhereTheModeSays) {
  MX_SPEC("api.env.module-loading.values", "api.module.loading.lazy-and-eager",
          "api.module.loading.lazy-errors-at-first-use",
          "api.module.loading.reference-load-points",
          "api.module.load-data.wrong-architecture");
  ScopedEnvironment mode("MACA_MODULE_LOADING", GetParam().value);
  MX_EXPECT_IN_FRESH_PROCESS(LoadOnDevice(1, GetParam().mode));
}

TEST_P(LoadingMode, ImageForThisDeviceRunsInEveryMode) {
  MX_SPEC("api.module.loading.lazy-and-eager");
  ScopedEnvironment mode("MACA_MODULE_LOADING", GetParam().value);
  MX_EXPECT_IN_FRESH_PROCESS(LoadOnDevice(0, GetParam().mode));
}

INSTANTIATE_TEST_SUITE_P(
    Values, LoadingMode,
    ::testing::Values(ModeCase{nullptr, Mode::kLazy, "Unset"},
                      ModeCase{"LAZY", Mode::kLazy, "Lazy"},
                      ModeCase{"EAGER", Mode::kEager, "Eager"},
                      ModeCase{"eager", Mode::kEager, "LowerCaseEager"},
                      ModeCase{"Lazy", Mode::kLazy, "MixedCaseLazy"},
                      ModeCase{"SOMETIMES", Mode::kLazy, "InvalidIsLazy"},
                      ModeCase{"", Mode::kLazy, "EmptyIsLazy"}),
    [](const ::testing::TestParamInfo<ModeCase>& info) {
      return std::string(info.param.name);
    });

TEST(LoadingModeWarning, InvalidValueIsReported) {
  MX_SPEC("api.module.loading.invalid-value-is-lazy");
  MX_REQUIRE_CAPABILITY("runtime_compilation");
  ScopedEnvironment mode("MACA_MODULE_LOADING", "SOMETIMES");
  EXPECT_EXIT(
      {
        CompiledProgram p = CompileProgram(kSource, "warn.cu");
        mcModule_t module = nullptr;
        mcModuleLoadData(&module, p.image.data());
        _exit(0);
      },
      ::testing::ExitedWithCode(0), "MACA_MODULE_LOADING");
}

TEST(LoadingModeWarning, ValidValueIsNotReported) {
  MX_SPEC("api.module.loading.invalid-value-is-lazy");
  MX_REQUIRE_CAPABILITY("runtime_compilation");
  ScopedEnvironment mode("MACA_MODULE_LOADING", "EAGER");
  EXPECT_EXIT(
      {
        CompiledProgram p = CompileProgram(kSource, "warn.cu");
        mcModule_t module = nullptr;
        mcModuleLoadData(&module, p.image.data());
        fprintf(stderr, "done\n");
        _exit(0);
      },
      ::testing::ExitedWithCode(0), "^done\n$");
}

}  // namespace
