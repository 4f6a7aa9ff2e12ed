// Copyright mxcts authors.
//
// Conformance: capture modes across threads (docs/spec/api-graph.md,
// "Stream capture"): a global capture prohibits unsafe calls (mcMalloc) in
// every thread whose own mode is global, a thread-local or relaxed one only
// in the thread that began it (or in none); each thread's interaction mode
// is its own, starts global and is exchanged by
// mcThreadExchangeStreamCaptureMode; a capture not begun in relaxed mode
// ends only in the thread that began it. Other threads run in std::thread.

#include <mc_runtime.h>

#include <string>
#include <thread>
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

// What another thread's mcMalloc returned, with that thread's capture
// interaction mode set to `thread_mode` first (or left as it starts).
mcError_t MallocInAnotherThread(int device,
                                const mcStreamCaptureMode* thread_mode) {
  mcError_t result = mcErrorUnknown;
  std::thread other([&] {
    if (mcSetDevice(device) != mcSuccess) return;
    if (thread_mode != nullptr) {
      mcStreamCaptureMode mode = *thread_mode;
      if (mcThreadExchangeStreamCaptureMode(&mode) != mcSuccess) return;
    }
    void* memory = nullptr;
    result = mcMalloc(&memory, 256);
    if (result == mcSuccess) mcFree(memory);
  });
  other.join();
  return result;
}

class CaptureThreads : public CaptureTest {
 protected:
  void BeginWithOneKernel() {
    ASSERT_EQ(Begin(), mcSuccess);
    Increment<<<1, 1, 0, stream()>>>(cell());
    ASSERT_EQ(mcGetLastError(), mcSuccess);
  }
  void ExpectCaptureEndsWith(size_t nodes) {
    EXPECT_EQ(CaptureStatusOf(stream()), mcStreamCaptureStatusActive);
    ScopedGraph graph;
    ASSERT_EQ(mcStreamEndCapture(stream(), graph.out()), mcSuccess);
    EXPECT_EQ(Nodes(graph.get()).size(), nodes);
  }
  void ExpectInvalidated() {
    EXPECT_EQ(CaptureStatusOf(stream()), mcStreamCaptureStatusInvalidated);
    mcGraph_t graph = reinterpret_cast<mcGraph_t>(&graph);
    EXPECT_EQ(mcStreamEndCapture(stream(), &graph),
              mcErrorStreamCaptureInvalidated);
    EXPECT_EQ(graph, nullptr);
    EXPECT_EQ(CaptureStatusOf(stream()), mcStreamCaptureStatusNone);
  }
};

TEST_P(CaptureThreads, AnotherThreadsMallocFollowsTheCaptureMode) {
  MX_SPEC("api.graph.capture.modes",
          "api.graph.capture.unsafe-call-in-global-mode");
  BeginWithOneKernel();
  const mcError_t result = MallocInAnotherThread(device(), nullptr);
  if (mode() == mcStreamCaptureModeGlobal) {
    EXPECT_EQ(result, mcErrorStreamCaptureUnsupported);
    ExpectInvalidated();
  } else {
    EXPECT_EQ(result, mcSuccess);
    ExpectCaptureEndsWith(1);
  }
  // With the capture over, the same call succeeds in any case.
  EXPECT_EQ(MallocInAnotherThread(device(), nullptr), mcSuccess);
}

TEST_P(CaptureThreads, AnotherThreadInRelaxedOrThreadLocalModeMayMalloc) {
  MX_SPEC("api.graph.capture.modes", "api.graph.capture.exchange-mode");
  BeginWithOneKernel();
  for (mcStreamCaptureMode thread_mode :
       {mcStreamCaptureModeRelaxed, mcStreamCaptureModeThreadLocal}) {
    EXPECT_EQ(MallocInAnotherThread(device(), &thread_mode), mcSuccess)
        << CaptureModeName(thread_mode);
  }
  ExpectCaptureEndsWith(1);
}

TEST_P(CaptureThreads, EndInAnotherThreadIsWrongThreadUnlessRelaxed) {
  MX_SPEC("api.graph.capture.wrong-thread");
  BeginWithOneKernel();
  mcError_t result = mcErrorUnknown;
  mcGraph_t graph = nullptr;
  std::thread other([&] { result = mcStreamEndCapture(stream(), &graph); });
  other.join();
  if (kind() == StreamKind::kPerThread) {
    // In another thread mcStreamPerThread names that thread's own stream,
    // which is not capturing.
    EXPECT_EQ(result, mcErrorIllegalState);
    EXPECT_EQ(graph, nullptr);
    ExpectCaptureEndsWith(1);
  } else if (mode() == mcStreamCaptureModeRelaxed) {
    EXPECT_EQ(result, mcSuccess);
    ASSERT_NE(graph, nullptr);
    EXPECT_EQ(Nodes(graph).size(), 1u);
    EXPECT_EQ(mcGraphDestroy(graph), mcSuccess);
    EXPECT_EQ(CaptureStatusOf(stream()), mcStreamCaptureStatusNone);
  } else {
    EXPECT_EQ(result, mcErrorStreamCaptureWrongThread);
    EXPECT_EQ(graph, nullptr);
    // The capture goes on, and ends in the thread that began it.
    ExpectCaptureEndsWith(1);
  }
}

