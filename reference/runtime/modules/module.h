// Copyright mxcts authors.
//
// reference/runtime/modules/module.h: one device image loaded at run time
// (mcModuleLoad*), for one device, and its functions.
//
// Creating a module checks its bytes completely before anything runs: the
// module image container (size, hash), the ELF structure of the device
// image inside (reference/module_image/elf_check.h) and its symbol tables.
// The image's copy for the module's device is then loaded through the
// image registry, at once (EAGER) or at the first lookup (LAZY,
// loading_mode.h). Loading also names each kernel and variable record by
// the symbol of its entity: the symbol of .symtab at the record's code or
// data address, less mxcc's device prefix (`__mcdev_`), so that lookups
// take the names programs use (an `extern "C"` kernel's name, another's
// mangled name). A function is registered with the image registry under
// its handle, so every launch path (mcModuleLaunchKernel, mcLaunchKernel,
// graphs) and mcFuncGetAttributes treat it as a kernel.
//
//   absl::StatusOr<std::unique_ptr<Module>> m =
//       Module::Create(bytes, kSizeUnknown, /*device=*/0,
//       ModuleLoading::kLazy);
//   absl::StatusOr<ModuleFunction*> f = (*m)->GetFunction("scale");
//
// Tested by module_test.cc and conformance/api/compilation.

#ifndef MXCTS_REFERENCE_RUNTIME_MODULES_MODULE_H_
#define MXCTS_REFERENCE_RUNTIME_MODULES_MODULE_H_

#include <stddef.h>
#include <stdint.h>

#include <memory>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "mcr/detail/launch_abi.h"
#include "reference/runtime/modules/loading_mode.h"

namespace mxcts::runtime {

class Module;

// A kernel of a module: what mcFunction_t points at.
struct ModuleFunction {
  Module* module = nullptr;
  std::string name;  // the symbol it was first found by
  const __mc_internal::KernelRecord* record = nullptr;
};

// A __device__ or __constant__ variable of a module, in its device's copy.
struct ModuleVariable {
  void* address = nullptr;
  size_t size = 0;
};

class Module {
 public:
  // Checks the module image at `bytes` (`available` readable bytes, or
  // module_image::kSizeUnknown), copies it, and, under EAGER loading,
  // loads it for `device`. mcErrorInvalidKernelImage for bytes that are no
  // valid image; under EAGER, the errors of Load().
  static absl::StatusOr<std::unique_ptr<Module>> Create(
      const unsigned char* bytes, size_t available, int device,
      ModuleLoading loading);
  // Unloads the image's copy (the image registry forgets it).
  ~Module();
  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;

  int device() const { return device_; }

  // The kernel whose symbol is `name`; loads the module first if needed.
  // mcErrorSymbolNotFound if there is none; the errors of Load().
  absl::StatusOr<ModuleFunction*> GetFunction(const std::string& name);
  // The variable whose symbol (or registry key, "ns::x") is `name`.
  absl::StatusOr<ModuleVariable> GetGlobal(const std::string& name);
  // Every function handed out so far.
  std::vector<const ModuleFunction*> functions() const;

 private:
  Module() = default;
  // Loads the copy for device_ once and indexes its records by symbol.
  // mcErrorInvalidKernelImage for an image that does not load or a record
  // whose entity has no symbol; mcErrorNoKernelImageForDevice for another
  // architecture. A failure is remembered and returned again.
  absl::Status Load() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  int device_ = 0;
  std::unique_ptr<unsigned char[]> payload_;
  __mc_internal::ImageBlob blob_{nullptr, 0};
  // .symtab's defined symbols by link-time address.
  absl::flat_hash_map<uint64_t, std::vector<std::string>> symbols_by_address_;

  mutable absl::Mutex mu_;
  bool loaded_ ABSL_GUARDED_BY(mu_) = false;
  absl::Status load_error_ ABSL_GUARDED_BY(mu_);
  // Kernels by every symbol of their code; one object per record.
  absl::flat_hash_map<std::string, ModuleFunction*> functions_by_name_
      ABSL_GUARDED_BY(mu_);
  std::vector<std::unique_ptr<ModuleFunction>> functions_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<std::string, ModuleVariable> variables_
      ABSL_GUARDED_BY(mu_);
};

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_MODULES_MODULE_H_
