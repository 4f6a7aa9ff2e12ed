// Copyright mxcts authors.
//
// Memory (docs/spec/api-memory.md) over the CUDA runtime: allocation of
// device, host and managed memory, copies and fills, pitched and 3D
// memory, symbols, pointer attributes, managed memory advice, peers.
//
// MXMACA's structures of pitched memory, extents and positions have CUDA's
// fields in CUDA's order, and its enumerations of copy kinds, advice and
// range attributes CUDA's values; they are converted field by field and by
// value.

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <cstdint>
#include <map>
#include <mutex>

#include "backends/cuda/runtime/adapter.h"
#include "backends/cuda/runtime/driver_api.h"
#include "backends/cuda/runtime/environment.h"
#include "backends/cuda/runtime/graph_params.h"
#include "backends/cuda/runtime/handles.h"
#include "backends/cuda/runtime/ipc.h"
#include "backends/cuda/runtime/launch_blocking.h"
#include "backends/cuda/runtime/pools.h"

namespace mxcts::cuda_backend {
namespace {

mcPitchedPtr FromCudaPitched(const cudaPitchedPtr& p) {
  return make_mcPitchedPtr(p.ptr, p.pitch, p.xsize, p.ysize);
}

cudaMemcpyKind Kind(mcMemcpyKind kind) {
  return SameValue<cudaMemcpyKind>(kind);
}

cudaMemLocation Location(const mcMemLocation& location) {
  cudaMemLocation cuda = {};
  cuda.type = SameValue<cudaMemLocationType>(location.type);
  cuda.id = location.id;
  return cuda;
}

// The location form of a device ordinal, mcCpuDeviceId being the host.
mcMemLocation DeviceLocation(int device) {
  mcMemLocation location;
  if (device == mcCpuDeviceId) {
    location.type = mcMemLocationTypeHost;
    location.id = 0;
  } else {
    location.type = mcMemLocationTypeDevice;
    location.id = device;
  }
  return location;
}

mcError_t Check3D(const mcMemcpy3DParms* p, cudaMemcpy3DParms* cuda) {
  if (p == nullptr) return Fail(mcErrorInvalidValue);
  // MXMACA arrays are not part of this adapter; only linear memory.
  if (p->srcArray != nullptr || p->dstArray != nullptr) {
    return Fail(mcErrorInvalidValue);
  }
  // Each side needs a pointer [api.memory.memcpy-3d.array-and-pointer]; its
  // rows must end within the pitch [api.memory.memcpy-3d.pitch-less-than-width]
  // and the box within the slice [api.memory.memcpy-3d.box-outside-slice].
  if (p->srcPtr.ptr == nullptr || p->dstPtr.ptr == nullptr) {
    return Fail(mcErrorInvalidValue);
  }
  const struct {
    const mcPitchedPtr& ptr;
    const mcPos& pos;
  } sides[] = {{p->srcPtr, p->srcPos}, {p->dstPtr, p->dstPos}};
  for (const auto& side : sides) {
    if (side.pos.x + p->extent.width > side.ptr.pitch) {
      return Fail(mcErrorInvalidPitchValue);
    }
  }
  for (const auto& side : sides) {
    if (side.ptr.ysize != 0 && side.pos.y + p->extent.height > side.ptr.ysize) {
      return Fail(mcErrorInvalidValue);
    }
  }
  *cuda = ToCudaLinearCopy(*p);
  return mcSuccess;
}

// False if either pitch of a 2D copy is above the device's largest
// [api.memory.memcpy-2d.pitch-exceeds-maximum], which CUDA checks only for
// device memory. The adapter checks it for every copy, but only after the
// kind: a copy with an unknown kind is refused for its kind first
// [api.memory.memcpy-2d.invalid-kind], as CUDA does.
bool PitchesWithinMaximum(size_t dpitch, size_t spitch) {
  int device = 0;
  int largest = 0;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&largest, cudaDevAttrMaxPitch, device) !=
          cudaSuccess) {
    cudaGetLastError();
    return true;
  }
  return dpitch <= static_cast<size_t>(largest) &&
         spitch <= static_cast<size_t>(largest);
}

