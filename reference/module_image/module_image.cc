// Copyright mxcts authors.
//
// The module image container (module_image.h). The header is read field
// by field with memcpy, and every check happens before the payload is
// touched: the size is bounded first, then the bytes present, then the
// hash.
//
// Tested by module_image_test.cc.

#include "reference/module_image/module_image.h"

#include <cstring>

#include "absl/strings/str_format.h"

namespace mxcts::module_image {
namespace {

template <typename T>
T Field(const unsigned char* bytes, size_t offset) {
  T value;
  std::memcpy(&value, bytes + offset, sizeof(T));
  return value;
}

template <typename T>
void PutField(std::string* out, T value) {
  out->append(reinterpret_cast<const char*>(&value), sizeof(T));
}

}  // namespace

uint64_t PayloadHash(const unsigned char* bytes, size_t size) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < size; ++i) {
    hash ^= bytes[i];
    hash *= 0x100000001b3ull;
  }
  return hash;
}

std::string Wrap(absl::string_view payload) {
  std::string image(kMagic, sizeof(kMagic));
  PutField<uint32_t>(&image, kFormatVersion);
  PutField<uint32_t>(&image, 0);
  PutField<uint64_t>(&image, payload.size());
  PutField<uint64_t>(
      &image,
      PayloadHash(reinterpret_cast<const unsigned char*>(payload.data()),
                  payload.size()));
  image.append(payload.data(), payload.size());
  return image;
}

bool HasMagic(const unsigned char* bytes) {
  for (size_t i = 0; i < sizeof(kMagic); ++i) {
    if (bytes[i] != static_cast<unsigned char>(kMagic[i])) return false;
  }
  return true;
}

absl::StatusOr<Payload> Open(const unsigned char* bytes, size_t available) {
  if (bytes == nullptr) return absl::InvalidArgumentError("no bytes");
  if (available != kSizeUnknown && available < sizeof(kMagic)) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "%u bytes are too few for a module image (its header alone has %u)",
        available, kHeaderSize));
  }
  if (!HasMagic(bytes)) {
    return absl::InvalidArgumentError(
        "not a module image (it does not start with \"MCMODULE\")");
  }
  if (available != kSizeUnknown && available < kHeaderSize) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "truncated module image: %u bytes, shorter than its %u-byte header",
        available, kHeaderSize));
  }
  const uint32_t version = Field<uint32_t>(bytes, 8);
  if (version != kFormatVersion) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "module image format version %u; this runtime reads version %u",
        version, kFormatVersion));
  }
  const uint32_t flags = Field<uint32_t>(bytes, 12);
  if (flags != 0) {
    return absl::InvalidArgumentError(
        absl::StrFormat("module image flags 0x%x are not 0", flags));
  }
  const uint64_t size = Field<uint64_t>(bytes, 16);
  if (size == 0 || size > kMaxPayloadSize) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "module image payload size %u is out of range (1 to %u)", size,
        kMaxPayloadSize));
  }
  if (available != kSizeUnknown && available - kHeaderSize < size) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "truncated module image: its header says %u payload bytes, and %u "
        "follow it",
        size, available - kHeaderSize));
  }
  const unsigned char* payload = bytes + kHeaderSize;
  const uint64_t hash = Field<uint64_t>(bytes, 24);
  const uint64_t actual = PayloadHash(payload, static_cast<size_t>(size));
  if (hash != actual) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "corrupt module image: its payload hash is 0x%016x and its header "
        "says 0x%016x",
        actual, hash));
  }
  return Payload{payload, static_cast<size_t>(size)};
}

}  // namespace mxcts::module_image
