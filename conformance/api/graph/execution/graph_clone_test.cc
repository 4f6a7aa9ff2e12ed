// Copyright mxcts authors.
//
// Conformance: a clone runs what its original runs, and the parameters of
// the two graphs' nodes are independent (docs/spec/api-graph.md,
// api.graph.clone.independent-copy). Graphs run with mcGraphInstantiate,
// mcGraphLaunch and mcStreamSynchronize, in every timeline mode, on every
// device.

#include <mc_runtime.h>

#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "conformance/api/graph/graph_testing.h"
#include "conformance/api/testing/scoped_device.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance::graph {
namespace {

// *cell = *cell * 10 + digit: the order of the nodes is read off the
// digits.
__global__ void AppendDigit(int* cell, int digit) {
  *cell = *cell * 10 + digit;
}

class CloneRun : public testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY("graphs");
    device_.emplace(GetParam());
    ASSERT_TRUE(device_->ok());
    ASSERT_EQ(mcStreamCreate(&stream_), mcSuccess);
    ASSERT_EQ(mcMallocManaged(&cells_, 64 * sizeof(int)), mcSuccess);
    std::memset(cells_, 0, 64 * sizeof(int));
    ASSERT_EQ(original_.status(), mcSuccess);
  }
  void TearDown() override {
    mcDeviceSynchronize();
    if (clone_ != nullptr) mcGraphDestroy(clone_);
    if (cells_ != nullptr) mcFree(cells_);
    if (stream_ != nullptr) mcStreamDestroy(stream_);
    device_.reset();
  }
  // Appends `digit` to cells_[0] after `deps`.
  mcGraphNode_t Digit(mcGraph_t graph, int digit,
                      const std::vector<mcGraphNode_t>& deps) {
    int* cell = cells_;
    void* args[] = {&cell, &digit};
    mcKernelNodeParams params = DigitParams(args);
    mcGraphNode_t node = nullptr;
    EXPECT_EQ(
        mcGraphAddKernelNode(&node, graph, deps.empty() ? nullptr : deps.data(),
                             deps.size(), &params),
        mcSuccess);
    return node;
  }
  mcKernelNodeParams DigitParams(void** args) {
    mcKernelNodeParams params{};
    params.func = reinterpret_cast<void*>(AppendDigit);
    params.gridDim = dim3(1);
    params.blockDim = dim3(1);
    params.kernelParams = args;
    return params;
  }
  int RunAndRead(mcGraph_t graph) {
    cells_[0] = 0;
    EXPECT_EQ(RunOnce(graph, stream_), mcSuccess);
    return cells_[0];
  }

  std::optional<ScopedDevice> device_;
  mcStream_t stream_ = nullptr;
  int* cells_ = nullptr;
  ScopedGraph original_;
  mcGraph_t clone_ = nullptr;
};

TEST_P(CloneRun, CloneRunsTheSameNodesInTheSameOrder) {
  MX_SPEC("api.graph.clone.independent-copy");
  mcGraphNode_t one = Digit(original_.get(), 1, {});
  mcGraphNode_t two = Digit(original_.get(), 2, {one});
  Digit(original_.get(), 3, {two});
  ASSERT_EQ(mcGraphClone(&clone_, original_.get()), mcSuccess);
  EXPECT_EQ(RunAndRead(clone_), 123);
  EXPECT_EQ(RunAndRead(original_.get()), 123);
}

TEST_P(CloneRun, SettingTheCloneLeavesTheOriginal) {
  MX_SPEC("api.graph.clone.independent-copy",
          "api.graph.node-params.set-changes-graph-node");
  mcGraphNode_t one = Digit(original_.get(), 1, {});
  Digit(original_.get(), 2, {one});
  ASSERT_EQ(mcGraphClone(&clone_, original_.get()), mcSuccess);
  mcGraphNode_t copy = nullptr;
  ASSERT_EQ(mcGraphNodeFindInClone(&copy, one, clone_), mcSuccess);
  int* cell = cells_;
  int digit = 7;
  void* args[] = {&cell, &digit};
  mcKernelNodeParams params = DigitParams(args);
  ASSERT_EQ(mcGraphKernelNodeSetParams(copy, &params), mcSuccess);
  EXPECT_EQ(RunAndRead(clone_), 72);
  EXPECT_EQ(RunAndRead(original_.get()), 12);
}

