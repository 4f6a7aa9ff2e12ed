// Copyright mxcts authors.
//
// Conformance: the calls a capture refuses (docs/spec/api-graph.md, "Stream
// capture"): beginning and ending errors, which leave a capture in
// progress as it was; synchronizing or querying a capturing stream, waiting
// for the device, an unsafe call (mcMalloc, mcMallocHost, mcFreeHost,
// mcMallocManaged, mcFree) in a mode that prohibits it, use of the
// legacy stream a capturing stream synchronizes with, and queries of an
// event recorded in a capture. A call that invalidates the capture is shown
// to do so (status, refused further work, the end returning no graph) and
// the stream to work normally afterwards; each refusal has a control where
// the same call is allowed.

#include <mc_runtime.h>

#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "conformance/api/graph/capture/capture_testing.h"
#include "conformance/api/graph/exec/exec_testing.h"
#include "conformance/api/testing/stream_kind.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

// Adds 1 to *cell.
__global__ void Increment(int* cell) { atomicAdd(cell, 1); }

class CaptureRules : public CaptureTest {
 protected:
  // Begins the capture and records one kernel into it.
  void BeginWithOneKernel() {
    ASSERT_EQ(Begin(), mcSuccess);
    Increment<<<1, 1, 0, stream()>>>(cell());
    ASSERT_EQ(mcGetLastError(), mcSuccess);
  }
  // The capture is still active and ends with `nodes` nodes, none of which
  // ran.
  void ExpectCaptureIntact(size_t nodes) {
    EXPECT_EQ(CaptureStatusOf(stream()), mcStreamCaptureStatusActive);
    ScopedGraph graph;
    ASSERT_EQ(mcStreamEndCapture(stream(), graph.out()), mcSuccess);
    EXPECT_EQ(Nodes(graph.get()).size(), nodes);
    ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
    EXPECT_EQ(*cell(), 0);
  }
  // The capture is invalidated: the status says so, work is refused, the
  // end returns no graph and ends it; then the stream runs work again and
  // nothing captured ran.
  void ExpectInvalidated() {
    EXPECT_EQ(CaptureStatusOf(stream()), mcStreamCaptureStatusInvalidated);
    Increment<<<1, 1, 0, stream()>>>(cell());
    EXPECT_EQ(mcGetLastError(), mcErrorStreamCaptureInvalidated);
    EXPECT_EQ(mcMemsetAsync(cell(1), 0, sizeof(int), stream()),
              mcErrorStreamCaptureInvalidated);
    mcGraph_t graph = reinterpret_cast<mcGraph_t>(&graph);
    EXPECT_EQ(mcStreamEndCapture(stream(), &graph),
              mcErrorStreamCaptureInvalidated);
    EXPECT_EQ(graph, nullptr);
    EXPECT_EQ(CaptureStatusOf(stream()), mcStreamCaptureStatusNone);
    ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
    EXPECT_EQ(*cell(), 0);
    Increment<<<1, 1, 0, stream()>>>(cell());
    ASSERT_EQ(mcStreamSynchronize(stream()), mcSuccess);
    EXPECT_EQ(*cell(), 1);
  }
};

TEST_P(CaptureRules, BeginOnACapturingStreamIsIllegalState) {
  MX_SPEC("api.graph.capture.already-capturing-illegal-state");
  BeginWithOneKernel();
  for (mcStreamCaptureMode mode : kAllCaptureModes) {
    EXPECT_EQ(mcStreamBeginCapture(stream(), mode), mcErrorIllegalState);
  }
  ExpectCaptureIntact(1);
}

TEST_P(CaptureRules, EndWithoutACaptureIsIllegalState) {
  MX_SPEC("api.graph.capture.end-not-capturing-illegal-state");
  mcGraph_t graph = nullptr;
  EXPECT_EQ(mcStreamEndCapture(stream(), &graph), mcErrorIllegalState);
  EXPECT_EQ(graph, nullptr);
  // Control: after a begin, the end succeeds; after it, it fails again.
  ASSERT_EQ(Begin(), mcSuccess);
  ASSERT_EQ(mcStreamEndCapture(stream(), &graph), mcSuccess);
  ASSERT_NE(graph, nullptr);
  EXPECT_EQ(mcGraphDestroy(graph), mcSuccess);
  EXPECT_EQ(mcStreamEndCapture(stream(), &graph), mcErrorIllegalState);
}

