// Copyright mxcts authors.
//
// Conformance: device assert (docs/spec/lang-device-services.md "Device
// assert", docs/spec/api-trap-handler.md).
//
// A failing assertion runs in a fresh process (MX_EXPECT_TRAP, or
// MX_EXPECT_IN_FRESH_PROCESS for checks beyond the trap's error), since its
// error is sticky; each has a control beside it where the assertion holds.
// The failing thread is placed at the first and the last thread of the
// first and the last block, over every block shape, so that the diagnostic
// must name each index component right. NDEBUG is tested by
// device_assert_ndebug_test.cc, the same rules compiled with -DNDEBUG.

#include <assert.h>
#include <mc_runtime.h>

#include <sstream>
#include <string>
#include <tuple>

#include "conformance/language/device_services/names_index.h"
#include "conformance/language/synchronization/device_indices.h"
#include "conformance/language/synchronization/launch_shapes.h"
#include "conformance/language/synchronization/managed_array.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/claimed.h"
#include "conformance/testing/fresh_process.h"
#include "conformance/testing/spec.h"
#include "conformance/testing/trap_expectation.h"

namespace {

using ::mxcts::conformance::BlockShapes;
using ::mxcts::conformance::Claimed;
using ::mxcts::conformance::GlobalLinearThread;
using ::mxcts::conformance::IndexComponents;
using ::mxcts::conformance::LinearBlock;
using ::mxcts::conformance::LinearThread;
using ::mxcts::conformance::ManagedArray;
using ::mxcts::conformance::NamesIndex;
using ::mxcts::conformance::Shape;

constexpr int kNoThread = -1;

// The assertion under test sits in a device function of its own, so that
// the function the message names differs from the kernel's name.
constexpr int kAssertionLine = __LINE__ + 2;
__device__ void CheckThreadIsNot(int failing_thread) {
  assert(static_cast<int>(GlobalLinearThread()) != failing_thread);
}

// Thread `failing_thread` (a global linear index) fails its assertion.
// Every thread marks `reached` before and `passed` after the assertion.
__global__ void AssertOnOneThread(int failing_thread, int* reached,
                                  int* passed) {
  reached[GlobalLinearThread()] = 1;
  CheckThreadIsNot(failing_thread);
  passed[GlobalLinearThread()] = 1;
}

// Evaluates an assertion whose expression counts its evaluations.
__global__ void AssertWithSideEffect(int* evaluations) {
  assert(++evaluations[GlobalLinearThread()] > 0);
}

__global__ void Quiet(int* word) { *word = 7; }

dim3 ToDim3(const Shape& shape) { return dim3(shape.x, shape.y, shape.z); }

std::string ErrorName(mcError_t error) { return mcGetErrorName(error); }

// "(x,y,z)" of linear index `linear` in `extent`, as a regular expression.
std::string IndexPattern(const Shape& extent, unsigned linear) {
  return "\\(" + std::to_string(linear % extent.x) + "," +
         std::to_string(linear / extent.x % extent.y) + "," +
         std::to_string(linear / extent.x / extent.y) + "\\)";
}

// Launches AssertOnOneThread and returns what mcDeviceSynchronize returns.
mcError_t RunAssertOnOneThread(const Shape& grid, const Shape& block,
                               int failing_thread) {
  const unsigned total = grid.count() * block.count();
  ManagedArray<int> reached(total, 0);
  ManagedArray<int> passed(total, 0);
  if (!reached.ok() || !passed.ok()) return mcErrorMemoryAllocation;
  AssertOnOneThread<<<ToDim3(grid), ToDim3(block)>>>(
      failing_thread, reached.data(), passed.data());
  return mcDeviceSynchronize();
}

// --- Message contents over shapes. ---

// Where the failing thread is: first or last block, first or last thread.
enum Placement { kFirstBlockFirstThread, kLastBlockLastThread };

// Parameters: the block shape and the placement; the grid is (2, 1, 2).
class DeviceAssertMessageTest
    : public ::testing::TestWithParam<std::tuple<Shape, int>> {
 protected:
  static constexpr Shape kGrid{2, 1, 2};
  Shape block() const { return std::get<0>(GetParam()); }
  unsigned failing_block() const {
    return std::get<1>(GetParam()) == kFirstBlockFirstThread
               ? 0
               : kGrid.count() - 1;
  }
  unsigned failing_thread_in_block() const {
    return std::get<1>(GetParam()) == kFirstBlockFirstThread
               ? 0
               : block().count() - 1;
  }
  int failing_thread() const {
    return static_cast<int>(failing_block() * block().count() +
                            failing_thread_in_block());
  }
};

TEST_P(DeviceAssertMessageTest, NamesFileLineFunctionExpressionBlockThread) {
  MX_SPEC("lang.assert.failure.message-contents",
          "lang.assert.failure.stops-kernel",
          "lang.assert.failure.synchronization-returns-assert",
          "lang.assert.failure.error-is-sticky", "api.trap.error.assert",
          "api.trap.diagnostic.content");
  // The block and thread, then file, line, function and expression.
  const std::string pattern =
      "AssertOnOneThread.*block " + IndexPattern(kGrid, failing_block()) +
      " thread " + IndexPattern(block(), failing_thread_in_block()) +
      ".*device_assert_test\\.cc:" + std::to_string(kAssertionLine) +
      "[^0-9].*CheckThreadIsNot.*"
      "static_cast<int>\\(GlobalLinearThread\\(\\)\\) != failing_thread";
  MX_EXPECT_TRAP(RunAssertOnOneThread(kGrid, block(), failing_thread()),
                 mcErrorAssert, pattern);
}

TEST_P(DeviceAssertMessageTest, HoldingAssertionDoesNotTrap) {
  MX_SPEC("lang.assert.call.available-in-device-code",
          "lang.assert.call.true-has-no-effect");
  const unsigned total = kGrid.count() * block().count();
  ManagedArray<int> reached(total, 0);
  ManagedArray<int> passed(total, 0);
  ASSERT_TRUE(reached.ok() && passed.ok());
  AssertOnOneThread<<<ToDim3(kGrid), ToDim3(block())>>>(
      kNoThread, reached.data(), passed.data());
  MX_EXPECT_NO_TRAP(mcDeviceSynchronize());
  for (unsigned i = 0; i < total; ++i) ASSERT_EQ(passed[i], 1) << i;
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, DeviceAssertMessageTest,
    ::testing::Combine(::testing::ValuesIn(BlockShapes()),
                       ::testing::Values(kFirstBlockFirstThread,
                                         kLastBlockLastThread)),
    [](const ::testing::TestParamInfo<std::tuple<Shape, int>>& info) {
      return std::get<0>(info.param).Name() +
             (std::get<1>(info.param) == kFirstBlockFirstThread
                  ? "_FirstBlockFirstThread"
                  : "_LastBlockLastThread");
    });

// --- A holding assertion evaluates its expression once. ---

class DeviceAssertHoldsTest : public ::testing::TestWithParam<Shape> {};

TEST_P(DeviceAssertHoldsTest, ExpressionIsEvaluatedOnceAndNothingElse) {
  MX_SPEC("lang.assert.call.true-has-no-effect",
          "lang.assert.call.available-in-device-code");
  const unsigned n = GetParam().count();
  ManagedArray<int> evaluations(n, 0);
  ASSERT_TRUE(evaluations.ok());
  std::fflush(stderr);
  ::testing::internal::CaptureStderr();
  AssertWithSideEffect<<<1, ToDim3(GetParam())>>>(evaluations.data());
  const mcError_t synchronized = mcDeviceSynchronize();
  const std::string err = ::testing::internal::GetCapturedStderr();
  ASSERT_EQ(synchronized, mcSuccess);
  EXPECT_EQ(err, "");
  for (unsigned t = 0; t < n; ++t) ASSERT_EQ(evaluations[t], 1) << t;
  EXPECT_EQ(mcGetLastError(), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(Shapes, DeviceAssertHoldsTest,
                         ::testing::ValuesIn(BlockShapes()),
                         ::mxcts::conformance::ShapeParamName);

// --- What the host sees after a failure. ---

// What is wrong with `err`, the stderr of a launch of AssertOnOneThread
// with one block in which thread `failing` (of the x dimension) failed its
// assertion; "" where nothing is. Every implementation's message names the
// function the assertion is in, block (0,0,0) and thread (failing,0,0)
// [lang.assert.failure.message-contents], in a wording of its own; the
// reference's wording, "block (0,0,0) thread (failing,0,0)", is checked
// where `reference_wording`.
std::string AssertMessageProblems(const std::string& err, unsigned failing,
                                  bool reference_wording) {
  const IndexComponents block{0, 0, 0};
  const IndexComponents thread{failing, 0, 0};
  if (err.find("CheckThreadIsNot") == std::string::npos ||
      !NamesIndex(err, "block", block) || !NamesIndex(err, "thread", thread)) {
    return "no message naming the function, block (0,0,0) and thread (" +
           std::to_string(failing) + ",0,0) on stderr by then: '" + err + "'; ";
  }
  if (reference_wording &&
      err.find("block (0,0,0) thread (" + std::to_string(failing) + ",0,0)") ==
          std::string::npos) {
    return "the message is not in the reference's wording: '" + err + "'; ";
  }
  return "";
}

// The failing thread stops at the assertion; the message is on stderr by
// the time the synchronizing call returns, which returns mcErrorAssert, as
// do mcGetLastError and mcPeekAtLastError.
std::string FailingThreadStopsAndHostSeesAssert(unsigned threads,
                                                unsigned failing,
                                                bool reference_wording) {
  ManagedArray<int> reached(threads, 0);
  ManagedArray<int> passed(threads, 0);
  if (!reached.ok() || !passed.ok()) return "mcMallocManaged failed";
  std::fflush(stderr);
  ::testing::internal::CaptureStderr();
  AssertOnOneThread<<<1, threads>>>(static_cast<int>(failing), reached.data(),
                                    passed.data());
  const mcError_t synchronized = mcDeviceSynchronize();
  std::fflush(stderr);
  const std::string err = ::testing::internal::GetCapturedStderr();
  std::ostringstream problems;
  // [lang.assert.failure.synchronization-returns-assert]
  if (synchronized != mcErrorAssert) {
    problems << "mcDeviceSynchronize returned " << ErrorName(synchronized)
             << "; ";
  }
  // [lang.assert.failure.message-at-synchronization]
  problems << AssertMessageProblems(err, failing, reference_wording);
  // [lang.assert.failure.stops-kernel]
  if (reached[failing] != 1) problems << "the failing thread never ran; ";
  if (passed[failing] != 0) {
    problems << "the failing thread went on past its assertion; ";
  }
  // [lang.assert.failure.last-error-is-assert]
  const mcError_t peeked = mcPeekAtLastError();
  const mcError_t last = mcGetLastError();
  if (peeked != mcErrorAssert || last != mcErrorAssert) {
    problems << "mcPeekAtLastError/mcGetLastError returned "
             << ErrorName(peeked) << "/" << ErrorName(last) << "; ";
  }
  return problems.str();
}

// Parameters: the block size and the failing thread.
class DeviceAssertFailureTest
    : public ::testing::TestWithParam<std::tuple<unsigned, unsigned>> {};

TEST_P(DeviceAssertFailureTest, ThreadStopsMessageAndErrorReachTheHost) {
  MX_SPEC("lang.assert.failure.stops-kernel",
          "lang.assert.failure.message-at-synchronization",
          "lang.assert.failure.synchronization-returns-assert",
          "lang.assert.failure.last-error-is-assert",
          "api.trap.diagnostic.printed-on-trap");
  // Read from the manifest here, in the test body, which the fresh process
  // runs too; it uses no device.
  const bool reference_wording = Claimed("reference_choices");
  MX_EXPECT_IN_FRESH_PROCESS(FailingThreadStopsAndHostSeesAssert(
      std::get<0>(GetParam()), std::get<1>(GetParam()), reference_wording));
}

INSTANTIATE_TEST_SUITE_P(
    Threads, DeviceAssertFailureTest,
    ::testing::Values(std::make_tuple(1u, 0u), std::make_tuple(64u, 0u),
                      std::make_tuple(64u, 63u), std::make_tuple(65u, 64u),
                      std::make_tuple(1024u, 1023u)),
    [](const ::testing::TestParamInfo<std::tuple<unsigned, unsigned>>& info) {
      return "threads" + std::to_string(std::get<0>(info.param)) + "_failing" +
             std::to_string(std::get<1>(info.param));
    });

// The check of the message itself, on messages whose reading is known: the
// reference's, and another implementation's as it printed them for this
// test's kernel (block 0 of a one-dimensional launch).

constexpr char kOtherWordingThread3[] =
    "conformance/language/device_services/device_assert_test.cc:44: void "
    "<unnamed>::CheckThreadIsNot(int): block: [0,0,0], thread: [3,0,0] "
    "Assertion `static_cast<int>(GlobalLinearThread()) != failing_thread` "
    "failed.\n";

std::string OtherWording(unsigned failing) {
  return "conformance/language/device_services/device_assert_test.cc:44: "
         "void <unnamed>::CheckThreadIsNot(int): block: [0,0,0], thread: [" +
         std::to_string(failing) +
         ",0,0] Assertion `static_cast<int>(GlobalLinearThread()) != "
         "failing_thread` failed.\n"
         "mxmaca: error: device exception in a kernel: device-side assert "
         "triggered (mcErrorAssert); the device's work has stopped and "
         "runtime API calls on it fail until mcDeviceReset\n";
}

std::string ReferenceWording(unsigned failing) {
  return "mxmaca trap: kernel '{anonymous}::AssertOnOneThread' block (0,0,0) "
         "thread (" +
         std::to_string(failing) +
         ",0,0): conformance/language/device_services/device_assert_test.cc:"
         "44: void {anonymous}::CheckThreadIsNot(int): Assertion "
         "'static_cast<int>(GlobalLinearThread()) != failing_thread' "
         "failed.\n";
}

TEST(DeviceAssertMessageCheck, AcceptsEachWordingNamingTheFailingThread) {
  MX_SPEC("lang.assert.failure.message-contents",
          "lang.assert.failure.message-at-synchronization");
  for (unsigned failing : {0u, 3u, 63u, 64u, 1023u}) {
    EXPECT_EQ(AssertMessageProblems(OtherWording(failing), failing, false), "")
        << failing;
    EXPECT_EQ(AssertMessageProblems(ReferenceWording(failing), failing, false),
              "")
        << failing;
    EXPECT_EQ(AssertMessageProblems(ReferenceWording(failing), failing, true),
              "")
        << failing;
  }
  EXPECT_EQ(AssertMessageProblems(kOtherWordingThread3, 3, false), "");
  EXPECT_TRUE(
      NamesIndex("CheckThreadIsNot: blockIdx = (0, 0, 0), "
                 "threadIdx = (3, 0, 0)",
                 "thread", IndexComponents{3, 0, 0}));
  // Control: the reference's wording is asked for only of the reference.
  EXPECT_NE(AssertMessageProblems(OtherWording(3), 3, true), "");
}

TEST(DeviceAssertMessageCheck, RefusesMessagesNamingAnotherThreadOrNone) {
  MX_SPEC("lang.assert.failure.message-contents",
          "lang.assert.failure.message-at-synchronization");
  // Another thread, a thread whose index begins like the failing one's, or
  // the failing one in another block, does not name the failing thread.
  EXPECT_NE(AssertMessageProblems(OtherWording(4), 3, false), "");
  EXPECT_NE(AssertMessageProblems(OtherWording(30), 3, false), "");
  EXPECT_NE(AssertMessageProblems(OtherWording(3), 30, false), "");
  EXPECT_NE(AssertMessageProblems(ReferenceWording(64), 63, false), "");
  EXPECT_FALSE(NamesIndex(kOtherWordingThread3, "thread", {3, 0, 1}));
  EXPECT_FALSE(NamesIndex(kOtherWordingThread3, "block", {1, 0, 0}));
  // The function's name holds "Thread", which does not name a thread.
  EXPECT_FALSE(NamesIndex("CheckThreadIsNot(int): (3,0,0)", "thread",
                          IndexComponents{3, 0, 0}));
  // Fewer than three components, or none, or no message.
  EXPECT_NE(
      AssertMessageProblems(
          "CheckThreadIsNot: block [0,0,0] thread [3,0] failed", 3, false),
      "");
  EXPECT_NE(
      AssertMessageProblems("CheckThreadIsNot: thread 3 failed", 3, false), "");
  EXPECT_NE(AssertMessageProblems("", 0, false), "");
  // Indices without the function.
  EXPECT_NE(AssertMessageProblems("block (0,0,0) thread (3,0,0)", 3, false),
            "");
}

// --- The error is sticky until mcDeviceReset. ---

enum LaterCall {
  kSynchronizeAgain,
  kMalloc,
  kMemcpy,
  kMemset,
  kLaunch,
  kStreamSynchronize,
  kGetLastErrorTwice,
};

const char* LaterCallName(int call) {
  switch (call) {
    case kSynchronizeAgain:
      return "DeviceSynchronize";
    case kMalloc:
      return "Malloc";
    case kMemcpy:
      return "Memcpy";
    case kMemset:
      return "Memset";
    case kLaunch:
      return "Launch";
    case kStreamSynchronize:
      return "StreamSynchronize";
    default:
      return "GetLastErrorTwice";
  }
}

// Makes `call` and returns its result.
mcError_t MakeLaterCall(int call, int* device_word) {
  int host_word = 0;
  void* allocation = nullptr;
  switch (call) {
    case kSynchronizeAgain:
      return mcDeviceSynchronize();
    case kMalloc:
      return mcMalloc(&allocation, 64);
    case kMemcpy:
      return mcMemcpy(&host_word, device_word, sizeof(int),
                      mcMemcpyDeviceToHost);
    case kMemset:
      return mcMemset(device_word, 0, sizeof(int));
    case kLaunch:
      Quiet<<<1, 1>>>(device_word);
      return mcGetLastError();
    case kStreamSynchronize:
      return mcStreamSynchronize(0);
    default:
      (void)mcGetLastError();
      return mcGetLastError();
  }
}

std::string StickyUntilReset(int call) {
  int* device_word = nullptr;
  if (mcMalloc(&device_word, sizeof(int)) != mcSuccess) {
    return "mcMalloc failed";
  }
  if (RunAssertOnOneThread(Shape{1}, Shape{32}, 3) != mcErrorAssert) {
    return "the assertion did not fail with mcErrorAssert";
  }
  std::ostringstream problems;
  // [lang.assert.failure.error-is-sticky]
  for (int attempt = 0; attempt < 2; ++attempt) {
    const mcError_t later = MakeLaterCall(call, device_word);
    if (later != mcErrorAssert) {
      problems << LaterCallName(call) << " (attempt " << attempt
               << ") returned " << ErrorName(later) << "; ";
    }
  }
  // Control: mcDeviceReset clears it, and the device works again.
  if (mcDeviceReset() != mcSuccess) problems << "mcDeviceReset failed; ";
  ManagedArray<int> word(1, 0);
  if (!word.ok()) {
    problems << "mcMallocManaged after the reset failed; ";
  } else {
    Quiet<<<1, 1>>>(word.data());
    const mcError_t synchronized = mcDeviceSynchronize();
    if (synchronized != mcSuccess || word[0] != 7) {
      problems << "a kernel after the reset gave " << ErrorName(synchronized)
               << "; ";
    }
  }
  return problems.str();
}

class DeviceAssertStickyTest : public ::testing::TestWithParam<int> {};

TEST_P(DeviceAssertStickyTest, LaterCallsReturnAssertUntilReset) {
  MX_SPEC("lang.assert.failure.error-is-sticky",
          "lang.assert.failure.synchronization-returns-assert",
          "api.trap.error.sticky");
  MX_EXPECT_IN_FRESH_PROCESS(StickyUntilReset(GetParam()));
}

INSTANTIATE_TEST_SUITE_P(LaterCalls, DeviceAssertStickyTest,
                         ::testing::Values(kSynchronizeAgain, kMalloc, kMemcpy,
                                           kMemset, kLaunch, kStreamSynchronize,
                                           kGetLastErrorTwice),
                         [](const ::testing::TestParamInfo<int>& info) {
                           return std::string(LaterCallName(info.param));
                         });

// The sticky error belongs to the device on which the assertion failed.
std::string OtherDeviceUnaffected() {
  if (RunAssertOnOneThread(Shape{1}, Shape{4}, 0) != mcErrorAssert) {
    return "the assertion did not fail with mcErrorAssert";
  }
  if (mcSetDevice(1) != mcSuccess) return "mcSetDevice(1) failed";
  ManagedArray<int> word(1, 0);
  if (!word.ok()) return "mcMallocManaged on device 1 failed";
  Quiet<<<1, 1>>>(word.data());
  const mcError_t synchronized = mcDeviceSynchronize();
  if (synchronized != mcSuccess || word[0] != 7) {
    return "a kernel on device 1 gave " + ErrorName(synchronized);
  }
  if (mcSetDevice(0) != mcSuccess) return "mcSetDevice(0) failed";
  // Control: device 0 still reports the assertion.
  const mcError_t again = mcDeviceSynchronize();
  if (again != mcErrorAssert) {
    return "device 0 no longer reports the assertion: " + ErrorName(again);
  }
  return "";
}

TEST(DeviceAssert, OtherDevicesAreUnaffected) {
  MX_SPEC("lang.assert.failure.error-is-sticky");
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
  MX_EXPECT_IN_FRESH_PROCESS(OtherDeviceUnaffected());
}

}  // namespace
