// Copyright mxcts authors.
//
// Tests of the schedule orders: the permutations themselves, and grids run
// in the linear and the shuffle order (what runs first, reproducibility,
// wave integrity, the order named in trap diagnostics).

#include "reference/device/scheduling/schedule_order.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <vector>

#include "reference/device/engine.h"
#include "reference/device/engine_test_util.h"

namespace mxcts::device_internal {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::vector<unsigned> Identity(unsigned n) {
  std::vector<unsigned> v(n);
  std::iota(v.begin(), v.end(), 0u);
  return v;
}

TEST(ScheduleOrder, LinearOrderIsTheIdentity) {
  ScheduleOrder order = ScheduleOrder::Linear();
  EXPECT_EQ(order.Permutation(100), Identity(100));
  EXPECT_TRUE(order.ThreadStartOrder(256).empty());
  std::vector<unsigned> released = Identity(200);
  order.ReleaseOrder(&released);
  EXPECT_EQ(released, Identity(200));
  EXPECT_EQ(order.Describe(), "linear");
}

TEST(ScheduleOrder, ShuffleIsAPermutationThatDependsOnTheSeed) {
  ScheduleOrder a = ScheduleOrder::Shuffle(7, 0);
  ScheduleOrder b = ScheduleOrder::Shuffle(7, 0);
  ScheduleOrder c = ScheduleOrder::Shuffle(8, 0);
  const std::vector<unsigned> pa = a.Permutation(1000);
  EXPECT_EQ(pa, b.Permutation(1000));  // reproducible
  EXPECT_NE(pa, c.Permutation(1000));  // another seed, another order
  EXPECT_NE(pa, Identity(1000));       // control: not the linear order
  std::vector<unsigned> sorted = pa;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, Identity(1000));
  EXPECT_EQ(a.Describe(), "shuffle:7");
}

TEST(ScheduleOrder, GridsOfOneSeedDifferBySequenceNumber) {
  EXPECT_NE(ScheduleOrder::Shuffle(7, 0).Permutation(100),
            ScheduleOrder::Shuffle(7, 1).Permutation(100));
}

TEST(ScheduleOrder, ThreadStartOrderKeepsLanesOfAWaveTogether) {
  ScheduleOrder order = ScheduleOrder::Shuffle(3, 0);
  const std::vector<unsigned> start = order.ThreadStartOrder(1000);
  ASSERT_EQ(start.size(), 1000u);
  std::vector<unsigned> sorted = start;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, Identity(1000));
  for (size_t i = 0; i + 1 < start.size(); ++i) {
    if (start[i] / kWaveSize == start[i + 1] / kWaveSize) {
      EXPECT_EQ(start[i + 1], start[i] + 1);
    } else {
      EXPECT_EQ(start[i + 1] % kWaveSize, 0u);  // a wave starts at lane 0
    }
  }
  EXPECT_NE(start, Identity(1000));
}

TEST(ScheduleOrder, ReleaseOrderInterleavesWavesKeepingLaneOrder) {
  ScheduleOrder order = ScheduleOrder::Shuffle(11, 0);
  std::vector<unsigned> released = Identity(256);
  order.ReleaseOrder(&released);
  EXPECT_NE(released, Identity(256));
  std::vector<unsigned> last_of_wave(4, 0);
  std::vector<bool> seen(4, false);
  for (unsigned thread : released) {
    const unsigned wave = thread / kWaveSize;
    if (seen[wave]) {
      EXPECT_GT(thread, last_of_wave[wave]);
    }
    seen[wave] = true;
    last_of_wave[wave] = thread;
  }
  // One wave only: nothing to interleave.
  std::vector<unsigned> one_wave = Identity(64);
  order.ReleaseOrder(&one_wave);
  EXPECT_EQ(one_wave, Identity(64));
}

