// Copyright mxcts authors.
//
// Conformance: what building a graph makes (docs/spec/api-graph.md,
// "Creating and destroying graphs", "Adding nodes", "Edges and queries"):
// new graphs are empty; every kind of node, on every device, is a root
// when added without dependencies, gets one edge from each dependency,
// reports its kind, is removed with its edges by mcGraphDestroyNode, and
// is copied with its edges by mcGraphClone; the queries count and fill as
// the chapter says; edges are added and removed. Nothing here runs a
// graph.

#include <mc_runtime.h>

#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "conformance/api/graph/graph_testing.h"
#include "conformance/api/testing/scoped_device.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance::graph {
namespace {

__global__ void StoreValue(int* cell, int value) { *cell = value; }

__device__ unsigned char graph_symbol[NodeMaker::kBytes];

using Nodes_t = std::vector<mcGraphNode_t>;

bool Contains(const Nodes_t& nodes, mcGraphNode_t node) {
  return std::find(nodes.begin(), nodes.end(), node) != nodes.end();
}

bool Contains(const std::vector<Edge>& edges, const Edge& edge) {
  return std::find(edges.begin(), edges.end(), edge) != edges.end();
}

TEST(GraphCreate, ReturnsEmptyGraphsWithDistinctHandles) {
  MX_SPEC("api.graph.create.returns-empty-graph");
  MX_REQUIRE_CAPABILITY("graphs");
  std::vector<mcGraph_t> graphs;
  for (int i = 0; i < 8; ++i) {
    mcGraph_t graph = nullptr;
    ASSERT_EQ(mcGraphCreate(&graph, 0), mcSuccess);
    ASSERT_NE(graph, nullptr);
    EXPECT_EQ(NodeCount(graph), 0u);
    EXPECT_EQ(EdgeCount(graph), 0u);
    EXPECT_TRUE(RootNodes(graph).empty());
    graphs.push_back(graph);
  }
  EXPECT_EQ(std::set<mcGraph_t>(graphs.begin(), graphs.end()).size(), 8u);
  // A node added to one graph is in that graph only.
  mcGraphNode_t node = nullptr;
  ASSERT_EQ(mcGraphAddEmptyNode(&node, graphs[3], nullptr, 0), mcSuccess);
  for (size_t i = 0; i < graphs.size(); ++i) {
    EXPECT_EQ(NodeCount(graphs[i]), i == 3 ? 1u : 0u) << i;
  }
  for (mcGraph_t graph : graphs) EXPECT_EQ(mcGraphDestroy(graph), mcSuccess);
}

TEST(GraphDestroy, DestroysAGraphWithNodesAndEdges) {
  MX_SPEC("api.graph.destroy.releases-graph-and-nodes");
  MX_REQUIRE_CAPABILITY("graphs");
  for (int round = 0; round < 16; ++round) {
    mcGraph_t graph = nullptr;
    ASSERT_EQ(mcGraphCreate(&graph, 0), mcSuccess);
    mcGraphNode_t previous = nullptr;
    for (int i = 0; i < 32; ++i) {
      mcGraphNode_t node = nullptr;
      ASSERT_EQ(mcGraphAddEmptyNode(&node, graph,
                                    previous == nullptr ? nullptr : &previous,
                                    previous == nullptr ? 0 : 1),
                mcSuccess);
      previous = node;
    }
    EXPECT_EQ(EdgeCount(graph), 31u);
    ASSERT_EQ(mcGraphDestroy(graph), mcSuccess);
  }
}

// ---------------------------------------------------------------------------
// Every kind of node on every device.

class NodeStructure : public testing::TestWithParam<std::tuple<int, NodeKind>> {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY("graphs");
    device_.emplace(std::get<0>(GetParam()));
    ASSERT_TRUE(device_->ok());
    maker_.emplace(reinterpret_cast<const void*>(StoreValue), &graph_symbol);
    ASSERT_TRUE(maker_->ok());
    ASSERT_EQ(graph_.status(), mcSuccess);
  }
  void TearDown() override {
    maker_.reset();
    device_.reset();
  }
  NodeKind kind() const { return std::get<1>(GetParam()); }
  mcGraph_t graph() const { return graph_.get(); }
  // Adds a node of the kind; `extra` receives the nodes it needs before it.
  mcGraphNode_t Add(const Nodes_t& dependencies, Nodes_t* extra = nullptr) {
    mcGraphNode_t node = nullptr;
    EXPECT_EQ(maker_->Add(kind(), &node, graph(),
                          dependencies.empty() ? nullptr : dependencies.data(),
                          dependencies.size()),
              mcSuccess);
    if (extra != nullptr) *extra = maker_->Extra();
    return node;
  }
  mcGraphNode_t Empty(const Nodes_t& dependencies) {
    mcGraphNode_t node = nullptr;
    EXPECT_EQ(mcGraphAddEmptyNode(
                  &node, graph(),
                  dependencies.empty() ? nullptr : dependencies.data(),
                  dependencies.size()),
              mcSuccess);
    return node;
  }

