// Copyright mxcts authors.
//
// The device runtime library: linked into every device image as
// lib/libmcdevice.a, it defines the `__mcdev_` names that device code may
// leave undefined (reference/compiler/design.md, stage 7) and forwards each
// one to the engine's table (image_abi.h) or to the C library and libm.
//
// Each definition gets its symbol from an asm label, because the names are
// the prefixed spellings of C and C++ symbols (`__mcdev_printf`,
// `__mcdev__Znwm`). The image's version script keeps all of them local, so
// every image has its own copy and its own bound table.
//
// Rules for this file: nothing from the C++ library (an image links only the
// C library and libm), no exceptions, no static constructors (stage 7 drops
// them from device objects, and the runtime binds before running anything).
//
// Tested by image_runtime_test.cc, which links a device image by hand.

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reference/device/image/image_abi.h"

namespace {

const __mc_image_runtime* bound_runtime = nullptr;

// Formats through the engine's printf with a va_list built here.
int FormatToDevicePrintf(const char* format, ...) {
  va_list args;
  va_start(args, format);
  const int result = bound_runtime->vprintf(format, args);
  va_end(args);
  return result;
}

[[noreturn]] void TrapWith(const char* message) {
  bound_runtime->trap(message);
  __builtin_unreachable();
}

}  // namespace

// Declares `__mcdev_<name>` as the C function `mcdev_<name>`.
#define MCDEV_DECLARE(result, name, parameters) \
  extern "C" result mcdev_##name parameters __asm__("__mcdev_" #name)

