// Copyright mxcts authors.
//
// reference/device/collectives/matrix_operations.h: the matrix functions of
// mxmaca::wmma (fill_fragment, load_matrix_sync, store_matrix_sync,
// mma_sync) for one wave whose lanes have met at their rendezvous.
//
// Each lane of the wave arrives at a wave collective (__MC_WAVE_MATRIX,
// wave_collectives.h) with the address of its __mc_matrix_request
// (mcr/detail/device_matrix_abi.h). When the group completes, the wave
// collectives hand every lane's request here; the whole tile is then
// operated on at once, reading and writing each lane's fragment elements
// through the requests' pointers (the lanes are parked, so their stacks
// hold still).
//
//   MatrixWaveCall call = ...;  // the wave's lanes and their requests
//   PerformMatrixOperation(call);  // traps on misuse

#ifndef REFERENCE_DEVICE_COLLECTIVES_MATRIX_OPERATIONS_H_
#define REFERENCE_DEVICE_COLLECTIVES_MATRIX_OPERATIONS_H_

#include <cstdint>

#include "mcr/detail/device_matrix_abi.h"
#include "reference/device/scheduling/block_scheduler.h"

namespace mxcts::device_internal {

// The lanes of one wave at one __MC_WAVE_MATRIX rendezvous.
struct MatrixWaveCall {
  const BlockScheduler* block = nullptr;  // names threads in diagnostics
  unsigned wave_index = 0;
  unsigned first_thread = 0;  // linear id of lane 0
  unsigned lane_count = 0;    // 64, or fewer in a partial last wave
  uint64_t arrived = 0;       // the lanes that called
  // Per lane that arrived: its request and its call site.
  const __mc_matrix_request* requests[64] = {};
  WaitSite sites[64];
};

// Checks that the whole wave called one matrix function at one call site
// with uniform arguments, an aligned pointer and a suitable ldm, and
// performs it for the wave. Traps (mcErrorLaunchFailure) otherwise, naming
// the lanes, their threads and call sites. Must be called on a device
// thread of `call.block`.
void PerformMatrixOperation(const MatrixWaveCall& call);

// "mxmaca::wmma::mma_sync()" and so on: the function a request calls, for
// diagnostics; a generic name for a null or invalid request.
const char* MatrixFunctionName(const __mc_matrix_request* request);

}  // namespace mxcts::device_internal

#endif  // REFERENCE_DEVICE_COLLECTIVES_MATRIX_OPERATIONS_H_
