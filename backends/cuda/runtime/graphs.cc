// Copyright mxcts authors.
//
// Graphs and their nodes (docs/spec/api-graph.md: creation, destruction,
// clones, adding nodes) over CUDA's graphs. An mcGraph_t is the cudaGraph_t
// itself, an mcGraphNode_t the cudaGraphNode_t; graph_handles.h keeps which
// are live, so that a destroyed or made-up handle is mcErrorInvalidValue
// before CUDA sees it, and graph_params.h converts each node's parameters.
//
// Every mcGraphAdd*Node checks what MXMACA requires of every node first
// [api.graph.node.*]: a place for the node, a live graph, dependencies that
// are nodes of that graph, none listed twice (CUDA takes duplicates).

#include <cuda_runtime_api.h>

#include <unordered_set>
#include <vector>

#include "backends/cuda/include/mc_runtime_api.h"
#include "backends/cuda/runtime/adapter.h"
#include "backends/cuda/runtime/environment.h"
#include "backends/cuda/runtime/graph_handles.h"
#include "backends/cuda/runtime/graph_params.h"
#include "backends/cuda/runtime/handles.h"
#include "backends/cuda/runtime/pools.h"

using mxcts::cuda_backend::AddGraph;
using mxcts::cuda_backend::AddNode;
using mxcts::cuda_backend::Check;
using mxcts::cuda_backend::Fail;
using mxcts::cuda_backend::ToCuda;