TEST_P(CaptureRules, EndWithNullGraphIsInvalidValueAndKeepsCapturing) {
  MX_SPEC("api.graph.capture.end-null-graph-invalid-value");
  BeginWithOneKernel();
  EXPECT_EQ(mcStreamEndCapture(stream(), nullptr), mcErrorInvalidValue);
  ExpectCaptureIntact(1);
}

TEST_P(CaptureRules, StreamSynchronizeIsRefusedAndInvalidates) {
  MX_SPEC("api.graph.capture.sync-call-unsupported",
          "api.graph.capture.invalidated-end-returns-invalidated",
          "api.graph.capture.is-capturing-status");
  BeginWithOneKernel();
  EXPECT_EQ(mcStreamSynchronize(stream()), mcErrorStreamCaptureUnsupported);
  ExpectInvalidated();
}

TEST_P(CaptureRules, StreamQueryIsRefusedAndInvalidates) {
  MX_SPEC("api.graph.capture.sync-call-unsupported",
          "api.graph.capture.invalidated-end-returns-invalidated");
  BeginWithOneKernel();
  EXPECT_EQ(mcStreamQuery(stream()), mcErrorStreamCaptureUnsupported);
  ExpectInvalidated();
}

TEST_P(CaptureRules, DeviceSynchronizeIsRefusedAndInvalidates) {
  MX_SPEC("api.graph.capture.sync-call-unsupported",
          "api.graph.capture.invalidated-end-returns-invalidated");
  BeginWithOneKernel();
  EXPECT_EQ(mcDeviceSynchronize(), mcErrorStreamCaptureUnsupported);
  ExpectInvalidated();
}

TEST_P(CaptureRules, OtherStreamsStayQueryable) {
  // Control of the query refusal: another stream, not in the capture, is
  // queried normally.
  MX_SPEC("api.graph.capture.sync-call-unsupported");
  TestStream other(StreamKind::kNonBlocking);
  ASSERT_EQ(other.status(), mcSuccess);
  BeginWithOneKernel();
  Increment<<<1, 1, 0, other.get()>>>(cell(1));
  const mcError_t query = mcStreamQuery(other.get());
  EXPECT_TRUE(query == mcSuccess || query == mcErrorNotReady)
      << mcGetErrorName(query);
  ExpectCaptureIntact(1);
  ASSERT_EQ(mcStreamSynchronize(other.get()), mcSuccess);
  EXPECT_EQ(*cell(1), 1);
}

TEST_P(CaptureRules, RelaxedThreadSynchronizesOtherStreamsNotTheCapturingOne) {
  // In relaxed interaction mode the thread may wait for a stream outside
  // the capture; waiting for the capturing stream stays refused.
  MX_SPEC("api.graph.capture.sync-call-unsupported", "api.graph.capture.modes");
  TestStream other(StreamKind::kNonBlocking);
  ASSERT_EQ(other.status(), mcSuccess);
  BeginWithOneKernel();
  mcStreamCaptureMode thread_mode = mcStreamCaptureModeRelaxed;
  ASSERT_EQ(mcThreadExchangeStreamCaptureMode(&thread_mode), mcSuccess);
  Increment<<<1, 1, 0, other.get()>>>(cell(1));
  EXPECT_EQ(mcStreamSynchronize(other.get()), mcSuccess);
  EXPECT_EQ(*cell(1), 1);
  EXPECT_EQ(CaptureStatusOf(stream()), mcStreamCaptureStatusActive);
  EXPECT_EQ(mcStreamSynchronize(stream()), mcErrorStreamCaptureUnsupported);
  ASSERT_EQ(mcThreadExchangeStreamCaptureMode(&thread_mode), mcSuccess);
  ExpectInvalidated();
}

