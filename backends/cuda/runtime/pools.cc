// Copyright mxcts authors.
//
// Stream-ordered allocation and memory pools (docs/spec/api-memory-pools.md)
// over CUDA's cudaMemPool_t. The adapter keeps its own record of the pools
// and of the live stream-ordered allocations (pools.h says why), checks
// every argument as MXMACA does before CUDA sees it, and lets CUDA allocate,
// free, count and share the memory.

#include "backends/cuda/runtime/pools.h"

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <iterator>
#include <map>
#include <mutex>
#include <unordered_set>
#include <vector>

#include "backends/cuda/runtime/adapter.h"
#include "backends/cuda/runtime/driver_api.h"
#include "backends/cuda/runtime/environment.h"
#include "backends/cuda/runtime/fixed_attributes.h"
#include "backends/cuda/runtime/handles.h"
#include "backends/cuda/runtime/launch_blocking.h"

namespace mxcts::cuda_backend {
namespace {

// One pool as MXMACA sees it. The default pool of a device keeps no CUDA
// handle: CUDA's may change at a device reset, so it is asked each time.
//
// A pool the program destroys while allocations from it are live, or while
// their frees are still queued, is released by the adapter itself once the
// last free has completed [api.pool.destroy.deferred-release]: CUDA 13's own
// deferred release (cudaMemPoolDestroy of such a pool) left the driver so
// that destroying a later pool crashed inside cuMemPoolDestroy (a SIGSEGV
// at address 0x78, seen on an H100 in about one of 140 runs of
// pool_lifecycle_test with 16 copies at once). Pool records are never
// deleted: a taken allocation (pools.h) may still name one.
struct Pool {
  cudaMemPool_t cuda = nullptr;
  int device = 0;
  bool is_default = false;
  bool imported = false;
  bool exportable = false;
  // The program's bound on the bytes the pool holds (0: none), which the
  // adapter keeps exactly [api.pool.create.max-size].
  size_t max_size = 0;
  // Every allocation in the record has at least one byte, so 0 means none
  // is live.
  size_t live_bytes = 0;
  // Recorded after each free from the pool: complete once every free
  // queued so far has run. Null until the first free.
  cudaEvent_t frees_done = nullptr;
  // Destroyed by the program, CUDA's pool not yet: waits for the frees.
  bool destroy_pending = false;
};

struct Allocation {
  Pool* pool = nullptr;
  size_t size = 0;
};

struct State {
  std::mutex mutex;
  std::unordered_set<Pool*> live;
  std::map<int, Pool*> defaults;
  std::map<int, Pool*> current;
  std::map<uintptr_t, Allocation> allocations;      // by start address
  std::unordered_set<uintptr_t> graph_allocations;  // NoteGraphAllocation
};

State& Pools() {
  static State* state = new State();
  return *state;
}

uintptr_t Address(const void* ptr) { return reinterpret_cast<uintptr_t>(ptr); }

int DeviceCount() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return count;
}

bool ValidOrdinal(int device) { return device >= 0 && device < DeviceCount(); }

// mcDeviceAttributeMemoryPoolsSupported of a valid ordinal.
bool PoolsSupported(int device) {
  int supported = 0;
  return FixedDeviceAttribute(cudaDevAttrMemoryPoolsSupported, device,
                              &supported) &&
         supported != 0;
}

// The ordinal checks of the device pool calls: mcErrorInvalidDevice, then
// mcErrorNotSupported [api.pool.device-pool.invalid-device]
// [api.pool.malloc-async.unsupported-device].
mcError_t CheckPoolDevice(int device) {
  if (!ValidOrdinal(device)) return Fail(mcErrorInvalidDevice);
  if (!PoolsSupported(device)) return Fail(mcErrorNotSupported);
  return mcSuccess;
}

// The live pool `handle` names, or null. Never dereferences a handle that
// is not in the record. Call with the state locked.
Pool* LivePool(State& s, mcMemPool_t handle) {
  Pool* pool = reinterpret_cast<Pool*>(handle);
  return s.live.count(pool) == 1 ? pool : nullptr;
}

cudaMemPool_t CudaPool(const Pool& pool) {
  if (!pool.is_default) return pool.cuda;
  cudaMemPool_t cuda = nullptr;
  if (cudaDeviceGetDefaultMemPool(&cuda, pool.device) != cudaSuccess) {
    cudaGetLastError();
  }
  return cuda;
}

// The default pool of a valid device with pools. Call locked.
Pool* DefaultPool(State& s, int device) {
  auto it = s.defaults.find(device);
  if (it != s.defaults.end()) return it->second;
  Pool* pool = new Pool();
  pool->device = device;
  pool->is_default = true;
  s.defaults[device] = pool;
  s.live.insert(pool);
  return pool;
}

Pool* CurrentPool(State& s, int device) {
  auto it = s.current.find(device);
  return it != s.current.end() ? it->second : DefaultPool(s, device);
}

// The device `stream` (already checked) allocates on.
mcError_t StreamDevice(mcStream_t stream, int* device) {
  return Check(cudaStreamGetDevice(ToCuda(stream), device));
}

// Allocates `size` bytes from `pool` in `stream`; *ptr changes only on
// success. Call locked.
mcError_t AllocateFrom(State& s, Pool* pool, size_t size, mcStream_t stream,
                       void** ptr) {
  if (size == 0) {
    *ptr = nullptr;
    return mcSuccess;
  }
  if (pool->max_size != 0 &&
      (size > pool->max_size || pool->live_bytes > pool->max_size - size)) {
    return Fail(mcErrorMemoryAllocation);
  }
  // In a capture CUDA 13 refuses stream-ordered allocation
  // (cudaErrorStreamCaptureUnsupported on an H200, from cudaMallocAsync and
  // cudaMallocFromPoolAsync alike), which
  // [api.graph.capture.uncapturable-work-implementation-defined] allows.
  void* p = nullptr;
  const mcError_t error =
      Check(cudaMallocFromPoolAsync(&p, size, CudaPool(*pool), ToCuda(stream)));
  if (error != mcSuccess) return error;
  *ptr = p;
  s.allocations[Address(p)] = Allocation{pool, size};
  pool->live_bytes += size;
  return mcSuccess;
}

void Forget(State& s, std::map<uintptr_t, Allocation>::iterator it) {
  Pool* pool = it->second.pool;
  pool->live_bytes -=
      pool->live_bytes < it->second.size ? pool->live_bytes : it->second.size;
  s.allocations.erase(it);
}

// Marks, in `stream`, the point after the free just queued from `pool`
// (not in a capture, where the free becomes a node of the graph).
void NoteFreeQueued(Pool* pool, cudaStream_t stream) {
  if (pool->is_default || pool->imported || !RunsItsWork(stream)) return;
  if (pool->frees_done == nullptr &&
      cudaEventCreateWithFlags(&pool->frees_done, cudaEventDisableTiming) !=
          cudaSuccess) {
    cudaGetLastError();
    pool->frees_done = nullptr;
    return;
  }
  if (cudaEventRecord(pool->frees_done, stream) != cudaSuccess) {
    cudaGetLastError();
  }
}

// Destroys CUDA's pool of `pool`, whose allocations are all freed, after
// the queued frees have run. Call locked.
cudaError_t ReleaseCudaPool(Pool* pool) {
  pool->destroy_pending = false;
  if (pool->frees_done != nullptr) {
    cudaEventSynchronize(pool->frees_done);
    cudaGetLastError();
    cudaEventDestroy(pool->frees_done);
    pool->frees_done = nullptr;
  }
  return cudaMemPoolDestroy(pool->cuda);
}

// Releases `pool` if the program destroyed it and its last allocation is
// now freed. A failure here is no error of the free that got here. Call
// locked.
void ReleaseIfDone(Pool* pool) {
  if (pool->destroy_pending && pool->live_bytes == 0 &&
      ReleaseCudaPool(pool) != cudaSuccess) {
    cudaGetLastError();
  }
}

// The granularity CUDA reserves pool memory in on `device`.
size_t Granularity(int device) {
  CUmemAllocationProp prop = {};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = device;
  size_t granularity = 0;
  if (CallDriver<decltype(&cuMemGetAllocationGranularity)>(
          "cuMemGetAllocationGranularity", &granularity, &prop,
          CU_MEM_ALLOC_GRANULARITY_MINIMUM) != CUDA_SUCCESS ||
      granularity == 0) {
    return size_t{2} << 20;
  }
  return granularity;
}

bool AllZero(const unsigned char* bytes, size_t size) {
  for (size_t i = 0; i < size; ++i) {
    if (bytes[i] != 0) return false;
  }
  return true;
}

// A location that names a device of this machine.
bool IsDeviceLocation(const mcMemLocation& location) {
  return location.type == mcMemLocationTypeDevice && ValidOrdinal(location.id);
}

cudaMemLocation ToCudaLocation(const mcMemLocation& location) {
  cudaMemLocation cuda = {};
  cuda.type = SameValue<cudaMemLocationType>(location.type);
  cuda.id = location.id;
  return cuda;
}

bool IsAccessFlags(int flags) {
  return flags == mcMemAccessFlagsProtNone ||
         flags == mcMemAccessFlagsProtRead ||
         flags == mcMemAccessFlagsProtReadWrite;
}

// A descriptor CUDA could import a pool from: open, and no regular file,
// pipe, socket or directory (CUDA would read a pipe and wait). The driver
// decides about the rest.
bool MayBePoolDescriptor(int fd) {
  if (fd < 0 || fcntl(fd, F_GETFD) < 0) return false;
  struct stat status;
  if (fstat(fd, &status) != 0) return false;
  return !S_ISREG(status.st_mode) && !S_ISFIFO(status.st_mode) &&
         !S_ISSOCK(status.st_mode) && !S_ISDIR(status.st_mode);
}

}  // namespace

