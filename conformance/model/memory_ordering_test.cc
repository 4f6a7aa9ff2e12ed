// Copyright mxcts authors.
//
// Conformance: when writes become visible (docs/spec/model.md, "Memory
// model"): inside a grid, a fence or a barrier orders one thread's writes
// for the others; between pieces of work, a grid sees everything ordered
// before it and leaves everything it wrote to the work ordered after it.
//
// The target also runs in the runtime's deferred and shuffled timeline
// modes (device work run only when the host waits, or in a permuted
// permitted order) and in the engine's shuffled order, where readers may
// run before writers: a reader that finds no flag reports so, and only the
// data of a flag that was seen is checked. Each rule has a control: a
// writer that leaves one word out, which the same check must catch.

#include <mc_runtime.h>

#include <string>

#include "conformance/testing/managed_buffer.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

constexpr unsigned kWords = 64;

// --- Inside a grid: fences and barriers order the writes. ---

// Block 0 writes kWords words (all but `skip`), fences, then raises the
// flag with an atomic; every other block reads the flag with an atomic,
// fences, and counts the words it finds wrong if it saw the flag.
__global__ void MessagePassing(unsigned* words, unsigned* flag,
                               unsigned* saw_flag, unsigned* wrong, int skip) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {
    for (unsigned i = 0; i < kWords; ++i) {
      if (static_cast<int>(i) != skip) words[i] = i * 3 + 1;
    }
    __threadfence();
    atomicExch(flag, 1u);
    return;
  }
  if (atomicAdd(flag, 0u) == 0) return;
  __threadfence();
  atomicAdd(saw_flag, 1u);
  for (unsigned i = 0; i < kWords; ++i) {
    if (*static_cast<volatile unsigned*>(&words[i]) != i * 3 + 1) {
      atomicAdd(wrong, 1u);
    }
  }
}

constexpr unsigned kBlocks = 16;

// Runs MessagePassing twice over kBlocks blocks (in the second grid every
// reader finds the flag the first one raised); returns the wrong words
// seen, and sets *readers to the number of blocks that saw the flag.
unsigned PassMessage(int skip, unsigned* readers) {
  ManagedBuffer<unsigned> words(kWords, 0);
  ManagedBuffer<unsigned> flag(1, 0);
  ManagedBuffer<unsigned> saw(1, 0);
  ManagedBuffer<unsigned> wrong(1, 0);
  for (int grid = 0; grid < 2; ++grid) {
    MessagePassing<<<kBlocks, 2>>>(words.get(), flag.get(), saw.get(),
                                   wrong.get(), skip);
  }
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
  *readers = saw[0];
  return wrong[0];
}

TEST(WeakOrdering, FenceOrdersDataBeforeTheFlag) {
  MX_SPEC("model.memory.weakly-ordered");
  unsigned readers = 0;
  EXPECT_EQ(PassMessage(-1, &readers), 0u);
  EXPECT_GE(readers, kBlocks - 1);
}

TEST(WeakOrdering, ControlMissingWordIsCaught) {
  MX_SPEC("model.memory.weakly-ordered");
  unsigned readers = 0;
  const unsigned wrong = PassMessage(17, &readers);
  EXPECT_GE(readers, kBlocks - 1);
  EXPECT_EQ(wrong, readers);
}

// Thread 0 of each block writes kWords shared words (all but `skip`); after
// a barrier every thread checks them all.
__global__ void BarrierPublishes(unsigned* wrong, int skip) {
  __shared__ unsigned words[kWords];
  if (threadIdx.x == 0) {
    for (unsigned i = 0; i < kWords; ++i) {
      words[i] = static_cast<int>(i) == skip ? 0 : i + blockIdx.x;
    }
  }
  __syncthreads();
  for (unsigned i = 0; i < kWords; ++i) {
    if (words[i] != i + blockIdx.x) atomicAdd(wrong, 1u);
  }
}

unsigned PublishAtBarrier(int skip) {
  ManagedBuffer<unsigned> wrong(1, 0);
  BarrierPublishes<<<5, 96>>>(wrong.get(), skip);
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
  return wrong[0];
}

