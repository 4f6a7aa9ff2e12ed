// Copyright mxcts authors.
//
// Tests of the trap variables: MXCTS_MEMCHECK's values and what applying
// them sets (environment_settings_test.cc parses the MACA_ ones).

#include "reference/runtime/traps/trap_environment.h"

#include <gtest/gtest.h>

#include "reference/device/engine.h"
#include "reference/runtime/memory/memory_manager.h"

namespace mxcts::runtime {
namespace {

using mxcts::device::TrapPolicy;

TEST(ParseCheckedMemory, OnlyOneTurnsItOn) {
  EXPECT_TRUE(ParseCheckedMemory("1"));
  EXPECT_FALSE(ParseCheckedMemory(nullptr));
  EXPECT_FALSE(ParseCheckedMemory("0"));
  EXPECT_FALSE(ParseCheckedMemory(""));
  EXPECT_FALSE(ParseCheckedMemory("yes"));
  EXPECT_FALSE(ParseCheckedMemory("11"));
}

TEST(HangTimeout, EngineTakesTheTableRange) {
  // [api.env.monitor-hang-timeout.values]
  EXPECT_TRUE(mxcts::device::SetHangTimeoutSeconds(0xFFFF));
  EXPECT_EQ(mxcts::device::HangTimeoutSeconds(), 0xFFFFu);
  EXPECT_FALSE(mxcts::device::SetHangTimeoutSeconds(0x10000));
  EXPECT_EQ(mxcts::device::HangTimeoutSeconds(), 0xFFFFu);
  EXPECT_TRUE(mxcts::device::SetHangTimeoutSeconds(0));
}

// One test: its steps depend on whether this process has allocated yet.
TEST(ApplyTrapEnvironment, SetsTheEngineAndTheMemoryLayoutUntilAllocation) {
  TrapEnvironment environment;
  environment.policy = TrapPolicy::kFatalAndNumeric;
  environment.kernel_timeout_milliseconds = 250;
  environment.monitor_hang_timeout_seconds = 7;
  environment.checked_memory = true;
  ApplyTrapEnvironment(environment);
  EXPECT_EQ(mxcts::device::GetTrapPolicy(), TrapPolicy::kFatalAndNumeric);
  EXPECT_EQ(mxcts::device::KernelTimeoutMilliseconds(), 250u);
  EXPECT_EQ(mxcts::device::HangTimeoutSeconds(), 7u);
  // No allocation has been made in this process: the layout can change.
  EXPECT_TRUE(MemoryManager::Get().checked_mode());

  ApplyTrapEnvironment(TrapEnvironment());
  EXPECT_EQ(mxcts::device::GetTrapPolicy(), TrapPolicy::kFatal);
  EXPECT_EQ(mxcts::device::KernelTimeoutMilliseconds(), 0u);
  EXPECT_EQ(mxcts::device::HangTimeoutSeconds(), 0u);
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