bool IsStreamOrderedAllocation(const void* ptr) {
  State& s = Pools();
  std::lock_guard<std::mutex> lock(s.mutex);
  return s.allocations.count(Address(ptr)) == 1;
}

bool InStreamOrderedAllocation(const void* ptr) {
  State& s = Pools();
  std::lock_guard<std::mutex> lock(s.mutex);
  auto it = s.allocations.upper_bound(Address(ptr));
  if (it == s.allocations.begin()) return false;
  --it;
  return Address(ptr) - it->first <
         (it->second.size == 0 ? 1 : it->second.size);
}

TakenAllocation TakeStreamOrderedAllocation(const void* ptr) {
  State& s = Pools();
  std::lock_guard<std::mutex> lock(s.mutex);
  TakenAllocation taken;
  auto it = s.allocations.find(Address(ptr));
  if (it == s.allocations.end()) return taken;
  taken.taken = true;
  taken.ptr = ptr;
  taken.pool = it->second.pool;
  taken.size = it->second.size;
  Forget(s, it);
  return taken;
}

void RestoreStreamOrderedAllocation(const TakenAllocation& taken) {
  if (!taken.taken) return;
  State& s = Pools();
  std::lock_guard<std::mutex> lock(s.mutex);
  Pool* pool = static_cast<Pool*>(taken.pool);
  s.allocations[Address(taken.ptr)] = Allocation{pool, taken.size};
  pool->live_bytes += taken.size;
}

