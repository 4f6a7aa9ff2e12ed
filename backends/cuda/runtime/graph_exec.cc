// Copyright mxcts authors.
//
// Executable graphs (docs/spec/api-graph.md, "Instantiation and launch",
// "Updating executable graphs", "Enabling and disabling nodes") over CUDA's.
// An mcGraphExec_t is the cudaGraphExec_t itself. The adapter keeps, for
// each live executable graph, the nodes of the graph it was instantiated
// from, so that a node of another graph is mcErrorInvalidValue before CUDA
// sees it, and fills what MXMACA's instantiation reports and CUDA 13's no
// longer does (the error node and the log).

#include <cuda_runtime_api.h>

#include <cstring>
#include <vector>

#include "backends/cuda/include/mc_runtime_api.h"
#include "backends/cuda/runtime/adapter.h"
#include "backends/cuda/runtime/graph_handles.h"
#include "backends/cuda/runtime/graph_params.h"
#include "backends/cuda/runtime/handles.h"
#include "backends/cuda/runtime/launch_blocking.h"

using mxcts::cuda_backend::Check;
using mxcts::cuda_backend::CompletedIfBlocking;
using mxcts::cuda_backend::Fail;
using mxcts::cuda_backend::ToCuda;

namespace {

// The nodes of `graph` now (empty if CUDA cannot list them).
std::vector<mcGraphNode_t> NodesOf(mcGraph_t graph) {
  size_t count = 0;
  if (cudaGraphGetNodes(ToCuda(graph), nullptr, &count) != cudaSuccess) {
    cudaGetLastError();
    return {};
  }
  std::vector<mcGraphNode_t> nodes(count);
  if (count != 0 &&
      cudaGraphGetNodes(ToCuda(graph),
                        reinterpret_cast<cudaGraphNode_t*>(nodes.data()),
                        &count) != cudaSuccess) {
    cudaGetLastError();
    return {};
  }
  nodes.resize(count);
  return nodes;
}

// The first copy or memset node of `graph` whose device memory is gone
// (freed since the node was set), or null. MXMACA refuses to instantiate,
// or update from, such a graph and names the node
// [api.graph.instantiate.creates-exec,
// api.graph.exec-update.failure-result-codes]; CUDA finds it only when the
// node runs. Copies in the default direction name no side as the device's
// and are not checked, nor is memory the graph's own allocation nodes
// allocate (mapped only while a launch runs).
mcGraphNode_t StaleNode(mcGraph_t graph,
                        const std::vector<mcGraphNode_t>& nodes,
                        bool* allocates = nullptr) {
  const auto unreachable = [&](const void* ptr) {
    return mxcts::cuda_backend::Unreachable(ptr) &&
           !mxcts::cuda_backend::GraphAllocates(graph, ptr);
  };
  for (mcGraphNode_t node : nodes) {
    cudaGraphNodeType type;
    if (cudaGraphNodeGetType(ToCuda(node), &type) != cudaSuccess) {
      cudaGetLastError();
      continue;
    }
    if (type == cudaGraphNodeTypeMemAlloc && allocates != nullptr) {
      *allocates = true;
    }
    if (type == cudaGraphNodeTypeMemcpy) {
      cudaMemcpy3DParms copy;
      if (cudaGraphMemcpyNodeGetParams(ToCuda(node), &copy) != cudaSuccess) {
        cudaGetLastError();
        continue;
      }
      const bool device_src = copy.kind == cudaMemcpyDeviceToHost ||
                              copy.kind == cudaMemcpyDeviceToDevice;
      const bool device_dst = copy.kind == cudaMemcpyHostToDevice ||
                              copy.kind == cudaMemcpyDeviceToDevice;
      if ((device_src && copy.srcArray == nullptr &&
           unreachable(copy.srcPtr.ptr)) ||
          (device_dst && copy.dstArray == nullptr &&
           unreachable(copy.dstPtr.ptr))) {
        return node;
      }
    } else if (type == cudaGraphNodeTypeMemset) {
      cudaMemsetParams memset;
      if (cudaGraphMemsetNodeGetParams(ToCuda(node), &memset) != cudaSuccess) {
        cudaGetLastError();
        continue;
      }
      if (unreachable(memset.dst)) return node;
    }
  }
  return nullptr;
}

// The flags mcGraphInstantiateWithFlags takes: MXMACA graphs are never
// launched from the device [api.graph.instantiate.with-flags].
constexpr unsigned long long kInstantiateFlags =
    mcGraphInstantiateFlagAutoFreeOnLaunch | mcGraphInstantiateFlagUpload |
    mcGraphInstantiateFlagUseNodePriority;

// Instantiates `graph`; `stale` (if not null) receives the node whose
// memory is gone when that is the failure.
mcError_t Instantiate(mcGraphExec_t* exec, mcGraph_t graph,
                      unsigned long long flags, mcGraphNode_t* stale) {
  if (exec == nullptr) return Fail(mcErrorInvalidValue);
  MXCTS_CHECK_GRAPH(graph);
  *exec = nullptr;
  // One pass over the nodes finds a stale one and whether the graph
  // allocates; the node set does not change while the graph instantiates.
  std::vector<mcGraphNode_t> nodes = NodesOf(graph);
  bool allocates = false;
  const mcGraphNode_t gone = StaleNode(graph, nodes, &allocates);
  if (gone != nullptr) {
    mxcts::cuda_backend::AddNode(graph, gone);
    if (stale != nullptr) *stale = gone;
    return Fail(mcErrorInvalidValue);
  }
  const mcError_t error = Check(cudaGraphInstantiateWithFlags(
      reinterpret_cast<cudaGraphExec_t*>(exec), ToCuda(graph), flags));
  if (error != mcSuccess) {
    *exec = nullptr;
    return error;
  }
  mxcts::cuda_backend::AddNodes(graph, nodes.data(), nodes.size());
  mxcts::cuda_backend::AddExec(*exec, std::move(nodes), allocates);
  return mcSuccess;
}

// mcSuccess if `exec` is live and `node` a node of its graph of kind
// `type`, else mcErrorInvalidValue (recorded).
mcError_t CheckExecNode(mcGraphExec_t exec, mcGraphNode_t node,
                        cudaGraphNodeType type) {
  MXCTS_CHECK_EXEC(exec);
  if (!mxcts::cuda_backend::ExecHasNode(exec, node)) {
    return Fail(mcErrorInvalidValue);
  }
  cudaGraphNodeType actual;
  if (cudaGraphNodeGetType(ToCuda(node), &actual) != cudaSuccess) {
    cudaGetLastError();
    return Fail(mcErrorInvalidValue);
  }
  return actual == type ? mcSuccess : Fail(mcErrorInvalidValue);
}

}  // namespace

