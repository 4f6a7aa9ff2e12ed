// Copyright mxcts authors.
//
// Conformance: SIMT execution (docs/spec/model.md, "Execution model"): each
// thread follows its own path through data-dependent branches and gets the
// result its own sequential execution gives, whatever the grouping into
// waves; lanes do not run in lockstep.
//
// The divergent kernel gives every thread a different number of trips
// through loops and branches; the host computes each thread's result with
// the same function run sequentially. Controls: a kernel that forces every
// lane onto lane 0's path (what lockstep without divergence would do) is
// caught by the same check, and a kernel that uses a wave collective, the
// clause's exception, does see the grouping.

#include <mc_runtime.h>

#include <ostream>
#include <string>
#include <vector>

#include "conformance/testing/capabilities.h"
#include "conformance/testing/managed_buffer.h"
#include "conformance/testing/printed_param_name.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

// A data-dependent computation: Collatz steps (capped), then a branch on
// the parity of the count. Host and device run the same code.
__host__ __device__ unsigned PathOf(unsigned x) {
  unsigned steps = 0;
  while (x != 1 && steps < 200) {
    x = (x % 2 == 0) ? x / 2 : 3 * x + 1;
    ++steps;
  }
  if (steps % 2 == 0) return steps * 7 + 1;
  unsigned sum = 0;
  for (unsigned i = 0; i < steps % 13; ++i) sum += i * steps;
  return sum;
}

__host__ __device__ unsigned InputOf(unsigned i) { return i * 37 + 5; }

__device__ unsigned GlobalId() { return blockIdx.x * blockDim.x + threadIdx.x; }

// Each thread computes PathOf its own input; with `lane0_path` every lane
// takes the branch lane 0 takes instead (the control).
__global__ void Divergent(unsigned n, bool lane0_path, unsigned* out) {
  const unsigned i = GlobalId();
  if (i >= n) return;
  unsigned x = InputOf(i);
  if (lane0_path) {
    const unsigned long long active = __activemask();
    x = __shfl_sync(active, x, __ffsll(static_cast<long long>(active)) - 1);
  }
  out[i] = PathOf(x);
}

// The control kernel of the exception: a wave collective's result (how
// many threads of my wave have an odd input) depends on the grouping.
__global__ void CountOddInMyWave(unsigned n, unsigned* out) {
  const unsigned i = GlobalId();
  const bool odd = i < n && InputOf(i) % 2 == 1;
  const unsigned long long votes = __ballot_sync(__activemask(), odd);
  if (i < n) out[i] = __popcll(votes);
}

std::vector<unsigned> Expected(unsigned n) {
  std::vector<unsigned> expected(n);
  for (unsigned i = 0; i < n; ++i) expected[i] = PathOf(InputOf(i));
  return expected;
}

// The grouping of kThreads threads into blocks of `block` threads.
struct Grouping {
  const char* name;
  unsigned block;
};

void PrintTo(const Grouping& grouping, std::ostream* os) {
  *os << grouping.name;
}

constexpr unsigned kThreads = 480;

unsigned BlocksFor(unsigned block) { return (kThreads + block - 1) / block; }

// The threads (up to 5) whose result differs from `expected`.
std::string Mismatches(const unsigned* out,
                       const std::vector<unsigned>& expected) {
  std::string problems;
  int reported = 0;
  for (unsigned i = 0; i < expected.size() && reported < 5; ++i) {
    if (out[i] != expected[i]) {
      problems += "thread " + std::to_string(i) + " got " +
                  std::to_string(out[i]) + ", sequentially " +
                  std::to_string(expected[i]) + "; ";
      ++reported;
    }
  }
  return problems;
}

class Simt : public testing::TestWithParam<Grouping> {};

