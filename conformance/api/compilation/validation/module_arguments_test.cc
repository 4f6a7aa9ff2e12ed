// Conformance: the argument checks of the module API
// (docs/spec/api-compilation.md, "Modules"): null pointers, handles that
// are not live, bad launch configurations and argument forms. Each check
// breaks one rule, with a control call beside it that succeeds.

#include <mc_runtime.h>

#include <memory>
#include <string>
#include <vector>

#include "conformance/api/compilation/execution/module_kernels.h"
#include "conformance/testing/spec.h"

namespace {

using mxcts::conformance::ModuleImage;
using mxcts::conformance::ScopedModule;

class ModuleArguments : public ModuleImage {
 protected:
  void SetUp() override {
    ModuleImage::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    module_ = std::make_unique<ScopedModule>(Image());
    ASSERT_EQ(module_->result(), mcSuccess);
    fill_ = module_->Function("fill");
    ASSERT_NE(fill_, nullptr);
    ASSERT_EQ(mcMalloc(&out_, 64 * sizeof(int)), mcSuccess);
  }
  void TearDown() override {
    if (out_ != nullptr) mcFree(out_);
    module_.reset();
  }
  mcError_t LaunchFill(unsigned gx, unsigned bx, unsigned shared = 0,
                       void** params = nullptr, void** extra = nullptr,
                       unsigned gy = 1, unsigned gz = 1, unsigned by = 1,
                       unsigned bz = 1) {
    void* args[] = {&out_, &value_, &n_};
    if (params == nullptr && extra == nullptr) params = args;
    mcError_t result = mcModuleLaunchKernel(fill_, gx, gy, gz, bx, by, bz,
                                            shared, nullptr, params, extra);
    mcDeviceSynchronize();
    return result;
  }
  std::unique_ptr<ScopedModule> module_;
  mcFunction_t fill_ = nullptr;
  int* out_ = nullptr;
  int value_ = 1;
  int n_ = 64;
};

// --- Loading. ---

TEST_F(ModuleArguments, LoadDataNullModuleIsInvalidValue) {
  MX_SPEC("api.module.load-data.null-invalid-value");
  EXPECT_EQ(mcModuleLoadData(nullptr, Image().data()), mcErrorInvalidValue);
}

TEST_F(ModuleArguments, LoadDataNullImageIsInvalidValue) {
  MX_SPEC("api.module.load-data.null-invalid-value");
  mcModule_t m = nullptr;
  EXPECT_EQ(mcModuleLoadData(&m, nullptr), mcErrorInvalidValue);
  EXPECT_EQ(m, nullptr);
}

TEST_F(ModuleArguments, LoadDataExNullModuleOrImageIsInvalidValue) {
  MX_SPEC("api.module.load-data.null-invalid-value",
          "api.module.load-data-ex.options");
  mcModule_t m = nullptr;
  EXPECT_EQ(mcModuleLoadDataEx(nullptr, Image().data(), 0, nullptr, nullptr),
            mcErrorInvalidValue);
  EXPECT_EQ(mcModuleLoadDataEx(&m, nullptr, 0, nullptr, nullptr),
            mcErrorInvalidValue);
}

TEST_F(ModuleArguments, LoadDataExNullOptionsIsInvalidValue) {
  MX_SPEC("api.module.load-data-ex.null-options-invalid-value");
  mcModule_t m = nullptr;
  void* values[] = {nullptr};
  EXPECT_EQ(mcModuleLoadDataEx(&m, Image().data(), 1, nullptr, values),
            mcErrorInvalidValue);
}

TEST_F(ModuleArguments, LoadDataExNullOptionValuesIsInvalidValue) {
  MX_SPEC("api.module.load-data-ex.null-options-invalid-value");
  mcModule_t m = nullptr;
  mcJitOption options[] = {mcJitOptionOptimizationLevel};
  EXPECT_EQ(mcModuleLoadDataEx(&m, Image().data(), 1, options, nullptr),
            mcErrorInvalidValue);
}

TEST_F(ModuleArguments, LoadDataExUnknownOptionIsInvalidValue) {
  MX_SPEC("api.module.load-data-ex.options");
  mcModule_t m = nullptr;
  mcJitOption options[] = {static_cast<mcJitOption>(mcJitOptionNumOptions)};
  void* values[] = {nullptr};
  EXPECT_EQ(mcModuleLoadDataEx(&m, Image().data(), 1, options, values),
            mcErrorInvalidValue);
  options[0] = static_cast<mcJitOption>(-1);
  EXPECT_EQ(mcModuleLoadDataEx(&m, Image().data(), 1, options, values),
            mcErrorInvalidValue);
}

TEST_F(ModuleArguments, LoadNullModuleOrPathIsInvalidValue) {
  MX_SPEC("api.module.load.null-invalid-value");
  mcModule_t m = nullptr;
  EXPECT_EQ(mcModuleLoad(nullptr, "/nonexistent.mcbin"), mcErrorInvalidValue);
  EXPECT_EQ(mcModuleLoad(&m, nullptr), mcErrorInvalidValue);
}

// --- Handles. ---

TEST_F(ModuleArguments, UnloadNullIsInvalidResourceHandle) {
  MX_SPEC("api.module.unload.invalid-handle");
  EXPECT_EQ(mcModuleUnload(nullptr), mcErrorInvalidResourceHandle);
}

TEST_F(ModuleArguments, UnloadMadeUpHandleIsInvalidResourceHandle) {
  MX_SPEC("api.module.unload.invalid-handle");
  int not_a_module = 0;
  EXPECT_EQ(mcModuleUnload(reinterpret_cast<mcModule_t>(&not_a_module)),
            mcErrorInvalidResourceHandle);
}

TEST_F(ModuleArguments, GetFunctionNullOutputOrNameIsInvalidValue) {
  MX_SPEC("api.module.get-function.null-invalid-value");
  mcFunction_t f = nullptr;
  EXPECT_EQ(mcModuleGetFunction(nullptr, module_->get(), "fill"),
            mcErrorInvalidValue);
  EXPECT_EQ(mcModuleGetFunction(&f, module_->get(), nullptr),
            mcErrorInvalidValue);
  EXPECT_EQ(mcModuleGetFunction(&f, module_->get(), "fill"), mcSuccess);
}

TEST_F(ModuleArguments, GetFunctionBadModuleIsInvalidResourceHandle) {
  MX_SPEC("api.module.get-function.null-invalid-value");
  mcFunction_t f = nullptr;
  EXPECT_EQ(mcModuleGetFunction(&f, nullptr, "fill"),
            mcErrorInvalidResourceHandle);
  int not_a_module = 0;
  EXPECT_EQ(mcModuleGetFunction(&f, reinterpret_cast<mcModule_t>(&not_a_module),
                                "fill"),
            mcErrorInvalidResourceHandle);
}

TEST_F(ModuleArguments, GetGlobalNullNameIsInvalidValue) {
  MX_SPEC("api.module.get-global.finds-variable");
  mcDeviceptr_t p = nullptr;
  EXPECT_EQ(mcModuleGetGlobal(&p, nullptr, module_->get(), nullptr),
            mcErrorInvalidValue);
}

TEST_F(ModuleArguments, GetGlobalBadModuleIsInvalidResourceHandle) {
  MX_SPEC("api.module.get-global.finds-variable");
  mcDeviceptr_t p = nullptr;
  EXPECT_EQ(mcModuleGetGlobal(&p, nullptr, nullptr, "counter"),
            mcErrorInvalidResourceHandle);
  EXPECT_EQ(mcModuleGetGlobal(&p, nullptr, module_->get(), "counter"),
            mcSuccess);
}

TEST_F(ModuleArguments, LaunchNullFunctionIsInvalidResourceHandle) {
  MX_SPEC("api.module.launch.invalid-function-handle");
  EXPECT_EQ(mcModuleLaunchKernel(nullptr, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr,
                                 nullptr),
            mcErrorInvalidResourceHandle);
}

TEST_F(ModuleArguments, LaunchMadeUpFunctionIsInvalidResourceHandle) {
  MX_SPEC("api.module.launch.invalid-function-handle");
  int not_a_function = 0;
  EXPECT_EQ(
      mcModuleLaunchKernel(reinterpret_cast<mcFunction_t>(&not_a_function), 1,
                           1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr),
      mcErrorInvalidResourceHandle);
}

TEST_F(ModuleArguments, LaunchFunctionOfUnloadedModuleIsInvalidResourceHandle) {
  MX_SPEC("api.module.launch.invalid-function-handle",
          "api.module.unload.releases-module");
  mcModule_t m = nullptr;
  ASSERT_EQ(mcModuleLoadData(&m, Image().data()), mcSuccess);
  mcFunction_t f = nullptr;
  ASSERT_EQ(mcModuleGetFunction(&f, m, "no_arguments"), mcSuccess);
  ASSERT_EQ(
      mcModuleLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr),
      mcSuccess);  // control
  ASSERT_EQ(mcModuleUnload(m), mcSuccess);
  EXPECT_EQ(
      mcModuleLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr),
      mcErrorInvalidResourceHandle);
  int value = 0;
  EXPECT_EQ(mcFuncGetAttribute(&value, MC_FUNC_ATTRIBUTE_NUM_REGS, f),
            mcErrorInvalidResourceHandle);
}

