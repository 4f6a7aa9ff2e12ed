// Copyright mxcts authors.
//
// Conformance: a graph launch runs every node once, each after the nodes it
// depends on (docs/spec/api-graph.md, "Instantiation and launch"), for
// kernel, host, copy, set, empty, child graph and event nodes, on every
// kind of stream and every device.
//
// Each node takes a ticket from a shared clock when it runs; a test checks
// the tickets of the two ends of every edge, and nothing else, since nodes
// without a path between them may run in any order. The controls: the same
// two nodes with the edge reversed run in the reversed order, and nodes
// without edges still run exactly once. The target also runs as _deferred
// and _shuffle (TIMELINE_VARIANTS): the shuffled timeline runs unordered
// nodes in a permuted order.

#include <mc_runtime.h>

#include <string>
#include <utility>
#include <vector>

#include "conformance/api/graph/exec/exec_testing.h"
#include "conformance/api/testing/order_log.h"
#include "conformance/api/testing/scoped_device.h"
#include "conformance/api/testing/stream_fixtures.h"
#include "conformance/api/testing/stream_kind.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

constexpr int kBroken = -1000;

// Takes the next tick of `clock` as the ticket of `slot`.
__global__ void TakeTicket(int* clock, int* tickets, int slot) {
  tickets[slot] = atomicAdd(clock, 1);
}

// Link `step` of a chain: moves *cell from `step` to `step + 1`, or marks
// the chain broken when the previous link has not run (or ran twice).
__global__ void ChainLink(int* cell, int step) {
  *cell = *cell == step ? step + 1 : kBroken - step;
}

// Adds `amount` to each of `n` ints at `data`.
__global__ void AddTo(int* data, int amount, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] += amount;
}

// The stream of the parameter's kind on its device, which is current; a
// managed cell holding 0; graphs claimed.
class GraphLaunchOrder : public StreamOnDeviceTest {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY("graphs");
    StreamOnDeviceTest::SetUp();
  }

  // Adds a kernel node that takes the ticket of `slot`.
  mcError_t KernelTicket(mcGraphNode_t* node, mcGraph_t graph,
                         TicketBoard& board, int slot,
                         std::initializer_list<mcGraphNode_t> deps) {
    KernelCall call(TakeTicket, dim3(1), dim3(1), board.clock(),
                    board.tickets(), slot);
    return call.Add(node, graph, deps);
  }
  // Adds a host node that takes the ticket of `slot`.
  mcError_t HostTicket(mcGraphNode_t* node, mcGraph_t graph, TicketBoard& board,
                       int slot, std::initializer_list<mcGraphNode_t> deps) {
    return AddHost(node, graph, deps, board.HostTicket(slot));
  }
  // Instantiates `graph`, launches it once into the stream and waits.
  void LaunchOnce(mcGraph_t graph) {
    ScopedExec exec(graph);
    ASSERT_EQ(exec.status(), mcSuccess);
    ASSERT_EQ(mcGraphLaunch(exec.get(), stream()), mcSuccess);
    ASSERT_EQ(mcStreamSynchronize(stream()), mcSuccess);
  }
};

TEST_P(GraphLaunchOrder, KernelChainAddedInOrderRunsInOrder) {
  MX_SPEC("api.graph.launch.runs-all-nodes-respecting-edges",
          "api.graph.instantiate.creates-exec");
  ScopedGraph graph;
  ASSERT_EQ(graph.status(), mcSuccess);
  constexpr int kLinks = 10;
  mcGraphNode_t previous = nullptr;
  for (int step = 0; step < kLinks; ++step) {
    KernelCall link(ChainLink, dim3(1), dim3(1), cell(), step);
    mcGraphNode_t node = nullptr;
    if (previous == nullptr) {
      ASSERT_EQ(link.Add(&node, graph.get(), {}), mcSuccess);
    } else {
      ASSERT_EQ(link.Add(&node, graph.get(), {previous}), mcSuccess);
    }
    previous = node;
  }
  EXPECT_EQ(*cell(), 0) << "adding nodes runs nothing";
  LaunchOnce(graph.get());
  EXPECT_EQ(*cell(), kLinks);
}

