// Copyright mxcts authors.
//
// Conformance: mcCtxResetPersistingL2Cache (docs/spec/api-device.md,
// "Persisting L2 cache") succeeds on every device, also after kernels ran
// in a stream with a persisting access policy window, and changes no value
// and no stream attribute; on a device with a sticky error it returns that
// error while another device's call succeeds (in a fresh process).

#include <mc_runtime.h>

#include <string>

#include "conformance/testing/capabilities.h"
#include "conformance/testing/fresh_process.h"
#include "conformance/testing/spec.h"

namespace {

__global__ void Increment(int* values, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) values[i] += 1;
}

class PersistingL2Reset : public testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", GetParam() + 1);
    ASSERT_EQ(mcSetDevice(GetParam()), mcSuccess);
  }
  void TearDown() override { mcSetDevice(0); }
};

TEST_P(PersistingL2Reset, SucceedsAndChangesNothing) {
  MX_SPEC("api.device.persisting-l2.reset-succeeds",
          "api.stream.attribute.access-policy-is-hint");
  const int n = 1024;
  int* values = nullptr;
  ASSERT_EQ(mcMallocManaged(&values, n * sizeof(int)), mcSuccess);
  for (int i = 0; i < n; ++i) values[i] = i;
  mcStream_t stream = nullptr;
  ASSERT_EQ(mcStreamCreate(&stream), mcSuccess);
  mcStreamAttrValue window = {};
  window.accessPolicyWindow.base_ptr = values;
  window.accessPolicyWindow.num_bytes = n * sizeof(int);
  window.accessPolicyWindow.hitRatio = 1.0f;
  window.accessPolicyWindow.hitProp = mcAccessPropertyPersisting;
  window.accessPolicyWindow.missProp = mcAccessPropertyStreaming;
  ASSERT_EQ(mcStreamSetAttribute(stream, mcStreamAttributeAccessPolicyWindow,
                                 &window),
            mcSuccess);
  Increment<<<n / 256, 256, 0, stream>>>(values, n);
  ASSERT_EQ(mcStreamSynchronize(stream), mcSuccess);

  EXPECT_EQ(mcCtxResetPersistingL2Cache(), mcSuccess);
  EXPECT_EQ(mcGetLastError(), mcSuccess);
  EXPECT_EQ(mcCtxResetPersistingL2Cache(), mcSuccess);  // again: nothing left

  for (int i = 0; i < n; ++i) ASSERT_EQ(values[i], i + 1) << i;
  mcStreamAttrValue after = {};
  ASSERT_EQ(
      mcStreamGetAttribute(stream, mcStreamAttributeAccessPolicyWindow, &after),
      mcSuccess);
  EXPECT_EQ(after.accessPolicyWindow.base_ptr, values);
  EXPECT_EQ(after.accessPolicyWindow.num_bytes, n * sizeof(int));
  EXPECT_EQ(after.accessPolicyWindow.hitProp, mcAccessPropertyPersisting);
  // Kernels still run in the stream afterwards.
  Increment<<<n / 256, 256, 0, stream>>>(values, n);
  ASSERT_EQ(mcStreamSynchronize(stream), mcSuccess);
  EXPECT_EQ(values[n - 1], n + 1);
  EXPECT_EQ(mcStreamDestroy(stream), mcSuccess);
  EXPECT_EQ(mcFree(values), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(Ordinals, PersistingL2Reset, testing::Range(0, 2),
                         [](const testing::TestParamInfo<int>& info) {
                           return "Device" + std::to_string(info.param);
                         });

__global__ void WriteThroughNull(int* p) { *p = 1; }

std::string ResetReturnsTheStickyError() {
  if (mcSetDevice(0) != mcSuccess) return "mcSetDevice(0) failed";
  WriteThroughNull<<<1, 1>>>(nullptr);
  if (mcDeviceSynchronize() != mcErrorIllegalAddress) return "no fault";
  if (mcCtxResetPersistingL2Cache() != mcErrorIllegalAddress) {
    return "the faulted device's reset did not return the sticky error";
  }
  // Control: device 1 has no fault.
  if (mcSetDevice(1) != mcSuccess) return "mcSetDevice(1) failed";
  if (mcCtxResetPersistingL2Cache() != mcSuccess) {
    return "the healthy device's reset failed";
  }
  return "";
}

TEST(PersistingL2ResetAfterAFault, ReturnsTheStickyError) {
  MX_SPEC("api.error.sticky.later-calls-fail",
          "api.device.persisting-l2.reset-succeeds");
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
  MX_EXPECT_IN_FRESH_PROCESS(ResetReturnsTheStickyError());
}

}  // namespace
