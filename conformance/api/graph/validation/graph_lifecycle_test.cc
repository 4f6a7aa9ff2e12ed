// Copyright mxcts authors.
//
// Conformance: the errors of creating, destroying and cloning graphs and of
// finding nodes in clones (docs/spec/api-graph.md, "Creating and destroying
// graphs", api.graph.clone.*). Each failing call is shown to create
// nothing and to leave the graphs it names as they were, beside a control
// call that succeeds.

#include <mc_runtime.h>

#include <string>
#include <vector>

#include "conformance/api/graph/graph_testing.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance::graph {
namespace {

class CreateFlags : public testing::TestWithParam<unsigned int> {
 protected:
  void SetUp() override { MX_REQUIRE_CAPABILITY("graphs"); }
};

TEST_P(CreateFlags, NonzeroIsInvalidValueAndCreatesNoGraph) {
  MX_SPEC("api.graph.create.nonzero-flags-invalid-value");
  mcGraph_t graph = nullptr;
  EXPECT_EQ(mcGraphCreate(&graph, GetParam()), mcErrorInvalidValue);
  EXPECT_EQ(graph, nullptr);
  // Control: flags 0 create a graph.
  ASSERT_EQ(mcGraphCreate(&graph, 0), mcSuccess);
  EXPECT_NE(graph, nullptr);
  EXPECT_EQ(mcGraphDestroy(graph), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(Flags, CreateFlags,
                         testing::Values(1u, 2u, 4u, 0x100u, 0x80000000u,
                                         0xffffffffu));

TEST(GraphCreate, NullOutputIsInvalidValue) {
  MX_SPEC("api.graph.create.null-output-invalid-value");
  MX_REQUIRE_CAPABILITY("graphs");
  EXPECT_EQ(mcGraphCreate(nullptr, 0), mcErrorInvalidValue);
  EXPECT_EQ(mcGraphCreate(nullptr, 1), mcErrorInvalidValue);
  mcGraph_t graph = nullptr;
  ASSERT_EQ(mcGraphCreate(&graph, 0), mcSuccess);
  EXPECT_EQ(mcGraphDestroy(graph), mcSuccess);
}

TEST(GraphDestroy, NullIsInvalidValue) {
  MX_SPEC("api.graph.destroy.null-graph-invalid-value");
  MX_REQUIRE_CAPABILITY("graphs");
  ScopedGraph graph;
  ASSERT_EQ(graph.status(), mcSuccess);
  mcGraphNode_t node = nullptr;
  ASSERT_EQ(mcGraphAddEmptyNode(&node, graph.get(), nullptr, 0), mcSuccess);
  EXPECT_EQ(mcGraphDestroy(nullptr), mcErrorInvalidValue);
  // The live graph is untouched, and destroys.
  EXPECT_EQ(Nodes(graph.get()), std::vector<mcGraphNode_t>{node});
  EXPECT_EQ(mcGraphDestroy(graph.release()), mcSuccess);
}

// The behaviour is undefined; the reference documents (in its header)
// that a graph that is no longer live is refused with mcErrorInvalidValue,
// which is what this checks, beside the same calls on a live graph.
TEST(GraphDestroy, ReferenceRefusesADestroyedGraph) {
  MX_SPEC("api.graph.destroy.use-after-destroy-undefined");
  MX_REQUIRE_CAPABILITY("graphs");
  ScopedGraph live;
  ASSERT_EQ(live.status(), mcSuccess);
  mcGraph_t dead = nullptr;
  ASSERT_EQ(mcGraphCreate(&dead, 0), mcSuccess);
  ASSERT_EQ(mcGraphDestroy(dead), mcSuccess);
  size_t count = 0;
  mcGraphNode_t node = nullptr;
  mcGraph_t clone = nullptr;
  EXPECT_EQ(mcGraphDestroy(dead), mcErrorInvalidValue);
  EXPECT_EQ(mcGraphGetNodes(dead, nullptr, &count), mcErrorInvalidValue);
  EXPECT_EQ(mcGraphAddEmptyNode(&node, dead, nullptr, 0), mcErrorInvalidValue);
  EXPECT_EQ(mcGraphClone(&clone, dead), mcErrorInvalidValue);
  EXPECT_EQ(clone, nullptr);
  mcGetLastError();
  // Control: the same calls on a live graph.
  EXPECT_EQ(mcGraphGetNodes(live.get(), nullptr, &count), mcSuccess);
  EXPECT_EQ(mcGraphAddEmptyNode(&node, live.get(), nullptr, 0), mcSuccess);
  EXPECT_EQ(mcGraphClone(&clone, live.get()), mcSuccess);
  EXPECT_EQ(mcGraphDestroy(clone), mcSuccess);
  EXPECT_EQ(NodeCount(live.get()), 1u);
}

TEST(GraphDestroy, ReferenceRefusesNodesOfADestroyedGraph) {
  MX_SPEC("api.graph.destroy.use-after-destroy-undefined");
  MX_REQUIRE_CAPABILITY("graphs");
  mcGraph_t dead = nullptr;
  ASSERT_EQ(mcGraphCreate(&dead, 0), mcSuccess);
  mcGraphNode_t a = nullptr, b = nullptr;
  ASSERT_EQ(mcGraphAddEmptyNode(&a, dead, nullptr, 0), mcSuccess);
  ASSERT_EQ(mcGraphAddEmptyNode(&b, dead, &a, 1), mcSuccess);
  ASSERT_EQ(mcGraphDestroy(dead), mcSuccess);
  mcGraphNodeType type = mcGraphNodeTypeCount;
  size_t count = 0;
  EXPECT_EQ(mcGraphNodeGetType(a, &type), mcErrorInvalidValue);
  EXPECT_EQ(mcGraphNodeGetDependencies(b, nullptr, &count),
            mcErrorInvalidValue);
  EXPECT_EQ(mcGraphDestroyNode(b), mcErrorInvalidValue);
  // A live graph refuses them as dependencies.
  ScopedGraph live;
  mcGraphNode_t node = nullptr;
  EXPECT_EQ(mcGraphAddEmptyNode(&node, live.get(), &a, 1), mcErrorInvalidValue);
  EXPECT_EQ(NodeCount(live.get()), 0u);
  mcGetLastError();
  // Control: a live node of the live graph answers.
  ASSERT_EQ(mcGraphAddEmptyNode(&node, live.get(), nullptr, 0), mcSuccess);
  EXPECT_EQ(mcGraphNodeGetType(node, &type), mcSuccess);
  EXPECT_EQ(type, mcGraphNodeTypeEmpty);
}

TEST(GraphDestroy, ReferenceRefusesADestroyedNode) {
  MX_SPEC("api.graph.destroy.use-after-destroy-undefined",
          "api.graph.destroy-node.removes-node-and-edges");
  MX_REQUIRE_CAPABILITY("graphs");
  ScopedGraph graph;
  mcGraphNode_t a = nullptr, b = nullptr;
  ASSERT_EQ(mcGraphAddEmptyNode(&a, graph.get(), nullptr, 0), mcSuccess);
  ASSERT_EQ(mcGraphAddEmptyNode(&b, graph.get(), nullptr, 0), mcSuccess);
  ASSERT_EQ(mcGraphDestroyNode(a), mcSuccess);
  mcGraphNodeType type = mcGraphNodeTypeCount;
  EXPECT_EQ(mcGraphNodeGetType(a, &type), mcErrorInvalidValue);
  EXPECT_EQ(mcGraphDestroyNode(a), mcErrorInvalidValue);
  EXPECT_EQ(mcGraphAddDependencies(graph.get(), &a, &b, 1),
            mcErrorInvalidValue);
  mcGraphNode_t node = nullptr;
  EXPECT_EQ(mcGraphAddEmptyNode(&node, graph.get(), &a, 1),
            mcErrorInvalidValue);
  EXPECT_EQ(Nodes(graph.get()), std::vector<mcGraphNode_t>{b});
  EXPECT_EQ(EdgeCount(graph.get()), 0u);
  mcGetLastError();
  // Control: the node beside it is still live.
  EXPECT_EQ(mcGraphNodeGetType(b, &type), mcSuccess);
  EXPECT_EQ(mcGraphAddEmptyNode(&node, graph.get(), &b, 1), mcSuccess);
}

// Clones.

class CloneErrors : public testing::Test {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY("graphs");
    ASSERT_EQ(original_.status(), mcSuccess);
    ASSERT_EQ(mcGraphAddEmptyNode(&a_, original_.get(), nullptr, 0), mcSuccess);
    ASSERT_EQ(mcGraphAddEmptyNode(&b_, original_.get(), &a_, 1), mcSuccess);
  }
  ScopedGraph original_;
  mcGraphNode_t a_ = nullptr;
  mcGraphNode_t b_ = nullptr;
};

TEST_F(CloneErrors, NullOutputIsInvalidValue) {
  MX_SPEC("api.graph.clone.null-invalid-value");
  const GraphShape before = Shape(original_.get());
  EXPECT_EQ(mcGraphClone(nullptr, original_.get()), mcErrorInvalidValue);
  EXPECT_EQ(Shape(original_.get()), before);
  mcGraph_t clone = nullptr;
  ASSERT_EQ(mcGraphClone(&clone, original_.get()), mcSuccess);
  EXPECT_EQ(mcGraphDestroy(clone), mcSuccess);
}

TEST_F(CloneErrors, NullOriginalIsInvalidValue) {
  MX_SPEC("api.graph.clone.null-invalid-value");
  mcGraph_t clone = nullptr;
  EXPECT_EQ(mcGraphClone(&clone, nullptr), mcErrorInvalidValue);
  EXPECT_EQ(clone, nullptr);
  ASSERT_EQ(mcGraphClone(&clone, original_.get()), mcSuccess);
  EXPECT_NE(clone, nullptr);
  EXPECT_EQ(mcGraphDestroy(clone), mcSuccess);
}

TEST_F(CloneErrors, FindInCloneNullArgumentsAreInvalidValue) {
  MX_SPEC("api.graph.clone.null-invalid-value");
  mcGraph_t clone = nullptr;
  ASSERT_EQ(mcGraphClone(&clone, original_.get()), mcSuccess);
  mcGraphNode_t found = nullptr;
  EXPECT_EQ(mcGraphNodeFindInClone(nullptr, a_, clone), mcErrorInvalidValue);
  EXPECT_EQ(mcGraphNodeFindInClone(&found, nullptr, clone),
            mcErrorInvalidValue);
  EXPECT_EQ(mcGraphNodeFindInClone(&found, a_, nullptr), mcErrorInvalidValue);
  EXPECT_EQ(found, nullptr);
  // Control.
  EXPECT_EQ(mcGraphNodeFindInClone(&found, a_, clone), mcSuccess);
  EXPECT_NE(found, nullptr);
  EXPECT_NE(found, a_);
  EXPECT_EQ(mcGraphDestroy(clone), mcSuccess);
}

TEST_F(CloneErrors, FindInGraphThatIsNotACloneIsInvalidValue) {
  MX_SPEC("api.graph.clone.independent-copy");
  ScopedGraph unrelated;
  mcGraphNode_t node = nullptr;
  ASSERT_EQ(mcGraphAddEmptyNode(&node, unrelated.get(), nullptr, 0), mcSuccess);
  mcGraphNode_t found = nullptr;
  EXPECT_EQ(mcGraphNodeFindInClone(&found, a_, unrelated.get()),
            mcErrorInvalidValue);
  // The original is no clone of itself.
  EXPECT_EQ(mcGraphNodeFindInClone(&found, a_, original_.get()),
            mcErrorInvalidValue);
  mcGetLastError();
  // Control: a real clone.
  mcGraph_t clone = nullptr;
  ASSERT_EQ(mcGraphClone(&clone, original_.get()), mcSuccess);
  EXPECT_EQ(mcGraphNodeFindInClone(&found, b_, clone), mcSuccess);
  EXPECT_EQ(mcGraphDestroy(clone), mcSuccess);
}

TEST_F(CloneErrors, FindNodeAddedAfterTheCloneIsInvalidValue) {
  MX_SPEC("api.graph.clone.independent-copy");
  mcGraph_t clone = nullptr;
  ASSERT_EQ(mcGraphClone(&clone, original_.get()), mcSuccess);
  mcGraphNode_t later = nullptr;
  ASSERT_EQ(mcGraphAddEmptyNode(&later, original_.get(), nullptr, 0),
            mcSuccess);
  mcGraphNode_t found = nullptr;
  EXPECT_EQ(mcGraphNodeFindInClone(&found, later, clone), mcErrorInvalidValue);
  mcGetLastError();
  EXPECT_EQ(mcGraphNodeFindInClone(&found, a_, clone), mcSuccess);
  EXPECT_EQ(mcGraphDestroy(clone), mcSuccess);
}

}  // namespace
}  // namespace mxcts::conformance::graph
