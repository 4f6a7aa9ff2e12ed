// Copyright mxcts authors.
//
// reference/runtime/fuzz/documented_errors.h: the errors each public entry
// point the API fuzzer calls may return, as its contract in the public
// headers (reference/include/mcr/detail/runtime_api_*.h) documents them.
// The fuzzer fails on any other code; documented_errors_test.cc checks every
// entry against the header comment of its function, so the table cannot
// drift from the documentation.

#ifndef REFERENCE_RUNTIME_FUZZ_DOCUMENTED_ERRORS_H_
#define REFERENCE_RUNTIME_FUZZ_DOCUMENTED_ERRORS_H_

#include <string>
#include <vector>

#include "mc_runtime_api.h"

namespace mxcts::fuzz {

struct DocumentedErrors {
  // The entry point, as spelled in the header.
  const char* function;
  // Every error other than mcSuccess the function may return.
  std::vector<mcError_t> errors;
  // Functions whose errors the header says this one also returns ("those
  // of mcMemcpy", "as mcMemset"): their header comments count as this
  // function's for the check against the header.
  std::vector<const char*> inherits;
  // Errors the header implies with a phrase rather than a name (such as
  // "those of the stream"), each with that phrase; empty for most.
  std::vector<std::pair<mcError_t, const char*>> implied;
};

// The table, one entry per entry point the fuzzer calls.
const std::vector<DocumentedErrors>& DocumentedErrorTable();

// The entry of `function`, or null if the table has none.
const DocumentedErrors* FindDocumented(const std::string& function);

// Whether `error` may be returned by `function` (mcSuccess always may).
// A function absent from the table documents nothing, so any error from it
// is undocumented.
bool IsDocumented(const std::string& function, mcError_t error);

}  // namespace mxcts::fuzz

#endif  // REFERENCE_RUNTIME_FUZZ_DOCUMENTED_ERRORS_H_
