// Copyright mxcts authors.
//
// Conformance: a graph launch is one piece of its stream's work; launches
// of one executable graph run one at a time, whatever their streams; an
// executable graph launches any number of times with the parameters it
// holds at each launch, outlives its graph, and may be destroyed with a
// launch pending (docs/spec/api-graph.md, "Instantiation and launch"). On
// every kind of stream and every device.
//
// The target also runs as _deferred and _shuffle (TIMELINE_VARIANTS), where
// the launch runs long after the call, and as _graph_launch_mode_1, with
// MACA_GRAPH_LAUNCH_MODE=1.

#include <mc_runtime.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "conformance/api/graph/exec/exec_testing.h"
#include "conformance/api/testing/order_log.h"
#include "conformance/api/testing/stream_fixtures.h"
#include "conformance/api/testing/stream_kind.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

constexpr int kBroken = -1000;

// Link `step` of a chain: moves *cell from `step` to `step + 1`, or marks
// the chain broken.
__global__ void ChainLink(int* cell, int step) {
  *cell = *cell == step ? step + 1 : kBroken - step;
}

// Adds `amount` to *cell.
__global__ void AddTo(int* cell, int amount) { atomicAdd(cell, amount); }

// Fills `n` ints at `data` with `value`.
__global__ void Fill(int* data, int value, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) data[i] = value;
}

// A host-function link of the same chain (for host nodes and
// mcLaunchHostFunc).
struct HostLink {
  int* cell;
  int step;
};
void RunHostLink(void* data) {
  const HostLink* link = static_cast<const HostLink*>(data);
  *link->cell = *link->cell == link->step ? link->step + 1 : kBroken - 100;
}

class GraphLaunchStream : public StreamOnDeviceTest {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY("graphs");
    StreamOnDeviceTest::SetUp();
  }

  // A graph of two chain links, steps `first` and `first + 1`: a kernel
  // then a host node.
  void BuildTwoLinks(mcGraph_t graph, int first, HostLink* host_link) {
    KernelCall link(ChainLink, dim3(1), dim3(1), cell(), first);
    mcGraphNode_t kernel, host;
    ASSERT_EQ(link.Add(&kernel, graph, {}), mcSuccess);
    *host_link = HostLink{cell(), first + 1};
    ASSERT_EQ(AddHost(&host, graph, {kernel}, {RunHostLink, host_link}),
              mcSuccess);
  }
};

TEST_P(GraphLaunchStream, RunsAfterEarlierWorkAndBeforeLaterWork) {
  MX_SPEC("api.graph.launch.ordered-in-stream");
  ScopedGraph graph;
  HostLink inner;
  BuildTwoLinks(graph.get(), 1, &inner);
  ScopedExec exec(graph.get());
  ASSERT_EQ(exec.status(), mcSuccess);
  int milliseconds = 10;
  ASSERT_EQ(mcLaunchHostFunc(stream(), SleepFor, &milliseconds), mcSuccess);
  ChainLink<<<1, 1, 0, stream()>>>(cell(), 0);
  ASSERT_EQ(mcGraphLaunch(exec.get(), stream()), mcSuccess);
  ChainLink<<<1, 1, 0, stream()>>>(cell(), 3);
  HostLink after{cell(), 4};
  ASSERT_EQ(mcLaunchHostFunc(stream(), RunHostLink, &after), mcSuccess);
  ASSERT_EQ(mcGetLastError(), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream()), mcSuccess);
  EXPECT_EQ(*cell(), 5);
  // Control: the same launch without the work before it breaks the chain
  // (its kernel finds 0, not 1; its host node then finds the mark).
  *cell() = 0;
  ASSERT_EQ(mcGraphLaunch(exec.get(), stream()), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream()), mcSuccess);
  EXPECT_EQ(*cell(), kBroken - 100);
}

TEST_P(GraphLaunchStream, LaunchesAThousandTimes) {
  MX_SPEC("api.graph.launch.repeatable",
          "api.graph.launch.runs-all-nodes-respecting-edges");
  ScopedGraph graph;
  HostCounter host_count;
  KernelCall add(AddTo, dim3(1), dim3(1), cell(), 1);
  mcGraphNode_t kernel, host;
  ASSERT_EQ(add.Add(&kernel, graph.get(), {}), mcSuccess);
  ASSERT_EQ(AddHost(&host, graph.get(), {kernel}, host_count.Increment()),
            mcSuccess);
  ScopedExec exec(graph.get());
  ASSERT_EQ(exec.status(), mcSuccess);
  constexpr int kLaunches = 1000;
  for (int i = 0; i < kLaunches; ++i) {
    ASSERT_EQ(mcGraphLaunch(exec.get(), stream()), mcSuccess) << i;
  }
  ASSERT_EQ(mcStreamSynchronize(stream()), mcSuccess);
  EXPECT_EQ(*cell(), kLaunches);
  EXPECT_EQ(host_count.value(), kLaunches);
}

