// Copyright mxcts authors.
//
// Conformance: a stream-ordered allocation exists for the work ordered
// after its mcMallocAsync and until its mcFreeAsync is reached
// (docs/spec/api-memory-pools.md, "Allocating in stream order", "Freeing
// in stream order"), for every kind of stream on every device and for
// sizes from one byte to several pages. Holds in every timeline mode.

#include <mc_runtime.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "conformance/api/testing/pool_testing.h"
#include "conformance/api/testing/scoped_device.h"
#include "conformance/api/testing/stream_kind.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

__global__ void FillBytes(unsigned char* p, size_t n, unsigned char seed) {
  size_t i = blockIdx.x * blockDim.x + threadIdx.x;
  for (; i < n; i += gridDim.x * blockDim.x) {
    p[i] = static_cast<unsigned char>(seed + i * 7);
  }
}

__global__ void CopyBytes(unsigned char* to, const unsigned char* from,
                          size_t n) {
  size_t i = blockIdx.x * blockDim.x + threadIdx.x;
  for (; i < n; i += gridDim.x * blockDim.x) to[i] = from[i];
}

bool HasPattern(const std::vector<unsigned char>& bytes, unsigned char seed) {
  for (size_t i = 0; i < bytes.size(); ++i) {
    if (bytes[i] != static_cast<unsigned char>(seed + i * 7)) return false;
  }
  return true;
}

constexpr size_t kSizes[] = {1, 255, 4096, 3 * 4096 + 17, size_t{1} << 20};

using Param = std::tuple<int, StreamKind, size_t>;

std::vector<Param> Params() {
  std::vector<Param> params;
  for (int device = 0; device < DeviceCount(); ++device) {
    for (StreamKind kind : kAllStreamKinds) {
      for (size_t size : kSizes) params.emplace_back(device, kind, size);
    }
  }
  return params;
}

std::string ParamName(const testing::TestParamInfo<Param>& info) {
  return "Device" + std::to_string(std::get<0>(info.param)) +
         StreamKindName(std::get<1>(info.param)) + "Bytes" +
         std::to_string(std::get<2>(info.param));
}

class StreamOrderedLifetime : public testing::TestWithParam<Param> {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY("memory_pools");
    device_.emplace(std::get<0>(GetParam()));
    ASSERT_TRUE(device_->ok());
    stream_.emplace(std::get<1>(GetParam()));
    ASSERT_EQ(stream_->status(), mcSuccess);
  }
  void TearDown() override {
    mcDeviceSynchronize();
    stream_.reset();
    device_.reset();
  }
  mcStream_t stream() { return stream_->get(); }
  size_t size() const { return std::get<2>(GetParam()); }
  int device() const { return std::get<0>(GetParam()); }

  std::optional<ScopedDevice> device_;
  std::optional<TestStream> stream_;
};

TEST_P(StreamOrderedLifetime, KernelAndCopiesUseItInStreamOrder) {
  MX_SPEC("api.pool.malloc-async.pointer-known-at-once",
          "api.pool.malloc-async.usable-after-in-stream-order",
          "api.pool.free-async.frees-in-stream-order");
  unsigned char* p = nullptr;
  ASSERT_EQ(mcMallocAsync(&p, size(), stream()), mcSuccess);
  ASSERT_NE(p, nullptr);  // known before the stream reached the allocation
  std::vector<unsigned char> host(size(), 0);
  FillBytes<<<4, 64, 0, stream()>>>(p, size(), 3);
  ASSERT_EQ(
      mcMemcpyAsync(host.data(), p, size(), mcMemcpyDeviceToHost, stream()),
      mcSuccess);
  // The free comes after the copy in the stream: the copy still sees it.
  ASSERT_EQ(mcFreeAsync(p, stream()), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream()), mcSuccess);
  EXPECT_TRUE(HasPattern(host, 3));
  // Control: a pattern with another seed is told apart.
  EXPECT_FALSE(size() > 1 && HasPattern(host, 4));
}

TEST_P(StreamOrderedLifetime, ResidesOnTheStreamsDevice) {
  MX_SPEC("api.pool.malloc-async.device-from-stream",
          "api.pool.default.resident-on-device");
  void* p = nullptr;
  ASSERT_EQ(mcMallocAsync(&p, size(), stream()), mcSuccess);
  mcPointerAttribute_t attributes{};
  ASSERT_EQ(mcPointerGetAttributes(&attributes, p), mcSuccess);
  EXPECT_EQ(attributes.type, mcMemoryTypeDevice);
  EXPECT_EQ(attributes.device, device());
  ASSERT_EQ(mcFreeAsync(p, stream()), mcSuccess);
}

TEST_P(StreamOrderedLifetime, AlignedAsMcMalloc) {
  MX_SPEC("api.pool.malloc-async.alignment");
  std::vector<void*> pointers;
  for (int i = 0; i < 4; ++i) {
    void* p = nullptr;
    ASSERT_EQ(mcMallocAsync(&p, size() + i, stream()), mcSuccess);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 256, 0u) << p;
    pointers.push_back(p);
  }
  for (void* p : pointers) ASSERT_EQ(mcFreeAsync(p, stream()), mcSuccess);
}

