// Copyright mxcts authors.
//
// Conformance: kernel node attributes (docs/spec/api-graph.md, "Adding
// nodes", api.graph.kernel-node-attribute.*): each attribute set is read
// back; a node made cooperative by its attribute runs as a cooperative
// launch (its grid is valid and grid syncs work), and one set back to 0 does
// not, which is the control; the attributes survive a Set of parameters, a
// clone, instantiation and an executable graph's Set; the hints change no
// result. The errors are in ../validation/kernel_node_attribute_test.cc.

#include <maca_cooperative_groups.h>
#include <mc_runtime.h>

#include <string>
#include <vector>

#include "conformance/api/graph/graph_testing.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"
#include "gtest/gtest.h"

namespace {

namespace cg = cooperative_groups;
using mxcts::conformance::graph::RunOnce;
using mxcts::conformance::graph::ScopedExec;
using mxcts::conformance::graph::ScopedGraph;

// Each block stores its rank; after a grid sync (only in a cooperative
// launch), block 0's thread 0 adds up every block's store. out[0]: whether
// the grid was valid; out[1]: the sum, or -1.
__global__ void SumAfterGridSync(int* ranks, int* out) {
  cg::grid_group grid = cg::this_grid();
  const bool valid = grid.is_valid();
  if (threadIdx.x == 0) ranks[blockIdx.x] = blockIdx.x + 1;
  if (!valid) {
    if (blockIdx.x == 0 && threadIdx.x == 0) {
      out[0] = 0;
      out[1] = -1;
    }
    return;
  }
  grid.sync();
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    int sum = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) sum += ranks[b];
    out[0] = 1;
    out[1] = sum;
  }
}

// Device memory of `count` ints, zeroed, freed at scope end.
class Ints {
 public:
  explicit Ints(int count) : count_(count) {
    mcMalloc(&data_, count * sizeof(int));
    mcMemset(data_, 0, count * sizeof(int));
  }
  ~Ints() { mcFree(data_); }
  int* get() const { return data_; }
  std::vector<int> ToHost() const {
    std::vector<int> host(count_);
    mcMemcpy(host.data(), data_, count_ * sizeof(int), mcMemcpyDeviceToHost);
    return host;
  }

 private:
  int* data_ = nullptr;
  int count_;
};

// A graph of one SumAfterGridSync node of `blocks` blocks of 64 threads.
struct SumGraph {
  explicit SumGraph(unsigned blocks) : ranks(64), out(2) {
    ranks_pointer = ranks.get();
    out_pointer = out.get();
    args[0] = &ranks_pointer;
    args[1] = &out_pointer;
    params = {reinterpret_cast<void*>(SumAfterGridSync),
              dim3(blocks),
              dim3(64),
              0,
              args,
              nullptr};
    status = mcGraphAddKernelNode(&node, graph.get(), nullptr, 0, &params);
  }
  mcError_t SetCooperative(mcGraphNode_t target, int cooperative) {
    mcKernelNodeAttrValue value{};
    value.cooperative = cooperative;
    return mcGraphKernelNodeSetAttribute(
        target, mcKernelNodeAttributeCooperative, &value);
  }
  int Cooperative(mcGraphNode_t target) {
    mcKernelNodeAttrValue value{};
    value.cooperative = -1;
    if (mcGraphKernelNodeGetAttribute(target, mcKernelNodeAttributeCooperative,
                                      &value) != mcSuccess) {
      return -1;
    }
    return value.cooperative;
  }
  // What the last run stored: {grid valid, sum of ranks or -1}.
  std::vector<int> Result() const { return out.ToHost(); }

  ScopedGraph graph;
  Ints ranks;
  Ints out;
  int* ranks_pointer;
  int* out_pointer;
  void* args[2];
  mcKernelNodeParams params;
  mcGraphNode_t node = nullptr;
  mcError_t status;
};

int SumOfRanks(unsigned blocks) { return blocks * (blocks + 1) / 2; }

// --- Set, get, defaults. ---

TEST(KernelNodeAttribute, NewNodeHasTheDefaults) {
  MX_SPEC("api.graph.kernel-node-attribute.set-then-get-round-trips");
  SumGraph g(2);
  ASSERT_EQ(g.status, mcSuccess);
  EXPECT_EQ(g.Cooperative(g.node), 0);
  mcKernelNodeAttrValue value{};
  value.priority = 99;
  ASSERT_EQ(mcGraphKernelNodeGetAttribute(g.node, mcKernelNodeAttributePriority,
                                          &value),
            mcSuccess);
  EXPECT_EQ(value.priority, 0);
  value.accessPolicyWindow.num_bytes = 99;
  ASSERT_EQ(mcGraphKernelNodeGetAttribute(
                g.node, mcKernelNodeAttributeAccessPolicyWindow, &value),
            mcSuccess);
  EXPECT_EQ(value.accessPolicyWindow.base_ptr, nullptr);
  EXPECT_EQ(value.accessPolicyWindow.num_bytes, 0u);
}

