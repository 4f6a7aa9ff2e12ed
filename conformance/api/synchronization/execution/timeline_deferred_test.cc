// Copyright mxcts authors.
//
// Conformance: the deferred timeline mode exposes a missing
// synchronization, and the eager mode is its contrast
// (docs/spec/api-synchronization.md, "When device work runs").
//
// With MXCTS_TIMELINE=deferred, device work runs only when the host waits
// for it or polls, so a program that reads what a kernel, a memory set or
// a copy writes before synchronizing sees the memory as it was; after the
// synchronization it sees the new value. With MXCTS_TIMELINE=eager (or
// unset) the same early read already sees the new value: the mode, not
// the program, made the difference. The mode is read once per process, so
// each check runs in a fresh process with the variable set.
//
// Submissions return before their work has run (deferred mode shows it),
// and a wait runs only the work it needs.
//
// The modes are the reference's (capability timeline_modes). Elsewhere the
// same programs check only what every implementation does: after the
// synchronization the new value is there, and a wait has run, in order,
// the work it waits for.

#include <mc_runtime.h>

#include <cstring>
#include <string>
#include <tuple>

#include "conformance/api/testing/expect_error.h"
#include "conformance/api/testing/order_log.h"
#include "conformance/api/testing/stream_fixtures.h"
#include "conformance/api/testing/stream_kind.h"
#include "conformance/api/testing/timeline_mode_scope.h"
#include "conformance/testing/claimed.h"
#include "conformance/testing/fresh_process.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

constexpr int kOld = 5;
constexpr int kNew = 9;

__global__ void Store(int* cell, int value) { *cell = value; }

// What writes the memory the host then reads.
enum class Writer {
  kKernelToManaged,
  kKernelToPinnedHost,
  kMemsetAsyncToManaged,
  kMemcpyAsyncToPinnedHost,
};

const char* WriterName(Writer writer) {
  switch (writer) {
    case Writer::kKernelToManaged:
      return "KernelToManaged";
    case Writer::kKernelToPinnedHost:
      return "KernelToPinnedHost";
    case Writer::kMemsetAsyncToManaged:
      return "MemsetAsyncToManaged";
    case Writer::kMemcpyAsyncToPinnedHost:
      return "MemcpyAsyncToPinnedHost";
  }
  return "Unknown";
}

// The value the writer leaves in the cell.
int NewValue(Writer writer) {
  if (writer != Writer::kMemsetAsyncToManaged) return kNew;
  int value = 0;
  std::memset(&value, kNew, sizeof(value));
  return value;
}

// Writes kNew into a cell holding kOld, through `writer` in a stream of
// `kind`, and reads the cell before and after synchronizing the stream.
// Returns problems with the calls; `before` and `after` get what was read.
std::string WriteThenRead(Writer writer, StreamKind kind, int* before,
                          int* after) {
  std::string problems;
  TestStream stream(kind);
  problems += Expect("creating the stream", stream.status(), mcSuccess);
  int* cell = nullptr;
  int* source = nullptr;
  const bool pinned = writer == Writer::kKernelToPinnedHost ||
                      writer == Writer::kMemcpyAsyncToPinnedHost;
  problems += Expect("allocating the cell",
                     pinned ? mcMallocHost(&cell, sizeof(int))
                            : mcMallocManaged(&cell, sizeof(int)),
                     mcSuccess);
  if (!problems.empty()) return problems;
  *cell = kOld;
  switch (writer) {
    case Writer::kKernelToManaged:
    case Writer::kKernelToPinnedHost:
      Store<<<1, 1, 0, stream.get()>>>(cell, kNew);
      problems += Expect("the launch", mcGetLastError(), mcSuccess);
      break;
    case Writer::kMemsetAsyncToManaged:
      problems += Expect("mcMemsetAsync",
                         mcMemsetAsync(cell, kNew, sizeof(int), stream.get()),
                         mcSuccess);
      break;
    case Writer::kMemcpyAsyncToPinnedHost: {
      problems += Expect("mcMalloc", mcMalloc(&source, sizeof(int)), mcSuccess);
      const int value = kNew;
      // A synchronous copy from pageable memory may still be in flight in
      // the legacy default stream when it returns, which a non-blocking
      // stream is not ordered after: wait for the device.
      problems +=
          Expect("mcMemcpy",
                 mcMemcpy(source, &value, sizeof(int), mcMemcpyHostToDevice),
                 mcSuccess);
      problems += Expect("mcDeviceSynchronize before the copy",
                         mcDeviceSynchronize(), mcSuccess);
      problems += Expect("mcMemcpyAsync",
                         mcMemcpyAsync(cell, source, sizeof(int),
                                       mcMemcpyDeviceToHost, stream.get()),
                         mcSuccess);
      break;
    }
  }
  // [api.sync.timeline.unsynchronized-read-undefined]: the read a correct
  // program does not make.
  *before = *reinterpret_cast<volatile int*>(cell);
  problems += Expect("mcStreamSynchronize", mcStreamSynchronize(stream.get()),
                     mcSuccess);
  *after = *cell;
  if (source != nullptr) mcFree(source);
  problems += Expect("freeing the cell",
                     pinned ? mcFreeHost(cell) : mcFree(cell), mcSuccess);
  return problems;
}

