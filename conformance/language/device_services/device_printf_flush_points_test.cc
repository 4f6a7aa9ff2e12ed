// Copyright mxcts authors.
//
// Conformance: two more points where device printf output reaches the host
// (docs/spec/lang-device-services.md, "When printf output appears"): when
// mcEventSynchronize returns for an event recorded after the kernels, and
// before a host function enqueued after them in their stream runs. Standard
// output is captured into a file; the host function measures how much of
// the kernel's output the file holds when it starts. The controls are a
// host function enqueued before the kernel (none of its output yet) and a
// second synchronization (nothing left to write).

#include <mc_runtime.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace {

constexpr unsigned kThreads = 70;  // more than one wave

__global__ void PrintLines() { printf("flush-point line %u\n", threadIdx.x); }

// The bytes each thread prints, summed.
size_t ExpectedBytes() {
  size_t bytes = 0;
  for (unsigned t = 0; t < kThreads; ++t) {
    bytes += std::string("flush-point line " + std::to_string(t) + "\n").size();
  }
  return bytes;
}

size_t CapturedBytesSoFar() {
  std::fflush(stdout);
  struct stat status {};
  if (::fstat(STDOUT_FILENO, &status) != 0) return 0;
  return static_cast<size_t>(status.st_size);
}

size_t CountLines(const std::string& text) {
  size_t lines = 0;
  for (size_t at = text.find("flush-point line "); at != std::string::npos;
       at = text.find("flush-point line ", at + 1)) {
    ++lines;
  }
  return lines;
}

TEST(PrintfFlush, EventSynchronizeWritesThePrecedingOutput) {
  MX_SPEC("lang.printf.flush.event-synchronize");
  MX_REQUIRE_CAPABILITY("printf");
  mcStream_t stream = nullptr;
  mcEvent_t event = nullptr;
  ASSERT_EQ(mcStreamCreate(&stream), mcSuccess);
  ASSERT_EQ(mcEventCreate(&event), mcSuccess);
  std::fflush(stdout);
  ::testing::internal::CaptureStdout();
  PrintLines<<<1, kThreads, 0, stream>>>();
  const mcError_t recorded = mcEventRecord(event, stream);
  const mcError_t synchronized = mcEventSynchronize(event);
  std::fflush(stdout);
  const std::string output = ::testing::internal::GetCapturedStdout();
  ASSERT_EQ(recorded, mcSuccess);
  ASSERT_EQ(synchronized, mcSuccess);
  EXPECT_EQ(CountLines(output), kThreads);
  EXPECT_EQ(output.size(), ExpectedBytes());
  // Control: a second synchronization finds nothing left to write.
  ::testing::internal::CaptureStdout();
  EXPECT_EQ(mcEventSynchronize(event), mcSuccess);
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
  std::fflush(stdout);
  EXPECT_EQ(::testing::internal::GetCapturedStdout(), "");
  EXPECT_EQ(mcEventDestroy(event), mcSuccess);
  EXPECT_EQ(mcStreamDestroy(stream), mcSuccess);
}

void MeasureOutput(void* user_data) {
  *static_cast<size_t*>(user_data) = CapturedBytesSoFar();
}

void MeasureOutputCallback(mcStream_t, mcError_t, void* user_data) {
  MeasureOutput(user_data);
}

enum class HostWork { kLaunchHostFunc, kStreamAddCallback };

class PrintfFlushBeforeHostWork : public testing::TestWithParam<HostWork> {};

mcError_t Enqueue(HostWork work, mcStream_t stream, size_t* measured) {
  return work == HostWork::kLaunchHostFunc
             ? mcLaunchHostFunc(stream, MeasureOutput, measured)
             : mcStreamAddCallback(stream, MeasureOutputCallback, measured, 0);
}

TEST_P(PrintfFlushBeforeHostWork, SeesTheOutputOfEarlierKernels) {
  MX_SPEC("lang.printf.flush.before-stream-callback");
  MX_REQUIRE_CAPABILITY("printf");
  mcStream_t stream = nullptr;
  ASSERT_EQ(mcStreamCreate(&stream), mcSuccess);
  size_t before_kernel = 12345, after_kernel = 0;
  std::fflush(stdout);
  ::testing::internal::CaptureStdout();
  const mcError_t first = Enqueue(GetParam(), stream, &before_kernel);
  PrintLines<<<1, kThreads, 0, stream>>>();
  const mcError_t second = Enqueue(GetParam(), stream, &after_kernel);
  const mcError_t synchronized = mcStreamSynchronize(stream);
  std::fflush(stdout);
  const std::string output = ::testing::internal::GetCapturedStdout();
  ASSERT_EQ(first, mcSuccess);
  ASSERT_EQ(second, mcSuccess);
  ASSERT_EQ(synchronized, mcSuccess);
  EXPECT_EQ(CountLines(output), kThreads);
  // The host function after the kernel starts with all of it written.
  EXPECT_GE(after_kernel, ExpectedBytes());
  // Control: the one before the kernel started with none of it.
  EXPECT_EQ(before_kernel, 0u);
  EXPECT_EQ(mcStreamDestroy(stream), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(Kinds, PrintfFlushBeforeHostWork,
                         testing::Values(HostWork::kLaunchHostFunc,
                                         HostWork::kStreamAddCallback),
                         [](const testing::TestParamInfo<HostWork>& info) {
                           return info.param == HostWork::kLaunchHostFunc
                                      ? "LaunchHostFunc"
                                      : "StreamAddCallback";
                         });

}  // namespace