TEST_P(CaptureRules, MallocIsRefusedUnlessRelaxed) {
  MX_SPEC("api.graph.capture.unsafe-call-in-global-mode",
          "api.graph.capture.modes");
  BeginWithOneKernel();
  void* memory = nullptr;
  const mcError_t result = mcMalloc(&memory, 256);
  if (mode() == mcStreamCaptureModeRelaxed) {
    EXPECT_EQ(result, mcSuccess);
    ASSERT_NE(memory, nullptr);
    EXPECT_EQ(mcFree(memory), mcSuccess);
    ExpectCaptureIntact(1);
  } else {
    EXPECT_EQ(result, mcErrorStreamCaptureUnsupported);
    EXPECT_EQ(memory, nullptr);
    ExpectInvalidated();
  }
}

TEST_P(CaptureRules, OtherUnsafeCallsAreRefusedUnlessRelaxed) {
  // mcMalloc's fellows: page-locked allocation and release, managed
  // allocation and device release may synchronize just as well. Each is
  // made in a capture of its own; memory for the releases comes first.
  MX_SPEC("api.graph.capture.unsafe-call-in-global-mode",
          "api.graph.capture.modes");
  const bool allowed = mode() == mcStreamCaptureModeRelaxed;
  struct Call {
    const char* name;
    std::function<mcError_t(void**)> run;  // gets memory to free, or a slot
    std::function<mcError_t(void**)> prepare;
    std::function<mcError_t(void*)> release;
  };
  const std::vector<Call> calls = {
      {"mcMallocHost", [](void** p) { return mcMallocHost(p, 64); },
       [](void**) { return mcSuccess; },
       [](void* p) { return p == nullptr ? mcSuccess : mcFreeHost(p); }},
      {"mcFreeHost", [](void** p) { return mcFreeHost(*p); },
       [](void** p) { return mcMallocHost(p, 64); },
       [](void* p) { return mcFreeHost(p); }},
      {"mcMallocManaged", [](void** p) { return mcMallocManaged(p, 64); },
       [](void**) { return mcSuccess; },
       [](void* p) { return p == nullptr ? mcSuccess : mcFree(p); }},
      {"mcFree", [](void** p) { return mcFree(*p); },
       [](void** p) { return mcMalloc(p, 64); },
       [](void* p) { return mcFree(p); }},
  };
  for (const Call& call : calls) {
    SCOPED_TRACE(call.name);
    // What the previous call's checks left: the refused calls' last error
    // and the count of the kernel that showed the stream working again.
    static_cast<void>(mcGetLastError());
    *cell() = 0;
    void* memory = nullptr;
    ASSERT_EQ(call.prepare(&memory), mcSuccess);
    const bool frees = memory != nullptr;
    BeginWithOneKernel();
    const mcError_t result = call.run(&memory);
    if (allowed) {
      EXPECT_EQ(result, mcSuccess);
      ExpectCaptureIntact(1);
      // A release that ran leaves nothing to release.
      if (!frees) {
        EXPECT_EQ(call.release(memory), mcSuccess);
      }
    } else {
      EXPECT_EQ(result, mcErrorStreamCaptureUnsupported);
      ExpectInvalidated();
      if (frees) {
        // The refused release released nothing.
        EXPECT_EQ(call.release(memory), mcSuccess);
      } else {
        EXPECT_EQ(memory, nullptr);
      }
    }
  }
}

TEST_P(CaptureRules, RelaxedThreadModeAllowsMalloc) {
  // The calling thread's own mode, made relaxed, permits the unsafe call
  // whatever the capture's mode.
  MX_SPEC("api.graph.capture.modes", "api.graph.capture.exchange-mode");
  BeginWithOneKernel();
  mcStreamCaptureMode thread_mode = mcStreamCaptureModeRelaxed;
  ASSERT_EQ(mcThreadExchangeStreamCaptureMode(&thread_mode), mcSuccess);
  void* memory = nullptr;
  EXPECT_EQ(mcMalloc(&memory, 256), mcSuccess);
  if (memory != nullptr) {
    EXPECT_EQ(mcFree(memory), mcSuccess);
  }
  ASSERT_EQ(mcThreadExchangeStreamCaptureMode(&thread_mode), mcSuccess);
  EXPECT_EQ(thread_mode, mcStreamCaptureModeRelaxed);
  ExpectCaptureIntact(1);
}

