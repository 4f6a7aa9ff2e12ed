// Copyright mxcts authors.
//
// Tests of the ELF layout readers on the test binary itself (whose sections
// and segments the loader has placed, so the answers can be checked against
// real addresses), on the hand-made device image, and on corrupt bytes.

#include "reference/runtime/images/elf_layout.h"

#include <gtest/gtest.h>
#include <link.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "mc_runtime_api.h"
#include "reference/runtime/errors/error_mapping.h"
#include "reference/runtime/testing/runtime_testing.h"

// A variable in a section of its own, as __constant__ variables are.
__attribute__((section("mxcts_layout_probe"), used)) int layout_probe = 7;

namespace mxcts::runtime {
namespace {

using mxcts::runtime_testing::ReadFileBytes;
using mxcts::runtime_testing::RunfilePath;

std::vector<unsigned char> OwnBytes() {
  return ReadFileBytes("/proc/self/exe");
}

// The load bias of the main program: the first object dl_iterate_phdr
// reports.
uintptr_t MainProgramBias() {
  uintptr_t bias = 0;
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* data) {
        *static_cast<uintptr_t*>(data) = info->dlpi_addr;
        return 1;
      },
      &bias);
  return bias;
}

TEST(FindSection, FindsTheSectionWhereTheLoaderPutIt) {
  std::vector<unsigned char> bytes = OwnBytes();
  ASSERT_FALSE(bytes.empty());
  absl::StatusOr<std::optional<ElfRange>> probe =
      FindSection(bytes.data(), bytes.size(), "mxcts_layout_probe");
  ASSERT_TRUE(probe.ok()) << probe.status();
  ASSERT_TRUE(probe->has_value());
  EXPECT_EQ(MainProgramBias() + (*probe)->address,
            reinterpret_cast<uintptr_t>(&layout_probe));
  EXPECT_GE((*probe)->size, sizeof(layout_probe));
}

TEST(FindSection, AbsentSectionIsNone) {
  std::vector<unsigned char> bytes = OwnBytes();
  absl::StatusOr<std::optional<ElfRange>> constants =
      FindSection(bytes.data(), bytes.size(), kConstantSectionName);
  ASSERT_TRUE(constants.ok()) << constants.status();
  EXPECT_FALSE(constants->has_value());
  // A prefix of a section's name is not its name.
  absl::StatusOr<std::optional<ElfRange>> prefix =
      FindSection(bytes.data(), bytes.size(), "mxcts_layout");
  ASSERT_TRUE(prefix.ok());
  EXPECT_FALSE(prefix->has_value());
}

TEST(ExecutableSegments, HoldTheCodeAndNotTheData) {
  std::vector<unsigned char> bytes = OwnBytes();
  absl::StatusOr<std::vector<ElfRange>> segments =
      ExecutableSegments(bytes.data(), bytes.size());
  ASSERT_TRUE(segments.ok()) << segments.status();
  const uintptr_t bias = MainProgramBias();
  auto in_code = [&](uintptr_t address) {
    for (const ElfRange& segment : *segments) {
      if (address >= bias + segment.address &&
          address < bias + segment.address + segment.size) {
        return true;
      }
    }
    return false;
  };
  EXPECT_TRUE(in_code(reinterpret_cast<uintptr_t>(&MainProgramBias)));
  EXPECT_FALSE(in_code(reinterpret_cast<uintptr_t>(&layout_probe)));
}

// The __constant__ section of the image at `path`, which must have code.
std::optional<ElfRange> ConstantSectionOfImage(const std::string& path) {
  std::vector<unsigned char> bytes = ReadFileBytes(RunfilePath(path));
  EXPECT_FALSE(bytes.empty()) << path;
  absl::StatusOr<std::vector<ElfRange>> segments =
      ExecutableSegments(bytes.data(), bytes.size());
  EXPECT_TRUE(segments.ok()) << segments.status();
  EXPECT_FALSE(segments.ok() && segments->empty()) << path;
  absl::StatusOr<std::optional<ElfRange>> constants =
      FindSection(bytes.data(), bytes.size(), kConstantSectionName);
  EXPECT_TRUE(constants.ok()) << constants.status();
  return constants.ok() ? *constants : std::nullopt;
}

TEST(ExecutableSegments, DeviceImageWithConstantsHasConstantPages) {
  // testdata/test_image.cu declares ns::constant_table.
  std::optional<ElfRange> constants = ConstantSectionOfImage(
      "reference/runtime/images/testdata/libtest_image.so");
  ASSERT_TRUE(constants.has_value());
  EXPECT_EQ(constants->address % 4096, 0u);
  EXPECT_GE(constants->size, sizeof(float[4]));
}

TEST(ExecutableSegments, DeviceImageWithoutConstantsHasNoConstantSection) {
  // Control: the engine's test image declares no __constant__ variable.
  EXPECT_FALSE(ConstantSectionOfImage("reference/device/image/test_image.so")
                   .has_value());
}

TEST(ElfLayout, CorruptBytesAreAnInvalidImage) {
  std::vector<unsigned char> bytes = OwnBytes();
  ASSERT_GT(bytes.size(), 64u);
  // Shorter than a header.
  EXPECT_EQ(ToMcError(FindSection(bytes.data(), 10, "x").status()),
            mcErrorInvalidKernelImage);
  EXPECT_EQ(ToMcError(ExecutableSegments(bytes.data(), 10).status()),
            mcErrorInvalidKernelImage);
  // The header alone: the tables it points at are missing.
  EXPECT_EQ(ToMcError(FindSection(bytes.data(), 64, "x").status()),
            mcErrorInvalidKernelImage);
  EXPECT_EQ(ToMcError(ExecutableSegments(bytes.data(), 64).status()),
            mcErrorInvalidKernelImage);
  // Not ELF.
  std::vector<unsigned char> not_elf = bytes;
  not_elf[1] = 'X';
  EXPECT_EQ(
      ToMcError(FindSection(not_elf.data(), not_elf.size(), "x").status()),
      mcErrorInvalidKernelImage);
  // Control: the whole bytes are fine.
  EXPECT_TRUE(FindSection(bytes.data(), bytes.size(), "x").ok());
}

}  // namespace
}  // namespace mxcts::runtime