class KernelNodePriorityTest : public ::testing::TestWithParam<int> {};

TEST_P(KernelNodePriorityTest, PriorityRoundTripsClamped) {
  MX_SPEC("api.graph.kernel-node-attribute.set-then-get-round-trips",
          "api.graph.kernel-node-attribute.hints-change-nothing");
  SumGraph g(2);
  ASSERT_EQ(g.status, mcSuccess);
  int least = 0;
  int greatest = 0;
  ASSERT_EQ(mcDeviceGetStreamPriorityRange(&least, &greatest), mcSuccess);
  mcKernelNodeAttrValue value{};
  value.priority = GetParam();
  ASSERT_EQ(mcGraphKernelNodeSetAttribute(g.node, mcKernelNodeAttributePriority,
                                          &value),
            mcSuccess);
  value.priority = 12345;
  ASSERT_EQ(mcGraphKernelNodeGetAttribute(g.node, mcKernelNodeAttributePriority,
                                          &value),
            mcSuccess);
  const int expected = GetParam() < greatest ? greatest
                       : GetParam() > least  ? least
                                             : GetParam();
  EXPECT_EQ(value.priority, expected);
  // A hint: the node computes the same.
  ASSERT_EQ(RunOnce(g.graph.get()), mcSuccess);
  EXPECT_EQ(g.Result()[0], 0);
}

INSTANTIATE_TEST_SUITE_P(Priorities, KernelNodePriorityTest,
                         ::testing::Values(0, -1, -5, -6, 3, -1000));

TEST(KernelNodeAttribute, AccessPolicyWindowRoundTripsAndChangesNothing) {
  MX_SPEC("api.graph.kernel-node-attribute.set-then-get-round-trips",
          "api.graph.kernel-node-attribute.hints-change-nothing");
  SumGraph g(3);
  ASSERT_EQ(g.status, mcSuccess);
  mcKernelNodeAttrValue value{};
  value.accessPolicyWindow.base_ptr = g.ranks.get();
  value.accessPolicyWindow.num_bytes = 64 * sizeof(int);
  value.accessPolicyWindow.hitRatio = 0.5f;
  value.accessPolicyWindow.hitProp = mcAccessPropertyPersisting;
  value.accessPolicyWindow.missProp = mcAccessPropertyStreaming;
  ASSERT_EQ(mcGraphKernelNodeSetAttribute(
                g.node, mcKernelNodeAttributeAccessPolicyWindow, &value),
            mcSuccess);
  mcKernelNodeAttrValue read{};
  ASSERT_EQ(mcGraphKernelNodeGetAttribute(
                g.node, mcKernelNodeAttributeAccessPolicyWindow, &read),
            mcSuccess);
  EXPECT_EQ(read.accessPolicyWindow.base_ptr, g.ranks.get());
  EXPECT_EQ(read.accessPolicyWindow.num_bytes, 64 * sizeof(int));
  EXPECT_EQ(read.accessPolicyWindow.hitRatio, 0.5f);
  EXPECT_EQ(read.accessPolicyWindow.hitProp, mcAccessPropertyPersisting);
  EXPECT_EQ(read.accessPolicyWindow.missProp, mcAccessPropertyStreaming);
  ASSERT_EQ(RunOnce(g.graph.get()), mcSuccess);
  EXPECT_EQ(g.Result()[0], 0);
}

// --- The cooperative attribute. ---

class CooperativeNodeTest : public ::testing::TestWithParam<unsigned> {};

