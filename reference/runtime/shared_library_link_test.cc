// Copyright mxcts authors.
//
// A program linked against libmcruntime.so alone (no static runtime, no
// engine, no abseil named): it runs the runtime's basic calls through the
// shared library.

#include <gtest/gtest.h>

#include "mc_runtime.h"

namespace {

TEST(SharedLibrary, BasicCallsWork) {
  int count = 0;
  ASSERT_EQ(mcGetDeviceCount(&count), mcSuccess);
  EXPECT_EQ(count, 2);
  int* d = nullptr;
  ASSERT_EQ(mcMalloc(&d, 4 * sizeof(int)), mcSuccess);
  int in[4] = {1, 2, 3, 4}, out[4] = {};
  EXPECT_EQ(mcMemcpy(d, in, sizeof(in), mcMemcpyHostToDevice), mcSuccess);
  EXPECT_EQ(mcMemcpy(out, d, sizeof(out), mcMemcpyDeviceToHost), mcSuccess);
  EXPECT_EQ(out[3], 4);
  EXPECT_EQ(mcFree(d), mcSuccess);
  EXPECT_EQ(mcFree(d), mcErrorInvalidValue);
  EXPECT_STREQ(mcGetErrorName(mcGetLastError()), "mcErrorInvalidValue");
}

}  // namespace
