// Copyright mxcts authors.
//
// Conformance: results of page-locked host memory (docs/spec/api-memory.md):
// mcMallocHost in both forms and mcHostAlloc with every flag combination,
// mcHostGetFlags, kernels of every device using the memory, asynchronous
// copies with it, and mcHostRegister with every flag, which keeps the
// contents and makes the range page-locked until mcHostUnregister.

#include <mc_runtime.h>

#include <cstring>
#include <string>
#include <vector>

#include "conformance/api/testing/memory_testing.h"
#include "conformance/testing/spec.h"

namespace {

using mxcts::conformance::memory::ScopedDevice;

__global__ void Square(int* values, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) values[i] *= values[i];
}

__global__ void SumInto(const int* values, int n, int* sum) {
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    int total = 0;
    for (int i = 0; i < n; ++i) total += values[i];
    *sum = total;
  }
}

enum class Allocator { kTwoArgument, kThreeArgument, kHostAlloc };

struct AllocCase {
  Allocator allocator;
  unsigned flags;
  int device;  // the device whose kernel uses the memory
};

class PageLocked : public testing::TestWithParam<AllocCase> {};

TEST_P(PageLocked, HoldsValuesAndServesKernels) {
  MX_SPEC("api.memory.malloc-host.allocates-page-locked",
          "api.memory.malloc-host.two-argument-form-default-flags",
          "api.memory.malloc-host.typed-overload",
          "api.memory.malloc-host.flags-combinable",
          "api.memory.malloc-host.device-accessible",
          "api.memory.malloc-host.write-combined",
          "api.memory.malloc-host.portable", "api.memory.malloc-host.mapped",
          "api.memory.host-alloc.same-as-malloc-host",
          "api.memory.host-get-flags.returns-allocation-flags",
          "api.memory.free-host.releases");
  const AllocCase& c = GetParam();
  if (c.device > 0) {
    MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
  }
  const int n = 333;
  int* values = nullptr;
  switch (c.allocator) {
    case Allocator::kTwoArgument:
      ASSERT_EQ(mcMallocHost(&values, n * sizeof(int)), mcSuccess);
      break;
    case Allocator::kThreeArgument:
      ASSERT_EQ(mcMallocHost(&values, n * sizeof(int), c.flags), mcSuccess);
      break;
    case Allocator::kHostAlloc:
      ASSERT_EQ(mcHostAlloc(&values, n * sizeof(int), c.flags), mcSuccess);
      break;
  }
  ASSERT_NE(values, nullptr);
  unsigned int flags = 99;
  ASSERT_EQ(mcHostGetFlags(&flags, values + n - 1), mcSuccess);
  EXPECT_EQ(flags, c.allocator == Allocator::kTwoArgument ? mcMallocHostDefault
                                                          : c.flags);
  for (int i = 0; i < n; ++i) values[i] = i - 100;
  {
    ScopedDevice on(c.device);
    Square<<<(n + 63) / 64, 64>>>(values, n);
    ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  }
  for (int i = 0; i < n; ++i) ASSERT_EQ(values[i], (i - 100) * (i - 100)) << i;
  EXPECT_EQ(mcFreeHost(values), mcSuccess);
}

std::vector<AllocCase> AllocCases() {
  std::vector<AllocCase> cases;
  for (int device : {0, 1}) {
    cases.push_back({Allocator::kTwoArgument, 0, device});
    for (unsigned flags = 0; flags < 8; ++flags) {
      cases.push_back({Allocator::kThreeArgument, flags, device});
      cases.push_back({Allocator::kHostAlloc, flags, device});
    }
  }
  return cases;
}

std::string AllocCaseName(const testing::TestParamInfo<AllocCase>& info) {
  static const char* const kNames[] = {"MallocHost2", "MallocHost3",
                                       "HostAlloc"};
  return std::string(kNames[static_cast<int>(info.param.allocator)]) +
         "_flags" + std::to_string(info.param.flags) + "_device" +
         std::to_string(info.param.device);
}

INSTANTIATE_TEST_SUITE_P(EveryFlag, PageLocked, testing::ValuesIn(AllocCases()),
                         AllocCaseName);

