// Copyright mxcts authors.
//
// Conformance: mcGraphInstantiate and mcGraphInstantiateWithFlags
// (docs/spec/api-graph.md, "Instantiation and launch"): the executable
// graph a good call makes, the errors of bad calls, the flags. Each error
// is shown to leave the graph as it was (its nodes and edges, and that it
// still instantiates), beside a control call that succeeds.

#include <mc_runtime.h>

#include <cstring>
#include <string>
#include <vector>

#include "conformance/api/graph/exec/exec_testing.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

// Adds `amount` to *cell.
__global__ void AddTo(int* cell, int amount) { *cell += amount; }

class Instantiate : public testing::Test {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY("graphs");
    ASSERT_EQ(graph_.status(), mcSuccess);
    ASSERT_EQ(mcMallocManaged(&cell_, sizeof(int)), mcSuccess);
    *cell_ = 0;
    // A chain of three kernel nodes.
    for (int i = 0; i < 3; ++i) {
      KernelCall add(AddTo, dim3(1), dim3(1), cell_, 1);
      if (i == 0) {
        ASSERT_EQ(add.Add(&nodes_[i], graph_.get(), {}), mcSuccess);
      } else {
        ASSERT_EQ(add.Add(&nodes_[i], graph_.get(), {nodes_[i - 1]}),
                  mcSuccess);
      }
    }
  }
  void TearDown() override {
    mcDeviceSynchronize();
    if (cell_ != nullptr) mcFree(cell_);
  }

  // The graph still has its three nodes and two edges, and an executable
  // graph instantiated from it runs the three nodes.
  void ExpectGraphIntact() {
    EXPECT_EQ(Nodes(graph_.get()).size(), 3u);
    EXPECT_EQ(Edges(graph_.get()).size(), 2u);
    ScopedExec exec(graph_.get());
    ASSERT_EQ(exec.status(), mcSuccess);
    *cell_ = 0;
    ASSERT_EQ(mcGraphLaunch(exec.get(), nullptr), mcSuccess);
    ASSERT_EQ(mcStreamSynchronize(nullptr), mcSuccess);
    EXPECT_EQ(*cell_, 3);
  }

  ScopedGraph graph_;
  mcGraphNode_t nodes_[3] = {};
  int* cell_ = nullptr;
};

TEST_F(Instantiate, MakesAnExecutableGraphWithoutErrorOutputs) {
  MX_SPEC("api.graph.instantiate.creates-exec");
  mcGraphExec_t exec = nullptr;
  ASSERT_EQ(mcGraphInstantiate(&exec, graph_.get(), nullptr, nullptr, 0),
            mcSuccess);
  ASSERT_NE(exec, nullptr);
  EXPECT_EQ(*cell_, 0) << "instantiating runs nothing";
  ASSERT_EQ(mcGraphLaunch(exec, nullptr), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(nullptr), mcSuccess);
  EXPECT_EQ(*cell_, 3);
  EXPECT_EQ(mcGraphExecDestroy(exec), mcSuccess);
}

TEST_F(Instantiate, MakesAnExecutableGraphWithErrorOutputs) {
  MX_SPEC("api.graph.instantiate.creates-exec");
  mcGraphExec_t exec = nullptr;
  mcGraphNode_t error_node = nullptr;
  char log[64];
  std::memset(log, 'x', sizeof(log));
  ASSERT_EQ(
      mcGraphInstantiate(&exec, graph_.get(), &error_node, log, sizeof(log)),
      mcSuccess);
  ASSERT_NE(exec, nullptr);
  EXPECT_EQ(error_node, nullptr);
  EXPECT_EQ(mcGraphExecDestroy(exec), mcSuccess);
}

TEST_F(Instantiate, EveryCallMakesANewExecutableGraph) {
  MX_SPEC("api.graph.instantiate.creates-exec");
  ScopedExec first(graph_.get());
  ScopedExec second(graph_.get());
  ASSERT_EQ(first.status(), mcSuccess);
  ASSERT_EQ(second.status(), mcSuccess);
  EXPECT_NE(first.get(), second.get());
}

