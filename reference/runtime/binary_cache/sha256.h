// Copyright mxcts authors.
//
// reference/runtime/binary_cache/sha256.h: SHA-256 (FIPS 180-4), the digest
// that names binary cache entries and checks their contents. The runtime
// keeps its own small implementation so that it needs no cryptography
// library: the digest guards against accidents (a truncated or overwritten
// file, a changed input), not against an attacker who can write the cache
// directory.
//
//   Sha256 hash;
//   hash.Update("abc");
//   Sha256::Digest digest = hash.Finish();
//   std::string hex = Sha256::ToHex(digest);  // "ba7816bf..."
//
//   std::string hex2 = Sha256::HexOf("abc");  // the same, in one call

#ifndef MXCTS_REFERENCE_RUNTIME_BINARY_CACHE_SHA256_H_
#define MXCTS_REFERENCE_RUNTIME_BINARY_CACHE_SHA256_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"

namespace mxcts::runtime {

class Sha256 {
 public:
  using Digest = std::array<uint8_t, 32>;

  Sha256();

  // Appends `data` to the message. Must not be called after Finish().
  void Update(absl::string_view data);
  void Update(const void* data, size_t size);

  // Pads the message and returns its digest. The object must not be used
  // again afterwards (except to be destroyed).
  Digest Finish();

  // The digest of `data`, in one call.
  static Digest Of(absl::string_view data);
  // 64 lowercase hexadecimal digits of `digest`.
  static std::string ToHex(const Digest& digest);
  // ToHex(Of(data)).
  static std::string HexOf(absl::string_view data);

 private:
  void Compress(const uint8_t block[64]);

  std::array<uint32_t, 8> state_;
  std::array<uint8_t, 64> buffer_;
  size_t buffered_ = 0;
  uint64_t total_bytes_ = 0;
};

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_BINARY_CACHE_SHA256_H_
