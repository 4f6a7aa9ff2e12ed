// Copyright mxcts authors.
//
// Conformance: the errors of mcMallocAsync, mcMallocFromPoolAsync and
// mcFreeAsync (docs/spec/api-memory-pools.md), for every kind of stream on
// every device. Each failing call is shown to change nothing: the output
// keeps its value and the allocations involved stay usable.

#include <mc_runtime.h>

#include <optional>
#include <string>
#include <vector>

#include "conformance/api/testing/pool_testing.h"
#include "conformance/api/testing/scoped_device.h"
#include "conformance/api/testing/stream_kind.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

// A device and a kind of stream on it, which is current.
struct StreamOnDevice {
  int device;
  StreamKind kind;
};

std::vector<StreamOnDevice> AllStreamsOnAllDevices() {
  int count = 0;
  if (mcGetDeviceCount(&count) != mcSuccess) count = 1;
  std::vector<StreamOnDevice> params;
  for (int device = 0; device < count; ++device) {
    for (StreamKind kind : kAllStreamKinds) params.push_back({device, kind});
  }
  return params;
}

std::string ParamName(const testing::TestParamInfo<StreamOnDevice>& info) {
  return "Device" + std::to_string(info.param.device) +
         StreamKindName(info.param.kind);
}

class StreamOrderedErrors : public testing::TestWithParam<StreamOnDevice> {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY("memory_pools");
    device_.emplace(GetParam().device);
    ASSERT_TRUE(device_->ok());
    stream_.emplace(GetParam().kind);
    ASSERT_EQ(stream_->status(), mcSuccess);
  }
  void TearDown() override {
    mcDeviceSynchronize();
    stream_.reset();
    device_.reset();
  }
  mcStream_t stream() { return stream_->get(); }

  // A live stream-ordered allocation of `bytes` in the stream.
  void* Allocate(size_t bytes) {
    void* p = nullptr;
    EXPECT_EQ(mcMallocAsync(&p, bytes, stream()), mcSuccess);
    return p;
  }

  std::optional<ScopedDevice> device_;
  std::optional<TestStream> stream_;
};

TEST_P(StreamOrderedErrors, MallocAsyncNullOutputIsInvalidValue) {
  MX_SPEC("api.pool.malloc-async.null-pointer-is-invalid-value");
  EXPECT_EQ(mcMallocAsync(nullptr, 256, stream()), mcErrorInvalidValue);
  // Control: the same call with an output succeeds.
  void* p = Allocate(256);
  EXPECT_NE(p, nullptr);
  EXPECT_EQ(mcFreeAsync(p, stream()), mcSuccess);
}

TEST_P(StreamOrderedErrors, MallocFromPoolAsyncNullOutputIsInvalidValue) {
  MX_SPEC("api.pool.malloc-async.null-pointer-is-invalid-value");
  mcMemPool_t pool = nullptr;
  ASSERT_EQ(mcDeviceGetDefaultMemPool(&pool, GetParam().device), mcSuccess);
  EXPECT_EQ(mcMallocFromPoolAsync(nullptr, 256, pool, stream()),
            mcErrorInvalidValue);
  void* p = nullptr;
  EXPECT_EQ(mcMallocFromPoolAsync(&p, 256, pool, stream()), mcSuccess);
  EXPECT_EQ(mcFreeAsync(p, stream()), mcSuccess);
}

TEST_P(StreamOrderedErrors, MallocFromPoolAsyncNullPoolIsInvalidValue) {
  MX_SPEC("api.pool.malloc-from-pool.invalid-pool");
  void* p = &p;
  EXPECT_EQ(mcMallocFromPoolAsync(&p, 256, nullptr, stream()),
            mcErrorInvalidValue);
  EXPECT_EQ(p, &p);
}

TEST_P(StreamOrderedErrors, MallocFromPoolAsyncDestroyedPoolIsInvalidValue) {
  MX_SPEC("api.pool.malloc-from-pool.invalid-pool");
  mcMemPoolProps props{};
  props.allocType = mcMemAllocationTypePinned;
  props.location.type = mcMemLocationTypeDevice;
  props.location.id = GetParam().device;
  mcMemPool_t pool = nullptr;
  ASSERT_EQ(mcMemPoolCreate(&pool, &props), mcSuccess);
  void* p = nullptr;
  // Control: the live pool serves the call.
  ASSERT_EQ(mcMallocFromPoolAsync(&p, 256, pool, stream()), mcSuccess);
  ASSERT_EQ(mcFreeAsync(p, stream()), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream()), mcSuccess);
  ASSERT_EQ(mcMemPoolDestroy(pool), mcSuccess);
  p = &p;
  EXPECT_EQ(mcMallocFromPoolAsync(&p, 256, pool, stream()),
            mcErrorInvalidValue);
  EXPECT_EQ(p, &p);
}

TEST_P(StreamOrderedErrors, FreeAsyncNullIsInvalidValue) {
  MX_SPEC("api.pool.free-async.foreign-pointer-is-invalid-value");
  EXPECT_EQ(mcFreeAsync(nullptr, stream()), mcErrorInvalidValue);
}

TEST_P(StreamOrderedErrors, FreeAsyncOfMcMallocMemoryIsInvalidValue) {
  MX_SPEC("api.pool.free-async.foreign-pointer-is-invalid-value");
  int* p = nullptr;
  ASSERT_EQ(mcMalloc(&p, 1024), mcSuccess);
  EXPECT_EQ(mcFreeAsync(p, stream()), mcErrorInvalidValue);
  // Unchanged: the allocation is still live.
  EXPECT_EQ(mcMemset(p, 1, 1024), mcSuccess);
  EXPECT_EQ(mcFree(p), mcSuccess);
}