TEST_P(GraphLaunchStream, EachLaunchUsesTheParametersItHoldsWhenLaunched) {
  MX_SPEC("api.graph.launch.repeatable",
          "api.graph.exec-node-set.updates-one-node");
  ScopedGraph graph;
  KernelCall add(AddTo, dim3(1), dim3(1), cell(), 1);
  mcGraphNode_t kernel;
  ASSERT_EQ(add.Add(&kernel, graph.get(), {}), mcSuccess);
  ScopedExec exec(graph.get());
  ASSERT_EQ(exec.status(), mcSuccess);
  for (int amount : {1, 10, 100}) {
    add.arg<1>() = amount;
    ASSERT_EQ(mcGraphExecKernelNodeSetParams(exec.get(), kernel, add.params()),
              mcSuccess);
    ASSERT_EQ(mcGraphLaunch(exec.get(), stream()), mcSuccess);
  }
  ASSERT_EQ(mcStreamSynchronize(stream()), mcSuccess);
  EXPECT_EQ(*cell(), 111);
}

// What the launches of one executable graph see on entry and exit.
struct Serialization {
  int inside = 0;
  int entered = 0;
  int overlaps = 0;
  int marker = 0;
  std::vector<int> markers_seen;
};
void Enter(void* data) {
  Serialization* s = static_cast<Serialization*>(data);
  if (s->inside != 0) ++s->overlaps;
  s->inside = 1;
  ++s->entered;
  s->markers_seen.push_back(s->marker);
}
void Leave(void* data) { static_cast<Serialization*>(data)->inside = 0; }
void SetMarker(void* data) { static_cast<Serialization*>(data)->marker = 1; }

TEST_P(GraphLaunchStream, LaunchesIntoTwoStreamsRunOneAtATimeInLaunchOrder) {
  // The first launch waits behind a sleeping host function in the
  // parameter's stream; the second goes to an idle non-blocking stream and
  // must still wait for the first: both see the marker set before the
  // first launch.
  MX_SPEC("api.graph.launch.same-exec-launches-serialize");
  Serialization state;
  ScopedGraph graph;
  KernelCall add(AddTo, dim3(1), dim3(1), cell(), 1);
  mcGraphNode_t enter, kernel, leave;
  ASSERT_EQ(AddHost(&enter, graph.get(), {}, {Enter, &state}), mcSuccess);
  ASSERT_EQ(add.Add(&kernel, graph.get(), {enter}), mcSuccess);
  ASSERT_EQ(AddHost(&leave, graph.get(), {kernel}, {Leave, &state}), mcSuccess);
  ScopedExec exec(graph.get());
  ASSERT_EQ(exec.status(), mcSuccess);
  TestStream idle(StreamKind::kNonBlocking);
  ASSERT_EQ(idle.status(), mcSuccess);
  int milliseconds = 20;
  ASSERT_EQ(mcLaunchHostFunc(stream(), SleepFor, &milliseconds), mcSuccess);
  ASSERT_EQ(mcLaunchHostFunc(stream(), SetMarker, &state), mcSuccess);
  ASSERT_EQ(mcGraphLaunch(exec.get(), stream()), mcSuccess);
  ASSERT_EQ(mcGraphLaunch(exec.get(), idle.get()), mcSuccess);
  // Then alternate between the two streams.
  constexpr int kMore = 10;
  for (int i = 0; i < kMore; ++i) {
    ASSERT_EQ(mcGraphLaunch(exec.get(), i % 2 == 0 ? stream() : idle.get()),
              mcSuccess);
  }
  ASSERT_EQ(mcStreamSynchronize(idle.get()), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream()), mcSuccess);
  EXPECT_EQ(state.entered, kMore + 2);
  EXPECT_EQ(state.overlaps, 0);
  EXPECT_EQ(*cell(), kMore + 2);
  ASSERT_EQ(state.markers_seen.size(), static_cast<size_t>(kMore + 2));
  EXPECT_EQ(state.markers_seen[0], 1);
  EXPECT_EQ(state.markers_seen[1], 1) << "the second launch ran first";
}

