// Conformance: the grid group and cooperative launch
// (docs/spec/api-cooperative-groups.md, "The grid" and "Cooperative
// launch"): this_grid()'s size, ranks and block queries, is_valid() in
// cooperative and plain launches, grid.sync() across blocks (several
// phases, with every block's shared memory kept across it), the grid as a
// thread_group handle and through cg::sync; parameterized over grid and
// block shapes. Launches go through mcLaunchCooperativeKernel, with the
// kernel as `const void*` and passed directly.

#include <maca_cooperative_groups.h>

#include "conformance/api/cooperative_groups/execution/cg_test_support.h"
#include "conformance/testing/spec.h"

namespace {

namespace cg = cooperative_groups;
using cg_test::Managed;
using cg_test::Pattern;
using cg_test::Shape;

struct GridCase {
  Shape grid;
  Shape block;
  unsigned long long threads() const {
    return 1ull * grid.threads() * block.threads();
  }
};

void PrintTo(const GridCase& c, std::ostream* os) {
  *os << "Grid" << c.grid.name << "_" << c.block.name;
}

std::vector<GridCase> AllCases() {
  const Shape grids[] = {{"1", 1, 1, 1},   {"2", 2, 1, 1},     {"3", 3, 1, 1},
                         {"2x2", 2, 2, 1}, {"3x2x2", 3, 2, 2}, {"9", 9, 1, 1}};
  const Shape blocks[] = {{"Threads64", 64, 1, 1},
                          {"Threads32", 32, 1, 1},
                          {"Block8x4x2", 8, 4, 2},
                          {"Threads100", 100, 1, 1}};
  std::vector<GridCase> cases;
  for (const Shape& grid : grids) {
    for (const Shape& block : blocks) cases.push_back({grid, block});
  }
  return cases;
}

// What one thread saw of its grid group.
struct GridView {
  unsigned long long size;
  unsigned long long num_threads;
  unsigned long long rank;
  unsigned long long num_blocks;
  unsigned long long block_rank;
  unsigned block_index[3];
  unsigned dim_blocks[3];
  int is_valid;
};

__global__ void RecordGrid(GridView* out) {
  cg::grid_group grid = cg::this_grid();
  GridView& view = out[cg_test::GlobalId()];
  view.size = grid.size();
  view.num_threads = grid.num_threads();
  view.rank = grid.thread_rank();
  view.num_blocks = grid.num_blocks();
  view.block_rank = grid.block_rank();
  const dim3 index = grid.block_index();
  const dim3 dims = grid.dim_blocks();
  view.block_index[0] = index.x;
  view.block_index[1] = index.y;
  view.block_index[2] = index.z;
  view.dim_blocks[0] = dims.x;
  view.dim_blocks[1] = dims.y;
  view.dim_blocks[2] = dims.z;
  view.is_valid = grid.is_valid() ? 1 : 0;
}

class GridTest : public testing::TestWithParam<GridCase> {
 protected:
  // Runs RecordGrid cooperatively (or not) and keeps the views.
  void Record(bool cooperative) {
    const GridCase c = GetParam();
    views_ = std::make_unique<Managed<GridView>>(c.threads(), 0xff);
    GridView* out = views_->get();
    if (cooperative) {
      void* args[] = {&out};
      ASSERT_EQ(
          mcLaunchCooperativeKernel((const void*)RecordGrid, c.grid.dims(),
                                    c.block.dims(), args, 0, 0),
          mcSuccess);
    } else {
      RecordGrid<<<c.grid.dims(), c.block.dims()>>>(out);
    }
    ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  }
  const GridView& View(unsigned long long global) { return (*views_)[global]; }

