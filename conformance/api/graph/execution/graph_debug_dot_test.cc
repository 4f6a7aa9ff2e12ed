// Copyright mxcts authors.
//
// Conformance: mcGraphDebugDotPrint (docs/spec/api-graph.md, "Debug
// output") writes a DOT graph with one node statement per graph node and
// one edge per dependency, for every kind of node, on every device, at
// every verbosity; the verbose flags add the nodes' parameters. Each file
// is read twice: by the test's own DOT reader (dot_reader.h), which checks
// the statements, and by Graphviz's `dot` where the machine has it
// (tools/setup installs it), which checks that a DOT parser accepts it.

#include <mc_runtime.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "conformance/api/graph/execution/dot_reader.h"
#include "conformance/api/graph/graph_testing.h"
#include "conformance/api/testing/scoped_device.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance::graph {
namespace {

__global__ void StoreValue(int* cell, int value) { *cell = value; }

__device__ unsigned char graph_symbol[NodeMaker::kBytes];

// Lower case letters and digits only: "EVENT_RECORD" -> "eventrecord".
std::string Normalized(const std::string& text) {
  std::string result;
  for (char c : text) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      result += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
  }
  return result;
}

// The words one of which a node's label holds for its kind.
std::vector<std::string> KindWords(mcGraphNodeType type) {
  switch (type) {
    case mcGraphNodeTypeKernel:
      return {"kernel"};
    case mcGraphNodeTypeMemcpy:
      return {"memcpy", "copy"};
    case mcGraphNodeTypeMemset:
      return {"memset"};
    case mcGraphNodeTypeHost:
      return {"host"};
    case mcGraphNodeTypeGraph:
      return {"graph", "child"};
    case mcGraphNodeTypeEmpty:
      return {"empty"};
    case mcGraphNodeTypeWaitEvent:
      return {"waitevent", "eventwait"};
    case mcGraphNodeTypeEventRecord:
      return {"eventrecord", "recordevent"};
    case mcGraphNodeTypeMemAlloc:
      return {"memalloc", "alloc"};
    case mcGraphNodeTypeMemFree:
      return {"memfree", "free"};
    default:
      return {"?"};
  }
}

bool HasAnyWord(const std::string& normalized,
                const std::vector<std::string>& words) {
  for (const std::string& word : words) {
    if (normalized.find(word) != std::string::npos) return true;
  }
  return false;
}

// What is wrong with the statements of `dot`, the file of a graph of
// `nodes` nodes and `edges` dependencies, "" where nothing is: it must be a
// digraph declaring `nodes` distinct nodes and stating `edges` edges
// between declared nodes. Every statement counts, whatever subgraph (a
// cluster of the whole graph, of a child graph, nested or side by side)
// the writer put it in: the layout is the writer's choice
// [api.graph.debug-dot.writes-file].
std::string StatementProblems(const DotGraph& dot, size_t nodes, size_t edges) {
  if (!dot.error.empty()) return "not a DOT graph: " + dot.error;
  std::string problems;
  if (!dot.directed) problems += "not a digraph; ";
  if (dot.nodes.size() != nodes) {
    problems += std::to_string(dot.nodes.size()) + " node statements, " +
                std::to_string(nodes) + " nodes; ";
  }
  std::set<std::string> ids;
  for (const DotNode& node : dot.nodes) ids.insert(node.id);
  if (ids.size() != dot.nodes.size()) problems += "a node is declared twice; ";
  if (dot.edges.size() != edges) {
    problems += std::to_string(dot.edges.size()) + " edges, " +
                std::to_string(edges) + " dependencies; ";
  }
  for (const DotEdge& edge : dot.edges) {
    if (!ids.count(edge.from) || !ids.count(edge.to)) {
      problems +=
          "edge " + edge.from + " -> " + edge.to + " to an undeclared node; ";
    }
  }
  return problems;
}

// What the test checks of every file: StatementProblems finds nothing, and
// `dot` accepts it where there is a `dot`.
void ExpectDotOfGraph(const std::string& path, const DotGraph& dot,
                      size_t nodes, size_t edges) {
  ASSERT_TRUE(dot.error.empty()) << dot.error << "\n" << ReadFile(path);
  EXPECT_EQ(StatementProblems(dot, nodes, edges), "") << ReadFile(path);
  const std::string program = DotProgram();
  if (program.empty()) {
    testing::Test::RecordProperty("graphviz", "absent");
    return;
  }
  std::string diagnostics;
  EXPECT_TRUE(DotAccepts(program, path, &diagnostics)) << diagnostics << "\n"
                                                       << ReadFile(path);
}

