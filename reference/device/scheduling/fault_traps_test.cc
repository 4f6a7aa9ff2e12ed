// Copyright mxcts authors.
//
// Longer than the project's 600-line guide: one test file per part, and
// every fault kind has a control (the same fault outside a grid).
//
// Tests of the traps made from faults, floating-point exceptions and the
// kernel timeout (fault_traps.h), each beside a control: the same kernel
// without the fault, or the same fault where it is not the grid's (outside
// device code, outside a grid), which must keep its default action. Also
// what a grid leaves behind (the program's own fault handler still in
// charge outside grids, the thread's alternate stack, signal mask and
// floating-point environment), and the trap policies.
//
// "Device code" here is the functions placed in the section
// mxcts_fault_test_code, which the fixture registers with the engine as a
// loaded image's code would be.

#include "reference/device/scheduling/fault_traps.h"

#include <fenv.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "mcr/detail/device_abi.h"
#include "reference/device/engine.h"
#include "reference/device/engine_test_util.h"

#define DEVICE_CODE __attribute__((section("mxcts_fault_test_code"), noinline))

extern "C" char __start_mxcts_fault_test_code[];
extern "C" char __stop_mxcts_fault_test_code[];

namespace mxcts::device {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::MatchesRegex;

// A page no one may touch, away from the null region.
char* InaccessiblePage() {
  static char* page = [] {
    void* p = mmap(nullptr, 4096, PROT_NONE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return static_cast<char*>(p);
  }();
  return page;
}

class FaultTraps : public testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(RegisterDeviceCode(
        __start_mxcts_fault_test_code,
        __stop_mxcts_fault_test_code - __start_mxcts_fault_test_code));
  }
  void TearDown() override {
    UnregisterDeviceCode(__start_mxcts_fault_test_code);
    SetTrapPolicy(TrapPolicy::kFatal);
    SetKernelTimeoutMilliseconds(0);
    SetFaultClassifier(nullptr);
    SetFiberStackBytes(kDefaultFiberStackBytes);
  }
};

// --- Memory faults. ---

// Each level uses about 1 KiB of stack and touches it.
__attribute__((noinline)) int Recurse(int depth) {
  volatile char frame[1000];
  frame[0] = static_cast<char>(depth);
  frame[sizeof(frame) - 1] = 1;
  if (depth == 0) return frame[sizeof(frame) - 1];
  return Recurse(depth - 1) + frame[sizeof(frame) - 1] + frame[0] - depth;
}

// Thread 3 of block 1 recurses `depth` levels; the others return.
void RecurseOnOneThread(void** args) {
  if (blockIdx.x == 1 && threadIdx.x == 3) {
    *Arg<int*>(args, 0) = Recurse(Arg<int>(args, 1));
  }
}

RunResult RunRecursion(int depth, int* levels) {
  return RunCapturingStderr("RecurseOnOneThread", &RecurseOnOneThread,
                            {&levels, &depth}, dim3(2), dim3(8));
}

TEST_F(FaultTraps, StackOverflowTrapsNamingTheThread) {
  // [lang.ub.exec.stack-overflow]
  SetFiberStackBytes(kMinFiberStackBytes);
  int levels = 0;
  RunResult result = RunRecursion(1000, &levels);
  EXPECT_EQ(result.error, mcErrorLaunchFailure);
  EXPECT_THAT(result.stderr_text,
              MatchesRegex("mxmaca trap: kernel 'RecurseOnOneThread' block "
                           "\\(1,0,0\\) thread \\(3,0,0\\): stack overflow: "
                           ".*16384-byte stack.*\n"));
  EXPECT_EQ(levels, 0);
}

TEST_F(FaultTraps, RecursionWithinTheStackRuns) {
  SetFiberStackBytes(kMinFiberStackBytes);
  int levels = 0;
  RunResult result = RunRecursion(5, &levels);
  EXPECT_EQ(result.error, mcSuccess) << result.stderr_text;
  EXPECT_EQ(levels, 6);
}

