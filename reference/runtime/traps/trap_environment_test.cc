// Copyright mxcts authors.
//
// Tests of the trap variables: every accepted value, the invalid ones next
// to them, and what applying them sets.

#include "reference/runtime/traps/trap_environment.h"

#include <gtest/gtest.h>

#include <string>

#include "reference/device/engine.h"
#include "reference/runtime/memory/memory_manager.h"

namespace mxcts::runtime {
namespace {

using mxcts::device::TrapPolicy;

TEST(ParseTrapPolicy, AcceptsZeroOneAndTwo) {
  // [api.env.trap-handler.values]
  EXPECT_EQ(ParseTrapPolicy("0"), TrapPolicy::kOff);
  EXPECT_EQ(ParseTrapPolicy("1"), TrapPolicy::kFatal);
  EXPECT_EQ(ParseTrapPolicy("2"), TrapPolicy::kFatalAndNumeric);
}

class InvalidTrapPolicy : public testing::TestWithParam<const char*> {};

TEST_P(InvalidTrapPolicy, MeansTheDefault) {
  // [api.trap.policy.invalid-value-uses-default]
  EXPECT_EQ(ParseTrapPolicy(GetParam()), TrapPolicy::kFatal);
}

INSTANTIATE_TEST_SUITE_P(Values, InvalidTrapPolicy,
                         testing::Values(nullptr, "", "3", "-1", "02", "20",
                                         " 2", "2 ", "two", "0x2"));

struct TimeoutCase {
  const char* value;
  unsigned milliseconds;
};

class KernelTimeout : public testing::TestWithParam<TimeoutCase> {};

TEST_P(KernelTimeout, Parses) {
  // [api.env.kernel-timeout.values] [api.env.kernel-timeout.out-of-range]
  EXPECT_EQ(ParseKernelTimeout(GetParam().value), GetParam().milliseconds)
      << (GetParam().value != nullptr ? GetParam().value : "(unset)");
}

INSTANTIATE_TEST_SUITE_P(
    Values, KernelTimeout,
    testing::Values(
        // In range.
        TimeoutCase{"0", 0}, TimeoutCase{"1", 1}, TimeoutCase{"200", 200},
        TimeoutCase{"0200", 200}, TimeoutCase{"59999", 59999},
        TimeoutCase{"60000", 60000},
        // Above the range: clamped.
        TimeoutCase{"60001", 60000}, TimeoutCase{"1000000", 60000},
        TimeoutCase{"99999999999999999999999999", 60000},
        // Not a decimal number: ignored.
        TimeoutCase{nullptr, 0}, TimeoutCase{"", 0}, TimeoutCase{"-5", 0},
        TimeoutCase{"+5", 0}, TimeoutCase{" 5", 0}, TimeoutCase{"5ms", 0},
        TimeoutCase{"1e3", 0}, TimeoutCase{"0x10", 0}));

TEST(ParseCheckedMemory, OnlyOneTurnsItOn) {
  EXPECT_TRUE(ParseCheckedMemory("1"));
  EXPECT_FALSE(ParseCheckedMemory(nullptr));
  EXPECT_FALSE(ParseCheckedMemory("0"));
  EXPECT_FALSE(ParseCheckedMemory(""));
  EXPECT_FALSE(ParseCheckedMemory("yes"));
  EXPECT_FALSE(ParseCheckedMemory("11"));
}

// One test: its steps depend on whether this process has allocated yet.
TEST(ApplyTrapEnvironment, SetsTheEngineAndTheMemoryLayoutUntilAllocation) {
  TrapEnvironment environment;
  environment.policy = TrapPolicy::kFatalAndNumeric;
  environment.kernel_timeout_milliseconds = 250;
  environment.checked_memory = true;
  ApplyTrapEnvironment(environment);
  EXPECT_EQ(mxcts::device::GetTrapPolicy(), TrapPolicy::kFatalAndNumeric);
  EXPECT_EQ(mxcts::device::KernelTimeoutMilliseconds(), 250u);
  // No allocation has been made in this process: the layout can change.
  EXPECT_TRUE(MemoryManager::Get().checked_mode());

  ApplyTrapEnvironment(TrapEnvironment());
  EXPECT_EQ(mxcts::device::GetTrapPolicy(), TrapPolicy::kFatal);
  EXPECT_EQ(mxcts::device::KernelTimeoutMilliseconds(), 0u);
  EXPECT_FALSE(MemoryManager::Get().checked_mode());

  // The first allocation fixes the layout.
  absl::StatusOr<void*> p =
      MemoryManager::Get().AllocateDevice(0, 64, size_t{1} << 30);
  ASSERT_TRUE(p.ok());
  EXPECT_FALSE(MemoryManager::Get().SetCheckedMode(true));
  EXPECT_FALSE(MemoryManager::Get().checked_mode());
  EXPECT_TRUE(MemoryManager::Get().SetCheckedMode(false));
  EXPECT_TRUE(
      MemoryManager::Get().Free(*p, {MemoryKind::kDevice}, "test").ok());
}

}  // namespace
}  // namespace mxcts::runtime