// Waits for all work on `device`, then, if `free_ptr` is not null, frees
// that stream-ordered allocation and waits for the free; the current
// device stays as it was.
mcError_t SynchronizeAndFree(int device, void* free_ptr) {
  int current = 0;
  mcError_t error = Check(cudaGetDevice(&current));
  if (error != mcSuccess) return error;
  if (current != device) {
    error = Check(cudaSetDevice(device));
    if (error != mcSuccess) return error;
  }
  error = Check(cudaDeviceSynchronize());
  if (error == mcSuccess && free_ptr != nullptr) {
    error = Check(cudaFreeAsync(free_ptr, cudaStreamLegacy));
    if (error == mcSuccess) {
      error = Check(cudaStreamSynchronize(cudaStreamLegacy));
    }
  }
  if (current != device) cudaSetDevice(current);
  return error;
}

mcError_t FreeTakenAllocation(const TakenAllocation& taken) {
  Pool* pool = static_cast<Pool*>(taken.pool);
  const mcError_t error =
      SynchronizeAndFree(pool->device, const_cast<void*>(taken.ptr));
  State& s = Pools();
  std::lock_guard<std::mutex> lock(s.mutex);
  ReleaseIfDone(pool);
  return error;
}

void NoteGraphAllocation(const void* ptr) {
  State& s = Pools();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.graph_allocations.insert(Address(ptr));
}

void ForgetDevicePools(int device) {
  State& s = Pools();
  std::lock_guard<std::mutex> lock(s.mutex);
  for (auto it = s.allocations.begin(); it != s.allocations.end();) {
    it = it->second.pool->device == device ? s.allocations.erase(it)
                                           : std::next(it);
  }
  for (auto it = s.live.begin(); it != s.live.end();) {
    Pool* pool = *it;
    if (pool->device == device) pool->live_bytes = 0;
    it = pool->device == device && !pool->is_default ? s.live.erase(it)
                                                     : std::next(it);
  }
  s.current.erase(device);
}

}  // namespace mxcts::cuda_backend