TEST_P(CooperativeNodeTest, CooperativeNodeRunsWithAValidGrid) {
  MX_SPEC("api.graph.kernel-node-attribute.cooperative-runs-cooperatively",
          "api.graph.kernel-node-attribute.set-then-get-round-trips");
  MX_REQUIRE_CAPABILITY("graphs");
  MX_REQUIRE_CAPABILITY("cooperative_launch");
  const unsigned blocks = GetParam();
  SumGraph g(blocks);
  ASSERT_EQ(g.status, mcSuccess);
  ASSERT_EQ(g.SetCooperative(g.node, 1), mcSuccess);
  EXPECT_EQ(g.Cooperative(g.node), 1);
  ScopedExec exec(g.graph.get());
  ASSERT_EQ(exec.status(), mcSuccess);
  for (int launch = 0; launch < 2; ++launch) {
    ASSERT_EQ(mcMemset(g.out.get(), 0, 2 * sizeof(int)), mcSuccess);
    ASSERT_EQ(mcGraphLaunch(exec.get(), 0), mcSuccess);
    ASSERT_EQ(mcStreamSynchronize(0), mcSuccess);
    EXPECT_EQ(g.Result(), (std::vector<int>{1, SumOfRanks(blocks)}))
        << "launch " << launch;
  }
}

TEST_P(CooperativeNodeTest, ControlNodeSetBackToZeroIsOrdinary) {
  MX_SPEC("api.graph.kernel-node-attribute.cooperative-runs-cooperatively");
  MX_REQUIRE_CAPABILITY("graphs");
  MX_REQUIRE_CAPABILITY("cooperative_launch");
  SumGraph g(GetParam());
  ASSERT_EQ(g.status, mcSuccess);
  ASSERT_EQ(g.SetCooperative(g.node, 7), mcSuccess);
  EXPECT_EQ(g.Cooperative(g.node), 1) << "nonzero reads back as 1";
  ASSERT_EQ(g.SetCooperative(g.node, 0), mcSuccess);
  EXPECT_EQ(g.Cooperative(g.node), 0);
  ASSERT_EQ(RunOnce(g.graph.get()), mcSuccess);
  EXPECT_EQ(g.Result(), (std::vector<int>{0, -1}));
}

INSTANTIATE_TEST_SUITE_P(Blocks, CooperativeNodeTest,
                         ::testing::Values(1u, 2u, 7u, 64u));

TEST(CooperativeNode, CapturedCooperativeLaunchReadsAsCooperative) {
  MX_SPEC("api.graph.kernel-node-attribute.set-then-get-round-trips",
          "api.coop.launch.stream-capture");
  MX_REQUIRE_CAPABILITY("graphs");
  MX_REQUIRE_CAPABILITY("cooperative_launch");
  Ints ranks(64);
  Ints out(2);
  int* ranks_pointer = ranks.get();
  int* out_pointer = out.get();
  void* args[] = {&ranks_pointer, &out_pointer};
  mcStream_t stream;
  ASSERT_EQ(mcStreamCreate(&stream), mcSuccess);
  for (int cooperative = 0; cooperative < 2; ++cooperative) {
    ASSERT_EQ(mcStreamBeginCapture(stream, mcStreamCaptureModeGlobal),
              mcSuccess);
    if (cooperative != 0) {
      ASSERT_EQ(mcLaunchCooperativeKernel((const void*)SumAfterGridSync,
                                          dim3(4), dim3(64), args, 0, stream),
                mcSuccess);
    } else {
      // The control: an ordinary launch records an ordinary node.
      ASSERT_EQ(mcLaunchKernel((const void*)SumAfterGridSync, dim3(4), dim3(64),
                               args, 0, stream),
                mcSuccess);
    }
    mcGraph_t graph;
    ASSERT_EQ(mcStreamEndCapture(stream, &graph), mcSuccess);
    mcGraphNode_t node;
    size_t count = 1;
    ASSERT_EQ(mcGraphGetNodes(graph, &node, &count), mcSuccess);
    mcKernelNodeAttrValue value{};
    ASSERT_EQ(mcGraphKernelNodeGetAttribute(
                  node, mcKernelNodeAttributeCooperative, &value),
              mcSuccess);
    EXPECT_EQ(value.cooperative, cooperative);
    mcGraphDestroy(graph);
  }
  mcStreamDestroy(stream);
}

// --- Attributes outlive parameters. ---

enum class Keeper { kSetParams, kClone, kInstantiate, kExecSetParams };

struct KeepCase {
  const char* name;
  Keeper keeper;
};

class KeptAttributesTest : public ::testing::TestWithParam<KeepCase> {};

