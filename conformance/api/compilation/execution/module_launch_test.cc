// Conformance: launching module functions (docs/spec/api-compilation.md,
// mcModuleLaunchKernel and mcFuncGetAttribute): arguments as kernelParams
// and in the `extra` buffer, grid and block shapes, shared memory, streams,
// the handle used as a kernel by the runtime API, and the attributes of a
// module function. Also run with the device timeline deferred or shuffled
// and with the engine's shuffled order (BUILD).

#include <mc_runtime.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "conformance/api/compilation/execution/module_kernels.h"
#include "conformance/testing/spec.h"

namespace {

using mxcts::conformance::ModuleImage;
using mxcts::conformance::ScopedModule;

class ModuleLaunch : public ModuleImage {
 protected:
  void SetUp() override {
    ModuleImage::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    module_ = std::make_unique<ScopedModule>(Image());
    ASSERT_EQ(module_->result(), mcSuccess);
  }
  void TearDown() override { module_.reset(); }
  mcFunction_t Function(const char* name) { return module_->Function(name); }
  std::unique_ptr<ScopedModule> module_;
};

struct Shape {
  unsigned gx, gy, gz, bx, by, bz;
};

class LaunchShape : public ModuleLaunch,
                    public ::testing::WithParamInterface<Shape> {};

TEST_P(LaunchShape, KernelSeesTheGridAndBlock) {
  MX_SPEC("api.module.launch.kernel-params");
  const Shape s = GetParam();
  unsigned* out = nullptr;
  ASSERT_EQ(mcMalloc(&out, 8 * sizeof(unsigned)), mcSuccess);
  ASSERT_EQ(mcMemset(out, 0, 8 * sizeof(unsigned)), mcSuccess);
  void* args[] = {&out};
  ASSERT_EQ(mcModuleLaunchKernel(Function("dims"), s.gx, s.gy, s.gz, s.bx, s.by,
                                 s.bz, 0, nullptr, args, nullptr),
            mcSuccess);
  unsigned seen[8] = {};
  ASSERT_EQ(mcMemcpy(seen, out, sizeof(seen), mcMemcpyDeviceToHost), mcSuccess);
  EXPECT_EQ(seen[0], s.gx);
  EXPECT_EQ(seen[1], s.gy);
  EXPECT_EQ(seen[2], s.gz);
  EXPECT_EQ(seen[3], s.bx);
  EXPECT_EQ(seen[4], s.by);
  EXPECT_EQ(seen[5], s.bz);
  EXPECT_EQ(seen[6], s.gx * s.gy * s.gz * s.bx * s.by * s.bz);
  mcFree(out);
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, LaunchShape,
    ::testing::Values(Shape{1, 1, 1, 1, 1, 1}, Shape{2, 1, 1, 64, 1, 1},
                      Shape{3, 2, 1, 8, 4, 1}, Shape{2, 2, 2, 4, 4, 4},
                      Shape{1, 1, 1, 1024, 1, 1}, Shape{5, 1, 1, 65, 1, 1},
                      Shape{1, 3, 1, 1, 1, 7}, Shape{4, 1, 3, 2, 2, 2}),
    [](const ::testing::TestParamInfo<Shape>& info) {
      const Shape& s = info.param;
      return "g" + std::to_string(s.gx) + "x" + std::to_string(s.gy) + "x" +
             std::to_string(s.gz) + "_b" + std::to_string(s.bx) + "x" +
             std::to_string(s.by) + "x" + std::to_string(s.bz);
    });

// The arguments of `mixed`, as kernelParams and as an `extra` buffer laid
// out as a structure of the parameters.
struct Mixed {
  double* out;
  char c;
  struct Pair {
    char tag;
    double value;
  } p;
  short s;
  long long l;
};

std::vector<double> Expected() { return {'x', 'q', 2.25, -7, 1e12}; }

TEST_F(ModuleLaunch, KernelParamsPassEveryArgumentType) {
  MX_SPEC("api.module.launch.kernel-params");
  double* out = nullptr;
  ASSERT_EQ(mcMalloc(&out, 5 * sizeof(double)), mcSuccess);
  char c = 'x';
  Mixed::Pair p{'q', 2.25};
  short s = -7;
  long long l = 1000000000000LL;
  void* args[] = {&out, &c, &p, &s, &l};
  ASSERT_EQ(mcModuleLaunchKernel(Function("mixed"), 1, 1, 1, 1, 1, 1, 0,
                                 nullptr, args, nullptr),
            mcSuccess);
  std::vector<double> seen(5);
  ASSERT_EQ(
      mcMemcpy(seen.data(), out, 5 * sizeof(double), mcMemcpyDeviceToHost),
      mcSuccess);
  EXPECT_EQ(seen, Expected());
  mcFree(out);
}

TEST_F(ModuleLaunch, ExtraBufferPassesEveryArgumentType) {
  MX_SPEC("api.module.launch.extra-buffer");
  Mixed buffer{};
  ASSERT_EQ(mcMalloc(&buffer.out, 5 * sizeof(double)), mcSuccess);
  buffer.c = 'x';
  buffer.p = {'q', 2.25};
  buffer.s = -7;
  buffer.l = 1000000000000LL;
  size_t size = sizeof(buffer);
  void* extra[] = {MC_LAUNCH_PARAM_BUFFER_POINTER, &buffer,
                   MC_LAUNCH_PARAM_BUFFER_SIZE, &size, MC_LAUNCH_PARAM_END};
  ASSERT_EQ(mcModuleLaunchKernel(Function("mixed"), 1, 1, 1, 1, 1, 1, 0,
                                 nullptr, nullptr, extra),
            mcSuccess);
  std::vector<double> seen(5);
  ASSERT_EQ(mcMemcpy(seen.data(), buffer.out, 5 * sizeof(double),
                     mcMemcpyDeviceToHost),
            mcSuccess);
  EXPECT_EQ(seen, Expected());
  mcFree(buffer.out);
}

TEST_F(ModuleLaunch, ExtraBufferMarkersInEitherOrder) {
  MX_SPEC("api.module.launch.extra-buffer");
  struct {
    int* out;
    int value;
    int n;
  } buffer{nullptr, 20, 4};
  ASSERT_EQ(mcMalloc(&buffer.out, 4 * sizeof(int)), mcSuccess);
  size_t size = sizeof(buffer);
  void* extra[] = {MC_LAUNCH_PARAM_BUFFER_SIZE, &size,
                   MC_LAUNCH_PARAM_BUFFER_POINTER, &buffer,
                   MC_LAUNCH_PARAM_END};
  ASSERT_EQ(mcModuleLaunchKernel(Function("fill"), 1, 1, 1, 4, 1, 1, 0, nullptr,
                                 nullptr, extra),
            mcSuccess);
  int seen[4] = {};
  ASSERT_EQ(mcMemcpy(seen, buffer.out, sizeof(seen), mcMemcpyDeviceToHost),
            mcSuccess);
  EXPECT_EQ(seen[0], 20);
  EXPECT_EQ(seen[3], 23);
  mcFree(buffer.out);
}

TEST_F(ModuleLaunch, ArgumentsAreCopiedAtLaunch) {
  MX_SPEC("api.module.launch.kernel-params");
  int* out = nullptr;
  ASSERT_EQ(mcMalloc(&out, 4 * sizeof(int)), mcSuccess);
  int value = 1, n = 4;
  void* args[] = {&out, &value, &n};
  mcStream_t stream = nullptr;
  ASSERT_EQ(mcStreamCreate(&stream), mcSuccess);
  ASSERT_EQ(mcModuleLaunchKernel(Function("fill"), 1, 1, 1, 4, 1, 1, 0, stream,
                                 args, nullptr),
            mcSuccess);
  value = 100;  // after the launch: not seen by it
  ASSERT_EQ(mcStreamSynchronize(stream), mcSuccess);
  int seen[4] = {};
  ASSERT_EQ(mcMemcpy(seen, out, sizeof(seen), mcMemcpyDeviceToHost), mcSuccess);
  EXPECT_EQ(seen[0], 1);
  mcFree(out);
  mcStreamDestroy(stream);
}

TEST_F(ModuleLaunch, KernelWithoutParametersNeedsNoArguments) {
  MX_SPEC("api.module.launch.kernel-params");
  EXPECT_EQ(mcModuleLaunchKernel(Function("no_arguments"), 1, 1, 1, 1, 1, 1, 0,
                                 nullptr, nullptr, nullptr),
            mcSuccess);
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
}

TEST_F(ModuleLaunch, DynamicSharedMemory) {
  MX_SPEC("api.module.launch.kernel-params");
  int* out = nullptr;
  ASSERT_EQ(mcMalloc(&out, 32 * sizeof(int)), mcSuccess);
  void* args[] = {&out};
  ASSERT_EQ(mcModuleLaunchKernel(Function("reverse_dynamic"), 1, 1, 1, 32, 1, 1,
                                 32 * sizeof(int), nullptr, args, nullptr),
            mcSuccess);
  int seen[32] = {};
  ASSERT_EQ(mcMemcpy(seen, out, sizeof(seen), mcMemcpyDeviceToHost), mcSuccess);
  for (int i = 0; i < 32; ++i) EXPECT_EQ(seen[i], (31 - i) * 2) << i;
  mcFree(out);
}

TEST_F(ModuleLaunch, StaticSharedMemoryAndBarrier) {
  MX_SPEC("api.module.launch.kernel-params");
  int* out = nullptr;
  ASSERT_EQ(mcMalloc(&out, 256 * sizeof(int)), mcSuccess);
  void* args[] = {&out};
  ASSERT_EQ(mcModuleLaunchKernel(Function("static_shared"), 1, 1, 1, 256, 1, 1,
                                 0, nullptr, args, nullptr),
            mcSuccess);
  std::vector<int> seen(256);
  ASSERT_EQ(mcMemcpy(seen.data(), out, 256 * sizeof(int), mcMemcpyDeviceToHost),
            mcSuccess);
  for (int i = 0; i < 256; ++i) EXPECT_EQ(seen[i], (i + 1) % 256 + 1) << i;
  mcFree(out);
}

TEST_F(ModuleLaunch, LaunchesInAStreamAreOrdered) {
  MX_SPEC("api.module.launch.kernel-params");
  mcStream_t stream = nullptr;
  ASSERT_EQ(mcStreamCreate(&stream), mcSuccess);
  int* out = nullptr;
  ASSERT_EQ(mcMalloc(&out, 4 * sizeof(int)), mcSuccess);
  int n = 4;
  for (int value : {1, 2, 3}) {
    void* args[] = {&out, &value, &n};
    ASSERT_EQ(mcModuleLaunchKernel(Function("fill"), 1, 1, 1, 4, 1, 1, 0,
                                   stream, args, nullptr),
              mcSuccess);
  }
  int seen[4] = {};
  ASSERT_EQ(
      mcMemcpyAsync(seen, out, sizeof(seen), mcMemcpyDeviceToHost, stream),
      mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream), mcSuccess);
  EXPECT_EQ(seen[0], 3);
  EXPECT_EQ(seen[3], 6);
  mcFree(out);
  mcStreamDestroy(stream);
}

