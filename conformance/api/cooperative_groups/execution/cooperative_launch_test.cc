// Conformance: mcLaunchCooperativeKernel as a launch
// (docs/spec/api-cooperative-groups.md, "Cooperative launch"): it passes
// the arguments and dynamic shared memory, is ordered in its stream, is
// recorded by stream capture, accepts the largest grid the occupancy
// calculator allows for each block size and shared memory size, and the
// device attribute says every device supports it. When the test runs with
// few multiprocessors (MXCTS_DEVICE_CONFIG, the _few_multiprocessors
// target), the largest grid also synchronizes.

#include <maca_cooperative_groups.h>

#include "conformance/api/cooperative_groups/execution/cg_test_support.h"
#include "conformance/testing/spec.h"

namespace {

namespace cg = cooperative_groups;
using cg_test::Managed;

// A by-value structure argument.
struct Scale {
  int factor;
  int offset;
};

// Each thread writes factor * global id + offset, after a grid sync that
// orders it behind `before`, which every thread reads first.
__global__ void ScaledIds(Scale scale, const int* before, int* out) {
  extern __shared__ int dynamic[];
  cg::grid_group grid = cg::this_grid();
  const unsigned long long g = grid.thread_rank();
  dynamic[cg_test::LinearId()] = before[0];
  grid.sync();
  out[g] = scale.factor * static_cast<int>(g) + scale.offset +
           dynamic[cg_test::LinearId()];
}

TEST(CooperativeLaunch, PassesArgumentsAndDynamicSharedMemory) {
  MX_SPEC("api.coop.launch.runs-kernel");
  Managed<int> before(1);
  before[0] = 1000;
  Managed<int> out(4 * 64);
  Scale scale{3, 7};
  const int* before_pointer = before.get();
  int* out_pointer = out.get();
  void* args[] = {&scale, &before_pointer, &out_pointer};
  ASSERT_EQ(mcLaunchCooperativeKernel((const void*)ScaledIds, dim3(4), dim3(64),
                                      args, 64 * sizeof(int), 0),
            mcSuccess);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (int g = 0; g < 4 * 64; ++g) ASSERT_EQ(out[g], 3 * g + 7 + 1000);
}

// Sets *flag to `value`.
__global__ void SetFlag(int* flag, int value) { *flag = value; }

TEST(CooperativeLaunch, IsOrderedInItsStream) {
  MX_SPEC("api.coop.launch.runs-kernel");
  mcStream_t stream;
  ASSERT_EQ(mcStreamCreate(&stream), mcSuccess);
  Managed<int> before(1);
  Managed<int> out(2 * 32);
  // The kernel before it in the stream sets what it reads; the copy after
  // it reads what it wrote.
  SetFlag<<<1, 1, 0, stream>>>(before.get(), 500);
  Scale scale{1, 0};
  const int* before_pointer = before.get();
  int* out_pointer = out.get();
  void* args[] = {&scale, &before_pointer, &out_pointer};
  ASSERT_EQ(mcLaunchCooperativeKernel((const void*)ScaledIds, dim3(2), dim3(32),
                                      args, 32 * sizeof(int), stream),
            mcSuccess);
  int copied[64] = {};
  ASSERT_EQ(mcMemcpyAsync(copied, out.get(), sizeof(copied),
                          mcMemcpyDeviceToHost, stream),
            mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream), mcSuccess);
  for (int g = 0; g < 64; ++g) ASSERT_EQ(copied[g], g + 500);
  ASSERT_EQ(mcStreamDestroy(stream), mcSuccess);
}

TEST(CooperativeLaunch, StreamCaptureRecordsACooperativeKernel) {
  MX_SPEC("api.coop.launch.stream-capture", "api.coop.grid.sync-across-blocks");
  mcStream_t stream;
  ASSERT_EQ(mcStreamCreate(&stream), mcSuccess);
  Managed<int> before(1);
  before[0] = 5;
  Managed<int> out(3 * 64);
  Scale scale{2, 1};
  const int* before_pointer = before.get();
  int* out_pointer = out.get();
  void* args[] = {&scale, &before_pointer, &out_pointer};
  ASSERT_EQ(mcStreamBeginCapture(stream, mcStreamCaptureModeGlobal), mcSuccess);
  ASSERT_EQ(mcLaunchCooperativeKernel((const void*)ScaledIds, dim3(3), dim3(64),
                                      args, 64 * sizeof(int), stream),
            mcSuccess);
  mcGraph_t graph;
  ASSERT_EQ(mcStreamEndCapture(stream, &graph), mcSuccess);
  mcGraphExec_t exec;
  ASSERT_EQ(mcGraphInstantiate(&exec, graph, nullptr, nullptr, 0), mcSuccess);
  ASSERT_EQ(mcGraphLaunch(exec, stream), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream), mcSuccess);
  for (int g = 0; g < 3 * 64; ++g) ASSERT_EQ(out[g], 2 * g + 1 + 5);
  ASSERT_EQ(mcGraphExecDestroy(exec), mcSuccess);
  ASSERT_EQ(mcGraphDestroy(graph), mcSuccess);
  ASSERT_EQ(mcStreamDestroy(stream), mcSuccess);
}

