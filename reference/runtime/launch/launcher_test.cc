// Copyright mxcts authors.
//
// Tests of launch configuration checking (every limit at N and N + 1, or
// at the limit and one past it) and of argument copying.

#include "reference/runtime/launch/launcher.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

#include "reference/runtime/devices/device_config.h"
#include "reference/runtime/errors/error_mapping.h"

namespace mxcts::runtime {
namespace {

struct ConfigurationCase {
  const char* name;
  dim3 grid;
  dim3 block;
  size_t shared_bytes;
  bool accepted;
};

class LaunchConfiguration : public testing::TestWithParam<ConfigurationCase> {};

TEST_P(LaunchConfiguration, IsCheckedAgainstTheDevice) {
  const ConfigurationCase& c = GetParam();
  mcDeviceProp_t device = config::DefaultDeviceProperties(0);
  absl::Status status =
      ValidateLaunchConfiguration(device, c.grid, c.block, c.shared_bytes);
  if (c.accepted) {
    EXPECT_TRUE(status.ok()) << status;
  } else {
    EXPECT_EQ(ToMcError(status), mcErrorInvalidConfiguration) << status;
  }
}

constexpr unsigned kMaxGrid = 2147483647u;

INSTANTIATE_TEST_SUITE_P(
    Limits, LaunchConfiguration,
    testing::Values(
        ConfigurationCase{"Smallest", dim3(1), dim3(1), 0, true},
        // [lang.launch.limit.zero-extent]
        ConfigurationCase{"ZeroGridX", dim3(0), dim3(1), 0, false},
        ConfigurationCase{"ZeroGridY", dim3(1, 0), dim3(1), 0, false},
        ConfigurationCase{"ZeroGridZ", dim3(1, 1, 0), dim3(1), 0, false},
        ConfigurationCase{"ZeroBlockX", dim3(1), dim3(0), 0, false},
        ConfigurationCase{"ZeroBlockY", dim3(1), dim3(1, 0), 0, false},
        ConfigurationCase{"ZeroBlockZ", dim3(1), dim3(1, 1, 0), 0, false},
        // [lang.launch.limit.block-threads-exceed-max]
        // [lang.launch.limit.max-values-accepted]
        ConfigurationCase{"BlockThreadsAtMax", dim3(1), dim3(1024), 0, true},
        ConfigurationCase{"BlockThreadsAtMaxIn3D", dim3(1), dim3(16, 8, 8), 0,
                          true},
        ConfigurationCase{"BlockThreadsOverMax", dim3(1), dim3(1025), 0, false},
        ConfigurationCase{"BlockThreadsOverMaxIn3D", dim3(1), dim3(32, 32, 2),
                          0, false},
        ConfigurationCase{"BlockThreadsProductDoesNotWrap", dim3(1),
                          dim3(1024, 1024, 1024), 0, false},
        // [lang.launch.limit.block-dimension-exceeds-max]
        ConfigurationCase{"BlockYAtMax", dim3(1), dim3(1, 1024), 0, true},
        ConfigurationCase{"BlockYOverMax", dim3(1), dim3(1, 1025), 0, false},
        ConfigurationCase{"BlockZAtMax", dim3(1), dim3(1, 1, 1024), 0, true},
        ConfigurationCase{"BlockZOverMax", dim3(1), dim3(1, 1, 1025), 0, false},
        // [lang.launch.limit.grid-dimension-exceeds-max]
        ConfigurationCase{"GridXAtMax", dim3(kMaxGrid), dim3(1), 0, true},
        ConfigurationCase{"GridXOverMax", dim3(kMaxGrid + 1), dim3(1), 0,
                          false},
        ConfigurationCase{"GridYAtMax", dim3(1, kMaxGrid), dim3(1), 0, true},
        ConfigurationCase{"GridYOverMax", dim3(1, kMaxGrid + 1), dim3(1), 0,
                          false},
        ConfigurationCase{"GridZAtMax", dim3(1, 1, kMaxGrid), dim3(1), 0, true},
        ConfigurationCase{"GridZOverMax", dim3(1, 1, kMaxGrid + 1), dim3(1), 0,
                          false},
        // [lang.launch.limit.negative-extent-wraps]
        ConfigurationCase{"NegativeGrid", dim3(static_cast<unsigned>(-1)),
                          dim3(1), 0, false},
        ConfigurationCase{"NegativeBlock", dim3(1),
                          dim3(static_cast<unsigned>(-4)), 0, false},
        // [lang.launch.limit.shared-memory-exceeds-max]
        ConfigurationCase{"SharedAtMax", dim3(1), dim3(1), 65536, true},
        ConfigurationCase{"SharedOverMax", dim3(1), dim3(1), 65537, false}),
    [](const testing::TestParamInfo<ConfigurationCase>& info) {
      return std::string(info.param.name);
    });

// Arguments of a kernel `k(char, double, int*, Wide)` with an over-aligned
// struct: each copy lands at its parameter's alignment.
struct alignas(64) Wide {
  int values[3];
};
const unsigned kSizes[] = {sizeof(char), sizeof(double), sizeof(int*),
                           sizeof(Wide)};
const unsigned kAlignments[] = {alignof(char), alignof(double), alignof(int*),
                                alignof(Wide)};
void NoEntry(void**) {}
const __mc_internal::KernelRecord kRecord = {
    "k", &NoEntry, 4, kSizes, kAlignments, 0, 0, 0, nullptr};

TEST(KernelArguments, CopiesEachArgumentAtItsAlignment) {
  char c = 'x';
  double d = 2.5;
  int target = 0;
  int* p = &target;
  Wide w{{1, 2, 3}};
  void* args[] = {&c, &d, &p, &w};
  absl::StatusOr<KernelArguments> copy = KernelArguments::Copy(kRecord, args);
  ASSERT_TRUE(copy.ok()) << copy.status();
  void** pointers = copy->pointers();
  for (int i = 0; i < 4; ++i) {
    EXPECT_NE(pointers[i], args[i]) << i;  // a copy, not the original
    EXPECT_EQ(reinterpret_cast<uintptr_t>(pointers[i]) % kAlignments[i], 0u)
        << i;
  }
  EXPECT_EQ(pointers[4], nullptr);
  EXPECT_EQ(*static_cast<char*>(pointers[0]), 'x');
  EXPECT_EQ(*static_cast<double*>(pointers[1]), 2.5);
  EXPECT_EQ(*static_cast<int**>(pointers[2]), &target);
  EXPECT_EQ(static_cast<Wide*>(pointers[3])->values[2], 3);
}

TEST(KernelArguments, LaterChangesToTheOriginalsAreNotSeen) {
  // [lang.launch.args-copied-at-launch]
  char c = 'a';
  double d = 1;
  int* p = nullptr;
  Wide w{};
  void* args[] = {&c, &d, &p, &w};
  absl::StatusOr<KernelArguments> copy = KernelArguments::Copy(kRecord, args);
  ASSERT_TRUE(copy.ok());
  d = 99;
  EXPECT_EQ(*static_cast<double*>(copy->pointers()[1]), 1.0);
}

TEST(KernelArguments, NullArgumentsAreInvalidValue) {
  EXPECT_EQ(ToMcError(KernelArguments::Copy(kRecord, nullptr).status()),
            mcErrorInvalidValue);
  char c = 0;
  double d = 0;
  void* with_hole[] = {&c, &d, nullptr, nullptr};
  EXPECT_EQ(ToMcError(KernelArguments::Copy(kRecord, with_hole).status()),
            mcErrorInvalidValue);
  // Control: a kernel without parameters needs no arguments at all.
  const __mc_internal::KernelRecord none = {
      "n", &NoEntry, 0, kSizes, kAlignments, 0, 0, 0, nullptr};
  absl::StatusOr<KernelArguments> empty = KernelArguments::Copy(none, nullptr);
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(empty->pointers()[0], nullptr);
}

}  // namespace
}  // namespace mxcts::runtime
