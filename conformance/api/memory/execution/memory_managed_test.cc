// Copyright mxcts authors.
//
// Conformance: results of managed memory (docs/spec/api-memory.md):
// allocation with both attach flags, the same address used by the host and
// by kernels of every device, prefetching to every location in stream
// order, every advice (which never changes a value), and what
// mcMemRangeGetAttribute reports afterwards.

#include <mc_runtime.h>

#include <cstdint>
#include <string>
#include <vector>

#include "conformance/api/testing/memory_testing.h"
#include "conformance/testing/spec.h"

namespace {

using mxcts::conformance::memory::ScopedDevice;

__device__ __managed__ int managed_counter = 5;

__global__ void AddIndex(int* values, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) values[i] += i;
}

class ManagedTest : public testing::Test {
 protected:
  void SetUp() override { MX_REQUIRE_CAPABILITY("managed_memory"); }
};

struct SharedCase {
  unsigned flags;
  int device;
  int count;
};

class ManagedShared : public testing::TestWithParam<SharedCase> {
 protected:
  void SetUp() override { MX_REQUIRE_CAPABILITY("managed_memory"); }
};

TEST_P(ManagedShared, HostAndKernelSeeTheSameValues) {
  MX_SPEC("api.memory.managed.allocates",
          "api.memory.managed.host-and-device-visible",
          "api.memory.managed.attach-global", "api.memory.managed.attach-host",
          "api.memory.managed.typed-overload", "api.memory.managed.alignment",
          "api.memory.managed.released-by-mcfree");
  const SharedCase& c = GetParam();
  if (c.device > 0) {
    MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
  }
  int* values = nullptr;
  ASSERT_EQ(mcMallocManaged(&values, c.count * sizeof(int), c.flags),
            mcSuccess);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(values) % 256, 0u);
  for (int i = 0; i < c.count; ++i) values[i] = 1000 * i;
  {
    ScopedDevice on(c.device);
    AddIndex<<<(c.count + 127) / 128, 128>>>(values, c.count);
    ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  }
  for (int i = 0; i < c.count; ++i) ASSERT_EQ(values[i], 1001 * i) << i;
  EXPECT_EQ(mcFree(values), mcSuccess);
}

