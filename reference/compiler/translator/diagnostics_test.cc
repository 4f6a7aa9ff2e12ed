// Copyright mxcts authors.
//
// Tests of the translator's diagnostics (reference/compiler/design.md,
// "Diagnostics"). Each rule has a faulty source and a control: the same
// source without the fault, which translates cleanly.

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "reference/compiler/translator/translator.h"
#include "reference/compiler/translator/translator_testing.h"

namespace mxcts::compiler::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

// Both passes report the same diagnostics; the host pass stands for both.
std::vector<std::string> Errors(const std::string& source) {
  Translation host = TranslateHost(source);
  Translation device = TranslateDevice(source);
  EXPECT_EQ(Messages(host), Messages(device));
  EXPECT_EQ(host.ok(), host.diagnostics.empty());
  return Messages(host);
}

TEST(DiagnosticsTest, KernelReturningNonVoid) {
  EXPECT_THAT(
      Errors("__global__ int k() { return 0; }"),
      ElementsAre(HasSubstr("1:1: a __global__ function must have "
                            "return type void "
                            "[lang.function.global.return-type-void]")));
  EXPECT_THAT(Errors("__global__ void k() { return; }"), IsEmpty());
}

TEST(DiagnosticsTest, KernelReturningPointerToVoid) {
  EXPECT_THAT(
      Errors("__global__ void* k();"),
      ElementsAre(HasSubstr("[lang.function.global.return-type-void]")));
}

TEST(DiagnosticsTest, KernelWithTrailingReturnType) {
  EXPECT_THAT(
      Errors("__global__ auto k() -> int;"),
      ElementsAre(HasSubstr("[lang.function.global.return-type-void]")));
  EXPECT_THAT(Errors("__global__ auto k() -> void;"), IsEmpty());
}

TEST(DiagnosticsTest, GlobalWithDevice) {
  EXPECT_THAT(Errors("__global__ __device__ void k();"),
              ElementsAre(HasSubstr(
                  "1:12: a function cannot be both __global__ and __device__ "
                  "[lang.function.global.not-with-device]")));
  EXPECT_THAT(Errors("__global__ void k(); __device__ void d();"), IsEmpty());
}

TEST(DiagnosticsTest, GlobalWithHost) {
  EXPECT_THAT(Errors("__host__ __global__ void k();"),
              ElementsAre(HasSubstr("[lang.function.global.not-with-host]")));
}

TEST(DiagnosticsTest, GlobalMemberFunction) {
  EXPECT_THAT(Errors("struct S {\n  __global__ void k();\n};"),
              ElementsAre(HasSubstr(
                  "2:3: a __global__ function cannot be a member "
                  "function [lang.function.global.not-class-member]")));
  EXPECT_THAT(Errors("struct S {\n  static __global__ void k() {}\n};"),
              ElementsAre(HasSubstr("not-class-member")));
  EXPECT_THAT(Errors("struct S { friend __global__ void k(S); };"), IsEmpty());
}

TEST(DiagnosticsTest, VariadicKernel) {
  EXPECT_THAT(Errors("__global__ void k(int, ...);"),
              ElementsAre(HasSubstr("[lang.function.global.no-variadic]")));
  EXPECT_THAT(Errors("template <class... T> __global__ void k(T...);"),
              IsEmpty());
}

TEST(DiagnosticsTest, SharedWithInitializerAtBlockScope) {
  EXPECT_THAT(Errors("__device__ void f() {\n  __shared__ int x = 0;\n}"),
              ElementsAre(HasSubstr(
                  "2:20: a __shared__ variable cannot have an initializer "
                  "[lang.variable.shared.no-initializer]")));
  EXPECT_THAT(Errors("__device__ void f() {\n  __shared__ int x; x = 0;\n}"),
              IsEmpty());
}

