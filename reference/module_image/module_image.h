// Copyright mxcts authors.
//
// reference/module_image/module_image.h: the container of a device image
// loaded at run time (a module image): what `mxcc --genco` writes and what
// mcrtc returns, and what the module API (mcModuleLoad*) accepts.
//
// A module image is a 32-byte header followed by its payload, the device
// image itself (the ELF shared object that mxcc's device link makes,
// reference/compiler/design.md, stage 8). Every field is little-endian:
//
//   offset  size  field
//        0     8  magic, the bytes "MCMODULE"
//        8     4  format version, kFormatVersion
//       12     4  flags, 0
//       16     8  payload size in bytes
//       24     8  payload hash: 64-bit FNV-1a of the payload bytes
//
// The header says how long the image is, which mcModuleLoadData (given a
// pointer and no size) needs, and the hash catches a corrupt or truncated
// image before any of it is interpreted.
//
//   std::string image = Wrap(shared_object_bytes);
//   absl::StatusOr<Payload> payload = Open(bytes, size);  // checks it all
//   absl::Status elf = CheckSharedObject(payload->data, payload->size);
//
// Tested by module_image_test.cc.

#ifndef MXCTS_REFERENCE_MODULE_IMAGE_MODULE_IMAGE_H_
#define MXCTS_REFERENCE_MODULE_IMAGE_MODULE_IMAGE_H_

#include <stddef.h>
#include <stdint.h>

#include <limits>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace mxcts::module_image {

inline constexpr size_t kHeaderSize = 32;
inline constexpr char kMagic[8] = {'M', 'C', 'M', 'O', 'D', 'U', 'L', 'E'};
inline constexpr uint32_t kFormatVersion = 1;
// The largest payload accepted: far above any device image, low enough that
// a corrupt size is refused before anything is read or allocated.
inline constexpr uint64_t kMaxPayloadSize = uint64_t{1} << 30;
// What Open's `available` says when the caller does not know the size
// (mcModuleLoadData): the header's size is then trusted for the bounds.
inline constexpr size_t kSizeUnknown = std::numeric_limits<size_t>::max();

// 64-bit FNV-1a of `size` bytes.
uint64_t PayloadHash(const unsigned char* bytes, size_t size);

// The module image holding `payload`.
std::string Wrap(absl::string_view payload);

// True if `bytes` starts with the magic. Compares byte by byte and stops
// at the first difference, so a shorter buffer that is not an image (a
// string) is not read past its first differing byte.
bool HasMagic(const unsigned char* bytes);

struct Payload {
  const unsigned char* data = nullptr;
  size_t size = 0;
};

// Checks the container at `bytes`, of which `available` bytes may be read
// (kSizeUnknown: as many as the header says), and returns the payload.
// InvalidArgumentError saying what is wrong: no magic, another format
// version, nonzero flags, a payload size of 0 or over kMaxPayloadSize,
// fewer bytes than the header says (truncated), a hash that differs.
absl::StatusOr<Payload> Open(const unsigned char* bytes, size_t available);

}  // namespace mxcts::module_image

#endif  // MXCTS_REFERENCE_MODULE_IMAGE_MODULE_IMAGE_H_
