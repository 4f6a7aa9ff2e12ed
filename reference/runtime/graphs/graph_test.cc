// Copyright mxcts authors.
//
// The reference's own choices for graphs (graph.h, graph_exec.h,
// stream_capture.h, graph_dot.h), through the public API: the order nodes
// run in, snapshots of executable graphs, capture bookkeeping, the DOT
// text. Kernel nodes are covered by the conformance tests, which compile
// kernels.

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "mc_runtime_api.h"

namespace {

// Host nodes that append their tag to a shared log.
struct Tagged {
  std::vector<int>* log;
  int tag;
};

void AppendTag(void* data) {
  auto* tagged = static_cast<Tagged*>(data);
  tagged->log->push_back(tagged->tag);
}

mcGraphNode_t AddLogger(mcGraph_t graph, Tagged* tagged,
                        std::vector<mcGraphNode_t> after = {}) {
  mcHostNodeParams params{&AppendTag, tagged};
  mcGraphNode_t node = nullptr;
  EXPECT_EQ(
      mcGraphAddHostNode(&node, graph, after.data(), after.size(), &params),
      mcSuccess);
  return node;
}

TEST(GraphOrder, IndependentNodesRunInAdditionOrder) {
  // Outside the shuffle mode a launch runs ready nodes in the order they
  // were added.
  mcGraph_t graph;
  ASSERT_EQ(mcGraphCreate(&graph, 0), mcSuccess);
  std::vector<int> log;
  Tagged tags[4] = {{&log, 0}, {&log, 1}, {&log, 2}, {&log, 3}};
  mcGraphNode_t first = AddLogger(graph, &tags[0]);
  AddLogger(graph, &tags[1]);
  AddLogger(graph, &tags[2], {first});
  AddLogger(graph, &tags[3]);
  mcGraphExec_t exec;
  ASSERT_EQ(mcGraphInstantiate(&exec, graph, nullptr, nullptr, 0), mcSuccess);
  ASSERT_EQ(mcGraphLaunch(exec, 0), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(0), mcSuccess);
  EXPECT_EQ(log, (std::vector<int>{0, 1, 2, 3}));
  mcGraphExecDestroy(exec);
  mcGraphDestroy(graph);
}

TEST(GraphOrder, AddedEdgeOrdersLaterNodeFirst) {
  mcGraph_t graph;
  ASSERT_EQ(mcGraphCreate(&graph, 0), mcSuccess);
  std::vector<int> log;
  Tagged tags[2] = {{&log, 0}, {&log, 1}};
  mcGraphNode_t a = AddLogger(graph, &tags[0]);
  mcGraphNode_t b = AddLogger(graph, &tags[1]);
  ASSERT_EQ(mcGraphAddDependencies(graph, &b, &a, 1), mcSuccess);
  // The reverse edge would close a cycle: refused, nothing added.
  EXPECT_EQ(mcGraphAddDependencies(graph, &a, &b, 1), mcErrorInvalidValue);
  size_t edges = 0;
  ASSERT_EQ(mcGraphGetEdges(graph, nullptr, nullptr, &edges), mcSuccess);
  EXPECT_EQ(edges, 1u);
  mcGraphExec_t exec;
  ASSERT_EQ(mcGraphInstantiate(&exec, graph, nullptr, nullptr, 0), mcSuccess);
  ASSERT_EQ(mcGraphLaunch(exec, 0), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(0), mcSuccess);
  EXPECT_EQ(log, (std::vector<int>{1, 0}));
  mcGraphExecDestroy(exec);
  mcGraphDestroy(graph);
}

TEST(ExecSnapshot, LaunchKeepsParametersOfItsTime) {
  // A change after a launch was enqueued does not reach that launch; the
  // timeline here runs at submission, so the check is that the launch
  // made before the change logged the old tag and the one after the new.
  mcGraph_t graph;
  ASSERT_EQ(mcGraphCreate(&graph, 0), mcSuccess);
  std::vector<int> log;
  Tagged before{&log, 1};
  Tagged after{&log, 2};
  mcGraphNode_t node = AddLogger(graph, &before);
  mcGraphExec_t exec;
  ASSERT_EQ(mcGraphInstantiate(&exec, graph, nullptr, nullptr, 0), mcSuccess);
  ASSERT_EQ(mcGraphLaunch(exec, 0), mcSuccess);
  mcHostNodeParams changed{&AppendTag, &after};
  ASSERT_EQ(mcGraphExecHostNodeSetParams(exec, node, &changed), mcSuccess);
  ASSERT_EQ(mcGraphLaunch(exec, 0), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(0), mcSuccess);
  EXPECT_EQ(log, (std::vector<int>{1, 2}));
  // The graph itself still holds the old parameters.
  mcHostNodeParams held{};
  ASSERT_EQ(mcGraphHostNodeGetParams(node, &held), mcSuccess);
  EXPECT_EQ(held.userData, &before);
  mcGraphExecDestroy(exec);
  mcGraphDestroy(graph);
}

TEST(ExecSnapshot, MemcpyPlannedAtInstantiation) {
  void* device = nullptr;
  ASSERT_EQ(mcMalloc(&device, 64), mcSuccess);
  std::vector<unsigned char> host(64, 7);
  mcGraph_t graph;
  ASSERT_EQ(mcGraphCreate(&graph, 0), mcSuccess);
  mcGraphNode_t copy = nullptr;
  ASSERT_EQ(mcGraphAddMemcpyNode1D(&copy, graph, nullptr, 0, device,
                                   host.data(), 64, mcMemcpyHostToDevice),
            mcSuccess);
  ASSERT_EQ(mcFree(device), mcSuccess);
  // The node's destination is gone: instantiation names the node.
  mcGraphExec_t exec = nullptr;
  mcGraphNode_t at_fault = nullptr;
  char log[128] = {};
  EXPECT_EQ(mcGraphInstantiate(&exec, graph, &at_fault, log, sizeof(log)),
            mcErrorInvalidValue);
  EXPECT_EQ(at_fault, copy);
  EXPECT_NE(std::string(log).find("memcpy"), std::string::npos) << log;
  mcGraphDestroy(graph);
}

TEST(Capture, NodesChainInStreamOrder) {
  mcStream_t stream;
  ASSERT_EQ(mcStreamCreate(&stream), mcSuccess);
  void* device = nullptr;
  ASSERT_EQ(mcMalloc(&device, 256), mcSuccess);
  std::vector<unsigned char> host(256, 0);
  ASSERT_EQ(mcStreamBeginCapture(stream, mcStreamCaptureModeGlobal), mcSuccess);
  ASSERT_EQ(mcMemsetAsync(device, 0x5a, 256, stream), mcSuccess);
  ASSERT_EQ(
      mcMemcpyAsync(host.data(), device, 256, mcMemcpyDeviceToHost, stream),
      mcSuccess);
  // Nothing ran.
  EXPECT_EQ(host[0], 0);
  unsigned long long id = 0;
  mcStreamCaptureStatus status;
  ASSERT_EQ(mcStreamGetCaptureInfo(stream, &status, &id), mcSuccess);
  EXPECT_EQ(status, mcStreamCaptureStatusActive);
  EXPECT_NE(id, 0u);
  mcGraph_t graph = nullptr;
  ASSERT_EQ(mcStreamEndCapture(stream, &graph), mcSuccess);
  size_t nodes = 0;
  ASSERT_EQ(mcGraphGetNodes(graph, nullptr, &nodes), mcSuccess);
  EXPECT_EQ(nodes, 2u);
  mcGraphNode_t from = nullptr;
  mcGraphNode_t to = nullptr;
  size_t edges = 1;
  ASSERT_EQ(mcGraphGetEdges(graph, &from, &to, &edges), mcSuccess);
  ASSERT_EQ(edges, 1u);
  mcGraphNodeType type;
  ASSERT_EQ(mcGraphNodeGetType(from, &type), mcSuccess);
  EXPECT_EQ(type, mcGraphNodeTypeMemset);
  ASSERT_EQ(mcGraphNodeGetType(to, &type), mcSuccess);
  EXPECT_EQ(type, mcGraphNodeTypeMemcpy);
  mcGraphExec_t exec;
  ASSERT_EQ(mcGraphInstantiate(&exec, graph, nullptr, nullptr, 0), mcSuccess);
  ASSERT_EQ(mcGraphLaunch(exec, stream), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream), mcSuccess);
  EXPECT_EQ(host[0], 0x5a);
  EXPECT_EQ(host[255], 0x5a);
  mcGraphExecDestroy(exec);
  mcGraphDestroy(graph);
  mcFree(device);
  mcStreamDestroy(stream);
}