TEST_P(CloneRun, SettingTheOriginalLeavesTheClone) {
  MX_SPEC("api.graph.clone.independent-copy",
          "api.graph.node-params.set-changes-graph-node");
  mcGraphNode_t one = Digit(original_.get(), 1, {});
  mcGraphNode_t two = Digit(original_.get(), 2, {one});
  ASSERT_EQ(mcGraphClone(&clone_, original_.get()), mcSuccess);
  int* cell = cells_;
  int digit = 9;
  void* args[] = {&cell, &digit};
  mcKernelNodeParams params = DigitParams(args);
  ASSERT_EQ(mcGraphKernelNodeSetParams(two, &params), mcSuccess);
  EXPECT_EQ(RunAndRead(original_.get()), 19);
  EXPECT_EQ(RunAndRead(clone_), 12);
}

TEST_P(CloneRun, EdgesChangedInTheCloneOrderOnlyTheClone) {
  MX_SPEC("api.graph.clone.independent-copy",
          "api.graph.remove-dependencies.removes-edges",
          "api.graph.add-dependencies.adds-edges");
  mcGraphNode_t one = Digit(original_.get(), 1, {});
  mcGraphNode_t two = Digit(original_.get(), 2, {one});
  ASSERT_EQ(mcGraphClone(&clone_, original_.get()), mcSuccess);
  mcGraphNode_t one_copy = nullptr, two_copy = nullptr;
  ASSERT_EQ(mcGraphNodeFindInClone(&one_copy, one, clone_), mcSuccess);
  ASSERT_EQ(mcGraphNodeFindInClone(&two_copy, two, clone_), mcSuccess);
  // Reverse the clone's edge.
  ASSERT_EQ(mcGraphRemoveDependencies(clone_, &one_copy, &two_copy, 1),
            mcSuccess);
  ASSERT_EQ(mcGraphAddDependencies(clone_, &two_copy, &one_copy, 1), mcSuccess);
  EXPECT_EQ(RunAndRead(clone_), 21);
  EXPECT_EQ(RunAndRead(original_.get()), 12);
}

TEST_P(CloneRun, CloneCopiesChildGraphNodes) {
  MX_SPEC("api.graph.clone.independent-copy",
          "api.graph.child-graph-node.embeds-copy");
  ScopedGraph child;
  mcGraphNode_t four = Digit(child.get(), 4, {});
  Digit(child.get(), 5, {four});
  mcGraphNode_t first = Digit(original_.get(), 3, {});
  mcGraphNode_t node = nullptr;
  ASSERT_EQ(
      mcGraphAddChildGraphNode(&node, original_.get(), &first, 1, child.get()),
      mcSuccess);
  ASSERT_EQ(mcGraphClone(&clone_, original_.get()), mcSuccess);
  mcGraphNode_t copy = nullptr;
  ASSERT_EQ(mcGraphNodeFindInClone(&copy, node, clone_), mcSuccess);
  EXPECT_EQ(NodeType(copy), mcGraphNodeTypeGraph);
  mcGraph_t original_child = nullptr, clone_child = nullptr;
  ASSERT_EQ(mcGraphChildGraphNodeGetGraph(node, &original_child), mcSuccess);
  ASSERT_EQ(mcGraphChildGraphNodeGetGraph(copy, &clone_child), mcSuccess);
  EXPECT_NE(original_child, clone_child);
  EXPECT_EQ(NodeCount(clone_child), 2u);
  EXPECT_EQ(RunAndRead(clone_), 345);
  EXPECT_EQ(RunAndRead(original_.get()), 345);
}

std::string DeviceName(const testing::TestParamInfo<int>& info) {
  return "Device" + std::to_string(info.param);
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, CloneRun,
                         testing::ValuesIn(GraphDevices()), DeviceName);

}  // namespace
}  // namespace mxcts::conformance::graph
