// Copyright mxcts authors.
//
// Tests of rewrite 1, kernel launches (reference/compiler/design.md):
// the forms of the kernel expression, the configuration operands, and text
// that looks like a launch but is none.

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "reference/compiler/translator/translator.h"
#include "reference/compiler/translator/translator_testing.h"

namespace mxcts::compiler::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

constexpr char kKernels[] =
    "__global__ void k(int);\n"
    "namespace ns { __global__ void k(int); }\n"
    "template <typename T, int N> __global__ void t(T);\n";

std::string HostTokens(const std::string& body) {
  Translation t = TranslateHost(std::string(kKernels) + body);
  EXPECT_THAT(Messages(t), IsEmpty());
  return Tokens(t.text);
}

TEST(LaunchRewriteTest, SimpleName) {
  EXPECT_THAT(
      HostTokens("void f() { k<<<1, 2>>>(3); }"),
      HasSubstr(Tokens(
          "{ (::__mc_internal::PushLaunchConfiguration(1, 2), k(3)); }")));
}

TEST(LaunchRewriteTest, QualifiedName) {
  EXPECT_THAT(
      HostTokens("void f() { ns::k<<<1, 2>>>(3); }"),
      HasSubstr(Tokens(
          "(::__mc_internal::PushLaunchConfiguration(1, 2), ns::k(3))")));
}

TEST(LaunchRewriteTest, GlobalScopeName) {
  EXPECT_THAT(HostTokens("void f() { ::k<<<1, 2>>>(3); }"),
              HasSubstr(Tokens(
                  "(::__mc_internal::PushLaunchConfiguration(1, 2), ::k(3))")));
}

TEST(LaunchRewriteTest, TemplateId) {
  EXPECT_THAT(HostTokens("void f() { t<float, 3><<<1, 2>>>(3.0f); }"),
              HasSubstr(Tokens("(::__mc_internal::PushLaunchConfiguration(1, "
                               "2), t<float, 3>(3.0f))")));
}

TEST(LaunchRewriteTest, TemplateIdEndingInNestedClosers) {
  std::string out = HostTokens(
      "template <class T> struct V {};\n"
      "void f() { t<V<V<int>>, 1><<<1, 2>>>({}); t<V<V<int>>><<<1,1>>>(); }");
  EXPECT_THAT(out, HasSubstr(Tokens("PushLaunchConfiguration(1, 2), "
                                    "t<V<V<int>>, 1>({}))")));
  EXPECT_THAT(out, HasSubstr(Tokens("PushLaunchConfiguration(1,1), "
                                    "t<V<V<int>>>())")));
}

TEST(LaunchRewriteTest, FourOperands) {
  EXPECT_THAT(HostTokens("void f(mcStream_t s) { k<<<g, b, 64, s>>>(1); }"),
              HasSubstr(Tokens("PushLaunchConfiguration(g, b, 64, s), k(1))")));
}

TEST(LaunchRewriteTest, OperandsWithCommasInBrackets) {
  EXPECT_THAT(HostTokens("void f() { k<<<dim3(2, 3), b[1, 2], 0>>>(1); }"),
              HasSubstr(Tokens(
                  "PushLaunchConfiguration(dim3(2, 3), b[1, 2], 0), k(1))")));
}

TEST(LaunchRewriteTest, OperandWithComparisonAndShift) {
  EXPECT_THAT(
      HostTokens("void f(int n) { k<<<n < 4 ? 1 : 2, (n >> 1)>>>(n); }"),
      HasSubstr(Tokens("PushLaunchConfiguration(n < 4 ? 1 : 2, "
                       "(n >> 1)), k(n))")));
}

TEST(LaunchRewriteTest, CeilOperand) {
  EXPECT_THAT(
      HostTokens("void f(int n) { k<<<ceil(n/256.0), 256>>>(n); }"),
      HasSubstr(Tokens("PushLaunchConfiguration(ceil(n/256.0), 256), k(n))")));
}

TEST(LaunchRewriteTest, LaunchInDeviceCodeIsRewrittenInDevicePass) {
  Translation t = TranslateDevice(std::string(kKernels) +
                                  "__global__ void p() { k<<<1, 1>>>(0); }");
  EXPECT_THAT(Tokens(t.text),
              HasSubstr(Tokens("PushLaunchConfiguration(1, 1), k(0))")));
}

TEST(LaunchRewriteTest, LaunchFromMacroExpansionOnOneLine) {
  // What `#define LAUNCH(x) k<<<1, 1>>>(x)` leaves after preprocessing.
  EXPECT_THAT(HostTokens("void f() { k<<<1, 1>>>(7); k<<<1, 1>>>(8); }"),
              HasSubstr(Tokens("PushLaunchConfiguration(1, 1), k(7)); "
                               "(::__mc_internal::PushLaunchConfiguration(1, "
                               "1), k(8));")));
}

TEST(LaunchRewriteTest, LaunchAsArgumentOfLambda) {
  EXPECT_THAT(HostTokens("void f() { auto l = [] { k<<<1, 1>>>(0); }; l(); }"),
              HasSubstr(Tokens("[] { (::__mc_internal::PushLaunchConfiguration"
                               "(1, 1), k(0)); }")));
}

TEST(LaunchRewriteTest, ShiftsAreLeftAlone) {
  std::string source = "int f(int x) { return (x<<3) + (x >> 2) + (x<<=1); }";
  EXPECT_THAT(HostTokens(source), HasSubstr(Tokens(source)));
}

TEST(LaunchRewriteTest, SeparatedChevronsAreNoLaunch) {
  std::string out = HostTokens("void f() { k< <<1, 1>> >(0); }");
  EXPECT_THAT(out, Not(HasSubstr("PushLaunchConfiguration")));
}

TEST(LaunchRewriteTest, ChevronsInStringLiteralAreLeftAlone) {
  EXPECT_THAT(HostTokens("const char* s = \"k<<<1,1>>>(0)\";"),
              Not(HasSubstr("PushLaunchConfiguration")));
}

TEST(LaunchRewriteTest, OperatorShiftTemplateIsNoLaunch) {
  std::string source =
      "struct S {}; template <class T> S operator<<(S, T);\n"
      "template <> S operator<<<int>(S, int);";
  EXPECT_THAT(HostTokens(source), Not(HasSubstr("PushLaunchConfiguration")));
}

TEST(LaunchRewriteTest, FunctionPointerInParentheses) {
  EXPECT_THAT(
      HostTokens("void f(void (*p)(int)) { (*p)<<<1, 1>>>(2); }"),
      HasSubstr(Tokens("(::__mc_internal::PushLaunchConfiguration(1, 1), "
                       "( * p )(2))")));
}

}  // namespace
}  // namespace mxcts::compiler::testing
