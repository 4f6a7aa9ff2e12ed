// Conformance: __ballot_sync, __any_sync, __all_sync and __activemask
// (docs/spec/lang-wave-collectives.md "Votes").
//
// The lanes a mask names vote with a predicate pattern; the host computes
// each participant's result from the pattern, the mask and the lanes that
// exist in the thread's wave.

#include <mc_runtime.h>

#include <string>
#include <tuple>

#include "conformance/language/wave_collectives/wave_test_support.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace {

using wave_test::kFullMask;
using wave_test::Managed;
using wave_test::NamedMask;
using wave_test::Shape;

// Which lanes pass a nonzero predicate.
enum class Predicate { kNone, kAll, kEvenLanes, kScattered };

const char* PredicateName(Predicate predicate) {
  switch (predicate) {
    case Predicate::kNone:
      return "NoLane";
    case Predicate::kAll:
      return "EveryLane";
    case Predicate::kEvenLanes:
      return "EvenLanes";
    case Predicate::kScattered:
      return "Scattered";
  }
  return "Unknown";
}

// The predicate of thread `id` (nonzero values other than 1 included).
__host__ __device__ inline int PredicateOf(int predicate, unsigned id) {
  switch (static_cast<Predicate>(predicate)) {
    case Predicate::kNone:
      return 0;
    case Predicate::kAll:
      return -7;
    case Predicate::kEvenLanes:
      return id % 2 == 0 ? 2 : 0;
    case Predicate::kScattered:
      return static_cast<int>(wave_test::Pattern(id, 9) % 3 == 0) * 5;
  }
  return 0;
}

enum class Vote { kBallot, kAny, kAll };

const char* VoteName(Vote vote) {
  switch (vote) {
    case Vote::kBallot:
      return "Ballot";
    case Vote::kAny:
      return "Any";
    case Vote::kAll:
      return "All";
  }
  return "Unknown";
}

// Threads whose lane `mask` names vote; the others store a marker.
__global__ void VoteKernel(int vote, unsigned long mask, int predicate,
                           unsigned long* out) {
  const unsigned id = wave_test::LinearId();
  if ((mask >> wave_test::Lane() & 1ul) == 0) {
    out[id] = 0xdeadul;
    return;
  }
  const int p = PredicateOf(predicate, id);
  switch (static_cast<Vote>(vote)) {
    case Vote::kBallot:
      out[id] = __ballot_sync(mask, p);
      break;
    case Vote::kAny:
      out[id] = static_cast<unsigned long>(__any_sync(mask, p));
      break;
    case Vote::kAll:
      out[id] = static_cast<unsigned long>(__all_sync(mask, p));
      break;
  }
}

// The ballot of the wave of thread `id`: lanes named, existing and voting
// nonzero.
unsigned long ExpectedBallot(const Shape& shape, unsigned long mask,
                             int predicate, unsigned id) {
  const unsigned first = id / wave_test::kWaveLanes * wave_test::kWaveLanes;
  const unsigned long taking_part = mask & shape.ExistingLanesOf(id);
  unsigned long ballot = 0;
  for (unsigned lane = 0; lane < wave_test::kWaveLanes; ++lane) {
    if ((taking_part >> lane & 1ul) != 0 &&
        PredicateOf(predicate, first + lane) != 0) {
      ballot |= 1ul << lane;
    }
  }
  return ballot;
}

// Runs a vote and checks every participant's result; returns how many
// participants there were.
int CheckVote(Vote vote, const Shape& shape, unsigned long mask,
              Predicate predicate) {
  const unsigned threads = shape.threads();
  Managed<unsigned long> out(threads);
  VoteKernel<<<1, shape.dims()>>>(static_cast<int>(vote), mask,
                                  static_cast<int>(predicate), out.get());
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
  int participants = 0;
  for (unsigned id = 0; id < threads; ++id) {
    const unsigned lane = id % wave_test::kWaveLanes;
    const unsigned long taking_part = mask & shape.ExistingLanesOf(id);
    if ((taking_part >> lane & 1ul) == 0) {
      EXPECT_EQ(out[id], 0xdeadul) << "thread " << id << " is not named";
      continue;
    }
    ++participants;
    const unsigned long ballot =
        ExpectedBallot(shape, mask, static_cast<int>(predicate), id);
    switch (vote) {
      case Vote::kBallot:
        EXPECT_EQ(out[id], ballot) << "thread " << id;
        break;
      case Vote::kAny:
        EXPECT_EQ(out[id] != 0, ballot != 0) << "thread " << id;
        break;
      case Vote::kAll:
        EXPECT_EQ(out[id] != 0, ballot == taking_part) << "thread " << id;
        break;
    }
  }
  EXPECT_GT(participants, 0);
  return participants;
}

// ---------------------------------------------------------------------------
// Masks x predicates, one full wave.
// ---------------------------------------------------------------------------

