// Conformance: tiled partitions (docs/spec/api-cooperative-groups.md,
// "Tiled partitions"): thread_block_tile<N> from tiled_partition<N> and the
// dynamic tiled_partition(parent, n), their sizes, ranks and meta groups,
// sync(), the shuffles, votes and matches, nested partitions and
// thread_group handles. Every test runs for every tile size from 1 to 64
// with every block shape of cg_test::kShapes; a tile wider than the
// backend's wave (the manifest's wave_size) is skipped as unsupported.
//
// Each kernel stores one 64-bit result per thread at its linear id; the
// host computes what the clause says thread `t` (block rank t, tile rank
// t % N, tile t / N) must see.

#include <maca_cooperative_groups.h>

#include <functional>

#include "conformance/api/cooperative_groups/execution/cg_test_support.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/claimed.h"
#include "conformance/testing/spec.h"

namespace {

namespace cg = cooperative_groups;
using cg_test::Managed;
using cg_test::Pattern;
using cg_test::TileCase;

// The widest tile the kernels are compiled for: a wave, twice
// MACA_HALF_WARP_SIZE (mc_common.h). A tile wider than the wave has no
// kernel (its collectives need not compile), and its cases skip themselves.
constexpr unsigned kCompiledWaveLanes = 2 * MACA_HALF_WARP_SIZE;

// What a kernel computes, chosen at run time so that one kernel template
// per tile size serves every test.
enum class Probe {
  kSize,
  kNumThreads,
  kRank,
  kMetaRank,
  kMetaSize,
  kDynamicSize,
  kDynamicRank,
  kShfl,
  kShflUnreduced,
  kShflUp1,
  kShflUpHalf,
  kShflDown1,
  kShflDownHalf,
  kShflXor1,
  kShflXorTop,
  kAny,
  kAll,
  kBallot,
  kMatchAny,
  kMatchAllUniform,
  kMatchAllDiffering,
  kNestedRank,
  kNestedMeta,
  kNestedDynamic,
  kHandleSize,
  kHandleRank,
};

// A predicate with a mix of true and false: bit 7 of the thread's pattern.
__host__ __device__ inline int Predicate(unsigned t) {
  return static_cast<int>((Pattern(t, 5) >> 7) & 1);
}

// `wave_lanes`: the backend's wave, the outer tile of kNestedDynamic.
template <unsigned N>
__global__ void ProbeTile(Probe probe, unsigned wave_lanes,
                          unsigned long long* out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<N> tile = cg::tiled_partition<N>(block);
  // [api.coop.tile.static-partition] The size is a constant expression.
  static_assert(cg::thread_block_tile<N>::size() == N, "constexpr size");
  static_assert(cg::thread_block_tile<N>::num_threads() == N,
                "constexpr num_threads");
  const unsigned t = static_cast<unsigned>(block.thread_rank());
  const unsigned long long mine = Pattern(t, 1);
  const unsigned rank = static_cast<unsigned>(tile.thread_rank());
  unsigned long long result = 0;
  switch (probe) {
    case Probe::kSize:
      result = tile.size();
      break;
    case Probe::kNumThreads:
      result = tile.num_threads();
      break;
    case Probe::kRank:
      result = tile.thread_rank();
      break;
    case Probe::kMetaRank:
      result = tile.meta_group_rank();
      break;
    case Probe::kMetaSize:
      result = tile.meta_group_size();
      break;
    case Probe::kDynamicSize:
      result = cg::tiled_partition(block, N).size();
      break;
    case Probe::kDynamicRank:
      result = cg::tiled_partition(block, N).thread_rank();
      break;
    case Probe::kShfl:
      result = tile.shfl(mine, static_cast<int>((rank * 3 + 1) % N));
      break;
    case Probe::kShflUnreduced:
      result = tile.shfl(mine, static_cast<int>(rank * 3 + 1 + N));
      break;
    case Probe::kShflUp1:
      result = tile.shfl_up(mine, 1);
      break;
    case Probe::kShflUpHalf:
      result = tile.shfl_up(mine, N / 2);
      break;
    case Probe::kShflDown1:
      result = tile.shfl_down(mine, 1);
      break;
    case Probe::kShflDownHalf:
      result = tile.shfl_down(mine, N / 2);
      break;
    case Probe::kShflXor1:
      result = tile.shfl_xor(mine, N > 1 ? 1u : 0u);
      break;
    case Probe::kShflXorTop:
      result = tile.shfl_xor(mine, N - 1);
      break;
    case Probe::kAny:
      result = static_cast<unsigned long long>(tile.any(Predicate(t)) != 0);
      break;
    case Probe::kAll:
      result = static_cast<unsigned long long>(tile.all(Predicate(t)) != 0);
      break;
    case Probe::kBallot:
      result = tile.ballot(Predicate(t));
      break;
    case Probe::kMatchAny:
      result = tile.match_any(static_cast<int>(Pattern(t, 2) % 3));
      break;
    case Probe::kMatchAllUniform: {
      int pred = -1;
      const unsigned long mask = tile.match_all(42u, pred);
      result = pred == 1 ? mask : 0xdeadull;
      break;
    }
    case Probe::kMatchAllDiffering: {
      int pred = -1;
      // The last member of each tile differs (in a tile of one, nobody).
      const unsigned long mask =
          tile.match_all(rank == N - 1 && N > 1 ? 7u : 42u, pred);
      result = pred == 0 ? mask : 0xdeadull;
      if (N == 1) result = pred == 1 ? mask : 0xdeadull;
      break;
    }
    case Probe::kNestedRank: {
      cg::thread_block_tile<64> wave = cg::tiled_partition<64>(block);
      cg::thread_block_tile<N> inner = cg::tiled_partition<N>(wave);
      result = inner.thread_rank() * 1000 + inner.size();
      break;
    }
    case Probe::kNestedMeta: {
      cg::thread_block_tile<64> wave = cg::tiled_partition<64>(block);
      cg::thread_block_tile<N> inner = cg::tiled_partition<N>(wave);
      result = inner.meta_group_rank() * 1000 + inner.meta_group_size();
      break;
    }
    case Probe::kNestedDynamic: {
      cg::thread_group wave = cg::tiled_partition(block, wave_lanes);
      cg::thread_group inner = cg::tiled_partition(wave, N);
      inner.sync();
      result = inner.thread_rank() * 1000 + inner.size();
      break;
    }
    case Probe::kHandleSize: {
      cg::thread_group handle = tile;
      result = handle.size();
      break;
    }
    case Probe::kHandleRank: {
      cg::thread_group handle = tile;
      result = handle.thread_rank();
      break;
    }
  }
  out[t] = result;
}

template <unsigned N>
void LaunchProbe(Probe probe, unsigned wave_lanes, const cg_test::Shape& shape,
                 unsigned long long* out) {
  if constexpr (N <= kCompiledWaveLanes) {
    ProbeTile<N><<<1, shape.dims()>>>(probe, wave_lanes, out);
  }
}

class TileTest : public testing::TestWithParam<TileCase> {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", GetParam().tile);
    wave_lanes_ = static_cast<unsigned>(mxcts::conformance::ClaimedWaveSize());
  }
  unsigned n() const { return GetParam().tile; }
  unsigned threads() const { return GetParam().shape.threads(); }

