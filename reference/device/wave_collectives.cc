// Copyright mxcts authors.
//
// Wave collectives: not implemented yet; every call traps.

#include "absl/strings/str_format.h"
#include "mcr/detail/device_abi.h"
#include "reference/device/thread_context.h"
#include "reference/device/trap.h"

extern "C" unsigned long long __mc_dev_wave_collective(
    const __mc_wave_request* request) {
  using namespace mxcts::device_internal;
  if (CurrentGrid() == nullptr) {
    DieOutsideGrid("a wave collective", request->file, request->line);
  }
  Trap(mcErrorLaunchFailure,
       absl::StrFormat("wave collective %d at %s:%d is not supported",
                       request->operation, request->file, request->line));
}
