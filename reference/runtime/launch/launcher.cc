// Copyright mxcts authors.
//
// Launch checking and argument marshalling. The configuration limits come
// from the device's properties, so a launch is accepted exactly when it
// fits what mcGetDeviceProperties reports [api.device.props.execution-limits].
// Products of extents are computed in 64 bits: 1024 x 1024 x 1024 does not
// wrap.
//
// Arguments are laid out one after another, each at its parameter's
// alignment, in one buffer aligned for the most demanding parameter; the
// pointer array the entry receives points into it. The buffer lives until
// the grid has run.
//
// Tested by launcher_test.cc and api_launch_test.cc.

#include "reference/runtime/launch/launcher.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "reference/runtime/devices/device_table.h"
#include "reference/runtime/devices/occupancy.h"
#include "reference/runtime/errors/error_mapping.h"
#include "reference/runtime/errors/status_macros.h"
#include "reference/runtime/images/image_registry.h"
#include "reference/runtime/launch/device_launch.h"
#include "reference/runtime/peer/peer_protection.h"
#include "reference/runtime/timeline/device_work.h"
#include "reference/runtime/timeline/stream.h"

namespace mxcts::runtime {
namespace {

std::atomic<GridRunner> grid_runner{nullptr};

absl::Status BadConfiguration(const std::string& why) {
  return McStatus(mcErrorInvalidConfiguration,
                  absl::StrCat("invalid launch configuration: ", why));
}

std::string Extent(dim3 d) {
  return absl::StrFormat("(%u, %u, %u)", d.x, d.y, d.z);
}

bool IsPowerOfTwo(unsigned value) {
  return value != 0 && (value & (value - 1)) == 0;
}

}  // namespace

absl::Status ValidateLaunchConfiguration(const mcDeviceProp_t& device,
                                         dim3 grid, dim3 block,
                                         size_t shared_bytes) {
  // [lang.launch.limit.zero-extent]
  if (grid.x == 0 || grid.y == 0 || grid.z == 0) {
    return BadConfiguration(
        absl::StrCat("grid ", Extent(grid), " has a zero extent"));
  }
  if (block.x == 0 || block.y == 0 || block.z == 0) {
    // [lang.launch.limit.zero-extent]
    return BadConfiguration(
        absl::StrCat("block ", Extent(block), " has a zero extent"));
  }
  // [lang.launch.limit.block-dimension-exceeds-max]
  const unsigned block_extent[3] = {block.x, block.y, block.z};
  const unsigned grid_extent[3] = {grid.x, grid.y, grid.z};
  for (int i = 0; i < 3; ++i) {
    if (block_extent[i] > static_cast<unsigned>(device.maxThreadsDim[i])) {
      return BadConfiguration(
          absl::StrFormat("block %s exceeds the limit %d in dimension %c",
                          Extent(block), device.maxThreadsDim[i], "xyz"[i]));
    }
  }
  // [lang.launch.limit.block-threads-exceed-max]
  uint64_t threads = uint64_t{block.x} * block.y * block.z;
  if (threads > static_cast<uint64_t>(device.maxThreadsPerBlock)) {
    return BadConfiguration(
        absl::StrFormat("block %s has %u threads, more than %d", Extent(block),
                        threads, device.maxThreadsPerBlock));
  }
  // [lang.launch.limit.grid-dimension-exceeds-max]
  // [lang.launch.limit.negative-extent-wraps]
  for (int i = 0; i < 3; ++i) {
    if (grid_extent[i] > static_cast<unsigned>(device.maxGridSize[i])) {
      return BadConfiguration(
          absl::StrFormat("grid %s exceeds the limit %d in dimension %c",
                          Extent(grid), device.maxGridSize[i], "xyz"[i]));
    }
  }
  // [lang.launch.limit.shared-memory-exceeds-max]
  if (shared_bytes > device.sharedMemPerBlock) {
    return BadConfiguration(absl::StrFormat(
        "%u bytes of dynamic shared memory, more than the %u a block has",
        shared_bytes, device.sharedMemPerBlock));
  }
  return absl::OkStatus();
}

absl::Status ValidateKernelResources(const mcDeviceProp_t& device,
                                     const KernelHandle& kernel,
                                     const KernelSettings& settings, dim3 block,
                                     size_t shared_bytes) {
  const KernelFacts facts = kernel.facts();
  // [lang.function.launch-bounds.launch-exceeds-bound]
  const uint64_t threads = uint64_t{block.x} * block.y * block.z;
  if (facts.max_threads_per_block > 0 &&
      threads > facts.max_threads_per_block) {
    return McStatus(
        mcErrorLaunchOutOfResources,
        absl::StrFormat("block %s has %u threads, more than the %u of %s's "
                        "__launch_bounds__",
                        Extent(block), threads, facts.max_threads_per_block,
                        kernel.name));
  }
  // [lang.variable.shared.static-size-limit]
  if (facts.static_shared_bytes > device.sharedMemPerBlock) {
    return BadConfiguration(absl::StrFormat(
        "%s declares %u bytes of static shared memory, more than the %u a "
        "block has",
        kernel.name, facts.static_shared_bytes, device.sharedMemPerBlock));
  }
  // [lang.launch.limit.shared-memory-exceeds-max] The static and the
  // dynamic shared memory together fit in what a block has, or in the
  // larger amount the kernel was opted into; beyond that the configuration
  // is bad, whatever the kernel's dynamic maximum says.
  const uint64_t total_shared =
      uint64_t{facts.static_shared_bytes} + shared_bytes;
  uint64_t block_shared = device.sharedMemPerBlock;
  if (settings.max_dynamic_shared_bytes >= 0) {
    block_shared = std::max<uint64_t>(
        block_shared,
        uint64_t{facts.static_shared_bytes} +
            static_cast<uint64_t>(settings.max_dynamic_shared_bytes));
  }
  if (total_shared > block_shared) {
    return BadConfiguration(absl::StrFormat(
        "%u bytes of static and %u of dynamic shared memory, more than the "
        "%u a block of %s has",
        facts.static_shared_bytes, shared_bytes, block_shared, kernel.name));
  }
  // [api.device.func.launch-above-max-dynamic-shared-is-invalid-value]
  const int most_dynamic = MaxDynamicSharedBytes(device, facts, settings);
  if (shared_bytes > static_cast<size_t>(most_dynamic)) {
    return McStatus(
        mcErrorInvalidValue,
        absl::StrFormat("%u bytes of dynamic shared memory, more than the %d "
                        "%s may have (its static shared memory is %u bytes)",
                        shared_bytes, most_dynamic, kernel.name,
                        facts.static_shared_bytes));
  }
  return absl::OkStatus();
}

absl::Status CheckCooperativeLaunch(const mcDeviceProp_t& device,
                                    const KernelHandle& kernel, dim3 grid,
                                    dim3 block, size_t shared_bytes) {
  // [api.coop.launch.unsupported-device]
  if (device.cooperativeLaunch == 0) {
    return McStatus(mcErrorNotSupported,
                    absl::StrFormat("device %s does not support cooperative "
                                    "launches",
                                    device.name));
  }
  // [api.coop.launch.too-large] [api.coop.launch.max-grid-from-occupancy]
  // The occupancy calculator's answer for this kernel, block and shared
  // memory, over every multiprocessor.
  const uint64_t threads = uint64_t{block.x} * block.y * block.z;
  const int per_multiprocessor = MaxActiveBlocksPerMultiprocessor(
      device, KernelResourcesOn(device, kernel.facts()),
      static_cast<int>(threads), shared_bytes);
  const uint64_t resident =
      uint64_t{static_cast<unsigned>(per_multiprocessor)} *
      static_cast<unsigned>(device.multiProcessorCount);
  const uint64_t blocks = uint64_t{grid.x} * grid.y * grid.z;
  if (blocks > resident) {
    return McStatus(
        mcErrorCooperativeLaunchTooLarge,
        absl::StrFormat("a cooperative launch of %s with %u blocks of %u "
                        "threads and %u bytes of dynamic shared memory: at "
                        "most %u blocks (%d per multiprocessor, %d "
                        "multiprocessors) can be resident at once",
                        kernel.name, blocks, threads, shared_bytes, resident,
                        per_multiprocessor, device.multiProcessorCount));
  }
  return absl::OkStatus();
}

absl::StatusOr<KernelArguments> KernelArguments::Copy(
    const __mc_internal::KernelRecord& record, void** args) {
  KernelArguments copy;
  unsigned count = record.param_count;
  if (count > 0 && args == nullptr) {
    return McStatus(mcErrorInvalidValue,
                    absl::StrFormat("the kernel takes %u arguments but args "
                                    "is null",
                                    count));
  }
  // Validated and measured first; placed in a second pass at the same
  // offsets, so that a launch allocates only the copy and its pointers.
  size_t total = 0;
  size_t max_alignment = 1;
  for (unsigned i = 0; i < count; ++i) {
    unsigned alignment = record.param_alignments[i];
    if (!IsPowerOfTwo(alignment)) {
      return McStatus(mcErrorInvalidKernelImage,
                      absl::StrFormat("kernel parameter %u has alignment %u", i,
                                      alignment));
    }
    if (args[i] == nullptr) {
      return McStatus(mcErrorInvalidValue,
                      absl::StrFormat("args[%u] is null", i));
    }
    total = (total + alignment - 1) / alignment * alignment;
    total += record.param_sizes[i];
    if (alignment > max_alignment) max_alignment = alignment;
  }
  copy.storage_.reset(new unsigned char[total + max_alignment]);
  uintptr_t raw = reinterpret_cast<uintptr_t>(copy.storage_.get());
  unsigned char* base = copy.storage_.get() +
                        ((max_alignment - raw % max_alignment) % max_alignment);
  copy.pointers_.resize(count + 1, nullptr);
  size_t offset = 0;
  for (unsigned i = 0; i < count; ++i) {
    const unsigned alignment = record.param_alignments[i];
    offset = (offset + alignment - 1) / alignment * alignment;
    std::memcpy(base + offset, args[i], record.param_sizes[i]);
    copy.pointers_[i] = base + offset;
    offset += record.param_sizes[i];
  }
  return copy;
}

GridRunner SetGridRunner(GridRunner runner) {
  return grid_runner.exchange(runner);
}

absl::StatusOr<PreparedLaunch> PreparedLaunch::Prepare(Device& device,
                                                       const void* function,
                                                       dim3 grid, dim3 block,
                                                       void** args,
                                                       size_t shared_bytes) {
  MX_RETURN_IF_ERROR(ValidateLaunchConfiguration(device.properties(), grid,
                                                 block, shared_bytes));
  ImageRegistry& registry = ImageRegistry::Get();
  PreparedLaunch launch;
  MX_ASSIGN_OR_RETURN(launch.kernel_,
                      registry.ResolveKernel(function, device.ordinal()));
  MX_RETURN_IF_ERROR(ValidateKernelResources(
      device.properties(), launch.kernel_,
      KernelSettingsTable::Get().Lookup(function, device.ordinal()), block,
      shared_bytes));
  // The arguments are copied now [lang.launch.args-copied-at-launch]; the
  // grid may run later, when the timeline reaches it.
  MX_ASSIGN_OR_RETURN(KernelArguments copied,
                      KernelArguments::Copy(*launch.kernel_.record, args));
  launch.arguments_ = std::make_shared<KernelArguments>(std::move(copied));
  launch.device_ = &device;
  launch.function_ = function;
  launch.grid_ = grid;
  launch.block_ = block;
  launch.shared_bytes_ = shared_bytes;
  return launch;
}

absl::StatusOr<PreparedLaunch> PreparedLaunch::Cooperative() const {
  MX_RETURN_IF_ERROR(CheckCooperativeLaunch(device_->properties(), kernel_,
                                            grid_, block_, shared_bytes_));
  PreparedLaunch launch = *this;
  launch.cooperative_ = true;
  return launch;
}

PreparedLaunch PreparedLaunch::Ordinary() const {
  PreparedLaunch launch = *this;
  launch.cooperative_ = false;
  return launch;
}

DeviceWork PreparedLaunch::Work() const {
  GridRunner runner = grid_runner.load();
  if (runner == nullptr) runner = &mxcts::device::RunGrid;
  ImageRegistry* images = &ImageRegistry::Get();
  return [runner, images, launch = *this]() -> mcError_t {
    Device* device = launch.device_;
    const KernelHandle& kernel = launch.kernel_;
    mxcts::device::GridLaunch grid{kernel.name,
                                   kernel.record->entry,
                                   launch.arguments_->pointers(),
                                   launch.grid_,
                                   launch.block_,
                                   launch.shared_bytes_,
                                   kernel.record->run_threads,
                                   launch.cooperative_};
    // [api.device.limit.stack-size] Each device has its own stack size.
    mxcts::device::SetFiberStackBytes(device->limits().FiberStackBytes());
    // Dynamic parallelism: the device's limits for the grid's children.
    InstallDeviceRuntime(*device);
    images->BeginGrid(kernel);
    PeerProtection peer_protection(device->ordinal());  // checked mode only
    mcError_t result = runner(grid);
    images->EndGrid(kernel);
    // [api.error.return.fault-reported-by-later-call]: a sticky result
    // becomes the device's fault; another is the launch's error.
    return result;
  };
}

absl::Status Launch(const LaunchRequest& request) {
  DeviceTable& devices = DeviceTable::Get();
  MX_ASSIGN_OR_RETURN(Device * device, devices.CurrentDeviceForWork());
  MX_RETURN_IF_ERROR(ValidateLaunchConfiguration(
      device->properties(), request.grid, request.block, request.shared_bytes));
  // [lang.launch.limit.invalid-stream-handle]
  MX_ASSIGN_OR_RETURN(
      int stream_device,
      StreamTable::Get().DeviceOf(request.stream, device->ordinal()));
  if (stream_device !=
      device->ordinal()) {  // [lang.launch.limit.stream-of-other-device]
    return McStatus(
        mcErrorInvalidResourceHandle,
        absl::StrFormat("stream %p belongs to device %d, the "
                        "current device is %d",
                        request.stream, stream_device, device->ordinal()));
  }
  MX_ASSIGN_OR_RETURN(PreparedLaunch launch,
                      PreparedLaunch::Prepare(
                          *device, request.function, request.grid,
                          request.block, request.args, request.shared_bytes));
  if (request.cooperative) {
    // [api.coop.launch.runs-kernel] Checked like any launch, then for
    // co-residency; ordered in its stream like any launch.
    MX_ASSIGN_OR_RETURN(launch, launch.Cooperative());
  }
  // [api.sync.host.kernel-launch-asynchronous]
  return SubmitWork(request.stream, "the launch of " + launch.kernel_name(),
                    launch.Work(), HostWait::kNone);
}

// [api.graph.kernel-node.extra-argument-form]
// [api.module.launch.extra-buffer]
absl::StatusOr<std::vector<void*>> UnpackExtraArguments(
    const __mc_internal::KernelRecord& record, void** extra) {
  unsigned char* buffer = nullptr;
  const size_t* size = nullptr;
  for (size_t i = 0; extra[i] != MC_LAUNCH_PARAM_END; i += 2) {
    if (extra[i] == MC_LAUNCH_PARAM_BUFFER_POINTER) {
      buffer = static_cast<unsigned char*>(extra[i + 1]);
    } else if (extra[i] == MC_LAUNCH_PARAM_BUFFER_SIZE) {
      size = static_cast<const size_t*>(extra[i + 1]);
    } else {
      return McStatus(mcErrorInvalidValue,
                      absl::StrFormat("extra[%u] is not a launch parameter "
                                      "marker",
                                      i));
    }
  }
  if (record.param_count > 0 && (buffer == nullptr || size == nullptr)) {
    return McStatus(mcErrorInvalidValue,
                    "extra lacks the argument buffer or its size");
  }
  std::vector<void*> pointers(record.param_count + 1, nullptr);
  size_t offset = 0;
  for (unsigned i = 0; i < record.param_count; ++i) {
    const size_t alignment = record.param_alignments[i];
    if (alignment > 0)
      offset = (offset + alignment - 1) / alignment * alignment;
    if (offset + record.param_sizes[i] > *size) {
      return McStatus(mcErrorInvalidValue,
                      absl::StrFormat("the argument buffer of %u bytes ends "
                                      "before argument %u",
                                      *size, i));
    }
    pointers[i] = buffer + offset;
    offset += record.param_sizes[i];
  }
  return pointers;
}

}  // namespace mxcts::runtime
