// Copyright mxcts authors.
//
// The process's log state, defined once, in libmcruntime.so; its version
// script exports the __mc_internal namespace, so libmcanalyzer.so's weak
// reference finds this definition (log_state.h says why).
//
// Tested by process_log_state_test.cc and
// conformance/api/logging/execution/installed_libraries_test.cc.

#include "reference/logging/log_state.h"

namespace __mc_internal {

mxcts::logging::LogState& ProcessLogState() {
  static mxcts::logging::LogState* state = new mxcts::logging::LogState;
  return *state;
}

}  // namespace __mc_internal
