// Copyright mxcts authors.
//
// mcr/detail/device_abi.h: the built-in variables and device functions as
// compiled code sees them. Not for programs, which write `threadIdx.x` and
// `__syncthreads()`; this header says what those become.
//
// Every name here is `extern "C"` and starts with `__mc_dev_`. In the device
// pass mxcc prefixes every symbol with `__mcdev_`, and the device runtime
// library linked into each device image (reference/device/image) defines the
// prefixed names by forwarding to the runtime's table
// (reference/device/image/image_abi.h). The host runtime defines the
// unprefixed names too, so host code that names a built-in still links.

#ifndef MCR_DETAIL_DEVICE_ABI_H_
#define MCR_DETAIL_DEVICE_ABI_H_

#include <stddef.h>

#include "mcr/mc_runtime_types.h"

extern "C" {

// The built-in variables of the running device thread.
struct __mc_thread_context {
  uint3 threadIdx;
  uint3 blockIdx;
  dim3 blockDim;
  dim3 gridDim;
};

// One block's threads as a kernel's thread loop (__mc_walk_threads below)
// starts them, shared by the engine and the loop. For each thread, from
// `next` while `next < count`, the loop sets `current` to it and `next` past
// it, writes its threadIdx into `builtins` (the context the built-in
// variables refer to), calls `poll_timeout()` if `*timeout_pending` is set
// (a thread start is a switch point, where a kernel timeout that expired
// outside device code traps) and runs the kernel; when the kernel returns
// and `thread_exited` is set, it calls `thread_exited(walk)`. A thread that
// waits in a collective keeps the loop's frame on its fiber; the engine
// continues with another loop on a fresh fiber, and the waiting thread's
// loop goes on with whatever thread is next when it resumes.
//
// The fast phase: while `thread_exited` is null and `next` is 0 (no thread
// of the block has waited, and the loop that started the block still
// runs), the loop writes only threadIdx, so `current` is the linear id of
// the built-in threadIdx and `next` is `current + 1`; the engine derives
// them from threadIdx when it needs them, and writes them into the walk
// before it sets `thread_exited`. The loop leaves the fast phase when
// `thread_exited` or `*timeout_pending` is set after a thread returns, and
// writes `current` and `next` when it ends (`next` then equals `count`).
struct __mc_thread_walk {
  __mc_thread_context* builtins;  // the built-ins that device code reads
  unsigned next;                  // linear id of the next thread to start
  unsigned count;                 // threads in the block
  unsigned current;               // linear id of the running thread
  // Null until the engine needs to hear of each exit (a thread of the block
  // has waited, or a collective keeps track of exits).
  void (*thread_exited)(struct __mc_thread_walk* walk);
  const volatile int* timeout_pending;
  void (*poll_timeout)(void);
};

// Block barrier; `file` and `line` name the call site for diagnostics.
void __mc_dev_syncthreads(const char* file, int line);

// The address of the calling block's instance of the __shared__ variable
// whose declaration is identified by `site`; allocated in the block's
// shared arena on first use in the block. `name` (may be null) names the
// variable in diagnostics.
void* __mc_dev_shared_variable(const void* site, size_t size, size_t alignment,
                               const char* name = nullptr);

// The start of the calling block's dynamic shared memory (the launch's Ns).
void* __mc_dev_dynamic_shared(void);

// Block barrier that also combines a predicate over the block:
// `__syncthreads_count`, `_and`, `_or`. Every thread of the block must
// arrive with the same `kind`. Returns the count of nonzero predicates
// (__MC_BARRIER_COUNT) or 1/0 (__MC_BARRIER_AND, __MC_BARRIER_OR).
#define __MC_BARRIER_COUNT 1
#define __MC_BARRIER_AND 2
#define __MC_BARRIER_OR 3
int __mc_dev_syncthreads_predicate(int kind, int predicate, const char* file,
                                   int line);

// Wave collectives (waves are 64 consecutive linear thread ids). Each call
// is one lane's arrival at a rendezvous of the lanes named in `mask`; it
// returns when all of them have arrived, with this lane's result.
enum __mc_wave_operation {
  __MC_WAVE_SYNC = 1,    // __syncwarp / __syncwave: result 0
  __MC_WAVE_SHFL_IDX,    // operand: source lane (within the width group)
  __MC_WAVE_SHFL_UP,     // operand: delta
  __MC_WAVE_SHFL_DOWN,   // operand: delta
  __MC_WAVE_SHFL_XOR,    // operand: lane mask
  __MC_WAVE_BALLOT,      // value: predicate; result: 64-bit mask
  __MC_WAVE_ANY,         // value: predicate; result: 1/0
  __MC_WAVE_ALL,         // value: predicate; result: 1/0
  __MC_WAVE_ACTIVEMASK,  // mask ignored; result: the converged lanes
  __MC_WAVE_MATCH_ANY,   // result: lanes of the mask with an equal value
  __MC_WAVE_MATCH_ALL,   // result: the mask if all values equal, else 0
  __MC_WAVE_REDUCE_ADD,  // value: 32-bit unsigned or signed bits
  __MC_WAVE_REDUCE_MIN_SIGNED,
  __MC_WAVE_REDUCE_MIN_UNSIGNED,
  __MC_WAVE_REDUCE_MAX_SIGNED,
  __MC_WAVE_REDUCE_MAX_UNSIGNED,
  __MC_WAVE_REDUCE_AND,
  __MC_WAVE_REDUCE_OR,
  __MC_WAVE_REDUCE_XOR,
  // A matrix function of mxmaca::wmma, called by the whole wave with the
  // full mask; value: the address of the lane's __mc_matrix_request
  // (mcr/detail/device_matrix_abi.h); result 0. Numbered apart from the
  // others so that further operations can follow them.
  __MC_WAVE_MATRIX = 64,
};
// Reductions with a 32-bit mask: the mask names lanes of each 32-lane half
// and each half reduces separately.
#define __MC_WAVE_FLAG_HALVES 1u
struct __mc_wave_request {
  int operation;             // an __mc_wave_operation
  unsigned flags;            // __MC_WAVE_FLAG_*
  unsigned width;            // shuffles: the group width, 1 to 64
  unsigned value_bytes;      // the bytes of `value` that matter (1 to 8)
  unsigned long long mask;   // the named lanes
  unsigned long long value;  // this lane's value, zero-extended
  long long operand;         // shuffles: source lane, delta or lane mask
  const char* file;          // the call site, for diagnostics
  int line;
  // The cooperative group that makes the call ("thread_block_tile<16>",
  // "coalesced_group"), or null for a wave intrinsic. A group's collective
  // needs every lane the mask names: a named lane that has exited is misuse
  // (for a wave intrinsic it is simply not awaited), and diagnostics name
  // the group and its lanes.
  const char* group;
};
unsigned long long __mc_dev_wave_collective(
    const struct __mc_wave_request* request);

// Grid barrier of a cooperative launch (cooperative_groups::grid_group::
// sync()): returns once every thread of the grid has called it. In a grid
// that was not launched cooperatively it traps. `file` and `line` name the
// call site for diagnostics.
void __mc_dev_grid_sync(const char* file, int line);
// 1 when the calling thread's grid was launched cooperatively
// (mcLaunchCooperativeKernel), else 0.
int __mc_dev_grid_is_cooperative(void);

// Stops the grid with `error` (an mcError_t) and a diagnostic that says
// `message`; never returns. Used by device-side checks in headers (a
// misaligned atomic: mcErrorMisalignedAddress).
__attribute__((__noreturn__)) void __mc_dev_trap(int error,
                                                 const char* message);

// The device clock: each read advances it (reference/device/services).
long long __mc_dev_clock64(void);
// Advances the device clock by `nanoseconds`.
void __mc_dev_nanosleep(unsigned int nanoseconds);

// Dynamic parallelism (launch_abi.h). A launch written in device code
// pushes its configuration for the calling device thread; the prologue of
// the kernel it then calls hands the arguments over, and the call becomes
// a child grid: __mc_dev_launch_from_kernel returns nonzero when it took
// the call as a launch, zero when the calling thread has no configuration
// pushed (an ordinary start of a thread). `__mc_dev_launch_pending` is true
// while some configuration may be pending in the image; hidden, so that
// testing it costs one load. A bool, so that the compiler knows the stores
// of threadIdx.x and of most kernel bodies (int, unsigned, float) leave it
// unchanged and keeps the thread loop's test of it out of the loop
// (__mc_walk_threads).
void __mc_dev_push_launch_configuration(dim3 grid, dim3 block,
                                        size_t shared_bytes, mcStream_t stream);
int __mc_dev_launch_from_kernel(const void* kernel, void** args);
__attribute__((__visibility__("hidden"))) extern bool __mc_dev_launch_pending;

}  // extern "C"

