// Copyright mxcts authors.
//
// reference/runtime/devices/kernel_attributes.h: what mcFuncGetAttributes
// reports of a kernel, and what mcFuncSetAttribute, mcFuncSetCacheConfig and
// mcFuncSetSharedMemConfig record for it.
//
// A kernel's attributes come from two sources. What the kernel needs is
// what its record in the device image knows (KernelFacts): its
// `__launch_bounds__` bound and the static `__shared__` footprint of its own
// body; the reference reports no registers or local memory (kernels are
// host code) [api.device.func.attributes-reference-values]. What the
// program set is kept per kernel and device, in a table that mcDeviceReset
// clears for the device it resets.
//
//   KernelSettingsTable& t = KernelSettingsTable::Get();
//   t.Update(stub, 0, [](KernelSettings& s) { s.preferred_carveout = 50; });
//   mcFuncAttributes a = KernelAttributes(prop, facts, t.Lookup(stub, 0));
//   // a.preferredShmemCarveout == 50

#ifndef MXCTS_REFERENCE_RUNTIME_DEVICES_KERNEL_ATTRIBUTES_H_
#define MXCTS_REFERENCE_RUNTIME_DEVICES_KERNEL_ATTRIBUTES_H_

#include <functional>
#include <map>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "mcr/mc_runtime_types.h"
#include "reference/runtime/devices/occupancy.h"

namespace mxcts::runtime {

// What the program set for one kernel on one device.
struct KernelSettings {
  // mcFuncAttributeMaxDynamicSharedMemorySize; -1 until set (the default
  // is all the shared memory a block may have beyond the static part).
  int max_dynamic_shared_bytes = -1;
  // mcFuncAttributePreferredSharedMemoryCarveout: -1 (no preference) or a
  // percentage. [api.device.func.set-carveout]
  int preferred_carveout = -1;
  mcFuncCache_t cache_config = mcFuncCachePreferNone;
  mcSharedMemConfig shared_mem_config = mcSharedMemBankSizeDefault;
};

// What the kernel's record says of it.
struct KernelFacts {
  // The `__launch_bounds__` bound; 0: none.
  unsigned max_threads_per_block = 0;
  // The static `__shared__` bytes of the kernel's own body.
  size_t static_shared_bytes = 0;
};

// What a kernel with `facts` needs of a multiprocessor of `device`.
KernelResources KernelResourcesOn(const mcDeviceProp_t& device,
                                  const KernelFacts& facts);

// The attributes of a kernel with `facts` and `settings` on `device`.
// [api.device.func.get-attributes]
mcFuncAttributes KernelAttributes(const mcDeviceProp_t& device,
                                  const KernelFacts& facts,
                                  const KernelSettings& settings);

// The most mcFuncAttributeMaxDynamicSharedMemorySize may be on `device` for
// a kernel with `facts`: the opt-in limit less its static part (0 if the
// static part alone is over it).
int MaxDynamicSharedLimit(const mcDeviceProp_t& device,
                          const KernelFacts& facts);

// The dynamic shared memory a launch of a kernel with `facts` and
// `settings` may ask for: the value set with
// mcFuncAttributeMaxDynamicSharedMemorySize, else MaxDynamicSharedLimit.
int MaxDynamicSharedBytes(const mcDeviceProp_t& device,
                          const KernelFacts& facts,
                          const KernelSettings& settings);

class KernelSettingsTable {
 public:
  static KernelSettingsTable& Get();

  // The settings of `kernel` (a host stub) on device ordinal `device`.
  KernelSettings Lookup(const void* kernel, int device) const;
  // Applies `change` to the settings of `kernel` on `device`.
  void Update(const void* kernel, int device,
              const std::function<void(KernelSettings&)>& change);
  // Forgets every setting made on `device`.
  // [api.device.reset.restores-defaults]
  void ResetDevice(int device);
  // Forgets every setting of `kernel` on every device: the kernel is gone
  // (a module function when its module is unloaded), and a later kernel
  // at the same address must start from the defaults.
  void Forget(const void* kernel);

 private:
  mutable absl::Mutex mutex_;
  std::map<std::pair<int, const void*>, KernelSettings> settings_
      ABSL_GUARDED_BY(mutex_);
};

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_DEVICES_KERNEL_ATTRIBUTES_H_
