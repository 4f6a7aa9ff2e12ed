// Copyright mxcts authors.
//
// Conformance: the errors of the calls that change and read a graph's
// edges and nodes (docs/spec/api-graph.md, "Edges and queries"):
// mcGraphAddDependencies and mcGraphRemoveDependencies with edges that
// exist or do not, foreign nodes and null arrays; the queries with null
// arguments. Each failing call is shown to leave the graph's nodes and
// edges as they were, beside a control call that succeeds.

#include <mc_runtime.h>

#include <vector>

#include "conformance/api/graph/graph_testing.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance::graph {
namespace {

// A graph of four empty nodes with the edges a -> b and a -> c (d alone),
// and another graph holding one node.
class EdgeErrors : public testing::Test {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY("graphs");
    ASSERT_EQ(graph_.status(), mcSuccess);
    ASSERT_EQ(other_.status(), mcSuccess);
    ASSERT_EQ(mcGraphAddEmptyNode(&a_, graph(), nullptr, 0), mcSuccess);
    ASSERT_EQ(mcGraphAddEmptyNode(&b_, graph(), &a_, 1), mcSuccess);
    ASSERT_EQ(mcGraphAddEmptyNode(&c_, graph(), &a_, 1), mcSuccess);
    ASSERT_EQ(mcGraphAddEmptyNode(&d_, graph(), nullptr, 0), mcSuccess);
    ASSERT_EQ(mcGraphAddEmptyNode(&foreign_, other_.get(), nullptr, 0),
              mcSuccess);
    before_ = Shape(graph());
    ASSERT_EQ(before_.edges.size(), 2u);
  }
  mcGraph_t graph() const { return graph_.get(); }
  void ExpectUnchanged() {
    EXPECT_EQ(Shape(graph()), before_);
    EXPECT_EQ(NodeCount(other_.get()), 1u);
    EXPECT_EQ(EdgeCount(other_.get()), 0u);
  }

  ScopedGraph graph_;
  ScopedGraph other_;
  mcGraphNode_t a_ = nullptr, b_ = nullptr, c_ = nullptr, d_ = nullptr;
  mcGraphNode_t foreign_ = nullptr;
  GraphShape before_;
};

// mcGraphAddDependencies.

TEST_F(EdgeErrors, AddExistingEdgeIsInvalidValue) {
  MX_SPEC("api.graph.add-dependencies.existing-edge-invalid-value");
  EXPECT_EQ(mcGraphAddDependencies(graph(), &a_, &b_, 1), mcErrorInvalidValue);
  ExpectUnchanged();
  // Control: an edge that does not exist yet.
  EXPECT_EQ(mcGraphAddDependencies(graph(), &a_, &d_, 1), mcSuccess);
  EXPECT_EQ(EdgeCount(graph()), 3u);
}

TEST_F(EdgeErrors, AddBatchWithOneExistingEdgeAddsNone) {
  MX_SPEC("api.graph.add-dependencies.existing-edge-invalid-value");
  const mcGraphNode_t from[] = {b_, a_, c_};
  const mcGraphNode_t to[] = {d_, c_, d_};
  EXPECT_EQ(mcGraphAddDependencies(graph(), from, to, 3), mcErrorInvalidValue);
  ExpectUnchanged();
  EXPECT_TRUE(Dependencies(d_).empty());
  // Control: the batch without the existing edge.
  const mcGraphNode_t good_from[] = {b_, c_};
  const mcGraphNode_t good_to[] = {d_, d_};
  EXPECT_EQ(mcGraphAddDependencies(graph(), good_from, good_to, 2), mcSuccess);
  EXPECT_EQ(Sorted(Dependencies(d_)),
            Sorted(std::vector<mcGraphNode_t>{b_, c_}));
}

TEST_F(EdgeErrors, AddSameNewEdgeTwiceInOneCallIsInvalidValue) {
  MX_SPEC("api.graph.add-dependencies.existing-edge-invalid-value");
  const mcGraphNode_t from[] = {b_, b_};
  const mcGraphNode_t to[] = {d_, d_};
  EXPECT_EQ(mcGraphAddDependencies(graph(), from, to, 2), mcErrorInvalidValue);
  ExpectUnchanged();
  EXPECT_EQ(mcGraphAddDependencies(graph(), from, to, 1), mcSuccess);
  EXPECT_EQ(EdgeCount(graph()), 3u);
}

