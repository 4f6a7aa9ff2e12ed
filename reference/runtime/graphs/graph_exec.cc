// Copyright mxcts authors.
//
// Executable graphs (graph_exec.h): instantiation, launch, update and
// enabling.
//
// Tested by graph_exec_test.cc and the conformance tests of api-graph.md.

#include "reference/runtime/graphs/graph_exec.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
#include <string>
#include <utility>

#include "absl/strings/str_format.h"
#include "reference/device/scheduling/splitmix64.h"
#include "reference/runtime/errors/error_mapping.h"
#include "reference/runtime/errors/status_macros.h"
#include "reference/runtime/pools/stream_ordered_allocation.h"
#include "reference/runtime/timeline/device_work.h"
#include "reference/runtime/timeline/event.h"

namespace mxcts::runtime {
namespace {

// Plans the copy or set of a memcpy or memset node: checked against the
// memory that exists now.
absl::Status PlanNode(ExecNode& node) {
  switch (node.params.type()) {
    case mcGraphNodeTypeMemcpy: {
      MX_ASSIGN_OR_RETURN(CopyPlan plan, PlanMemcpyNode(node.params.memcpy()));
      node.copy = plan;
      return absl::OkStatus();
    }
    case mcGraphNodeTypeMemset: {
      MX_ASSIGN_OR_RETURN(SetPlan plan, PlanMemsetNode(node.params.memset()));
      node.set = plan;
      return absl::OkStatus();
    }
    default:
      return absl::OkStatus();
  }
}

absl::StatusOr<std::shared_ptr<ExecGraph>> Snapshot(const MCgraph_st& graph,
                                                    GraphFailure* failure) {
  std::vector<MCgraphNode_st*> order = TopologicalOrder(graph);
  if (order.size() != graph.nodes.size()) {
    // [api.graph.instantiate.cycle-invalid-value]
    failure->message = "the graph has a cycle";
    return McStatus(mcErrorInvalidValue, failure->message);
  }
  auto exec = std::make_shared<ExecGraph>();
  std::map<const MCgraphNode_st*, size_t> position;
  for (MCgraphNode_st* node : order) {
    ExecNode copy;
    copy.origin = node;
    copy.params = node->params;
    for (const MCgraphNode_st* from : node->dependencies) {
      copy.dependencies.push_back(position.at(from));
    }
    absl::Status planned = PlanNode(copy);
    if (planned.ok() && node->params.type() == mcGraphNodeTypeGraph) {
      absl::StatusOr<std::shared_ptr<ExecGraph>> child =
          Snapshot(*node->params.child_graph(), failure);
      if (child.ok()) {
        copy.child = *std::move(child);
      } else {
        planned = child.status();
      }
    }
    if (!planned.ok()) {
      if (failure->node == nullptr) {
        failure->node = node;
        failure->message =
            absl::StrFormat("the %s node %p: %s", node->params.type_name(),
                            node, planned.message());
      }
      return planned;
    }
    position[node] = exec->nodes.size();
    exec->nodes.push_back(std::move(copy));
  }
  for (const auto& node : graph.nodes) {
    exec->by_sequence.push_back(position.at(node.get()));
  }
  return exec;
}

// The event records one launch makes: one per event record node, made
// when the launch is enqueued (the event stands for the launch's end from
// then on), timestamped when the node runs.
using LaunchRecords = std::map<const ExecNode*, std::shared_ptr<MCeventRecord>>;

void CollectEventNodes(const ExecGraph& graph, Point end,
                       LaunchRecords& records, std::vector<Point>& waits) {
  for (const ExecNode& node : graph.nodes) {
    switch (node.params.type()) {
      case mcGraphNodeTypeEventRecord: {
        absl::StatusOr<MCevent_st*> event =
            EventTable::Get().Find(node.params.event());
        if (!event.ok()) break;  // destroyed since: nothing to record
        auto record = std::make_shared<MCeventRecord>();
        record->point = end;
        (*event)->record = record;  // [api.event.record.rerecord-overwrites]
        records[&node] = record;
        break;
      }
      case mcGraphNodeTypeWaitEvent: {
        absl::StatusOr<MCevent_st*> event =
            EventTable::Get().Find(node.params.event());
        if (!event.ok()) break;
        // [api.graph.event-wait-node.waits]: the record made before the
        // launch.
        EventTarget target = TargetOf(**event);
        if (target.recorded && target.local()) waits.push_back(target.point);
        break;
      }
      case mcGraphNodeTypeGraph:
        CollectEventNodes(*node.child, end, records, waits);
        break;
      default:
        break;
    }
  }
}

// The order one launch runs `graph`'s nodes in: positions into
// graph.nodes. Without `random`, the snapshot's order; with it, a random
// order the edges permit.
std::vector<size_t> RunOrder(const ExecGraph& graph, SplitMix64* random) {
  const size_t n = graph.nodes.size();
  std::vector<size_t> order;
  order.reserve(n);
  if (random == nullptr) {
    for (size_t i = 0; i < n; ++i) order.push_back(i);
    return order;
  }
  std::vector<size_t> waiting(n);
  std::vector<std::vector<size_t>> dependents(n);
  std::vector<size_t> ready;
  for (size_t i = 0; i < n; ++i) {
    waiting[i] = graph.nodes[i].dependencies.size();
    for (size_t from : graph.nodes[i].dependencies)
      dependents[from].push_back(i);
    if (waiting[i] == 0) ready.push_back(i);
  }
  while (!ready.empty()) {
    const size_t pick = random->Below(ready.size());
    const size_t node = ready[pick];
    ready.erase(ready.begin() + pick);
    order.push_back(node);
    for (size_t next : dependents[node]) {
      if (--waiting[next] == 0) ready.push_back(next);
    }
  }
  return order;
}

// Runs one launch of `graph` (execution lock held). Stops at the first
// node that fails, with its error.
mcError_t RunGraph(const ExecGraph& graph, const LaunchRecords& records,
                   SplitMix64* random) {
  for (size_t position : RunOrder(graph, random)) {
    const ExecNode& node = graph.nodes[position];
    // [api.graph.enable.disabled-node-acts-as-empty]
    if (!node.enabled) continue;
    mcError_t result = mcSuccess;
    switch (node.params.type()) {
      case mcGraphNodeTypeKernel:
        result = node.params.launch()->Work()();
        break;
      case mcGraphNodeTypeMemcpy:
        RunCopy(*node.copy);
        break;
      case mcGraphNodeTypeMemset:
        RunSet(*node.set);
        break;
      case mcGraphNodeTypeHost: {
        // [api.graph.host-node.runtime-calls-forbidden]
        const mcHostNodeParams host = node.params.host();
        RunHostFunction([host] { host.fn(host.userData); });
        break;
      }
      case mcGraphNodeTypeGraph:
        result = RunGraph(*node.child, records, random);
        break;
      case mcGraphNodeTypeEventRecord: {
        auto record = records.find(&node);
        if (record != records.end()) {
          record->second->completed_at = std::chrono::steady_clock::now();
        }
        break;
      }
      case mcGraphNodeTypeMemFree: {
        // A stream-ordered allocation is freed where the node runs; a
        // graph allocation's state changed when the launch was enqueued.
        if (GraphMemory::Get().Find(node.params.freed()) != nullptr) break;
        absl::StatusOr<Allocation> allocation =
            FindStreamOrdered(node.params.freed(), "memory free node");
        if (!allocation.ok()) return mcErrorInvalidValue;
        FreeAtOnce(*allocation);
        break;
      }
      default:  // empty, event wait and memory allocation nodes: their
                // order is all they do
        break;
    }
    if (result != mcSuccess) return result;
  }
  return mcSuccess;
}

// The executable graph's nodes, copied for a change: launches already
// enqueued keep the old snapshot.
std::shared_ptr<ExecGraph> CopyForChange(const MCgraphExec_st& exec) {
  return std::make_shared<ExecGraph>(*exec.graph);
}

const ExecNode* FindExecNode(const ExecGraph& graph,
                             const MCgraphNode_st* node) {
  for (const ExecNode& candidate : graph.nodes) {
    if (candidate.origin == node) return &candidate;
  }
  return nullptr;
}

ExecNode* FindExecNode(ExecGraph& graph, const MCgraphNode_st* node) {
  return const_cast<ExecNode*>(
      FindExecNode(static_cast<const ExecGraph&>(graph), node));
}

// Why `graph` cannot update `exec_graph` on topology grounds, or
// mcGraphExecUpdateSuccess: the same number of nodes, of the same kinds in
// addition order, with the same edges (child graphs compared likewise).
UpdateOutcome CompareTopology(const ExecGraph& exec_graph,
                              const MCgraph_st& graph,
                              const MCgraphNode_st* child_node) {
  UpdateOutcome outcome;
  auto changed = [&](mcGraphExecUpdateResult result, const MCgraphNode_st* node,
                     std::string message) {
    outcome.result = result;
    outcome.node = child_node != nullptr ? child_node : node;
    outcome.message = std::move(message);
    return outcome;
  };
  if (graph.nodes.size() != exec_graph.by_sequence.size()) {
    return changed(
        mcGraphExecUpdateErrorTopologyChanged, nullptr,
        absl::StrFormat("the graph has %u nodes, the executable "
                        "graph %u",
                        graph.nodes.size(), exec_graph.by_sequence.size()));
  }
  // The position of each of graph's nodes, and of each exec node, in
  // addition order.
  std::map<const MCgraphNode_st*, size_t> rank;
  for (size_t i = 0; i < graph.nodes.size(); ++i)
    rank[graph.nodes[i].get()] = i;
  std::map<size_t, size_t> exec_rank;
  for (size_t i = 0; i < exec_graph.by_sequence.size(); ++i) {
    exec_rank[exec_graph.by_sequence[i]] = i;
  }
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    const MCgraphNode_st* node = graph.nodes[i].get();
    const ExecNode& old = exec_graph.nodes[exec_graph.by_sequence[i]];
    std::vector<size_t> now;
    for (const MCgraphNode_st* from : node->dependencies)
      now.push_back(rank[from]);
    std::vector<size_t> before;
    for (size_t from : old.dependencies) before.push_back(exec_rank[from]);
    std::sort(now.begin(), now.end());
    std::sort(before.begin(), before.end());
    if (now != before) {
      return changed(mcGraphExecUpdateErrorTopologyChanged, node,
                     absl::StrFormat("node %u has other dependencies", i));
    }
    if (node->params.type() != old.params.type()) {
      return changed(
          mcGraphExecUpdateErrorNodeTypeChanged, node,
          absl::StrFormat("node %u was a %s node, is a %s node", i,
                          old.params.type_name(), node->params.type_name()));
    }
    if (node->params.type() == mcGraphNodeTypeGraph) {
      UpdateOutcome inner =
          CompareTopology(*old.child, *node->params.child_graph(),
                          child_node != nullptr ? child_node : node);
      if (inner.result != mcGraphExecUpdateSuccess) return inner;
    }
  }
  return outcome;
}

bool SameBytes(const void* a, const void* b, size_t n) {
  return std::memcmp(a, b, n) == 0;
}

// Why `now` may not replace `before` in an executable graph, or
// mcGraphExecUpdateSuccess. [api.graph.exec-update.copy-restrictions]
// [api.graph.exec-update.host-and-event-nodes-unrestricted]
mcGraphExecUpdateResult CheckChange(const NodeParams& before,
                                    const NodeParams& now, std::string* why) {
  switch (now.type()) {
    case mcGraphNodeTypeMemcpy: {
      const MemcpyNodeParams& a = before.memcpy();
      const MemcpyNodeParams& b = now.memcpy();
      if (SameBytes(&a.copy, &b.copy, sizeof(a.copy))) break;
      if (a.copy.kind != b.copy.kind) {
        *why = "the copy's kind changed";
        return mcGraphExecUpdateErrorParametersChanged;
      }
      if (a.dst_device != b.dst_device || a.src_device != b.src_device) {
        *why = "the copy's memory belongs to another device";
        return mcGraphExecUpdateErrorParametersChanged;
      }
      const bool linear = a.copy.extent.height <= 1 &&
                          a.copy.extent.depth <= 1 &&
                          b.copy.extent.height <= 1 && b.copy.extent.depth <= 1;
      if (!linear) {
        *why = "only one-dimensional copies may change";
        return mcGraphExecUpdateErrorParametersChanged;
      }
      break;
    }
    case mcGraphNodeTypeMemset: {
      const MemsetNodeParams& a = before.memset();
      const MemsetNodeParams& b = now.memset();
      if (SameBytes(&a.set, &b.set, sizeof(a.set))) break;
      if (a.device != b.device) {
        *why = "the set's memory belongs to another device";
        return mcGraphExecUpdateErrorParametersChanged;
      }
      if (a.set.height > 1 || b.set.height > 1) {
        *why = "only one-dimensional sets may change";
        return mcGraphExecUpdateErrorParametersChanged;
      }
      break;
    }
    case mcGraphNodeTypeKernel:
      if (before.launch()->device() != now.launch()->device()) {
        *why = "the kernel runs on another device";
        return mcGraphExecUpdateErrorParametersChanged;
      }
      // [api.graph.exec-update.kernel-to-dynamic-parallelism-rejected]
      if (!before.launch()->launches_grids() &&
          now.launch()->launches_grids()) {
        *why = "kernel " + now.launch()->kernel_name() +
               " launches grids from device code and kernel " +
               before.launch()->kernel_name() + " does not";
        return mcGraphExecUpdateErrorUnsupportedFunctionChange;
      }
      break;
    default:
      break;
  }
  return mcGraphExecUpdateSuccess;
}

// Copies `graph`'s parameters into `target` (same topology, checked),
// keeping each node's origin and enabled state
// [api.graph.enable.params-preserved]. Plans again; on failure says which
// node.
UpdateOutcome ApplyParameters(ExecGraph& target, const MCgraph_st& graph,
                              const MCgraphNode_st* child_node) {
  UpdateOutcome outcome;
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    const MCgraphNode_st* node = graph.nodes[i].get();
    ExecNode& exec_node = target.nodes[target.by_sequence[i]];
    const MCgraphNode_st* at_fault = child_node != nullptr ? child_node : node;
    std::string why;
    mcGraphExecUpdateResult result =
        CheckChange(exec_node.params, node->params, &why);
    if (result != mcGraphExecUpdateSuccess) {
      outcome.result = result;
      outcome.node = at_fault;
      outcome.message = why;
      return outcome;
    }
    exec_node.params = node->params;
    absl::Status planned = PlanNode(exec_node);
    if (!planned.ok()) {
      outcome.result = mcGraphExecUpdateError;
      outcome.node = at_fault;
      outcome.message = std::string(planned.message());
      return outcome;
    }
    if (node->params.type() == mcGraphNodeTypeGraph) {
      auto child = std::make_shared<ExecGraph>(*exec_node.child);
      UpdateOutcome inner =
          ApplyParameters(*child, *node->params.child_graph(), at_fault);
      if (inner.result != mcGraphExecUpdateSuccess) return inner;
      exec_node.child = child;
    }
  }
  return outcome;
}

}  // namespace