using MaskParam = std::tuple<NamedMask, Predicate>;

std::string MaskParamName(const testing::TestParamInfo<MaskParam>& info) {
  return std::string(std::get<0>(info.param).name) +
         PredicateName(std::get<1>(info.param));
}

constexpr Shape kOneWave = {"Threads64", 64, 1, 1};

class BallotMasks : public testing::TestWithParam<MaskParam> {};

TEST_P(BallotMasks, SetsTheBitsOfNamedLanesThatVoteYes) {
  MX_SPEC("lang.wave.ballot.returns-64-bit-mask",
          "lang.wave.ballot.unnamed-lanes-are-zero",
          "lang.wave.ballot.same-result-for-participants",
          "lang.wave.mask.is-64-bit");
  MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", 64);  // 64-lane waves
  CheckVote(Vote::kBallot, kOneWave, std::get<0>(GetParam()).mask,
            std::get<1>(GetParam()));
}

class AnyMasks : public testing::TestWithParam<MaskParam> {};

TEST_P(AnyMasks, IsTrueIffANamedLaneVotesYes) {
  MX_SPEC("lang.wave.any.result", "lang.wave.mask.waits-for-named-lanes");
  MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", 64);  // 64-lane waves
  CheckVote(Vote::kAny, kOneWave, std::get<0>(GetParam()).mask,
            std::get<1>(GetParam()));
}

class AllMasks : public testing::TestWithParam<MaskParam> {};

TEST_P(AllMasks, IsTrueIffEveryNamedLaneVotesYes) {
  MX_SPEC("lang.wave.all.result", "lang.wave.mask.waits-for-named-lanes");
  MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", 64);  // 64-lane waves
  CheckVote(Vote::kAll, kOneWave, std::get<0>(GetParam()).mask,
            std::get<1>(GetParam()));
}

#define MX_VOTE_MASK_SUITE(suite)                                         \
  INSTANTIATE_TEST_SUITE_P(                                               \
      MasksAndPredicates, suite,                                          \
      testing::Combine(                                                   \
          testing::ValuesIn(wave_test::kMasks),                           \
          testing::Values(Predicate::kNone, Predicate::kAll,              \
                          Predicate::kEvenLanes, Predicate::kScattered)), \
      MaskParamName)

MX_VOTE_MASK_SUITE(BallotMasks);
MX_VOTE_MASK_SUITE(AnyMasks);
MX_VOTE_MASK_SUITE(AllMasks);

// ---------------------------------------------------------------------------
// Block shapes with a full mask: absent lanes of a partial wave vote as
// exited lanes.
// ---------------------------------------------------------------------------

using ShapeParam = std::tuple<Shape, Vote>;

class VoteShapes : public testing::TestWithParam<ShapeParam> {};

TEST_P(VoteShapes, EachWaveVotesOverItsExistingLanes) {
  MX_SPEC("lang.wave.formation.consecutive-linear-ids",
          "lang.wave.formation.partial-last-wave",
          "lang.wave.mask.absent-lanes-count-as-exited",
          "lang.wave.ballot.returns-64-bit-mask", "lang.wave.any.result",
          "lang.wave.all.result");
  MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", 64);  // 64-lane waves
  const Vote vote = std::get<1>(GetParam());
  // For any/all, the even-lane pattern makes the last wave of 65 threads
  // (lane 0 alone) differ from the others.
  CheckVote(
      vote, std::get<0>(GetParam()), kFullMask,
      vote == Vote::kBallot ? Predicate::kScattered : Predicate::kEvenLanes);
}

INSTANTIATE_TEST_SUITE_P(
    AllShapes, VoteShapes,
    testing::Combine(testing::ValuesIn(wave_test::kShapes),
                     testing::Values(Vote::kBallot, Vote::kAny, Vote::kAll)),
    [](const testing::TestParamInfo<ShapeParam>& info) {
      return std::string(std::get<0>(info.param).name) +
             VoteName(std::get<1>(info.param));
    });

// ---------------------------------------------------------------------------
// Counting votes over 64 lanes.
// ---------------------------------------------------------------------------

__global__ void CountVotes(int* popcll_count, int* popc_count) {
  const unsigned id = wave_test::LinearId();
  const unsigned long ballot = __ballot_sync(kFullMask, id % 3 == 0);
  if (id == 0) {
    *popcll_count = __popcll(ballot);
    *popc_count = __popc(static_cast<unsigned>(ballot));
  }
}

TEST(BallotCount, PopcllCountsAllSixtyFourLanes) {
  MX_SPEC("lang.wave.ballot.count-with-popcll");
  MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", 64);  // 64-lane waves
  Managed<int> counts(2);
  CountVotes<<<1, 64>>>(&counts[0], &counts[1]);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(counts[0], 22);  // lanes 0, 3, ..., 63
  EXPECT_EQ(counts[1], 11);  // the low 32 bits alone: lanes 0, 3, ..., 30
}

