// Conformance: thread blocks as groups (docs/spec/api-cooperative-groups.md,
// "Thread blocks" and "Common group interface"): this_thread_block(), its
// size, ranks, indices and dimensions, and its sync() as the block barrier,
// directly, through cg::sync/cg::synchronize and through a thread_group
// handle. Every test runs over block shapes of every kind (one thread,
// partial waves, 2D and 3D blocks, the largest block) in a grid of two
// blocks.

#include <maca_cooperative_groups.h>

#include "conformance/api/cooperative_groups/execution/cg_test_support.h"
#include "conformance/testing/claimed.h"
#include "conformance/testing/spec.h"

namespace {

namespace cg = cooperative_groups;
using cg_test::Managed;
using cg_test::Shape;

constexpr unsigned kBlocks = 2;

// What one thread saw of its thread_block.
struct BlockView {
  unsigned long long size;
  unsigned long long num_threads;
  unsigned long long rank;
  unsigned group_index[3];
  unsigned thread_index[3];
  unsigned dim_threads[3];
  unsigned group_dim[3];
  int is_valid;
};

// b.is_valid() as 1 or 0, or -1 where the group type has no is_valid():
// a missing member fails the IsValid test alone, not the whole file.
template <class Block>
__device__ auto IsValidOf(const Block& block, int)
    -> decltype(block.is_valid() ? 1 : 0) {
  return block.is_valid() ? 1 : 0;
}
template <class Block>
__device__ int IsValidOf(const Block&, long) {
  return -1;
}

__global__ void RecordBlock(BlockView* out) {
  cg::thread_block block = cg::this_thread_block();
  BlockView& view = out[cg_test::GlobalId()];
  view.size = block.size();
  view.num_threads = block.num_threads();
  view.rank = block.thread_rank();
  const dim3 group = block.group_index();
  const dim3 thread = block.thread_index();
  const dim3 dims = block.dim_threads();
  const dim3 old_dims = block.group_dim();
  view.group_index[0] = group.x;
  view.group_index[1] = group.y;
  view.group_index[2] = group.z;
  view.thread_index[0] = thread.x;
  view.thread_index[1] = thread.y;
  view.thread_index[2] = thread.z;
  view.dim_threads[0] = dims.x;
  view.dim_threads[1] = dims.y;
  view.dim_threads[2] = dims.z;
  view.group_dim[0] = old_dims.x;
  view.group_dim[1] = old_dims.y;
  view.group_dim[2] = old_dims.z;
  view.is_valid = IsValidOf(block, 0);
}

class ThreadBlockTest : public testing::TestWithParam<Shape> {
 protected:
  // Runs RecordBlock over kBlocks blocks of the shape.
  void SetUp() override {
    const Shape shape = GetParam();
    views_ =
        std::make_unique<Managed<BlockView>>(kBlocks * shape.threads(), 0xff);
    RecordBlock<<<kBlocks, shape.dims()>>>(views_->get());
    ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  }
  // The view of thread `linear` of block `block`.
  const BlockView& View(unsigned block, unsigned linear) {
    return (*views_)[block * GetParam().threads() + linear];
  }
  // threadIdx of linear id `linear` in the shape.
  static void Index(const Shape& shape, unsigned linear, unsigned out[3]) {
    out[0] = linear % shape.x;
    out[1] = linear / shape.x % shape.y;
    out[2] = linear / shape.x / shape.y;
  }