TEST_F(Instantiate, EmptyGraphInstantiatesAndLaunches) {
  MX_SPEC("api.graph.instantiate.creates-exec");
  ScopedGraph empty;
  ScopedExec exec(empty.get());
  ASSERT_EQ(exec.status(), mcSuccess);
  EXPECT_EQ(mcGraphLaunch(exec.get(), nullptr), mcSuccess);
  EXPECT_EQ(mcStreamSynchronize(nullptr), mcSuccess);
}

TEST_F(Instantiate, NullOutputIsInvalidValue) {
  MX_SPEC("api.graph.instantiate.null-invalid-value");
  EXPECT_EQ(mcGraphInstantiate(nullptr, graph_.get(), nullptr, nullptr, 0),
            mcErrorInvalidValue);
  ExpectGraphIntact();
}

TEST_F(Instantiate, NullGraphIsInvalidValue) {
  MX_SPEC("api.graph.instantiate.null-invalid-value");
  mcGraphExec_t exec = nullptr;
  EXPECT_EQ(mcGraphInstantiate(&exec, nullptr, nullptr, nullptr, 0),
            mcErrorInvalidValue);
  EXPECT_EQ(exec, nullptr);
  ExpectGraphIntact();
}

TEST_F(Instantiate, WithFlagsNullOutputIsInvalidValue) {
  MX_SPEC("api.graph.instantiate.null-invalid-value",
          "api.graph.instantiate.with-flags");
  EXPECT_EQ(mcGraphInstantiateWithFlags(nullptr, graph_.get(), 0),
            mcErrorInvalidValue);
  ExpectGraphIntact();
}

TEST_F(Instantiate, WithFlagsNullGraphIsInvalidValue) {
  MX_SPEC("api.graph.instantiate.null-invalid-value",
          "api.graph.instantiate.with-flags");
  mcGraphExec_t exec = nullptr;
  EXPECT_EQ(mcGraphInstantiateWithFlags(&exec, nullptr, 0),
            mcErrorInvalidValue);
  EXPECT_EQ(exec, nullptr);
}

TEST_F(Instantiate, AnEdgeThatClosesACycleIsRefusedSoNoCycleReachesIt) {
  // The graph calls refuse every edge that would close a cycle, so a graph
  // with a cycle cannot be built and instantiation never meets one.
  MX_SPEC("api.graph.instantiate.cycle-invalid-value",
          "api.graph.add-dependencies.adds-edges");
  mcGraphNode_t last = nodes_[2], first = nodes_[0];
  EXPECT_EQ(mcGraphAddDependencies(graph_.get(), &last, &first, 1),
            mcErrorInvalidValue);
  ExpectGraphIntact();
  // Control: an edge along the chain closes no cycle.
  EXPECT_EQ(mcGraphAddDependencies(graph_.get(), &first, &last, 1), mcSuccess);
  EXPECT_EQ(Edges(graph_.get()).size(), 3u);
}

TEST_F(Instantiate, AnEdgeFromANodeToItselfIsRefused) {
  MX_SPEC("api.graph.instantiate.cycle-invalid-value",
          "api.graph.add-dependencies.adds-edges");
  mcGraphNode_t node = nodes_[1];
  EXPECT_EQ(mcGraphAddDependencies(graph_.get(), &node, &node, 1),
            mcErrorInvalidValue);
  ExpectGraphIntact();
}

TEST_F(Instantiate, ATwoEdgeCycleInOneCallAddsNoEdge) {
  MX_SPEC("api.graph.instantiate.cycle-invalid-value",
          "api.graph.add-dependencies.adds-edges");
  ScopedGraph graph;
  mcGraphNode_t a, b;
  ASSERT_EQ(AddEmpty(&a, graph.get(), {}), mcSuccess);
  ASSERT_EQ(AddEmpty(&b, graph.get(), {}), mcSuccess);
  mcGraphNode_t from[] = {a, b};
  mcGraphNode_t to[] = {b, a};
  EXPECT_EQ(mcGraphAddDependencies(graph.get(), from, to, 2),
            mcErrorInvalidValue);
  EXPECT_TRUE(Edges(graph.get()).empty());
  ScopedExec exec(graph.get());
  EXPECT_EQ(exec.status(), mcSuccess);
  // Control: either edge alone is accepted.
  EXPECT_EQ(mcGraphAddDependencies(graph.get(), from, to, 1), mcSuccess);
  EXPECT_EQ(Edges(graph.get()).size(), 1u);
}

