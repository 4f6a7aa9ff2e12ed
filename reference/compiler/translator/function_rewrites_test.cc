// Copyright mxcts authors.
//
// Tests of rewrites 2 to 5 and 9 (reference/compiler/design.md): kernel
// stubs and records, the spelling of SELF (parameters, template headers,
// names), device-only bodies, host-only functions in the device pass, and
// the qualifiers.

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "reference/compiler/translator/translator.h"
#include "reference/compiler/translator/translator_testing.h"

namespace mxcts::compiler::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

std::string Stub(const std::string& self, const std::string& args) {
  return Tokens("{ ::__mc_internal::LaunchFromStub<decltype(" + self + "), " +
                self + ", &" + kImage + ">(" + args + "); }");
}

TEST(KernelStubTest, HostPassReplacesBodyWithStub) {
  EXPECT_THAT(
      HostTokens("__global__ void k(float* p, int n) { p[n] = 0; }"),
      HasSubstr(Tokens("void k(float* p, int n) ") + " " +
                Stub("static_cast<void (*)(float* p, int n)>(&k)", "p, n")));
}

TEST(KernelStubTest, HostPassDeclaresTheImageBeforeFirstUse) {
  std::string out = HostTokens("namespace a { __global__ void k() {} }");
  EXPECT_THAT(out, HasSubstr(Tokens(std::string("extern const "
                                                "::__mc_internal::ImageBlob ") +
                                    kImage + "; namespace a {")));
}

TEST(KernelStubTest, DeclarationWithoutBodyStaysADeclaration) {
  std::string out = HostTokens("__global__ void k(int);");
  EXPECT_EQ(out, Tokens("void k(int);"));
}

TEST(KernelStubTest, TemplateHeaderGivesTemplateArguments) {
  EXPECT_THAT(HostTokens("template <typename T, int N = 4, class... Ts>\n"
                         "__global__ void k(T* p, Ts... rest) {}"),
              HasSubstr(Stub(
                  "static_cast<void (*)(T* p, Ts... rest)>(&k <T, N, Ts...>)",
                  "p, rest...")));
}

TEST(KernelStubTest, UnnamedParametersGetNames) {
  std::string out =
      HostTokens("__global__ void k(int, float*, const double&) {}");
  EXPECT_THAT(out,
              HasSubstr(Tokens("void k(int __mc_param_0, float* "
                               "__mc_param_1, const double& __mc_param_2)")));
  EXPECT_THAT(out, HasSubstr("__mc_param_0 , __mc_param_1 , __mc_param_2 )"));
}

TEST(KernelStubTest, UnnamedPackAndArrayParametersGetNames) {
  std::string out =
      HostTokens("template <class... Ts> __global__ void k(int[4], Ts...) {}");
  EXPECT_THAT(out, HasSubstr(Tokens("void k(int __mc_param_0[4], Ts... "
                                    "__mc_param_1)")));
  EXPECT_THAT(out, HasSubstr("( __mc_param_0 , __mc_param_1 ... )"));
}

TEST(KernelStubTest, UnnamedTemplateParameterGetsAName) {
  std::string out = HostTokens(
      "template <typename T, typename = void> __global__ void k(T) {}");
  EXPECT_THAT(out, HasSubstr(Tokens("template <typename T, typename "
                                    "__mc_tparam_1 = void>")));
  EXPECT_THAT(out, HasSubstr(Tokens("&k <T, __mc_tparam_1>")));
}

TEST(KernelStubTest, DefaultArgumentsLeaveSelfAndGridConstantIsAReference) {
  EXPECT_THAT(
      HostTokens(
          "struct P { int a; };\n"
          "__global__ void k(__grid_constant__ const P p, int n = 3) {}"),
      HasSubstr(Tokens("static_cast<void (*)(const P & p, int n)>(&k)")));
}

TEST(KernelStubTest, RestrictAndFunctionPointerParameters) {
  EXPECT_THAT(
      HostTokens(
          "__global__ void k(float* __restrict__ a, void (*cb)(int)) {}"),
      HasSubstr(Stub("static_cast<void (*)(float* __restrict__ a, void "
                     "(*cb)(int))>(&k)",
                     "a, cb")));
}

TEST(KernelStubTest, OutOfNamespaceDefinitionUsesQualifiedName) {
  EXPECT_THAT(HostTokens("namespace ns { __global__ void k(int); }\n"
                         "__global__ void ns::k(int x) {}"),
              HasSubstr(Tokens("(&ns::k)")));
}

TEST(KernelStubTest, ExplicitSpecializationKeepsItsTemplateArguments) {
  EXPECT_THAT(HostTokens("template <class T> __global__ void k(T);\n"
                         "template <> __global__ void k<int>(int x) {}"),
              HasSubstr(Tokens("static_cast<void (*)(int x)>(&k<int>)")));
}

