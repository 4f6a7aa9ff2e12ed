// Copyright mxcts authors.
//
// Conformance: results of device allocation (docs/spec/api-memory.md):
// mcMalloc of many sizes on every device, aligned, usable by kernels and
// through every typed form; mcFree from any current device; mcMemGetInfo;
// and mcMalloc as the program's first runtime call.

#include <mc_runtime.h>

#include <cstdint>
#include <string>
#include <vector>

#include "conformance/api/testing/memory_testing.h"
#include "conformance/testing/fresh_process.h"
#include "conformance/testing/spec.h"

namespace {

using mxcts::conformance::memory::ScopedDevice;

__global__ void FillBytes(unsigned char* bytes, size_t n, unsigned char base) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x) {
    bytes[i] = static_cast<unsigned char>(base + i);
  }
}

struct MallocCase {
  size_t size;
  int device;
};

class Malloc : public testing::TestWithParam<MallocCase> {};

TEST_P(Malloc, AllocatesAlignedUsableMemoryOnTheCurrentDevice) {
  MX_SPEC("api.memory.malloc.allocates-on-current-device",
          "api.memory.malloc.alignment-256",
          "api.memory.malloc.distinct-live-allocations",
          "api.memory.free.releases-allocation");
  const MallocCase& c = GetParam();
  if (c.device > 0) {
    MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
  }
  ScopedDevice on(c.device);
  unsigned char* first = nullptr;
  unsigned char* second = nullptr;
  ASSERT_EQ(mcMalloc(&first, c.size), mcSuccess);
  ASSERT_EQ(mcMalloc(&second, c.size), mcSuccess);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(first) % 256, 0u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(second) % 256, 0u);
  const uintptr_t a = reinterpret_cast<uintptr_t>(first);
  const uintptr_t b = reinterpret_cast<uintptr_t>(second);
  EXPECT_TRUE(a + c.size <= b || b + c.size <= a);
  mcPointerAttribute_t attributes;
  ASSERT_EQ(mcPointerGetAttributes(&attributes, first + c.size - 1), mcSuccess);
  EXPECT_EQ(attributes.device, c.device);
  FillBytes<<<8, 64>>>(first, c.size, 1);
  FillBytes<<<8, 64>>>(second, c.size, 2);
  std::vector<unsigned char> back(c.size);
  ASSERT_EQ(mcMemcpy(back.data(), first, c.size, mcMemcpyDeviceToHost),
            mcSuccess);
  for (size_t i = 0; i < c.size; ++i) {
    ASSERT_EQ(back[i], static_cast<unsigned char>(1 + i)) << i;
  }
  ASSERT_EQ(mcMemcpy(back.data(), second, c.size, mcMemcpyDeviceToHost),
            mcSuccess);
  for (size_t i = 0; i < c.size; ++i) {
    ASSERT_EQ(back[i], static_cast<unsigned char>(2 + i)) << i;
  }
  EXPECT_EQ(mcFree(first), mcSuccess);
  EXPECT_EQ(mcFree(second), mcSuccess);
}

