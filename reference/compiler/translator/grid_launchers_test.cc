// Copyright mxcts authors.
//
// Tests of grid_launchers.h through the device pass: a kernel that launches
// grids, directly or through the functions it calls, gets a record whose
// traits say so (KernelTraits' LaunchesGrids), and no other kernel does
// [api.graph.exec-update.kernel-to-dynamic-parallelism-rejected].

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "reference/compiler/translator/translator.h"
#include "reference/compiler/translator/translator_testing.h"

namespace mxcts::compiler::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// The traits of kernel `k`'s record in `out`, when k takes an int.
std::string TraitsOf(const std::string& out, const std::string& kernel) {
  const std::string head = Tokens("static_cast<void (*)(int n)>(&" + kernel +
                                  "), ::__mc_internal::KernelTraits<");
  const size_t at = out.find(head);
  if (at == std::string::npos) return "";
  const size_t begin = at + head.size();
  return out.substr(begin, out.find(Tokens(">>::record"), begin) - begin);
}

constexpr char kLaunches[] = "::__mc_internal::SharedFootprint<>(), 0, true";

TEST(GridLaunchersTest, KernelWithALaunchIsMarked) {
  const std::string out = DeviceTokens(
      "__global__ void child(int n) {}\n"
      "__global__ void k(int n) { child<<<1, 1>>>(n); }");
  EXPECT_THAT(TraitsOf(out, "k"), HasSubstr(Tokens(kLaunches)));
  // Control: the child launches nothing.
  EXPECT_THAT(TraitsOf(out, "child"), Not(HasSubstr("true")));
  EXPECT_NE(TraitsOf(out, "child"), "");
}

TEST(GridLaunchersTest, LaunchesThroughCalledFunctionsCount) {
  const std::string out = DeviceTokens(
      "__global__ void child(int n) {}\n"
      "__device__ void inner(int n) { child<<<1, 1>>>(n); }\n"
      "template <class T> __device__ void outer(T n) { inner(n); }\n"
      "__device__ void quiet(int n) { n++; }\n"
      "__global__ void k(int n) { outer<int>(n); }\n"
      "__global__ void q(int n) { quiet(n); }");
  EXPECT_THAT(TraitsOf(out, "k"), HasSubstr(Tokens(kLaunches)));
  // Control: calling a function that launches nothing.
  EXPECT_THAT(TraitsOf(out, "q"), Not(HasSubstr("true")));
  EXPECT_NE(TraitsOf(out, "q"), "");
}

TEST(GridLaunchersTest, ParameterBufferLaunchesCount) {
  const std::string out = DeviceTokens(
      "__global__ void k(int n) { void* b = mcGetParameterBufferV2(0, 0, 0, "
      "0); mcLaunchDeviceV2(b, 0); }\n"
      "struct S { void mcLaunchDevice(); };\n"
      "__global__ void m(int n) { S s; s.mcLaunchDevice(); }");
  EXPECT_THAT(TraitsOf(out, "k"), HasSubstr(Tokens(kLaunches)));
  // Control: a member of the same name is no launch.
  EXPECT_THAT(TraitsOf(out, "m"), Not(HasSubstr("true")));
  EXPECT_NE(TraitsOf(out, "m"), "");
}

TEST(GridLaunchersTest, HostPassIsUnchanged) {
  EXPECT_THAT(HostTokens("__global__ void child(int n) {}\n"
                         "__global__ void k(int n) { child<<<1, 1>>>(n); }"),
              Not(HasSubstr("KernelTraits")));
}

}  // namespace
}  // namespace mxcts::compiler::testing