  // Runs `probe` and checks every thread's result against `expected(t)`.
  void Check(Probe probe,
             const std::function<unsigned long long(unsigned)>& expected) {
    Managed<unsigned long long> out(threads(), 0xee);
    CG_TEST_DISPATCH_TILE(n(), LaunchProbe, probe, wave_lanes_,
                          GetParam().shape, out.get());
    ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
    for (unsigned t = 0; t < threads(); ++t) {
      ASSERT_EQ(out[t], expected(t)) << "thread " << t;
    }
  }
  // The linear id of tile rank `r` in the tile of thread `t`.
  unsigned Member(unsigned t, unsigned r) const { return t / n() * n() + r; }
  unsigned Rank(unsigned t) const { return t % n(); }

  // The lanes of the backend's wave (the manifest's wave_size): at least
  // n(), as SetUp requires, and a power of two, so a multiple of n().
  unsigned wave_lanes_ = cg_test::kWaveLanes;
};

TEST_P(TileTest, StaticTileSizeIsN) {
  MX_SPEC("api.coop.tile.static-partition", "api.coop.tile.rank-within-tile");
  Check(Probe::kSize, [&](unsigned) { return n(); });
}

TEST_P(TileTest, StaticTileNumThreadsIsN) {
  MX_SPEC("api.coop.tile.static-partition",
          "api.coop.group.num-threads-same-as-size");
  Check(Probe::kNumThreads, [&](unsigned) { return n(); });
}

