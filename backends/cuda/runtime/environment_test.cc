// Copyright mxcts authors.
//
// The MACA_VISIBLE_DEVICES value the adapter gives CUDA
// (environment.h): entries kept up to the first malformed or repeated one,
// UUIDs in lower case, indices without leading zeros; and the variables
// set from MXMACA's at the adapter's first call. Each rule beside a
// control that keeps the list whole.

#include "backends/cuda/runtime/environment.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <string>

namespace mxcts::cuda_backend {
namespace {

constexpr char kUuid[] = "GPU-0123abcd-4567-89ef-0123-456789abcdef";

TEST(CudaVisibleDevices, ValidListsPassWhole) {
  EXPECT_EQ(CudaVisibleDevices("0"), "0");
  EXPECT_EQ(CudaVisibleDevices("1,0"), "1,0");
  EXPECT_EQ(CudaVisibleDevices(std::string(kUuid) + ",0"),
            std::string(kUuid) + ",0");
  // An index past the last device is CUDA's to judge.
  EXPECT_EQ(CudaVisibleDevices("99"), "99");
}

TEST(CudaVisibleDevices, EmptyOrMalformedFirstEntryLeavesNoDevice) {
  EXPECT_EQ(CudaVisibleDevices(""), "");
  EXPECT_EQ(CudaVisibleDevices("x"), "");
  EXPECT_EQ(CudaVisibleDevices("-1"), "");
  EXPECT_EQ(CudaVisibleDevices("GPU-0123"), "");
}

TEST(CudaVisibleDevices, MalformedEntryEndsTheList) {
  // CUDA would read "1x" as 1; MXMACA ends the list there.
  EXPECT_EQ(CudaVisibleDevices("0,1x"), "0");
  EXPECT_EQ(CudaVisibleDevices("1,x,0"), "1");
  EXPECT_EQ(CudaVisibleDevices("0, 1"), "0");
  EXPECT_EQ(CudaVisibleDevices("0,"), "0");
}

TEST(CudaVisibleDevices, RepeatedEntryEndsTheList) {
  EXPECT_EQ(CudaVisibleDevices("1,1,0"), "1");
  EXPECT_EQ(CudaVisibleDevices("01,1,0"), "1");
  EXPECT_EQ(CudaVisibleDevices(std::string(kUuid) + ",1," + kUuid),
            kUuid + std::string(",1"));
}

TEST(CudaVisibleDevices, UuidsInLowerCaseIndicesWithoutLeadingZeros) {
  EXPECT_EQ(CudaVisibleDevices("GPU-0123ABCD-4567-89EF-0123-456789ABCDEF"),
            kUuid);
  EXPECT_EQ(CudaVisibleDevices("007,000"), "7,0");
}

// The adapter's first call sets CUDA's variables from MXMACA's as they
// are then; an unset MXMACA variable leaves CUDA's as the process started.
TEST(ApplyEnvironment, SetsCudasVariablesFromMxmacas) {
  setenv("MACA_VISIBLE_DEVICES", "0,0", 1);
  setenv("MACA_DEVICE_ORDER", "SLOWEST_FIRST", 1);
  setenv("MACA_LAUNCH_BLOCKING", "1", 1);
  ApplyEnvironment();
  EXPECT_STREQ(getenv("CUDA_VISIBLE_DEVICES"), "0");
  EXPECT_STREQ(getenv("CUDA_DEVICE_ORDER"), "FASTEST_FIRST");
  EXPECT_STREQ(getenv("CUDA_LAUNCH_BLOCKING"), "1");
  // Read once: later changes are not applied.
  setenv("MACA_VISIBLE_DEVICES", "1", 1);
  ApplyEnvironment();
  EXPECT_STREQ(getenv("CUDA_VISIBLE_DEVICES"), "0");
}

}  // namespace
}  // namespace mxcts::cuda_backend
