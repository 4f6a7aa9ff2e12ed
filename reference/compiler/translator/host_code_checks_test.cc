// Copyright mxcts authors.
//
// Tests of the host pass's checks of device-only names in host code
// (host_code_checks.h). Each rule has a faulty source and a control that
// translates cleanly; the device pass reports neither.

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "reference/compiler/translator/translator.h"
#include "reference/compiler/translator/translator_testing.h"

namespace mxcts::compiler::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

// The host pass's diagnostics; the device pass has none.
std::vector<std::string> HostErrors(const std::string& source) {
  EXPECT_THAT(Messages(TranslateDevice(source)), IsEmpty());
  return Messages(TranslateHost(source));
}

TEST(DeviceFunctionAddressTest, AddressInHostCodeIsAnError) {
  EXPECT_THAT(
      HostErrors("__device__ int f(int x) { return x; }\n"
                 "int (*p)(int) = &f;"),
      ElementsAre(HasSubstr(
          "2:18: host code cannot take the address of __device__ function "
          "'f' [lang.function.address.device-function-in-host]")));
  EXPECT_THAT(HostErrors("namespace n { __device__ int f(); }\n"
                         "void g() { auto p = &n::f; (void)p; }"),
              ElementsAre(HasSubstr("2:25:")));
}

TEST(DeviceFunctionAddressTest, AddressInDeviceCodeIsFine) {
  EXPECT_THAT(HostErrors("__device__ int f(int x) { return x; }\n"
                         "__device__ int g() { int (*p)(int) = &f; return "
                         "p(1); }\n"
                         "__global__ void k() { auto p = &f; (void)p; }\n"
                         "__host__ __device__ void h() { auto p = &f; }\n"
                         "__device__ int (*stored)(int) = &f;"),
              IsEmpty());
}

TEST(DeviceFunctionAddressTest, FunctionWithAHostVersionIsFine) {
  EXPECT_THAT(HostErrors("__host__ __device__ int f(int x) { return x; }\n"
                         "int (*p)(int) = &f;"),
              IsEmpty());
  EXPECT_THAT(HostErrors("__device__ int f(int x);\nint f(int x, int y);\n"
                         "int (*p)(int, int) = &f;"),
              IsEmpty());
  // Binary `&` and calls are not address-taking.
  EXPECT_THAT(HostErrors("__device__ int f();\nint a, b = a &f;"), IsEmpty());
}

TEST(BuiltinInHostCodeTest, CommaOperandsAreNotDeclarations) {
  EXPECT_THAT(HostErrors("void f(int x) { use(x, blockDim.x); x = 1, "
                         "gridDim.x; }"),
              ElementsAre(HasSubstr("'blockDim'"), HasSubstr("'gridDim'")));
}

TEST(BuiltinInHostCodeTest, BuiltinInAHostFunctionIsAnError) {
  EXPECT_THAT(HostErrors("int f() {\n  return threadIdx.x;\n}"),
              ElementsAre(HasSubstr(
                  "2:10: built-in variable 'threadIdx' is valid only in "
                  "device code, not in host function 'f' "
                  "[lang.builtin.device-code-only]")));
  EXPECT_THAT(HostErrors("__host__ unsigned g() { return gridDim.y * "
                         "blockDim.x + (blockIdx.z & 1); }"),
              ElementsAre(HasSubstr("'gridDim'"), HasSubstr("'blockDim'"),
                          HasSubstr("'blockIdx'")));
}

TEST(BuiltinInHostCodeTest, DeviceCodeAndOwnDeclarationsAreFine) {
  EXPECT_THAT(HostErrors("__device__ int f() { return threadIdx.x; }\n"
                         "__global__ void k(int* p) { *p = blockIdx.x; }\n"
                         "__host__ __device__ int h() { return blockDim.x; }"),
              IsEmpty());
  // [lang.builtin.host-declarations-hide-builtins]
  EXPECT_THAT(HostErrors("void launch() { dim3 gridDim(4), blockDim(16); "
                         "use(gridDim, blockDim); }"),
              IsEmpty());
  EXPECT_THAT(HostErrors("void param(dim3 blockDim) { use(blockDim.x); }\n"
                         "namespace app { const dim3 blockDim(5); unsigned "
                         "n() { return blockDim.x; } }\n"
                         "struct S { dim3 gridDim; int m() { return "
                         "gridDim.x; } };\n"
                         "void member(S& s) { use(s.gridDim, ::std::x); }\n"
                         "void pointer() { dim3* gridDim = nullptr; "
                         "use(gridDim); }"),
              IsEmpty());
}

}  // namespace
}  // namespace mxcts::compiler::testing
