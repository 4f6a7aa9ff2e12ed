// Copyright mxcts authors.
//
// Tests of rewrites 6 to 8 (reference/compiler/design.md): `__shared__`
// at block and namespace scope, and the registration (host pass) and
// records (device pass) of `__device__`, `__constant__` and `__managed__`
// variables.

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "reference/compiler/translator/translator.h"
#include "reference/compiler/translator/translator_testing.h"

namespace mxcts::compiler::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::string StaticShared(const std::string& n, const std::string& spec,
                         const std::string& declarator,
                         const std::string& name) {
  std::string t = "__mc_shared_t_" + n;
  std::string site = "__mc_shared_site_" + n;
  return Tokens("static char " + site + "; typedef " + spec + " " + declarator +
                "; " + t + "& " + name + " = *static_cast<" + t +
                "*>(::__mc_dev_shared_variable(&" + site + ", sizeof(" + t +
                "), alignof(" + t + "), \"" + name + "\"));");
}

TEST(BlockSharedTest, StaticArrayBecomesReferenceToBlockStorage) {
  EXPECT_THAT(
      DeviceTokens("__device__ void f() { __shared__ float tile[16][16]; }"),
      HasSubstr(
          StaticShared("0", "float", "__mc_shared_t_0 [16][16]", "tile")));
}

TEST(BlockSharedTest, EachDeclaratorGetsItsOwnStorage) {
  std::string out =
      DeviceTokens("__device__ void f() { static __shared__ int a, *p[2]; }");
  EXPECT_THAT(out, HasSubstr(StaticShared("0", "int", "__mc_shared_t_0", "a")));
  EXPECT_THAT(
      out, HasSubstr(StaticShared("1", "int", "* __mc_shared_t_1 [2]", "p")));
}

TEST(BlockSharedTest, VolatileSpecifierIsKept) {
  EXPECT_THAT(
      DeviceTokens("__device__ void f() { volatile __shared__ int v; }"),
      HasSubstr(Tokens("typedef volatile int __mc_shared_t_0;")));
}

TEST(BlockSharedTest, ExternArrayIsTheDynamicArea) {
  EXPECT_THAT(
      DeviceTokens("__device__ void f() { extern __shared__ char dyn[]; }"),
      HasSubstr(Tokens("typedef char __mc_shared_t_0 []; __mc_shared_t_0& dyn "
                       "= *reinterpret_cast<__mc_shared_t_0*>(::__mc_dev_"
                       "dynamic_shared());")));
}

TEST(BlockSharedTest, HostDeviceFunctionIsRewrittenInHostPass) {
  EXPECT_THAT(
      HostTokens("__host__ __device__ void f() { __shared__ int x; x = 1; }"),
      HasSubstr(StaticShared("0", "int", "__mc_shared_t_0", "x") + " x = 1 ;"));
}

TEST(BlockSharedTest, TemplateKernelUsesDependentType) {
  EXPECT_THAT(DeviceTokens("template <class T, int N> __global__ void k() {\n"
                           "  __shared__ T buf[N];\n}"),
              HasSubstr(StaticShared("0", "T", "__mc_shared_t_0 [N]", "buf")));
}

TEST(NamespaceSharedTest, BecomesAccessorAndUsesCallIt) {
  std::string out = DeviceTokens(
      "__shared__ float buf[64];\n"
      "struct S { int buf; };\n"
      "__device__ float f(S s) { return buf[0] + s.buf; }");
  EXPECT_THAT(out,
              HasSubstr(Tokens(
                  "typedef float __mc_shared_t_0 [64]; static inline "
                  "__mc_shared_t_0& __mc_shared_ref_0() { static char site; "
                  "return *static_cast<__mc_shared_t_0*>(::__mc_dev_shared_"
                  "variable(&site, sizeof(__mc_shared_t_0), "
                  "alignof(__mc_shared_t_0), \"buf\")); }")));
  EXPECT_THAT(out, HasSubstr(Tokens("return __mc_shared_ref_0()[0] + s.buf;")));
  EXPECT_THAT(out, HasSubstr(Tokens("struct S { int buf; };")));
}

