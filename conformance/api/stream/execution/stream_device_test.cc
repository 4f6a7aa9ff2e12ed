// Copyright mxcts authors.
//
// Conformance: streams of a device other than the current one
// (docs/spec/api-stream.md, "Streams of another device").
//
//   - A kernel launched into a stream of a device other than the current
//     one fails with mcErrorInvalidResourceHandle and does not run; the
//     control launches it with the stream's device current.
//   - Memory sets and copies into such a stream succeed, in its order.
//   - A kernel launched into such a stream while it captures is refused the
//     same way, and the graph does not hold it.
//
// The results hold in every timeline mode (the target also runs as
// _deferred and _shuffle).

#include <mc_runtime.h>

#include <cstring>
#include <memory>
#include <tuple>

#include "conformance/api/testing/order_log.h"
#include "conformance/api/testing/scoped_device.h"
#include "conformance/api/testing/stream_fixtures.h"
#include "conformance/api/testing/stream_kind.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

__global__ void Store(int* cell, int value) { *cell = value; }

class OtherDeviceStream : public testing::TestWithParam<KindOnDevice> {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
    ScopedDevice on(device());
    ASSERT_TRUE(on.ok());
    stream_ = std::make_unique<TestStream>(std::get<0>(GetParam()));
    ASSERT_EQ(stream_->status(), mcSuccess);
  }
  void TearDown() override {
    ScopedDevice on(device());
    stream_.reset();
  }

  // The stream's device; the other one is current in the tests.
  int device() const { return std::get<1>(GetParam()); }
  mcStream_t stream() const { return stream_->get(); }

  std::unique_ptr<TestStream> stream_;
};

TEST_P(OtherDeviceStream, KernelLaunchIsInvalidResourceHandle) {
  MX_SPEC("api.stream.other-device.kernel-launch-fails",
          "lang.launch.limit.stream-of-other-device",
          "api.error.sticky.argument-errors-not-sticky");
  int* cell = nullptr;
  ASSERT_EQ(mcMallocManaged(&cell, sizeof(int)), mcSuccess);
  *cell = 0;
  {
    ScopedDevice other(1 - device());
    ASSERT_TRUE(other.ok());
    ASSERT_EQ(mcGetLastError(), mcSuccess);
    Store<<<1, 1, 0, stream()>>>(cell, 1);
    EXPECT_EQ(mcGetLastError(), mcErrorInvalidResourceHandle);
    int value = 2;
    void* args[] = {&cell, &value};
    EXPECT_EQ(mcLaunchKernel(Store, dim3(1), dim3(1), args, 0, stream()),
              mcErrorInvalidResourceHandle);
    EXPECT_EQ(mcGetLastError(), mcErrorInvalidResourceHandle);
    // Not sticky: the device goes on working.
    EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
    EXPECT_EQ(mcGetLastError(), mcSuccess);
  }
  ASSERT_EQ(mcStreamSynchronize(stream()), mcSuccess);
  EXPECT_EQ(*cell, 0) << "a refused kernel ran";
  // Control: with the stream's device current, the same launches run.
  {
    ScopedDevice own(device());
    Store<<<1, 1, 0, stream()>>>(cell, 1);
    EXPECT_EQ(mcGetLastError(), mcSuccess);
    ASSERT_EQ(mcStreamSynchronize(stream()), mcSuccess);
    EXPECT_EQ(*cell, 1);
    int value = 2;
    void* args[] = {&cell, &value};
    EXPECT_EQ(mcLaunchKernel(Store, dim3(1), dim3(1), args, 0, stream()),
              mcSuccess);
    ASSERT_EQ(mcStreamSynchronize(stream()), mcSuccess);
    EXPECT_EQ(*cell, 2);
  }
  EXPECT_EQ(mcFree(cell), mcSuccess);
}

