// Copyright mxcts authors.
//
// reference/runtime/images/image_registry.h: the map from host entities (kernel
// stubs, variable shadows) to device entities (kernel and variable records
// in loaded device images).
//
// During static initialization every kernel stub and variable shadow of a
// program registers itself under a key, together with the device image of
// its source (mcr/detail/launch_abi.h). Nothing is loaded then, except for
// images with __managed__ variables, whose host references need an address
// at once. The first time a kernel or variable of an image is used on a
// device, the image is loaded for that device (loaded_image.h): its
// exported records are found in its .dynsym (elf_dynsym.h) and indexed by
// key. Each device has its own copy of each image, hence its own instance
// of every __device__ and __constant__ variable; the initial bytes of each
// are kept so that mcDeviceReset can restore them
// [lang.variable.device.reset-restores-initializer].
//
// __managed__ variables exist once per process: they live in a separate
// "home" copy of the image, which kernels never run in. Before a grid runs
// in a device's copy, the home values are copied into that copy's managed
// variables; afterwards the bytes the grid changed are copied back. Grids
// run one at a time, so host and device see one variable
// [lang.variable.managed.host-and-device-access].
//
// __constant__ variables are read-only for device code
// [lang.ub.memory.constant-write]: the device link puts them on whole pages
// of their own (the `__mc_constant` section), and while a grid runs in a
// copy of an image those pages are read-only, so that a write from device
// code faults and DescribeConstantFault can name the variable. Between
// grids the pages are writable again for mcMemcpyToSymbol and reset.
//
//   ImageRegistry& r = ImageRegistry::Get();
//   r.RegisterKernel(&__mc_image_0123, stub, key);      // static init
//   absl::StatusOr<KernelHandle> k = r.ResolveKernel(stub, /*device=*/0);
//   r.BeginGrid(*k);  ... run k->record->entry ...  r.EndGrid(*k);

#ifndef MXCTS_REFERENCE_RUNTIME_IMAGES_IMAGE_REGISTRY_H_
#define MXCTS_REFERENCE_RUNTIME_IMAGES_IMAGE_REGISTRY_H_

#include <stddef.h>
#include <stdint.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "mcr/detail/launch_abi.h"
#include "reference/runtime/devices/kernel_attributes.h"
#include "reference/runtime/images/loaded_image.h"

namespace mxcts::runtime {

class ImageInstance;

// What a launch needs of a kernel on one device.
struct KernelHandle {
  const __mc_internal::KernelRecord* record = nullptr;
  std::string name;                   // for diagnostics: "ns::Scale<float>"
  ImageInstance* instance = nullptr;  // null for a hand-registered record

  // What the record says of the kernel's needs.
  KernelFacts facts() const {
    KernelFacts facts;
    facts.max_threads_per_block = record->max_threads_per_block;
    facts.static_shared_bytes = record->static_shared_bytes;
    return facts;
  }
};

// What a symbol call needs of a variable on one device.
struct VariableHandle {
  void* address = nullptr;  // the instance the current device uses
  size_t size = 0;
  unsigned flags = 0;  // __mc_internal::kVariableConstant / kVariableManaged
};

class ImageRegistry {
 public:
  static ImageRegistry& Get();

  // --- Registration (static initialization, through launch_abi.cc). ---
  // The first registration of a stub or shadow wins; later ones (the same
  // inline entity in another source) are ignored.
  void RegisterKernel(const __mc_internal::ImageBlob* image, const void* stub,
                      const char* key);
  void RegisterDeviceVariable(const __mc_internal::ImageBlob* image,
                              const void* shadow, const char* key, size_t size,
                              unsigned flags);
  // Loads the home copy of `image` if needed and returns the address of its
  // managed variable `key`, registered as managed memory.
  absl::StatusOr<void*> RegisterManagedVariable(
      const __mc_internal::ImageBlob* image, const char* key, size_t size);
  // Maps `stub` to `record` directly, on every device, without an image
  // (tests write such records by hand).
  void RegisterKernelRecord(const void* stub,
                            const __mc_internal::KernelRecord* record);

