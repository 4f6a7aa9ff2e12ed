// Copyright mxcts authors.
//
// Conformance: stream-ordered allocations seen by the rest of the memory
// API (docs/spec/api-memory.md, mcFree and mcPointerGetAttributes), and
// a kernel's use of released memory.
//
//   - mcFree releases memory from mcMallocAsync and from
//     mcMallocFromPoolAsync, after the work using it has run: the kernel
//     enqueued before the call has written the memory when mcFree returns,
//     the pointer is unknown afterwards and a second mcFree returns
//     mcErrorInvalidValue (the control that it was released).
//   - Both kinds of allocation report mcMemoryTypeDevice and the pool's
//     device; a managed allocation beside them reports
//     mcMemoryTypeManaged (the control that the type is read, not
//     assumed).
//   - A kernel writing through a pointer into a released allocation has
//     undefined behaviour; the reference's checked mode (MXCTS_MEMCHECK=1)
//     traps it as mcErrorIllegalAddress, and the same kernel before the
//     release is the control.

#include <mc_runtime.h>

#include <string>

#include "conformance/api/testing/pool_testing.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/fresh_process.h"
#include "conformance/testing/spec.h"
#include "conformance/testing/trap_expectation.h"

namespace mxcts::conformance {
namespace {

constexpr int kCount = 256;

__global__ void Fill(int* data, int value) {
  data[blockIdx.x * blockDim.x + threadIdx.x] = value;
}

enum class Source { kMallocAsync, kFromPool };

class StreamOrdered : public testing::TestWithParam<std::tuple<Source, int>> {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY("memory_pools");
    MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", device() + 1);
    ASSERT_EQ(mcSetDevice(device()), mcSuccess);
    ASSERT_EQ(mcStreamCreateWithFlags(&stream_, mcStreamNonBlocking),
              mcSuccess);
    if (source() == Source::kFromPool) {
      const mcMemPoolProps props = PoolProps(device());
      ASSERT_EQ(mcMemPoolCreate(&pool_, &props), mcSuccess);
    }
  }
  void TearDown() override {
    if (stream_ != nullptr) mcStreamDestroy(stream_);
    if (pool_ != nullptr) mcMemPoolDestroy(pool_);
    mcSetDevice(0);
  }
  Source source() const { return std::get<0>(GetParam()); }
  int device() const { return std::get<1>(GetParam()); }

  mcError_t Allocate(int** p) {
    if (source() == Source::kFromPool) {
      return mcMallocFromPoolAsync(reinterpret_cast<void**>(p),
                                   kCount * sizeof(int), pool_, stream_);
    }
    return mcMallocAsync(reinterpret_cast<void**>(p), kCount * sizeof(int),
                         stream_);
  }

  mcStream_t stream_ = nullptr;
  mcMemPool_t pool_ = nullptr;
};

TEST_P(StreamOrdered, FreeReleasesItAfterItsWork) {
  MX_SPEC("api.memory.free.stream-ordered-allocation");
  int* p = nullptr;
  ASSERT_EQ(Allocate(&p), mcSuccess);
  int* host = nullptr;
  ASSERT_EQ(
      mcMallocHost(reinterpret_cast<void**>(&host), kCount * sizeof(int), 0),
      mcSuccess);
  Fill<<<kCount / 64, 64, 0, stream_>>>(p, 7);
  ASSERT_EQ(mcMemcpyAsync(host, p, kCount * sizeof(int), mcMemcpyDeviceToHost,
                          stream_),
            mcSuccess);
  EXPECT_EQ(mcFree(p), mcSuccess);
  // The work enqueued before mcFree has run.
  for (int i = 0; i < kCount; ++i) ASSERT_EQ(host[i], 7) << i;
  mcPointerAttributes a{};
  EXPECT_EQ(mcPointerGetAttributes(&a, p), mcSuccess);
  EXPECT_EQ(a.type, mcMemoryTypeUnregistered);
  // Control: it was released, so it cannot be released again.
  EXPECT_EQ(mcFree(p), mcErrorInvalidValue);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidValue);
  EXPECT_EQ(mcFreeHost(host), mcSuccess);
}

TEST_P(StreamOrdered, PointerAttributesReportDeviceMemory) {
  MX_SPEC("api.memory.pointer-attributes.pool-and-ipc");
  int* p = nullptr;
  ASSERT_EQ(Allocate(&p), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream_), mcSuccess);
  for (int* at : {p, p + kCount - 1}) {
    mcPointerAttributes a{};
    ASSERT_EQ(mcPointerGetAttributes(&a, at), mcSuccess);
    EXPECT_EQ(a.type, mcMemoryTypeDevice);
    EXPECT_EQ(a.device, device());
    EXPECT_EQ(a.devicePointer, at);
  }
  // Control: a managed allocation of the same device is told apart.
  int* managed = nullptr;
  ASSERT_EQ(mcMallocManaged(&managed, kCount * sizeof(int)), mcSuccess);
  mcPointerAttributes m{};
  ASSERT_EQ(mcPointerGetAttributes(&m, managed), mcSuccess);
  EXPECT_EQ(m.type, mcMemoryTypeManaged);
  EXPECT_EQ(mcFree(managed), mcSuccess);
  EXPECT_EQ(mcFreeAsync(p, stream_), mcSuccess);
  EXPECT_EQ(mcStreamSynchronize(stream_), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(
    Sources, StreamOrdered,
    testing::Combine(testing::Values(Source::kMallocAsync, Source::kFromPool),
                     testing::Values(0, 1)),
    [](const testing::TestParamInfo<std::tuple<Source, int>>& info) {
      return std::string(std::get<0>(info.param) == Source::kMallocAsync
                             ? "MallocAsync"
                             : "FromPool") +
             "_Device" + std::to_string(std::get<1>(info.param));
    });

// --- A kernel using released memory. ---

mcError_t WriteAfterRelease(bool released) {
  int* p = nullptr;
  mcError_t error = mcMalloc(&p, kCount * sizeof(int));
  if (error != mcSuccess) return error;
  if (released) {
    error = mcFree(p);
    if (error != mcSuccess) return error;
  }
  Fill<<<kCount / 64, 64>>>(p, 3);
  error = mcDeviceSynchronize();
  if (!released && error == mcSuccess) {
    int last = 0;
    error = mcMemcpy(&last, p + kCount - 1, sizeof(int), mcMemcpyDeviceToHost);
    if (error == mcSuccess && last != 3) error = mcErrorUnknown;
    if (error == mcSuccess) error = mcFree(p);
  }
  return error;
}

TEST(ReleasedMemory, KernelWriteTrapsInCheckedMode) {
  MX_SPEC("api.memory.lifetime.freed-pointer-in-kernel");
  MX_REQUIRE_CAPABILITY("trap_handler");
  ScopedEnvironment checked("MXCTS_MEMCHECK", "1");
  MX_EXPECT_TRAP(WriteAfterRelease(true), mcErrorIllegalAddress,
                 "kernel '[^']*Fill[^']*' block");
}

TEST(ReleasedMemory, ControlKernelWriteBeforeTheReleaseWorks) {
  MX_SPEC("api.memory.lifetime.freed-pointer-in-kernel");
  MX_EXPECT_NO_TRAP(WriteAfterRelease(false));
}

}  // namespace
}  // namespace mxcts::conformance
