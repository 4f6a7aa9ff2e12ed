// Copyright mxcts authors.

#include "reference/runtime/environment/environment_settings.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>

namespace mxcts::runtime {
namespace {

EnvironmentReading Read(const std::map<std::string, std::string>& values) {
  return ReadEnvironment([&](const char* name) -> const char* {
    auto found = values.find(name);
    return found == values.end() ? nullptr : found->second.c_str();
  });
}

TEST(ReadEnvironment, DefaultsWhenUnset) {
  const EnvironmentReading reading = Read({});
  const EnvironmentSettings& s = reading.settings;
  EXPECT_FALSE(s.visible_devices.has_value());
  EXPECT_FALSE(s.device_order_pci_bus_id);
  EXPECT_FALSE(s.launch_blocking);
  EXPECT_EQ(s.trap_handler, 1);
  EXPECT_EQ(s.graph_launch_mode, 0);
  EXPECT_EQ(s.direct_dispatch, 0);
  EXPECT_EQ(s.launch_mode, 1);
  EXPECT_EQ(s.cpu_thread_policy, 0);
  EXPECT_EQ(s.sync_policy, 0);
  EXPECT_EQ(s.priority_queue_policy, 0u);
  EXPECT_EQ(s.mps_mode, 0);
  EXPECT_EQ(s.hotspot_memstack, 0);
  EXPECT_EQ(s.kernel_timeout_milliseconds, 0u);
  EXPECT_EQ(s.monitor_hang_timeout_seconds, 0u);
  EXPECT_TRUE(reading.warnings.empty());
  EXPECT_EQ(reading.setting_lines.size(), EnvironmentVariableNames().size());
}

TEST(ReadEnvironment, ValidValues) {
  const EnvironmentReading reading = Read({
      {"MACA_VISIBLE_DEVICES", "1,0"},
      {"MACA_DEVICE_ORDER", "PCI_BUS_ID"},
      {"MACA_LAUNCH_BLOCKING", "1"},
      {"MACA_TRAP_HANDLER", "2"},
      {"MACA_GRAPH_LAUNCH_MODE", "1"},
      {"MACA_DIRECT_DISPATCH", "1"},
      {"MACA_LAUNCH_MODE", "0"},
      {"MACA_CPU_THREAD_POLICY", "-1"},
      {"MACA_SYNC_POLICY", "3"},
      {"MACA_PRIORITY_QUEUE_POLICY", "0x1A1"},
      {"MACA_MPS_MODE", "1"},
      {"MACA_HOTSPOT_MEMSTACK", "2"},
      {"MACA_KERNEL_TIMEOUT", "250"},
      {"MACA_MONITOR_HANG_TIMEOUT", "0x10"},
  });
  const EnvironmentSettings& s = reading.settings;
  EXPECT_EQ(s.visible_devices, "1,0");
  EXPECT_TRUE(s.device_order_pci_bus_id);
  EXPECT_TRUE(s.launch_blocking);
  EXPECT_EQ(s.trap_handler, 2);
  EXPECT_EQ(s.graph_launch_mode, 1);
  EXPECT_EQ(s.direct_dispatch, 1);
  EXPECT_EQ(s.launch_mode, 0);
  EXPECT_EQ(s.cpu_thread_policy, -1);
  EXPECT_EQ(s.sync_policy, 3);
  EXPECT_EQ(s.priority_queue_policy, 0x1A1u);
  EXPECT_EQ(s.mps_mode, 1);
  EXPECT_EQ(s.hotspot_memstack, 2);
  EXPECT_EQ(s.kernel_timeout_milliseconds, 250u);
  EXPECT_EQ(s.monitor_hang_timeout_seconds, 16u);
  EXPECT_TRUE(reading.warnings.empty()) << reading.warnings[0];
}

TEST(ReadEnvironment, InvalidValuesWarnAndUseTheDefault) {
  const EnvironmentReading reading = Read({
      {"MACA_TRAP_HANDLER", "3"},
      {"MACA_SYNC_POLICY", " 1"},
      {"MACA_CPU_THREAD_POLICY", "-2"},
      {"MACA_LAUNCH_MODE", ""},
      {"MACA_KERNEL_TIMEOUT", "20ms"},
      {"MACA_DEVICE_ORDER", "pci_bus_id"},
  });
  const EnvironmentSettings& s = reading.settings;
  EXPECT_EQ(s.trap_handler, 1);
  EXPECT_EQ(s.sync_policy, 0);
  EXPECT_EQ(s.cpu_thread_policy, 0);
  EXPECT_EQ(s.launch_mode, 1);
  EXPECT_EQ(s.kernel_timeout_milliseconds, 0u);
  EXPECT_FALSE(s.device_order_pci_bus_id);
  ASSERT_EQ(reading.warnings.size(), 6u);
  EXPECT_EQ(reading.warnings[1],
            "MACA_TRAP_HANDLER=\"3\" is not a valid value (0, 1, 2); using "
            "the default, 1");
}

TEST(ReadEnvironment, TimeoutsAboveTheRangeAreClamped) {
  const EnvironmentReading reading = Read({
      {"MACA_KERNEL_TIMEOUT", "99999999999999999999999"},
      {"MACA_MONITOR_HANG_TIMEOUT", "65536"},
  });
  EXPECT_EQ(reading.settings.kernel_timeout_milliseconds, 60000u);
  EXPECT_EQ(reading.settings.monitor_hang_timeout_seconds, 0xFFFFu);
  EXPECT_EQ(reading.warnings.size(), 2u);
}

TEST(ReadEnvironment, PriorityQueuePolicyConstraints) {
  for (const char* valid : {"0", "0x001", "0x1A1", "0x444", "0xB1", "0x1"}) {
    const EnvironmentReading reading =
        Read({{"MACA_PRIORITY_QUEUE_POLICY", valid}});
    EXPECT_TRUE(reading.warnings.empty()) << valid;
  }
  for (const char* invalid :
       {"0x110", "0x555", "0x1000", "1", "0x", "0xG1", "273", "0x0"}) {
    const EnvironmentReading reading =
        Read({{"MACA_PRIORITY_QUEUE_POLICY", invalid}});
    EXPECT_EQ(reading.warnings.size(), 1u) << invalid;
    EXPECT_EQ(reading.settings.priority_queue_policy, 0u) << invalid;
  }
}

// The trap policy's values [api.env.trap-handler.values]; any other value
// means 1 [api.trap.policy.invalid-value-uses-default].
class TrapHandlerValue
    : public testing::TestWithParam<std::pair<const char*, int>> {};

TEST_P(TrapHandlerValue, Parses) {
  const EnvironmentReading reading =
      Read({{"MACA_TRAP_HANDLER", GetParam().first}});
  EXPECT_EQ(reading.settings.trap_handler, GetParam().second);
  const bool valid =
      std::string("012").find(GetParam().first) != std::string::npos &&
      std::string(GetParam().first).size() == 1;
  EXPECT_EQ(reading.warnings.size(), valid ? 0u : 1u);
}

INSTANTIATE_TEST_SUITE_P(Values, TrapHandlerValue,
                         testing::Values(std::pair{"0", 0}, std::pair{"1", 1},
                                         std::pair{"2", 2}, std::pair{"", 1},
                                         std::pair{"3", 1}, std::pair{"-1", 1},
                                         std::pair{"02", 1}, std::pair{"20", 1},
                                         std::pair{" 2", 1}, std::pair{"2 ", 1},
                                         std::pair{"two", 1},
                                         std::pair{"0x2", 1}));

struct TimeoutCase {
  const char* value;
  unsigned milliseconds;
  bool warns;
};

class KernelTimeout : public testing::TestWithParam<TimeoutCase> {};

TEST_P(KernelTimeout, Parses) {
  // [api.env.kernel-timeout.values] [api.env.kernel-timeout.out-of-range]
  const EnvironmentReading reading =
      Read({{"MACA_KERNEL_TIMEOUT", GetParam().value}});
  EXPECT_EQ(reading.settings.kernel_timeout_milliseconds,
            GetParam().milliseconds)
      << GetParam().value;
  EXPECT_EQ(reading.warnings.size(), GetParam().warns ? 1u : 0u)
      << GetParam().value;
}

INSTANTIATE_TEST_SUITE_P(
    Values, KernelTimeout,
    testing::Values(
        // In range.
        TimeoutCase{"0", 0, false}, TimeoutCase{"1", 1, false},
        TimeoutCase{"200", 200, false}, TimeoutCase{"0200", 200, false},
        TimeoutCase{"59999", 59999, false}, TimeoutCase{"60000", 60000, false},
        // Above the range: clamped.
        TimeoutCase{"60001", 60000, true}, TimeoutCase{"1000000", 60000, true},
        TimeoutCase{"99999999999999999999999999", 60000, true},
        // Not a decimal number: ignored.
        TimeoutCase{"", 0, true}, TimeoutCase{"-5", 0, true},
        TimeoutCase{"+5", 0, true}, TimeoutCase{" 5", 0, true},
        TimeoutCase{"5ms", 0, true}, TimeoutCase{"1e3", 0, true},
        TimeoutCase{"0x10", 0, true}));

TEST(ProcessEnvironment, ReadOnce) {
  const EnvironmentSettings& first = ProcessEnvironment();
  EXPECT_EQ(&first, &ProcessEnvironment());
}

}  // namespace
}  // namespace mxcts::runtime