TEST(ScheduleOrder, ParsesTheEnvironmentSyntax) {
  EXPECT_FALSE(ParseScheduleOrder("linear", 0)->shuffled());
  EXPECT_EQ(ParseScheduleOrder("shuffle:42", 0)->seed(), 42u);
  for (const char* bad : {"", "shuffle", "shuffle:", "shuffle:x", "shuffle:-1",
                          "shuffle:1x", "random", "Linear"}) {
    EXPECT_FALSE(ParseScheduleOrder(bad, 0).ok()) << bad;
  }
}

// --- Grids in each order. ---

std::vector<unsigned>* record = nullptr;

// Records each thread as 1000 * block + thread when it starts.
void RecordStart(void**) {
  record->push_back(1000 * device::LinearBlock() + device::LinearThread());
}

std::vector<unsigned> RunRecording(const std::string& setting, dim3 grid,
                                   dim3 block) {
  EXPECT_TRUE(device::SetScheduleOrder(setting));
  std::vector<unsigned> starts;
  record = &starts;
  EXPECT_EQ(
      device::RunCapturingStderr("RecordStart()", &RecordStart, {}, grid, block)
          .error,
      mcSuccess);
  record = nullptr;
  EXPECT_TRUE(device::SetScheduleOrder("linear"));
  return starts;
}

TEST(ScheduleOrderGrid, LinearGridRunsBlocksThenThreadsInOrder) {
  const std::vector<unsigned> starts = RunRecording("linear", dim3(8), 128);
  ASSERT_EQ(starts.size(), 8u * 128u);
  EXPECT_TRUE(std::is_sorted(starts.begin(), starts.end()));
}

TEST(ScheduleOrderGrid, ShuffledGridPermutesBlocksAndWaves) {
  const std::vector<unsigned> starts = RunRecording("shuffle:5", dim3(8), 256);
  ASSERT_EQ(starts.size(), 8u * 256u);
  EXPECT_FALSE(std::is_sorted(starts.begin(), starts.end()));
  std::vector<unsigned> sorted = starts;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(std::adjacent_find(sorted.begin(), sorted.end()), sorted.end());
  // Blocks still run one at a time: each block's threads are contiguous.
  for (size_t i = 0; i < starts.size(); i += 256) {
    for (size_t j = i; j < i + 256; ++j) {
      EXPECT_EQ(starts[j] / 1000, starts[i] / 1000);
    }
  }
}

void TrapInBlockThree(void**) {
  if (device::LinearBlock() == 3 && device::LinearThread() == 1) {
    __mc_dev_trap(mcErrorLaunchFailure, "stop");
  }
}

TEST(ScheduleOrderGrid, TrapDiagnosticNamesTheShuffleSeed) {
  ASSERT_TRUE(device::SetScheduleOrder("shuffle:99"));
  device::RunResult shuffled = device::RunCapturingStderr(
      "TrapInBlockThree()", &TrapInBlockThree, {}, dim3(4), dim3(64));
  ASSERT_TRUE(device::SetScheduleOrder("linear"));
  EXPECT_EQ(shuffled.error, mcErrorLaunchFailure);
  EXPECT_THAT(shuffled.stderr_text,
              HasSubstr("block (3,0,0) thread (1,0,0): stop "
                        "[MXCTS_ENGINE_ORDER=shuffle:99]"));
  device::RunResult linear = device::RunCapturingStderr(
      "TrapInBlockThree()", &TrapInBlockThree, {}, dim3(4), dim3(64));
  EXPECT_THAT(linear.stderr_text, HasSubstr("thread (1,0,0): stop\n"));
  EXPECT_THAT(linear.stderr_text, Not(HasSubstr("MXCTS_ENGINE_ORDER")));
}

TEST(ScheduleOrderGrid, InvalidSettingIsRefusedAndChangesNothing) {
  EXPECT_FALSE(device::SetScheduleOrder("shuffle:abc"));
  EXPECT_EQ(device::ScheduleOrderSetting(), "linear");
}

}  // namespace
}  // namespace mxcts::device_internal