// The adapter's own checks of a 2D copy, before CUDA's: the kind, then the
// pitch maximum. An empty copy (no width or no height) is left to CUDA,
// which succeeds whatever its kind [api.memory.memcpy-2d.zero-extent].
mcError_t CheckNonEmpty2D(size_t width, size_t height, size_t dpitch,
                          size_t spitch, mcMemcpyKind kind) {
  if (width == 0 || height == 0) return mcSuccess;
  if (const mcError_t bad_kind = CheckCopyKind(kind); bad_kind != mcSuccess) {
    return bad_kind;
  }
  if (!PitchesWithinMaximum(dpitch, spitch)) {
    return Fail(mcErrorInvalidPitchValue);
  }
  return mcSuccess;
}

// False if [offset, offset + count) leaves the variable `symbol`
// [api.memory.symbol.past-end]; CUDA lets an empty copy past the end
// through. An unknown symbol is left for CUDA to report.
bool WithinSymbol(const void* symbol, size_t offset, size_t count) {
  size_t size = 0;
  if (cudaGetSymbolSize(&size, symbol) != cudaSuccess) {
    cudaGetLastError();
    return true;
  }
  return offset <= size && count <= size - offset;
}

mcError_t Driver(CUresult result) {
  switch (result) {
    case CUDA_SUCCESS:
      return mcSuccess;
    case CUDA_ERROR_INVALID_VALUE:
      return Fail(mcErrorInvalidValue);
    case CUDA_ERROR_NOT_FOUND:
      return Fail(mcErrorInvalidDevicePointer);
    case CUDA_ERROR_NOT_SUPPORTED:
      return Fail(mcErrorNotSupported);
    default:
      // The driver's codes below 1000 are the runtime's of the same number
      // for the failures these calls can have.
      return Fail(FromCuda(static_cast<cudaError_t>(result)));
  }
}

// The type CUDA gives the memory at `ptr`, or cudaMemoryTypeUnregistered
// (CUDA's last error left clear).
cudaMemoryType TypeOf(const void* ptr) {
  cudaPointerAttributes attributes;
  if (cudaPointerGetAttributes(&attributes, ptr) != cudaSuccess) {
    cudaGetLastError();
    return cudaMemoryTypeUnregistered;
  }
  return attributes.type;
}

// True if the driver-form copies may take `ptr` as a device pointer
// [api.memory.memcpy-driver.invalid-device-pointer]: device or managed
// memory, not page-locked host memory (which CUDA would accept).
bool IsDeviceMemory(const void* ptr) {
  const cudaMemoryType type = TypeOf(ptr);
  return type == cudaMemoryTypeDevice || type == cudaMemoryTypeManaged;
}

// The ranges registered with mcHostRegister (base -> bytes): CUDA reports
// their flags, which MXMACA keeps for memory the runtime allocated
// [api.memory.host-get-flags.not-host-allocation].
std::mutex registered_mutex;
std::map<uintptr_t, size_t>& Registered() {
  static auto* ranges = new std::map<uintptr_t, size_t>();
  return *ranges;
}

// The page-locked allocations of mcMallocHost and mcHostAlloc (base ->
// bytes and the flags given): MXMACA reports the flags the program gave
// [api.memory.host-get-flags.returns-allocation-flags], where CUDA adds mapping
// to every allocation of a device with unified addressing.
struct HostAllocation {
  size_t bytes;
  unsigned int flags;
};
std::map<uintptr_t, HostAllocation>& HostAllocations() {
  static auto* allocations = new std::map<uintptr_t, HostAllocation>();
  return *allocations;
}

// The flags given for the allocation holding `ptr`; false if none.
bool GivenHostFlags(const void* ptr, unsigned int* flags) {
  const uintptr_t address = reinterpret_cast<uintptr_t>(ptr);
  std::lock_guard<std::mutex> lock(registered_mutex);
  auto it = HostAllocations().upper_bound(address);
  if (it == HostAllocations().begin()) return false;
  --it;
  if (address >= it->first + it->second.bytes) return false;
  *flags = it->second.flags;
  return true;
}

bool InRegisteredRange(const void* ptr) {
  const uintptr_t address = reinterpret_cast<uintptr_t>(ptr);
  std::lock_guard<std::mutex> lock(registered_mutex);
  auto it = Registered().upper_bound(address);
  if (it == Registered().begin()) return false;
  --it;
  return address < it->first + it->second;
}