TEST_F(ModuleLaunch, LaunchBoundsAllowsItsBound) {
  MX_SPEC("api.module.launch.kernel-params");
  int* out = nullptr;
  ASSERT_EQ(mcMalloc(&out, 64 * sizeof(int)), mcSuccess);
  void* args[] = {&out};
  EXPECT_EQ(mcModuleLaunchKernel(Function("bounded"), 1, 1, 1, 64, 1, 1, 0,
                                 nullptr, args, nullptr),
            mcSuccess);
  EXPECT_EQ(mcModuleLaunchKernel(Function("bounded"), 1, 1, 1, 65, 1, 1, 0,
                                 nullptr, args, nullptr),
            mcErrorLaunchOutOfResources);
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
  mcFree(out);
}

TEST_F(ModuleLaunch, HandleWorksAsAKernelForMcLaunchKernel) {
  MX_SPEC("api.module.function.handle-is-a-kernel");
  int* out = nullptr;
  ASSERT_EQ(mcMalloc(&out, 4 * sizeof(int)), mcSuccess);
  int value = 9, n = 4;
  void* args[] = {&out, &value, &n};
  ASSERT_EQ(mcLaunchKernel(reinterpret_cast<const void*>(Function("fill")),
                           dim3(1), dim3(4), args, 0, nullptr),
            mcSuccess);
  int seen[4] = {};
  ASSERT_EQ(mcMemcpy(seen, out, sizeof(seen), mcMemcpyDeviceToHost), mcSuccess);
  EXPECT_EQ(seen[3], 12);
  mcFree(out);
}

