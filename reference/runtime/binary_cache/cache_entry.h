// Copyright mxcts authors.
//
// reference/runtime/binary_cache/cache_entry.h: the bytes of one cache file
// and their check. A file is a 96-byte header followed by the payload (the
// compiled code, for runtime compilation a module image):
//
//   offset size  field
//        0    8  magic "MXCACHE\0"
//        8    4  format version (1), little-endian
//       12    4  header size (96), little-endian
//       16   32  the entry's key (CacheKey::digest)
//       48    8  payload size in bytes, little-endian
//       56   32  SHA-256 of the payload
//       88    8  zero
//
// An entry is used only if every field checks out against the file it was
// read from and the key it was looked up by; anything else (a truncated
// file, another key's entry renamed, a flipped byte) makes it corrupt.
// [api.cache.corrupt.entry-ignored-and-rebuilt]
//
//   std::string file = EncodeCacheEntry(key, image);
//   absl::StatusOr<std::string> payload = DecodeCacheEntry(file, key);

#ifndef MXCTS_REFERENCE_RUNTIME_BINARY_CACHE_CACHE_ENTRY_H_
#define MXCTS_REFERENCE_RUNTIME_BINARY_CACHE_CACHE_ENTRY_H_

#include <cstddef>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "reference/runtime/binary_cache/cache_key.h"

namespace mxcts::runtime {

inline constexpr size_t kCacheEntryHeaderBytes = 96;

// The whole file for `payload` under `key`.
std::string EncodeCacheEntry(const CacheKey& key, absl::string_view payload);

// The payload of `file` if it is a well-formed entry of `key`; otherwise
// kDataLoss with what is wrong.
absl::StatusOr<std::string> DecodeCacheEntry(absl::string_view file,
                                             const CacheKey& key);

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_BINARY_CACHE_CACHE_ENTRY_H_