using mxcts::cuda_backend::Check;
using mxcts::cuda_backend::CompletedIfBlocking;
using mxcts::cuda_backend::Fail;
using mxcts::cuda_backend::Pool;
using mxcts::cuda_backend::Pools;
using mxcts::cuda_backend::State;
using mxcts::cuda_backend::ToCuda;

namespace {

// The stream-ordered allocation calls up to their submission; the entry
// points below add the wait of MACA_LAUNCH_BLOCKING=1 (launch_blocking.h),
// after the pools' lock is released.

mcError_t SubmitMallocAsync(void** ptr, size_t size, mcStream_t stream) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  if (ptr == nullptr) return Fail(mcErrorInvalidValue);
  MXCTS_CHECK_STREAM(stream);
  int device = 0;
  mcError_t error = mxcts::cuda_backend::StreamDevice(stream, &device);
  if (error != mcSuccess) return error;
  if (!mxcts::cuda_backend::PoolsSupported(device)) {
    return Fail(mcErrorNotSupported);
  }
  mxcts::cuda_backend::NoteStreamAllocates(stream);
  State& s = Pools();
  std::lock_guard<std::mutex> lock(s.mutex);
  return mxcts::cuda_backend::AllocateFrom(
      s, mxcts::cuda_backend::CurrentPool(s, device), size, stream, ptr);
}

mcError_t SubmitMallocFromPoolAsync(void** ptr, size_t size, mcMemPool_t pool,
                                    mcStream_t stream) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  if (ptr == nullptr) return Fail(mcErrorInvalidValue);
  State& s = Pools();
  std::lock_guard<std::mutex> lock(s.mutex);
  Pool* live = mxcts::cuda_backend::LivePool(s, pool);
  // An imported pool is not allocated from
  // [api.pool.ipc.no-allocation-from-imported-pool].
  if (live == nullptr || live->imported) return Fail(mcErrorInvalidValue);
  MXCTS_CHECK_STREAM(stream);
  int device = 0;
  mcError_t error = mxcts::cuda_backend::StreamDevice(stream, &device);
  if (error != mcSuccess) return error;
  if (!mxcts::cuda_backend::PoolsSupported(device)) {
    return Fail(mcErrorNotSupported);
  }
  mxcts::cuda_backend::NoteStreamAllocates(stream);
  return mxcts::cuda_backend::AllocateFrom(s, live, size, stream, ptr);
}

mcError_t SubmitFreeAsync(void* ptr, mcStream_t stream) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  MXCTS_CHECK_STREAM(stream);
  if (ptr == nullptr) return Fail(mcErrorInvalidValue);
  int device = 0;
  mcError_t error = mxcts::cuda_backend::StreamDevice(stream, &device);
  if (error != mcSuccess) return error;
  if (!mxcts::cuda_backend::PoolsSupported(device)) {
    return Fail(mcErrorNotSupported);
  }
  mxcts::cuda_backend::NoteStreamAllocates(stream);
  State& s = Pools();
  std::lock_guard<std::mutex> lock(s.mutex);
  // Only the start of a live stream-ordered allocation; CUDA would free
  // mcMalloc memory too.
  auto it = s.allocations.find(mxcts::cuda_backend::Address(ptr));
  if (it == s.allocations.end()) {
    // Memory of a graph's allocation node: CUDA frees it if it is
    // allocated at the time, and refuses it otherwise.
    if (s.graph_allocations.count(mxcts::cuda_backend::Address(ptr)) == 0) {
      return Fail(mcErrorInvalidValue);
    }
    return Check(cudaFreeAsync(ptr, ToCuda(stream)));
  }
  error = Check(cudaFreeAsync(ptr, ToCuda(stream)));
  if (error != mcSuccess) return error;
  Pool* pool = it->second.pool;
  mxcts::cuda_backend::NoteFreeQueued(pool, ToCuda(stream));
  mxcts::cuda_backend::Forget(s, it);
  mxcts::cuda_backend::ReleaseIfDone(pool);
  return mcSuccess;
}

}  // namespace

extern "C" {

// --- Stream-ordered allocation. ---

mcError_t mcMallocAsync(void** ptr, size_t size, mcStream_t stream) {
  return CompletedIfBlocking(SubmitMallocAsync(ptr, size, stream), stream);
}

mcError_t mcMallocFromPoolAsync(void** ptr, size_t size, mcMemPool_t pool,
                                mcStream_t stream) {
  return CompletedIfBlocking(SubmitMallocFromPoolAsync(ptr, size, pool, stream),
                             stream);
}

mcError_t mcFreeAsync(void* ptr, mcStream_t stream) {
  return CompletedIfBlocking(SubmitFreeAsync(ptr, stream), stream);
}

// --- Default and current pools. ---

mcError_t mcDeviceGetDefaultMemPool(mcMemPool_t* pool, int device) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  if (pool == nullptr) return Fail(mcErrorInvalidValue);
  const mcError_t error = mxcts::cuda_backend::CheckPoolDevice(device);
  if (error != mcSuccess) return error;
  State& s = Pools();
  std::lock_guard<std::mutex> lock(s.mutex);
  *pool = reinterpret_cast<mcMemPool_t>(
      mxcts::cuda_backend::DefaultPool(s, device));
  return mcSuccess;
}

