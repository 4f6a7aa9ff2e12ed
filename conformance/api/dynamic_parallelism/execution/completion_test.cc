// Copyright mxcts authors.
//
// Conformance: completion and synchronization of child grids
// (docs/spec/api-dynamic-parallelism.md, "Completion and synchronization"
// and "Device-side launch"): the host observes children as complete with
// their parent; children are never abandoned when the parent's threads exit;
// a device-side mcDeviceSynchronize waits for the children launched before
// it by any thread of the grid and orders siblings; launches return to the
// launching thread before the child needs to have run; the parent's shared
// memory survives its children.

#include <mc_runtime.h>

#include <string>
#include <tuple>
#include <vector>

#include "conformance/api/dynamic_parallelism/execution/device_launch_testing.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"
#include "gtest/gtest.h"

namespace {

using dp_testing::DeviceArray;

__global__ void Store(int* out, int value) { *out = value; }

// --- The host sees children complete with the parent. ---

__global__ void LaunchStore(int* out) { Store<<<1, 1>>>(out, 77); }

__global__ void CopyValue(const int* in, int* out) { *out = *in; }

enum class HostWait { kDevice, kStream, kEvent, kLaterKernel };

class HostObservesChildrenTest : public ::testing::TestWithParam<HostWait> {};

TEST_P(HostObservesChildrenTest, ChildIsCompleteWhenTheHostSeesTheParentDone) {
  MX_SPEC("api.devrt.completion.parent-waits-for-children");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  DeviceArray<int> out(1);
  DeviceArray<int> copy(1);
  mcStream_t stream;
  ASSERT_EQ(mcStreamCreate(&stream), mcSuccess);
  LaunchStore<<<1, 1, 0, stream>>>(out.get());
  switch (GetParam()) {
    case HostWait::kDevice:
      ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
      break;
    case HostWait::kStream:
      ASSERT_EQ(mcStreamSynchronize(stream), mcSuccess);
      break;
    case HostWait::kEvent: {
      mcEvent_t event;
      ASSERT_EQ(mcEventCreate(&event), mcSuccess);
      ASSERT_EQ(mcEventRecord(event, stream), mcSuccess);
      ASSERT_EQ(mcEventSynchronize(event), mcSuccess);
      mcEventDestroy(event);
      break;
    }
    case HostWait::kLaterKernel:
      // The next kernel of the stream reads what the child wrote.
      CopyValue<<<1, 1, 0, stream>>>(out.get(), copy.get());
      ASSERT_EQ(mcStreamSynchronize(stream), mcSuccess);
      EXPECT_EQ(copy.At(0), 77);
      break;
  }
  EXPECT_EQ(out.At(0), 77);
  mcStreamDestroy(stream);
}

INSTANTIATE_TEST_SUITE_P(Waits, HostObservesChildrenTest,
                         ::testing::Values(HostWait::kDevice, HostWait::kStream,
                                           HostWait::kEvent,
                                           HostWait::kLaterKernel));

// --- Threads that exit before their children. ---

__global__ void StoreAt(int* out, int index) { out[index] = index + 1; }

__global__ void LaunchAndExit(int* out, int children) {
  for (int i = 0; i < children; ++i) StoreAt<<<1, 1>>>(out, i);
}

class ImplicitSyncTest : public ::testing::TestWithParam<int> {};

TEST_P(ImplicitSyncTest, ChildrenOfExitedThreadsStillRun) {
  MX_SPEC("api.devrt.completion.implicit-sync-when-parent-threads-exit",
          "api.devrt.launch.asynchronous-to-launching-thread");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  const int children = GetParam();
  DeviceArray<int> out(children);
  LaunchAndExit<<<1, 1>>>(out.get(), children);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  const std::vector<int> values = out.ToHost();
  for (int i = 0; i < children; ++i) EXPECT_EQ(values[i], i + 1);
}

INSTANTIATE_TEST_SUITE_P(Children, ImplicitSyncTest, ::testing::Range(1, 9));

// --- Nesting: chains and trees of grids. ---

__global__ void ChainWithoutSync(int* out, int depth, int last) {
  out[depth] = depth + 1;
  if (depth < last) ChainWithoutSync<<<1, 1>>>(out, depth + 1, last);
}

class NestedChainTest : public ::testing::TestWithParam<int> {};

TEST_P(NestedChainTest, EveryLevelOfAChainRuns) {
  MX_SPEC("api.devrt.completion.parent-waits-for-children",
          "api.devrt.limit.max-nesting-depth");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  const int last = GetParam();
  DeviceArray<int> out(last + 1);
  ChainWithoutSync<<<1, 1>>>(out.get(), 0, last);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  const std::vector<int> values = out.ToHost();
  for (int i = 0; i <= last; ++i) EXPECT_EQ(values[i], i + 1) << "depth " << i;
}

INSTANTIATE_TEST_SUITE_P(Depths, NestedChainTest, ::testing::Range(1, 13));

// Each level waits for the next and adds one to what it left.
__global__ void ChainWithSync(int* out, int depth, int last) {
  if (depth == last) {
    out[depth] = 1;
    return;
  }
  ChainWithSync<<<1, 1>>>(out, depth + 1, last);
  if (mcDeviceSynchronize() != mcSuccess) return;
  out[depth] = out[depth + 1] + 1;
}

class SynchronizedChainTest : public ::testing::TestWithParam<int> {
 protected:
  void TearDown() override { mcDeviceSetLimit(mcLimitDevRuntimeSyncDepth, 2); }
};

TEST_P(SynchronizedChainTest, EachLevelSeesTheLevelBelowAfterSynchronizing) {
  MX_SPEC("api.devrt.sync.device-synchronize-supported-in-device-code",
          "api.devrt.memory.child-writes-visible-after-sync",
          "api.devrt.limit.sync-depth-configurable");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  const int last = GetParam();
  ASSERT_EQ(mcDeviceSetLimit(mcLimitDevRuntimeSyncDepth, last), mcSuccess);
  DeviceArray<int> out(last + 1);
  ChainWithSync<<<1, 1>>>(out.get(), 0, last);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(out.At(0), last + 1);
}

INSTANTIATE_TEST_SUITE_P(Depths, SynchronizedChainTest, ::testing::Range(1, 9));

__global__ void BinaryTree(unsigned* count, int depth, int last) {
  atomicAdd(count, 1u);
  if (depth < last) {
    BinaryTree<<<1, 1>>>(count, depth + 1, last);
    BinaryTree<<<1, 1>>>(count, depth + 1, last);
  }
}

class GridTreeTest : public ::testing::TestWithParam<int> {};

TEST_P(GridTreeTest, EveryGridOfATreeRunsOnce) {
  MX_SPEC("api.devrt.completion.parent-waits-for-children",
          "api.devrt.completion.implicit-sync-when-parent-threads-exit");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  const int last = GetParam();
  DeviceArray<unsigned> count(1);
  BinaryTree<<<1, 1>>>(count.get(), 0, last);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(count.At(0), (2u << last) - 1);
}

INSTANTIATE_TEST_SUITE_P(Depths, GridTreeTest, ::testing::Range(1, 9));

// --- Device-side mcDeviceSynchronize. ---

__global__ void FillChildren(int* cells, int count) {
  cells[blockIdx.x] = 10 * (blockIdx.x + 1);
  (void)count;
}

__global__ void SumAfterSync(int* cells, int count, int* out, int* status) {
  FillChildren<<<count, 1>>>(cells, count);
  *status = mcDeviceSynchronize();
  int sum = 0;
  for (int i = 0; i < count; ++i) sum += cells[i];
  *out = sum;
}

class SynchronizeVisibilityTest : public ::testing::TestWithParam<int> {};

TEST_P(SynchronizeVisibilityTest, ChildWritesAreVisibleAfterSynchronize) {
  MX_SPEC("api.devrt.sync.device-synchronize-supported-in-device-code",
          "api.devrt.memory.child-writes-visible-after-sync");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  const int count = GetParam();
  DeviceArray<int> cells(count);
  DeviceArray<int> out(1);
  DeviceArray<int> status(1);
  SumAfterSync<<<1, 1>>>(cells.get(), count, out.get(), status.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(status.At(0), mcSuccess);
  EXPECT_EQ(out.At(0), 10 * count * (count + 1) / 2);
}

INSTANTIATE_TEST_SUITE_P(ChildBlocks, SynchronizeVisibilityTest,
                         ::testing::Values(1, 2, 3, 8, 33, 100));

// One thread launches; after a barrier another thread synchronizes and
// must see the child's write.
__global__ void OtherThreadSynchronizes(int* cell, int* seen, int launcher,
                                        int synchronizer) {
  if (static_cast<int>(threadIdx.x) == launcher) Store<<<1, 1>>>(cell, 5);
  __syncthreads();
  if (static_cast<int>(threadIdx.x) == synchronizer) {
    if (mcDeviceSynchronize() == mcSuccess) *seen = *cell;
  }
}

class BlockLaunchesTest
    : public ::testing::TestWithParam<std::tuple<int, int>> {};

TEST_P(BlockLaunchesTest, SynchronizeWaitsForChildrenOfOtherThreads) {
  MX_SPEC("api.devrt.sync.device-synchronize-covers-block-launches");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  DeviceArray<int> cell(1);
  DeviceArray<int> seen(1);
  OtherThreadSynchronizes<<<1, 128>>>(
      cell.get(), seen.get(), std::get<0>(GetParam()), std::get<1>(GetParam()));
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(seen.At(0), 5);
}

INSTANTIATE_TEST_SUITE_P(
    Threads, BlockLaunchesTest,
    ::testing::Combine(::testing::Values(0, 1, 63, 64, 127),
                       ::testing::Values(0, 64, 127)),
    [](const auto& info) {
      return "launcher" + std::to_string(std::get<0>(info.param)) +
             "_synchronizer" + std::to_string(std::get<1>(info.param));
    });

// Each child doubles the cell plus one; a synchronization between the
// launches orders them, so the result is exact.
__global__ void Step(int* cell, int index) { *cell = *cell * 2 + index; }

__global__ void OrderedSiblings(int* cell, int count) {
  for (int i = 0; i < count; ++i) {
    Step<<<1, 1>>>(cell, i);
    mcDeviceSynchronize();
  }
}

class SiblingOrderTest : public ::testing::TestWithParam<int> {};

TEST_P(SiblingOrderTest, SynchronizeBetweenLaunchesOrdersSiblings) {
  MX_SPEC("api.devrt.sync.device-synchronize-orders-sibling-children");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  const int count = GetParam();
  DeviceArray<int> cell(1);
  OrderedSiblings<<<1, 1>>>(cell.get(), count);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  int expected = 0;
  for (int i = 0; i < count; ++i) expected = expected * 2 + i;
  EXPECT_EQ(cell.At(0), expected);
}

INSTANTIATE_TEST_SUITE_P(Children, SiblingOrderTest, ::testing::Range(2, 10));

// Control: without the synchronization, any order of the siblings is
// allowed; each still runs once.
__global__ void UnorderedSiblings(unsigned* mask, int count) {
  for (int i = 0; i < count; ++i) {
    StoreAt<<<1, 1>>>(reinterpret_cast<int*>(mask), i);
  }
}

TEST(SiblingOrder, SiblingsWithoutSynchronizeEachRunOnce) {
  MX_SPEC("api.devrt.sync.device-synchronize-orders-sibling-children",
          "api.devrt.stream.null-stream-scope-per-block");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  DeviceArray<int> cells(6);
  UnorderedSiblings<<<1, 1>>>(reinterpret_cast<unsigned*>(cells.get()), 6);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  const std::vector<int> values = cells.ToHost();
  for (int i = 0; i < 6; ++i) EXPECT_EQ(values[i], i + 1);
}

// --- The parent's shared memory survives its children. ---

__global__ void ScribbleShared(int* out, int words) {
  extern __shared__ int area[];
  for (int i = 0; i < words; ++i) area[i] = -1;
  *out = area[0];
}

__global__ void KeepShared(int* ok, int* child_out, int words) {
  extern __shared__ int mine[];
  for (int i = 0; i < words; ++i) mine[i] = i * 3;
  ScribbleShared<<<1, 1, words * sizeof(int)>>>(child_out, words);
  mcDeviceSynchronize();
  int good = 1;
  for (int i = 0; i < words; ++i) good &= mine[i] == i * 3;
  *ok = good;
}

class ParentSharedTest : public ::testing::TestWithParam<int> {};

TEST_P(ParentSharedTest, ChildDoesNotTouchTheParentsSharedMemory) {
  MX_SPEC("api.devrt.memory.shared-pointer-to-child-undefined",
          "api.devrt.sync.device-synchronize-supported-in-device-code");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  const int words = GetParam();
  DeviceArray<int> ok(1);
  DeviceArray<int> child_out(1);
  KeepShared<<<1, 1, words * sizeof(int)>>>(ok.get(), child_out.get(), words);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(ok.At(0), 1);
  EXPECT_EQ(child_out.At(0), -1);
}

INSTANTIATE_TEST_SUITE_P(Words, ParentSharedTest,
                         ::testing::Values(1, 16, 256, 4096));

// --- Launches are asynchronous; the parent must not rely on the start. ---

__global__ void ReadBeforeAndAfter(int* cell, int* before, int* after) {
  Store<<<1, 1>>>(cell, 9);
  // The child may or may not have run here.
  *before = *cell;
  mcDeviceSynchronize();
  *after = *cell;
}

TEST(AsynchronousLaunch, ChildResultIsGuaranteedOnlyAfterSynchronize) {
  MX_SPEC("api.devrt.launch.asynchronous-to-launching-thread",
          "api.devrt.launch.child-start-not-guaranteed-before-sync",
          "api.devrt.memory.concurrent-parent-child-access-unordered");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  DeviceArray<int> cell(1);
  DeviceArray<int> before(1);
  DeviceArray<int> after(1);
  ReadBeforeAndAfter<<<1, 1>>>(cell.get(), before.get(), after.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_TRUE(before.At(0) == 0 || before.At(0) == 9) << before.At(0);
  EXPECT_EQ(after.At(0), 9);
}

// The launching thread goes on after the launch: work it does afterwards
// happens whether or not the child has started.
__global__ void WorkAfterLaunch(int* cell, int* work) {
  Store<<<1, 1>>>(cell, 3);
  for (int i = 0; i < 100; ++i) atomicAdd(work, 1);
}

TEST(AsynchronousLaunch, LaunchingThreadContinuesAfterTheLaunch) {
  MX_SPEC("api.devrt.launch.asynchronous-to-launching-thread",
          "api.devrt.launch.no-new-concurrency-guarantee");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  DeviceArray<int> cell(1);
  DeviceArray<int> work(1);
  WorkAfterLaunch<<<2, 32>>>(cell.get(), work.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(work.At(0), 2 * 32 * 100);
  EXPECT_EQ(cell.At(0), 3);
}

// --- Parent writes before the launch. ---

__global__ void SumCells(const int* cells, int count, int* out) {
  int sum = 0;
  for (int i = 0; i < count; ++i) sum += cells[i];
  *out = sum;
}

__global__ void WriteThenLaunch(int* cells, int count, int* out) {
  // Every thread writes its share; after the barrier thread 0 launches.
  for (int i = threadIdx.x; i < count; i += blockDim.x) cells[i] = i;
  __syncthreads();
  if (threadIdx.x == 0) SumCells<<<1, 1>>>(cells, count, out);
}

class ParentWritesTest : public ::testing::TestWithParam<int> {};

TEST_P(ParentWritesTest, WritesBeforeTheLaunchAreVisibleToTheChild) {
  MX_SPEC("api.devrt.memory.parent-writes-visible-at-launch");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  const int count = GetParam();
  DeviceArray<int> cells(count);
  DeviceArray<int> out(1);
  WriteThenLaunch<<<1, 64>>>(cells.get(), count, out.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(out.At(0), count * (count - 1) / 2);
}

INSTANTIATE_TEST_SUITE_P(Cells, ParentWritesTest,
                         ::testing::Values(1, 64, 65, 1000));

// --- Two host-launched parents in two streams. ---

__global__ void AddInChild(int* cell, int amount) { atomicAdd(cell, amount); }

__global__ void ParentAdding(int* cell, int amount) {
  AddInChild<<<1, 4>>>(cell, amount);
}

TEST(HostLaunchedParents, ParentsInTwoStreamsBothCompleteWithTheirChildren) {
  MX_SPEC("api.devrt.launch.two-host-launched-parents-may-serialize");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  DeviceArray<int> cell(1);
  mcStream_t a;
  mcStream_t b;
  ASSERT_EQ(mcStreamCreateWithFlags(&a, mcStreamNonBlocking), mcSuccess);
  ASSERT_EQ(mcStreamCreateWithFlags(&b, mcStreamNonBlocking), mcSuccess);
  ParentAdding<<<3, 1, 0, a>>>(cell.get(), 1);
  ParentAdding<<<2, 1, 0, b>>>(cell.get(), 100);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(cell.At(0), 3 * 4 + 2 * 4 * 100);
  mcStreamDestroy(a);
  mcStreamDestroy(b);
}

}  // namespace