// The built-in variables are ordinary variables at namespace scope, so that
// any scope, host code's above all, may declare its own `blockDim` and hide
// them ([lang.builtin.names-reserved-in-device-code]: the local name hides
// the built-in). Each is a reference to its field of the running thread's
// __mc_thread_context, which the engine keeps at one address and rewrites on
// every switch between device threads, so `threadIdx.x` costs two loads and
// no call; in a device image the references are bound when the image is. Their
// types derive from uint3 and dim3 and add only what the spec forbids:
// [lang.builtin.read-only] the references are to const, so assignment to a
// built-in or to a member is ill-formed;
// [lang.builtin.not-addressable] unary & is deleted, so `&threadIdx` is
// ill-formed (`&threadIdx.x` cannot be refused by a library type).
// [lang.builtin.threadidx.type] [lang.builtin.blockidx.type]
// [lang.builtin.blockdim.type] [lang.builtin.griddim.type] They convert to
// uint3 and dim3 by their base class.
struct __mc_builtin_index : uint3 {
  __mc_builtin_index() = delete;
  __mc_builtin_index(const __mc_builtin_index&) = delete;
  void operator=(const __mc_builtin_index&) = delete;
  void operator&() const = delete;
};
struct __mc_builtin_extent : dim3 {
  __mc_builtin_extent() = delete;
  __mc_builtin_extent(const __mc_builtin_extent&) = delete;
  void operator=(const __mc_builtin_extent&) = delete;
  void operator&() const = delete;
};
static_assert(sizeof(__mc_builtin_index) == sizeof(uint3),
              "a built-in index has the layout of uint3");