// The nodes of `graph` and of every child graph within it, at any depth:
// each has its node statement in the file [api.graph.debug-dot.writes-file].
std::vector<mcGraphNode_t> NodesWithChildGraphs(mcGraph_t graph) {
  std::vector<mcGraphNode_t> all;
  for (mcGraphNode_t node : Nodes(graph)) {
    all.push_back(node);
    if (NodeType(node) != mcGraphNodeTypeGraph) continue;
    mcGraph_t child = nullptr;
    EXPECT_EQ(mcGraphChildGraphNodeGetGraph(node, &child), mcSuccess);
    if (child == nullptr) continue;
    for (mcGraphNode_t inner : NodesWithChildGraphs(child)) {
      all.push_back(inner);
    }
  }
  return all;
}

// The dependencies of `graph` and of every child graph within it.
size_t EdgesWithChildGraphs(mcGraph_t graph) {
  size_t edges = EdgeCount(graph);
  for (mcGraphNode_t node : Nodes(graph)) {
    if (NodeType(node) != mcGraphNodeTypeGraph) continue;
    mcGraph_t child = nullptr;
    EXPECT_EQ(mcGraphChildGraphNodeGetGraph(node, &child), mcSuccess);
    if (child != nullptr) edges += EdgesWithChildGraphs(child);
  }
  return edges;
}

std::string PathFor(const std::string& stem) {
  const testing::TestInfo* info =
      testing::UnitTest::GetInstance()->current_test_info();
  std::string name = std::string(info->test_suite_name()) + "_" + info->name();
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return testing::TempDir() + "/" + name + "_" + stem + ".dot";
}

// Every kind of node, on every device, at three verbosities.
using Param = std::tuple<int, NodeKind, unsigned>;

std::string ParamName(const testing::TestParamInfo<Param>& info) {
  const unsigned flags = std::get<2>(info.param);
  return "Device" + std::to_string(std::get<0>(info.param)) +
         NodeKindName(std::get<1>(info.param)) +
         (flags == 0   ? "Plain"
          : flags == 1 ? "Verbose"
                       : "AllFlags");
}

// Every flag bit the header names.
constexpr unsigned kAllDotFlags =
    mcGraphDebugDotFlagsVerbose | mcGraphDebugDotFlagsKernelNodeParams |
    mcGraphDebugDotFlagsMemcpyNodeParams |
    mcGraphDebugDotFlagsMemsetNodeParams | mcGraphDebugDotFlagsHostNodeParams |
    mcGraphDebugDotFlagsEventNodeParams |
    mcGraphDebugDotFlagsExtSemasSignalNodeParams |
    mcGraphDebugDotFlagsExtSemasWaitNodeParams |
    mcGraphDebugDotFlagsKernelNodeAttributes | mcGraphDebugDotFlagsHandles |
    mcGraphDebugDotFlagsMemAllocNodeParams |
    mcGraphDebugDotFlagsMemFreeNodeParams;

class DotOfKind : public testing::TestWithParam<Param> {
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
  unsigned flags() const { return std::get<2>(GetParam()); }

  std::optional<ScopedDevice> device_;
  std::optional<NodeMaker> maker_;
  ScopedGraph graph_;
};