TEST(NamespaceSharedTest, RedeclaredNameIsNoUse) {
  std::string out = DeviceTokens(
      "__shared__ int n;\n"
      "__device__ void f() { int n = 1; n++; }");
  EXPECT_THAT(out, HasSubstr(Tokens("{ int n = 1;")));
}

TEST(NamespaceSharedTest, ExternArrayReturnsDynamicArea) {
  EXPECT_THAT(DeviceTokens("extern __shared__ int dyn[];\n"),
              HasSubstr(Tokens("return *reinterpret_cast<__mc_shared_t_0*>("
                               "::__mc_dev_dynamic_shared());")));
}

TEST(DeviceVariableTest, HostPassRegistersShadow) {
  std::string out =
      HostTokens("namespace ns { namespace in { __device__ int x = 3; } }");
  EXPECT_THAT(
      out, HasSubstr(Tokens(
               std::string("int x = 3; static const bool "
                           "__mc_variable_registered_0 = "
                           "::__mc_internal::RegisterDeviceVariable(&") +
               kImage + ", (const void*)&x, \"ns::in::x\", sizeof(x), 0);")));
}

TEST(DeviceVariableTest, ConstantHasConstantFlag) {
  EXPECT_THAT(HostTokens("__constant__ float c[4];"),
              HasSubstr(Tokens("\"c\", sizeof(c), "
                               "::__mc_internal::kVariableConstant);")));
}

TEST(DeviceVariableTest, EachDeclaratorIsRegistered) {
  std::string out = HostTokens("__device__ int a, b[2];");
  EXPECT_THAT(out, HasSubstr("\"a\""));
  EXPECT_THAT(out, HasSubstr("\"b\""));
}

// [api.compile.mxcc.relocatable-device-code] As relocatable device code,
// keys carry the source's tag in both passes; without it they do not.
TEST(DeviceVariableTest, RelocatableDeviceCodeKeysCarryTheSourceTag) {
  TranslationOptions options;
  options.image_symbol = kImage;
  options.relocatable_device_code = true;
  for (Pass pass : {Pass::kHost, Pass::kDevice}) {
    options.pass = pass;
    Translation t = Translate("static __device__ int x;", options);
    EXPECT_THAT(t.text, HasSubstr("\"x@00000000000000ab\""));
    if (pass == Pass::kDevice) {
      EXPECT_THAT(t.text, HasSubstr("__mc_variable_record_00000000000000ab_0"));
    }
  }
  EXPECT_THAT(HostTokens("static __device__ int x;"), HasSubstr("\"x\""));
}

TEST(DeviceVariableTest, ExternDeclarationIsNotRegistered) {
  Translation t = TranslateHost("extern __device__ int x;");
  EXPECT_EQ(Tokens(t.text), Tokens("extern int x;"));
  EXPECT_FALSE(t.needs_image);
}

TEST(DeviceVariableTest, DevicePassEmitsRecord) {
  EXPECT_THAT(
      DeviceTokens("__device__ int x;"),
      HasSubstr(Tokens("int x; extern \"C\" __attribute__((used)) const "
                       "::__mc_internal::DeviceVariableRecord "
                       "__mc_variable_record_0 = {\"x\", (void*)&x, sizeof(x), "
                       "0};")));
}

TEST(DeviceVariableTest, DevicePassManagedRecordHasManagedFlag) {
  EXPECT_THAT(DeviceTokens("__managed__ int m = 5;"),
              HasSubstr(Tokens("int m = 5; extern \"C\"")));
  EXPECT_THAT(DeviceTokens("__managed__ int m = 5;"),
              HasSubstr(Tokens("::__mc_internal::kVariableManaged")));
}