TEST(KernelStubTest, StaticAndExternCKernelsKeepLinkage) {
  std::string out = HostTokens(
      "static __global__ void s(int x) {}\n"
      "extern \"C\" __global__ void c(int x) {}");
  EXPECT_THAT(out, HasSubstr(Tokens("static void s(int x) {")));
  EXPECT_THAT(out, HasSubstr(Tokens("extern \"C\" void c(int x) {")));
}

TEST(KernelRecordTest, DevicePassTouchesRecordAtTheEndOfTheBody) {
  EXPECT_THAT(
      DeviceTokens("__global__ void k(int n) { n++; }"),
      HasSubstr(Tokens("n++; ::__mc_internal::Touch(&::__mc_"
                       "internal::DeviceKernel<decltype(static_cast<void "
                       "(*)(int n)>(&k)), static_cast<void (*)(int "
                       "n)>(&k), ::__mc_internal::KernelTraits<0, 0, "
                       "::__mc_internal::SharedFootprint<>()>>::record); }")));
}

// [api.compile.mxcc.relocatable-device-code] In relocatable device code a
// kernel with internal linkage gets its source's tag in both passes, so
// that another source's kernel of the same name keeps its own record.
TEST(KernelRecordTest, InternalKernelsOfRelocatableCodeCarryTheSourceTag) {
  TranslationOptions options;
  options.image_symbol = kImage;
  options.relocatable_device_code = true;
  for (const char* source : {"static __global__ void k(int n) {}",
                             "namespace { __global__ void k(int n) {} }"}) {
    SCOPED_TRACE(source);
    options.pass = Pass::kDevice;
    EXPECT_THAT(Tokens(Translate(source, options).text),
                HasSubstr(Tokens("::__mc_internal::SharedFootprint<>(), "
                                 "0x00000000000000abull>>::record);")));
    options.pass = Pass::kHost;
    EXPECT_THAT(Tokens(Translate(source, options).text),
                HasSubstr(Tokens("::__mc_internal::LaunchFromStubInUnit<")));
    EXPECT_THAT(Tokens(Translate(source, options).text),
                HasSubstr(Tokens(std::string("&") + kImage +
                                 ", 0x00000000000000abull>(n);")));
  }
  // Controls: a kernel with external linkage, and the same static kernel
  // without relocatable device code, keep the plain key.
  options.pass = Pass::kHost;
  EXPECT_THAT(Tokens(Translate("__global__ void k(int n) {}", options).text),
              Not(HasSubstr("LaunchFromStubInUnit")));
  EXPECT_THAT(HostTokens("static __global__ void k(int n) {}"),
              Not(HasSubstr("LaunchFromStubInUnit")));
  EXPECT_THAT(DeviceTokens("static __global__ void k(int n) {}"),
              Not(HasSubstr("ull>>::record")));
}

TEST(KernelRecordTest, LaunchBoundsGoIntoTheTraitsAndAreChecked) {
  const std::string out =
      DeviceTokens("__global__ void __launch_bounds__(256, 2) k() { }");
  EXPECT_THAT(out, HasSubstr(Tokens("::__mc_internal::KernelTraits<(256), "
                                    "(2), ::__mc_internal::SharedFootprint<>"
                                    "()>>::record);")));
  EXPECT_THAT(out, HasSubstr(Tokens("static_assert((256) > 0,")));
  // Control: one argument leaves the second 0.
  EXPECT_THAT(
      DeviceTokens("template <int N> __global__ void __launch_bounds__(N) "
                   "k() { }"),
      HasSubstr(Tokens("KernelTraits<(N), 0, ")));
}

TEST(KernelRecordTest, OutermostSharedVariablesMakeTheFootprint) {
  const std::string out = DeviceTokens(
      "__global__ void k() { __shared__ float a[16]; "
      "if (1) { __shared__ int inner; } __shared__ double b; "
      "extern __shared__ char dynamic[]; }");
  // `a` and `b` count; the nested block's and the dynamic area do not.
  EXPECT_THAT(out, HasSubstr(Tokens("::__mc_internal::SharedFootprint<"
                                    "__mc_shared_t_0, __mc_shared_t_2>()")));
}

// [api.devrt.launch.chevron-syntax-in-device-code] The device pass opens
// every kernel body with the prologue that turns a call right after a
// device-side launch configuration into the launch.
TEST(KernelRecordTest, DevicePassOpensTheBodyWithTheLaunchPrologue) {
  EXPECT_THAT(
      DeviceTokens("__global__ void k(int n) { n++; }"),
      HasSubstr(Tokens("void k(int n) { if (__builtin_expect(::__mc_dev_"
                       "launch_pending != 0, 0) && ::__mc_internal::"
                       "LaunchFromDevice(reinterpret_cast<const void*>("
                       "static_cast<void (*)(int n)>(&k)), n)) return;")));
  // Then the parameter size check, then the body.
  EXPECT_THAT(DeviceTokens("__global__ void k(int n) { n++; }"),
              HasSubstr(Tokens("return; static_assert(0 + sizeof(n) <= 4096, "
                               "\"the parameters of a __global__ function "
                               "take at most 4096 bytes "
                               "[lang.function.global.parameter-size-limit]\");"
                               " n++;")));
}