TEST_F(EdgeErrors, AddWithForeignFromIsInvalidValue) {
  MX_SPEC("api.graph.add-dependencies.foreign-node-invalid-value");
  EXPECT_EQ(mcGraphAddDependencies(graph(), &foreign_, &d_, 1),
            mcErrorInvalidValue);
  ExpectUnchanged();
  EXPECT_TRUE(Dependents(foreign_).empty());
  EXPECT_EQ(mcGraphAddDependencies(graph(), &b_, &d_, 1), mcSuccess);
}

TEST_F(EdgeErrors, AddWithForeignToIsInvalidValue) {
  MX_SPEC("api.graph.add-dependencies.foreign-node-invalid-value");
  EXPECT_EQ(mcGraphAddDependencies(graph(), &d_, &foreign_, 1),
            mcErrorInvalidValue);
  ExpectUnchanged();
  EXPECT_TRUE(Dependencies(foreign_).empty());
  EXPECT_EQ(mcGraphAddDependencies(graph(), &d_, &b_, 1), mcSuccess);
}

TEST_F(EdgeErrors, AddInTheOtherGraphOfItsNodesIsInvalidValue) {
  MX_SPEC("api.graph.add-dependencies.foreign-node-invalid-value");
  // Both nodes belong to `graph`, the call names `other`.
  EXPECT_EQ(mcGraphAddDependencies(other_.get(), &b_, &d_, 1),
            mcErrorInvalidValue);
  ExpectUnchanged();
  EXPECT_EQ(mcGraphAddDependencies(graph(), &b_, &d_, 1), mcSuccess);
}

TEST_F(EdgeErrors, AddBatchWithOneForeignNodeAddsNone) {
  MX_SPEC("api.graph.add-dependencies.foreign-node-invalid-value");
  const mcGraphNode_t from[] = {b_, foreign_};
  const mcGraphNode_t to[] = {d_, d_};
  EXPECT_EQ(mcGraphAddDependencies(graph(), from, to, 2), mcErrorInvalidValue);
  ExpectUnchanged();
  EXPECT_EQ(mcGraphAddDependencies(graph(), from, to, 1), mcSuccess);
}

TEST_F(EdgeErrors, AddNullArraysWithCountIsInvalidValue) {
  MX_SPEC("api.graph.add-dependencies.foreign-node-invalid-value");
  EXPECT_EQ(mcGraphAddDependencies(graph(), nullptr, &d_, 1),
            mcErrorInvalidValue);
  EXPECT_EQ(mcGraphAddDependencies(graph(), &b_, nullptr, 1),
            mcErrorInvalidValue);
  EXPECT_EQ(mcGraphAddDependencies(graph(), nullptr, nullptr, 1),
            mcErrorInvalidValue);
  ExpectUnchanged();
  // Control: with a count of 0 the null arrays are a no-op.
  EXPECT_EQ(mcGraphAddDependencies(graph(), nullptr, nullptr, 0), mcSuccess);
  ExpectUnchanged();
}

TEST_F(EdgeErrors, AddNullGraphIsInvalidValue) {
  MX_SPEC("api.graph.add-dependencies.foreign-node-invalid-value");
  EXPECT_EQ(mcGraphAddDependencies(nullptr, &b_, &d_, 1), mcErrorInvalidValue);
  ExpectUnchanged();
  EXPECT_EQ(mcGraphAddDependencies(graph(), &b_, &d_, 1), mcSuccess);
}

// mcGraphRemoveDependencies.

TEST_F(EdgeErrors, RemoveMissingEdgeIsInvalidValue) {
  MX_SPEC("api.graph.remove-dependencies.missing-edge-invalid-value");
  EXPECT_EQ(mcGraphRemoveDependencies(graph(), &a_, &d_, 1),
            mcErrorInvalidValue);
  // The edge a -> b exists; b -> a does not.
  EXPECT_EQ(mcGraphRemoveDependencies(graph(), &b_, &a_, 1),
            mcErrorInvalidValue);
  ExpectUnchanged();
  EXPECT_EQ(mcGraphRemoveDependencies(graph(), &a_, &b_, 1), mcSuccess);
  EXPECT_EQ(EdgeCount(graph()), 1u);
}

