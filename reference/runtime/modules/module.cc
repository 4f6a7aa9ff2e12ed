// Copyright mxcts authors.
//
// Modules (module.h). Creation checks, in order: the container
// (module_image::Open: magic, version, flags, size, hash), the device
// image's ELF structure (module_image::CheckSharedObject) and its symbol
// tables, each failure being mcErrorInvalidKernelImage with the reason.
// Only then may the dynamic loader see the bytes, in Load(), through the
// image registry (which reads the records from .dynsym and binds the copy
// to the engine).
//
// Symbols: device code's symbols carry mxcc's prefix `__mcdev_` (design.md,
// stage 7); a record's `function` (a kernel's code) and `address` (a
// variable's storage), less the copy's load bias, are link-time addresses
// that .symtab names. Several symbols may share an address (aliases); each
// finds the entity.
//
// Tested by module_test.cc and conformance/api/compilation.

#include "reference/runtime/modules/module.h"

#include <elf.h>

#include <cstring>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "reference/module_image/elf_check.h"
#include "reference/module_image/module_image.h"
#include "reference/runtime/devices/kernel_attributes.h"
#include "reference/runtime/errors/error_mapping.h"
#include "reference/runtime/errors/status_macros.h"
#include "reference/runtime/images/elf_dynsym.h"
#include "reference/runtime/images/image_registry.h"

namespace mxcts::runtime {
namespace {

constexpr absl::string_view kDevicePrefix = "__mcdev_";

absl::Status InvalidImage(const absl::Status& why) {
  return McStatus(mcErrorInvalidKernelImage,
                  absl::StrCat("mcModuleLoad: ", why.message()));
}

}  // namespace

absl::StatusOr<std::unique_ptr<Module>> Module::Create(
    const unsigned char* bytes, size_t available, int device,
    ModuleLoading loading) {
  // [api.module.load-data.invalid-image] [api.module.image.checked-before-use]
  absl::StatusOr<module_image::Payload> payload =
      module_image::Open(bytes, available);
  if (!payload.ok()) return InvalidImage(payload.status());
  if (absl::Status s =
          module_image::CheckSharedObject(payload->data, payload->size);
      !s.ok()) {
    return InvalidImage(s);
  }
  absl::StatusOr<std::vector<module_image::ElfSymbol>> symbols =
      module_image::ReadSymbols(payload->data, payload->size,
                                module_image::SymbolTable::kStatic);
  if (!symbols.ok()) return InvalidImage(symbols.status());
  absl::StatusOr<std::vector<std::string>> exported =
      ReadDefinedDynamicSymbols(payload->data, payload->size);
  if (!exported.ok()) return InvalidImage(exported.status());

  std::unique_ptr<Module> module(new Module);
  module->device_ = device;
  module->payload_.reset(new unsigned char[payload->size]);
  std::memcpy(module->payload_.get(), payload->data, payload->size);
  module->blob_ = {module->payload_.get(), payload->size};
  for (module_image::ElfSymbol& symbol : *symbols) {
    if (!absl::StartsWith(symbol.name, kDevicePrefix)) continue;
    if (symbol.type != STT_FUNC && symbol.type != STT_OBJECT) continue;
    module->symbols_by_address_[symbol.value].push_back(
        symbol.name.substr(kDevicePrefix.size()));
  }
  // [api.module.loading.lazy-and-eager]
  if (loading == ModuleLoading::kEager) {
    absl::MutexLock lock(&module->mu_);
    MX_RETURN_IF_ERROR(module->Load());
  }
  return module;
}

Module::~Module() {
  // mcFuncSetAttribute settings of its functions go with them.
  {
    absl::MutexLock lock(&mu_);
    for (const auto& function : functions_) {
      KernelSettingsTable::Get().Forget(function.get());
    }
  }
  if (blob_.bytes != nullptr) ImageRegistry::Get().ForgetImage(&blob_);
}

absl::Status Module::Load() {
  if (loaded_) return load_error_;
  loaded_ = true;
  absl::StatusOr<ImageRegistry::ImageContents> contents =
      ImageRegistry::Get().LoadImage(&blob_, device_);
  if (!contents.ok()) {
    load_error_ = contents.status();
    return load_error_;
  }
  auto names_at = [&](const void* address) -> const std::vector<std::string>* {
    const uint64_t link_address =
        reinterpret_cast<uintptr_t>(address) - contents->load_bias;
    auto it = symbols_by_address_.find(link_address);
    return it == symbols_by_address_.end() ? nullptr : &it->second;
  };
  for (const __mc_internal::KernelRecord* record : contents->kernels) {
    const std::vector<std::string>* names =
        record->function != nullptr ? names_at(record->function) : nullptr;
    if (names == nullptr) {
      load_error_ = McStatus(
          mcErrorInvalidKernelImage,
          absl::StrCat("mcModuleLoad: the code of kernel ",
                       KernelDisplayName(record->key), " has no symbol"));
      return load_error_;
    }
    auto function = std::make_unique<ModuleFunction>();
    function->module = this;
    function->name = names->front();
    function->record = record;
    // [api.module.function.handle-is-a-kernel]
    ImageRegistry::Get().RegisterKernel(&blob_, function.get(), record->key);
    for (const std::string& name : *names) {
      functions_by_name_.try_emplace(name, function.get());
    }
    functions_.push_back(std::move(function));
  }
  for (const __mc_internal::DeviceVariableRecord* record :
       contents->variables) {
    ModuleVariable variable{record->address, record->size};
    variables_.try_emplace(VariableDisplayName(record->key), variable);
    if (const std::vector<std::string>* names = names_at(record->address)) {
      for (const std::string& name : *names) {
        variables_.insert_or_assign(name, variable);
      }
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<ModuleFunction*> Module::GetFunction(const std::string& name) {
  absl::MutexLock lock(&mu_);
  // [api.module.loading.lazy-errors-at-first-use]
  MX_RETURN_IF_ERROR(Load());
  auto it = functions_by_name_.find(name);
  if (it ==
      functions_by_name_.end()) {  // [api.module.get-function.unknown-name]
    return McStatus(mcErrorSymbolNotFound,
                    absl::StrCat("mcModuleGetFunction: the module has no "
                                 "kernel named '",
                                 name, "'"));
  }
  return it->second;
}

absl::StatusOr<ModuleVariable> Module::GetGlobal(const std::string& name) {
  absl::MutexLock lock(&mu_);
  MX_RETURN_IF_ERROR(Load());
  auto it = variables_.find(name);
  if (it == variables_.end()) {  // [api.module.get-global.unknown-name]
    return McStatus(mcErrorSymbolNotFound,
                    absl::StrCat("mcModuleGetGlobal: the module has no "
                                 "__device__ or __constant__ variable named '",
                                 name, "'"));
  }
  return it->second;
}

std::vector<const ModuleFunction*> Module::functions() const {
  absl::MutexLock lock(&mu_);
  std::vector<const ModuleFunction*> all;
  for (const auto& function : functions_) all.push_back(function.get());
  return all;
}

}  // namespace mxcts::runtime