TEST(KernelRecordTest, DevicePassNamesUnnamedParametersForThePrologue) {
  EXPECT_THAT(DeviceTokens("__global__ void k(int, float) {}"),
              HasSubstr(Tokens("void k(int __mc_param_0, float __mc_param_1) "
                               "{ if (__builtin_expect(::__mc_dev_launch_"
                               "pending != 0, 0) && ::__mc_internal::"
                               "LaunchFromDevice(reinterpret_cast<const "
                               "void*>(static_cast<void (*)(int, float)>(&k)), "
                               "__mc_param_0, __mc_param_1)) return;")));
}

TEST(KernelRecordTest, DevicePassPrologueOfParameterlessKernelPassesNothing) {
  EXPECT_THAT(DeviceTokens("__global__ void k() {}"),
              HasSubstr(Tokens("reinterpret_cast<const void*>(static_cast<"
                               "void (*)()>(&k))) ) return;")));
}

TEST(DeviceFunctionTest, HostPassTrapsDeviceOnlyBody) {
  EXPECT_THAT(HostTokens("__device__ int f(int x) { return x; }"),
              HasSubstr(Tokens("int f(int x) { (void)x; __builtin_trap(); }")));
}

TEST(DeviceFunctionTest, HostPassMarksTrappedFunctionUnused) {
  EXPECT_THAT(
      HostTokens("static __device__ int f(int x) { return x; }"),
      HasSubstr(Tokens(
          "static __attribute__((__unused__, __noinline__, __error__(\"'f' "
          "is a __device__ function: host code cannot call it "
          "[lang.function.call.host-calls-device-only]\"))) int "
          "f(int x) { (void)x; __builtin_trap(); }")));
  // Control: a __host__ __device__ function is compiled for the host too,
  // so it gets no such mark.
  EXPECT_THAT(
      HostTokens("static __host__ __device__ int g(int x) { return x; }"),
      Not(HasSubstr("__unused__")));
}

TEST(DeviceFunctionTest, HostPassRejectsHostCallsOfDeclarations) {
  // [lang.function.call.host-calls-device-only] A declaration gets the
  // error attribute too; a __host__ __device__ one does not.
  EXPECT_THAT(
      HostTokens("__device__ int f(int x);"),
      HasSubstr(Tokens("__attribute__((__noinline__, __error__(\"'f' is a "
                       "__device__ function: host code cannot call "
                       "it [lang.function.call.host-calls-device-"
                       "only]\"))) int f(int x);")));
  EXPECT_THAT(HostTokens("__host__ __device__ int g(int x);"),
              Not(HasSubstr("__error__")));
  EXPECT_THAT(HostTokens("struct S { __device__ S() = default; };"),
              Not(HasSubstr("__error__")));
  EXPECT_THAT(DeviceTokens("__device__ int f(int x);"),
              Not(HasSubstr("__error__")));
}

TEST(KernelRecordTest, DevicePassChecksTheParameterSize) {
  // [lang.function.global.parameter-size-limit]
  EXPECT_THAT(DeviceTokens("template <class... T> __global__ void k(int a, "
                           "double, T... rest) {}"),
              HasSubstr(Tokens("static_assert(0 + sizeof(a) + "
                               "sizeof(__mc_param_1) + (0 + ... + "
                               "sizeof(rest)) <= 4096,")));
  EXPECT_THAT(DeviceTokens("__global__ void k() {}"),
              Not(HasSubstr("static_assert")));
  EXPECT_THAT(HostTokens("__global__ void k(int a) {}"),
              Not(HasSubstr("static_assert")));
}

TEST(DeviceFunctionTest, HostDeviceAndConstexprBodiesStay) {
  std::string out = HostTokens(
      "__host__ __device__ int f(int x) { return x; }\n"
      "__device__ constexpr int g() { return 1; }");
  EXPECT_THAT(out, HasSubstr(Tokens("int f(int x) { return x; }")));
  EXPECT_THAT(out, HasSubstr(Tokens("constexpr int g() { return 1; }")));
}

TEST(DeviceFunctionTest, DevicePassKeepsDeviceBody) {
  EXPECT_THAT(DeviceTokens("__device__ int f(int x) { return x; }"),
              HasSubstr(Tokens("int f(int x) { return x; }")));
}