TEST_F(EdgeErrors, RemoveBatchWithOneMissingEdgeRemovesNone) {
  MX_SPEC("api.graph.remove-dependencies.missing-edge-invalid-value");
  const mcGraphNode_t from[] = {a_, a_};
  const mcGraphNode_t to[] = {b_, d_};
  EXPECT_EQ(mcGraphRemoveDependencies(graph(), from, to, 2),
            mcErrorInvalidValue);
  ExpectUnchanged();
  EXPECT_EQ(mcGraphRemoveDependencies(graph(), from, to, 1), mcSuccess);
  EXPECT_EQ(Edges(graph()), std::vector<Edge>{Edge(a_, c_)});
}

TEST_F(EdgeErrors, RemoveSameEdgeTwiceIsInvalidValue) {
  MX_SPEC("api.graph.remove-dependencies.missing-edge-invalid-value");
  ASSERT_EQ(mcGraphRemoveDependencies(graph(), &a_, &b_, 1), mcSuccess);
  const GraphShape after_first = Shape(graph());
  EXPECT_EQ(mcGraphRemoveDependencies(graph(), &a_, &b_, 1),
            mcErrorInvalidValue);
  EXPECT_EQ(Shape(graph()), after_first);
}

TEST_F(EdgeErrors, RemoveWithForeignNodeIsInvalidValue) {
  MX_SPEC("api.graph.remove-dependencies.missing-edge-invalid-value");
  EXPECT_EQ(mcGraphRemoveDependencies(graph(), &foreign_, &b_, 1),
            mcErrorInvalidValue);
  EXPECT_EQ(mcGraphRemoveDependencies(graph(), &a_, &foreign_, 1),
            mcErrorInvalidValue);
  EXPECT_EQ(mcGraphRemoveDependencies(graph(), nullptr, &b_, 1),
            mcErrorInvalidValue);
  ExpectUnchanged();
  EXPECT_EQ(mcGraphRemoveDependencies(graph(), nullptr, nullptr, 0), mcSuccess);
  ExpectUnchanged();
}

// Queries.

TEST_F(EdgeErrors, GetNodesNullCountOrGraphIsInvalidValue) {
  MX_SPEC("api.graph.get-nodes.null-count-invalid-value");
  mcGraphNode_t nodes[4] = {};
  size_t count = 4;
  EXPECT_EQ(mcGraphGetNodes(graph(), nodes, nullptr), mcErrorInvalidValue);
  EXPECT_EQ(mcGraphGetNodes(graph(), nullptr, nullptr), mcErrorInvalidValue);
  EXPECT_EQ(mcGraphGetNodes(nullptr, nodes, &count), mcErrorInvalidValue);
  EXPECT_EQ(count, 4u);
  ExpectUnchanged();
  EXPECT_EQ(mcGraphGetNodes(graph(), nodes, &count), mcSuccess);
  EXPECT_EQ(count, 4u);
}

TEST_F(EdgeErrors, GetRootNodesNullCountOrGraphIsInvalidValue) {
  MX_SPEC("api.graph.get-nodes.null-count-invalid-value",
          "api.graph.get-root-nodes.roots-only");
  mcGraphNode_t nodes[4] = {};
  size_t count = 4;
  EXPECT_EQ(mcGraphGetRootNodes(graph(), nodes, nullptr), mcErrorInvalidValue);
  EXPECT_EQ(mcGraphGetRootNodes(nullptr, nodes, &count), mcErrorInvalidValue);
  EXPECT_EQ(count, 4u);
  EXPECT_EQ(mcGraphGetRootNodes(graph(), nodes, &count), mcSuccess);
  EXPECT_EQ(count, 2u);
}