namespace {

// The checks every mcGraphAdd*Node makes before its own
// [api.graph.node.dependency-from-other-graph-invalid-value]
// [api.graph.node.duplicate-dependency-invalid-value].
mcError_t CheckAdd(mcGraphNode_t* node, mcGraph_t graph,
                   const mcGraphNode_t* dependencies, size_t numDependencies) {
  if (node == nullptr) return Fail(mcErrorInvalidValue);
  MXCTS_CHECK_GRAPH(graph);
  if (dependencies == nullptr && numDependencies != 0) {
    return Fail(mcErrorInvalidValue);
  }
  std::unordered_set<mcGraphNode_t> seen;
  for (size_t i = 0; i < numDependencies; ++i) {
    mcGraph_t owner = nullptr;
    if (!mxcts::cuda_backend::IsNode(dependencies[i], &owner) ||
        owner != graph || !seen.insert(dependencies[i]).second) {
      return Fail(mcErrorInvalidValue);
    }
  }
  return mcSuccess;
}

const cudaGraphNode_t* ToCudaNodes(const mcGraphNode_t* nodes) {
  return reinterpret_cast<const cudaGraphNode_t*>(nodes);
}

cudaGraphNode_t* ToCudaNodeOut(mcGraphNode_t* node) {
  return reinterpret_cast<cudaGraphNode_t*>(node);
}

// The result of a CUDA call that adds a node: the node is recorded as one
// of `graph`'s.
mcError_t Added(cudaError_t error, mcGraph_t graph, mcGraphNode_t* node) {
  const mcError_t result = Check(error);
  if (result == mcSuccess) AddNode(graph, *node);
  return result;
}

// True if `graph` holds a memory allocation or free node, which a child
// graph may not [api.graph.child-graph-node.embeds-copy].
bool HoldsMemoryNodes(mcGraph_t graph) {
  size_t count = 0;
  if (cudaGraphGetNodes(ToCuda(graph), nullptr, &count) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  std::vector<cudaGraphNode_t> nodes(count);
  if (count != 0 &&
      cudaGraphGetNodes(ToCuda(graph), nodes.data(), &count) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  for (size_t i = 0; i < count; ++i) {
    cudaGraphNodeType type;
    if (cudaGraphNodeGetType(nodes[i], &type) != cudaSuccess) continue;
    if (type == cudaGraphNodeTypeMemAlloc || type == cudaGraphNodeTypeMemFree) {
      return true;
    }
  }
  return false;
}

// The allocation node of `graph` whose memory starts at `dptr`, or null.
cudaGraphNode_t AllocationAt(mcGraph_t graph, const void* dptr) {
  size_t count = 0;
  if (cudaGraphGetNodes(ToCuda(graph), nullptr, &count) != cudaSuccess) {
    cudaGetLastError();
    return nullptr;
  }
  std::vector<cudaGraphNode_t> nodes(count);
  if (count != 0 &&
      cudaGraphGetNodes(ToCuda(graph), nodes.data(), &count) != cudaSuccess) {
    cudaGetLastError();
    return nullptr;
  }
  for (size_t i = 0; i < count; ++i) {
    cudaGraphNodeType type;
    cudaMemAllocNodeParams alloc;
    if (cudaGraphNodeGetType(nodes[i], &type) == cudaSuccess &&
        type == cudaGraphNodeTypeMemAlloc &&
        cudaGraphMemAllocNodeGetParams(nodes[i], &alloc) == cudaSuccess &&
        alloc.dptr == dptr) {
      return nodes[i];
    }
    cudaGetLastError();
  }
  return nullptr;
}

// True if `target` is one of `nodes` or one of the nodes they depend on,
// directly or not.
bool Precedes(cudaGraphNode_t target, const mcGraphNode_t* nodes,
              size_t count) {
  std::vector<cudaGraphNode_t> pending;
  for (size_t i = 0; i < count; ++i) pending.push_back(ToCuda(nodes[i]));
  std::unordered_set<cudaGraphNode_t> seen(pending.begin(), pending.end());
  while (!pending.empty()) {
    const cudaGraphNode_t node = pending.back();
    pending.pop_back();
    if (node == target) return true;
    size_t n = 0;
    if (cudaGraphNodeGetDependencies(node, nullptr, nullptr, &n) !=
        cudaSuccess) {
      cudaGetLastError();
      continue;
    }
    std::vector<cudaGraphNode_t> before(n);
    if (n != 0 && cudaGraphNodeGetDependencies(node, before.data(), nullptr,
                                               &n) != cudaSuccess) {
      cudaGetLastError();
      continue;
    }
    for (cudaGraphNode_t b : before) {
      if (seen.insert(b).second) pending.push_back(b);
    }
  }
  return false;
}

// False if [offset, offset + count) leaves the variable `symbol`
// [api.memory.symbol.past-end]. An unknown symbol is left for CUDA.
bool WithinSymbol(const void* symbol, size_t offset, size_t count) {
  size_t size = 0;
  if (cudaGetSymbolSize(&size, symbol) != cudaSuccess) {
    cudaGetLastError();
    return true;
  }
  return offset <= size && count <= size - offset;
}

}  // namespace

extern "C" {

// --- Graphs. ---

mcError_t mcGraphCreate(mcGraph_t* graph, unsigned int flags) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  if (graph == nullptr || flags != 0) return Fail(mcErrorInvalidValue);
  const mcError_t error =
      Check(cudaGraphCreate(reinterpret_cast<cudaGraph_t*>(graph), 0));
  if (error == mcSuccess) AddGraph(*graph);
  return error;
}

mcError_t mcGraphDestroy(mcGraph_t graph) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  // Executable graphs instantiated from it stay valid; CUDA destroys the
  // graph once it leaves the quarantine (graph_handles.h).
  if (!mxcts::cuda_backend::RetireGraph(graph)) {
    return Fail(mcErrorInvalidValue);
  }
  return mcSuccess;
}

mcError_t mcGraphClone(mcGraph_t* clone, mcGraph_t original) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  if (clone == nullptr) return Fail(mcErrorInvalidValue);
  MXCTS_CHECK_GRAPH(original);
  const mcError_t error = Check(
      cudaGraphClone(reinterpret_cast<cudaGraph_t*>(clone), ToCuda(original)));
  if (error == mcSuccess) mxcts::cuda_backend::AddClone(*clone, original);
  return error;
}