TEST(DeviceFunctionTest, MemberFunctionBodyIsTrappedToo) {
  EXPECT_THAT(
      HostTokens("struct S { __device__ int get() const { return 1; } };"),
      HasSubstr(Tokens("int get() const { __builtin_trap(); }")));
}

TEST(HostFunctionTest, DevicePassRenamesHostOnlyDefinition) {
  EXPECT_THAT(DeviceTokens("static inline int f(int a) { return a; }"),
              HasSubstr(Tokens("int f(int a) ; inline int __mc_host_f_0 "
                               "(int a) { return a; }")));
}

TEST(HostFunctionTest, HostPassKeepsHostFunction) {
  EXPECT_THAT(HostTokens("int f(int a) { return a; }"),
              HasSubstr(Tokens("int f(int a) { return a; }")));
}

TEST(HostFunctionTest, DevicePassLeavesExemptFunctionsAlone) {
  std::string source =
      "template <class T> int t(T a) { return 0; }\n"
      "constexpr int c() { return 1; }\n"
      "struct S { int m() { return 2; } };\n"
      "int S2() { return 3; }\n"
      "struct X {}; bool operator==(X, X) { return true; }\n"
      "auto d() { return 4; }\n"
      "int main() { return 0; }\n"
      "inline void __reserved() {}\n"
      "namespace __impl { inline void helper() {} }\n";
  std::string out = DeviceTokens(source);
  EXPECT_THAT(out, HasSubstr(Tokens("int t(T a) { return 0; }")));
  EXPECT_THAT(out, HasSubstr(Tokens("constexpr int c() { return 1; }")));
  EXPECT_THAT(out, HasSubstr(Tokens("int m() { return 2; }")));
  EXPECT_THAT(out, HasSubstr(Tokens("operator==(X, X) { return true; }")));
  EXPECT_THAT(out, HasSubstr(Tokens("auto d() { return 4; }")));
  EXPECT_THAT(out, HasSubstr(Tokens("int main() { return 0; }")));
  EXPECT_THAT(out, HasSubstr(Tokens("inline void __reserved() {}")));
  EXPECT_THAT(out, HasSubstr(Tokens("inline void helper() {}")));
  EXPECT_THAT(out, HasSubstr("__mc_host_S2_"));  // the control case
}

TEST(HostFunctionTest, UnnamedNamespaceFunctionsKeepTheirBodies) {
  // Internal linkage: an undefined declaration would break the host code
  // of the same file that calls it.
  std::string out = DeviceTokens(
      "namespace { int helper(int a) { return a; } }\n"
      "namespace named { int api(int a) { return a; } }\n");
  EXPECT_THAT(out, HasSubstr(Tokens("int helper(int a) { return a; }")));
  EXPECT_THAT(out, Not(HasSubstr("__mc_host_helper")));
  EXPECT_THAT(out, HasSubstr("__mc_host_api_"));  // the control case
}

TEST(HostFunctionTest, SystemHeaderFunctionsAreNotRenamed) {
  std::string out = DeviceTokens(
      "# 1 \"/usr/include/x.h\" 1 3 4\nint sys(int a) { return a; }\n"
      "# 2 \"a.cu\" 2\nint user(int a) { return a; }\n");
  EXPECT_THAT(out, Not(HasSubstr("__mc_host_sys")));
  EXPECT_THAT(out, HasSubstr("__mc_host_user"));
}

TEST(QualifierTest, QualifiersAreRemoved) {
  EXPECT_EQ(HostTokens("__host__ int f();"), Tokens("int f();"));
  EXPECT_EQ(DeviceTokens("__global__ void __launch_bounds__(256, 2) k();"),
            Tokens("void k();"));
}

TEST(QualifierTest, InlineQualifiersBecomeAttributes) {
  EXPECT_EQ(HostTokens("__noinline__ int f(); __forceinline__ int g();"),
            Tokens("__attribute__((noinline)) int f(); "
                   "__attribute__((always_inline)) inline int g();"));
}

TEST(QualifierTest, ForceinlineNextToInlineAddsNoSecondInline) {
  // The user's own `inline` beside __forceinline__ is an error
  // [lang.function.inline.noinline-on-inline-function]; the text still
  // gets no second `inline`.
  Translation t = TranslateHost("inline __forceinline__ int g();");
  EXPECT_EQ(Tokens(t.text),
            Tokens("inline __attribute__((always_inline)) int g();"));
  EXPECT_THAT(Messages(t),
              ElementsAre(HasSubstr("noinline-on-inline-function")));
}

TEST(QualifierTest, AttributeContentsStay) {
  EXPECT_EQ(HostTokens("int f() __attribute__((__noinline__));"),
            Tokens("int f() __attribute__((__noinline__));"));
}

}  // namespace
}  // namespace mxcts::compiler::testing
