// Conformance: name expressions (docs/spec/api-compilation.md,
// mcrtcAddNameExpression and mcrtcGetLoweredName): a template instantiated
// because an expression names it, the lowered name the module API then
// finds, plain names for extern "C" entities, and the errors of calls made
// too early, too late or with an expression that was not added.

#include <mc_runtime.h>
#include <mcrtc.h>

#include <string>
#include <vector>

#include "conformance/api/testing/rtc_module.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace {

using mxcts::conformance::CompiledProgram;
using mxcts::conformance::CompileProgram;
using mxcts::conformance::ScopedModule;

constexpr char kSource[] = R"(
template <typename T>
__global__ void scale(T* data, T factor) { data[threadIdx.x] *= factor; }

namespace math {
template <int N>
__global__ void add_n(int* data) { data[threadIdx.x] += N; }
__global__ void negate(int* data) { data[threadIdx.x] = -data[threadIdx.x]; }
__device__ int bias = 5;
}  // namespace math

__global__ void overloaded(int* data) { data[threadIdx.x] = 1; }
__global__ void overloaded(float* data) { data[threadIdx.x] = 2.0f; }

extern "C" __global__ void plain(int* data) { data[threadIdx.x] = 77; }
__device__ int counter = 11;
__constant__ int table[4] = {1, 2, 3, 4};
static __global__ void internal(int* data) { data[threadIdx.x] = 33; }
)";

const std::vector<std::string> kExpressions = {
    "&scale<int>",
    "scale<float>",
    "&math::add_n<3>",
    "math::add_n<8>",
    "&math::negate",
    "&math::bias",
    "&plain",
    "&counter",
    "&table",
    "&internal",
    "(void (*)(float*))&overloaded",
    "static_cast<void (*)(int*)>(overloaded)"};

class NameExpressions : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    compiled_ = new CompiledProgram(
        CompileProgram(kSource, "names.cu", {}, kExpressions));
  }
  static void TearDownTestSuite() {
    delete compiled_;
    compiled_ = nullptr;
  }
  void SetUp() override {
    MX_REQUIRE_CAPABILITY("runtime_compilation");
    ASSERT_EQ(compiled_->result, MCRTC_SUCCESS) << compiled_->log;
  }
  static const std::string& Lowered(const std::string& expression) {
    static const std::string none;
    auto it = compiled_->lowered.find(expression);
    return it == compiled_->lowered.end() ? none : it->second;
  }
  // Launches kernel `name` of the program on 4 ints starting at `initial`
  // and returns them afterwards.
  static std::vector<int> Run(const std::string& name, int initial) {
    ScopedModule module(compiled_->image);
    if (module.result() != mcSuccess) return {};
    mcFunction_t f = module.Function(name.c_str());
    if (f == nullptr) return {};
    int* data = nullptr;
    std::vector<int> values = {initial, initial + 1, initial + 2, initial + 3};
    mcMalloc(&data, sizeof(int) * 4);
    mcMemcpy(data, values.data(), sizeof(int) * 4, mcMemcpyHostToDevice);
    void* args[] = {&data};
    mcError_t launched =
        mcModuleLaunchKernel(f, 1, 1, 1, 4, 1, 1, 0, nullptr, args, nullptr);
    mcMemcpy(values.data(), data, sizeof(int) * 4, mcMemcpyDeviceToHost);
    mcFree(data);
    return launched == mcSuccess ? values : std::vector<int>{};
  }
  static CompiledProgram* compiled_;
};

CompiledProgram* NameExpressions::compiled_ = nullptr;

class EveryExpression : public NameExpressions,
                        public ::testing::WithParamInterface<std::string> {};

TEST_P(EveryExpression, HasALoweredName) {
  MX_SPEC("api.rtc.name.add-name-expression", "api.rtc.name.get-lowered-name");
  EXPECT_FALSE(Lowered(GetParam()).empty()) << GetParam();
}

INSTANTIATE_TEST_SUITE_P(Expressions, EveryExpression,
                         ::testing::ValuesIn(kExpressions),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return "Expression" + std::to_string(info.index);
                         });

TEST_F(NameExpressions, TemplateInstantiatedForTheExpressionRuns) {
  MX_SPEC("api.rtc.name.add-name-expression", "api.rtc.name.get-lowered-name",
          "api.module.get-function.finds-kernel");
  ScopedModule module(compiled_->image);
  ASSERT_EQ(module.result(), mcSuccess);
  mcFunction_t f = module.Function(Lowered("&scale<int>").c_str());
  ASSERT_NE(f, nullptr) << Lowered("&scale<int>");
  int* data = nullptr;
  ASSERT_EQ(mcMalloc(&data, sizeof(int) * 4), mcSuccess);
  std::vector<int> values = {1, 2, 3, 4};
  mcMemcpy(data, values.data(), sizeof(values[0]) * 4, mcMemcpyHostToDevice);
  int factor = 3;
  void* args[] = {&data, &factor};
  ASSERT_EQ(
      mcModuleLaunchKernel(f, 1, 1, 1, 4, 1, 1, 0, nullptr, args, nullptr),
      mcSuccess);
  mcMemcpy(values.data(), data, sizeof(int) * 4, mcMemcpyDeviceToHost);
  EXPECT_EQ(values, (std::vector<int>{3, 6, 9, 12}));
  mcFree(data);
}