TEST_P(GraphLaunchOrder, KernelChainAddedBackwardsRunsInEdgeOrder) {
  // The nodes are added last link first and joined by edges afterwards, so
  // only the edges can put them in order.
  MX_SPEC("api.graph.launch.runs-all-nodes-respecting-edges",
          "api.graph.add-dependencies.adds-edges");
  ScopedGraph graph;
  ASSERT_EQ(graph.status(), mcSuccess);
  constexpr int kLinks = 10;
  std::vector<mcGraphNode_t> links(kLinks);
  for (int step = kLinks - 1; step >= 0; --step) {
    KernelCall link(ChainLink, dim3(1), dim3(1), cell(), step);
    ASSERT_EQ(link.Add(&links[step], graph.get(), {}), mcSuccess);
  }
  for (int step = 0; step + 1 < kLinks; ++step) {
    ASSERT_EQ(
        mcGraphAddDependencies(graph.get(), &links[step], &links[step + 1], 1),
        mcSuccess);
  }
  LaunchOnce(graph.get());
  EXPECT_EQ(*cell(), kLinks);
}

TEST_P(GraphLaunchOrder, DiamondOfKernelAndHostNodesRespectsEveryEdge) {
  MX_SPEC("api.graph.launch.runs-all-nodes-respecting-edges",
          "api.graph.host-node.calls-function",
          "api.graph.kernel-node.runs-kernel");
  TicketBoard board(4);
  ASSERT_EQ(board.status(), mcSuccess);
  ScopedGraph graph;
  mcGraphNode_t a, b, c, d;
  ASSERT_EQ(KernelTicket(&a, graph.get(), board, 0, {}), mcSuccess);
  ASSERT_EQ(HostTicket(&b, graph.get(), board, 1, {a}), mcSuccess);
  ASSERT_EQ(KernelTicket(&c, graph.get(), board, 2, {a}), mcSuccess);
  ASSERT_EQ(HostTicket(&d, graph.get(), board, 3, {b, c}), mcSuccess);
  EXPECT_FALSE(board.Ran(0));
  LaunchOnce(graph.get());
  EXPECT_TRUE(board.EachRanOnce()) << board.Describe();
  for (auto [from, to] :
       std::vector<std::pair<int, int>>{{0, 1}, {0, 2}, {1, 3}, {2, 3}}) {
    EXPECT_TRUE(board.RanBefore(from, to))
        << from << " -> " << to << ": " << board.Describe();
  }
}

TEST_P(GraphLaunchOrder, FanOutAndFanInRespectEveryEdge) {
  MX_SPEC("api.graph.launch.runs-all-nodes-respecting-edges");
  constexpr int kMiddle = 8;
  TicketBoard board(kMiddle + 2);
  ASSERT_EQ(board.status(), mcSuccess);
  ScopedGraph graph;
  mcGraphNode_t root, sink;
  ASSERT_EQ(HostTicket(&root, graph.get(), board, 0, {}), mcSuccess);
  std::vector<mcGraphNode_t> middle(kMiddle);
  for (int i = 0; i < kMiddle; ++i) {
    ASSERT_EQ(i % 2 == 0
                  ? KernelTicket(&middle[i], graph.get(), board, i + 1, {root})
                  : HostTicket(&middle[i], graph.get(), board, i + 1, {root}),
              mcSuccess);
  }
  const mcHostNodeParams last = board.HostTicket(kMiddle + 1);
  ASSERT_EQ(
      mcGraphAddHostNode(&sink, graph.get(), middle.data(), kMiddle, &last),
      mcSuccess);
  LaunchOnce(graph.get());
  EXPECT_TRUE(board.EachRanOnce()) << board.Describe();
  for (int i = 1; i <= kMiddle; ++i) {
    EXPECT_TRUE(board.RanBefore(0, i)) << i << ": " << board.Describe();
    EXPECT_TRUE(board.RanBefore(i, kMiddle + 1))
        << i << ": " << board.Describe();
  }
}

TEST_P(GraphLaunchOrder, ReversingTheEdgeReversesTheOrder) {
  // Control of the edge checks: the same two nodes, added in the same
  // order, run in the order of their edge, whichever way it points.
  MX_SPEC("api.graph.launch.runs-all-nodes-respecting-edges");
  for (bool forward : {true, false}) {
    SCOPED_TRACE(forward ? "kernel -> host" : "host -> kernel");
    TicketBoard board(2);
    ASSERT_EQ(board.status(), mcSuccess);
    ScopedGraph graph;
    mcGraphNode_t kernel, host;
    ASSERT_EQ(KernelTicket(&kernel, graph.get(), board, 0, {}), mcSuccess);
    ASSERT_EQ(HostTicket(&host, graph.get(), board, 1, {}), mcSuccess);
    mcGraphNode_t from = forward ? kernel : host;
    mcGraphNode_t to = forward ? host : kernel;
    ASSERT_EQ(mcGraphAddDependencies(graph.get(), &from, &to, 1), mcSuccess);
    LaunchOnce(graph.get());
    EXPECT_TRUE(board.EachRanOnce()) << board.Describe();
    EXPECT_TRUE(forward ? board.RanBefore(0, 1) : board.RanBefore(1, 0))
        << board.Describe();
  }
}

