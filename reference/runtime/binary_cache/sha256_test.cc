// Copyright mxcts authors.
//
// SHA-256 against the examples of FIPS 180-4 (NIST's "Examples with
// intermediate values") and the long-message vectors, and against itself
// fed in every split, so block boundaries and padding lengths are covered.

#include "reference/runtime/binary_cache/sha256.h"

#include <gtest/gtest.h>

#include <string>

namespace mxcts::runtime {
namespace {

TEST(Sha256, EmptyMessage) {
  EXPECT_EQ(Sha256::HexOf(""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(Sha256, OneBlockMessage) {
  EXPECT_EQ(Sha256::HexOf("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(Sha256, TwoBlockMessage) {
  EXPECT_EQ(
      Sha256::HexOf("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST(Sha256, LongTwoBlockMessage) {
  EXPECT_EQ(Sha256::HexOf("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghij"
                          "klmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrst"
                          "nopqrstu"),
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}

TEST(Sha256, OneMillionAs) {
  Sha256 hash;
  const std::string thousand(1000, 'a');
  for (int i = 0; i < 1000; ++i) hash.Update(thousand);
  EXPECT_EQ(Sha256::ToHex(hash.Finish()),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

// A different message gives a different digest (the control of the vectors
// above: the comparison can fail).
TEST(Sha256, OneBitChangesTheDigest) {
  EXPECT_NE(Sha256::HexOf("abc"), Sha256::HexOf("abd"));
  EXPECT_NE(Sha256::HexOf(""), Sha256::HexOf(std::string(1, '\0')));
}

// Every length from 0 to 200 bytes (all padding cases: 55, 56, 63, 64 and
// their multiples), fed whole and in every two-part split, hashes alike.
TEST(Sha256, SplitsAndLengthsAgree) {
  std::string message;
  for (int i = 0; i < 200; ++i) message.push_back(static_cast<char>(i * 7));
  for (size_t length = 0; length <= message.size(); ++length) {
    const std::string whole = Sha256::HexOf(message.substr(0, length));
    for (size_t split = 0; split <= length; split += 13) {
      Sha256 hash;
      hash.Update(message.substr(0, split));
      hash.Update(message.substr(split, length - split));
      ASSERT_EQ(Sha256::ToHex(hash.Finish()), whole)
          << "length " << length << " split " << split;
    }
  }
}

TEST(Sha256, HexIsLowercaseAnd64Digits) {
  const std::string hex = Sha256::HexOf("mxcts");
  ASSERT_EQ(hex.size(), 64u);
  for (char c : hex) {
    EXPECT_TRUE((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')) << hex;
  }
}

}  // namespace
}  // namespace mxcts::runtime
