// Copyright mxcts authors.
//
// The key's message is a version tag, then for each field its label and its
// value, each preceded by its length as 8 little-endian bytes. Lengths make
// the encoding prefix-free, so distinct field lists never share a message;
// the tag lets a later change of the encoding start a fresh key space.
//
// Tested by cache_key_test.cc.

#include "reference/runtime/binary_cache/cache_key.h"

#include <cstdint>

namespace mxcts::runtime {

namespace {
constexpr absl::string_view kKeyEncodingTag = "mxcts binary cache key v1";
}  // namespace

CacheKeyBuilder::CacheKeyBuilder() { AddLengthPrefixed(kKeyEncodingTag); }

void CacheKeyBuilder::AddLengthPrefixed(absl::string_view bytes) {
  uint8_t length[8];
  const uint64_t size = bytes.size();
  for (int i = 0; i < 8; ++i) length[i] = static_cast<uint8_t>(size >> (8 * i));
  hash_.Update(length, sizeof(length));
  hash_.Update(bytes);
}

CacheKeyBuilder& CacheKeyBuilder::Add(absl::string_view label,
                                      absl::string_view value) {
  AddLengthPrefixed(label);
  AddLengthPrefixed(value);
  return *this;
}

CacheKey CacheKeyBuilder::Build() {
  CacheKey key;
  key.digest = hash_.Finish();
  key.hex = Sha256::ToHex(key.digest);
  return key;
}

bool IsCacheKeyHex(absl::string_view hex) {
  if (hex.size() != 64) return false;
  for (char c : hex) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

}  // namespace mxcts::runtime
