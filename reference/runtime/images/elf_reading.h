// Copyright mxcts authors.
//
// reference/runtime/images/elf_reading.h: the bounds-checked reads that the ELF
// readers of device images (elf_dynsym.cc, elf_layout.cc) share. A device
// image is untrusted bytes: every offset is checked against the buffer
// before it is read, and a bad one is mcErrorInvalidKernelImage.
//
//   if (!elf_reading::Inside(offset, sizeof(Elf64_Shdr), size))
//     return elf_reading::Corrupt("section header outside the image");
//   Elf64_Shdr section = elf_reading::ReadAt<Elf64_Shdr>(bytes, offset);

#ifndef MXCTS_REFERENCE_RUNTIME_IMAGES_ELF_READING_H_
#define MXCTS_REFERENCE_RUNTIME_IMAGES_ELF_READING_H_

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "mcr/mc_runtime_types.h"
#include "reference/runtime/errors/error_mapping.h"

namespace mxcts::runtime::elf_reading {

// mcErrorInvalidKernelImage, saying `why`.
inline absl::Status Corrupt(absl::string_view why) {
  return McStatus(mcErrorInvalidKernelImage,
                  absl::StrCat("device image: ", why));
}

// True if [offset, offset + length) lies inside a buffer of `size` bytes.
inline bool Inside(uint64_t offset, uint64_t length, size_t size) {
  return offset <= size && length <= size - offset;
}

// The T at `offset` of `bytes`, which the caller has checked with Inside;
// read with memcpy because image offsets need not be aligned.
template <typename T>
T ReadAt(const unsigned char* bytes, uint64_t offset) {
  T value;
  std::memcpy(&value, bytes + offset, sizeof(T));
  return value;
}

}  // namespace mxcts::runtime::elf_reading

#endif  // MXCTS_REFERENCE_RUNTIME_IMAGES_ELF_READING_H_
