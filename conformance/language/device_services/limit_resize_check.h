// Copyright mxcts authors.
//
// conformance/language/device_services/limit_resize_check.h: the second half of
// the resize-after-use tests of the printf FIFO and the device heap, which
// follow one rule [api.device.limit.resize-after-use-is-invalid-value]:
// once a kernel has used the facility, mcDeviceSetLimit of its limit is
// refused with mcErrorInvalidValue, changes nothing and is not sticky;
// before any use (or after a reset) the new size takes effect.
//
//   // ... a kernel that used printf ran ...
//   return CheckResizeAfterPriorUse(mcLimitPrintfFifoSize, "FIFO size",
//                                   /*facility_used=*/true, "PrintfKernel",
//                                   [](size_t before) { return 2 * before; });

#ifndef MXCTS_CONFORMANCE_LANGUAGE_DEVICE_SERVICES_LIMIT_RESIZE_CHECK_H_
#define MXCTS_CONFORMANCE_LANGUAGE_DEVICE_SERVICES_LIMIT_RESIZE_CHECK_H_

#include <mc_runtime.h>

#include <cstddef>
#include <string>

namespace mxcts::conformance {

// Sets `limit` to `requested_for(current value)` and checks the outcome:
// refused, unchanged and not sticky if `facility_used`, else in effect.
// Returns "" when the rule holds, otherwise what went wrong; `size_name`
// and `prior_use` name the limit and what ran before, in the message.
template <typename RequestedFor>
std::string CheckResizeAfterPriorUse(mcLimit_t limit, const char* size_name,
                                     bool facility_used, const char* prior_use,
                                     RequestedFor requested_for) {
  size_t before = 0;
  if (mcDeviceGetLimit(&before, limit) != mcSuccess) {
    return "mcDeviceGetLimit failed";
  }
  const size_t requested = requested_for(before);
  const mcError_t set = mcDeviceSetLimit(limit, requested);
  size_t after = 0;
  if (mcDeviceGetLimit(&after, limit) != mcSuccess) {
    return "mcDeviceGetLimit failed";
  }
  const std::string outcome = std::string("after ") + prior_use +
                              ", mcDeviceSetLimit returned " +
                              mcGetErrorName(set);
  if (facility_used) {
    if (set != mcErrorInvalidValue) return outcome;
    if (after != before) {
      return std::string("the refused call changed the ") + size_name;
    }
    // Not sticky: the last error is reported once, work goes on.
    if (mcGetLastError() != mcErrorInvalidValue) {
      return "mcGetLastError does not report the refusal";
    }
    if (mcGetLastError() != mcSuccess || mcDeviceSynchronize() != mcSuccess) {
      return "the refusal is sticky";
    }
    return "";
  }
  if (set != mcSuccess) return outcome;
  if (after < requested) {
    return std::string("the ") + size_name + " did not change";
  }
  return "";
}

}  // namespace mxcts::conformance

#endif  // MXCTS_CONFORMANCE_LANGUAGE_DEVICE_SERVICES_LIMIT_RESIZE_CHECK_H_
