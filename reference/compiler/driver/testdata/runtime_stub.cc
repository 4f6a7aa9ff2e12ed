// Copyright mxcts authors.
//
// A test double of libmcruntime.so for the driver's pipeline tests: just
// enough runtime to run the programs those tests compile, so that they
// check what the driver produces (the embedded image, its records, the
// registrations) without depending on the state of the real runtime.
//
// It loads a device image as the real runtime does (memfd_create, dlopen,
// __mc_image_bind, records found by name in the image's .dynsym) and runs a
// launch by calling the kernel's entry once per thread, in linear order,
// with the built-in variables set. Device memory is host memory. No
// barriers, shared memory, streams or error state: a program that needs
// them belongs to the runtime's own tests.

#include <dlfcn.h>
#include <elf.h>
#include <stdarg.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>

#include "mcr/detail/launch_abi.h"
#include "mcr/mc_runtime_api.h"
#include "reference/device/image/image_abi.h"

namespace {

struct Registration {
  const __mc_internal::ImageBlob* image;
  std::string key;
};

struct PendingLaunch {
  bool present = false;
  dim3 grid;
  dim3 block;
};

thread_local PendingLaunch pending;
__mc_thread_context context;

std::map<const void*, Registration>& Kernels() {
  static auto* kernels = new std::map<const void*, Registration>;
  return *kernels;
}

std::map<const __mc_internal::ImageBlob*, void*>& LoadedImages() {
  static auto* images = new std::map<const __mc_internal::ImageBlob*, void*>;
  return *images;
}

[[noreturn]] void Die(const char* what, const std::string& detail) {
  std::fprintf(stderr, "runtime stub: %s%s\n", what, detail.c_str());
  std::abort();
}

int DevicePrintf(const char* format, va_list args) {
  return std::vprintf(format, args);
}
void Syncthreads(const char*, int) { Die("no barriers in the stub", ""); }
void* SharedVariable(const void*, size_t, size_t, const char*) {
  Die("no shared memory in the stub", "");
}
void* DynamicShared() { Die("no shared memory in the stub", ""); }
void AssertFail(const char* expression, const char* file, unsigned line,
                const char*) {
  Die("device assert failed: ",
      std::string(expression) + " at " + file + ":" + std::to_string(line));
}
void Trap(const char* message) { Die("device trap: ", message); }
int SyncthreadsPredicate(int, int, const char*, int) {
  Die("no barriers in the stub", "");
}
unsigned long long WaveCollective(const __mc_wave_request*) {
  Die("no wave collectives in the stub", "");
}
void TrapError(int error, const char* message) {
  Die("device trap: ",
      std::string(message) + " (error " + std::to_string(error) + ")");
}

long long Clock64() {
  static long long reads = 0;
  return ++reads;
}
void Nanosleep(unsigned int) {}
void GridSync(const char*, int) { Die("no grid barrier in the stub", ""); }
int GridIsCooperative() { return 0; }

const __mc_image_runtime kTable = {
    MC_IMAGE_ABI_VERSION, &context, Syncthreads, SharedVariable, DynamicShared,
    DevicePrintf, std::malloc, std::free, AssertFail, Trap,
    SyncthreadsPredicate, WaveCollective, TrapError, Clock64, Nanosleep,
    GridSync, GridIsCooperative,
    // No dynamic parallelism, and so no device-side streams or events:
    // the programs of the pipeline tests launch from the host only.
    nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
    nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
    nullptr, nullptr, nullptr, nullptr, nullptr};

void* Load(const __mc_internal::ImageBlob* image) {
  auto found = LoadedImages().find(image);
  if (found != LoadedImages().end()) return found->second;
  int fd = memfd_create("mc-image", 0);
  if (fd < 0 || write(fd, image->bytes, image->size) !=
                    static_cast<ssize_t>(image->size)) {
    Die("cannot write the image", "");
  }
  std::string path = "/proc/self/fd/" + std::to_string(fd);
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) Die("dlopen: ", dlerror());
  auto bind =
      reinterpret_cast<__mc_image_bind_fn>(dlsym(handle, "__mc_image_bind"));
  if (bind == nullptr || bind(&kTable) != MC_IMAGE_ABI_VERSION) {
    Die("cannot bind the image", "");
  }
  LoadedImages()[image] = handle;
  return handle;
}

