// Copyright mxcts authors.
//
// reference/device/device_runtime.h: dynamic parallelism, as the host runtime
// sees it: what the engine asks of the runtime when device code launches a
// kernel or calls the device runtime API, and the per-grid limits the
// runtime hands the engine.
//
// A device thread that launches a kernel (`k<<<g, b>>>(a)` in device code,
// or mcLaunchDevice) makes a child grid. The engine asks the runtime to
// check the launch and copy its arguments (DeviceRuntimeServices::
// prepare_child), records the child, and runs it on the same OS thread, with
// its own blocks, fibers and shared memory, while the launching thread is
// suspended: at the launching thread's device-side mcDeviceSynchronize, or
// at the latest when the launching block's threads have all exited (the
// parent grid completes only with its children). In the shuffled engine
// order a child may also run right at its launch, and siblings launched
// without a synchronization between them run in a permuted order.
// reference/device/design.md, "Nested grids", has the details.
//
//   static const DeviceRuntimeServices services = {&PrepareChild, ...};
//   mxcts::device::SetDeviceRuntimeServices(&services);
//   mxcts::device::SetDeviceRuntimeLimits({device, sync_depth, pending});
//   mxcts::device::RunGrid(launch);  // device code may launch children now

#ifndef REFERENCE_DEVICE_DEVICE_RUNTIME_H_
#define REFERENCE_DEVICE_DEVICE_RUNTIME_H_

#include <stddef.h>

#include <memory>
#include <string>

#include "mcr/detail/device_abi.h"
#include "mcr/detail/launch_abi.h"
#include "mcr/mc_runtime_types.h"

namespace mxcts::device {

// The deepest a grid may be nested: the top-level grid has depth 0, its
// children depth 1; a launch that would make a grid of depth 25 fails with
// mcErrorLaunchMaxDepthExceeded. [api.devrt.limit.max-nesting-depth]
inline constexpr unsigned kMaxGridNestingDepth = 24;

// The most bytes of arguments a parameter buffer holds.
// [api.devrt.launch.parameter-buffer-layout]
inline constexpr size_t kMaxParameterBufferBytes = 4096;

// A child grid the runtime has checked, its arguments copied.
struct PreparedChildGrid {
  std::string kernel_name;  // for diagnostics, as host launches name it
  void (*entry)(void** args) = nullptr;
  void (*run_threads)(void** args, __mc_thread_walk* walk) = nullptr;
  std::shared_ptr<void> arguments;  // owns what `args` points at
  void** args = nullptr;
};

// What the engine needs of the runtime for the device runtime. Every
// function is called on the OS thread that runs the grid, from device code,
// while the grid runs; none may run device work.
struct DeviceRuntimeServices {
  // Checks the launch of `kernel` (its address in device code) on `device`
  // as a host launch is checked, and copies the arguments (`args[i]` points
  // at the i-th, of the parameter's type) into `child`. Returns mcSuccess
  // or the launch's error (mcErrorInvalidConfiguration,
  // mcErrorInvalidDeviceFunction, ...).
  mcError_t (*prepare_child)(int device, const void* kernel, dim3 grid,
                             dim3 block, size_t shared_bytes, void** args,
                             PreparedChildGrid* child);
  // The record of the kernel whose address in device code is `kernel`, or
  // null.
  const __mc_internal::KernelRecord* (*find_kernel)(const void* kernel);
  // mcDeviceGetLimit and mcDeviceGetAttribute for `device`.
  mcError_t (*get_limit)(int device, size_t* value, int limit);
  mcError_t (*get_attribute)(int* value, int attribute, int device);
  const char* (*error_name)(mcError_t error);
  const char* (*error_string)(mcError_t error);
};

// Makes `services` (null: none; device-side launches then fail with
// mcErrorNotSupported) the runtime's. `services` must outlive every grid.
void SetDeviceRuntimeServices(const DeviceRuntimeServices* services);

// The limits of the launch trees of top-level grids started from now on:
// the device the grids run on (device-side mcGetDevice), the deepest level
// at which mcDeviceSynchronize may be called (mcLimitDevRuntimeSyncDepth)
// and the most child grids launched and not complete at once
// (mcLimitDevRuntimePendingLaunchCount). A running tree keeps the limits it
// started with. [api.devrt.limit.set-before-launch]
struct DeviceRuntimeLimits {
  int device = 0;
  size_t sync_depth = 2;
  size_t pending_launch_count = 2048;
};
void SetDeviceRuntimeLimits(const DeviceRuntimeLimits& limits);

}  // namespace mxcts::device

#endif  // REFERENCE_DEVICE_DEVICE_RUNTIME_H_