  std::optional<ScopedDevice> device_;
  std::optional<NodeMaker> maker_;
  ScopedGraph graph_;
};

TEST_P(NodeStructure, ReportsItsKind) {
  MX_SPEC("api.graph.node-get-type.reports-kind");
  mcGraphNode_t node = Add({});
  ASSERT_NE(node, nullptr);
  mcGraphNodeType type = mcGraphNodeTypeCount;
  ASSERT_EQ(mcGraphNodeGetType(node, &type), mcSuccess);
  EXPECT_EQ(type, TypeOf(kind()));
  // Control: an empty node beside it reports its own kind.
  EXPECT_EQ(NodeType(Empty({})), mcGraphNodeTypeEmpty);
}

TEST_P(NodeStructure, DependenciesBecomeEdgesToTheNode) {
  MX_SPEC("api.graph.node.dependencies-become-edges",
          "api.graph.node-get-dependencies.lists-predecessors");
  mcGraphNode_t a = Empty({});
  mcGraphNode_t b = Empty({});
  mcGraphNode_t unrelated = Empty({});
  Nodes_t extra;
  mcGraphNode_t node = Add({a, b}, &extra);
  Nodes_t expected = {a, b};
  expected.insert(expected.end(), extra.begin(), extra.end());
  EXPECT_EQ(Sorted(Dependencies(node)), Sorted(expected));
  EXPECT_EQ(Dependents(a), Nodes_t{node});
  EXPECT_EQ(Dependents(b), Nodes_t{node});
  EXPECT_TRUE(Dependents(unrelated).empty());
  EXPECT_TRUE(Dependents(node).empty());
  const std::vector<Edge> edges = Edges(graph());
  EXPECT_EQ(edges.size(), expected.size());
  for (mcGraphNode_t from : expected) {
    EXPECT_TRUE(Contains(edges, Edge(from, node)));
  }
  EXPECT_FALSE(Contains(RootNodes(graph()), node));
  EXPECT_TRUE(Contains(RootNodes(graph()), unrelated));
}

TEST_P(NodeStructure, DependentsOfTheNodeBecomeEdgesFromIt) {
  MX_SPEC("api.graph.node.dependencies-become-edges",
          "api.graph.node-get-dependencies.lists-predecessors");
  mcGraphNode_t a = Empty({});
  mcGraphNode_t node = Add({a});
  mcGraphNode_t c = Empty({node});
  mcGraphNode_t d = Empty({node, a});
  EXPECT_EQ(Sorted(Dependents(node)), Sorted(Nodes_t{c, d}));
  EXPECT_EQ(Sorted(Dependents(a)), Sorted(Nodes_t{node, d}));
  EXPECT_EQ(Dependencies(c), Nodes_t{node});
  EXPECT_EQ(Sorted(Dependencies(d)), Sorted(Nodes_t{node, a}));
}

TEST_P(NodeStructure, ChainOfTheKindIsListedByGetNodes) {
  MX_SPEC("api.graph.node.dependencies-become-edges",
          "api.graph.get-nodes.count-and-fill");
  Nodes_t added;
  mcGraphNode_t previous = Empty({});
  added.push_back(previous);
  for (int i = 0; i < 3; ++i) {
    Nodes_t extra;
    mcGraphNode_t node = Add({previous}, &extra);
    added.insert(added.end(), extra.begin(), extra.end());
    added.push_back(node);
    EXPECT_TRUE(Contains(Dependencies(node), previous));
    previous = node;
  }
  EXPECT_EQ(Sorted(Nodes(graph())), Sorted(added));
  EXPECT_EQ(NodeCount(graph()), added.size());
}