std::vector<MallocCase> MallocCases() {
  std::vector<MallocCase> cases;
  for (int device : {0, 1}) {
    for (size_t size :
         {size_t{1}, size_t{3}, size_t{255}, size_t{256}, size_t{257},
          size_t{4095}, size_t{4096}, size_t{4097}, size_t{1} << 20}) {
      cases.push_back({size, device});
    }
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Sizes, Malloc, testing::ValuesIn(MallocCases()),
                         [](const testing::TestParamInfo<MallocCase>& info) {
                           return std::to_string(info.param.size) + "_device" +
                                  std::to_string(info.param.device);
                         });

struct Pair {
  double x;
  int y;
};

TEST(MallocForms, TypedAndDriverStylePointers) {
  MX_SPEC("api.memory.malloc.typed-overload",
          "api.memory.malloc.deviceptr-form");
  float* f = nullptr;
  double* d = nullptr;
  Pair* p = nullptr;
  mcDeviceptr_t raw = nullptr;
  void* v = nullptr;
  ASSERT_EQ(mcMalloc(&f, 4 * sizeof(float)), mcSuccess);
  ASSERT_EQ(mcMalloc(&d, 4 * sizeof(double)), mcSuccess);
  ASSERT_EQ(mcMalloc(&p, 4 * sizeof(Pair)), mcSuccess);
  ASSERT_EQ(mcMalloc(&raw, 64), mcSuccess);
  ASSERT_EQ(mcMalloc(&v, 64), mcSuccess);
  const int in[4] = {1, 2, 3, 4};
  ASSERT_EQ(mcMemcpyHtoD(raw, in, sizeof(in)), mcSuccess);
  int out[4] = {};
  ASSERT_EQ(mcMemcpy(out, reinterpret_cast<int*>(raw), sizeof(out),
                     mcMemcpyDeviceToHost),
            mcSuccess);
  EXPECT_EQ(out[3], 4);
  for (void* pointer : {static_cast<void*>(f), static_cast<void*>(d),
                        static_cast<void*>(p), raw, v}) {
    EXPECT_EQ(mcFree(pointer), mcSuccess);
  }
}

TEST(MallocForms, SizeZeroGivesNullAndFreeOfNullIsANoOp) {
  MX_SPEC("api.memory.malloc.size-zero", "api.memory.free.null-is-noop");
  int* p = reinterpret_cast<int*>(uintptr_t{0x100});
  ASSERT_EQ(mcMalloc(&p, 0), mcSuccess);
  EXPECT_EQ(p, nullptr);
  EXPECT_EQ(mcFree(p), mcSuccess);
  EXPECT_EQ(mcFree(nullptr), mcSuccess);
}

// The first runtime call of a process allocates on device 0.
std::string FirstCallAllocatesOnDeviceZero() {
  void* p = nullptr;
  if (mcMalloc(&p, 64) != mcSuccess) return "mcMalloc failed";
  mcPointerAttribute_t a;
  if (mcPointerGetAttributes(&a, p) != mcSuccess) return "attributes failed";
  if (a.device != 0) return "allocated on device " + std::to_string(a.device);
  if (mcFree(p) != mcSuccess) return "mcFree failed";
  return "";
}

TEST(MallocForms, DefaultDeviceIsZero) {
  MX_SPEC("api.memory.malloc.default-device-zero",
          "api.memory.malloc.implicit-initialization");
  MX_EXPECT_IN_FRESH_PROCESS(FirstCallAllocatesOnDeviceZero());
}

class FreeElsewhere : public testing::TestWithParam<int> {};

TEST_P(FreeElsewhere, FreeWorksWhicheverDeviceIsCurrent) {
  MX_SPEC("api.memory.free.any-current-device");
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
  const int owner = GetParam();
  void* p = nullptr;
  {
    ScopedDevice on(owner);
    ASSERT_EQ(mcMalloc(&p, 128), mcSuccess);
  }
  ScopedDevice other(1 - owner);
  EXPECT_EQ(mcFree(p), mcSuccess);
  mcPointerAttribute_t a;
  ASSERT_EQ(mcPointerGetAttributes(&a, p), mcSuccess);
  EXPECT_EQ(a.type, mcMemoryTypeUnregistered);
}

INSTANTIATE_TEST_SUITE_P(Owners, FreeElsewhere, testing::Values(0, 1));

TEST(FreeOrdering, FreeWaitsForKernelsOnTheDevice) {
  MX_SPEC("api.sync.host.free-synchronizes");
  unsigned char* scratch = nullptr;
  unsigned char* result = nullptr;
  ASSERT_EQ(mcMalloc(&scratch, 4096), mcSuccess);
  ASSERT_EQ(mcMallocHost(&result, 4096), mcSuccess);
  FillBytes<<<4, 64>>>(scratch, 4096, 9);
  ASSERT_EQ(mcMemcpyAsync(result, scratch, 4096, mcMemcpyDeviceToHost),
            mcSuccess);
  ASSERT_EQ(mcFree(scratch), mcSuccess);  // the kernel and the copy ran
  for (size_t i = 0; i < 4096; ++i) {
    ASSERT_EQ(result[i], static_cast<unsigned char>(9 + i)) << i;
  }
  ASSERT_EQ(mcFreeHost(result), mcSuccess);
}

// --- mcMemGetInfo. ---

class MemGetInfo : public testing::TestWithParam<int> {};

TEST_P(MemGetInfo, ReportsTheCurrentDevice) {
  MX_SPEC("api.memory.get-info.free-not-above-total",
          "api.memory.get-info.total-is-device-memory",
          "api.memory.get-info.allocation-reduces-free");
  if (GetParam() > 0) {
    MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
  }
  ScopedDevice on(GetParam());
  size_t free_before = 0, total = 0;
  ASSERT_EQ(mcMemGetInfo(&free_before, &total), mcSuccess);
  EXPECT_LE(free_before, total);
  mcDeviceProp_t prop;
  ASSERT_EQ(mcGetDeviceProperties(&prop, GetParam()), mcSuccess);
  EXPECT_EQ(total, prop.totalGlobalMem);
  const size_t n = size_t{64} << 20;
  void* p = nullptr;
  ASSERT_EQ(mcMalloc(&p, n), mcSuccess);
  size_t free_after = 0;
  ASSERT_EQ(mcMemGetInfo(&free_after, &total), mcSuccess);
  EXPECT_LE(free_after, free_before - n);
  ASSERT_EQ(mcFree(p), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(Devices, MemGetInfo, testing::Values(0, 1));

}  // namespace