TEST_F(NameExpressions, ExpressionWithoutAmpersandNamesTheSameKind) {
  MX_SPEC("api.rtc.name.add-name-expression");
  ScopedModule module(compiled_->image);
  ASSERT_EQ(module.result(), mcSuccess);
  EXPECT_NE(module.Function(Lowered("scale<float>").c_str()), nullptr);
  EXPECT_NE(Lowered("scale<float>"), Lowered("&scale<int>"));
}

TEST_F(NameExpressions, NamespaceTemplateArgumentsGiveDistinctKernels) {
  MX_SPEC("api.rtc.name.get-lowered-name");
  EXPECT_NE(Lowered("&math::add_n<3>"), Lowered("math::add_n<8>"));
  EXPECT_EQ(Run(Lowered("&math::add_n<3>"), 0), (std::vector<int>{3, 4, 5, 6}));
  EXPECT_EQ(Run(Lowered("math::add_n<8>"), 0),
            (std::vector<int>{8, 9, 10, 11}));
}

TEST_F(NameExpressions, NamespacedKernelIsMangled) {
  MX_SPEC("api.rtc.name.extern-c-lowers-to-plain-name");
  EXPECT_EQ(Lowered("&math::negate").rfind("_Z", 0), 0u)
      << Lowered("&math::negate");
  EXPECT_EQ(Run(Lowered("&math::negate"), 1),
            (std::vector<int>{-1, -2, -3, -4}));
}

TEST_F(NameExpressions, ExternCKernelLowersToItsPlainName) {
  MX_SPEC("api.rtc.name.extern-c-lowers-to-plain-name");
  EXPECT_EQ(Lowered("&plain"), "plain");
  EXPECT_EQ(Run("plain", 0), (std::vector<int>{77, 77, 77, 77}));
}

TEST_F(NameExpressions, GlobalVariableLowersToItsPlainName) {
  MX_SPEC("api.rtc.name.extern-c-lowers-to-plain-name",
          "api.module.get-global.finds-variable");
  EXPECT_EQ(Lowered("&counter"), "counter");
  EXPECT_EQ(Lowered("&table"), "table");
  ScopedModule module(compiled_->image);
  ASSERT_EQ(module.result(), mcSuccess);
  mcDeviceptr_t address = nullptr;
  size_t bytes = 0;
  ASSERT_EQ(mcModuleGetGlobal(&address, &bytes, module.get(), "table"),
            mcSuccess);
  EXPECT_EQ(bytes, 4 * sizeof(int));
  int values[4] = {};
  ASSERT_EQ(mcMemcpy(values, address, sizeof(values), mcMemcpyDeviceToHost),
            mcSuccess);
  EXPECT_EQ(values[3], 4);
}

TEST_F(NameExpressions, NamespacedVariableIsFoundByItsLoweredName) {
  MX_SPEC("api.rtc.name.get-lowered-name",
          "api.module.get-global.finds-variable");
  ScopedModule module(compiled_->image);
  ASSERT_EQ(module.result(), mcSuccess);
  mcDeviceptr_t address = nullptr;
  size_t bytes = 0;
  ASSERT_EQ(mcModuleGetGlobal(&address, &bytes, module.get(),
                              Lowered("&math::bias").c_str()),
            mcSuccess)
      << Lowered("&math::bias");
  int value = 0;
  ASSERT_EQ(mcMemcpy(&value, address, sizeof(value), mcMemcpyDeviceToHost),
            mcSuccess);
  EXPECT_EQ(value, 5);
  EXPECT_EQ(bytes, sizeof(int));
}

TEST_F(NameExpressions, InternalKernelIsFoundByItsLoweredName) {
  MX_SPEC("api.rtc.name.get-lowered-name");
  EXPECT_EQ(Run(Lowered("&internal"), 0), (std::vector<int>{33, 33, 33, 33}));
}

TEST_F(NameExpressions, OverloadsSelectedByCastsAreDistinct) {
  MX_SPEC("api.rtc.name.get-lowered-name");
  const std::string& for_float = Lowered("(void (*)(float*))&overloaded");
  const std::string& for_int =
      Lowered("static_cast<void (*)(int*)>(overloaded)");
  EXPECT_NE(for_float, for_int);
  EXPECT_EQ(Run(for_int, 0), (std::vector<int>{1, 1, 1, 1}));
}

