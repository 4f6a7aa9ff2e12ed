// Copyright mxcts authors.
//
// Conformance: launching kernels from device code with `<<<...>>>`
// (docs/spec/api-dynamic-parallelism.md, "Device-side launch"): every
// configuration a host launch accepts runs the child with the given grid,
// block and dynamic shared memory; overloads and template kernels resolve
// as on the host; arguments of any type arrive as passed; launches may be
// written in kernels, __device__ and __host__ __device__ functions; every
// thread of a parent may launch.

#include <mc_runtime.h>

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "conformance/api/dynamic_parallelism/execution/device_launch_testing.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"
#include "gtest/gtest.h"

namespace {

using dp_testing::DeviceArray;
using dp_testing::FillChild;
using dp_testing::GlobalThread;
using dp_testing::Volume;

// --- Every configuration. ---

__global__ void LaunchFill(int* out, dim3 grid, dim3 block, int base) {
  FillChild<<<grid, block>>>(out, base);
}

struct Configuration {
  dim3 grid;
  dim3 block;
};

std::string Name(dim3 d) {
  return std::to_string(d.x) + "x" + std::to_string(d.y) + "x" +
         std::to_string(d.z);
}

class ChildConfigurationTest
    : public ::testing::TestWithParam<std::tuple<dim3, dim3>> {};

TEST_P(ChildConfigurationTest, ChildRunsEveryThreadOfItsConfiguration) {
  MX_SPEC("api.devrt.launch.chevron-syntax-in-device-code",
          "api.devrt.completion.parent-waits-for-children");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  const dim3 grid = std::get<0>(GetParam());
  const dim3 block = std::get<1>(GetParam());
  const unsigned threads = Volume(grid) * Volume(block);
  DeviceArray<int> out(threads);
  LaunchFill<<<1, 1>>>(out.get(), grid, block, 1000);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  const std::vector<int> values = out.ToHost();
  for (unsigned i = 0; i < threads; ++i) {
    ASSERT_EQ(values[i], 1000 + static_cast<int>(i)) << "thread " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Configurations, ChildConfigurationTest,
    ::testing::Combine(::testing::Values(dim3(1), dim3(2), dim3(3, 2),
                                         dim3(2, 2, 2), dim3(7), dim3(1, 3)),
                       ::testing::Values(dim3(1), dim3(32), dim3(64), dim3(65),
                                         dim3(8, 8), dim3(4, 4, 4), dim3(256),
                                         dim3(1024))),
    [](const auto& info) {
      return "grid" + Name(std::get<0>(info.param)) + "_block" +
             Name(std::get<1>(info.param));
    });

// --- Dynamic shared memory. ---

__global__ void SumThroughDynamicShared(int* out, unsigned slots) {
  extern __shared__ int area[];
  const unsigned mine = threadIdx.x % slots;
  if (threadIdx.x < slots) area[mine] = static_cast<int>(threadIdx.x) + 1;
  __syncthreads();
  if (threadIdx.x == 0) {
    int sum = 0;
    for (unsigned i = 0; i < slots; ++i) sum += area[i];
    *out = sum;
  }
}

__global__ void LaunchWithShared(int* out, unsigned threads, size_t bytes) {
  const unsigned slots = static_cast<unsigned>(bytes / sizeof(int)) < threads
                             ? static_cast<unsigned>(bytes / sizeof(int))
                             : threads;
  SumThroughDynamicShared<<<1, threads, bytes>>>(out, slots);
}

class ChildDynamicSharedTest
    : public ::testing::TestWithParam<std::tuple<unsigned, size_t>> {};

TEST_P(ChildDynamicSharedTest, ChildGetsTheDynamicSharedMemoryItAskedFor) {
  MX_SPEC("api.devrt.launch.chevron-syntax-in-device-code");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  const unsigned threads = std::get<0>(GetParam());
  const size_t bytes = std::get<1>(GetParam());
  const unsigned slots =
      bytes / sizeof(int) < threads ? bytes / sizeof(int) : threads;
  DeviceArray<int> out(1);
  LaunchWithShared<<<1, 1>>>(out.get(), threads, bytes);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(out.At(0), static_cast<int>(slots * (slots + 1) / 2));
}

INSTANTIATE_TEST_SUITE_P(
    SharedBytes, ChildDynamicSharedTest,
    ::testing::Combine(::testing::Values(1u, 64u, 256u),
                       ::testing::Values(size_t{4}, size_t{256}, size_t{4096},
                                         size_t{65536})),
    [](const auto& info) {
      return std::to_string(std::get<0>(info.param)) + "threads_" +
             std::to_string(std::get<1>(info.param)) + "bytes";
    });

// --- Where the launch is written. ---

__global__ void StoreValue(int* out, int value) { *out = value; }

__device__ void LaunchFromDeviceFunction(int* out) {
  StoreValue<<<1, 1>>>(out, 41);
}

__host__ __device__ void LaunchFromEitherSide(int* out) {
  StoreValue<<<1, 1>>>(out, 43);
}

__global__ void CallDeviceFunction(int* out) { LaunchFromDeviceFunction(out); }

__global__ void CallHostDeviceFunction(int* out) { LaunchFromEitherSide(out); }

TEST(DeviceLaunchSite, LaunchInDeviceFunctionRunsChild) {
  MX_SPEC("api.devrt.launch.chevron-syntax-in-device-code");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  DeviceArray<int> out(1);
  CallDeviceFunction<<<1, 1>>>(out.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(out.At(0), 41);
}

TEST(DeviceLaunchSite, LaunchInHostDeviceFunctionRunsChildFromDevice) {
  MX_SPEC("api.devrt.launch.chevron-syntax-in-device-code");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  DeviceArray<int> out(1);
  CallHostDeviceFunction<<<1, 1>>>(out.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(out.At(0), 43);
}

// Control: the same function called by host code is a host launch.
TEST(DeviceLaunchSite, HostDeviceFunctionCalledByHostLaunchesFromHost) {
  MX_SPEC("api.devrt.launch.chevron-syntax-in-device-code");
  DeviceArray<int> out(1);
  LaunchFromEitherSide(out.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(out.At(0), 43);
}

// --- Overloads and templates. ---

__global__ void Overloaded(int* out, int value) { *out = value + 1; }
__global__ void Overloaded(float* out, float value) { *out = value * 2; }

__global__ void LaunchOverloads(int* i, float* f) {
  Overloaded<<<1, 1>>>(i, 20);
  Overloaded<<<1, 1>>>(f, 1.25f);
}

TEST(DeviceLaunchResolution, OverloadIsChosenByTheArguments) {
  MX_SPEC("api.devrt.launch.chevron-syntax-in-device-code");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  DeviceArray<int> i(1);
  DeviceArray<float> f(1);
  LaunchOverloads<<<1, 1>>>(i.get(), f.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(i.At(0), 21);
  EXPECT_EQ(f.At(0), 2.5f);
}

template <typename T>
__global__ void StoreTyped(T* out, T value, int index) {
  out[index] = value;
}

template <typename T>
__global__ void LaunchTyped(T* out, T first, T second) {
  StoreTyped<<<1, 1>>>(out, first, 0);      // deduced
  StoreTyped<T><<<1, 1>>>(out, second, 1);  // explicit
}

template <typename T>
class TemplateKernelTest : public ::testing::Test {};
using KernelTypes =
    ::testing::Types<char, short, int, unsigned, long long, float, double>;
TYPED_TEST_SUITE(TemplateKernelTest, KernelTypes);

TYPED_TEST(TemplateKernelTest, TemplateKernelLaunchedFromDeviceRuns) {
  MX_SPEC("api.devrt.launch.chevron-syntax-in-device-code");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  DeviceArray<TypeParam> out(2);
  LaunchTyped<TypeParam><<<1, 1>>>(out.get(), TypeParam(7), TypeParam(9));
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(out.At(0), TypeParam(7));
  EXPECT_EQ(out.At(1), TypeParam(9));
}

// --- Arguments. ---

struct Wide {
  int values[32];
  double scale;
  char tag;
};

__global__ void SumWide(Wide wide, long long* out) {
  long long sum = 0;
  for (int v : wide.values) sum += v;
  *out = static_cast<long long>(sum * wide.scale) + wide.tag;
}

__global__ void LaunchWide(long long* out) {
  Wide wide;
  for (int i = 0; i < 32; ++i) wide.values[i] = i;
  wide.scale = 2.0;
  wide.tag = 5;
  SumWide<<<1, 1>>>(wide, out);
  // [lang.launch.args-copied-at-launch] Changed after the launch: the
  // child has its own copy.
  wide.tag = 100;
  wide.values[0] = 1000;
}

TEST(DeviceLaunchArguments, StructArgumentArrivesAsPassedAtTheLaunch) {
  MX_SPEC("api.devrt.launch.chevron-syntax-in-device-code");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  DeviceArray<long long> out(1);
  LaunchWide<<<1, 1>>>(out.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(out.At(0), 496 * 2 + 5);
}

__global__ void Mixed(char c, short s, int i, long long l, float f, double d,
                      unsigned char u, double* out) {
  *out = c + s + i + static_cast<double>(l) + f + d + u;
}

__global__ void LaunchMixed(double* out) {
  Mixed<<<1, 1>>>(1, 2, 3, 4000000000LL, 0.5f, 0.25, 200, out);
}

TEST(DeviceLaunchArguments, ArgumentsOfMixedSizesArriveInOrder) {
  MX_SPEC("api.devrt.launch.chevron-syntax-in-device-code");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  DeviceArray<double> out(1);
  LaunchMixed<<<1, 1>>>(out.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(out.At(0), 1 + 2 + 3 + 4000000000.0 + 0.5 + 0.25 + 200);
}

__global__ void NoArguments() {}

__global__ void LaunchNoArguments(int* out) {
  NoArguments<<<2, 2>>>();
  *out = mcGetLastError() == mcSuccess ? 1 : 2;
}

TEST(DeviceLaunchArguments, KernelWithoutParametersLaunches) {
  MX_SPEC("api.devrt.launch.chevron-syntax-in-device-code");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  DeviceArray<int> out(1);
  LaunchNoArguments<<<1, 1>>>(out.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(out.At(0), 1);
}

// --- Many launching threads. ---

__global__ void CountThreads(unsigned long long* counter) {
  atomicAdd(counter, 1ull);
}

__global__ void EveryThreadLaunches(unsigned long long* counter,
                                    int launches_per_thread,
                                    unsigned child_threads) {
  for (int i = 0; i < launches_per_thread; ++i) {
    CountThreads<<<1, child_threads>>>(counter);
  }
}

class LaunchingThreadsTest
    : public ::testing::TestWithParam<std::tuple<unsigned, unsigned, int>> {};

TEST_P(LaunchingThreadsTest, EveryLaunchOfEveryThreadRunsOnce) {
  MX_SPEC("api.devrt.launch.chevron-syntax-in-device-code",
          "api.devrt.completion.implicit-sync-when-parent-threads-exit");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  const unsigned blocks = std::get<0>(GetParam());
  const unsigned threads = std::get<1>(GetParam());
  const int launches = std::get<2>(GetParam());
  DeviceArray<unsigned long long> counter(1);
  EveryThreadLaunches<<<blocks, threads>>>(counter.get(), launches, 3);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(counter.At(0),
            static_cast<unsigned long long>(blocks) * threads * launches * 3);
}

INSTANTIATE_TEST_SUITE_P(Launchers, LaunchingThreadsTest,
                         ::testing::Combine(::testing::Values(1u, 2u, 4u),
                                            ::testing::Values(1u, 16u, 64u),
                                            ::testing::Values(1, 2, 3)),
                         [](const auto& info) {
                           return std::to_string(std::get<0>(info.param)) +
                                  "blocks_" +
                                  std::to_string(std::get<1>(info.param)) +
                                  "threads_" +
                                  std::to_string(std::get<2>(info.param)) +
                                  "launches";
                         });

}  // namespace