TEST_F(FaultTraps, GridAfterATrapRunsAndTrapsAgain) {
  // The handler was left by a switch: the mask must have been restored,
  // or the second fault would end the process.
  SetFiberStackBytes(kMinFiberStackBytes);
  int levels = 0;
  EXPECT_EQ(RunRecursion(1000, &levels).error, mcErrorLaunchFailure);
  EXPECT_EQ(RunRecursion(1000, &levels).error, mcErrorLaunchFailure);
  EXPECT_EQ(RunRecursion(5, &levels).error, mcSuccess);
  EXPECT_EQ(levels, 6);
}

void WriteNear(void** args) {
  char* base = Arg<char*>(args, 0);
  if (threadIdx.x == 1) base[Arg<int>(args, 1)] = 1;
}

TEST_F(FaultTraps, NullDereferenceIsIllegalAddress) {
  // [lang.ub.memory.null-dereference]
  char* base = nullptr;
  int offset = 24;
  RunResult result = RunCapturingStderr("WriteNear", &WriteNear,
                                        {&base, &offset}, dim3(1), dim3(2));
  EXPECT_EQ(result.error, mcErrorIllegalAddress);
  EXPECT_THAT(result.stderr_text,
              HasSubstr("thread (1,0,0): memory violation at 0x18 (a null "
                        "pointer dereference)"));
}

TEST_F(FaultTraps, WriteToMemoryThatIsThereRuns) {
  char buffer[64] = {};
  char* base = buffer;
  int offset = 24;
  RunResult result = RunCapturingStderr("WriteNear", &WriteNear,
                                        {&base, &offset}, dim3(1), dim3(2));
  EXPECT_EQ(result.error, mcSuccess);
  EXPECT_EQ(buffer[24], 1);
}

DEVICE_CODE void WriteInDeviceCode(void** args) {
  *Arg<volatile char*>(args, 0) = 1;
}

TEST_F(FaultTraps, UnexplainedFaultInDeviceCodeIsMemoryViolation) {
  // [api.trap.cause.memory-violation] [api.trap.error.illegal-address]
  char* target = InaccessiblePage() + 100;
  RunResult result = RunCapturingStderr("WriteInDeviceCode", &WriteInDeviceCode,
                                        {&target}, dim3(1), dim3(1));
  EXPECT_EQ(result.error, mcErrorIllegalAddress);
  char expected[64];
  std::snprintf(expected, sizeof(expected), "memory violation at %p\n",
                static_cast<void*>(target));
  EXPECT_THAT(result.stderr_text, HasSubstr(expected));
}

void WriteOutsideDeviceCode(void** args) { *Arg<volatile char*>(args, 0) = 1; }

void RunWriteOutsideDeviceCode() {
  char* target = InaccessiblePage() + 100;
  void* args[] = {&target, nullptr};
  RunGrid(GridLaunch{"WriteOutsideDeviceCode", &WriteOutsideDeviceCode, args,
                     dim3(1), dim3(1), 0});
}

TEST_F(FaultTraps, UnexplainedFaultOutsideDeviceCodeKeepsItsDefaultAction) {
  // Control of the test above: the engine's own faults are not traps.
  EXPECT_EXIT(RunWriteOutsideDeviceCode(), testing::KilledBySignal(SIGSEGV),
              "");
}

// A grid that runs and ends, then a fault of the host code after it.
// Writes to address 8, which is never mapped. The address passes through a
// volatile variable so that the optimizer sees no constant out-of-bounds
// access to warn about.
void WriteToUnmappedAddress() {
  volatile uintptr_t address = 8;
  *reinterpret_cast<volatile char*>(address) = 1;
}

void FaultAfterAGrid() {
  char buffer[4] = {};
  char* base = buffer;
  int offset = 1;
  void* args[] = {&base, &offset, nullptr};
  RunGrid(GridLaunch{"WriteNear", &WriteNear, args, dim3(1), dim3(2), 0});
  WriteToUnmappedAddress();
}

