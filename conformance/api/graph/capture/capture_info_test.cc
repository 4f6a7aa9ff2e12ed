// Copyright mxcts authors.
//
// Conformance: what a capture reports about itself and how a program
// steers it (docs/spec/api-graph.md, "Stream capture"):
// mcStreamIsCapturing, mcStreamGetCaptureInfo and its _v2 form (status,
// identifier unique in the process, the graph being built, the nodes the
// next work will depend on), and mcStreamUpdateCaptureDependencies (add to
// or replace those nodes), with their errors, each leaving the capture as
// it was.

#include <mc_runtime.h>

#include <algorithm>
#include <set>
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

class CaptureInfo : public CaptureTest {
 protected:
  // The nodes the next captured work in the stream will depend on, sorted.
  std::vector<mcGraphNode_t> CaptureDependencies() {
    mcStreamCaptureStatus status = mcStreamCaptureStatusNone;
    const mcGraphNode_t* dependencies = nullptr;
    size_t count = 12345;
    EXPECT_EQ(mcStreamGetCaptureInfo_v2(stream(), &status, nullptr, nullptr,
                                        &dependencies, &count),
              mcSuccess);
    if (count == 12345) return {};
    std::vector<mcGraphNode_t> nodes(dependencies, dependencies + count);
    std::sort(nodes.begin(), nodes.end());
    return nodes;
  }
  // The graph the capture is building.
  mcGraph_t CaptureGraph() {
    mcStreamCaptureStatus status = mcStreamCaptureStatusNone;
    mcGraph_t graph = nullptr;
    EXPECT_EQ(mcStreamGetCaptureInfo_v2(stream(), &status, nullptr, &graph,
                                        nullptr, nullptr),
              mcSuccess);
    return graph;
  }
  // Enqueues a kernel, checking that the launch itself succeeded (the
  // last error of a refused call before it is cleared first).
  void Kernel() {
    mcGetLastError();
    Increment<<<1, 1, 0, stream()>>>(cell());
    EXPECT_EQ(mcGetLastError(), mcSuccess);
  }
};

TEST_P(CaptureInfo, IsCapturingFollowsTheCapture) {
  MX_SPEC("api.graph.capture.is-capturing-status");
  mcStreamCaptureStatus status = mcStreamCaptureStatusActive;
  ASSERT_EQ(mcStreamIsCapturing(stream(), &status), mcSuccess);
  EXPECT_EQ(status, mcStreamCaptureStatusNone);
  ASSERT_EQ(Begin(), mcSuccess);
  ASSERT_EQ(mcStreamIsCapturing(stream(), &status), mcSuccess);
  EXPECT_EQ(status, mcStreamCaptureStatusActive);
  Kernel();
  ASSERT_EQ(mcStreamIsCapturing(stream(), &status), mcSuccess);
  EXPECT_EQ(status, mcStreamCaptureStatusActive);
  EXPECT_EQ(mcStreamIsCapturing(stream(), nullptr), mcErrorInvalidValue);
  ScopedGraph graph;
  ASSERT_EQ(mcStreamEndCapture(stream(), graph.out()), mcSuccess);
  ASSERT_EQ(mcStreamIsCapturing(stream(), &status), mcSuccess);
  EXPECT_EQ(status, mcStreamCaptureStatusNone);
  EXPECT_EQ(Nodes(graph.get()).size(), 1u);
}

