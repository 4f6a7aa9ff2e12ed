// Copyright mxcts authors.
//
// Tests of the error entry points: names and strings of every code, the
// last-error slot as API calls see it, and sticky errors after a kernel
// fault (simulated by a grid runner that reports a trap).

#include <gtest/gtest.h>

#include <string>
#include <thread>

#include "mc_runtime.h"
#include "reference/runtime/errors/error_mapping.h"
#include "reference/runtime/testing/runtime_testing.h"

namespace {

using mxcts::runtime::AllErrors;

class EveryError : public testing::TestWithParam<mcError_t> {};

TEST_P(EveryError, NameIsTheEnumeratorSpelling) {
  // [api.error.string.name-is-enumerator-spelling]
  const char* name = mcGetErrorName(GetParam());
  ASSERT_NE(name, nullptr);
  EXPECT_EQ(std::string(name).rfind("mc", 0), 0u) << name;
  EXPECT_STREQ(name, mxcts::runtime::ErrorName(GetParam()));
}

TEST_P(EveryError, StringIsANonEmptyDescription) {
  // [api.error.string.description-for-every-code]
  const char* text = mcGetErrorString(GetParam());
  ASSERT_NE(text, nullptr);
  EXPECT_GT(std::string(text).size(), 0u);
  EXPECT_STRNE(text, "unrecognized error code");
}

INSTANTIATE_TEST_SUITE_P(AllCodes, EveryError, testing::ValuesIn(AllErrors()),
                         [](const testing::TestParamInfo<mcError_t>& info) {
                           return std::string(
                               mxcts::runtime::ErrorName(info.param));
                         });

TEST(ErrorStrings, KnownSpellings) {
  EXPECT_STREQ(mcGetErrorName(mcSuccess), "mcSuccess");
  EXPECT_STREQ(mcGetErrorName(mcErrorInvalidValue), "mcErrorInvalidValue");
}

TEST(ErrorStrings, UnrecognizedCodeSaysSo) {
  // [api.error.string.unrecognized-code]
  EXPECT_STREQ(mcGetErrorName(static_cast<mcError_t>(12345)),
               "unrecognized error code");
  EXPECT_STREQ(mcGetErrorString(static_cast<mcError_t>(12345)),
               "unrecognized error code");
  EXPECT_STRNE(mcGetErrorName(static_cast<mcError_t>(999)),
               "unrecognized error code");  // control: mcErrorUnknown
}

TEST(ErrorStrings, AreStaticAndLeaveTheLastErrorAlone) {
  // [api.error.string.static-lifetime] [api.error.string.no-state-effect]
  const char* first = mcGetErrorString(mcErrorInvalidDevice);
  mcGetErrorString(mcErrorInvalidValue);
  EXPECT_EQ(mcGetErrorString(mcErrorInvalidDevice), first);
  mcGetErrorName(static_cast<mcError_t>(12345));
  EXPECT_EQ(mcPeekAtLastError(), mcSuccess);
}

TEST(LastError, FailingCallIsRecordedAndGetClearsIt) {
  mcGetLastError();
  EXPECT_EQ(mcSetDevice(99), mcErrorInvalidDevice);
  EXPECT_EQ(mcPeekAtLastError(), mcErrorInvalidDevice);
  EXPECT_EQ(mcPeekAtLastError(), mcErrorInvalidDevice);  // peek keeps it
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidDevice);
  EXPECT_EQ(mcGetLastError(),
            mcSuccess);  // [api.error.last.get-returns-and-resets]
}

TEST(LastError, SuccessfulCallDoesNotClearIt) {
  // [api.error.last.success-does-not-clear]
  mcGetLastError();
  EXPECT_EQ(mcGetDeviceCount(nullptr), mcErrorInvalidValue);
  int count = 0;
  EXPECT_EQ(mcGetDeviceCount(&count), mcSuccess);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidValue);
}

TEST(LastError, IsPerHostThread) {
  // [api.error.last.per-host-thread]
  mcGetLastError();
  std::thread other([] { mcSetDevice(-1); });
  other.join();
  EXPECT_EQ(mcGetLastError(), mcSuccess);
}

// --- Sticky errors. ---

void NothingEntry(void**) {}
const unsigned kNone[] = {0};
const __mc_internal::KernelRecord kNothing = {
    "[with Sig = void (*)(); Sig F = faulty]",
    &NothingEntry,
    0,
    kNone,
    kNone,
    0,
    0,
    0,
    nullptr};
void FaultyStub() {}