TEST_F(ModuleArguments, LaunchInAStreamOfNoDeviceIsInvalidResourceHandle) {
  MX_SPEC("api.module.launch.kernel-params");
  mcStream_t stream = nullptr;
  ASSERT_EQ(mcStreamCreate(&stream), mcSuccess);
  ASSERT_EQ(mcStreamDestroy(stream), mcSuccess);
  EXPECT_NE(mcModuleLaunchKernel(module_->Function("no_arguments"), 1, 1, 1, 1,
                                 1, 1, 0, stream, nullptr, nullptr),
            mcSuccess);
}

TEST_F(ModuleArguments, LaunchOnAnotherDeviceIsInvalidResourceHandle) {
  MX_SPEC("api.module.context.other-device-invalid-handle",
          "api.module.context.loaded-per-device");
  int count = 0;
  ASSERT_EQ(mcGetDeviceCount(&count), mcSuccess);
  if (count < 2) GTEST_SKIP() << "unsupported: one device";
  EXPECT_EQ(LaunchFill(1, 64), mcSuccess);  // control, on device 0
  ASSERT_EQ(mcSetDevice(1), mcSuccess);
  void* args[] = {&out_, &value_, &n_};
  EXPECT_EQ(
      mcModuleLaunchKernel(fill_, 1, 1, 1, 64, 1, 1, 0, nullptr, args, nullptr),
      mcErrorInvalidResourceHandle);
  ASSERT_EQ(mcSetDevice(0), mcSuccess);
}