TEST(DiagnosticsTest, SharedWithInitializerAtNamespaceScope) {
  EXPECT_THAT(Errors("__shared__ int x{1};"),
              ElementsAre(HasSubstr("[lang.variable.shared.no-initializer]")));
  EXPECT_THAT(Errors("__shared__ int x;"), IsEmpty());
}

TEST(DiagnosticsTest, TwoMemorySpaces) {
  EXPECT_THAT(Errors("__constant__ __shared__ int x;"),
              ElementsAre(HasSubstr(
                  "[lang.variable.device.at-most-one-other-specifier]")));
  EXPECT_THAT(Errors("__device__ __constant__ int x;"), IsEmpty());
}

TEST(DiagnosticsTest, KernelCalledWithoutConfiguration) {
  EXPECT_THAT(Errors("__global__ void k(int);\nvoid f() {\n  k(1);\n}"),
              ElementsAre(HasSubstr(
                  "3:3: a call of __global__ function 'k' needs an execution "
                  "configuration <<<...>>> "
                  "[lang.function.global.requires-configuration]")));
  EXPECT_THAT(
      Errors("__global__ void k(int);\nvoid f() {\n  k<<<1, 1>>>(1);\n}"),
      IsEmpty());
}

TEST(DiagnosticsTest, TemplateKernelCalledWithoutConfiguration) {
  EXPECT_THAT(Errors("template <class T> __global__ void k(T);\n"
                     "void f() { k<int>(1); }"),
              ElementsAre(HasSubstr("requires-configuration")));
}

TEST(DiagnosticsTest, KernelAddressIsNoCall) {
  EXPECT_THAT(Errors("__global__ void k(int);\n"
                     "void f() { void (*p)(int) = k; const void* q = (const "
                     "void*)&k; (void)p; (void)q; }"),
              IsEmpty());
}

TEST(DiagnosticsTest, NameAlsoDeclaredAsHostFunctionIsNotFlagged) {
  EXPECT_THAT(Errors("__global__ void k(int);\nvoid k(float);\n"
                     "void f() { k(1.0f); }"),
              IsEmpty());
}

TEST(DiagnosticsTest, ConfigurationAfterNonKernel) {
  EXPECT_THAT(
      Errors("void h(int);\nvoid f() {\n  h<<<1, 1>>>(1);\n}"),
      ElementsAre(HasSubstr(
          "3:3: 'h' is not a __global__ function and cannot be launched with "
          "<<<...>>> [lang.launch.syntax.chevron-between-name-and-args]")));
  EXPECT_THAT(
      Errors("__global__ void h(int);\nvoid f() {\n  h<<<1, 1>>>(1);\n}"),
      IsEmpty());
}

TEST(DiagnosticsTest, ConfigurationAfterMember) {
  EXPECT_THAT(
      Errors("struct S { void m(); };\nvoid f(S s) { s.m<<<1, 1>>>(); }"),
      ElementsAre(HasSubstr("chevron-between-name-and-args")));
}

TEST(DiagnosticsTest, TooFewOperands) {
  std::string kernel = "__global__ void k();\n";
  EXPECT_THAT(
      Errors(kernel + "void f() { k<<<1>>>(); }"),
      ElementsAre(HasSubstr(
          "2:13: an execution configuration takes 2 to 4 operands, "
          "not 1 [lang.launch.syntax.fewer-than-two-operands-is-error]")));
  EXPECT_THAT(Errors(kernel + "void f() { k<<<>>>(); }"),
              ElementsAre(HasSubstr("not 0")));
  EXPECT_THAT(Errors(kernel + "void f() { k<<<1, 1>>>(); }"), IsEmpty());
}

TEST(DiagnosticsTest, TooManyOperands) {
  std::string kernel = "__global__ void k();\n";
  EXPECT_THAT(Errors(kernel + "void f() { k<<<1, 1, 0, 0, 0>>>(); }"),
              ElementsAre(HasSubstr("not 5")));
  EXPECT_THAT(Errors(kernel + "void f() { k<<<1, 1, 0, 0>>>(); }"), IsEmpty());
}

