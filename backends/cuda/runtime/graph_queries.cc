// Copyright mxcts authors.
//
// A graph's edges and the queries of its structure (docs/spec/api-graph.md,
// "Edges and queries"), node destruction and the DOT debug output, over
// CUDA's. The adapter checks the edges MXMACA refuses and CUDA takes or
// answers otherwise (an edge that exists or is missing, a node made to
// depend on itself, a cycle), and records every node a query hands out as
// one of its graph's (graph_handles.h).

#include <cuda_runtime_api.h>

#include <cstdio>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "backends/cuda/include/mc_runtime_api.h"
#include "backends/cuda/runtime/adapter.h"
#include "backends/cuda/runtime/graph_handles.h"
#include "backends/cuda/runtime/graph_params.h"
#include "backends/cuda/runtime/handles.h"

using mxcts::cuda_backend::AddNodes;
using mxcts::cuda_backend::Check;
using mxcts::cuda_backend::Fail;
using mxcts::cuda_backend::ToCuda;

namespace {

using Edge = std::pair<mcGraphNode_t, mcGraphNode_t>;

// The edges of `graph` (empty if CUDA cannot list them).
std::set<Edge> EdgesOf(mcGraph_t graph) {
  std::set<Edge> edges;
  size_t count = 0;
  if (cudaGraphGetEdges(ToCuda(graph), nullptr, nullptr, nullptr, &count) !=
      cudaSuccess) {
    cudaGetLastError();
    return edges;
  }
  std::vector<cudaGraphNode_t> from(count), to(count);
  if (count != 0 && cudaGraphGetEdges(ToCuda(graph), from.data(), to.data(),
                                      nullptr, &count) != cudaSuccess) {
    cudaGetLastError();
    return edges;
  }
  for (size_t i = 0; i < count; ++i) {
    edges.emplace(mxcts::cuda_backend::FromCuda(from[i]),
                  mxcts::cuda_backend::FromCuda(to[i]));
  }
  return edges;
}

// True if `to` is reachable from `from` along `edges`.
bool Reaches(const std::set<Edge>& edges, mcGraphNode_t from,
             mcGraphNode_t to) {
  std::map<mcGraphNode_t, std::vector<mcGraphNode_t>> next;
  for (const Edge& edge : edges) next[edge.first].push_back(edge.second);
  std::vector<mcGraphNode_t> pending = {from};
  std::set<mcGraphNode_t> seen = {from};
  while (!pending.empty()) {
    const mcGraphNode_t node = pending.back();
    pending.pop_back();
    if (node == to) return true;
    for (mcGraphNode_t after : next[node]) {
      if (seen.insert(after).second) pending.push_back(after);
    }
  }
  return false;
}

// mcSuccess if every from[i] and to[i] is a live node of `graph`.
mcError_t CheckEdgeNodes(mcGraph_t graph, const mcGraphNode_t* from,
                         const mcGraphNode_t* to, size_t count) {
  MXCTS_CHECK_GRAPH(graph);
  if ((from == nullptr || to == nullptr) && count != 0) {
    return Fail(mcErrorInvalidValue);
  }
  for (size_t i = 0; i < count; ++i) {
    mcGraph_t from_graph = nullptr, to_graph = nullptr;
    if (!mxcts::cuda_backend::IsNode(from[i], &from_graph) ||
        !mxcts::cuda_backend::IsNode(to[i], &to_graph) || from_graph != graph ||
        to_graph != graph) {
      return Fail(mcErrorInvalidValue);
    }
  }
  return mcSuccess;
}

// The common form of the node list queries: `list` fills `nodes` (or only
// counts with null), and the nodes it hands out are recorded as `graph`'s.
template <class List>
mcError_t ListNodes(mcGraph_t graph, mcGraphNode_t* nodes, size_t* count,
                    List list) {
  if (count == nullptr) return Fail(mcErrorInvalidValue);
  const mcError_t error =
      Check(list(reinterpret_cast<cudaGraphNode_t*>(nodes), count));
  if (error == mcSuccess && nodes != nullptr) AddNodes(graph, nodes, *count);
  return error;
}

}  // namespace