TEST_F(ModuleLaunch, HandleWorksForACooperativeLaunch) {
  MX_SPEC("api.module.function.handle-is-a-kernel");
  MX_REQUIRE_CAPABILITY("cooperative_launch");
  int* out = nullptr;
  ASSERT_EQ(mcMalloc(&out, 8 * sizeof(int)), mcSuccess);
  int value = 2, n = 8;
  void* args[] = {&out, &value, &n};
  ASSERT_EQ(
      mcLaunchCooperativeKernel(reinterpret_cast<const void*>(Function("fill")),
                                dim3(2), dim3(4), args, 0, nullptr),
      mcSuccess);
  int seen[8] = {};
  ASSERT_EQ(mcMemcpy(seen, out, sizeof(seen), mcMemcpyDeviceToHost), mcSuccess);
  EXPECT_EQ(seen[7], 9);
  mcFree(out);
}

TEST_F(ModuleLaunch, CapturedLaunchRunsWhenTheGraphRuns) {
  MX_SPEC("api.module.function.handle-is-a-kernel",
          "api.module.launch.kernel-params");
  MX_REQUIRE_CAPABILITY("graphs");
  mcStream_t stream = nullptr;
  ASSERT_EQ(mcStreamCreateWithFlags(&stream, mcStreamNonBlocking), mcSuccess);
  int* out = nullptr;
  ASSERT_EQ(mcMalloc(&out, 4 * sizeof(int)), mcSuccess);
  ASSERT_EQ(mcMemset(out, 0, 4 * sizeof(int)), mcSuccess);
  int value = 50, n = 4;
  void* args[] = {&out, &value, &n};
  ASSERT_EQ(mcStreamBeginCapture(stream, mcStreamCaptureModeGlobal), mcSuccess);
  ASSERT_EQ(mcModuleLaunchKernel(Function("fill"), 1, 1, 1, 4, 1, 1, 0, stream,
                                 args, nullptr),
            mcSuccess);
  mcGraph_t graph = nullptr;
  ASSERT_EQ(mcStreamEndCapture(stream, &graph), mcSuccess);
  int seen[4] = {};
  ASSERT_EQ(mcMemcpy(seen, out, sizeof(seen), mcMemcpyDeviceToHost), mcSuccess);
  EXPECT_EQ(seen[0], 0);  // captured, not run
  mcGraphExec_t exec = nullptr;
  ASSERT_EQ(mcGraphInstantiate(&exec, graph, nullptr, nullptr, 0), mcSuccess);
  ASSERT_EQ(mcGraphLaunch(exec, stream), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream), mcSuccess);
  ASSERT_EQ(mcMemcpy(seen, out, sizeof(seen), mcMemcpyDeviceToHost), mcSuccess);
  EXPECT_EQ(seen[3], 53);
  mcGraphExecDestroy(exec);
  mcGraphDestroy(graph);
  mcFree(out);
  mcStreamDestroy(stream);
}

