// Copyright mxcts authors.
//
// Conformance: errors of mcFuncGetAttributes, mcFuncSetAttribute,
// mcFuncSetCacheConfig and mcFuncSetSharedMemConfig
// (docs/spec/api-device.md, "Kernel attributes and cache configuration"),
// each beside a control call on a kernel that succeeds, and none changing
// the kernel's attributes.

#include <mc_runtime.h>

#include <climits>
#include <cstring>
#include <string>
#include <vector>

#include "conformance/api/testing/device_testing.h"
#include "conformance/testing/spec.h"

namespace {

using ::mxcts::conformance::NonKernelTest;
using ::mxcts::conformance::NotAKernel;
using ::mxcts::conformance::NotAKernelName;
using ::mxcts::conformance::NotKernels;

__global__ void Kernel(int* out) { out[threadIdx.x] = 1; }

// The shared non-kernel pointers, and one into a kernel.
std::vector<NotAKernel> NotKernelsOrKernelInterior() {
  std::vector<NotAKernel> pointers = NotKernels();
  pointers.push_back(
      {"InsideAKernel", reinterpret_cast<const char*>(&Kernel) + 1});
  return pointers;
}

class NonKernel : public NonKernelTest {};

TEST_P(NonKernel, GetAttributesIsInvalidDeviceFunction) {
  MX_SPEC("api.device.func.non-kernel-is-invalid-device-function");
  mcFuncAttributes a;
  std::memset(&a, 0x3c, sizeof(a));
  EXPECT_EQ(mcFuncGetAttributes(&a, pointer()), mcErrorInvalidDeviceFunction);
  EXPECT_EQ(a.maxThreadsPerBlock, 0x3c3c3c3c);
  EXPECT_EQ(mcFuncGetAttributes(&a, Kernel), mcSuccess);  // control
}

TEST_P(NonKernel, SetAttributeIsInvalidDeviceFunction) {
  MX_SPEC("api.device.func.non-kernel-is-invalid-device-function");
  EXPECT_EQ(mcFuncSetAttribute(
                pointer(), mcFuncAttributePreferredSharedMemoryCarveout, 50),
            mcErrorInvalidDeviceFunction);
  EXPECT_EQ(mcFuncSetAttribute(pointer(),
                               mcFuncAttributeMaxDynamicSharedMemorySize, 0),
            mcErrorInvalidDeviceFunction);
  EXPECT_EQ(mcFuncSetAttribute(
                Kernel, mcFuncAttributePreferredSharedMemoryCarveout, -1),
            mcSuccess);
}

TEST_P(NonKernel, SetCacheConfigIsInvalidDeviceFunction) {
  MX_SPEC("api.device.func.non-kernel-is-invalid-device-function");
  EXPECT_EQ(mcFuncSetCacheConfig(pointer(), mcFuncCachePreferL1),
            mcErrorInvalidDeviceFunction);
  EXPECT_EQ(mcFuncSetCacheConfig(Kernel, mcFuncCachePreferNone), mcSuccess);
}

TEST_P(NonKernel, SetSharedMemConfigIsInvalidDeviceFunction) {
  MX_SPEC("api.device.func.non-kernel-is-invalid-device-function");
  EXPECT_EQ(mcFuncSetSharedMemConfig(pointer(), mcSharedMemBankSizeFourByte),
            mcErrorInvalidDeviceFunction);
  EXPECT_EQ(mcFuncSetSharedMemConfig(Kernel, mcSharedMemBankSizeDefault),
            mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(Pointers, NonKernel,
                         testing::ValuesIn(NotKernelsOrKernelInterior()),
                         NotAKernelName);

TEST(FunctionAttributesValidation, GetWithNullIsInvalidValue) {
  MX_SPEC("api.device.func.get-attributes-null-is-invalid-value");
  EXPECT_EQ(mcFuncGetAttributes(nullptr, Kernel), mcErrorInvalidValue);
  mcFuncAttributes a;
  EXPECT_EQ(mcFuncGetAttributes(&a, Kernel), mcSuccess);
  mcGetLastError();
}

// An attribute and a value it does not accept; a negative value of
// `value_offset_from_most` means "the most a block may have" plus it.
struct BadSetting {
  const char* name;
  int attribute;
  int value;
  bool relative_to_most;
};

class BadAttributeValue : public testing::TestWithParam<BadSetting> {
 protected:
  void TearDown() override { mcGetLastError(); }
};

TEST_P(BadAttributeValue, IsInvalidValueAndChangesNothing) {
  MX_SPEC("api.device.func.set-attribute-bad-value-is-invalid-value");
  mcFuncAttributes before;
  ASSERT_EQ(mcFuncGetAttributes(&before, Kernel), mcSuccess);
  mcDeviceProp_t prop;
  ASSERT_EQ(mcGetDeviceProperties(&prop, 0), mcSuccess);
  const int most =
      static_cast<int>(prop.sharedMemPerBlockOptin - before.sharedSizeBytes);
  const int value =
      GetParam().relative_to_most ? most + GetParam().value : GetParam().value;
  EXPECT_EQ(
      mcFuncSetAttribute(
          Kernel, static_cast<mcFuncAttribute>(GetParam().attribute), value),
      mcErrorInvalidValue);
  mcFuncAttributes after;
  ASSERT_EQ(mcFuncGetAttributes(&after, Kernel), mcSuccess);
  EXPECT_EQ(after.maxDynamicSharedSizeBytes, before.maxDynamicSharedSizeBytes);
  EXPECT_EQ(after.preferredShmemCarveout, before.preferredShmemCarveout);
  // Control: the largest accepted values.
  EXPECT_EQ(mcFuncSetAttribute(Kernel,
                               mcFuncAttributeMaxDynamicSharedMemorySize, most),
            mcSuccess);
  EXPECT_EQ(mcFuncSetAttribute(
                Kernel, mcFuncAttributePreferredSharedMemoryCarveout, 100),
            mcSuccess);
  mcDeviceReset();
}

INSTANTIATE_TEST_SUITE_P(
    Settings, BadAttributeValue,
    testing::Values(
        BadSetting{"DynamicSharedNegative",
                   mcFuncAttributeMaxDynamicSharedMemorySize, -1, false},
        BadSetting{"DynamicSharedAboveTheMost",
                   mcFuncAttributeMaxDynamicSharedMemorySize, 1, true},
        BadSetting{"DynamicSharedIntMax",
                   mcFuncAttributeMaxDynamicSharedMemorySize, INT_MAX, false},
        BadSetting{"CarveoutMinusTwo",
                   mcFuncAttributePreferredSharedMemoryCarveout, -2, false},
        BadSetting{"Carveout101", mcFuncAttributePreferredSharedMemoryCarveout,
                   101, false},
        BadSetting{"UnknownAttributeZero", 0, 0, false},
        BadSetting{"UnknownAttributeSeven", 7, 0, false},
        BadSetting{"AttributeMax", mcFuncAttributeMax, 0, false},
        BadSetting{"UnknownAttributeMinusOne", -1, 0, false}),
    [](const testing::TestParamInfo<BadSetting>& info) {
      return info.param.name;
    });

class BadKernelCacheConfig : public testing::TestWithParam<int> {
 protected:
  void TearDown() override { mcGetLastError(); }
};

TEST_P(BadKernelCacheConfig, IsInvalidValue) {
  MX_SPEC("api.device.func.cache-config-bad-value-is-invalid-value");
  EXPECT_EQ(
      mcFuncSetCacheConfig(Kernel, static_cast<mcFuncCache_t>(GetParam())),
      mcErrorInvalidValue);
  EXPECT_EQ(mcFuncSetCacheConfig(Kernel, mcFuncCachePreferEqual), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(Values, BadKernelCacheConfig,
                         testing::Values(-1, 4, 1000),
                         [](const testing::TestParamInfo<int>& info) {
                           return info.param < 0 ? std::string("MinusOne")
                                                 : std::to_string(info.param);
                         });

class BadKernelSharedMemConfig : public testing::TestWithParam<int> {
 protected:
  void TearDown() override { mcGetLastError(); }
};

TEST_P(BadKernelSharedMemConfig, IsInvalidValue) {
  MX_SPEC("api.device.shared-mem-config.bad-value-is-invalid-value");
  EXPECT_EQ(mcFuncSetSharedMemConfig(
                Kernel, static_cast<mcSharedMemConfig>(GetParam())),
            mcErrorInvalidValue);
  EXPECT_EQ(mcFuncSetSharedMemConfig(Kernel, mcSharedMemBankSizeEightByte),
            mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(Values, BadKernelSharedMemConfig,
                         testing::Values(-1, 3, 1000),
                         [](const testing::TestParamInfo<int>& info) {
                           return info.param < 0 ? std::string("MinusOne")
                                                 : std::to_string(info.param);
                         });

}  // namespace
