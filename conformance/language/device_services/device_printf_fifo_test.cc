// Copyright mxcts authors.
//
// Conformance: the device printf FIFO and its limit, mcLimitPrintfFifoSize
// (docs/spec/lang-device-services.md "Device printf", docs/spec/api-device.md
// "Limits").
//
// The limit can be set only before the first kernel that uses printf, so
// every test runs its check in a fresh process (MX_EXPECT_IN_FRESH_PROCESS).
// The overflow tests print fixed-size records ("R000042\n", 8 bytes), one
// per thread, into FIFOs of 64 and about 4096 bytes, with one record fewer
// than fits, exactly as many as fit, one more, and twice as many; the
// reference keeps the records that fit, in order, drops the rest whole and
// reports how many it dropped on stderr at the flush.

#include <mc_runtime.h>

#include <cstdio>
#include <sstream>
#include <string>
#include <tuple>

#include "conformance/language/device_services/limit_resize_check.h"
#include "conformance/language/synchronization/device_indices.h"
#include "conformance/language/synchronization/managed_array.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/fresh_process.h"
#include "conformance/testing/spec.h"

namespace {

using ::mxcts::conformance::LinearThread;
using ::mxcts::conformance::ManagedArray;

constexpr size_t kRecordBytes = 8;
constexpr size_t kReferenceDefaultFifoBytes = 1048576;

// Each thread prints its record, then marks that it went on.
__global__ void PrintOneRecordPerThread(unsigned first, int* went_on) {
  printf("R%06u\n", first + LinearThread());
  went_on[LinearThread()] = 1;
}

__global__ void Quiet(int* word) { *word = 1; }

// A printf call that prints nothing.
__global__ void PrintNullFormat(const char* format, int* result) {
  *result = printf(format, 0);
}

std::string RecordText(unsigned number) {
  char text[16];
  std::snprintf(text, sizeof(text), "R%06u\n", number);
  return text;
}

std::string DroppedLine(size_t dropped) {
  return "mxmaca: " + std::to_string(dropped) +
         " device printf records were lost";
}

std::string ErrorName(mcError_t error) { return mcGetErrorName(error); }

// Prints `records` records from one block; stores what stdout and stderr
// received up to the synchronization and its result.
struct PrintResult {
  mcError_t synchronized = mcErrorUnknown;
  std::string out;
  std::string err;
  bool every_thread_went_on = false;
};

PrintResult PrintRecords(unsigned first, unsigned records) {
  PrintResult result;
  ManagedArray<int> went_on(records, 0);
  if (!went_on.ok()) return result;
  std::fflush(stdout);
  std::fflush(stderr);
  ::testing::internal::CaptureStdout();
  ::testing::internal::CaptureStderr();
  PrintOneRecordPerThread<<<1, records>>>(first, went_on.data());
  result.synchronized = mcDeviceSynchronize();
  std::fflush(stdout);
  std::fflush(stderr);
  result.err = ::testing::internal::GetCapturedStderr();
  result.out = ::testing::internal::GetCapturedStdout();
  result.every_thread_went_on = true;
  for (unsigned t = 0; t < records; ++t) {
    if (went_on[t] != 1) result.every_thread_went_on = false;
  }
  return result;
}

// --- The default, and set-then-get. ---

std::string DefaultSizeIsReported() {
  size_t bytes = 0;
  const mcError_t got = mcDeviceGetLimit(&bytes, mcLimitPrintfFifoSize);
  if (got != mcSuccess) return "mcDeviceGetLimit returned " + ErrorName(got);
  if (bytes == 0) return "the default FIFO size is 0";
  if (bytes != kReferenceDefaultFifoBytes) {
    return "the default FIFO size is " + std::to_string(bytes) +
           ", the reference documents 1048576";
  }
  return "";
}

TEST(DevicePrintfFifo, DefaultSizeIsReported) {
  MX_SPEC("lang.printf.fifo.default-size",
          "api.device.limit.get-returns-current-value");
  MX_EXPECT_IN_FRESH_PROCESS(DefaultSizeIsReported());
}

std::string SetThenGet(size_t requested) {
  const mcError_t set = mcDeviceSetLimit(mcLimitPrintfFifoSize, requested);
  if (set != mcSuccess) return "mcDeviceSetLimit returned " + ErrorName(set);
  size_t bytes = 0;
  const mcError_t got = mcDeviceGetLimit(&bytes, mcLimitPrintfFifoSize);
  if (got != mcSuccess) return "mcDeviceGetLimit returned " + ErrorName(got);
  if (bytes < requested) {
    return "asked for " + std::to_string(requested) + " bytes, got " +
           std::to_string(bytes);
  }
  return "";
}

class DevicePrintfFifoSizeTest : public ::testing::TestWithParam<size_t> {};

TEST_P(DevicePrintfFifoSizeTest, SetThenGetReportsAtLeastTheValue) {
  MX_SPEC("lang.printf.fifo.sized-by-limit", "api.device.limit.set-then-get",
          "api.device.limit.printf-fifo-size");
  MX_EXPECT_IN_FRESH_PROCESS(SetThenGet(GetParam()));
}

INSTANTIATE_TEST_SUITE_P(Sizes, DevicePrintfFifoSizeTest,
                         ::testing::Values(size_t{1}, size_t{63}, size_t{64},
                                           size_t{65}, size_t{4096},
                                           size_t{1} << 20, size_t{64} << 20),
                         [](const ::testing::TestParamInfo<size_t>& info) {
                           return "bytes" + std::to_string(info.param);
                         });

// --- Overflow. ---

std::string OverflowDropsWholeRecords(size_t requested, unsigned records) {
  if (mcDeviceSetLimit(mcLimitPrintfFifoSize, requested) != mcSuccess) {
    return "mcDeviceSetLimit failed before any use";
  }
  size_t capacity = 0;
  if (mcDeviceGetLimit(&capacity, mcLimitPrintfFifoSize) != mcSuccess) {
    return "mcDeviceGetLimit failed";
  }
  const PrintResult first = PrintRecords(0, records);
  std::ostringstream problems;
  // [lang.printf.fifo.overflow-loses-output] Overflow stops nothing.
  if (first.synchronized != mcSuccess) {
    problems << "mcDeviceSynchronize returned " << ErrorName(first.synchronized)
             << "; ";
  }
  if (!first.every_thread_went_on) {
    problems << "a thread did not go on after printf; ";
  }
  // The reference keeps the oldest records that fit whole.
  const size_t fit = capacity / kRecordBytes;
  const size_t kept = records < fit ? records : fit;
  std::string expected;
  for (unsigned i = 0; i < kept; ++i) expected += RecordText(i);
  if (first.out != expected) {
    problems << "with a FIFO of " << capacity << " bytes and " << records
             << " records, stdout got '" << first.out
             << "', expected the first " << kept << " records; ";
  }
  // [lang.printf.fifo.overflow-reported]
  const size_t dropped = records - kept;
  const bool reported = first.err.find("were lost") != std::string::npos;
  if (dropped > 0 &&
      first.err.find(DroppedLine(dropped)) == std::string::npos) {
    problems << "stderr does not say '" << DroppedLine(dropped) << "': '"
             << first.err << "'; ";
  }
  if (dropped == 0 && reported) {
    problems << "nothing was lost, but stderr says '" << first.err << "'; ";
  }
  // A flush empties the FIFO: a later kernel's record fits again.
  const PrintResult second = PrintRecords(1000, 1);
  if (second.synchronized != mcSuccess || second.out != RecordText(1000) ||
      second.err.find("were lost") != std::string::npos) {
    problems << "after the flush, one record gave stdout '" << second.out
             << "' and stderr '" << second.err << "'; ";
  }
  return problems.str();
}

// Parameters: the requested FIFO size and the number of records.
class DevicePrintfOverflowTest
    : public ::testing::TestWithParam<std::tuple<size_t, unsigned>> {};

TEST_P(DevicePrintfOverflowTest, KeepsWholeRecordsAndReportsTheLoss) {
  MX_SPEC("lang.printf.fifo.overflow-loses-output",
          "lang.printf.fifo.overflow-reported",
          "lang.printf.fifo.sized-by-limit",
          "lang.printf.order.call-output-not-interleaved");
  MX_REQUIRE_CAPABILITY("printf");
  MX_EXPECT_IN_FRESH_PROCESS(OverflowDropsWholeRecords(
      std::get<0>(GetParam()), std::get<1>(GetParam())));
}

INSTANTIATE_TEST_SUITE_P(
    Boundaries, DevicePrintfOverflowTest,
    ::testing::Values(
        // 64 bytes: 8 records fit.
        std::make_tuple(size_t{64}, 7u), std::make_tuple(size_t{64}, 8u),
        std::make_tuple(size_t{64}, 9u), std::make_tuple(size_t{64}, 16u),
        // 4096 bytes: 512 records fit.
        std::make_tuple(size_t{4096}, 511u),
        std::make_tuple(size_t{4096}, 512u),
        std::make_tuple(size_t{4096}, 513u),
        std::make_tuple(size_t{4096}, 1024u),
        // One byte less: 511 fit; one byte more: still 512.
        std::make_tuple(size_t{4095}, 511u),
        std::make_tuple(size_t{4095}, 512u),
        std::make_tuple(size_t{4097}, 512u),
        std::make_tuple(size_t{4097}, 513u)),
    [](const ::testing::TestParamInfo<std::tuple<size_t, unsigned>>& info) {
      return "fifo" + std::to_string(std::get<0>(info.param)) + "_records" +
             std::to_string(std::get<1>(info.param));
    });

// --- Changing the size after use. ---

enum PriorUse {
  kNothing,
  kQuietKernel,
  kPrintfKernel,
  kNullFormatKernel,
  kPrintfThenReset,
};

const char* PriorUseName(int use) {
  switch (use) {
    case kNothing:
      return "Nothing";
    case kQuietKernel:
      return "QuietKernel";
    case kPrintfKernel:
      return "PrintfKernel";
    case kNullFormatKernel:
      return "NullFormatKernel";
    default:
      return "PrintfThenReset";
  }
}

std::string ResizeAfter(int use) {
  ManagedArray<int> word(1, 0);
  if (!word.ok()) return "mcMallocManaged failed";
  if (use == kQuietKernel) {
    Quiet<<<1, 1>>>(word.data());
    if (mcDeviceSynchronize() != mcSuccess) return "the quiet kernel failed";
  }
  if (use == kPrintfKernel || use == kPrintfThenReset) {
    const PrintResult printed = PrintRecords(0, 2);
    if (printed.synchronized != mcSuccess) return "the printf kernel failed";
  }
  if (use == kNullFormatKernel) {
    PrintNullFormat<<<1, 1>>>(nullptr, word.data());
    if (mcDeviceSynchronize() != mcSuccess || word[0] != -1) {
      return "printf(NULL) did not return -1";
    }
  }
  if (use == kPrintfThenReset && mcDeviceReset() != mcSuccess) {
    return "mcDeviceReset failed";
  }
  // [lang.printf.fifo.resize-after-use-is-invalid-value] Any call of
  // printf is a use, even one that prints nothing.
  return ::mxcts::conformance::CheckResizeAfterPriorUse(
      mcLimitPrintfFifoSize, "FIFO size",
      use == kPrintfKernel || use == kNullFormatKernel, PriorUseName(use),
      [](size_t before) { return 2 * before + 4096; });
}

class DevicePrintfResizeTest : public ::testing::TestWithParam<int> {};

TEST_P(DevicePrintfResizeTest, RefusedOnlyAfterAKernelUsedPrintf) {
  MX_SPEC("lang.printf.fifo.resize-after-use-is-invalid-value",
          "lang.printf.fifo.resize-after-reset",
          "api.device.limit.resize-after-use-is-invalid-value");
  MX_REQUIRE_CAPABILITY("printf");
  MX_EXPECT_IN_FRESH_PROCESS(ResizeAfter(GetParam()));
}

INSTANTIATE_TEST_SUITE_P(PriorUses, DevicePrintfResizeTest,
                         ::testing::Values(kNothing, kQuietKernel,
                                           kPrintfKernel, kNullFormatKernel,
                                           kPrintfThenReset),
                         [](const ::testing::TestParamInfo<int>& info) {
                           return std::string(PriorUseName(info.param));
                         });

// After a reset, a new, smaller size takes effect.
std::string SmallerSizeAfterReset() {
  const PrintResult printed = PrintRecords(0, 16);
  if (printed.synchronized != mcSuccess) return "the printf kernel failed";
  if (mcDeviceReset() != mcSuccess) return "mcDeviceReset failed";
  if (mcDeviceSetLimit(mcLimitPrintfFifoSize, 64) != mcSuccess) {
    return "mcDeviceSetLimit after the reset failed";
  }
  size_t capacity = 0;
  if (mcDeviceGetLimit(&capacity, mcLimitPrintfFifoSize) != mcSuccess) {
    return "mcDeviceGetLimit failed";
  }
  const unsigned records = static_cast<unsigned>(capacity / kRecordBytes) + 4;
  const PrintResult small = PrintRecords(0, records);
  if (small.out.size() > capacity) {
    return "the FIFO of " + std::to_string(capacity) + " bytes let " +
           std::to_string(small.out.size()) + " bytes through";
  }
  if (small.err.find(DroppedLine(4)) == std::string::npos) {
    return "stderr does not report 4 lost records: '" + small.err + "'";
  }
  return "";
}

TEST(DevicePrintfFifo, NewSizeAfterResetTakesEffect) {
  MX_SPEC("lang.printf.fifo.resize-after-reset",
          "lang.printf.fifo.sized-by-limit");
  MX_REQUIRE_CAPABILITY("printf");
  MX_EXPECT_IN_FRESH_PROCESS(SmallerSizeAfterReset());
}

}  // namespace