TEST_P(KeptAttributesTest, CooperativeSurvives) {
  MX_SPEC("api.graph.kernel-node-attribute.kept-by-set-params");
  MX_REQUIRE_CAPABILITY("graphs");
  MX_REQUIRE_CAPABILITY("cooperative_launch");
  SumGraph g(3);
  ASSERT_EQ(g.status, mcSuccess);
  ASSERT_EQ(g.SetCooperative(g.node, 1), mcSuccess);
  mcKernelNodeParams wider = g.params;
  wider.gridDim = dim3(5);
  switch (GetParam().keeper) {
    case Keeper::kSetParams: {
      ASSERT_EQ(mcGraphKernelNodeSetParams(g.node, &wider), mcSuccess);
      EXPECT_EQ(g.Cooperative(g.node), 1);
      ASSERT_EQ(RunOnce(g.graph.get()), mcSuccess);
      EXPECT_EQ(g.Result(), (std::vector<int>{1, SumOfRanks(5)}));
      break;
    }
    case Keeper::kClone: {
      mcGraph_t clone;
      ASSERT_EQ(mcGraphClone(&clone, g.graph.get()), mcSuccess);
      mcGraphNode_t copy;
      ASSERT_EQ(mcGraphNodeFindInClone(&copy, g.node, clone), mcSuccess);
      EXPECT_EQ(g.Cooperative(copy), 1);
      ASSERT_EQ(RunOnce(clone), mcSuccess);
      EXPECT_EQ(g.Result(), (std::vector<int>{1, SumOfRanks(3)}));
      mcGraphDestroy(clone);
      break;
    }
    case Keeper::kInstantiate: {
      ScopedExec exec(g.graph.get());
      ASSERT_EQ(exec.status(), mcSuccess);
      // Changing the graph's node afterwards leaves the executable alone.
      ASSERT_EQ(g.SetCooperative(g.node, 0), mcSuccess);
      ASSERT_EQ(mcGraphLaunch(exec.get(), 0), mcSuccess);
      ASSERT_EQ(mcStreamSynchronize(0), mcSuccess);
      EXPECT_EQ(g.Result(), (std::vector<int>{1, SumOfRanks(3)}));
      break;
    }
    case Keeper::kExecSetParams: {
      ScopedExec exec(g.graph.get());
      ASSERT_EQ(exec.status(), mcSuccess);
      ASSERT_EQ(mcGraphExecKernelNodeSetParams(exec.get(), g.node, &wider),
                mcSuccess);
      ASSERT_EQ(mcGraphLaunch(exec.get(), 0), mcSuccess);
      ASSERT_EQ(mcStreamSynchronize(0), mcSuccess);
      EXPECT_EQ(g.Result(), (std::vector<int>{1, SumOfRanks(5)}));
      break;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Keepers, KeptAttributesTest,
    ::testing::Values(KeepCase{"SetParams", Keeper::kSetParams},
                      KeepCase{"Clone", Keeper::kClone},
                      KeepCase{"Instantiate", Keeper::kInstantiate},
                      KeepCase{"ExecSetParams", Keeper::kExecSetParams}),
    [](const auto& info) { return std::string(info.param.name); });

// --- Copying attributes. ---

class CopyAttributesTest : public ::testing::TestWithParam<int> {};

TEST_P(CopyAttributesTest, DestinationGetsEveryAttribute) {
  MX_SPEC("api.graph.kernel-node-attribute.copy-copies-all");
  MX_REQUIRE_CAPABILITY("graphs");
  MX_REQUIRE_CAPABILITY("cooperative_launch");
  const int cooperative = GetParam();
  SumGraph g(2);
  ASSERT_EQ(g.status, mcSuccess);
  mcGraphNode_t dst;
  ASSERT_EQ(mcGraphAddKernelNode(&dst, g.graph.get(), nullptr, 0, &g.params),
            mcSuccess);
  // The destination starts with the other value, so the copy must change it.
  ASSERT_EQ(g.SetCooperative(g.node, cooperative), mcSuccess);
  ASSERT_EQ(g.SetCooperative(dst, 1 - cooperative), mcSuccess);
  mcKernelNodeAttrValue value{};
  value.priority = -3;
  ASSERT_EQ(mcGraphKernelNodeSetAttribute(g.node, mcKernelNodeAttributePriority,
                                          &value),
            mcSuccess);
  ASSERT_EQ(mcGraphKernelNodeCopyAttributes(dst, g.node), mcSuccess);
  EXPECT_EQ(g.Cooperative(dst), cooperative);
  value.priority = 0;
  ASSERT_EQ(
      mcGraphKernelNodeGetAttribute(dst, mcKernelNodeAttributePriority, &value),
      mcSuccess);
  EXPECT_EQ(value.priority, -3);
}

INSTANTIATE_TEST_SUITE_P(Cooperative, CopyAttributesTest,
                         ::testing::Values(0, 1));

}  // namespace