absl::StatusOr<MCgraphExec_st*> Instantiate(const MCgraph_st& graph,
                                            unsigned long long flags,
                                            GraphFailure* failure) {
  MX_ASSIGN_OR_RETURN(std::shared_ptr<ExecGraph> snapshot,
                      Snapshot(graph, failure));
  auto* exec = new MCgraphExec_st();
  exec->graph = std::move(snapshot);
  exec->flags = flags;
  ExecTable::Get().Register(exec);
  return exec;
}

ExecTable& ExecTable::Get() {
  static ExecTable* table = new ExecTable();
  return *table;
}

void ExecTable::Register(MCgraphExec_st* exec) {
  absl::MutexLock lock(&mu_);
  execs_.insert(exec);
}

void ExecTable::Destroy(MCgraphExec_st* exec) {
  {
    absl::MutexLock lock(&mu_);
    execs_.erase(exec);
  }
  delete exec;
}

absl::StatusOr<MCgraphExec_st*> ExecTable::Find(mcGraphExec_t exec) const {
  if (exec == nullptr) {
    return McStatus(mcErrorInvalidValue, "the executable graph is null");
  }
  absl::MutexLock lock(&mu_);
  if (!execs_.contains(exec)) {
    return McStatus(mcErrorInvalidValue,
                    absl::StrFormat("%p is not a live executable graph", exec));
  }
  return exec;
}

