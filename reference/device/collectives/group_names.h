// Copyright mxcts authors.
//
// reference/device/collectives/group_names.h: how diagnostics name the
// collectives of cooperative groups.
//
// A group's collective reaches the engine as a wave collective whose
// request names the group ("thread_block_tile<16>", mcr/detail/device_abi.h);
// diagnostics then call it by the group's member function,
// "thread_block_tile<16>::shfl_down()", instead of the wave intrinsic.
//
//   const char* name = GroupOperationName("coalesced_group", __MC_WAVE_SYNC);
//   // "coalesced_group::sync()"

#ifndef REFERENCE_DEVICE_COLLECTIVES_GROUP_NAMES_H_
#define REFERENCE_DEVICE_COLLECTIVES_GROUP_NAMES_H_

namespace mxcts::device_internal {

// "<group>::<member>()" for the wave operation `operation` (an
// __mc_wave_operation) called by `group`. The text lives as long as the
// process (WaitSite keeps the pointer). Not thread-safe: called on the OS
// thread that runs the grid, one grid at a time.
const char* GroupOperationName(const char* group, int operation);

}  // namespace mxcts::device_internal

#endif  // REFERENCE_DEVICE_COLLECTIVES_GROUP_NAMES_H_
