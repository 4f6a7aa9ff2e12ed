// Copyright mxcts authors.
//
// perf/engine/physical_limits.h: the host measurements that the engine and
// runtime benchmarks (perf/engine, perf/runtime) divide by, taken in the
// same run as the benchmark itself.
//
// Each function measures the host doing the work in the most direct way
// (a plain loop, a raw context switch, a plain atomic, memcpy, a mutex,
// malloc) and returns the cost of one unit of work in nanoseconds. They
// are compiled by the host compiler with the benchmark's optimization
// level, not by a backend.
//
//   const double native = perf::NativeVectorAddNanosPerElement(a, b, c, n);
//   state.counters["ratio_to_native"] = kernel_ns_per_thread / native;

#ifndef MXCTS_PERF_ENGINE_PHYSICAL_LIMITS_H_
#define MXCTS_PERF_ENGINE_PHYSICAL_LIMITS_H_

#include <cstddef>

namespace mxcts::perf {

// Nanoseconds per element of `c[i] = a[i] + b[i]` for i < n, as a plain
// loop; the best of several passes over the same arrays.
double NativeVectorAddNanosPerElement(const float* a, const float* b, float* c,
                                      int n);

// Nanoseconds of one context switch between two boost.context fcontext
// stacks (half of a resume-and-return round trip).
double ContextSwitchNanoseconds();

// Nanoseconds of one relaxed 32-bit atomic add by the host: to one address
// (`distinct` false) or each to its own address (`distinct` true).
double NativeAtomicAddNanoseconds(bool distinct);

// Nanoseconds of one `memcpy(dst, src, bytes)`: the best of several
// passes over the same buffers, which must not overlap.
double MemcpyNanoseconds(void* dst, const void* src, size_t bytes);

// Nanoseconds of one uncontended std::mutex lock-and-unlock pair.
double MutexLockUnlockNanoseconds();

// Nanoseconds of one `free(malloc(bytes))` pair (the memory untouched).
double MallocFreeNanoseconds(size_t bytes);

// Nanoseconds since an arbitrary epoch, from the steady clock.
double NowNanoseconds();

}  // namespace mxcts::perf

#endif  // MXCTS_PERF_ENGINE_PHYSICAL_LIMITS_H_
