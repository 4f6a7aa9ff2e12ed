// Copyright mxcts authors.
//
// Tests of the image registry on the hand-made test image: resolution of
// stubs and shadows, a copy of the image per device, reset of variables,
// and the mirroring of managed variables around grids.

#include "reference/runtime/images/image_registry.h"

#include <gtest/gtest.h>

#include "reference/runtime/errors/error_mapping.h"
#include "reference/runtime/memory/memory_manager.h"
#include "reference/runtime/testing/runtime_testing.h"

namespace mxcts::runtime {
namespace {

using __mc_internal::ImageBlob;

constexpr char kCountKey[] =
    "constexpr const char* __mc_internal::KernelKey() [with Sig = void "
    "(*)(int*); Sig F = count]";
constexpr char kReadKey[] =
    "constexpr const char* __mc_internal::KernelKey() [with Sig = void "
    "(*)(int*); Sig F = read_variables]";
constexpr char kBumpKey[] =
    "constexpr const char* __mc_internal::KernelKey() [with Sig = void "
    "(*)(); Sig F = bump_managed]";

const std::vector<unsigned char>& ImageBytes() {
  static const std::vector<unsigned char> bytes =
      runtime_testing::ReadFileBytes(runtime_testing::RunfilePath(
          "reference/runtime/images/testdata/libtest_image.so"));
  return bytes;
}

// Host entities standing in for what the compiler would generate.
void CountStub(int*) {}
void ReadStub(int*) {}
void BumpStub() {}
void MissingStub(int*) {}
int device_var_shadow = 7;
float constant_table_shadow[4] = {1, 2, 3, 4};

class ImageRegistryTest : public testing::Test {
 protected:
  static void SetUpTestSuite() {
    ASSERT_FALSE(ImageBytes().empty());
    blob_ = {ImageBytes().data(), ImageBytes().size()};
    ImageRegistry& r = ImageRegistry::Get();
    r.SetRuntimeTable(runtime_testing::InertImageRuntimeTable());
    r.RegisterKernel(&blob_, reinterpret_cast<const void*>(&CountStub),
                     kCountKey);
    r.RegisterKernel(&blob_, reinterpret_cast<const void*>(&ReadStub),
                     kReadKey);
    r.RegisterKernel(&blob_, reinterpret_cast<const void*>(&BumpStub),
                     kBumpKey);
    r.RegisterKernel(&blob_, reinterpret_cast<const void*>(&MissingStub),
                     "no such key");
    r.RegisterDeviceVariable(&blob_, &device_var_shadow, "device_var",
                             sizeof(int), 0);
    r.RegisterDeviceVariable(&blob_, constant_table_shadow,
                             "ns::constant_table", sizeof(float[4]),
                             __mc_internal::kVariableConstant);
    absl::StatusOr<void*> managed =
        r.RegisterManagedVariable(&blob_, "managed_var", sizeof(int));
    ASSERT_TRUE(managed.ok()) << managed.status();
    managed_ = static_cast<int*>(*managed);
  }

