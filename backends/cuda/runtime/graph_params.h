// Copyright mxcts authors.
//
// The parameters of graph nodes, between MXMACA's structures and CUDA's.
// The structures hold the same fields, but MXMACA's are its own types
// (mcKernelNodeParams keeps the reference's dim3, mcMemPoolProps and the
// launch attribute union are declared apart from CUDA's), so each converts
// field by field rather than by a cast that a change of layout on either
// side would silently break.
//
// Each To* conversion also makes the checks MXMACA defines for the node's
// parameters and CUDA makes later or not at all (a kernel node's
// configuration and arguments, a memset node's element size, a copy's
// direction), returning the error a failing check records.

#ifndef MXCTS_BACKENDS_CUDA_RUNTIME_GRAPH_PARAMS_H_
#define MXCTS_BACKENDS_CUDA_RUNTIME_GRAPH_PARAMS_H_

#include <cuda_runtime_api.h>

#include <vector>

#include "backends/cuda/include/mc_runtime_api.h"

namespace mxcts::cuda_backend {

// A kernel node [api.graph.kernel-node.runs-kernel]: mcErrorInvalidValue
// for null parameters, arguments missing for a kernel that takes some or
// given in both forms; mcErrorInvalidDeviceFunction if `func` is no kernel;
// mcErrorInvalidConfiguration for a configuration the current device
// cannot run. Arguments packed in `extra`
// [api.graph.kernel-node.extra-argument-form] are given to CUDA as
// `kernelParams`, one pointer per parameter into the buffer (held in
// `arguments`, which must outlive the CUDA call), so the node reports them
// that way, as MXMACA's does.
mcError_t ToCudaKernel(const mcKernelNodeParams* params,
                       std::vector<void*>* arguments,
                       cudaKernelNodeParams* cuda);
mcKernelNodeParams FromCudaKernel(const cudaKernelNodeParams& cuda);

// A copy node [api.graph.memcpy-node.copies]: mcErrorInvalidValue for null
// parameters, arrays, missing pointers or a box outside a side;
// mcErrorInvalidMemcpyDirection for an unknown direction.
mcError_t ToCudaCopy(const mcMemcpy3DParms* params, cudaMemcpy3DParms* cuda);
mcMemcpy3DParms FromCudaCopy(const cudaMemcpy3DParms& cuda);
// The direction of a copy: mcErrorInvalidMemcpyDirection if unknown.
mcError_t CheckCopyKind(mcMemcpyKind kind);

// A memset node [api.graph.memset-node.sets]: mcErrorInvalidValue for null
// parameters, an element size other than 1, 2 or 4, or a destination that
// is not device, managed or page-locked memory.
// `graph` is the node's graph: memory its allocation nodes allocate is
// accepted although it is mapped only while a launch runs.
mcError_t ToCudaMemset(const mcMemsetParams* params, mcGraph_t graph,
                       cudaMemsetParams* cuda);
mcMemsetParams FromCudaMemset(const cudaMemsetParams& cuda);

// True if `ptr` lies in memory one of `graph`'s allocation nodes
// allocates.
bool GraphAllocates(mcGraph_t graph, const void* ptr);

// True if the device no longer (or never) reaches `ptr`: pageable host
// memory, or device memory freed (which reads as unregistered).
bool Unreachable(const void* ptr);

// A host node [api.graph.host-node.calls-function]: mcErrorInvalidValue for
// null parameters or a null function.
mcError_t ToCudaHost(const mcHostNodeParams* params, cudaHostNodeParams* cuda);
mcHostNodeParams FromCudaHost(const cudaHostNodeParams& cuda);

// A memory allocation node [api.graph.mem-alloc-node.allocates]; `access`
// receives the access descriptors (at most `capacity`).
mcError_t ToCudaAlloc(const mcMemAllocNodeParams* params,
                      cudaMemAllocNodeParams* cuda, cudaMemAccessDesc* access,
                      size_t capacity);
void FromCudaAlloc(const cudaMemAllocNodeParams& cuda,
                   mcMemAllocNodeParams* params);

// A kernel node attribute [api.graph.kernel-node-attribute.*]:
// mcErrorInvalidValue for an attribute MXMACA does not define for kernel
// nodes, or an invalid access policy window.
mcError_t ToCudaAttribute(mcKernelNodeAttrID attr,
                          const mcKernelNodeAttrValue& value,
                          cudaLaunchAttributeID* cuda_attr,
                          cudaLaunchAttributeValue* cuda);
void FromCudaAttribute(mcKernelNodeAttrID attr,
                       const cudaLaunchAttributeValue& cuda,
                       mcKernelNodeAttrValue* value);

// mcErrorCooperativeLaunchTooLarge if the kernel node's grid cannot be
// resident on the current device at once.
mcError_t CheckCooperativeFits(const cudaKernelNodeParams& kernel);

// The kinds and update outcomes, named one by one.
mcGraphNodeType FromCudaType(cudaGraphNodeType type);
mcGraphExecUpdateResult FromCudaUpdate(cudaGraphExecUpdateResult result);

}  // namespace mxcts::cuda_backend

#endif  // MXCTS_BACKENDS_CUDA_RUNTIME_GRAPH_PARAMS_H_