TEST(Capture, SynchronizeInvalidatesAndEndReportsIt) {
  mcStream_t stream;
  ASSERT_EQ(mcStreamCreate(&stream), mcSuccess);
  ASSERT_EQ(mcStreamBeginCapture(stream, mcStreamCaptureModeGlobal), mcSuccess);
  EXPECT_EQ(mcStreamSynchronize(stream), mcErrorStreamCaptureUnsupported);
  mcStreamCaptureStatus status;
  ASSERT_EQ(mcStreamIsCapturing(stream, &status), mcSuccess);
  EXPECT_EQ(status, mcStreamCaptureStatusInvalidated);
  mcGraph_t graph = reinterpret_cast<mcGraph_t>(1);
  EXPECT_EQ(mcStreamEndCapture(stream, &graph),
            mcErrorStreamCaptureInvalidated);
  EXPECT_EQ(graph, nullptr);
  ASSERT_EQ(mcStreamIsCapturing(stream, &status), mcSuccess);
  EXPECT_EQ(status, mcStreamCaptureStatusNone);
  mcGetLastError();
  mcStreamDestroy(stream);
}

TEST(Dot, OneStatementPerNodeAndEdge) {
  mcGraph_t graph;
  ASSERT_EQ(mcGraphCreate(&graph, 0), mcSuccess);
  mcGraphNode_t a = nullptr;
  mcGraphNode_t b = nullptr;
  ASSERT_EQ(mcGraphAddEmptyNode(&a, graph, nullptr, 0), mcSuccess);
  ASSERT_EQ(mcGraphAddEmptyNode(&b, graph, &a, 1), mcSuccess);
  const std::string path =
      std::string(std::getenv("TEST_TMPDIR")) + "/graph.dot";
  ASSERT_EQ(mcGraphDebugDotPrint(graph, path.c_str(), 0), mcSuccess);
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  EXPECT_EQ(text.str(),
            "digraph mcGraph {\n"
            "  node [shape=box];\n"
            "  n0 [label=\"0: empty\"];\n"
            "  n1 [label=\"1: empty\"];\n"
            "  n0 -> n1;\n"
            "}\n");
  EXPECT_EQ(mcGraphDebugDotPrint(graph, "/nonexistent-dir/graph.dot", 0),
            mcErrorOperatingSystem);
  mcGraphDestroy(graph);
}

}  // namespace

