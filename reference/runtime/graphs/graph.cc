// Copyright mxcts authors.
//
// Graphs, nodes and edges (graph.h). Graphs are small enough that every
// check walks the nodes: a cycle check is a search from the new edges'
// targets.
//
// Tested by graph_test.cc and the conformance tests of api-graph.md.

#include "reference/runtime/graphs/graph.h"

#include <algorithm>
#include <map>
#include <queue>
#include <utility>

#include "absl/strings/str_format.h"
#include "reference/runtime/errors/error_mapping.h"
#include "reference/runtime/errors/status_macros.h"

namespace mxcts::runtime {
namespace {

absl::Status Invalid(const std::string& message) {
  return McStatus(mcErrorInvalidValue, message);
}

bool HasEdge(const MCgraphNode_st* from, const MCgraphNode_st* to) {
  return std::find(from->dependents.begin(), from->dependents.end(), to) !=
         from->dependents.end();
}

void Erase(std::vector<MCgraphNode_st*>& nodes, const MCgraphNode_st* node) {
  nodes.erase(std::remove(nodes.begin(), nodes.end(), node), nodes.end());
}

}  // namespace

GraphTable& GraphTable::Get() {
  static GraphTable* table = new GraphTable();
  return *table;
}

MCgraph_st* GraphTable::Create() {
  auto* graph = new MCgraph_st();
  absl::MutexLock lock(&mu_);
  graphs_.insert(graph);
  return graph;
}

void GraphTable::Destroy(MCgraph_st* graph) {
  Release(graph);
  delete graph;
}

void GraphTable::Release(MCgraph_st* graph) {
  absl::MutexLock lock(&mu_);
  Register(graph, false);
}

void GraphTable::Adopt(MCgraph_st* graph) {
  absl::MutexLock lock(&mu_);
  Register(graph, true);
}

void GraphTable::Register(MCgraph_st* graph, bool live) {
  // A child graph node's graph has a handle too
  // (mcGraphChildGraphNodeGetGraph): it lives and dies with its node.
  if (live) {
    graphs_.insert(graph);
  } else {
    graphs_.erase(graph);
  }
  for (const auto& node : graph->nodes) {
    if (live) {
      nodes_.insert(node.get());
    } else {
      nodes_.erase(node.get());
    }
    if (node->params.type() == mcGraphNodeTypeGraph) {
      Register(node->params.child_graph(), live);
    }
  }
}

absl::StatusOr<MCgraph_st*> GraphTable::Find(mcGraph_t graph,
                                             const char* what) const {
  if (graph == nullptr) return Invalid(absl::StrFormat("%s is null", what));
  absl::MutexLock lock(&mu_);
  if (!graphs_.contains(graph)) {
    return Invalid(absl::StrFormat("%s %p is not a live graph", what, graph));
  }
  return graph;
}

absl::StatusOr<MCgraphNode_st*> GraphTable::FindNode(mcGraphNode_t node,
                                                     const char* what) const {
  if (node == nullptr) return Invalid(absl::StrFormat("%s is null", what));
  absl::MutexLock lock(&mu_);
  if (!nodes_.contains(node)) {
    return Invalid(
        absl::StrFormat("%s %p is not a live graph node", what, node));
  }
  return node;
}

void GraphTable::RegisterNode(MCgraphNode_st* node) {
  absl::MutexLock lock(&mu_);
  nodes_.insert(node);
  if (node->params.type() == mcGraphNodeTypeGraph) {
    Register(node->params.child_graph(), true);
  }
}

void GraphTable::ForgetNode(MCgraphNode_st* node) {
  absl::MutexLock lock(&mu_);
  nodes_.erase(node);
  if (node->params.type() == mcGraphNodeTypeGraph) {
    Register(node->params.child_graph(), false);
  }
}

absl::StatusOr<std::vector<MCgraphNode_st*>> CheckDependencies(
    const MCgraph_st& graph, const mcGraphNode_t* array, size_t count) {
  std::vector<MCgraphNode_st*> nodes;
  if (count == 0) return nodes;
  if (array == nullptr) {
    // [api.graph.node.null-dependencies-with-count-invalid-value]
    return Invalid(absl::StrFormat(
        "the dependency array is null but its count is %u", count));
  }
  GraphTable& table = GraphTable::Get();
  for (size_t i = 0; i < count; ++i) {
    MX_ASSIGN_OR_RETURN(MCgraphNode_st * node,
                        table.FindNode(array[i], "a dependency"));
    if (node->graph != &graph) {
      // [api.graph.node.dependency-from-other-graph-invalid-value]
      return Invalid(absl::StrFormat(
          "dependency %u (%p) is a node of another graph", i, node));
    }
    if (std::find(nodes.begin(), nodes.end(), node) != nodes.end()) {
      // [api.graph.node.duplicate-dependency-invalid-value]
      return Invalid(
          absl::StrFormat("dependency %u (%p) is listed twice", i, node));
    }
    nodes.push_back(node);
  }
  return nodes;
}

absl::StatusOr<MCgraphNode_st*> AddNode(
    MCgraph_st& graph, NodeParams params,
    const std::vector<MCgraphNode_st*>& dependencies) {
  auto node = std::make_unique<MCgraphNode_st>();
  node->graph = &graph;
  node->sequence = graph.next_sequence++;
  node->params = std::move(params);
  // [api.graph.node.dependencies-become-edges]
  for (MCgraphNode_st* dependency : dependencies) {
    node->dependencies.push_back(dependency);
    dependency->dependents.push_back(node.get());
  }
  MCgraphNode_st* added = node.get();
  graph.nodes.push_back(std::move(node));
  GraphTable::Get().RegisterNode(added);
  return added;
}

bool Reaches(const MCgraphNode_st* ancestor, const MCgraphNode_st* node) {
  std::vector<const MCgraphNode_st*> stack{ancestor};
  std::vector<const MCgraphNode_st*> seen;
  while (!stack.empty()) {
    const MCgraphNode_st* at = stack.back();
    stack.pop_back();
    if (at == node) return true;
    if (std::find(seen.begin(), seen.end(), at) != seen.end()) continue;
    seen.push_back(at);
    for (const MCgraphNode_st* next : at->dependents) stack.push_back(next);
  }
  return false;
}

absl::Status AddEdges(MCgraph_st& graph, const std::vector<Edge>& edges) {
  for (size_t i = 0; i < edges.size(); ++i) {
    const Edge& edge = edges[i];
    if (edge.from->graph != &graph || edge.to->graph != &graph) {
      // [api.graph.add-dependencies.foreign-node-invalid-value]
      return Invalid(
          absl::StrFormat("edge %u joins a node of another graph", i));
    }
    if (edge.from == edge.to) {
      return Invalid(
          absl::StrFormat("edge %u joins node %p to itself", i, edge.from));
    }
    bool listed_before = false;
    for (size_t j = 0; j < i; ++j) {
      listed_before |= edges[j].from == edge.from && edges[j].to == edge.to;
    }
    if (HasEdge(edge.from, edge.to) || listed_before) {
      // [api.graph.add-dependencies.existing-edge-invalid-value]
      return Invalid(
          absl::StrFormat("the edge %p -> %p exists", edge.from, edge.to));
    }
  }
  for (const Edge& edge : edges) {
    edge.from->dependents.push_back(edge.to);
    edge.to->dependencies.push_back(edge.from);
  }
  // A cycle now passes through one of the new edges: undo them all.
  for (const Edge& edge : edges) {
    if (Reaches(edge.to, edge.from)) {
      for (const Edge& undo : edges) {
        Erase(undo.from->dependents, undo.to);
        Erase(undo.to->dependencies, undo.from);
      }
      return Invalid(absl::StrFormat("the edge %p -> %p closes a cycle",
                                     edge.from, edge.to));
    }
  }
  return absl::OkStatus();
}

absl::Status RemoveEdges(MCgraph_st& graph, const std::vector<Edge>& edges) {
  for (size_t i = 0; i < edges.size(); ++i) {
    const Edge& edge = edges[i];
    if (edge.from->graph != &graph || edge.to->graph != &graph ||
        !HasEdge(edge.from, edge.to)) {
      // [api.graph.remove-dependencies.missing-edge-invalid-value]
      return Invalid(
          absl::StrFormat("edge %u (%p -> %p) is not an edge of "
                          "the graph",
                          i, edge.from, edge.to));
    }
  }
  for (const Edge& edge : edges) {
    Erase(edge.from->dependents, edge.to);
    Erase(edge.to->dependencies, edge.from);
  }
  return absl::OkStatus();
}

std::vector<Edge> EdgesOf(const MCgraph_st& graph) {
  std::vector<Edge> edges;
  for (const auto& node : graph.nodes) {
    for (MCgraphNode_st* to : node->dependents) {
      edges.push_back(Edge{node.get(), to});
    }
  }
  return edges;
}

void DestroyNode(MCgraphNode_st* node) {
  MCgraph_st& graph = *node->graph;
  for (MCgraphNode_st* from : node->dependencies) Erase(from->dependents, node);
  for (MCgraphNode_st* to : node->dependents) Erase(to->dependencies, node);
  GraphTable::Get().ForgetNode(node);
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    if (graph.nodes[i].get() != node) continue;
    if (!graph.originals.empty()) {
      graph.originals.erase(graph.originals.begin() + i);
    }
    graph.nodes.erase(graph.nodes.begin() + i);
    return;
  }
}