TEST_P(StreamOrderedLifetime, LiveAllocationsDoNotOverlap) {
  MX_SPEC("api.pool.malloc-async.distinct-live-allocations");
  std::vector<std::pair<uintptr_t, size_t>> ranges;
  std::vector<void*> pointers;
  for (int i = 0; i < 8; ++i) {
    const size_t bytes = size() * (1 + i % 3);
    void* p = nullptr;
    ASSERT_EQ(mcMallocAsync(&p, bytes, stream()), mcSuccess);
    ranges.emplace_back(reinterpret_cast<uintptr_t>(p), bytes);
    pointers.push_back(p);
    // Free every third one at once, so later ones may reuse its memory.
    if (i % 3 == 2) {
      ASSERT_EQ(mcFreeAsync(p, stream()), mcSuccess);
      ranges.pop_back();
      pointers.pop_back();
    }
  }
  std::sort(ranges.begin(), ranges.end());
  for (size_t i = 1; i < ranges.size(); ++i) {
    EXPECT_LE(ranges[i - 1].first + ranges[i - 1].second, ranges[i].first);
  }
  for (void* p : pointers) ASSERT_EQ(mcFreeAsync(p, stream()), mcSuccess);
}

TEST_P(StreamOrderedLifetime, FreedInAnotherStreamAfterAnEvent) {
  MX_SPEC("api.pool.free-async.other-stream-needs-ordering",
          "api.pool.malloc-async.usable-after-in-stream-order");
  mcStream_t other = nullptr;
  ASSERT_EQ(mcStreamCreateWithFlags(&other, mcStreamNonBlocking), mcSuccess);
  mcEvent_t used = nullptr;
  ASSERT_EQ(mcEventCreate(&used), mcSuccess);
  unsigned char* p = nullptr;
  unsigned char* out = nullptr;
  ASSERT_EQ(mcMallocAsync(&p, size(), stream()), mcSuccess);
  ASSERT_EQ(mcMalloc(&out, size()), mcSuccess);
  FillBytes<<<2, 64, 0, stream()>>>(p, size(), 9);
  CopyBytes<<<2, 64, 0, stream()>>>(out, p, size());
  ASSERT_EQ(mcEventRecord(used, stream()), mcSuccess);
  ASSERT_EQ(mcStreamWaitEvent(other, used, 0), mcSuccess);
  ASSERT_EQ(mcFreeAsync(p, other), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(other), mcSuccess);
  std::vector<unsigned char> host(size());
  ASSERT_EQ(mcMemcpy(host.data(), out, size(), mcMemcpyDeviceToHost),
            mcSuccess);
  EXPECT_TRUE(HasPattern(host, 9));
  EXPECT_EQ(mcFree(out), mcSuccess);
  EXPECT_EQ(mcEventDestroy(used), mcSuccess);
  EXPECT_EQ(mcStreamDestroy(other), mcSuccess);
}

TEST_P(StreamOrderedLifetime, UsableByTheHostAfterSynchronizing) {
  MX_SPEC("api.pool.malloc-async.usable-after-in-stream-order");
  unsigned char* p = nullptr;
  ASSERT_EQ(mcMallocAsync(&p, size(), stream()), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream()), mcSuccess);
  // Ordered after the allocation by the host: the legacy stream's copy.
  std::vector<unsigned char> host(size(), 0x5a);
  ASSERT_EQ(mcMemcpy(p, host.data(), size(), mcMemcpyHostToDevice), mcSuccess);
  std::vector<unsigned char> back(size(), 0);
  ASSERT_EQ(mcMemcpy(back.data(), p, size(), mcMemcpyDeviceToHost), mcSuccess);
  EXPECT_EQ(back, host);
  ASSERT_EQ(mcFreeAsync(p, stream()), mcSuccess);
}

TEST_P(StreamOrderedLifetime, McFreeReleasesAStreamOrderedAllocation) {
  MX_SPEC("api.pool.free-async.mcfree-also-frees");
  mcMemPool_t pool = nullptr;
  ASSERT_EQ(mcDeviceGetMemPool(&pool, device()), mcSuccess);
  unsigned long long used_before = 0;
  ASSERT_EQ(
      mcMemPoolGetAttribute(pool, mcMemPoolAttrUsedMemCurrent, &used_before),
      mcSuccess);
  unsigned char* p = nullptr;
  ASSERT_EQ(mcMallocAsync(&p, size(), stream()), mcSuccess);
  FillBytes<<<1, 32, 0, stream()>>>(p, size(), 1);
  // mcFree waits for the kernel, then frees.
  ASSERT_EQ(mcFree(p), mcSuccess);
  unsigned long long used_after = 0;
  ASSERT_EQ(
      mcMemPoolGetAttribute(pool, mcMemPoolAttrUsedMemCurrent, &used_after),
      mcSuccess);
  EXPECT_EQ(used_after, used_before);
  EXPECT_EQ(mcFreeAsync(p, stream()), mcErrorInvalidValue);  // gone
}