namespace {

TEST(GraphMemory, AllocationOutstandingUntilFreed) {
  mcGraph_t graph;
  ASSERT_EQ(mcGraphCreate(&graph, 0), mcSuccess);
  mcMemAllocNodeParams params{};
  params.poolProps.allocType = mcMemAllocationTypePinned;
  params.poolProps.location.type = mcMemLocationTypeDevice;
  params.poolProps.location.id = 0;
  params.bytesize = 1000;
  mcGraphNode_t alloc = nullptr;
  ASSERT_EQ(mcGraphAddMemAllocNode(&alloc, graph, nullptr, 0, &params),
            mcSuccess);
  ASSERT_NE(params.dptr, nullptr);
  mcMemsetParams set{params.dptr, 1000, 0x11, 1, 1000, 1};
  mcGraphNode_t fill = nullptr;
  ASSERT_EQ(mcGraphAddMemsetNode(&fill, graph, &alloc, 1, &set), mcSuccess);
  mcGraphExec_t exec;
  ASSERT_EQ(mcGraphInstantiate(&exec, graph, nullptr, nullptr, 0), mcSuccess);
  ASSERT_EQ(mcGraphLaunch(exec, 0), mcSuccess);
  // Still allocated: a second launch fails until the program frees it.
  EXPECT_EQ(mcGraphLaunch(exec, 0), mcErrorInvalidValue);
  unsigned char first = 0;
  ASSERT_EQ(mcMemcpy(&first, params.dptr, 1, mcMemcpyDeviceToHost), mcSuccess);
  EXPECT_EQ(first, 0x11);
  ASSERT_EQ(mcFree(params.dptr), mcSuccess);
  EXPECT_EQ(mcFree(params.dptr), mcErrorInvalidValue);  // freed already
  EXPECT_EQ(mcGraphLaunch(exec, 0), mcSuccess);
  ASSERT_EQ(mcFreeAsync(params.dptr, 0), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(0), mcSuccess);
  mcGraphExecDestroy(exec);
  mcGraphDestroy(graph);
}

TEST(GraphMemory, AutoFreeOnLaunchAllowsRelaunch) {
  mcGraph_t graph;
  ASSERT_EQ(mcGraphCreate(&graph, 0), mcSuccess);
  mcMemAllocNodeParams params{};
  params.poolProps.allocType = mcMemAllocationTypePinned;
  params.poolProps.location.type = mcMemLocationTypeDevice;
  params.bytesize = 64;
  mcGraphNode_t alloc = nullptr;
  ASSERT_EQ(mcGraphAddMemAllocNode(&alloc, graph, nullptr, 0, &params),
            mcSuccess);
  mcGraphExec_t exec;
  ASSERT_EQ(mcGraphInstantiateWithFlags(&exec, graph,
                                        mcGraphInstantiateFlagAutoFreeOnLaunch),
            mcSuccess);
  ASSERT_EQ(mcGraphLaunch(exec, 0), mcSuccess);
  EXPECT_EQ(mcGraphLaunch(exec, 0), mcSuccess);
  ASSERT_EQ(mcFree(params.dptr), mcSuccess);
  mcGraphExecDestroy(exec);
  mcGraphDestroy(graph);
}

TEST(GraphMemory, CapturedAllocationAndFree) {
  mcStream_t stream;
  ASSERT_EQ(mcStreamCreate(&stream), mcSuccess);
  ASSERT_EQ(mcStreamBeginCapture(stream, mcStreamCaptureModeGlobal), mcSuccess);
  void* p = nullptr;
  ASSERT_EQ(mcMallocAsync(&p, 256, stream), mcSuccess);
  ASSERT_NE(p, nullptr);
  ASSERT_EQ(mcMemsetAsync(p, 3, 256, stream), mcSuccess);
  ASSERT_EQ(mcFreeAsync(p, stream), mcSuccess);
  mcGraph_t graph = nullptr;
  ASSERT_EQ(mcStreamEndCapture(stream, &graph), mcSuccess);
  std::vector<mcGraphNode_t> nodes(3);
  size_t count = nodes.size();
  ASSERT_EQ(mcGraphGetNodes(graph, nodes.data(), &count), mcSuccess);
  ASSERT_EQ(count, 3u);
  const mcGraphNodeType expected[3] = {
      mcGraphNodeTypeMemAlloc, mcGraphNodeTypeMemset, mcGraphNodeTypeMemFree};
  for (size_t i = 0; i < 3; ++i) {
    mcGraphNodeType type;
    ASSERT_EQ(mcGraphNodeGetType(nodes[i], &type), mcSuccess);
    EXPECT_EQ(type, expected[i]) << i;
  }
  mcGraphExec_t exec;
  ASSERT_EQ(mcGraphInstantiate(&exec, graph, nullptr, nullptr, 0), mcSuccess);
  // The graph frees what it allocates: it may run again and again.
  ASSERT_EQ(mcGraphLaunch(exec, stream), mcSuccess);
  ASSERT_EQ(mcGraphLaunch(exec, stream), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream), mcSuccess);
  mcGraphExecDestroy(exec);
  mcGraphDestroy(graph);
  mcStreamDestroy(stream);
}

}  // namespace