mcError_t mcDeviceGetMemPool(mcMemPool_t* pool, int device) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  if (pool == nullptr) return Fail(mcErrorInvalidValue);
  const mcError_t error = mxcts::cuda_backend::CheckPoolDevice(device);
  if (error != mcSuccess) return error;
  State& s = Pools();
  std::lock_guard<std::mutex> lock(s.mutex);
  *pool = reinterpret_cast<mcMemPool_t>(
      mxcts::cuda_backend::CurrentPool(s, device));
  return mcSuccess;
}

mcError_t mcDeviceSetMemPool(int device, mcMemPool_t pool) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  mcError_t error = mxcts::cuda_backend::CheckPoolDevice(device);
  if (error != mcSuccess) return error;
  State& s = Pools();
  std::lock_guard<std::mutex> lock(s.mutex);
  Pool* live = mxcts::cuda_backend::LivePool(s, pool);
  // [api.pool.current.pool-of-other-device-is-invalid-value]
  if (live == nullptr || live->imported || live->device != device) {
    return Fail(mcErrorInvalidValue);
  }
  error =
      Check(cudaDeviceSetMemPool(device, mxcts::cuda_backend::CudaPool(*live)));
  if (error != mcSuccess) return error;
  s.current[device] = live;
  return mcSuccess;
}

mcError_t mcDeviceGetDefaultMempool(mcMemPool_t* pool, int device) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  return mcDeviceGetDefaultMemPool(pool, device);
}

mcError_t mcDeviceSetMempool(int device, mcMemPool_t pool) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  return mcDeviceSetMemPool(device, pool);
}

mcError_t mcDeviceGetMempool(mcMemPool_t* pool, int device) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  return mcDeviceGetMemPool(pool, device);
}

// --- Explicit pools. ---

mcError_t mcMemPoolCreate(mcMemPool_t* pool, const mcMemPoolProps* props) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  if (pool == nullptr || props == nullptr) return Fail(mcErrorInvalidValue);
  // [api.pool.create.invalid-props-is-invalid-value]
  // [api.pool.create.bad-location-id-is-invalid-value]
  if (props->allocType != mcMemAllocationTypePinned ||
      props->location.type != mcMemLocationTypeDevice ||
      !mxcts::cuda_backend::ValidOrdinal(props->location.id) ||
      (props->handleTypes != mcMemHandleTypeNone &&
       props->handleTypes != mcMemHandleTypePosixFileDescriptor) ||
      props->win32SecurityAttributes != nullptr || props->usage != 0 ||
      !mxcts::cuda_backend::AllZero(props->reserved, sizeof(props->reserved))) {
    return Fail(mcErrorInvalidValue);
  }
  const int device = props->location.id;
  if (!mxcts::cuda_backend::PoolsSupported(device)) {
    return Fail(mcErrorNotSupported);
  }
  cudaMemPoolProps cuda = {};
  cuda.allocType = cudaMemAllocationTypePinned;
  cuda.handleTypes = props->handleTypes == mcMemHandleTypePosixFileDescriptor
                         ? cudaMemHandleTypePosixFileDescriptor
                         : cudaMemHandleTypeNone;
  cuda.location.type = cudaMemLocationTypeDevice;
  cuda.location.id = device;
  // CUDA reserves whole granules; the adapter holds the pool to the
  // program's bound itself.
  if (props->maxSize != 0) {
    const size_t granule = mxcts::cuda_backend::Granularity(device);
    cuda.maxSize = (props->maxSize + granule - 1) / granule * granule;
  }
  cudaMemPool_t handle = nullptr;
  const mcError_t error = Check(cudaMemPoolCreate(&handle, &cuda));
  if (error != mcSuccess) return error;
  Pool* created = new Pool();
  created->cuda = handle;
  created->device = device;
  created->exportable =
      props->handleTypes == mcMemHandleTypePosixFileDescriptor;
  created->max_size = props->maxSize;
  State& s = Pools();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.live.insert(created);
  *pool = reinterpret_cast<mcMemPool_t>(created);
  return mcSuccess;
}