TEST_F(NameExpressions, LoweredNameStaysValidUntilDestroy) {
  MX_SPEC("api.rtc.name.get-lowered-name");
  mcrtcProgram p = nullptr;
  ASSERT_EQ(mcrtcCreateProgram(&p, kSource, "names.cu", 0, nullptr, nullptr),
            MCRTC_SUCCESS);
  ASSERT_EQ(mcrtcAddNameExpression(p, "&scale<int>"), MCRTC_SUCCESS);
  ASSERT_EQ(mcrtcCompileProgram(p, 0, nullptr), MCRTC_SUCCESS);
  const char* first = nullptr;
  const char* second = nullptr;
  ASSERT_EQ(mcrtcGetLoweredName(p, "&scale<int>", &first), MCRTC_SUCCESS);
  size_t log_size = 0;
  mcrtcGetProgramLogSize(p, &log_size);
  ASSERT_EQ(mcrtcGetLoweredName(p, "&scale<int>", &second), MCRTC_SUCCESS);
  EXPECT_STREQ(first, second);
  EXPECT_EQ(std::string(first), Lowered("&scale<int>"));
  mcrtcDestroyProgram(&p);
}

TEST_F(NameExpressions, UnregisteredExpressionIsNotValid) {
  MX_SPEC("api.rtc.name.unknown-expression-not-valid");
  mcrtcProgram p = nullptr;
  ASSERT_EQ(mcrtcCreateProgram(&p, kSource, "names.cu", 0, nullptr, nullptr),
            MCRTC_SUCCESS);
  ASSERT_EQ(mcrtcAddNameExpression(p, "&scale<int>"), MCRTC_SUCCESS);
  ASSERT_EQ(mcrtcCompileProgram(p, 0, nullptr), MCRTC_SUCCESS);
  const char* lowered = nullptr;
  EXPECT_EQ(mcrtcGetLoweredName(p, "&scale<double>", &lowered),
            MCRTC_ERROR_NAME_EXPRESSION_NOT_VALID);
  EXPECT_EQ(mcrtcGetLoweredName(p, "&scale<int>", &lowered), MCRTC_SUCCESS);
  mcrtcDestroyProgram(&p);
}

TEST_F(NameExpressions, AddingAfterCompilationIsAnError) {
  MX_SPEC("api.rtc.name.add-after-compile-error");
  mcrtcProgram p = nullptr;
  ASSERT_EQ(mcrtcCreateProgram(&p, kSource, "names.cu", 0, nullptr, nullptr),
            MCRTC_SUCCESS);
  EXPECT_EQ(mcrtcAddNameExpression(p, "&plain"), MCRTC_SUCCESS);  // control
  ASSERT_EQ(mcrtcCompileProgram(p, 0, nullptr), MCRTC_SUCCESS);
  EXPECT_EQ(mcrtcAddNameExpression(p, "&scale<int>"),
            MCRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION);
  mcrtcDestroyProgram(&p);
}

TEST_F(NameExpressions, LoweredNamesNeedASuccessfulCompilation) {
  MX_SPEC("api.rtc.name.lowered-before-compile-error");
  mcrtcProgram p = nullptr;
  ASSERT_EQ(mcrtcCreateProgram(&p, "int x = ;", "bad.cu", 0, nullptr, nullptr),
            MCRTC_SUCCESS);
  ASSERT_EQ(mcrtcAddNameExpression(p, "&x"), MCRTC_SUCCESS);
  EXPECT_EQ(mcrtcCompileProgram(p, 0, nullptr), MCRTC_ERROR_COMPILATION);
  const char* lowered = nullptr;
  EXPECT_EQ(mcrtcGetLoweredName(p, "&x", &lowered),
            MCRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION);
  mcrtcDestroyProgram(&p);
}

TEST_F(NameExpressions, ExpressionNamingNothingFailsTheCompilation) {
  MX_SPEC("api.rtc.name.invalid-expression-fails-compilation");
  CompiledProgram p =
      CompileProgram(kSource, "names.cu", {}, {"&no_such_kernel<int>"});
  EXPECT_EQ(p.result, MCRTC_ERROR_COMPILATION);
  EXPECT_NE(p.log.find("no_such_kernel"), std::string::npos) << p.log;
}

TEST_F(NameExpressions, TemplateNotNamedByAnExpressionIsNotInTheModule) {
  MX_SPEC("api.rtc.name.add-name-expression",
          "api.module.get-function.unknown-name");
  CompiledProgram p = CompileProgram(kSource, "names.cu");
  ASSERT_EQ(p.result, MCRTC_SUCCESS) << p.log;
  ScopedModule module(p.image);
  ASSERT_EQ(module.result(), mcSuccess);
  mcFunction_t f = nullptr;
  EXPECT_EQ(
      mcModuleGetFunction(&f, module.get(), Lowered("&scale<int>").c_str()),
      mcErrorSymbolNotFound);
  EXPECT_EQ(mcModuleGetFunction(&f, module.get(), "plain"), mcSuccess);
}

}  // namespace