TEST_P(CaptureRules,
       LegacyStreamWorkIsImplicitWhenTheStreamSynchronizesWithIt) {
  MX_SPEC("api.graph.capture.sync-call-unsupported", "api.graph.capture.modes");
  BeginWithOneKernel();
  Increment<<<1, 1, 0, mcStreamLegacy>>>(cell(1));
  const mcError_t result = mcGetLastError();
  if (SynchronizesWithLegacy()) {
    EXPECT_EQ(result, mcErrorStreamCaptureImplicit);
    ExpectInvalidated();
    EXPECT_EQ(*cell(1), 0) << "the refused legacy work ran";
  } else {
    // Control: a non-blocking stream does not synchronize with the legacy
    // stream, whose work runs normally.
    EXPECT_EQ(result, mcSuccess);
    ExpectCaptureIntact(1);
    EXPECT_EQ(*cell(1), 1);
  }
}

// Host work in the legacy stream follows the same rule as a kernel there.
TEST_P(CaptureRules,
       LegacyStreamHostFunctionIsImplicitWhenTheStreamSynchronizesWithIt) {
  MX_SPEC("api.graph.capture.sync-call-unsupported", "api.graph.capture.modes");
  BeginWithOneKernel();
  std::atomic<int> calls{0};
  const mcError_t result = mcLaunchHostFunc(
      mcStreamLegacy,
      [](void* count) { ++*static_cast<std::atomic<int>*>(count); }, &calls);
  if (SynchronizesWithLegacy()) {
    EXPECT_EQ(result, mcErrorStreamCaptureImplicit);
    mcGetLastError();
    ExpectInvalidated();
    EXPECT_EQ(calls.load(), 0) << "the refused host function ran";
  } else {
    // Control: a non-blocking stream does not synchronize with the legacy
    // stream, whose host function runs normally.
    EXPECT_EQ(result, mcSuccess);
    ExpectCaptureIntact(1);
    EXPECT_EQ(calls.load(), 1);
  }
}

TEST_P(CaptureRules, IsCapturingOnTheLegacyStreamIsImplicit) {
  MX_SPEC("api.graph.capture.is-capturing-legacy-stream-implicit");
  mcStreamCaptureStatus status = mcStreamCaptureStatusActive;
  ASSERT_EQ(mcStreamIsCapturing(mcStreamLegacy, &status), mcSuccess);
  EXPECT_EQ(status, mcStreamCaptureStatusNone);
  BeginWithOneKernel();
  for (mcStream_t legacy : {mcStream_t{nullptr}, mcStreamLegacy}) {
    status = mcStreamCaptureStatusInvalidated;
    const mcError_t result = mcStreamIsCapturing(legacy, &status);
    if (SynchronizesWithLegacy()) {
      EXPECT_EQ(result, mcErrorStreamCaptureImplicit);
    } else {
      EXPECT_EQ(result, mcSuccess);
      EXPECT_EQ(status, mcStreamCaptureStatusNone);
    }
  }
  // A query changes no capture.
  ExpectCaptureIntact(1);
}