// The advice that take a location, whose device must exist
// [api.memory.advise.invalid-device]; the others ignore it
// [api.memory.advise.location-form].
bool AdviceTakesLocation(mcMemoryAdvise advice) {
  return advice == mcMemAdviseSetPreferredLocation ||
         advice == mcMemAdviseSetAccessedBy ||
         advice == mcMemAdviseUnsetAccessedBy;
}

}  // namespace
}  // namespace mxcts::cuda_backend

using namespace mxcts::cuda_backend;  // NOLINT: the adapter's helpers

extern "C" {

// --- Allocation. ---

mcError_t mcMalloc(void** ptr, size_t size) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  if (ptr == nullptr) return Fail(mcErrorInvalidValue);
  return Check(cudaMalloc(ptr, size));
}

mcError_t mcFree(void* ptr) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  // A mapping of another process's memory is closed, not freed
  // [api.ipc.close-mem-handle.mcfree-rejected].
  if (mxcts::cuda_backend::InIpcMapping(ptr)) return Fail(mcErrorInvalidValue);
  // A stream-ordered allocation leaves the adapter's record with it
  // [api.pool.free-async.mcfree-also-frees].
  const mxcts::cuda_backend::TakenAllocation taken =
      mxcts::cuda_backend::TakeStreamOrderedAllocation(ptr);
  const mcError_t error = taken.taken
                              ? mxcts::cuda_backend::FreeTakenAllocation(taken)
                              : Check(cudaFree(ptr));
  if (error != mcSuccess) {
    mxcts::cuda_backend::RestoreStreamOrderedAllocation(taken);
  }
  return error;
}

mcError_t mcMallocPitch(void** devPtr, size_t* pitch, size_t width,
                        size_t height) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  if (devPtr == nullptr || pitch == nullptr) return Fail(mcErrorInvalidValue);
  const cudaError_t error = cudaMallocPitch(devPtr, pitch, width, height);
  // With both outputs given, CUDA's only objection is a size it cannot
  // allocate, which MXMACA calls what it is
  // [api.memory.malloc-pitch.out-of-memory].
  if (error == cudaErrorInvalidValue) {
    cudaGetLastError();
    return Fail(mcErrorMemoryAllocation);
  }
  return Check(error);
}

mcError_t mcMalloc3D(mcPitchedPtr* pitchedDevPtr, mcExtent extent) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  if (pitchedDevPtr == nullptr) return Fail(mcErrorInvalidValue);
  cudaPitchedPtr cuda;
  const mcError_t error = Check(cudaMalloc3D(&cuda, ToCuda(extent)));
  if (error == mcSuccess) *pitchedDevPtr = FromCudaPitched(cuda);
  return error;
}

mcError_t mcMemGetInfo(size_t* free, size_t* total) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  if (free == nullptr || total == nullptr) return Fail(mcErrorInvalidValue);
  return Check(cudaMemGetInfo(free, total));
}

mcError_t mcMallocHost(void** ptr, size_t size, unsigned int flags) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  if (ptr == nullptr) return Fail(mcErrorInvalidValue);
  const cudaError_t error = cudaHostAlloc(ptr, size, flags);
  // CUDA calls a size near SIZE_MAX an invalid value; MXMACA an allocation
  // that cannot be made [api.memory.malloc-host.out-of-memory].
  if (error == cudaErrorInvalidValue && size > (SIZE_MAX >> 1)) {
    cudaGetLastError();
    return Fail(mcErrorMemoryAllocation);
  }
  if (error == cudaSuccess) {
    std::lock_guard<std::mutex> lock(registered_mutex);
    HostAllocations()[reinterpret_cast<uintptr_t>(*ptr)] =
        HostAllocation{size, flags};
  }
  return Check(error);
}

mcError_t mcHostAlloc(void** ptr, size_t size, unsigned int flags) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  return mcMallocHost(ptr, size, flags);
}

mcError_t mcFreeHost(void* ptr) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  const mcError_t error = Check(cudaFreeHost(ptr));
  if (error == mcSuccess) {
    std::lock_guard<std::mutex> lock(registered_mutex);
    HostAllocations().erase(reinterpret_cast<uintptr_t>(ptr));
  }
  return error;
}