// --- Arguments and configuration. ---

TEST_F(ModuleArguments, BothParamsAndExtraIsInvalidValue) {
  MX_SPEC("api.module.launch.both-params-and-extra-invalid-value");
  struct {
    int* out;
    int value;
    int n;
  } buffer{out_, 1, 64};
  size_t size = sizeof(buffer);
  void* extra[] = {MC_LAUNCH_PARAM_BUFFER_POINTER, &buffer,
                   MC_LAUNCH_PARAM_BUFFER_SIZE, &size, MC_LAUNCH_PARAM_END};
  void* args[] = {&out_, &value_, &n_};
  EXPECT_EQ(LaunchFill(1, 64, 0, args, extra), mcErrorInvalidValue);
  EXPECT_EQ(LaunchFill(1, 64, 0, nullptr, extra), mcSuccess);
  EXPECT_EQ(LaunchFill(1, 64, 0, args, nullptr), mcSuccess);
}

TEST_F(ModuleArguments,
       NeitherParamsNorExtraForAKernelWithArgumentsIsInvalidValue) {
  MX_SPEC("api.module.launch.both-params-and-extra-invalid-value");
  EXPECT_EQ(mcModuleLaunchKernel(fill_, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr,
                                 nullptr),
            mcErrorInvalidValue);
}