  static ImageBlob blob_;
  static int* managed_;
};

ImageBlob ImageRegistryTest::blob_;
int* ImageRegistryTest::managed_ = nullptr;

ImageRegistry& R() { return ImageRegistry::Get(); }

template <typename F>
const void* Stub(F* f) {
  return reinterpret_cast<const void*>(f);
}

TEST_F(ImageRegistryTest, UnknownStubIsInvalidDeviceFunction) {
  auto kernel = R().ResolveKernel(&device_var_shadow, 0);
  ASSERT_FALSE(kernel.ok());
  EXPECT_EQ(ToMcError(kernel.status()), mcErrorInvalidDeviceFunction);
}

TEST_F(ImageRegistryTest, RegisteredStubResolvesToItsRecord) {
  absl::StatusOr<KernelHandle> kernel = R().ResolveKernel(Stub(&CountStub), 0);
  ASSERT_TRUE(kernel.ok()) << kernel.status();
  EXPECT_EQ(kernel->name, "count");
  EXPECT_EQ(kernel->record->param_count, 1u);
  int counter = 0;
  int* counter_address = &counter;
  void* args[] = {&counter_address};
  kernel->record->entry(args);
  EXPECT_EQ(counter, 1);
}

TEST_F(ImageRegistryTest, StubWithoutRecordIsNoKernelImageForDevice) {
  auto kernel = R().ResolveKernel(Stub(&MissingStub), 0);
  ASSERT_FALSE(kernel.ok());
  EXPECT_EQ(ToMcError(kernel.status()), mcErrorNoKernelImageForDevice);
}

TEST_F(ImageRegistryTest, EachDeviceHasItsOwnVariableInstance) {
  // [lang.variable.device.distinct-per-device]
  absl::StatusOr<VariableHandle> on0 =
      R().ResolveVariable(&device_var_shadow, 0);
  absl::StatusOr<VariableHandle> on1 =
      R().ResolveVariable(&device_var_shadow, 1);
  ASSERT_TRUE(on0.ok() && on1.ok());
  EXPECT_NE(on0->address, on1->address);
  EXPECT_NE(on0->address, &device_var_shadow);
  EXPECT_EQ(on0->size, sizeof(int));
  // Each instance is known to the memory manager as its device's memory.
  EXPECT_EQ(MemoryManager::Get().Find(on1->address)->kind,
            MemoryKind::kDeviceVariable);
  EXPECT_EQ(MemoryManager::Get().Find(on1->address)->device, 1);
  // Kernels of each device's copy read that device's instance.
  *static_cast<int*>(on1->address) = 11;
  auto read0 = R().ResolveKernel(Stub(&ReadStub), 0);
  auto read1 = R().ResolveKernel(Stub(&ReadStub), 1);
  int out0[2] = {}, out1[2] = {};
  int* p0 = out0;
  int* p1 = out1;
  void* args0[] = {&p0};
  void* args1[] = {&p1};
  read0->record->entry(args0);
  read1->record->entry(args1);
  EXPECT_EQ(out0[0], *static_cast<int*>(on0->address));
  EXPECT_EQ(out1[0], 11);
  R().ResetDevice(1);
}

TEST_F(ImageRegistryTest, ConstantVariableKeepsItsFlagAndInitializer) {
  auto table = R().ResolveVariable(constant_table_shadow, 0);
  ASSERT_TRUE(table.ok());
  EXPECT_EQ(table->flags, unsigned{__mc_internal::kVariableConstant});
  EXPECT_EQ(static_cast<float*>(table->address)[3], 4.0f);
}

TEST_F(ImageRegistryTest, NonSymbolIsInvalidSymbol) {
  int host_variable = 0;
  auto variable = R().ResolveVariable(&host_variable, 0);
  ASSERT_FALSE(variable.ok());
  EXPECT_EQ(ToMcError(variable.status()), mcErrorInvalidSymbol);
  EXPECT_FALSE(R().ResolveVariable("device_var", 0).ok());
  EXPECT_FALSE(R().ResolveVariable(nullptr, 0).ok());
}

TEST_F(ImageRegistryTest, ResetRestoresOnlyThatDevicesVariables) {
  // [lang.variable.device.reset-restores-initializer]
  int* on0 =
      static_cast<int*>(R().ResolveVariable(&device_var_shadow, 0)->address);
  int* on1 =
      static_cast<int*>(R().ResolveVariable(&device_var_shadow, 1)->address);
  *on0 = 100;
  *on1 = 200;
  R().ResetDevice(0);
  EXPECT_EQ(*on0, 7);
  EXPECT_EQ(*on1, 200);
  R().ResetDevice(1);
  EXPECT_EQ(*on1, 7);
}

TEST_F(ImageRegistryTest, ManagedVariableHasOneValueForHostAndGrids) {
  // [lang.variable.managed.host-and-device-access]
  ASSERT_NE(managed_, nullptr);
  EXPECT_EQ(MemoryManager::Get().Find(managed_)->kind,
            MemoryKind::kManagedVariable);
  *managed_ = 40;
  for (int device : {0, 1}) {
    auto bump = R().ResolveKernel(Stub(&BumpStub), device);
    ASSERT_TRUE(bump.ok()) << bump.status();
    R().BeginGrid(*bump);
    bump->record->entry(nullptr);
    R().EndGrid(*bump);
  }
  EXPECT_EQ(*managed_, 42);
  // A host write before a grid is what the grid reads.
  *managed_ = 5;
  auto read = R().ResolveKernel(Stub(&ReadStub), 1);
  int out[2] = {};
  int* p = out;
  void* args[] = {&p};
  R().BeginGrid(*read);
  read->record->entry(args);
  R().EndGrid(*read);
  EXPECT_EQ(out[1], 5);
  // Control: without the mirroring the device copy is stale.
  *managed_ = 6;
  read->record->entry(args);
  EXPECT_EQ(out[1], 5);
}

TEST_F(ImageRegistryTest, ManagedVariableIsASymbolAtItsAddress) {
  auto variable = R().ResolveVariable(managed_, 1);
  ASSERT_TRUE(variable.ok());
  EXPECT_EQ(variable->address, managed_);
  EXPECT_EQ(variable->flags, unsigned{__mc_internal::kVariableManaged});
}

TEST_F(ImageRegistryTest, UnknownManagedVariableIsRefused) {
  auto missing = R().RegisterManagedVariable(&blob_, "device_var", sizeof(int));
  EXPECT_FALSE(missing.ok());  // not managed
  auto wrong_size =
      R().RegisterManagedVariable(&blob_, "managed_var", sizeof(double));
  EXPECT_FALSE(wrong_size.ok());
}

TEST(ImageRegistryLoadFailure, IsReportedForEveryUse) {
  static const unsigned char garbage[64] = {1, 2, 3};
  static const ImageBlob blob = {garbage, sizeof(garbage)};
  static void (*stub)() = [] {};
  R().RegisterKernel(&blob, reinterpret_cast<const void*>(stub), "k");
  for (int attempt = 0; attempt < 2; ++attempt) {
    auto kernel = R().ResolveKernel(reinterpret_cast<const void*>(stub), 0);
    ASSERT_FALSE(kernel.ok());
    EXPECT_EQ(ToMcError(kernel.status()), mcErrorInvalidKernelImage);
  }
}

}  // namespace
}  // namespace mxcts::runtime
