// Copyright mxcts authors.
//
// reference/runtime/process/mps_mode.h: MACA_MPS_MODE, the multi-process
// service policy of the process, read once when the runtime initializes
// [api.mps.mode.values] [api.env.general.read-at-initialization].
//
//   MACA_MPS_MODE  0 (the default: exclusive) or 1 (shared). The reference
//                  schedules both alike: one process's work runs on its
//                  own sequential engine and no other process shares it,
//                  so the mode changes no result and no error code
//                  [api.mps.mode.results-independent-of-mode]. No server
//                  process is involved [api.mps.no-server-process-needed].
//                  Any other value (an empty value, spaces, a sign, "01",
//                  letters) means 0 and never makes initialization fail
//                  [api.mps.mode.invalid-value-implementation-defined].
//
//   ProcessMpsMode();                   // the process's, read on first call
//   MpsModeName(MpsMode::kShared);      // "shared"

#ifndef MXCTS_REFERENCE_RUNTIME_PROCESS_MPS_MODE_H_
#define MXCTS_REFERENCE_RUNTIME_PROCESS_MPS_MODE_H_

namespace mxcts::runtime {

enum class MpsMode {
  kExclusive = 0,  // MACA_MPS_MODE=0, unset or invalid
  kShared = 1,     // MACA_MPS_MODE=1
};

// "exclusive" or "shared".
const char* MpsModeName(MpsMode mode);

// The process's mode: MACA_MPS_MODE as it was at the first call, which the
// runtime's initialization makes (runtime.h). Thread-safe.
MpsMode ProcessMpsMode();

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_PROCESS_MPS_MODE_H_
