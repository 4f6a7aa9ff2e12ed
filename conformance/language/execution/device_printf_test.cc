// Conformance: device printf writes to the host's standard output, formatted
// as the host's printf, and the output is flushed by mcDeviceSynchronize
// (docs/spec/lang-device-services.md, "printf").

#include <mc_runtime.h>

#include <string>

#include "conformance/testing/spec.h"

namespace {

__global__ void Greet(int base, double scale) {
  printf("thread %u of block %u: %d %.2f %s\n", threadIdx.x, blockIdx.x,
         base + static_cast<int>(threadIdx.x), scale * threadIdx.x, "ok");
}

__global__ void TwoLinesPerThread() {
  printf("first %u\n", threadIdx.x);
  printf("second %u\n", threadIdx.x);
}

__global__ void ReturnValue(int* out) {
  out[0] = printf("%d %d\n", 1, 2);
  out[1] = printf("plain\n");
}

TEST(DevicePrintf, OutputReachesHostStdoutAtSynchronize) {
  MX_SPEC("lang.printf.call.available-in-device-code",
          "lang.printf.call.output-on-host-stdout",
          "lang.printf.flush.device-synchronize",
          "lang.printf.format.supported-conversions");
  ::testing::internal::CaptureStdout();
  Greet<<<1, 2>>>(10, 0.5);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  fflush(stdout);
  const std::string output = ::testing::internal::GetCapturedStdout();
  EXPECT_NE(output.find("thread 0 of block 0: 10 0.00 ok\n"), std::string::npos)
      << output;
  EXPECT_NE(output.find("thread 1 of block 0: 11 0.50 ok\n"), std::string::npos)
      << output;
  // Control: no line for a thread that does not exist.
  EXPECT_EQ(output.find("thread 2"), std::string::npos) << output;
}

TEST(DevicePrintf, OneThreadsCallsAppearInProgramOrder) {
  MX_SPEC("lang.printf.order.same-thread-program-order",
          "lang.printf.order.call-output-not-interleaved");
  ::testing::internal::CaptureStdout();
  TwoLinesPerThread<<<1, 3>>>();
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  fflush(stdout);
  const std::string output = ::testing::internal::GetCapturedStdout();
  for (int t = 0; t < 3; ++t) {
    const size_t first = output.find("first " + std::to_string(t) + "\n");
    const size_t second = output.find("second " + std::to_string(t) + "\n");
    ASSERT_NE(first, std::string::npos) << output;
    ASSERT_NE(second, std::string::npos) << output;
    EXPECT_LT(first, second) << output;
  }
}

TEST(DevicePrintf, ReturnsArgumentCount) {
  MX_SPEC("lang.printf.return.argument-count",
          "lang.printf.return.zero-without-arguments");
  int* out = nullptr;
  ASSERT_EQ(mcMallocManaged(&out, 2 * sizeof(int)), mcSuccess);
  out[0] = out[1] = -5;
  ::testing::internal::CaptureStdout();
  ReturnValue<<<1, 1>>>(out);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  fflush(stdout);
  ::testing::internal::GetCapturedStdout();
  EXPECT_EQ(out[0], 2);
  EXPECT_EQ(out[1], 0);
  mcFree(out);
}

}  // namespace