TEST_F(Instantiate, ALongCycleIsRefusedAtItsLastEdge) {
  MX_SPEC("api.graph.instantiate.cycle-invalid-value",
          "api.graph.add-dependencies.adds-edges");
  ScopedGraph graph;
  constexpr int kNodes = 6;
  std::vector<mcGraphNode_t> nodes(kNodes);
  for (int i = 0; i < kNodes; ++i) {
    ASSERT_EQ(AddEmpty(&nodes[i], graph.get(), {}), mcSuccess);
  }
  for (int i = 0; i + 1 < kNodes; ++i) {
    ASSERT_EQ(mcGraphAddDependencies(graph.get(), &nodes[i], &nodes[i + 1], 1),
              mcSuccess)
        << i;
  }
  EXPECT_EQ(
      mcGraphAddDependencies(graph.get(), &nodes[kNodes - 1], &nodes[0], 1),
      mcErrorInvalidValue);
  EXPECT_EQ(Edges(graph.get()).size(), static_cast<size_t>(kNodes - 1));
  mcGraphExec_t exec = nullptr;
  mcGraphNode_t error_node = nullptr;
  char log[128] = "";
  EXPECT_EQ(
      mcGraphInstantiate(&exec, graph.get(), &error_node, log, sizeof(log)),
      mcSuccess);
  EXPECT_EQ(error_node, nullptr);
  if (exec != nullptr) {
    EXPECT_EQ(mcGraphExecDestroy(exec), mcSuccess);
  }
}

// A copy node whose device memory is freed before instantiation: its
// parameters no longer hold. The parameter is the size of the log buffer.
class InstantiateFreedMemory : public testing::TestWithParam<size_t> {
 protected:
  void SetUp() override { MX_REQUIRE_CAPABILITY("graphs"); }
};

