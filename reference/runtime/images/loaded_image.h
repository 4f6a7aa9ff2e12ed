// Copyright mxcts authors.
//
// reference/runtime/images/loaded_image.h: one device image loaded into the
// process from its bytes.
//
// The bytes (a shared object embedded in a host object by mxcc) are written
// to an anonymous memory file (memfd_create) and opened with
// dlopen("/proc/self/fd/N", RTLD_NOW | RTLD_LOCAL); where memory files or
// /proc are unavailable, a private temporary file is used instead. Each load
// is a separate copy of the image with its own variables, which is how
// every device gets its own instance of each __device__ variable
// [lang.variable.device.distinct-per-device]. The file stays open (or on
// disk) while the image is loaded: the dynamic loader recognizes an
// already-loaded object by its path, so a path must not be reused while its
// object is loaded.
//
// After loading, `__mc_image_bind(table)` connects the image's device code
// to the engine; it must return MC_IMAGE_ABI_VERSION. The image's executable
// segments are registered with the engine as device code
// (mxcts::device::RegisterDeviceCode) while the image is loaded, so that a
// fault in them, or a kernel timeout that expires while they run, traps.
//
//   absl::StatusOr<std::unique_ptr<LoadedImage>> image =
//       LoadedImage::Load(blob->bytes, blob->size,
//                         mxcts::device::ImageRuntimeTable());
//   const void* record = (*image)->Symbol("__mcdev___mc_variable_record_0");

#ifndef MXCTS_REFERENCE_RUNTIME_IMAGES_LOADED_IMAGE_H_
#define MXCTS_REFERENCE_RUNTIME_IMAGES_LOADED_IMAGE_H_

#include <stddef.h>
#include <stdint.h>

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "reference/device/image/image_abi.h"

namespace mxcts::runtime {

class LoadedImage {
 public:
  enum class Method {
    kPreferMemoryFile,   // a memory file, else a temporary file
    kTemporaryFileOnly,  // the fallback alone (for tests)
  };

  // Loads the image of `size` bytes at `bytes` and binds it to `table`.
  // mcErrorInvalidKernelImage if the bytes do not load or the image does not
  // bind; mcErrorInitializationError if `table` is null.
  static absl::StatusOr<std::unique_ptr<LoadedImage>> Load(
      const unsigned char* bytes, size_t size, const __mc_image_runtime* table,
      Method method = Method::kPreferMemoryFile);
  ~LoadedImage();
  LoadedImage(const LoadedImage&) = delete;
  LoadedImage& operator=(const LoadedImage&) = delete;

  // The address of exported symbol `name`, or null.
  void* Symbol(const char* name) const;
  // What to add to a link-time address of the image (elf_layout.h) to reach
  // it in the process.
  uintptr_t load_bias() const { return load_bias_; }
  // Where the image was loaded from (for diagnostics).
  const std::string& path() const { return path_; }
  // True if it was loaded from a memory file.
  bool from_memory_file() const { return fd_ >= 0; }

 private:
  LoadedImage(void* handle, int fd, std::string path, bool unlink_on_close);

  // Registers the executable segments of `bytes` as device code.
  void RegisterCode(const unsigned char* bytes, size_t size);

  void* handle_;
  int fd_;  // the memory file, or -1
  std::string path_;
  bool unlink_on_close_;
  uintptr_t load_bias_ = 0;
  std::vector<const void*> registered_code_;
};

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_IMAGES_LOADED_IMAGE_H_