TEST_P(DotOfKind, OneNodeStatementPerNodeAndOneEdgePerDependency) {
  MX_SPEC("api.graph.debug-dot.writes-file",
          "api.graph.debug-dot.verbosity-flags");
  // root -> node -> {tail, other}, root -> other.
  mcGraphNode_t root = nullptr, node = nullptr, tail = nullptr, other = nullptr;
  ASSERT_EQ(mcGraphAddEmptyNode(&root, graph_.get(), nullptr, 0), mcSuccess);
  ASSERT_EQ(maker_->Add(kind(), &node, graph_.get(), &root, 1), mcSuccess);
  ASSERT_EQ(mcGraphAddEmptyNode(&tail, graph_.get(), &node, 1), mcSuccess);
  const mcGraphNode_t both[] = {root, node};
  ASSERT_EQ(mcGraphAddEmptyNode(&other, graph_.get(), both, 2), mcSuccess);
  const std::string path = PathFor("graph");
  ASSERT_EQ(mcGraphDebugDotPrint(graph_.get(), path.c_str(), flags()),
            mcSuccess);
  const DotGraph dot = ReadDot(ReadFile(path));
  // A child graph node's graph is drawn too, its nodes and dependencies
  // counted with the graph's, wherever the writer puts them.
  const std::vector<mcGraphNode_t> nodes = NodesWithChildGraphs(graph_.get());
  ExpectDotOfGraph(path, dot, nodes.size(), EdgesWithChildGraphs(graph_.get()));
  // Each kind of node is named in as many labels.
  std::map<mcGraphNodeType, size_t> kinds;
  for (mcGraphNode_t each : nodes) ++kinds[NodeType(each)];
  for (const auto& [type, count] : kinds) {
    size_t labelled = 0;
    for (const DotNode& statement : dot.nodes) {
      auto label = statement.attributes.find("label");
      const std::string text = label == statement.attributes.end()
                                   ? statement.id
                                   : label->second + " " + statement.id;
      if (HasAnyWord(Normalized(text), KindWords(type))) ++labelled;
    }
    EXPECT_GE(labelled, count) << "node type " << type << "\n"
                               << ReadFile(path);
  }
}

INSTANTIATE_TEST_SUITE_P(EveryKindOnEveryDevice, DotOfKind,
                         testing::Combine(testing::ValuesIn(GraphDevices()),
                                          testing::ValuesIn(kAllNodeKinds),
                                          testing::Values(0u, 1u,
                                                          kAllDotFlags)),
                         ParamName);

// ---------------------------------------------------------------------------

class Dot : public testing::Test {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY("graphs");
    maker_.emplace(reinterpret_cast<const void*>(StoreValue), &graph_symbol);
    ASSERT_TRUE(maker_->ok());
    ASSERT_EQ(graph_.status(), mcSuccess);
  }
  void TearDown() override { maker_.reset(); }
  std::string Print(unsigned flags, const std::string& stem) {
    const std::string path = PathFor(stem);
    EXPECT_EQ(mcGraphDebugDotPrint(graph_.get(), path.c_str(), flags),
              mcSuccess);
    return path;
  }
  std::optional<NodeMaker> maker_;
  ScopedGraph graph_;
};

TEST_F(Dot, EmptyGraphIsADotGraphWithoutNodes) {
  MX_SPEC("api.graph.debug-dot.writes-file");
  const std::string path = Print(0, "empty");
  ExpectDotOfGraph(path, ReadDot(ReadFile(path)), 0, 0);
}

TEST_F(Dot, ManyNodesAndEdges) {
  MX_SPEC("api.graph.debug-dot.writes-file");
  // Five layers of four nodes, each node depending on every node of the
  // layer before: 20 nodes, 64 edges.
  std::vector<mcGraphNode_t> layer;
  for (int depth = 0; depth < 5; ++depth) {
    std::vector<mcGraphNode_t> next;
    for (int i = 0; i < 4; ++i) {
      mcGraphNode_t node = nullptr;
      const NodeKind kind = i % 2 == 0 ? NodeKind::kKernel : NodeKind::kEmpty;
      ASSERT_EQ(
          maker_->Add(kind, &node, graph_.get(),
                      layer.empty() ? nullptr : layer.data(), layer.size()),
          mcSuccess);
      next.push_back(node);
    }
    layer = next;
  }
  ASSERT_EQ(EdgeCount(graph_.get()), 64u);
  for (unsigned flags : {0u, 1u}) {
    const std::string path = Print(flags, "layers" + std::to_string(flags));
    ExpectDotOfGraph(path, ReadDot(ReadFile(path)), 20, 64);
  }
}

