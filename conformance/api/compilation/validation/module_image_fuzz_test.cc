// Conformance: damaged module images (docs/spec/api-compilation.md,
// api.module.image.checked-before-use): an image from mcrtc with bytes
// changed in its first 32 bytes, in the next 64 (where an ELF header would
// be), near its end (where section headers would be), at random places, or
// cut short, is refused by mcModuleLoadData or mcModuleLoad with
// mcErrorInvalidKernelImage, and the process goes on. The image is treated
// as opaque bytes; each parameter is one kind and place of damage, and the
// undamaged image is the control.

#include <mc_runtime.h>
#include <stdlib.h>

#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "conformance/api/compilation/execution/module_kernels.h"
#include "conformance/testing/spec.h"

namespace {

using mxcts::conformance::ModuleImage;

std::string TempPath(const std::string& leaf) {
  const char* tmp = getenv("TEST_TMPDIR");
  return std::string(tmp ? tmp : "/tmp") + "/" + leaf;
}

// Loads `bytes` both ways (from memory only when the damage keeps its
// length) and returns the results.
std::vector<mcError_t> LoadBothWays(const std::vector<char>& bytes,
                                    bool from_memory) {
  std::vector<mcError_t> results;
  mcModule_t module = nullptr;
  if (from_memory) {
    mcError_t r = mcModuleLoadData(&module, bytes.data());
    if (r == mcSuccess) mcModuleUnload(module);
    results.push_back(r);
  }
  const std::string path = TempPath("damaged.mcbin");
  std::ofstream(path, std::ios::binary | std::ios::trunc)
      .write(bytes.data(), bytes.size());
  mcError_t r = mcModuleLoad(&module, path.c_str());
  if (r == mcSuccess) mcModuleUnload(module);
  results.push_back(r);
  return results;
}

class DamagedImage : public ModuleImage {};

TEST_F(DamagedImage, UndamagedImageLoadsBothWays) {
  MX_SPEC("api.module.image.checked-before-use",
          "api.module.load-data.loads-image");
  for (mcError_t r : LoadBothWays(Image(), true)) EXPECT_EQ(r, mcSuccess);
}

// One byte of the first 32, changed two ways: loaded from a file, whose
// size the runtime knows (a changed length field cannot make it read past
// the bytes).
class HeaderByte : public ModuleImage,
                   public ::testing::WithParamInterface<int> {};

TEST_P(HeaderByte, ChangedByteIsInvalidImage) {
  MX_SPEC("api.module.image.checked-before-use",
          "api.module.load.invalid-file-content");
  for (unsigned char mask : {0x01, 0x80}) {
    std::vector<char> bytes = Image();
    bytes[GetParam()] ^= static_cast<char>(mask);
    for (mcError_t r : LoadBothWays(bytes, false)) {
      EXPECT_EQ(r, mcErrorInvalidKernelImage) << "mask " << int(mask);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Bytes, HeaderByte, ::testing::Range(0, 32));

// Bytes after the first 32, changed in place: the length is kept, so the
// image is also loaded from memory.
class PayloadByte : public ModuleImage,
                    public ::testing::WithParamInterface<int> {};

TEST_P(PayloadByte, ChangedByteIsInvalidImage) {
  MX_SPEC("api.module.image.checked-before-use",
          "api.module.load-data.invalid-image");
  std::vector<char> bytes = Image();
  const size_t at = 32 + static_cast<size_t>(GetParam());
  ASSERT_LT(at, bytes.size());
  bytes[at] = static_cast<char>(~bytes[at]);
  for (mcError_t r : LoadBothWays(bytes, true))
    EXPECT_EQ(r, mcErrorInvalidKernelImage);
}

INSTANTIATE_TEST_SUITE_P(ElfHeaderRegion, PayloadByte, ::testing::Range(0, 64));

class TailByte : public ModuleImage,
                 public ::testing::WithParamInterface<int> {};

TEST_P(TailByte, ChangedByteIsInvalidImage) {
  MX_SPEC("api.module.image.checked-before-use",
          "api.module.load-data.invalid-image");
  std::vector<char> bytes = Image();
  const size_t from_end = static_cast<size_t>(GetParam()) * 37 + 1;
  ASSERT_LT(from_end + 32, bytes.size());
  const size_t at = bytes.size() - from_end;
  bytes[at] = static_cast<char>(bytes[at] ^ 0x5a);
  for (mcError_t r : LoadBothWays(bytes, true))
    EXPECT_EQ(r, mcErrorInvalidKernelImage);
}

INSTANTIATE_TEST_SUITE_P(SectionHeaderRegion, TailByte,
                         ::testing::Range(0, 40));

class RandomDamage : public ModuleImage,
                     public ::testing::WithParamInterface<int> {};

TEST_P(RandomDamage, IsInvalidImage) {
  MX_SPEC("api.module.image.checked-before-use",
          "api.module.load-data.invalid-image");
  std::vector<char> bytes = Image();
  std::mt19937 random(static_cast<unsigned>(GetParam()) * 7919u + 1u);
  const int changes = 1 + GetParam() % 16;
  bool changed = false;
  for (int i = 0; i < changes; ++i) {
    const size_t at = 32 + random() % (bytes.size() - 32);
    const char value = static_cast<char>(random());
    changed |= bytes[at] != value;
    bytes[at] = value;
  }
  if (!changed) GTEST_SKIP() << "the damage happened to change nothing";
  for (mcError_t r : LoadBothWays(bytes, true))
    EXPECT_EQ(r, mcErrorInvalidKernelImage);
}

INSTANTIATE_TEST_SUITE_P(Seeds, RandomDamage, ::testing::Range(0, 48));

class Truncated : public ModuleImage,
                  public ::testing::WithParamInterface<int> {};

TEST_P(Truncated, ShortFileIsInvalidImage) {
  MX_SPEC("api.module.image.checked-before-use",
          "api.module.load.invalid-file-content");
  const std::vector<char>& image = Image();
  // Parameters 0..15 cut at fixed lengths; 16..23 at eighths of the image.
  const int p = GetParam();
  static const size_t kFixed[] = {0,  1,  2,  7,  8,  9,  15, 16,
                                  24, 31, 32, 33, 40, 64, 95, 96};
  size_t length =
      p < 16 ? kFixed[p] : image.size() * static_cast<size_t>(p - 15) / 9;
  ASSERT_LT(length, image.size());
  std::vector<char> bytes(image.begin(), image.begin() + length);
  for (mcError_t r : LoadBothWays(bytes, false))
    EXPECT_EQ(r, mcErrorInvalidKernelImage);
}

INSTANTIATE_TEST_SUITE_P(Lengths, Truncated, ::testing::Range(0, 24));

TEST_F(DamagedImage, TruncatedPayloadInMemoryIsInvalidImage) {
  MX_SPEC("api.module.image.checked-before-use",
          "api.module.load-data.invalid-image");
  // The full length is there, but only the first half of the payload came.
  std::vector<char> bytes = Image();
  std::fill(bytes.begin() + bytes.size() / 2, bytes.end(), 0);
  mcModule_t module = nullptr;
  EXPECT_EQ(mcModuleLoadData(&module, bytes.data()), mcErrorInvalidKernelImage);
}

TEST_F(DamagedImage, TextIsInvalidImage) {
  MX_SPEC("api.module.load-data.invalid-image");
  mcModule_t module = nullptr;
  EXPECT_EQ(mcModuleLoadData(&module, "extern \"C\" __global__ void k() {}"),
            mcErrorInvalidKernelImage);
  EXPECT_EQ(mcModuleLoadData(&module, ""), mcErrorInvalidKernelImage);
  std::vector<char> zeros(4096, 0);
  EXPECT_EQ(mcModuleLoadData(&module, zeros.data()), mcErrorInvalidKernelImage);
}

TEST_F(DamagedImage, RuntimeWorksAfterRefusingDamage) {
  MX_SPEC("api.module.image.checked-before-use");
  std::vector<char> bytes = Image();
  bytes[40] ^= 1;
  mcModule_t module = nullptr;
  EXPECT_EQ(mcModuleLoadData(&module, bytes.data()), mcErrorInvalidKernelImage);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidKernelImage);
  EXPECT_EQ(mcGetLastError(), mcSuccess);  // not sticky
  ASSERT_EQ(mcModuleLoadData(&module, Image().data()), mcSuccess);
  mcFunction_t f = nullptr;
  EXPECT_EQ(mcModuleGetFunction(&f, module, "no_arguments"), mcSuccess);
  EXPECT_EQ(
      mcModuleLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr),
      mcSuccess);
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(mcModuleUnload(module), mcSuccess);
}

}  // namespace
