// Copyright mxcts authors.
//
// Conformance: the implicit synchronization of the legacy default stream
// with the blocking streams of its device, and the per-thread default
// stream as one of them (docs/spec/api-synchronization.md, "The legacy
// default stream", "The per-thread default stream").
//
// These orders hold in every timeline mode, so the target also runs as
// _deferred and _shuffle. Each is shown twice: by host functions that log
// when they run, and by kernels that each check what the one before wrote
// (a kernel that ran too early leaves a marker instead of its value). That
// non-blocking streams are exempt is shown where it is visible, in the
// deferred mode: stream_legacy_deferred_test.cc.

#include <mc_runtime.h>

#include <memory>
#include <string>
#include <thread>
#include <tuple>

#include "conformance/api/testing/follow_kernel.h"
#include "conformance/api/testing/order_log.h"
#include "conformance/api/testing/scoped_device.h"
#include "conformance/api/testing/stream_kind.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

// (blocking kind, name of the legacy stream, device)
using Case = std::tuple<StreamKind, StreamKind, int>;

std::string CaseName(const testing::TestParamInfo<Case>& info) {
  return std::string(StreamKindName(std::get<0>(info.param))) + "_" +
         StreamKindName(std::get<1>(info.param)) + "_Device" +
         std::to_string(std::get<2>(info.param));
}

class LegacyOrder : public testing::TestWithParam<Case> {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", device() + 1);
    on_ = std::make_unique<ScopedDevice>(device());
    ASSERT_TRUE(on_->ok());
    blocking_ = std::make_unique<TestStream>(std::get<0>(GetParam()));
    legacy_ = std::make_unique<TestStream>(std::get<1>(GetParam()));
    ASSERT_EQ(blocking_->status(), mcSuccess);
    ASSERT_EQ(mcMallocManaged(&cell_, sizeof(int)), mcSuccess);
    *cell_ = 0;
  }
  void TearDown() override {
    if (cell_ != nullptr) {
      mcDeviceSynchronize();
      mcFree(cell_);
    }
    blocking_.reset();
    legacy_.reset();
    on_.reset();
  }

  int device() const { return std::get<2>(GetParam()); }
  mcStream_t blocking() const { return blocking_->get(); }
  mcStream_t legacy() const { return legacy_->get(); }

  std::unique_ptr<ScopedDevice> on_;
  std::unique_ptr<TestStream> blocking_;
  std::unique_ptr<TestStream> legacy_;
  int* cell_ = nullptr;
};

TEST_P(LegacyOrder, LegacyWorkWaitsForEarlierBlockingWork) {
  MX_SPEC("api.sync.legacy.waits-for-blocking-streams",
          "api.sync.per-thread.behaves-as-blocking-stream");
  OrderLog log;
  ASSERT_EQ(log.Append(blocking(), "b1"), mcSuccess);
  ASSERT_EQ(log.Append(blocking(), "b2"), mcSuccess);
  ASSERT_EQ(log.Append(legacy(), "legacy"), mcSuccess);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(log.Joined(), "b1 b2 legacy");
}

TEST_P(LegacyOrder, LegacyKernelSeesEarlierBlockingKernel) {
  MX_SPEC("api.sync.legacy.waits-for-blocking-streams",
          "api.sync.per-thread.behaves-as-blocking-stream");
  Follow<<<1, 1, 0, blocking()>>>(cell_, 0, 1);
  Follow<<<1, 1, 0, legacy()>>>(cell_, 1, 2);
  ASSERT_EQ(mcGetLastError(), mcSuccess);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(*cell_, 2);
}

TEST_P(LegacyOrder, BlockingWorkWaitsForEarlierLegacyWork) {
  MX_SPEC("api.sync.legacy.blocking-streams-wait-for-it",
          "api.sync.per-thread.behaves-as-blocking-stream");
  OrderLog log;
  ASSERT_EQ(log.Append(legacy(), "legacy1"), mcSuccess);
  ASSERT_EQ(log.Append(legacy(), "legacy2"), mcSuccess);
  ASSERT_EQ(log.Append(blocking(), "b"), mcSuccess);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(log.Joined(), "legacy1 legacy2 b");
}

TEST_P(LegacyOrder, BlockingKernelSeesEarlierLegacyKernel) {
  MX_SPEC("api.sync.legacy.blocking-streams-wait-for-it",
          "api.sync.per-thread.behaves-as-blocking-stream");
  Follow<<<1, 1, 0, legacy()>>>(cell_, 0, 1);
  Follow<<<1, 1, 0, blocking()>>>(cell_, 1, 2);
  Follow<<<1, 1, 0, legacy()>>>(cell_, 2, 3);
  Follow<<<1, 1, 0, blocking()>>>(cell_, 3, 4);
  ASSERT_EQ(mcGetLastError(), mcSuccess);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(*cell_, 4);
  // Control: a kernel that expects a value not yet written marks the cell.
  Follow<<<1, 1, 0, blocking()>>>(cell_, 5, 6);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(*cell_, kTooEarly);
}