mcError_t mcGraphNodeFindInClone(mcGraphNode_t* clonedNode,
                                 mcGraphNode_t originalNode,
                                 mcGraph_t clonedGraph) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  if (clonedNode == nullptr) return Fail(mcErrorInvalidValue);
  mcGraph_t original = nullptr;
  if (!mxcts::cuda_backend::IsNode(originalNode, &original)) {
    return Fail(mcErrorInvalidValue);
  }
  MXCTS_CHECK_GRAPH(clonedGraph);
  // CUDA finds a node in the graph it belongs to as well; MXMACA only in
  // a clone of that graph [api.graph.clone.independent-copy].
  if (mxcts::cuda_backend::CloneOrigin(clonedGraph) != original) {
    return Fail(mcErrorInvalidValue);
  }
  const mcError_t error = Check(cudaGraphNodeFindInClone(
      ToCudaNodeOut(clonedNode), ToCuda(originalNode), ToCuda(clonedGraph)));
  if (error == mcSuccess) AddNode(clonedGraph, *clonedNode);
  return error;
}

// --- Adding nodes. ---

mcError_t mcGraphAddKernelNode(mcGraphNode_t* node, mcGraph_t graph,
                               const mcGraphNode_t* dependencies,
                               size_t numDependencies,
                               const mcKernelNodeParams* params) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  mcError_t error = CheckAdd(node, graph, dependencies, numDependencies);
  if (error != mcSuccess) return error;
  cudaKernelNodeParams cuda;
  std::vector<void*> arguments;
  if ((error = mxcts::cuda_backend::ToCudaKernel(params, &arguments, &cuda)) !=
      mcSuccess) {
    return error;
  }
  return Added(
      cudaGraphAddKernelNode(ToCudaNodeOut(node), ToCuda(graph),
                             ToCudaNodes(dependencies), numDependencies, &cuda),
      graph, node);
}

mcError_t mcGraphAddMemcpyNode(mcGraphNode_t* node, mcGraph_t graph,
                               const mcGraphNode_t* dependencies,
                               size_t numDependencies,
                               const mcMemcpy3DParms* params) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  mcError_t error = CheckAdd(node, graph, dependencies, numDependencies);
  if (error != mcSuccess) return error;
  cudaMemcpy3DParms cuda;
  if ((error = mxcts::cuda_backend::ToCudaCopy(params, &cuda)) != mcSuccess) {
    return error;
  }
  error = Added(
      cudaGraphAddMemcpyNode(ToCudaNodeOut(node), ToCuda(graph),
                             ToCudaNodes(dependencies), numDependencies, &cuda),
      graph, node);
  if (error == mcSuccess) mxcts::cuda_backend::RememberCopy(*node, *params);
  return error;
}

mcError_t mcGraphAddMemcpyNode1D(mcGraphNode_t* node, mcGraph_t graph,
                                 const mcGraphNode_t* dependencies,
                                 size_t numDependencies, void* dst,
                                 const void* src, size_t count,
                                 mcMemcpyKind kind) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  mcError_t error = CheckAdd(node, graph, dependencies, numDependencies);
  if (error != mcSuccess) return error;
  if ((error = mxcts::cuda_backend::CheckCopyKind(kind)) != mcSuccess) {
    return error;
  }
  if (dst == nullptr || src == nullptr) return Fail(mcErrorInvalidValue);
  return Added(cudaGraphAddMemcpyNode1D(
                   ToCudaNodeOut(node), ToCuda(graph),
                   ToCudaNodes(dependencies), numDependencies, dst, src, count,
                   mxcts::cuda_backend::SameValue<cudaMemcpyKind>(kind)),
               graph, node);
}