TEST(PageLocked, HostAllocFlagsAreTheMallocHostFlags) {
  MX_SPEC("api.memory.host-alloc.same-as-malloc-host");
  EXPECT_EQ(mcHostAllocDefault, mcMallocHostDefault);
  EXPECT_EQ(mcHostAllocPortable, mcMallocHostPortable);
  EXPECT_EQ(mcHostAllocMapped, mcMallocHostMapped);
  EXPECT_EQ(mcHostAllocWriteCombined, mcMallocHostWriteCombined);
}

TEST(PageLocked, SizeZeroIsNullAndFreeHostOfNullIsANoOp) {
  MX_SPEC("api.memory.malloc-host.size-zero",
          "api.memory.free-host.null-is-noop");
  void* p = &p;
  const mcError_t result = mcMallocHost(&p, 0);
  // Implementation-defined: success with NULL, or mcErrorInvalidValue.
  EXPECT_TRUE((result == mcSuccess && p == nullptr) ||
              result == mcErrorInvalidValue);
  EXPECT_EQ(mcFreeHost(nullptr), mcSuccess);
}

TEST(PageLocked, PortableMemoryIsPageLockedForEveryDevice) {
  MX_SPEC("api.memory.malloc-host.portable",
          "api.memory.memcpy-async.returns-before-completion");
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
  int* host = nullptr;
  ASSERT_EQ(mcMallocHost(&host, 64 * sizeof(int), mcMallocHostPortable),
            mcSuccess);
  for (int i = 0; i < 64; ++i) host[i] = 3 * i;
  ScopedDevice one(1);
  int* device = nullptr;
  ASSERT_EQ(mcMalloc(&device, 64 * sizeof(int)), mcSuccess);
  mcStream_t stream = nullptr;
  ASSERT_EQ(mcStreamCreate(&stream), mcSuccess);
  ASSERT_EQ(mcMemcpyAsync(device, host, 64 * sizeof(int), mcMemcpyHostToDevice,
                          stream),
            mcSuccess);
  ASSERT_EQ(mcMemsetAsync(host, 0, 64 * sizeof(int), stream), mcSuccess);
  ASSERT_EQ(mcMemcpyAsync(host, device, 32 * sizeof(int), mcMemcpyDeviceToHost,
                          stream),
            mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream), mcSuccess);
  for (int i = 0; i < 32; ++i) ASSERT_EQ(host[i], 3 * i);
  for (int i = 32; i < 64; ++i) ASSERT_EQ(host[i], 0);
  ASSERT_EQ(mcStreamDestroy(stream), mcSuccess);
  ASSERT_EQ(mcFree(device), mcSuccess);
  ASSERT_EQ(mcFreeHost(host), mcSuccess);
}

TEST(PageLocked, FreeHostWaitsForKernelsUsingIt) {
  MX_SPEC("api.memory.free-host.implicit-synchronization");
  int* host = nullptr;
  int* sum = nullptr;
  ASSERT_EQ(mcMallocHost(&host, 100 * sizeof(int)), mcSuccess);
  ASSERT_EQ(mcMallocHost(&sum, sizeof(int)), mcSuccess);
  for (int i = 0; i < 100; ++i) host[i] = i;
  *sum = -1;
  SumInto<<<1, 1>>>(host, 100, sum);
  ASSERT_EQ(mcFreeHost(host), mcSuccess);  // the kernel has run by now
  EXPECT_EQ(*sum, 4950);
  ASSERT_EQ(mcFreeHost(sum), mcSuccess);
}

// --- mcHostRegister. ---

struct RegisterCase {
  unsigned flags;
  size_t bytes;
  size_t offset;  // where the range starts in its heap block
};

class Register : public testing::TestWithParam<RegisterCase> {};

