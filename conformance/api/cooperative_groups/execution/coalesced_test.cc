// Conformance: coalesced groups (docs/spec/api-cooperative-groups.md,
// "Coalesced groups"): coalesced_threads() holds the lanes that call it
// together, ranked in lane order, with the tile collectives by rank; and
// labeled_partition / binary_partition split it further. Parameterized over
// which lanes of each wave take part and over block shapes with full and
// partial waves. Lanes that do not take part exit at once, so the lanes
// that do are the ones that call together. A wave is the backend's
// (the manifest's wave_size: 64 on MXMACA, 32 on CUDA); a lane pattern
// that names a lane beyond the wave is skipped as unsupported.

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

struct ActiveLanes {
  const char* name;
  unsigned long mask;  // the lanes of each wave that call; bit i is lane i
  // The narrowest wave the pattern is meant for: Lanes0And63 names lane 63,
  // so a narrower wave would turn it into Lane0Only. The other patterns
  // keep their sense in any wave (on a 32-lane wave LowHalf is every lane,
  // Sparse lanes 0, 9, 18 and 27).
  unsigned wave_needed;
};

constexpr ActiveLanes kActive[] = {
    {"AllLanes", ~0ul, 1},
    {"EvenLanes", 0x5555555555555555ul, 1},
    {"OddLanes", 0xaaaaaaaaaaaaaaaaul, 1},
    {"Lane0Only", 0x1ul, 1},
    {"Lanes0And63", 0x8000000000000001ul, 64},
    {"LowHalf", 0x00000000fffffffful, 1},
    {"Sparse", 0x8040201008040201ul, 1},
    {"EveryThirdLane", 0x9249249249249249ul, 1},
};

struct CoalescedCase {
  ActiveLanes active;
  cg_test::Shape shape;
};

void PrintTo(const CoalescedCase& c, std::ostream* os) {
  *os << c.active.name << "_" << c.shape.name;
}

std::vector<CoalescedCase> AllCases() {
  const cg_test::Shape shapes[] = {
      {"Threads64", 64, 1, 1},
      {"Threads96", 96, 1, 1},
      {"Block16x8", 16, 8, 1},
  };
  std::vector<CoalescedCase> cases;
  for (const ActiveLanes& active : kActive) {
    for (const cg_test::Shape& shape : shapes) cases.push_back({active, shape});
  }
  return cases;
}

enum class Probe {
  kSize,
  kNumThreads,
  kRank,
  kShfl,
  kShflUp,
  kShflDown,
  kAny,
  kAll,
  kBallot,
  kMatchAny,
  kMatchAll,
  kSync,
  kHandleSize,
  kLabeledSize,
  kLabeledRank,
  kBinarySize,
  kBinaryRank,
  kBinaryMeta,
  kReduce,
};

__host__ __device__ inline int Predicate(unsigned t) {
  return static_cast<int>((Pattern(t, 5) >> 9) & 1);
}

__global__ void ProbeCoalesced(Probe probe, unsigned long active,
                               unsigned wave_lanes, unsigned long long* out) {
  extern __shared__ unsigned long long slots[];
  const unsigned t = cg_test::LinearId();
  const unsigned lane = t % wave_lanes;
  if (((active >> lane) & 1) == 0) return;
  cg::coalesced_group group = cg::coalesced_threads();
  const unsigned long long mine = Pattern(t, 1);
  const unsigned rank = static_cast<unsigned>(group.thread_rank());
  const unsigned size = static_cast<unsigned>(group.size());
  unsigned long long result = 0;
  switch (probe) {
    case Probe::kSize:
      result = group.size();
      break;
    case Probe::kNumThreads:
      result = group.num_threads();
      break;
    case Probe::kRank:
      result = group.thread_rank();
      break;
    case Probe::kShfl:
      result = group.shfl(mine, static_cast<int>((rank + 1) % size));
      break;
    case Probe::kShflUp:
      result = group.shfl_up(mine, 1);
      break;
    case Probe::kShflDown:
      result = group.shfl_down(mine, 1);
      break;
    case Probe::kAny:
      result = group.any(Predicate(t)) != 0;
      break;
    case Probe::kAll:
      result = group.all(Predicate(t)) != 0;
      break;
    case Probe::kBallot:
      result = group.ballot(Predicate(t));
      break;
    case Probe::kMatchAny:
      result = group.match_any(static_cast<unsigned>(Pattern(t, 2) % 3));
      break;
    case Probe::kMatchAll: {
      int pred = -1;
      const unsigned long mask = group.match_all(7, pred);
      result = pred == 1 ? mask : 0xdeadull;
      break;
    }
    case Probe::kSync: {
      // Where the next member writes, from that member by a shuffle.
      const unsigned next = group.shfl(t, static_cast<int>((rank + 1) % size));
      slots[t] = mine;
      group.sync();
      // The next member's value, through shared memory.
      result = slots[next];
      group.sync();
      break;
    }
    case Probe::kHandleSize: {
      cg::thread_group handle = group;
      handle.sync();
      result = handle.size() * 1000 + handle.thread_rank();
      break;
    }
    case Probe::kLabeledSize:
      result = cg::labeled_partition(group, static_cast<int>(lane % 3)).size();
      break;
    case Probe::kLabeledRank:
      result = cg::labeled_partition(group, static_cast<int>(lane % 3))
                   .thread_rank();
      break;
    case Probe::kBinarySize:
      result = cg::binary_partition(group, Predicate(t) != 0).size();
      break;
    case Probe::kBinaryRank:
      result = cg::binary_partition(group, Predicate(t) != 0).thread_rank();
      break;
    case Probe::kBinaryMeta: {
      cg::coalesced_group side = cg::binary_partition(group, Predicate(t) != 0);
      result = side.meta_group_rank() * 10 + side.meta_group_size();
      break;
    }
    case Probe::kReduce:
      result = cg::reduce(group, static_cast<unsigned long long>(lane),
                          cg::plus<unsigned long long>());
      break;
  }
  out[t] = result;
}

