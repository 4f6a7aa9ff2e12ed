// Copyright mxcts authors.
//
// reference/runtime/launch/launcher.h: checking and running one kernel launch.
//
// A launch (mcLaunchKernel, or `<<<...>>>` through LaunchFromStubArgs)
// goes through these steps; a failing step returns its error and runs
// nothing [lang.launch.failed-launch-runs-nothing]:
//   1. the current device is usable (no sticky error);
//   2. the configuration fits the device (ValidateLaunchConfiguration);
//   3. the stream is a default stream or a live stream of the current
//      device;
//   4. the function is a kernel with code for the device, and the block
//      and shared memory fit what its record says of it
//      (ValidateKernelResources);
//   5. the arguments are copied into storage owned by the launch, laid out
//      by the kernel record's sizes and alignments
//      [lang.launch.args-copied-at-launch];
//   6. the grid runs (mxcts::device::RunGrid). A trap's error is recorded
//      as the device's sticky error and reported by later calls, not by the
//      launch [lang.launch.error.execution-errors-reported-later].
//
//   absl::Status s = Launch({kernel_stub, dim3(4), dim3(256), args, 0, 0});

#ifndef MXCTS_REFERENCE_RUNTIME_LAUNCH_LAUNCHER_H_
#define MXCTS_REFERENCE_RUNTIME_LAUNCH_LAUNCHER_H_

#include <stddef.h>

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "mc_runtime_api.h"
#include "mcr/detail/launch_abi.h"
#include "reference/device/engine.h"
#include "reference/runtime/devices/device.h"
#include "reference/runtime/devices/kernel_attributes.h"
#include "reference/runtime/images/image_registry.h"
#include "reference/runtime/timeline/device_work.h"

namespace mxcts::runtime {

struct LaunchRequest {
  const void* function = nullptr;  // the kernel's host stub
  dim3 grid;
  dim3 block;
  void** args = nullptr;
  size_t shared_bytes = 0;
  mcStream_t stream = nullptr;
  // mcLaunchCooperativeKernel: checked to fit the device at once
  // (CheckCooperativeLaunch) and run with every block alive.
  bool cooperative = false;
};

// mcErrorInvalidConfiguration unless every extent is at least 1, the block
// has at most maxThreadsPerBlock threads and no dimension over
// maxThreadsDim, the grid no dimension over maxGridSize, and
// `shared_bytes` is at most sharedMemPerBlock.
// [lang.launch.limit.zero-extent] [lang.launch.limit.block-threads-exceed-max]
// [lang.launch.limit.block-dimension-exceeds-max]
// [lang.launch.limit.grid-dimension-exceeds-max]
// [lang.launch.limit.shared-memory-exceeds-max]
absl::Status ValidateLaunchConfiguration(const mcDeviceProp_t& device,
                                         dim3 grid, dim3 block,
                                         size_t shared_bytes);

// OK if `kernel` (with `settings`) can run blocks of `block` with
// `shared_bytes` of dynamic shared memory on `device`: no more threads than
// its `__launch_bounds__` (else mcErrorLaunchOutOfResources), a static
// shared footprint within sharedMemPerBlock (else
// mcErrorInvalidConfiguration), and no more dynamic shared memory than
// mcFuncAttributeMaxDynamicSharedMemorySize allows, by default the opt-in
// limit less the static part (else mcErrorInvalidValue).
// [lang.function.launch-bounds.launch-exceeds-bound]
// [lang.variable.shared.static-size-limit]
// [api.device.func.launch-above-max-dynamic-shared-is-invalid-value]
absl::Status ValidateKernelResources(const mcDeviceProp_t& device,
                                     const KernelHandle& kernel,
                                     const KernelSettings& settings, dim3 block,
                                     size_t shared_bytes);

// OK if a cooperative launch of `kernel` with `grid` blocks of `block`
// threads and `shared_bytes` of dynamic shared memory can have all its
// blocks resident on `device` at once: mcErrorNotSupported if the device
// does not support cooperative launches (cooperativeLaunch 0), else
// mcErrorCooperativeLaunchTooLarge for more blocks than
// mcOccupancyMaxActiveBlocksPerMultiprocessor times multiProcessorCount.
// [api.coop.launch.unsupported-device] [api.coop.launch.too-large]
// [api.coop.launch.max-grid-from-occupancy]
absl::Status CheckCooperativeLaunch(const mcDeviceProp_t& device,
                                    const KernelHandle& kernel, dim3 grid,
                                    dim3 block, size_t shared_bytes);

// A launch's own copy of a kernel's arguments.
class KernelArguments {
 public:
  // Copies `record.param_count` arguments from `args` (args[i] points at
  // the i-th). mcErrorInvalidValue if `args` or one of its entries is null
  // while the kernel takes parameters.
  static absl::StatusOr<KernelArguments> Copy(
      const __mc_internal::KernelRecord& record, void** args);
  // Pointers to the copies, as the kernel's entry expects them.
  void** pointers() { return pointers_.data(); }

