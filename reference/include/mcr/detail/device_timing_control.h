// Copyright mxcts authors.
//
// mcr/detail/device_timing_control.h: the device clock and the control
// intrinsics: `clock64()` (and the C library's `clock()`, which device code
// may call too), `__nanosleep`, `__trap` and `__brkpt`.
//
//   __global__ void Spin(long long cycles) {
//     const long long start = clock64();
//     while (clock64() - start < cycles) __nanosleep(100);
//   }
//
// On the reference the clock counts reads and sleeps, not time, so the
// loop above ends after a fixed number of steps on every run
// (docs/spec/lang-device-services.md, "Clock and control").
//
// Tested by conformance/language/device_services/device_clock_test.cc.

#ifndef MCR_DETAIL_DEVICE_TIMING_CONTROL_H_
#define MCR_DETAIL_DEVICE_TIMING_CONTROL_H_

#include "mcr/detail/device_abi.h"
#include "mcr/mc_runtime_types.h"

// The device's 64-bit counter; each call returns a value greater than the
// one before. [lang.clock.clock64-strictly-increasing]
inline long long int clock64(void) { return __mc_dev_clock64(); }

// Suspends the calling thread for about `nanoseconds`; on the reference it
// advances the device clock by that much and returns (other threads do not
// run in between). [lang.clock.nanosleep-advances-clock]
inline void __nanosleep(unsigned int nanoseconds) {
  __mc_dev_nanosleep(nanoseconds);
}

// Stops the grid: the host sees mcErrorLaunchFailure, sticky, and a
// diagnostic naming the kernel, block and thread. [lang.trap.stops-grid]
[[noreturn]] inline void __trap(void) {
  __mc_dev_trap(mcErrorLaunchFailure, "__trap() called");
}

// A breakpoint. With no debugger attached (always, on the reference) it
// stops the grid as __trap does. [lang.trap.brkpt-without-debugger]
[[noreturn]] inline void __brkpt(void) {
  __mc_dev_trap(mcErrorLaunchFailure,
                "__brkpt() reached with no debugger attached");
}

#endif  // MCR_DETAIL_DEVICE_TIMING_CONTROL_H_
