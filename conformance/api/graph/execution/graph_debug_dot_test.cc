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

// What the test checks of every file: the reader accepts it, it declares
// `nodes` distinct nodes and has `edges` edges between declared nodes; and
// `dot` accepts it where there is a `dot`.
void ExpectDotOfGraph(const std::string& path, const DotGraph& dot,
                      size_t nodes, size_t edges) {
  ASSERT_TRUE(dot.error.empty()) << dot.error << "\n" << ReadFile(path);
  EXPECT_TRUE(dot.directed);
  EXPECT_EQ(dot.nodes.size(), nodes) << ReadFile(path);
  std::set<std::string> ids;
  for (const DotNode& node : dot.nodes) ids.insert(node.id);
  EXPECT_EQ(ids.size(), dot.nodes.size()) << "a node is declared twice";
  EXPECT_EQ(dot.edges.size(), edges) << ReadFile(path);
  for (const DotEdge& edge : dot.edges) {
    EXPECT_TRUE(ids.count(edge.from)) << edge.from;
    EXPECT_TRUE(ids.count(edge.to)) << edge.to;
  }
  const std::string program = DotProgram();
  if (program.empty()) {
    testing::Test::RecordProperty("graphviz", "absent");
    return;
  }
  std::string diagnostics;
  EXPECT_TRUE(DotAccepts(program, path, &diagnostics)) << diagnostics << "\n"
                                                       << ReadFile(path);
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
  if (kind() == NodeKind::kChildGraph) {
    // The child's nodes may be drawn inside a subgraph: the shallowest
    // node statements are the graph's own nodes, and the edges between
    // them its edges (the whole graph may be drawn in a subgraph too).
    ExpectDotOfGraph(path, dot, dot.nodes.size(), dot.edges.size());
    EXPECT_EQ(dot.OwnNodes().size(), NodeCount(graph_.get())) << ReadFile(path);
    EXPECT_EQ(dot.OwnEdges().size(), EdgeCount(graph_.get())) << ReadFile(path);
  } else {
    ExpectDotOfGraph(path, dot, NodeCount(graph_.get()),
                     EdgeCount(graph_.get()));
  }
  // Each kind of node in the graph is named in as many labels.
  std::map<mcGraphNodeType, size_t> kinds;
  for (mcGraphNode_t each : Nodes(graph_.get())) ++kinds[NodeType(each)];
  for (const auto& [type, count] : kinds) {
    size_t labelled = 0;
    for (const DotNode& statement : dot.OwnNodes()) {
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
