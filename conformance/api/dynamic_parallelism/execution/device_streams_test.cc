// Copyright mxcts authors.
//
// Conformance: streams and events created in device code
// (docs/spec/api-dynamic-parallelism.md, "Streams and events in device
// code"): launches into a named stream run in launch order, an event wait
// orders later launches after the recorded work, destroying a stream does
// not cancel its work, and a copy into a named stream follows its earlier
// launches. Each child takes a ticket from a shared counter as it starts, so
// the tickets say in which order children ran; the controls reverse the
// order the program asks for and see the tickets reverse with it. Every
// test also runs in the engine's shuffled order.

#include <mc_runtime.h>

#include <string>
#include <vector>

#include "conformance/api/dynamic_parallelism/execution/device_launch_testing.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"
#include "gtest/gtest.h"

namespace {

using dp_testing::DeviceArray;

// Records in tickets[slot] the order in which this child started.
__global__ void TakeTicket(unsigned* counter, unsigned* tickets, int slot) {
  tickets[slot] = atomicAdd(counter, 1u) + 1;
}

// --- Launches into one named stream run in launch order. ---

// Thread 0 creates the stream; threads launch `per_thread` children each,
// one thread after another, into it; `reverse` launches the slots from the
// last down (the control).
__global__ void LaunchIntoOneStream(unsigned* counter, unsigned* tickets,
                                    int per_thread, int reverse, int* status) {
  __shared__ mcStream_t stream;
  const int thread = threadIdx.x;
  if (thread == 0) {
    status[0] = mcStreamCreateWithFlags(&stream, mcStreamNonBlocking);
  }
  __syncthreads();
  const int total = per_thread * blockDim.x;
  for (int t = 0; t < static_cast<int>(blockDim.x); ++t) {
    if (t == thread) {
      for (int i = 0; i < per_thread; ++i) {
        const int n = thread * per_thread + i;
        TakeTicket<<<1, 1, 0, stream>>>(counter, tickets,
                                        reverse != 0 ? total - 1 - n : n);
      }
    }
    __syncthreads();
  }
  if (thread == 0) status[1] = mcStreamDestroy(stream);
}

struct InOrderCase {
  const char* name;
  int threads;
  int per_thread;
  bool reverse;  // the control: launch order reversed
};

class NamedStreamOrderTest : public ::testing::TestWithParam<InOrderCase> {};

TEST_P(NamedStreamOrderTest, ChildrenOfOneStreamRunInLaunchOrder) {
  MX_SPEC("api.devrt.stream.named-stream-runs-launches-in-order",
          "api.devrt.stream.named-streams-optional",
          "api.devrt.stream.destroy-returns-at-once");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  MX_REQUIRE_CAPABILITY("device_streams");
  const InOrderCase& c = GetParam();
  const int total = c.threads * c.per_thread;
  DeviceArray<unsigned> counter(1);
  DeviceArray<unsigned> tickets(total);
  DeviceArray<int> status(2);
  LaunchIntoOneStream<<<1, c.threads>>>(counter.get(), tickets.get(),
                                        c.per_thread, c.reverse ? 1 : 0,
                                        status.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(status.At(0), mcSuccess);
  EXPECT_EQ(status.At(1), mcSuccess);
  const std::vector<unsigned> got = tickets.ToHost();
  for (int slot = 0; slot < total; ++slot) {
    const unsigned expected = c.reverse ? total - slot : slot + 1;
    EXPECT_EQ(got[slot], expected) << "slot " << slot;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Launches, NamedStreamOrderTest,
    ::testing::Values(InOrderCase{"OneThreadTwo", 1, 2, false},
                      InOrderCase{"OneThreadEight", 1, 8, false},
                      InOrderCase{"FourThreadsThree", 4, 3, false},
                      InOrderCase{"SixtyFourThreadsOne", 64, 1, false},
                      InOrderCase{"ControlOneThreadEightReversed", 1, 8, true},
                      InOrderCase{"ControlFourThreadsThreeReversed", 4, 3,
                                  true}),
    [](const auto& info) { return std::string(info.param.name); });

// Each thread its own stream with `length` children: every stream keeps its
// own order, whatever the order between streams.
__global__ void OneStreamPerThread(unsigned* counter, unsigned* tickets,
                                   int length, int* status) {
  mcStream_t stream;
  const int thread = threadIdx.x;
  status[thread] = mcStreamCreateWithFlags(&stream, mcStreamNonBlocking);
  for (int i = 0; i < length; ++i) {
    TakeTicket<<<1, 1, 0, stream>>>(counter, tickets, thread * length + i);
  }
  // Also a child in the NULL stream, unordered with all of them.
  TakeTicket<<<1, 1>>>(counter, tickets, blockDim.x * length + thread);
  mcStreamDestroy(stream);
}

class StreamsPerThreadTest : public ::testing::TestWithParam<int> {};

TEST_P(StreamsPerThreadTest, EachStreamKeepsItsOwnOrder) {
  MX_SPEC("api.devrt.stream.named-stream-runs-launches-in-order",
          "api.devrt.stream.streams-unordered");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  MX_REQUIRE_CAPABILITY("device_streams");
  const int threads = GetParam();
  const int length = 4;
  const int total = threads * (length + 1);
  DeviceArray<unsigned> counter(1);
  DeviceArray<unsigned> tickets(total);
  DeviceArray<int> status(threads);
  OneStreamPerThread<<<1, threads>>>(counter.get(), tickets.get(), length,
                                     status.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  const std::vector<unsigned> got = tickets.ToHost();
  const std::vector<int> created = status.ToHost();
  std::vector<bool> seen(total + 1, false);
  for (int slot = 0; slot < total; ++slot) {
    ASSERT_GE(got[slot], 1u) << "slot " << slot << " never ran";
    ASSERT_LE(got[slot], static_cast<unsigned>(total));
    EXPECT_FALSE(seen[got[slot]]) << "ticket " << got[slot] << " twice";
    seen[got[slot]] = true;
  }
  for (int t = 0; t < threads; ++t) {
    EXPECT_EQ(created[t], mcSuccess) << "thread " << t;
    for (int i = 1; i < length; ++i) {
      EXPECT_LT(got[t * length + i - 1], got[t * length + i])
          << "stream of thread " << t << ", child " << i;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Threads, StreamsPerThreadTest,
                         ::testing::Values(1, 2, 5, 64));

// --- Event waits order later work. ---

// Which streams the three recorded children (`first`) and the waiting child
// (`second`) go to: two named streams, or one of them the NULL stream.
enum class Placement { kNamedToNamed, kNullToNamed, kNamedToNull };

struct WaitCase {
  const char* name;
  Placement placement;
  bool control;  // the event orders the other way: child 3 before 0-2
};

__global__ void OrderedByEvent(unsigned* counter, unsigned* tickets,
                               Placement placement, int control, int* status) {
  mcStream_t a;
  mcStream_t b;
  mcEvent_t event;
  status[0] = mcStreamCreateWithFlags(&a, mcStreamNonBlocking);
  status[1] = mcStreamCreateWithFlags(&b, mcStreamNonBlocking);
  status[2] = mcEventCreateWithFlags(&event, mcEventDisableTiming);
  mcStream_t first = placement == Placement::kNullToNamed ? 0 : a;
  mcStream_t second = placement == Placement::kNamedToNull ? 0 : b;
  if (control == 0) {
    // Several children before the record, so the event covers them all.
    for (int i = 0; i < 3; ++i) {
      TakeTicket<<<1, 1, 0, first>>>(counter, tickets, i);
    }
    status[3] = mcEventRecord(event, first);
    status[4] = mcStreamWaitEvent(second, event, 0);
    TakeTicket<<<1, 1, 0, second>>>(counter, tickets, 3);
  } else {
    TakeTicket<<<1, 1, 0, second>>>(counter, tickets, 3);
    status[3] = mcEventRecord(event, second);
    status[4] = mcStreamWaitEvent(first, event, 0);
    for (int i = 0; i < 3; ++i) {
      TakeTicket<<<1, 1, 0, first>>>(counter, tickets, i);
    }
  }
  status[5] = mcEventDestroy(event);
  mcStreamDestroy(a);
  mcStreamDestroy(b);
}

class EventWaitTest : public ::testing::TestWithParam<WaitCase> {};

TEST_P(EventWaitTest, LaterLaunchWaitsForTheRecordedWork) {
  MX_SPEC("api.devrt.event.wait-orders-later-work",
          "api.devrt.event.subset-optional");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  MX_REQUIRE_CAPABILITY("device_streams");
  const WaitCase& c = GetParam();
  DeviceArray<unsigned> counter(1);
  DeviceArray<unsigned> tickets(4);
  DeviceArray<int> status(6);
  OrderedByEvent<<<1, 1>>>(counter.get(), tickets.get(), c.placement,
                           c.control ? 1 : 0, status.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (int value : status.ToHost()) EXPECT_EQ(value, mcSuccess);
  const std::vector<unsigned> got = tickets.ToHost();
  for (int i = 0; i < 3; ++i) {
    if (c.control) {
      EXPECT_GT(got[i], got[3]) << "child " << i << " waited for child 3";
    } else {
      EXPECT_LT(got[i], got[3]) << "child 3 waited for child " << i;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Placements, EventWaitTest,
    ::testing::Values(
        WaitCase{"NamedToNamed", Placement::kNamedToNamed, false},
        WaitCase{"NullToNamed", Placement::kNullToNamed, false},
        WaitCase{"NamedToNull", Placement::kNamedToNull, false},
        WaitCase{"ControlNamedToNamed", Placement::kNamedToNamed, true},
        WaitCase{"ControlNullToNamed", Placement::kNullToNamed, true},
        WaitCase{"ControlNamedToNull", Placement::kNamedToNull, true}),
    [](const auto& info) { return std::string(info.param.name); });

// A wait carries over: stream b waits for a, c waits for an event recorded
// in b with nothing launched there, so c's child follows a's.
__global__ void ChainedWaits(unsigned* counter, unsigned* tickets, int rerecord,
                             int* status) {
  mcStream_t a, b, c;
  mcEvent_t ea, eb;
  mcStreamCreateWithFlags(&a, mcStreamNonBlocking);
  mcStreamCreateWithFlags(&b, mcStreamNonBlocking);
  mcStreamCreateWithFlags(&c, mcStreamNonBlocking);
  mcEventCreateWithFlags(&ea, mcEventDisableTiming);
  mcEventCreateWithFlags(&eb, mcEventDisableTiming);
  TakeTicket<<<1, 1, 0, a>>>(counter, tickets, 0);
  status[0] = mcEventRecord(ea, a);
  if (rerecord != 0) {
    // Recording again captures anew: the second child too.
    TakeTicket<<<1, 1, 0, a>>>(counter, tickets, 1);
    status[0] |= mcEventRecord(ea, a);
  }
  status[1] = mcStreamWaitEvent(b, ea, 0);
  status[2] = mcEventRecord(eb, b);
  status[3] = mcStreamWaitEvent(c, eb, 0);
  TakeTicket<<<1, 1, 0, c>>>(counter, tickets, 2);
}

class ChainedWaitTest : public ::testing::TestWithParam<bool> {};

TEST_P(ChainedWaitTest, WaitsCarryThroughStreamsAndRecords) {
  MX_SPEC("api.devrt.event.wait-orders-later-work");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  MX_REQUIRE_CAPABILITY("device_streams");
  const bool rerecord = GetParam();
  DeviceArray<unsigned> counter(1);
  DeviceArray<unsigned> tickets(3);
  DeviceArray<int> status(4);
  ChainedWaits<<<1, 1>>>(counter.get(), tickets.get(), rerecord ? 1 : 0,
                         status.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (int value : status.ToHost()) EXPECT_EQ(value, mcSuccess);
  const std::vector<unsigned> got = tickets.ToHost();
  EXPECT_LT(got[0], got[2]);
  if (rerecord) {
    EXPECT_LT(got[1], got[2]);
  }
}

INSTANTIATE_TEST_SUITE_P(Records, ChainedWaitTest, ::testing::Bool());

// Waiting on an event never recorded waits for nothing.
__global__ void WaitOnFreshEvent(unsigned* counter, unsigned* tickets,
                                 int* status) {
  mcStream_t stream;
  mcEvent_t event;
  mcStreamCreateWithFlags(&stream, mcStreamNonBlocking);
  mcEventCreateWithFlags(&event, mcEventDisableTiming);
  status[0] = mcStreamWaitEvent(stream, event, 0);
  TakeTicket<<<1, 1, 0, stream>>>(counter, tickets, 0);
  status[1] = mcDeviceSynchronize();
}

TEST(EventWait, UnrecordedEventWaitsForNothing) {
  MX_SPEC("api.devrt.event.wait-orders-later-work");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  MX_REQUIRE_CAPABILITY("device_streams");
  DeviceArray<unsigned> counter(1);
  DeviceArray<unsigned> tickets(1);
  DeviceArray<int> status(2);
  WaitOnFreshEvent<<<1, 1>>>(counter.get(), tickets.get(), status.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(status.At(0), mcSuccess);
  EXPECT_EQ(status.At(1), mcSuccess);
  EXPECT_EQ(tickets.At(0), 1u);
}

// --- Destroying a stream keeps its work. ---

__global__ void StoreAt(int* out, int index) { out[index] = index + 1; }

__global__ void DestroyWithWorkPending(int* out, int children, int synchronize,
                                       int* status) {
  mcStream_t stream;
  mcStreamCreateWithFlags(&stream, mcStreamNonBlocking);
  for (int i = 0; i < children; ++i) StoreAt<<<1, 1, 0, stream>>>(out, i);
  status[0] = mcStreamDestroy(stream);
  if (synchronize != 0) {
    status[1] = mcDeviceSynchronize();
    // After the synchronize the children are complete.
    int sum = 0;
    for (int i = 0; i < children; ++i) sum += out[i];
    status[2] = sum;
  }
}

struct DestroyCase {
  const char* name;
  int children;
  bool synchronize;
};

class StreamDestroyTest : public ::testing::TestWithParam<DestroyCase> {};

TEST_P(StreamDestroyTest, WorkLaunchedBeforeDestroyStillRuns) {
  MX_SPEC("api.devrt.stream.destroy-returns-at-once",
          "api.devrt.completion.implicit-sync-when-parent-threads-exit");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  MX_REQUIRE_CAPABILITY("device_streams");
  const DestroyCase& c = GetParam();
  DeviceArray<int> out(c.children);
  DeviceArray<int> status(3);
  DestroyWithWorkPending<<<1, 1>>>(out.get(), c.children, c.synchronize ? 1 : 0,
                                   status.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(status.At(0), mcSuccess);
  const std::vector<int> values = out.ToHost();
  int sum = 0;
  for (int i = 0; i < c.children; ++i) {
    EXPECT_EQ(values[i], i + 1);
    sum += i + 1;
  }
  if (c.synchronize) {
    EXPECT_EQ(status.At(1), mcSuccess);
    EXPECT_EQ(status.At(2), sum);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Cases, StreamDestroyTest,
    ::testing::Values(DestroyCase{"OneChildAtExit", 1, false},
                      DestroyCase{"FiveChildrenAtExit", 5, false},
                      DestroyCase{"OneChildSynchronized", 1, true},
                      DestroyCase{"FiveChildrenSynchronized", 5, true}),
    [](const auto& info) { return std::string(info.param.name); });

// --- Copies and fills into a named stream follow its launches. ---

__global__ void Store(int* cell, int value) { *cell = value; }

enum class StreamWork { kCopy, kCopy2D, kFill, kFill2D };

// `copy_first` is the control: the copy comes before the launch in the
// stream, so it sees the old value.
__global__ void CopyAfterChild(int* source, int* destination, StreamWork work,
                               int copy_first, int* status) {
  mcStream_t stream;
  mcStreamCreateWithFlags(&stream, mcStreamNonBlocking);
  auto copy = [&] {
    switch (work) {
      case StreamWork::kCopy:
        return mcMemcpyAsync(destination, source, sizeof(int),
                             mcMemcpyDeviceToDevice, stream);
      case StreamWork::kCopy2D:
        return mcMemcpy2DAsync(destination, sizeof(int), source, sizeof(int),
                               sizeof(int), 1, mcMemcpyDeviceToDevice, stream);
      case StreamWork::kFill:
        return mcMemsetAsync(source, 0x11, sizeof(int), stream);
      case StreamWork::kFill2D:
        return mcMemset2DAsync(source, sizeof(int), 0x11, sizeof(int), 1,
                               stream);
    }
    return mcErrorInvalidValue;
  };
  if (copy_first != 0) status[0] = copy();
  Store<<<1, 1, 0, stream>>>(source, 42);
  if (copy_first == 0) status[0] = copy();
  mcStreamDestroy(stream);
}

struct CopyCase {
  const char* name;
  StreamWork work;
  bool copy_first;
};

class StreamCopyTest : public ::testing::TestWithParam<CopyCase> {};

TEST_P(StreamCopyTest, CopyInANamedStreamFollowsItsLaunches) {
  MX_SPEC("api.devrt.stream.copies-follow-earlier-work",
          "api.devrt.api.subset-of-host-api");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  MX_REQUIRE_CAPABILITY("device_streams");
  const CopyCase& c = GetParam();
  DeviceArray<int> source(1);
  DeviceArray<int> destination(1);
  DeviceArray<int> status(1);
  CopyAfterChild<<<1, 1>>>(source.get(), destination.get(), c.work,
                           c.copy_first ? 1 : 0, status.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(status.At(0), mcSuccess);
  const bool fill =
      c.work == StreamWork::kFill || c.work == StreamWork::kFill2D;
  if (fill) {
    // The fill after the child wins; before it, the child's store does.
    EXPECT_EQ(source.At(0), c.copy_first ? 42 : 0x11111111);
  } else {
    EXPECT_EQ(destination.At(0), c.copy_first ? 0 : 42);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Work, StreamCopyTest,
    ::testing::Values(CopyCase{"Copy", StreamWork::kCopy, false},
                      CopyCase{"Copy2D", StreamWork::kCopy2D, false},
                      CopyCase{"Fill", StreamWork::kFill, false},
                      CopyCase{"Fill2D", StreamWork::kFill2D, false},
                      CopyCase{"ControlCopyFirst", StreamWork::kCopy, true},
                      CopyCase{"ControlFillFirst", StreamWork::kFill, true}),
    [](const auto& info) { return std::string(info.param.name); });

// --- Launches through the device runtime API name streams too. ---

__global__ void LaunchByApi(unsigned* counter, unsigned* tickets, int v2,
                            int* status) {
  mcStream_t stream;
  mcStreamCreateWithFlags(&stream, mcStreamNonBlocking);
  for (int i = 0; i < 4; ++i) {
    void* buffer =
        v2 != 0 ? mcGetParameterBufferV2((void*)TakeTicket, dim3(1), dim3(1), 0)
                : mcGetParameterBuffer(alignof(void*),
                                       2 * sizeof(void*) + sizeof(int));
    unsigned** pointers = static_cast<unsigned**>(buffer);
    pointers[0] = counter;
    pointers[1] = tickets;
    *reinterpret_cast<int*>(pointers + 2) = i;
    status[i] = v2 != 0 ? mcLaunchDeviceV2(buffer, stream)
                        : mcLaunchDevice((void*)TakeTicket, buffer, dim3(1),
                                         dim3(1), 0, stream);
  }
  mcStreamDestroy(stream);
}

class ApiLaunchStreamTest : public ::testing::TestWithParam<bool> {};

TEST_P(ApiLaunchStreamTest, LaunchDeviceIntoANamedStreamKeepsOrder) {
  MX_SPEC("api.devrt.stream.named-stream-runs-launches-in-order",
          "api.devrt.launch.parameter-buffer-api");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  MX_REQUIRE_CAPABILITY("device_streams");
  DeviceArray<unsigned> counter(1);
  DeviceArray<unsigned> tickets(4);
  DeviceArray<int> status(4);
  LaunchByApi<<<1, 1>>>(counter.get(), tickets.get(), GetParam() ? 1 : 0,
                        status.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (int value : status.ToHost()) EXPECT_EQ(value, mcSuccess);
  const std::vector<unsigned> got = tickets.ToHost();
  for (int i = 0; i < 4; ++i) EXPECT_EQ(got[i], static_cast<unsigned>(i + 1));
}

INSTANTIATE_TEST_SUITE_P(Forms, ApiLaunchStreamTest, ::testing::Bool(),
                         [](const auto& info) {
                           return std::string(info.param ? "V2" : "V1");
                         });

}  // namespace