TEST_F(FaultTraps, FaultOutsideAnyGridKeepsItsDefaultAction) {
  EXPECT_EXIT(FaultAfterAGrid(), testing::KilledBySignal(SIGSEGV), "");
}

bool ClassifyTestPage(uintptr_t address, FaultDescription* description) {
  const uintptr_t page = reinterpret_cast<uintptr_t>(InaccessiblePage());
  if (address < page || address >= page + 4096) return false;
  description->error = mcErrorMisalignedAddress;
  description->message =
      "the test page, byte " + std::to_string(address - page);
  return true;
}

TEST_F(FaultTraps, ClassifierNamesTheAddressAndError) {
  SetFaultClassifier(&ClassifyTestPage);
  char* target = InaccessiblePage() + 100;
  // Outside device code: a classified fault traps wherever it happens.
  RunResult result =
      RunCapturingStderr("WriteOutsideDeviceCode", &WriteOutsideDeviceCode,
                         {&target}, dim3(1), dim3(1));
  EXPECT_EQ(result.error, mcErrorMisalignedAddress);
  EXPECT_THAT(result.stderr_text, HasSubstr(": the test page, byte 100\n"));
}

TEST_F(FaultTraps, ClassifierIsNotAskedAboutOtherAddresses) {
  SetFaultClassifier(&ClassifyTestPage);
  char* base = nullptr;
  int offset = 8;
  RunResult result = RunCapturingStderr("WriteNear", &WriteNear,
                                        {&base, &offset}, dim3(1), dim3(2));
  EXPECT_EQ(result.error, mcErrorIllegalAddress);
  EXPECT_THAT(result.stderr_text, HasSubstr("null pointer"));
}

// --- Arithmetic. ---

enum class Operation { kDivide, kSubtract, kMultiply };

struct Arithmetic {
  Operation operation;
  float a;
  float b;
  const char* message;  // under policy 2
  float ieee_result;    // under policy 1
};

void Compute(void** args) {
  const Arithmetic& op = *Arg<const Arithmetic*>(args, 0);
  volatile float a = op.a;
  volatile float b = op.b;
  float result = 0;
  switch (op.operation) {
    case Operation::kDivide:
      result = a / b;
      break;
    case Operation::kSubtract:
      result = a - b;
      break;
    case Operation::kMultiply:
      result = a * b;
      break;
  }
  *Arg<float*>(args, 1) = result;
}

class FloatingPointTraps : public FaultTraps,
                           public testing::WithParamInterface<Arithmetic> {};

TEST_P(FloatingPointTraps, PolicyTwoTraps) {
  // [api.trap.policy.two-reports-numeric]
  SetTrapPolicy(TrapPolicy::kFatalAndNumeric);
  const Arithmetic* op = &GetParam();
  float out = 0;
  float* out_pointer = &out;
  const int enabled_before = fegetexcept();
  RunResult result = RunCapturingStderr("Compute", &Compute,
                                        {&op, &out_pointer}, dim3(1), dim3(1));
  EXPECT_EQ(result.error, mcErrorLaunchFailure);
  EXPECT_THAT(result.stderr_text, HasSubstr(op->message));
  EXPECT_EQ(fegetexcept(), enabled_before);
}

TEST_P(FloatingPointTraps, PolicyOneGivesTheIeeeResult) {
  // [api.trap.policy.default-reports-fatal]
  const Arithmetic* op = &GetParam();
  float out = 0;
  float* out_pointer = &out;
  RunResult result = RunCapturingStderr("Compute", &Compute,
                                        {&op, &out_pointer}, dim3(1), dim3(1));
  EXPECT_EQ(result.error, mcSuccess) << result.stderr_text;
  if (std::isnan(op->ieee_result)) {
    EXPECT_TRUE(std::isnan(out));
  } else {
    EXPECT_EQ(out, op->ieee_result);
  }
}