TEST_P(GraphLaunchOrder, NodesWithoutEdgesEachRunOnce) {
  // Control: without edges no order is required (the order is the
  // implementation's), but every node runs, once.
  MX_SPEC("api.graph.launch.runs-all-nodes-respecting-edges",
          "api.graph.launch.node-order-implementation-defined");
  constexpr int kNodes = 6;
  TicketBoard board(kNodes);
  ASSERT_EQ(board.status(), mcSuccess);
  ScopedGraph graph;
  for (int i = 0; i < kNodes; ++i) {
    mcGraphNode_t node;
    ASSERT_EQ(i % 2 == 0 ? KernelTicket(&node, graph.get(), board, i, {})
                         : HostTicket(&node, graph.get(), board, i, {}),
              mcSuccess);
  }
  EXPECT_EQ(Roots(graph.get()).size(), static_cast<size_t>(kNodes));
  LaunchOnce(graph.get());
  EXPECT_TRUE(board.EachRanOnce()) << board.Describe();
}

TEST_P(GraphLaunchOrder, ExecKeepsAnEdgeRemovedAfterInstantiation) {
  // The executable graph snapshots the edges: an edge removed from the
  // graph afterwards still orders its launches.
  MX_SPEC("api.graph.instantiate.creates-exec",
          "api.graph.launch.runs-all-nodes-respecting-edges");
  TicketBoard board(3);
  ASSERT_EQ(board.status(), mcSuccess);
  ScopedGraph graph;
  mcGraphNode_t a, b, c;
  ASSERT_EQ(HostTicket(&a, graph.get(), board, 0, {}), mcSuccess);
  ASSERT_EQ(KernelTicket(&b, graph.get(), board, 1, {}), mcSuccess);
  ASSERT_EQ(HostTicket(&c, graph.get(), board, 2, {b}), mcSuccess);
  ASSERT_EQ(mcGraphAddDependencies(graph.get(), &a, &b, 1), mcSuccess);
  ScopedExec exec(graph.get());
  ASSERT_EQ(exec.status(), mcSuccess);
  ASSERT_EQ(mcGraphRemoveDependencies(graph.get(), &a, &b, 1), mcSuccess);
  for (int launch = 0; launch < 3; ++launch) {
    board.Reset();
    ASSERT_EQ(mcGraphLaunch(exec.get(), stream()), mcSuccess);
    ASSERT_EQ(mcStreamSynchronize(stream()), mcSuccess);
    EXPECT_TRUE(board.EachRanOnce()) << board.Describe();
    EXPECT_TRUE(board.RanBefore(0, 1)) << launch << ": " << board.Describe();
    EXPECT_TRUE(board.RanBefore(1, 2)) << launch << ": " << board.Describe();
  }
}

TEST_P(GraphLaunchOrder, CopySetKernelAndHostNodesPassValuesAlongEdges) {
  MX_SPEC("api.graph.launch.runs-all-nodes-respecting-edges",
          "api.graph.memset-node.sets", "api.graph.memcpy-node.copies",
          "api.graph.memcpy-node.one-dimensional-form");
  constexpr int kN = 256;
  int* device_data = nullptr;
  int* host_data = nullptr;
  ASSERT_EQ(mcMalloc(&device_data, kN * sizeof(int)), mcSuccess);
  ASSERT_EQ(mcMallocHost(&host_data, kN * sizeof(int)), mcSuccess);
  for (int i = 0; i < kN; ++i) host_data[i] = -1;
  struct Check {
    const int* data;
    int expected;
    int* verdict;
  } check{host_data, 5 + 3, cell()};
  mcHostNodeParams verify{[](void* p) {
                            const Check* c = static_cast<const Check*>(p);
                            int good = 1;
                            for (int i = 0; i < kN; ++i) {
                              good &= c->data[i] == c->expected;
                            }
                            *c->verdict = good ? 1 : kBroken;
                          },
                          &check};
  ScopedGraph graph;
  mcGraphNode_t set, add, copy, host;
  ASSERT_EQ(AddMemset(&set, graph.get(), {}, Memset32(device_data, 5, kN)),
            mcSuccess);
  KernelCall add_three(AddTo, dim3(kN / 64), dim3(64), device_data, 3, kN);
  ASSERT_EQ(add_three.Add(&add, graph.get(), {set}), mcSuccess);
  ASSERT_EQ(AddCopy(&copy, graph.get(), {add}, host_data, device_data,
                    kN * sizeof(int), mcMemcpyDeviceToHost),
            mcSuccess);
  ASSERT_EQ(AddHost(&host, graph.get(), {copy}, verify), mcSuccess);
  LaunchOnce(graph.get());
  EXPECT_EQ(*cell(), 1);
  EXPECT_EQ(host_data[0], 8);
  EXPECT_EQ(host_data[kN - 1], 8);
  EXPECT_EQ(mcFree(device_data), mcSuccess);
  EXPECT_EQ(mcFreeHost(host_data), mcSuccess);
}

