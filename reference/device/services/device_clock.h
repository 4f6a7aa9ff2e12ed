// Copyright mxcts authors.
//
// reference/device/services/device_clock.h: the counter that device code
// reads with clock() and clock64().
//
// Real devices count cycles of a clock whose rate the program cannot rely
// on; the reference counts events instead, so that a program reads the same
// values on every run [lang.clock.reference-counts-reads]: every read
// advances the counter by one, and __nanosleep(ns) advances it by ns. A
// loop that waits for the counter to pass a value therefore ends, after as
// many reads as the cycles it waits for.
//
//   const long long start = __mc_dev_clock64();
//   __mc_dev_nanosleep(100);
//   __mc_dev_clock64() - start;  // 101

#ifndef REFERENCE_DEVICE_SERVICES_DEVICE_CLOCK_H_
#define REFERENCE_DEVICE_SERVICES_DEVICE_CLOCK_H_

#include "mcr/detail/device_abi.h"

namespace mxcts::device_internal {

// The counter's value now, without advancing it (for tests).
long long PeekDeviceClock();

}  // namespace mxcts::device_internal

#endif  // REFERENCE_DEVICE_SERVICES_DEVICE_CLOCK_H_
