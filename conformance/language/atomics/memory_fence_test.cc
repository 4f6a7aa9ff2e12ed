// Conformance: __threadfence_block(), __threadfence() and
// __threadfence_system(): the runtime guide's single-pass sum, where the
// last block to draw a ticket reads every block's partial result; the
// outcomes of fence-ordered message passing inside a block, across blocks
// and with a host thread; fences in divergent code
// (docs/spec/lang-memory-fences.md, docs/spec/lang-atomics.md "Ordering").

#include <mc_runtime.h>

#include <algorithm>
#include <atomic>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "conformance/language/atomics/atomic_testing.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance::atomics {
namespace {

enum class Fence { kBlock, kDevice, kSystem };

std::string FenceName(Fence fence) {
  switch (fence) {
    case Fence::kBlock:
      return "ThreadfenceBlock";
    case Fence::kDevice:
      return "Threadfence";
    case Fence::kSystem:
      return "ThreadfenceSystem";
  }
  return "Unknown";
}

__device__ void ApplyFence(Fence fence) {
  switch (fence) {
    case Fence::kBlock:
      __threadfence_block();
      break;
    case Fence::kDevice:
      __threadfence();
      break;
    case Fence::kSystem:
      __threadfence_system();
      break;
  }
}

// --------------------------------------------------------------------------
// The last block finishes the sum.
// --------------------------------------------------------------------------

__device__ unsigned int finished_blocks = 0;

// Each block sums its slice of `input` into partial[blockIdx.x] through a
// volatile pointer, fences, and draws a ticket; the block that draws
// gridDim.x - 1 sums the partial results. Every thread of that block also
// copies the partial results it reads into `observed`, and its thread 0
// counts itself in `last_blocks` and resets the ticket counter.
__global__ void SumWithLastBlock(Fence fence, const float* input, unsigned n,
                                 volatile float* partial, float* total,
                                 unsigned* tickets, float* observed,
                                 unsigned* last_blocks) {
  extern __shared__ float staged[];
  __shared__ bool is_last_block_done;
  const unsigned i = GridThreadId();
  staged[threadIdx.x] = i < n ? input[i] : 0.0f;
  __syncthreads();
  if (threadIdx.x == 0) {
    float sum = 0;
    for (unsigned t = 0; t < blockDim.x; ++t) sum += staged[t];
    partial[blockIdx.x] = sum;
    ApplyFence(fence);
    const unsigned value = atomicInc(&finished_blocks, gridDim.x);
    tickets[blockIdx.x] = value;
    is_last_block_done = (value == gridDim.x - 1);
  }
  __syncthreads();
  if (is_last_block_done) {
    for (unsigned b = threadIdx.x; b < gridDim.x; b += blockDim.x) {
      observed[b] = partial[b];
    }
    if (threadIdx.x == 0) {
      float sum = 0;
      for (unsigned b = 0; b < gridDim.x; ++b) sum += partial[b];
      *total = sum;
      atomicAdd(last_blocks, 1u);
      finished_blocks = 0;
    }
  }
}

using SumParam = std::tuple<unsigned, unsigned, Fence>;  // blocks, threads

class LastBlockSumTest : public ::testing::TestWithParam<SumParam> {};

TEST_P(LastBlockSumTest, LastBlockSeesEveryPartialResult) {
  MX_SPEC("lang.fence.pattern.last-block-sees-all-partials",
          "lang.fence.device.orders-writes-for-device",
          "lang.fence.system.orders-writes-for-system",
          "lang.fence.scope.wider-fence-implies-narrower",
          "lang.fence.volatile.not-cached",
          "lang.atomic.ordering.fence-before-publish",
          "lang.atomic.inc.ticket-pattern");
  const auto& [blocks, threads, fence] = GetParam();
  const unsigned n = blocks * threads;
  ManagedArray<float> input(n);
  ManagedArray<float> partial(blocks);
  ManagedArray<float> total(1);
  ManagedArray<unsigned> tickets(blocks);
  ManagedArray<float> observed(blocks);
  ManagedArray<unsigned> last_blocks(1);
  ASSERT_TRUE(input.ok() && partial.ok() && total.ok() && tickets.ok() &&
              observed.ok() && last_blocks.ok());
  std::vector<float> expected_partial(blocks, 0.0f);
  float expected_total = 0;
  for (unsigned i = 0; i < n; ++i) {
    input[i] = static_cast<float>(i % 17);
    expected_partial[i / threads] += input[i];
    expected_total += input[i];
  }
  // Twice: the last block resets the counter for the next launch.
  for (int launch = 0; launch < 2; ++launch) {
    for (unsigned b = 0; b < blocks; ++b) observed[b] = -1;
    last_blocks[0] = 0;
    SumWithLastBlock<<<blocks, threads, threads * sizeof(float)>>>(
        fence, input.get(), n, partial.get(), total.get(), tickets.get(),
        observed.get(), last_blocks.get());
    ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
    EXPECT_EQ(total[0], expected_total) << "launch " << launch;
    EXPECT_EQ(last_blocks[0], 1u) << "launch " << launch;
    std::vector<unsigned> drawn(tickets.get(), tickets.get() + blocks);
    std::sort(drawn.begin(), drawn.end());
    for (unsigned b = 0; b < blocks; ++b) {
      EXPECT_EQ(drawn[b], b) << "launch " << launch;
      EXPECT_EQ(observed[b], expected_partial[b])
          << "launch " << launch << ": the last block read a stale partial "
          << "result of block " << b;
    }
  }
  unsigned counter = ~0u;
  ASSERT_EQ(mcMemcpyFromSymbol(&counter, finished_blocks, sizeof(counter)),
            mcSuccess);
  EXPECT_EQ(counter, 0u);
}

INSTANTIATE_TEST_SUITE_P(
    GridShapes, LastBlockSumTest,
    ::testing::Combine(::testing::Values(1u, 2u, 3u, 8u, 33u, 64u, 130u),
                       ::testing::Values(1u, 64u, 256u),
                       ::testing::Values(Fence::kDevice, Fence::kSystem)),
    [](const ::testing::TestParamInfo<SumParam>& info) {
      return std::to_string(std::get<0>(info.param)) + "x" +
             std::to_string(std::get<1>(info.param)) + "_" +
             FenceName(std::get<2>(info.param));
    });

// --------------------------------------------------------------------------
// Message passing: X = 10; fence; Y = 20 against b = Y; fence; a = X.
// --------------------------------------------------------------------------

// Where the writer and the reader are, and which of them comes first in
// linear order.
struct Placement {
  const char* name;
  unsigned writer_block, writer_thread;
  unsigned reader_block, reader_thread;
  bool same_block;
};

const Placement kPlacements[] = {
    {"SameWaveWriterFirst", 0, 0, 0, 63, true},
    {"SameWaveReaderFirst", 0, 63, 0, 0, true},
    {"OtherWaveOfBlock", 0, 3, 0, 100, true},
    {"OtherBlockWriterFirst", 0, 7, 1, 7, false},
    {"OtherBlockReaderFirst", 1, 0, 0, 127, false},
};

__global__ void PassMessage(Fence fence, Placement where, volatile int* x,
                            volatile int* y, int* observed) {
  if (blockIdx.x == where.writer_block && threadIdx.x == where.writer_thread) {
    *x = 10;
    ApplyFence(fence);
    *y = 20;
  }
  if (blockIdx.x == where.reader_block && threadIdx.x == where.reader_thread) {
    const int b = *y;
    ApplyFence(fence);
    const int a = *x;
    observed[0] = a;
    observed[1] = b;
  }
}

// The outcomes the fences permit, starting from X = 1, Y = 2.
bool IsPermittedOutcome(int a, int b) {
  return (a == 1 && b == 2) || (a == 10 && b == 2) || (a == 10 && b == 20);
}

TEST(MessagePassingCheck, RejectsNewFlagWithOldData) {
  MX_SPEC("lang.fence.observable.outcomes-with-fences");
  EXPECT_TRUE(IsPermittedOutcome(10, 20));
  EXPECT_FALSE(IsPermittedOutcome(1, 20));
}

using MessageParam = std::tuple<Fence, Placement>;

class MessagePassingTest : public ::testing::TestWithParam<MessageParam> {};

TEST_P(MessagePassingTest, ReaderNeverSeesNewFlagWithOldData) {
  MX_SPEC("lang.fence.observable.outcomes-with-fences",
          "lang.fence.block.orders-writes-for-block",
          "lang.fence.block.equivalent-seq-cst-block-scope",
          "lang.fence.device.orders-writes-for-device",
          "lang.fence.device.equivalent-seq-cst-device-scope",
          "lang.fence.system.equivalent-seq-cst-system-scope",
          "lang.fence.scope.wider-fence-implies-narrower");
  const auto& [fence, where] = GetParam();
  ManagedArray<int> x(1, 1);
  ManagedArray<int> y(1, 2);
  ManagedArray<int> observed(2, -1);
  ASSERT_TRUE(x.ok() && y.ok() && observed.ok());
  PassMessage<<<2, 128>>>(fence, where, x.get(), y.get(), observed.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_TRUE(IsPermittedOutcome(observed[0], observed[1]))
      << "(a, b) = (" << observed[0] << ", " << observed[1] << ")";
  EXPECT_EQ(x[0], 10);
  EXPECT_EQ(y[0], 20);
}

std::vector<MessageParam> MessageCases() {
  std::vector<MessageParam> cases;
  for (Fence fence : {Fence::kBlock, Fence::kDevice, Fence::kSystem}) {
    for (const Placement& where : kPlacements) {
      // A block fence says nothing to a reader in another block.
      if (fence == Fence::kBlock && !where.same_block) continue;
      cases.emplace_back(fence, where);
    }
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(
    Placements, MessagePassingTest, ::testing::ValuesIn(MessageCases()),
    [](const ::testing::TestParamInfo<MessageParam>& info) {
      return FenceName(std::get<0>(info.param)) + "_" +
             std::get<1>(info.param).name;
    });

// --------------------------------------------------------------------------
// Reads on either side of a fence.
// --------------------------------------------------------------------------

// The writer raises X through 1..4 with fences between; the reader reads X
// before and after its fence. The second read is never older.
__global__ void ReadAcrossFence(Fence fence, Placement where, volatile int* x,
                                int* reads) {
  if (blockIdx.x == where.writer_block && threadIdx.x == where.writer_thread) {
    for (int v = 1; v <= 4; ++v) {
      *x = v;
      ApplyFence(fence);
    }
  }
  if (blockIdx.x == where.reader_block && threadIdx.x == where.reader_thread) {
    reads[0] = *x;
    ApplyFence(fence);
    reads[1] = *x;
  }
}

class ReadOrderTest : public ::testing::TestWithParam<MessageParam> {};

TEST_P(ReadOrderTest, ReadAfterFenceIsNotOlder) {
  MX_SPEC("lang.fence.block.orders-reads",
          "lang.fence.device.equivalent-seq-cst-device-scope");
  const auto& [fence, where] = GetParam();
  ManagedArray<int> x(1, 0);
  ManagedArray<int> reads(2, -1);
  ASSERT_TRUE(x.ok() && reads.ok());
  ReadAcrossFence<<<2, 128>>>(fence, where, x.get(), reads.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_GE(reads[0], 0);
  EXPECT_LE(reads[1], 4);
  EXPECT_LE(reads[0], reads[1]);
}

INSTANTIATE_TEST_SUITE_P(
    Placements, ReadOrderTest, ::testing::ValuesIn(MessageCases()),
    [](const ::testing::TestParamInfo<MessageParam>& info) {
      return FenceName(std::get<0>(info.param)) + "_" +
             std::get<1>(info.param).name;
    });

// --------------------------------------------------------------------------
// A fence is not a barrier.
// --------------------------------------------------------------------------

// Only threads whose index is a multiple of `stride` fence; everyone then
// counts itself. Other threads may have exited already.
__global__ void FenceInDivergentCode(Fence fence, unsigned stride,
                                     unsigned* count) {
  if (threadIdx.x % stride == 0) {
    ApplyFence(fence);
    ApplyFence(fence);
  }
  if (threadIdx.x % 2 == 1) return;
  atomicAdd(count, 1u);
}

using DivergentParam = std::tuple<Fence, Shape, unsigned>;

class FenceDivergenceTest : public ::testing::TestWithParam<DivergentParam> {};

TEST_P(FenceDivergenceTest, FencesInSomeThreadsDoNotWaitForOthers) {
  MX_SPEC("lang.fence.usable-in-divergent-code",
          "lang.fence.not-a-barrier.does-not-wait");
  const auto& [fence, shape, stride] = GetParam();
  ManagedArray<unsigned> count(1, 0u);
  ASSERT_TRUE(count.ok());
  FenceInDivergentCode<<<shape.blocks, shape.threads>>>(fence, stride,
                                                        count.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(count[0], shape.blocks * ((shape.threads + 1) / 2));
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, FenceDivergenceTest,
    ::testing::Combine(::testing::Values(Fence::kBlock, Fence::kDevice,
                                         Fence::kSystem),
                       ::testing::Values(Shape{1, 1}, Shape{1, 65},
                                         Shape{3, 256}, Shape{1, 1024}),
                       ::testing::Values(1u, 3u, 1024u)),
    [](const ::testing::TestParamInfo<DivergentParam>& info) {
      return FenceName(std::get<0>(info.param)) + "_" +
             ShapeName(std::get<1>(info.param)) + "_Every" +
             std::to_string(std::get<2>(info.param));
    });

// --------------------------------------------------------------------------
// __threadfence_system() with a host thread on the other side.
// --------------------------------------------------------------------------

constexpr unsigned kMessageWords = 4096;
constexpr unsigned long long kDeviceSpinLimit = 4000000000ull;
constexpr unsigned long long kHostSpinLimit = 400000000ull;

unsigned MessageWord(unsigned i) { return i * 2654435761u + 1; }

// Words shared with the host thread.
struct Mailbox {
  unsigned data[kMessageWords];
  unsigned flag;
  unsigned mismatches;  // found by the reading side
  unsigned gave_up;     // the reading side never saw the flag
};

enum class FlagKind { kAtomic, kVolatile };

// The kernel publishes: data, fence, flag.
__global__ void PublishToHost(Mailbox* box, FlagKind kind) {
  for (unsigned i = 0; i < kMessageWords; ++i) {
    box->data[i] = i * 2654435761u + 1;
  }
  __threadfence_system();
  if (kind == FlagKind::kAtomic) {
    atomicExch_system(&box->flag, 1u);
  } else {
    *static_cast<volatile unsigned*>(&box->flag) = 1;
  }
}

void HostReads(Mailbox* box) {
  unsigned long long spins = 0;
  while (__atomic_load_n(&box->flag, __ATOMIC_RELAXED) == 0) {
    if (++spins == kHostSpinLimit) {
      box->gave_up = 1;
      return;
    }
    std::this_thread::yield();
  }
  std::atomic_thread_fence(std::memory_order_seq_cst);
  unsigned mismatches = 0;
  for (unsigned i = 0; i < kMessageWords; ++i) {
    if (box->data[i] != MessageWord(i)) ++mismatches;
  }
  box->mismatches = mismatches;
}

// The host publishes; the kernel waits for the flag, fences, reads.
__global__ void ReadFromHost(Mailbox* box, FlagKind kind) {
  unsigned long long spins = 0;
  while ((kind == FlagKind::kAtomic
              ? atomicAdd_system(&box->flag, 0u)
              : *static_cast<volatile unsigned*>(&box->flag)) == 0) {
    if (++spins == kDeviceSpinLimit) {
      box->gave_up = 1;
      return;
    }
  }
  __threadfence_system();
  unsigned mismatches = 0;
  for (unsigned i = 0; i < kMessageWords; ++i) {
    if (box->data[i] != i * 2654435761u + 1) ++mismatches;
  }
  box->mismatches = mismatches;
}

void HostPublishes(Mailbox* box) {
  for (unsigned i = 0; i < kMessageWords; ++i) box->data[i] = MessageWord(i);
  std::atomic_thread_fence(std::memory_order_seq_cst);
  __atomic_store_n(&box->flag, 1u, __ATOMIC_RELAXED);
}

enum class Direction { kDeviceToHost, kHostToDevice };

using SystemParam = std::tuple<Direction, FlagKind>;

class SystemFenceTest : public ::testing::TestWithParam<SystemParam> {};

TEST_P(SystemFenceTest, ReaderOfTheFlagSeesAllTheData) {
  MX_SPEC("lang.fence.system.orders-writes-for-system",
          "lang.fence.system.equivalent-seq-cst-system-scope",
          "lang.fence.volatile.not-cached",
          "lang.atomic.ordering.fence-before-publish",
          "lang.atomic.scope.system-atomic-across-devices-and-host");
  const auto& [direction, kind] = GetParam();
  ManagedArray<Mailbox> box(1);
  ASSERT_TRUE(box.ok());
  std::memset(box.get(), 0, sizeof(Mailbox));
  if (direction == Direction::kDeviceToHost) {
    std::thread host(HostReads, box.get());
    PublishToHost<<<1, 1>>>(box.get(), kind);
    const mcError_t result = mcDeviceSynchronize();
    host.join();
    ASSERT_EQ(result, mcSuccess);
  } else {
    std::thread host(HostPublishes, box.get());
    ReadFromHost<<<1, 1>>>(box.get(), kind);
    const mcError_t result = mcDeviceSynchronize();
    host.join();
    ASSERT_EQ(result, mcSuccess);
  }
  ASSERT_EQ(box[0].gave_up, 0u) << "the flag never arrived";
  EXPECT_EQ(box[0].mismatches, 0u);
}

INSTANTIATE_TEST_SUITE_P(
    Directions, SystemFenceTest,
    ::testing::Combine(
        ::testing::Values(Direction::kDeviceToHost, Direction::kHostToDevice),
        ::testing::Values(FlagKind::kAtomic, FlagKind::kVolatile)),
    [](const ::testing::TestParamInfo<SystemParam>& info) {
      return std::string(std::get<0>(info.param) == Direction::kDeviceToHost
                             ? "DeviceToHost"
                             : "HostToDevice") +
             (std::get<1>(info.param) == FlagKind::kAtomic ? "_AtomicFlag"
                                                           : "_VolatileFlag");
    });

}  // namespace
}  // namespace mxcts::conformance::atomics