extern "C" {

// --- Instantiation and launch. ---

mcError_t mcGraphInstantiate(mcGraphExec_t* exec, mcGraph_t graph,
                             mcGraphNode_t* errorNode, char* logBuffer,
                             size_t bufferSize) {
  mcGraphNode_t stale = nullptr;
  const mcError_t error = Instantiate(exec, graph, 0, &stale);
  // CUDA 13 names neither the node nor the reason: the node is the one the
  // adapter found (or none) and the log says what failed.
  if (errorNode != nullptr) *errorNode = stale;
  if (logBuffer != nullptr && bufferSize != 0) {
    const char* message = error == mcSuccess ? "" : mcGetErrorString(error);
    std::strncpy(logBuffer, message, bufferSize - 1);
    logBuffer[bufferSize - 1] = '\0';
  }
  return error;
}

mcError_t mcGraphInstantiateWithFlags(mcGraphExec_t* exec, mcGraph_t graph,
                                      unsigned long long flags) {
  if ((flags & ~kInstantiateFlags) != 0) return Fail(mcErrorInvalidValue);
  // CUDA takes the upload flag only with an upload stream
  // (cudaGraphInstantiateWithParams); MXMACA's uploads nothing, so it is
  // dropped and the executable graph uploads when first launched.
  return Instantiate(exec, graph, flags & ~mcGraphInstantiateFlagUpload,
                     nullptr);
}

mcError_t mcGraphUpload(mcGraphExec_t exec, mcStream_t stream) {
  MXCTS_CHECK_EXEC(exec);
  MXCTS_CHECK_STREAM(stream);
  return CompletedIfBlocking(
      Check(cudaGraphUpload(ToCuda(exec), ToCuda(stream))), stream);
}

mcError_t mcGraphLaunch(mcGraphExec_t exec, mcStream_t stream) {
  MXCTS_CHECK_EXEC(exec);
  MXCTS_CHECK_STREAM(stream);
  return CompletedIfBlocking(
      Check(cudaGraphLaunch(ToCuda(exec), ToCuda(stream))), stream);
}

mcError_t mcGraphExecDestroy(mcGraphExec_t exec) {
  // Launches already enqueued still run; CUDA destroys the executable
  // graph once it leaves the quarantine (graph_handles.h).
  if (!mxcts::cuda_backend::RetireExec(exec)) {
    return Fail(mcErrorInvalidValue);
  }
  return mcSuccess;
}

// --- Updates. ---

mcError_t mcGraphExecUpdate(mcGraphExec_t exec, mcGraph_t graph,
                            mcGraphNode_t* errorNode,
                            mcGraphExecUpdateResult* updateResult) {
  MXCTS_CHECK_EXEC(exec);
  MXCTS_CHECK_GRAPH(graph);
  const mcGraphNode_t stale = StaleNode(graph, NodesOf(graph));
  if (stale != nullptr) {
    mxcts::cuda_backend::AddNode(graph, stale);
    if (errorNode != nullptr) *errorNode = stale;
    if (updateResult != nullptr) {
      *updateResult = mcGraphExecUpdateErrorParametersChanged;
    }
    return Fail(mcErrorGraphExecUpdateFailure);
  }
  cudaGraphExecUpdateResultInfo info = {};
  const mcError_t error =
      Check(cudaGraphExecUpdate(ToCuda(exec), ToCuda(graph), &info));
  const mcGraphNode_t node = mxcts::cuda_backend::FromCuda(info.errorNode);
  if (node != nullptr) mxcts::cuda_backend::AddNode(graph, node);
  if (errorNode != nullptr) *errorNode = node;
  if (updateResult != nullptr) {
    *updateResult = error == mcSuccess
                        ? mcGraphExecUpdateSuccess
                        : mxcts::cuda_backend::FromCudaUpdate(info.result);
  }
  if (error == mcSuccess) {
    // The updated graph's nodes name the executable graph's from now on,
    // as the original graph's still do.
    std::vector<mcGraphNode_t> nodes = NodesOf(graph);
    mxcts::cuda_backend::AddNodes(graph, nodes.data(), nodes.size());
    mxcts::cuda_backend::AddExecNodes(exec, nodes);
  }
  return error;
}

mcError_t mcGraphExecKernelNodeSetParams(mcGraphExec_t exec, mcGraphNode_t node,
                                         const mcKernelNodeParams* params) {
  mcError_t error = CheckExecNode(exec, node, cudaGraphNodeTypeKernel);
  if (error != mcSuccess) return error;
  cudaKernelNodeParams cuda;
  std::vector<void*> arguments;
  if ((error = mxcts::cuda_backend::ToCudaKernel(params, &arguments, &cuda)) !=
      mcSuccess) {
    return error;
  }
  return Check(
      cudaGraphExecKernelNodeSetParams(ToCuda(exec), ToCuda(node), &cuda));
}

mcError_t mcGraphExecMemcpyNodeSetParams(mcGraphExec_t exec, mcGraphNode_t node,
                                         const mcMemcpy3DParms* params) {
  mcError_t error = CheckExecNode(exec, node, cudaGraphNodeTypeMemcpy);
  if (error != mcSuccess) return error;
  cudaMemcpy3DParms cuda;
  if ((error = mxcts::cuda_backend::ToCudaCopy(params, &cuda)) != mcSuccess) {
    return error;
  }
  return Check(
      cudaGraphExecMemcpyNodeSetParams(ToCuda(exec), ToCuda(node), &cuda));
}

mcError_t mcGraphExecMemcpyNodeSetParams1D(mcGraphExec_t exec,
                                           mcGraphNode_t node, void* dst,
                                           const void* src, size_t count,
                                           mcMemcpyKind kind) {
  mcError_t error = CheckExecNode(exec, node, cudaGraphNodeTypeMemcpy);
  if (error != mcSuccess) return error;
  if ((error = mxcts::cuda_backend::CheckCopyKind(kind)) != mcSuccess) {
    return error;
  }
  if (dst == nullptr || src == nullptr) return Fail(mcErrorInvalidValue);
  return Check(cudaGraphExecMemcpyNodeSetParams1D(
      ToCuda(exec), ToCuda(node), dst, src, count,
      mxcts::cuda_backend::SameValue<cudaMemcpyKind>(kind)));
}

mcError_t mcGraphExecMemsetNodeSetParams(mcGraphExec_t exec, mcGraphNode_t node,
                                         const mcMemsetParams* params) {
  mcError_t error = CheckExecNode(exec, node, cudaGraphNodeTypeMemset);
  if (error != mcSuccess) return error;
  mcGraph_t graph = nullptr;
  mxcts::cuda_backend::IsNode(node, &graph);
  cudaMemsetParams cuda;
  if ((error = mxcts::cuda_backend::ToCudaMemset(params, graph, &cuda)) !=
      mcSuccess) {
    return error;
  }
  return Check(
      cudaGraphExecMemsetNodeSetParams(ToCuda(exec), ToCuda(node), &cuda));
}

mcError_t mcGraphExecHostNodeSetParams(mcGraphExec_t exec, mcGraphNode_t node,
                                       const mcHostNodeParams* params) {
  mcError_t error = CheckExecNode(exec, node, cudaGraphNodeTypeHost);
  if (error != mcSuccess) return error;
  cudaHostNodeParams cuda;
  if ((error = mxcts::cuda_backend::ToCudaHost(params, &cuda)) != mcSuccess) {
    return error;
  }
  return Check(
      cudaGraphExecHostNodeSetParams(ToCuda(exec), ToCuda(node), &cuda));
}

mcError_t mcGraphExecChildGraphNodeSetParams(mcGraphExec_t exec,
                                             mcGraphNode_t node,
                                             mcGraph_t childGraph) {
  const mcError_t error = CheckExecNode(exec, node, cudaGraphNodeTypeGraph);
  if (error != mcSuccess) return error;
  MXCTS_CHECK_GRAPH(childGraph);
  return Check(cudaGraphExecChildGraphNodeSetParams(ToCuda(exec), ToCuda(node),
                                                    ToCuda(childGraph)));
}

mcError_t mcGraphExecEventRecordNodeSetEvent(mcGraphExec_t exec,
                                             mcGraphNode_t node,
                                             mcEvent_t event) {
  const mcError_t error =
      CheckExecNode(exec, node, cudaGraphNodeTypeEventRecord);
  if (error != mcSuccess) return error;
  if (event == nullptr) return Fail(mcErrorInvalidValue);
  MXCTS_CHECK_EVENT(event);
  return Check(cudaGraphExecEventRecordNodeSetEvent(ToCuda(exec), ToCuda(node),
                                                    ToCuda(event)));
}

mcError_t mcGraphExecEventWaitNodeSetEvent(mcGraphExec_t exec,
                                           mcGraphNode_t node,
                                           mcEvent_t event) {
  const mcError_t error = CheckExecNode(exec, node, cudaGraphNodeTypeWaitEvent);
  if (error != mcSuccess) return error;
  if (event == nullptr) return Fail(mcErrorInvalidValue);
  MXCTS_CHECK_EVENT(event);
  return Check(cudaGraphExecEventWaitNodeSetEvent(ToCuda(exec), ToCuda(node),
                                                  ToCuda(event)));
}

// --- Enabling nodes. ---

mcError_t mcGraphNodeSetEnabled(mcGraphExec_t exec, mcGraphNode_t node,
                                unsigned int isEnabled) {
  MXCTS_CHECK_EXEC(exec);
  if (!mxcts::cuda_backend::ExecHasNode(exec, node)) {
    return Fail(mcErrorInvalidValue);
  }
  // Kernel, copy and memset nodes only
  // [api.graph.enable.disabled-node-acts-as-empty].
  cudaGraphNodeType type;
  if (cudaGraphNodeGetType(ToCuda(node), &type) != cudaSuccess ||
      (type != cudaGraphNodeTypeKernel && type != cudaGraphNodeTypeMemcpy &&
       type != cudaGraphNodeTypeMemset)) {
    cudaGetLastError();
    return Fail(mcErrorInvalidValue);
  }
  return Check(cudaGraphNodeSetEnabled(ToCuda(exec), ToCuda(node),
                                       isEnabled != 0 ? 1 : 0));
}

mcError_t mcGraphNodeGetEnabled(mcGraphExec_t exec, mcGraphNode_t node,
                                unsigned int* isEnabled) {
  MXCTS_CHECK_EXEC(exec);
  if (isEnabled == nullptr || !mxcts::cuda_backend::ExecHasNode(exec, node)) {
    return Fail(mcErrorInvalidValue);
  }
  cudaGraphNodeType type;
  if (cudaGraphNodeGetType(ToCuda(node), &type) != cudaSuccess ||
      (type != cudaGraphNodeTypeKernel && type != cudaGraphNodeTypeMemcpy &&
       type != cudaGraphNodeTypeMemset)) {
    cudaGetLastError();
    return Fail(mcErrorInvalidValue);
  }
  return Check(cudaGraphNodeGetEnabled(ToCuda(exec), ToCuda(node), isEnabled));
}

}  // extern "C"