// --- mcFuncGetAttribute. ---

struct AttributeCase {
  mcFunction_attribute attribute;
  const char* name;
};

class FunctionAttribute : public ModuleLaunch,
                          public ::testing::WithParamInterface<AttributeCase> {
};

int Field(const mcFuncAttributes& a, mcFunction_attribute attribute) {
  switch (attribute) {
    case MC_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
      return a.maxThreadsPerBlock;
    case MC_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES:
      return static_cast<int>(a.sharedSizeBytes);
    case MC_FUNC_ATTRIBUTE_CONST_SIZE_BYTES:
      return static_cast<int>(a.constSizeBytes);
    case MC_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES:
      return static_cast<int>(a.localSizeBytes);
    case MC_FUNC_ATTRIBUTE_NUM_REGS:
      return a.numRegs;
    case MC_FUNC_ATTRIBUTE_PTX_VERSION:
      return a.ptxVersion;
    case MC_FUNC_ATTRIBUTE_BINARY_VERSION:
      return a.binaryVersion;
    case MC_FUNC_ATTRIBUTE_CACHE_MODE_CA:
      return a.cacheModeCA;
    case MC_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
      return a.maxDynamicSharedSizeBytes;
    case MC_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
      return a.preferredShmemCarveout;
    default:
      return -12345;
  }
}