TEST_P(FloatingPointTraps, PolicyOneMasksExceptionsTheHostUnmasked) {
  feenableexcept(FE_DIVBYZERO | FE_INVALID | FE_OVERFLOW);
  const Arithmetic* op = &GetParam();
  float out = 0;
  float* out_pointer = &out;
  RunResult result = RunCapturingStderr("Compute", &Compute,
                                        {&op, &out_pointer}, dim3(1), dim3(1));
  const int enabled_after = fegetexcept();
  fedisableexcept(FE_ALL_EXCEPT);
  EXPECT_EQ(result.error, mcSuccess) << result.stderr_text;
  EXPECT_EQ(enabled_after, FE_DIVBYZERO | FE_INVALID | FE_OVERFLOW);
}

constexpr float kInfinity = std::numeric_limits<float>::infinity();
constexpr float kMax = std::numeric_limits<float>::max();

INSTANTIATE_TEST_SUITE_P(
    Exceptions, FloatingPointTraps,
    testing::Values(
        Arithmetic{Operation::kDivide, 1.0f, 0.0f,
                   "floating-point exception: division by zero", kInfinity},
        Arithmetic{Operation::kDivide, 0.0f, 0.0f,
                   "floating-point exception: invalid operation", NAN},
        Arithmetic{Operation::kSubtract, kInfinity, kInfinity,
                   "floating-point exception: invalid operation", NAN},
        Arithmetic{Operation::kMultiply, kMax, 2.0f,
                   "floating-point exception: overflow", kInfinity}));

TEST_F(FaultTraps, PolicyTwoLetsOrdinaryArithmeticRun) {
  SetTrapPolicy(TrapPolicy::kFatalAndNumeric);
  const Arithmetic op{Operation::kDivide, 3.0f, 2.0f, "", 1.5f};
  const Arithmetic* op_pointer = &op;
  float out = 0;
  float* out_pointer = &out;
  RunResult result = RunCapturingStderr(
      "Compute", &Compute, {&op_pointer, &out_pointer}, dim3(1), dim3(1));
  EXPECT_EQ(result.error, mcSuccess) << result.stderr_text;
  EXPECT_EQ(out, 1.5f);
}

DEVICE_CODE void IntegerDivide(void** args) {
  volatile int divisor = Arg<int>(args, 0);
  *Arg<int*>(args, 1) = 100 / divisor;
}

TEST_F(FaultTraps, IntegerDivisionByZeroInDeviceCodeTraps) {
  int divisor = 0;
  int out = 0;
  int* out_pointer = &out;
  RunResult result =
      RunCapturingStderr("IntegerDivide", &IntegerDivide,
                         {&divisor, &out_pointer}, dim3(1), dim3(1));
  EXPECT_EQ(result.error, mcErrorLaunchFailure);
  EXPECT_THAT(result.stderr_text, HasSubstr("integer division by zero"));
  divisor = 7;
  EXPECT_EQ(RunCapturingStderr("IntegerDivide", &IntegerDivide,
                               {&divisor, &out_pointer}, dim3(1), dim3(1))
                .error,
            mcSuccess);
  EXPECT_EQ(out, 14);
}

// --- The kernel timeout. ---

int64_t NowMilliseconds() {
  timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return int64_t{now.tv_sec} * 1000 + now.tv_nsec / 1000000;
}

DEVICE_CODE void SpinInDeviceCode(void** args) {
  volatile int* flag = Arg<volatile int*>(args, 0);
  while (*flag == 0) {
  }
}

TEST_F(FaultTraps, TimeoutStopsASpinningKernel) {
  // [api.trap.error.timeout] [lang.ub.exec.kernel-timeout]
  ASSERT_TRUE(SetKernelTimeoutMilliseconds(50));
  volatile int flag = 0;
  volatile int* flag_pointer = &flag;
  const int64_t start = NowMilliseconds();
  RunResult result = RunCapturingStderr("SpinInDeviceCode", &SpinInDeviceCode,
                                        {&flag_pointer}, dim3(2), dim3(4));
  EXPECT_GE(NowMilliseconds() - start, 50);
  EXPECT_EQ(result.error, mcErrorLaunchTimeout);
  EXPECT_THAT(result.stderr_text,
              MatchesRegex("mxmaca trap: kernel 'SpinInDeviceCode' block "
                           "\\(0,0,0\\) thread \\(0,0,0\\): kernel ran longer "
                           "than MACA_KERNEL_TIMEOUT=50 ms\n"));
}

