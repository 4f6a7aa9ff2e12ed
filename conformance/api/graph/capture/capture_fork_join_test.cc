// Copyright mxcts authors.
//
// Conformance: a capture spreads to the streams that wait for an event
// recorded in it, and their work joins back when the origin stream waits
// for an event recorded in them (docs/spec/api-graph.md, "Stream
// capture"): the graph holds the fork and the join as edges, and the
// launched graph respects them. A fork left unjoined fails the end of the
// capture; ending the capture on a stream that joined it is unmatched;
// captures do not mix.
//
// The origin stream is of the parameter's kind, mode and device; the
// forked streams are created non-blocking streams. The target also runs as
// _deferred and _shuffle (TIMELINE_VARIANTS).

#include <mc_runtime.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "conformance/api/graph/capture/capture_testing.h"
#include "conformance/api/graph/exec/exec_testing.h"
#include "conformance/api/testing/stream_kind.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

// Takes the next tick of `clock` as the ticket of `slot`.
__global__ void TakeTicket(int* clock, int* tickets, int slot) {
  tickets[slot] = atomicAdd(clock, 1);
}

// Adds 1 to *cell.
__global__ void Increment(int* cell) { atomicAdd(cell, 1); }

// The parameter's capture, plus two non-blocking streams to fork to and
// events to fork and join with.
class CaptureForkJoin : public CaptureTest {
 protected:
  void SetUp() override {
    CaptureTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    for (mcStream_t* s : {&side_, &third_}) {
      ASSERT_EQ(mcStreamCreateWithFlags(s, mcStreamNonBlocking), mcSuccess);
    }
    for (mcEvent_t* e : {&fork_, &join_, &join2_}) {
      ASSERT_EQ(mcEventCreate(e), mcSuccess);
    }
    board_ = std::make_unique<TicketBoard>(6);
    ASSERT_EQ(board_->status(), mcSuccess);
  }
  void TearDown() override {
    if (side_ != nullptr) {
      EndAnyCapture(stream());
      for (mcStream_t s : {side_, third_}) {
        mcStreamSynchronize(s);
        mcStreamDestroy(s);
      }
      for (mcEvent_t e : {fork_, join_, join2_}) mcEventDestroy(e);
    }
    board_.reset();
    CaptureTest::TearDown();
  }

  // Enqueues a kernel that takes the ticket of `slot` into `s`.
  void Ticket(mcStream_t s, int slot) {
    TakeTicket<<<1, 1, 0, s>>>(board_->clock(), board_->tickets(), slot);
    EXPECT_EQ(mcGetLastError(), mcSuccess);
  }
  // The kernel node of the graph that takes the ticket of `slot`.
  mcGraphNode_t TicketNode(mcGraph_t graph, int slot) {
    for (mcGraphNode_t node : NodesOfType(graph, mcGraphNodeTypeKernel)) {
      mcKernelNodeParams params{};
      if (mcGraphKernelNodeGetParams(node, &params) != mcSuccess) continue;
      if (params.func == reinterpret_cast<void*>(&TakeTicket) &&
          *static_cast<int*>(params.kernelParams[2]) == slot) {
        return node;
      }
    }
    return nullptr;
  }
  // Launches `graph` once into the origin stream and waits.
  void LaunchOnce(mcGraph_t graph) {
    ScopedExec exec(graph);
    ASSERT_EQ(exec.status(), mcSuccess);
    board_->Reset();
    ASSERT_EQ(mcGraphLaunch(exec.get(), stream()), mcSuccess);
    ASSERT_EQ(mcStreamSynchronize(stream()), mcSuccess);
  }

  mcStream_t side_ = nullptr, third_ = nullptr;
  mcEvent_t fork_ = nullptr, join_ = nullptr, join2_ = nullptr;
  std::unique_ptr<TicketBoard> board_;
};

