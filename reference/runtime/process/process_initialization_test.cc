// Copyright mxcts authors.
//
// The process initializer runs before the device table is made, whichever
// layer asks for the table first: a program whose first runtime call is a
// launch (which reaches the table below the entry points) gets its trap
// variables applied like one that starts with mcGetDeviceCount. Run with
// MACA_TRAP_HANDLER=2 (BUILD).

#include <gtest/gtest.h>

#include "reference/device/engine.h"
#include "reference/runtime/devices/device_table.h"

namespace mxcts::runtime {
namespace {

using mxcts::device::GetTrapPolicy;
using mxcts::device::TrapPolicy;

TEST(ProcessInitialization, RunsBeforeTheDeviceTableIsMadeBelowTheEntryPoints) {
  // Control: nothing has initialized the runtime yet, so the engine still
  // has its default policy, not the environment's.
  ASSERT_EQ(DeviceTable::GetIfInitialized(), nullptr);
  EXPECT_EQ(GetTrapPolicy(), TrapPolicy::kFatal);

  DeviceTable::Get();
  EXPECT_EQ(GetTrapPolicy(), TrapPolicy::kFatalAndNumeric);
}

}  // namespace
}  // namespace mxcts::runtime