TEST_P(GraphLaunchOrder,
       ChildGraphRunsAfterItsDependenciesAndBeforeDependents) {
  MX_SPEC("api.graph.launch.runs-all-nodes-respecting-edges",
          "api.graph.child-graph-node.embeds-copy");
  TicketBoard board(4);
  ASSERT_EQ(board.status(), mcSuccess);
  ScopedGraph child;
  mcGraphNode_t inner1, inner2;
  ASSERT_EQ(KernelTicket(&inner1, child.get(), board, 1, {}), mcSuccess);
  ASSERT_EQ(HostTicket(&inner2, child.get(), board, 2, {inner1}), mcSuccess);
  ScopedGraph graph;
  mcGraphNode_t before, nested, after;
  ASSERT_EQ(HostTicket(&before, graph.get(), board, 0, {}), mcSuccess);
  ASSERT_EQ(AddChild(&nested, graph.get(), {before}, child.get()), mcSuccess);
  ASSERT_EQ(KernelTicket(&after, graph.get(), board, 3, {nested}), mcSuccess);
  LaunchOnce(graph.get());
  EXPECT_TRUE(board.EachRanOnce()) << board.Describe();
  EXPECT_TRUE(board.RanBefore(0, 1)) << board.Describe();
  EXPECT_TRUE(board.RanBefore(1, 2)) << board.Describe();
  EXPECT_TRUE(board.RanBefore(2, 3)) << board.Describe();
}

TEST_P(GraphLaunchOrder, EmptyNodeJoinsBranches) {
  MX_SPEC("api.graph.launch.runs-all-nodes-respecting-edges",
          "api.graph.empty-node.no-operation");
  TicketBoard board(4);
  ASSERT_EQ(board.status(), mcSuccess);
  ScopedGraph graph;
  mcGraphNode_t a, b, c, join, d;
  ASSERT_EQ(KernelTicket(&a, graph.get(), board, 0, {}), mcSuccess);
  ASSERT_EQ(HostTicket(&b, graph.get(), board, 1, {}), mcSuccess);
  ASSERT_EQ(KernelTicket(&c, graph.get(), board, 2, {}), mcSuccess);
  ASSERT_EQ(AddEmpty(&join, graph.get(), {a, b, c}), mcSuccess);
  ASSERT_EQ(HostTicket(&d, graph.get(), board, 3, {join}), mcSuccess);
  LaunchOnce(graph.get());
  EXPECT_TRUE(board.EachRanOnce()) << board.Describe();
  for (int i = 0; i < 3; ++i) {
    EXPECT_TRUE(board.RanBefore(i, 3)) << i << ": " << board.Describe();
  }
}

