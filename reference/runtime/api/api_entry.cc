// Copyright mxcts authors.
//
// The debug log line of a failed call (api_entry.h). It is written at the
// debug level, so that a program that handles errors itself (tries a call
// and falls back) does not fill the log at the default level; with
// MXLOG_LEVEL=debug every failure shows with its reason.
//
// Tested by conformance/api/logging.

#include "reference/runtime/api/api_entry.h"

#include <string>

#include "reference/logging/log.h"

namespace mxcts::runtime {

void LogApiError(const char* function, mcError_t error,
                 const absl::Status& status) {
  // [api.log.output.api-errors-at-debug]
  if (!logging::LogEnabled(logging::Severity::kDebug)) return;
  const std::string reason(status.message());
  logging::LogPrintf("MCR", logging::Severity::kDebug, __FILE__, __LINE__,
                     "%s returned %s%s%s", function, ErrorName(error),
                     reason.empty() ? "" : ": ", reason.c_str());
}

}  // namespace mxcts::runtime