mcError_t mcHostGetFlags(unsigned int* flags, void* ptr) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  if (flags == nullptr) return Fail(mcErrorInvalidValue);
  if (TypeOf(ptr) != cudaMemoryTypeHost || InRegisteredRange(ptr)) {
    return Fail(mcErrorInvalidValue);
  }
  if (GivenHostFlags(ptr, flags)) return mcSuccess;
  return Check(cudaHostGetFlags(flags, ptr));
}

mcError_t mcHostRegister(void* ptr, size_t size, unsigned int flags) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  // The adapter registers no I/O memory
  // [api.memory.host-register.unsupported-flag]; CUDA calls ordinary memory
  // given that flag an invalid value.
  // Memory the runtime allocated is registered already (page-locked) or is
  // no host memory at all [api.memory.host-register.device-memory,
  // api.memory.host-register.already-registered].
  const cudaMemoryType type = TypeOf(ptr);
  if (type == cudaMemoryTypeHost) {
    return Fail(mcErrorHostMemoryAlreadyRegistered);
  }
  if (type == cudaMemoryTypeDevice || type == cudaMemoryTypeManaged) {
    return Fail(mcErrorInvalidValue);
  }
  if ((flags & mcHostRegisterIoMemory) != 0 &&
      (flags & ~(mcHostRegisterPortable | mcHostRegisterMapped |
                 mcHostRegisterIoMemory | mcHostRegisterReadOnly)) == 0) {
    return Fail(mcErrorNotSupported);
  }
  const mcError_t error = Check(cudaHostRegister(ptr, size, flags));
  if (error == mcSuccess) {
    std::lock_guard<std::mutex> lock(registered_mutex);
    Registered()[reinterpret_cast<uintptr_t>(ptr)] = size;
  }
  return error;
}

mcError_t mcHostUnregister(void* ptr) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  const cudaError_t error = cudaHostUnregister(ptr);
  // Whatever CUDA finds wrong with the address, it is no registration's
  // start [api.memory.host-unregister.not-registered].
  if (error == cudaErrorInvalidValue) {
    cudaGetLastError();
    return Fail(mcErrorHostMemoryNotRegistered);
  }
  if (error == cudaSuccess) {
    std::lock_guard<std::mutex> lock(registered_mutex);
    Registered().erase(reinterpret_cast<uintptr_t>(ptr));
  }
  return Check(error);
}

mcError_t mcHostGetDevicePointer(void** pDevice, void* pHost,
                                 unsigned int flags) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  if (pDevice == nullptr) return Fail(mcErrorInvalidValue);
  return Check(cudaHostGetDevicePointer(pDevice, pHost, flags));
}

mcError_t mcMallocManaged(void** ptr, size_t size, unsigned int flags) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  // MXMACA allocates no managed memory of zero bytes
  // [api.memory.managed.size-zero]; CUDA returns a
  // null pointer and success.
  if (ptr == nullptr || size == 0) return Fail(mcErrorInvalidValue);
  return Check(cudaMallocManaged(ptr, size, flags));
}

// --- Managed memory. ---

mcError_t mcMemPrefetchAsync_v2(const void* devPtr, size_t count,
                                mcMemLocation location, unsigned int flags,
                                mcStream_t stream) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  MXCTS_CHECK_STREAM(stream);
  return CompletedIfBlocking(
      Check(cudaMemPrefetchAsync(devPtr, count, Location(location), flags,
                                 ToCuda(stream))),
      stream);
}

mcError_t mcMemPrefetchAsync(const void* devPtr, size_t count, int dstDevice,
                             mcStream_t stream) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  MXCTS_CHECK_STREAM(stream);
  return mcMemPrefetchAsync_v2(devPtr, count, DeviceLocation(dstDevice), 0,
                               stream);
}

