// Copyright mxcts authors.
//
// Conformance: the implementation-defined parts of the device limits
// (docs/spec/api-device.md, "Limits"), the stack size: an implementation
// may raise it for a launch that needs more, and then keeps and reports the
// raised value. So the reported value never drops below what was set
// across launches that use much stack, and stays what it became for later
// launches. The control shows the reported value follows an explicit
// change. (The device runtime limits: device_runtime_limit_policy_test.)

#include <mc_runtime.h>

#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

// --- The stack size. ---

// Fills a local array of `bytes` (at most the frame) and stores the sum of
// its first and last element, so that the array stays.
__global__ void UseStack(int bytes, int* out) {
  volatile char frame[24 * 1024];
  const int n = bytes < static_cast<int>(sizeof(frame))
                    ? bytes
                    : static_cast<int>(sizeof(frame));
  for (int i = 0; i < n; ++i) frame[i] = static_cast<char>(i);
  *out = frame[0] + frame[n - 1];
}

size_t StackLimit() {
  size_t value = 0;
  EXPECT_EQ(mcDeviceGetLimit(&value, mcLimitStackSize), mcSuccess);
  return value;
}

TEST(StackSize, RaisedValueIsKeptAndReported) {
  MX_SPEC("api.device.limit.stack-size-grows-automatically");
  const size_t original = StackLimit();
  // Control: an explicit change is what the limit then reports.
  ASSERT_EQ(mcDeviceSetLimit(mcLimitStackSize, 2048), mcSuccess);
  const size_t set = StackLimit();
  EXPECT_GE(set, 2048u);
  int* out = nullptr;
  ASSERT_EQ(mcMalloc(&out, sizeof(int)), mcSuccess);
  // A launch whose frame is larger than the set size: either the
  // implementation raised the stack for it, or the frame fitted what it
  // gives anyway; the reported value must not drop.
  UseStack<<<1, 64>>>(24 * 1024, out);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  const size_t after_big = StackLimit();
  EXPECT_GE(after_big, set);
  // Kept for later launches, small ones included.
  UseStack<<<1, 64>>>(16, out);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(StackLimit(), after_big);
  int value = 0;
  ASSERT_EQ(mcMemcpy(&value, out, sizeof(int), mcMemcpyDeviceToHost),
            mcSuccess);
  EXPECT_EQ(value, 15);  // 0 + 15: the small launch ran
  EXPECT_EQ(mcFree(out), mcSuccess);
  ASSERT_EQ(mcDeviceSetLimit(mcLimitStackSize, original), mcSuccess);
  EXPECT_EQ(StackLimit(), original);
}

}  // namespace
}  // namespace mxcts::conformance