TEST_P(CaptureInfo, GetCaptureInfoReportsStatusAndAUniqueId) {
  MX_SPEC("api.graph.capture.get-info");
  mcStreamCaptureStatus status = mcStreamCaptureStatusActive;
  unsigned long long id = 0;
  ASSERT_EQ(mcStreamGetCaptureInfo(stream(), &status, &id), mcSuccess);
  EXPECT_EQ(status, mcStreamCaptureStatusNone);
  ASSERT_EQ(Begin(), mcSuccess);
  unsigned long long first = 0;
  ASSERT_EQ(mcStreamGetCaptureInfo(stream(), &status, &first), mcSuccess);
  EXPECT_EQ(status, mcStreamCaptureStatusActive);
  // The same capture gives the same identifier; null `id` is allowed.
  unsigned long long again = 0;
  ASSERT_EQ(mcStreamGetCaptureInfo(stream(), &status, &again), mcSuccess);
  EXPECT_EQ(again, first);
  EXPECT_EQ(mcStreamGetCaptureInfo(stream(), &status, nullptr), mcSuccess);
  EXPECT_EQ(mcStreamGetCaptureInfo(stream(), nullptr, &again),
            mcErrorInvalidValue);
  // A concurrent capture of another stream has another identifier.
  TestStream other(StreamKind::kNonBlocking);
  ASSERT_EQ(other.status(), mcSuccess);
  ASSERT_EQ(mcStreamBeginCapture(other.get(), mcStreamCaptureModeRelaxed),
            mcSuccess);
  unsigned long long concurrent = 0;
  ASSERT_EQ(mcStreamGetCaptureInfo(other.get(), &status, &concurrent),
            mcSuccess);
  EXPECT_NE(concurrent, first);
  EndAnyCapture(other.get());
  ScopedGraph graph;
  ASSERT_EQ(mcStreamEndCapture(stream(), graph.out()), mcSuccess);
  // The next capture of the same stream has a new identifier.
  ASSERT_EQ(Begin(), mcSuccess);
  unsigned long long next = 0;
  ASSERT_EQ(mcStreamGetCaptureInfo(stream(), &status, &next), mcSuccess);
  EXPECT_NE(next, first);
  EXPECT_NE(next, concurrent);
}

TEST_P(CaptureInfo, ExtendedFormReportsTheGraphAndDependencies) {
  MX_SPEC("api.graph.capture.get-info");
  ASSERT_EQ(Begin(), mcSuccess);
  mcGraph_t building = CaptureGraph();
  ASSERT_NE(building, nullptr);
  EXPECT_TRUE(CaptureDependencies().empty());
  Kernel();
  ASSERT_EQ(Nodes(building).size(), 1u);
  EXPECT_EQ(CaptureDependencies(), Nodes(building));
  Kernel();
  const std::vector<mcGraphNode_t> nodes = Nodes(building);
  ASSERT_EQ(nodes.size(), 2u);
  EXPECT_EQ(CaptureDependencies(), std::vector<mcGraphNode_t>{nodes[1]});
  // With every output but the status null.
  mcStreamCaptureStatus status = mcStreamCaptureStatusNone;
  EXPECT_EQ(mcStreamGetCaptureInfo_v2(stream(), &status, nullptr, nullptr,
                                      nullptr, nullptr),
            mcSuccess);
  EXPECT_EQ(status, mcStreamCaptureStatusActive);
  EXPECT_EQ(mcStreamGetCaptureInfo_v2(stream(), nullptr, nullptr, nullptr,
                                      nullptr, nullptr),
            mcErrorInvalidValue);
  ScopedGraph graph;
  ASSERT_EQ(mcStreamEndCapture(stream(), graph.out()), mcSuccess);
  EXPECT_EQ(graph.get(), building);
  EXPECT_EQ(Nodes(graph.get()), nodes);
}

TEST_P(CaptureInfo, ExtendedFormOutsideACaptureReportsNone) {
  MX_SPEC("api.graph.capture.get-info");
  mcStreamCaptureStatus status = mcStreamCaptureStatusActive;
  unsigned long long id = 0;
  mcGraph_t graph = nullptr;
  const mcGraphNode_t* dependencies = nullptr;
  size_t count = 0;
  ASSERT_EQ(mcStreamGetCaptureInfo_v2(stream(), &status, &id, &graph,
                                      &dependencies, &count),
            mcSuccess);
  EXPECT_EQ(status, mcStreamCaptureStatusNone);
}

TEST_P(CaptureInfo, SetDependenciesReplacesThem) {
  MX_SPEC("api.graph.capture.update-dependencies");
  ASSERT_EQ(Begin(), mcSuccess);
  Kernel();
  ASSERT_EQ(mcStreamUpdateCaptureDependencies(stream(), nullptr, 0,
                                              mcStreamSetCaptureDependencies),
            mcSuccess);
  EXPECT_TRUE(CaptureDependencies().empty());
  Kernel();
  ScopedGraph graph;
  ASSERT_EQ(mcStreamEndCapture(stream(), graph.out()), mcSuccess);
  // Both kernels are roots: the second no longer depends on the first.
  EXPECT_EQ(Nodes(graph.get()).size(), 2u);
  EXPECT_EQ(Roots(graph.get()).size(), 2u);
  EXPECT_TRUE(Edges(graph.get()).empty());
}