TEST_P(NodeStructure, DestroyNodeRemovesItAndItsEdges) {
  MX_SPEC("api.graph.destroy-node.removes-node-and-edges");
  mcGraphNode_t a = Empty({});
  Nodes_t extra;
  mcGraphNode_t node = Add({a}, &extra);
  mcGraphNode_t c = Empty({node});
  mcGraphNode_t d = Empty({a});
  ASSERT_EQ(mcGraphDestroyNode(node), mcSuccess);
  Nodes_t expected = {a, c, d};
  expected.insert(expected.end(), extra.begin(), extra.end());
  EXPECT_EQ(Sorted(Nodes(graph())), Sorted(expected));
  for (const Edge& edge : Edges(graph())) {
    EXPECT_NE(edge.first, node);
    EXPECT_NE(edge.second, node);
  }
  // Control: the edge a -> d that did not touch the node stays.
  EXPECT_EQ(Edges(graph()), std::vector<Edge>{Edge(a, d)});
  EXPECT_EQ(Dependents(a), Nodes_t{d});
  EXPECT_TRUE(Dependencies(c).empty());
  EXPECT_TRUE(Contains(RootNodes(graph()), c));
  for (mcGraphNode_t before : extra) EXPECT_TRUE(Dependents(before).empty());
}

TEST_P(NodeStructure, CloneCopiesTheNodeAndItsEdges) {
  MX_SPEC("api.graph.clone.independent-copy");
  mcGraphNode_t a = Empty({});
  Nodes_t extra;
  mcGraphNode_t node = Add({a}, &extra);
  mcGraphNode_t c = Empty({node});
  mcGraph_t clone = nullptr;
  ASSERT_EQ(mcGraphClone(&clone, graph()), mcSuccess);
  ASSERT_NE(clone, nullptr);
  EXPECT_NE(clone, graph());
  EXPECT_EQ(NodeCount(clone), NodeCount(graph()));
  // Every edge of the original has its counterpart in the clone.
  std::vector<Edge> mapped;
  for (const Edge& edge : Edges(graph())) {
    mcGraphNode_t from = nullptr, to = nullptr;
    ASSERT_EQ(mcGraphNodeFindInClone(&from, edge.first, clone), mcSuccess);
    ASSERT_EQ(mcGraphNodeFindInClone(&to, edge.second, clone), mcSuccess);
    mapped.emplace_back(from, to);
  }
  EXPECT_EQ(Sorted(mapped), Sorted(Edges(clone)));
  mcGraphNode_t copy = nullptr;
  ASSERT_EQ(mcGraphNodeFindInClone(&copy, node, clone), mcSuccess);
  EXPECT_NE(copy, node);
  EXPECT_EQ(NodeType(copy), TypeOf(kind()));
  EXPECT_TRUE(Contains(Nodes(clone), copy));
  EXPECT_FALSE(Contains(Nodes(clone), node));
  // Later changes to either graph leave the other alone.
  const GraphShape original_before = Shape(graph());
  mcGraphNode_t added_to_clone = nullptr;
  ASSERT_EQ(mcGraphAddEmptyNode(&added_to_clone, clone, &copy, 1), mcSuccess);
  EXPECT_EQ(Shape(graph()), original_before);
  const GraphShape clone_before = Shape(clone);
  ASSERT_EQ(mcGraphDestroyNode(c), mcSuccess);
  EXPECT_EQ(Shape(clone), clone_before);
  EXPECT_EQ(mcGraphDestroy(clone), mcSuccess);
  EXPECT_EQ(NodeType(node), TypeOf(kind()));
}

INSTANTIATE_TEST_SUITE_P(EveryKindOnEveryDevice, NodeStructure,
                         testing::Combine(testing::ValuesIn(GraphDevices()),
                                          testing::ValuesIn(kAllNodeKinds)),
                         KindOnDeviceName);

// Kinds a node can be added as without dependencies.
class RootNode : public NodeStructure {};

TEST_P(RootNode, WithoutDependenciesIsARoot) {
  MX_SPEC("api.graph.node.dependencies-become-edges",
          "api.graph.get-root-nodes.roots-only");
  mcGraphNode_t node = Add({});
  EXPECT_TRUE(Dependencies(node).empty());
  EXPECT_EQ(RootNodes(graph()), Nodes_t{node});
  EXPECT_EQ(EdgeCount(graph()), 0u);
  // Control: a node that depends on it is no root.
  mcGraphNode_t after = Empty({node});
  EXPECT_EQ(RootNodes(graph()), Nodes_t{node});
  EXPECT_EQ(Dependencies(after), Nodes_t{node});
}