TEST_P(TileTest, RankIsParentRankModuloN) {
  MX_SPEC("api.coop.tile.rank-within-tile", "api.coop.group.size-and-rank");
  Check(Probe::kRank, [&](unsigned t) { return Rank(t); });
}

TEST_P(TileTest, MetaGroupRankIsTheTilesIndex) {
  MX_SPEC("api.coop.tile.meta-group");
  Check(Probe::kMetaRank, [&](unsigned t) { return t / n(); });
}

TEST_P(TileTest, MetaGroupSizeIsTheNumberOfTiles) {
  MX_SPEC("api.coop.tile.meta-group");
  Check(Probe::kMetaSize, [&](unsigned) { return threads() / n(); });
}

TEST_P(TileTest, DynamicPartitionHasNThreads) {
  MX_SPEC("api.coop.tile.dynamic-partition");
  Check(Probe::kDynamicSize, [&](unsigned) { return n(); });
}

TEST_P(TileTest, DynamicPartitionRanksAsTheStaticOne) {
  MX_SPEC("api.coop.tile.dynamic-partition", "api.coop.tile.rank-within-tile");
  Check(Probe::kDynamicRank, [&](unsigned t) { return Rank(t); });
}

TEST_P(TileTest, ShflReadsTheSourceRank) {
  MX_SPEC("api.coop.tile.shfl");
  Check(Probe::kShfl, [&](unsigned t) {
    return Pattern(Member(t, (Rank(t) * 3 + 1) % n()), 1);
  });
}

TEST_P(TileTest, ShflTakesTheSourceRankModuloN) {
  MX_SPEC("api.coop.tile.shfl");
  Check(Probe::kShflUnreduced, [&](unsigned t) {
    return Pattern(Member(t, (Rank(t) * 3 + 1 + n()) % n()), 1);
  });
}

TEST_P(TileTest, ShflUpByOne) {
  MX_SPEC("api.coop.tile.shfl-up");
  Check(Probe::kShflUp1,
        [&](unsigned t) { return Pattern(Rank(t) >= 1 ? t - 1 : t, 1); });
}

TEST_P(TileTest, ShflUpByHalfTheTile) {
  MX_SPEC("api.coop.tile.shfl-up");
  const unsigned delta = n() / 2;
  Check(Probe::kShflUpHalf, [&](unsigned t) {
    return Pattern(Rank(t) >= delta ? t - delta : t, 1);
  });
}

TEST_P(TileTest, ShflDownByOne) {
  MX_SPEC("api.coop.tile.shfl-down");
  Check(Probe::kShflDown1,
        [&](unsigned t) { return Pattern(Rank(t) + 1 < n() ? t + 1 : t, 1); });
}