  std::unique_ptr<Managed<BlockView>> views_;
};

TEST_P(ThreadBlockTest, SizeIsTheBlocksThreadCount) {
  MX_SPEC("api.coop.block.size-is-block-threads",
          "api.coop.group.size-and-rank");
  for (unsigned b = 0; b < kBlocks; ++b) {
    for (unsigned t = 0; t < GetParam().threads(); ++t) {
      ASSERT_EQ(View(b, t).size, GetParam().threads()) << "thread " << t;
    }
  }
}

TEST_P(ThreadBlockTest, NumThreadsEqualsSize) {
  MX_SPEC("api.coop.group.num-threads-same-as-size");
  for (unsigned t = 0; t < kBlocks * GetParam().threads(); ++t) {
    ASSERT_EQ((*views_)[t].num_threads, (*views_)[t].size) << "thread " << t;
  }
}

TEST_P(ThreadBlockTest, RankIsTheLinearThreadIndex) {
  MX_SPEC("api.coop.block.rank-is-linear-thread-index",
          "api.coop.group.size-and-rank");
  for (unsigned b = 0; b < kBlocks; ++b) {
    for (unsigned t = 0; t < GetParam().threads(); ++t) {
      ASSERT_EQ(View(b, t).rank, t) << "block " << b;
    }
  }
}

TEST_P(ThreadBlockTest, GroupIndexIsBlockIdxAndThreadIndexIsThreadIdx) {
  MX_SPEC("api.coop.block.group-and-thread-index",
          "api.coop.block.this-thread-block");
  for (unsigned b = 0; b < kBlocks; ++b) {
    for (unsigned t = 0; t < GetParam().threads(); ++t) {
      const BlockView& view = View(b, t);
      unsigned index[3];
      Index(GetParam(), t, index);
      ASSERT_EQ(view.group_index[0], b);
      ASSERT_EQ(view.group_index[1], 0u);
      ASSERT_EQ(view.group_index[2], 0u);
      for (int d = 0; d < 3; ++d) {
        ASSERT_EQ(view.thread_index[d], index[d]) << "thread " << t;
      }
    }
  }
}

TEST_P(ThreadBlockTest, DimThreadsAndGroupDimAreBlockDim) {
  MX_SPEC("api.coop.block.dim-threads");
  const Shape shape = GetParam();
  for (unsigned t = 0; t < kBlocks * shape.threads(); ++t) {
    const BlockView& view = (*views_)[t];
    ASSERT_EQ(view.dim_threads[0], shape.x);
    ASSERT_EQ(view.dim_threads[1], shape.y);
    ASSERT_EQ(view.dim_threads[2], shape.z);
    ASSERT_EQ(view.group_dim[0], shape.x);
    ASSERT_EQ(view.group_dim[1], shape.y);
    ASSERT_EQ(view.group_dim[2], shape.z);
  }
}

TEST_P(ThreadBlockTest, IsValid) {
  MX_SPEC("api.coop.block.is-valid");
  for (unsigned t = 0; t < kBlocks * GetParam().threads(); ++t) {
    ASSERT_NE((*views_)[t].is_valid, -1) << "thread_block has no is_valid()";
    ASSERT_EQ((*views_)[t].is_valid, 1) << "thread " << t;
  }
}

// How a kernel synchronizes the block between writing and reading.
enum class SyncForm {
  kMember,           // block.sync()
  kSyncFree,         // cg::sync(block)
  kSynchronizeFree,  // cg::synchronize(block)
  kThreadGroup,      // a thread_group handle's sync()
  kMixed,            // block.sync(), then __syncthreads(), one barrier
};

// Each thread writes its pattern to shared memory and, after the sync,
// reads the one of the next rank; twice, with a second round of writes in
// between, so that a sync that did not wait shows.
__global__ void ExchangeAcrossSync(SyncForm form, unsigned long long* out) {
  extern __shared__ unsigned long long slots[];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_group handle = block;
  const unsigned rank = static_cast<unsigned>(block.thread_rank());
  const unsigned size = static_cast<unsigned>(block.size());
  unsigned long long seen = 0;
  for (unsigned round = 0; round < 2; ++round) {
    slots[rank] = cg_test::Pattern(rank, round);
    switch (form) {
      case SyncForm::kMember:
        block.sync();
        break;
      case SyncForm::kSyncFree:
        cg::sync(block);
        break;
      case SyncForm::kSynchronizeFree:
        cg::synchronize(block);
        break;
      case SyncForm::kThreadGroup:
        handle.sync();
        break;
      case SyncForm::kMixed:
        if (round == 0) {
          block.sync();
        } else {
          __syncthreads();
        }
        break;
    }
    seen ^= slots[(rank + 1) % size];
    if (form == SyncForm::kMixed && round == 0) {
      __syncthreads();
    } else {
      block.sync();
    }
  }
  out[cg_test::GlobalId()] = seen;
}

void CheckExchange(SyncForm form, const Shape& shape) {
  Managed<unsigned long long> out(kBlocks * shape.threads());
  ExchangeAcrossSync<<<kBlocks, shape.dims(),
                       shape.threads() * sizeof(unsigned long long)>>>(
      form, out.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (unsigned b = 0; b < kBlocks; ++b) {
    for (unsigned t = 0; t < shape.threads(); ++t) {
      const unsigned next = (t + 1) % shape.threads();
      ASSERT_EQ(out[b * shape.threads() + t],
                cg_test::Pattern(next, 0) ^ cg_test::Pattern(next, 1))
          << "block " << b << " thread " << t;
    }
  }
}

TEST_P(ThreadBlockTest, SyncWaitsForTheBlockAndPublishesWrites) {
  MX_SPEC("api.coop.group.sync-is-barrier-with-visibility",
          "api.coop.block.sync-equals-syncthreads");
  CheckExchange(SyncForm::kMember, GetParam());
}

TEST_P(ThreadBlockTest, FreeSyncIsTheMemberSync) {
  MX_SPEC("api.coop.group.sync-free-functions");
  CheckExchange(SyncForm::kSyncFree, GetParam());
}

TEST_P(ThreadBlockTest, FreeSynchronizeIsTheMemberSync) {
  MX_SPEC("api.coop.group.sync-free-functions");
  CheckExchange(SyncForm::kSynchronizeFree, GetParam());
}

TEST_P(ThreadBlockTest, ThreadGroupHandleSyncsTheBlock) {
  MX_SPEC("api.coop.group.thread-group-conversion",
          "api.coop.group.sync-is-barrier-with-visibility");
  CheckExchange(SyncForm::kThreadGroup, GetParam());
}

TEST_P(ThreadBlockTest, SyncAndSyncthreadsAreOneBarrier) {
  MX_SPEC("api.coop.block.sync-equals-syncthreads");
  CheckExchange(SyncForm::kMixed, GetParam());
}

// A thread_group handle of the block reports the block's size and ranks.
__global__ void RecordHandle(unsigned long long* out) {
  cg::thread_group handle = cg::this_thread_block();
  out[2 * cg_test::GlobalId()] = handle.size();
  out[2 * cg_test::GlobalId() + 1] = handle.thread_rank();
}

TEST_P(ThreadBlockTest, ThreadGroupHandleKeepsSizeAndRank) {
  MX_SPEC("api.coop.group.thread-group-conversion");
  const Shape shape = GetParam();
  Managed<unsigned long long> out(2 * kBlocks * shape.threads(), 0xff);
  RecordHandle<<<kBlocks, shape.dims()>>>(out.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (unsigned b = 0; b < kBlocks; ++b) {
    for (unsigned t = 0; t < shape.threads(); ++t) {
      const unsigned id = b * shape.threads() + t;
      ASSERT_EQ(out[2 * id], shape.threads());
      ASSERT_EQ(out[2 * id + 1], t);
    }
  }
}

// The header alone, with mxcc's ordinary command line, declares the groups
// in namespace cooperative_groups.
__global__ void UseEveryGroupKind(unsigned long long* out) {
  cooperative_groups::thread_block block =
      cooperative_groups::this_thread_block();
  cooperative_groups::thread_block_tile<32> tile =
      cooperative_groups::tiled_partition<32>(block);
  cooperative_groups::coalesced_group active =
      cooperative_groups::coalesced_threads();
  cooperative_groups::grid_group grid = cooperative_groups::this_grid();
  out[block.thread_rank()] = block.size() + tile.size() * 10000 +
                             active.size() * 1000000 +
                             (grid.is_valid() ? 1ull << 40 : 0ull);
}

TEST(MacaHeader, DeclaresTheGroupsInNamespaceCooperativeGroups) {
  MX_SPEC("api.coop.header.maca-header",
          "api.coop.header.compiles-without-special-flags");
  Managed<unsigned long long> out(64);
  UseEveryGroupKind<<<1, 64>>>(out.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  // Every thread is active: the coalesced group is the caller's whole wave.
  const unsigned long long lanes = mxcts::conformance::ClaimedWaveSize();
  const unsigned long long wave = lanes < 64 ? lanes : 64;
  for (unsigned t = 0; t < 64; ++t) {
    EXPECT_EQ(out[t], 64ull + 32 * 10000ull + wave * 1000000ull) << t;
  }
}

INSTANTIATE_TEST_SUITE_P(Shapes, ThreadBlockTest,
                         testing::ValuesIn(cg_test::kAnyShapes),
                         cg_test::ParamName());

}  // namespace
