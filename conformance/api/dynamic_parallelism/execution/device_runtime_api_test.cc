// Copyright mxcts authors.
//
// Conformance: the device runtime API (docs/spec/api-dynamic-parallelism.md,
// "The device runtime API" and the parameter buffer clauses): launches
// through parameter buffers equal `<<<...>>>` launches; the buffer has the
// layout of a structure of the parameters; device-side mcGetLastError and
// mcPeekAtLastError keep one error per thread; error names and strings,
// limits, the device and its attributes read in device code agree with the
// host; mcMalloc and mcFree in device code use the device heap.

#include <mc_runtime.h>

#include <cstddef>
#include <cstring>
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

// --- Parameter buffers. ---

struct FillArguments {
  int* out;
  int base;
};

__global__ void LaunchThroughBuffer(int* out, dim3 grid, dim3 block, int base,
                                    bool v2, int* status) {
  void* buffer =
      v2 ? mcGetParameterBufferV2(reinterpret_cast<void*>(FillChild), grid,
                                  block, 0)
         : mcGetParameterBuffer(alignof(FillArguments), sizeof(FillArguments));
  if (buffer == nullptr) {
    *status = -1;
    return;
  }
  FillArguments* arguments = static_cast<FillArguments*>(buffer);
  arguments->out = out;
  arguments->base = base;
  *status = v2 ? mcLaunchDeviceV2(buffer, 0)
               : mcLaunchDevice(reinterpret_cast<void*>(FillChild), buffer,
                                grid, block, 0, 0);
}

class ParameterBufferLaunchTest
    : public ::testing::TestWithParam<std::tuple<bool, dim3, dim3>> {};