static_assert(sizeof(__mc_builtin_extent) == sizeof(dim3),
              "a built-in extent has the layout of dim3");
extern const __mc_builtin_index& threadIdx;
extern const __mc_builtin_index& blockIdx;
extern const __mc_builtin_extent& blockDim;
extern const __mc_builtin_extent& gridDim;

// The thread loop of __mc_thread_walk, running `run_kernel()` as each
// thread. Until a thread of the block waits (thread_exited is null then),
// nothing but this loop changes the walk or the built-ins, so it keeps the
// thread index in registers and stores only what changes. In the fast
// phase that is threadIdx.x for each thread, and threadIdx.y and .z once
// per row of blockDim.x threads (the inner loop runs one row, so y and z
// stay out of its registers); the current and next ids are the engine's to
// derive. A processor stores about one value per cycle, so stores are most
// of the cost of a thread besides the kernel's body. threadIdx.x is written
// through the built-in variable itself, so the kernel's reads of it are
// the loop's register; the empty asm that reads it keeps the store at each
// thread start (a fault handler reads it) rather than after the loop. The
// loop calls nothing between threads: what needs the engine (an exit
// callback set, a timeout pending) is checked after a thread returns and
// leaves the fast phase for the loop that does everything at each start.
//
// In a device image the fast phase also starts each thread only while no
// launch configuration is pending (__mc_dev_launch_pending, tested right
// before the kernel runs): the kernel's prologue (launch_abi.h,
// LaunchFromDevice) tests the same flag, so once the kernel is inlined
// here the compiler knows the prologue is not taken and drops it, with
// its call of the engine, which it would otherwise have to assume writes
// any memory: the body's reads of the built-ins and its parameters stay in
// registers across threads. A thread that starts while a configuration is
// pending starts in the loop that does everything, whose kernel keeps its
// prologue, and asks the engine as before.
template <typename RunKernel>
__attribute__((__always_inline__)) inline void __mc_walk_threads(
    __mc_thread_walk* __walk, RunKernel __run_kernel) {
  __mc_thread_context* const __builtins = __walk->builtins;
  const volatile int* const __timeout_pending = __walk->timeout_pending;
  const unsigned __count = __walk->count;
  const unsigned __width = __builtins->blockDim.x;
  const unsigned __height = __builtins->blockDim.y;
  unsigned __next = __walk->next;
  if (__next == 0 && __walk->thread_exited == nullptr &&
      *__timeout_pending == 0) {
    // The fast phase. [model.exec.linear-thread-id] x varies fastest, then
    // y, then z.
    unsigned __row = 0;  // the linear id of the row's thread x = 0
    unsigned __x = 0;
    while (__next < __count) {
      __row = __next;
      __builtins->threadIdx.y = __next / __width % __height;
      __builtins->threadIdx.z = __next / __width / __height;
      const unsigned __x_end =
          __count - __row < __width ? __count - __row : __width;
      for (__x = 0;;) {
        // Through the built-in's reference, loaded here as the kernel
        // loads it, so the compiler sees that the kernel reads this store.
        const_cast<unsigned&>(::threadIdx.x) = __x;
        __asm__ volatile("" : : "m"(::threadIdx.x));
#ifdef __MACA_ARCH__
        if (__builtin_expect(__mc_dev_launch_pending, false)) {
          goto __start_outside_fast_phase;
        }
#endif
        __run_kernel();
        if (__walk->thread_exited != nullptr || *__timeout_pending != 0) {
          goto __leave_fast_phase;
        }
        if (++__x == __x_end) break;
      }
      __next = __row + __x_end;
    }
    __walk->current = __count - 1;
    __walk->next = __count;
    return;
#ifdef __MACA_ARCH__
  __start_outside_fast_phase:
    // Thread __row + __x has not started; the loop below starts it, writing
    // the walk as it does for every thread.
    __next = __row + __x;
    goto __start_threads;
#endif
  __leave_fast_phase:
    if (__walk->thread_exited != nullptr) {
      // The engine has written the walk; threads may have waited, resumed
      // and started meanwhile.
      __walk->thread_exited(__walk);
      __next = __walk->next;
    } else {
      // A timeout pending: the next thread's start polls it.
      __walk->current = __row + __x;
      __next = __walk->next = __row + __x + 1;
    }
  }
#ifdef __MACA_ARCH__
__start_threads:
#endif
  while (__next < __count) {
    unsigned __x = __next % __width;
    __builtins->threadIdx.y = __next / __width % __height;
    __builtins->threadIdx.z = __next / __width / __height;
    const unsigned __row_end =
        __count - __next < __width - __x ? __count : __next - __x + __width;
    for (;;) {
      __walk->current = __next;
      __walk->next = ++__next;
      const_cast<unsigned&>(::threadIdx.x) = __x;
      if (*__timeout_pending != 0) __walk->poll_timeout();
      __run_kernel();
      if (__walk->thread_exited != nullptr) {
        // Threads may have waited, resumed and started meanwhile: start
        // over from the walk.
        __walk->thread_exited(__walk);
        __next = __walk->next;
        break;
      }
      if (__next == __row_end) break;
      ++__x;
    }
  }
}

