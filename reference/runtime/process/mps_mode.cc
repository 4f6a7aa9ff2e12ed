// Copyright mxcts authors.
//
// MACA_MPS_MODE on the reference. In MXMACA the mode decides whether a
// process owns the hardware queues it obtains or shares them with other
// processes; the reference has no hardware queues to share: each process
// runs its device work on its own sequential engine, in its own address
// space. So the mode is read and kept (the process has a mode, as the
// chapter says every process does), and nothing schedules differently
// because of it. The runtime's environment settings (environment_settings.h)
// parse the variable, as strictly as the trap variables: only the exact
// values "0" and "1" are values; anything else is exclusive mode, the
// default [api.mps.mode.invalid-value-implementation-defined].
//
// Tested by mps_mode_test.cc and conformance/api/mps.

#include "reference/runtime/process/mps_mode.h"

#include "reference/runtime/environment/environment_settings.h"

namespace mxcts::runtime {

const char* MpsModeName(MpsMode mode) {
  return mode == MpsMode::kShared ? "shared" : "exclusive";
}

MpsMode ProcessMpsMode() {
  // [api.env.general.read-at-initialization]
  // environment_settings.h read and validated the variable.
  static const MpsMode mode = ProcessEnvironment().mps_mode == 1
                                  ? MpsMode::kShared
                                  : MpsMode::kExclusive;
  return mode;
}

}  // namespace mxcts::runtime