TEST_P(GraphLaunchStream, LaunchesAfterItsGraphIsDestroyed) {
  MX_SPEC("api.graph.destroy.releases-graph-and-nodes",
          "api.graph.instantiate.creates-exec");
  ScopedGraph graph;
  HostLink inner;
  BuildTwoLinks(graph.get(), 0, &inner);
  ScopedExec exec(graph.get());
  ASSERT_EQ(exec.status(), mcSuccess);
  ASSERT_EQ(mcGraphDestroy(graph.release()), mcSuccess);
  for (int launch = 0; launch < 3; ++launch) {
    *cell() = 0;
    ASSERT_EQ(mcGraphLaunch(exec.get(), stream()), mcSuccess);
    ASSERT_EQ(mcStreamSynchronize(stream()), mcSuccess);
    EXPECT_EQ(*cell(), 2) << launch;
  }
}

TEST_P(GraphLaunchStream, DestroyedWithALaunchPendingTheLaunchCompletes) {
  MX_SPEC("api.graph.exec-destroy.releases");
  ScopedGraph graph;
  HostLink inner;
  BuildTwoLinks(graph.get(), 0, &inner);
  ScopedExec exec(graph.get());
  ASSERT_EQ(exec.status(), mcSuccess);
  int milliseconds = 20;
  ASSERT_EQ(mcLaunchHostFunc(stream(), SleepFor, &milliseconds), mcSuccess);
  ASSERT_EQ(mcGraphLaunch(exec.get(), stream()), mcSuccess);
  ASSERT_EQ(mcGraphLaunch(exec.get(), stream()), mcSuccess);
  EXPECT_EQ(mcGraphExecDestroy(exec.release()), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream()), mcSuccess);
  // The first launch completed the chain (0 -> 2), the second found 2 and
  // broke it, its host node last: both ran.
  EXPECT_EQ(*cell(), kBroken - 100);
}

TEST_P(GraphLaunchStream, ChangesToTheGraphAfterInstantiationDoNotReachIt) {
  MX_SPEC("api.graph.instantiate.creates-exec",
          "api.graph.node-params.set-changes-graph-node");
  ScopedGraph graph;
  KernelCall add(AddTo, dim3(1), dim3(1), cell(), 1);
  mcGraphNode_t kernel;
  ASSERT_EQ(add.Add(&kernel, graph.get(), {}), mcSuccess);
  ScopedExec exec(graph.get());
  ASSERT_EQ(exec.status(), mcSuccess);
  add.arg<1>() = 1000;
  ASSERT_EQ(mcGraphKernelNodeSetParams(kernel, add.params()), mcSuccess);
  mcGraphNode_t extra;
  KernelCall add_more(AddTo, dim3(1), dim3(1), cell(), 20);
  ASSERT_EQ(add_more.Add(&extra, graph.get(), {kernel}), mcSuccess);
  ASSERT_EQ(mcGraphLaunch(exec.get(), stream()), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream()), mcSuccess);
  EXPECT_EQ(*cell(), 1);
  // Control: an executable graph instantiated now has both changes.
  ScopedExec changed(graph.get());
  ASSERT_EQ(changed.status(), mcSuccess);
  ASSERT_EQ(mcGraphLaunch(changed.get(), stream()), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream()), mcSuccess);
  EXPECT_EQ(*cell(), 1 + 1000 + 20);
}

TEST_P(GraphLaunchStream, TwoExecsOfOneGraphAreIndependent) {
  MX_SPEC("api.graph.instantiate.creates-exec",
          "api.graph.exec-node-set.updates-one-node");
  ScopedGraph graph;
  KernelCall add(AddTo, dim3(1), dim3(1), cell(), 1);
  mcGraphNode_t kernel;
  ASSERT_EQ(add.Add(&kernel, graph.get(), {}), mcSuccess);
  ScopedExec first(graph.get());
  ScopedExec second(graph.get());
  ASSERT_EQ(first.status(), mcSuccess);
  ASSERT_EQ(second.status(), mcSuccess);
  EXPECT_NE(first.get(), second.get());
  add.arg<1>() = 100;
  ASSERT_EQ(mcGraphExecKernelNodeSetParams(second.get(), kernel, add.params()),
            mcSuccess);
  ASSERT_EQ(mcGraphLaunch(first.get(), stream()), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream()), mcSuccess);
  EXPECT_EQ(*cell(), 1);
  ASSERT_EQ(mcGraphLaunch(second.get(), stream()), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream()), mcSuccess);
  EXPECT_EQ(*cell(), 101);
}

