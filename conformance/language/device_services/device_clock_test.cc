// Conformance: the device clock and the control intrinsics
// (docs/spec/lang-device-services.md, "Clock and control"): clock64() and
// clock() increase, __nanosleep returns and advances the clock, a wait
// loop ends, the reference's counting of reads, and __trap / __brkpt stop
// the grid with mcErrorLaunchFailure (each beside a control that does not
// call them).

#include <mc_runtime.h>

#include "conformance/language/synchronization/device_indices.h"
#include "conformance/language/synchronization/managed_array.h"
#include "conformance/testing/spec.h"
#include "conformance/testing/trap_expectation.h"

namespace {

using ::mxcts::conformance::GlobalLinearThread;
using ::mxcts::conformance::ManagedArray;

constexpr int kReadsPerThread = 4;

// Each thread reads clock64() kReadsPerThread times, in the order the
// threads run on the reference (one after another within a block).
__global__ void ReadClock64(long long* values) {
  const unsigned g = GlobalLinearThread();
  for (int i = 0; i < kReadsPerThread; ++i) {
    values[g * kReadsPerThread + i] = clock64();
  }
}

TEST(DeviceClock, Clock64IncreasesWithinAThread) {
  MX_SPEC("lang.clock.clock64-strictly-increasing");
  const unsigned threads = 2 * 70;
  ManagedArray<long long> values(threads * kReadsPerThread, 0);
  ASSERT_TRUE(values.ok());
  ReadClock64<<<2, 70>>>(values.data());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (unsigned g = 0; g < threads; ++g) {
    for (int i = 1; i < kReadsPerThread; ++i) {
      EXPECT_GT(values[g * kReadsPerThread + i],
                values[g * kReadsPerThread + i - 1])
          << "thread " << g << " read " << i;
    }
  }
  // A second grid, which runs after the first, reads later values.
  ManagedArray<long long> later(kReadsPerThread, 0);
  ASSERT_TRUE(later.ok());
  ReadClock64<<<1, 1>>>(later.data());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (unsigned i = 0; i < threads * kReadsPerThread; ++i) {
    EXPECT_GT(later[0], values[i]) << i;
  }
}

// The reference's counter: consecutive reads differ by one, a sleep adds its
// argument, clock() reads the same counter.
__global__ void CountReads(long long* deltas) {
  const long long first = clock64();
  const long long second = clock64();
  __nanosleep(250);
  const long long after_sleep = clock64();
  const long long as_clock = static_cast<long long>(clock());
  const long long last = clock64();
  deltas[0] = second - first;
  deltas[1] = after_sleep - second;
  deltas[2] = as_clock - after_sleep;
  deltas[3] = last - as_clock;
}

TEST(DeviceClock, ReferenceCountsReadsAndSleeps) {
  MX_SPEC("lang.clock.reference-counts-reads",
          "lang.clock.clock-reads-same-counter",
          "lang.clock.nanosleep-advances-clock");
  ManagedArray<long long> deltas(4, 0);
  ASSERT_TRUE(deltas.ok());
  CountReads<<<1, 1>>>(deltas.data());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(deltas[0], 1);
  EXPECT_EQ(deltas[1], 251);
  EXPECT_EQ(deltas[2], 1);
  EXPECT_EQ(deltas[3], 1);
}

// Waits with clock64 until `cycles` have passed, sleeping in between; counts
// the iterations.
__global__ void WaitForCycles(long long cycles, long long* iterations) {
  const long long start = clock64();
  long long count = 0;
  while (clock64() - start < cycles) {
    __nanosleep(10);
    ++count;
  }
  *iterations = count;
}

TEST(DeviceClock, WaitLoopEnds) {
  MX_SPEC("lang.clock.nanosleep-advances-clock",
          "lang.clock.clock64-strictly-increasing");
  ManagedArray<long long> iterations(1, -1);
  ASSERT_TRUE(iterations.ok());
  WaitForCycles<<<1, 1>>>(100000, iterations.data());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  // Each iteration advances the clock by at least its sleep.
  EXPECT_GT(iterations[0], 0);
  EXPECT_LE(iterations[0], 100000 / 10 + 1);
}

// Thread `victim` of block 1 calls the intrinsic when `call` is set; every
// thread that gets past it records that it did.
enum class Stop { kTrap, kBreakpoint };

__global__ void StopOneThread(Stop how, bool call, int* passed) {
  const unsigned g = GlobalLinearThread();
  if (call && blockIdx.x == 1 && threadIdx.x == 3) {
    if (how == Stop::kTrap) {
      __trap();
    } else {
      __brkpt();
    }
  }
  passed[g] = 1;
}

mcError_t LaunchStop(Stop how, bool call) {
  ManagedArray<int> passed(2 * 8, 0);
  if (!passed.ok()) return mcErrorMemoryAllocation;
  StopOneThread<<<2, 8>>>(how, call, passed.data());
  const mcError_t result = mcDeviceSynchronize();
  // The trapping thread never gets past the intrinsic.
  if (call && passed[8 + 3] != 0) return mcErrorUnknown;
  return result;
}

TEST(DeviceTrap, TrapStopsTheGrid) {
  MX_SPEC("lang.trap.stops-grid");
  MX_EXPECT_TRAP(LaunchStop(Stop::kTrap, true), mcErrorLaunchFailure,
                 "kernel '.*StopOneThread.*' block \\(1,0,0\\) thread "
                 "\\(3,0,0\\).*__trap\\(\\) called");
}

TEST(DeviceTrap, BrkptStopsTheGridWithoutADebugger) {
  MX_SPEC("lang.trap.brkpt-without-debugger");
  MX_EXPECT_TRAP(LaunchStop(Stop::kBreakpoint, true), mcErrorLaunchFailure,
                 "kernel '.*StopOneThread.*' block \\(1,0,0\\) thread "
                 "\\(3,0,0\\).*__brkpt\\(\\)");
}

TEST(DeviceTrap, GridThatDoesNotCallThemRuns) {
  MX_SPEC("lang.trap.stops-grid", "lang.trap.brkpt-without-debugger");
  // Control of the two above: the same kernels with the call skipped.
  EXPECT_EQ(LaunchStop(Stop::kTrap, false), mcSuccess);
  EXPECT_EQ(LaunchStop(Stop::kBreakpoint, false), mcSuccess);
}

}  // namespace