mcError_t mcGraphAddMemcpyNodeToSymbol(mcGraphNode_t* node, mcGraph_t graph,
                                       const mcGraphNode_t* dependencies,
                                       size_t numDependencies,
                                       const void* symbol, const void* src,
                                       size_t count, size_t offset,
                                       mcMemcpyKind kind) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  mcError_t error = CheckAdd(node, graph, dependencies, numDependencies);
  if (error != mcSuccess) return error;
  if ((error = mxcts::cuda_backend::CheckCopyKind(kind)) != mcSuccess) {
    return error;
  }
  if (!WithinSymbol(symbol, offset, count)) return Fail(mcErrorInvalidValue);
  return Added(
      cudaGraphAddMemcpyNodeToSymbol(
          ToCudaNodeOut(node), ToCuda(graph), ToCudaNodes(dependencies),
          numDependencies, symbol, src, count, offset,
          mxcts::cuda_backend::SameValue<cudaMemcpyKind>(kind)),
      graph, node);
}

mcError_t mcGraphAddMemcpyNodeFromSymbol(mcGraphNode_t* node, mcGraph_t graph,
                                         const mcGraphNode_t* dependencies,
                                         size_t numDependencies, void* dst,
                                         const void* symbol, size_t count,
                                         size_t offset, mcMemcpyKind kind) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  mcError_t error = CheckAdd(node, graph, dependencies, numDependencies);
  if (error != mcSuccess) return error;
  if ((error = mxcts::cuda_backend::CheckCopyKind(kind)) != mcSuccess) {
    return error;
  }
  if (!WithinSymbol(symbol, offset, count)) return Fail(mcErrorInvalidValue);
  return Added(
      cudaGraphAddMemcpyNodeFromSymbol(
          ToCudaNodeOut(node), ToCuda(graph), ToCudaNodes(dependencies),
          numDependencies, dst, symbol, count, offset,
          mxcts::cuda_backend::SameValue<cudaMemcpyKind>(kind)),
      graph, node);
}

mcError_t mcGraphAddMemsetNode(mcGraphNode_t* node, mcGraph_t graph,
                               const mcGraphNode_t* dependencies,
                               size_t numDependencies,
                               const mcMemsetParams* params) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  mcError_t error = CheckAdd(node, graph, dependencies, numDependencies);
  if (error != mcSuccess) return error;
  cudaMemsetParams cuda;
  if ((error = mxcts::cuda_backend::ToCudaMemset(params, graph, &cuda)) !=
      mcSuccess) {
    return error;
  }
  return Added(
      cudaGraphAddMemsetNode(ToCudaNodeOut(node), ToCuda(graph),
                             ToCudaNodes(dependencies), numDependencies, &cuda),
      graph, node);
}

mcError_t mcGraphAddHostNode(mcGraphNode_t* node, mcGraph_t graph,
                             const mcGraphNode_t* dependencies,
                             size_t numDependencies,
                             const mcHostNodeParams* params) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  mcError_t error = CheckAdd(node, graph, dependencies, numDependencies);
  if (error != mcSuccess) return error;
  cudaHostNodeParams cuda;
  if ((error = mxcts::cuda_backend::ToCudaHost(params, &cuda)) != mcSuccess) {
    return error;
  }
  return Added(
      cudaGraphAddHostNode(ToCudaNodeOut(node), ToCuda(graph),
                           ToCudaNodes(dependencies), numDependencies, &cuda),
      graph, node);
}

mcError_t mcGraphAddChildGraphNode(mcGraphNode_t* node, mcGraph_t graph,
                                   const mcGraphNode_t* dependencies,
                                   size_t numDependencies,
                                   mcGraph_t childGraph) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  const mcError_t error = CheckAdd(node, graph, dependencies, numDependencies);
  if (error != mcSuccess) return error;
  MXCTS_CHECK_GRAPH(childGraph);
  if (childGraph == graph || HoldsMemoryNodes(childGraph)) {
    return Fail(mcErrorInvalidValue);
  }
  return Added(cudaGraphAddChildGraphNode(ToCudaNodeOut(node), ToCuda(graph),
                                          ToCudaNodes(dependencies),
                                          numDependencies, ToCuda(childGraph)),
               graph, node);
}