TEST_P(CaptureInfo, AddDependenciesAddsANodeOfTheCaptureGraph) {
  MX_SPEC("api.graph.capture.update-dependencies",
          "api.graph.capture.get-info");
  ASSERT_EQ(Begin(), mcSuccess);
  Kernel();
  mcGraph_t building = CaptureGraph();
  ASSERT_NE(building, nullptr);
  const mcGraphNode_t first = Nodes(building)[0];
  // A node the program adds to the capture's graph itself.
  mcGraphNode_t extra;
  ASSERT_EQ(AddEmpty(&extra, building, {}), mcSuccess);
  ASSERT_EQ(mcStreamUpdateCaptureDependencies(stream(), &extra, 1,
                                              mcStreamAddCaptureDependencies),
            mcSuccess);
  std::vector<mcGraphNode_t> expected = {first, extra};
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(CaptureDependencies(), expected);
  Kernel();
  ScopedGraph graph;
  ASSERT_EQ(mcStreamEndCapture(stream(), graph.out()), mcSuccess);
  const std::vector<mcGraphNode_t> kernels =
      NodesOfType(graph.get(), mcGraphNodeTypeKernel);
  ASSERT_EQ(kernels.size(), 2u);
  EXPECT_EQ(DependenciesOf(kernels[1]), expected);
  ScopedExec exec(graph.get());
  ASSERT_EQ(exec.status(), mcSuccess);
  ASSERT_EQ(mcGraphLaunch(exec.get(), stream()), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream()), mcSuccess);
  EXPECT_EQ(*cell(), 2);
}

TEST_P(CaptureInfo, UpdateDependenciesWithoutACaptureIsIllegalState) {
  MX_SPEC("api.graph.capture.update-dependencies-errors");
  EXPECT_EQ(mcStreamUpdateCaptureDependencies(stream(), nullptr, 0,
                                              mcStreamSetCaptureDependencies),
            mcErrorIllegalState);
  EXPECT_EQ(mcStreamUpdateCaptureDependencies(stream(), nullptr, 0,
                                              mcStreamAddCaptureDependencies),
            mcErrorIllegalState);
  EXPECT_EQ(CaptureStatusOf(stream()), mcStreamCaptureStatusNone);
}

TEST_P(CaptureInfo, UpdateDependenciesErrorsKeepTheDependencies) {
  MX_SPEC("api.graph.capture.update-dependencies-errors");
  ScopedGraph foreign;
  mcGraphNode_t foreign_node;
  ASSERT_EQ(AddEmpty(&foreign_node, foreign.get(), {}), mcSuccess);
  ASSERT_EQ(Begin(), mcSuccess);
  Kernel();
  const std::vector<mcGraphNode_t> before = CaptureDependencies();
  ASSERT_EQ(before.size(), 1u);
  mcGraphNode_t node = before[0];
  for (unsigned flags : {2u, 3u, 0x100u}) {
    EXPECT_EQ(mcStreamUpdateCaptureDependencies(stream(), &node, 1, flags),
              mcErrorInvalidValue)
        << flags;
  }
  EXPECT_EQ(mcStreamUpdateCaptureDependencies(stream(), nullptr, 1,
                                              mcStreamAddCaptureDependencies),
            mcErrorInvalidValue);
  EXPECT_EQ(mcStreamUpdateCaptureDependencies(stream(), &foreign_node, 1,
                                              mcStreamSetCaptureDependencies),
            mcErrorInvalidValue);
  EXPECT_EQ(CaptureDependencies(), before);
  EXPECT_EQ(CaptureStatusOf(stream()), mcStreamCaptureStatusActive);
  // Control: the same node with a valid flag is accepted.
  EXPECT_EQ(mcStreamUpdateCaptureDependencies(stream(), &node, 1,
                                              mcStreamSetCaptureDependencies),
            mcSuccess);
  Kernel();
  ScopedGraph graph;
  ASSERT_EQ(mcStreamEndCapture(stream(), graph.out()), mcSuccess);
  EXPECT_TRUE(IsChainInAddOrder(graph.get()));
}

INSTANTIATE_TEST_SUITE_P(KindsModesDevices, CaptureInfo, CaptureParameters(),
                         CaptureParameterName);

}  // namespace
}  // namespace mxcts::conformance