TEST_P(TileTest, ShflDownByHalfTheTile) {
  MX_SPEC("api.coop.tile.shfl-down");
  const unsigned delta = n() / 2;
  Check(Probe::kShflDownHalf, [&](unsigned t) {
    return Pattern(Rank(t) + delta < n() ? t + delta : t, 1);
  });
}

TEST_P(TileTest, ShflXorWithOne) {
  MX_SPEC("api.coop.tile.shfl-xor");
  const unsigned mask = n() > 1 ? 1 : 0;
  Check(Probe::kShflXor1,
        [&](unsigned t) { return Pattern(Member(t, Rank(t) ^ mask), 1); });
}

TEST_P(TileTest, ShflXorWithTheHighestMask) {
  MX_SPEC("api.coop.tile.shfl-xor");
  Check(Probe::kShflXorTop,
        [&](unsigned t) { return Pattern(Member(t, Rank(t) ^ (n() - 1)), 1); });
}

TEST_P(TileTest, AnyIsTrueWhenSomeMemberIs) {
  MX_SPEC("api.coop.tile.any-all");
  Check(Probe::kAny, [&](unsigned t) {
    unsigned long long any = 0;
    for (unsigned r = 0; r < n(); ++r) any |= Predicate(Member(t, r));
    return any;
  });
}

TEST_P(TileTest, AllIsTrueWhenEveryMemberIs) {
  MX_SPEC("api.coop.tile.any-all");
  Check(Probe::kAll, [&](unsigned t) {
    unsigned long long all = 1;
    for (unsigned r = 0; r < n(); ++r) all &= Predicate(Member(t, r));
    return all;
  });
}

TEST_P(TileTest, BallotSetsTheBitOfEachTrueRank) {
  MX_SPEC("api.coop.tile.ballot");
  Check(Probe::kBallot, [&](unsigned t) {
    unsigned long long bits = 0;
    for (unsigned r = 0; r < n(); ++r) {
      if (Predicate(Member(t, r))) bits |= 1ull << r;
    }
    return bits;
  });
}

TEST_P(TileTest, MatchAnyNamesTheRanksWithTheSameValue) {
  MX_SPEC("api.coop.tile.match-any");
  Check(Probe::kMatchAny, [&](unsigned t) {
    unsigned long long bits = 0;
    for (unsigned r = 0; r < n(); ++r) {
      if (Pattern(Member(t, r), 2) % 3 == Pattern(t, 2) % 3) bits |= 1ull << r;
    }
    return bits;
  });
}

TEST_P(TileTest, MatchAllOfEqualValuesReturnsEveryRank) {
  MX_SPEC("api.coop.tile.match-all");
  Check(Probe::kMatchAllUniform,
        [&](unsigned) { return n() == 64 ? ~0ull : (1ull << n()) - 1; });
}

TEST_P(TileTest, MatchAllOfDifferingValuesReturnsZero) {
  MX_SPEC("api.coop.tile.match-all");
  Check(Probe::kMatchAllDiffering,
        [&](unsigned) { return n() == 1 ? 1ull : 0ull; });
}

TEST_P(TileTest, NestedStaticTileRanksWithinItsParentTile) {
  MX_SPEC("api.coop.tile.nested-partition");
  Check(Probe::kNestedRank,
        [&](unsigned t) { return (t % 64 % n()) * 1000ull + n(); });
}

TEST_P(TileTest, NestedStaticTileMetaGroupIsRelativeToItsParentTile) {
  MX_SPEC("api.coop.tile.nested-partition", "api.coop.tile.meta-group");
  Check(Probe::kNestedMeta,
        [&](unsigned t) { return (t % 64 / n()) * 1000ull + 64 / n(); });
}