class StickyError : public testing::Test {
 protected:
  void SetUp() override {
    mxcts::runtime_testing::RegisterKernelRecord(
        reinterpret_cast<const void*>(&FaultyStub), &kNothing);
    ASSERT_EQ(mcSetDevice(0), mcSuccess);
    mcGetLastError();
  }
  void TearDown() override {
    mcSetDevice(0);
    mcDeviceReset();
    mcGetLastError();
  }
  // Launches FaultyStub on the current device with a runner reporting
  // `fault`.
  mcError_t LaunchFaulting(mcError_t fault) {
    mxcts::runtime_testing::SetRunnerResult(fault);
    mxcts::runtime_testing::ScopedGridRunner runner(
        &mxcts::runtime_testing::ReturnRunnerResult);
    return mcLaunchKernel(reinterpret_cast<const void*>(&FaultyStub), dim3(1),
                          dim3(1), nullptr, 0, nullptr);
  }
};

TEST_F(StickyError, FaultIsReportedByTheNextSynchronization) {
  // [lang.launch.error.execution-errors-reported-later]
  EXPECT_EQ(LaunchFaulting(mcErrorIllegalAddress), mcSuccess);
  EXPECT_EQ(mcDeviceSynchronize(), mcErrorIllegalAddress);
}

TEST_F(StickyError, LaterCallsThatUseTheDeviceFail) {
  // [api.error.sticky.later-calls-fail]
  LaunchFaulting(mcErrorAssert);
  void* p = nullptr;
  EXPECT_EQ(mcMalloc(&p, 16), mcErrorAssert);
  EXPECT_EQ(p, nullptr);
  mcStream_t s = nullptr;
  EXPECT_EQ(mcStreamCreate(&s), mcErrorAssert);
  EXPECT_EQ(mcStreamSynchronize(nullptr), mcErrorAssert);
  // Queries that need no context still work.
  int count = 0;
  EXPECT_EQ(mcGetDeviceCount(&count), mcSuccess);
  mcDeviceProp_t prop;
  EXPECT_EQ(mcGetDeviceProperties(&prop, 0), mcSuccess);
}

TEST_F(StickyError, WorkAfterTheFaultIsNotExecuted) {
  // [api.error.sticky.work-not-executed]
  LaunchFaulting(mcErrorLaunchFailure);
  int runs_before = mxcts::runtime_testing::GridsRun();
  EXPECT_EQ(LaunchFaulting(mcSuccess), mcErrorLaunchFailure);
  EXPECT_EQ(mxcts::runtime_testing::GridsRun(), runs_before);
}

TEST_F(StickyError, GetLastErrorReturnsItWithoutClearingIt) {
  // [api.error.sticky.get-last-error-does-not-clear]
  LaunchFaulting(mcErrorIllegalAddress);
  EXPECT_EQ(mcGetLastError(), mcErrorIllegalAddress);
  EXPECT_EQ(mcGetLastError(), mcErrorIllegalAddress);
  EXPECT_EQ(mcDeviceSynchronize(), mcErrorIllegalAddress);
}

TEST_F(StickyError, IsSeenFromOtherHostThreads) {
  LaunchFaulting(mcErrorIllegalAddress);
  mcError_t seen = mcSuccess;
  std::thread other([&] { seen = mcDeviceSynchronize(); });
  other.join();
  EXPECT_EQ(seen, mcErrorIllegalAddress);
}

TEST_F(StickyError, OtherDevicesAreUnaffected) {
  // [api.error.sticky.reset-recovery]: confined to the faulting device.
  LaunchFaulting(mcErrorIllegalAddress);
  ASSERT_EQ(mcSetDevice(1), mcSuccess);
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
  void* p = nullptr;
  EXPECT_EQ(mcMalloc(&p, 16), mcSuccess);
  EXPECT_EQ(mcFree(p), mcSuccess);
}

TEST_F(StickyError, ResetRecoversTheDevice) {
  // [api.error.sticky.persists-until-reset]
  LaunchFaulting(mcErrorMisalignedAddress);
  EXPECT_EQ(mcDeviceSynchronize(), mcErrorMisalignedAddress);
  EXPECT_EQ(mcDeviceReset(), mcSuccess);
  mcGetLastError();
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(LaunchFaulting(mcSuccess), mcSuccess);
}

TEST_F(StickyError, ArgumentErrorsAreNotSticky) {
  // [api.error.sticky.argument-errors-not-sticky]
  EXPECT_EQ(mcLaunchKernel(reinterpret_cast<const void*>(&FaultyStub), dim3(1),
                           dim3(2048), nullptr, 0, nullptr),
            mcErrorInvalidConfiguration);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidConfiguration);
  EXPECT_EQ(mcGetLastError(), mcSuccess);
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
}

TEST_F(StickyError, NonStickyEngineErrorIsTheLaunchsOwn) {
  EXPECT_EQ(LaunchFaulting(mcErrorLaunchOutOfResources),
            mcErrorLaunchOutOfResources);
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
}

}  // namespace