TEST_P(RootNode, AddedDependencyMakesItNoRootAndRemovedOneARootAgain) {
  MX_SPEC("api.graph.add-dependencies.adds-edges",
          "api.graph.remove-dependencies.removes-edges",
          "api.graph.get-root-nodes.roots-only");
  mcGraphNode_t first = Empty({});
  mcGraphNode_t node = Add({});
  EXPECT_EQ(Sorted(RootNodes(graph())), Sorted(Nodes_t{first, node}));
  ASSERT_EQ(mcGraphAddDependencies(graph(), &first, &node, 1), mcSuccess);
  EXPECT_EQ(RootNodes(graph()), Nodes_t{first});
  EXPECT_EQ(Dependencies(node), Nodes_t{first});
  ASSERT_EQ(mcGraphRemoveDependencies(graph(), &first, &node, 1), mcSuccess);
  EXPECT_EQ(Sorted(RootNodes(graph())), Sorted(Nodes_t{first, node}));
  EXPECT_TRUE(Dependencies(node).empty());
}

INSTANTIATE_TEST_SUITE_P(
    EveryKindOnEveryDevice, RootNode,
    testing::Combine(testing::ValuesIn(GraphDevices()),
                     testing::ValuesIn(RootableNodeKinds())),
    KindOnDeviceName);

// Kinds a child graph may hold.
class ChildGraphHolding : public NodeStructure {};

TEST_P(ChildGraphHolding, NodeRunsACopyTakenWhenAdded) {
  MX_SPEC("api.graph.child-graph-node.embeds-copy");
  ScopedGraph child;
  mcGraphNode_t inside = nullptr;
  ASSERT_EQ(maker_->Add(kind(), &inside, child.get(), nullptr, 0), mcSuccess);
  mcGraphNode_t node = nullptr;
  ASSERT_EQ(mcGraphAddChildGraphNode(&node, graph(), nullptr, 0, child.get()),
            mcSuccess);
  mcGraph_t embedded = nullptr;
  ASSERT_EQ(mcGraphChildGraphNodeGetGraph(node, &embedded), mcSuccess);
  ASSERT_NE(embedded, nullptr);
  EXPECT_NE(embedded, child.get());
  Nodes_t held = Nodes(embedded);
  ASSERT_EQ(held.size(), 1u);
  EXPECT_EQ(NodeType(held[0]), TypeOf(kind()));
  // Changes to the child after the add do not reach the node's copy.
  mcGraphNode_t later = nullptr;
  ASSERT_EQ(mcGraphAddEmptyNode(&later, child.get(), &inside, 1), mcSuccess);
  EXPECT_EQ(NodeCount(embedded), 1u);
  EXPECT_EQ(NodeCount(child.get()), 2u);
  // Nor does destroying the child.
  ASSERT_EQ(mcGraphDestroy(child.release()), mcSuccess);
  ASSERT_EQ(mcGraphChildGraphNodeGetGraph(node, &embedded), mcSuccess);
  EXPECT_EQ(NodeCount(embedded), 1u);
}

INSTANTIATE_TEST_SUITE_P(
    EveryKindOnEveryDevice, ChildGraphHolding,
    testing::Combine(testing::ValuesIn(GraphDevices()),
                     testing::ValuesIn(ChildableNodeKinds())),
    KindOnDeviceName);

// ---------------------------------------------------------------------------
// Queries: counting and filling.

// A diamond a -> {b, c} -> d and a lone node e, added in that order.
class Queries : public testing::Test {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY("graphs");
    ASSERT_EQ(graph_.status(), mcSuccess);
    ASSERT_EQ(mcGraphAddEmptyNode(&a_, graph(), nullptr, 0), mcSuccess);
    ASSERT_EQ(mcGraphAddEmptyNode(&b_, graph(), &a_, 1), mcSuccess);
    ASSERT_EQ(mcGraphAddEmptyNode(&c_, graph(), &a_, 1), mcSuccess);
    const mcGraphNode_t bc[] = {b_, c_};
    ASSERT_EQ(mcGraphAddEmptyNode(&d_, graph(), bc, 2), mcSuccess);
    ASSERT_EQ(mcGraphAddEmptyNode(&e_, graph(), nullptr, 0), mcSuccess);
  }
  mcGraph_t graph() const { return graph_.get(); }
  ScopedGraph graph_;
  mcGraphNode_t a_ = nullptr, b_ = nullptr, c_ = nullptr, d_ = nullptr,
                e_ = nullptr;
};

