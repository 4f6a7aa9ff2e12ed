// Copyright mxcts authors.
//
// The graphs, nodes and executable graphs the program holds. MXMACA answers
// a destroyed or made-up graph, node or executable graph with
// mcErrorInvalidValue (docs/spec/api-graph.md); CUDA leaves them undefined
// and crashes on many. The adapter keeps the live handles and checks each
// before CUDA sees it, as handles.h does for streams and events.
//
// A handle becomes known to the adapter when a call hands it to the
// program: mcGraphCreate, mcGraphClone and mcStreamEndCapture give graphs,
// every mcGraphAdd*Node and every query that lists nodes give nodes (each
// with the graph it belongs to), mcGraphChildGraphNodeGetGraph gives the
// graph a child node owns. Destroying a graph forgets its nodes and the
// graphs its child nodes own.
//
// CUDA hands a new graph or executable graph the address of one destroyed
// just before, so a destroyed graph (and executable graph) waits in a
// quarantine of the most recent ones before CUDA destroys it; its nodes
// stay allocated with it, so an executable graph's node handles stay
// readable too.

#ifndef MXCTS_BACKENDS_CUDA_RUNTIME_GRAPH_HANDLES_H_
#define MXCTS_BACKENDS_CUDA_RUNTIME_GRAPH_HANDLES_H_

#include <cuda_runtime_api.h>

#include <cstddef>
#include <vector>

#include "backends/cuda/include/mc_runtime_api.h"

namespace mxcts::cuda_backend {

inline cudaGraph_t ToCuda(mcGraph_t graph) {
  return reinterpret_cast<cudaGraph_t>(graph);
}
inline cudaGraphNode_t ToCuda(mcGraphNode_t node) {
  return reinterpret_cast<cudaGraphNode_t>(node);
}
inline cudaGraphExec_t ToCuda(mcGraphExec_t exec) {
  return reinterpret_cast<cudaGraphExec_t>(exec);
}
inline mcGraph_t FromCuda(cudaGraph_t graph) {
  return reinterpret_cast<mcGraph_t>(graph);
}
inline mcGraphNode_t FromCuda(cudaGraphNode_t node) {
  return reinterpret_cast<mcGraphNode_t>(node);
}
inline mcGraphExec_t FromCuda(cudaGraphExec_t exec) {
  return reinterpret_cast<mcGraphExec_t>(exec);
}

// How many destroyed graphs, and executable graphs, wait before CUDA
// destroys them.
inline constexpr int kGraphQuarantine = 64;

// Adds a graph the program may destroy (created, cloned or captured).
void AddGraph(mcGraph_t graph);
// Adds a clone of `original` the program owns; CloneOrigin then names
// `original` (null for a graph that is no clone).
void AddClone(mcGraph_t clone, mcGraph_t original);
mcGraph_t CloneOrigin(mcGraph_t graph);
// Adds the graph the child graph node `owner` runs, or (`owner` null) the
// graph a stream capture is building: live while the node or the capture
// is, never destroyed by the program.
void AddOwnedGraph(mcGraph_t graph, mcGraphNode_t owner);
// Adds nodes of `graph` (already known ones are kept).
void AddNodes(mcGraph_t graph, const mcGraphNode_t* nodes, size_t count);
inline void AddNode(mcGraph_t graph, mcGraphNode_t node) {
  AddNodes(graph, &node, 1);
}

// True if `graph` is live; `owned` (if not null) says whether a child graph
// node owns it.
bool IsGraph(mcGraph_t graph, bool* owned = nullptr);
// True if `node` is live; `graph` (if not null) receives its graph.
bool IsNode(mcGraphNode_t node, mcGraph_t* graph = nullptr);

// Takes a live graph the program owns out of the live set (with its nodes
// and the graphs of its child nodes) and into the quarantine; false (and
// nothing changes) if it was not one.
bool RetireGraph(mcGraph_t graph);
// Forgets a node about to be destroyed, and the graph it owns.
void ForgetNode(mcGraphNode_t node);
// Forgets a graph CUDA destroyed itself (a failed capture's).
void ForgetGraph(mcGraph_t graph);

// The copy parameters the program last gave a copy node. CUDA reads back
// a copy's pointers with other extents than it was given; the adapter
// answers with the program's own when they describe the copy CUDA holds.
void RememberCopy(mcGraphNode_t node, const mcMemcpy3DParms& params);
bool RememberedCopy(mcGraphNode_t node, mcMemcpy3DParms* params);

// Adds an executable graph instantiated from `nodes`, the nodes of its
// graph then. `allocates`: the graph has memory allocation nodes, and CUDA
// lets such a graph have one executable graph at a time, so this one skips
// the quarantine when destroyed (the graph can be instantiated again).
void AddExec(mcGraphExec_t exec, std::vector<mcGraphNode_t> nodes,
             bool allocates);
// Adds the nodes of a graph `exec` was updated from (mcGraphExecUpdate).
void AddExecNodes(mcGraphExec_t exec, const std::vector<mcGraphNode_t>& nodes);
bool IsExec(mcGraphExec_t exec);
// True if `node` was a node of the graph `exec` was instantiated from.
bool ExecHasNode(mcGraphExec_t exec, mcGraphNode_t node);
// As RetireGraph, for an executable graph.
bool RetireExec(mcGraphExec_t exec);

}  // namespace mxcts::cuda_backend

// The common checks of the graph entries: mcErrorInvalidValue for a handle
// that is not live.
#define MXCTS_CHECK_GRAPH(graph)                               \
  do {                                                         \
    if (!::mxcts::cuda_backend::IsGraph(graph)) {              \
      return ::mxcts::cuda_backend::Fail(mcErrorInvalidValue); \
    }                                                          \
  } while (0)
#define MXCTS_CHECK_NODE(node)                                 \
  do {                                                         \
    if (!::mxcts::cuda_backend::IsNode(node)) {                \
      return ::mxcts::cuda_backend::Fail(mcErrorInvalidValue); \
    }                                                          \
  } while (0)
#define MXCTS_CHECK_EXEC(exec)                                 \
  do {                                                         \
    if (!::mxcts::cuda_backend::IsExec(exec)) {                \
      return ::mxcts::cuda_backend::Fail(mcErrorInvalidValue); \
    }                                                          \
  } while (0)

#endif  // MXCTS_BACKENDS_CUDA_RUNTIME_GRAPH_HANDLES_H_