mcError_t mcMemPoolDestroy(mcMemPool_t pool) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  State& s = Pools();
  std::lock_guard<std::mutex> lock(s.mutex);
  Pool* live = mxcts::cuda_backend::LivePool(s, pool);
  // [api.pool.destroy.default-pool-is-invalid-value]
  if (live == nullptr || live->is_default) return Fail(mcErrorInvalidValue);
  // [api.pool.destroy.current-reverts-to-default]
  auto current = s.current.find(live->device);
  if (current != s.current.end() && current->second == live) {
    s.current.erase(current);
    Pool* fallback = mxcts::cuda_backend::DefaultPool(s, live->device);
    cudaDeviceSetMemPool(live->device,
                         mxcts::cuda_backend::CudaPool(*fallback));
    cudaGetLastError();
  }
  // The memory goes back once the live allocations are freed
  // [api.pool.destroy.deferred-release]; they stay in the record, and the
  // last free releases CUDA's pool (Pool says why not CUDA's own deferral).
  if (live->live_bytes > 0) {
    live->destroy_pending = true;
  } else {
    const mcError_t error = Check(mxcts::cuda_backend::ReleaseCudaPool(live));
    if (error != mcSuccess) return error;
  }
  s.live.erase(live);
  return mcSuccess;
}

mcError_t mcMemPoolTrimTo(mcMemPool_t pool, size_t minBytesToKeep) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  State& s = Pools();
  std::lock_guard<std::mutex> lock(s.mutex);
  Pool* live = mxcts::cuda_backend::LivePool(s, pool);
  if (live == nullptr) return Fail(mcErrorInvalidValue);
  // An imported pool's memory is the exporter's
  // [api.pool.ipc.trim-may-be-no-op].
  if (live->imported) return mcSuccess;
  return Check(
      cudaMemPoolTrimTo(mxcts::cuda_backend::CudaPool(*live), minBytesToKeep));
}

// --- Attributes. ---

mcError_t mcMemPoolSetAttribute(mcMemPool_t pool, mcMemPoolAttr attr,
                                void* value) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  State& s = Pools();
  std::lock_guard<std::mutex> lock(s.mutex);
  Pool* live = mxcts::cuda_backend::LivePool(s, pool);
  if (live == nullptr || value == nullptr) return Fail(mcErrorInvalidValue);
  switch (attr) {
    case mcMemPoolReuseFollowEventDependencies:
    case mcMemPoolReuseAllowOpportunistic:
    case mcMemPoolReuseAllowInternalDependencies: {
      // 0 or 1 [api.pool.attribute.bad-arguments-are-invalid-value]; CUDA
      // takes any int as a truth value.
      const int policy = *static_cast<const int*>(value);
      if (policy != 0 && policy != 1) return Fail(mcErrorInvalidValue);
      break;
    }
    case mcMemPoolAttrReleaseThreshold:
      break;
    case mcMemPoolAttrReservedMemHigh:
    case mcMemPoolAttrUsedMemHigh:
      // Only a reset
      // [api.pool.attribute.high-watermark-nonzero-is-invalid-value].
      if (*static_cast<const unsigned long long*>(value) != 0) {
        return Fail(mcErrorInvalidValue);
      }
      break;
    default:
      // The current counters are read-only
      // [api.pool.attribute.read-only-is-invalid-value]; anything else is no
      // attribute.
      return Fail(mcErrorInvalidValue);
  }
  return Check(cudaMemPoolSetAttribute(
      mxcts::cuda_backend::CudaPool(*live),
      mxcts::cuda_backend::SameValue<cudaMemPoolAttr>(attr), value));
}

mcError_t mcMemPoolGetAttribute(mcMemPool_t pool, mcMemPoolAttr attr,
                                void* value) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  State& s = Pools();
  std::lock_guard<std::mutex> lock(s.mutex);
  Pool* live = mxcts::cuda_backend::LivePool(s, pool);
  if (live == nullptr || value == nullptr) return Fail(mcErrorInvalidValue);
  const int known = static_cast<int>(attr);
  if (known < mcMemPoolReuseFollowEventDependencies ||
      known > mcMemPoolAttrUsedMemHigh) {
    return Fail(mcErrorInvalidValue);
  }
  return Check(cudaMemPoolGetAttribute(
      mxcts::cuda_backend::CudaPool(*live),
      mxcts::cuda_backend::SameValue<cudaMemPoolAttr>(attr), value));
}

