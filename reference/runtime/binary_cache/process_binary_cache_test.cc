// Copyright mxcts authors.
//
// The process's cache takes its settings from the environment when the
// runtime initializes (this test's BUILD rule sets the variables), and a
// later change of the environment does not reach it.
// [api.cache.disable.read-at-initialization]

#include "reference/runtime/binary_cache/process_binary_cache.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include "mc_runtime.h"

namespace mxcts::runtime {
namespace {

TEST(ProcessBinaryCache, SettingsAreReadAtInitialization) {
  int count = 0;
  ASSERT_EQ(mcGetDeviceCount(&count), mcSuccess);
  setenv("MACA_CACHE_MAXSIZE", "1", 1);
  setenv("MACA_CACHE_DISABLE", "1", 1);
  setenv("MACA_CACHE_PATH", "/elsewhere", 1);
  const BinaryCacheSettings& settings =
      __mc_internal::ProcessBinaryCache().settings();
  EXPECT_TRUE(settings.enabled);
  EXPECT_EQ(settings.max_entry_bytes, 123456u);
  EXPECT_EQ(settings.directory, "/nonexistent/mxcts-cache");
}

TEST(ProcessBinaryCache, OneCachePerProcess) {
  EXPECT_EQ(&__mc_internal::ProcessBinaryCache(),
            &__mc_internal::ProcessBinaryCache());
}

}  // namespace
}  // namespace mxcts::runtime