  // --- Lookup. ---
  // The kernel whose host stub is `stub`, on `device`, loading its image
  // for the device if needed. mcErrorInvalidDeviceFunction if `stub` is no
  // kernel; mcErrorNoKernelImageForDevice if its image lacks the record;
  // the load's error if the image does not load.
  absl::StatusOr<KernelHandle> ResolveKernel(const void* stub, int device);
  // The kernel whose address in device code, in the copy of its image
  // loaded for some device, is `function` (dynamic parallelism: device code
  // names kernels so). mcErrorInvalidDeviceFunction if there is none.
  absl::StatusOr<KernelHandle> ResolveDeviceFunction(const void* function);
  // The variable whose host shadow (or, for a managed variable, whose
  // address) is `symbol`, as `device` sees it. mcErrorInvalidSymbol if
  // `symbol` names no device variable.
  // [api.memory.symbol.not-a-symbol]
  absl::StatusOr<VariableHandle> ResolveVariable(const void* symbol,
                                                 int device);

  // --- Execution and reset. ---
  // Mirror the managed variables of `kernel`'s image into and out of the
  // copy the grid runs in, and make the copy's __constant__ pages read-only
  // (BeginGrid) and writable again (EndGrid). No-ops for a hand-registered
  // record.
  void BeginGrid(const KernelHandle& kernel);
  void EndGrid(const KernelHandle& kernel);

  // For a trap diagnostic: if `address` lies on the read-only __constant__
  // pages of an image copy a grid runs in, what was written: "write to
  // __constant__ variable 'ns::table' at 0x..." (or "to __constant__
  // memory" between variables). Nullopt otherwise. Takes the registry's
  // lock; safe on a thread that does not hold it.
  std::optional<std::string> DescribeConstantFault(uintptr_t address);
  // Restores every __device__ and __constant__ variable of `device` to its
  // initial value. [api.device.reset.restores-defaults]
  void ResetDevice(int device);

  // --- Images loaded at run time (reference/runtime/modules). ---
  // The records of `image`'s copy for `device`, loaded if needed, and where
  // the copy lies (its load bias: what to add to a link-time address).
  struct ImageContents {
    std::vector<const __mc_internal::KernelRecord*> kernels;
    std::vector<const __mc_internal::DeviceVariableRecord*> variables;
    uintptr_t load_bias = 0;
  };
  // Errors: the load's (mcErrorInvalidKernelImage for an image that does
  // not load or has a bad record), mcErrorNoKernelImageForDevice for an
  // image built for another architecture than `device`'s.
  absl::StatusOr<ImageContents> LoadImage(const __mc_internal::ImageBlob* image,
                                          int device);
  // Forgets `image`: the kernels registered with it (RegisterKernel), the
  // device functions and variables of its copies, and the copies
  // themselves, which are unloaded. The caller makes sure no grid of the
  // image runs or waits to run.
  void ForgetImage(const __mc_internal::ImageBlob* image);

  // Images loaded later are bound to `table` instead of the engine's
  // (null: the engine's again). For tests of loading without an engine.
  void SetRuntimeTable(const __mc_image_runtime* table);

 private:
  struct Image;
  struct Entity {
    Image* image;
    std::string key;
    size_t size;
    unsigned flags;
    // A kernel's name as diagnostics show it (KernelDisplayName of `key`),
    // made once at registration rather than on every launch.
    std::string display_name;
  };

  ImageRegistry() = default;
  Image& ImageFor(const __mc_internal::ImageBlob* blob)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // The copy of `image` for `device` (-1: the home copy), loaded if needed.
  absl::StatusOr<ImageInstance*> InstanceFor(Image& image, int device)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  absl::StatusOr<std::unique_ptr<ImageInstance>> Load(Image& image, int device)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  absl::Mutex mu_;
  absl::flat_hash_map<const __mc_internal::ImageBlob*, std::unique_ptr<Image>>
      images_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<const void*, Entity> kernels_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<const void*, Entity> variables_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<const void*, Entity> managed_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<const void*, const __mc_internal::KernelRecord*>
      hand_written_ ABSL_GUARDED_BY(mu_);
  // Kernels by their address in a loaded copy of their image.
  absl::flat_hash_map<const void*, KernelHandle> device_functions_
      ABSL_GUARDED_BY(mu_);
  const __mc_image_runtime* table_override_ ABSL_GUARDED_BY(mu_) = nullptr;
};

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_IMAGES_IMAGE_REGISTRY_H_