TEST_F(FaultTraps, ShortKernelFinishesUnderATimeout) {
  ASSERT_TRUE(SetKernelTimeoutMilliseconds(50));
  volatile int flag = 1;
  volatile int* flag_pointer = &flag;
  RunResult result = RunCapturingStderr("SpinInDeviceCode", &SpinInDeviceCode,
                                        {&flag_pointer}, dim3(2), dim3(4));
  EXPECT_EQ(result.error, mcSuccess) << result.stderr_text;
  // No timer signal is left behind to end the process later.
  usleep(100 * 1000);
  struct sigaction now {};
  sigaction(SIGRTMIN + 4, nullptr, &now);
  EXPECT_EQ(now.sa_handler, SIG_DFL);
}

// Thread 0 spends `spin_ms` outside device code (where the timer cannot
// trap at once), then returns; each thread records that it started.
void BusyOutsideDeviceCode(void** args) {
  int* started = Arg<int*>(args, 0);
  started[threadIdx.x] = 1;
  if (threadIdx.x != 0) return;
  const int64_t until = NowMilliseconds() + Arg<int>(args, 1);
  while (NowMilliseconds() < until) {
  }
}

TEST_F(FaultTraps, TimeoutOutsideDeviceCodeTrapsAtTheNextSwitch) {
  ASSERT_TRUE(SetKernelTimeoutMilliseconds(20));
  std::vector<int> started(3, 0);
  int* started_pointer = started.data();
  int spin_ms = 150;
  RunResult result =
      RunCapturingStderr("BusyOutsideDeviceCode", &BusyOutsideDeviceCode,
                         {&started_pointer, &spin_ms}, dim3(1), dim3(3));
  EXPECT_EQ(result.error, mcErrorLaunchTimeout);
  EXPECT_THAT(result.stderr_text,
              HasSubstr("thread (1,0,0): kernel ran longer than "
                        "MACA_KERNEL_TIMEOUT=20 ms"));
  EXPECT_EQ(started, (std::vector<int>{1, 0, 0}));
}

TEST(KernelTimeoutSetting, AcceptsZeroToSixtyThousand) {
  EXPECT_TRUE(SetKernelTimeoutMilliseconds(60000));
  EXPECT_EQ(KernelTimeoutMilliseconds(), 60000u);
  EXPECT_FALSE(SetKernelTimeoutMilliseconds(60001));
  EXPECT_EQ(KernelTimeoutMilliseconds(), 60000u);
  EXPECT_TRUE(SetKernelTimeoutMilliseconds(0));
  EXPECT_EQ(KernelTimeoutMilliseconds(), 0u);
}

// --- What a grid leaves behind. ---

// A handler the program had before its first grid: faults outside grids
// still reach it.
void ExitThree(int) { _exit(3); }

void FaultReachesTheProgramsOwnHandler() {
  struct sigaction own {};
  own.sa_handler = &ExitThree;
  sigemptyset(&own.sa_mask);
  sigaction(SIGSEGV, &own, nullptr);
  char buffer[4] = {};
  char* base = buffer;
  int offset = 1;
  void* args[] = {&base, &offset, nullptr};
  RunGrid(GridLaunch{"WriteNear", &WriteNear, args, dim3(1), dim3(2), 0});
  base = nullptr;
  offset = 8;
  // A trap inside the grid: the engine's handler, not the program's.
  if (RunGrid(GridLaunch{"WriteNear", &WriteNear, args, dim3(1), dim3(2), 0}) !=
      mcErrorIllegalAddress) {
    _exit(1);
  }
  WriteToUnmappedAddress();
}

TEST_F(FaultTraps, FaultOutsideAGridReachesTheHandlerTheProgramHadFirst) {
  // A fresh process, so that its first grid installs the engine's handlers
  // over the program's.
  const std::string style = GTEST_FLAG_GET(death_test_style);
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(FaultReachesTheProgramsOwnHandler(), testing::ExitedWithCode(3),
              "");
  GTEST_FLAG_SET(death_test_style, style);
}

