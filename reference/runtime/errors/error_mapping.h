// Copyright mxcts authors.
//
// reference/runtime/errors/error_mapping.h: the one place where the runtime's
// internal absl::Status values become mcError_t codes, and where every
// code's name, description and stickiness are written down.
//
// Inside the runtime, functions return absl::Status with a canonical code
// chosen as absl/status/status.h advises (kInvalidArgument for a bad
// argument, kNotFound for an unknown handle or symbol, kResourceExhausted
// for memory, ...). Several mcError_t codes share one canonical code, so a
// status made with McStatus also carries the exact mcError_t as a payload;
// ToMcError reads it back at the API boundary. A status made elsewhere (by
// a library) has no payload and maps by its canonical code.
//
//   absl::Status s = McStatus(mcErrorInvalidDevice, "device 7 of 2");
//   // s.code() == absl::StatusCode::kInvalidArgument
//   mcError_t e = ToMcError(s);  // mcErrorInvalidDevice
//   ErrorName(e);                // "mcErrorInvalidDevice"

#ifndef MXCTS_REFERENCE_RUNTIME_ERRORS_ERROR_MAPPING_H_
#define MXCTS_REFERENCE_RUNTIME_ERRORS_ERROR_MAPPING_H_

#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "mcr/mc_runtime_types.h"

namespace mxcts::runtime {

// Returns a non-OK status for `error` (which must not be mcSuccess) with the
// canonical code the table assigns it and `message`; ToMcError(result) ==
// error.
absl::Status McStatus(mcError_t error, absl::string_view message);

// The mcError_t an API call returns for `status`: mcSuccess for OK, the
// attached code for a McStatus, otherwise the table's default code for the
// canonical code (mcErrorUnknown if there is none).
mcError_t ToMcError(const absl::Status& status);

// The enumerator's spelling, or "unrecognized error code". Never null;
// static storage. [api.error.string.name-is-enumerator-spelling]
const char* ErrorName(mcError_t error);

// An English description, or "unrecognized error code". Never null; static
// storage. [api.error.string.description-for-every-code]
const char* ErrorDescription(mcError_t error);

// The same two for a code given as the int a C caller passed, which may lie
// outside the range of mcError_t's values (mcGetErrorName and
// mcGetErrorString take any value [api.error.string.unrecognized-code];
// loading such a value as the enum is undefined in C++).
const char* ErrorNameOfCode(int code);
const char* ErrorDescriptionOfCode(int code);

// The text both functions above return for a value that is not an
// enumerator. [api.error.string.unrecognized-code]
inline constexpr char kUnrecognizedErrorText[] = "unrecognized error code";

// True for the errors that report a fault during device execution; they
// stay in effect on the device until mcDeviceReset.
// [api.error.sticky.fault-codes]
bool IsStickyError(mcError_t error);

// True if `error` is an enumerator of mcError_t.
bool IsKnownError(mcError_t error);

// The canonical code the table assigns to `error` (kOk for mcSuccess,
// kUnknown for values that are not enumerators).
absl::StatusCode CanonicalCode(mcError_t error);

// Every enumerator of mcError_t, in increasing order.
std::vector<mcError_t> AllErrors();

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_ERRORS_ERROR_MAPPING_H_