TEST_P(LegacyOrder, LegacyCallbackIsOrderedBothWays) {
  MX_SPEC("api.callback.add.legacy-stream-ordering",
          "api.sync.legacy.waits-for-blocking-streams",
          "api.sync.legacy.blocking-streams-wait-for-it");
  OrderLog log;
  ASSERT_EQ(log.Append(blocking(), "before"), mcSuccess);
  ASSERT_EQ(log.AppendCallback(legacy(), "callback"), mcSuccess);
  ASSERT_EQ(log.Append(blocking(), "after"), mcSuccess);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(log.Joined(), "before callback after");
}

TEST_P(LegacyOrder, SynchronizingTheLegacyStreamCoversBlockingWork) {
  MX_SPEC("api.sync.legacy.synchronize-covers-blocking-work");
  OrderLog log;
  ASSERT_EQ(log.Append(legacy(), "legacy"), mcSuccess);
  ASSERT_EQ(log.Append(blocking(), "b"), mcSuccess);
  Follow<<<1, 1, 0, blocking()>>>(cell_, 0, 1);
  ASSERT_EQ(mcStreamSynchronize(legacy()), mcSuccess);
  EXPECT_EQ(log.Joined(), "legacy b");
  EXPECT_EQ(*cell_, 1);
}

TEST_P(LegacyOrder, EventInLegacyStreamCapturesBlockingWork) {
  MX_SPEC("api.event.record.default-stream-captures-device-work",
          "api.event.synchronize.waits-for-captured-work");
  mcEvent_t event = nullptr;
  ASSERT_EQ(mcEventCreate(&event), mcSuccess);
  OrderLog log;
  ASSERT_EQ(log.Append(blocking(), "b"), mcSuccess);
  Follow<<<1, 1, 0, blocking()>>>(cell_, 0, 1);
  ASSERT_EQ(mcEventRecord(event, legacy()), mcSuccess);
  ASSERT_EQ(mcEventSynchronize(event), mcSuccess);
  EXPECT_EQ(log.Joined(), "b");
  EXPECT_EQ(*cell_, 1);
  EXPECT_EQ(mcEventQuery(event), mcSuccess);
  EXPECT_EQ(mcEventDestroy(event), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(
    BlockingKinds, LegacyOrder,
    testing::Combine(testing::Values(StreamKind::kBlocking,
                                     StreamKind::kPriority,
                                     StreamKind::kPerThread),
                     testing::Values(StreamKind::kZero, StreamKind::kLegacy),
                     testing::Values(0, 1)),
    CaseName);

// The per-thread default stream of another host thread is a blocking
// stream too: the legacy stream is ordered against it both ways.
TEST(PerThreadStream, OtherThreadsPerThreadStreamOrdersWithLegacy) {
  MX_SPEC("api.sync.per-thread.behaves-as-blocking-stream",
          "api.sync.legacy.waits-for-blocking-streams",
          "api.sync.legacy.blocking-streams-wait-for-it",
          "api.stream.special.per-thread-handle");
  OrderLog log;
  ASSERT_EQ(log.Append(mcStreamLegacy, "legacy1"), mcSuccess);
  mcError_t in_thread = mcErrorUnknown;
  std::thread other(
      [&] { in_thread = log.Append(mcStreamPerThread, "thread"); });
  other.join();
  ASSERT_EQ(in_thread, mcSuccess);
  ASSERT_EQ(log.Append(mcStreamLegacy, "legacy2"), mcSuccess);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(log.Joined(), "legacy1 thread legacy2");
}

TEST(PerThreadStream, ReportsBlockingFlagsInEveryThread) {
  MX_SPEC("api.stream.get-flags.default-stream-is-blocking",
          "api.stream.get-priority.reports-priority",
          "api.stream.get-device.reports-owning-device",
          "api.sync.per-thread.handle-always-available");
  for (int round = 0; round < 2; ++round) {
    unsigned flags = 77;
    int priority = 77;
    int device = 77;
    mcError_t results[3] = {mcErrorUnknown, mcErrorUnknown, mcErrorUnknown};
    std::thread other([&] {
      results[0] = mcStreamGetFlags(mcStreamPerThread, &flags);
      results[1] = mcStreamGetPriority(mcStreamPerThread, &priority);
      results[2] = mcStreamGetDevice(mcStreamPerThread, &device);
    });
    other.join();
    for (mcError_t result : results) EXPECT_EQ(result, mcSuccess);
    EXPECT_EQ(flags, unsigned{mcStreamDefault});
    EXPECT_EQ(priority, 0);
    EXPECT_EQ(device, 0);  // a new thread's current device
  }
}

}  // namespace
}  // namespace mxcts::conformance