mcError_t mcMemAdvise_v2(const void* devPtr, size_t count,
                         mcMemoryAdvise advice, mcMemLocation location) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  // MXMACA's coarse-grain coherence hints have no CUDA counterpart; as
  // hints they change no result. The range must still be managed memory.
  if (advice == mcMemAdviseSetCoarseGrain ||
      advice == mcMemAdviseUnsetCoarseGrain) {
    if (devPtr == nullptr || count == 0) return Fail(mcErrorInvalidValue);
    cudaPointerAttributes attributes;
    if (cudaPointerGetAttributes(&attributes, devPtr) != cudaSuccess) {
      cudaGetLastError();
      return Fail(mcErrorInvalidValue);
    }
    return attributes.type == cudaMemoryTypeManaged ? mcSuccess
                                                    : Fail(mcErrorInvalidValue);
  }
  cudaMemLocation cuda = Location(location);
  if (AdviceTakesLocation(advice)) {
    int count_of_devices = 0;
    if (cudaGetDeviceCount(&count_of_devices) != cudaSuccess) {
      cudaGetLastError();
    }
    if (location.type == mcMemLocationTypeDevice &&
        (location.id < 0 || location.id >= count_of_devices)) {
      return Fail(mcErrorInvalidDevice);
    }
  } else {
    // CUDA checks the location even where the advice ignores it.
    cuda.type = cudaMemLocationTypeDevice;
    cuda.id = 0;
  }
  return Check(
      cudaMemAdvise(devPtr, count, SameValue<cudaMemoryAdvise>(advice), cuda));
}

mcError_t mcMemAdvise(const void* devPtr, size_t count, mcMemoryAdvise advice,
                      int device) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  return mcMemAdvise_v2(devPtr, count, advice, DeviceLocation(device));
}

mcError_t mcMemRangeGetAttribute(void* data, size_t dataSize,
                                 mcMemRangeAttribute attribute,
                                 const void* devPtr, size_t count) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  // MXMACA's four attributes; CUDA has more
  // [api.memory.range-attribute.invalid-arguments].
  if (attribute < mcMemRangeAttributeReadMostly ||
      attribute > mcMemRangeAttributeLastPrefetchLocation) {
    return Fail(mcErrorInvalidValue);
  }
  return Check(cudaMemRangeGetAttribute(
      data, dataSize, SameValue<cudaMemRangeAttribute>(attribute), devPtr,
      count));
}

// --- Pointers. ---

mcError_t mcPointerGetAttributes(mcPointerAttribute_t* attributes,
                                 const void* ptr) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  if (attributes == nullptr) return Fail(mcErrorInvalidValue);
  cudaPointerAttributes cuda;
  const mcError_t error = Check(cudaPointerGetAttributes(&cuda, ptr));
  if (error != mcSuccess) return error;
  attributes->type = SameValue<mcMemoryType>(cuda.type);
  attributes->device = cuda.device;
  attributes->devicePointer = cuda.devicePointer;
  attributes->hostPointer = cuda.hostPointer;
  attributes->isManaged = cuda.type == cudaMemoryTypeManaged ? 1 : 0;
  attributes->allocationFlags = 0;
  if (cuda.type == cudaMemoryTypeHost) {
    unsigned int flags = 0;
    if (cudaHostGetFlags(&flags, const_cast<void*>(ptr)) == cudaSuccess) {
      attributes->allocationFlags = flags;
    } else {
      cudaGetLastError();
    }
  }
  return mcSuccess;
}

mcError_t mcPointerSetAttribute(const void* value,
                                mcPointer_attribute attribute,
                                mcDeviceptr_t ptr) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  if (value == nullptr) return Fail(mcErrorInvalidValue);
  // Only device memory takes the attribute
  // [api.memory.pointer-set-attribute.invalid].
  if (TypeOf(ptr) != cudaMemoryTypeDevice) return Fail(mcErrorInvalidValue);
  using SetAttribute =
      CUresult (*)(const void*, CUpointer_attribute, CUdeviceptr);
  return Driver(CallDriver<SetAttribute>(
      "cuPointerSetAttribute", value,
      static_cast<CUpointer_attribute>(attribute),
      static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(ptr))));
}

mcError_t mcMemGetAddressRange(mcDeviceptr_t* base, size_t* size,
                               mcDeviceptr_t ptr) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  using GetRange = CUresult (*)(CUdeviceptr*, size_t*, CUdeviceptr);
  CUdeviceptr cuda_base = 0;
  size_t cuda_size = 0;
  const CUresult result = CallDriver<GetRange>(
      "cuMemGetAddressRange", &cuda_base, &cuda_size,
      static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(ptr)));
  // An address in no allocation is an invalid value
  // [api.memory.get-address-range.not-an-allocation]; the driver says
  // "not found" or "invalid context" for some.
  if (result != CUDA_SUCCESS) return Fail(mcErrorInvalidValue);
  if (base != nullptr) {
    *base = reinterpret_cast<mcDeviceptr_t>(static_cast<uintptr_t>(cuda_base));
  }
  if (size != nullptr) *size = cuda_size;
  return mcSuccess;
}

