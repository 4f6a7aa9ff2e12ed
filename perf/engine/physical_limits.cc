// Copyright mxcts authors.
//
// Every measurement repeats its work until it has run for a few
// milliseconds and keeps the best of several repetitions, so that one
// preemption does not inflate the limit (which would flatter the ratio).
//
// Measured by the benchmarks themselves; checked for sanity (positive,
// finite) by physical_limits_test.cc.

#include "perf/engine/physical_limits.h"

#include <algorithm>
#include <boost/context/detail/fcontext.hpp>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <mutex>
#include <vector>

namespace mxcts::perf {
namespace {

namespace ctx = boost::context::detail;

constexpr int kRepetitions = 5;

// The best over kRepetitions of `run(count)`'s duration divided by count,
// where count grows until one run takes at least 2 ms.
template <typename Run>
double BestNanosPerUnit(Run run) {
  long count = 1;
  for (;;) {
    const double start = NowNanoseconds();
    run(count);
    if (NowNanoseconds() - start >= 2e6 || count >= (1L << 40)) break;
    count *= 2;
  }
  double best = std::numeric_limits<double>::infinity();
  for (int r = 0; r < kRepetitions; ++r) {
    const double start = NowNanoseconds();
    run(count);
    best = std::min(best, (NowNanoseconds() - start) / count);
  }
  return best;
}

// The other side of the ping-pong: returns to the caller at once, forever.
void Echo(ctx::transfer_t transfer) {
  for (;;) transfer = ctx::jump_fcontext(transfer.fctx, nullptr);
}

}  // namespace

double NowNanoseconds() {
  return std::chrono::duration<double, std::nano>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

double NativeVectorAddNanosPerElement(const float* a, const float* b, float* c,
                                      int n) {
  const double per_pass = BestNanosPerUnit([&](long passes) {
    for (long p = 0; p < passes; ++p) {
      for (int i = 0; i < n; ++i) c[i] = a[i] + b[i];
      // Keeps the passes from being merged.
      asm volatile("" : : "r"(c) : "memory");
    }
  });
  return per_pass / n;
}

double ContextSwitchNanoseconds() {
  constexpr size_t kStackBytes = 64 * 1024;
  std::unique_ptr<char[]> stack(new char[kStackBytes]);
  ctx::fcontext_t echo =
      ctx::make_fcontext(stack.get() + kStackBytes, kStackBytes, &Echo);
  const double per_round_trip = BestNanosPerUnit([&](long trips) {
    for (long t = 0; t < trips; ++t) {
      echo = ctx::jump_fcontext(echo, nullptr).fctx;
    }
  });
  // The echo fiber is left suspended; its stack is freed with `stack`.
  return per_round_trip / 2;
}

double NativeAtomicAddNanoseconds(bool distinct) {
  constexpr int kSlots = 1024;
  std::vector<uint32_t> slots(kSlots, 0);
  return BestNanosPerUnit([&](long adds) {
    for (long k = 0; k < adds; ++k) {
      uint32_t* target = &slots[distinct ? (k % kSlots) : 0];
      __atomic_fetch_add(target, 1u, __ATOMIC_RELAXED);
    }
  });
}

double MemcpyNanoseconds(void* dst, const void* src, size_t bytes) {
  return BestNanosPerUnit([&](long copies) {
    for (long k = 0; k < copies; ++k) {
      std::memcpy(dst, src, bytes);
      // Keeps the copies from being merged or dropped.
      asm volatile("" : : "r"(dst), "r"(src) : "memory");
    }
  });
}

double MutexLockUnlockNanoseconds() {
  std::mutex mutex;
  return BestNanosPerUnit([&](long pairs) {
    for (long k = 0; k < pairs; ++k) {
      mutex.lock();
      asm volatile("" : : : "memory");
      mutex.unlock();
    }
  });
}

double MallocFreeNanoseconds(size_t bytes) {
  return BestNanosPerUnit([&](long pairs) {
    for (long k = 0; k < pairs; ++k) {
      void* block = std::malloc(bytes);
      // Keeps the compiler from eliding the pair.
      asm volatile("" : : "r"(block) : "memory");
      std::free(block);
    }
  });
}

}  // namespace mxcts::perf