TEST_P(GraphLaunchOrder, EventRecordNodeRecordsAfterItsDependencies) {
  // Another stream waits for the event the graph records: its work sees
  // the effect of the node before the record.
  MX_SPEC("api.graph.event-record-node.records",
          "api.graph.launch.runs-all-nodes-respecting-edges");
  mcEvent_t event;
  ASSERT_EQ(mcEventCreate(&event), mcSuccess);
  mcStream_t other;
  ASSERT_EQ(mcStreamCreateWithFlags(&other, mcStreamNonBlocking), mcSuccess);
  ScopedGraph graph;
  mcGraphNode_t link, record;
  KernelCall first(ChainLink, dim3(1), dim3(1), cell(), 0);
  ASSERT_EQ(first.Add(&link, graph.get(), {}), mcSuccess);
  ASSERT_EQ(AddRecord(&record, graph.get(), {link}, event), mcSuccess);
  ScopedExec exec(graph.get());
  ASSERT_EQ(exec.status(), mcSuccess);
  ASSERT_EQ(mcGraphLaunch(exec.get(), stream()), mcSuccess);
  ASSERT_EQ(mcStreamWaitEvent(other, event, 0), mcSuccess);
  ChainLink<<<1, 1, 0, other>>>(cell(), 1);
  ASSERT_EQ(mcGetLastError(), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(other), mcSuccess);
  EXPECT_EQ(*cell(), 2);
  ASSERT_EQ(mcEventSynchronize(event), mcSuccess);
  EXPECT_EQ(mcEventQuery(event), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream()), mcSuccess);
  EXPECT_EQ(mcStreamDestroy(other), mcSuccess);
  EXPECT_EQ(mcEventDestroy(event), mcSuccess);
}

TEST_P(GraphLaunchOrder, EventWaitNodeHoldsItsDependentsUntilTheRecord) {
  // The record comes from another stream, behind a host function that
  // sleeps: the graph's node after the wait sees the other stream's work.
  MX_SPEC("api.graph.event-wait-node.waits",
          "api.graph.launch.runs-all-nodes-respecting-edges");
  mcEvent_t event;
  ASSERT_EQ(mcEventCreate(&event), mcSuccess);
  mcStream_t other;
  ASSERT_EQ(mcStreamCreateWithFlags(&other, mcStreamNonBlocking), mcSuccess);
  ScopedGraph graph;
  mcGraphNode_t wait, link;
  ASSERT_EQ(AddWait(&wait, graph.get(), {}, event), mcSuccess);
  KernelCall second(ChainLink, dim3(1), dim3(1), cell(), 1);
  ASSERT_EQ(second.Add(&link, graph.get(), {wait}), mcSuccess);
  ScopedExec exec(graph.get());
  ASSERT_EQ(exec.status(), mcSuccess);
  int milliseconds = 20;
  ASSERT_EQ(mcLaunchHostFunc(other, SleepFor, &milliseconds), mcSuccess);
  ChainLink<<<1, 1, 0, other>>>(cell(), 0);
  ASSERT_EQ(mcEventRecord(event, other), mcSuccess);
  ASSERT_EQ(mcGraphLaunch(exec.get(), stream()), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream()), mcSuccess);
  EXPECT_EQ(*cell(), 2);
  ASSERT_EQ(mcStreamSynchronize(other), mcSuccess);
  EXPECT_EQ(mcStreamDestroy(other), mcSuccess);
  EXPECT_EQ(mcEventDestroy(event), mcSuccess);
}

TEST_P(GraphLaunchOrder, KernelsOnTwoDevicesRunInEdgeOrder) {
  // A kernel node runs on the device current when it was added; edges
  // order nodes of different devices as they order nodes of one.
  MX_SPEC("api.graph.launch.runs-all-nodes-respecting-edges",
          "api.graph.kernel-node.runs-kernel");
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
  TicketBoard board(4);
  ASSERT_EQ(board.status(), mcSuccess);
  ScopedGraph graph;
  mcGraphNode_t here, there, back, last;
  ASSERT_EQ(KernelTicket(&here, graph.get(), board, 0, {}), mcSuccess);
  {
    ScopedDevice other(1 - device());
    ASSERT_TRUE(other.ok());
    ASSERT_EQ(KernelTicket(&there, graph.get(), board, 1, {here}), mcSuccess);
  }
  ASSERT_EQ(KernelTicket(&back, graph.get(), board, 2, {there}), mcSuccess);
  ASSERT_EQ(HostTicket(&last, graph.get(), board, 3, {back}), mcSuccess);
  LaunchOnce(graph.get());
  EXPECT_TRUE(board.EachRanOnce()) << board.Describe();
  for (int i = 0; i < 3; ++i) {
    EXPECT_TRUE(board.RanBefore(i, i + 1)) << i << ": " << board.Describe();
  }
}

INSTANTIATE_TEST_SUITE_P(KindsAndDevices, GraphLaunchOrder,
                         testing::Combine(testing::ValuesIn(kAllStreamKinds),
                                          testing::Values(0, 1)),
                         KindOnDeviceName);

}  // namespace
}  // namespace mxcts::conformance