// A value no query writes.
mcGraphNode_t Poison() { return reinterpret_cast<mcGraphNode_t>(0x5a5a5a50); }

TEST_F(Queries, GetNodesCountsWithNullArray) {
  MX_SPEC("api.graph.get-nodes.count-and-fill");
  size_t count = 99;
  ASSERT_EQ(mcGraphGetNodes(graph(), nullptr, &count), mcSuccess);
  EXPECT_EQ(count, 5u);
  ScopedGraph empty;
  count = 99;
  ASSERT_EQ(mcGraphGetNodes(empty.get(), nullptr, &count), mcSuccess);
  EXPECT_EQ(count, 0u);
}

TEST_F(Queries, GetNodesFillsExactly) {
  MX_SPEC("api.graph.get-nodes.count-and-fill");
  mcGraphNode_t nodes[5];
  size_t count = 5;
  ASSERT_EQ(mcGraphGetNodes(graph(), nodes, &count), mcSuccess);
  EXPECT_EQ(count, 5u);
  EXPECT_EQ(Sorted(Nodes_t(nodes, nodes + 5)),
            Sorted(Nodes_t{a_, b_, c_, d_, e_}));
}

TEST_F(Queries, GetNodesWithSmallerArrayWritesThatMany) {
  MX_SPEC("api.graph.get-nodes.count-and-fill");
  mcGraphNode_t nodes[4] = {Poison(), Poison(), Poison(), Poison()};
  size_t count = 3;
  ASSERT_EQ(mcGraphGetNodes(graph(), nodes, &count), mcSuccess);
  EXPECT_EQ(count, 3u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_TRUE(Contains(Nodes_t{a_, b_, c_, d_, e_}, nodes[i])) << i;
  }
  EXPECT_EQ(std::set<mcGraphNode_t>(nodes, nodes + 3).size(), 3u);
  EXPECT_EQ(nodes[3], Poison());
}

TEST_F(Queries, GetNodesWithLargerArraySetsTheRestNull) {
  MX_SPEC("api.graph.get-nodes.count-and-fill");
  mcGraphNode_t nodes[8];
  std::fill(nodes, nodes + 8, Poison());
  size_t count = 7;
  ASSERT_EQ(mcGraphGetNodes(graph(), nodes, &count), mcSuccess);
  EXPECT_EQ(count, 5u);
  EXPECT_EQ(Sorted(Nodes_t(nodes, nodes + 5)),
            Sorted(Nodes_t{a_, b_, c_, d_, e_}));
  EXPECT_EQ(nodes[5], nullptr);
  EXPECT_EQ(nodes[6], nullptr);
  EXPECT_EQ(nodes[7], Poison());
}

TEST_F(Queries, GetRootNodesReportsOnlyNodesWithoutDependencies) {
  MX_SPEC("api.graph.get-root-nodes.roots-only");
  size_t count = 0;
  ASSERT_EQ(mcGraphGetRootNodes(graph(), nullptr, &count), mcSuccess);
  EXPECT_EQ(count, 2u);
  mcGraphNode_t nodes[4];
  std::fill(nodes, nodes + 4, Poison());
  count = 3;
  ASSERT_EQ(mcGraphGetRootNodes(graph(), nodes, &count), mcSuccess);
  EXPECT_EQ(count, 2u);
  EXPECT_EQ(Sorted(Nodes_t(nodes, nodes + 2)), Sorted(Nodes_t{a_, e_}));
  EXPECT_EQ(nodes[2], nullptr);
  EXPECT_EQ(nodes[3], Poison());
  count = 1;
  ASSERT_EQ(mcGraphGetRootNodes(graph(), nodes, &count), mcSuccess);
  EXPECT_EQ(count, 1u);
  EXPECT_TRUE(nodes[0] == a_ || nodes[0] == e_);
}

