// Conformance: the collective algorithms (docs/spec/api-cooperative-groups.md,
// "Collective algorithms"): cg::reduce, cg::inclusive_scan and
// cg::exclusive_scan with every operator type (plus, less, greater,
// bit_and, bit_or, bit_xor) and custom operators (a function object and a
// lambda), over integer and floating-point types, on tiles of every size and
// on coalesced groups. Values are chosen so that floating-point results are
// exact whatever the combination order.
//
// The algorithms come from cooperative_groups/reduce.h and
// cooperative_groups/scan.h here, the headers api.coop.algo.header names.

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>

#include <string>

#include "conformance/api/cooperative_groups/execution/cg_test_support.h"
#include "conformance/testing/claimed.h"
#include "conformance/testing/spec.h"

namespace {

namespace cg = cooperative_groups;
using cg_test::Managed;
using cg_test::Pattern;

constexpr unsigned kThreads = 128;
// The group "size" that stands for a coalesced group of the even lanes.
constexpr unsigned kCoalesced = 0;

enum class Algorithm { kReduce, kInclusive, kExclusive };
enum class Operator {
  kPlus,
  kLess,
  kGreater,
  kBitAnd,
  kBitOr,
  kBitXor,
  kCustomFunctor,
  kCustomLambda,
  kDefault  // the scans without an operator: plus
};

// A user's operator: the larger operand (associative and commutative).
template <class T>
struct Larger {
  __host__ __device__ T operator()(const T& a, const T& b) const {
    return a < b ? b : a;
  }
};

// Thread `t`'s operand for operator `op`: small integers for arithmetic
// (sums stay exact in float), wide bit patterns for the bitwise operators,
// signed spreads for the comparisons.
template <class T>
__host__ __device__ T Operand(Operator op, unsigned t) {
  const unsigned long long bits = Pattern(t, 3);
  switch (op) {
    case Operator::kBitAnd:
    case Operator::kBitOr:
    case Operator::kBitXor:
      return static_cast<T>(bits);
    case Operator::kLess:
    case Operator::kGreater:
    case Operator::kCustomFunctor:
    case Operator::kCustomLambda: {
      const long long spread = static_cast<long long>(bits % 2001);
      return std::is_signed<T>::value ? static_cast<T>(spread - 1000)
                                      : static_cast<T>(spread);
    }
    default:
      return static_cast<T>(bits % 100 + 1);
  }
}

template <class T, class Group, class Op>
__device__ T Apply(Algorithm algorithm, const Group& group, T value, Op op) {
  switch (algorithm) {
    case Algorithm::kReduce:
      return cg::reduce(group, value, op);
    case Algorithm::kInclusive:
      return cg::inclusive_scan(group, value, op);
    case Algorithm::kExclusive:
      return cg::exclusive_scan(group, value, op);
  }
  return value;
}

template <class T, class Group>
__device__ T ApplyOperator(Algorithm algorithm, Operator op, const Group& group,
                           T value) {
  switch (op) {
    case Operator::kPlus:
      return Apply(algorithm, group, value, cg::plus<T>());
    case Operator::kLess:
      return Apply(algorithm, group, value, cg::less<T>());
    case Operator::kGreater:
      return Apply(algorithm, group, value, cg::greater<T>());
    case Operator::kCustomFunctor:
      return Apply(algorithm, group, value, Larger<T>());
    case Operator::kCustomLambda:
      return Apply(algorithm, group, value,
                   [](const T& a, const T& b) { return b < a ? b : a; });
    case Operator::kDefault:
      if (algorithm == Algorithm::kInclusive) {
        return cg::inclusive_scan(group, value);
      }
      if (algorithm == Algorithm::kExclusive) {
        return cg::exclusive_scan(group, value);
      }
      return cg::reduce(group, value, cg::plus<T>());
    default:
      break;
  }
  if constexpr (std::is_integral<T>::value) {
    switch (op) {
      case Operator::kBitAnd:
        return Apply(algorithm, group, value, cg::bit_and<T>());
      case Operator::kBitOr:
        return Apply(algorithm, group, value, cg::bit_or<T>());
      case Operator::kBitXor:
        return Apply(algorithm, group, value, cg::bit_xor<T>());
      default:
        break;
    }
  }
  return value;
}

// Every thread of the block runs the algorithm on its tile of N (N > 0), or
// the even lanes on their coalesced group (N == 0); results at the linear
// id.
template <class T, unsigned N>
__global__ void RunAlgorithm(Algorithm algorithm, Operator op, T* out) {
  cg::thread_block block = cg::this_thread_block();
  const unsigned t = static_cast<unsigned>(block.thread_rank());
  const T value = Operand<T>(op, t);
  if constexpr (N == kCoalesced) {
    if (t % 2 != 0) return;
    cg::coalesced_group group = cg::coalesced_threads();
    out[t] = ApplyOperator(algorithm, op, group, value);
  } else {
    cg::thread_block_tile<N> tile = cg::tiled_partition<N>(block);
    out[t] = ApplyOperator(algorithm, op, tile, value);
  }
}

template <class T>
void Launch(Algorithm algorithm, Operator op, unsigned group, T* out) {
  switch (group) {
    case 1:
      RunAlgorithm<T, 1><<<1, kThreads>>>(algorithm, op, out);
      break;
    case 2:
      RunAlgorithm<T, 2><<<1, kThreads>>>(algorithm, op, out);
      break;
    case 4:
      RunAlgorithm<T, 4><<<1, kThreads>>>(algorithm, op, out);
      break;
    case 8:
      RunAlgorithm<T, 8><<<1, kThreads>>>(algorithm, op, out);
      break;
    case 16:
      RunAlgorithm<T, 16><<<1, kThreads>>>(algorithm, op, out);
      break;
    case 32:
      RunAlgorithm<T, 32><<<1, kThreads>>>(algorithm, op, out);
      break;
    case 64:
      RunAlgorithm<T, 64><<<1, kThreads>>>(algorithm, op, out);
      break;
    default:
      RunAlgorithm<T, kCoalesced><<<1, kThreads>>>(algorithm, op, out);
      break;
  }
}

// The host's combination of two operands.
template <class T>
T Combine(Operator op, T a, T b) {
  switch (op) {
    case Operator::kPlus:
    case Operator::kDefault:
      return a + b;
    case Operator::kLess:
    case Operator::kCustomLambda:
      return b < a ? b : a;
    case Operator::kGreater:
    case Operator::kCustomFunctor:
      return a < b ? b : a;
    default:
      break;
  }
  if constexpr (std::is_integral<T>::value) {
    if (op == Operator::kBitAnd) return a & b;
    if (op == Operator::kBitOr) return a | b;
    if (op == Operator::kBitXor) return a ^ b;
  }
  return a;
}

enum class Type {
  kInt,
  kUnsigned,
  kLongLong,
  kUnsignedLongLong,
  kFloat,
  kDouble
};

const char* TypeName(Type type) {
  switch (type) {
    case Type::kInt:
      return "Int";
    case Type::kUnsigned:
      return "Unsigned";
    case Type::kLongLong:
      return "LongLong";
    case Type::kUnsignedLongLong:
      return "UnsignedLongLong";
    case Type::kFloat:
      return "Float";
    case Type::kDouble:
      return "Double";
  }
  return "?";
}

const char* OperatorName(Operator op) {
  switch (op) {
    case Operator::kPlus:
      return "Plus";
    case Operator::kLess:
      return "Less";
    case Operator::kGreater:
      return "Greater";
    case Operator::kBitAnd:
      return "BitAnd";
    case Operator::kBitOr:
      return "BitOr";
    case Operator::kBitXor:
      return "BitXor";
    case Operator::kCustomFunctor:
      return "CustomFunctor";
    case Operator::kCustomLambda:
      return "CustomLambda";
    case Operator::kDefault:
      return "DefaultOperator";
  }
  return "?";
}

struct AlgorithmCase {
  Type type;
  Operator op;
  unsigned group;  // a tile size, or kCoalesced
};

void PrintTo(const AlgorithmCase& c, std::ostream* os) {
  *os << TypeName(c.type) << "_" << OperatorName(c.op) << "_";
  if (c.group == kCoalesced) {
    *os << "CoalescedEvenLanes";
  } else {
    *os << "Tile" << c.group;
  }
}

// Which members (linear ids) form the group of thread `t`, in rank order:
// a coalesced group of the even lanes has those of the caller's wave.
std::vector<unsigned> MembersOf(unsigned group, unsigned t) {
  std::vector<unsigned> members;
  if (group == kCoalesced) {
    const unsigned lanes = mxcts::conformance::ClaimedWaveSize();
    const unsigned wave = t / lanes * lanes;
    for (unsigned lane = 0; lane < lanes; lane += 2)
      members.push_back(wave + lane);
  } else {
    for (unsigned r = 0; r < group; ++r)
      members.push_back(t / group * group + r);
  }
  return members;
}

template <class T>
void CheckAlgorithm(Algorithm algorithm, const AlgorithmCase& c) {
  Managed<T> out(kThreads, 0x5a);
  Launch<T>(algorithm, c.op, c.group, out.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (unsigned t = 0; t < kThreads; ++t) {
    if (c.group == kCoalesced && t % 2 != 0) continue;
    const std::vector<unsigned> members = MembersOf(c.group, t);
    unsigned rank = 0;
    while (members[rank] != t) ++rank;
    const unsigned last = algorithm == Algorithm::kReduce
                              ? static_cast<unsigned>(members.size()) - 1
                          : algorithm == Algorithm::kInclusive ? rank
                                                               : rank - 1;
    if (algorithm == Algorithm::kExclusive && rank == 0) {
      // [api.coop.algo.exclusive-scan-rank-zero] Unspecified: not checked.
      continue;
    }
    T expected = Operand<T>(c.op, members[0]);
    for (unsigned r = 1; r <= last; ++r) {
      expected = Combine<T>(c.op, expected, Operand<T>(c.op, members[r]));
    }
    ASSERT_EQ(out[t], expected) << "thread " << t << " rank " << rank;
  }
}

void CheckCase(Algorithm algorithm, const AlgorithmCase& c) {
  switch (c.type) {
    case Type::kInt:
      return CheckAlgorithm<int>(algorithm, c);
    case Type::kUnsigned:
      return CheckAlgorithm<unsigned>(algorithm, c);
    case Type::kLongLong:
      return CheckAlgorithm<long long>(algorithm, c);
    case Type::kUnsignedLongLong:
      return CheckAlgorithm<unsigned long long>(algorithm, c);
    case Type::kFloat:
      return CheckAlgorithm<float>(algorithm, c);
    case Type::kDouble:
      return CheckAlgorithm<double>(algorithm, c);
  }
}

std::vector<AlgorithmCase> Cases(bool with_default) {
  const Type types[] = {Type::kInt,      Type::kUnsigned,
                        Type::kLongLong, Type::kUnsignedLongLong,
                        Type::kFloat,    Type::kDouble};
  const unsigned groups[] = {1, 2, 4, 8, 16, 32, 64, kCoalesced};
  std::vector<AlgorithmCase> cases;
  for (Type type : types) {
    const bool integral = type != Type::kFloat && type != Type::kDouble;
    std::vector<Operator> ops = {Operator::kPlus, Operator::kLess,
                                 Operator::kGreater, Operator::kCustomFunctor,
                                 Operator::kCustomLambda};
    if (integral) {
      ops.insert(ops.end(),
                 {Operator::kBitAnd, Operator::kBitOr, Operator::kBitXor});
    }
    if (with_default) ops = {Operator::kDefault};
    for (Operator op : ops) {
      for (unsigned group : groups) cases.push_back({type, op, group});
    }
  }
  return cases;
}

struct CaseName {
  std::string operator()(
      const testing::TestParamInfo<AlgorithmCase>& info) const {
    return testing::PrintToString(info.param);
  }
};

class ReduceTest : public testing::TestWithParam<AlgorithmCase> {};

TEST_P(ReduceTest, EveryMemberGetsTheCombinationOfAll) {
  MX_SPEC("api.coop.algo.reduce", "api.coop.algo.operators",
          "api.coop.algo.header");
  CheckCase(Algorithm::kReduce, GetParam());
}

class ScanTest : public testing::TestWithParam<AlgorithmCase> {};

TEST_P(ScanTest, InclusiveScanCombinesRanksUpToTheCaller) {
  MX_SPEC("api.coop.algo.inclusive-scan", "api.coop.algo.operators");
  CheckCase(Algorithm::kInclusive, GetParam());
}

TEST_P(ScanTest, ExclusiveScanCombinesRanksBelowTheCaller) {
  MX_SPEC("api.coop.algo.exclusive-scan", "api.coop.algo.operators");
  CheckCase(Algorithm::kExclusive, GetParam());
}

class DefaultOperatorScanTest : public testing::TestWithParam<AlgorithmCase> {};

TEST_P(DefaultOperatorScanTest, InclusiveScanWithoutOperatorSums) {
  MX_SPEC("api.coop.algo.inclusive-scan");
  CheckCase(Algorithm::kInclusive, GetParam());
}

TEST_P(DefaultOperatorScanTest, ExclusiveScanWithoutOperatorSums) {
  MX_SPEC("api.coop.algo.exclusive-scan");
  CheckCase(Algorithm::kExclusive, GetParam());
}

// cooperative_groups.h, the spelling this file includes, declares what
// maca_cooperative_groups.h does.
__global__ void TileSumsThroughTheCudaSpelling(int* out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
  out[block.thread_rank()] =
      cg::reduce(tile, static_cast<int>(block.thread_rank()), cg::plus<int>());
}

TEST(CudaSpelling, DeclaresTheGroupsAndAlgorithms) {
  MX_SPEC("api.coop.header.cuda-spelling", "api.coop.algo.header");
  Managed<int> out(64);
  TileSumsThroughTheCudaSpelling<<<1, 64>>>(out.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (int t = 0; t < 64; ++t) {
    const int first = t / 16 * 16;
    EXPECT_EQ(out[t], 16 * first + 120) << t;
  }
}

INSTANTIATE_TEST_SUITE_P(TypesOperatorsGroups, ReduceTest,
                         testing::ValuesIn(Cases(false)), CaseName());
INSTANTIATE_TEST_SUITE_P(TypesOperatorsGroups, ScanTest,
                         testing::ValuesIn(Cases(false)), CaseName());
INSTANTIATE_TEST_SUITE_P(TypesGroups, DefaultOperatorScanTest,
                         testing::ValuesIn(Cases(true)), CaseName());

}  // namespace
