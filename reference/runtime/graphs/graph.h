// Copyright mxcts authors.
//
// reference/runtime/graphs/graph.h: graphs and their nodes, as built by the
// mcGraphAdd* calls and by stream capture.
//
// A graph owns its nodes; a node knows its graph, its kind, its parameters
// (node_params.h) and its edges in both directions, in the order they were
// made. Nodes keep the order they were added in (`sequence`), which is the
// order queries report them in and the order mcGraphExecUpdate matches
// nodes by [api.graph.exec-update.same-topology-succeeds].
//
// Handles are checked by lookup in the GraphTable before anything reads
// them; a destroyed graph's or node's handle is forgotten, so a stale one
// is refused as invalid rather than read
// [api.graph.destroy.use-after-destroy-undefined]. Graph objects are not
// thread safe [api.graph.thread-safety.not-thread-safe]; the table is.
//
//   GraphTable& graphs = GraphTable::Get();
//   MCgraph_st* graph = graphs.Create();
//   absl::StatusOr<MCgraphNode_st*> node =
//       graph->AddNode(NodeParams::Empty(), {});

#ifndef MXCTS_REFERENCE_RUNTIME_GRAPHS_GRAPH_H_
#define MXCTS_REFERENCE_RUNTIME_GRAPHS_GRAPH_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "mc_runtime_api.h"
#include "reference/runtime/graphs/node_params.h"

// The object behind an mcGraphNode_t (declared, opaque, in the public
// header).
struct MCgraphNode_st {
  MCgraph_st* graph = nullptr;
  uint64_t sequence = 0;  // order of addition within the graph
  mxcts::runtime::NodeParams params;
  std::vector<MCgraphNode_st*> dependencies;  // edges into this node
  std::vector<MCgraphNode_st*> dependents;    // edges out of it
};

// The object behind an mcGraph_t.
struct MCgraph_st {
  // The nodes, in the order they were added.
  std::vector<std::unique_ptr<MCgraphNode_st>> nodes;
  uint64_t next_sequence = 0;
  // Set on a graph made by mcGraphClone: the graph it copies, and which
  // original node each of its nodes copies (by index into `nodes`).
  const MCgraph_st* cloned_from = nullptr;
  std::vector<const MCgraphNode_st*> originals;
  // The graph of a child graph node (mcGraphChildGraphNodeGetGraph): its
  // node owns it, so the program may not destroy it.
  bool owned_by_node = false;
};

namespace mxcts::runtime {

// One edge: from -> to.
struct Edge {
  MCgraphNode_st* from;
  MCgraphNode_st* to;
};

// The live graphs and nodes of the process.
class GraphTable {
 public:
  static GraphTable& Get();

  // A new empty graph, registered.
  MCgraph_st* Create();
  // Forgets and frees `graph` and its nodes.
  void Destroy(MCgraph_st* graph);
  // The live graph `graph`; mcErrorInvalidValue for null or a handle that
  // is not a live graph (`what` names it in the message).
  absl::StatusOr<MCgraph_st*> Find(mcGraph_t graph, const char* what) const;
  // The live node `node`; mcErrorInvalidValue otherwise.
  absl::StatusOr<MCgraphNode_st*> FindNode(mcGraphNode_t node,
                                           const char* what) const;
  // Registers a node added to a registered graph, or forgets a removed one
  // (with the child graph it holds).
  void RegisterNode(MCgraphNode_st* node);
  void ForgetNode(MCgraphNode_st* node);
  // Registers a graph built outside the table (a child graph's copy or a
  // clone) with its nodes.
  void Adopt(MCgraph_st* graph);
  // Unregisters `graph` and its nodes without freeing them (a child graph
  // node keeps its copy; the copy's handle is the node's, not the
  // program's to destroy).
  void Release(MCgraph_st* graph);

 private:
  GraphTable() = default;
  // Registers (`live`) or forgets `graph`, its nodes and its child graphs.
  void Register(MCgraph_st* graph, bool live)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  mutable absl::Mutex mu_;
  absl::flat_hash_set<const MCgraph_st*> graphs_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_set<const MCgraphNode_st*> nodes_ ABSL_GUARDED_BY(mu_);
};

// Adds a node with `params` to `graph` (registered), depending on
// `dependencies`: each a live node of `graph`, none twice, else
// mcErrorInvalidValue and nothing is added.
// [api.graph.node.dependencies-become-edges]
// [api.graph.node.dependency-from-other-graph-invalid-value]
// [api.graph.node.duplicate-dependency-invalid-value]
absl::StatusOr<MCgraphNode_st*> AddNode(
    MCgraph_st& graph, NodeParams params,
    const std::vector<MCgraphNode_st*>& dependencies);

// Checks `dependencies` (count entries at `array`) for AddNode: resolves
// each handle. mcErrorInvalidValue for a null array with a nonzero count,
// a handle that is not a live node of `graph`, or a node listed twice.
absl::StatusOr<std::vector<MCgraphNode_st*>> CheckDependencies(
    const MCgraph_st& graph, const mcGraphNode_t* array, size_t count);

// Adds the edges (all or none). mcErrorInvalidValue for an edge between
// nodes not both of `graph`, a self edge, an edge that exists or is listed
// twice, or edges that would close a cycle.
// [api.graph.add-dependencies.adds-edges]
// [api.graph.add-dependencies.existing-edge-invalid-value]
absl::Status AddEdges(MCgraph_st& graph, const std::vector<Edge>& edges);
// Removes the edges (all or none). mcErrorInvalidValue if one does not
// exist. [api.graph.remove-dependencies.removes-edges]
absl::Status RemoveEdges(MCgraph_st& graph, const std::vector<Edge>& edges);
// Every edge of `graph`, by source node order, then by the order edges
// into the target were made.
std::vector<Edge> EdgesOf(const MCgraph_st& graph);
// Removes `node` and its edges from its graph, and frees it.
// [api.graph.destroy-node.removes-node-and-edges]
void DestroyNode(MCgraphNode_st* node);

// A copy of `graph` (unregistered): nodes in the same order with copies of
// their parameters, and the same edges; `originals` filled.
// [api.graph.clone.independent-copy]
std::unique_ptr<MCgraph_st> CopyGraph(const MCgraph_st& graph);

// The nodes of `graph` in an order that puts every node after its
// dependencies: by addition order where the edges allow. The graph has no
// cycle (AddEdges refuses them).
std::vector<MCgraphNode_st*> TopologicalOrder(const MCgraph_st& graph);

// True if `ancestor` is `node` or reaches it through edges.
bool Reaches(const MCgraphNode_st* ancestor, const MCgraphNode_st* node);

// True if `graph`, or a child graph inside it, holds a node of `type`.
bool HoldsNodeOfType(const MCgraph_st& graph, mcGraphNodeType type);

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_GRAPHS_GRAPH_H_