TEST_P(ParameterBufferLaunchTest, BufferLaunchRunsAsAChevronLaunchWould) {
  MX_SPEC("api.devrt.launch.parameter-buffer-api",
          "api.devrt.launch.parameter-buffer-layout");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  const bool v2 = std::get<0>(GetParam());
  const dim3 grid = std::get<1>(GetParam());
  const dim3 block = std::get<2>(GetParam());
  const unsigned threads = Volume(grid) * Volume(block);
  DeviceArray<int> out(threads);
  DeviceArray<int> status(1);
  LaunchThroughBuffer<<<1, 1>>>(out.get(), grid, block, 500, v2, status.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  ASSERT_EQ(status.At(0), mcSuccess);
  const std::vector<int> values = out.ToHost();
  for (unsigned i = 0; i < threads; ++i) ASSERT_EQ(values[i], 500 + int(i));
}

std::string Name(dim3 d) {
  return std::to_string(d.x) + "x" + std::to_string(d.y) + "x" +
         std::to_string(d.z);
}

INSTANTIATE_TEST_SUITE_P(
    Configurations, ParameterBufferLaunchTest,
    ::testing::Combine(::testing::Bool(),
                       ::testing::Values(dim3(1), dim3(3), dim3(2, 2, 2)),
                       ::testing::Values(dim3(1), dim3(64), dim3(5, 7))),
    [](const auto& info) {
      return std::string(std::get<0>(info.param) ? "V2" : "V1") + "_grid" +
             Name(std::get<1>(info.param)) + "_block" +
             Name(std::get<2>(info.param));
    });

// Parameters of every alignment: the buffer is their structure.
__global__ void Record(char c, int i, char d, double x, short s, void* p,
                       long long* out) {
  out[0] = c;
  out[1] = i;
  out[2] = d;
  out[3] = static_cast<long long>(x * 4);
  out[4] = s;
  out[5] = reinterpret_cast<long long>(p);
}

struct RecordLayout {
  char c;
  int i;
  char d;
  double x;
  short s;
  void* p;
  long long* out;
};

__global__ void LaunchRecord(long long* out, bool v2, int* status) {
  void* buffer =
      v2 ? mcGetParameterBufferV2(reinterpret_cast<void*>(Record), dim3(1),
                                  dim3(1), 0)
         : mcGetParameterBuffer(alignof(RecordLayout), sizeof(RecordLayout));
  RecordLayout* layout = static_cast<RecordLayout*>(buffer);
  layout->c = 'a';
  layout->i = -123456;
  layout->d = 'z';
  layout->x = 2.75;
  layout->s = 3210;
  layout->p = out;
  layout->out = out;
  *status = v2 ? mcLaunchDeviceV2(buffer, 0)
               : mcLaunchDevice(reinterpret_cast<void*>(Record), buffer,
                                dim3(1), dim3(1), 0, 0);
}

class ParameterLayoutTest : public ::testing::TestWithParam<bool> {};

TEST_P(ParameterLayoutTest, ParametersSitAtTheirStructureOffsets) {
  MX_SPEC("api.devrt.launch.parameter-buffer-layout");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  DeviceArray<long long> out(6);
  DeviceArray<int> status(1);
  LaunchRecord<<<1, 1>>>(out.get(), GetParam(), status.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  ASSERT_EQ(status.At(0), mcSuccess);
  const std::vector<long long> values = out.ToHost();
  EXPECT_EQ(values[0], 'a');
  EXPECT_EQ(values[1], -123456);
  EXPECT_EQ(values[2], 'z');
  EXPECT_EQ(values[3], 11);
  EXPECT_EQ(values[4], 3210);
  EXPECT_EQ(values[5], reinterpret_cast<long long>(out.get()));
}

INSTANTIATE_TEST_SUITE_P(Forms, ParameterLayoutTest, ::testing::Bool());

__device__ void NotAKernel(int*) {}

enum class BufferMisuse {
  kOversized,
  kBadAlignment,
  kV2OfNonKernel,
  kLaunchForeignBuffer,
  kLaunchNullBuffer,
  kV2LaunchOfV1Buffer,
  kLaunchNonKernel,
};

__global__ void MisuseBuffers(BufferMisuse misuse, int* out, int* results) {
  int local[4] = {};
  switch (misuse) {
    case BufferMisuse::kOversized:
      results[0] = mcGetParameterBuffer(8, 4097) == nullptr;
      break;
    case BufferMisuse::kBadAlignment:
      results[0] = mcGetParameterBuffer(3, 16) == nullptr;
      break;
    case BufferMisuse::kV2OfNonKernel:
      results[0] = mcGetParameterBufferV2(reinterpret_cast<void*>(NotAKernel),
                                          dim3(1), dim3(1), 0) == nullptr;
      break;
    case BufferMisuse::kLaunchForeignBuffer:
      results[0] =
          mcLaunchDevice(reinterpret_cast<void*>(FillChild), local, dim3(1),
                         dim3(1), 0, 0) == mcErrorInvalidValue;
      break;
    case BufferMisuse::kLaunchNullBuffer:
      results[0] =
          mcLaunchDevice(reinterpret_cast<void*>(FillChild), nullptr, dim3(1),
                         dim3(1), 0, 0) == mcErrorInvalidValue;
      break;
    case BufferMisuse::kV2LaunchOfV1Buffer:
      results[0] = mcLaunchDeviceV2(mcGetParameterBuffer(8, 16), 0) ==
                   mcErrorInvalidValue;
      break;
    case BufferMisuse::kLaunchNonKernel:
      results[0] = mcLaunchDevice(reinterpret_cast<void*>(NotAKernel),
                                  mcGetParameterBuffer(8, 16), dim3(1), dim3(1),
                                  0, 0) == mcErrorInvalidDeviceFunction;
      break;
  }
  results[1] = mcGetLastError();
  // Control: a good buffer launch still works afterwards.
  void* good = mcGetParameterBuffer(8, sizeof(FillArguments));
  static_cast<FillArguments*>(good)->out = out;
  static_cast<FillArguments*>(good)->base = 1;
  results[2] = mcLaunchDevice(reinterpret_cast<void*>(FillChild), good, dim3(1),
                              dim3(1), 0, 0);
}

class BufferMisuseTest
    : public ::testing::TestWithParam<std::tuple<BufferMisuse, mcError_t>> {};

TEST_P(BufferMisuseTest, MisusedBufferIsRefusedAndLaterLaunchesWork) {
  MX_SPEC("api.devrt.launch.parameter-buffer-api",
          "api.devrt.launch.parameter-buffer-layout");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  DeviceArray<int> out(1);
  DeviceArray<int> results(3);
  MisuseBuffers<<<1, 1>>>(std::get<0>(GetParam()), out.get(), results.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(results.At(0), 1);
  EXPECT_EQ(results.At(1), std::get<1>(GetParam()));
  EXPECT_EQ(results.At(2), mcSuccess);
  EXPECT_EQ(out.At(0), 1);
}

INSTANTIATE_TEST_SUITE_P(
    Misuses, BufferMisuseTest,
    ::testing::Values(
        std::make_tuple(BufferMisuse::kOversized, mcErrorInvalidValue),
        std::make_tuple(BufferMisuse::kBadAlignment, mcErrorInvalidValue),
        std::make_tuple(BufferMisuse::kV2OfNonKernel,
                        mcErrorInvalidDeviceFunction),
        std::make_tuple(BufferMisuse::kLaunchForeignBuffer,
                        mcErrorInvalidValue),
        std::make_tuple(BufferMisuse::kLaunchNullBuffer, mcErrorInvalidValue),
        std::make_tuple(BufferMisuse::kV2LaunchOfV1Buffer, mcErrorInvalidValue),
        std::make_tuple(BufferMisuse::kLaunchNonKernel,
                        mcErrorInvalidDeviceFunction)));

// --- Last errors, per thread. ---

__global__ void Nothing() {}

__global__ void OneThreadFails(int failing, bool peek, int* errors) {
  if (static_cast<int>(threadIdx.x) == failing) {
    Nothing<<<dim3(0), dim3(1)>>>();  // an invalid configuration
  }
  __syncthreads();
  const int first = peek ? mcPeekAtLastError() : mcGetLastError();
  const int second = mcGetLastError();
  const int third = mcGetLastError();
  errors[threadIdx.x * 3 + 0] = first;
  errors[threadIdx.x * 3 + 1] = second;
  errors[threadIdx.x * 3 + 2] = third;
}

class LastErrorTest : public ::testing::TestWithParam<std::tuple<int, bool>> {};

TEST_P(LastErrorTest, OnlyTheFailingThreadSeesItsErrorUntilItIsTaken) {
  MX_SPEC("api.devrt.api.get-last-error-optional",
          "api.devrt.launch.invalid-configuration-fails-launch");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  const int failing = std::get<0>(GetParam());
  const bool peek = std::get<1>(GetParam());
  DeviceArray<int> errors(128 * 3);
  OneThreadFails<<<1, 128>>>(failing, peek, errors.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  const std::vector<int> values = errors.ToHost();
  for (int t = 0; t < 128; ++t) {
    const int* mine = &values[t * 3];
    if (t == failing) {
      EXPECT_EQ(mine[0], mcErrorInvalidConfiguration);
      // A peek leaves the error for mcGetLastError; a get takes it.
      EXPECT_EQ(mine[1], peek ? mcErrorInvalidConfiguration : mcSuccess);
      EXPECT_EQ(mine[2], mcSuccess);
    } else {
      EXPECT_EQ(mine[0], mcSuccess) << "thread " << t;
      EXPECT_EQ(mine[1], mcSuccess) << "thread " << t;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Threads, LastErrorTest,
                         ::testing::Combine(::testing::Values(0, 5, 63, 64,
                                                              127),
                                            ::testing::Bool()));

// --- Error names and strings. ---

__global__ void ErrorText(mcError_t error, bool name, char* out) {
  const char* text = name ? mcGetErrorName(error) : mcGetErrorString(error);
  int i = 0;
  for (; text[i] != '\0' && i < 255; ++i) out[i] = text[i];
  out[i] = '\0';
}

class ErrorTextTest
    : public ::testing::TestWithParam<std::tuple<mcError_t, bool>> {};

TEST_P(ErrorTextTest, DeviceErrorTextEqualsTheHosts) {
  MX_SPEC("api.devrt.api.subset-of-host-api");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  const mcError_t error = std::get<0>(GetParam());
  const bool name = std::get<1>(GetParam());
  DeviceArray<char> out(256);
  ErrorText<<<1, 1>>>(error, name, out.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  const std::vector<char> text = out.ToHost();
  EXPECT_STREQ(text.data(),
               name ? mcGetErrorName(error) : mcGetErrorString(error));
}

INSTANTIATE_TEST_SUITE_P(
    Errors, ErrorTextTest,
    ::testing::Combine(
        ::testing::Values(mcSuccess, mcErrorInvalidValue,
                          mcErrorMemoryAllocation, mcErrorInvalidConfiguration,
                          mcErrorInvalidDeviceFunction, mcErrorLaunchFailure,
                          mcErrorSyncDepthExceeded,
                          mcErrorLaunchPendingCountExceeded,
                          mcErrorLaunchMaxDepthExceeded, mcErrorNotSupported,
                          mcErrorUnsupportedLimit, mcErrorInvalidDevice),
        ::testing::Bool()));

// --- mcMalloc and mcFree in device code. ---

__global__ void UseTheHeap(size_t bytes, int* results) {
  void* p = nullptr;
  results[0] = mcMalloc(&p, bytes);
  if (results[0] != mcSuccess) return;
  memset(p, 0x3c, bytes);
  results[1] = static_cast<unsigned char*>(p)[bytes - 1];
  results[2] = __isGlobal(p);
  results[3] = mcFree(p);
}

class DeviceHeapTest : public ::testing::TestWithParam<size_t> {};

TEST_P(DeviceHeapTest, DeviceMallocAllocatesGlobalMemory) {
  MX_SPEC("api.devrt.api.device-malloc-uses-heap",
          "api.devrt.api.subset-of-host-api");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  DeviceArray<int> results(4);
  UseTheHeap<<<1, 1>>>(GetParam(), results.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(results.ToHost(),
            (std::vector<int>{mcSuccess, 0x3c, 1, mcSuccess}));
}

INSTANTIATE_TEST_SUITE_P(Bytes, DeviceHeapTest,
                         ::testing::Values(size_t{1}, size_t{16}, size_t{1000},
                                           size_t{65536}));

__global__ void ExhaustTheHeap(size_t heap_bytes, int* results) {
  void* p = reinterpret_cast<void*>(1);
  results[0] = mcMalloc(&p, heap_bytes + 1);
  results[1] = p == nullptr;
  results[2] = mcGetLastError();
  results[3] = mcFree(nullptr);
}

TEST(DeviceHeap, RequestBeyondTheHeapFailsWithMemoryAllocation) {
  MX_SPEC("api.devrt.api.device-malloc-uses-heap");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  size_t heap = 0;
  ASSERT_EQ(mcDeviceGetLimit(&heap, mcLimitMallocHeapSize), mcSuccess);
  DeviceArray<int> results(4);
  ExhaustTheHeap<<<1, 1>>>(heap, results.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(results.ToHost(),
            (std::vector<int>{mcErrorMemoryAllocation, 1,
                              mcErrorMemoryAllocation, mcSuccess}));
}

__global__ void ChildReads(const int* p, int* out) { *out = *p; }
__global__ void AllocateForChild(int* out) {
  int* p = nullptr;
  if (mcMalloc(reinterpret_cast<void**>(&p), sizeof(int)) != mcSuccess) return;
  *p = 2718;
  ChildReads<<<1, 1>>>(p, out);
  mcDeviceSynchronize();
  mcFree(p);
}

TEST(DeviceHeap, DeviceAllocationIsUsableByChildren) {
  MX_SPEC("api.devrt.api.device-malloc-uses-heap",
          "api.devrt.memory.global-and-constant-shared-with-children");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  DeviceArray<int> out(1);
  AllocateForChild<<<1, 1>>>(out.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(out.At(0), 2718);
}

// --- Limits, the device and its attributes. ---

__global__ void DeviceLimit(mcLimit_t limit, size_t* value, int* status) {
  *status = mcDeviceGetLimit(value, limit);
}

class DeviceLimitTest : public ::testing::TestWithParam<mcLimit_t> {};

TEST_P(DeviceLimitTest, DeviceReadsTheLimitTheHostReads) {
  MX_SPEC("api.devrt.launch.configuration-inherited-from-parent",
          "api.devrt.api.subset-of-host-api");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  size_t host = 0;
  ASSERT_EQ(mcDeviceGetLimit(&host, GetParam()), mcSuccess);
  DeviceArray<size_t> value(1);
  DeviceArray<int> status(1);
  DeviceLimit<<<1, 1>>>(GetParam(), value.get(), status.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(status.At(0), mcSuccess);
  EXPECT_EQ(value.At(0), host);
}

INSTANTIATE_TEST_SUITE_P(
    Limits, DeviceLimitTest,
    ::testing::Values(mcLimitStackSize, mcLimitPrintfFifoSize,
                      mcLimitMallocHeapSize, mcLimitDevRuntimeSyncDepth,
                      mcLimitDevRuntimePendingLaunchCount));

TEST(DeviceLimit, UnknownLimitIsUnsupportedInDeviceCode) {
  MX_SPEC("api.devrt.api.subset-of-host-api");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  DeviceArray<size_t> value(1);
  DeviceArray<int> status(1);
  DeviceLimit<<<1, 1>>>(static_cast<mcLimit_t>(0x7777), value.get(),
                        status.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(status.At(0), mcErrorUnsupportedLimit);
}

__global__ void WhichDevice(int* device) { mcGetDevice(device); }
__global__ void WhichDeviceInChild(int* parent, int* child) {
  mcGetDevice(parent);
  WhichDevice<<<1, 1>>>(child);
}

class CurrentDeviceTest : public ::testing::TestWithParam<int> {
 protected:
  void TearDown() override { mcSetDevice(0); }
};

TEST_P(CurrentDeviceTest, GridsAndChildrenRunOnTheLaunchingDevice) {
  MX_SPEC("api.devrt.api.device-queries-optional",
          "api.devrt.api.current-device-only");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", GetParam() + 1);
  ASSERT_EQ(mcSetDevice(GetParam()), mcSuccess);
  DeviceArray<int> parent(1);
  DeviceArray<int> child(1);
  mcMemset(parent.get(), 0xff, sizeof(int));
  mcMemset(child.get(), 0xff, sizeof(int));
  WhichDeviceInChild<<<1, 1>>>(parent.get(), child.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(parent.At(0), GetParam());
  EXPECT_EQ(child.At(0), GetParam());
}

INSTANTIATE_TEST_SUITE_P(Devices, CurrentDeviceTest, ::testing::Values(0, 1));

__global__ void DeviceAttribute(mcDeviceAttribute_t attribute, int device,
                                int* value, int* status) {
  *status = mcDeviceGetAttribute(value, attribute, device);
}

class DeviceAttributeTest
    : public ::testing::TestWithParam<mcDeviceAttribute_t> {};

TEST_P(DeviceAttributeTest, DeviceReadsTheAttributeTheHostReads) {
  MX_SPEC("api.devrt.api.device-queries-optional");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  int host = 0;
  ASSERT_EQ(mcDeviceGetAttribute(&host, GetParam(), 0), mcSuccess);
  DeviceArray<int> value(1);
  DeviceArray<int> status(1);
  DeviceAttribute<<<1, 1>>>(GetParam(), 0, value.get(), status.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(status.At(0), mcSuccess);
  EXPECT_EQ(value.At(0), host);
}

INSTANTIATE_TEST_SUITE_P(
    Attributes, DeviceAttributeTest,
    ::testing::Values(
        mcDeviceAttributeMaxThreadsPerBlock, mcDeviceAttributeMaxBlockDimX,
        mcDeviceAttributeMaxBlockDimY, mcDeviceAttributeMaxBlockDimZ,
        mcDeviceAttributeMaxGridDimX, mcDeviceAttributeMaxGridDimY,
        mcDeviceAttributeMaxGridDimZ, mcDeviceAttributeMaxSharedMemoryPerBlock,
        mcDeviceAttributeTotalConstantMemory, mcDeviceAttributeWarpSize,
        mcDeviceAttributeMaxPitch, mcDeviceAttributeMaxRegistersPerBlock,
        mcDeviceAttributeClockRate, mcDeviceAttributeTextureAlignment,
        mcDeviceAttributeMultiProcessorCount, mcDeviceAttributeIntegrated,
        mcDeviceAttributeCanMapHostMemory, mcDeviceAttributeComputeMode,
        mcDeviceAttributeMaxTexture1DWidth, mcDeviceAttributeSurfaceAlignment));

TEST(DeviceAttribute, InvalidDeviceIsRefusedInDeviceCode) {
  MX_SPEC("api.devrt.api.device-queries-optional");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  DeviceArray<int> value(1);
  DeviceArray<int> status(1);
  DeviceAttribute<<<1, 1>>>(mcDeviceAttributeWarpSize, 99, value.get(),
                            status.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(status.At(0), mcErrorInvalidDevice);
}

// --- A device runtime that draws nothing from the heap. ---

__global__ void LaunchChain(int depth, unsigned* count) {
  atomicAdd(count, 1u);
  if (depth > 0) LaunchChain<<<1, 2>>>(depth - 1, count);
}

TEST(DeviceRuntimeHeap, LaunchesDoNotConsumeTheDeviceHeap) {
  MX_SPEC("api.devrt.limit.heap-used-by-device-runtime");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  DeviceArray<unsigned> count(1);
  LaunchChain<<<1, 2>>>(6, count.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(count.At(0), 2u * ((2u << 6) - 1));
  // The reference takes no heap for launches: the whole heap is still
  // there for device malloc.
  size_t heap = 0;
  ASSERT_EQ(mcDeviceGetLimit(&heap, mcLimitMallocHeapSize), mcSuccess);
  DeviceArray<int> results(4);
  UseTheHeap<<<1, 1>>>(heap / 2, results.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(results.At(0), mcSuccess);
}

}  // namespace
