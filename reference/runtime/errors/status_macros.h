// Copyright mxcts authors.
//
// reference/runtime/errors/status_macros.h: early return on error, for
// functions of the runtime that return absl::Status or absl::StatusOr.
//
//   absl::StatusOr<Device*> FindDevice(int ordinal);
//   absl::Status Use(int ordinal) {
//     MX_ASSIGN_OR_RETURN(Device* device, FindDevice(ordinal));
//     MX_RETURN_IF_ERROR(device->CheckUsable());
//     return absl::OkStatus();
//   }

#ifndef MXCTS_REFERENCE_RUNTIME_ERRORS_STATUS_MACROS_H_
#define MXCTS_REFERENCE_RUNTIME_ERRORS_STATUS_MACROS_H_

#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

// Evaluates `expr` (an absl::Status) and returns it if it is not OK.
#define MX_RETURN_IF_ERROR(expr)             \
  do {                                       \
    ::absl::Status mx_status_ = (expr);      \
    if (!mx_status_.ok()) return mx_status_; \
  } while (false)

#define MX_STATUS_CONCAT_INNER_(a, b) a##b
#define MX_STATUS_CONCAT_(a, b) MX_STATUS_CONCAT_INNER_(a, b)

// Evaluates `expr` (an absl::StatusOr<T>); returns its status if it is not
// OK, else declares or assigns `lhs` from its value.
#define MX_ASSIGN_OR_RETURN(lhs, expr)                                      \
  MX_ASSIGN_OR_RETURN_IMPL_(MX_STATUS_CONCAT_(mx_statusor_, __LINE__), lhs, \
                            expr)

#define MX_ASSIGN_OR_RETURN_IMPL_(statusor, lhs, expr) \
  auto statusor = (expr);                              \
  if (!statusor.ok()) return statusor.status();        \
  lhs = std::move(statusor).value()

#endif  // MXCTS_REFERENCE_RUNTIME_ERRORS_STATUS_MACROS_H_