TEST_P(CaptureForkJoin, ForkAndJoinMakeADiamond) {
  MX_SPEC("api.graph.capture.fork-join-via-events",
          "api.graph.capture.captured-graph-equivalent");
  ASSERT_EQ(Begin(), mcSuccess);
  Ticket(stream(), 0);
  ASSERT_EQ(mcEventRecord(fork_, stream()), mcSuccess);
  ASSERT_EQ(mcStreamWaitEvent(side_, fork_, 0), mcSuccess);
  Ticket(side_, 1);
  Ticket(stream(), 2);
  ASSERT_EQ(mcEventRecord(join_, side_), mcSuccess);
  ASSERT_EQ(mcStreamWaitEvent(stream(), join_, 0), mcSuccess);
  Ticket(stream(), 3);
  ScopedGraph graph;
  ASSERT_EQ(mcStreamEndCapture(stream(), graph.out()), mcSuccess);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(*board_->clock(), 0) << "captured work ran";
  mcGraph_t g = graph.get();
  ASSERT_EQ(NodesOfType(g, mcGraphNodeTypeKernel).size(), 4u);
  mcGraphNode_t k0 = TicketNode(g, 0), k1 = TicketNode(g, 1),
                k2 = TicketNode(g, 2), k3 = TicketNode(g, 3);
  ASSERT_TRUE(k0 && k1 && k2 && k3);
  EXPECT_EQ(Roots(g), std::vector<mcGraphNode_t>{k0});
  EXPECT_EQ(DependenciesOf(k1), std::vector<mcGraphNode_t>{k0});
  EXPECT_EQ(DependenciesOf(k2), std::vector<mcGraphNode_t>{k0});
  std::vector<mcGraphNode_t> joined = {k1, k2};
  std::sort(joined.begin(), joined.end());
  EXPECT_EQ(DependenciesOf(k3), joined);
  EXPECT_EQ(Edges(g).size(), 4u);
  LaunchOnce(g);
  EXPECT_EQ(*board_->clock(), 4);
  for (auto [from, to] :
       std::vector<std::pair<int, int>>{{0, 1}, {0, 2}, {1, 3}, {2, 3}}) {
    EXPECT_TRUE(board_->RanBefore(from, to))
        << from << " -> " << to << ": " << board_->Describe();
  }
}

TEST_P(CaptureForkJoin, ThreeBranchesJoinBeforeTheLastNode) {
  MX_SPEC("api.graph.capture.fork-join-via-events");
  ASSERT_EQ(Begin(), mcSuccess);
  Ticket(stream(), 0);
  ASSERT_EQ(mcEventRecord(fork_, stream()), mcSuccess);
  ASSERT_EQ(mcStreamWaitEvent(side_, fork_, 0), mcSuccess);
  ASSERT_EQ(mcStreamWaitEvent(third_, fork_, 0), mcSuccess);
  Ticket(side_, 1);
  Ticket(third_, 2);
  Ticket(stream(), 3);
  ASSERT_EQ(mcEventRecord(join_, side_), mcSuccess);
  ASSERT_EQ(mcEventRecord(join2_, third_), mcSuccess);
  ASSERT_EQ(mcStreamWaitEvent(stream(), join_, 0), mcSuccess);
  ASSERT_EQ(mcStreamWaitEvent(stream(), join2_, 0), mcSuccess);
  Ticket(stream(), 4);
  ScopedGraph graph;
  ASSERT_EQ(mcStreamEndCapture(stream(), graph.out()), mcSuccess);
  mcGraph_t g = graph.get();
  EXPECT_EQ(NodesOfType(g, mcGraphNodeTypeKernel).size(), 5u);
  const std::vector<mcGraphNode_t> last = DependenciesOf(TicketNode(g, 4));
  EXPECT_EQ(last.size(), 3u);
  LaunchOnce(g);
  EXPECT_EQ(*board_->clock(), 5);
  for (int i = 1; i <= 3; ++i) {
    EXPECT_TRUE(board_->RanBefore(0, i)) << i << ": " << board_->Describe();
    EXPECT_TRUE(board_->RanBefore(i, 4)) << i << ": " << board_->Describe();
  }
}