// Checks the early read against `expected_before` where the backend claims
// the timeline modes; elsewhere the early read races with the device
// [api.sync.timeline.unsynchronized-read-undefined] and only the read after
// synchronizing is checked.
std::string ReadsValues(Writer writer, StreamKind kind, int expected_before) {
  int before = -1;
  int after = -1;
  std::string problems = WriteThenRead(writer, kind, &before, &after);
  if (Claimed("timeline_modes") && before != expected_before) {
    problems += "read before synchronizing: " + std::to_string(before) +
                ", expected " + std::to_string(expected_before) + "; ";
  }
  if (after != NewValue(writer)) {
    problems += "read after synchronizing: " + std::to_string(after) +
                ", expected " + std::to_string(NewValue(writer)) + "; ";
  }
  return problems;
}

using WriterAndKind = std::tuple<Writer, StreamKind>;

std::string WriterAndKindName(
    const testing::TestParamInfo<WriterAndKind>& info) {
  return std::string(WriterName(std::get<0>(info.param))) + "_" +
         StreamKindName(std::get<1>(info.param));
}

class MissingSynchronization : public testing::TestWithParam<WriterAndKind> {
 protected:
  Writer writer() const { return std::get<0>(GetParam()); }
  StreamKind kind() const { return std::get<1>(GetParam()); }
};

TEST_P(MissingSynchronization, DeferredReadBeforeSynchronizeSeesOldValue) {
  MX_SPEC("api.sync.timeline.deferred-runs-when-host-waits",
          "api.stream.synchronize.waits-for-prior-work",
          "api.stream.model.enqueue-is-asynchronous");
  ScopedTimelineMode deferred("deferred");
  MX_EXPECT_IN_FRESH_PROCESS(ReadsValues(writer(), kind(), kOld));
}

TEST_P(MissingSynchronization, EagerReadBeforeSynchronizeSeesNewValue) {
  // The contrast: the same program, the same early read, another mode.
  MX_SPEC("api.sync.timeline.eager-runs-at-submission",
          "api.stream.synchronize.waits-for-prior-work");
  ScopedTimelineMode eager("eager");
  MX_EXPECT_IN_FRESH_PROCESS(ReadsValues(writer(), kind(), NewValue(writer())));
}

INSTANTIATE_TEST_SUITE_P(
    WritersAndStreams, MissingSynchronization,
    testing::Combine(testing::Values(Writer::kKernelToManaged,
                                     Writer::kKernelToPinnedHost,
                                     Writer::kMemsetAsyncToManaged,
                                     Writer::kMemcpyAsyncToPinnedHost),
                     testing::ValuesIn(kAllStreamKinds)),
    WriterAndKindName);

// Submits a host function, a kernel, an event record and a wait into a
// stream of `kind`; in deferred mode none of them has run when the calls
// return, and one synchronization runs them all.
std::string SubmissionsReturnBeforeTheWork(StreamKind kind) {
  std::string problems;
  TestStream stream(kind);
  problems += Expect("creating the stream", stream.status(), mcSuccess);
  int* cell = nullptr;
  mcEvent_t event = nullptr;
  mcEvent_t earlier = nullptr;
  problems +=
      Expect("mcMallocManaged", mcMallocManaged(&cell, sizeof(int)), mcSuccess);
  problems += Expect("mcEventCreate", mcEventCreate(&event), mcSuccess);
  problems += Expect("mcEventCreate", mcEventCreate(&earlier), mcSuccess);
  if (!problems.empty()) return problems;
  *cell = kOld;
  OrderLog log;
  problems +=
      Expect("mcLaunchHostFunc", log.Append(stream.get(), "host"), mcSuccess);
  problems +=
      Expect("mcEventRecord", mcEventRecord(earlier, stream.get()), mcSuccess);
  Store<<<1, 1, 0, stream.get()>>>(cell, kNew);
  problems += Expect("the launch", mcGetLastError(), mcSuccess);
  problems += Expect("mcStreamWaitEvent",
                     mcStreamWaitEvent(stream.get(), earlier, 0), mcSuccess);
  problems += Expect("mcStreamAddCallback",
                     log.AppendCallback(stream.get(), "callback"), mcSuccess);
  problems +=
      Expect("mcEventRecord", mcEventRecord(event, stream.get()), mcSuccess);
  if (Claimed("timeline_modes")) {
    if (log.size() != 0) {
      problems += "work ran at submission: " + log.Joined() + "; ";
    }
    if (*cell != kOld) problems += "the kernel ran at submission; ";
  }
  problems +=
      Expect("mcEventSynchronize", mcEventSynchronize(event), mcSuccess);
  problems += ExpectLog("after the wait", log, "host callback");
  if (*cell != kNew) problems += "the kernel did not run; ";
  mcEventDestroy(event);
  mcEventDestroy(earlier);
  mcFree(cell);
  return problems;
}

