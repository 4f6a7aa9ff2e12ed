// Copyright mxcts authors.
//
// The image registry. Registration only records keys; all work happens on
// first use of an image on a device, under the registry's mutex:
//   1. the image's .dynsym is read once (names of kernel and variable
//      records);
//   2. a fresh copy of the image is loaded and bound to the engine;
//   3. each record is resolved with dlsym and indexed by its key;
//   4. the copy's __device__/__constant__ variables are registered with the
//      memory manager as device memory of the device, and their initial
//      bytes saved; its __managed__ variables are paired with the home
//      copy's (loaded first if needed), where the program's managed
//      variables live.
// Copies are never unloaded: records, kernels and variable addresses stay
// valid for the life of the process, and a reset only restores values. A
// load failure is remembered for the image, so later uses report the same
// error without retrying.
//
// Tested by image_registry_test.cc.

#include "reference/runtime/images/image_registry.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <functional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "reference/device/engine.h"
#include "reference/runtime/devices/device_table.h"
#include "reference/runtime/errors/error_mapping.h"
#include "reference/runtime/errors/status_macros.h"
#include "reference/runtime/images/elf_dynsym.h"
#include "reference/runtime/images/elf_layout.h"
#include "reference/runtime/memory/memory_manager.h"

namespace mxcts::runtime {

using __mc_internal::DeviceVariableRecord;
using __mc_internal::ImageBlob;
using __mc_internal::KernelRecord;

// One loaded copy of an image.
class ImageInstance {
 public:
  struct Variable {
    const DeviceVariableRecord* record;
    std::vector<unsigned char> initial;  // empty for managed variables
  };
  // A managed variable of a device copy and its home.
  struct Mirror {
    unsigned char* here;
    unsigned char* home;
    size_t size;
    std::vector<unsigned char> at_grid_start;
  };