  std::unique_ptr<Managed<GridView>> views_;
};

TEST_P(GridTest, SizeIsTheGridsThreadCount) {
  MX_SPEC("api.coop.grid.this-grid", "api.coop.group.size-and-rank",
          "api.coop.launch.runs-kernel");
  Record(true);
  for (unsigned long long g = 0; g < GetParam().threads(); ++g) {
    ASSERT_EQ(View(g).size, GetParam().threads()) << "thread " << g;
  }
}

TEST_P(GridTest, NumThreadsEqualsSize) {
  MX_SPEC("api.coop.group.num-threads-same-as-size");
  Record(true);
  for (unsigned long long g = 0; g < GetParam().threads(); ++g) {
    ASSERT_EQ(View(g).num_threads, View(g).size) << "thread " << g;
  }
}

TEST_P(GridTest, RankIsBlockRankTimesBlockThreadsPlusRankInBlock) {
  MX_SPEC("api.coop.grid.this-grid", "api.coop.group.size-and-rank");
  Record(true);
  for (unsigned long long g = 0; g < GetParam().threads(); ++g) {
    ASSERT_EQ(View(g).rank, g);
  }
}

TEST_P(GridTest, BlockQueriesDescribeTheGrid) {
  MX_SPEC("api.coop.grid.block-queries");
  Record(true);
  const GridCase c = GetParam();
  for (unsigned long long g = 0; g < c.threads(); ++g) {
    const GridView& view = View(g);
    const unsigned block = static_cast<unsigned>(g / c.block.threads());
    ASSERT_EQ(view.num_blocks, c.grid.threads());
    ASSERT_EQ(view.block_rank, block);
    ASSERT_EQ(view.block_index[0], block % c.grid.x);
    ASSERT_EQ(view.block_index[1], block / c.grid.x % c.grid.y);
    ASSERT_EQ(view.block_index[2], block / c.grid.x / c.grid.y);
    ASSERT_EQ(view.dim_blocks[0], c.grid.x);
    ASSERT_EQ(view.dim_blocks[1], c.grid.y);
    ASSERT_EQ(view.dim_blocks[2], c.grid.z);
  }
}

TEST_P(GridTest, IsValidInACooperativeLaunch) {
  MX_SPEC("api.coop.grid.is-valid-only-cooperative");
  Record(true);
  for (unsigned long long g = 0; g < GetParam().threads(); ++g) {
    ASSERT_EQ(View(g).is_valid, 1) << "thread " << g;
  }
}

TEST_P(GridTest, IsNotValidInAPlainLaunch) {
  MX_SPEC("api.coop.grid.is-valid-only-cooperative");
  Record(false);
  for (unsigned long long g = 0; g < GetParam().threads(); ++g) {
    ASSERT_EQ(View(g).is_valid, 0) << "thread " << g;
  }
}

// How the kernel synchronizes the grid.
enum class GridSyncForm { kMember, kSyncFree, kThreadGroup };

// Three phases: each thread writes its pattern for the phase to global
// memory, the grid synchronizes, and each reads the next thread's (in the
// next block for the last thread of a block), then synchronizes again
// before the next phase overwrites. Each block also keeps a value in
// shared memory across the phases. Every other group of 32 threads (by
// rank in the block, alternating from block to block) writes about 100 us
// late, so the thread before such a group reads the previous phase's value
// if the synchronization does not wait: a missing barrier fails the check
// on a GPU too, rather than passing whenever the writes happen to come
// first.
__global__ void ExchangeAcrossGrid(GridSyncForm form, unsigned long long* cells,
                                   unsigned long long* out) {
  __shared__ unsigned long long kept[128];
  cg::grid_group grid = cg::this_grid();
  cg::thread_group handle = grid;
  const unsigned long long g = grid.thread_rank();
  const unsigned long long size = grid.size();
  const unsigned rank = cg_test::LinearId();
  kept[rank % 128] = 0;
  __syncthreads();
  if (rank < 128) kept[rank] = Pattern(static_cast<unsigned>(g), 99);
  __syncthreads();
  unsigned long long seen = 0;
  const bool late_writer = ((grid.block_rank() + rank / 32) & 1) != 0;
  for (unsigned phase = 0; phase < 3; ++phase) {
    if (late_writer) {
      for (int pause = 0; pause < 100; ++pause) __nanosleep(1000);
    }
    cells[g] = Pattern(static_cast<unsigned>(g), phase);
    switch (form) {
      case GridSyncForm::kMember:
        grid.sync();
        break;
      case GridSyncForm::kSyncFree:
        cg::sync(grid);
        break;
      case GridSyncForm::kThreadGroup:
        handle.sync();
        break;
    }
    seen ^= cells[(g + 1) % size];
    grid.sync();
  }
  // The block's shared memory is as it left it.
  if (rank < 128 && kept[rank] != Pattern(static_cast<unsigned>(g), 99)) {
    seen = 0xbad;
  }
  out[g] = seen;
}

void CheckGridExchange(const GridCase& c, GridSyncForm form,
                       bool pass_kernel_directly) {
  Managed<unsigned long long> cells(c.threads());
  Managed<unsigned long long> out(c.threads(), 0xee);
  unsigned long long* cells_pointer = cells.get();
  unsigned long long* out_pointer = out.get();
  void* args[] = {&form, &cells_pointer, &out_pointer};
  if (pass_kernel_directly) {
    ASSERT_EQ(mcLaunchCooperativeKernel(ExchangeAcrossGrid, c.grid.dims(),
                                        c.block.dims(), args),
              mcSuccess);
  } else {
    ASSERT_EQ(
        mcLaunchCooperativeKernel((const void*)ExchangeAcrossGrid,
                                  c.grid.dims(), c.block.dims(), args, 0, 0),
        mcSuccess);
  }
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (unsigned long long g = 0; g < c.threads(); ++g) {
    const unsigned next = static_cast<unsigned>((g + 1) % c.threads());
    ASSERT_EQ(out[g], Pattern(next, 0) ^ Pattern(next, 1) ^ Pattern(next, 2))
        << "thread " << g;
  }
}

TEST_P(GridTest, SyncWaitsForTheWholeGridAndPublishesWrites) {
  MX_SPEC("api.coop.grid.sync-across-blocks",
          "api.coop.launch.all-blocks-co-resident");
  CheckGridExchange(GetParam(), GridSyncForm::kMember, false);
}

TEST_P(GridTest, FreeSyncOfTheGrid) {
  MX_SPEC("api.coop.group.sync-free-functions",
          "api.coop.grid.sync-across-blocks");
  CheckGridExchange(GetParam(), GridSyncForm::kSyncFree, false);
}

TEST_P(GridTest, ThreadGroupHandleSyncsTheGrid) {
  MX_SPEC("api.coop.group.thread-group-conversion",
          "api.coop.grid.sync-across-blocks");
  CheckGridExchange(GetParam(), GridSyncForm::kThreadGroup, false);
}

TEST_P(GridTest, KernelPassedDirectly) {
  MX_SPEC("api.coop.launch.runs-kernel");
  CheckGridExchange(GetParam(), GridSyncForm::kMember, true);
}

INSTANTIATE_TEST_SUITE_P(GridAndBlockShapes, GridTest,
                         testing::ValuesIn(AllCases()), cg_test::ParamName());

}  // namespace
