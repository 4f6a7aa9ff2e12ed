// Conformance: loading modules (docs/spec/api-compilation.md, "Modules"):
// mcModuleLoadData, mcModuleLoadDataEx and mcModuleLoad of an image made by
// mcrtc and of one made offline by `mxcc --genco`, the lookup of kernels and
// variables by name, unloading, and a device reset.

#include <mc_runtime.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <string>
#include <vector>

#include "conformance/api/compilation/execution/module_kernels.h"
#include "conformance/testing/spec.h"

namespace {

using mxcts::conformance::kModuleSource;
using mxcts::conformance::ModuleImage;
using mxcts::conformance::ScopedModule;

std::string TempPath(const std::string& leaf) {
  const char* tmp = getenv("TEST_TMPDIR");
  return std::string(tmp ? tmp : "/tmp") + "/" + leaf;
}

void WriteFile(const std::string& path, const std::vector<char>& bytes) {
  std::ofstream(path, std::ios::binary).write(bytes.data(), bytes.size());
}

// Runs `fill` of `module` over 8 ints and returns them.
std::vector<int> Fill(mcModule_t module, int value) {
  mcFunction_t f = nullptr;
  if (mcModuleGetFunction(&f, module, "fill") != mcSuccess) return {};
  int* out = nullptr;
  mcMalloc(&out, 8 * sizeof(int));
  int n = 8;
  void* args[] = {&out, &value, &n};
  std::vector<int> result(8, -1);
  if (mcModuleLaunchKernel(f, 2, 1, 1, 4, 1, 1, 0, nullptr, args, nullptr) ==
      mcSuccess) {
    mcMemcpy(result.data(), out, 8 * sizeof(int), mcMemcpyDeviceToHost);
  }
  mcFree(out);
  return result;
}

const std::vector<int> kFilled = {5, 6, 7, 8, 9, 10, 11, 12};

class ModuleLoad : public ModuleImage {};

TEST_F(ModuleLoad, LoadDataGivesAWorkingModule) {
  MX_SPEC("api.module.load-data.loads-image", "api.rtc.code.get-code");
  mcModule_t module = nullptr;
  ASSERT_EQ(mcModuleLoadData(&module, Image().data()), mcSuccess);
  EXPECT_NE(module, nullptr);
  EXPECT_EQ(Fill(module, 5), kFilled);
  EXPECT_EQ(mcModuleUnload(module), mcSuccess);
}

TEST_F(ModuleLoad, ImageMayBeFreedAfterLoading) {
  MX_SPEC("api.module.load-data.loads-image");
  std::vector<char>* copy = new std::vector<char>(Image());
  mcModule_t module = nullptr;
  ASSERT_EQ(mcModuleLoadData(&module, copy->data()), mcSuccess);
  std::fill(copy->begin(), copy->end(), 0);
  delete copy;
  EXPECT_EQ(Fill(module, 5), kFilled);
  EXPECT_EQ(mcModuleUnload(module), mcSuccess);
}

TEST_F(ModuleLoad, TwoLoadsAreTwoModulesWithTheirOwnVariables) {
  MX_SPEC("api.module.load-data.loads-image",
          "api.module.get-global.finds-variable");
  ScopedModule a(Image());
  ScopedModule b(Image());
  ASSERT_EQ(a.result(), mcSuccess);
  ASSERT_EQ(b.result(), mcSuccess);
  EXPECT_NE(a.get(), b.get());
  mcDeviceptr_t in_a = nullptr, in_b = nullptr;
  ASSERT_EQ(mcModuleGetGlobal(&in_a, nullptr, a.get(), "counter"), mcSuccess);
  ASSERT_EQ(mcModuleGetGlobal(&in_b, nullptr, b.get(), "counter"), mcSuccess);
  EXPECT_NE(in_a, in_b);
  int value = 100;
  ASSERT_EQ(mcMemcpy(in_a, &value, sizeof(value), mcMemcpyHostToDevice),
            mcSuccess);
  ASSERT_EQ(mcMemcpy(&value, in_b, sizeof(value), mcMemcpyDeviceToHost),
            mcSuccess);
  EXPECT_EQ(value, 42);
}

TEST_F(ModuleLoad, LoadDataExWithoutOptionsIsLoadData) {
  MX_SPEC("api.module.load-data-ex.options");
  mcModule_t module = nullptr;
  ASSERT_EQ(mcModuleLoadDataEx(&module, Image().data(), 0, nullptr, nullptr),
            mcSuccess);
  EXPECT_EQ(Fill(module, 5), kFilled);
  EXPECT_EQ(mcModuleUnload(module), mcSuccess);
}

TEST_F(ModuleLoad, LoadDataExAcceptsJitOptionsAndEmptiesLogs) {
  MX_SPEC("api.module.load-data-ex.options");
  char info[64] = "stale info";
  char error[64] = "stale error";
  mcJitOption options[] = {
      mcJitOptionInfoLogBuffer,     mcJitOptionInfoLogBufferSizeBytes,
      mcJitOptionErrorLogBuffer,    mcJitOptionErrorLogBufferSizeBytes,
      mcJitOptionOptimizationLevel, mcJitOptionMaxRegisters};
  void* values[] = {info,
                    reinterpret_cast<void*>(sizeof(info)),
                    error,
                    reinterpret_cast<void*>(sizeof(error)),
                    reinterpret_cast<void*>(3),
                    reinterpret_cast<void*>(64)};
  mcModule_t module = nullptr;
  ASSERT_EQ(mcModuleLoadDataEx(&module, Image().data(), 6, options, values),
            mcSuccess);
  EXPECT_STREQ(info, "");
  EXPECT_STREQ(error, "");
  EXPECT_EQ(Fill(module, 5), kFilled);
  EXPECT_EQ(mcModuleUnload(module), mcSuccess);
}

class JitOption : public ModuleImage,
                  public ::testing::WithParamInterface<int> {};

TEST_P(JitOption, EachOptionIsAccepted) {
  MX_SPEC("api.module.load-data-ex.options");
  mcJitOption options[] = {static_cast<mcJitOption>(GetParam())};
  int value = 1;
  void* values[] = {reinterpret_cast<void*>(static_cast<intptr_t>(value))};
  if (GetParam() == mcJitOptionInfoLogBuffer ||
      GetParam() == mcJitOptionErrorLogBuffer) {
    values[0] = nullptr;  // no size given: the buffer is not written
  }
  mcModule_t module = nullptr;
  ASSERT_EQ(mcModuleLoadDataEx(&module, Image().data(), 1, options, values),
            mcSuccess);
  EXPECT_EQ(mcModuleUnload(module), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(
    Options, JitOption,
    ::testing::Range(0, static_cast<int>(mcJitOptionNumOptions)));

TEST_F(ModuleLoad, LoadReadsAnImageFile) {
  MX_SPEC("api.module.load.loads-file");
  const std::string path = TempPath("module_load.mcbin");
  WriteFile(path, Image());
  mcModule_t module = nullptr;
  ASSERT_EQ(mcModuleLoad(&module, path.c_str()), mcSuccess);
  EXPECT_EQ(Fill(module, 5), kFilled);
  EXPECT_EQ(mcModuleUnload(module), mcSuccess);
}

TEST_F(ModuleLoad, MissingFileIsFileNotFound) {
  MX_SPEC("api.module.load.missing-file");
  mcModule_t module = nullptr;
  EXPECT_EQ(mcModuleLoad(&module, TempPath("no_such_image.mcbin").c_str()),
            mcErrorFileNotFound);
}

TEST_F(ModuleLoad, DirectoryIsFileNotFound) {
  MX_SPEC("api.module.load.missing-file");
  mcModule_t module = nullptr;
  EXPECT_EQ(mcModuleLoad(&module, TempPath("").c_str()), mcErrorFileNotFound);
}

TEST_F(ModuleLoad, FileOfOtherBytesIsInvalidImage) {
  MX_SPEC("api.module.load.invalid-file-content");
  const std::string path = TempPath("not_an_image.txt");
  std::ofstream(path) << "this is a text file, not a device image\n";
  mcModule_t module = nullptr;
  EXPECT_EQ(mcModuleLoad(&module, path.c_str()), mcErrorInvalidKernelImage);
  const std::string empty = TempPath("empty.mcbin");
  std::ofstream(empty).close();
  EXPECT_EQ(mcModuleLoad(&module, empty.c_str()), mcErrorInvalidKernelImage);
}

TEST_F(ModuleLoad, ExternCKernelIsFoundByItsName) {
  MX_SPEC("api.module.get-function.finds-kernel");
  ScopedModule module(Image());
  ASSERT_EQ(module.result(), mcSuccess);
  for (const char* name :
       {"fill", "no_arguments", "mixed", "bounded", "reverse_dynamic",
        "static_shared", "dims", "bump_counter", "read_table", "read_total"}) {
    mcFunction_t f = nullptr;
    EXPECT_EQ(mcModuleGetFunction(&f, module.get(), name), mcSuccess) << name;
    EXPECT_NE(f, nullptr) << name;
  }
}

TEST_F(ModuleLoad, CxxKernelIsFoundByItsMangledName) {
  MX_SPEC("api.module.get-function.finds-kernel");
  ScopedModule module(Image());
  ASSERT_EQ(module.result(), mcSuccess);
  mcFunction_t f = nullptr;
  EXPECT_EQ(mcModuleGetFunction(&f, module.get(), "_Z10cpp_kernelPi"),
            mcSuccess);
  EXPECT_EQ(mcModuleGetFunction(&f, module.get(), "cpp_kernel"),
            mcErrorSymbolNotFound);
}

TEST_F(ModuleLoad, SameNameGivesTheSameHandle) {
  MX_SPEC("api.module.get-function.finds-kernel");
  ScopedModule module(Image());
  ASSERT_EQ(module.result(), mcSuccess);
  EXPECT_EQ(module.Function("fill"), module.Function("fill"));
  EXPECT_NE(module.Function("fill"), module.Function("dims"));
}

TEST_F(ModuleLoad, UnknownKernelIsSymbolNotFound) {
  MX_SPEC("api.module.get-function.unknown-name");
  ScopedModule module(Image());
  ASSERT_EQ(module.result(), mcSuccess);
  mcFunction_t f = nullptr;
  EXPECT_EQ(mcModuleGetFunction(&f, module.get(), "no_such_kernel"),
            mcErrorSymbolNotFound);
  EXPECT_EQ(mcModuleGetFunction(&f, module.get(), ""), mcErrorSymbolNotFound);
  // A variable is not a kernel.
  EXPECT_EQ(mcModuleGetFunction(&f, module.get(), "counter"),
            mcErrorSymbolNotFound);
}

TEST_F(ModuleLoad, GlobalHoldsItsInitializerAndSize) {
  MX_SPEC("api.module.get-global.finds-variable",
          "api.module.get-global.copies-reach-variable");
  ScopedModule module(Image());
  ASSERT_EQ(module.result(), mcSuccess);
  mcDeviceptr_t address = nullptr;
  size_t bytes = 0;
  ASSERT_EQ(mcModuleGetGlobal(&address, &bytes, module.get(), "table"),
            mcSuccess);
  EXPECT_EQ(bytes, 4 * sizeof(float));
  float values[4] = {};
  ASSERT_EQ(mcMemcpy(values, address, sizeof(values), mcMemcpyDeviceToHost),
            mcSuccess);
  EXPECT_EQ(values[0], 1.5f);
  EXPECT_EQ(values[3], 4.5f);
}

TEST_F(ModuleLoad, NamespacedGlobalByMangledName) {
  MX_SPEC("api.module.get-global.finds-variable");
  ScopedModule module(Image());
  ASSERT_EQ(module.result(), mcSuccess);
  mcDeviceptr_t address = nullptr;
  size_t bytes = 0;
  ASSERT_EQ(mcModuleGetGlobal(&address, &bytes, module.get(), "_ZN2ns5totalE"),
            mcSuccess);
  EXPECT_EQ(bytes, sizeof(long long));
  long long value = 0;
  ASSERT_EQ(mcMemcpy(&value, address, sizeof(value), mcMemcpyDeviceToHost),
            mcSuccess);
  EXPECT_EQ(value, 7);
}

TEST_F(ModuleLoad, GlobalOutputsMayBeNull) {
  MX_SPEC("api.module.get-global.finds-variable");
  ScopedModule module(Image());
  ASSERT_EQ(module.result(), mcSuccess);
  size_t bytes = 0;
  EXPECT_EQ(mcModuleGetGlobal(nullptr, &bytes, module.get(), "counter"),
            mcSuccess);
  EXPECT_EQ(bytes, sizeof(int));
  mcDeviceptr_t address = nullptr;
  EXPECT_EQ(mcModuleGetGlobal(&address, nullptr, module.get(), "counter"),
            mcSuccess);
  EXPECT_NE(address, nullptr);
  EXPECT_EQ(mcModuleGetGlobal(nullptr, nullptr, module.get(), "counter"),
            mcSuccess);
}

TEST_F(ModuleLoad, WritesThroughTheGlobalReachTheKernels) {
  MX_SPEC("api.module.get-global.copies-reach-variable");
  ScopedModule module(Image());
  ASSERT_EQ(module.result(), mcSuccess);
  mcDeviceptr_t address = nullptr;
  ASSERT_EQ(mcModuleGetGlobal(&address, nullptr, module.get(), "counter"),
            mcSuccess);
  int value = 1000;
  ASSERT_EQ(mcMemcpy(address, &value, sizeof(value), mcMemcpyHostToDevice),
            mcSuccess);
  int* out = nullptr;
  ASSERT_EQ(mcMalloc(&out, sizeof(int)), mcSuccess);
  void* args[] = {&out};
  mcFunction_t f = module.Function("bump_counter");
  ASSERT_NE(f, nullptr);
  ASSERT_EQ(
      mcModuleLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nullptr, args, nullptr),
      mcSuccess);
  int seen = 0;
  ASSERT_EQ(mcMemcpy(&seen, out, sizeof(int), mcMemcpyDeviceToHost), mcSuccess);
  EXPECT_EQ(seen, 1000);
  ASSERT_EQ(mcMemcpy(&value, address, sizeof(value), mcMemcpyDeviceToHost),
            mcSuccess);
  EXPECT_EQ(value, 1001);
  mcFree(out);
}

TEST_F(ModuleLoad, UnknownGlobalIsSymbolNotFound) {
  MX_SPEC("api.module.get-global.unknown-name");
  ScopedModule module(Image());
  ASSERT_EQ(module.result(), mcSuccess);
  mcDeviceptr_t address = nullptr;
  size_t bytes = 0;
  EXPECT_EQ(
      mcModuleGetGlobal(&address, &bytes, module.get(), "no_such_variable"),
      mcErrorSymbolNotFound);
  EXPECT_EQ(mcModuleGetGlobal(&address, &bytes, module.get(), "fill"),
            mcErrorSymbolNotFound);
  EXPECT_EQ(mcModuleGetGlobal(&address, &bytes, module.get(), "counter"),
            mcSuccess);  // control
}

TEST_F(ModuleLoad, UnloadReleasesTheModule) {
  MX_SPEC("api.module.unload.releases-module",
          "api.module.unload.invalid-handle");
  mcModule_t module = nullptr;
  ASSERT_EQ(mcModuleLoadData(&module, Image().data()), mcSuccess);
  ASSERT_EQ(mcModuleUnload(module), mcSuccess);
  EXPECT_EQ(mcModuleUnload(module), mcErrorInvalidResourceHandle);
  mcFunction_t f = nullptr;
  EXPECT_EQ(mcModuleGetFunction(&f, module, "fill"),
            mcErrorInvalidResourceHandle);
}

TEST_F(ModuleLoad, ManyLoadsAndUnloads) {
  MX_SPEC("api.module.unload.releases-module",
          "api.module.load-data.loads-image");
  for (int i = 0; i < 50; ++i) {
    mcModule_t module = nullptr;
    ASSERT_EQ(mcModuleLoadData(&module, Image().data()), mcSuccess) << i;
    ASSERT_NE(module, nullptr);
    ASSERT_EQ(mcModuleUnload(module), mcSuccess) << i;
  }
  ScopedModule last(Image());
  ASSERT_EQ(last.result(), mcSuccess);
  EXPECT_EQ(Fill(last.get(), 5), kFilled);
}

TEST_F(ModuleLoad, UnloadWaitsForQueuedLaunches) {
  MX_SPEC("api.module.unload.waits-for-work");
  mcModule_t module = nullptr;
  ASSERT_EQ(mcModuleLoadData(&module, Image().data()), mcSuccess);
  mcFunction_t f = nullptr;
  ASSERT_EQ(mcModuleGetFunction(&f, module, "fill"), mcSuccess);
  mcStream_t stream = nullptr;
  ASSERT_EQ(mcStreamCreate(&stream), mcSuccess);
  int* out = nullptr;
  ASSERT_EQ(mcMalloc(&out, 64 * sizeof(int)), mcSuccess);
  int value = 3, n = 64;
  void* args[] = {&out, &value, &n};
  ASSERT_EQ(
      mcModuleLaunchKernel(f, 4, 1, 1, 16, 1, 1, 0, stream, args, nullptr),
      mcSuccess);
  ASSERT_EQ(mcModuleUnload(module), mcSuccess);
  std::vector<int> values(64);
  ASSERT_EQ(
      mcMemcpy(values.data(), out, 64 * sizeof(int), mcMemcpyDeviceToHost),
      mcSuccess);
  EXPECT_EQ(values[0], 3);
  EXPECT_EQ(values[63], 66);
  mcFree(out);
  mcStreamDestroy(stream);
}

TEST_F(ModuleLoad, DeviceResetUnloadsTheDevicesModules) {
  MX_SPEC("api.module.context.loaded-per-device");
  mcModule_t module = nullptr;
  ASSERT_EQ(mcModuleLoadData(&module, Image().data()), mcSuccess);
  ASSERT_EQ(mcDeviceReset(), mcSuccess);
  EXPECT_EQ(mcModuleUnload(module), mcErrorInvalidResourceHandle);
  ScopedModule again(Image());  // a new load works
  EXPECT_EQ(again.result(), mcSuccess);
}

// --- An image made offline by mxcc --genco. ---

class GencoImage : public ModuleImage {
 protected:
  void SetUp() override {
    ModuleImage::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    const char* maca_path = getenv("MACA_PATH");
    if (maca_path == nullptr) {
      GTEST_SKIP() << "unsupported: the backend's tests run without MACA_PATH";
    }
    driver_ = std::string(maca_path) + "/mxgpu_llvm/bin/mxcc";
    directory_ = TempPath(
        std::string("genco_") +
        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    mkdir(directory_.c_str(), 0755);
    std::ofstream(directory_ + "/kernels.cu") << kModuleSource;
  }
  // Runs the driver with `arguments` in the test's directory; its status.
  int Mxcc(const std::vector<std::string>& arguments) {
    pid_t pid = fork();
    if (pid == 0) {
      if (chdir(directory_.c_str()) != 0) _exit(127);
      std::vector<char*> argv = {const_cast<char*>(driver_.c_str())};
      for (const std::string& a : arguments)
        argv.push_back(const_cast<char*>(a.c_str()));
      argv.push_back(nullptr);
      execv(driver_.c_str(), argv.data());
      _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  std::string driver_;
  std::string directory_;
};

TEST_F(GencoImage, DefaultOutputLoadsWithModuleLoad) {
  MX_SPEC("api.compile.mxcc.genco", "api.module.load.loads-file");
  ASSERT_EQ(Mxcc({"--genco", "kernels.cu"}), 0);
  mcModule_t module = nullptr;
  ASSERT_EQ(mcModuleLoad(&module, (directory_ + "/kernels.mcbin").c_str()),
            mcSuccess);
  EXPECT_EQ(Fill(module, 5), kFilled);
  EXPECT_EQ(mcModuleUnload(module), mcSuccess);
}

TEST_F(GencoImage, NamedOutputWithDashXMacaLoadsWithLoadData) {
  MX_SPEC("api.compile.mxcc.genco", "api.module.load-data.loads-image");
  std::ofstream(directory_ + "/kernels.cpp") << kModuleSource;
  ASSERT_EQ(Mxcc({"--genco", "-x", "maca", "kernels.cpp", "-o", "out.bin"}), 0);
  std::ifstream in(directory_ + "/out.bin", std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), {});
  ASSERT_FALSE(bytes.empty());
  ScopedModule module(bytes);
  ASSERT_EQ(module.result(), mcSuccess);
  EXPECT_EQ(Fill(module.get(), 5), kFilled);
}

TEST_F(GencoImage, SourceWithoutDeviceCodeIsAnError) {
  MX_SPEC("api.compile.mxcc.genco");
  std::ofstream(directory_ + "/host.cu") << "int f() { return 1; }\n";
  EXPECT_NE(Mxcc({"--genco", "host.cu"}), 0);
  struct stat info;
  EXPECT_NE(stat((directory_ + "/host.mcbin").c_str(), &info), 0);
  EXPECT_EQ(Mxcc({"--genco", "kernels.cu"}), 0);  // control
}

}  // namespace