TEST(WeakOrdering, BarrierMakesWritesVisibleToTheBlock) {
  MX_SPEC("model.memory.weakly-ordered");
  EXPECT_EQ(PublishAtBarrier(-1), 0u);
}

TEST(WeakOrdering, ControlMissingSharedWordIsCaught) {
  MX_SPEC("model.memory.weakly-ordered");
  EXPECT_EQ(PublishAtBarrier(3), 5u * 96);
}

// --- Between pieces of work. ---

__global__ void Fill(unsigned* words, unsigned seed) {
  words[threadIdx.x] = seed + threadIdx.x * 7;
}

// Counts the words that do not hold what Fill(seed) leaves.
__global__ void CountWrong(const unsigned* words, unsigned seed,
                           unsigned* wrong) {
  if (words[threadIdx.x] != seed + threadIdx.x * 7) atomicAdd(wrong, 1u);
}

unsigned HostWrong(const unsigned* words, unsigned seed) {
  unsigned wrong = 0;
  for (unsigned i = 0; i < kWords; ++i) {
    if (words[i] != seed + i * 7) ++wrong;
  }
  return wrong;
}

enum class After { kSameStream, kEvent, kDeviceSync, kStreamSync, kEventSync };

const char* AfterName(After after) {
  switch (after) {
    case After::kSameStream:
      return "LaterWorkInTheStream";
    case After::kEvent:
      return "WorkWaitingForAnEvent";
    case After::kDeviceSync:
      return "HostAfterDeviceSynchronize";
    case After::kStreamSync:
      return "HostAfterStreamSynchronize";
    case After::kEventSync:
      return "HostAfterEventSynchronize";
  }
  return "Unknown";
}

// Fills with `seed` in a stream, then checks for `checked` by the way
// `after` names; returns the wrong words.
unsigned WriteThenObserve(After after, unsigned seed, unsigned checked) {
  unsigned* words = nullptr;
  unsigned* host = nullptr;
  EXPECT_EQ(mcMalloc(&words, kWords * sizeof(unsigned)), mcSuccess);
  EXPECT_EQ(mcMallocHost(&host, kWords * sizeof(unsigned)), mcSuccess);
  ManagedBuffer<unsigned> wrong(1, 0);
  mcStream_t writer = nullptr;
  mcStream_t reader = nullptr;
  mcEvent_t written = nullptr;
  EXPECT_EQ(mcStreamCreateWithFlags(&writer, mcStreamNonBlocking), mcSuccess);
  EXPECT_EQ(mcStreamCreateWithFlags(&reader, mcStreamNonBlocking), mcSuccess);
  EXPECT_EQ(mcEventCreate(&written), mcSuccess);
  Fill<<<1, kWords, 0, writer>>>(words, seed);
  unsigned result = ~0u;
  switch (after) {
    case After::kSameStream:
      CountWrong<<<1, kWords, 0, writer>>>(words, checked, wrong.get());
      EXPECT_EQ(mcStreamSynchronize(writer), mcSuccess);
      result = wrong[0];
      break;
    case After::kEvent:
      EXPECT_EQ(mcEventRecord(written, writer), mcSuccess);
      EXPECT_EQ(mcStreamWaitEvent(reader, written, 0), mcSuccess);
      CountWrong<<<1, kWords, 0, reader>>>(words, checked, wrong.get());
      EXPECT_EQ(mcStreamSynchronize(reader), mcSuccess);
      result = wrong[0];
      break;
    case After::kDeviceSync:
    case After::kStreamSync:
    case After::kEventSync:
      // Copied in the writer's stream, into page-locked memory, so that
      // the copy itself waits for nothing and the host's wait is what
      // makes the result visible.
      EXPECT_EQ(mcMemcpyAsync(host, words, kWords * sizeof(unsigned),
                              mcMemcpyDeviceToHost, writer),
                mcSuccess);
      EXPECT_EQ(mcEventRecord(written, writer), mcSuccess);
      if (after == After::kDeviceSync) {
        EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
      } else if (after == After::kStreamSync) {
        EXPECT_EQ(mcStreamSynchronize(writer), mcSuccess);
      } else {
        EXPECT_EQ(mcEventSynchronize(written), mcSuccess);
      }
      result = HostWrong(host, checked);
      break;
  }
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
  mcEventDestroy(written);
  mcStreamDestroy(reader);
  mcStreamDestroy(writer);
  mcFreeHost(host);
  mcFree(words);
  return result;
}