std::vector<SharedCase> SharedCases() {
  std::vector<SharedCase> cases;
  for (unsigned flags :
       {unsigned{mcMemAttachGlobal}, unsigned{mcMemAttachHost}}) {
    for (int device : {0, 1}) {
      for (int count : {1, 1000, 5000}) cases.push_back({flags, device, count});
    }
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(
    AttachAndDevice, ManagedShared, testing::ValuesIn(SharedCases()),
    [](const testing::TestParamInfo<SharedCase>& info) {
      return std::string(info.param.flags == mcMemAttachGlobal ? "Global"
                                                               : "Host") +
             "_device" + std::to_string(info.param.device) + "_" +
             std::to_string(info.param.count);
    });

TEST_F(ManagedTest, DefaultFlagIsAttachGlobal) {
  MX_SPEC("api.memory.managed.allocates");
  float* values = nullptr;
  ASSERT_EQ(mcMallocManaged(&values, 16 * sizeof(float)), mcSuccess);
  mcPointerAttribute_t a;
  ASSERT_EQ(mcPointerGetAttributes(&a, values), mcSuccess);
  EXPECT_EQ(a.type, mcMemoryTypeManaged);
  ASSERT_EQ(mcFree(values), mcSuccess);
}

TEST_F(ManagedTest, ManagedVariableIsManagedMemory) {
  MX_SPEC("api.memory.pointer-attributes.managed-memory",
          "api.memory.prefetch.migrates-without-changing-values");
  mcPointerAttribute_t a;
  ASSERT_EQ(mcPointerGetAttributes(&a, &managed_counter), mcSuccess);
  EXPECT_EQ(a.type, mcMemoryTypeManaged);
  ASSERT_EQ(mcMemPrefetchAsync(&managed_counter, sizeof(int), 0), mcSuccess);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(managed_counter, 5);
}

TEST_F(ManagedTest, CopiesAndSetsOfManagedMemoryAfterSynchronizing) {
  MX_SPEC("api.memory.memcpy.managed-synchronization",
          "api.memory.managed.runtime-functions-accept");
  unsigned char* managed = nullptr;
  unsigned char* device = nullptr;
  ASSERT_EQ(mcMallocManaged(&managed, 256), mcSuccess);
  ASSERT_EQ(mcMalloc(&device, 256), mcSuccess);
  ASSERT_EQ(mcMemset(device, 0x6B, 256), mcSuccess);
  ASSERT_EQ(mcMemcpy(managed, device, 256, mcMemcpyDefault), mcSuccess);
  ASSERT_EQ(mcMemset(managed + 128, 0x11, 128), mcSuccess);
  // The portable program synchronizes before the host reads.
  ASSERT_EQ(mcStreamSynchronize(0), mcSuccess);
  for (int i = 0; i < 128; ++i) ASSERT_EQ(managed[i], 0x6B) << i;
  for (int i = 128; i < 256; ++i) ASSERT_EQ(managed[i], 0x11) << i;
  ASSERT_EQ(mcFree(device), mcSuccess);
  ASSERT_EQ(mcFree(managed), mcSuccess);
}

// --- Prefetching. ---

struct PrefetchCase {
  int location;  // a device or mcCpuDeviceId
  bool own_stream;
  size_t offset;  // of the prefetched range, in ints
  size_t count;   // ints prefetched
};

class Prefetch : public testing::TestWithParam<PrefetchCase> {
 protected:
  void SetUp() override { MX_REQUIRE_CAPABILITY("managed_memory"); }
};

TEST_P(Prefetch, KeepsValuesAndIsStreamOrdered) {
  MX_SPEC("api.memory.prefetch.migrates-without-changing-values",
          "api.memory.prefetch.stream-ordered",
          "api.memory.range-attribute.last-prefetch-location");
  const PrefetchCase& c = GetParam();
  if (c.location > 0) {
    MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
  }
  const int n = 3000;
  int* values = nullptr;
  ASSERT_EQ(mcMallocManaged(&values, n * sizeof(int)), mcSuccess);
  for (int i = 0; i < n; ++i) values[i] = 7 * i;
  mcStream_t stream = nullptr;
  if (c.own_stream) {
    ASSERT_EQ(mcStreamCreate(&stream), mcSuccess);
  }
  // Kernel, prefetch and kernel in one stream: each sees the one before.
  AddIndex<<<(n + 255) / 256, 256, 0, stream>>>(values, n);
  ASSERT_EQ(mcMemPrefetchAsync(values + c.offset, c.count * sizeof(int),
                               c.location, stream),
            mcSuccess);
  int location = 12345;
  ASSERT_EQ(mcMemRangeGetAttribute(&location, sizeof(location),
                                   mcMemRangeAttributeLastPrefetchLocation,
                                   values + c.offset, c.count * sizeof(int)),
            mcSuccess);
  EXPECT_EQ(location, c.location);
  AddIndex<<<(n + 255) / 256, 256, 0, stream>>>(values, n);
  ASSERT_EQ(mcStreamSynchronize(stream), mcSuccess);
  for (int i = 0; i < n; ++i) ASSERT_EQ(values[i], 9 * i) << i;
  if (c.own_stream) {
    ASSERT_EQ(mcStreamDestroy(stream), mcSuccess);
  }
  ASSERT_EQ(mcFree(values), mcSuccess);
}

std::vector<PrefetchCase> PrefetchCases() {
  std::vector<PrefetchCase> cases;
  for (int location : {0, 1, mcCpuDeviceId}) {
    for (bool own_stream : {false, true}) {
      cases.push_back({location, own_stream, 0, 3000});
      cases.push_back({location, own_stream, 17, 1});
      cases.push_back({location, own_stream, 1024, 1024});
    }
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(
    EveryLocation, Prefetch, testing::ValuesIn(PrefetchCases()),
    [](const testing::TestParamInfo<PrefetchCase>& info) {
      const PrefetchCase& c = info.param;
      return (c.location < 0 ? std::string("Cpu")
                             : "Device" + std::to_string(c.location)) +
             (c.own_stream ? "_Stream" : "_DefaultStream") + "_" +
             std::to_string(c.offset) + "_" + std::to_string(c.count);
    });

// --- Advice. ---

struct AdviceCase {
  mcMemoryAdvise advice;
  int device;
  size_t offset;  // bytes
  size_t count;   // bytes
};

std::string AdviceName(const testing::TestParamInfo<AdviceCase>& info) {
  const AdviceCase& c = info.param;
  return "advice" + std::to_string(static_cast<int>(c.advice)) + "_" +
         (c.device < 0 ? std::string("Cpu")
                       : "Device" + std::to_string(c.device)) +
         "_at" + std::to_string(c.offset) + "_" + std::to_string(c.count);
}

class Advice : public testing::TestWithParam<AdviceCase> {
 protected:
  void SetUp() override { MX_REQUIRE_CAPABILITY("managed_memory"); }
};

TEST_P(Advice, ChangesNoValue) {
  MX_SPEC("api.memory.advise.advice-values",
          "api.memory.advise.does-not-change-values");
  const AdviceCase& c = GetParam();
  if (c.device > 0) {
    MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
  }
  const int n = 3 * 1024;
  int* values = nullptr;
  ASSERT_EQ(mcMallocManaged(&values, n * sizeof(int)), mcSuccess);
  for (int i = 0; i < n; ++i) values[i] = -i;
  char* bytes = reinterpret_cast<char*>(values);
  ASSERT_EQ(mcMemAdvise(bytes + c.offset, c.count, c.advice, c.device),
            mcSuccess);
  for (int i = 0; i < n; ++i) ASSERT_EQ(values[i], -i) << i;
  AddIndex<<<n / 256, 256>>>(values, n);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (int i = 0; i < n; ++i) ASSERT_EQ(values[i], 0) << i;
  ASSERT_EQ(mcFree(values), mcSuccess);
}

std::vector<AdviceCase> AdviceCases() {
  std::vector<AdviceCase> cases;
  const std::vector<std::pair<size_t, size_t>> ranges = {
      {0, 3 * 4096}, {7, 1}, {4096, 4096}};
  auto add = [&](mcMemoryAdvise advice, int device) {
    for (const auto& [offset, count] : ranges) {
      cases.push_back({advice, device, offset, count});
    }
  };
  add(mcMemAdviseSetReadMostly, 0);
  add(mcMemAdviseUnsetReadMostly, 0);
  add(mcMemAdviseUnsetPreferredLocation, 0);
  add(mcMemAdviseSetCoarseGrain, 0);
  add(mcMemAdviseUnsetCoarseGrain, 0);
  for (int device : {0, 1, mcCpuDeviceId}) {
    add(mcMemAdviseSetPreferredLocation, device);
    add(mcMemAdviseSetAccessedBy, device);
    add(mcMemAdviseUnsetAccessedBy, device);
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(EveryAdvice, Advice, testing::ValuesIn(AdviceCases()),
                         AdviceName);

// Queries over a 3-page allocation after advice on its middle page.
// The single-int attribute of the `count` bytes at `p`.
int RangeAttribute(mcMemRangeAttribute attribute, const char* p, size_t count) {
  int value = 12345;
  EXPECT_EQ(mcMemRangeGetAttribute(&value, sizeof(value), attribute, p, count),
            mcSuccess);
  return value;
}

class AdviceQuery : public testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY("managed_memory");
    if (GetParam() > 0) {
      MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
    }
    ASSERT_EQ(mcMallocManaged(&base_, 3 * kPage), mcSuccess);
  }
  void TearDown() override {
    if (base_ != nullptr) {
      EXPECT_EQ(mcFree(base_), mcSuccess);
    }
  }
  int Query(mcMemRangeAttribute attribute, size_t offset, size_t count) {
    return RangeAttribute(attribute, base_ + offset, count);
  }

  static constexpr size_t kPage = 4096;
  char* base_ = nullptr;
};

TEST_P(AdviceQuery, PreferredLocation) {
  MX_SPEC("api.memory.advise.preferred-location-queryable",
          "api.memory.range-attribute.values");
  const int location = GetParam();
  EXPECT_EQ(Query(mcMemRangeAttributePreferredLocation, 0, 3 * kPage),
            mcInvalidDeviceId);
  ASSERT_EQ(mcMemAdvise(base_ + kPage, kPage, mcMemAdviseSetPreferredLocation,
                        location),
            mcSuccess);
  EXPECT_EQ(Query(mcMemRangeAttributePreferredLocation, kPage, kPage),
            location);
  EXPECT_EQ(Query(mcMemRangeAttributePreferredLocation, kPage + 100, 1),
            location);
  // A range that also covers unadvised bytes has no single location.
  EXPECT_EQ(Query(mcMemRangeAttributePreferredLocation, kPage - 1, 2),
            mcInvalidDeviceId);
  ASSERT_EQ(mcMemAdvise(base_ + kPage, kPage, mcMemAdviseUnsetPreferredLocation,
                        location),
            mcSuccess);
  EXPECT_EQ(Query(mcMemRangeAttributePreferredLocation, kPage, kPage),
            mcInvalidDeviceId);
}

TEST_P(AdviceQuery, AccessedBy) {
  MX_SPEC("api.memory.advise.accessed-by-queryable",
          "api.memory.range-attribute.values");
  const int location = GetParam();
  ASSERT_EQ(
      mcMemAdvise(base_ + kPage, kPage, mcMemAdviseSetAccessedBy, location),
      mcSuccess);
  int list[4] = {7, 7, 7, 7};
  ASSERT_EQ(
      mcMemRangeGetAttribute(list, sizeof(list), mcMemRangeAttributeAccessedBy,
                             base_ + kPage, kPage),
      mcSuccess);
  EXPECT_EQ(list[0], location);
  EXPECT_EQ(list[1], mcInvalidDeviceId);
  EXPECT_EQ(list[3], mcInvalidDeviceId);
  ASSERT_EQ(
      mcMemRangeGetAttribute(list, sizeof(list), mcMemRangeAttributeAccessedBy,
                             base_, 3 * kPage),
      mcSuccess);
  EXPECT_EQ(list[0], mcInvalidDeviceId);  // not set for every byte
  ASSERT_EQ(
      mcMemAdvise(base_ + kPage, kPage, mcMemAdviseUnsetAccessedBy, location),
      mcSuccess);
  ASSERT_EQ(
      mcMemRangeGetAttribute(list, sizeof(int), mcMemRangeAttributeAccessedBy,
                             base_ + kPage, kPage),
      mcSuccess);
  EXPECT_EQ(list[0], mcInvalidDeviceId);
}

TEST_P(AdviceQuery, LastPrefetchLocation) {
  MX_SPEC("api.memory.range-attribute.last-prefetch-location",
          "api.memory.range-attribute.values");
  const int location = GetParam();
  EXPECT_EQ(Query(mcMemRangeAttributeLastPrefetchLocation, 0, kPage),
            mcInvalidDeviceId);
  ASSERT_EQ(mcMemPrefetchAsync(base_, 2 * kPage, location), mcSuccess);
  EXPECT_EQ(Query(mcMemRangeAttributeLastPrefetchLocation, 0, 2 * kPage),
            location);
  EXPECT_EQ(Query(mcMemRangeAttributeLastPrefetchLocation, kPage, 2 * kPage),
            mcInvalidDeviceId);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(Locations, AdviceQuery,
                         testing::Values(0, 1, mcCpuDeviceId),
                         [](const testing::TestParamInfo<int>& info) {
                           return info.param < 0
                                      ? std::string("Cpu")
                                      : "Device" + std::to_string(info.param);
                         });

TEST_F(ManagedTest, ReadMostlyIsQueryable) {
  MX_SPEC("api.memory.advise.read-mostly-queryable",
          "api.memory.range-attribute.values");
  char* base = nullptr;
  ASSERT_EQ(mcMallocManaged(&base, 8192), mcSuccess);
  EXPECT_EQ(RangeAttribute(mcMemRangeAttributeReadMostly, base, 8192), 0);
  ASSERT_EQ(mcMemAdvise(base, 4096, mcMemAdviseSetReadMostly, 0), mcSuccess);
  EXPECT_EQ(RangeAttribute(mcMemRangeAttributeReadMostly, base, 4096), 1);
  EXPECT_EQ(RangeAttribute(mcMemRangeAttributeReadMostly, base, 8192), 0);
  ASSERT_EQ(mcMemAdvise(base, 4096, mcMemAdviseUnsetReadMostly, 0), mcSuccess);
  EXPECT_EQ(RangeAttribute(mcMemRangeAttributeReadMostly, base, 4096), 0);
  ASSERT_EQ(mcFree(base), mcSuccess);
}

TEST_F(ManagedTest, EnumeratorValues) {
  MX_SPEC("api.memory.advise.advice-values",
          "api.memory.range-attribute.values");
  EXPECT_EQ(mcMemAdviseSetReadMostly, 1);
  EXPECT_EQ(mcMemAdviseUnsetReadMostly, 2);
  EXPECT_EQ(mcMemAdviseSetPreferredLocation, 3);
  EXPECT_EQ(mcMemAdviseUnsetPreferredLocation, 4);
  EXPECT_EQ(mcMemAdviseSetAccessedBy, 5);
  EXPECT_EQ(mcMemAdviseUnsetAccessedBy, 6);
  EXPECT_EQ(mcMemRangeAttributeReadMostly, 1);
  EXPECT_EQ(mcMemRangeAttributePreferredLocation, 2);
  EXPECT_EQ(mcMemRangeAttributeAccessedBy, 3);
  EXPECT_EQ(mcMemRangeAttributeLastPrefetchLocation, 4);
  EXPECT_EQ(mcCpuDeviceId, -1);
  EXPECT_EQ(mcInvalidDeviceId, -2);
}

}  // namespace
