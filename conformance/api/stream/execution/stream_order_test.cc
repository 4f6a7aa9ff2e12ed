// Copyright mxcts authors.
//
// Conformance: work in one stream runs in issue order, on the stream's
// device, for every kind of stream and every device; what a stream reports
// about itself (docs/spec/api-stream.md, "Stream model", "Creating
// streams", "Stream properties", "Querying and synchronizing").
//
// Every result here must hold in every timeline mode, so the target also
// runs as _deferred and _shuffle (TIMELINE_VARIANTS). Each ordering check
// is a chain whose links test their predecessor: a link that ran early
// breaks the chain with a marker instead of continuing it, which is the
// control showing that the check can fail.

#include <mc_runtime.h>

#include <set>
#include <string>
#include <vector>

#include "conformance/api/testing/order_log.h"
#include "conformance/api/testing/scoped_device.h"
#include "conformance/api/testing/stream_fixtures.h"
#include "conformance/api/testing/stream_kind.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

constexpr int kBroken = -1000;

// Link `step` of a chain: moves *cell from `step` to `step + 1`, or marks
// the chain broken when the previous link has not run (or ran twice).
__global__ void ChainLink(int* cell, int step) {
  if (*cell == step) {
    *cell = step + 1;
  } else {
    *cell = kBroken - step;
  }
}

// A host-function link of the same chain.
struct HostLink {
  int* cell;
  int step;
};

void RunHostLink(void* data) {
  const HostLink* link = static_cast<const HostLink*>(data);
  *link->cell = *link->cell == link->step ? link->step + 1 : kBroken - 100;
}

void RunCallbackLink(mcStream_t, mcError_t status, void* data) {
  const HostLink* link = static_cast<const HostLink*>(data);
  *link->cell = *link->cell == link->step && status == mcSuccess
                    ? link->step + 1
                    : kBroken - 200;
}

// The stream of the parameter's kind on its device, which is current, and
// a managed cell holding 0.
class StreamOrder : public StreamOnDeviceTest {};

TEST_P(StreamOrder, KernelChainRunsInIssueOrder) {
  MX_SPEC("api.stream.model.in-order-execution",
          "api.stream.model.stream-bound-to-device",
          "api.stream.synchronize.waits-for-prior-work");
  constexpr int kLinks = 12;
  for (int step = 0; step < kLinks; ++step) {
    ChainLink<<<1, 1, 0, stream()>>>(cell(), step);
    ASSERT_EQ(mcGetLastError(), mcSuccess) << step;
  }
  ASSERT_EQ(mcStreamSynchronize(stream()), mcSuccess);
  EXPECT_EQ(*cell(), kLinks);
  // Control: one more link of a step already passed breaks the chain.
  ChainLink<<<1, 1, 0, stream()>>>(cell(), 3);
  ASSERT_EQ(mcStreamSynchronize(stream()), mcSuccess);
  EXPECT_EQ(*cell(), kBroken - 3);
}

TEST_P(StreamOrder, MixedWorkRunsInIssueOrder) {
  // Kernels, a memory set, a host function and a stream callback, each
  // seeing its predecessor's effect on the same cell.
  MX_SPEC("api.stream.model.in-order-execution",
          "api.callback.add.runs-after-preceding-work",
          "api.callback.add.blocks-later-work",
          "api.callback.host-func.runs-in-stream-order",
          "api.callback.host-func.synchronize-waits");
  *cell() = 7;
  HostLink host_link{cell(), 2};
  HostLink callback_link{cell(), 4};
  // 7 -> 0 (memset), 0 -> 1, 1 -> 2 (kernels), 2 -> 3 (host function),
  // 3 -> 4 (kernel), 4 -> 5 (callback), 5 -> 6 (kernel).
  ASSERT_EQ(mcMemsetAsync(cell(), 0, sizeof(int), stream()), mcSuccess);
  ChainLink<<<1, 1, 0, stream()>>>(cell(), 0);
  ChainLink<<<1, 1, 0, stream()>>>(cell(), 1);
  ASSERT_EQ(mcLaunchHostFunc(stream(), RunHostLink, &host_link), mcSuccess);
  ChainLink<<<1, 1, 0, stream()>>>(cell(), 3);
  ASSERT_EQ(mcStreamAddCallback(stream(), RunCallbackLink, &callback_link, 0),
            mcSuccess);
  ChainLink<<<1, 1, 0, stream()>>>(cell(), 5);
  ASSERT_EQ(mcGetLastError(), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream()), mcSuccess);
  EXPECT_EQ(*cell(), 6);
}