TEST_F(EdgeErrors, GetEdgesNullCountOrGraphIsInvalidValue) {
  MX_SPEC("api.graph.get-nodes.null-count-invalid-value",
          "api.graph.get-edges.count-and-fill");
  mcGraphNode_t from[2] = {}, to[2] = {};
  size_t count = 2;
  EXPECT_EQ(mcGraphGetEdges(graph(), from, to, nullptr), mcErrorInvalidValue);
  EXPECT_EQ(mcGraphGetEdges(nullptr, from, to, &count), mcErrorInvalidValue);
  EXPECT_EQ(count, 2u);
  EXPECT_EQ(mcGraphGetEdges(graph(), from, to, &count), mcSuccess);
  EXPECT_EQ(count, 2u);
}

TEST_F(EdgeErrors, GetEdgesWithOnlyFromIsInvalidValue) {
  MX_SPEC("api.graph.get-edges.one-array-null-invalid-value");
  mcGraphNode_t from[2] = {};
  size_t count = 2;
  EXPECT_EQ(mcGraphGetEdges(graph(), from, nullptr, &count),
            mcErrorInvalidValue);
  EXPECT_EQ(from[0], nullptr);
  EXPECT_EQ(from[1], nullptr);
  // Control: both arrays null asks for the count.
  EXPECT_EQ(mcGraphGetEdges(graph(), nullptr, nullptr, &count), mcSuccess);
  EXPECT_EQ(count, 2u);
}

TEST_F(EdgeErrors, GetEdgesWithOnlyToIsInvalidValue) {
  MX_SPEC("api.graph.get-edges.one-array-null-invalid-value");
  mcGraphNode_t to[2] = {};
  size_t count = 2;
  EXPECT_EQ(mcGraphGetEdges(graph(), nullptr, to, &count), mcErrorInvalidValue);
  EXPECT_EQ(to[0], nullptr);
  EXPECT_EQ(to[1], nullptr);
  mcGraphNode_t from[2] = {};
  EXPECT_EQ(mcGraphGetEdges(graph(), from, to, &count), mcSuccess);
  EXPECT_EQ(count, 2u);
  EXPECT_EQ(from[0], a_);
}

TEST_F(EdgeErrors, NodeGetTypeNullArgumentsAreInvalidValue) {
  MX_SPEC("api.graph.node-get-type.null-invalid-value");
  mcGraphNodeType type = mcGraphNodeTypeCount;
  EXPECT_EQ(mcGraphNodeGetType(nullptr, &type), mcErrorInvalidValue);
  EXPECT_EQ(type, mcGraphNodeTypeCount);
  EXPECT_EQ(mcGraphNodeGetType(a_, nullptr), mcErrorInvalidValue);
  EXPECT_EQ(mcGraphNodeGetType(a_, &type), mcSuccess);
  EXPECT_EQ(type, mcGraphNodeTypeEmpty);
}

TEST_F(EdgeErrors, NodeGetDependenciesNullArgumentsAreInvalidValue) {
  MX_SPEC("api.graph.node-get-dependencies.lists-predecessors");
  mcGraphNode_t nodes[2] = {};
  size_t count = 2;
  EXPECT_EQ(mcGraphNodeGetDependencies(b_, nodes, nullptr),
            mcErrorInvalidValue);
  EXPECT_EQ(mcGraphNodeGetDependencies(nullptr, nodes, &count),
            mcErrorInvalidValue);
  EXPECT_EQ(mcGraphNodeGetDependentNodes(a_, nodes, nullptr),
            mcErrorInvalidValue);
  EXPECT_EQ(mcGraphNodeGetDependentNodes(nullptr, nodes, &count),
            mcErrorInvalidValue);
  EXPECT_EQ(count, 2u);
  EXPECT_EQ(mcGraphNodeGetDependentNodes(a_, nodes, &count), mcSuccess);
  EXPECT_EQ(count, 2u);
}

TEST_F(EdgeErrors, DestroyNodeNullIsInvalidValue) {
  MX_SPEC("api.graph.destroy-node.removes-node-and-edges");
  EXPECT_EQ(mcGraphDestroyNode(nullptr), mcErrorInvalidValue);
  ExpectUnchanged();
  EXPECT_EQ(mcGraphDestroyNode(d_), mcSuccess);
  EXPECT_EQ(NodeCount(graph()), 3u);
}

}  // namespace
}  // namespace mxcts::conformance::graph
