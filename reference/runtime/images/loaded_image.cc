// Copyright mxcts authors.
//
// Loading an image: write the bytes to a file the dynamic loader can open,
// dlopen it, bind it. The first choice is a memory file, reached through
// /proc/self/fd; if that fails at any step, the bytes go to a temporary
// file made with mkstemp in $TMPDIR (or /tmp), which is removed when the
// image is unloaded. RTLD_LOCAL keeps each image's symbols to itself, so
// the records of two images (or two copies of one) never interpose. The load
// bias comes from the loader's link map (dlinfo); the executable segments
// from the image's program headers (elf_layout.h).
//
// Tested by loaded_image_test.cc.

#include "reference/runtime/images/loaded_image.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "absl/strings/str_cat.h"
#include "reference/device/engine.h"
#include "reference/runtime/errors/error_mapping.h"
#include "reference/runtime/images/elf_layout.h"

namespace mxcts::runtime {
namespace {

bool WriteAll(int fd, const unsigned char* bytes, size_t size) {
  while (size > 0) {
    ssize_t written = write(fd, bytes, size);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return false;
    bytes += written;
    size -= static_cast<size_t>(written);
  }
  return true;
}

std::string DlError() {
  const char* error = dlerror();
  return error != nullptr ? error : "unknown dlopen error";
}

}  // namespace

absl::StatusOr<std::unique_ptr<LoadedImage>> LoadedImage::Load(
    const unsigned char* bytes, size_t size, const __mc_image_runtime* table,
    Method method) {
  if (table == nullptr) {
    return McStatus(mcErrorInitializationError,
                    "the device engine provides no image runtime table");
  }
  if (bytes == nullptr || size == 0) {
    return McStatus(mcErrorInvalidKernelImage, "the device image is empty");
  }
  void* handle = nullptr;
  int fd = -1;
  std::string path;
  bool unlink_on_close = false;
  std::string load_error;

  if (method == Method::kPreferMemoryFile) {
    fd = memfd_create("mxcts-device-image", MFD_CLOEXEC);
  }
  if (fd >= 0) {
    path = absl::StrCat("/proc/self/fd/", fd);
    if (WriteAll(fd, bytes, size)) {
      handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (handle == nullptr) load_error = DlError();
    }
    if (handle == nullptr) {
      close(fd);
      fd = -1;
    }
  }
  if (handle == nullptr) {
    const char* tmpdir = std::getenv("TMPDIR");
    std::string pattern =
        absl::StrCat(tmpdir != nullptr && tmpdir[0] != '\0' ? tmpdir : "/tmp",
                     "/mxcts-device-image-XXXXXX");
    int file = mkstemp(pattern.data());
    if (file < 0) {
      return McStatus(
          mcErrorInvalidKernelImage,
          absl::StrCat("cannot write the device image: ",
                       load_error.empty() ? std::strerror(errno) : load_error));
    }
    bool written = WriteAll(file, bytes, size);
    close(file);
    if (written) {
      handle = dlopen(pattern.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (handle == nullptr) load_error = DlError();
    }
    if (handle == nullptr) {
      unlink(pattern.c_str());
      return McStatus(
          mcErrorInvalidKernelImage,
          absl::StrCat("cannot load the device image: ", load_error));
    }
    path = pattern;
    unlink_on_close = true;
  }
  std::unique_ptr<LoadedImage> image(
      new LoadedImage(handle, fd, std::move(path), unlink_on_close));
  image->RegisterCode(bytes, size);
  auto bind =
      reinterpret_cast<__mc_image_bind_fn>(image->Symbol("__mc_image_bind"));
  if (bind == nullptr) {
    return McStatus(mcErrorInvalidKernelImage,
                    "the device image defines no __mc_image_bind");
  }
  unsigned version = bind(table);
  if (version != MC_IMAGE_ABI_VERSION) {
    return McStatus(mcErrorInvalidKernelImage,
                    absl::StrCat("the device image speaks image ABI ", version,
                                 ", the runtime ", MC_IMAGE_ABI_VERSION));
  }
  return image;
}

LoadedImage::LoadedImage(void* handle, int fd, std::string path,
                         bool unlink_on_close)
    : handle_(handle),
      fd_(fd),
      path_(std::move(path)),
      unlink_on_close_(unlink_on_close) {}

void LoadedImage::RegisterCode(const unsigned char* bytes, size_t size) {
  struct link_map* map = nullptr;
  if (dlinfo(handle_, RTLD_DI_LINKMAP, &map) != 0 || map == nullptr) return;
  load_bias_ = static_cast<uintptr_t>(map->l_addr);
  absl::StatusOr<std::vector<ElfRange>> segments =
      ExecutableSegments(bytes, size);
  if (!segments.ok()) return;  // the loader took it; traps are best effort
  for (const ElfRange& segment : *segments) {
    const void* begin = reinterpret_cast<const void*>(
        load_bias_ + static_cast<uintptr_t>(segment.address));
    if (mxcts::device::RegisterDeviceCode(begin,
                                          static_cast<size_t>(segment.size))) {
      registered_code_.push_back(begin);
    }
  }
}

LoadedImage::~LoadedImage() {
  for (const void* begin : registered_code_) {
    mxcts::device::UnregisterDeviceCode(begin);
  }
  dlclose(handle_);
  if (fd_ >= 0) close(fd_);
  if (unlink_on_close_) unlink(path_.c_str());
}

void* LoadedImage::Symbol(const char* name) const {
  return dlsym(handle_, name);
}

}  // namespace mxcts::runtime
