// Copyright mxcts authors.
//
// Encoding and checking cache files. Integers are written byte by byte,
// little-endian, so a cache directory means the same on any host. The check
// compares the header with the key and the file size before it hashes the
// payload, so a truncated file is rejected without hashing it.
//
// Tested by cache_entry_test.cc.

#include "reference/runtime/binary_cache/cache_entry.h"

#include <cstdint>
#include <cstring>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace mxcts::runtime {

namespace {

constexpr char kMagic[8] = {'M', 'X', 'C', 'A', 'C', 'H', 'E', '\0'};
constexpr uint32_t kFormatVersion = 1;
constexpr size_t kKeyOffset = 16;
constexpr size_t kPayloadSizeOffset = 48;
constexpr size_t kPayloadHashOffset = 56;
constexpr size_t kReservedOffset = 88;

void PutLittleEndian(std::string& out, size_t offset, uint64_t value,
                     int bytes) {
  for (int i = 0; i < bytes; ++i) {
    out[offset + i] = static_cast<char>((value >> (8 * i)) & 0xff);
  }
}

uint64_t GetLittleEndian(absl::string_view in, size_t offset, int bytes) {
  uint64_t value = 0;
  for (int i = 0; i < bytes; ++i) {
    value |= uint64_t{static_cast<uint8_t>(in[offset + i])} << (8 * i);
  }
  return value;
}

absl::Status Corrupt(absl::string_view why) {
  return absl::DataLossError(absl::StrCat("corrupt cache entry: ", why));
}

}  // namespace

std::string EncodeCacheEntry(const CacheKey& key, absl::string_view payload) {
  std::string file(kCacheEntryHeaderBytes, '\0');
  std::memcpy(&file[0], kMagic, sizeof(kMagic));
  PutLittleEndian(file, 8, kFormatVersion, 4);
  PutLittleEndian(file, 12, kCacheEntryHeaderBytes, 4);
  std::memcpy(&file[kKeyOffset], key.digest.data(), key.digest.size());
  PutLittleEndian(file, kPayloadSizeOffset, payload.size(), 8);
  const Sha256::Digest hash = Sha256::Of(payload);
  std::memcpy(&file[kPayloadHashOffset], hash.data(), hash.size());
  file.append(payload.data(), payload.size());
  return file;
}

absl::StatusOr<std::string> DecodeCacheEntry(absl::string_view file,
                                             const CacheKey& key) {
  if (file.size() < kCacheEntryHeaderBytes) {
    return Corrupt(absl::StrCat(file.size(), " bytes, shorter than a header"));
  }
  if (std::memcmp(file.data(), kMagic, sizeof(kMagic)) != 0) {
    return Corrupt("wrong magic");
  }
  if (GetLittleEndian(file, 8, 4) != kFormatVersion) {
    return Corrupt("unknown format version");
  }
  if (GetLittleEndian(file, 12, 4) != kCacheEntryHeaderBytes) {
    return Corrupt("wrong header size");
  }
  if (std::memcmp(file.data() + kKeyOffset, key.digest.data(),
                  key.digest.size()) != 0) {
    return Corrupt("the entry is another key's");
  }
  for (size_t i = kReservedOffset; i < kCacheEntryHeaderBytes; ++i) {
    if (file[i] != '\0') return Corrupt("reserved header bytes are not zero");
  }
  const uint64_t payload_size = GetLittleEndian(file, kPayloadSizeOffset, 8);
  if (payload_size != file.size() - kCacheEntryHeaderBytes) {
    return Corrupt(absl::StrCat("the header says ", payload_size,
                                " payload bytes, the file holds ",
                                file.size() - kCacheEntryHeaderBytes));
  }
  absl::string_view payload = file.substr(kCacheEntryHeaderBytes);
  const Sha256::Digest hash = Sha256::Of(payload);
  if (std::memcmp(file.data() + kPayloadHashOffset, hash.data(), hash.size()) !=
      0) {
    return Corrupt("the payload does not match its hash");
  }
  return std::string(payload);
}

}  // namespace mxcts::runtime