TEST_F(ModuleArguments, ExtraWithoutTheBufferIsInvalidValue) {
  MX_SPEC("api.module.launch.extra-buffer");
  size_t size = 16;
  void* extra[] = {MC_LAUNCH_PARAM_BUFFER_SIZE, &size, MC_LAUNCH_PARAM_END};
  EXPECT_EQ(LaunchFill(1, 64, 0, nullptr, extra), mcErrorInvalidValue);
}

TEST_F(ModuleArguments, ExtraWithoutTheSizeIsInvalidValue) {
  MX_SPEC("api.module.launch.extra-buffer");
  char buffer[16] = {};
  void* extra[] = {MC_LAUNCH_PARAM_BUFFER_POINTER, buffer, MC_LAUNCH_PARAM_END};
  EXPECT_EQ(LaunchFill(1, 64, 0, nullptr, extra), mcErrorInvalidValue);
}

TEST_F(ModuleArguments, ExtraBufferTooSmallIsInvalidValue) {
  MX_SPEC("api.module.launch.extra-buffer");
  struct {
    int* out;
    int value;
    int n;
  } buffer{out_, 1, 64};
  size_t size = sizeof(buffer) - 4;  // ends before `n`
  void* extra[] = {MC_LAUNCH_PARAM_BUFFER_POINTER, &buffer,
                   MC_LAUNCH_PARAM_BUFFER_SIZE, &size, MC_LAUNCH_PARAM_END};
  EXPECT_EQ(LaunchFill(1, 64, 0, nullptr, extra), mcErrorInvalidValue);
  size = sizeof(buffer);
  EXPECT_EQ(LaunchFill(1, 64, 0, nullptr, extra), mcSuccess);
}

TEST_F(ModuleArguments, ExtraWithAnUnknownMarkerIsInvalidValue) {
  MX_SPEC("api.module.launch.extra-buffer");
  size_t size = 16;
  void* extra[] = {reinterpret_cast<void*>(0x7), &size, MC_LAUNCH_PARAM_END};
  EXPECT_EQ(LaunchFill(1, 64, 0, nullptr, extra), mcErrorInvalidValue);
}

struct BadConfiguration {
  const char* name;
  unsigned gx, gy, gz, bx, by, bz, shared;
};

class LaunchConfiguration
    : public ModuleArguments,
      public ::testing::WithParamInterface<BadConfiguration> {};

TEST_P(LaunchConfiguration, IsInvalidValueAndRunsNothing) {
  MX_SPEC("api.module.launch.bad-configuration-invalid-value");
  const BadConfiguration c = GetParam();
  ASSERT_EQ(mcMemset(out_, 0, 64 * sizeof(int)), mcSuccess);
  EXPECT_EQ(LaunchFill(c.gx, c.bx, c.shared, nullptr, nullptr, c.gy, c.gz, c.by,
                       c.bz),
            mcErrorInvalidValue);
  int first = -1;
  ASSERT_EQ(mcMemcpy(&first, out_, sizeof(int), mcMemcpyDeviceToHost),
            mcSuccess);
  EXPECT_EQ(first, 0);
}