TEST_F(Dot, EdgesFollowAddedAndRemovedDependencies) {
  MX_SPEC("api.graph.debug-dot.writes-file",
          "api.graph.add-dependencies.adds-edges");
  mcGraphNode_t a = nullptr, b = nullptr, c = nullptr;
  ASSERT_EQ(mcGraphAddEmptyNode(&a, graph_.get(), nullptr, 0), mcSuccess);
  ASSERT_EQ(mcGraphAddEmptyNode(&b, graph_.get(), nullptr, 0), mcSuccess);
  ASSERT_EQ(mcGraphAddEmptyNode(&c, graph_.get(), nullptr, 0), mcSuccess);
  std::string path = Print(0, "none");
  ExpectDotOfGraph(path, ReadDot(ReadFile(path)), 3, 0);
  const mcGraphNode_t from[] = {a, b};
  const mcGraphNode_t to[] = {b, c};
  ASSERT_EQ(mcGraphAddDependencies(graph_.get(), from, to, 2), mcSuccess);
  path = Print(0, "two");
  DotGraph dot = ReadDot(ReadFile(path));
  ExpectDotOfGraph(path, dot, 3, 2);
  // A chain: one node starts it, one ends it.
  std::map<std::string, int> in, out;
  for (const DotEdge& edge : dot.edges) {
    ++out[edge.from];
    ++in[edge.to];
  }
  EXPECT_EQ(in.size(), 2u);
  EXPECT_EQ(out.size(), 2u);
  ASSERT_EQ(mcGraphRemoveDependencies(graph_.get(), from, to, 1), mcSuccess);
  ASSERT_EQ(mcGraphDestroyNode(a), mcSuccess);
  path = Print(0, "after");
  ExpectDotOfGraph(path, ReadDot(ReadFile(path)), 2, 1);
}

TEST_F(Dot, RewritingAPathReplacesTheFile) {
  MX_SPEC("api.graph.debug-dot.writes-file");
  mcGraphNode_t a = nullptr, b = nullptr;
  ASSERT_EQ(mcGraphAddEmptyNode(&a, graph_.get(), nullptr, 0), mcSuccess);
  ASSERT_EQ(mcGraphAddEmptyNode(&b, graph_.get(), &a, 1), mcSuccess);
  const std::string path = Print(1, "same");
  ExpectDotOfGraph(path, ReadDot(ReadFile(path)), 2, 1);
  ASSERT_EQ(mcGraphDestroyNode(b), mcSuccess);
  ASSERT_EQ(mcGraphDebugDotPrint(graph_.get(), path.c_str(), 0), mcSuccess);
  ExpectDotOfGraph(path, ReadDot(ReadFile(path)), 1, 0);
}

// The text of the node statement whose label names `word` (normalized).
std::string LabelWith(const DotGraph& dot, const std::string& word) {
  for (const DotNode& node : dot.nodes) {
    auto label = node.attributes.find("label");
    if (label != node.attributes.end() &&
        Normalized(label->second).find(word) != std::string::npos) {
      return label->second;
    }
  }
  return "";
}

TEST_F(Dot, VerboseKernelNodeShowsFunctionAndConfiguration) {
  MX_SPEC("api.graph.debug-dot.verbosity-flags");
  mcKernelNodeParams params = maker_->KernelParams();
  params.gridDim = dim3(13, 1, 1);
  params.blockDim = dim3(37, 1, 1);
  params.sharedMemBytes = 96;
  mcGraphNode_t node = nullptr;
  ASSERT_EQ(mcGraphAddKernelNode(&node, graph_.get(), nullptr, 0, &params),
            mcSuccess);
  const std::string plain_path = Print(0, "plain");
  const std::string verbose_path =
      Print(mcGraphDebugDotFlagsVerbose, "verbose");
  const std::string params_path =
      Print(mcGraphDebugDotFlagsKernelNodeParams, "kernelparams");
  for (const std::string& path : {plain_path, verbose_path, params_path}) {
    ExpectDotOfGraph(path, ReadDot(ReadFile(path)), 1, 0);
  }
  for (const std::string& path : {verbose_path, params_path}) {
    const std::string label = LabelWith(ReadDot(ReadFile(path)), "storevalue");
    EXPECT_FALSE(label.empty()) << ReadFile(path);
    EXPECT_NE(label.find("13"), std::string::npos) << label;
    EXPECT_NE(label.find("37"), std::string::npos) << label;
    EXPECT_NE(label.find("96"), std::string::npos) << label;
  }
  // Control: the plain file gives less.
  EXPECT_LT(ReadFile(plain_path).size(), ReadFile(verbose_path).size());
}