// Runs a trapping grid under policy 2 and a timeout on a new OS thread
// that has `own_stack` (or none) as its alternate signal stack; reports
// what the thread's signal state is afterwards.
struct AfterGrid {
  mcError_t error = mcSuccess;
  stack_t alternate_stack{};
  bool fault_signal_blocked = true;
  bool timeout_signal_blocked = true;
  int floating_point_traps = -1;
};

AfterGrid RunOnNewThread(const stack_t* own_stack) {
  AfterGrid after;
  std::thread thread([&] {
    if (own_stack != nullptr) sigaltstack(own_stack, nullptr);
    SetTrapPolicy(TrapPolicy::kFatalAndNumeric);
    SetKernelTimeoutMilliseconds(1000);
    char* base = nullptr;
    int offset = 8;
    after.error = RunCapturingStderr("WriteNear", &WriteNear, {&base, &offset},
                                     dim3(1), dim3(2))
                      .error;
    sigaltstack(nullptr, &after.alternate_stack);
    sigset_t blocked;
    pthread_sigmask(SIG_BLOCK, nullptr, &blocked);
    after.fault_signal_blocked = sigismember(&blocked, SIGSEGV) == 1;
    after.timeout_signal_blocked = sigismember(&blocked, SIGRTMIN + 4) == 1;
    after.floating_point_traps = fegetexcept();
    stack_t off{};
    off.ss_flags = SS_DISABLE;
    sigaltstack(&off, nullptr);
  });
  thread.join();
  return after;
}

TEST_F(FaultTraps, ThreadWithoutAnAlternateStackKeepsTheEnginesAfterATrap) {
  AfterGrid after = RunOnNewThread(nullptr);
  EXPECT_EQ(after.error, mcErrorIllegalAddress);
  EXPECT_EQ(after.alternate_stack.ss_flags & SS_DISABLE, 0);
  EXPECT_GE(after.alternate_stack.ss_size, size_t{64} * 1024);
  EXPECT_FALSE(after.fault_signal_blocked);
  EXPECT_FALSE(after.timeout_signal_blocked);
  EXPECT_EQ(after.floating_point_traps, 0);
}

TEST_F(FaultTraps, ThreadsOwnSmallAlternateStackComesBack) {
  static char small[16 * 1024];
  stack_t own{};
  own.ss_sp = small;
  own.ss_size = sizeof(small);
  AfterGrid after = RunOnNewThread(&own);
  EXPECT_EQ(after.error, mcErrorIllegalAddress);
  EXPECT_EQ(after.alternate_stack.ss_sp, small);
  EXPECT_EQ(after.alternate_stack.ss_size, sizeof(small));
  EXPECT_FALSE(after.fault_signal_blocked);
  EXPECT_EQ(after.floating_point_traps, 0);
}

// --- Trap policies. ---

// Thread 2 fails an assertion (or traps); every thread that goes on
// records it.
void AssertOnThreadTwo(void** args) {
  if (threadIdx.x == 2) {
    if (Arg<int>(args, 1) != 0) {
      ImageRuntimeTable()->trap("explicit trap");
    }
    ImageRuntimeTable()->assert_fail("x == 2", "file.cu", 7, "kernel");
  }
  Arg<int*>(args, 0)[threadIdx.x] = 1;
}

RunResult RunAssertOnThreadTwo(bool explicit_trap, std::vector<int>* ran) {
  ran->assign(4, 0);
  int* out = ran->data();
  int explicit_flag = explicit_trap ? 1 : 0;
  return RunCapturingStderr("AssertOnThreadTwo", &AssertOnThreadTwo,
                            {&out, &explicit_flag}, dim3(1), dim3(4));
}

