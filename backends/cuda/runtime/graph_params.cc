// Copyright mxcts authors.
//
// Node parameters between MXMACA and CUDA (graph_params.h).

#include "backends/cuda/runtime/graph_params.h"

#include <cuda_runtime_api.h>

#include <cstring>
#include <utility>
#include <vector>

#include "backends/cuda/runtime/adapter.h"

namespace mxcts::cuda_backend {
namespace {

dim3 ToCudaDim(const mcr_reference_dim3& d) { return dim3(d.x, d.y, d.z); }

mcr_reference_dim3 FromCudaDim(const dim3& d) {
  return mcr_reference_dim3(d.x, d.y, d.z);
}

// The attributes of the current device the checks read, or false if they
// cannot be read.
bool DeviceAttribute(cudaDeviceAttr attr, int* value) {
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(value, attr, device) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return true;
}

// A configuration the current device can run
// [api.graph.kernel-node.bad-configuration-invalid-configuration]: CUDA
// checks a kernel node's configuration only when it is launched.
bool ConfigurationFits(const cudaKernelNodeParams& k,
                       const cudaFuncAttributes& attributes) {
  const unsigned grid[3] = {k.gridDim.x, k.gridDim.y, k.gridDim.z};
  const unsigned block[3] = {k.blockDim.x, k.blockDim.y, k.blockDim.z};
  const cudaDeviceAttr grid_limits[3] = {
      cudaDevAttrMaxGridDimX, cudaDevAttrMaxGridDimY, cudaDevAttrMaxGridDimZ};
  const cudaDeviceAttr block_limits[3] = {cudaDevAttrMaxBlockDimX,
                                          cudaDevAttrMaxBlockDimY,
                                          cudaDevAttrMaxBlockDimZ};
  for (int i = 0; i < 3; ++i) {
    int grid_limit = 0, block_limit = 0;
    if (!DeviceAttribute(grid_limits[i], &grid_limit) ||
        !DeviceAttribute(block_limits[i], &block_limit)) {
      return false;
    }
    if (grid[i] == 0 || grid[i] > static_cast<unsigned>(grid_limit) ||
        block[i] == 0 || block[i] > static_cast<unsigned>(block_limit)) {
      return false;
    }
  }
  const unsigned long long threads =
      static_cast<unsigned long long>(block[0]) * block[1] * block[2];
  if (threads >
      static_cast<unsigned long long>(attributes.maxThreadsPerBlock)) {
    return false;
  }
  return k.sharedMemBytes <=
         static_cast<unsigned>(attributes.maxDynamicSharedSizeBytes);
}

bool KnownAccessProperty(mcAccessProperty property) {
  const int value = static_cast<int>(property);
  return value >= mcAccessPropertyNormal && value <= mcAccessPropertyPersisting;
}

}  // namespace

mcError_t ToCudaKernel(const mcKernelNodeParams* params,
                       std::vector<void*>* arguments,
                       cudaKernelNodeParams* cuda) {
  if (params == nullptr) return Fail(mcErrorInvalidValue);
  *cuda = cudaKernelNodeParams{};
  cuda->func = params->func;
  cuda->gridDim = ToCudaDim(params->gridDim);
  cuda->blockDim = ToCudaDim(params->blockDim);
  cuda->sharedMemBytes = params->sharedMemBytes;
  cuda->kernelParams = params->kernelParams;
  // A pointer that is no kernel is an invalid device function
  // [api.graph.kernel-node.bad-function-invalid-device-function]. CUDA's
  // attribute and parameter queries take any pointer for a function handle
  // and crash on device memory, so the kernel is first looked up among the
  // program's registered kernels, which is safe for any pointer.
  cudaFunction_t function = nullptr;
  cudaFuncAttributes attributes;
  if (params->func == nullptr ||
      cudaGetFuncBySymbol(&function, params->func) != cudaSuccess ||
      cudaFuncGetAttributes(&attributes, params->func) != cudaSuccess) {
    cudaGetLastError();
    return Fail(mcErrorInvalidDeviceFunction);
  }
  // The parameters' places, as the kernel's code has them.
  std::vector<std::pair<size_t, size_t>> places;
  for (size_t i = 0;; ++i) {
    size_t offset = 0, size = 0;
    if (cudaFuncGetParamInfo(params->func, i, &offset, &size) != cudaSuccess) {
      cudaGetLastError();
      break;
    }
    places.emplace_back(offset, size);
  }
  // The arguments of a kernel that takes some, in exactly one form.
  if (params->kernelParams != nullptr && params->extra != nullptr) {
    return Fail(mcErrorInvalidValue);
  }
  if (!places.empty() && params->kernelParams == nullptr &&
      params->extra == nullptr) {
    return Fail(mcErrorInvalidValue);
  }
  if (params->extra != nullptr) {
    // MC_LAUNCH_PARAM_BUFFER_POINTER, buffer, MC_LAUNCH_PARAM_BUFFER_SIZE,
    // &size, MC_LAUNCH_PARAM_END, in either order: a buffer that holds
    // every parameter where the kernel's code has it.
    char* buffer = nullptr;
    const size_t* buffer_size = nullptr;
    void** extra = params->extra;
    for (size_t i = 0; extra[i] != MC_LAUNCH_PARAM_END; i += 2) {
      if (extra[i] == MC_LAUNCH_PARAM_BUFFER_POINTER) {
        buffer = static_cast<char*>(extra[i + 1]);
      } else if (extra[i] == MC_LAUNCH_PARAM_BUFFER_SIZE) {
        buffer_size = static_cast<const size_t*>(extra[i + 1]);
      } else {
        return Fail(mcErrorInvalidValue);
      }
    }
    if (buffer == nullptr || buffer_size == nullptr) {
      return Fail(mcErrorInvalidValue);
    }
    arguments->clear();
    for (const auto& [offset, size] : places) {
      if (offset + size > *buffer_size) return Fail(mcErrorInvalidValue);
      arguments->push_back(buffer + offset);
    }
    cuda->kernelParams = arguments->empty() ? nullptr : arguments->data();
  }
  if (!ConfigurationFits(*cuda, attributes)) {
    return Fail(mcErrorInvalidConfiguration);
  }
  return mcSuccess;
}

mcKernelNodeParams FromCudaKernel(const cudaKernelNodeParams& cuda) {
  mcKernelNodeParams params;
  params.func = cuda.func;
  params.gridDim = FromCudaDim(cuda.gridDim);
  params.blockDim = FromCudaDim(cuda.blockDim);
  params.sharedMemBytes = cuda.sharedMemBytes;
  params.kernelParams = cuda.kernelParams;
  params.extra = cuda.extra;
  return params;
}

mcError_t CheckCopyKind(mcMemcpyKind kind) {
  const int value = static_cast<int>(kind);
  if (value < mcMemcpyHostToHost || value > mcMemcpyDefault) {
    return Fail(mcErrorInvalidMemcpyDirection);
  }
  return mcSuccess;
}

mcError_t ToCudaCopy(const mcMemcpy3DParms* p, cudaMemcpy3DParms* cuda) {
  if (p == nullptr) return Fail(mcErrorInvalidValue);
  // The adapter creates no arrays: only linear memory.
  if (p->srcArray != nullptr || p->dstArray != nullptr ||
      p->srcPtr.ptr == nullptr || p->dstPtr.ptr == nullptr) {
    return Fail(mcErrorInvalidValue);
  }
  const mcError_t kind = CheckCopyKind(p->kind);
  if (kind != mcSuccess) return kind;
  // Each side's rows end within its pitch, and the box within its slice
  // [api.memory.memcpy-3d.pitch-less-than-width,
  // api.memory.memcpy-3d.box-outside-slice].
  const struct {
    const mcPitchedPtr& ptr;
    const mcPos& pos;
  } sides[] = {{p->srcPtr, p->srcPos}, {p->dstPtr, p->dstPos}};
  for (const auto& side : sides) {
    if (side.pos.x + p->extent.width > side.ptr.pitch) {
      return Fail(mcErrorInvalidPitchValue);
    }
    if (side.ptr.ysize != 0 && side.pos.y + p->extent.height > side.ptr.ysize) {
      return Fail(mcErrorInvalidValue);
    }
  }
  *cuda = ToCudaLinearCopy(*p);
  return mcSuccess;
}

mcMemcpy3DParms FromCudaCopy(const cudaMemcpy3DParms& cuda) {
  mcMemcpy3DParms p{};
  p.srcArray = nullptr;
  p.srcPos = make_mcPos(cuda.srcPos.x, cuda.srcPos.y, cuda.srcPos.z);
  p.srcPtr = make_mcPitchedPtr(cuda.srcPtr.ptr, cuda.srcPtr.pitch,
                               cuda.srcPtr.xsize, cuda.srcPtr.ysize);
  p.dstArray = nullptr;
  p.dstPos = make_mcPos(cuda.dstPos.x, cuda.dstPos.y, cuda.dstPos.z);
  p.dstPtr = make_mcPitchedPtr(cuda.dstPtr.ptr, cuda.dstPtr.pitch,
                               cuda.dstPtr.xsize, cuda.dstPtr.ysize);
  p.extent =
      make_mcExtent(cuda.extent.width, cuda.extent.height, cuda.extent.depth);
  p.kind = static_cast<mcMemcpyKind>(static_cast<int>(cuda.kind));
  return p;
}

bool GraphAllocates(mcGraph_t graph, const void* ptr) {
  size_t count = 0;
  if (cudaGraphGetNodes(reinterpret_cast<cudaGraph_t>(graph), nullptr,
                        &count) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  std::vector<cudaGraphNode_t> nodes(count);
  if (count != 0 && cudaGraphGetNodes(reinterpret_cast<cudaGraph_t>(graph),
                                      nodes.data(), &count) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  const char* p = static_cast<const char*>(ptr);
  for (size_t i = 0; i < count; ++i) {
    cudaGraphNodeType type;
    cudaMemAllocNodeParams alloc;
    if (cudaGraphNodeGetType(nodes[i], &type) == cudaSuccess &&
        type == cudaGraphNodeTypeMemAlloc &&
        cudaGraphMemAllocNodeGetParams(nodes[i], &alloc) == cudaSuccess) {
      const char* start = static_cast<const char*>(alloc.dptr);
      if (p >= start && p < start + alloc.bytesize) return true;
    }
    cudaGetLastError();
  }
  return false;
}

bool Unreachable(const void* ptr) {
  cudaPointerAttributes attributes;
  const bool unreachable =
      cudaPointerGetAttributes(&attributes, ptr) != cudaSuccess ||
      attributes.type == cudaMemoryTypeUnregistered;
  cudaGetLastError();
  return unreachable;
}

mcError_t ToCudaMemset(const mcMemsetParams* params, mcGraph_t graph,
                       cudaMemsetParams* cuda) {
  if (params == nullptr) return Fail(mcErrorInvalidValue);
  if (params->elementSize != 1 && params->elementSize != 2 &&
      params->elementSize != 4) {
    return Fail(mcErrorInvalidValue);
  }
  // The rows must lie in memory the device reaches
  // [api.graph.memset-node.sets]; CUDA finds pageable memory only when the
  // node runs.
  if (Unreachable(params->dst) && !GraphAllocates(graph, params->dst)) {
    return Fail(mcErrorInvalidValue);
  }
  *cuda = cudaMemsetParams{};
  cuda->dst = params->dst;
  cuda->pitch = params->pitch;
  // The value truncated to the element size
  // [api.graph.memset-node.sets]; CUDA leaves the bits above it to chance.
  cuda->value = params->elementSize == 4
                    ? params->value
                    : params->value & ((1u << (8 * params->elementSize)) - 1);
  cuda->elementSize = params->elementSize;
  cuda->width = params->width;
  cuda->height = params->height;
  return mcSuccess;
}

mcMemsetParams FromCudaMemset(const cudaMemsetParams& cuda) {
  mcMemsetParams params;
  params.dst = cuda.dst;
  params.pitch = cuda.pitch;
  params.value = cuda.value;
  params.elementSize = cuda.elementSize;
  params.width = cuda.width;
  params.height = cuda.height;
  return params;
}

mcError_t ToCudaHost(const mcHostNodeParams* params, cudaHostNodeParams* cuda) {
  if (params == nullptr || params->fn == nullptr) {
    return Fail(mcErrorInvalidValue);
  }
  cuda->fn = params->fn;
  cuda->userData = params->userData;
  return mcSuccess;
}

mcHostNodeParams FromCudaHost(const cudaHostNodeParams& cuda) {
  mcHostNodeParams params;
  params.fn = cuda.fn;
  params.userData = cuda.userData;
  return params;
}

mcError_t ToCudaAlloc(const mcMemAllocNodeParams* params,
                      cudaMemAllocNodeParams* cuda, cudaMemAccessDesc* access,
                      size_t capacity) {
  if (params == nullptr || params->bytesize == 0) {
    return Fail(mcErrorInvalidValue);
  }
  if (params->accessDescCount > capacity ||
      (params->accessDescCount != 0 && params->accessDescs == nullptr)) {
    return Fail(mcErrorInvalidValue);
  }
  const mcMemPoolProps& props = params->poolProps;
  *cuda = cudaMemAllocNodeParams{};
  cuda->poolProps.allocType = SameValue<cudaMemAllocationType>(props.allocType);
  cuda->poolProps.handleTypes =
      SameValue<cudaMemAllocationHandleType>(props.handleTypes);
  cuda->poolProps.location.type =
      SameValue<cudaMemLocationType>(props.location.type);
  cuda->poolProps.location.id = props.location.id;
  cuda->poolProps.win32SecurityAttributes = props.win32SecurityAttributes;
  cuda->poolProps.maxSize = props.maxSize;
  cuda->poolProps.usage = props.usage;
  static_assert(sizeof(cuda->poolProps.reserved) >= sizeof(props.reserved),
                "MXMACA's reserved bytes fit CUDA's");
  std::memcpy(cuda->poolProps.reserved, props.reserved, sizeof(props.reserved));
  for (size_t i = 0; i < params->accessDescCount; ++i) {
    access[i].location.type =
        SameValue<cudaMemLocationType>(params->accessDescs[i].location.type);
    access[i].location.id = params->accessDescs[i].location.id;
    access[i].flags =
        SameValue<cudaMemAccessFlags>(params->accessDescs[i].flags);
  }
  cuda->accessDescs = params->accessDescCount == 0 ? nullptr : access;
  cuda->accessDescCount = params->accessDescCount;
  cuda->bytesize = params->bytesize;
  return mcSuccess;
}

void FromCudaAlloc(const cudaMemAllocNodeParams& cuda,
                   mcMemAllocNodeParams* params) {
  mcMemPoolProps& props = params->poolProps;
  props = mcMemPoolProps{};
  props.allocType = static_cast<mcMemAllocationType>(
      static_cast<int>(cuda.poolProps.allocType));
  props.handleTypes = static_cast<mcMemAllocationHandleType>(
      static_cast<int>(cuda.poolProps.handleTypes));
  props.location.type = static_cast<mcMemLocationType>(
      static_cast<int>(cuda.poolProps.location.type));
  props.location.id = cuda.poolProps.location.id;
  props.win32SecurityAttributes = cuda.poolProps.win32SecurityAttributes;
  props.maxSize = cuda.poolProps.maxSize;
  props.usage = cuda.poolProps.usage;
  // CUDA's access descriptors are its own copy; the program's array is not
  // kept, so only their count is reported.
  params->accessDescs = nullptr;
  params->accessDescCount = cuda.accessDescCount;
  params->bytesize = cuda.bytesize;
  params->dptr = cuda.dptr;
}

mcError_t ToCudaAttribute(mcKernelNodeAttrID attr,
                          const mcKernelNodeAttrValue& value,
                          cudaLaunchAttributeID* cuda_attr,
                          cudaLaunchAttributeValue* cuda) {
  std::memset(cuda, 0, sizeof(*cuda));
  switch (attr) {
    case mcKernelNodeAttributeAccessPolicyWindow: {
      const mcAccessPolicyWindow& window = value.accessPolicyWindow;
      int largest = 0;
      if (!(window.hitRatio >= 0.0f && window.hitRatio <= 1.0f) ||
          !KnownAccessProperty(window.hitProp) ||
          !KnownAccessProperty(window.missProp) ||
          !DeviceAttribute(cudaDevAttrMaxAccessPolicyWindowSize, &largest) ||
          window.num_bytes > static_cast<size_t>(largest)) {
        return Fail(mcErrorInvalidValue);
      }
      *cuda_attr = cudaLaunchAttributeAccessPolicyWindow;
      cuda->accessPolicyWindow.base_ptr = window.base_ptr;
      cuda->accessPolicyWindow.num_bytes = window.num_bytes;
      cuda->accessPolicyWindow.hitRatio = window.hitRatio;
      cuda->accessPolicyWindow.hitProp =
          SameValue<cudaAccessProperty>(window.hitProp);
      // CUDA takes no persisting property for misses (stream_event.cc says
      // why normal is given instead).
      cuda->accessPolicyWindow.missProp =
          window.missProp == mcAccessPropertyPersisting
              ? cudaAccessPropertyNormal
              : SameValue<cudaAccessProperty>(window.missProp);
      return mcSuccess;
    }
    case mcKernelNodeAttributeCooperative:
      *cuda_attr = cudaLaunchAttributeCooperative;
      cuda->cooperative = value.cooperative != 0 ? 1 : 0;
      return mcSuccess;
    case mcKernelNodeAttributePriority:
      *cuda_attr = cudaLaunchAttributePriority;
      cuda->priority = value.priority;
      return mcSuccess;
    default:
      return Fail(mcErrorInvalidValue);
  }
}

void FromCudaAttribute(mcKernelNodeAttrID attr,
                       const cudaLaunchAttributeValue& cuda,
                       mcKernelNodeAttrValue* value) {
  std::memset(value, 0, sizeof(*value));
  switch (attr) {
    case mcKernelNodeAttributeAccessPolicyWindow:
      value->accessPolicyWindow.base_ptr = cuda.accessPolicyWindow.base_ptr;
      value->accessPolicyWindow.num_bytes = cuda.accessPolicyWindow.num_bytes;
      value->accessPolicyWindow.hitRatio = cuda.accessPolicyWindow.hitRatio;
      value->accessPolicyWindow.hitProp = static_cast<mcAccessProperty>(
          static_cast<int>(cuda.accessPolicyWindow.hitProp));
      value->accessPolicyWindow.missProp = static_cast<mcAccessProperty>(
          static_cast<int>(cuda.accessPolicyWindow.missProp));
      break;
    case mcKernelNodeAttributeCooperative:
      value->cooperative = cuda.cooperative;
      break;
    case mcKernelNodeAttributePriority:
      value->priority = cuda.priority;
      break;
    default:
      break;
  }
}

mcError_t CheckCooperativeFits(const cudaKernelNodeParams& kernel) {
  const unsigned long long threads =
      static_cast<unsigned long long>(kernel.blockDim.x) * kernel.blockDim.y *
      kernel.blockDim.z;
  int per_multiprocessor = 0, multiprocessors = 0;
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(
          &per_multiprocessor, kernel.func, static_cast<int>(threads),
          kernel.sharedMemBytes) != cudaSuccess ||
      !DeviceAttribute(cudaDevAttrMultiProcessorCount, &multiprocessors)) {
    cudaGetLastError();
    return Fail(mcErrorCooperativeLaunchTooLarge);
  }
  const unsigned long long blocks =
      static_cast<unsigned long long>(kernel.gridDim.x) * kernel.gridDim.y *
      kernel.gridDim.z;
  if (blocks > static_cast<unsigned long long>(per_multiprocessor) *
                   static_cast<unsigned long long>(multiprocessors)) {
    return Fail(mcErrorCooperativeLaunchTooLarge);
  }
  return mcSuccess;
}

mcGraphNodeType FromCudaType(cudaGraphNodeType type) {
  switch (type) {
    case cudaGraphNodeTypeKernel:
      return mcGraphNodeTypeKernel;
    case cudaGraphNodeTypeMemcpy:
      return mcGraphNodeTypeMemcpy;
    case cudaGraphNodeTypeMemset:
      return mcGraphNodeTypeMemset;
    case cudaGraphNodeTypeHost:
      return mcGraphNodeTypeHost;
    case cudaGraphNodeTypeGraph:
      return mcGraphNodeTypeGraph;
    case cudaGraphNodeTypeEmpty:
      return mcGraphNodeTypeEmpty;
    case cudaGraphNodeTypeWaitEvent:
      return mcGraphNodeTypeWaitEvent;
    case cudaGraphNodeTypeEventRecord:
      return mcGraphNodeTypeEventRecord;
    case cudaGraphNodeTypeExtSemaphoreSignal:
      return mcGraphNodeTypeExtSemaphoreSignal;
    case cudaGraphNodeTypeExtSemaphoreWait:
      return mcGraphNodeTypeExtSemaphoreWait;
    case cudaGraphNodeTypeMemAlloc:
      return mcGraphNodeTypeMemAlloc;
    case cudaGraphNodeTypeMemFree:
      return mcGraphNodeTypeMemFree;
    default:
      // Conditional nodes, which MXMACA has not: no graph the adapter
      // builds holds one.
      return mcGraphNodeTypeCount;
  }
}

mcGraphExecUpdateResult FromCudaUpdate(cudaGraphExecUpdateResult result) {
  switch (result) {
    case cudaGraphExecUpdateSuccess:
      return mcGraphExecUpdateSuccess;
    case cudaGraphExecUpdateError:
      return mcGraphExecUpdateError;
    case cudaGraphExecUpdateErrorTopologyChanged:
      return mcGraphExecUpdateErrorTopologyChanged;
    case cudaGraphExecUpdateErrorNodeTypeChanged:
      return mcGraphExecUpdateErrorNodeTypeChanged;
    case cudaGraphExecUpdateErrorFunctionChanged:
      return mcGraphExecUpdateErrorFunctionChanged;
    case cudaGraphExecUpdateErrorParametersChanged:
      return mcGraphExecUpdateErrorParametersChanged;
    case cudaGraphExecUpdateErrorNotSupported:
      return mcGraphExecUpdateErrorNotSupported;
    case cudaGraphExecUpdateErrorUnsupportedFunctionChange:
      return mcGraphExecUpdateErrorUnsupportedFunctionChange;
    case cudaGraphExecUpdateErrorAttributesChanged:
      return mcGraphExecUpdateErrorAttributesChanged;
    default:
      return mcGraphExecUpdateError;
  }
}

}  // namespace mxcts::cuda_backend