class DeferredSubmission
    : public DeferredModeTest<testing::TestWithParam<StreamKind>> {};

TEST_P(DeferredSubmission, ReturnsBeforeTheWorkRuns) {
  MX_SPEC("api.stream.model.enqueue-is-asynchronous",
          "api.sync.host.kernel-launch-asynchronous",
          "api.event.record.asynchronous",
          "api.stream.wait-event.does-not-block-host",
          "api.sync.timeline.deferred-runs-when-host-waits",
          "api.event.synchronize.waits-for-captured-work");
  MX_EXPECT_IN_FRESH_PROCESS(SubmissionsReturnBeforeTheWork(GetParam()));
}

INSTANTIATE_TEST_SUITE_P(Streams, DeferredSubmission,
                         testing::ValuesIn(kAllStreamKinds), KindName);

// Work in two non-blocking streams; waiting for one runs only its work.
std::string WaitRunsOnlyWhatItNeeds(bool wait_for_second) {
  std::string problems;
  TestStream first(StreamKind::kNonBlocking);
  TestStream second(StreamKind::kNonBlocking);
  problems += Expect("creating the streams", first.status(), mcSuccess);
  problems += Expect("creating the streams", second.status(), mcSuccess);
  OrderLog log;
  for (int i = 0; i < 3; ++i) {
    problems +=
        Expect("mcLaunchHostFunc",
               log.Append(first.get(), "a" + std::to_string(i)), mcSuccess);
    problems +=
        Expect("mcLaunchHostFunc",
               log.Append(second.get(), "b" + std::to_string(i)), mcSuccess);
  }
  problems +=
      Expect("mcStreamSynchronize",
             mcStreamSynchronize(wait_for_second ? second.get() : first.get()),
             mcSuccess);
  const std::string waited = wait_for_second ? "b0 b1 b2" : "a0 a1 a2";
  if (Claimed("timeline_modes")) {
    problems += ExpectLog("after mcStreamSynchronize", log, waited);
  } else {
    // The other stream's work may have run too, in any interleaving; the
    // waited-for stream's has, in its order.
    const char stream_letter = waited[0];
    std::string ran;
    for (const std::string& entry : log.entries()) {
      if (entry[0] != stream_letter) continue;
      ran += (ran.empty() ? "" : " ") + entry;
    }
    if (ran != waited) {
      problems += "after mcStreamSynchronize the log is '" + log.Joined() +
                  "', without '" + waited + "' in order; ";
    }
  }
  problems += Expect("mcDeviceSynchronize", mcDeviceSynchronize(), mcSuccess);
  if (log.size() != 6) problems += "mcDeviceSynchronize left work; ";
  return problems;
}

// The parameter: whether the second stream is the one waited for.
class DeferredWait : public DeferredModeTest<testing::TestWithParam<bool>> {};

TEST_P(DeferredWait, RunsOnlyTheWaitedStreamsWork) {
  MX_SPEC("api.sync.timeline.deferred-runs-when-host-waits",
          "api.sync.host.device-synchronize-waits-all");
  MX_EXPECT_IN_FRESH_PROCESS(WaitRunsOnlyWhatItNeeds(GetParam()));
}

INSTANTIATE_TEST_SUITE_P(Streams, DeferredWait, testing::Bool(),
                         [](const testing::TestParamInfo<bool>& info) {
                           return std::string(info.param ? "Second" : "First");
                         });

}  // namespace
}  // namespace mxcts::conformance
