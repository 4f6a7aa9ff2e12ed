// Copyright mxcts authors.
//
// Conformance: variables of device code declared without a memory space
// specifier (docs/spec/lang-variable-spaces.md, "Automatic variables"): an
// automatic variable is one per thread; a `static` local of a device
// function is one per device, shared by every thread of every grid and kept
// between launches. Each test has a control that would give the other
// answer: a `__shared__` variable written the same way is overwritten by
// other threads, and a non-static local of the same function starts afresh
// at every call.

#include <mc_runtime.h>

#include <algorithm>
#include <vector>

#include "conformance/testing/managed_buffer.h"
#include "conformance/testing/spec.h"

namespace {

using mxcts::conformance::ManagedBuffer;

constexpr int kThreads = 128;
constexpr int kBlocks = 3;

// Every thread stores its own index in `mine`, waits for the whole block to
// have done so, and reads `mine` back; an instance shared between threads
// would hold another thread's index for all but one of them.
__global__ void WriteWaitReadAutomatic(int* read_back) {
  const int id = blockIdx.x * blockDim.x + threadIdx.x;
  int mine;
  mine = id;
  __syncthreads();
  // Kept from being folded to `id`: the barrier is an opaque call, and the
  // address escapes into the loop below.
  volatile int* through = &mine;
  read_back[id] = *through;
}

// The control: the same steps on a variable that the block shares.
__global__ void WriteWaitReadShared(int* read_back) {
  __shared__ int shared_slot;
  const int id = blockIdx.x * blockDim.x + threadIdx.x;
  shared_slot = id;
  __syncthreads();
  read_back[id] = *const_cast<volatile int*>(&shared_slot);
}

// Addresses of one automatic variable per thread: all distinct.
__global__ void AutomaticAddresses(unsigned long long* addresses) {
  int mine = threadIdx.x;
  volatile int* through = &mine;
  addresses[threadIdx.x] = reinterpret_cast<unsigned long long>(through);
  __syncthreads();  // every thread's variable is alive at once
  (void)*through;
}

TEST(AutomaticVariables, EachThreadHasItsOwnInstance) {
  MX_SPEC("lang.variable.automatic.private-per-thread");
  ManagedBuffer<int> read_back(kBlocks * kThreads, 0xff);
  WriteWaitReadAutomatic<<<kBlocks, kThreads>>>(read_back.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (int i = 0; i < kBlocks * kThreads; ++i) {
    EXPECT_EQ(read_back[i], i) << "thread " << i;
  }
}

TEST(AutomaticVariables, InstancesHaveDistinctAddresses) {
  MX_SPEC("lang.variable.automatic.private-per-thread");
  ManagedBuffer<unsigned long long> addresses(kThreads, 0);
  AutomaticAddresses<<<1, kThreads>>>(addresses.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (int i = 0; i < kThreads; ++i) {
    ASSERT_NE(addresses[i], 0u);
    for (int j = 0; j < i; ++j) {
      EXPECT_NE(addresses[i], addresses[j]) << "threads " << j << ", " << i;
    }
  }
}

TEST(AutomaticVariablesControl, ASharedVariableIsOverwritten) {
  MX_SPEC("lang.variable.automatic.private-per-thread");
  ManagedBuffer<int> read_back(kBlocks * kThreads, 0xff);
  WriteWaitReadShared<<<kBlocks, kThreads>>>(read_back.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  // One writer per block wins; every other thread reads its value, not its
  // own index.
  for (int block = 0; block < kBlocks; ++block) {
    int own = 0;
    for (int t = 0; t < kThreads; ++t) {
      const int value = read_back[block * kThreads + t];
      EXPECT_EQ(value, read_back[block * kThreads]) << "block " << block;
      own += value == block * kThreads + t;
    }
    EXPECT_EQ(own, 1) << "block " << block;
  }
}

// --- static locals of device functions. ---

// Counts its calls in a static local (constant-initialized: zero) and in a
// plain local; returns the static count before this call.
__device__ unsigned CountCall(unsigned* plain_after_call) {
  static unsigned calls;
  unsigned plain = 0;
  plain += 1;
  *plain_after_call = plain;
  return atomicAdd(&calls, 1u);
}

__device__ unsigned* StaticAddress() {
  static unsigned marker = 5;
  return &marker;
}

__global__ void CallCounter(unsigned* before, unsigned* plain) {
  const int id = blockIdx.x * blockDim.x + threadIdx.x;
  before[id] = CountCall(&plain[id]);
}

__global__ void StaticAddresses(unsigned long long* addresses) {
  const int id = blockIdx.x * blockDim.x + threadIdx.x;
  addresses[id] = reinterpret_cast<unsigned long long>(StaticAddress());
}

// A static local of a kernel body: kept from one launch to the next.
__global__ void KernelWithStatic(int* out) {
  static int launches = 100;
  if (threadIdx.x == 0 && blockIdx.x == 0) *out = ++launches;
}

TEST(StaticLocals, OneInstanceSharedByAllThreadsOfAllGrids) {
  MX_SPEC("lang.variable.automatic.static-local-in-device-function");
  const int n = kBlocks * kThreads;
  ManagedBuffer<unsigned> before(2 * n, 0xff);
  ManagedBuffer<unsigned> plain(2 * n, 0xff);
  CallCounter<<<kBlocks, kThreads>>>(before.get(), plain.get());
  CallCounter<<<kBlocks, kThreads>>>(before.get() + n, plain.get() + n);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  // The two grids drew 2n distinct consecutive counts from one counter
  // (starting where earlier tests of this process left it), the first
  // grid's counts all below the second's.
  const unsigned base = *std::min_element(before.get(), before.get() + 2 * n);
  std::vector<int> seen(2 * n, 0);
  for (int i = 0; i < 2 * n; ++i) {
    const unsigned count = before[i] - base;
    ASSERT_LT(count, static_cast<unsigned>(2 * n)) << "call " << i;
    seen[count] += 1;
    if (i < n) {
      EXPECT_LT(count, static_cast<unsigned>(n));
    } else {
      EXPECT_GE(count, static_cast<unsigned>(n));
    }
  }
  for (int k = 0; k < 2 * n; ++k) EXPECT_EQ(seen[k], 1) << "count " << k;
}

TEST(StaticLocals, EveryThreadSeesTheSameAddress) {
  MX_SPEC("lang.variable.automatic.static-local-in-device-function");
  ManagedBuffer<unsigned long long> addresses(kBlocks * kThreads, 0);
  StaticAddresses<<<kBlocks, kThreads>>>(addresses.get());
  StaticAddresses<<<1, 1>>>(addresses.get());  // a later grid, slot 0 again
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  ASSERT_NE(addresses[0], 0u);
  for (int i = 1; i < kBlocks * kThreads; ++i) {
    EXPECT_EQ(addresses[i], addresses[0]) << "thread " << i;
  }
}

TEST(StaticLocals, KernelStaticLivesAcrossLaunches) {
  MX_SPEC("lang.variable.automatic.static-local-in-device-function");
  ManagedBuffer<int> out(1, 0);
  KernelWithStatic<<<2, 64>>>(out.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  const int first = out[0];
  KernelWithStatic<<<2, 64>>>(out.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(out[0], first + 1);
  EXPECT_GE(first, 101);  // started from the constant initializer
}

TEST(StaticLocalsControl, APlainLocalStartsAfreshAtEveryCall) {
  MX_SPEC("lang.variable.automatic.static-local-in-device-function");
  const int n = kBlocks * kThreads;
  ManagedBuffer<unsigned> before(n, 0xff);
  ManagedBuffer<unsigned> plain(n, 0xff);
  CallCounter<<<kBlocks, kThreads>>>(before.get(), plain.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (int i = 0; i < n; ++i) EXPECT_EQ(plain[i], 1u) << "call " << i;
}

}  // namespace
