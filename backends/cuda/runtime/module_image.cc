// Copyright mxcts authors.
//
// The adapter's device image (module_image.h).

#include "backends/cuda/runtime/module_image.h"

#include <cstring>

namespace mxcts::cuda_backend {
namespace {

void PutU64(char* at, uint64_t value) { std::memcpy(at, &value, 8); }

uint64_t GetU64(const char* at) {
  uint64_t value = 0;
  std::memcpy(&value, at, 8);
  return value;
}

// FNV-1a's step over 8-byte words, in four lanes that take every fourth
// word, then over the bytes past the last 32-byte block, then over the
// lanes; the size goes in last. The lanes keep the multiplications'
// latency off one chain, so a CUBIN of some kilobytes is summed in about a
// microsecond where byte-wise FNV-1a took several. Each step is a
// bijection of its lane (an XOR, then a product with an odd number), so
// a change of any one word or byte always changes the sum.
uint64_t Checksum(const char* bytes, size_t size) {
  constexpr uint64_t kBasis = 14695981039346656037ull;
  constexpr uint64_t kPrime = 1099511628211ull;
  uint64_t lanes[4] = {kBasis, kBasis + 1, kBasis + 2, kBasis + 3};
  size_t at = 0;
  for (; at + 32 <= size; at += 32) {
    for (int lane = 0; lane < 4; ++lane) {
      lanes[lane] = (lanes[lane] ^ GetU64(bytes + at + 8 * lane)) * kPrime;
    }
  }
  uint64_t hash = kBasis;
  for (; at < size; ++at) {
    hash = (hash ^ static_cast<unsigned char>(bytes[at])) * kPrime;
  }
  for (uint64_t lane : lanes) hash = (hash ^ lane) * kPrime;
  return (hash ^ size) * kPrime;
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
