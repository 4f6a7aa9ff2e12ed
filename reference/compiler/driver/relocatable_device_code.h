// Copyright mxcts authors.
//
// relocatable_device_code.h: where relocatable device code travels between
// `mxcc -c -fgpu-rdc` and the device link, and how the link finds it.
//
// With relocatable device code an MXMACA source's object carries its
// separated device object (stage 7 of reference/compiler/design.md)
// unlinked, as the bytes of a section named
//
//   .mc_device_code.<image symbol>
//
// flagged SHF_EXCLUDE: `ld -r` and `ar` keep it, and every final link
// (executable or shared library) drops it, so device code never reaches a
// program's memory as data. The section's name carries the image symbol the
// source's host code refers to (`__mc_image_<16 hex digits>`); the device
// link defines every such symbol as the one image linked from all sections
// [api.compile.mxcc.relocatable-device-code].
//
//   absl::StatusOr<std::vector<RelocatableDeviceCode>> found =
//       FindRelocatableDeviceCode("libkernels.a");
//   for (const RelocatableDeviceCode& code : *found) {
//     // code.origin is "libkernels.a(scale.o)"; code.object an ELF object
//   }

#ifndef MXCTS_REFERENCE_COMPILER_DRIVER_RELOCATABLE_DEVICE_CODE_H_
#define MXCTS_REFERENCE_COMPILER_DRIVER_RELOCATABLE_DEVICE_CODE_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace mxcts::driver {

// The prefix of the section that carries one source's device object.
inline constexpr char kDeviceCodeSectionPrefix[] = ".mc_device_code.";

// The assembly of the object that carries `device_object` (a file path) in
// the section for `image_symbol`; assembled and combined with the host
// object by `ld -r`.
std::string DeviceCodeCarrierAssembly(const std::string& image_symbol,
                                      const std::string& device_object);

// One source's relocatable device code, as found in an object file.
struct RelocatableDeviceCode {
  std::string image_symbol;  // "__mc_image_<16 hex digits>"
  std::string origin;        // "a.o", or "libx.a(b.o)" for an archive member
  std::string object;        // the bytes of the separated device object
};

// The relocatable device code in `bytes`, the contents of the file
// `origin`: an ELF64 relocatable object holds one section per source it was
// made of; an ar archive holds its members' (GNU and BSD member names);
// any other file (a shared library, an executable, a linker script) holds
// none. Fails with InvalidArgumentError naming `origin` (and the member)
// and what is wrong when an ELF object or archive is truncated or
// inconsistent, or an archive is thin (its members are elsewhere).
absl::StatusOr<std::vector<RelocatableDeviceCode>> ParseRelocatableDeviceCode(
    std::string_view bytes, const std::string& origin);

// As ParseRelocatableDeviceCode, of the file at `path`; an unreadable file
// fails with the reason.
absl::StatusOr<std::vector<RelocatableDeviceCode>> FindRelocatableDeviceCode(
    const std::string& path);

}  // namespace mxcts::driver

#endif  // MXCTS_REFERENCE_COMPILER_DRIVER_RELOCATABLE_DEVICE_CODE_H_
