// Copyright mxcts authors.
//
// The cache key: equal inputs give equal keys; any change of a value, a
// label, the order or the way values are split gives another key.
// [api.cache.contents.keyed-by-input]

#include "reference/runtime/binary_cache/cache_key.h"

#include <gtest/gtest.h>

namespace mxcts::runtime {
namespace {

CacheKey KeyOf(
    std::initializer_list<std::pair<const char*, const char*>> fields) {
  CacheKeyBuilder builder;
  for (const auto& [label, value] : fields) builder.Add(label, value);
  return builder.Build();
}

TEST(CacheKey, SameInputsSameKey) {
  EXPECT_EQ(KeyOf({{"source", "a"}, {"option", "-O2"}}),
            KeyOf({{"source", "a"}, {"option", "-O2"}}));
}

TEST(CacheKey, HexMatchesDigest) {
  const CacheKey key = KeyOf({{"source", "a"}});
  EXPECT_EQ(key.hex, Sha256::ToHex(key.digest));
  EXPECT_TRUE(IsCacheKeyHex(key.hex));
}

TEST(CacheKey, ValueChangesKey) {
  EXPECT_NE(KeyOf({{"source", "a"}}), KeyOf({{"source", "b"}}));
}

TEST(CacheKey, LabelChangesKey) {
  EXPECT_NE(KeyOf({{"source", "a"}}), KeyOf({{"header", "a"}}));
}

TEST(CacheKey, OrderChangesKey) {
  EXPECT_NE(KeyOf({{"option", "-DA"}, {"option", "-DB"}}),
            KeyOf({{"option", "-DB"}, {"option", "-DA"}}));
}

TEST(CacheKey, SplittingChangesKey) {
  EXPECT_NE(KeyOf({{"option", "-DA"}, {"option", "B"}}),
            KeyOf({{"option", "-D"}, {"option", "AB"}}));
  EXPECT_NE(KeyOf({{"ab", "c"}}), KeyOf({{"a", "bc"}}));
}

TEST(CacheKey, EmptyFieldCounts) {
  EXPECT_NE(KeyOf({{"source", "a"}}), KeyOf({{"source", "a"}, {"option", ""}}));
}

TEST(CacheKey, IsCacheKeyHexRejectsOtherText) {
  EXPECT_TRUE(IsCacheKeyHex(std::string(64, 'a')));
  EXPECT_FALSE(IsCacheKeyHex(std::string(63, 'a')));
  EXPECT_FALSE(IsCacheKeyHex(std::string(65, 'a')));
  EXPECT_FALSE(IsCacheKeyHex(std::string(64, 'A')));
  EXPECT_FALSE(IsCacheKeyHex(std::string(63, 'a') + "g"));
}

}  // namespace
}  // namespace mxcts::runtime
