// Copyright mxcts authors.
//
// mcr/detail/launch_abi.h: the glue between translated MXMACA code and the
// runtime. Not for programs: mxcc's translator emits calls of these (see
// reference/compiler/design.md, "Rewrites"); no program names them.
//
// Host pass: a launch `k<<<g, b, ns, s>>>(a)` becomes
// `(PushLaunchConfiguration(g, b, ns, s), k(a))`, whose omitted last
// argument says what stream 0 names in the unit; the body of kernel `k` is
// replaced by `LaunchFromStub<decltype(SELF), SELF, &IMAGE>(params...)`,
// which registers the stub with its source's device image (HostKernel) and
// launches through LaunchFromStubArgs. Device pass: the kernel body touches
// `DeviceKernel<decltype(SELF), SELF, KernelTraits<...>>::record`, a
// constant-initialized record the runtime finds by name in the device
// image. Host and device agree on a
// kernel by its key, KernelKey<Sig, F>(), which is the same string in both
// passes because both compile the same source with the same compiler.

#ifndef MCR_DETAIL_LAUNCH_ABI_H_
#define MCR_DETAIL_LAUNCH_ABI_H_

#include <stddef.h>

#include <type_traits>
#include <utility>

#include "mcr/detail/device_abi.h"
#include "mcr/mc_runtime_types.h"

