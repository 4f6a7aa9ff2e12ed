// Copyright mxcts authors.
//
// The module table (module_table.h). A module leaves the table before it
// is destroyed, outside the table's lock, so that a lookup never sees a
// module being torn down and unloading an image does not hold the table.
//
// Tested by module_test.cc and conformance/api/compilation.

#include "reference/runtime/modules/module_table.h"

#include <utility>
#include <vector>

#include "absl/strings/str_format.h"
#include "reference/runtime/errors/error_mapping.h"
#include "reference/runtime/errors/status_macros.h"

namespace mxcts::runtime {
namespace {

absl::Status BadModule(const void* handle) {
  return McStatus(mcErrorInvalidResourceHandle,
                  absl::StrFormat("%p is not a loaded module", handle));
}

}  // namespace

ModuleTable& ModuleTable::Get() {
  static ModuleTable* table = new ModuleTable;
  return *table;
}

absl::StatusOr<mcModule_t> ModuleTable::Load(const unsigned char* bytes,
                                             size_t available, int device) {
  MX_ASSIGN_OR_RETURN(
      std::unique_ptr<Module> module,
      Module::Create(bytes, available, device, ModuleLoadingMode()));
  Module* raw = module.get();
  absl::MutexLock lock(&mu_);
  modules_.emplace(raw, std::move(module));
  return reinterpret_cast<mcModule_t>(raw);
}

absl::StatusOr<Module*> ModuleTable::Find(mcModule_t handle) {
  absl::MutexLock lock(&mu_);
  auto it = modules_.find(reinterpret_cast<const Module*>(handle));
  if (it == modules_.end()) return BadModule(handle);
  return it->second.get();
}

absl::StatusOr<mcFunction_t> ModuleTable::GetFunction(mcModule_t handle,
                                                      const std::string& name) {
  MX_ASSIGN_OR_RETURN(Module * module, Find(handle));
  MX_ASSIGN_OR_RETURN(ModuleFunction * function, module->GetFunction(name));
  absl::MutexLock lock(&mu_);
  // Unloaded meanwhile by another thread: the function went with it.
  if (!modules_.contains(module)) return BadModule(handle);
  functions_.try_emplace(function, module);
  return reinterpret_cast<mcFunction_t>(function);
}

absl::StatusOr<ModuleFunction*> ModuleTable::FindFunction(mcFunction_t handle) {
  absl::MutexLock lock(&mu_);
  auto it = functions_.find(reinterpret_cast<const ModuleFunction*>(handle));
  if (it == functions_.end()) {
    return McStatus(mcErrorInvalidResourceHandle,
                    absl::StrFormat("%p is not a function of a loaded module",
                                    static_cast<const void*>(handle)));
  }
  return const_cast<ModuleFunction*>(it->first);
}

absl::Status ModuleTable::Unload(mcModule_t handle) {
  std::unique_ptr<Module> module;
  {
    absl::MutexLock lock(&mu_);
    auto it = modules_.find(reinterpret_cast<const Module*>(handle));
    if (it == modules_.end()) return BadModule(handle);
    module = std::move(it->second);
    modules_.erase(it);
    const Module* raw = module.get();
    absl::erase_if(functions_,
                   [raw](const auto& entry) { return entry.second == raw; });
  }
  return absl::OkStatus();  // `module` unloads here, outside the lock
}

void ModuleTable::UnloadDevice(int device) {
  std::vector<std::unique_ptr<Module>> gone;
  {
    absl::MutexLock lock(&mu_);
    for (auto it = modules_.begin(); it != modules_.end();) {
      if (it->second->device() != device) {
        ++it;
        continue;
      }
      const Module* raw = it->first;
      absl::erase_if(functions_,
                     [raw](const auto& entry) { return entry.second == raw; });
      gone.push_back(std::move(it->second));
      modules_.erase(it++);
    }
  }
}

}  // namespace mxcts::runtime
