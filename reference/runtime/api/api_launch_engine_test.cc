// Copyright mxcts authors.
//
// End-to-end tests of launches on the real device engine: kernel records
// written by hand (no compiler), launched with mcLaunchKernel or through the
// launch ABI, run by mxcts::device::RunGrid. They check what only the pair
// runtime + engine can show: built-in variables and barriers in launched
// grids, a trap becoming the device's sticky error, and device printf
// output written at each synchronization point.

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdarg>
#include <string>
#include <vector>

#include "mc_runtime.h"
#include "reference/device/engine.h"
#include "reference/runtime/testing/runtime_testing.h"

namespace {

using __mc_internal::KernelRecord;

const unsigned kPointerSize[] = {sizeof(int*)};
const unsigned kPointerAlignment[] = {alignof(int*)};

// Registers `stub` as a kernel with entry `entry` taking one int*.
#define MC_TEST_KERNEL(stub, entry)                                        \
  void stub(int*) {}                                                       \
  const KernelRecord stub##_record = {                                     \
      "constexpr const char* __mc_internal::KernelKey() [with Sig = void " \
      "(*)(int*); Sig F = " #stub "]",                                     \
      &entry,                                                              \
      1,                                                                   \
      kPointerSize,                                                        \
      kPointerAlignment,                                                   \
      0,                                                                   \
      0,                                                                   \
      0,                                                                   \
      nullptr};                                                            \
  const bool stub##_registered =                                           \
      (mxcts::runtime_testing::RegisterKernelRecord(                       \
           reinterpret_cast<const void*>(&stub), &stub##_record),          \
       true)

void DevicePrintf(const char* format, ...) {
  va_list args;
  va_start(args, format);
  mxcts::device::ImageRuntimeTable()->vprintf(format, args);
  va_end(args);
}

// out[global id] = global id
void FillEntry(void** args) {
  int* out = *static_cast<int**>(args[0]);
  unsigned id = blockIdx.x * blockDim.x + threadIdx.x;
  out[id] = static_cast<int>(id);
}
MC_TEST_KERNEL(fill_indices, FillEntry);

// Each block reverses its 64 values through shared memory.
void ReverseEntry(void** args) {
  int* data = *static_cast<int**>(args[0]);
  static char site;
  int* tile = static_cast<int*>(
      __mc_dev_shared_variable(&site, 64 * sizeof(int), alignof(int)));
  unsigned base = blockIdx.x * 64;
  tile[threadIdx.x] = data[base + threadIdx.x];
  __syncthreads();
  data[base + threadIdx.x] = tile[63 - threadIdx.x];
}
MC_TEST_KERNEL(reverse_blocks, ReverseEntry);

// Writes the dynamic shared area's size through it: each thread stores its
// id in the dynamic area; thread 0 sums after the barrier.
void DynamicSharedEntry(void** args) {
  int* out = *static_cast<int**>(args[0]);
  int* area = static_cast<int*>(__mc_dev_dynamic_shared());
  area[threadIdx.x] = static_cast<int>(threadIdx.x);
  __syncthreads();
  if (threadIdx.x == 0) {
    int sum = 0;
    for (unsigned i = 0; i < blockDim.x; ++i) sum += area[i];
    *out = sum;
  }
}
MC_TEST_KERNEL(sum_dynamic_shared, DynamicSharedEntry);

// Thread 5 traps.
void TrapEntry(void**) {
  if (threadIdx.x == 5) mxcts::device::ImageRuntimeTable()->trap("boom");
}
MC_TEST_KERNEL(trapper, TrapEntry);

// Thread 0 prints one line.
void PrintEntry(void** args) {
  int value = **static_cast<int**>(args[0]);
  if (threadIdx.x == 0) DevicePrintf("device says %d\n", value);
}
MC_TEST_KERNEL(printer, PrintEntry);

class EngineLaunch : public testing::Test {
 protected:
  void SetUp() override {
    mcSetDevice(0);
    mcGetLastError();
  }
  void TearDown() override {
    mcDeviceReset();
    mcGetLastError();
  }
};

TEST_F(EngineLaunch, EveryThreadSeesItsBuiltins) {
  std::vector<int> out(3 * 64, -1);
  int* pointer = out.data();
  void* args[] = {&pointer};
  ASSERT_EQ(mcLaunchKernel(&fill_indices, dim3(3), dim3(64), args), mcSuccess);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (int i = 0; i < 3 * 64; ++i) ASSERT_EQ(out[i], i);
}

TEST_F(EngineLaunch, BarrierAndSharedMemoryWorkInALaunchedGrid) {
  int* data = nullptr;
  ASSERT_EQ(mcMallocManaged(&data, 2 * 64 * sizeof(int)), mcSuccess);
  for (int i = 0; i < 128; ++i) data[i] = i;
  void* args[] = {&data};
  ASSERT_EQ(mcLaunchKernel(&reverse_blocks, dim3(2), dim3(64), args),
            mcSuccess);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(data[0], 63);
  EXPECT_EQ(data[63], 0);
  EXPECT_EQ(data[64], 127);
  EXPECT_EQ(mcFree(data), mcSuccess);
}

TEST_F(EngineLaunch, DynamicSharedMemoryHasTheLaunchsSize) {
  // [lang.launch.operand.ns-bytes-usable]
  int sum = 0;
  int* pointer = &sum;
  void* args[] = {&pointer};
  ASSERT_EQ(mcLaunchKernel(&sum_dynamic_shared, dim3(1), dim3(32), args,
                           32 * sizeof(int)),
            mcSuccess);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(sum, 31 * 32 / 2);
}

TEST_F(EngineLaunch, TrapBecomesTheStickyErrorOfTheNextCall) {
  // [lang.launch.error.execution-errors-reported-later]
  // [api.error.sticky.later-calls-fail]
  int* unused = nullptr;
  void* args[] = {&unused};
  testing::internal::CaptureStderr();
  EXPECT_EQ(mcLaunchKernel(&trapper, dim3(1), dim3(64), args), mcSuccess);
  std::string diagnostic = testing::internal::GetCapturedStderr();
  EXPECT_NE(diagnostic.find("trapper"), std::string::npos) << diagnostic;
  EXPECT_NE(diagnostic.find("boom"), std::string::npos) << diagnostic;
  EXPECT_EQ(mcDeviceSynchronize(), mcErrorLaunchFailure);
  void* p = nullptr;
  EXPECT_EQ(mcMalloc(&p, 4), mcErrorLaunchFailure);
  EXPECT_EQ(mcDeviceReset(), mcSuccess);
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);  // recovered
}