namespace {

// What a launch does to graph allocations when it is enqueued: the host's
// view of which are allocated, which later calls check.
absl::Status UpdateGraphMemory(const ExecGraph& graph, bool auto_free) {
  GraphMemory& memory = GraphMemory::Get();
  std::vector<const void*> freed_here;
  for (const ExecNode& node : graph.nodes) {
    if (node.params.type() == mcGraphNodeTypeMemFree) {
      freed_here.push_back(node.params.freed());
    }
  }
  auto freed_in_graph = [&](const void* address) {
    return std::find(freed_here.begin(), freed_here.end(), address) !=
           freed_here.end();
  };
  std::vector<const ExecNode*> allocations;
  for (const ExecNode& node : graph.nodes) {
    if (node.params.type() == mcGraphNodeTypeMemAlloc) {
      allocations.push_back(&node);
      const void* address = node.params.allocation()->address();
      if (memory.Outstanding(address) && !auto_free) {
        return McStatus(mcErrorInvalidValue,
                        absl::StrFormat("the graph's allocation %p from an "
                                        "earlier launch was not freed",
                                        address));
      }
    }
  }
  for (const void* address : freed_here) {
    bool own = false;
    for (const ExecNode* node : allocations) {
      own |= node->params.allocation()->address() == address;
    }
    if (!own && memory.Find(address) != nullptr &&
        !memory.Outstanding(address)) {
      return McStatus(mcErrorInvalidValue,
                      absl::StrFormat("the graph frees %p, which is not "
                                      "allocated",
                                      address));
    }
  }
  for (const ExecNode* node : allocations) {
    const std::shared_ptr<GraphAllocation>& allocation =
        node->params.allocation();
    memory.SetOutstanding(allocation, !freed_in_graph(allocation->address()));
  }
  for (const void* address : freed_here) {
    if (std::shared_ptr<GraphAllocation> other = memory.Find(address)) {
      bool own = false;
      for (const ExecNode* node : allocations) {
        own |= node->params.allocation() == other;
      }
      if (!own) memory.SetOutstanding(other, false);
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Point> EnqueueLaunch(MCgraphExec_st& exec, Queue* queue) {
  Timeline& timeline = Timeline::Get();
  std::shared_ptr<const ExecGraph> graph = exec.graph;
  MX_RETURN_IF_ERROR(UpdateGraphMemory(
      *graph, (exec.flags & mcGraphInstantiateFlagAutoFreeOnLaunch) != 0));
  const TimelineMode mode = timeline.mode();
  const uint64_t launch = exec.launches++;
  Command command;
  command.description = absl::StrFormat("the launch of graph %p", &exec);
  // [api.graph.launch.same-exec-launches-serialize]
  if (exec.last_launch.queue != nullptr)
    command.after.push_back(exec.last_launch);
  // The event records are made now, when the point after the command is
  // known: it is the queue's tail plus one.
  const Point end{queue, queue->Tail().seq + 1};
  auto records = std::make_shared<LaunchRecords>();
  CollectEventNodes(*graph, end, *records, command.after);
  const bool shuffle = mode.kind == TimelineMode::kShuffle;
  const uint64_t seed = mode.seed ^ (launch * 0x9e3779b97f4a7c15ull) ^
                        reinterpret_cast<uintptr_t>(&exec);
  command.work = [graph, records, shuffle, seed]() -> mcError_t {
    SplitMix64 random(seed);
    return RunGraph(*graph, *records, shuffle ? &random : nullptr);
  };
  Point point = timeline.Enqueue(queue, std::move(command));
  exec.last_launch = point;
  return point;
}

UpdateOutcome UpdateExec(MCgraphExec_st& exec, const MCgraph_st& graph) {
  UpdateOutcome outcome = CompareTopology(*exec.graph, graph, nullptr);
  if (outcome.result != mcGraphExecUpdateSuccess) return outcome;
  std::shared_ptr<ExecGraph> changed = CopyForChange(exec);
  outcome = ApplyParameters(*changed, graph, nullptr);
  if (outcome.result == mcGraphExecUpdateSuccess) exec.graph = changed;
  return outcome;
}

absl::Status SetExecNodeParams(MCgraphExec_st& exec, const MCgraphNode_st* node,
                               const NodeParams& params) {
  std::shared_ptr<ExecGraph> changed = CopyForChange(exec);
  ExecNode* target = FindExecNode(*changed, node);
  if (target == nullptr) {
    // [api.graph.exec-node-set.node-not-in-exec-invalid-value]
    return McStatus(mcErrorInvalidValue,
                    absl::StrFormat("node %p is not a node of the graph the "
                                    "executable graph was instantiated from",
                                    node));
  }
  if (target->params.type() != params.type()) {
    return McStatus(
        mcErrorInvalidValue,
        absl::StrFormat("node %p is a %s node, not a %s node", node,
                        target->params.type_name(), params.type_name()));
  }
  if (params.type() == mcGraphNodeTypeGraph) {
    // [api.graph.exec-node-set.child-graph-same-topology]
    UpdateOutcome outcome =
        CompareTopology(*target->child, *params.child_graph(), node);
    if (outcome.result == mcGraphExecUpdateSuccess) {
      auto child = std::make_shared<ExecGraph>(*target->child);
      outcome = ApplyParameters(*child, *params.child_graph(), node);
      if (outcome.result == mcGraphExecUpdateSuccess) target->child = child;
    }
    if (outcome.result != mcGraphExecUpdateSuccess) {
      return McStatus(
          mcErrorGraphExecUpdateFailure,
          "the child graph cannot update the node: " + outcome.message);
    }
  } else {
    std::string why;
    if (CheckChange(target->params, params, &why) != mcGraphExecUpdateSuccess) {
      return McStatus(
          mcErrorInvalidValue,
          absl::StrFormat("node %p cannot change so: %s", node, why));
    }
    ExecNode updated = *target;
    updated.params = params;
    if (params.type() == mcGraphNodeTypeKernel) {
      // [api.graph.kernel-node-attribute.kept-by-set-params] The executable
      // node keeps the attributes it was instantiated with.
      MX_RETURN_IF_ERROR(updated.params.CopyKernelAttributes(target->params));
    }
    MX_RETURN_IF_ERROR(PlanNode(updated));
    *target = std::move(updated);
  }
  exec.graph = changed;
  return absl::OkStatus();
}

namespace {

absl::Status CheckEnableable(const ExecNode* target,
                             const MCgraphNode_st* node) {
  if (target == nullptr) {
    return McStatus(mcErrorInvalidValue,
                    absl::StrFormat("node %p is not a node of the executable "
                                    "graph",
                                    node));
  }
  const mcGraphNodeType type = target->params.type();
  if (type != mcGraphNodeTypeKernel && type != mcGraphNodeTypeMemcpy &&
      type != mcGraphNodeTypeMemset) {
    // [api.graph.enable.unsupported-node-type-invalid-value]
    return McStatus(mcErrorInvalidValue,
                    absl::StrFormat("a %s node cannot be enabled or disabled",
                                    target->params.type_name()));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status SetNodeEnabled(MCgraphExec_st& exec, const MCgraphNode_st* node,
                            bool enabled) {
  std::shared_ptr<ExecGraph> changed = CopyForChange(exec);
  ExecNode* target = FindExecNode(*changed, node);
  MX_RETURN_IF_ERROR(CheckEnableable(target, node));
  target->enabled = enabled;
  exec.graph = changed;
  return absl::OkStatus();
}

absl::StatusOr<bool> NodeEnabled(const MCgraphExec_st& exec,
                                 const MCgraphNode_st* node) {
  const ExecNode* target = FindExecNode(*exec.graph, node);
  MX_RETURN_IF_ERROR(CheckEnableable(target, node));
  return target->enabled;
}

}  // namespace mxcts::runtime
