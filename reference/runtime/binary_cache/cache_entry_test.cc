// Copyright mxcts authors.
//
// Cache files: what is encoded decodes under its own key, and every kind of
// damage is rejected. [api.cache.corrupt.entry-ignored-and-rebuilt]

#include "reference/runtime/binary_cache/cache_entry.h"

#include <gtest/gtest.h>

#include <string>

#include "absl/status/status.h"

namespace mxcts::runtime {
namespace {

CacheKey Key(const char* text) {
  return CacheKeyBuilder().Add("k", text).Build();
}

TEST(CacheEntry, RoundTrip) {
  const std::string payload = std::string("MCMODULE\0image", 14);
  const std::string file = EncodeCacheEntry(Key("a"), payload);
  EXPECT_EQ(file.size(), kCacheEntryHeaderBytes + payload.size());
  absl::StatusOr<std::string> decoded = DecodeCacheEntry(file, Key("a"));
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  EXPECT_EQ(*decoded, payload);
}

TEST(CacheEntry, EmptyPayloadRoundTrips) {
  absl::StatusOr<std::string> decoded =
      DecodeCacheEntry(EncodeCacheEntry(Key("a"), ""), Key("a"));
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  EXPECT_EQ(*decoded, "");
}

TEST(CacheEntry, AnotherKeyIsRejected) {
  const std::string file = EncodeCacheEntry(Key("a"), "payload");
  EXPECT_EQ(DecodeCacheEntry(file, Key("b")).status().code(),
            absl::StatusCode::kDataLoss);
}

TEST(CacheEntry, EveryTruncationIsRejected) {
  const std::string file = EncodeCacheEntry(Key("a"), "some payload bytes");
  for (size_t size = 0; size < file.size(); ++size) {
    EXPECT_FALSE(DecodeCacheEntry(file.substr(0, size), Key("a")).ok())
        << "truncated to " << size;
  }
}

TEST(CacheEntry, AppendedBytesAreRejected) {
  const std::string file = EncodeCacheEntry(Key("a"), "payload");
  EXPECT_FALSE(DecodeCacheEntry(file + "x", Key("a")).ok());
}

// Flipping any one bit of the file, header or payload, is caught.
TEST(CacheEntry, EveryFlippedBitIsRejected) {
  const std::string file = EncodeCacheEntry(Key("a"), "payload!");
  for (size_t byte = 0; byte < file.size(); ++byte) {
    for (int bit = 0; bit < 8; ++bit) {
      std::string damaged = file;
      damaged[byte] = static_cast<char>(damaged[byte] ^ (1 << bit));
      ASSERT_FALSE(DecodeCacheEntry(damaged, Key("a")).ok())
          << "byte " << byte << " bit " << bit;
    }
  }
}

}  // namespace
}  // namespace mxcts::runtime