TEST_F(FaultTraps, PolicyZeroIgnoresAFailedAssertAndRunsOn) {
  // [api.trap.policy.zero-disables-reporting]
  SetTrapPolicy(TrapPolicy::kOff);
  std::vector<int> ran;
  RunResult result = RunAssertOnThreadTwo(false, &ran);
  EXPECT_EQ(result.error, mcSuccess);
  EXPECT_THAT(result.stderr_text, IsEmpty());
  EXPECT_EQ(ran, (std::vector<int>{1, 1, 0, 1}));
}

TEST_F(FaultTraps, PolicyZeroIgnoresAnExplicitTrap) {
  SetTrapPolicy(TrapPolicy::kOff);
  std::vector<int> ran;
  RunResult result = RunAssertOnThreadTwo(true, &ran);
  EXPECT_EQ(result.error, mcSuccess);
  EXPECT_THAT(result.stderr_text, IsEmpty());
  EXPECT_EQ(ran, (std::vector<int>{1, 1, 0, 1}));
}

TEST_F(FaultTraps, PolicyOneReportsTheAssert) {
  std::vector<int> ran;
  RunResult result = RunAssertOnThreadTwo(false, &ran);
  EXPECT_EQ(result.error, mcErrorAssert);
  EXPECT_THAT(result.stderr_text, HasSubstr("Assertion 'x == 2' failed"));
  EXPECT_EQ(ran, (std::vector<int>{1, 1, 0, 0}));
}

TEST_F(FaultTraps, PolicyZeroStillReportsFaults) {
  SetTrapPolicy(TrapPolicy::kOff);
  char* base = nullptr;
  int offset = 8;
  RunResult result = RunCapturingStderr("WriteNear", &WriteNear,
                                        {&base, &offset}, dim3(1), dim3(2));
  EXPECT_EQ(result.error, mcErrorIllegalAddress);
  EXPECT_THAT(result.stderr_text, HasSubstr("null pointer"));
}

// Thread 0 asserts before the barrier the others wait at.
void AssertBeforeBarrier(void** args) {
  (void)args;
  if (threadIdx.x == 0) {
    ImageRuntimeTable()->assert_fail("ok", "file.cu", 9, "kernel");
  }
  __syncthreads();
}

TEST_F(FaultTraps, PolicyZeroReportsTheBarrierAnIgnoredThreadSkipped) {
  SetTrapPolicy(TrapPolicy::kOff);
  RunResult result = RunCapturingStderr(
      "AssertBeforeBarrier", &AssertBeforeBarrier, {}, dim3(1), dim3(4));
  EXPECT_EQ(result.error, mcErrorLaunchFailure);
  EXPECT_THAT(result.stderr_text, HasSubstr("barrier skipped by exiting"));
}

// --- Device code ranges. ---

TEST(DeviceCode, RegisteredRangesAreDeviceCode) {
  static char code[64];
  EXPECT_FALSE(
      device_internal::IsDeviceCode(reinterpret_cast<uintptr_t>(code) + 10));
  ASSERT_TRUE(RegisterDeviceCode(code, sizeof(code)));
  EXPECT_TRUE(
      device_internal::IsDeviceCode(reinterpret_cast<uintptr_t>(code) + 10));
  EXPECT_FALSE(device_internal::IsDeviceCode(reinterpret_cast<uintptr_t>(code) +
                                             sizeof(code)));
  UnregisterDeviceCode(code);
  EXPECT_FALSE(
      device_internal::IsDeviceCode(reinterpret_cast<uintptr_t>(code) + 10));
  EXPECT_FALSE(RegisterDeviceCode(code, 0));
}

TEST(DeviceCode, TableHasRoomForManyImagesAndThenRefuses) {
  static char code[5000];
  int registered = 0;
  while (registered < 5000 && RegisterDeviceCode(code + registered, 1)) {
    ++registered;
  }
  EXPECT_GE(registered, 1000);
  EXPECT_LT(registered, 5000);
  for (int i = 0; i < registered; ++i) UnregisterDeviceCode(code + i);
  EXPECT_TRUE(RegisterDeviceCode(code, 1));
  UnregisterDeviceCode(code);
}

}  // namespace
}  // namespace mxcts::device
