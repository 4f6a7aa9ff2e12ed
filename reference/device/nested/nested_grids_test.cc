// Copyright mxcts authors.
//
// Child grids in the engine, with hand-written kernels that launch through
// the image table as compiled device code does, and a stand-in for the
// runtime's services whose kernels are their own entries. What whole
// programs do is tested by conformance/api/dynamic_parallelism.

#include "reference/device/nested/nested_grids.h"

#include <memory>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "reference/device/device_runtime.h"
#include "reference/device/engine.h"
#include "reference/device/engine_test_util.h"

namespace mxcts::device {
namespace {

using ::testing::HasSubstr;

// The stand-in services: a kernel's address is its entry; every kernel
// takes one int* argument.
mcError_t PrepareChild(int, const void* kernel, dim3 grid, dim3 block,
                       size_t shared_bytes, void** args,
                       PreparedChildGrid* child) {
  if (grid.x == 0 || block.x == 0 || shared_bytes > kSharedBytesPerBlock) {
    return mcErrorInvalidConfiguration;
  }
  auto copy = std::make_shared<std::vector<void*>>(2, nullptr);
  auto value = std::make_shared<int*>(*static_cast<int**>(args[0]));
  (*copy)[0] = value.get();
  child->kernel_name = "child";
  child->entry = reinterpret_cast<void (*)(void**)>(const_cast<void*>(kernel));
  child->args = copy->data();
  child->arguments = std::shared_ptr<void>(
      new std::pair<decltype(copy), decltype(value)>(copy, value), [](void* p) {
        delete static_cast<std::pair<std::shared_ptr<std::vector<void*>>,
                                     std::shared_ptr<int*>>*>(p);
      });
  return mcSuccess;
}
const __mc_internal::KernelRecord* NoRecord(const void*) { return nullptr; }
mcError_t NoLimit(int, size_t*, int) { return mcErrorUnsupportedLimit; }
mcError_t NoAttribute(int*, int, int) { return mcErrorInvalidValue; }
const char* Text(mcError_t) { return "text"; }

const DeviceRuntimeServices kServices = {&PrepareChild, &NoRecord, &NoLimit,
                                         &NoAttribute,  &Text,     &Text};

class NestedGridsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    SetDeviceRuntimeServices(&kServices);
    SetDeviceRuntimeLimits(DeviceRuntimeLimits{});
  }
  void TearDown() override {
    SetDeviceRuntimeServices(nullptr);
    SetScheduleOrder("linear");
  }
};

const __mc_image_runtime& Table() { return *ImageRuntimeTable(); }

// Launches `kernel` with `cells` the way `kernel<<<grid, block>>>(cells)` in
// device code does: push, then the kernel's prologue.
int Launch(void (*kernel)(void**), int* cells, dim3 grid, dim3 block,
           size_t shared = 0) {
  Table().push_launch_configuration(grid, block, shared, nullptr);
  void* args[] = {&cells, nullptr};
  return Table().launch_from_kernel(reinterpret_cast<const void*>(kernel),
                                    args);
}

void CountChild(void** args) { ++Arg<int*>(args, 0)[0]; }

void LaunchThenSynchronize(void** args) {
  int* cells = Arg<int*>(args, 0);
  EXPECT_EQ(Launch(&CountChild, cells, dim3(1), dim3(4)), 1);
  cells[1] = cells[0];  // before the synchronization
  cells[2] = Table().device_synchronize();
  cells[3] = cells[0];  // after it
}

TEST_F(NestedGridsTest, ChildRunsAtTheLaunchingThreadsSynchronize) {
  int cells[4] = {};
  int* pointer = cells;
  RunResult result = RunCapturingStderr("parent", &LaunchThenSynchronize,
                                        {&pointer}, dim3(1), dim3(1));
  EXPECT_EQ(result.error, mcSuccess) << result.stderr_text;
  EXPECT_EQ(cells[1], 0);  // the linear order defers the child
  EXPECT_EQ(cells[2], mcSuccess);
  EXPECT_EQ(cells[3], 4);
}

void AppendBlock(void** args) {
  int* log = Arg<int*>(args, 0);
  log[++log[0]] = 100 + static_cast<int>(blockIdx.x);
}

void LaunchAndExit(void** args) {
  int* log = Arg<int*>(args, 0);
  log[++log[0]] = static_cast<int>(blockIdx.x);
  Launch(&AppendBlock, log, dim3(1), dim3(1));
}

TEST_F(NestedGridsTest, ChildrenOfABlockRunWhenItExitsBeforeTheNextBlock) {
  int log[8] = {};
  int* cells = log;
  RunResult result =
      RunCapturingStderr("parent", &LaunchAndExit, {&cells}, dim3(2), dim3(1));
  ASSERT_EQ(result.error, mcSuccess) << result.stderr_text;
  EXPECT_EQ(log[0], 4);
  EXPECT_EQ(log[1], 0);
  EXPECT_EQ(log[2], 100);
  EXPECT_EQ(log[3], 1);
  EXPECT_EQ(log[4], 100);
}

void TrappingChild(void**) {
  if (threadIdx.x == 2) Table().trap("boom");
}

