// Copyright mxcts authors.
//
// Tests of the .dynsym reader on the hand-made test image and on corrupted
// copies of it, and of the record name patterns.

#include "reference/runtime/images/elf_dynsym.h"

#include <elf.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "reference/runtime/errors/error_mapping.h"
#include "reference/runtime/testing/runtime_testing.h"

namespace mxcts::runtime {
namespace {

std::vector<unsigned char> TestImage() {
  return runtime_testing::ReadFileBytes(runtime_testing::RunfilePath(
      "reference/runtime/images/testdata/libtest_image.so"));
}

bool Contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

TEST(ReadDefinedDynamicSymbols, FindsTheRecordsOfTheTestImage) {
  std::vector<unsigned char> image = TestImage();
  ASSERT_FALSE(image.empty());
  absl::StatusOr<std::vector<std::string>> names =
      ReadDefinedDynamicSymbols(image.data(), image.size());
  ASSERT_TRUE(names.ok()) << names.status();
  EXPECT_TRUE(Contains(*names, "__mc_image_bind"));
  EXPECT_TRUE(Contains(*names, "__mcdev___mc_variable_record_0"));
  int kernels = std::count_if(
      names->begin(), names->end(),
      [](const std::string& n) { return IsKernelRecordSymbol(n); });
  int variables = std::count_if(
      names->begin(), names->end(),
      [](const std::string& n) { return IsVariableRecordSymbol(n); });
  EXPECT_EQ(kernels, 4);
  EXPECT_EQ(variables, 3);
  // Internal symbols are not exported.
  EXPECT_FALSE(Contains(*names, "_ZN12_GLOBAL__N_110device_varE"));
}

TEST(ReadDefinedDynamicSymbols, OmitsUndefinedSymbols) {
  std::vector<unsigned char> image = TestImage();
  absl::StatusOr<std::vector<std::string>> names =
      ReadDefinedDynamicSymbols(image.data(), image.size());
  ASSERT_TRUE(names.ok());
  // The image imports nothing it defines: e.g. no C library function.
  EXPECT_FALSE(Contains(*names, "memcpy"));
  EXPECT_FALSE(Contains(*names, "__cxa_finalize"));
}

TEST(ReadDefinedDynamicSymbols, RejectsWhatIsNotAnElfObject) {
  const unsigned char text[] =
      "this is not an ELF object, just text....."
      "............................................";
  absl::StatusOr<std::vector<std::string>> names =
      ReadDefinedDynamicSymbols(text, sizeof(text));
  ASSERT_FALSE(names.ok());
  EXPECT_EQ(ToMcError(names.status()), mcErrorInvalidKernelImage);
  EXPECT_FALSE(ReadDefinedDynamicSymbols(nullptr, 0).ok());
}

TEST(ReadDefinedDynamicSymbols, RejectsEveryTruncation) {
  std::vector<unsigned char> image = TestImage();
  ASSERT_TRUE(ReadDefinedDynamicSymbols(image.data(), image.size()).ok());
  // The section headers sit at the end, so any shorter prefix must fail
  // cleanly (and never read out of bounds: run under ASan to see).
  for (size_t size : {size_t{0}, size_t{16}, sizeof(Elf64_Ehdr),
                      image.size() / 2, image.size() - 1}) {
    EXPECT_FALSE(ReadDefinedDynamicSymbols(image.data(), size).ok()) << size;
  }
}

TEST(ReadDefinedDynamicSymbols, RejectsOutOfBoundsSectionTable) {
  std::vector<unsigned char> image = TestImage();
  Elf64_Ehdr header;
  std::memcpy(&header, image.data(), sizeof(header));
  header.e_shoff = image.size() - 8;
  std::memcpy(image.data(), &header, sizeof(header));
  EXPECT_FALSE(ReadDefinedDynamicSymbols(image.data(), image.size()).ok());
}

TEST(ReadDefinedDynamicSymbols, RejectsNameOffsetsPastTheStringTable) {
  std::vector<unsigned char> image = TestImage();
  Elf64_Ehdr header;
  std::memcpy(&header, image.data(), sizeof(header));
  for (unsigned i = 0; i < header.e_shnum; ++i) {
    Elf64_Shdr section;
    size_t at = header.e_shoff + i * sizeof(Elf64_Shdr);
    std::memcpy(&section, image.data() + at, sizeof(section));
    if (section.sh_type != SHT_DYNSYM) continue;
    Elf64_Sym symbol;
    size_t sym_at = section.sh_offset + sizeof(Elf64_Sym);  // entry 1
    std::memcpy(&symbol, image.data() + sym_at, sizeof(symbol));
    symbol.st_name = 0x7fffffff;
    symbol.st_shndx = 1;  // defined, so its name is read
    std::memcpy(image.data() + sym_at, &symbol, sizeof(symbol));
  }
  absl::StatusOr<std::vector<std::string>> names =
      ReadDefinedDynamicSymbols(image.data(), image.size());
  EXPECT_FALSE(names.ok());
}

TEST(RecordPatterns, MatchKernelAndVariableRecords) {
  EXPECT_TRUE(IsKernelRecordSymbol(
      "__mcdev__ZN13__mc_internal12DeviceKernelIPFvPiEXadL_Z1kPiEEE6recordE"));
  EXPECT_FALSE(IsKernelRecordSymbol(
      "_ZN13__mc_internal12DeviceKernelIPFvPiEXadL_Z1kPiEEE6recordE"));
  EXPECT_FALSE(IsKernelRecordSymbol(
      "__mcdev__ZN13__mc_internal12DeviceKernelIPFvPiEXadL_"
      "Z1kPiEEE5EntryEPPv"));
  EXPECT_FALSE(
      IsKernelRecordSymbol("__mcdev__ZN13__mc_internal12DeviceKernel6recordE"));
  EXPECT_TRUE(IsVariableRecordSymbol("__mcdev___mc_variable_record_12"));
  EXPECT_FALSE(IsVariableRecordSymbol("__mcdev___mc_variable_record_"));
  EXPECT_FALSE(IsVariableRecordSymbol("__mc_variable_record_12"));
}

TEST(KernelDisplayName, IsTheTextAfterSigFUpToTheBracket) {
  EXPECT_EQ(KernelDisplayName("constexpr const char* __mc_internal::"
                              "KernelKey() [with Sig = void (*)(int*); Sig F "
                              "= ns::Scale<float>]"),
            "ns::Scale<float>");
  EXPECT_EQ(KernelDisplayName("custom key"), "custom key");
  // A kernel with internal linkage in relocatable device code.
  EXPECT_EQ(KernelDisplayName("constexpr const char* __mc_internal::"
                              "KernelKeyInUnit() [with Sig = void (*)(int*); "
                              "Sig F = sk; long long unsigned int Unit = "
                              "1234]"),
            "sk");
}

TEST(VariableDisplayName, DropsTheSourceTag) {
  EXPECT_EQ(VariableDisplayName("ns::counter@3dab0b5e7c43f19e"), "ns::counter");
  EXPECT_EQ(VariableDisplayName("counter"), "counter");
}

}  // namespace
}  // namespace mxcts::runtime