// The kernel record of `key` in `image`, found among the .dynsym names.
const __mc_internal::KernelRecord* FindKernel(
    const __mc_internal::ImageBlob* image, void* handle,
    const std::string& key) {
  const auto* header = reinterpret_cast<const Elf64_Ehdr*>(image->bytes);
  const auto* sections =
      reinterpret_cast<const Elf64_Shdr*>(image->bytes + header->e_shoff);
  for (int i = 0; i < header->e_shnum; ++i) {
    if (sections[i].sh_type != SHT_DYNSYM) continue;
    const auto* symbols = reinterpret_cast<const Elf64_Sym*>(
        image->bytes + sections[i].sh_offset);
    const char* names = reinterpret_cast<const char*>(
        image->bytes + sections[sections[i].sh_link].sh_offset);
    for (size_t j = 0; j < sections[i].sh_size / sizeof(Elf64_Sym); ++j) {
      const char* name = names + symbols[j].st_name;
      if (symbols[j].st_shndx == SHN_UNDEF ||
          std::strncmp(name, "__mcdev__ZN13__mc_internal12DeviceKernel", 40) !=
              0) {
        continue;
      }
      const auto* record =
          static_cast<const __mc_internal::KernelRecord*>(dlsym(handle, name));
      if (record != nullptr && key == record->key) return record;
    }
  }
  Die("no kernel record for ", key);
}

}  // namespace

extern "C" {

mcError_t mcMalloc(void** ptr, size_t size) {
  *ptr = std::malloc(size);
  return mcSuccess;
}
mcError_t mcFree(void* ptr) {
  std::free(ptr);
  return mcSuccess;
}
mcError_t mcMemcpy(void* dst, const void* src, size_t count, mcMemcpyKind) {
  std::memcpy(dst, src, count);
  return mcSuccess;
}
mcError_t mcDeviceSynchronize(void) { return mcSuccess; }
}  // extern "C"

namespace __mc_internal {

void PushLaunchConfiguration(dim3 grid, dim3 block, size_t, mcStream_t, bool) {
  pending = {true, grid, block};
}

bool RegisterKernel(const ImageBlob* image, const void* host_stub,
                    const char* key) {
  Kernels()[host_stub] = {image, key};
  return true;
}

bool RegisterDeviceVariable(const ImageBlob*, const void*, const char*, size_t,
                            unsigned) {
  return true;
}

void* RegisterManagedVariable(const ImageBlob*, const char* key, size_t) {
  Die("no managed variables in the stub: ", key);
}

mcError_t LaunchFromStubArgs(const void* host_stub, void** args) {
  if (!pending.present) return mcErrorMissingConfiguration;
  PendingLaunch launch = pending;
  pending.present = false;
  auto found = Kernels().find(host_stub);
  if (found == Kernels().end()) Die("launch of an unregistered kernel", "");
  const Registration& kernel = found->second;
  const KernelRecord* record =
      FindKernel(kernel.image, Load(kernel.image), kernel.key);
  context.gridDim = launch.grid;
  context.blockDim = launch.block;
  for (unsigned b = 0; b < launch.grid.x * launch.grid.y * launch.grid.z; ++b) {
    context.blockIdx = {b % launch.grid.x, b / launch.grid.x % launch.grid.y,
                        b / launch.grid.x / launch.grid.y};
    for (unsigned t = 0; t < launch.block.x * launch.block.y * launch.block.z;
         ++t) {
      context.threadIdx = {t % launch.block.x,
                           t / launch.block.x % launch.block.y,
                           t / launch.block.x / launch.block.y};
      record->entry(args);
    }
  }
  return mcSuccess;
}

}  // namespace __mc_internal
