// Copyright mxcts authors.
//
// Tests of kernel attributes: the reference's values, settings reflected
// in them, settings kept per kernel and device, and reset of one device.

#include "reference/runtime/devices/kernel_attributes.h"

#include <gtest/gtest.h>

#include "reference/runtime/devices/device_config.h"

namespace mxcts::runtime {
namespace {

const mcDeviceProp_t kC500 = config::DefaultDeviceProperties(0);
const int kKernelA = 1;
const int kKernelB = 2;

TEST(KernelAttributes, DefaultsAreTheReferenceValues) {
  mcFuncAttributes a = KernelAttributes(kC500, KernelFacts{}, KernelSettings{});
  EXPECT_EQ(a.maxThreadsPerBlock, 1024);
  EXPECT_EQ(a.numRegs, 0);
  EXPECT_EQ(a.sharedSizeBytes, 0u);
  EXPECT_EQ(a.localSizeBytes, 0u);
  EXPECT_EQ(a.constSizeBytes, 0u);
  EXPECT_EQ(a.binaryVersion, 100);
  EXPECT_EQ(a.ptxVersion, 100);
  EXPECT_EQ(a.maxDynamicSharedSizeBytes, 65536);
  EXPECT_EQ(a.preferredShmemCarveout, -1);
  EXPECT_EQ(MaxDynamicSharedLimit(kC500, KernelFacts{}), 65536);
}

TEST(KernelAttributes, FollowTheDeviceProfile) {
  mcDeviceProp_t small = kC500;
  small.maxThreadsPerBlock = 256;
  small.sharedMemPerBlockOptin = 16384;
  mcFuncAttributes a = KernelAttributes(small, KernelFacts{}, KernelSettings{});
  EXPECT_EQ(a.maxThreadsPerBlock, 256);
  EXPECT_EQ(a.maxDynamicSharedSizeBytes, 16384);
  EXPECT_EQ(KernelResourcesOn(small, KernelFacts{}).max_threads_per_block, 256);
}

TEST(KernelAttributes, RecordFactsAreReported) {
  KernelFacts facts;
  facts.max_threads_per_block = 128;
  facts.static_shared_bytes = 4096;
  mcFuncAttributes a = KernelAttributes(kC500, facts, KernelSettings{});
  EXPECT_EQ(a.maxThreadsPerBlock, 128);
  EXPECT_EQ(a.sharedSizeBytes, 4096u);
  EXPECT_EQ(a.maxDynamicSharedSizeBytes, 65536 - 4096);
  // A bound above the device's is the device's.
  facts.max_threads_per_block = 4096;
  EXPECT_EQ(KernelResourcesOn(kC500, facts).max_threads_per_block, 1024);
  // A static footprint over the opt-in limit leaves no dynamic memory.
  facts.static_shared_bytes = 70000;
  EXPECT_EQ(MaxDynamicSharedLimit(kC500, facts), 0);
}

TEST(KernelAttributes, SettingsAreReported) {
  KernelSettings s;
  s.max_dynamic_shared_bytes = 1000;
  s.preferred_carveout = 25;
  mcFuncAttributes a = KernelAttributes(kC500, KernelFacts{}, s);
  EXPECT_EQ(a.maxDynamicSharedSizeBytes, 1000);
  EXPECT_EQ(a.preferredShmemCarveout, 25);
  s.max_dynamic_shared_bytes = 0;  // zero is a setting, not the default
  EXPECT_EQ(KernelAttributes(kC500, KernelFacts{}, s).maxDynamicSharedSizeBytes,
            0);
}

TEST(KernelSettingsTable, KeptPerKernelAndDeviceAndResetPerDevice) {
  KernelSettingsTable& table = KernelSettingsTable::Get();
  const void* a = &kKernelA;
  const void* b = &kKernelB;
  table.Update(a, 0, [](KernelSettings& s) { s.preferred_carveout = 10; });
  table.Update(a, 1, [](KernelSettings& s) { s.preferred_carveout = 20; });
  table.Update(b, 0,
               [](KernelSettings& s) { s.cache_config = mcFuncCachePreferL1; });
  EXPECT_EQ(table.Lookup(a, 0).preferred_carveout, 10);
  EXPECT_EQ(table.Lookup(a, 1).preferred_carveout, 20);
  EXPECT_EQ(table.Lookup(b, 0).preferred_carveout, -1);
  EXPECT_EQ(table.Lookup(b, 0).cache_config, mcFuncCachePreferL1);
  EXPECT_EQ(table.Lookup(b, 1).cache_config, mcFuncCachePreferNone);
  table.ResetDevice(0);
  EXPECT_EQ(table.Lookup(a, 0).preferred_carveout, -1);
  EXPECT_EQ(table.Lookup(b, 0).cache_config, mcFuncCachePreferNone);
  EXPECT_EQ(table.Lookup(a, 1).preferred_carveout, 20);  // kept
  table.ResetDevice(1);
  EXPECT_EQ(table.Lookup(a, 1).preferred_carveout, -1);
}

TEST(KernelSettingsTable, ForgetDropsOneKernelOnEveryDevice) {
  KernelSettingsTable& table = KernelSettingsTable::Get();
  const void* a = &kKernelA;
  const void* b = &kKernelB;
  table.Update(a, 0, [](KernelSettings& s) { s.preferred_carveout = 10; });
  table.Update(a, 1, [](KernelSettings& s) { s.preferred_carveout = 20; });
  table.Update(b, 0, [](KernelSettings& s) { s.preferred_carveout = 30; });
  table.Forget(a);
  EXPECT_EQ(table.Lookup(a, 0).preferred_carveout, -1);
  EXPECT_EQ(table.Lookup(a, 1).preferred_carveout, -1);
  EXPECT_EQ(table.Lookup(b, 0).preferred_carveout, 30);  // kept
  table.ResetDevice(0);
}

}  // namespace
}  // namespace mxcts::runtime