// --- Access. ---

mcError_t mcMemPoolSetAccess(mcMemPool_t pool, const mcMemAccessDesc* descList,
                             size_t count) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  State& s = Pools();
  std::lock_guard<std::mutex> lock(s.mutex);
  Pool* live = mxcts::cuda_backend::LivePool(s, pool);
  if (live == nullptr) return Fail(mcErrorInvalidValue);
  if (count == 0) return mcSuccess;
  if (descList == nullptr) return Fail(mcErrorInvalidValue);
  // Every entry is checked before any applies
  // [api.pool.access.bad-arguments-are-invalid-value].
  for (size_t i = 0; i < count; ++i) {
    const mcMemAccessDesc& desc = descList[i];
    if (!mxcts::cuda_backend::IsDeviceLocation(desc.location) ||
        !mxcts::cuda_backend::IsAccessFlags(desc.flags)) {
      return Fail(mcErrorInvalidValue);
    }
    // [api.pool.access.revoke-resident-is-invalid-value]
    if (desc.location.id == live->device &&
        desc.flags != mcMemAccessFlagsProtReadWrite) {
      return Fail(mcErrorInvalidValue);
    }
  }
  std::vector<cudaMemAccessDesc> cuda(count);
  for (size_t i = 0; i < count; ++i) {
    const int device = descList[i].location.id;
    if (device != live->device) {
      // [api.pool.access.non-peer-device-is-invalid-device]
      int can = 0;
      if (cudaDeviceCanAccessPeer(&can, device, live->device) != cudaSuccess ||
          can == 0) {
        cudaGetLastError();
        return Fail(mcErrorInvalidDevice);
      }
    }
    cuda[i].location =
        mxcts::cuda_backend::ToCudaLocation(descList[i].location);
    cuda[i].flags = static_cast<cudaMemAccessFlags>(descList[i].flags);
  }
  return Check(cudaMemPoolSetAccess(mxcts::cuda_backend::CudaPool(*live),
                                    cuda.data(), count));
}

mcError_t mcMemPoolGetAccess(mcMemAccessFlags* flags, mcMemPool_t pool,
                             mcMemLocation* location) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  if (flags == nullptr || location == nullptr) return Fail(mcErrorInvalidValue);
  State& s = Pools();
  std::lock_guard<std::mutex> lock(s.mutex);
  Pool* live = mxcts::cuda_backend::LivePool(s, pool);
  if (live == nullptr || !mxcts::cuda_backend::IsDeviceLocation(*location)) {
    return Fail(mcErrorInvalidValue);
  }
  cudaMemLocation cuda = mxcts::cuda_backend::ToCudaLocation(*location);
  cudaMemAccessFlags access = cudaMemAccessFlagsProtNone;
  const mcError_t error = Check(cudaMemPoolGetAccess(
      &access, mxcts::cuda_backend::CudaPool(*live), &cuda));
  if (error == mcSuccess) *flags = static_cast<mcMemAccessFlags>(access);
  return error;
}

// --- Pools shared between processes. ---

mcError_t mcMemPoolExportToShareableHandle(void* shareableHandle,
                                           mcMemPool_t pool,
                                           mcMemAllocationHandleType handleType,
                                           unsigned long long flags) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  State& s = Pools();
  std::lock_guard<std::mutex> lock(s.mutex);
  Pool* live = mxcts::cuda_backend::LivePool(s, pool);
  // [api.pool.ipc.export-needs-handle-type]
  // [api.pool.ipc.default-pool-not-exportable]
  if (shareableHandle == nullptr || live == nullptr || live->is_default ||
      live->imported || !live->exportable ||
      handleType != mcMemHandleTypePosixFileDescriptor || flags != 0) {
    return Fail(mcErrorInvalidValue);
  }
  int fd = -1;
  const mcError_t error = Check(cudaMemPoolExportToShareableHandle(
      &fd, live->cuda, cudaMemHandleTypePosixFileDescriptor, 0));
  if (error != mcSuccess) return error;
  // The descriptor is the program's to pass on by any means, a child
  // process's inheritance among them.
  const int fd_flags = fcntl(fd, F_GETFD);
  if (fd_flags >= 0) fcntl(fd, F_SETFD, fd_flags & ~FD_CLOEXEC);
  *static_cast<int*>(shareableHandle) = fd;
  return mcSuccess;
}