TEST_P(StreamOrder, HostFunctionsRunInIssueOrder) {
  MX_SPEC("api.stream.model.in-order-execution",
          "api.callback.host-func.runs-in-stream-order",
          "api.callback.add.runs-exactly-once");
  OrderLog log;
  std::string expected;
  for (int i = 0; i < 10; ++i) {
    const std::string label = std::to_string(i);
    ASSERT_EQ(i % 3 == 2 ? log.AppendCallback(stream(), label)
                         : log.Append(stream(), label),
              mcSuccess);
    expected += (i == 0 ? "" : " ") + label;
  }
  ASSERT_EQ(mcStreamSynchronize(stream()), mcSuccess);
  EXPECT_EQ(log.Joined(), expected);
}

TEST_P(StreamOrder, ReportsItsFlagsPriorityAndDevice) {
  MX_SPEC("api.stream.get-flags.reports-creation-flags",
          "api.stream.get-flags.default-stream-is-blocking",
          "api.stream.get-priority.reports-priority",
          "api.stream.get-device.reports-owning-device",
          "api.stream.create-with-priority.records-priority");
  unsigned flags = 0xdead;
  ASSERT_EQ(mcStreamGetFlags(stream(), &flags), mcSuccess);
  EXPECT_EQ(flags, FlagsOfKind(kind()));
  int greatest = 1;
  ASSERT_EQ(mcDeviceGetStreamPriorityRange(nullptr, &greatest), mcSuccess);
  int priority = 12345;
  ASSERT_EQ(mcStreamGetPriority(stream(), &priority), mcSuccess);
  EXPECT_EQ(priority, kind() == StreamKind::kPriority ? greatest : 0);
  int owner = -1;
  ASSERT_EQ(mcStreamGetDevice(stream(), &owner), mcSuccess);
  EXPECT_EQ(owner, device());
}

TEST_P(StreamOrder, ReportsItsDeviceWhateverIsCurrent) {
  // A created stream stays on its device; a default stream names the
  // current device's.
  MX_SPEC("api.stream.get-device.reports-owning-device",
          "api.stream.model.stream-bound-to-device",
          "api.stream.special.legacy-handle",
          "api.stream.special.per-thread-handle");
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
  const int other = 1 - device();
  ScopedDevice switched(other);
  ASSERT_TRUE(switched.ok());
  int owner = -1;
  ASSERT_EQ(mcStreamGetDevice(stream(), &owner), mcSuccess);
  EXPECT_EQ(owner, IsCreatedKind(kind()) ? device() : other);
}

// Created streams only: a default stream always names the current device's.
class CreatedStreamOrder : public StreamOrder {};

INSTANTIATE_TEST_SUITE_P(
    KindsAndDevices, CreatedStreamOrder,
    testing::Combine(testing::ValuesIn(kCreatedStreamKinds),
                     testing::Values(0, 1)),
    KindOnDeviceName);

TEST_P(CreatedStreamOrder, OtherDevicesStreamCanBeQueriedAndSynchronized) {
  MX_SPEC("api.stream.synchronize.other-device-stream",
          "api.stream.query.success-when-idle");
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
  ChainLink<<<1, 1, 0, stream()>>>(cell(), 0);
  ASSERT_EQ(mcGetLastError(), mcSuccess);
  ScopedDevice switched(1 - device());
  ASSERT_TRUE(switched.ok());
  EXPECT_EQ(mcStreamSynchronize(stream()), mcSuccess);
  EXPECT_EQ(*cell(), 1);
  EXPECT_EQ(mcStreamQuery(stream()), mcSuccess);
}