 private:
  std::unique_ptr<unsigned char[]> storage_;
  std::vector<void*> pointers_;
};

// A checked kernel launch that can run any number of times: steps 2, 4 and
// 5 above done once, for `device`. A launch holds one for the time it
// waits in its stream; a kernel node of a graph holds one for its life
// [api.graph.kernel-node.runs-kernel].
class PreparedLaunch {
 public:
  // Checks `function` (a kernel's host stub) with `grid`, `block` and
  // `shared_bytes` on `device`, and copies the arguments from `args`
  // (args[i] points at argument i). Errors as Launch's steps 2, 4 and 5.
  static absl::StatusOr<PreparedLaunch> Prepare(Device& device,
                                                const void* function, dim3 grid,
                                                dim3 block, void** args,
                                                size_t shared_bytes);
  // Work that runs the grid once each time it is called (execution lock
  // held): what SubmitWork queues, or what a graph launch calls.
  DeviceWork Work() const;

  const std::string& kernel_name() const { return kernel_.name; }
  // Whether the kernel launches grids from device code, as its record says
  // (__mc_internal::kKernelLaunchesGrids).
  bool launches_grids() const {
    return (kernel_.record->flags & __mc_internal::kKernelLaunchesGrids) != 0;
  }
  const void* function() const { return function_; }
  int device() const { return device_->ordinal(); }
  dim3 grid() const { return grid_; }
  dim3 block() const { return block_; }
  size_t shared_bytes() const { return shared_bytes_; }
  // Whether the grid runs as a cooperative launch (every block alive).
  bool cooperative() const { return cooperative_; }
  // The same launch run cooperatively, after CheckCooperativeLaunch.
  absl::StatusOr<PreparedLaunch> Cooperative() const;
  // The same launch run as an ordinary one.
  PreparedLaunch Ordinary() const;
  // The launch's copies of the arguments: kernelParams as a kernel node
  // reports them; valid while this launch (or a copy of it) lives.
  void** arguments() const { return arguments_->pointers(); }

 private:
  PreparedLaunch() = default;

  Device* device_ = nullptr;
  const void* function_ = nullptr;
  KernelHandle kernel_;
  dim3 grid_;
  dim3 block_;
  size_t shared_bytes_ = 0;
  bool cooperative_ = false;
  std::shared_ptr<KernelArguments> arguments_;
};

// The arguments packed in a launch's `extra` array
// (MC_LAUNCH_PARAM_BUFFER_POINTER, buffer, MC_LAUNCH_PARAM_BUFFER_SIZE,
// &size, MC_LAUNCH_PARAM_END), as pointers to each argument in the buffer,
// laid out by `record`'s sizes and alignments as a C struct's members
// would be; what a kernel node or mcModuleLaunchKernel passes on as
// kernelParams. mcErrorInvalidValue for an entry that is no marker, a
// missing buffer or size while the kernel takes arguments, or a buffer
// that ends before an argument.
absl::StatusOr<std::vector<void*>> UnpackExtraArguments(
    const __mc_internal::KernelRecord& record, void** extra);

// Checks and runs one launch on the calling thread's current device.
absl::Status Launch(const LaunchRequest& request);

// Runs a grid: mxcts::device::RunGrid unless a test replaced it.
using GridRunner = mcError_t (*)(const mxcts::device::GridLaunch&);
// Makes `runner` (null: RunGrid) run later grids; returns the previous one.
GridRunner SetGridRunner(GridRunner runner);

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_LAUNCH_LAUNCHER_H_
