// Copyright mxcts authors.
//
// The live graphs, nodes and executable graphs, and the quarantine of
// destroyed ones (graph_handles.h).

#include "backends/cuda/runtime/graph_handles.h"

#include <cuda_runtime_api.h>

#include <deque>
#include <mutex>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "backends/cuda/runtime/live_handle_memo.h"

namespace mxcts::cuda_backend {
namespace {

struct LiveGraph {
  // Whether the program owns the graph (and may destroy it).
  bool program_owned = true;
  // The child graph node that owns the graph, if one does.
  mcGraphNode_t owner = nullptr;
  // The graph this one is a clone of, if it is one.
  mcGraph_t origin = nullptr;
};

struct Registry {
  std::mutex mutex;
  std::unordered_map<mcGraph_t, LiveGraph> graphs;
  std::unordered_map<mcGraphNode_t, mcGraph_t> nodes;  // node -> its graph
  std::unordered_map<mcGraphNode_t, mcMemcpy3DParms> copies;
  std::unordered_map<mcGraphExec_t, std::unordered_set<mcGraphNode_t>> execs;
  std::unordered_set<mcGraphExec_t> allocating_execs;
  std::deque<mcGraph_t> retired_graphs;
  std::deque<mcGraphExec_t> retired_execs;
  // Bumped whenever an executable graph leaves `execs`.
  RetirementCount retired;
};

// The last executable graph this thread found live (live_handle_memo.h).
thread_local LiveHandleMemo last_exec;

Registry& Handles() {
  static Registry* registry = new Registry();
  return *registry;
}

// Forgets `graph`, its nodes and, in turn, the graphs they own. Holds the
// registry's lock.
void ForgetGraphLocked(Registry& r, mcGraph_t graph) {
  std::vector<mcGraph_t> pending = {graph};
  while (!pending.empty()) {
    const mcGraph_t current = pending.back();
    pending.pop_back();
    r.graphs.erase(current);
    std::unordered_set<mcGraphNode_t> gone;
    for (auto it = r.nodes.begin(); it != r.nodes.end();) {
      if (it->second == current) {
        gone.insert(it->first);
        r.copies.erase(it->first);
        it = r.nodes.erase(it);
      } else {
        ++it;
      }
    }
    if (gone.empty()) continue;
    for (const auto& [child, live] : r.graphs) {
      if (live.owner != nullptr && gone.count(live.owner) == 1) {
        pending.push_back(child);
      }
    }
  }
}

}  // namespace

void AddGraph(mcGraph_t graph) {
  Registry& r = Handles();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.graphs[graph] = LiveGraph{};
}

void AddClone(mcGraph_t clone, mcGraph_t original) {
  Registry& r = Handles();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.graphs[clone] = LiveGraph{true, nullptr, original};
}

mcGraph_t CloneOrigin(mcGraph_t graph) {
  Registry& r = Handles();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.graphs.find(graph);
  return it == r.graphs.end() ? nullptr : it->second.origin;
}

void AddOwnedGraph(mcGraph_t graph, mcGraphNode_t owner) {
  Registry& r = Handles();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.graphs[graph] = LiveGraph{false, owner, nullptr};
}

void AddNodes(mcGraph_t graph, const mcGraphNode_t* nodes, size_t count) {
  Registry& r = Handles();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (size_t i = 0; i < count; ++i) {
    if (nodes[i] != nullptr) r.nodes[nodes[i]] = graph;
  }
}

bool IsGraph(mcGraph_t graph, bool* owned) {
  Registry& r = Handles();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.graphs.find(graph);
  if (it == r.graphs.end()) return false;
  if (owned != nullptr) *owned = !it->second.program_owned;
  return true;
}

bool IsNode(mcGraphNode_t node, mcGraph_t* graph) {
  Registry& r = Handles();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.nodes.find(node);
  if (it == r.nodes.end()) return false;
  if (graph != nullptr) *graph = it->second;
  return true;
}

bool RetireGraph(mcGraph_t graph) {
  Registry& r = Handles();
  mcGraph_t oldest = nullptr;
  {
    std::lock_guard<std::mutex> lock(r.mutex);
    auto it = r.graphs.find(graph);
    if (it == r.graphs.end() || !it->second.program_owned) return false;
    ForgetGraphLocked(r, graph);
    r.retired_graphs.push_back(graph);
    if (static_cast<int>(r.retired_graphs.size()) <= kGraphQuarantine) {
      return true;
    }
    oldest = r.retired_graphs.front();
    r.retired_graphs.pop_front();
  }
  cudaGraphDestroy(ToCuda(oldest));
  return true;
}

void ForgetNode(mcGraphNode_t node) {
  Registry& r = Handles();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.nodes.erase(node);
  r.copies.erase(node);
  std::vector<mcGraph_t> owned;
  for (const auto& [child, live] : r.graphs) {
    if (live.owner == node) owned.push_back(child);
  }
  for (mcGraph_t child : owned) ForgetGraphLocked(r, child);
}

void ForgetGraph(mcGraph_t graph) {
  Registry& r = Handles();
  std::lock_guard<std::mutex> lock(r.mutex);
  ForgetGraphLocked(r, graph);
}

void RememberCopy(mcGraphNode_t node, const mcMemcpy3DParms& params) {
  Registry& r = Handles();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.copies[node] = params;
}

bool RememberedCopy(mcGraphNode_t node, mcMemcpy3DParms* params) {
  Registry& r = Handles();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.copies.find(node);
  if (it == r.copies.end()) return false;
  *params = it->second;
  return true;
}

void AddExec(mcGraphExec_t exec, std::vector<mcGraphNode_t> nodes,
             bool allocates) {
  Registry& r = Handles();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.execs[exec] = std::unordered_set<mcGraphNode_t>(nodes.begin(), nodes.end());
  if (allocates) r.allocating_execs.insert(exec);
}

void AddExecNodes(mcGraphExec_t exec, const std::vector<mcGraphNode_t>& nodes) {
  Registry& r = Handles();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.execs.find(exec);
  if (it != r.execs.end()) it->second.insert(nodes.begin(), nodes.end());
}

bool IsExec(mcGraphExec_t exec) {
  Registry& r = Handles();
  if (last_exec.Holds(exec, r.retired)) return true;
  std::lock_guard<std::mutex> lock(r.mutex);
  if (r.execs.count(exec) == 0) return false;
  last_exec.Keep(exec, r.retired);
  return true;
}

bool ExecHasNode(mcGraphExec_t exec, mcGraphNode_t node) {
  Registry& r = Handles();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.execs.find(exec);
  return it != r.execs.end() && it->second.count(node) == 1;
}

bool RetireExec(mcGraphExec_t exec) {
  Registry& r = Handles();
  mcGraphExec_t oldest = nullptr;
  {
    std::lock_guard<std::mutex> lock(r.mutex);
    auto it = r.execs.find(exec);
    if (it == r.execs.end()) return false;
    r.execs.erase(it);
    r.retired.Bump();
    if (r.allocating_execs.erase(exec) == 1) {
      oldest = exec;  // destroyed at once
    } else {
      r.retired_execs.push_back(exec);
      if (static_cast<int>(r.retired_execs.size()) <= kGraphQuarantine) {
        return true;
      }
      oldest = r.retired_execs.front();
      r.retired_execs.pop_front();
    }
  }
  cudaGraphExecDestroy(ToCuda(oldest));
  return true;
}

}  // namespace mxcts::cuda_backend
