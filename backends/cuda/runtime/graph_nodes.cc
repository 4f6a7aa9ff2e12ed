// Copyright mxcts authors.
//
// The parameters and attributes of graph nodes (docs/spec/api-graph.md,
// "Node parameters", "Kernel node attributes") over CUDA's. Every call
// checks first that the node is live and of the kind it reads or writes
// [api.graph.node-params.wrong-node-type-invalid-value]; CUDA's answer to a
// node of another kind is not MXMACA's, and some crash.

#include <cuda_runtime_api.h>

#include <vector>

#include "backends/cuda/include/mc_runtime_api.h"
#include "backends/cuda/runtime/adapter.h"
#include "backends/cuda/runtime/graph_handles.h"
#include "backends/cuda/runtime/graph_params.h"
#include "backends/cuda/runtime/handles.h"

using mxcts::cuda_backend::Check;
using mxcts::cuda_backend::Fail;
using mxcts::cuda_backend::ToCuda;

namespace {

// mcSuccess if `node` is a live node of kind `type`, else
// mcErrorInvalidValue (recorded).
mcError_t CheckKind(mcGraphNode_t node, cudaGraphNodeType type) {
  MXCTS_CHECK_NODE(node);
  cudaGraphNodeType actual;
  if (cudaGraphNodeGetType(ToCuda(node), &actual) != cudaSuccess) {
    cudaGetLastError();
    return Fail(mcErrorInvalidValue);
  }
  return actual == type ? mcSuccess : Fail(mcErrorInvalidValue);
}

// The cooperative attribute of a kernel node (0 if CUDA cannot read it).
bool IsCooperative(mcGraphNode_t node) {
  cudaLaunchAttributeValue value = {};
  if (cudaGraphKernelNodeGetAttribute(ToCuda(node),
                                      cudaLaunchAttributeCooperative,
                                      &value) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return value.cooperative != 0;
}

}  // namespace

extern "C" {

// --- Kernel nodes. ---

mcError_t mcGraphKernelNodeGetParams(mcGraphNode_t node,
                                     mcKernelNodeParams* params) {
  mcError_t error = CheckKind(node, cudaGraphNodeTypeKernel);
  if (error != mcSuccess) return error;
  if (params == nullptr) return Fail(mcErrorInvalidValue);
  cudaKernelNodeParams cuda;
  if ((error = Check(cudaGraphKernelNodeGetParams(ToCuda(node), &cuda))) !=
      mcSuccess) {
    return error;
  }
  *params = mxcts::cuda_backend::FromCudaKernel(cuda);
  return mcSuccess;
}

mcError_t mcGraphKernelNodeSetParams(mcGraphNode_t node,
                                     const mcKernelNodeParams* params) {
  mcError_t error = CheckKind(node, cudaGraphNodeTypeKernel);
  if (error != mcSuccess) return error;
  cudaKernelNodeParams cuda;
  std::vector<void*> arguments;
  if ((error = mxcts::cuda_backend::ToCudaKernel(params, &arguments, &cuda)) !=
      mcSuccess) {
    return error;
  }
  // A cooperative node's new grid must still be resident at once
  // [api.graph.kernel-node-attribute.set-then-get-round-trips].
  if (IsCooperative(node) &&
      (error = mxcts::cuda_backend::CheckCooperativeFits(cuda)) != mcSuccess) {
    return error;
  }
  return Check(cudaGraphKernelNodeSetParams(ToCuda(node), &cuda));
}

mcError_t mcGraphKernelNodeSetAttribute(mcGraphNode_t node,
                                        mcKernelNodeAttrID attr,
                                        const mcKernelNodeAttrValue* value) {
  mcError_t error = CheckKind(node, cudaGraphNodeTypeKernel);
  if (error != mcSuccess) return error;
  if (value == nullptr) return Fail(mcErrorInvalidValue);
  cudaLaunchAttributeID cuda_attr;
  cudaLaunchAttributeValue cuda;
  if ((error = mxcts::cuda_backend::ToCudaAttribute(attr, *value, &cuda_attr,
                                                    &cuda)) != mcSuccess) {
    return error;
  }
  if (cuda_attr == cudaLaunchAttributeCooperative && cuda.cooperative != 0) {
    cudaKernelNodeParams kernel;
    if ((error = Check(cudaGraphKernelNodeGetParams(ToCuda(node), &kernel))) !=
        mcSuccess) {
      return error;
    }
    if ((error = mxcts::cuda_backend::CheckCooperativeFits(kernel)) !=
        mcSuccess) {
      return error;
    }
  }
  if (cuda_attr == cudaLaunchAttributePriority) {
    // A hint, clamped to the device's stream priority range.
    int least = 0, greatest = 0;
    if (cudaDeviceGetStreamPriorityRange(&least, &greatest) == cudaSuccess) {
      if (cuda.priority > least) cuda.priority = least;
      if (cuda.priority < greatest) cuda.priority = greatest;
    }
    cudaGetLastError();
  }
  return Check(cudaGraphKernelNodeSetAttribute(ToCuda(node), cuda_attr, &cuda));
}

mcError_t mcGraphKernelNodeGetAttribute(mcGraphNode_t node,
                                        mcKernelNodeAttrID attr,
                                        mcKernelNodeAttrValue* value) {
  mcError_t error = CheckKind(node, cudaGraphNodeTypeKernel);
  if (error != mcSuccess) return error;
  if (value == nullptr) return Fail(mcErrorInvalidValue);
  cudaLaunchAttributeID cuda_attr;
  cudaLaunchAttributeValue cuda;
  // Converting a zero value finds whether MXMACA has the attribute.
  const mcKernelNodeAttrValue zero = {};
  if ((error = mxcts::cuda_backend::ToCudaAttribute(attr, zero, &cuda_attr,
                                                    &cuda)) != mcSuccess) {
    return error;
  }
  if ((error = Check(cudaGraphKernelNodeGetAttribute(ToCuda(node), cuda_attr,
                                                     &cuda))) != mcSuccess) {
    return error;
  }
  mxcts::cuda_backend::FromCudaAttribute(attr, cuda, value);
  return mcSuccess;
}

mcError_t mcGraphKernelNodeCopyAttributes(mcGraphNode_t dst,
                                          mcGraphNode_t src) {
  mcError_t error = CheckKind(dst, cudaGraphNodeTypeKernel);
  if (error != mcSuccess) return error;
  if ((error = CheckKind(src, cudaGraphNodeTypeKernel)) != mcSuccess) {
    return error;
  }
  if (IsCooperative(src)) {
    cudaKernelNodeParams kernel;
    if ((error = Check(cudaGraphKernelNodeGetParams(ToCuda(dst), &kernel))) !=
        mcSuccess) {
      return error;
    }
    if ((error = mxcts::cuda_backend::CheckCooperativeFits(kernel)) !=
        mcSuccess) {
      return error;
    }
  }
  return Check(cudaGraphKernelNodeCopyAttributes(ToCuda(dst), ToCuda(src)));
}

// --- Copy nodes. ---

mcError_t mcGraphMemcpyNodeGetParams(mcGraphNode_t node,
                                     mcMemcpy3DParms* params) {
  mcError_t error = CheckKind(node, cudaGraphNodeTypeMemcpy);
  if (error != mcSuccess) return error;
  if (params == nullptr) return Fail(mcErrorInvalidValue);
  cudaMemcpy3DParms cuda;
  if ((error = Check(cudaGraphMemcpyNodeGetParams(ToCuda(node), &cuda))) !=
      mcSuccess) {
    return error;
  }
  *params = mxcts::cuda_backend::FromCudaCopy(cuda);
  // The program's own parameters, if they still describe this copy.
  mcMemcpy3DParms given;
  if (mxcts::cuda_backend::RememberedCopy(node, &given) &&
      given.srcPtr.ptr == params->srcPtr.ptr &&
      given.dstPtr.ptr == params->dstPtr.ptr &&
      given.srcPos.x == params->srcPos.x &&
      given.dstPos.x == params->dstPos.x &&
      given.extent.width == params->extent.width &&
      given.extent.height == params->extent.height &&
      given.extent.depth == params->extent.depth &&
      given.kind == params->kind) {
    *params = given;
  }
  return mcSuccess;
}

mcError_t mcGraphMemcpyNodeSetParams(mcGraphNode_t node,
                                     const mcMemcpy3DParms* params) {
  mcError_t error = CheckKind(node, cudaGraphNodeTypeMemcpy);
  if (error != mcSuccess) return error;
  cudaMemcpy3DParms cuda;
  if ((error = mxcts::cuda_backend::ToCudaCopy(params, &cuda)) != mcSuccess) {
    return error;
  }
  if ((error = Check(cudaGraphMemcpyNodeSetParams(ToCuda(node), &cuda))) ==
      mcSuccess) {
    mxcts::cuda_backend::RememberCopy(node, *params);
  }
  return error;
}

mcError_t mcGraphMemcpyNodeSetParams1D(mcGraphNode_t node, void* dst,
                                       const void* src, size_t count,
                                       mcMemcpyKind kind) {
  mcError_t error = CheckKind(node, cudaGraphNodeTypeMemcpy);
  if (error != mcSuccess) return error;
  if ((error = mxcts::cuda_backend::CheckCopyKind(kind)) != mcSuccess) {
    return error;
  }
  if (dst == nullptr || src == nullptr) return Fail(mcErrorInvalidValue);
  return Check(cudaGraphMemcpyNodeSetParams1D(
      ToCuda(node), dst, src, count,
      mxcts::cuda_backend::SameValue<cudaMemcpyKind>(kind)));
}

// --- Memset nodes. ---

mcError_t mcGraphMemsetNodeGetParams(mcGraphNode_t node,
                                     mcMemsetParams* params) {
  mcError_t error = CheckKind(node, cudaGraphNodeTypeMemset);
  if (error != mcSuccess) return error;
  if (params == nullptr) return Fail(mcErrorInvalidValue);
  cudaMemsetParams cuda;
  if ((error = Check(cudaGraphMemsetNodeGetParams(ToCuda(node), &cuda))) !=
      mcSuccess) {
    return error;
  }
  *params = mxcts::cuda_backend::FromCudaMemset(cuda);
  return mcSuccess;
}

mcError_t mcGraphMemsetNodeSetParams(mcGraphNode_t node,
                                     const mcMemsetParams* params) {
  mcError_t error = CheckKind(node, cudaGraphNodeTypeMemset);
  if (error != mcSuccess) return error;
  mcGraph_t graph = nullptr;
  mxcts::cuda_backend::IsNode(node, &graph);
  cudaMemsetParams cuda;
  if ((error = mxcts::cuda_backend::ToCudaMemset(params, graph, &cuda)) !=
      mcSuccess) {
    return error;
  }
  return Check(cudaGraphMemsetNodeSetParams(ToCuda(node), &cuda));
}

// --- Host nodes. ---

mcError_t mcGraphHostNodeGetParams(mcGraphNode_t node,
                                   mcHostNodeParams* params) {
  mcError_t error = CheckKind(node, cudaGraphNodeTypeHost);
  if (error != mcSuccess) return error;
  if (params == nullptr) return Fail(mcErrorInvalidValue);
  cudaHostNodeParams cuda;
  if ((error = Check(cudaGraphHostNodeGetParams(ToCuda(node), &cuda))) !=
      mcSuccess) {
    return error;
  }
  *params = mxcts::cuda_backend::FromCudaHost(cuda);
  return mcSuccess;
}

mcError_t mcGraphHostNodeSetParams(mcGraphNode_t node,
                                   const mcHostNodeParams* params) {
  mcError_t error = CheckKind(node, cudaGraphNodeTypeHost);
  if (error != mcSuccess) return error;
  cudaHostNodeParams cuda;
  if ((error = mxcts::cuda_backend::ToCudaHost(params, &cuda)) != mcSuccess) {
    return error;
  }
  return Check(cudaGraphHostNodeSetParams(ToCuda(node), &cuda));
}

// --- Child graph, event and memory nodes. ---

mcError_t mcGraphChildGraphNodeGetGraph(mcGraphNode_t node, mcGraph_t* graph) {
  mcError_t error = CheckKind(node, cudaGraphNodeTypeGraph);
  if (error != mcSuccess) return error;
  if (graph == nullptr) return Fail(mcErrorInvalidValue);
  cudaGraph_t child = nullptr;
  if ((error = Check(cudaGraphChildGraphNodeGetGraph(ToCuda(node), &child))) !=
      mcSuccess) {
    return error;
  }
  *graph = mxcts::cuda_backend::FromCuda(child);
  mxcts::cuda_backend::AddOwnedGraph(*graph, node);
  return mcSuccess;
}

mcError_t mcGraphEventRecordNodeGetEvent(mcGraphNode_t node, mcEvent_t* event) {
  mcError_t error = CheckKind(node, cudaGraphNodeTypeEventRecord);
  if (error != mcSuccess) return error;
  if (event == nullptr) return Fail(mcErrorInvalidValue);
  return Check(cudaGraphEventRecordNodeGetEvent(
      ToCuda(node), reinterpret_cast<cudaEvent_t*>(event)));
}

mcError_t mcGraphEventRecordNodeSetEvent(mcGraphNode_t node, mcEvent_t event) {
  mcError_t error = CheckKind(node, cudaGraphNodeTypeEventRecord);
  if (error != mcSuccess) return error;
  if (event == nullptr) return Fail(mcErrorInvalidValue);
  MXCTS_CHECK_EVENT(event);
  return Check(cudaGraphEventRecordNodeSetEvent(ToCuda(node), ToCuda(event)));
}

mcError_t mcGraphEventWaitNodeGetEvent(mcGraphNode_t node, mcEvent_t* event) {
  mcError_t error = CheckKind(node, cudaGraphNodeTypeWaitEvent);
  if (error != mcSuccess) return error;
  if (event == nullptr) return Fail(mcErrorInvalidValue);
  return Check(cudaGraphEventWaitNodeGetEvent(
      ToCuda(node), reinterpret_cast<cudaEvent_t*>(event)));
}

mcError_t mcGraphEventWaitNodeSetEvent(mcGraphNode_t node, mcEvent_t event) {
  mcError_t error = CheckKind(node, cudaGraphNodeTypeWaitEvent);
  if (error != mcSuccess) return error;
  if (event == nullptr) return Fail(mcErrorInvalidValue);
  MXCTS_CHECK_EVENT(event);
  return Check(cudaGraphEventWaitNodeSetEvent(ToCuda(node), ToCuda(event)));
}

mcError_t mcGraphMemAllocNodeGetParams(mcGraphNode_t node,
                                       mcMemAllocNodeParams* params) {
  mcError_t error = CheckKind(node, cudaGraphNodeTypeMemAlloc);
  if (error != mcSuccess) return error;
  if (params == nullptr) return Fail(mcErrorInvalidValue);
  cudaMemAllocNodeParams cuda;
  if ((error = Check(cudaGraphMemAllocNodeGetParams(ToCuda(node), &cuda))) !=
      mcSuccess) {
    return error;
  }
  mxcts::cuda_backend::FromCudaAlloc(cuda, params);
  return mcSuccess;
}

mcError_t mcGraphMemFreeNodeGetParams(mcGraphNode_t node, void* dptr) {
  mcError_t error = CheckKind(node, cudaGraphNodeTypeMemFree);
  if (error != mcSuccess) return error;
  if (dptr == nullptr) return Fail(mcErrorInvalidValue);
  return Check(cudaGraphMemFreeNodeGetParams(ToCuda(node), dptr));
}

}  // extern "C"