TEST_P(FunctionAttribute, MatchesMcFuncGetAttributes) {
  MX_SPEC("api.module.function.get-attribute",
          "api.module.function.handle-is-a-kernel");
  for (const char* kernel : {"fill", "bounded", "static_shared"}) {
    mcFunction_t f = Function(kernel);
    ASSERT_NE(f, nullptr);
    int value = -1;
    ASSERT_EQ(mcFuncGetAttribute(&value, GetParam().attribute, f), mcSuccess);
    mcFuncAttributes all;
    ASSERT_EQ(mcFuncGetAttributes(&all, reinterpret_cast<const void*>(f)),
              mcSuccess);
    EXPECT_EQ(value, Field(all, GetParam().attribute)) << kernel;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Attributes, FunctionAttribute,
    ::testing::Values(
        AttributeCase{MC_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                      "MaxThreadsPerBlock"},
        AttributeCase{MC_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, "SharedSizeBytes"},
        AttributeCase{MC_FUNC_ATTRIBUTE_CONST_SIZE_BYTES, "ConstSizeBytes"},
        AttributeCase{MC_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, "LocalSizeBytes"},
        AttributeCase{MC_FUNC_ATTRIBUTE_NUM_REGS, "NumRegs"},
        AttributeCase{MC_FUNC_ATTRIBUTE_PTX_VERSION, "PtxVersion"},
        AttributeCase{MC_FUNC_ATTRIBUTE_BINARY_VERSION, "BinaryVersion"},
        AttributeCase{MC_FUNC_ATTRIBUTE_CACHE_MODE_CA, "CacheModeCa"},
        AttributeCase{MC_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                      "MaxDynamicSharedSizeBytes"},
        AttributeCase{MC_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT,
                      "PreferredSharedMemoryCarveout"}),
    [](const ::testing::TestParamInfo<AttributeCase>& info) {
      return std::string(info.param.name);
    });

TEST_F(ModuleLaunch, LaunchBoundsShowInMaxThreadsPerBlock) {
  MX_SPEC("api.module.function.get-attribute");
  int bounded = 0, unbounded = 0;
  ASSERT_EQ(
      mcFuncGetAttribute(&bounded, MC_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                         Function("bounded")),
      mcSuccess);
  ASSERT_EQ(
      mcFuncGetAttribute(&unbounded, MC_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                         Function("fill")),
      mcSuccess);
  EXPECT_EQ(bounded, 64);
  EXPECT_GT(unbounded, 64);
}

TEST_F(ModuleLaunch, StaticSharedMemoryShowsInSharedSizeBytes) {
  MX_SPEC("api.module.function.get-attribute");
  int shared = 0, none = -1;
  ASSERT_EQ(mcFuncGetAttribute(&shared, MC_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES,
                               Function("static_shared")),
            mcSuccess);
  ASSERT_EQ(mcFuncGetAttribute(&none, MC_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES,
                               Function("fill")),
            mcSuccess);
  EXPECT_EQ(shared, 256 * static_cast<int>(sizeof(int)));
  EXPECT_EQ(none, 0);
}

}  // namespace