class CoalescedTest : public testing::TestWithParam<CoalescedCase> {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY_AT_LEAST(
        "wave_size", static_cast<int>(GetParam().active.wave_needed));
    lanes_ = static_cast<unsigned>(mxcts::conformance::ClaimedWaveSize());
  }
  unsigned threads() const { return GetParam().shape.threads(); }
  // The lanes of a wave (the backend's wave_size).
  unsigned lanes() const { return lanes_; }
  // The lane of linear id t in its wave.
  unsigned Lane(unsigned t) const { return t % lanes_; }
  // The lanes of thread t's wave that take part, as linear ids.
  std::vector<unsigned> Members(unsigned t) const {
    std::vector<unsigned> members;
    const unsigned wave = t / lanes_ * lanes_;
    for (unsigned lane = 0; lane < lanes_ && wave + lane < threads(); ++lane) {
      if ((GetParam().active.mask >> lane) & 1) members.push_back(wave + lane);
    }
    return members;
  }
  static unsigned RankOf(const std::vector<unsigned>& members, unsigned t) {
    unsigned rank = 0;
    while (members[rank] != t) ++rank;
    return rank;
  }

  // Runs `probe`; checks each taking-part thread's result against
  // `expected(t, members, rank)`.
  void Check(Probe probe,
             const std::function<unsigned long long(
                 unsigned, const std::vector<unsigned>&, unsigned)>& expected) {
    Managed<unsigned long long> out(threads(), 0xee);
    ProbeCoalesced<<<1, GetParam().shape.dims(),
                     threads() * sizeof(unsigned long long)>>>(
        probe, GetParam().active.mask, lanes_, out.get());
    ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
    for (unsigned t = 0; t < threads(); ++t) {
      if (((GetParam().active.mask >> Lane(t)) & 1) == 0) {
        ASSERT_EQ(out[t], 0xeeeeeeeeeeeeeeeeull) << "thread " << t;
        continue;
      }
      const std::vector<unsigned> members = Members(t);
      ASSERT_EQ(out[t], expected(t, members, RankOf(members, t)))
          << "thread " << t;
    }
  }

 private:
  unsigned lanes_ = cg_test::kWaveLanes;
};

using MemberList = std::vector<unsigned>;

TEST_P(CoalescedTest, SizeIsTheNumberOfCallingLanes) {
  MX_SPEC("api.coop.coalesced.active-threads", "api.coop.group.size-and-rank");
  Check(Probe::kSize,
        [](unsigned, const MemberList& m, unsigned) { return m.size(); });
}

TEST_P(CoalescedTest, NumThreadsEqualsSize) {
  MX_SPEC("api.coop.group.num-threads-same-as-size");
  Check(Probe::kNumThreads,
        [](unsigned, const MemberList& m, unsigned) { return m.size(); });
}

TEST_P(CoalescedTest, RanksFollowLaneOrder) {
  MX_SPEC("api.coop.coalesced.rank-by-lane-order");
  Check(Probe::kRank,
        [](unsigned, const MemberList&, unsigned rank) { return rank; });
}

TEST_P(CoalescedTest, ShflReadsByRank) {
  MX_SPEC("api.coop.coalesced.collectives-by-rank");
  Check(Probe::kShfl, [](unsigned, const MemberList& m, unsigned rank) {
    return Pattern(m[(rank + 1) % m.size()], 1);
  });
}

TEST_P(CoalescedTest, ShflUpReadsTheRankBelow) {
  MX_SPEC("api.coop.coalesced.collectives-by-rank");
  Check(Probe::kShflUp, [](unsigned t, const MemberList& m, unsigned rank) {
    return Pattern(rank >= 1 ? m[rank - 1] : t, 1);
  });
}

TEST_P(CoalescedTest, ShflDownReadsTheRankAbove) {
  MX_SPEC("api.coop.coalesced.collectives-by-rank");
  Check(Probe::kShflDown, [](unsigned t, const MemberList& m, unsigned rank) {
    return Pattern(rank + 1 < m.size() ? m[rank + 1] : t, 1);
  });
}

