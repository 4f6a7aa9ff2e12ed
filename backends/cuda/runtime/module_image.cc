// Copyright mxcts authors.
//
// The adapter's device image (module_image.h).

#include "backends/cuda/runtime/module_image.h"

#include <cstring>

namespace mxcts::cuda_backend {
namespace {

uint64_t Checksum(const char* bytes, size_t size) {
  uint64_t hash = 14695981039346656037ull;
  for (size_t i = 0; i < size; ++i) {
    hash ^= static_cast<unsigned char>(bytes[i]);
    hash *= 1099511628211ull;
  }
  return hash;
}

void PutU64(char* at, uint64_t value) { std::memcpy(at, &value, 8); }

uint64_t GetU64(const char* at) {
  uint64_t value = 0;
  std::memcpy(&value, at, 8);
  return value;
}

// Compares the first `n` bytes of `image` with `expected` one by one, so
// that a shorter string (a text, "") stops at its NUL.
bool StartsWith(const char* image, const char* expected, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    if (image[i] != expected[i]) return false;
  }
  return true;
}

}  // namespace

std::vector<char> WrapImage(const std::vector<char>& code) {
  std::vector<char> image(kImageHeaderBytes + code.size(), 0);
  std::memcpy(image.data(), kImageMagic, sizeof kImageMagic);
  PutU64(image.data() + 8, code.size());
  PutU64(image.data() + 16, Checksum(code.data(), code.size()));
  if (!code.empty()) {
    std::memcpy(image.data() + kImageHeaderBytes, code.data(), code.size());
  }
  return image;
}

ImageKind LocateImage(const void* image, size_t available, const char** code,
                      size_t* code_size) {
  const char* bytes = static_cast<const char*>(image);
  const bool known = available != 0;
  // CUDA's own formats, as `nvcc --cubin` or `--fatbin` write them.
  static const char kElf[4] = {0x7f, 'E', 'L', 'F'};
  static const char kFatbin[4] = {0x50, static_cast<char>(0xed), 0x55,
                                  static_cast<char>(0xba)};
  if ((!known || available >= 4) &&
      (StartsWith(bytes, kElf, 4) || StartsWith(bytes, kFatbin, 4))) {
    *code = bytes;
    *code_size = available;
    return ImageKind::kCuda;
  }
  if (known && available < kImageHeaderBytes) return ImageKind::kInvalid;
  if (!StartsWith(bytes, kImageMagic, sizeof kImageMagic)) {
    return ImageKind::kInvalid;
  }
  const uint64_t size = GetU64(bytes + 8);
  if (GetU64(bytes + 24) != 0 || size == 0 || size > kMaxImageCode) {
    return ImageKind::kInvalid;
  }
  if (known && available != kImageHeaderBytes + size) {
    return ImageKind::kInvalid;
  }
  const char* payload = bytes + kImageHeaderBytes;
  if (Checksum(payload, size) != GetU64(bytes + 16)) {
    return ImageKind::kInvalid;
  }
  *code = payload;
  *code_size = size;
  return ImageKind::kWrapped;
}

}  // namespace mxcts::cuda_backend
