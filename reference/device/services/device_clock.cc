// Copyright mxcts authors.
//
// One counter for the process: one grid runs at a time, so every device
// sees it increase; it is atomic because host code may read it too (the
// host path of a __host__ __device__ function).
//
// Tested by device_clock_test.cc.

#include "reference/device/services/device_clock.h"

#include <atomic>

namespace {

std::atomic<long long> device_clock{0};

}  // namespace

extern "C" long long __mc_dev_clock64(void) {
  // [lang.clock.clock64-strictly-increasing]
  return device_clock.fetch_add(1, std::memory_order_relaxed) + 1;
}

extern "C" void __mc_dev_nanosleep(unsigned int nanoseconds) {
  // [lang.clock.nanosleep-advances-clock]
  device_clock.fetch_add(nanoseconds, std::memory_order_relaxed);
}

namespace mxcts::device_internal {

long long PeekDeviceClock() {
  return device_clock.load(std::memory_order_relaxed);
}

}  // namespace mxcts::device_internal