TEST(DiagnosticsTest, NoinlineWithForceinline) {
  EXPECT_THAT(Errors("__device__ __noinline__ __forceinline__ int f();"),
              ElementsAre(HasSubstr(
                  "[lang.function.inline.noinline-with-forceinline]")));
  EXPECT_THAT(Errors("__device__ __noinline__ int f();"), IsEmpty());
}

TEST(DiagnosticsTest, InliningQualifierOnInlineFunction) {
  EXPECT_THAT(
      Errors("__device__ __noinline__ inline int f();"),
      ElementsAre(HasSubstr(
          "1:25: __noinline__ cannot apply to a function declared "
          "inline [lang.function.inline.noinline-on-inline-function]")));
  EXPECT_THAT(Errors("inline __forceinline__ int g() { return 1; }"),
              ElementsAre(HasSubstr("1:8: __forceinline__ cannot apply")));
  EXPECT_THAT(Errors("__forceinline__ __device__ int g() { return 1; }"),
              IsEmpty());
}

TEST(DiagnosticsTest, InlineHintWithAnotherQualifier) {
  EXPECT_THAT(Errors("__inline_hint__ __noinline__ __device__ int f();"),
              ElementsAre(HasSubstr(
                  "1:17: __inline_hint__ cannot apply together with "
                  "__noinline__ or __forceinline__ "
                  "[lang.function.inline.inline-hint-with-other-qualifier]")));
  EXPECT_THAT(Errors("__forceinline__ __inline_hint__ int g();"),
              ElementsAre(HasSubstr("1:17: __inline_hint__ cannot apply")));
  EXPECT_THAT(Errors("__inline_hint__ __device__ int f();"), IsEmpty());
}

TEST(DiagnosticsTest, PositionComesFromLineMarkers) {
  Translation t = TranslateHost(
      "# 1 \"/usr/include/x.h\" 1 3 4\nint a;\n"
      "# 40 \"dir/user.cu\" 2\n\n__global__ int k();\n");
  ASSERT_THAT(t.diagnostics, ::testing::SizeIs(1));
  EXPECT_EQ(t.diagnostics[0].file, "dir/user.cu");
  EXPECT_EQ(t.diagnostics[0].line, 41);
  EXPECT_EQ(t.diagnostics[0].column, 1);
  EXPECT_FALSE(t.ok());
  EXPECT_EQ(FormatDiagnostic(t.diagnostics[0]),
            "dir/user.cu:41:1: error: a __global__ function must have return "
            "type void [lang.function.global.return-type-void]");
}

TEST(DiagnosticsTest, FormatsWarnings) {
  Diagnostic d{Diagnostic::Severity::kWarning, "a.cu", 3, 7, "hm"};
  EXPECT_EQ(FormatDiagnostic(d), "a.cu:3:7: warning: hm");
}

TEST(DiagnosticsTest, KernelDeclaredInHeaderIsKnown) {
  EXPECT_THAT(Errors("# 1 \"k.h\" 1\n__global__ void k();\n# 2 \"a.cu\" 2\n"
                     "void f() { k(); }\n"),
              ElementsAre(HasSubstr("requires-configuration")));
}

TEST(DiagnosticsTest, SpaceOnNonStaticMember) {
  EXPECT_THAT(Errors("struct S {\n  __device__ int x;\n};"),
              ElementsAre(HasSubstr(
                  "2:3: __device__ is not allowed on a non-static data member "
                  "[lang.variable.placement.not-on-members]")));
  EXPECT_THAT(Errors("struct S { int x; };"), IsEmpty());
}

TEST(DiagnosticsTest, ConstManagedVariable) {
  EXPECT_THAT(
      Errors("__managed__ const int m = 1;"),
      ElementsAre(HasSubstr("[lang.variable.managed.not-const-or-reference]")));
  EXPECT_THAT(Errors("__managed__ int* const p = nullptr;"),
              ElementsAre(HasSubstr("not-const-or-reference")));
  EXPECT_THAT(Errors("__managed__ const int* p; __managed__ int m = 1;"),
              IsEmpty());
}