TEST_P(StreamOrderedLifetime, SizeZeroStoresNull) {
  MX_SPEC("api.pool.malloc-async.pointer-known-at-once");
  void* p = &p;
  ASSERT_EQ(mcMallocAsync(&p, 0, stream()), mcSuccess);
  EXPECT_EQ(p, nullptr);
}

INSTANTIATE_TEST_SUITE_P(EveryStreamAndSize, StreamOrderedLifetime,
                         testing::ValuesIn(Params()), ParamName);

// mcMallocAsync ignores the current device: a stream of another device
// decides. [api.pool.malloc-async.device-from-stream]
TEST(StreamOrderedDevice, StreamOfAnotherDeviceDecides) {
  MX_SPEC("api.pool.malloc-async.device-from-stream");
  MX_REQUIRE_CAPABILITY("memory_pools");
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
  mcStream_t on_one = nullptr;
  {
    ScopedDevice one(1);
    ASSERT_TRUE(one.ok());
    ASSERT_EQ(mcStreamCreate(&on_one), mcSuccess);
  }
  ScopedDevice zero(0);
  ASSERT_TRUE(zero.ok());
  void* p = nullptr;
  ASSERT_EQ(mcMallocAsync(&p, 4096, on_one), mcSuccess);
  mcPointerAttribute_t attributes{};
  ASSERT_EQ(mcPointerGetAttributes(&attributes, p), mcSuccess);
  EXPECT_EQ(attributes.device, 1);
  // Control: the legacy stream of the current device gives device 0.
  void* q = nullptr;
  ASSERT_EQ(mcMallocAsync(&q, 4096, nullptr), mcSuccess);
  ASSERT_EQ(mcPointerGetAttributes(&attributes, q), mcSuccess);
  EXPECT_EQ(attributes.device, 0);
  ASSERT_EQ(mcFreeAsync(p, on_one), mcSuccess);
  ASSERT_EQ(mcFreeAsync(q, nullptr), mcSuccess);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  ASSERT_EQ(mcStreamDestroy(on_one), mcSuccess);
}

// The C++ overload with a pool and the typed forms.
TEST(StreamOrderedOverloads, PoolOverloadAllocatesFromThePool) {
  MX_SPEC("api.pool.malloc-async.pool-overload",
          "api.pool.malloc-from-pool.uses-given-pool");
  MX_REQUIRE_CAPABILITY("memory_pools");
  mcMemPoolProps props{};
  props.allocType = mcMemAllocationTypePinned;
  props.location.type = mcMemLocationTypeDevice;
  props.location.id = 0;
  mcMemPool_t pool = nullptr;
  ASSERT_EQ(mcMemPoolCreate(&pool, &props), mcSuccess);
  float* typed = nullptr;
  ASSERT_EQ(mcMallocAsync(&typed, 1000 * sizeof(float), pool, nullptr),
            mcSuccess);
  void* untyped = nullptr;
  ASSERT_EQ(mcMallocAsync(&untyped, 1000, pool, nullptr), mcSuccess);
  int* from_pool = nullptr;
  ASSERT_EQ(mcMallocFromPoolAsync(&from_pool, 1000, pool, nullptr), mcSuccess);
  unsigned long long used = 0;
  ASSERT_EQ(mcMemPoolGetAttribute(pool, mcMemPoolAttrUsedMemCurrent, &used),
            mcSuccess);
  EXPECT_GE(used, 1000 * sizeof(float) + 1000 + 1000);
  // Control: the device's current pool served none of them.
  mcMemPool_t current = nullptr;
  ASSERT_EQ(mcDeviceGetMemPool(&current, 0), mcSuccess);
  EXPECT_NE(current, pool);
  ASSERT_EQ(mcFreeAsync(typed, nullptr), mcSuccess);
  ASSERT_EQ(mcFreeAsync(untyped, nullptr), mcSuccess);
  ASSERT_EQ(mcFreeAsync(from_pool, nullptr), mcSuccess);
  ASSERT_EQ(mcMemPoolGetAttribute(pool, mcMemPoolAttrUsedMemCurrent, &used),
            mcSuccess);
  EXPECT_EQ(used, 0u);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  ASSERT_EQ(mcMemPoolDestroy(pool), mcSuccess);
}

TEST(StreamOrderedSupport, PoolsSupportedAttributeIsOne) {
  MX_SPEC("api.pool.malloc-async.pools-supported-attribute");
  MX_REQUIRE_CAPABILITY("memory_pools");
  for (int device = 0; device < DeviceCount(); ++device) {
    int supported = -1;
    ASSERT_EQ(mcDeviceGetAttribute(
                  &supported, mcDeviceAttributeMemoryPoolsSupported, device),
              mcSuccess);
    EXPECT_EQ(supported, 1) << device;
  }
}

}  // namespace
}  // namespace mxcts::conformance