TEST_F(Queries, GetEdgesCountsAndFills) {
  MX_SPEC("api.graph.get-edges.count-and-fill");
  size_t count = 0;
  ASSERT_EQ(mcGraphGetEdges(graph(), nullptr, nullptr, &count), mcSuccess);
  EXPECT_EQ(count, 4u);
  mcGraphNode_t from[6], to[6];
  std::fill(from, from + 6, Poison());
  std::fill(to, to + 6, Poison());
  count = 5;
  ASSERT_EQ(mcGraphGetEdges(graph(), from, to, &count), mcSuccess);
  EXPECT_EQ(count, 4u);
  std::vector<Edge> edges;
  for (int i = 0; i < 4; ++i) edges.emplace_back(from[i], to[i]);
  EXPECT_EQ(Sorted(edges),
            Sorted(std::vector<Edge>{{a_, b_}, {a_, c_}, {b_, d_}, {c_, d_}}));
  EXPECT_EQ(from[4], nullptr);
  EXPECT_EQ(to[4], nullptr);
  EXPECT_EQ(from[5], Poison());
  EXPECT_EQ(to[5], Poison());
}

TEST_F(Queries, GetEdgesWithSmallerArraysWritesThatMany) {
  MX_SPEC("api.graph.get-edges.count-and-fill");
  mcGraphNode_t from[3], to[3];
  std::fill(from, from + 3, Poison());
  std::fill(to, to + 3, Poison());
  size_t count = 2;
  ASSERT_EQ(mcGraphGetEdges(graph(), from, to, &count), mcSuccess);
  EXPECT_EQ(count, 2u);
  const std::vector<Edge> all = Edges(graph());
  for (int i = 0; i < 2; ++i) {
    EXPECT_TRUE(Contains(all, Edge(from[i], to[i]))) << i;
  }
  EXPECT_EQ(from[2], Poison());
  EXPECT_EQ(to[2], Poison());
}

TEST_F(Queries, NodeDependenciesAndDependentsCountAndFill) {
  MX_SPEC("api.graph.node-get-dependencies.lists-predecessors");
  size_t count = 0;
  ASSERT_EQ(mcGraphNodeGetDependencies(d_, nullptr, &count), mcSuccess);
  EXPECT_EQ(count, 2u);
  ASSERT_EQ(mcGraphNodeGetDependentNodes(a_, nullptr, &count), mcSuccess);
  EXPECT_EQ(count, 2u);
  ASSERT_EQ(mcGraphNodeGetDependencies(e_, nullptr, &count), mcSuccess);
  EXPECT_EQ(count, 0u);
  ASSERT_EQ(mcGraphNodeGetDependentNodes(d_, nullptr, &count), mcSuccess);
  EXPECT_EQ(count, 0u);
  mcGraphNode_t nodes[4];
  std::fill(nodes, nodes + 4, Poison());
  count = 3;
  ASSERT_EQ(mcGraphNodeGetDependencies(d_, nodes, &count), mcSuccess);
  EXPECT_EQ(count, 2u);
  EXPECT_EQ(Sorted(Nodes_t(nodes, nodes + 2)), Sorted(Nodes_t{b_, c_}));
  EXPECT_EQ(nodes[2], nullptr);
  EXPECT_EQ(nodes[3], Poison());
  std::fill(nodes, nodes + 4, Poison());
  count = 1;
  ASSERT_EQ(mcGraphNodeGetDependentNodes(a_, nodes, &count), mcSuccess);
  EXPECT_EQ(count, 1u);
  EXPECT_TRUE(nodes[0] == b_ || nodes[0] == c_);
  EXPECT_EQ(nodes[1], Poison());
}

// Adding and removing edges.

TEST_F(Queries, AddDependenciesAddsEachEdge) {
  MX_SPEC("api.graph.add-dependencies.adds-edges");
  const mcGraphNode_t from[] = {d_, b_, a_};
  const mcGraphNode_t to[] = {e_, e_, d_};
  ASSERT_EQ(mcGraphAddDependencies(graph(), from, to, 3), mcSuccess);
  EXPECT_EQ(EdgeCount(graph()), 7u);
  EXPECT_EQ(Sorted(Dependencies(e_)), Sorted(Nodes_t{d_, b_}));
  EXPECT_EQ(Sorted(Dependencies(d_)), Sorted(Nodes_t{a_, b_, c_}));
  EXPECT_EQ(RootNodes(graph()), Nodes_t{a_});
  EXPECT_EQ(NodeCount(graph()), 5u);
}