TEST_P(StreamOrder, DeviceSynchronizeWaitsForTheStream) {
  MX_SPEC("api.sync.host.device-synchronize-waits-all",
          "api.callback.host-func.synchronize-waits");
  OrderLog log;
  ASSERT_EQ(log.Append(stream(), "work"), mcSuccess);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(log.Joined(), "work");
  EXPECT_EQ(mcStreamQuery(stream()), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(KindsAndDevices, StreamOrder,
                         testing::Combine(testing::ValuesIn(kAllStreamKinds),
                                          testing::Values(0, 1)),
                         KindOnDeviceName);

TEST(StreamCreate, HandlesAreDistinctAndNewStreamsIdle) {
  MX_SPEC("api.stream.create.returns-distinct-handles",
          "api.stream.create.new-stream-is-idle",
          "api.stream.create.returns-new-stream",
          "api.stream.special.handles-distinct");
  std::set<mcStream_t> seen = {nullptr, mcStreamLegacy, mcStreamPerThread};
  EXPECT_EQ(seen.size(), 3u);  // the three default names differ
  std::vector<TestStream*> streams;
  for (int round = 0; round < 4; ++round) {
    for (StreamKind kind : kCreatedStreamKinds) {
      streams.push_back(new TestStream(kind));
      ASSERT_EQ(streams.back()->status(), mcSuccess);
      EXPECT_TRUE(seen.insert(streams.back()->get()).second)
          << "a handle repeats";
      EXPECT_EQ(mcStreamQuery(streams.back()->get()), mcSuccess);
      EXPECT_EQ(mcStreamSynchronize(streams.back()->get()), mcSuccess);
    }
  }
  for (TestStream* stream : streams) delete stream;
}

TEST(StreamCreate, CreateIsCreateWithDefaultFlags) {
  MX_SPEC("api.stream.create-with-flags.default-flag",
          "api.stream.create-with-flags.flag-values",
          "api.stream.create.returns-new-stream");
  EXPECT_EQ(mcStreamDefault, 0x00);
  EXPECT_EQ(mcStreamNonBlocking, 0x01);
  mcStream_t plain = nullptr;
  mcStream_t flagged = nullptr;
  ASSERT_EQ(mcStreamCreate(&plain), mcSuccess);
  ASSERT_EQ(mcStreamCreateWithFlags(&flagged, mcStreamDefault), mcSuccess);
  unsigned plain_flags = 9;
  unsigned flagged_flags = 9;
  int plain_priority = 9;
  int flagged_priority = 9;
  EXPECT_EQ(mcStreamGetFlags(plain, &plain_flags), mcSuccess);
  EXPECT_EQ(mcStreamGetFlags(flagged, &flagged_flags), mcSuccess);
  EXPECT_EQ(mcStreamGetPriority(plain, &plain_priority), mcSuccess);
  EXPECT_EQ(mcStreamGetPriority(flagged, &flagged_priority), mcSuccess);
  EXPECT_EQ(plain_flags, unsigned{mcStreamDefault});
  EXPECT_EQ(flagged_flags, plain_flags);
  EXPECT_EQ(plain_priority, 0);
  EXPECT_EQ(flagged_priority, 0);
  EXPECT_EQ(CurrentDevice(), 0);
  EXPECT_EQ(mcStreamDestroy(plain), mcSuccess);
  EXPECT_EQ(mcStreamDestroy(flagged), mcSuccess);
}

TEST(StreamDefault, LaunchWithoutStreamIsInTheLegacyStream) {
  // A launch without a stream and a host function in mcStreamLegacy are
  // ordered: they share the legacy default stream.
  MX_SPEC("api.stream.model.default-stream-when-omitted",
          "api.stream.special.legacy-handle",
          "lang.launch.operand.s-defaults-to-default-stream");
  int* cell = nullptr;
  ASSERT_EQ(mcMallocManaged(&cell, sizeof(int)), mcSuccess);
  *cell = 0;
  HostLink link{cell, 1};
  ChainLink<<<1, 1>>>(cell, 0);
  ASSERT_EQ(mcLaunchHostFunc(mcStreamLegacy, RunHostLink, &link), mcSuccess);
  ChainLink<<<1, 1, 0>>>(cell, 2);
  ASSERT_EQ(mcStreamSynchronize(mcStreamLegacy), mcSuccess);
  EXPECT_EQ(*cell, 3);
  EXPECT_EQ(mcFree(cell), mcSuccess);
}

}  // namespace
}  // namespace mxcts::conformance
