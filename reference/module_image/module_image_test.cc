// Copyright mxcts authors.
//
// Tests of the module image container: a wrapped payload opens again, and
// each damage to the header or the payload is refused with its reason.

#include "reference/module_image/module_image.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>

namespace mxcts::module_image {
namespace {

const unsigned char* Bytes(const std::string& s) {
  return reinterpret_cast<const unsigned char*>(s.data());
}

std::string Reason(const std::string& image, size_t available) {
  absl::StatusOr<Payload> payload = Open(Bytes(image), available);
  EXPECT_FALSE(payload.ok());
  return payload.ok() ? "" : std::string(payload.status().message());
}

TEST(ModuleImage, WrapThenOpenGivesThePayloadBack) {
  const std::string payload =
      "\x7f"
      "ELF and more bytes";
  std::string image = Wrap(payload);
  ASSERT_EQ(image.size(), kHeaderSize + payload.size());
  EXPECT_EQ(image.substr(0, 8), "MCMODULE");
  for (size_t available : {image.size(), kSizeUnknown}) {
    absl::StatusOr<Payload> opened = Open(Bytes(image), available);
    ASSERT_TRUE(opened.ok()) << opened.status();
    EXPECT_EQ(
        std::string(reinterpret_cast<const char*>(opened->data), opened->size),
        payload);
  }
}

TEST(ModuleImage, HashIsFnv1a) {
  EXPECT_EQ(PayloadHash(nullptr, 0), 0xcbf29ce484222325ull);
  EXPECT_EQ(PayloadHash(reinterpret_cast<const unsigned char*>("a"), 1),
            0xaf63dc4c8601ec8cull);
}

TEST(ModuleImage, RefusesWhatIsNotAnImage) {
  EXPECT_NE(Reason("hello", 6).find("too few"), std::string::npos);
  EXPECT_NE(Reason(std::string(64, 'x'), 64).find("not a module image"),
            std::string::npos);
  // A short string is not read past its first differing byte.
  const char text[] = "MCM";
  EXPECT_FALSE(HasMagic(reinterpret_cast<const unsigned char*>(text)));
  EXPECT_FALSE(Open(nullptr, 10).ok());
}

TEST(ModuleImage, RefusesAnotherVersionOrFlags) {
  std::string image = Wrap("payload");
  image[8] = 2;
  EXPECT_NE(Reason(image, image.size()).find("version 2"), std::string::npos);
  image = Wrap("payload");
  image[12] = 1;
  EXPECT_NE(Reason(image, image.size()).find("flags"), std::string::npos);
}

TEST(ModuleImage, RefusesSizesOutOfRange) {
  std::string image = Wrap("payload");
  std::memset(&image[16], 0, 8);
  EXPECT_NE(Reason(image, image.size()).find("out of range"),
            std::string::npos);
  std::memset(&image[16], 0xff, 8);
  EXPECT_NE(Reason(image, kSizeUnknown).find("out of range"),
            std::string::npos);
}

TEST(ModuleImage, RefusesATruncatedImage) {
  std::string image = Wrap("payload bytes");
  EXPECT_NE(Reason(image, image.size() - 1).find("truncated"),
            std::string::npos);
  EXPECT_NE(Reason(image, 20).find("truncated"), std::string::npos);
  ASSERT_TRUE(Open(Bytes(image), image.size()).ok());  // the control
}

TEST(ModuleImage, RefusesACorruptPayloadOrHash) {
  std::string image = Wrap("payload bytes");
  image[kHeaderSize + 3] ^= 1;
  EXPECT_NE(Reason(image, image.size()).find("corrupt"), std::string::npos);
  image = Wrap("payload bytes");
  image[24] ^= 1;
  EXPECT_NE(Reason(image, image.size()).find("corrupt"), std::string::npos);
}

}  // namespace
}  // namespace mxcts::module_image