TEST_F(Queries, AddDependenciesOfZeroEdgesIsANoOp) {
  MX_SPEC("api.graph.add-dependencies.adds-edges");
  const GraphShape before = Shape(graph());
  EXPECT_EQ(mcGraphAddDependencies(graph(), nullptr, nullptr, 0), mcSuccess);
  const mcGraphNode_t from[] = {d_};
  const mcGraphNode_t to[] = {e_};
  EXPECT_EQ(mcGraphAddDependencies(graph(), from, to, 0), mcSuccess);
  EXPECT_EQ(Shape(graph()), before);
}

TEST_F(Queries, RemoveDependenciesRemovesEachEdge) {
  MX_SPEC("api.graph.remove-dependencies.removes-edges");
  const mcGraphNode_t from[] = {a_, c_};
  const mcGraphNode_t to[] = {b_, d_};
  ASSERT_EQ(mcGraphRemoveDependencies(graph(), from, to, 2), mcSuccess);
  EXPECT_EQ(Sorted(Edges(graph())),
            Sorted(std::vector<Edge>{{a_, c_}, {b_, d_}}));
  EXPECT_EQ(Sorted(RootNodes(graph())), Sorted(Nodes_t{a_, b_, e_}));
  EXPECT_EQ(NodeCount(graph()), 5u);
  // The removed edge can be added again.
  ASSERT_EQ(mcGraphAddDependencies(graph(), &a_, &b_, 1), mcSuccess);
  EXPECT_EQ(Dependencies(b_), Nodes_t{a_});
}

TEST_F(Queries, DestroyNodeInTheMiddleLeavesTheOtherPath) {
  MX_SPEC("api.graph.destroy-node.removes-node-and-edges");
  ASSERT_EQ(mcGraphDestroyNode(b_), mcSuccess);
  EXPECT_EQ(Sorted(Nodes(graph())), Sorted(Nodes_t{a_, c_, d_, e_}));
  EXPECT_EQ(Sorted(Edges(graph())),
            Sorted(std::vector<Edge>{{a_, c_}, {c_, d_}}));
  EXPECT_EQ(Dependencies(d_), Nodes_t{c_});
  EXPECT_EQ(Dependents(a_), Nodes_t{c_});
}

TEST_F(Queries, CloneOfTheDiamondHasTheSameShape) {
  MX_SPEC("api.graph.clone.independent-copy");
  mcGraph_t clone = nullptr;
  ASSERT_EQ(mcGraphClone(&clone, graph()), mcSuccess);
  Nodes_t copies;
  for (mcGraphNode_t node : {a_, b_, c_, d_, e_}) {
    mcGraphNode_t copy = nullptr;
    ASSERT_EQ(mcGraphNodeFindInClone(&copy, node, clone), mcSuccess);
    copies.push_back(copy);
  }
  EXPECT_EQ(std::set<mcGraphNode_t>(copies.begin(), copies.end()).size(), 5u);
  EXPECT_EQ(Sorted(Nodes(clone)), Sorted(copies));
  EXPECT_EQ(Sorted(Edges(clone)),
            Sorted(std::vector<Edge>{{copies[0], copies[1]},
                                     {copies[0], copies[2]},
                                     {copies[1], copies[3]},
                                     {copies[2], copies[3]}}));
  EXPECT_EQ(Sorted(RootNodes(clone)), Sorted(Nodes_t{copies[0], copies[4]}));
  // Removing an edge of the clone leaves the original's.
  ASSERT_EQ(mcGraphRemoveDependencies(clone, &copies[0], &copies[1], 1),
            mcSuccess);
  EXPECT_EQ(EdgeCount(graph()), 4u);
  EXPECT_EQ(EdgeCount(clone), 3u);
  // Destroying the original leaves the clone.
  ASSERT_EQ(mcGraphDestroy(graph_.release()), mcSuccess);
  EXPECT_EQ(NodeCount(clone), 5u);
  EXPECT_EQ(mcGraphDestroy(clone), mcSuccess);
}

TEST_F(Queries, CloneOfAnEmptyGraphIsEmpty) {
  MX_SPEC("api.graph.clone.independent-copy");
  ScopedGraph empty;
  mcGraph_t clone = nullptr;
  ASSERT_EQ(mcGraphClone(&clone, empty.get()), mcSuccess);
  EXPECT_NE(clone, empty.get());
  EXPECT_EQ(NodeCount(clone), 0u);
  EXPECT_EQ(mcGraphDestroy(clone), mcSuccess);
}

}  // namespace
}  // namespace mxcts::conformance::graph