void LaunchTrapping(void** args) {
  Launch(&TrappingChild, Arg<int*>(args, 0), dim3(1), dim3(4));
  Table().device_synchronize();
  Arg<int*>(args, 0)[0] = 1;  // never reached
}

TEST_F(NestedGridsTest, TrapInAChildStopsTheParentAndNamesTheChain) {
  int cell = 0;
  int* cells = &cell;
  RunResult result =
      RunCapturingStderr("parent", &LaunchTrapping, {&cells}, dim3(1), dim3(1));
  EXPECT_EQ(result.error, mcErrorLaunchFailure);
  EXPECT_THAT(result.stderr_text,
              HasSubstr("kernel 'child' block (0,0,0) thread (2,0,0): boom; in "
                        "a child grid launched by kernel 'parent' block "
                        "(0,0,0) thread (0,0,0)"));
  EXPECT_EQ(cell, 0);
}

void WriteDynamicShared(void**) {
  static_cast<int*>(__mc_dev_dynamic_shared())[0] = -1;
}

void KeepDynamicShared(void** args) {
  int* shared = static_cast<int*>(__mc_dev_dynamic_shared());
  shared[0] = 1234;
  Launch(&WriteDynamicShared, Arg<int*>(args, 0), dim3(1), dim3(1), 64);
  Table().device_synchronize();
  Arg<int*>(args, 0)[0] = shared[0];
}

TEST_F(NestedGridsTest, ParentsSharedMemorySurvivesItsChild) {
  int cell = 0;
  int* cells = &cell;
  RunResult result = RunCapturingStderr("parent", &KeepDynamicShared, {&cells},
                                        dim3(1), dim3(1), 64);
  ASSERT_EQ(result.error, mcSuccess) << result.stderr_text;
  EXPECT_EQ(cell, 1234);
}

void SynchronizeInChild(void** args) {
  Arg<int*>(args, 0)[0] = Table().device_synchronize();
}
void LaunchSynchronizingChild(void** args) {
  Launch(&SynchronizeInChild, Arg<int*>(args, 0), dim3(1), dim3(1));
}

TEST_F(NestedGridsTest, SynchronizeBelowTheSyncDepthFails) {
  DeviceRuntimeLimits limits;
  limits.sync_depth = 0;
  SetDeviceRuntimeLimits(limits);
  int cell = -1;
  int* cells = &cell;
  RunResult result = RunCapturingStderr("parent", &LaunchSynchronizingChild,
                                        {&cells}, dim3(1), dim3(1));
  ASSERT_EQ(result.error, mcSuccess) << result.stderr_text;
  EXPECT_EQ(cell, mcErrorSyncDepthExceeded);
}

void LaunchInvalid(void** args) {
  int* cells = Arg<int*>(args, 0);
  EXPECT_EQ(Launch(&CountChild, cells, dim3(0), dim3(1)), 1);
  cells[1] = Table().last_error(0);
  cells[2] = Table().last_error(1);
  cells[3] = Table().last_error(1);
}

TEST_F(NestedGridsTest, RefusedLaunchIsTheThreadsLastError) {
  int cells[4] = {};
  int* pointer = cells;
  RunResult result = RunCapturingStderr("parent", &LaunchInvalid, {&pointer},
                                        dim3(1), dim3(1));
  ASSERT_EQ(result.error, mcSuccess) << result.stderr_text;
  EXPECT_EQ(cells[0], 0);  // the child did not run
  EXPECT_EQ(cells[1], mcErrorInvalidConfiguration);
  EXPECT_EQ(cells[2], mcErrorInvalidConfiguration);
  EXPECT_EQ(cells[3], mcSuccess);
}

void CallWithoutPush(void** args) {
  void* inner[] = {args[0], nullptr};
  Arg<int*>(args, 0)[0] = Table().launch_from_kernel(
      reinterpret_cast<const void*>(&CountChild), inner);
}

TEST_F(NestedGridsTest, KernelCallWithoutAConfigurationIsNoLaunch) {
  int cell = -1;
  int* cells = &cell;
  RunResult result = RunCapturingStderr("parent", &CallWithoutPush, {&cells},
                                        dim3(1), dim3(1));
  ASSERT_EQ(result.error, mcSuccess) << result.stderr_text;
  EXPECT_EQ(cell, 2);  // no configuration is pending anywhere
}

void LaunchMany(void** args) {
  int* cells = Arg<int*>(args, 0);
  for (int i = 0; i < 3; ++i) Launch(&CountChild, cells, dim3(1), dim3(1));
}

TEST_F(NestedGridsTest, ShuffledOrderStillRunsEveryChildOnce) {
  ASSERT_TRUE(SetScheduleOrder("shuffle:7"));
  int cell = 0;
  int* cells = &cell;
  RunResult result =
      RunCapturingStderr("parent", &LaunchMany, {&cells}, dim3(3), dim3(5));
  ASSERT_EQ(result.error, mcSuccess) << result.stderr_text;
  EXPECT_EQ(cell, 3 * 5 * 3);
}

}  // namespace
}  // namespace mxcts::device