extern "C" {

// --- Binding. ---

// The built-in variables: device code declares each as a reference
// (mcr/detail/device_abi.h), which the ABI represents as a pointer, bound
// here to the engine's copy of the running thread's context.
const void* mcdev_threadIdx __asm__("__mcdev_threadIdx") = nullptr;
const void* mcdev_blockIdx __asm__("__mcdev_blockIdx") = nullptr;
const void* mcdev_blockDim __asm__("__mcdev_blockDim") = nullptr;
const void* mcdev_gridDim __asm__("__mcdev_gridDim") = nullptr;

__attribute__((visibility("default"))) unsigned __mc_image_bind(
    const __mc_image_runtime* runtime) {
  bound_runtime = runtime;
  mcdev_threadIdx = &runtime->builtins->threadIdx;
  mcdev_blockIdx = &runtime->builtins->blockIdx;
  mcdev_blockDim = &runtime->builtins->blockDim;
  mcdev_gridDim = &runtime->builtins->gridDim;
  return MC_IMAGE_ABI_VERSION;
}

// --- Built-ins of mcr/detail/device_abi.h. ---

MCDEV_DECLARE(void, __mc_dev_syncthreads, (const char* file, int line));
void mcdev___mc_dev_syncthreads(const char* file, int line) {
  bound_runtime->syncthreads(file, line);
}

MCDEV_DECLARE(void*, __mc_dev_shared_variable,
              (const void* site, size_t size, size_t alignment,
               const char* name));
void* mcdev___mc_dev_shared_variable(const void* site, size_t size,
                                     size_t alignment, const char* name) {
  return bound_runtime->shared_variable(site, size, alignment, name);
}

MCDEV_DECLARE(void*, __mc_dev_dynamic_shared, (void));
void* mcdev___mc_dev_dynamic_shared(void) {
  return bound_runtime->dynamic_shared();
}

MCDEV_DECLARE(int, __mc_dev_syncthreads_predicate,
              (int kind, int predicate, const char* file, int line));
int mcdev___mc_dev_syncthreads_predicate(int kind, int predicate,
                                         const char* file, int line) {
  return bound_runtime->syncthreads_predicate(kind, predicate, file, line);
}

MCDEV_DECLARE(unsigned long long, __mc_dev_wave_collective,
              (const __mc_wave_request* request));
unsigned long long mcdev___mc_dev_wave_collective(
    const __mc_wave_request* request) {
  return bound_runtime->wave_collective(request);
}

MCDEV_DECLARE(void, __mc_dev_trap, (int error, const char* message));
void mcdev___mc_dev_trap(int error, const char* message) {
  bound_runtime->trap_error(error, message);
  __builtin_unreachable();
}

// --- printf and the calls g++ makes of it. ---

MCDEV_DECLARE(int, vprintf, (const char* format, va_list args));
int mcdev_vprintf(const char* format, va_list args) {
  return bound_runtime->vprintf(format, args);
}

MCDEV_DECLARE(int, printf, (const char* format, ...));
int mcdev_printf(const char* format, ...) {
  va_list args;
  va_start(args, format);
  const int result = bound_runtime->vprintf(format, args);
  va_end(args);
  return result;
}

// With _FORTIFY_SOURCE, printf calls become __printf_chk.
MCDEV_DECLARE(int, __printf_chk, (int flag, const char* format, ...));
int mcdev___printf_chk(int, const char* format, ...) {
  va_list args;
  va_start(args, format);
  const int result = bound_runtime->vprintf(format, args);
  va_end(args);
  return result;
}

MCDEV_DECLARE(int, __vprintf_chk, (int flag, const char* format, va_list args));
int mcdev___vprintf_chk(int, const char* format, va_list args) {
  return bound_runtime->vprintf(format, args);
}

// printf("text\n") with an unused result becomes puts("text").
MCDEV_DECLARE(int, puts, (const char* text));
int mcdev_puts(const char* text) {
  return FormatToDevicePrintf("%s\n", text) < 0 ? EOF : 1;
}

// printf("c") with an unused result becomes putchar('c').
MCDEV_DECLARE(int, putchar, (int character));
int mcdev_putchar(int character) {
  return FormatToDevicePrintf("%c", character) < 0
             ? EOF
             : static_cast<unsigned char>(character);
}

// --- Heap. ---

MCDEV_DECLARE(void*, malloc, (size_t size));
void* mcdev_malloc(size_t size) { return bound_runtime->malloc(size); }

MCDEV_DECLARE(void, free, (void* pointer));
void mcdev_free(void* pointer) { bound_runtime->free(pointer); }

// operator new and delete use the device heap; new returns null when the
// heap is exhausted, as device code cannot throw.
MCDEV_DECLARE(void*, _Znwm, (size_t size));
void* mcdev__Znwm(size_t size) { return bound_runtime->malloc(size); }
MCDEV_DECLARE(void*, _Znam, (size_t size));
void* mcdev__Znam(size_t size) { return bound_runtime->malloc(size); }
MCDEV_DECLARE(void*, _ZnwmRKSt9nothrow_t, (size_t size, const void* tag));
void* mcdev__ZnwmRKSt9nothrow_t(size_t size, const void*) {
  return bound_runtime->malloc(size);
}
MCDEV_DECLARE(void*, _ZnamRKSt9nothrow_t, (size_t size, const void* tag));
void* mcdev__ZnamRKSt9nothrow_t(size_t size, const void*) {
  return bound_runtime->malloc(size);
}
MCDEV_DECLARE(void, _ZdlPv, (void* pointer));
void mcdev__ZdlPv(void* pointer) { bound_runtime->free(pointer); }
MCDEV_DECLARE(void, _ZdaPv, (void* pointer));
void mcdev__ZdaPv(void* pointer) { bound_runtime->free(pointer); }
MCDEV_DECLARE(void, _ZdlPvm, (void* pointer, size_t size));
void mcdev__ZdlPvm(void* pointer, size_t) { bound_runtime->free(pointer); }
MCDEV_DECLARE(void, _ZdaPvm, (void* pointer, size_t size));
void mcdev__ZdaPvm(void* pointer, size_t) { bound_runtime->free(pointer); }

// The device clock, and the C library's clock() in device code, which reads
// the same counter. [lang.clock.clock-reads-same-counter]
MCDEV_DECLARE(long long, __mc_dev_clock64, (void));
long long mcdev___mc_dev_clock64(void) { return bound_runtime->clock64(); }
MCDEV_DECLARE(void, __mc_dev_nanosleep, (unsigned int nanoseconds));
void mcdev___mc_dev_nanosleep(unsigned int nanoseconds) {
  bound_runtime->nanosleep(nanoseconds);
}
MCDEV_DECLARE(long, clock, (void));
long mcdev_clock(void) { return bound_runtime->clock64(); }

// Version 5: the grid barrier of cooperative launches.
MCDEV_DECLARE(void, __mc_dev_grid_sync, (const char* file, int line));
void mcdev___mc_dev_grid_sync(const char* file, int line) {
  bound_runtime->grid_sync(file, line);
}
MCDEV_DECLARE(int, __mc_dev_grid_is_cooperative, (void));
int mcdev___mc_dev_grid_is_cooperative(void) {
  return bound_runtime->grid_is_cooperative();
}

// --- assert, abort and the C++ runtime's failure paths: traps. ---

MCDEV_DECLARE(void, __assert_fail,
              (const char* expression, const char* file, unsigned line,
               const char* function));
void mcdev___assert_fail(const char* expression, const char* file,
                         unsigned line, const char* function) {
  bound_runtime->assert_fail(expression, file, line, function);
  __builtin_unreachable();
}

MCDEV_DECLARE(void, abort, (void));
void mcdev_abort(void) { TrapWith("abort() called in device code"); }

MCDEV_DECLARE(void, __cxa_pure_virtual, (void));
void mcdev___cxa_pure_virtual(void) {
  TrapWith("pure virtual function called in device code");
}

MCDEV_DECLARE(void, __cxa_deleted_virtual, (void));
void mcdev___cxa_deleted_virtual(void) {
  TrapWith("deleted virtual function called in device code");
}

// A new[] whose element count is negative or whose size overflows: the
// compiler checks the count before it calls operator new[] and calls this
// instead of throwing. [lang.malloc.new-delete.bad-array-length-undefined]
MCDEV_DECLARE(void, __cxa_throw_bad_array_new_length, (void));
void mcdev___cxa_throw_bad_array_new_length(void) {
  TrapWith("new[] with a negative or too large element count in device code");
}

MCDEV_DECLARE(void, __stack_chk_fail, (void));
void mcdev___stack_chk_fail(void) {
  TrapWith("stack smashing detected in device code");
}

// Device code never throws, and the engine never unwinds device frames; an
// object compiled with exceptions still names these.
MCDEV_DECLARE(int, __gxx_personality_v0,
              (int version, int actions, unsigned long exception_class,
               void* exception, void* context));
int mcdev___gxx_personality_v0(int, int, unsigned long, void*, void*) {
  TrapWith("an exception is unwinding through device code");
}

MCDEV_DECLARE(void, _Unwind_Resume, (void* exception));
void mcdev__Unwind_Resume(void*) {
  TrapWith("an exception is unwinding through device code");
}

// Function-local statics with destructors register them; device static
// objects are never destroyed.
MCDEV_DECLARE(int, __cxa_atexit,
              (void (*destructor)(void*), void* object, void* dso));
int mcdev___cxa_atexit(void (*)(void*), void*, void*) { return 0; }
__attribute__((visibility("hidden"))) char mcdev_dso_handle __asm__(
    "__mcdev___dso_handle");

// --- C library functions device code may call. ---
// [lang.malloc.memcpy.copies-bytes] [lang.malloc.memset.fills-bytes]

MCDEV_DECLARE(void*, memcpy,
              (void* destination, const void* source, size_t count));
void* mcdev_memcpy(void* destination, const void* source, size_t count) {
  return memcpy(destination, source, count);
}
MCDEV_DECLARE(void*, memmove,
              (void* destination, const void* source, size_t count));
void* mcdev_memmove(void* destination, const void* source, size_t count) {
  return memmove(destination, source, count);
}
MCDEV_DECLARE(void*, memset, (void* destination, int value, size_t count));
void* mcdev_memset(void* destination, int value, size_t count) {
  return memset(destination, value, count);
}
MCDEV_DECLARE(int, memcmp, (const void* a, const void* b, size_t count));
int mcdev_memcmp(const void* a, const void* b, size_t count) {
  return memcmp(a, b, count);
}
MCDEV_DECLARE(size_t, strlen, (const char* text));
size_t mcdev_strlen(const char* text) { return strlen(text); }

// With _FORTIFY_SOURCE, the checked forms.
MCDEV_DECLARE(void*, __memcpy_chk,
              (void* destination, const void* source, size_t count,
               size_t destination_size));
void* mcdev___memcpy_chk(void* destination, const void* source, size_t count,
                         size_t) {
  return memcpy(destination, source, count);
}
MCDEV_DECLARE(void*, __memmove_chk,
              (void* destination, const void* source, size_t count,
               size_t destination_size));
void* mcdev___memmove_chk(void* destination, const void* source, size_t count,
                          size_t) {
  return memmove(destination, source, count);
}
MCDEV_DECLARE(void*, __memset_chk,
              (void* destination, int value, size_t count,
               size_t destination_size));
void* mcdev___memset_chk(void* destination, int value, size_t count, size_t) {
  return memset(destination, value, count);
}

MCDEV_DECLARE(int, abs, (int value));
int mcdev_abs(int value) { return abs(value); }
MCDEV_DECLARE(long, labs, (long value));
long mcdev_labs(long value) { return labs(value); }
MCDEV_DECLARE(long long, llabs, (long long value));
long long mcdev_llabs(long long value) { return llabs(value); }

// --- Dynamic parallelism and the device runtime API (version 5). ---
// [api.devrt.api.subset-of-host-api] Device code calls the host API's
// spellings; here they reach the engine's device runtime.

// True while a launch configuration may be pending in this image: set by
// every push, cleared when the engine says none is left. Kernel prologues
// test it before asking the engine (launch_abi.h, LaunchFromDevice), and
// the thread loops before starting a thread without its prologue
// (device_abi.h, __mc_walk_threads).
__attribute__((visibility("hidden"))) bool mcdev_launch_pending __asm__(
    "__mcdev___mc_dev_launch_pending") = false;

MCDEV_DECLARE(void, __mc_dev_push_launch_configuration,
              (dim3 grid, dim3 block, size_t shared_bytes, mcStream_t stream));
void mcdev___mc_dev_push_launch_configuration(dim3 grid, dim3 block,
                                              size_t shared_bytes,
                                              mcStream_t stream) {
  mcdev_launch_pending = true;
  bound_runtime->push_launch_configuration(grid, block, shared_bytes, stream);
}

MCDEV_DECLARE(int, __mc_dev_launch_from_kernel,
              (const void* kernel, void** args));
int mcdev___mc_dev_launch_from_kernel(const void* kernel, void** args) {
  const int outcome = bound_runtime->launch_from_kernel(kernel, args);
  if (outcome == 2) {
    mcdev_launch_pending = false;
    return 0;
  }
  return outcome;
}

MCDEV_DECLARE(mcError_t, mcLaunchDevice,
              (void* kernel, void* parameters, dim3 grid, dim3 block,
               unsigned shared_bytes, mcStream_t stream));
mcError_t mcdev_mcLaunchDevice(void* kernel, void* parameters, dim3 grid,
                               dim3 block, unsigned shared_bytes,
                               mcStream_t stream) {
  return static_cast<mcError_t>(bound_runtime->launch_device(
      kernel, parameters, grid, block, shared_bytes, stream));
}

MCDEV_DECLARE(mcError_t, mcLaunchDeviceV2,
              (void* parameters, mcStream_t stream));
mcError_t mcdev_mcLaunchDeviceV2(void* parameters, mcStream_t stream) {
  return static_cast<mcError_t>(
      bound_runtime->launch_device_v2(parameters, stream));
}

MCDEV_DECLARE(void*, mcGetParameterBuffer, (size_t alignment, size_t size));
void* mcdev_mcGetParameterBuffer(size_t alignment, size_t size) {
  return bound_runtime->get_parameter_buffer(alignment, size);
}

MCDEV_DECLARE(void*, mcGetParameterBufferV2,
              (void* kernel, dim3 grid, dim3 block, unsigned shared_bytes));
void* mcdev_mcGetParameterBufferV2(void* kernel, dim3 grid, dim3 block,
                                   unsigned shared_bytes) {
  return bound_runtime->get_parameter_buffer_v2(kernel, grid, block,
                                                shared_bytes);
}

MCDEV_DECLARE(mcError_t, mcDeviceSynchronize, (void));
mcError_t mcdev_mcDeviceSynchronize(void) {
  return static_cast<mcError_t>(bound_runtime->device_synchronize());
}

MCDEV_DECLARE(mcError_t, mcGetLastError, (void));
mcError_t mcdev_mcGetLastError(void) {
  return static_cast<mcError_t>(bound_runtime->last_error(1));
}

MCDEV_DECLARE(mcError_t, mcPeekAtLastError, (void));
mcError_t mcdev_mcPeekAtLastError(void) {
  return static_cast<mcError_t>(bound_runtime->last_error(0));
}

MCDEV_DECLARE(const char*, mcGetErrorString, (mcError_t error));
const char* mcdev_mcGetErrorString(mcError_t error) {
  return bound_runtime->error_text(error, 0);
}

MCDEV_DECLARE(const char*, mcGetErrorName, (mcError_t error));
const char* mcdev_mcGetErrorName(mcError_t error) {
  return bound_runtime->error_text(error, 1);
}

// [api.devrt.api.device-malloc-uses-heap] The device heap, as malloc.
MCDEV_DECLARE(mcError_t, mcMalloc, (void** pointer, size_t size));
mcError_t mcdev_mcMalloc(void** pointer, size_t size) {
  if (pointer == nullptr) {
    bound_runtime->record_error(mcErrorInvalidValue);
    return mcErrorInvalidValue;
  }
  *pointer = bound_runtime->malloc(size);
  if (*pointer == nullptr && size > 0) {
    bound_runtime->record_error(mcErrorMemoryAllocation);
    return mcErrorMemoryAllocation;
  }
  return mcSuccess;
}

// [api.devrt.api.free-across-host-device-undefined] Freeing what is no
// device heap block traps, as free() does.
MCDEV_DECLARE(mcError_t, mcFree, (void* pointer));
mcError_t mcdev_mcFree(void* pointer) {
  if (pointer != nullptr) bound_runtime->free(pointer);
  return mcSuccess;
}

MCDEV_DECLARE(mcError_t, mcDeviceGetLimit, (size_t * value, mcLimit_t limit));
mcError_t mcdev_mcDeviceGetLimit(size_t* value, mcLimit_t limit) {
  return static_cast<mcError_t>(bound_runtime->device_get_limit(value, limit));
}

MCDEV_DECLARE(mcError_t, mcGetDevice, (int* device));
mcError_t mcdev_mcGetDevice(int* device) {
  return static_cast<mcError_t>(bound_runtime->get_device(device));
}

MCDEV_DECLARE(mcError_t, mcDeviceGetAttribute,
              (int* value, mcDeviceAttribute_t attribute, int device));
mcError_t mcdev_mcDeviceGetAttribute(int* value, mcDeviceAttribute_t attribute,
                                     int device) {
  return static_cast<mcError_t>(
      bound_runtime->device_get_attribute(value, attribute, device));
}

MCDEV_DECLARE(unsigned, __isGlobal, (const void* pointer));
unsigned mcdev___isGlobal(const void* pointer) {
  return bound_runtime->is_global(pointer) != 0 ? 1u : 0u;
}

namespace {

// [api.devrt.memory.async-copy-of-private-memory-undefined] The device
// runtime's copies and fills are carried out at once, in the calling
// thread: a permitted order, as they complete before any later
// synchronization. Shared or private memory is refused with
// mcErrorInvalidValue. In a named stream they first wait for the stream's
// earlier work.
// Copies and fills into a named stream follow its earlier launches; an
// invalid stream is mcErrorInvalidResourceHandle (recorded by the engine).
mcError_t AfterStreamWork(mcStream_t stream) {
  return static_cast<mcError_t>(bound_runtime->stream_order_work(stream));
}

mcError_t CheckGlobal(const void* pointer) {
  if (bound_runtime->is_global(pointer) != 0) return mcSuccess;
  bound_runtime->record_error(mcErrorInvalidValue);
  return mcErrorInvalidValue;
}

mcError_t Copy2D(void* destination, size_t destination_pitch,
                 const void* source, size_t source_pitch, size_t width,
                 size_t height) {
  if (height > 0 && (width > destination_pitch || width > source_pitch)) {
    bound_runtime->record_error(mcErrorInvalidPitchValue);
    return mcErrorInvalidPitchValue;
  }
  if (width == 0 || height == 0) return mcSuccess;
  if (mcError_t e = CheckGlobal(destination); e != mcSuccess) return e;
  if (mcError_t e = CheckGlobal(source); e != mcSuccess) return e;
  for (size_t row = 0; row < height; ++row) {
    memmove(static_cast<char*>(destination) + row * destination_pitch,
            static_cast<const char*>(source) + row * source_pitch, width);
  }
  return mcSuccess;
}

mcError_t Fill2D(void* destination, size_t pitch, int value, size_t width,
                 size_t height) {
  if (height > 1 && width > pitch) {
    bound_runtime->record_error(mcErrorInvalidValue);
    return mcErrorInvalidValue;
  }
  if (width == 0 || height == 0) return mcSuccess;
  if (mcError_t e = CheckGlobal(destination); e != mcSuccess) return e;
  for (size_t row = 0; row < height; ++row) {
    memset(static_cast<char*>(destination) + row * pitch, value, width);
  }
  return mcSuccess;
}

// A box of pitched memory, slice by slice; arrays are host objects.
mcError_t Copy3D(const mcMemcpy3DParms* p) {
  if (p == nullptr || p->srcArray != nullptr || p->dstArray != nullptr) {
    bound_runtime->record_error(mcErrorInvalidValue);
    return mcErrorInvalidValue;
  }
  const mcExtent e = p->extent;
  const size_t source_slice = p->srcPtr.pitch * p->srcPtr.ysize;
  const size_t destination_slice = p->dstPtr.pitch * p->dstPtr.ysize;
  for (size_t z = 0; z < e.depth; ++z) {
    const char* source = static_cast<const char*>(p->srcPtr.ptr) +
                         (p->srcPos.z + z) * source_slice +
                         p->srcPos.y * p->srcPtr.pitch + p->srcPos.x;
    char* destination = static_cast<char*>(p->dstPtr.ptr) +
                        (p->dstPos.z + z) * destination_slice +
                        p->dstPos.y * p->dstPtr.pitch + p->dstPos.x;
    const mcError_t e2 = Copy2D(destination, p->dstPtr.pitch, source,
                                p->srcPtr.pitch, e.width, e.height);
    if (e2 != mcSuccess) return e2;
  }
  return mcSuccess;
}

mcError_t Fill3D(mcPitchedPtr target, int value, mcExtent extent) {
  if (extent.width > target.pitch ||
      (extent.depth > 1 && extent.height > target.ysize)) {
    bound_runtime->record_error(mcErrorInvalidValue);
    return mcErrorInvalidValue;
  }
  for (size_t z = 0; z < extent.depth; ++z) {
    const mcError_t e =
        Fill2D(static_cast<char*>(target.ptr) + z * target.pitch * target.ysize,
               target.pitch, value, extent.width, extent.height);
    if (e != mcSuccess) return e;
  }
  return mcSuccess;
}

}  // namespace

// `__mcdev_<name>` and its per-thread default stream spelling
// `__mcdev_<name>_ptsz`: `work` runs once the stream's earlier launches
// have finished [api.devrt.stream.copies-follow-earlier-work].
#define MCDEV_STREAM_WORK(name, parameters, arguments, work)                   \
  MCDEV_DECLARE(mcError_t, name, parameters);                                  \
  mcError_t mcdev_##name parameters {                                          \
    if (const mcError_t e = AfterStreamWork(stream); e != mcSuccess) return e; \
    return work;                                                               \
  }                                                                            \
  MCDEV_DECLARE(mcError_t, name##_ptsz, parameters);                           \
  mcError_t mcdev_##name##_ptsz parameters { return mcdev_##name arguments; }

MCDEV_STREAM_WORK(mcMemcpy3DAsync,
                  (const mcMemcpy3DParms* parameters, mcStream_t stream),
                  (parameters, stream), Copy3D(parameters))

MCDEV_STREAM_WORK(mcMemset3DAsync,
                  (mcPitchedPtr target, int value, mcExtent extent,
                   mcStream_t stream),
                  (target, value, extent, stream),
                  Fill3D(target, value, extent))

MCDEV_STREAM_WORK(mcMemcpyAsync,
                  (void* destination, const void* source, size_t count,
                   [[maybe_unused]] mcMemcpyKind kind, mcStream_t stream),
                  (destination, source, count, kind, stream),
                  Copy2D(destination, count, source, count, count, 1))

MCDEV_STREAM_WORK(mcMemcpy2DAsync,
                  (void* destination, size_t destination_pitch,
                   const void* source, size_t source_pitch, size_t width,
                   size_t height, [[maybe_unused]] mcMemcpyKind kind,
                   mcStream_t stream),
                  (destination, destination_pitch, source, source_pitch, width,
                   height, kind, stream),
                  Copy2D(destination, destination_pitch, source, source_pitch,
                         width, height))

MCDEV_STREAM_WORK(mcMemsetAsync,
                  (void* destination, int value, size_t count,
                   mcStream_t stream),
                  (destination, value, count, stream),
                  Fill2D(destination, count, value, count, 1))

MCDEV_STREAM_WORK(mcMemset2DAsync,
                  (void* destination, size_t pitch, int value, size_t width,
                   size_t height, mcStream_t stream),
                  (destination, pitch, value, width, height, stream),
                  Fill2D(destination, pitch, value, width, height))

// --- Streams and events in device code (version 6). ---
// [api.devrt.stream.named-streams-optional] [api.devrt.event.subset-optional]
// The calls the device runtime offers; mcStreamCreate, mcStreamSynchronize,
// mcStreamQuery, mcEventCreate, mcEventQuery, mcEventSynchronize and
// mcEventElapsedTime are left undefined, so device code calling them does
// not link [api.devrt.stream.synchronize-not-in-device-code].

MCDEV_DECLARE(mcError_t, mcStreamCreateWithFlags,
              (mcStream_t * stream, unsigned flags));
mcError_t mcdev_mcStreamCreateWithFlags(mcStream_t* stream, unsigned flags) {
  return static_cast<mcError_t>(bound_runtime->stream_create(stream, flags));
}

MCDEV_DECLARE(mcError_t, mcStreamDestroy, (mcStream_t stream));
mcError_t mcdev_mcStreamDestroy(mcStream_t stream) {
  return static_cast<mcError_t>(bound_runtime->stream_destroy(stream));
}
MCDEV_DECLARE(mcError_t, mcStreamDestroy_ptsz, (mcStream_t stream));
mcError_t mcdev_mcStreamDestroy_ptsz(mcStream_t stream) {
  return mcdev_mcStreamDestroy(stream);
}

MCDEV_DECLARE(mcError_t, mcEventCreateWithFlags,
              (mcEvent_t * event, unsigned flags));
mcError_t mcdev_mcEventCreateWithFlags(mcEvent_t* event, unsigned flags) {
  return static_cast<mcError_t>(bound_runtime->event_create(event, flags));
}

MCDEV_DECLARE(mcError_t, mcEventRecord, (mcEvent_t event, mcStream_t stream));
mcError_t mcdev_mcEventRecord(mcEvent_t event, mcStream_t stream) {
  return static_cast<mcError_t>(bound_runtime->event_record(event, stream));
}
MCDEV_DECLARE(mcError_t, mcEventRecord_ptsz,
              (mcEvent_t event, mcStream_t stream));
mcError_t mcdev_mcEventRecord_ptsz(mcEvent_t event, mcStream_t stream) {
  return mcdev_mcEventRecord(event, stream);
}

MCDEV_DECLARE(mcError_t, mcStreamWaitEvent,
              (mcStream_t stream, mcEvent_t event, unsigned flags));
mcError_t mcdev_mcStreamWaitEvent(mcStream_t stream, mcEvent_t event,
                                  unsigned flags) {
  return static_cast<mcError_t>(
      bound_runtime->stream_wait_event(stream, event, flags));
}
MCDEV_DECLARE(mcError_t, mcStreamWaitEvent_ptsz,
              (mcStream_t stream, mcEvent_t event, unsigned flags));
mcError_t mcdev_mcStreamWaitEvent_ptsz(mcStream_t stream, mcEvent_t event,
                                       unsigned flags) {
  return mcdev_mcStreamWaitEvent(stream, event, flags);
}

MCDEV_DECLARE(mcError_t, mcEventDestroy, (mcEvent_t event));
mcError_t mcdev_mcEventDestroy(mcEvent_t event) {
  return static_cast<mcError_t>(bound_runtime->event_destroy(event));
}

// --- <math.h>, float and double forms, forwarded to libm. ---

// `__mcdev_<name>` calling libm's `<name>` with one, two or three
// parameters of the given types.
#define MCDEV_FORWARD1(result, name, type1) \
  MCDEV_DECLARE(result, name, (type1 a));   \
  result mcdev_##name(type1 a) { return name(a); }
#define MCDEV_FORWARD2(result, name, type1, type2) \
  MCDEV_DECLARE(result, name, (type1 a, type2 b)); \
  result mcdev_##name(type1 a, type2 b) { return name(a, b); }
#define MCDEV_FORWARD3(result, name, type1, type2, type3)   \
  MCDEV_DECLARE(result, name, (type1 a, type2 b, type3 c)); \
  result mcdev_##name(type1 a, type2 b, type3 c) { return name(a, b, c); }

// One-argument functions in both precisions: f(x) and ff(x).
#define MCDEV_MATH1(name)              \
  MCDEV_FORWARD1(double, name, double) \
  MCDEV_FORWARD1(float, name##f, float)
#define MCDEV_MATH2(name)                      \
  MCDEV_FORWARD2(double, name, double, double) \
  MCDEV_FORWARD2(float, name##f, float, float)

MCDEV_MATH1(sin)
MCDEV_MATH1(cos)
MCDEV_MATH1(tan)
MCDEV_MATH1(asin)
MCDEV_MATH1(acos)
MCDEV_MATH1(atan)
MCDEV_MATH1(sinh)
MCDEV_MATH1(cosh)
MCDEV_MATH1(tanh)
MCDEV_MATH1(asinh)
MCDEV_MATH1(acosh)
MCDEV_MATH1(atanh)
MCDEV_MATH1(exp)
MCDEV_MATH1(exp2)
MCDEV_MATH1(exp10)
MCDEV_MATH1(expm1)
MCDEV_MATH1(log)
MCDEV_MATH1(log2)
MCDEV_MATH1(log10)
MCDEV_MATH1(log1p)
MCDEV_MATH1(logb)
MCDEV_MATH1(sqrt)
MCDEV_MATH1(cbrt)
MCDEV_MATH1(fabs)
MCDEV_MATH1(floor)
MCDEV_MATH1(ceil)
MCDEV_MATH1(round)
MCDEV_MATH1(trunc)
MCDEV_MATH1(rint)
MCDEV_MATH1(nearbyint)
MCDEV_MATH1(erf)
MCDEV_MATH1(erfc)
MCDEV_MATH1(tgamma)
MCDEV_MATH1(lgamma)
MCDEV_MATH2(pow)
MCDEV_MATH2(atan2)
MCDEV_MATH2(fmod)
MCDEV_MATH2(remainder)
MCDEV_MATH2(fmin)
MCDEV_MATH2(fmax)
MCDEV_MATH2(fdim)
MCDEV_MATH2(hypot)
MCDEV_MATH2(copysign)
MCDEV_MATH2(nextafter)

MCDEV_FORWARD3(double, fma, double, double, double)
MCDEV_FORWARD3(float, fmaf, float, float, float)
MCDEV_FORWARD2(double, ldexp, double, int)
MCDEV_FORWARD2(float, ldexpf, float, int)
MCDEV_FORWARD2(double, scalbn, double, int)
MCDEV_FORWARD2(float, scalbnf, float, int)
MCDEV_FORWARD2(double, frexp, double, int*)
MCDEV_FORWARD2(float, frexpf, float, int*)
MCDEV_FORWARD2(double, modf, double, double*)
MCDEV_FORWARD2(float, modff, float, float*)
MCDEV_FORWARD3(double, remquo, double, double, int*)
MCDEV_FORWARD3(float, remquof, float, float, int*)
MCDEV_FORWARD1(int, ilogb, double)
MCDEV_FORWARD1(int, ilogbf, float)
MCDEV_FORWARD1(long, lround, double)
MCDEV_FORWARD1(long, lroundf, float)
MCDEV_FORWARD1(long long, llround, double)
MCDEV_FORWARD1(long long, llroundf, float)
MCDEV_FORWARD1(long, lrint, double)
MCDEV_FORWARD1(long, lrintf, float)
MCDEV_FORWARD1(long long, llrint, double)
MCDEV_FORWARD1(long long, llrintf, float)
// g++ merges sin(x) and cos(x) of one x into sincos.
MCDEV_FORWARD3(void, sincos, double, double*, double*)
MCDEV_FORWARD3(void, sincosf, float, float*, float*)

}  // extern "C"