// --- Copies. ---

mcError_t mcMemcpy(void* dst, const void* src, size_t count,
                   mcMemcpyKind kind) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  return Check(cudaMemcpy(dst, src, count, Kind(kind)));
}

mcError_t mcMemcpyAsync(void* dst, const void* src, size_t count,
                        mcMemcpyKind kind, mcStream_t stream) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  MXCTS_CHECK_STREAM(stream);
  return CompletedIfBlocking(
      Check(cudaMemcpyAsync(dst, src, count, Kind(kind), ToCuda(stream))),
      stream);
}

mcError_t mcMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch,
                     size_t width, size_t height, mcMemcpyKind kind) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  if (const mcError_t error =
          CheckNonEmpty2D(width, height, dpitch, spitch, kind);
      error != mcSuccess) {
    return error;
  }
  return Check(
      cudaMemcpy2D(dst, dpitch, src, spitch, width, height, Kind(kind)));
}

mcError_t mcMemcpy2DAsync(void* dst, size_t dpitch, const void* src,
                          size_t spitch, size_t width, size_t height,
                          mcMemcpyKind kind, mcStream_t stream) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  MXCTS_CHECK_STREAM(stream);
  if (const mcError_t error =
          CheckNonEmpty2D(width, height, dpitch, spitch, kind);
      error != mcSuccess) {
    return error;
  }
  return CompletedIfBlocking(
      Check(cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, height,
                              Kind(kind), ToCuda(stream))),
      stream);
}

mcError_t mcMemcpy3D(const mcMemcpy3DParms* p) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  cudaMemcpy3DParms cuda;
  const mcError_t error = Check3D(p, &cuda);
  if (error != mcSuccess) return error;
  return Check(cudaMemcpy3D(&cuda));
}

mcError_t mcMemcpy3DAsync(const mcMemcpy3DParms* p, mcStream_t stream) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  MXCTS_CHECK_STREAM(stream);
  cudaMemcpy3DParms cuda;
  const mcError_t error = Check3D(p, &cuda);
  if (error != mcSuccess) return error;
  return CompletedIfBlocking(Check(cudaMemcpy3DAsync(&cuda, ToCuda(stream))),
                             stream);
}

mcError_t mcMemcpyHtoD(mcDeviceptr_t dst, const void* src, size_t byteCount) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  if (!IsDeviceMemory(dst)) return Fail(mcErrorInvalidValue);
  return mcMemcpy(dst, src, byteCount, mcMemcpyHostToDevice);
}

mcError_t mcMemcpyDtoH(void* dst, mcDeviceptr_t src, size_t byteCount) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  if (!IsDeviceMemory(src)) return Fail(mcErrorInvalidValue);
  return mcMemcpy(dst, src, byteCount, mcMemcpyDeviceToHost);
}

mcError_t mcMemcpyDtoD(mcDeviceptr_t dst, mcDeviceptr_t src, size_t byteCount) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  if (!IsDeviceMemory(dst) || !IsDeviceMemory(src))
    return Fail(mcErrorInvalidValue);
  return mcMemcpy(dst, src, byteCount, mcMemcpyDeviceToDevice);
}

mcError_t mcMemcpyHtoDAsync(mcDeviceptr_t dst, const void* src,
                            size_t byteCount, mcStream_t stream) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  MXCTS_CHECK_STREAM(stream);
  if (!IsDeviceMemory(dst)) return Fail(mcErrorInvalidValue);
  return mcMemcpyAsync(dst, src, byteCount, mcMemcpyHostToDevice, stream);
}

mcError_t mcMemcpyDtoHAsync(void* dst, mcDeviceptr_t src, size_t byteCount,
                            mcStream_t stream) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  MXCTS_CHECK_STREAM(stream);
  if (!IsDeviceMemory(src)) return Fail(mcErrorInvalidValue);
  return mcMemcpyAsync(dst, src, byteCount, mcMemcpyDeviceToHost, stream);
}

mcError_t mcMemcpyDtoDAsync(mcDeviceptr_t dst, mcDeviceptr_t src,
                            size_t byteCount, mcStream_t stream) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  MXCTS_CHECK_STREAM(stream);
  if (!IsDeviceMemory(dst) || !IsDeviceMemory(src))
    return Fail(mcErrorInvalidValue);
  return mcMemcpyAsync(dst, src, byteCount, mcMemcpyDeviceToDevice, stream);
}

