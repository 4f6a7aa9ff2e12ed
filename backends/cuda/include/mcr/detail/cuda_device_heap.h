// Copyright mxcts authors.
//
// mcr/detail/cuda_device_heap.h of the CUDA backend: mcMalloc and mcFree in
// device code. MXMACA's device code calls them with the host API's
// spellings and they allocate from the device heap, as device malloc and
// free do [lang.malloc.host.device-mcmalloc-uses-heap]. CUDA's device code
// has no such functions without its separately compiled device runtime,
// and nvcc cannot overload a function on where it runs, so the device pass
// of a compilation (the only one that defines __CUDA_ARCH__) renames the
// two calls to functions that run on both sides: device malloc and free on
// the device, the host API on the host.
//
// Included by mc_runtime.h after the reference's host API; not for
// programs.

#ifndef MXCTS_CUDA_MCR_DETAIL_CUDA_DEVICE_HEAP_H_
#define MXCTS_CUDA_MCR_DETAIL_CUDA_DEVICE_HEAP_H_

#if defined(__CUDACC__) && defined(__cplusplus)

// `size` bytes of the device heap in `*ptr` on the device (a null result
// with mcErrorMemoryAllocation when the heap is exhausted); mcMalloc on the
// host.
__host__ __device__ inline mcError_t mcDeviceHeapMalloc(void** ptr,
                                                        size_t size) {
#ifdef __CUDA_ARCH__
  *ptr = malloc(size);
  return *ptr == nullptr && size != 0 ? mcErrorMemoryAllocation : mcSuccess;
#else
  return ::mcMalloc(ptr, size);
#endif
}

// The typed form, as mc_runtime.h's mcMalloc(T**, size_t).
template <class T>
__host__ __device__ inline mcError_t mcDeviceHeapMalloc(T** ptr, size_t size) {
  return mcDeviceHeapMalloc(reinterpret_cast<void**>(ptr), size);
}

// Returns `ptr` to the device heap on the device; mcFree on the host.
__host__ __device__ inline mcError_t mcDeviceHeapFree(void* ptr) {
#ifdef __CUDA_ARCH__
  free(ptr);
  return mcSuccess;
#else
  return ::mcFree(ptr);
#endif
}

#ifdef __CUDA_ARCH__
#define mcMalloc mcDeviceHeapMalloc
#define mcFree mcDeviceHeapFree
#endif

#endif  // defined(__CUDACC__) && defined(__cplusplus)

#endif  // MXCTS_CUDA_MCR_DETAIL_CUDA_DEVICE_HEAP_H_