TEST(ConstantVariableTest, DevicePassPutsItInAConstantSection) {
  // [lang.ub.memory.constant-write]
  EXPECT_THAT(DeviceTokens("__constant__ float c[4] = {1};"),
              HasSubstr(Tokens("__attribute__((section(\"__mc_constant.1\"))) "
                               "float c[4] = {1}; extern \"C\"")));
}

TEST(ConstantVariableTest, EachDeclarationGetsItsOwnSection) {
  std::string out = DeviceTokens(
      "namespace ns { static __constant__ int a = 1, b; }\n"
      "const __constant__ double k = 2.0;\n");
  EXPECT_THAT(out, HasSubstr(Tokens("static __attribute__((section(\"__mc_"
                                    "constant.2\"))) int a = 1, b;")));
  EXPECT_THAT(out, HasSubstr(Tokens("const __attribute__((section(\"__mc_"
                                    "constant.4\"))) double k = 2.0;")));
}

TEST(ConstantVariableTest, HostPassAndOtherVariablesGetNoSection) {
  EXPECT_THAT(HostTokens("__constant__ float c[4];"),
              Not(HasSubstr("section")));
  EXPECT_THAT(DeviceTokens("__device__ int d; __managed__ int m;"),
              Not(HasSubstr("section")));
  EXPECT_THAT(DeviceTokens("extern __constant__ int e;"),
              Not(HasSubstr("section")));
}

TEST(ManagedVariableTest, HostPassBindsReferenceToRuntimeStorage) {
  EXPECT_THAT(
      HostTokens("static __managed__ float m[8] = {1};"),
      HasSubstr(Tokens(std::string("typedef float __mc_managed_t_0 [8]; static "
                                   "__mc_managed_t_0& m = "
                                   "*static_cast<__mc_managed_t_0*>(::__mc_"
                                   "internal::RegisterManagedVariable(&") +
                       kImage + ", \"m\", sizeof(__mc_managed_t_0)));")));
}

TEST(ManagedVariableTest, UnsizedArrayTakesItsBoundFromTheInitializer) {
  EXPECT_THAT(
      HostTokens("__managed__ int v[] = {1, 2, 3};"),
      HasSubstr(
          Tokens(std::string("[[maybe_unused]] static int __mc_managed_shape_0 "
                             "[] = {1, 2, 3}; typedef decltype("
                             "__mc_managed_shape_0) __mc_managed_t_0; "
                             "__mc_managed_t_0& v = "
                             "*static_cast<__mc_managed_t_0*>(::__mc_"
                             "internal::RegisterManagedVariable(&") +
                 kImage + ", \"v\", sizeof(__mc_managed_t_0)));")));
  // Control: a sized array keeps its typedef.
  EXPECT_THAT(HostTokens("__managed__ int w[4] = {1};"),
              Not(HasSubstr("__mc_managed_shape")));
  // An unsized extern declaration has no initializer to take a bound from.
  EXPECT_THAT(HostTokens("extern __managed__ int x[];"),
              Not(HasSubstr("__mc_managed_shape")));
}

TEST(ManagedVariableTest, ExternBecomesExternReference) {
  EXPECT_EQ(
      HostTokens("extern __managed__ int m;"),
      Tokens("typedef int __mc_managed_t_0; extern __mc_managed_t_0& m;"));
}

TEST(NeedsImageTest, DeviceVariableOrKernelNeedsImage) {
  EXPECT_TRUE(TranslateHost("__device__ int x;").needs_image);
  EXPECT_TRUE(TranslateDevice("__global__ void k() {}").needs_image);
  EXPECT_FALSE(TranslateHost("int x; __global__ void k();").needs_image);
  EXPECT_FALSE(TranslateHost("__device__ int f() { return 1; }").needs_image);
}

TEST(DeviceVariableTest, ClassMembersAreNotRegistered) {
  EXPECT_THAT(HostTokens("struct S { __device__ static int x; };"),
              Not(HasSubstr("Register")));
}

}  // namespace
}  // namespace mxcts::compiler::testing