INSTANTIATE_TEST_SUITE_P(
    Configurations, LaunchConfiguration,
    ::testing::Values(
        BadConfiguration{"ZeroGridX", 0, 1, 1, 64, 1, 1, 0},
        BadConfiguration{"ZeroGridY", 1, 0, 1, 64, 1, 1, 0},
        BadConfiguration{"ZeroGridZ", 1, 1, 0, 64, 1, 1, 0},
        BadConfiguration{"ZeroBlockX", 1, 1, 1, 0, 1, 1, 0},
        BadConfiguration{"ZeroBlockY", 1, 1, 1, 64, 0, 1, 0},
        BadConfiguration{"ZeroBlockZ", 1, 1, 1, 64, 1, 0, 0},
        BadConfiguration{"BlockOverMaxThreads", 1, 1, 1, 1025, 1, 1, 0},
        BadConfiguration{"BlockProductOverMax", 1, 1, 1, 64, 32, 1, 0},
        BadConfiguration{"BlockZOverMaxDim", 1, 1, 1, 1, 1, 1025, 0},
        BadConfiguration{"SharedOverMax", 1, 1, 1, 64, 1, 1, 65537},
        BadConfiguration{"SharedFarOverMax", 1, 1, 1, 64, 1, 1, 1u << 30}),
    [](const ::testing::TestParamInfo<BadConfiguration>& info) {
      return std::string(info.param.name);
    });

TEST_F(ModuleArguments, ConfigurationsAtTheLimitsRun) {
  MX_SPEC("api.module.launch.bad-configuration-invalid-value");
  // The shared memory a block may use is the device's
  // (mcDeviceAttributeMaxSharedMemoryPerBlock), not one number.
  int shared_limit = 0;
  ASSERT_EQ(mcDeviceGetAttribute(&shared_limit,
                                 mcDeviceAttributeMaxSharedMemoryPerBlock, 0),
            mcSuccess);
  ASSERT_GT(shared_limit, 0);
  EXPECT_EQ(LaunchFill(1, 1024), mcSuccess);
  EXPECT_EQ(LaunchFill(1, 64, 1, nullptr, nullptr, 1, 1, 16, 1), mcSuccess);
  EXPECT_EQ(LaunchFill(1, 64, static_cast<unsigned>(shared_limit)), mcSuccess);
  int first = -1;
  ASSERT_EQ(mcMemcpy(&first, out_, sizeof(int), mcMemcpyDeviceToHost),
            mcSuccess);
  EXPECT_EQ(first, 1);
}

// --- mcFuncGetAttribute. ---

TEST_F(ModuleArguments, GetAttributeNullValueIsInvalidValue) {
  MX_SPEC("api.module.function.get-attribute");
  EXPECT_EQ(mcFuncGetAttribute(nullptr, MC_FUNC_ATTRIBUTE_NUM_REGS, fill_),
            mcErrorInvalidValue);
}

class BadAttribute : public ModuleArguments,
                     public ::testing::WithParamInterface<int> {};

TEST_P(BadAttribute, IsInvalidValue) {
  MX_SPEC("api.module.function.get-attribute");
  int value = 0;
  EXPECT_EQ(mcFuncGetAttribute(
                &value, static_cast<mcFunction_attribute>(GetParam()), fill_),
            mcErrorInvalidValue);
}

INSTANTIATE_TEST_SUITE_P(Attributes, BadAttribute,
                         ::testing::Values(-1, MC_FUNC_ATTRIBUTE_MAX, 11, 99));

TEST_F(ModuleArguments, GetAttributeBadFunctionIsInvalidResourceHandle) {
  MX_SPEC("api.module.function.get-attribute");
  int value = 0;
  EXPECT_EQ(mcFuncGetAttribute(&value, MC_FUNC_ATTRIBUTE_NUM_REGS, nullptr),
            mcErrorInvalidResourceHandle);
  EXPECT_EQ(mcFuncGetAttribute(&value, MC_FUNC_ATTRIBUTE_NUM_REGS, fill_),
            mcSuccess);
}

}  // namespace