std::unique_ptr<MCgraph_st> CopyGraph(const MCgraph_st& graph) {
  auto copy = std::make_unique<MCgraph_st>();
  copy->next_sequence = graph.next_sequence;
  std::map<const MCgraphNode_st*, MCgraphNode_st*> copies;
  for (const auto& node : graph.nodes) {
    auto twin = std::make_unique<MCgraphNode_st>();
    twin->graph = copy.get();
    twin->sequence = node->sequence;
    twin->params = node->params;
    if (node->params.type() == mcGraphNodeTypeGraph) {
      // A child graph is part of its node: the copy gets its own.
      twin->params = NodeParams::ChildGraph(
          std::shared_ptr<MCgraph_st>(CopyGraph(*node->params.child_graph())));
    }
    copies[node.get()] = twin.get();
    copy->originals.push_back(node.get());
    copy->nodes.push_back(std::move(twin));
  }
  for (const auto& node : graph.nodes) {
    MCgraphNode_st* twin = copies[node.get()];
    for (const MCgraphNode_st* from : node->dependencies) {
      twin->dependencies.push_back(copies[from]);
    }
    for (const MCgraphNode_st* to : node->dependents) {
      twin->dependents.push_back(copies[to]);
    }
  }
  copy->cloned_from = &graph;
  return copy;
}

std::vector<MCgraphNode_st*> TopologicalOrder(const MCgraph_st& graph) {
  // Kahn's algorithm, taking ready nodes in addition order.
  std::map<const MCgraphNode_st*, size_t> waiting;
  std::map<uint64_t, MCgraphNode_st*> ready;
  for (const auto& node : graph.nodes) {
    waiting[node.get()] = node->dependencies.size();
    if (node->dependencies.empty()) ready[node->sequence] = node.get();
  }
  std::vector<MCgraphNode_st*> order;
  while (!ready.empty()) {
    MCgraphNode_st* node = ready.begin()->second;
    ready.erase(ready.begin());
    order.push_back(node);
    for (MCgraphNode_st* next : node->dependents) {
      if (--waiting[next] == 0) ready[next->sequence] = next;
    }
  }
  return order;
}

bool HoldsNodeOfType(const MCgraph_st& graph, mcGraphNodeType type) {
  for (const auto& node : graph.nodes) {
    if (node->params.type() == type) return true;
    if (node->params.type() == mcGraphNodeTypeGraph &&
        HoldsNodeOfType(*node->params.child_graph(), type)) {
      return true;
    }
  }
  return false;
}

}  // namespace mxcts::runtime
