// Copyright mxcts authors.
//
// Conformance: with NDEBUG defined, device assert expands to nothing
// observable (docs/spec/lang-device-services.md,
// lang.assert.ndebug.disables-assert).
//
// The BUILD target compiles this file with -DNDEBUG, for the host and the
// device pass alike; the #error below is the build-time control that it
// did. The kernels are those of a failing assertion: with NDEBUG the
// expression is not evaluated, the kernel runs to its end, and neither a
// message nor an error reaches the host.

#ifndef NDEBUG
#error "device_assert_ndebug_test.cc must be compiled with -DNDEBUG"
#endif

#include <assert.h>
#include <mc_runtime.h>

#include <string>

#include "conformance/language/synchronization/device_indices.h"
#include "conformance/language/synchronization/launch_shapes.h"
#include "conformance/language/synchronization/managed_array.h"
#include "conformance/testing/spec.h"

namespace {

using ::mxcts::conformance::BlockShapes;
using ::mxcts::conformance::GlobalLinearThread;
using ::mxcts::conformance::ManagedArray;
using ::mxcts::conformance::Shape;

// Every thread asserts something false whose evaluation would count, then
// marks that it went on.
__global__ void FalseAssertion(int* evaluations, int* went_on) {
  (void)evaluations;  // Only the assertion uses it, and NDEBUG removes that.
  assert(++evaluations[GlobalLinearThread()] < 0);
  assert(false);
  went_on[GlobalLinearThread()] = 1;
}

dim3 ToDim3(const Shape& shape) { return dim3(shape.x, shape.y, shape.z); }

class DeviceAssertNdebugTest : public ::testing::TestWithParam<Shape> {};

TEST_P(DeviceAssertNdebugTest, FalseAssertionIsNotEvaluatedAndDoesNotStop) {
  MX_SPEC("lang.assert.ndebug.disables-assert");
  const unsigned n = GetParam().count();
  const unsigned blocks = 2;
  ManagedArray<int> evaluations(blocks * n, 0);
  ManagedArray<int> went_on(blocks * n, 0);
  ASSERT_TRUE(evaluations.ok() && went_on.ok());
  std::fflush(stderr);
  ::testing::internal::CaptureStderr();
  FalseAssertion<<<blocks, ToDim3(GetParam())>>>(evaluations.data(),
                                                 went_on.data());
  const mcError_t synchronized = mcDeviceSynchronize();
  std::fflush(stderr);
  const std::string err = ::testing::internal::GetCapturedStderr();
  ASSERT_EQ(synchronized, mcSuccess);
  EXPECT_EQ(err, "");
  EXPECT_EQ(mcGetLastError(), mcSuccess);
  for (unsigned i = 0; i < blocks * n; ++i) {
    ASSERT_EQ(evaluations[i], 0) << "thread " << i;
    // Control: the kernel ran, so the unevaluated expression is not an
    // artefact of a kernel that never started.
    ASSERT_EQ(went_on[i], 1) << "thread " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(Shapes, DeviceAssertNdebugTest,
                         ::testing::ValuesIn(BlockShapes()),
                         ::mxcts::conformance::ShapeParamName);

}  // namespace
