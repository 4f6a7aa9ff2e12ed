// Copyright mxcts authors.
//
// reference/runtime/modules/module_table.h: the process's loaded modules
// and the handles programs hold (mcModule_t, mcFunction_t).
//
// A handle is the address of its object (Module, ModuleFunction); the table
// says which addresses are live, so that a null, stale or made-up handle
// is mcErrorInvalidResourceHandle rather than a crash.
// [api.module.unload.invalid-handle]
// [api.module.launch.invalid-function-handle]
//
//   absl::StatusOr<mcModule_t> m = ModuleTable::Get().Load(bytes, size, 0);
//   absl::StatusOr<mcFunction_t> f = ModuleTable::Get().GetFunction(*m, "k");
//   ModuleTable::Get().Unload(*m);
//
// Tested by module_test.cc and conformance/api/compilation.

#ifndef MXCTS_REFERENCE_RUNTIME_MODULES_MODULE_TABLE_H_
#define MXCTS_REFERENCE_RUNTIME_MODULES_MODULE_TABLE_H_

#include <stddef.h>

#include <memory>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "mc_runtime_api.h"
#include "reference/runtime/modules/module.h"

namespace mxcts::runtime {

class ModuleTable {
 public:
  static ModuleTable& Get();

  // Module::Create for `device` with the process's loading mode.
  absl::StatusOr<mcModule_t> Load(const unsigned char* bytes, size_t available,
                                  int device);
  // The live module `handle`, else mcErrorInvalidResourceHandle.
  absl::StatusOr<Module*> Find(mcModule_t handle);
  // Module::GetFunction of live module `handle`, as a handle.
  absl::StatusOr<mcFunction_t> GetFunction(mcModule_t handle,
                                           const std::string& name);
  // The function `handle` of a live module, else
  // mcErrorInvalidResourceHandle.
  absl::StatusOr<ModuleFunction*> FindFunction(mcFunction_t handle);
  // Unloads live module `handle`; mcErrorInvalidResourceHandle otherwise.
  // The caller has waited for the device's work.
  absl::Status Unload(mcModule_t handle);
  // Unloads every module of `device` (mcDeviceReset).
  // [api.module.context.loaded-per-device]
  void UnloadDevice(int device);

 private:
  ModuleTable() = default;

  absl::Mutex mu_;
  absl::flat_hash_map<const Module*, std::unique_ptr<Module>> modules_
      ABSL_GUARDED_BY(mu_);
  // The functions handed out, each with its module.
  absl::flat_hash_map<const ModuleFunction*, const Module*> functions_
      ABSL_GUARDED_BY(mu_);
};

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_MODULES_MODULE_TABLE_H_