namespace __mc_internal {

// A device image embedded in a host object: the bytes of a shared object.
// Defined by the object mxcc generates for each source (stage 9).
struct ImageBlob {
  const unsigned char* bytes;
  unsigned long size;
};

// Flags of a DeviceVariableRecord.
enum : unsigned {
  kVariableConstant = 1u,  // __constant__
  kVariableManaged = 2u,   // __managed__
};

// One kernel instantiation in a device image. `entry(args)` calls the kernel
// with `args[i]` pointing at the i-th argument, converted to the parameter's
// type. The sizes and alignments describe the parameters (references as the
// referred type).
// `run_threads(args, walk)` runs the block's threads from walk->next on, one
// after another, through __mc_walk_threads (device_abi.h): one
// loop per block instead of one call from the engine per thread, so that a
// thread that never waits costs little more than the kernel's body.
// `max_threads_per_block` is the kernel's `__launch_bounds__` bound (0:
// none) and `min_blocks_per_multiprocessor` its second argument (0: none);
// `static_shared_bytes` is the footprint of the static `__shared__`
// variables declared in the kernel's own body, laid out in declaration
// order, each at its alignment (SharedFootprint).
struct KernelRecord {
  const char* key;
  void (*entry)(void** args);
  unsigned param_count;
  const unsigned* param_sizes;
  const unsigned* param_alignments;
  unsigned max_threads_per_block;
  unsigned min_blocks_per_multiprocessor;
  size_t static_shared_bytes;
  void (*run_threads)(void** args, __mc_thread_walk* walk);
  // The kernel's address in device code, as `(void*)kernel` gives it there
  // (mcLaunchDevice and mcGetParameterBufferV2 name kernels so); null in
  // records written by hand.
  const void* function = nullptr;
  // kKernelLaunchesGrids when the kernel launches grids from device code
  // (dynamic parallelism), directly or through the functions it calls, as
  // the translator found; 0 in records written by hand.
  unsigned flags = 0;
};

// Flags of a KernelRecord.
enum : unsigned {
  kKernelLaunchesGrids = 1u,
};

// One __device__, __constant__ or __managed__ variable in a device image.
struct DeviceVariableRecord {
  const char* key;
  void* address;
  size_t size;
  unsigned flags;
};

// Whether stream 0 of a launch names the calling thread's per-thread
// default stream in the unit that includes this header (compiled with
// MACA_API_PER_THREAD_DEFAULT_STREAM) or the legacy default stream. A
// constant of internal linkage, so that every unit has its own, and the
// default argument below, evaluated where the launch is written, passes
// the launching unit's choice. [api.sync.per-thread.compile-option-selects]
#ifdef MACA_API_PER_THREAD_DEFAULT_STREAM
static constexpr bool kPerThreadDefaultStream = true;
#else
static constexpr bool kPerThreadDefaultStream = false;
#endif

// --- Runtime entry points (libmcruntime). ---

#ifndef __MACA_ARCH__
// Records the configuration of the next stub call on this host thread.
// `stream` 0 is mcStreamPerThread when `per_thread_default_stream` is true,
// the legacy default stream when it is false; translated code never passes
// the last argument, so it is the launching unit's kPerThreadDefaultStream.
void PushLaunchConfiguration(
    dim3 grid, dim3 block, size_t shared_bytes = 0, mcStream_t stream = 0,
    bool per_thread_default_stream = kPerThreadDefaultStream);
#else
// Device pass: a launch written in device code (dynamic parallelism)
// records its configuration for the calling device thread; the kernel
// called right after it sees the configuration in its prologue
// (LaunchFromDevice below) and becomes a child grid instead of running.
// [api.devrt.launch.chevron-syntax-in-device-code]
inline void PushLaunchConfiguration(dim3 grid, dim3 block,
                                    size_t shared_bytes = 0,
                                    mcStream_t stream = 0, bool = false) {
  __mc_dev_push_launch_configuration(grid, block, shared_bytes, stream);
}
#endif

// Pops the configuration pushed for this call and launches `host_stub` with
// `args` as mcLaunchKernel would; a missing configuration is
// mcErrorMissingConfiguration. The result is also the thread's last error.
mcError_t LaunchFromStubArgs(const void* host_stub, void** args);

// Registers the kernel whose host stub is `host_stub` as entity `key` of
// `image`. Called during static initialization; always returns true.
bool RegisterKernel(const ImageBlob* image, const void* host_stub,
                    const char* key);

// Registers the host shadow `shadow` of device variable `key` of `image`.
bool RegisterDeviceVariable(const ImageBlob* image, const void* shadow,
                            const char* key, size_t size, unsigned flags);

// Loads `image` if needed and returns the address of managed variable `key`;
// aborts with a diagnostic if the image or the variable is missing.
void* RegisterManagedVariable(const ImageBlob* image, const char* key,
                              size_t size);

// --- Compile-time glue. ---

// The key of kernel F: the same string in the host and the device pass.
template <typename Sig, Sig F>
constexpr const char* KernelKey() {
  return __PRETTY_FUNCTION__;
}

// The key of kernel F with internal linkage (`static`, or in an unnamed
// namespace) in relocatable device code: `Unit` is its source's tag, so
// that two sources' kernels of one name linked into one image keep
// separate keys and records. Unit 0 is KernelKey.
template <typename Sig, Sig F, unsigned long long Unit>
constexpr const char* KernelKeyInUnit() {
  if constexpr (Unit == 0) {
    return KernelKey<Sig, F>();
  } else {
    return __PRETTY_FUNCTION__;
  }
}

// Odr-uses its argument's object, so that a template static member is
// instantiated; does nothing at run time.
inline void Touch(const void*) {}

template <typename T>
void* ArgumentAddress(T& argument) {
  return const_cast<void*>(static_cast<const volatile void*>(&argument));
}

// Host pass: the registration of one kernel stub with one image.
template <typename Sig, Sig F, const ImageBlob* Image,
          unsigned long long Unit = 0>
struct HostKernel {
  static const bool registered;
};
template <typename Sig, Sig F, const ImageBlob* Image, unsigned long long Unit>
const bool HostKernel<Sig, F, Image, Unit>::registered = RegisterKernel(
    Image, reinterpret_cast<const void*>(F), KernelKeyInUnit<Sig, F, Unit>());

// Host pass: the body of every kernel stub.
template <typename Sig, Sig F, const ImageBlob* Image, typename... A>
void LaunchFromStub(A&... arguments) {
  Touch(&HostKernel<Sig, F, Image>::registered);
  void* pointers[sizeof...(A) + 1] = {ArgumentAddress(arguments)..., nullptr};
  LaunchFromStubArgs(reinterpret_cast<const void*>(F), pointers);
}

// Host pass: the body of the stub of a kernel with internal linkage in
// relocatable device code (see KernelKeyInUnit).
template <typename Sig, Sig F, const ImageBlob* Image, unsigned long long Unit,
          typename... A>
void LaunchFromStubInUnit(A&... arguments) {
  Touch(&HostKernel<Sig, F, Image, Unit>::registered);
  void* pointers[sizeof...(A) + 1] = {ArgumentAddress(arguments)..., nullptr};
  LaunchFromStubArgs(reinterpret_cast<const void*>(F), pointers);
}

#ifdef __MACA_ARCH__
// Device pass: the prologue of every kernel body. When the calling device
// thread has pushed a configuration (a launch written in device code), the
// call of the kernel is that launch: the arguments, converted to the
// parameters' types by the call, are copied into a child grid, and the
// body does not run (returns true). Otherwise returns false at once; the
// translator tests __mc_dev_launch_pending first, so an ordinary thread
// pays one load.
//
// Parameters of trivially copyable types go to an out-of-line function by
// value: taking their addresses here would keep every parameter of every
// kernel in memory on the ordinary path too, and the kernel too large to be
// inlined into its thread loop. Copying them is unobservable; other
// parameters (whose copy constructors are device code) are passed by
// reference, as the call wrote them.
template <typename... A>
__attribute__((__noinline__, __cold__)) bool LaunchFromDeviceCopies(
    const void* kernel, A... arguments) {
  void* pointers[sizeof...(A) + 1] = {ArgumentAddress(arguments)..., nullptr};
  return __mc_dev_launch_from_kernel(kernel, pointers) != 0;
}

template <typename... A>
__attribute__((__always_inline__)) inline bool LaunchFromDevice(
    const void* kernel, A&... arguments) {
  if constexpr ((std::is_trivially_copyable_v<A> && ...)) {
    return LaunchFromDeviceCopies<std::remove_cv_t<A>...>(kernel, arguments...);
  } else {
    void* pointers[sizeof...(A) + 1] = {ArgumentAddress(arguments)..., nullptr};
    return __mc_dev_launch_from_kernel(kernel, pointers) != 0;
  }
}
#endif

// Device pass: what the translator knows of a kernel beyond its type: its
// `__launch_bounds__` arguments and its static shared footprint.
// `Unit` is the source's tag for a kernel with internal linkage in
// relocatable device code (KernelKeyInUnit), else 0. `LaunchesGrids`: the
// kernel launches grids from device code (KernelRecord::flags).
template <long long MaxThreads = 0, long long MinBlocks = 0,
          size_t StaticShared = 0, unsigned long long Unit = 0,
          bool LaunchesGrids = false>
struct KernelTraits {
  // [lang.function.launch-bounds.non-positive-bound] (0 is "no bound": the
  // translator passes the user's expression only when there is one, and
  // checks it is positive where it is written.)
  static_assert(MaxThreads >= 0 && MinBlocks >= 0,
                "__launch_bounds__ arguments must be positive");
};

// The bytes a block needs for static __shared__ variables of types T...,
// placed in order, each at a multiple of its alignment.
template <typename... T>
constexpr size_t SharedFootprint() {
  size_t end = 0;
  ((end = (end + alignof(T) - 1) / alignof(T) * alignof(T) + sizeof(T)), ...);
  return end;
}

// Device pass: the record of one kernel instantiation.
template <typename Sig, Sig F, typename Traits = KernelTraits<>>
struct DeviceKernel;

template <typename... P, void (*F)(P...), long long MaxThreads,
          long long MinBlocks, size_t StaticShared, unsigned long long Unit,
          bool LaunchesGrids>
struct DeviceKernel<
    void (*)(P...), F,
    KernelTraits<MaxThreads, MinBlocks, StaticShared, Unit, LaunchesGrids>> {
  template <size_t... I>
  static void Invoke(void** args, std::index_sequence<I...>) {
    F(*static_cast<std::remove_reference_t<P>*>(args[I])...);
  }
  static void Entry(void** args) {
    Invoke(args, std::index_sequence_for<P...>{});
  }
  // Parameters of trivially copyable types are copied out of the launch's
  // buffer once per walk, into locals that device code cannot reach, so
  // that each thread's copies come from registers; a thread's copy is its
  // own as before. Other parameters are copied from the buffer per thread.
  template <size_t... I>
  static void RunThreadsOnCopies(void** args, __mc_thread_walk* walk,
                                 std::index_sequence<I...>) {
    RunThreadsWith(walk, *static_cast<std::remove_reference_t<P>*>(args[I])...);
  }
  template <typename... V>
  static void RunThreadsWith(__mc_thread_walk* walk, V... values) {
    __mc_walk_threads(walk, [&values...] { F(values...); });
  }
  static void RunThreads(void** args, __mc_thread_walk* walk) {
    if constexpr (((std::is_trivially_copyable_v<P> &&
                    !std::is_reference_v<P>)&&...)) {
      RunThreadsOnCopies(args, walk, std::index_sequence_for<P...>{});
    } else {
      __mc_walk_threads(
          walk, [args] { Invoke(args, std::index_sequence_for<P...>{}); });
    }
  }
  // A leading 0 keeps the arrays non-empty for kernels without parameters.
  static constexpr unsigned kSizes[] = {
      0u, static_cast<unsigned>(sizeof(std::remove_reference_t<P>))...};
  static constexpr unsigned kAlignments[] = {
      0u, static_cast<unsigned>(alignof(std::remove_reference_t<P>))...};
  static const KernelRecord record;
};

// `used`: the record must be emitted even where optimization removes the
// Touch that instantiated it; the runtime finds it by its symbol.
template <typename... P, void (*F)(P...), long long MaxThreads,
          long long MinBlocks, size_t StaticShared, unsigned long long Unit,
          bool LaunchesGrids>
__attribute__((used)) const KernelRecord
    DeviceKernel<void (*)(P...), F,
                 KernelTraits<MaxThreads, MinBlocks, StaticShared, Unit,
                              LaunchesGrids>>::record = {
        KernelKeyInUnit<void (*)(P...), F, Unit>(),
        &Entry,
        static_cast<unsigned>(sizeof...(P)),
        kSizes + 1,
        kAlignments + 1,
        static_cast<unsigned>(MaxThreads),
        static_cast<unsigned>(MinBlocks),
        StaticShared,
        &RunThreads,
        reinterpret_cast<const void*>(F),
        LaunchesGrids ? kKernelLaunchesGrids : 0u};

}  // namespace __mc_internal

#endif  // MCR_DETAIL_LAUNCH_ABI_H_
