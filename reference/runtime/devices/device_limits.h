// Copyright mxcts authors.
//
// reference/runtime/devices/device_limits.h: the per-device limits of
// mcDeviceSetLimit and mcDeviceGetLimit [api.device.limit].
//
// Each simulated device keeps its own stack size, device-runtime limits and
// L2 fetch granularity (a hint); the launcher applies the stack size to the
// engine before each grid of the device. The printf buffer and the device
// heap are the engine's, shared by all simulated devices of the process:
// setting either limit on one device sets it for every device, and
// resetting any device restores both (documented reference choices).
// mcLimitPersistingL2CacheSize is not supported (persistingL2CacheMaxSize
// is 0). Whether work is pending is the caller's check (api_device.cc).
//
//   DeviceLimits limits;
//   MX_RETURN_IF_ERROR(limits.Set(mcLimitStackSize, 8192));
//   size_t stack = limits.Get(mcLimitStackSize).value();   // >= 8192

#ifndef MXCTS_REFERENCE_RUNTIME_DEVICES_DEVICE_LIMITS_H_
#define MXCTS_REFERENCE_RUNTIME_DEVICES_DEVICE_LIMITS_H_

#include <stddef.h>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "mcr/mc_runtime_types.h"
#include "reference/device/engine.h"
#include "reference/runtime/devices/device_config.h"

namespace mxcts::runtime {

// The default mcLimitStackSize: the engine's default fiber stack less the
// share the engine and the C library need (printf formatting, the engine's
// own frames). Device code is ordinary x86-64 code whose frames are larger
// than a GPU's, so the default is far above a GPU's 1 KiB.
// [api.device.limit.stack-size]
inline constexpr size_t kDefaultStackSizeLimit =
    device::kDefaultFiberStackBytes - device::kFiberStackReserveBytes;
// The largest mcLimitStackSize the engine can give every thread.
inline constexpr size_t kMaxStackSizeLimit =
    device::kMaxFiberStackBytes - device::kFiberStackReserveBytes;

class DeviceLimits {
 public:
  DeviceLimits() = default;
  DeviceLimits(const DeviceLimits&) = delete;
  DeviceLimits& operator=(const DeviceLimits&) = delete;

  // True if `limit` is a limit the reference supports: an mcLimit_t
  // enumerator other than mcLimitPersistingL2CacheSize.
  static bool IsSupported(int limit);

  // The current value of `limit`. Errors: mcErrorUnsupportedLimit unless
  // IsSupported(limit). [api.device.limit.get-returns-current-value]
  absl::StatusOr<size_t> Get(int limit) const;

  // Sets `limit` to `value` or more (values may be rounded up, never down).
  // Errors, each leaving every limit unchanged:
  //   mcErrorUnsupportedLimit: not IsSupported(limit);
  //   mcErrorInvalidValue: the printf buffer after a kernel used printf, the
  //     heap after a kernel used malloc or free
  //     [api.device.limit.resize-after-use-is-invalid-value]; an L2 fetch
  //     granularity other than 0 to 128 and a power of two
  //     [api.device.limit.l2-fetch-granularity-range];
  //   mcErrorMemoryAllocation: more than the engine can reserve
  //     [api.device.limit.unattainable-value-is-memory-allocation].
  absl::Status Set(int limit, size_t value);

  // The engine fiber stack size that gives device code mcLimitStackSize.
  size_t FiberStackBytes() const;

  // Back to the defaults, the engine's printf buffer and heap sizes
  // included (mcDeviceReset, after the engine released both, so that the
  // sizes can change). [api.device.reset.restores-defaults]
  void ResetToDefaults();

 private:
  mutable absl::Mutex mutex_;
  size_t stack_size_ ABSL_GUARDED_BY(mutex_) = kDefaultStackSizeLimit;
  size_t sync_depth_ ABSL_GUARDED_BY(mutex_) = config::kDevRuntimeSyncDepth;
  size_t pending_launch_count_ ABSL_GUARDED_BY(mutex_) =
      config::kDevRuntimePendingLaunchCount;
  size_t l2_fetch_granularity_ ABSL_GUARDED_BY(mutex_) =
      config::kDefaultL2FetchGranularity;
};

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_DEVICES_DEVICE_LIMITS_H_