  std::unique_ptr<LoadedImage> loaded;
  absl::flat_hash_map<std::string, const KernelRecord*> kernels;
  absl::flat_hash_map<std::string, Variable> variables;
  std::vector<Mirror> mirrors;
  // The architectures the image was built for (major * 100 + minor * 10);
  // empty: any. [api.compile.mxcc.offload-arch]
  std::vector<int> archs;
  // The whole pages of the copy's __constant__ section, if the image has
  // one laid out on pages of its own; read-only while `constants_locked`.
  uintptr_t constant_pages_begin = 0;
  uintptr_t constant_pages_end = 0;
  bool constants_locked = false;
};

struct ImageRegistry::Image {
  const ImageBlob* blob = nullptr;
  bool symbols_read = false;
  std::vector<std::string> kernel_symbols;
  std::vector<std::string> variable_symbols;
  absl::Status load_error;  // the first failure, if loading failed
  std::map<int, std::unique_ptr<ImageInstance>> instances;  // -1: home
};

namespace {

constexpr int kHome = -1;

// What an image built with --offload-arch exports (mxcc's embed.h).
constexpr char kArchitecturesSymbol[] = "__mcdev___mc_image_archs";

// mcErrorNoKernelImageForDevice unless `instance` was built for the
// architecture of device `device` or for any. `what` names the entity in
// the error; it is formatted only then, as launches check every time.
// [api.compile.mxcc.offload-arch]
absl::Status CheckArchitecture(const ImageInstance& instance, int device,
                               const std::function<std::string()>& what) {
  if (instance.archs.empty() || device == kHome) return absl::OkStatus();
  absl::StatusOr<Device*> target = DeviceTable::Get().DeviceAt(device);
  if (!target.ok()) return target.status();
  const mcDeviceProp_t& p = (*target)->properties();
  const int arch = p.major * 100 + p.minor * 10;
  for (int built : instance.archs) {
    if (built == arch) return absl::OkStatus();
  }
  return McStatus(
      mcErrorNoKernelImageForDevice,
      absl::StrFormat("the device image of %s was built for %s, and device %d "
                      "is %d.%d (architecture %d)",
                      what(), absl::StrJoin(instance.archs, ", "), device,
                      p.major, p.minor, arch));
}

bool IsManaged(const DeviceVariableRecord& record) {
  return (record.flags & __mc_internal::kVariableManaged) != 0;
}

bool IsConstant(const DeviceVariableRecord& record) {
  return (record.flags & __mc_internal::kVariableConstant) != 0;
}

// The pages of the image copy's `__mc_constant` section that hold nothing
// else: the section rounded inwards to pages (the device link aligns both
// ends, so that is all of it).
void FindConstantPages(const ImageBlob& blob, const LoadedImage& loaded,
                       ImageInstance* instance) {
  absl::StatusOr<std::optional<ElfRange>> section =
      FindSection(blob.bytes, blob.size, kConstantSectionName);
  if (!section.ok() || !section->has_value()) return;
  const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  const uintptr_t start =
      loaded.load_bias() + static_cast<uintptr_t>((*section)->address);
  const uintptr_t end = start + static_cast<uintptr_t>((*section)->size);
  const uintptr_t pages_begin = (start + page - 1) / page * page;
  const uintptr_t pages_end = end / page * page;
  if (pages_begin < pages_end) {
    instance->constant_pages_begin = pages_begin;
    instance->constant_pages_end = pages_end;
  }
}

// [lang.ub.memory.constant-write] Read-only while device code runs.
void LockConstants(ImageInstance& instance, bool locked) {
  if (instance.constant_pages_begin == instance.constant_pages_end) return;
  if (instance.constants_locked == locked) return;
  mprotect(reinterpret_cast<void*>(instance.constant_pages_begin),
           instance.constant_pages_end - instance.constant_pages_begin,
           locked ? PROT_READ : PROT_READ | PROT_WRITE);
  instance.constants_locked = locked;
}

}  // namespace

ImageRegistry& ImageRegistry::Get() {
  static ImageRegistry* registry = new ImageRegistry;
  return *registry;
}

ImageRegistry::Image& ImageRegistry::ImageFor(const ImageBlob* blob) {
  std::unique_ptr<Image>& image = images_[blob];
  if (image == nullptr) {
    image = std::make_unique<Image>();
    image->blob = blob;
  }
  return *image;
}

void ImageRegistry::RegisterKernel(const ImageBlob* image, const void* stub,
                                   const char* key) {
  absl::MutexLock lock(&mu_);
  kernels_.try_emplace(
      stub, Entity{&ImageFor(image), key, 0, 0, KernelDisplayName(key)});
}

void ImageRegistry::RegisterDeviceVariable(const ImageBlob* image,
                                           const void* shadow, const char* key,
                                           size_t size, unsigned flags) {
  absl::MutexLock lock(&mu_);
  variables_.try_emplace(shadow,
                         Entity{&ImageFor(image), key, size, flags, {}});
}

void ImageRegistry::RegisterKernelRecord(const void* stub,
                                         const KernelRecord* record) {
  absl::MutexLock lock(&mu_);
  hand_written_[stub] = record;
}

absl::StatusOr<void*> ImageRegistry::RegisterManagedVariable(
    const ImageBlob* blob, const char* key, size_t size) {
  absl::MutexLock lock(&mu_);
  Image& image = ImageFor(blob);
  MX_ASSIGN_OR_RETURN(ImageInstance * home, InstanceFor(image, kHome));
  auto it = home->variables.find(key);
  if (it == home->variables.end() || !IsManaged(*it->second.record)) {
    return McStatus(mcErrorInvalidKernelImage,
                    absl::StrCat("the device image has no managed variable '",
                                 VariableDisplayName(key), "'"));
  }
  const DeviceVariableRecord& record = *it->second.record;
  if (record.size != size) {
    return McStatus(
        mcErrorInvalidKernelImage,
        absl::StrFormat("managed variable '%s' has %u bytes on "
                        "the device and %u on the host",
                        VariableDisplayName(key), record.size, size));
  }
  managed_.try_emplace(record.address,
                       Entity{&image, key, size, record.flags, {}});
  return record.address;
}

absl::StatusOr<ImageInstance*> ImageRegistry::InstanceFor(Image& image,
                                                          int device) {
  auto it = image.instances.find(device);
  if (it != image.instances.end()) return it->second.get();
  if (!image.load_error.ok()) return image.load_error;
  absl::StatusOr<std::unique_ptr<ImageInstance>> loaded = Load(image, device);
  if (!loaded.ok()) {
    image.load_error = loaded.status();
    return loaded.status();
  }
  ImageInstance* instance = loaded->get();
  image.instances[device] = std::move(*loaded);
  return instance;
}

absl::StatusOr<std::unique_ptr<ImageInstance>> ImageRegistry::Load(Image& image,
                                                                   int device) {
  if (!image.symbols_read) {
    MX_ASSIGN_OR_RETURN(
        std::vector<std::string> names,
        ReadDefinedDynamicSymbols(image.blob->bytes, image.blob->size));
    for (std::string& name : names) {
      if (IsKernelRecordSymbol(name)) {
        image.kernel_symbols.push_back(std::move(name));
      } else if (IsVariableRecordSymbol(name)) {
        image.variable_symbols.push_back(std::move(name));
      }
    }
    image.symbols_read = true;
  }
  auto instance = std::make_unique<ImageInstance>();
  MX_ASSIGN_OR_RETURN(
      instance->loaded,
      LoadedImage::Load(image.blob->bytes, image.blob->size,
                        table_override_ != nullptr
                            ? table_override_
                            : mxcts::device::ImageRuntimeTable()));
  FindConstantPages(*image.blob, *instance->loaded, instance.get());
  if (const auto* archs = static_cast<const unsigned*>(
          instance->loaded->Symbol(kArchitecturesSymbol))) {
    instance->archs.assign(archs + 1, archs + 1 + archs[0]);
  }
  for (const std::string& name : image.kernel_symbols) {
    auto* record = static_cast<const KernelRecord*>(
        instance->loaded->Symbol(name.c_str()));
    if (record == nullptr || record->key == nullptr ||
        record->entry == nullptr) {
      return McStatus(mcErrorInvalidKernelImage,
                      absl::StrCat("device image: bad kernel record ", name));
    }
    instance->kernels.try_emplace(record->key, record);
    // [api.devrt.launch.parameter-buffer-api] Device code names kernels by
    // their address in its own copy of the image.
    if (record->function != nullptr) {
      device_functions_.try_emplace(
          record->function,
          KernelHandle{record, KernelDisplayName(record->key), instance.get()});
    }
  }
  for (const std::string& name : image.variable_symbols) {
    auto* record = static_cast<const DeviceVariableRecord*>(
        instance->loaded->Symbol(name.c_str()));
    if (record == nullptr || record->key == nullptr ||
        record->address == nullptr || record->size == 0) {
      return McStatus(mcErrorInvalidKernelImage,
                      absl::StrCat("device image: bad variable record ", name));
    }
    ImageInstance::Variable variable{record, {}};
    if (!IsManaged(*record)) {
      const auto* bytes = static_cast<const unsigned char*>(record->address);
      variable.initial.assign(bytes, bytes + record->size);
    }
    instance->variables.try_emplace(record->key, std::move(variable));
  }
  // Pair managed variables with their home, or register the home's.
  for (auto& [key, variable] : instance->variables) {
    const DeviceVariableRecord& record = *variable.record;
    if (device == kHome) {
      if (IsManaged(record)) {
        MX_RETURN_IF_ERROR(MemoryManager::Get().RegisterRange(
            record.address, record.size, MemoryKind::kManagedVariable, -1));
      }
      continue;
    }
    if (!IsManaged(record)) {
      MX_RETURN_IF_ERROR(MemoryManager::Get().RegisterRange(
          record.address, record.size, MemoryKind::kDeviceVariable, device));
      continue;
    }
    MX_ASSIGN_OR_RETURN(ImageInstance * home, InstanceFor(image, kHome));
    const DeviceVariableRecord& at_home = *home->variables.at(key).record;
    instance->mirrors.push_back({static_cast<unsigned char*>(record.address),
                                 static_cast<unsigned char*>(at_home.address),
                                 record.size,
                                 {}});
  }
  return instance;
}

absl::StatusOr<KernelHandle> ImageRegistry::ResolveKernel(const void* stub,
                                                          int device) {
  absl::MutexLock lock(&mu_);
  if (auto it = hand_written_.find(stub); it != hand_written_.end()) {
    return KernelHandle{it->second, KernelDisplayName(it->second->key),
                        nullptr};
  }
  auto it = kernels_.find(stub);
  if (it ==
      kernels_
          .end()) {  // [api.device.func.non-kernel-is-invalid-device-function]
    return McStatus(
        mcErrorInvalidDeviceFunction,
        absl::StrFormat("%p is not a kernel of this program", stub));
  }
  const Entity& kernel = it->second;
  MX_ASSIGN_OR_RETURN(ImageInstance * instance,
                      InstanceFor(*kernel.image, device));
  MX_RETURN_IF_ERROR(CheckArchitecture(*instance, device, [&kernel] {
    return "kernel " + kernel.display_name;
  }));
  auto record = instance->kernels.find(kernel.key);
  if (record ==
      instance->kernels.end()) {  // [lang.launch.limit.no-image-for-device]
    return McStatus(mcErrorNoKernelImageForDevice,
                    absl::StrCat("the device image has no code for kernel ",
                                 kernel.display_name));
  }
  return KernelHandle{record->second, kernel.display_name, instance};
}

absl::StatusOr<KernelHandle> ImageRegistry::ResolveDeviceFunction(
    const void* function) {
  absl::MutexLock lock(&mu_);
  auto it = device_functions_.find(function);
  if (it == device_functions_.end()) {
    return McStatus(mcErrorInvalidDeviceFunction,
                    absl::StrFormat("%p is not a kernel of the device code of "
                                    "this program",
                                    function));
  }
  return it->second;
}

absl::StatusOr<VariableHandle> ImageRegistry::ResolveVariable(
    const void* symbol, int device) {
  absl::MutexLock lock(&mu_);
  if (auto it = managed_.find(symbol); it != managed_.end()) {
    return VariableHandle{const_cast<void*>(symbol), it->second.size,
                          it->second.flags};
  }
  auto it = variables_.find(symbol);
  if (it == variables_.end()) {
    return McStatus(mcErrorInvalidSymbol,
                    absl::StrFormat("%p is not a __device__, __constant__ or "
                                    "__managed__ variable",
                                    symbol));
  }
  const Entity& shadow = it->second;
  MX_ASSIGN_OR_RETURN(ImageInstance * instance,
                      InstanceFor(*shadow.image, device));
  MX_RETURN_IF_ERROR(CheckArchitecture(*instance, device, [&shadow] {
    return "variable '" + VariableDisplayName(shadow.key) + "'";
  }));
  auto variable = instance->variables.find(shadow.key);
  if (variable == instance->variables.end()) {
    return McStatus(mcErrorInvalidSymbol,
                    absl::StrCat("the device image has no variable '",
                                 VariableDisplayName(shadow.key), "'"));
  }
  const DeviceVariableRecord& record = *variable->second.record;
  return VariableHandle{record.address, record.size, record.flags};
}

void ImageRegistry::BeginGrid(const KernelHandle& kernel) {
  if (kernel.instance == nullptr) return;
  absl::MutexLock lock(&mu_);
  for (ImageInstance::Mirror& mirror : kernel.instance->mirrors) {
    std::memcpy(mirror.here, mirror.home, mirror.size);
    mirror.at_grid_start.assign(mirror.home, mirror.home + mirror.size);
  }
  LockConstants(*kernel.instance, true);
}

void ImageRegistry::EndGrid(const KernelHandle& kernel) {
  if (kernel.instance == nullptr) return;
  absl::MutexLock lock(&mu_);
  LockConstants(*kernel.instance, false);
  for (ImageInstance::Mirror& mirror : kernel.instance->mirrors) {
    // Only the bytes the grid wrote: the host's pointer to the variable
    // reaches the home, and writes made through it must survive.
    for (size_t i = 0; i < mirror.size; ++i) {
      if (mirror.here[i] != mirror.at_grid_start[i]) {
        mirror.home[i] = mirror.here[i];
      }
    }
  }
}

std::optional<std::string> ImageRegistry::DescribeConstantFault(
    uintptr_t address) {
  absl::MutexLock lock(&mu_);
  for (const auto& [blob, image] : images_) {
    for (const auto& [device, instance] : image->instances) {
      if (!instance->constants_locked ||
          address < instance->constant_pages_begin ||
          address >= instance->constant_pages_end) {
        continue;
      }
      // [lang.ub.memory.constant-write]
      for (const auto& [key, variable] : instance->variables) {
        const DeviceVariableRecord& record = *variable.record;
        const uintptr_t start = reinterpret_cast<uintptr_t>(record.address);
        if (IsConstant(record) && address >= start &&
            address < start + record.size) {
          return absl::StrFormat(
              "write to __constant__ variable '%s' at 0x%x (byte %u of %u)",
              VariableDisplayName(key), address, address - start, record.size);
        }
      }
      return absl::StrFormat("write to __constant__ memory at 0x%x", address);
    }
  }
  return std::nullopt;
}

absl::StatusOr<ImageRegistry::ImageContents> ImageRegistry::LoadImage(
    const ImageBlob* blob, int device) {
  absl::MutexLock lock(&mu_);
  MX_ASSIGN_OR_RETURN(ImageInstance * instance,
                      InstanceFor(ImageFor(blob), device));
  // [api.module.load-data.wrong-architecture]
  MX_RETURN_IF_ERROR(CheckArchitecture(
      *instance, device, [] { return std::string("the module"); }));
  ImageContents contents;
  for (const auto& [key, record] : instance->kernels) {
    contents.kernels.push_back(record);
  }
  for (const auto& [key, variable] : instance->variables) {
    contents.variables.push_back(variable.record);
  }
  contents.load_bias = instance->loaded->load_bias();
  return contents;
}

void ImageRegistry::ForgetImage(const ImageBlob* blob) {
  std::unique_ptr<Image> image;
  absl::MutexLock lock(&mu_);
  auto found = images_.find(blob);
  if (found == images_.end()) return;
  const Image* raw = found->second.get();
  auto forget = [raw](absl::flat_hash_map<const void*, Entity>& entities) {
    absl::erase_if(entities, [raw](const auto& entry) {
      return entry.second.image == raw;
    });
  };
  forget(kernels_);
  forget(variables_);
  forget(managed_);
  for (const auto& [device, instance] : raw->instances) {
    const ImageInstance* copy = instance.get();
    absl::erase_if(device_functions_, [copy](const auto& entry) {
      return entry.second.instance == copy;
    });
    for (const auto& [key, variable] : instance->variables) {
      if (device != kHome && IsManaged(*variable.record)) continue;
      MemoryManager::Get().UnregisterRange(variable.record->address);
    }
  }
  // The copies unload (LoadedImage's destructor) when `image` goes.
  image = std::move(found->second);
  images_.erase(found);
}

void ImageRegistry::SetRuntimeTable(const __mc_image_runtime* table) {
  absl::MutexLock lock(&mu_);
  table_override_ = table;
}

void ImageRegistry::ResetDevice(int device) {
  absl::MutexLock lock(&mu_);
  for (auto& [blob, image] : images_) {
    auto it = image->instances.find(device);
    if (it == image->instances.end()) continue;
    for (auto& [key, variable] : it->second->variables) {
      if (variable.initial.empty()) continue;  // managed: lives on
      std::memcpy(variable.record->address, variable.initial.data(),
                  variable.initial.size());
    }
  }
}

}  // namespace mxcts::runtime