TEST_P(TileTest, NestedDynamicPartitionOfADynamicTile) {
  MX_SPEC("api.coop.tile.nested-partition", "api.coop.tile.dynamic-partition");
  // The outer partition is a whole wave of the backend (64 lanes on
  // MXMACA, the manifest's wave_size elsewhere): a wider tile would not fit
  // in a wave, which is out of contract. Thread t has rank t % wave in it,
  // and rank (t % wave) % n() == t % n() in the inner tile, since the wave
  // is a multiple of n().
  Check(Probe::kNestedDynamic,
        [&](unsigned t) { return (t % wave_lanes_ % n()) * 1000ull + n(); });
}

TEST_P(TileTest, ThreadGroupHandleOfATileKeepsItsSize) {
  MX_SPEC("api.coop.group.thread-group-conversion");
  Check(Probe::kHandleSize, [&](unsigned) { return n(); });
}

TEST_P(TileTest, ThreadGroupHandleOfATileKeepsItsRanks) {
  MX_SPEC("api.coop.group.thread-group-conversion");
  Check(Probe::kHandleRank, [&](unsigned t) { return Rank(t); });
}

// ---------------------------------------------------------------------------
// sync(): only the tile, with its writes visible.
// ---------------------------------------------------------------------------

// Tile `m` synchronizes m % 3 + 1 times in a row, so tiles make different
// numbers of calls: a sync that held back other tiles (a block barrier)
// could not complete. Between the syncs each member writes a pattern and
// reads its neighbour's in the tile, through shared memory.
template <unsigned N>
__global__ void SyncEachTile(int use_handle, unsigned long long* out) {
  extern __shared__ unsigned long long slots[];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<N> tile = cg::tiled_partition<N>(block);
  cg::thread_group handle = tile;
  const unsigned t = static_cast<unsigned>(block.thread_rank());
  const unsigned base = t / N * N;
  const unsigned rounds = static_cast<unsigned>(tile.meta_group_rank() % 3 + 1);
  unsigned long long seen = 0;
  for (unsigned round = 0; round < rounds; ++round) {
    slots[t] = Pattern(t, round);
    if (use_handle) {
      handle.sync();
    } else {
      tile.sync();
    }
    seen ^= slots[base + (t - base + 1) % N];
    if (use_handle) {
      handle.sync();
    } else {
      cg::sync(tile);
    }
  }
  out[t] = seen;
}

template <unsigned N>
void LaunchSync(int use_handle, const cg_test::Shape& shape,
                unsigned long long* out) {
  if constexpr (N <= kCompiledWaveLanes) {
    SyncEachTile<N><<<1, shape.dims(), shape.threads() * 8>>>(use_handle, out);
  }
}

void CheckTileSync(const TileCase& c, int use_handle) {
  Managed<unsigned long long> out(c.shape.threads(), 0xee);
  CG_TEST_DISPATCH_TILE(c.tile, LaunchSync, use_handle, c.shape, out.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (unsigned t = 0; t < c.shape.threads(); ++t) {
    const unsigned base = t / c.tile * c.tile;
    const unsigned next = base + (t - base + 1) % c.tile;
    const unsigned rounds = t / c.tile % 3 + 1;
    unsigned long long expected = 0;
    for (unsigned round = 0; round < rounds; ++round) {
      expected ^= Pattern(next, round);
    }
    ASSERT_EQ(out[t], expected) << "thread " << t;
  }
}

TEST_P(TileTest, SyncWaitsOnlyForTheTile) {
  MX_SPEC("api.coop.tile.sync-only-tile",
          "api.coop.group.sync-is-barrier-with-visibility",
          "api.coop.group.sync-free-functions");
  CheckTileSync(GetParam(), 0);
}

TEST_P(TileTest, ThreadGroupHandleSyncsTheTile) {
  MX_SPEC("api.coop.group.thread-group-conversion",
          "api.coop.tile.sync-only-tile");
  CheckTileSync(GetParam(), 1);
}

INSTANTIATE_TEST_SUITE_P(TileSizesAndShapes, TileTest,
                         testing::ValuesIn(cg_test::AllTileCases()),
                         cg_test::ParamName());

}  // namespace