#if defined(__MACACC__) && !defined(__MACA_ARCH__)
// The host pass of mxcc: a call of a block barrier that host code would
// execute is a compile-time error. Calls in device-only functions are gone
// by then (their host bodies trap), so only host calls reach code
// generation. [lang.sync.syncthreads.device-code-only]
#define __MC_BARRIER_DEVICE_ONLY(NAME)                                  \
  __attribute__((__error__(#NAME " is a device function: call it from " \
                                 "__global__ or __device__ code "       \
                                 "[lang.sync.syncthreads.device-code-only]")))
void __syncthreads(const char* __file = __builtin_FILE(),
                   int __line = __builtin_LINE())
    __MC_BARRIER_DEVICE_ONLY(__syncthreads);
int __syncthreads_count(int __predicate, const char* __file = __builtin_FILE(),
                        int __line = __builtin_LINE())
    __MC_BARRIER_DEVICE_ONLY(__syncthreads_count);
int __syncthreads_and(int __predicate, const char* __file = __builtin_FILE(),
                      int __line = __builtin_LINE())
    __MC_BARRIER_DEVICE_ONLY(__syncthreads_and);
int __syncthreads_or(int __predicate, const char* __file = __builtin_FILE(),
                     int __line = __builtin_LINE())
    __MC_BARRIER_DEVICE_ONLY(__syncthreads_or);
#undef __MC_BARRIER_DEVICE_ONLY
#else
// [lang.sync] `__syncthreads()`: the default arguments name the caller.
inline void __syncthreads(const char* __file = __builtin_FILE(),
                          int __line = __builtin_LINE()) {
  __mc_dev_syncthreads(__file, __line);
}

// [lang.sync.syncthreads-count.returns-nonzero-count]
inline int __syncthreads_count(int __predicate,
                               const char* __file = __builtin_FILE(),
                               int __line = __builtin_LINE()) {
  return __mc_dev_syncthreads_predicate(__MC_BARRIER_COUNT, __predicate, __file,
                                        __line);
}

// [lang.sync.syncthreads-and.returns-all]
inline int __syncthreads_and(int __predicate,
                             const char* __file = __builtin_FILE(),
                             int __line = __builtin_LINE()) {
  return __mc_dev_syncthreads_predicate(__MC_BARRIER_AND, __predicate, __file,
                                        __line);
}

// [lang.sync.syncthreads-or.returns-any]
inline int __syncthreads_or(int __predicate,
                            const char* __file = __builtin_FILE(),
                            int __line = __builtin_LINE()) {
  return __mc_dev_syncthreads_predicate(__MC_BARRIER_OR, __predicate, __file,
                                        __line);
}

#endif  // __MACACC__ && !__MACA_ARCH__

#endif  // MCR_DETAIL_DEVICE_ABI_H_
