// Copyright mxcts authors.
//
// The stack size and the device-runtime limits are plain per-device values;
// the printf buffer and the heap are forwarded to the engine, whose setters
// refuse what they cannot do. Every check happens before anything changes,
// so a refused Set leaves all limits as they were.
//
// Tested by device_limits_test.cc.

#include "reference/runtime/devices/device_limits.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "reference/runtime/errors/error_mapping.h"

namespace mxcts::runtime {
namespace {

absl::Status Unsupported(int limit) {
  // [api.device.limit.unsupported-limit-on-set]
  // [api.device.limit.unsupported-limit-on-get]
  return McStatus(
      mcErrorUnsupportedLimit,
      absl::StrCat("limit ", limit, " is not a limit the device supports"));
}

}  // namespace

bool DeviceLimits::IsSupported(int limit) {
  switch (limit) {
    case mcLimitStackSize:
    case mcLimitPrintfFifoSize:
    case mcLimitMallocHeapSize:
    case mcLimitDevRuntimeSyncDepth:
    case mcLimitDevRuntimePendingLaunchCount:
    case mcLimitMaxL2FetchGranularity:
      return true;
    default:
      return false;
  }
}

absl::StatusOr<size_t> DeviceLimits::Get(int limit) const {
  absl::MutexLock lock(&mutex_);
  switch (limit) {
    case mcLimitStackSize:
      return stack_size_;
    case mcLimitPrintfFifoSize:
      return device::PrintfBufferBytes();
    case mcLimitMallocHeapSize:
      return device::DeviceHeapBytes();
    case mcLimitDevRuntimeSyncDepth:
      return sync_depth_;
    case mcLimitDevRuntimePendingLaunchCount:
      return pending_launch_count_;
    case mcLimitMaxL2FetchGranularity:
      return l2_fetch_granularity_;
    default:
      return Unsupported(limit);
  }
}

absl::Status DeviceLimits::Set(int limit, size_t value) {
  absl::MutexLock lock(&mutex_);
  switch (limit) {
    case mcLimitStackSize:
      // [api.device.limit.stack-size]
      if (value > kMaxStackSizeLimit) {
        return McStatus(
            mcErrorMemoryAllocation,
            absl::StrCat("mcLimitStackSize ", value, " is more than the ",
                         kMaxStackSizeLimit, " bytes a device thread can get"));
      }
      stack_size_ = value;
      return absl::OkStatus();
    case mcLimitPrintfFifoSize: {
      // [api.device.limit.printf-fifo-size]
      if (device::DevicePrintfWasUsed()) {
        return McStatus(mcErrorInvalidValue,
                        "mcLimitPrintfFifoSize cannot change after a kernel "
                        "used device printf");
      }
      if (value > device::kMaxPrintfBufferBytes) {
        return McStatus(mcErrorMemoryAllocation,
                        absl::StrCat("mcLimitPrintfFifoSize ", value,
                                     " is more than the reference's ",
                                     device::kMaxPrintfBufferBytes));
      }
      const size_t bytes = std::max(value, device::kMinPrintfBufferBytes);
      if (!device::SetPrintfBufferBytes(bytes)) {
        return McStatus(mcErrorInvalidValue,
                        "the printf buffer holds output that would not fit");
      }
      return absl::OkStatus();
    }
    case mcLimitMallocHeapSize:
      // [api.device.limit.malloc-heap-size]
      if (device::DeviceHeapWasUsed()) {
        return McStatus(mcErrorInvalidValue,
                        "mcLimitMallocHeapSize cannot change after a kernel "
                        "used device malloc or free");
      }
      if (value > device::kMaxDeviceHeapBytes) {
        return McStatus(mcErrorMemoryAllocation,
                        absl::StrCat("mcLimitMallocHeapSize ", value,
                                     " is more than the reference's ",
                                     device::kMaxDeviceHeapBytes));
      }
      if (!device::SetDeviceHeapBytes(value)) {
        return McStatus(mcErrorInvalidValue,
                        "the device heap has live allocations");
      }
      return absl::OkStatus();
    case mcLimitDevRuntimeSyncDepth:
      // [api.device.limit.sync-depth]
      sync_depth_ = value;
      return absl::OkStatus();
    case mcLimitDevRuntimePendingLaunchCount:
      // [api.device.limit.pending-launch-count]
      pending_launch_count_ = value;
      return absl::OkStatus();
    case mcLimitMaxL2FetchGranularity:
      // [api.device.limit.l2-fetch-granularity-range] A hint: kept, unused.
      if (value > static_cast<size_t>(config::kMaxL2FetchGranularity) ||
          (value & (value - 1)) != 0) {
        return McStatus(mcErrorInvalidValue,
                        absl::StrCat("mcLimitMaxL2FetchGranularity ", value,
                                     " is not a power of two up to ",
                                     config::kMaxL2FetchGranularity));
      }
      l2_fetch_granularity_ = value;
      return absl::OkStatus();
    default:
      return Unsupported(limit);
  }
}

size_t DeviceLimits::FiberStackBytes() const {
  absl::MutexLock lock(&mutex_);
  return std::max(stack_size_ + device::kFiberStackReserveBytes,
                  device::kMinFiberStackBytes);
}

void DeviceLimits::ResetToDefaults() {
  absl::MutexLock lock(&mutex_);
  stack_size_ = kDefaultStackSizeLimit;
  sync_depth_ = config::kDevRuntimeSyncDepth;
  pending_launch_count_ = config::kDevRuntimePendingLaunchCount;
  l2_fetch_granularity_ = config::kDefaultL2FetchGranularity;
  // Refused only while the engine holds printf output or heap blocks,
  // which a device reset has released.
  device::SetPrintfBufferBytes(device::kDefaultPrintfBufferBytes);
  device::SetDeviceHeapBytes(device::kDefaultDeviceHeapBytes);
}

}  // namespace mxcts::runtime