TEST_P(CoalescedTest, AnyOverTheMembers) {
  MX_SPEC("api.coop.coalesced.collectives-by-rank");
  Check(Probe::kAny, [](unsigned, const MemberList& m, unsigned) {
    unsigned long long any = 0;
    for (unsigned id : m) any |= Predicate(id);
    return any;
  });
}

TEST_P(CoalescedTest, AllOverTheMembers) {
  MX_SPEC("api.coop.coalesced.collectives-by-rank");
  Check(Probe::kAll, [](unsigned, const MemberList& m, unsigned) {
    unsigned long long all = 1;
    for (unsigned id : m) all &= Predicate(id);
    return all;
  });
}

TEST_P(CoalescedTest, BallotBitsAreRanks) {
  MX_SPEC("api.coop.coalesced.collectives-by-rank");
  Check(Probe::kBallot, [](unsigned, const MemberList& m, unsigned) {
    unsigned long long bits = 0;
    for (unsigned r = 0; r < m.size(); ++r) {
      if (Predicate(m[r])) bits |= 1ull << r;
    }
    return bits;
  });
}

TEST_P(CoalescedTest, MatchAnyBitsAreRanks) {
  MX_SPEC("api.coop.coalesced.collectives-by-rank");
  Check(Probe::kMatchAny, [](unsigned t, const MemberList& m, unsigned) {
    unsigned long long bits = 0;
    for (unsigned r = 0; r < m.size(); ++r) {
      if (Pattern(m[r], 2) % 3 == Pattern(t, 2) % 3) bits |= 1ull << r;
    }
    return bits;
  });
}

TEST_P(CoalescedTest, MatchAllOfEqualValuesNamesEveryRank) {
  MX_SPEC("api.coop.coalesced.collectives-by-rank");
  Check(Probe::kMatchAll, [](unsigned, const MemberList& m, unsigned) {
    return m.size() == 64 ? ~0ull : (1ull << m.size()) - 1;
  });
}

TEST_P(CoalescedTest, SyncPublishesTheMembersWrites) {
  MX_SPEC("api.coop.coalesced.collectives-by-rank",
          "api.coop.group.sync-is-barrier-with-visibility");
  Check(Probe::kSync, [](unsigned, const MemberList& m, unsigned rank) {
    return Pattern(m[(rank + 1) % m.size()], 1);
  });
}

TEST_P(CoalescedTest, ThreadGroupHandleKeepsSizeAndRank) {
  MX_SPEC("api.coop.group.thread-group-conversion");
  Check(Probe::kHandleSize, [](unsigned, const MemberList& m, unsigned rank) {
    return m.size() * 1000ull + rank;
  });
}

TEST_P(CoalescedTest, LabeledPartitionGroupsEqualLabels) {
  MX_SPEC("api.coop.coalesced.labeled-partition");
  Check(Probe::kLabeledSize, [&](unsigned t, const MemberList& m, unsigned) {
    unsigned long long count = 0;
    for (unsigned id : m) count += Lane(id) % 3 == Lane(t) % 3;
    return count;
  });
}

TEST_P(CoalescedTest, LabeledPartitionRanksInLaneOrder) {
  MX_SPEC("api.coop.coalesced.labeled-partition",
          "api.coop.coalesced.rank-by-lane-order");
  Check(Probe::kLabeledRank, [&](unsigned t, const MemberList& m, unsigned) {
    unsigned long long below = 0;
    for (unsigned id : m) below += id < t && Lane(id) % 3 == Lane(t) % 3;
    return below;
  });
}

TEST_P(CoalescedTest, BinaryPartitionGroupsEqualPredicates) {
  MX_SPEC("api.coop.coalesced.binary-partition");
  Check(Probe::kBinarySize, [](unsigned t, const MemberList& m, unsigned) {
    unsigned long long count = 0;
    for (unsigned id : m) count += Predicate(id) == Predicate(t);
    return count;
  });
}

TEST_P(CoalescedTest, BinaryPartitionRanksInLaneOrder) {
  MX_SPEC("api.coop.coalesced.binary-partition",
          "api.coop.coalesced.rank-by-lane-order");
  Check(Probe::kBinaryRank, [](unsigned t, const MemberList& m, unsigned) {
    unsigned long long below = 0;
    for (unsigned id : m) below += id < t && Predicate(id) == Predicate(t);
    return below;
  });
}

TEST_P(CoalescedTest, BinaryPartitionMetaGroupIsThePredicate) {
  MX_SPEC("api.coop.coalesced.binary-partition");
  Check(Probe::kBinaryMeta, [](unsigned t, const MemberList&, unsigned) {
    return Predicate(t) * 10ull + 2;
  });
}

TEST_P(CoalescedTest, ReduceSumsTheMembersLanes) {
  MX_SPEC("api.coop.algo.reduce", "api.coop.coalesced.collectives-by-rank");
  Check(Probe::kReduce, [&](unsigned, const MemberList& m, unsigned) {
    unsigned long long sum = 0;
    for (unsigned id : m) sum += Lane(id);
    return sum;
  });
}

INSTANTIATE_TEST_SUITE_P(ActiveLanesAndShapes, CoalescedTest,
                         testing::ValuesIn(AllCases()), cg_test::ParamName());

}  // namespace
