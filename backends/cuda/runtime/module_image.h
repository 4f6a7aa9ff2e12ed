// Copyright mxcts authors.
//
// The device image mcrtc gives and the module API loads on the CUDA backend
// (rtc.cc, modules.cc): CUDA's code (a CUBIN) behind a header of 32 bytes
// that says its size and a checksum of it. MXMACA refuses a damaged image
// with mcErrorInvalidKernelImage before using it
// [api.module.image.checked-before-use]; CUDA would load a CUBIN with a
// changed byte of code, or read past a cut one, so the adapter checks the
// header and the checksum first.
//
//   offset 0   "MXCTSCU2"       the format and its version (2: the word-wise
//   checksum) offset 8   uint64 size      bytes of code after the header offset
//   16  uint64 checksum  of those bytes (module_image.cc) offset 24  uint64 0
//   reserved offset 32  the code

#ifndef MXCTS_BACKENDS_CUDA_RUNTIME_MODULE_IMAGE_H_
#define MXCTS_BACKENDS_CUDA_RUNTIME_MODULE_IMAGE_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace mxcts::cuda_backend {

inline constexpr char kImageMagic[8] = {'M', 'X', 'C', 'T', 'S', 'C', 'U', '2'};
inline constexpr size_t kImageHeaderBytes = 32;
// No image of the suite comes near; a larger size is a damaged header.
inline constexpr uint64_t kMaxImageCode = uint64_t{1} << 30;

// The image of `code`.
std::vector<char> WrapImage(const std::vector<char>& code);

// What an image holds, as LocateImage found it.
enum class ImageKind {
  kWrapped,  // the format above, checked: `code` is its code
  kCuda,     // an ELF or a fatbinary as CUDA's tools write them, unchecked
  kInvalid,
};

// Finds the code of the image at `image`. `available` is how many bytes
// there are (a file's size), or 0 when unknown (memory: the header is
// trusted for the size, which it must then give).
ImageKind LocateImage(const void* image, size_t available, const char** code,
                      size_t* code_size);

}  // namespace mxcts::cuda_backend

#endif  // MXCTS_BACKENDS_CUDA_RUNTIME_MODULE_IMAGE_H_