TEST_P(CaptureRules, QueryOfAnEventRecordedInTheCaptureIsCapturedEvent) {
  MX_SPEC("api.graph.capture.captured-event-query");
  mcEvent_t captured, outside;
  ASSERT_EQ(mcEventCreate(&captured), mcSuccess);
  ASSERT_EQ(mcEventCreate(&outside), mcSuccess);
  TestStream other(StreamKind::kNonBlocking);
  ASSERT_EQ(other.status(), mcSuccess);
  BeginWithOneKernel();
  ASSERT_EQ(mcEventRecord(captured, stream()), mcSuccess);
  EXPECT_EQ(mcEventQuery(captured), mcErrorCapturedEvent);
  EXPECT_EQ(mcEventSynchronize(captured), mcErrorCapturedEvent);
  // Control: an event recorded outside the capture is queried normally.
  ASSERT_EQ(mcEventRecord(outside, other.get()), mcSuccess);
  EXPECT_EQ(mcEventSynchronize(outside), mcSuccess);
  EXPECT_EQ(mcEventQuery(outside), mcSuccess);
  ScopedGraph graph;
  ASSERT_EQ(mcStreamEndCapture(stream(), graph.out()), mcSuccess);
  EXPECT_EQ(NodesOfType(graph.get(), mcGraphNodeTypeKernel).size(), 1u);
  EXPECT_EQ(mcEventDestroy(captured), mcSuccess);
  EXPECT_EQ(mcEventDestroy(outside), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(KindsModesDevices, CaptureRules, CaptureParameters(),
                         CaptureParameterName);

// Beginning a capture on the legacy default stream.
class CaptureLegacy : public testing::TestWithParam<
                          std::tuple<StreamKind, mcStreamCaptureMode>> {
 protected:
  void SetUp() override { MX_REQUIRE_CAPABILITY("graphs"); }
};

TEST_P(CaptureLegacy, BeginIsUnsupported) {
  MX_SPEC("api.graph.capture.legacy-null-stream-unsupported");
  TestStream legacy(std::get<0>(GetParam()));
  EXPECT_EQ(mcStreamBeginCapture(legacy.get(), std::get<1>(GetParam())),
            mcErrorStreamCaptureUnsupported);
  EXPECT_EQ(CaptureStatusOf(legacy.get()), mcStreamCaptureStatusNone);
  mcGraph_t graph = nullptr;
  EXPECT_EQ(mcStreamEndCapture(legacy.get(), &graph), mcErrorIllegalState);
  // The legacy stream runs work normally.
  int* cell = nullptr;
  ASSERT_EQ(mcMallocManaged(&cell, sizeof(int)), mcSuccess);
  *cell = 0;
  Increment<<<1, 1, 0, legacy.get()>>>(cell);
  ASSERT_EQ(mcStreamSynchronize(legacy.get()), mcSuccess);
  EXPECT_EQ(*cell, 1);
  EXPECT_EQ(mcFree(cell), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(
    KindsAndModes, CaptureLegacy,
    testing::Combine(testing::Values(StreamKind::kZero, StreamKind::kLegacy),
                     testing::ValuesIn(kAllCaptureModes)),
    [](const testing::TestParamInfo<
        std::tuple<StreamKind, mcStreamCaptureMode>>& info) {
      return std::string(StreamKindName(std::get<0>(info.param))) + "_" +
             CaptureModeName(std::get<1>(info.param));
    });

// mcStreamBeginCapture with a value that is no capture mode.
class CaptureBadMode
    : public testing::TestWithParam<std::tuple<StreamKind, int>> {
 protected:
  void SetUp() override { MX_REQUIRE_CAPABILITY("graphs"); }
};

TEST_P(CaptureBadMode, IsInvalidValueAndBeginsNothing) {
  MX_SPEC("api.graph.capture.invalid-mode-invalid-value");
  TestStream stream(std::get<0>(GetParam()));
  ASSERT_EQ(stream.status(), mcSuccess);
  EXPECT_EQ(mcStreamBeginCapture(stream.get(), static_cast<mcStreamCaptureMode>(
                                                   std::get<1>(GetParam()))),
            mcErrorInvalidValue);
  EXPECT_EQ(CaptureStatusOf(stream.get()), mcStreamCaptureStatusNone);
  // Control: a valid mode begins a capture.
  ASSERT_EQ(mcStreamBeginCapture(stream.get(), mcStreamCaptureModeRelaxed),
            mcSuccess);
  EXPECT_EQ(CaptureStatusOf(stream.get()), mcStreamCaptureStatusActive);
  EndAnyCapture(stream.get());
}

INSTANTIATE_TEST_SUITE_P(
    KindsAndValues, CaptureBadMode,
    testing::Combine(testing::ValuesIn(kCapturableStreamKinds),
                     testing::Values(3, 4, -1, 0x7fffffff)),
    [](const testing::TestParamInfo<std::tuple<StreamKind, int>>& info) {
      const int value = std::get<1>(info.param);
      return std::string(StreamKindName(std::get<0>(info.param))) + "_Mode" +
             (value < 0 ? "Minus" + std::to_string(-value)
                        : std::to_string(value));
    });

}  // namespace
}  // namespace mxcts::conformance
