// Copyright mxcts authors.
//
// Conformance: how the blocks of a grid are scheduled and when a grid is
// complete (docs/spec/model.md, "Execution model"): blocks are
// independent, their order is unspecified, and a grid is complete when all
// its threads are done (with its child grids: child_grid_completion_test).
//
// The target also runs in the engine's shuffled order, where blocks run
// in a permuted order: an order-independent kernel must give the same
// result in both. Blocks take a ticket (an atomic counter) when they
// start, which names them by start order whatever that order is.

#include <mc_runtime.h>

#include <string>
#include <vector>

#include "conformance/testing/capabilities.h"
#include "conformance/testing/fresh_process.h"
#include "conformance/testing/managed_buffer.h"
#include "conformance/testing/spec.h"
#include "conformance/testing/trap_expectation.h"

namespace mxcts::conformance {
namespace {

// --- Independent blocks: a result that does not depend on the order. ---

// Each block sums its slice of `in` into out[block] and adds it to
// *total; thread 0 takes a ticket. `skip` names a block that does nothing
// (the control), or is negative.
__global__ void SumSlices(const unsigned* in, unsigned* out,
                          unsigned long long* total, unsigned* tickets,
                          unsigned* next_ticket, int skip) {
  if (static_cast<int>(blockIdx.x) == skip) return;
  __shared__ unsigned partial;
  if (threadIdx.x == 0) {
    partial = 0;
    tickets[blockIdx.x] = atomicAdd(next_ticket, 1u);
  }
  __syncthreads();
  atomicAdd(&partial, in[blockIdx.x * blockDim.x + threadIdx.x]);
  __syncthreads();
  if (threadIdx.x == 0) {
    out[blockIdx.x] = partial;
    atomicAdd(total, static_cast<unsigned long long>(partial));
  }
}

constexpr unsigned kBlocks = 37;
constexpr unsigned kThreads = 96;

// Runs SumSlices and returns what differs from the sequential sums.
std::string SumAndCheck(int skip) {
  const unsigned n = kBlocks * kThreads;
  ManagedBuffer<unsigned> in(n, 0);
  ManagedBuffer<unsigned> out(kBlocks, 0xff);
  ManagedBuffer<unsigned long long> total(1, 0);
  ManagedBuffer<unsigned> tickets(kBlocks, 0xff);
  ManagedBuffer<unsigned> next(1, 0);
  for (unsigned i = 0; i < n; ++i) in[i] = i * 2654435761u % 1000;
  SumSlices<<<kBlocks, kThreads>>>(in.get(), out.get(), total.get(),
                                   tickets.get(), next.get(), skip);
  if (mcDeviceSynchronize() != mcSuccess) return "the kernel failed";
  std::string problems;
  unsigned long long expected_total = 0;
  std::vector<bool> ticket_seen(kBlocks, false);
  for (unsigned b = 0; b < kBlocks; ++b) {
    unsigned sum = 0;
    for (unsigned t = 0; t < kThreads; ++t) sum += in[b * kThreads + t];
    expected_total += sum;
    if (out[b] != sum) {
      problems += "block " + std::to_string(b) + " summed " +
                  std::to_string(out[b]) + "; ";
    }
    if (tickets[b] < kBlocks) ticket_seen[tickets[b]] = true;
  }
  if (total[0] != expected_total) problems += "wrong total; ";
  for (unsigned t = 0; t < kBlocks; ++t) {
    if (!ticket_seen[t])
      problems += "ticket " + std::to_string(t) + " unused; ";
  }
  return problems;
}

TEST(IndependentBlocks, ResultDoesNotDependOnTheOrder) {
  MX_SPEC("model.exec.blocks-independent");
  EXPECT_EQ(SumAndCheck(-1), "");
  // A second launch runs in another (shuffled) order where the engine
  // permutes: the same result.
  EXPECT_EQ(SumAndCheck(-1), "");
}

TEST(IndependentBlocks, ControlMissingBlockIsCaught) {
  MX_SPEC("model.exec.blocks-independent");
  EXPECT_NE(SumAndCheck(5), "");
}

// --- Waiting for another block: the order is not guaranteed. ---

// The block that starts first (ticket 0) waits for a flag; the block that
// starts second sets it. With `first_waits` false, the second block waits
// for the first one's flag instead (the control, which never needs two
// blocks at once).
__global__ void WaitForOtherBlock(unsigned* next_ticket, volatile int* flags,
                                  bool first_waits) {
  if (threadIdx.x != 0) return;
  const unsigned ticket = atomicAdd(next_ticket, 1u);
  if (first_waits) {
    if (ticket == 0) {
      while (flags[1] == 0) {
      }
    } else if (ticket == 1) {
      flags[1] = 1;
    }
  } else {
    if (ticket == 0) {
      flags[0] = 1;
    } else if (ticket == 1) {
      while (flags[0] == 0) {
      }
    }
  }
}

mcError_t RunWaitForOtherBlock(bool first_waits) {
  unsigned* next = nullptr;
  int* flags = nullptr;
  if (mcMallocManaged(&next, sizeof(unsigned)) != mcSuccess ||
      mcMallocManaged(&flags, 2 * sizeof(int)) != mcSuccess) {
    return mcErrorUnknown;
  }
  *next = 0;
  flags[0] = flags[1] = 0;
  WaitForOtherBlock<<<4, 32>>>(next, flags, first_waits);
  return mcDeviceSynchronize();
}

// The reference runs blocks one after another: the first block's wait
// never ends, and the kernel timeout stops the grid.
TEST(BlockOrder, WaitingForALaterBlockNeverEndsOnTheReference) {
  MX_SPEC("model.exec.block-order-unspecified",
          "lang.ub.sync.inter-block-spin-wait");
  MX_REQUIRE_CAPABILITY("kernel_timeout");
  ScopedEnvironment timeout("MACA_KERNEL_TIMEOUT", "200");
  MX_EXPECT_TRAP(RunWaitForOtherBlock(true), mcErrorLaunchTimeout,
                 "WaitForOtherBlock.*kernel ran longer than "
                 "MACA_KERNEL_TIMEOUT=200 ms");
}

TEST(BlockOrder, ControlWaitingForAnEarlierBlockEnds) {
  MX_SPEC("model.exec.block-order-unspecified");
  MX_REQUIRE_CAPABILITY("kernel_timeout");
  ScopedEnvironment timeout("MACA_KERNEL_TIMEOUT", "200");
  MX_EXPECT_HOLDS_IN_FRESH_PROCESS(RunWaitForOtherBlock(false) == mcSuccess);
}

// --- A grid is complete when all its threads are done. ---

// Thread i works i % 17 rounds, then marks its cell; threads whose id is a
// multiple of 5 count themselves and return early, after marking. `lost`
// names a thread that returns without marking (the control), or is
// negative.
__global__ void FinishAtDifferentTimes(unsigned* cells, unsigned* early,
                                       int lost) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (static_cast<int>(i) == lost) return;
  if (i % 5 == 0) {
    cells[i] = i + 1;
    atomicAdd(early, 1u);
    return;
  }
  unsigned value = i;
  for (unsigned round = 0; round < i % 17; ++round) {
    value = value * 1103515245u + 12345u;
  }
  cells[i] = value == 0 ? 1 : i + 1;
}

std::string RunToCompletion(int lost) {
  const unsigned blocks = 6;
  const unsigned threads = 70;
  const unsigned n = blocks * threads;
  ManagedBuffer<unsigned> cells(n, 0);
  ManagedBuffer<unsigned> early(1, 0);
  mcEvent_t done = nullptr;
  if (mcEventCreate(&done) != mcSuccess) return "mcEventCreate failed";
  FinishAtDifferentTimes<<<blocks, threads>>>(cells.get(), early.get(), lost);
  mcEventRecord(done, 0);
  std::string problems;
  if (mcEventSynchronize(done) != mcSuccess) problems += "the grid failed; ";
  mcEventDestroy(done);
  unsigned expected_early = 0;
  for (unsigned i = 0; i < n; ++i) {
    if (i % 5 == 0 && static_cast<int>(i) != lost) ++expected_early;
    if (cells[i] != i + 1) {
      problems += "thread " + std::to_string(i) + " not done; ";
    }
  }
  if (early[0] != expected_early) problems += "early exits lost; ";
  return problems;
}

TEST(GridCompletion, EveryThreadIsDoneWhenTheGridIs) {
  MX_SPEC("model.exec.grid-complete-when-all-threads-exit");
  EXPECT_EQ(RunToCompletion(-1), "");
}

TEST(GridCompletion, ControlThreadThatSkipsItsWorkIsCaught) {
  MX_SPEC("model.exec.grid-complete-when-all-threads-exit");
  EXPECT_NE(RunToCompletion(131), "");
}

}  // namespace
}  // namespace mxcts::conformance