TEST_P(StreamOrderedErrors, FreeAsyncOfInteriorPointerIsInvalidValue) {
  MX_SPEC("api.pool.free-async.foreign-pointer-is-invalid-value");
  char* p = static_cast<char*>(Allocate(1024));
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(mcFreeAsync(p + 16, stream()), mcErrorInvalidValue);
  // Unchanged: the allocation is still live and can be freed once.
  EXPECT_EQ(mcMemsetAsync(p, 0, 1024, stream()), mcSuccess);
  EXPECT_EQ(mcFreeAsync(p, stream()), mcSuccess);
}

TEST_P(StreamOrderedErrors, FreeAsyncOfHostMemoryIsInvalidValue) {
  MX_SPEC("api.pool.free-async.foreign-pointer-is-invalid-value");
  std::vector<char> host(1024);
  EXPECT_EQ(mcFreeAsync(host.data(), stream()), mcErrorInvalidValue);
  void* pinned = nullptr;
  ASSERT_EQ(mcMallocHost(&pinned, 1024), mcSuccess);
  EXPECT_EQ(mcFreeAsync(pinned, stream()), mcErrorInvalidValue);
  EXPECT_EQ(mcFreeHost(pinned), mcSuccess);
}

TEST_P(StreamOrderedErrors, FreeAsyncOfManagedMemoryIsInvalidValue) {
  MX_SPEC("api.pool.free-async.foreign-pointer-is-invalid-value");
  int* managed = nullptr;
  ASSERT_EQ(mcMallocManaged(&managed, 1024), mcSuccess);
  EXPECT_EQ(mcFreeAsync(managed, stream()), mcErrorInvalidValue);
  managed[0] = 7;  // still live
  EXPECT_EQ(mcFree(managed), mcSuccess);
}

TEST_P(StreamOrderedErrors, FreeAsyncAfterMcFreeIsInvalidValue) {
  MX_SPEC("api.pool.free-async.foreign-pointer-is-invalid-value",
          "api.pool.free-async.mcfree-also-frees");
  void* p = Allocate(4096);
  ASSERT_NE(p, nullptr);
  ASSERT_EQ(mcFree(p), mcSuccess);
  EXPECT_EQ(mcFreeAsync(p, stream()), mcErrorInvalidValue);
}

TEST_P(StreamOrderedErrors, MallocAsyncBeyondTheDeviceIsMemoryAllocation) {
  MX_SPEC("api.pool.malloc-async.out-of-memory");
  size_t free_bytes = 0;
  size_t total = 0;
  ASSERT_EQ(mcMemGetInfo(&free_bytes, &total), mcSuccess);
  void* p = nullptr;
  EXPECT_EQ(mcMallocAsync(&p, total + (size_t{1} << 30), stream()),
            mcErrorMemoryAllocation);
  EXPECT_EQ(mcGetLastError(), mcErrorMemoryAllocation);
  // Control: a small allocation still succeeds.
  void* q = Allocate(256);
  EXPECT_NE(q, nullptr);
  EXPECT_EQ(mcFreeAsync(q, stream()), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(EveryStream, StreamOrderedErrors,
                         testing::ValuesIn(AllStreamsOnAllDevices()),
                         ParamName);

// A destroyed stream is no stream for any of the three calls.
class DestroyedStream : public testing::Test {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY("memory_pools");
    ASSERT_EQ(mcStreamCreate(&live_), mcSuccess);
    ASSERT_EQ(mcStreamCreate(&dead_), mcSuccess);
    ASSERT_EQ(mcStreamDestroy(dead_), mcSuccess);
  }
  void TearDown() override {
    mcDeviceSynchronize();
    if (live_ != nullptr) mcStreamDestroy(live_);
  }
  mcStream_t live_ = nullptr;
  mcStream_t dead_ = nullptr;
};

TEST_F(DestroyedStream, MallocAsyncIsInvalidResourceHandle) {
  MX_SPEC("api.pool.malloc-async.invalid-stream");
  void* p = &p;
  EXPECT_EQ(mcMallocAsync(&p, 256, dead_), mcErrorInvalidResourceHandle);
  EXPECT_EQ(p, &p);
  ASSERT_EQ(mcMallocAsync(&p, 256, live_), mcSuccess);  // control
  EXPECT_EQ(mcFreeAsync(p, live_), mcSuccess);
}

TEST_F(DestroyedStream, MallocFromPoolAsyncIsInvalidResourceHandle) {
  MX_SPEC("api.pool.malloc-async.invalid-stream");
  mcMemPool_t pool = nullptr;
  ASSERT_EQ(mcDeviceGetDefaultMemPool(&pool, 0), mcSuccess);
  void* p = &p;
  EXPECT_EQ(mcMallocFromPoolAsync(&p, 256, pool, dead_),
            mcErrorInvalidResourceHandle);
  EXPECT_EQ(p, &p);
}

TEST_F(DestroyedStream, FreeAsyncIsInvalidResourceHandleAndFreesNothing) {
  MX_SPEC("api.pool.malloc-async.invalid-stream");
  void* p = nullptr;
  ASSERT_EQ(mcMallocAsync(&p, 256, live_), mcSuccess);
  EXPECT_EQ(mcFreeAsync(p, dead_), mcErrorInvalidResourceHandle);
  // Unchanged: still live, so the free in a live stream succeeds.
  EXPECT_EQ(mcMemsetAsync(p, 0, 256, live_), mcSuccess);
  EXPECT_EQ(mcFreeAsync(p, live_), mcSuccess);
}

}  // namespace
}  // namespace mxcts::conformance