// ---------------------------------------------------------------------------
// Exited lanes are not waited for and vote as if not named.
// ---------------------------------------------------------------------------

__global__ void VoteAfterExits(unsigned stay, unsigned long* ballots,
                               int* alls) {
  const unsigned id = wave_test::LinearId();
  if (wave_test::Lane() >= stay) return;
  ballots[id] = __ballot_sync(kFullMask, 1);
  alls[id] = __all_sync(kFullMask, 1);
}

TEST(VoteExits, ExitedLanesAreNotAwaitedAndCountAsAbsent) {
  MX_SPEC("lang.wave.mask.waits-for-named-lanes", "lang.wave.all.result",
          "lang.wave.ballot.returns-64-bit-mask");
  MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", 64);  // 64-lane waves
  Managed<unsigned long> ballots(128);
  Managed<int> alls(128);
  VoteAfterExits<<<1, 128>>>(40, ballots.get(), alls.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (unsigned id = 0; id < 128; ++id) {
    if (id % 64 >= 40) continue;
    EXPECT_EQ(ballots[id], (1ul << 40) - 1) << id;
    EXPECT_NE(alls[id], 0) << id;
  }
}

// ---------------------------------------------------------------------------
// __activemask().
// ---------------------------------------------------------------------------

__global__ void ActiveMaskConverged(unsigned long* out) {
  out[wave_test::LinearId()] = __activemask();
}

class ActiveMaskShapes : public testing::TestWithParam<Shape> {};

TEST_P(ActiveMaskShapes, ConvergedLanesReportTheirWholeWave) {
  MX_SPEC("lang.wave.activemask.full-wave-when-converged",
          "lang.wave.activemask.returns-active-lanes",
          "lang.wave.formation.partial-last-wave");
  MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", 64);  // 64-lane waves
  const Shape shape = GetParam();
  Managed<unsigned long> out(shape.threads());
  ActiveMaskConverged<<<1, shape.dims()>>>(out.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (unsigned id = 0; id < shape.threads(); ++id) {
    EXPECT_EQ(out[id], shape.ExistingLanesOf(id)) << "thread " << id;
  }
}

INSTANTIATE_TEST_SUITE_P(AllShapes, ActiveMaskShapes,
                         testing::ValuesIn(wave_test::kShapes),
                         wave_test::ParamName());

TEST(ActiveMask, ThirtyTwoThreadLastWaveIsLowHalf) {
  MX_SPEC("lang.wave.legacy32.block-size-multiple-of-64",
          "lang.wave.activemask.full-wave-when-converged");
  MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", 64);  // 64-lane waves
  Managed<unsigned long> out(96);
  ActiveMaskConverged<<<1, 96>>>(out.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(out[0], kFullMask);
  for (unsigned id = 64; id < 96; ++id) EXPECT_EQ(out[id], 0xfffffffful) << id;
}

// Lanes below `split` and the others call __activemask() at two places;
// lanes at or above `stop` return first.
__global__ void ActiveMaskDivergent(unsigned split, unsigned stop,
                                    unsigned long* out) {
  const unsigned lane = wave_test::Lane();
  if (lane >= stop) return;
  if (lane < split) {
    out[wave_test::LinearId()] = __activemask();
  } else {
    out[wave_test::LinearId()] = __activemask();
  }
}

TEST(ActiveMask, ContainsTheCallerAndOnlyLanesOfItsBranch) {
  MX_SPEC("lang.wave.activemask.returns-active-lanes",
          "lang.wave.activemask.not-a-barrier");
  MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", 64);  // 64-lane waves
  Managed<unsigned long> out(64);
  ActiveMaskDivergent<<<1, 64>>>(24, 64, out.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  const unsigned long low = (1ul << 24) - 1;
  for (unsigned lane = 0; lane < 64; ++lane) {
    const unsigned long mask = out[lane];
    EXPECT_NE(mask >> lane & 1ul, 0u) << "caller's bit, lane " << lane;
    // Lanes of the other branch are not executing this call.
    EXPECT_EQ(mask & (lane < 24 ? ~low : low), 0u) << "lane " << lane;
  }
}

TEST(ActiveMask, LeavesOutExitedLanes) {
  MX_SPEC("lang.wave.activemask.returns-active-lanes");
  MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", 64);  // 64-lane waves
  Managed<unsigned long> out(64);
  ActiveMaskDivergent<<<1, 64>>>(0, 20, out.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (unsigned lane = 0; lane < 20; ++lane) {
    EXPECT_NE(out[lane] >> lane & 1ul, 0u) << lane;
    EXPECT_EQ(out[lane] & ~0xffffful, 0u) << lane;
  }
}

}  // namespace