TEST_P(CaptureForkJoin, ForkedStreamJoinsTheSameCapture) {
  MX_SPEC("api.graph.capture.fork-join-via-events",
          "api.graph.capture.get-info",
          "api.graph.capture.is-capturing-status");
  ASSERT_EQ(Begin(), mcSuccess);
  EXPECT_EQ(CaptureStatusOf(side_), mcStreamCaptureStatusNone);
  ASSERT_EQ(mcEventRecord(fork_, stream()), mcSuccess);
  ASSERT_EQ(mcStreamWaitEvent(side_, fork_, 0), mcSuccess);
  EXPECT_EQ(CaptureStatusOf(side_), mcStreamCaptureStatusActive);
  EXPECT_EQ(CaptureStatusOf(third_), mcStreamCaptureStatusNone);
  unsigned long long origin_id = 0, side_id = 1;
  mcStreamCaptureStatus status;
  ASSERT_EQ(mcStreamGetCaptureInfo(stream(), &status, &origin_id), mcSuccess);
  ASSERT_EQ(mcStreamGetCaptureInfo(side_, &status, &side_id), mcSuccess);
  EXPECT_EQ(origin_id, side_id);
  Increment<<<1, 1, 0, side_>>>(cell());
  ASSERT_EQ(mcEventRecord(join_, side_), mcSuccess);
  ASSERT_EQ(mcStreamWaitEvent(stream(), join_, 0), mcSuccess);
  ScopedGraph graph;
  ASSERT_EQ(mcStreamEndCapture(stream(), graph.out()), mcSuccess);
  // The end of the capture ends it for the forked stream too, whose work
  // then runs normally.
  EXPECT_EQ(CaptureStatusOf(side_), mcStreamCaptureStatusNone);
  Increment<<<1, 1, 0, side_>>>(cell());
  ASSERT_EQ(mcStreamSynchronize(side_), mcSuccess);
  EXPECT_EQ(*cell(), 1);
  EXPECT_EQ(Nodes(graph.get()).size(), 1u);
  LaunchOnce(graph.get());
  EXPECT_EQ(*cell(), 2);
}

TEST_P(CaptureForkJoin, AForkedStreamCannotBeginACapture) {
  MX_SPEC("api.graph.capture.already-capturing-illegal-state",
          "api.graph.capture.fork-join-via-events");
  ASSERT_EQ(Begin(), mcSuccess);
  Increment<<<1, 1, 0, stream()>>>(cell());
  ASSERT_EQ(mcEventRecord(fork_, stream()), mcSuccess);
  ASSERT_EQ(mcStreamWaitEvent(side_, fork_, 0), mcSuccess);
  for (mcStreamCaptureMode mode : kAllCaptureModes) {
    EXPECT_EQ(mcStreamBeginCapture(side_, mode), mcErrorIllegalState);
  }
  // The capture goes on: the forked stream's work joins and the origin
  // ends it.
  Increment<<<1, 1, 0, side_>>>(cell());
  ASSERT_EQ(mcEventRecord(join_, side_), mcSuccess);
  ASSERT_EQ(mcStreamWaitEvent(stream(), join_, 0), mcSuccess);
  ScopedGraph graph;
  ASSERT_EQ(mcStreamEndCapture(stream(), graph.out()), mcSuccess);
  EXPECT_EQ(Nodes(graph.get()).size(), 2u);
  // Control: once the capture is over, the stream may begin its own.
  EXPECT_EQ(mcStreamBeginCapture(side_, mcStreamCaptureModeRelaxed), mcSuccess);
  EndAnyCapture(side_);
  LaunchOnce(graph.get());
  EXPECT_EQ(*cell(), 2);
}