TEST_F(EngineLaunch, LaunchErrorsStopBeforeTheEngine) {
  EXPECT_EQ(mcLaunchKernel(&fill_indices, dim3(1), dim3(1025), nullptr),
            mcErrorInvalidConfiguration);
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
}

// Device printf output appears at each synchronization point, not before.
enum class SyncPoint { kDevice, kStream, kMemcpy, kReset };

class PrintfFlush : public EngineLaunch,
                    public testing::WithParamInterface<SyncPoint> {};

TEST_P(PrintfFlush, OutputAppearsAtTheSynchronizationPoint) {
  int value = 7;
  int* pointer = &value;
  void* args[] = {&pointer};
  testing::internal::CaptureStdout();
  ASSERT_EQ(mcLaunchKernel(&printer, dim3(1), dim3(4), args), mcSuccess);
  std::string before = testing::internal::GetCapturedStdout();
  EXPECT_EQ(before, "");
  testing::internal::CaptureStdout();
  int out = 0;
  switch (GetParam()) {
    case SyncPoint::kDevice:
      ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
      break;
    case SyncPoint::kStream:
      ASSERT_EQ(mcStreamSynchronize(nullptr), mcSuccess);
      break;
    case SyncPoint::kMemcpy:
      ASSERT_EQ(mcMemcpy(&out, &value, sizeof(int), mcMemcpyHostToHost),
                mcSuccess);
      break;
    case SyncPoint::kReset:
      ASSERT_EQ(mcDeviceReset(), mcSuccess);
      break;
  }
  EXPECT_EQ(testing::internal::GetCapturedStdout(), "device says 7\n");
}

INSTANTIATE_TEST_SUITE_P(EachPoint, PrintfFlush,
                         testing::Values(SyncPoint::kDevice, SyncPoint::kStream,
                                         SyncPoint::kMemcpy, SyncPoint::kReset),
                         [](const testing::TestParamInfo<SyncPoint>& info) {
                           switch (info.param) {
                             case SyncPoint::kDevice:
                               return std::string("DeviceSynchronize");
                             case SyncPoint::kStream:
                               return std::string("StreamSynchronize");
                             case SyncPoint::kMemcpy:
                               return std::string("Memcpy");
                             case SyncPoint::kReset:
                               return std::string("DeviceReset");
                           }
                           return std::string("?");
                         });

TEST(PrintfAtExit, PendingOutputIsDiscardedWithANoteWhenTheProcessExits) {
  // [lang.printf.flush.at-process-exit] "device says 9\n" is 14 bytes.
  EXPECT_EXIT(
      {
        dup2(STDERR_FILENO, STDOUT_FILENO);  // let the matcher see stdout
        int value = 9;
        int* pointer = &value;
        void* args[] = {&pointer};
        mcLaunchKernel(&printer, dim3(1), dim3(1), args);
        std::exit(0);
      },
      testing::ExitedWithCode(0),
      "^mxmaca: 14 bytes of device printf output were not written");
}

TEST(PrintfAtExit, SynchronizedOutputIsWrittenAndNothingIsLeft) {
  // Control: the same program with a synchronization before exit.
  EXPECT_EXIT(
      {
        dup2(STDERR_FILENO, STDOUT_FILENO);
        int value = 9;
        int* pointer = &value;
        void* args[] = {&pointer};
        mcLaunchKernel(&printer, dim3(1), dim3(1), args);
        mcDeviceSynchronize();
        std::exit(0);
      },
      testing::ExitedWithCode(0), "^device says 9\n$");
}

}  // namespace