extern "C" {

mcError_t mcGraphAddDependencies(mcGraph_t graph, const mcGraphNode_t* from,
                                 const mcGraphNode_t* to,
                                 size_t numDependencies) {
  mcError_t error = CheckEdgeNodes(graph, from, to, numDependencies);
  if (error != mcSuccess) return error;
  // An existing edge, a self edge, an edge given twice or one closing a
  // cycle is refused, and then none is added
  // [api.graph.add-dependencies.adds-edges].
  std::set<Edge> edges = EdgesOf(graph);
  for (size_t i = 0; i < numDependencies; ++i) {
    if (from[i] == to[i] || edges.count({from[i], to[i]}) == 1 ||
        Reaches(edges, to[i], from[i])) {
      return Fail(mcErrorInvalidValue);
    }
    edges.emplace(from[i], to[i]);
  }
  return Check(cudaGraphAddDependencies(
      ToCuda(graph), reinterpret_cast<const cudaGraphNode_t*>(from),
      reinterpret_cast<const cudaGraphNode_t*>(to), nullptr, numDependencies));
}

mcError_t mcGraphRemoveDependencies(mcGraph_t graph, const mcGraphNode_t* from,
                                    const mcGraphNode_t* to,
                                    size_t numDependencies) {
  mcError_t error = CheckEdgeNodes(graph, from, to, numDependencies);
  if (error != mcSuccess) return error;
  // A missing edge removes none [api.graph.remove-dependencies.removes-edges].
  std::set<Edge> edges = EdgesOf(graph);
  for (size_t i = 0; i < numDependencies; ++i) {
    if (edges.erase({from[i], to[i]}) == 0) return Fail(mcErrorInvalidValue);
  }
  return Check(cudaGraphRemoveDependencies(
      ToCuda(graph), reinterpret_cast<const cudaGraphNode_t*>(from),
      reinterpret_cast<const cudaGraphNode_t*>(to), nullptr, numDependencies));
}

mcError_t mcGraphGetNodes(mcGraph_t graph, mcGraphNode_t* nodes,
                          size_t* numNodes) {
  MXCTS_CHECK_GRAPH(graph);
  return ListNodes(graph, nodes, numNodes,
                   [&](cudaGraphNode_t* out, size_t* count) {
                     return cudaGraphGetNodes(ToCuda(graph), out, count);
                   });
}

mcError_t mcGraphGetRootNodes(mcGraph_t graph, mcGraphNode_t* rootNodes,
                              size_t* numRootNodes) {
  MXCTS_CHECK_GRAPH(graph);
  return ListNodes(graph, rootNodes, numRootNodes,
                   [&](cudaGraphNode_t* out, size_t* count) {
                     return cudaGraphGetRootNodes(ToCuda(graph), out, count);
                   });
}

mcError_t mcGraphGetEdges(mcGraph_t graph, mcGraphNode_t* from,
                          mcGraphNode_t* to, size_t* numEdges) {
  MXCTS_CHECK_GRAPH(graph);
  if (numEdges == nullptr || (from == nullptr) != (to == nullptr)) {
    return Fail(mcErrorInvalidValue);
  }
  const mcError_t error = Check(cudaGraphGetEdges(
      ToCuda(graph), reinterpret_cast<cudaGraphNode_t*>(from),
      reinterpret_cast<cudaGraphNode_t*>(to), nullptr, numEdges));
  if (error == mcSuccess && from != nullptr) {
    AddNodes(graph, from, *numEdges);
    AddNodes(graph, to, *numEdges);
  }
  return error;
}

mcError_t mcGraphNodeGetType(mcGraphNode_t node, mcGraphNodeType* type) {
  MXCTS_CHECK_NODE(node);
  if (type == nullptr) return Fail(mcErrorInvalidValue);
  cudaGraphNodeType cuda;
  const mcError_t error = Check(cudaGraphNodeGetType(ToCuda(node), &cuda));
  if (error == mcSuccess) *type = mxcts::cuda_backend::FromCudaType(cuda);
  return error;
}

mcError_t mcGraphNodeGetDependencies(mcGraphNode_t node,
                                     mcGraphNode_t* dependencies,
                                     size_t* numDependencies) {
  mcGraph_t graph = nullptr;
  if (!mxcts::cuda_backend::IsNode(node, &graph)) {
    return Fail(mcErrorInvalidValue);
  }
  return ListNodes(graph, dependencies, numDependencies,
                   [&](cudaGraphNode_t* out, size_t* count) {
                     return cudaGraphNodeGetDependencies(ToCuda(node), out,
                                                         nullptr, count);
                   });
}

mcError_t mcGraphNodeGetDependentNodes(mcGraphNode_t node,
                                       mcGraphNode_t* dependentNodes,
                                       size_t* numDependentNodes) {
  mcGraph_t graph = nullptr;
  if (!mxcts::cuda_backend::IsNode(node, &graph)) {
    return Fail(mcErrorInvalidValue);
  }
  return ListNodes(graph, dependentNodes, numDependentNodes,
                   [&](cudaGraphNode_t* out, size_t* count) {
                     return cudaGraphNodeGetDependentNodes(ToCuda(node), out,
                                                           nullptr, count);
                   });
}

mcError_t mcGraphDestroyNode(mcGraphNode_t node) {
  MXCTS_CHECK_NODE(node);
  const mcError_t error = Check(cudaGraphDestroyNode(ToCuda(node)));
  if (error == mcSuccess) mxcts::cuda_backend::ForgetNode(node);
  return error;
}

mcError_t mcGraphDebugDotPrint(mcGraph_t graph, const char* path,
                               unsigned int flags) {
  MXCTS_CHECK_GRAPH(graph);
  if (path == nullptr) return Fail(mcErrorInvalidValue);
  // A file that cannot be written is the operating system's error
  // [api.graph.debug-dot.writes-file], whatever CUDA would call it.
  std::FILE* file = std::fopen(path, "w");
  if (file == nullptr) return Fail(mcErrorOperatingSystem);
  std::fclose(file);
  return Check(cudaGraphDebugDotPrint(ToCuda(graph), path, flags));
}

}  // extern "C"