TEST_P(CaptureForkJoin, UnjoinedForkFailsTheEnd) {
  MX_SPEC("api.graph.capture.unjoined-work-error");
  ASSERT_EQ(Begin(), mcSuccess);
  Increment<<<1, 1, 0, stream()>>>(cell());
  ASSERT_EQ(mcEventRecord(fork_, stream()), mcSuccess);
  ASSERT_EQ(mcStreamWaitEvent(side_, fork_, 0), mcSuccess);
  Increment<<<1, 1, 0, side_>>>(cell());
  mcGraph_t graph = reinterpret_cast<mcGraph_t>(&graph);
  EXPECT_EQ(mcStreamEndCapture(stream(), &graph), mcErrorStreamCaptureUnjoined);
  EXPECT_EQ(graph, nullptr);
  // The capture is over for both streams, whose work runs normally again;
  // nothing captured ran.
  EXPECT_EQ(CaptureStatusOf(stream()), mcStreamCaptureStatusNone);
  EXPECT_EQ(CaptureStatusOf(side_), mcStreamCaptureStatusNone);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(*cell(), 0);
  Increment<<<1, 1, 0, stream()>>>(cell());
  Increment<<<1, 1, 0, side_>>>(cell());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(*cell(), 2);
}

TEST_P(CaptureForkJoin, JoinedForkEndsWell) {
  // Control of the unjoined case: the same work, joined.
  MX_SPEC("api.graph.capture.unjoined-work-error",
          "api.graph.capture.fork-join-via-events");
  ASSERT_EQ(Begin(), mcSuccess);
  Increment<<<1, 1, 0, stream()>>>(cell());
  ASSERT_EQ(mcEventRecord(fork_, stream()), mcSuccess);
  ASSERT_EQ(mcStreamWaitEvent(side_, fork_, 0), mcSuccess);
  Increment<<<1, 1, 0, side_>>>(cell());
  ASSERT_EQ(mcEventRecord(join_, side_), mcSuccess);
  ASSERT_EQ(mcStreamWaitEvent(stream(), join_, 0), mcSuccess);
  ScopedGraph graph;
  ASSERT_EQ(mcStreamEndCapture(stream(), graph.out()), mcSuccess);
  EXPECT_EQ(Nodes(graph.get()).size(), 2u);
  LaunchOnce(graph.get());
  EXPECT_EQ(*cell(), 2);
}

TEST_P(CaptureForkJoin, EndOnTheForkedStreamIsUnmatched) {
  // As CUDA does, the unmatched end invalidates the capture: the origin's
  // end then reports the invalidation and ends it.
  MX_SPEC("api.graph.capture.end-on-non-origin-unmatched",
          "api.graph.capture.invalidated-end-returns-invalidated");
  ASSERT_EQ(Begin(), mcSuccess);
  ASSERT_EQ(mcEventRecord(fork_, stream()), mcSuccess);
  ASSERT_EQ(mcStreamWaitEvent(side_, fork_, 0), mcSuccess);
  Increment<<<1, 1, 0, side_>>>(cell());
  ASSERT_EQ(mcEventRecord(join_, side_), mcSuccess);
  ASSERT_EQ(mcStreamWaitEvent(stream(), join_, 0), mcSuccess);
  mcGraph_t graph = reinterpret_cast<mcGraph_t>(&graph);
  EXPECT_EQ(mcStreamEndCapture(side_, &graph), mcErrorStreamCaptureUnmatched);
  EXPECT_EQ(graph, nullptr);
  EXPECT_EQ(CaptureStatusOf(stream()), mcStreamCaptureStatusInvalidated);
  EXPECT_EQ(CaptureStatusOf(side_), mcStreamCaptureStatusInvalidated);
  graph = reinterpret_cast<mcGraph_t>(&graph);
  EXPECT_EQ(mcStreamEndCapture(stream(), &graph),
            mcErrorStreamCaptureInvalidated);
  EXPECT_EQ(graph, nullptr);
  EXPECT_EQ(CaptureStatusOf(stream()), mcStreamCaptureStatusNone);
  EXPECT_EQ(CaptureStatusOf(side_), mcStreamCaptureStatusNone);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(*cell(), 0);
}

