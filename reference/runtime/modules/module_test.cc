// Copyright mxcts authors.
//
// Tests of modules below the API: the images of reference/runtime/images'
// tests, wrapped as module images, loaded lazily and eagerly; lookups by
// symbol and by key; damaged images refused before the loader sees them;
// the handle table.

#include "reference/runtime/modules/module.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "reference/module_image/module_image.h"
#include "reference/runtime/errors/error_mapping.h"
#include "reference/runtime/modules/module_table.h"
#include "reference/runtime/testing/runtime_testing.h"

namespace mxcts::runtime {
namespace {

std::string Wrapped(const char* path) {
  std::vector<unsigned char> bytes =
      runtime_testing::ReadFileBytes(runtime_testing::RunfilePath(path));
  return module_image::Wrap(std::string(bytes.begin(), bytes.end()));
}

std::string TestImage() {
  return Wrapped("reference/runtime/images/testdata/libtest_image.so");
}

// An image that loads but does not bind (another ABI version).
std::string WrongAbiImage() {
  return Wrapped("reference/runtime/images/testdata/libwrong_abi_image.so");
}

const unsigned char* Bytes(const std::string& s) {
  return reinterpret_cast<const unsigned char*>(s.data());
}

mcError_t ErrorOf(const absl::Status& status) { return ToMcError(status); }

TEST(Module, LazyModuleFindsKernelsByTheirSymbols) {
  const std::string image = TestImage();
  absl::StatusOr<std::unique_ptr<Module>> module =
      Module::Create(Bytes(image), image.size(), 0, ModuleLoading::kLazy);
  ASSERT_TRUE(module.ok()) << module.status();
  absl::StatusOr<ModuleFunction*> count = (*module)->GetFunction("_Z5countPi");
  ASSERT_TRUE(count.ok()) << count.status();
  EXPECT_EQ((*count)->record->param_count, 1u);
  absl::StatusOr<ModuleFunction*> again = (*module)->GetFunction("_Z5countPi");
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, *count);
  absl::StatusOr<ModuleFunction*> mixed =
      (*module)->GetFunction("_Z5mixedcdPi");
  ASSERT_TRUE(mixed.ok()) << mixed.status();
  EXPECT_EQ((*mixed)->record->param_count, 3u);
  EXPECT_EQ(ErrorOf((*module)->GetFunction("count").status()),
            mcErrorSymbolNotFound);
  EXPECT_EQ((*module)->functions().size(), 4u);
}

TEST(Module, GlobalsBySymbolAndByKey) {
  const std::string image = TestImage();
  absl::StatusOr<std::unique_ptr<Module>> module =
      Module::Create(Bytes(image), image.size(), 0, ModuleLoading::kEager);
  ASSERT_TRUE(module.ok()) << module.status();
  absl::StatusOr<ModuleVariable> device_var =
      (*module)->GetGlobal("device_var");
  ASSERT_TRUE(device_var.ok()) << device_var.status();
  EXPECT_EQ(device_var->size, sizeof(int));
  EXPECT_EQ(*static_cast<int*>(device_var->address), 7);
  absl::StatusOr<ModuleVariable> by_symbol =
      (*module)->GetGlobal("_ZN2ns14constant_tableE");
  absl::StatusOr<ModuleVariable> by_key =
      (*module)->GetGlobal("ns::constant_table");
  ASSERT_TRUE(by_symbol.ok()) << by_symbol.status();
  ASSERT_TRUE(by_key.ok()) << by_key.status();
  EXPECT_EQ(by_symbol->address, by_key->address);
  EXPECT_EQ(by_symbol->size, 4 * sizeof(float));
  EXPECT_EQ(ErrorOf((*module)->GetGlobal("nothing").status()),
            mcErrorSymbolNotFound);
}

// [api.module.loading.reference-load-points] An image that does not bind
// fails at the load under EAGER, at the first lookup under LAZY.
TEST(Module, EagerLoadingFailsAtCreation) {
  const std::string image = WrongAbiImage();
  absl::StatusOr<std::unique_ptr<Module>> module =
      Module::Create(Bytes(image), image.size(), 0, ModuleLoading::kEager);
  EXPECT_EQ(ErrorOf(module.status()), mcErrorInvalidKernelImage);
}

TEST(Module, LazyLoadingFailsAtTheFirstLookupAndAgainLater) {
  const std::string image = WrongAbiImage();
  absl::StatusOr<std::unique_ptr<Module>> module =
      Module::Create(Bytes(image), image.size(), 0, ModuleLoading::kLazy);
  ASSERT_TRUE(module.ok()) << module.status();
  EXPECT_EQ(ErrorOf((*module)->GetFunction("anything").status()),
            mcErrorInvalidKernelImage);
  EXPECT_EQ(ErrorOf((*module)->GetGlobal("anything").status()),
            mcErrorInvalidKernelImage);
}

TEST(Module, RefusesWhatIsNoModuleImage) {
  const std::string text = "not an image at all, just some text bytes here";
  EXPECT_EQ(
      ErrorOf(Module::Create(Bytes(text), text.size(), 0, ModuleLoading::kLazy)
                  .status()),
      mcErrorInvalidKernelImage);
  std::string image = TestImage();
  EXPECT_EQ(ErrorOf(Module::Create(Bytes(image), image.size() - 1, 0,
                                   ModuleLoading::kLazy)
                        .status()),
            mcErrorInvalidKernelImage);
  // A valid container around bytes that are no ELF object.
  const std::string wrapped = module_image::Wrap(std::string(4096, 'x'));
  EXPECT_EQ(ErrorOf(Module::Create(Bytes(wrapped), wrapped.size(), 0,
                                   ModuleLoading::kLazy)
                        .status()),
            mcErrorInvalidKernelImage);
}

// Damage that keeps the container valid (the hash is made again): the ELF
// check refuses it or lets it by, and nothing is loaded, so nothing
// crashes. [api.module.image.checked-before-use]
TEST(Module, ResealedDamageIsCheckedWithoutLoading) {
  std::vector<unsigned char> elf =
      runtime_testing::ReadFileBytes(runtime_testing::RunfilePath(
          "reference/runtime/images/testdata/libtest_image.so"));
  ASSERT_FALSE(elf.empty());
  std::mt19937 random(2026);
  int refused = 0;
  for (int round = 0; round < 400; ++round) {
    std::string payload(elf.begin(), elf.end());
    for (int c = 0; c < 1 + round % 4; ++c) {
      const size_t limit = round % 2 == 0 ? 128 : payload.size();
      payload[random() % limit] = static_cast<char>(random());
    }
    const std::string image = module_image::Wrap(payload);
    absl::StatusOr<std::unique_ptr<Module>> module =
        Module::Create(Bytes(image), image.size(), 0, ModuleLoading::kLazy);
    if (!module.ok()) {
      EXPECT_EQ(ErrorOf(module.status()), mcErrorInvalidKernelImage);
      ++refused;
    }
  }
  EXPECT_GT(refused, 0);
}

TEST(ModuleTable, HandlesLiveUntilUnload) {
  const std::string image = TestImage();
  ModuleTable& table = ModuleTable::Get();
  absl::StatusOr<mcModule_t> module = table.Load(Bytes(image), image.size(), 0);
  ASSERT_TRUE(module.ok()) << module.status();
  absl::StatusOr<mcFunction_t> function =
      table.GetFunction(*module, "_Z5countPi");
  ASSERT_TRUE(function.ok()) << function.status();
  EXPECT_TRUE(table.FindFunction(*function).ok());
  EXPECT_TRUE(table.Unload(*module).ok());
  EXPECT_EQ(ErrorOf(table.Find(*module).status()),
            mcErrorInvalidResourceHandle);
  EXPECT_EQ(ErrorOf(table.FindFunction(*function).status()),
            mcErrorInvalidResourceHandle);
  EXPECT_EQ(ErrorOf(table.Unload(*module)), mcErrorInvalidResourceHandle);
}

TEST(ModuleTable, UnloadDeviceUnloadsOnlyThatDevice) {
  const std::string image = TestImage();
  ModuleTable& table = ModuleTable::Get();
  absl::StatusOr<mcModule_t> on_0 = table.Load(Bytes(image), image.size(), 0);
  absl::StatusOr<mcModule_t> on_1 = table.Load(Bytes(image), image.size(), 1);
  ASSERT_TRUE(on_0.ok() && on_1.ok());
  table.UnloadDevice(1);
  EXPECT_TRUE(table.Find(*on_0).ok());
  EXPECT_FALSE(table.Find(*on_1).ok());
  EXPECT_TRUE(table.Unload(*on_0).ok());
}

}  // namespace
}  // namespace mxcts::runtime
