// Copyright mxcts authors.
//
// reference/runtime/graphs/graph_exec.h: executable graphs: instantiation,
// launch into a stream, whole-graph and per-node updates, and enabling
// nodes.
//
// An executable graph is a snapshot: its nodes are copies of the graph's,
// each memcpy and memset planned (checked against the memory that exists)
// at instantiation, in an order that puts every node after its
// dependencies. A launch is one command of the stream's timeline queue
// (timeline.h): it waits for what the graph's event wait nodes wait for and
// for the previous launch of the same executable graph
// [api.graph.launch.same-exec-launches-serialize], and when the timeline
// runs it, it runs the enabled nodes one after another: in that order, or
// in the shuffle timeline mode in a seeded random order the edges permit
// [api.graph.launch.runs-all-nodes-respecting-edges]. An event record node
// makes its event stand for the end of the launch's command. A change to an
// executable graph copies the snapshot first, so launches already enqueued
// keep the parameters they were launched with
// [api.graph.exec-node-set.updates-one-node].
//
//   absl::StatusOr<MCgraphExec_st*> exec = Instantiate(*graph, 0, &failed);
//   LaunchExec(**exec, stream);

#ifndef MXCTS_REFERENCE_RUNTIME_GRAPHS_GRAPH_EXEC_H_
#define MXCTS_REFERENCE_RUNTIME_GRAPHS_GRAPH_EXEC_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "mc_runtime_api.h"
#include "reference/runtime/graphs/graph.h"
#include "reference/runtime/memory/memory_copy.h"
#include "reference/runtime/timeline/timeline.h"

namespace mxcts::runtime {

struct ExecGraph;

// One node of an executable graph.
struct ExecNode {
  // The node of the instantiated graph this one copies: the handle the
  // per-node calls name. Compared, never read: that graph may be gone.
  const MCgraphNode_st* origin = nullptr;
  NodeParams params;
  bool enabled = true;  // [api.graph.enable.get-enabled]
  // Positions in ExecGraph::nodes of the nodes this one depends on.
  std::vector<size_t> dependencies;
  // The plans of a memcpy or memset node.
  std::optional<CopyPlan> copy;
  std::optional<SetPlan> set;
  // A child graph node's own executable graph.
  std::shared_ptr<ExecGraph> child;
};

struct ExecGraph {
  // Every node after its dependencies.
  std::vector<ExecNode> nodes;
  // The instantiated graph's nodes in addition order, as positions in
  // `nodes`: what an update matches the new graph's nodes against.
  std::vector<size_t> by_sequence;
};

}  // namespace mxcts::runtime

// The object behind an mcGraphExec_t.
struct MCgraphExec_st {
  std::shared_ptr<const mxcts::runtime::ExecGraph> graph;
  unsigned long long flags = 0;
  // The end of the last launch: the next one waits for it.
  mxcts::runtime::Point last_launch;
  uint64_t launches = 0;
};

namespace mxcts::runtime {

// What a failed instantiation or update names.
struct GraphFailure {
  const MCgraphNode_st* node = nullptr;  // the node at fault, if one is
  std::string message;
};

// Instantiates `graph` with `flags` (checked by the caller). On failure,
// `failure` names the node and says why.
// [api.graph.instantiate.creates-exec]
absl::StatusOr<MCgraphExec_st*> Instantiate(const MCgraph_st& graph,
                                            unsigned long long flags,
                                            GraphFailure* failure);

// The live executable graphs of the process.
class ExecTable {
 public:
  static ExecTable& Get();
  void Register(MCgraphExec_st* exec);
  // Forgets and frees `exec`; its enqueued launches keep their snapshot.
  void Destroy(MCgraphExec_st* exec);
  // The live executable graph `exec`; mcErrorInvalidValue otherwise.
  absl::StatusOr<MCgraphExec_st*> Find(mcGraphExec_t exec) const;

 private:
  ExecTable() = default;
  mutable absl::Mutex mu_;
  absl::flat_hash_set<const MCgraphExec_st*> execs_ ABSL_GUARDED_BY(mu_);
};

// Enqueues one launch of `exec` into `queue` (a resolved stream's queue;
// the caller holds the execution lock) and returns the point after it.
// mcErrorInvalidValue, enqueuing nothing, if a memory allocation node's
// memory is still outstanding from an earlier launch (unless `exec` was
// instantiated with mcGraphInstantiateFlagAutoFreeOnLaunch, which frees
// it), or a memory free node's memory is not allocated.
// [api.graph.mem-alloc-node.unfreed-memory-persists]
absl::StatusOr<Point> EnqueueLaunch(MCgraphExec_st& exec, Queue* queue);

// The outcome of mcGraphExecUpdate.
struct UpdateOutcome {
  mcGraphExecUpdateResult result = mcGraphExecUpdateSuccess;
  const MCgraphNode_st* node = nullptr;  // the graph's node at fault
  std::string message;
};

// Copies the parameters of `graph`'s nodes into `exec` if `graph` has the
// topology of the graph `exec` was instantiated from and every change is
// allowed; otherwise leaves `exec` as it was and says why.
// [api.graph.exec-update.same-topology-succeeds]
// [api.graph.exec-update.topology-change-fails]
// [api.graph.exec-update.failure-result-codes]
UpdateOutcome UpdateExec(MCgraphExec_st& exec, const MCgraph_st& graph);

// Replaces the parameters of the node of `exec` that copies `node` with
// `params` (of the same kind, checked). mcErrorInvalidValue if `exec` has
// no such node, it is of another kind, or the change is one an update
// refuses; mcErrorGraphExecUpdateFailure for a child graph of another
// topology. [api.graph.exec-node-set.updates-one-node]
absl::Status SetExecNodeParams(MCgraphExec_st& exec, const MCgraphNode_st* node,
                               const NodeParams& params);

// Enables or disables the kernel, memcpy or memset node of `exec` that
// copies `node`, or reads whether it is enabled. mcErrorInvalidValue for
// another kind or a node `exec` lacks.
// [api.graph.enable.disabled-node-acts-as-empty]
absl::Status SetNodeEnabled(MCgraphExec_st& exec, const MCgraphNode_st* node,
                            bool enabled);
absl::StatusOr<bool> NodeEnabled(const MCgraphExec_st& exec,
                                 const MCgraphNode_st* node);

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_GRAPHS_GRAPH_EXEC_H_
