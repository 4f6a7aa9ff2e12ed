// Copyright mxcts authors.
//
// Kernel attributes: the reference's fixed facts about kernels
// (device_config.h), the device's limits, and the table of what the
// program set. The table is keyed by device ordinal first, so that a reset
// erases one contiguous range.
//
// Tested by kernel_attributes_test.cc.

#include "reference/runtime/devices/kernel_attributes.h"

#include <iterator>

#include "reference/runtime/devices/device_config.h"

namespace mxcts::runtime {

KernelResources KernelResourcesOn(const mcDeviceProp_t& device,
                                  const KernelFacts& facts) {
  KernelResources kernel;
  // [lang.function.launch-bounds.max-threads-attribute]
  kernel.max_threads_per_block =
      facts.max_threads_per_block > 0 &&
              facts.max_threads_per_block <
                  static_cast<unsigned>(device.maxThreadsPerBlock)
          ? static_cast<int>(facts.max_threads_per_block)
          : device.maxThreadsPerBlock;
  kernel.registers_per_thread = config::kKernelRegisters;
  kernel.static_shared_bytes = facts.static_shared_bytes;
  return kernel;
}

int MaxDynamicSharedLimit(const mcDeviceProp_t& device,
                          const KernelFacts& facts) {
  if (facts.static_shared_bytes >= device.sharedMemPerBlockOptin) return 0;
  return static_cast<int>(device.sharedMemPerBlockOptin -
                          facts.static_shared_bytes);
}

int MaxDynamicSharedBytes(const mcDeviceProp_t& device,
                          const KernelFacts& facts,
                          const KernelSettings& settings) {
  return settings.max_dynamic_shared_bytes >= 0
             ? settings.max_dynamic_shared_bytes
             : MaxDynamicSharedLimit(device, facts);
}

mcFuncAttributes KernelAttributes(const mcDeviceProp_t& device,
                                  const KernelFacts& facts,
                                  const KernelSettings& settings) {
  const KernelResources kernel = KernelResourcesOn(device, facts);
  mcFuncAttributes a = {};
  // [api.device.func.attributes-reference-values]
  a.sharedSizeBytes = kernel.static_shared_bytes;
  a.constSizeBytes = 0;
  a.localSizeBytes = config::kKernelLocalBytes;
  a.maxThreadsPerBlock = kernel.max_threads_per_block;
  a.numRegs = kernel.registers_per_thread;
  a.ptxVersion = config::kKernelBinaryVersion;
  a.binaryVersion = config::kKernelBinaryVersion;
  a.cacheModeCA = 0;
  // [api.device.func.set-max-dynamic-shared]
  a.maxDynamicSharedSizeBytes = MaxDynamicSharedBytes(device, facts, settings);
  a.preferredShmemCarveout = settings.preferred_carveout;
  return a;
}

KernelSettingsTable& KernelSettingsTable::Get() {
  static KernelSettingsTable* table = new KernelSettingsTable;
  return *table;
}

KernelSettings KernelSettingsTable::Lookup(const void* kernel,
                                           int device) const {
  absl::MutexLock lock(&mutex_);
  auto it = settings_.find({device, kernel});
  return it == settings_.end() ? KernelSettings{} : it->second;
}

void KernelSettingsTable::Update(
    const void* kernel, int device,
    const std::function<void(KernelSettings&)>& change) {
  absl::MutexLock lock(&mutex_);
  change(settings_[{device, kernel}]);
}

void KernelSettingsTable::ResetDevice(int device) {
  absl::MutexLock lock(&mutex_);
  settings_.erase(settings_.lower_bound({device, nullptr}),
                  settings_.lower_bound({device + 1, nullptr}));
}

void KernelSettingsTable::Forget(const void* kernel) {
  absl::MutexLock lock(&mutex_);
  for (auto it = settings_.begin(); it != settings_.end();) {
    it = it->first.second == kernel ? settings_.erase(it) : std::next(it);
  }
}

}  // namespace mxcts::runtime