TEST(DiagnosticsTest, SpaceInHostFunction) {
  EXPECT_THAT(Errors("void f() {\n  __constant__ int c;\n}"),
              ElementsAre(HasSubstr(
                  "2:3: __constant__ variable declared in a host function "
                  "[lang.variable.placement.not-in-host-function]")));
  EXPECT_THAT(Errors("void f() { __shared__ int s; }"),
              ElementsAre(HasSubstr("not-in-host-function")));
  EXPECT_THAT(Errors("void f() { extern __device__ int d; }"), IsEmpty());
}

TEST(DiagnosticsTest, AutomaticDeviceVariableInDeviceFunction) {
  EXPECT_THAT(Errors("__device__ void f() {\n  __device__ int d;\n}"),
              ElementsAre(HasSubstr(
                  "2:3: __device__ variable in a device function must be "
                  "static or extern [lang.variable.placement."
                  "device-constant-not-automatic]")));
  EXPECT_THAT(Errors("__global__ void k() { static __device__ int d; "
                     "extern __constant__ int c; __shared__ int s; "
                     "__device__ __shared__ int t; }"),
              IsEmpty());
}

TEST(DiagnosticsTest, ConstantAssignedInDeviceCode) {
  EXPECT_THAT(
      Errors("__constant__ int c[2];\n__global__ void k() {\n  c[1] += 2;\n}"),
      ElementsAre(HasSubstr(
          "3:3: cannot assign to __constant__ variable 'c' in device code "
          "[lang.variable.constant.direct-write-in-device-code]")));
  EXPECT_THAT(Errors("__constant__ int c; __device__ void f() { ++c; }"),
              ElementsAre(HasSubstr("direct-write-in-device-code")));
  EXPECT_THAT(Errors("__constant__ int c; __device__ int f(int* o) { "
                     "*o = c; return c == 1; }\n"
                     "__global__ void k(int c) { c = 2; }"),
              IsEmpty());
}

TEST(DiagnosticsTest, GridConstantPlacement) {
  EXPECT_THAT(Errors("struct P { int a; };\n"
                     "__global__ void k(__grid_constant__ P p);"),
              ElementsAre(HasSubstr(
                  "2:19: a __grid_constant__ parameter must be const-qualified "
                  "[lang.variable.grid-constant.invalid-placement]")));
  EXPECT_THAT(Errors("__global__ void k(__grid_constant__ const int* p);"),
              ElementsAre(HasSubstr("must be const-qualified")));
  EXPECT_THAT(Errors("struct P { int a; };\n"
                     "__global__ void k(__grid_constant__ const P& p);"),
              ElementsAre(HasSubstr("cannot have reference type")));
  EXPECT_THAT(
      Errors("__device__ void f(__grid_constant__ const int x);"),
      ElementsAre(HasSubstr("applies only to parameters of a __global__")));
  EXPECT_THAT(Errors("struct P { int a; };\n"
                     "__global__ void k(__grid_constant__ const P p, "
                     "__grid_constant__ int* const q);"),
              IsEmpty());
}

TEST(DiagnosticsTest, GridConstantDeclarationsDisagree) {
  EXPECT_THAT(
      Errors("__global__ void k(__grid_constant__ const int x);\n"
             "__global__ void k(const int x) {}"),
      ElementsAre(HasSubstr(
          "2:17: this declaration of __global__ function 'k' disagrees with "
          "an earlier one on which parameters are __grid_constant__ "
          "[lang.variable.grid-constant.declarations-must-match]")));
  EXPECT_THAT(Errors("__global__ void k(__grid_constant__ const int x);\n"
                     "__global__ void k(__grid_constant__ const int y) {}\n"
                     "__global__ void k(const float x);"),
              IsEmpty());
}

}  // namespace
}  // namespace mxcts::compiler::testing