TEST_F(Dot, VerboseMemsetAndMemcpyNodesShowTheirParameters) {
  MX_SPEC("api.graph.debug-dot.verbosity-flags");
  mcMemsetParams memset = maker_->MemsetParams();
  memset.width = 77;
  mcGraphNode_t set = nullptr;
  ASSERT_EQ(mcGraphAddMemsetNode(&set, graph_.get(), nullptr, 0, &memset),
            mcSuccess);
  mcMemcpy3DParms copy = maker_->CopyParams();
  copy.extent = make_mcExtent(123, 1, 1);
  mcGraphNode_t copy_node = nullptr;
  ASSERT_EQ(mcGraphAddMemcpyNode(&copy_node, graph_.get(), &set, 1, &copy),
            mcSuccess);
  for (unsigned flags :
       {static_cast<unsigned>(mcGraphDebugDotFlagsVerbose),
        static_cast<unsigned>(mcGraphDebugDotFlagsMemsetNodeParams |
                              mcGraphDebugDotFlagsMemcpyNodeParams)}) {
    const std::string path = Print(flags, "params" + std::to_string(flags));
    const DotGraph dot = ReadDot(ReadFile(path));
    ExpectDotOfGraph(path, dot, 2, 1);
    EXPECT_NE(LabelWith(dot, "memset").find("77"), std::string::npos)
        << ReadFile(path);
    EXPECT_NE(LabelWith(dot, "memcpy").find("123"), std::string::npos)
        << ReadFile(path);
  }
  const std::string plain = Print(0, "plain");
  ExpectDotOfGraph(plain, ReadDot(ReadFile(plain)), 2, 1);
  EXPECT_LT(
      ReadFile(plain).size(),
      ReadFile(PathFor("params" + std::to_string(mcGraphDebugDotFlagsVerbose)))
          .size());
}

// The reader itself, on text whose reading is known.

TEST(DotReader, ReadsStatementsOfTheGrammar) {
  MX_SPEC("api.graph.debug-dot.writes-file");
  const DotGraph dot = ReadDot(
      "/* comment */ strict digraph \"g\" {\n"
      "  graph [rankdir=LR]; node [shape=box]\n"
      "  a [label=\"say \\\"hi\\\"\" color=red];\n"
      "  b [label=<<b>bold</b>>]\n"
      "  subgraph cluster_1 { label=\"inner\"; c; d -> c }\n"
      "  a -> b -> c [weight=2]; // trailing\n"
      "  e:port:n -> a\n"
      "  f [label=\"one\" + \"two\"]\n"
      "}\n");
  ASSERT_TRUE(dot.error.empty()) << dot.error;
  EXPECT_TRUE(dot.strict);
  EXPECT_TRUE(dot.directed);
  EXPECT_EQ(dot.name, "g");
  ASSERT_EQ(dot.nodes.size(), 4u);
  EXPECT_EQ(dot.nodes[0].attributes.at("label"), "say \"hi\"");
  EXPECT_EQ(dot.nodes[1].attributes.at("label"), "<b>bold</b>");
  EXPECT_EQ(dot.nodes[2].id, "c");
  EXPECT_EQ(dot.nodes[2].depth, 1);
  EXPECT_EQ(dot.nodes[2].subgraph, "cluster_1");
  EXPECT_EQ(dot.nodes[3].attributes.at("label"), "onetwo");
  ASSERT_EQ(dot.edges.size(), 4u);
  EXPECT_EQ(dot.edges[1].from, "a");
  EXPECT_EQ(dot.edges[1].to, "b");
  EXPECT_EQ(dot.edges[2].attributes.at("weight"), "2");
  EXPECT_EQ(dot.edges[3].from, "e");
}

// The count of statements, on the files of a graph root -> child ->
// {tail, other}, root -> other, whose child graph holds one node: 5 nodes
// and 4 dependencies in all, laid out three ways.

// The graph in the file's body, the child graph in a cluster nested in it.
constexpr char kChildNested[] =
    "digraph mcGraph {\n"
    "  n0 [label=\"0: empty\"];\n"
    "  n1 [label=\"1: graph\"];\n"
    "  subgraph cluster_0 {\n"
    "  label=\"n1\";\n"
    "    c0_n0 [label=\"0: empty\"];\n"
    "  }\n"
    "  n2 [label=\"2: empty\"];\n"
    "  n3 [label=\"3: empty\"];\n"
    "  n0 -> n1;\n  n0 -> n3;\n  n1 -> n2;\n  n1 -> n3;\n"
    "}\n";

