// Copyright mxcts authors.
//
// Tests of device printf: argument counting, formatting, the bounded buffer
// and its overflow, and the order of output from kernels.

#include "reference/device/services/printf_buffer.h"

#include <stdarg.h>

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "mcr/detail/device_abi.h"
#include "reference/device/engine.h"
#include "reference/device/engine_test_util.h"

namespace mxcts::device {
namespace {

using device_internal::CountPrintfArguments;
using device_internal::FormatDevicePrintf;
using device_internal::PrintfBuffer;
using ::testing::IsEmpty;

TEST(CountPrintfArguments, CountsConversionsAndStars) {
  EXPECT_EQ(CountPrintfArguments(""), 0);
  EXPECT_EQ(CountPrintfArguments("plain text\n"), 0);
  EXPECT_EQ(CountPrintfArguments("100%% sure"), 0);
  EXPECT_EQ(CountPrintfArguments("%d"), 1);
  EXPECT_EQ(CountPrintfArguments("%d %s %c"), 3);
  EXPECT_EQ(CountPrintfArguments("%-+ #08.3f|%lld|%hhx|%zu|%p"), 5);
  EXPECT_EQ(CountPrintfArguments("%*.*f"), 3);
  EXPECT_EQ(CountPrintfArguments("%*d %.*s"), 4);
  EXPECT_EQ(CountPrintfArguments("trailing %"), 0);
}

int Format(std::string* text, const char* format, ...) {
  va_list args;
  va_start(args, format);
  const int result = FormatDevicePrintf(format, args, text);
  va_end(args);
  return result;
}

TEST(FormatDevicePrintf, FormatsAsTheHostAndReturnsTheArgumentCount) {
  // [lang.printf.return.argument-count]
  // [lang.printf.format.float-arguments-promoted]
  std::string text;
  EXPECT_EQ(Format(&text, "%d-%5.2f-%s-%x%%", 42, 3.14159f, "ok", 255u), 4);
  EXPECT_EQ(text, "42- 3.14-ok-ff%");
  EXPECT_EQ(Format(&text, "no arguments\n"), 0);
  EXPECT_EQ(text, "no arguments\n");
}

TEST(FormatDevicePrintf, NullFormatPrintsNothingAndReturnsMinusOne) {
  // [lang.printf.return.null-format-is-negative]
  std::string text = "stale";
  EXPECT_EQ(Format(&text, nullptr), -1);
  EXPECT_THAT(text, IsEmpty());
}

TEST(PrintfBuffer, KeepsRecordsThatFitInOrder) {
  PrintfBuffer buffer(10);
  EXPECT_TRUE(buffer.Append("12345"));
  EXPECT_TRUE(buffer.Append("67890"));
  size_t dropped = 99;
  EXPECT_EQ(buffer.Take(&dropped), "1234567890");
  EXPECT_EQ(dropped, 0u);
  EXPECT_THAT(buffer.Take(), IsEmpty());
}

TEST(PrintfBuffer, DropsWholeRecordsThatDoNotFitAndCountsThem) {
  // [lang.printf.fifo.overflow-loses-output] Control of the test above.
  PrintfBuffer buffer(10);
  EXPECT_TRUE(buffer.Append("1234567"));
  EXPECT_FALSE(buffer.Append("abcd"));
  EXPECT_TRUE(buffer.Append("890"));
  EXPECT_FALSE(buffer.Append("x"));
  EXPECT_EQ(buffer.dropped(), 2u);
  size_t dropped = 0;
  EXPECT_EQ(buffer.Take(&dropped), "1234567890");
  EXPECT_EQ(dropped, 2u);
  EXPECT_EQ(buffer.dropped(), 0u);
  EXPECT_TRUE(buffer.Append("abcd"));
}

TEST(PrintfBuffer, CapacityCannotShrinkBelowTheBufferedText) {
  PrintfBuffer buffer(10);
  ASSERT_TRUE(buffer.Append("123456"));
  EXPECT_FALSE(buffer.SetCapacity(5));
  EXPECT_EQ(buffer.capacity(), 10u);
  EXPECT_TRUE(buffer.SetCapacity(6));
  EXPECT_EQ(buffer.capacity(), 6u);
  EXPECT_FALSE(buffer.Append("7"));
}

TEST(PrintfBuffer, RemembersUse) {
  PrintfBuffer buffer(4);
  EXPECT_FALSE(buffer.used());
  buffer.Append("too long");
  EXPECT_TRUE(buffer.used());
  buffer.ResetUse();
  EXPECT_FALSE(buffer.used());
  // [lang.printf.fifo.resize-after-use-is-invalid-value] A call that
  // records nothing (a null format) is a use too.
  buffer.MarkUsed();
  EXPECT_TRUE(buffer.used());
  EXPECT_EQ(buffer.Take(), "");
}

// Kernels print through the image table, as device code does.
int DevicePrintf(const char* format, ...) {
  va_list args;
  va_start(args, format);
  const int result = ImageRuntimeTable()->vprintf(format, args);
  va_end(args);
  return result;
}

void PrintAroundBarrier(void** args) {
  int* results = Arg<int*>(args, 0);
  results[threadIdx.x] =
      DevicePrintf("block %u thread %u before\n", blockIdx.x, threadIdx.x);
  __syncthreads();
  DevicePrintf("block %u thread %u after\n", blockIdx.x, threadIdx.x);
}

TEST(DevicePrintf, OutputFollowsTheExecutionOrder) {
  // [lang.printf.order.same-thread-program-order]
  // [lang.printf.order.call-output-not-interleaved]
  TakeDevicePrintfOutput();
  int results[3] = {};
  int* data = results;
  RunResult result = RunCapturingStderr(
      "PrintAroundBarrier", &PrintAroundBarrier, {&data}, dim3(2), dim3(3));
  ASSERT_EQ(result.error, mcSuccess);
  EXPECT_EQ(TakeDevicePrintfOutput(),
            "block 0 thread 0 before\nblock 0 thread 1 before\n"
            "block 0 thread 2 before\nblock 0 thread 0 after\n"
            "block 0 thread 1 after\nblock 0 thread 2 after\n"
            "block 1 thread 0 before\nblock 1 thread 1 before\n"
            "block 1 thread 2 before\nblock 1 thread 0 after\n"
            "block 1 thread 1 after\nblock 1 thread 2 after\n");
  EXPECT_EQ(results[0], 2);
  EXPECT_TRUE(DevicePrintfWasUsed());
}

void PrintTenBytes(void**) { DevicePrintf("thread %02u\n", threadIdx.x); }

TEST(DevicePrintf, OverflowKeepsWholeRecordsAndCountsTheRest) {
  // [lang.printf.fifo.sized-by-limit] [lang.printf.fifo.overflow-loses-output]
  TakeDevicePrintfOutput();
  ASSERT_TRUE(SetPrintfBufferBytes(64));
  RunResult result = RunCapturingStderr("PrintTenBytes", &PrintTenBytes, {},
                                        dim3(1), dim3(20));
  ASSERT_EQ(result.error, mcSuccess);
  EXPECT_EQ(DroppedDevicePrintfRecords(), 14u);
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  FlushDevicePrintf();
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(testing::internal::GetCapturedStdout(),
            "thread 00\nthread 01\nthread 02\nthread 03\nthread 04\n"
            "thread 05\n");
  EXPECT_EQ(err,
            "mxmaca: 14 device printf records were lost: the printf buffer "
            "(mcLimitPrintfFifoSize) holds 64 bytes\n");
  EXPECT_EQ(DroppedDevicePrintfRecords(), 0u);
  ASSERT_TRUE(SetPrintfBufferBytes(kDefaultPrintfBufferBytes));
}

TEST(DevicePrintf, FlushWritesToStdoutAndEmptiesTheBuffer) {
  // [lang.printf.call.output-on-host-stdout] Control of the test above.
  TakeDevicePrintfOutput();
  RunResult result =
      RunCapturingStderr("PrintTenBytes", &PrintTenBytes, {}, dim3(1), dim3(2));
  ASSERT_EQ(result.error, mcSuccess);
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  FlushDevicePrintf();
  EXPECT_THAT(testing::internal::GetCapturedStderr(), IsEmpty());
  EXPECT_EQ(testing::internal::GetCapturedStdout(), "thread 00\nthread 01\n");
  EXPECT_THAT(TakeDevicePrintfOutput(), IsEmpty());
}

}  // namespace
}  // namespace mxcts::device