TEST_P(CaptureForkJoin, WaitingForAnotherCapturesEventIsIsolation) {
  // The wait would tie two captures together: refused, and both captures
  // are invalidated (a violation of the capture rules, as in CUDA).
  MX_SPEC("api.graph.capture.cross-capture-isolation",
          "api.graph.capture.invalidated-end-returns-invalidated");
  ASSERT_EQ(Begin(), mcSuccess);
  Increment<<<1, 1, 0, stream()>>>(cell());
  ASSERT_EQ(mcEventRecord(fork_, stream()), mcSuccess);
  ASSERT_EQ(mcStreamBeginCapture(side_, mcStreamCaptureModeRelaxed), mcSuccess);
  Increment<<<1, 1, 0, side_>>>(cell(1));
  EXPECT_EQ(mcStreamWaitEvent(side_, fork_, 0), mcErrorStreamCaptureIsolation);
  for (mcStream_t s : {stream(), side_}) {
    EXPECT_EQ(CaptureStatusOf(s), mcStreamCaptureStatusInvalidated);
    mcGraph_t graph = reinterpret_cast<mcGraph_t>(&graph);
    EXPECT_EQ(mcStreamEndCapture(s, &graph), mcErrorStreamCaptureInvalidated);
    EXPECT_EQ(graph, nullptr);
    EXPECT_EQ(CaptureStatusOf(s), mcStreamCaptureStatusNone);
  }
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(*cell(), 0);
  EXPECT_EQ(*cell(1), 0);
}

TEST_P(CaptureForkJoin, WaitingForAnEventRecordedOutsideIsIsolation) {
  MX_SPEC("api.graph.capture.cross-capture-isolation",
          "api.graph.capture.invalidated-end-returns-invalidated");
  ASSERT_EQ(mcEventRecord(join_, third_), mcSuccess);
  ASSERT_EQ(Begin(), mcSuccess);
  Increment<<<1, 1, 0, stream()>>>(cell());
  // Control: an event never recorded stands for no work; waiting for it
  // changes nothing.
  EXPECT_EQ(mcStreamWaitEvent(stream(), join2_, 0), mcSuccess);
  EXPECT_EQ(CaptureStatusOf(stream()), mcStreamCaptureStatusActive);
  EXPECT_EQ(mcStreamWaitEvent(stream(), join_, 0),
            mcErrorStreamCaptureIsolation);
  EXPECT_EQ(CaptureStatusOf(stream()), mcStreamCaptureStatusInvalidated);
  mcGraph_t graph = reinterpret_cast<mcGraph_t>(&graph);
  EXPECT_EQ(mcStreamEndCapture(stream(), &graph),
            mcErrorStreamCaptureInvalidated);
  EXPECT_EQ(graph, nullptr);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(*cell(), 0);
}

TEST_P(CaptureForkJoin, ANonCapturingStreamThatWaitsIsForkedNotRefused) {
  // A stream outside any capture that waits for an event recorded in one
  // joins that capture (the fork), rather than being refused.
  MX_SPEC("api.graph.capture.fork-join-via-events",
          "api.graph.capture.cross-capture-isolation");
  ASSERT_EQ(Begin(), mcSuccess);
  ASSERT_EQ(mcEventRecord(fork_, stream()), mcSuccess);
  EXPECT_EQ(CaptureStatusOf(third_), mcStreamCaptureStatusNone);
  EXPECT_EQ(mcStreamWaitEvent(third_, fork_, 0), mcSuccess);
  EXPECT_EQ(CaptureStatusOf(third_), mcStreamCaptureStatusActive);
  EXPECT_EQ(CaptureStatusOf(stream()), mcStreamCaptureStatusActive);
  ScopedGraph graph;
  ASSERT_EQ(mcStreamEndCapture(stream(), graph.out()), mcSuccess);
  EXPECT_TRUE(Nodes(graph.get()).empty());
}

INSTANTIATE_TEST_SUITE_P(KindsModesDevices, CaptureForkJoin,
                         CaptureParameters(), CaptureParameterName);

}  // namespace
}  // namespace mxcts::conformance
