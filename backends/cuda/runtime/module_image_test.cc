// Copyright mxcts authors.
//
// The CUDA backend's checked module image (module_image.h): an image
// found whole gives back its code; any one changed byte of the code, of
// any length and in any position (inside the checksum's 32-byte blocks and
// in the bytes after them), a cut image and a damaged header are refused.
// The control of each refusal is the same image unchanged.

#include "backends/cuda/runtime/module_image.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace mxcts::cuda_backend {
namespace {

std::vector<char> CodeOfSize(size_t size) {
  std::vector<char> code(size);
  for (size_t i = 0; i < size; ++i) code[i] = static_cast<char>(i * 7 + 3);
  return code;
}

ImageKind Locate(const std::vector<char>& image, size_t available,
                 std::vector<char>* found) {
  const char* code = nullptr;
  size_t size = 0;
  const ImageKind kind = LocateImage(image.data(), available, &code, &size);
  if (kind == ImageKind::kWrapped) found->assign(code, code + size);
  return kind;
}

TEST(ModuleImage, WholeImageGivesItsCode) {
  for (size_t size : {1, 7, 31, 32, 33, 64, 100, 4099}) {
    const std::vector<char> code = CodeOfSize(size);
    const std::vector<char> image = WrapImage(code);
    std::vector<char> found;
    EXPECT_EQ(Locate(image, image.size(), &found), ImageKind::kWrapped) << size;
    EXPECT_EQ(found, code) << size;
    // Memory: the size is the header's.
    EXPECT_EQ(Locate(image, 0, &found), ImageKind::kWrapped) << size;
  }
}

TEST(ModuleImage, EveryChangedByteOfTheCodeIsRefused) {
  for (size_t size : {5, 32, 70, 129}) {
    const std::vector<char> image = WrapImage(CodeOfSize(size));
    for (size_t at = kImageHeaderBytes; at < image.size(); ++at) {
      for (int bit = 0; bit < 8; ++bit) {
        std::vector<char> damaged = image;
        damaged[at] = static_cast<char>(damaged[at] ^ (1 << bit));
        std::vector<char> found;
        EXPECT_EQ(Locate(damaged, damaged.size(), &found), ImageKind::kInvalid)
            << "size " << size << ", byte " << at << ", bit " << bit;
      }
    }
  }
}

TEST(ModuleImage, SwappedWordsAreRefused) {
  // Two 8-byte words of one 32-byte block exchanged: each lane sees
  // another word.
  const std::vector<char> image = WrapImage(CodeOfSize(64));
  std::vector<char> swapped = image;
  std::memcpy(swapped.data() + kImageHeaderBytes,
              image.data() + kImageHeaderBytes + 8, 8);
  std::memcpy(swapped.data() + kImageHeaderBytes + 8,
              image.data() + kImageHeaderBytes, 8);
  std::vector<char> found;
  EXPECT_EQ(Locate(swapped, swapped.size(), &found), ImageKind::kInvalid);
  EXPECT_EQ(Locate(image, image.size(), &found), ImageKind::kWrapped);
}

TEST(ModuleImage, CutImageAndDamagedHeaderAreRefused) {
  const std::vector<char> image = WrapImage(CodeOfSize(100));
  std::vector<char> found;
  EXPECT_EQ(Locate(image, image.size() - 1, &found), ImageKind::kInvalid);
  std::vector<char> bad_magic = image;
  bad_magic[0] = 'N';
  EXPECT_EQ(Locate(bad_magic, bad_magic.size(), &found), ImageKind::kInvalid);
  std::vector<char> reserved = image;
  reserved[24] = 1;
  EXPECT_EQ(Locate(reserved, reserved.size(), &found), ImageKind::kInvalid);
  EXPECT_EQ(Locate(image, image.size(), &found), ImageKind::kWrapped);
}

}  // namespace
}  // namespace mxcts::cuda_backend