// The graph and its child graph in clusters side by side, as another
// implementation writes them.
constexpr char kChildBeside[] =
    "digraph dot {\n"
    "subgraph cluster_55 {\n"
    "label=\"graph_55\" graph[style=\"dashed\"];\n"
    "\"graph_55_node_0\"[style=\"solid\" shape=\"rectangle\" label=\"0\n"
    "EMPTY\n\"];\n"
    "\"graph_55_node_1\"[style=\"solid\" shape=\"rectangle\" label=\"1\n"
    "graph_57\n\"];\n"
    "\"graph_55_node_2\"[style=\"solid\" shape=\"rectangle\" label=\"2\n"
    "EMPTY\n\"];\n"
    "\"graph_55_node_3\"[style=\"solid\" shape=\"rectangle\" label=\"3\n"
    "EMPTY\n\"];\n"
    "\"graph_55_node_0\" -> \"graph_55_node_1\";\n"
    "\"graph_55_node_0\" -> \"graph_55_node_3\";\n"
    "\"graph_55_node_1\" -> \"graph_55_node_2\";\n"
    "\"graph_55_node_1\" -> \"graph_55_node_3\";\n"
    "}\n"
    "subgraph cluster_57 {\n"
    "label=\"graph_57\" graph[style=\"dashed\"];\n"
    "\"graph_57_node_0\"[style=\"solid\" shape=\"rectangle\" label=\"0\n"
    "EMPTY\n\"];\n"
    "}\n"
    "}\n";

// The graph in a cluster, the child graph in a cluster nested in that.
constexpr char kAllInClusters[] =
    "digraph {\n"
    "  subgraph cluster_g { a; b; c; d;\n"
    "    subgraph cluster_child { x }\n"
    "    a -> b; a -> d; b -> c; b -> d }\n"
    "}\n";

// `text` with the first occurrence of `piece` removed.
std::string Without(const std::string& text, const std::string& piece) {
  const size_t at = text.find(piece);
  EXPECT_NE(at, std::string::npos) << piece;
  if (at == std::string::npos) return text;
  return text.substr(0, at) + text.substr(at + piece.size());
}

TEST(DotStatements, CountsEveryStatementWhateverTheLayout) {
  MX_SPEC("api.graph.debug-dot.writes-file");
  for (const char* text : {kChildNested, kChildBeside, kAllInClusters}) {
    EXPECT_EQ(StatementProblems(ReadDot(text), 5, 4), "") << text;
  }
}

TEST(DotStatements, RefusesAFileMissingANodeOrAnEdge) {
  MX_SPEC("api.graph.debug-dot.writes-file");
  // The child graph's node, one of the graph's nodes, one edge.
  const std::string missing[] = {
      Without(kChildNested, "    c0_n0 [label=\"0: empty\"];\n"),
      Without(kChildNested, "  n2 [label=\"2: empty\"];\n"),
      Without(kChildNested, "  n0 -> n3;\n"),
      Without(kChildBeside,
              "\"graph_57_node_0\"[style=\"solid\" shape=\"rectangle\" "
              "label=\"0\nEMPTY\n\"];\n"),
      Without(kChildBeside, "\"graph_55_node_1\" -> \"graph_55_node_3\";\n"),
      Without(kAllInClusters, " x "),
      Without(kAllInClusters, " b -> d"),
  };
  for (const std::string& text : missing) {
    EXPECT_NE(StatementProblems(ReadDot(text), 5, 4), "") << text;
  }
  // A node stated twice, an edge to a node never stated.
  EXPECT_NE(StatementProblems(
                ReadDot("digraph { a; b; c; a; x; a -> b; b -> c; a -> c; "
                        "c -> x }"),
                5, 4),
            "");
  EXPECT_NE(StatementProblems(
                ReadDot("digraph { a; b; c; d; x; a -> b; b -> c; a -> d; "
                        "d -> y }"),
                5, 4),
            "");
}

TEST(DotReader, RefusesTextThatIsNoDotGraph) {
  MX_SPEC("api.graph.debug-dot.writes-file");
  for (const char* bad :
       {"", "digraph {", "digraph { a -- b }", "graph { a -> b }",
        "digraph { a [label=\"open }", "digraph { a -> }", "tree { a }",
        "digraph { a } extra"}) {
    EXPECT_FALSE(ReadDot(bad).error.empty()) << bad;
  }
  // Control: the smallest graphs are read.
  EXPECT_TRUE(ReadDot("digraph {}").error.empty());
  EXPECT_TRUE(ReadDot("graph G { a -- b }").error.empty());
}

}  // namespace
}  // namespace mxcts::conformance::graph
