// Copyright mxcts authors.
//
// Runs with MACA_HOTSPOT_MEMSTACK=2 (BUILD).

#include "reference/runtime/environment/memory_tracing.h"

#include <gtest/gtest.h>

#include <string>

#include "mc_runtime_api.h"

namespace mxcts::runtime {
namespace {

TEST(MemoryTracing, TracesAllocationsWithTheirCallerAndStack) {
  ASSERT_TRUE(MemoryTracingEnabled());
  void* p = nullptr;
  testing::internal::CaptureStderr();
  ASSERT_EQ(mcMalloc(&p, 1000), mcSuccess);
  ASSERT_EQ(mcFree(p), mcSuccess);
  const std::string out = testing::internal::GetCapturedStderr();
  EXPECT_NE(out.find("memory trace: mcMalloc(1000 bytes) = "),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("memory trace: mcFree("), std::string::npos) << out;
  EXPECT_NE(out.find(", mcSuccess, called from "), std::string::npos) << out;
  EXPECT_NE(out.find("; stack: "), std::string::npos) << out;
}

TEST(MemoryTracing, NamesCode) {
  // The test links the runtime statically, without -rdynamic: the
  // executable and the offset name the code.
  EXPECT_NE(DescribeCodeAddress(reinterpret_cast<void*>(&mcMalloc)).find("+0x"),
            std::string::npos);
  EXPECT_FALSE(DescribeCodeAddress(nullptr).empty());
}

}  // namespace
}  // namespace mxcts::runtime