TEST_P(OtherDeviceStream, MemsetAndCopyAreOrderedInTheStream) {
  MX_SPEC("api.stream.other-device.memcpy-succeeds",
          "api.stream.model.in-order-execution");
  constexpr size_t kBytes = 64;
  unsigned char* device_memory = nullptr;
  unsigned char* result = nullptr;
  {
    ScopedDevice own(device());
    ASSERT_EQ(mcMalloc(&device_memory, kBytes), mcSuccess);
  }
  ASSERT_EQ(mcMallocManaged(&result, kBytes), mcSuccess);
  std::memset(result, 0, kBytes);
  OrderLog log;
  {
    ScopedDevice other(1 - device());
    ASSERT_TRUE(other.ok());
    ASSERT_EQ(mcMemsetAsync(device_memory, 0x5A, kBytes, stream()), mcSuccess);
    ASSERT_EQ(
        mcMemcpyAsync(result, device_memory, kBytes, mcMemcpyDefault, stream()),
        mcSuccess);
    ASSERT_EQ(log.Append(stream(), "after"), mcSuccess);
    ASSERT_EQ(mcStreamSynchronize(stream()), mcSuccess);
  }
  EXPECT_EQ(log.Joined(), "after");
  for (size_t i = 0; i < kBytes; ++i) ASSERT_EQ(result[i], 0x5A) << i;
  EXPECT_EQ(mcFree(result), mcSuccess);
  ScopedDevice own(device());
  EXPECT_EQ(mcFree(device_memory), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(
    KindsAndDevices, OtherDeviceStream,
    testing::Combine(testing::ValuesIn(kCreatedStreamKinds),
                     testing::Values(0, 1)),
    KindOnDeviceName);

// A launch into a capturing stream is checked as a launch is: the stream's
// device must be current. The control captures the same launch with that
// device current, and the graph holds it.
TEST(CapturedOtherDeviceStream, KernelLaunchIsInvalidResourceHandle) {
  MX_SPEC("lang.launch.limit.stream-of-other-device");
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
  for (int device : {0, 1}) {
    SCOPED_TRACE(device);
    mcStream_t stream = nullptr;
    {
      ScopedDevice own(device);
      ASSERT_TRUE(own.ok());
      ASSERT_EQ(mcStreamCreateWithFlags(&stream, mcStreamNonBlocking),
                mcSuccess);
    }
    int* cell = nullptr;
    ASSERT_EQ(mcMallocManaged(&cell, sizeof(int)), mcSuccess);
    *cell = 0;
    {
      ScopedDevice other(1 - device);
      ASSERT_TRUE(other.ok());
      ASSERT_EQ(mcStreamBeginCapture(stream, mcStreamCaptureModeRelaxed),
                mcSuccess);
      Store<<<1, 1, 0, stream>>>(cell, 1);
      EXPECT_EQ(mcGetLastError(), mcErrorInvalidResourceHandle);
      // Whether the refusal also invalidates the capture is another rule;
      // either way the graph, if any, holds no kernel.
      mcGraph_t graph = nullptr;
      static_cast<void>(mcStreamEndCapture(stream, &graph));
      if (graph != nullptr) {
        size_t nodes = 99;
        EXPECT_EQ(mcGraphGetNodes(graph, nullptr, &nodes), mcSuccess);
        EXPECT_EQ(nodes, 0u);
        EXPECT_EQ(mcGraphDestroy(graph), mcSuccess);
      }
    }
    // Control: with the stream's device current the launch is captured.
    {
      ScopedDevice own(device);
      ASSERT_EQ(mcStreamBeginCapture(stream, mcStreamCaptureModeRelaxed),
                mcSuccess);
      Store<<<1, 1, 0, stream>>>(cell, 1);
      EXPECT_EQ(mcGetLastError(), mcSuccess);
      mcGraph_t graph = nullptr;
      ASSERT_EQ(mcStreamEndCapture(stream, &graph), mcSuccess);
      size_t nodes = 0;
      EXPECT_EQ(mcGraphGetNodes(graph, nullptr, &nodes), mcSuccess);
      EXPECT_EQ(nodes, 1u);
      EXPECT_EQ(mcGraphDestroy(graph), mcSuccess);
      EXPECT_EQ(mcStreamDestroy(stream), mcSuccess);
    }
    EXPECT_EQ(*cell, 0) << "a captured kernel ran without its graph";
    EXPECT_EQ(mcFree(cell), mcSuccess);
  }
}

}  // namespace
}  // namespace mxcts::conformance