class KernelWrites : public testing::TestWithParam<After> {};

TEST_P(KernelWrites, VisibleToWorkOrderedAfterTheGrid) {
  MX_SPEC("model.memory.kernel-writes-visible-after-completion",
          "model.async.host-synchronization-points");
  EXPECT_EQ(WriteThenObserve(GetParam(), 100, 100), 0u);
}

TEST_P(KernelWrites, ControlOtherValuesAreCaught) {
  MX_SPEC("model.memory.kernel-writes-visible-after-completion");
  EXPECT_EQ(WriteThenObserve(GetParam(), 100, 101), kWords);
}

INSTANTIATE_TEST_SUITE_P(Orderings, KernelWrites,
                         testing::Values(After::kSameStream, After::kEvent,
                                         After::kDeviceSync, After::kStreamSync,
                                         After::kEventSync),
                         [](const testing::TestParamInfo<After>& info) {
                           return AfterName(info.param);
                         });

// --- What a kernel sees of the work before it. ---

// Before the checking kernel, in its stream: a host write to managed
// memory, an asynchronous copy, a memset and a kernel, each preparing one
// quarter of the words (all but `skip` of the kernel's quarter).
unsigned PriorWorkSeen(int skip) {
  ManagedBuffer<unsigned> managed(kWords, 0);
  ManagedBuffer<unsigned> wrong(1, 0);
  unsigned* words = nullptr;
  unsigned* source = nullptr;
  EXPECT_EQ(mcMalloc(&words, kWords * sizeof(unsigned)), mcSuccess);
  EXPECT_EQ(mcMallocHost(&source, kWords * sizeof(unsigned)), mcSuccess);
  mcStream_t stream = nullptr;
  EXPECT_EQ(mcStreamCreateWithFlags(&stream, mcStreamNonBlocking), mcSuccess);
  const unsigned seed = 9;
  for (unsigned i = 0; i < kWords; ++i) {
    managed[i] = seed + i * 7;
    source[i] = seed + i * 7;
  }
  const unsigned quarter = kWords / 4;
  EXPECT_EQ(mcMemcpyAsync(words, source, quarter * sizeof(unsigned),
                          mcMemcpyHostToDevice, stream),
            mcSuccess);
  // The memset writes zero bytes over the second quarter; the kernel
  // after it fills that quarter and the rest, so the memset must come
  // first, and the check then sees the kernel's values.
  EXPECT_EQ(
      mcMemsetAsync(words + quarter, 0, quarter * sizeof(unsigned), stream),
      mcSuccess);
  Fill<<<1, kWords, 0, stream>>>(words, seed);
  if (skip >= 0) {
    const unsigned zero = 0;
    EXPECT_EQ(mcMemcpyAsync(words + skip, &zero, sizeof(unsigned),
                            mcMemcpyHostToDevice, stream),
              mcSuccess);
  }
  CountWrong<<<1, kWords, 0, stream>>>(words, seed, wrong.get());
  CountWrong<<<1, kWords, 0, stream>>>(managed.get(), seed, wrong.get());
  EXPECT_EQ(mcStreamSynchronize(stream), mcSuccess);
  mcStreamDestroy(stream);
  mcFreeHost(source);
  mcFree(words);
  return wrong[0];
}

TEST(PriorWork, KernelSeesCopiesMemsetsKernelsAndHostWrites) {
  MX_SPEC("model.memory.prior-work-visible-to-kernel",
          "model.async.stream-orders-work");
  EXPECT_EQ(PriorWorkSeen(-1), 0u);
}

TEST(PriorWork, ControlOverwrittenWordIsCaught) {
  MX_SPEC("model.memory.prior-work-visible-to-kernel");
  EXPECT_EQ(PriorWorkSeen(5), 1u);
}

}  // namespace
}  // namespace mxcts::conformance