TEST(CooperativeLaunch, DeviceAttributeSaysEveryDeviceSupportsIt) {
  MX_SPEC("api.coop.launch.device-attribute");
  int count = 0;
  ASSERT_EQ(mcGetDeviceCount(&count), mcSuccess);
  for (int device = 0; device < count; ++device) {
    int value = -1;
    ASSERT_EQ(mcDeviceGetAttribute(&value, mcDeviceAttributeCooperativeLaunch,
                                   device),
              mcSuccess);
    mcDeviceProp_t prop;
    ASSERT_EQ(mcGetDeviceProperties(&prop, device), mcSuccess);
    EXPECT_EQ(value, prop.cooperativeLaunch);
    EXPECT_EQ(value, 1) << "device " << device;
  }
}

// ---------------------------------------------------------------------------
// The largest grid: occupancy per multiprocessor times multiProcessorCount.
// ---------------------------------------------------------------------------

// Counts its blocks; with `sync`, only after a grid sync.
__global__ void CountBlocks(int sync, unsigned* blocks) {
  extern __shared__ unsigned char unused[];
  if (sync) cg::this_grid().sync();
  if (cg_test::LinearId() == 0) atomicAdd(blocks, 1u);
  (void)unused;
}

struct OccupancyCase {
  unsigned block;
  size_t shared;
};

void PrintTo(const OccupancyCase& c, std::ostream* os) {
  *os << "Block" << c.block << "_Shared" << c.shared;
}

class LargestGridTest : public testing::TestWithParam<OccupancyCase> {
 protected:
  // The largest cooperative grid for the case, from the occupancy
  // calculator and the device's multiprocessors.
  unsigned LargestGrid() {
    int per_multiprocessor = 0;
    EXPECT_EQ(mcOccupancyMaxActiveBlocksPerMultiprocessor(
                  &per_multiprocessor, CountBlocks,
                  static_cast<int>(GetParam().block), GetParam().shared),
              mcSuccess);
    mcDeviceProp_t prop;
    EXPECT_EQ(mcGetDeviceProperties(&prop, 0), mcSuccess);
    EXPECT_GT(per_multiprocessor, 0);
    return static_cast<unsigned>(per_multiprocessor) *
           static_cast<unsigned>(prop.multiProcessorCount);
  }
  void LaunchLargest(int sync) {
    const unsigned grid = LargestGrid();
    Managed<unsigned> blocks(1);
    unsigned* blocks_pointer = blocks.get();
    void* args[] = {&sync, &blocks_pointer};
    ASSERT_EQ(mcLaunchCooperativeKernel((const void*)CountBlocks, dim3(grid),
                                        dim3(GetParam().block), args,
                                        GetParam().shared, 0),
              mcSuccess);
    ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
    EXPECT_EQ(blocks[0], grid);
  }
};

TEST_P(LargestGridTest, OccupancyTimesMultiprocessorsLaunches) {
  MX_SPEC("api.coop.launch.max-grid-from-occupancy");
  LaunchLargest(0);
}

TEST_P(LargestGridTest, OccupancyTimesMultiprocessorsSynchronizes) {
  MX_SPEC("api.coop.launch.all-blocks-co-resident",
          "api.coop.launch.max-grid-from-occupancy");
  mcDeviceProp_t prop;
  ASSERT_EQ(mcGetDeviceProperties(&prop, 0), mcSuccess);
  // Every thread of the grid waits at once. On the whole device (over
  // 200,000 threads, more than the system's memory mappings allow stacks
  // with guard pages for) one case runs; the rest run on small devices (the
  // _few_multiprocessors target), where the grid stays small.
  const bool whole_device_case =
      GetParam().block == 1024 && GetParam().shared == 0;
  if (prop.multiProcessorCount > 4 && !whole_device_case) {
    GTEST_SKIP() << "run by the _few_multiprocessors target";
  }
  LaunchLargest(1);
}

TEST_P(LargestGridTest, OneBlockMoreIsTooLarge) {
  MX_SPEC("api.coop.launch.too-large",
          "api.coop.launch.max-grid-from-occupancy");
  const unsigned grid = LargestGrid() + 1;
  Managed<unsigned> blocks(1);
  int sync = 0;
  unsigned* blocks_pointer = blocks.get();
  void* args[] = {&sync, &blocks_pointer};
  ASSERT_EQ(mcLaunchCooperativeKernel((const void*)CountBlocks, dim3(grid),
                                      dim3(GetParam().block), args,
                                      GetParam().shared, 0),
            mcErrorCooperativeLaunchTooLarge);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  // [api.coop.launch.too-large] Nothing ran.
  EXPECT_EQ(blocks[0], 0u);
}

INSTANTIATE_TEST_SUITE_P(
    BlockAndSharedSizes, LargestGridTest,
    testing::Values(OccupancyCase{64, 0}, OccupancyCase{256, 0},
                    OccupancyCase{1024, 0}, OccupancyCase{96, 0},
                    OccupancyCase{64, 16384}, OccupancyCase{128, 40000},
                    OccupancyCase{512, 65536}),
    cg_test::ParamName());

}  // namespace