TEST_P(Register, KeepsContentsAndServesCopiesAndKernels) {
  MX_SPEC("api.memory.host-register.pins-range",
          "api.memory.host-register.flags",
          "api.memory.host-register.device-access",
          "api.memory.host-unregister.unpins-range");
  const RegisterCase& c = GetParam();
  std::vector<unsigned char> block(c.offset + c.bytes + 16);
  for (size_t i = 0; i < block.size(); ++i) {
    block[i] = static_cast<unsigned char>(i * 7);
  }
  const std::vector<unsigned char> before = block;
  unsigned char* range = block.data() + c.offset;
  ASSERT_EQ(mcHostRegister(range, c.bytes, c.flags), mcSuccess);
  EXPECT_EQ(block, before);  // registering changes no byte
  // Copies to and from the range, in a stream.
  unsigned char* device = nullptr;
  ASSERT_EQ(mcMalloc(&device, c.bytes), mcSuccess);
  mcStream_t stream = nullptr;
  ASSERT_EQ(mcStreamCreate(&stream), mcSuccess);
  ASSERT_EQ(mcMemcpyAsync(device, range, c.bytes, mcMemcpyHostToDevice, stream),
            mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream), mcSuccess);
  if ((c.flags & mcHostRegisterReadOnly) == 0) {
    ASSERT_EQ(mcMemsetAsync(device, 0xEE, 1, stream), mcSuccess);
    ASSERT_EQ(
        mcMemcpyAsync(range, device, c.bytes, mcMemcpyDeviceToHost, stream),
        mcSuccess);
    ASSERT_EQ(mcStreamSynchronize(stream), mcSuccess);
    EXPECT_EQ(range[0], 0xEE);
    range[0] = before[c.offset];
  }
  ASSERT_EQ(mcStreamDestroy(stream), mcSuccess);
  void* mapped = nullptr;
  ASSERT_EQ(mcHostGetDevicePointer(&mapped, range, 0), mcSuccess);
  EXPECT_EQ(mapped, range);
  EXPECT_EQ(block, before);
  ASSERT_EQ(mcFree(device), mcSuccess);
  ASSERT_EQ(mcHostUnregister(range), mcSuccess);
  EXPECT_EQ(block, before);  // unregistering changes no byte
}

std::vector<RegisterCase> RegisterCases() {
  std::vector<RegisterCase> cases;
  for (unsigned flags :
       {unsigned{mcHostRegisterDefault}, unsigned{mcHostRegisterPortable},
        unsigned{mcHostRegisterMapped},
        unsigned{mcHostRegisterPortable | mcHostRegisterMapped},
        unsigned{mcHostRegisterReadOnly}}) {
    for (size_t bytes : {size_t{1}, size_t{100}, size_t{8192}}) {
      for (size_t offset : {size_t{0}, size_t{3}}) {
        cases.push_back({flags, bytes, offset});
      }
    }
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(EveryFlag, Register,
                         testing::ValuesIn(RegisterCases()),
                         [](const testing::TestParamInfo<RegisterCase>& info) {
                           return "flags" + std::to_string(info.param.flags) +
                                  "_" + std::to_string(info.param.bytes) +
                                  "bytes_at" +
                                  std::to_string(info.param.offset);
                         });

TEST(Register, KernelUsesRegisteredMemory) {
  MX_SPEC("api.memory.host-register.device-access");
  std::vector<int> values(200);
  for (int i = 0; i < 200; ++i) values[i] = i;
  ASSERT_EQ(mcHostRegister(values.data(), values.size() * sizeof(int),
                           mcHostRegisterMapped),
            mcSuccess);
  int* device_view = nullptr;
  ASSERT_EQ(mcHostGetDevicePointer(&device_view, values.data(), 0), mcSuccess);
  Square<<<4, 64>>>(device_view, 200);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (int i = 0; i < 200; ++i) ASSERT_EQ(values[i], i * i);
  ASSERT_EQ(mcHostUnregister(values.data()), mcSuccess);
}

TEST(Register, UnregisterWaitsForWorkUsingTheRange) {
  MX_SPEC("api.memory.host-unregister.waits-for-device-work");
  std::vector<int> values(64, 5);
  ASSERT_EQ(mcHostRegister(values.data(), values.size() * sizeof(int), 0),
            mcSuccess);
  Square<<<1, 64>>>(values.data(), 64);
  ASSERT_EQ(mcHostUnregister(values.data()), mcSuccess);
  for (int value : values) ASSERT_EQ(value, 25);
}

}  // namespace