// --- Fills. ---

mcError_t mcMemset(void* ptr, int value, size_t count) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  return Check(cudaMemset(ptr, value, count));
}

mcError_t mcMemsetAsync(void* ptr, int value, size_t count, mcStream_t stream) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  MXCTS_CHECK_STREAM(stream);
  return CompletedIfBlocking(
      Check(cudaMemsetAsync(ptr, value, count, ToCuda(stream))), stream);
}

mcError_t mcMemset2D(void* ptr, size_t pitch, int value, size_t width,
                     size_t height) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  return Check(cudaMemset2D(ptr, pitch, value, width, height));
}

mcError_t mcMemset2DAsync(void* ptr, size_t pitch, int value, size_t width,
                          size_t height, mcStream_t stream) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  MXCTS_CHECK_STREAM(stream);
  return CompletedIfBlocking(Check(cudaMemset2DAsync(ptr, pitch, value, width,
                                                     height, ToCuda(stream))),
                             stream);
}

mcError_t mcMemset3D(mcPitchedPtr pitchedDevPtr, int value, mcExtent extent) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  // Rows wider than the pitch [api.memory.memset-3d.width-exceeds-pitch].
  if (extent.width > pitchedDevPtr.pitch) return Fail(mcErrorInvalidValue);
  return Check(cudaMemset3D(ToCuda(pitchedDevPtr), value, ToCuda(extent)));
}

mcError_t mcMemset3DAsync(mcPitchedPtr pitchedDevPtr, int value,
                          mcExtent extent, mcStream_t stream) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  MXCTS_CHECK_STREAM(stream);
  if (extent.width > pitchedDevPtr.pitch) return Fail(mcErrorInvalidValue);
  return CompletedIfBlocking(
      Check(cudaMemset3DAsync(ToCuda(pitchedDevPtr), value, ToCuda(extent),
                              ToCuda(stream))),
      stream);
}

mcError_t mcMemsetD8(mcDeviceptr_t dst, unsigned char value, size_t count) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  return mcMemset(dst, value, count);
}

mcError_t mcMemsetD8Async(mcDeviceptr_t dst, unsigned char value, size_t count,
                          mcStream_t stream) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  MXCTS_CHECK_STREAM(stream);
  return mcMemsetAsync(dst, value, count, stream);
}

#define MXCTS_DRIVER_FILL(name, driver_name, type)                         \
  mcError_t name(mcDeviceptr_t dst, type value, size_t count) {            \
    using Fill = CUresult (*)(CUdeviceptr, type, size_t);                  \
    return Driver(CallDriver<Fill>(                                        \
        driver_name,                                                       \
        static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(dst)), value, \
        count));                                                           \
  }
#define MXCTS_DRIVER_FILL_ASYNC(name, driver_name, type)                       \
  mcError_t name(mcDeviceptr_t dst, type value, size_t count,                  \
                 mcStream_t stream) {                                          \
    MXCTS_CHECK_STREAM(stream);                                                \
    using Fill = CUresult (*)(CUdeviceptr, type, size_t, CUstream);            \
    return CompletedIfBlocking(                                                \
        Driver(CallDriver<Fill>(                                               \
            driver_name,                                                       \
            static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(dst)), value, \
            count, reinterpret_cast<CUstream>(stream))),                       \
        stream);                                                               \
  }
MXCTS_DRIVER_FILL(mcMemsetD16, "cuMemsetD16", unsigned short)
MXCTS_DRIVER_FILL(mcMemsetD32, "cuMemsetD32", unsigned int)
MXCTS_DRIVER_FILL_ASYNC(mcMemsetD16Async, "cuMemsetD16Async", unsigned short)
MXCTS_DRIVER_FILL_ASYNC(mcMemsetD32Async, "cuMemsetD32Async", unsigned int)
#undef MXCTS_DRIVER_FILL
#undef MXCTS_DRIVER_FILL_ASYNC

// --- Symbols: the symbol is the address of nvcc's host shadow of the
// variable, which CUDA's symbol calls take as they are. ---