TEST_P(CaptureThreads, AnotherThreadsWorkInTheStreamIsCaptured) {
  // Another thread's work in the capturing stream joins the capture; its
  // per-thread default stream is another stream, which does not capture.
  MX_SPEC("api.graph.capture.records-instead-of-executing");
  BeginWithOneKernel();
  mcError_t launched = mcErrorUnknown;
  int other_status = -1;
  std::thread other([&] {
    if (mcSetDevice(device()) != mcSuccess) return;
    other_status = CaptureStatusOf(stream());
    Increment<<<1, 1, 0, stream()>>>(cell(1));
    launched = mcGetLastError();
  });
  other.join();
  EXPECT_EQ(launched, mcSuccess);
  if (kind() == StreamKind::kPerThread) {
    EXPECT_EQ(other_status, mcStreamCaptureStatusNone);
    ExpectCaptureEndsWith(1);
    ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
    EXPECT_EQ(*cell(1), 1);
  } else {
    EXPECT_EQ(other_status, mcStreamCaptureStatusActive);
    ExpectCaptureEndsWith(2);
    ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
    EXPECT_EQ(*cell(1), 0);
  }
}

INSTANTIATE_TEST_SUITE_P(KindsModesDevices, CaptureThreads, CaptureParameters(),
                         CaptureParameterName);

// The interaction mode of a thread.
class ExchangeMode : public testing::TestWithParam<mcStreamCaptureMode> {
 protected:
  void SetUp() override { MX_REQUIRE_CAPABILITY("graphs"); }
};

TEST_P(ExchangeMode, StartsGlobalAndRestoresInPushPopFashion) {
  MX_SPEC("api.graph.capture.exchange-mode");
  const mcStreamCaptureMode wanted = GetParam();
  std::vector<mcStreamCaptureMode> seen;
  std::vector<mcError_t> results;
  std::thread fresh([&] {
    mcStreamCaptureMode mode = wanted;
    results.push_back(mcThreadExchangeStreamCaptureMode(&mode));
    seen.push_back(mode);  // the initial mode
    mcStreamCaptureMode again = mcStreamCaptureModeGlobal;
    results.push_back(mcThreadExchangeStreamCaptureMode(&again));
    seen.push_back(again);  // what the first call set
    results.push_back(mcThreadExchangeStreamCaptureMode(&mode));
    seen.push_back(mode);  // global, restored by the second call
  });
  fresh.join();
  EXPECT_EQ(results, (std::vector<mcError_t>{mcSuccess, mcSuccess, mcSuccess}));
  EXPECT_EQ(seen,
            (std::vector<mcStreamCaptureMode>{mcStreamCaptureModeGlobal, wanted,
                                              mcStreamCaptureModeGlobal}));
}

TEST_P(ExchangeMode, EachThreadHasItsOwnMode) {
  MX_SPEC("api.graph.capture.exchange-mode");
  mcStreamCaptureMode mine = GetParam();
  ASSERT_EQ(mcThreadExchangeStreamCaptureMode(&mine), mcSuccess);
  mcStreamCaptureMode other_initial = mcStreamCaptureModeRelaxed;
  std::thread other([&] {
    mcStreamCaptureMode mode = mcStreamCaptureModeThreadLocal;
    if (mcThreadExchangeStreamCaptureMode(&mode) == mcSuccess) {
      other_initial = mode;
    }
  });
  other.join();
  EXPECT_EQ(other_initial, mcStreamCaptureModeGlobal);
  // This thread's mode is still the one it set.
  mcStreamCaptureMode back = mine;
  ASSERT_EQ(mcThreadExchangeStreamCaptureMode(&back), mcSuccess);
  EXPECT_EQ(back, GetParam());
}

TEST_P(ExchangeMode, InvalidValueKeepsTheMode) {
  MX_SPEC("api.graph.capture.exchange-mode");
  mcStreamCaptureMode set = GetParam();
  ASSERT_EQ(mcThreadExchangeStreamCaptureMode(&set), mcSuccess);
  for (int bad : {3, -1, 100}) {
    mcStreamCaptureMode mode = static_cast<mcStreamCaptureMode>(bad);
    EXPECT_EQ(mcThreadExchangeStreamCaptureMode(&mode), mcErrorInvalidValue);
    EXPECT_EQ(static_cast<int>(mode), bad);
  }
  EXPECT_EQ(mcThreadExchangeStreamCaptureMode(nullptr), mcErrorInvalidValue);
  mcStreamCaptureMode back = set;
  ASSERT_EQ(mcThreadExchangeStreamCaptureMode(&back), mcSuccess);
  EXPECT_EQ(back, GetParam());
}

INSTANTIATE_TEST_SUITE_P(
    Modes, ExchangeMode, testing::ValuesIn(kAllCaptureModes),
    [](const testing::TestParamInfo<mcStreamCaptureMode>& info) {
      return std::string(CaptureModeName(info.param));
    });

}  // namespace
}  // namespace mxcts::conformance