TEST_P(InstantiateFreedMemory, NamesTheNodeAndWritesABoundedLog) {
  MX_SPEC("api.graph.instantiate.creates-exec");
  const size_t log_size = GetParam();
  int* source = nullptr;
  int* gone = nullptr;
  ASSERT_EQ(mcMalloc(&source, 64), mcSuccess);
  ASSERT_EQ(mcMalloc(&gone, 64), mcSuccess);
  ScopedGraph graph;
  mcGraphNode_t empty, copy;
  ASSERT_EQ(AddEmpty(&empty, graph.get(), {}), mcSuccess);
  ASSERT_EQ(AddCopy(&copy, graph.get(), {empty}, gone, source, 64,
                    mcMemcpyDeviceToDevice),
            mcSuccess);
  ASSERT_EQ(mcFree(gone), mcSuccess);
  mcGraphExec_t exec = nullptr;
  mcGraphNode_t error_node = nullptr;
  std::vector<char> log(log_size + 8, 'x');
  const mcError_t result =
      mcGraphInstantiate(&exec, graph.get(), &error_node,
                         log_size == 0 ? nullptr : log.data(), log_size);
  EXPECT_NE(result, mcSuccess);
  EXPECT_EQ(exec, nullptr);
  EXPECT_EQ(error_node, copy);
  if (log_size != 0) {
    const size_t length = strnlen(log.data(), log_size);
    EXPECT_LT(length, log_size) << "the log is NUL-terminated in its buffer";
  }
  for (size_t i = log_size; i < log.size(); ++i) {
    EXPECT_EQ(log[i], 'x') << "written past the buffer at " << i;
  }
  // The graph is unchanged: the node is still there with its parameters;
  // control: once they hold again, the graph instantiates.
  EXPECT_EQ(Nodes(graph.get()).size(), 2u);
  int* again = nullptr;
  ASSERT_EQ(mcMalloc(&again, 64), mcSuccess);
  ASSERT_EQ(mcGraphMemcpyNodeSetParams1D(copy, again, source, 64,
                                         mcMemcpyDeviceToDevice),
            mcSuccess);
  ScopedExec exec_after(graph.get());
  EXPECT_EQ(exec_after.status(), mcSuccess);
  EXPECT_EQ(mcFree(again), mcSuccess);
  EXPECT_EQ(mcFree(source), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(LogSizes, InstantiateFreedMemory,
                         testing::Values(0, 1, 2, 8, 256),
                         [](const testing::TestParamInfo<size_t>& info) {
                           return "Log" + std::to_string(info.param);
                         });

// mcGraphInstantiateWithFlags with each documented flag combination.
class InstantiateWithFlags : public testing::TestWithParam<unsigned long long> {
 protected:
  void SetUp() override { MX_REQUIRE_CAPABILITY("graphs"); }
};

TEST_P(InstantiateWithFlags, DocumentedFlagsInstantiate) {
  MX_SPEC("api.graph.instantiate.with-flags");
  int* cell = nullptr;
  ASSERT_EQ(mcMallocManaged(&cell, sizeof(int)), mcSuccess);
  *cell = 0;
  ScopedGraph graph;
  KernelCall add(AddTo, dim3(1), dim3(1), cell, 5);
  mcGraphNode_t node;
  ASSERT_EQ(add.Add(&node, graph.get(), {}), mcSuccess);
  mcGraphExec_t exec = nullptr;
  ASSERT_EQ(mcGraphInstantiateWithFlags(&exec, graph.get(), GetParam()),
            mcSuccess);
  ASSERT_NE(exec, nullptr);
  EXPECT_EQ(mcGraphLaunch(exec, nullptr), mcSuccess);
  EXPECT_EQ(mcStreamSynchronize(nullptr), mcSuccess);
  EXPECT_EQ(*cell, 5);
  EXPECT_EQ(mcGraphExecDestroy(exec), mcSuccess);
  EXPECT_EQ(mcFree(cell), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(
    Flags, InstantiateWithFlags,
    testing::Values(0ull, 1ull /* AutoFreeOnLaunch */, 2ull /* Upload */,
                    8ull /* UseNodePriority */, 1ull | 2ull, 1ull | 8ull,
                    2ull | 8ull, 1ull | 2ull | 8ull),
    [](const testing::TestParamInfo<unsigned long long>& info) {
      return "Flags" + std::to_string(info.param);
    });

// mcGraphInstantiateWithFlags with a bit that is not a flag it accepts:
// DeviceLaunch (graphs are not launched from the device) and undefined
// bits, alone and beside a documented flag.
class InstantiateWithBadFlags
    : public testing::TestWithParam<unsigned long long> {
 protected:
  void SetUp() override { MX_REQUIRE_CAPABILITY("graphs"); }
};

TEST_P(InstantiateWithBadFlags, IsInvalidValue) {
  MX_SPEC("api.graph.instantiate.unknown-flags-invalid-value");
  ScopedGraph graph;
  mcGraphNode_t node;
  ASSERT_EQ(AddEmpty(&node, graph.get(), {}), mcSuccess);
  mcGraphExec_t exec = nullptr;
  EXPECT_EQ(mcGraphInstantiateWithFlags(&exec, graph.get(), GetParam()),
            mcErrorInvalidValue);
  EXPECT_EQ(exec, nullptr);
  EXPECT_EQ(mcGraphInstantiateWithFlags(&exec, graph.get(), GetParam() | 1),
            mcErrorInvalidValue);
  EXPECT_EQ(exec, nullptr);
  // Control: the same graph instantiates without the bit.
  ASSERT_EQ(mcGraphInstantiateWithFlags(&exec, graph.get(), 1), mcSuccess);
  EXPECT_EQ(mcGraphExecDestroy(exec), mcSuccess);
  EXPECT_EQ(Nodes(graph.get()).size(), 1u);
}

INSTANTIATE_TEST_SUITE_P(
    Bits, InstantiateWithBadFlags,
    testing::Values(1ull << 2 /* DeviceLaunch */, 1ull << 4, 1ull << 5,
                    1ull << 7, 1ull << 8, 1ull << 16, 1ull << 31, 1ull << 32,
                    1ull << 63),
    [](const testing::TestParamInfo<unsigned long long>& info) {
      int bit = 0;
      while ((info.param >> bit) != 1) ++bit;
      return "Bit" + std::to_string(bit);
    });

}  // namespace
}  // namespace mxcts::conformance
