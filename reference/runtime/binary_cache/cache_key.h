// Copyright mxcts authors.
//
// reference/runtime/binary_cache/cache_key.h: the key of a binary cache
// entry, a SHA-256 digest of everything that decides the compiled output.
// [api.cache.contents.keyed-by-input]
//
// Each input is added as a labeled field: the label, the value's length and
// the value are all hashed, so no two different lists of fields hash the
// same bytes ("-DA" + "B" differs from "-D" + "AB"; a header's name differs
// from its text). The caller adds every input that can change the result:
// the source and the program's name, each header with its include name, the
// options in order, and the compiler's identity.
//
//   CacheKeyBuilder key;
//   key.Add("source", source);
//   key.Add("option", "-O2");
//   key.Add("compiler", compiler_identity);
//   CacheKey k = key.Build();
//   k.hex;  // 64 lowercase hexadecimal digits

#ifndef MXCTS_REFERENCE_RUNTIME_BINARY_CACHE_CACHE_KEY_H_
#define MXCTS_REFERENCE_RUNTIME_BINARY_CACHE_CACHE_KEY_H_

#include <string>

#include "absl/strings/string_view.h"
#include "reference/runtime/binary_cache/sha256.h"

namespace mxcts::runtime {

struct CacheKey {
  Sha256::Digest digest{};
  std::string hex;  // Sha256::ToHex(digest)

  bool operator==(const CacheKey& other) const {
    return digest == other.digest;
  }
  bool operator!=(const CacheKey& other) const { return !(*this == other); }
};

class CacheKeyBuilder {
 public:
  CacheKeyBuilder();

  // Adds the field `label` = `value`. Fields are order-sensitive.
  CacheKeyBuilder& Add(absl::string_view label, absl::string_view value);

  // The key of the fields added so far. The builder must not be used again.
  CacheKey Build();

 private:
  void AddLengthPrefixed(absl::string_view bytes);

  Sha256 hash_;
};

// True if `hex` is 64 lowercase hexadecimal digits, as CacheKey::hex is.
bool IsCacheKeyHex(absl::string_view hex);

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_BINARY_CACHE_CACHE_KEY_H_