TEST_P(Simt, EveryThreadGetsItsSequentialResult) {
  MX_SPEC("model.exec.simt-independent-threads",
          "model.exec.divergence-does-not-change-results");
  const unsigned block = GetParam().block;
  ManagedBuffer<unsigned> out(kThreads, 0xff);
  Divergent<<<BlocksFor(block), block>>>(kThreads, false, out.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(Mismatches(out.get(), Expected(kThreads)), "");
}

TEST_P(Simt, ControlLockstepOnLaneZerosPathIsCaught) {
  MX_SPEC("model.exec.simt-independent-threads");
  const unsigned block = GetParam().block;
  ManagedBuffer<unsigned> out(kThreads, 0xff);
  Divergent<<<BlocksFor(block), block>>>(kThreads, true, out.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  if (block == 1) {
    // Every lane is lane 0 of its own wave: the same results.
    EXPECT_EQ(Mismatches(out.get(), Expected(kThreads)), "");
  } else {
    EXPECT_NE(Mismatches(out.get(), Expected(kThreads)), "");
  }
}

INSTANTIATE_TEST_SUITE_P(
    Groupings, Simt,
    testing::Values(Grouping{"OneBlockOf480", 480}, Grouping{"BlocksOf96", 96},
                    Grouping{"BlocksOf64", 64}, Grouping{"BlocksOf60", 60},
                    Grouping{"BlocksOf32", 32}, Grouping{"BlocksOf7", 7},
                    Grouping{"BlocksOf1", 1}, Grouping{"BlocksOf1024", 1024}),
    PrintedParamName());

TEST(SimtControl, WaveCollectiveSeesTheGrouping) {
  MX_SPEC("model.exec.divergence-does-not-change-results");
  ManagedBuffer<unsigned> whole(kThreads, 0xff);
  ManagedBuffer<unsigned> single(kThreads, 0xff);
  CountOddInMyWave<<<BlocksFor(480), 480>>>(kThreads, whole.get());
  CountOddInMyWave<<<BlocksFor(1), 1>>>(kThreads, single.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  std::vector<unsigned> from_single(single.get(), single.get() + kThreads);
  EXPECT_NE(Mismatches(whole.get(), from_single), "");
}

// --- No lockstep: a lane sees another lane's write only after a sync. ---

// Lane i writes its slot, then reads the slot of lane i ^ 1; with
// `sync` a __syncwave separates the write from the read.
__global__ void ReadNeighbour(bool sync, int* slots, int* seen) {
  const unsigned lane = threadIdx.x;
  slots[lane] = static_cast<int>(lane) + 1;
  if (sync) __syncwave();
  seen[lane] = *static_cast<volatile int*>(&slots[lane ^ 1]);
}

TEST(NoLockstep, NeighbourWriteSeenAfterSyncwave) {
  MX_SPEC("model.exec.no-lockstep-assumption");
  ManagedBuffer<int> slots(64, 0);
  ManagedBuffer<int> seen(64, 0xff);
  ReadNeighbour<<<1, 64>>>(true, slots.get(), seen.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (int lane = 0; lane < 64; ++lane) {
    EXPECT_EQ(seen[lane], (lane ^ 1) + 1) << "lane " << lane;
  }
}

// The reference runs the lanes of a wave one after another between
// synchronization points, in lane order: without the __syncwave, each even
// lane reads its higher neighbour's slot before that lane has written it.
TEST(NoLockstep, ReferenceRunsLanesOneAfterAnother) {
  MX_SPEC("model.exec.no-lockstep-assumption");
  // The order is the reference's schedule; hardware that runs a wave's
  // lanes together sees the neighbour's write without the __syncwave.
  MX_REQUIRE_CAPABILITY("reference_choices");
  ManagedBuffer<int> slots(64, 0);
  ManagedBuffer<int> seen(64, 0xff);
  ReadNeighbour<<<1, 64>>>(false, slots.get(), seen.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (int lane = 0; lane < 64; ++lane) {
    EXPECT_EQ(seen[lane], lane % 2 == 0 ? 0 : lane) << "lane " << lane;
  }
}

}  // namespace
}  // namespace mxcts::conformance