mcError_t mcGraphAddEmptyNode(mcGraphNode_t* node, mcGraph_t graph,
                              const mcGraphNode_t* dependencies,
                              size_t numDependencies) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  const mcError_t error = CheckAdd(node, graph, dependencies, numDependencies);
  if (error != mcSuccess) return error;
  return Added(
      cudaGraphAddEmptyNode(ToCudaNodeOut(node), ToCuda(graph),
                            ToCudaNodes(dependencies), numDependencies),
      graph, node);
}

mcError_t mcGraphAddEventRecordNode(mcGraphNode_t* node, mcGraph_t graph,
                                    const mcGraphNode_t* dependencies,
                                    size_t numDependencies, mcEvent_t event) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  const mcError_t error = CheckAdd(node, graph, dependencies, numDependencies);
  if (error != mcSuccess) return error;
  if (event == nullptr) return Fail(mcErrorInvalidValue);
  MXCTS_CHECK_EVENT(event);
  return Added(cudaGraphAddEventRecordNode(ToCudaNodeOut(node), ToCuda(graph),
                                           ToCudaNodes(dependencies),
                                           numDependencies, ToCuda(event)),
               graph, node);
}

mcError_t mcGraphAddEventWaitNode(mcGraphNode_t* node, mcGraph_t graph,
                                  const mcGraphNode_t* dependencies,
                                  size_t numDependencies, mcEvent_t event) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  const mcError_t error = CheckAdd(node, graph, dependencies, numDependencies);
  if (error != mcSuccess) return error;
  if (event == nullptr) return Fail(mcErrorInvalidValue);
  MXCTS_CHECK_EVENT(event);
  return Added(cudaGraphAddEventWaitNode(ToCudaNodeOut(node), ToCuda(graph),
                                         ToCudaNodes(dependencies),
                                         numDependencies, ToCuda(event)),
               graph, node);
}

mcError_t mcGraphAddMemAllocNode(mcGraphNode_t* node, mcGraph_t graph,
                                 const mcGraphNode_t* dependencies,
                                 size_t numDependencies,
                                 mcMemAllocNodeParams* params) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  mcError_t error = CheckAdd(node, graph, dependencies, numDependencies);
  if (error != mcSuccess) return error;
  // One descriptor per device at most.
  constexpr size_t kMaxAccess = 64;
  cudaMemAccessDesc access[kMaxAccess];
  cudaMemAllocNodeParams cuda;
  if ((error = mxcts::cuda_backend::ToCudaAlloc(params, &cuda, access,
                                                kMaxAccess)) != mcSuccess) {
    return error;
  }
  error = Added(cudaGraphAddMemAllocNode(ToCudaNodeOut(node), ToCuda(graph),
                                         ToCudaNodes(dependencies),
                                         numDependencies, &cuda),
                graph, node);
  if (error == mcSuccess) {
    params->dptr = cuda.dptr;
    mxcts::cuda_backend::NoteGraphAllocation(cuda.dptr);
  }
  return error;
}

mcError_t mcGraphAddMemFreeNode(mcGraphNode_t* node, mcGraph_t graph,
                                const mcGraphNode_t* dependencies,
                                size_t numDependencies, void* dptr) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  const mcError_t error = CheckAdd(node, graph, dependencies, numDependencies);
  if (error != mcSuccess) return error;
  if (dptr == nullptr) return Fail(mcErrorInvalidValue);
  // Memory this graph allocates is freed after its allocation node
  // [api.graph.mem-free-node.after-allocation]; CUDA takes a free node
  // anywhere in the graph.
  const cudaGraphNode_t allocation = AllocationAt(graph, dptr);
  if (allocation != nullptr &&
      !Precedes(allocation, dependencies, numDependencies)) {
    return Fail(mcErrorInvalidValue);
  }
  return Added(
      cudaGraphAddMemFreeNode(ToCudaNodeOut(node), ToCuda(graph),
                              ToCudaNodes(dependencies), numDependencies, dptr),
      graph, node);
}

}  // extern "C"
