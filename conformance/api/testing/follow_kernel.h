// Copyright mxcts authors.
// -----------------------------------------------------------------------------
// File: conformance/api/testing/follow_kernel.h
// -----------------------------------------------------------------------------
//
// Follow, the kernel the stream, event, callback and timeline conformance
// tests check the order of device work with: each Follow moves a cell from
// the value its predecessor leaves to its own, or marks it kTooEarly when it
// ran before that predecessor.
//
//   Follow<<<1, 1, 0, first>>>(cell, 0, 1);
//   Follow<<<1, 1, 0, second>>>(cell, 1, 2);
//   mcDeviceSynchronize();
//   *cell;  // 2 if `second` ran after `first`, else kTooEarly
//
// For MXMACA sources only (it defines a kernel), one per test binary, as
// the backend's driver compiles them.

#ifndef MXCTS_CONFORMANCE_API_TESTING_FOLLOW_KERNEL_H_
#define MXCTS_CONFORMANCE_API_TESTING_FOLLOW_KERNEL_H_

#include <mc_runtime.h>

namespace mxcts::conformance {

// What a Follow leaves when the cell did not hold the value it follows.
inline constexpr int kTooEarly = -1;

// Moves *cell from `expected` to `value`, or marks it kTooEarly. A chain
// of them ends at the last value only if every link ran after the one
// before.
__global__ void Follow(int* cell, int expected, int value) {
  *cell = *cell == expected ? value : kTooEarly;
}

}  // namespace mxcts::conformance

#endif  // MXCTS_CONFORMANCE_API_TESTING_FOLLOW_KERNEL_H_