TEST_P(GraphLaunchStream, UploadThenLaunch) {
  MX_SPEC("api.graph.launch.ordered-in-stream",
          "api.graph.instantiate.with-flags");
  ScopedGraph graph;
  HostLink inner;
  BuildTwoLinks(graph.get(), 0, &inner);
  ScopedExec exec(graph.get(), mcGraphInstantiateFlagUpload);
  ASSERT_EQ(exec.status(), mcSuccess);
  ASSERT_EQ(mcGraphUpload(exec.get(), stream()), mcSuccess);
  ASSERT_EQ(*cell(), 0) << "an upload runs no node";
  ASSERT_EQ(mcGraphLaunch(exec.get(), stream()), mcSuccess);
  ASSERT_EQ(mcGraphUpload(exec.get(), stream()), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream()), mcSuccess);
  EXPECT_EQ(*cell(), 2);
}

TEST_P(GraphLaunchStream, EmptyGraphLaunchIsOrderedLikeOtherWork) {
  MX_SPEC("api.graph.launch.ordered-in-stream",
          "api.graph.instantiate.creates-exec");
  ScopedGraph graph;
  ScopedExec exec(graph.get());
  ASSERT_EQ(exec.status(), mcSuccess);
  ChainLink<<<1, 1, 0, stream()>>>(cell(), 0);
  ASSERT_EQ(mcGraphLaunch(exec.get(), stream()), mcSuccess);
  ChainLink<<<1, 1, 0, stream()>>>(cell(), 1);
  ASSERT_EQ(mcStreamSynchronize(stream()), mcSuccess);
  EXPECT_EQ(*cell(), 2);
}

TEST_P(GraphLaunchStream, ResultsMatchTheSameWorkInAStream) {
  // The graph a program builds gives what the same work enqueued in a
  // stream gives, whatever MACA_GRAPH_LAUNCH_MODE says.
  MX_SPEC("api.graph.launch.graph-launch-mode-same-results",
          "api.graph.launch.runs-all-nodes-respecting-edges");
  constexpr int kN = 128;
  int* data = nullptr;
  int* expected = nullptr;
  ASSERT_EQ(mcMallocManaged(&data, kN * sizeof(int)), mcSuccess);
  ASSERT_EQ(mcMallocManaged(&expected, kN * sizeof(int)), mcSuccess);
  Fill<<<1, 64, 0, stream()>>>(expected, 3, kN);
  ASSERT_EQ(mcMemsetAsync(expected, 0, kN / 2 * sizeof(int), stream()),
            mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream()), mcSuccess);
  ScopedGraph graph;
  KernelCall fill(Fill, dim3(1), dim3(64), data, 3, kN);
  mcGraphNode_t filled, zeroed;
  ASSERT_EQ(fill.Add(&filled, graph.get(), {}), mcSuccess);
  ASSERT_EQ(
      AddMemset(&zeroed, graph.get(), {filled}, Memset32(data, 0, kN / 2)),
      mcSuccess);
  ScopedExec exec(graph.get());
  ASSERT_EQ(exec.status(), mcSuccess);
  ASSERT_EQ(mcGraphLaunch(exec.get(), stream()), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream()), mcSuccess);
  const char* mode = std::getenv("MACA_GRAPH_LAUNCH_MODE");
  SCOPED_TRACE(std::string("MACA_GRAPH_LAUNCH_MODE=") +
               (mode == nullptr ? "(unset)" : mode));
  for (int i = 0; i < kN; ++i) {
    ASSERT_EQ(data[i], expected[i]) << i;
  }
  EXPECT_EQ(data[0], 0);
  EXPECT_EQ(data[kN - 1], 3);
  EXPECT_EQ(mcFree(data), mcSuccess);
  EXPECT_EQ(mcFree(expected), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(KindsAndDevices, GraphLaunchStream,
                         testing::Combine(testing::ValuesIn(kAllStreamKinds),
                                          testing::Values(0, 1)),
                         KindOnDeviceName);

}  // namespace
}  // namespace mxcts::conformance
