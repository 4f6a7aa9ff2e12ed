// Copyright mxcts authors.
//
// Tests of LoadedImage: loading the test image from its bytes by either
// method, separate copies per load, binding, and refusal of bad images.

#include "reference/runtime/images/loaded_image.h"

#include <gtest/gtest.h>

#include "reference/runtime/errors/error_mapping.h"
#include "reference/runtime/testing/runtime_testing.h"

namespace mxcts::runtime {
namespace {

using __mc_internal::DeviceVariableRecord;

std::vector<unsigned char> TestImage() {
  return runtime_testing::ReadFileBytes(runtime_testing::RunfilePath(
      "reference/runtime/images/testdata/libtest_image.so"));
}

const __mc_image_runtime* Table() {
  return runtime_testing::InertImageRuntimeTable();
}

const DeviceVariableRecord* DeviceVar(const LoadedImage& image) {
  return static_cast<const DeviceVariableRecord*>(
      image.Symbol("__mcdev___mc_variable_record_0"));
}

class LoadMethod : public testing::TestWithParam<LoadedImage::Method> {};

TEST_P(LoadMethod, LoadsAndResolvesRecords) {
  std::vector<unsigned char> bytes = TestImage();
  ASSERT_FALSE(bytes.empty());
  absl::StatusOr<std::unique_ptr<LoadedImage>> image =
      LoadedImage::Load(bytes.data(), bytes.size(), Table(), GetParam());
  ASSERT_TRUE(image.ok()) << image.status();
  EXPECT_EQ((*image)->from_memory_file(),
            GetParam() == LoadedImage::Method::kPreferMemoryFile);
  const DeviceVariableRecord* record = DeviceVar(**image);
  ASSERT_NE(record, nullptr);
  EXPECT_STREQ(record->key, "device_var");
  EXPECT_EQ(*static_cast<int*>(record->address), 7);
  EXPECT_EQ((*image)->Symbol("no_such_symbol"), nullptr);
}

INSTANTIATE_TEST_SUITE_P(
    BothMethods, LoadMethod,
    testing::Values(LoadedImage::Method::kPreferMemoryFile,
                    LoadedImage::Method::kTemporaryFileOnly),
    [](const testing::TestParamInfo<LoadedImage::Method>& info) {
      return info.param == LoadedImage::Method::kPreferMemoryFile
                 ? std::string("MemoryFile")
                 : std::string("TemporaryFile");
    });

TEST(LoadedImage, EachLoadIsASeparateCopy) {
  // [lang.variable.device.distinct-per-device]
  std::vector<unsigned char> bytes = TestImage();
  auto first = LoadedImage::Load(bytes.data(), bytes.size(), Table());
  auto second = LoadedImage::Load(bytes.data(), bytes.size(), Table());
  ASSERT_TRUE(first.ok() && second.ok());
  int* a = static_cast<int*>(DeviceVar(**first)->address);
  int* b = static_cast<int*>(DeviceVar(**second)->address);
  EXPECT_NE(a, b);
  *a = 100;
  EXPECT_EQ(*b, 7);
}

TEST(LoadedImage, ALoadAfterAnUnloadIsFresh) {
  // A path reused after unloading must not return the old copy.
  std::vector<unsigned char> bytes = TestImage();
  auto first = LoadedImage::Load(bytes.data(), bytes.size(), Table());
  ASSERT_TRUE(first.ok());
  *static_cast<int*>(DeviceVar(**first)->address) = 55;
  first->reset();
  auto second = LoadedImage::Load(bytes.data(), bytes.size(), Table());
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(*static_cast<int*>(DeviceVar(**second)->address), 7);
}

TEST(LoadedImage, GarbageIsInvalidKernelImage) {
  std::vector<unsigned char> bytes(4096, 0x42);
  auto image = LoadedImage::Load(bytes.data(), bytes.size(), Table());
  ASSERT_FALSE(image.ok());
  EXPECT_EQ(ToMcError(image.status()), mcErrorInvalidKernelImage);
  EXPECT_FALSE(LoadedImage::Load(nullptr, 0, Table()).ok());
}

TEST(LoadedImage, NullTableIsInitializationError) {
  std::vector<unsigned char> bytes = TestImage();
  auto image = LoadedImage::Load(bytes.data(), bytes.size(), nullptr);
  ASSERT_FALSE(image.ok());
  EXPECT_EQ(ToMcError(image.status()), mcErrorInitializationError);
}

TEST(LoadedImage, WrongAbiVersionIsInvalidKernelImage) {
  std::vector<unsigned char> bytes =
      runtime_testing::ReadFileBytes(runtime_testing::RunfilePath(
          "reference/runtime/images/testdata/libwrong_abi_image.so"));
  ASSERT_FALSE(bytes.empty());
  auto image = LoadedImage::Load(bytes.data(), bytes.size(), Table());
  ASSERT_FALSE(image.ok());
  EXPECT_EQ(ToMcError(image.status()), mcErrorInvalidKernelImage);
}

}  // namespace
}  // namespace mxcts::runtime