mcError_t mcMemPoolImportFromShareableHandle(
    mcMemPool_t* pool, void* shareableHandle,
    mcMemAllocationHandleType handleType, unsigned long long flags) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  if (pool == nullptr || handleType != mcMemHandleTypePosixFileDescriptor ||
      flags != 0) {
    return Fail(mcErrorInvalidValue);
  }
  const int fd = static_cast<int>(reinterpret_cast<intptr_t>(shareableHandle));
  if (!mxcts::cuda_backend::MayBePoolDescriptor(fd)) {
    return Fail(mcErrorInvalidValue);
  }
  int device = 0;
  mcError_t error = Check(cudaGetDevice(&device));
  if (error != mcSuccess) return error;
  cudaMemPool_t handle = nullptr;
  // Whatever CUDA objects to, the descriptor is no exported pool's
  // [api.pool.ipc.export-import-round-trip].
  if (cudaMemPoolImportFromShareableHandle(&handle, shareableHandle,
                                           cudaMemHandleTypePosixFileDescriptor,
                                           0) != cudaSuccess) {
    cudaGetLastError();
    return Fail(mcErrorInvalidValue);
  }
  Pool* imported = new Pool();
  imported->cuda = handle;
  imported->device = device;
  imported->imported = true;
  State& s = Pools();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.live.insert(imported);
  *pool = reinterpret_cast<mcMemPool_t>(imported);
  return mcSuccess;
}

mcError_t mcMemPoolExportPointer(mcMemPoolPtrExportData* exportData,
                                 void* ptr) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  if (exportData == nullptr) return Fail(mcErrorInvalidValue);
  State& s = Pools();
  std::lock_guard<std::mutex> lock(s.mutex);
  // [api.pool.ipc.export-pointer-foreign-is-invalid-value]
  auto it = s.allocations.find(mxcts::cuda_backend::Address(ptr));
  if (ptr == nullptr || it == s.allocations.end() ||
      !it->second.pool->exportable || it->second.pool->imported) {
    return Fail(mcErrorInvalidValue);
  }
  auto* data = reinterpret_cast<cudaMemPoolPtrExportData*>(exportData);
  if (cudaMemPoolExportPointer(data, ptr) == cudaSuccess) return mcSuccess;
  cudaGetLastError();
  // MXMACA exports an allocation as soon as mcMallocFromPoolAsync returned
  // [api.pool.ipc.export-pointer]. CUDA 13 on an H200 refused that, though
  // it exported the allocation once the device had reached it and the pool
  // had been exported: the adapter waits for the device and tries again,
  // then exports the pool once (closing the descriptor) and tries again.
  Pool* pool = it->second.pool;
  mcError_t error =
      mxcts::cuda_backend::SynchronizeAndFree(pool->device, nullptr);
  if (error != mcSuccess) return error;
  if (cudaMemPoolExportPointer(data, ptr) == cudaSuccess) return mcSuccess;
  cudaGetLastError();
  int fd = -1;
  if (cudaMemPoolExportToShareableHandle(&fd, pool->cuda,
                                         cudaMemHandleTypePosixFileDescriptor,
                                         0) == cudaSuccess) {
    close(fd);
  }
  cudaGetLastError();
  return Check(cudaMemPoolExportPointer(data, ptr));
}

mcError_t mcMemPoolImportPointer(void** ptr, mcMemPool_t pool,
                                 mcMemPoolPtrExportData* exportData) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  if (ptr == nullptr || exportData == nullptr) {
    return Fail(mcErrorInvalidValue);
  }
  State& s = Pools();
  std::lock_guard<std::mutex> lock(s.mutex);
  Pool* live = mxcts::cuda_backend::LivePool(s, pool);
  if (live == nullptr || !live->imported) return Fail(mcErrorInvalidValue);
  void* p = nullptr;
  // Data that describes no allocation of the pool
  // [api.pool.ipc.export-pointer].
  if (cudaMemPoolImportPointer(&p, live->cuda,
                               reinterpret_cast<cudaMemPoolPtrExportData*>(
                                   exportData)) != cudaSuccess) {
    cudaGetLastError();
    return Fail(mcErrorInvalidValue);
  }
  CUdeviceptr base = 0;
  size_t size = 0;
  if (mxcts::cuda_backend::CallDriver<decltype(&cuMemGetAddressRange)>(
          "cuMemGetAddressRange", &base, &size,
          static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(p))) !=
      CUDA_SUCCESS) {
    size = 1;
  }
  s.allocations[mxcts::cuda_backend::Address(p)] =
      mxcts::cuda_backend::Allocation{live, size};
  *ptr = p;
  return mcSuccess;
}

}  // extern "C"