mcError_t mcMemcpyToSymbol(const void* symbol, const void* src, size_t count,
                           size_t offset, mcMemcpyKind kind) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  if (!WithinSymbol(symbol, offset, count)) return Fail(mcErrorInvalidValue);
  return Check(cudaMemcpyToSymbol(symbol, src, count, offset, Kind(kind)));
}

mcError_t mcMemcpyFromSymbol(void* dst, const void* symbol, size_t count,
                             size_t offset, mcMemcpyKind kind) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  if (!WithinSymbol(symbol, offset, count)) return Fail(mcErrorInvalidValue);
  return Check(cudaMemcpyFromSymbol(dst, symbol, count, offset, Kind(kind)));
}

mcError_t mcMemcpyToSymbolAsync(const void* symbol, const void* src,
                                size_t count, size_t offset, mcMemcpyKind kind,
                                mcStream_t stream) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  MXCTS_CHECK_STREAM(stream);
  if (!WithinSymbol(symbol, offset, count)) return Fail(mcErrorInvalidValue);
  return CompletedIfBlocking(
      Check(cudaMemcpyToSymbolAsync(symbol, src, count, offset, Kind(kind),
                                    ToCuda(stream))),
      stream);
}

mcError_t mcMemcpyFromSymbolAsync(void* dst, const void* symbol, size_t count,
                                  size_t offset, mcMemcpyKind kind,
                                  mcStream_t stream) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  MXCTS_CHECK_STREAM(stream);
  if (!WithinSymbol(symbol, offset, count)) return Fail(mcErrorInvalidValue);
  return CompletedIfBlocking(
      Check(cudaMemcpyFromSymbolAsync(dst, symbol, count, offset, Kind(kind),
                                      ToCuda(stream))),
      stream);
}

mcError_t mcGetSymbolAddress(void** devPtr, const void* symbol) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  if (devPtr == nullptr) return Fail(mcErrorInvalidValue);
  return Check(cudaGetSymbolAddress(devPtr, symbol));
}

mcError_t mcGetSymbolSize(size_t* size, const void* symbol) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  if (size == nullptr) return Fail(mcErrorInvalidValue);
  return Check(cudaGetSymbolSize(size, symbol));
}

// --- Peers. ---

mcError_t mcDeviceCanAccessPeer(int* canAccessPeer, int device,
                                int peerDevice) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  if (canAccessPeer == nullptr) return Fail(mcErrorInvalidValue);
  return Check(cudaDeviceCanAccessPeer(canAccessPeer, device, peerDevice));
}

mcError_t mcDeviceGetP2PAttribute(int* value, mcDeviceP2PAttr attr,
                                  int srcDevice, int dstDevice) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  if (value == nullptr) return Fail(mcErrorInvalidValue);
  return Check(cudaDeviceGetP2PAttribute(
      value, SameValue<cudaDeviceP2PAttr>(attr), srcDevice, dstDevice));
}

mcError_t mcDeviceEnablePeerAccess(int peerDevice, unsigned int flags) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  // A device is no peer of itself, nor is a device that does not exist
  // [api.peer.enable.self, api.peer.enable.invalid-ordinal]; CUDA answers the
  // first with cudaErrorPeerAccessUnsupported.
  int current = 0;
  int count = 0;
  const mcError_t error = Check(cudaGetDevice(&current));
  if (error != mcSuccess) return error;
  if (cudaGetDeviceCount(&count) != cudaSuccess) cudaGetLastError();
  if (peerDevice == current || peerDevice < 0 || peerDevice >= count) {
    return Fail(mcErrorInvalidDevice);
  }
  return Check(cudaDeviceEnablePeerAccess(peerDevice, flags));
}

mcError_t mcDeviceDisablePeerAccess(int peerDevice) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  return Check(cudaDeviceDisablePeerAccess(peerDevice));
}

mcError_t mcMemcpyPeer(void* dst, int dstDevice, const void* src, int srcDevice,
                       size_t count) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  return Check(cudaMemcpyPeer(dst, dstDevice, src, srcDevice, count));
}

mcError_t mcMemcpyPeerAsync(void* dst, int dstDevice, const void* src,
                            int srcDevice, size_t count, mcStream_t stream) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  MXCTS_CHECK_STREAM(stream);
  return CompletedIfBlocking(
      Check(cudaMemcpyPeerAsync(dst, dstDevice, src, srcDevice, count,
                                ToCuda(stream))),
      stream);
}

}  // extern "C"
