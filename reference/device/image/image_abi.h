// Copyright mxcts authors.
//
// reference/device/image/image_abi.h: the table through which a loaded
// device image reaches the device engine.
//
// A device image is a shared object that mxcc links from one source's
// device object and lib/libmcdevice.a (image_runtime.cc). It depends on
// nothing but the C library and libm: every device service goes through the
// table below, which the runtime passes to `__mc_image_bind` right after it
// loads the image and before it runs any of the image's code.
//
//   void* image = dlopen(path, RTLD_NOW | RTLD_LOCAL);
//   auto* bind = reinterpret_cast<__mc_image_bind_fn>(
//       dlsym(image, "__mc_image_bind"));
//   if (bind(mxcts::device::ImageRuntimeTable()) != MC_IMAGE_ABI_VERSION) ...

#ifndef REFERENCE_DEVICE_IMAGE_IMAGE_ABI_H_
#define REFERENCE_DEVICE_IMAGE_IMAGE_ABI_H_

#include <stdarg.h>
#include <stddef.h>

#include "mcr/detail/device_abi.h"

// Version 4: kernel records (launch_abi.h) end with run_threads, which the
// engine calls with its __mc_thread_walk.
// Version 5: __mc_wave_request ends with the calling group; the grid
// barrier of cooperative launches; dynamic parallelism and the device
// runtime API; kernel records end with the kernel's address in device code.
// Version 6: streams and events in device code.
// Version 7: kernel records end with flags (kKernelLaunchesGrids).
#define MC_IMAGE_ABI_VERSION 7u

extern "C" {

struct __mc_image_runtime {
  unsigned version;  // MC_IMAGE_ABI_VERSION
  // Version 3: the engine's copy of the running thread's context, which the
  // image's built-in variables refer to.
  const __mc_thread_context* builtins;
  void (*syncthreads)(const char* file, int line);
  // Version 3: with the variable's name.
  void* (*shared_variable)(const void* site, size_t size, size_t alignment,
                           const char* name);
  void* (*dynamic_shared)(void);
  // Device printf: formats into the device printf buffer.
  int (*vprintf)(const char* format, va_list args);
  // Device heap.
  void* (*malloc)(size_t size);
  void (*free)(void* pointer);
  // A failed device assert: traps the grid (never returns).
  void (*assert_fail)(const char* expression, const char* file, unsigned line,
                      const char* function);
  // Any other trap (never returns).
  void (*trap)(const char* message);
  // Version 2.
  int (*syncthreads_predicate)(int kind, int predicate, const char* file,
                               int line);
  unsigned long long (*wave_collective)(const __mc_wave_request* request);
  // A trap with a given error (never returns).
  void (*trap_error)(int error, const char* message);
  // Version 3: the device clock.
  long long (*clock64)(void);
  void (*nanosleep)(unsigned int nanoseconds);
  // Version 5: the grid barrier of cooperative launches.
  void (*grid_sync)(const char* file, int line);
  int (*grid_is_cooperative)(void);
  // Version 5: dynamic parallelism (device_abi.h, device_runtime_api.h).
  // The launch entries return an mcError_t, except launch_from_kernel:
  // 1 when the call was a launch, 0 when not, 2 when not and no
  // configuration is pending in any thread.
  void (*push_launch_configuration)(dim3 grid, dim3 block, size_t shared_bytes,
                                    mcStream_t stream);
  int (*launch_from_kernel)(const void* kernel, void** args);
  int (*launch_device)(const void* kernel, void* parameters, dim3 grid,
                       dim3 block, unsigned shared_bytes, mcStream_t stream);
  void* (*get_parameter_buffer)(size_t alignment, size_t size);
  void* (*get_parameter_buffer_v2)(const void* kernel, dim3 grid, dim3 block,
                                   unsigned shared_bytes);
  int (*launch_device_v2)(void* parameters, mcStream_t stream);
  // The device runtime's calls with host spellings.
  int (*device_synchronize)(void);
  // The calling thread's last error; `reset` nonzero: mcGetLastError.
  int (*last_error)(int reset);
  // Makes `error` the calling thread's last error (if not mcSuccess).
  void (*record_error)(int error);
  int (*device_get_limit)(size_t* value, int limit);
  int (*get_device)(int* device);
  int (*device_get_attribute)(int* value, int attribute, int device);
  // mcGetErrorName (`name` nonzero) or mcGetErrorString of `error`.
  const char* (*error_text)(int error, int name);
  // Nonzero when `pointer` is neither shared nor private memory.
  int (*is_global)(const void* pointer);
  // Version 6: streams and events created in device code; each returns an
  // mcError_t. stream_order_work comes before a copy or fill into a stream.
  int (*stream_create)(mcStream_t* stream, unsigned flags);
  int (*stream_destroy)(mcStream_t stream);
  int (*event_create)(mcEvent_t* event, unsigned flags);
  int (*event_record)(mcEvent_t event, mcStream_t stream);
  int (*stream_wait_event)(mcStream_t stream, mcEvent_t event, unsigned flags);
  int (*event_destroy)(mcEvent_t event);
  int (*stream_order_work)(mcStream_t stream);
};

// Defined by every image: stores `runtime` for the image's device code and
// returns MC_IMAGE_ABI_VERSION.
unsigned __mc_image_bind(const __mc_image_runtime* runtime);
typedef unsigned (*__mc_image_bind_fn)(const __mc_image_runtime*);

}  // extern "C"

#endif  // REFERENCE_DEVICE_IMAGE_IMAGE_ABI_H_
