// Copyright mxcts authors.
//
// reference/runtime/images/elf_layout.h: where the parts of a device image lie
// once it is loaded, read from the image's bytes.
//
// The runtime needs two things the dynamic loader does not tell: the
// executable segments (registered with the engine as device code, so that
// a fault or an expired kernel timeout there becomes a trap) and the
// `__mc_constant` section, which the device link lays out on whole pages so
// that the runtime can make the image's __constant__ variables read-only
// while device code runs (reference/compiler/design.md, stage 8). Both are
// given relative to the image's load address (its link-time addresses); add
// the load bias (LoadedImage::load_bias) to reach them in the process.
// Every offset and size is checked against the bytes, so a corrupt image is
// an error, never a crash.
//
//   absl::StatusOr<std::optional<ElfRange>> constants =
//       FindSection(bytes, size, "__mc_constant");
//   absl::StatusOr<std::vector<ElfRange>> code =
//       ExecutableSegments(bytes, size);

#ifndef MXCTS_REFERENCE_RUNTIME_IMAGES_ELF_LAYOUT_H_
#define MXCTS_REFERENCE_RUNTIME_IMAGES_ELF_LAYOUT_H_

#include <stddef.h>
#include <stdint.h>

#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace mxcts::runtime {

// [address, address + size), at link-time addresses.
struct ElfRange {
  uint64_t address = 0;
  uint64_t size = 0;
};

// The name of the section that holds an image's __constant__ variables.
inline constexpr char kConstantSectionName[] = "__mc_constant";

// The allocated section called `name` of the ELF object `bytes`, or nullopt
// if it has none (or it is empty). mcErrorInvalidKernelImage if the bytes
// are not a well-formed 64-bit little-endian ELF object.
absl::StatusOr<std::optional<ElfRange>> FindSection(const unsigned char* bytes,
                                                    size_t size,
                                                    absl::string_view name);

// The loadable, executable segments of the ELF object `bytes`, in program
// header order. Same errors as FindSection.
absl::StatusOr<std::vector<ElfRange>> ExecutableSegments(
    const unsigned char* bytes, size_t size);

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_IMAGES_ELF_LAYOUT_H_
