// Copyright mxcts authors.
//
// Tests of cooperative grids (cooperative_grid.h) and the grid barrier
// (collectives/grid_barrier.h): every block alive across grid syncs with
// its shared memory, several phases, blocks resumed in block order, grids
// without syncs, is_cooperative, and the traps for a grid sync in a plain
// grid and for a grid barrier that exiting threads skip, each with a
// control.

#include "reference/device/cooperative_grid.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "mcr/detail/device_abi.h"
#include "reference/device/engine.h"
#include "reference/device/engine_test_util.h"

namespace mxcts::device {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;

class LinearOrder : public ::testing::Environment {
 public:
  void SetUp() override { ASSERT_TRUE(SetScheduleOrder("linear")); }
};
::testing::Environment* const linear_order =
    ::testing::AddGlobalTestEnvironment(new LinearOrder);

// Runs `entry` as a cooperative grid (or not) and captures stderr.
RunResult RunGridCapturingStderr(const std::string& name, void (*entry)(void**),
                                 std::vector<void*> args, dim3 grid, dim3 block,
                                 bool cooperative) {
  args.push_back(nullptr);
  GridLaunch launch =
      WithTestThreadLoop(GridLaunch{name, entry, args.data(), grid, block, 0});
  launch.cooperative = cooperative;
  testing::internal::CaptureStderr();
  const mcError_t error = RunGrid(launch);
  return RunResult{error, testing::internal::GetCapturedStderr()};
}

// Phases of: write own cell, grid sync, read the next thread's cell (in the
// next block at a block's end), grid sync. Each block also keeps a shared
// value across the syncs.
void NeighbourAcrossGrid(void** args) {
  static char kept_site;
  int* cells = Arg<int*>(args, 0);
  int* out = Arg<int*>(args, 1);
  const int phases = Arg<int>(args, 2);
  int* kept = static_cast<int*>(
      __mc_dev_shared_variable(&kept_site, sizeof(int), alignof(int)));
  const unsigned threads = blockDim.x * gridDim.x;
  const unsigned g = LinearBlock() * blockDim.x + LinearThread();
  if (threadIdx.x == 0) *kept = static_cast<int>(blockIdx.x) * 7;
  int sum = 0;
  for (int phase = 0; phase < phases; ++phase) {
    cells[g] = static_cast<int>(g) * 10 + phase;
    __mc_dev_grid_sync(__FILE__, __LINE__);
    sum += cells[(g + 1) % threads];
    __mc_dev_grid_sync(__FILE__, __LINE__);
  }
  out[g] = *kept == static_cast<int>(blockIdx.x) * 7 ? sum : -1;
}

TEST(CooperativeGrid, GridSyncOrdersEveryBlocksWritesBeforeTheReads) {
  // [api.coop.grid.sync-across-blocks] [api.coop.launch.all-blocks-co-resident]
  std::vector<int> cells(4 * 32);
  std::vector<int> out(4 * 32, -2);
  int* cells_data = cells.data();
  int* out_data = out.data();
  int phases = 3;
  RunResult result = RunGridCapturingStderr(
      "NeighbourAcrossGrid", &NeighbourAcrossGrid,
      {&cells_data, &out_data, &phases}, dim3(4), dim3(32), true);
  ASSERT_EQ(result.error, mcSuccess) << result.stderr_text;
  EXPECT_THAT(result.stderr_text, IsEmpty());
  for (unsigned g = 0; g < 128; ++g) {
    const int next = static_cast<int>((g + 1) % 128);
    EXPECT_EQ(out[g], next * 30 + 0 + 1 + 2) << "thread " << g;
  }
}

TEST(CooperativeGrid, WithoutGridSyncsItRunsAsAPlainGrid) {
  std::vector<int> cells(8 * 64);
  std::vector<int> out(8 * 64, -2);
  int* cells_data = cells.data();
  int* out_data = out.data();
  int phases = 0;
  RunResult result = RunGridCapturingStderr(
      "NeighbourAcrossGrid", &NeighbourAcrossGrid,
      {&cells_data, &out_data, &phases}, dim3(8), dim3(64), true);
  ASSERT_EQ(result.error, mcSuccess) << result.stderr_text;
  for (int value : out) EXPECT_EQ(value, 0);
}

// Logs (block, phase) as each block's thread 0 resumes from a grid sync.
void LogResumes(void** args) {
  int* log = Arg<int*>(args, 0);
  static int next = 0;
  for (int phase = 0; phase < 2; ++phase) {
    __mc_dev_grid_sync(__FILE__, __LINE__);
    if (threadIdx.x == 0) log[next++] = static_cast<int>(blockIdx.x);
  }
}

TEST(CooperativeGrid, BlocksResumeInBlockOrder) {
  std::vector<int> log(6, -1);
  int* data = log.data();
  RunResult result = RunGridCapturingStderr("LogResumes", &LogResumes, {&data},
                                            dim3(3), dim3(8), true);
  ASSERT_EQ(result.error, mcSuccess) << result.stderr_text;
  EXPECT_EQ(log, (std::vector<int>{0, 1, 2, 0, 1, 2}));
}

void RecordCooperative(void** args) {
  int* out = Arg<int*>(args, 0);
  out[LinearBlock() * blockDim.x + LinearThread()] =
      __mc_dev_grid_is_cooperative();
}

TEST(CooperativeGrid, IsCooperativeOnlyInACooperativeGrid) {
  // [api.coop.grid.is-valid-only-cooperative]
  for (bool cooperative : {true, false}) {
    std::vector<int> out(2 * 16, -1);
    int* data = out.data();
    RunResult result =
        RunGridCapturingStderr("RecordCooperative", &RecordCooperative, {&data},
                               dim3(2), dim3(16), cooperative);
    ASSERT_EQ(result.error, mcSuccess) << result.stderr_text;
    for (int value : out) EXPECT_EQ(value, cooperative ? 1 : 0);
  }
}

// Every thread syncs the grid, except block `leaving_block` and thread
// `leaving_thread` of block 0.
void GridSyncWithLeavers(void** args) {
  const unsigned leaving_block = Arg<unsigned>(args, 0);
  const unsigned leaving_thread = Arg<unsigned>(args, 1);
  if (blockIdx.x == leaving_block) return;
  if (blockIdx.x == 0 && threadIdx.x == leaving_thread) return;
  __mc_dev_grid_sync("grid.cc", 7);
}

RunResult RunLeavers(unsigned leaving_block, unsigned leaving_thread,
                     bool cooperative) {
  return RunGridCapturingStderr("GridSyncWithLeavers", &GridSyncWithLeavers,
                                {&leaving_block, &leaving_thread}, dim3(3),
                                dim3(16), cooperative);
}

TEST(CooperativeGrid, GridSyncInAPlainGridTraps) {
  // [api.coop.grid.sync-without-cooperative-launch-undefined]
  RunResult result = RunLeavers(99, 99, false);
  EXPECT_EQ(result.error, mcErrorLaunchFailure);
  EXPECT_THAT(result.stderr_text,
              HasSubstr("block (0,0,0) thread (0,0,0): grid_group::sync() at "
                        "grid.cc:7 in a grid that was not launched "
                        "cooperatively"));
}

TEST(CooperativeGrid, GridSyncByEveryThreadIsFine) {
  RunResult result = RunLeavers(99, 99, true);
  EXPECT_EQ(result.error, mcSuccess) << result.stderr_text;
  EXPECT_THAT(result.stderr_text, IsEmpty());
}

TEST(CooperativeGrid, GridSyncSkippedByAnExitingBlockTraps) {
  // [api.coop.group.collective-needs-all-members]
  RunResult result = RunLeavers(1, 99, true);
  EXPECT_EQ(result.error, mcErrorLaunchFailure);
  EXPECT_THAT(result.stderr_text,
              HasSubstr("block (0,0,0) thread (0,0,0): grid barrier skipped "
                        "by exiting threads: 32 of 48 threads of the grid "
                        "wait in grid_group::sync() at grid.cc:7, but block "
                        "(1,0,0) has exited without reaching it"));
}

TEST(CooperativeGrid, GridSyncSkippedByAnExitingThreadTraps) {
  RunResult result = RunLeavers(99, 3, true);
  EXPECT_EQ(result.error, mcErrorLaunchFailure);
  EXPECT_THAT(result.stderr_text,
              HasSubstr("barrier skipped by exiting threads: 15 of 16 "
                        "threads wait in grid_group::sync() at grid.cc:7"));
}

// A group's collective: lanes 0-15 as "thread_block_tile<16>", lane
// `leaver` exits first.
void TileSync(void** args) {
  const unsigned leaver = Arg<unsigned>(args, 0);
  if (threadIdx.x == leaver) return;
  const __mc_wave_request request = {
      __MC_WAVE_SYNC,         0, 0, 0, 0xffffull, 0, 0, "tile.cc", 3,
      "thread_block_tile<16>"};
  __mc_dev_wave_collective(&request);
}

TEST(GroupCollectives, AMemberThatExitsBeforeTheOthersArriveTraps) {
  // [api.coop.group.collective-needs-all-members]
  unsigned leaver = 0;
  RunResult result =
      RunCapturingStderr("TileSync", &TileSync, {&leaver}, dim3(1), dim3(16));
  EXPECT_EQ(result.error, mcErrorLaunchFailure);
  EXPECT_THAT(result.stderr_text,
              HasSubstr("thread_block_tile<16>::sync() at tile.cc:3 of wave "
                        "0, mask 0x000000000000ffff (thread_block_tile<16> "
                        "lanes 0-15): lanes 0 of the group have exited"));
}

TEST(GroupCollectives, AMemberThatExitsWhileOthersWaitTraps) {
  unsigned leaver = 9;
  RunResult result =
      RunCapturingStderr("TileSync", &TileSync, {&leaver}, dim3(1), dim3(16));
  EXPECT_EQ(result.error, mcErrorLaunchFailure);
  EXPECT_THAT(result.stderr_text,
              HasSubstr("thread (9,0,0): lane 9 of wave 0 exited without "
                        "reaching thread_block_tile<16>::sync() at tile.cc:3"));
}

TEST(GroupCollectives, EveryMemberArrivingIsFine) {
  unsigned leaver = 99;
  RunResult result =
      RunCapturingStderr("TileSync", &TileSync, {&leaver}, dim3(1), dim3(16));
  EXPECT_EQ(result.error, mcSuccess) << result.stderr_text;
}

}  // namespace
}  // namespace mxcts::device
