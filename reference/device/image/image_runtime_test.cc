// Copyright mxcts authors.
//
// Tests of the device runtime library through a device image that mxcc
// built (the :test_image rule, --offload-device-only): binding, the version
// script's exports, and kernels of the image using shared memory,
// __syncthreads, printf (and puts), math, the heap and assert.

#include <dlfcn.h>

#include <cmath>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "mcr/detail/launch_abi.h"
#include "reference/device/engine.h"
#include "reference/device/image/image_abi.h"

namespace mxcts::device {
namespace {

using ::__mc_internal::DeviceVariableRecord;
using ::__mc_internal::KernelRecord;
using ::testing::IsEmpty;

constexpr char kImagePath[] = "reference/device/image/test_image.so";

// The image, loaded and bound once for all tests.
class ImageTest : public testing::Test {
 protected:
  static void SetUpTestSuite() {
    image_ = dlopen(kImagePath, RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(image_, nullptr) << dlerror();
    auto bind =
        reinterpret_cast<__mc_image_bind_fn>(dlsym(image_, "__mc_image_bind"));
    ASSERT_NE(bind, nullptr);
    bind_result_ = bind(ImageRuntimeTable());
  }

  static const KernelRecord* Kernel(const char* mangled_record) {
    return static_cast<const KernelRecord*>(
        dlsym(image_, (std::string("__mcdev_") + mangled_record).c_str()));
  }

  // Runs `record` through its thread loop, as the runtime does, and
  // returns its result and stderr text.
  static mcError_t Run(const KernelRecord* record, void* argument, dim3 grid,
                       dim3 block, std::string* stderr_text) {
    void* args[] = {argument, nullptr};
    testing::internal::CaptureStderr();
    const mcError_t error = RunGrid(GridLaunch{
        record->key, record->entry, args, grid, block, 0, record->run_threads});
    *stderr_text = testing::internal::GetCapturedStderr();
    return error;
  }

  static void* image_;
  static unsigned bind_result_;
};

void* ImageTest::image_ = nullptr;
unsigned ImageTest::bind_result_ = 0;

TEST_F(ImageTest, BindReturnsTheAbiVersion) {
  EXPECT_EQ(bind_result_, MC_IMAGE_ABI_VERSION);
}

TEST_F(ImageTest, ExportsOnlyBindAndRecords) {
  EXPECT_NE(Kernel("_ZN13__mc_internal12DeviceKernelIPFvPiEXadL_Z7reverseS1_"
                   "EENS_12KernelTraitsILx0ELx0ELm256ELy0ELb0EEEE6recordE"),
            nullptr);
  auto* variable = static_cast<const DeviceVariableRecord*>(
      dlsym(image_, "__mcdev___mc_variable_record_0"));
  ASSERT_NE(variable, nullptr);
  EXPECT_STREQ(variable->key, "answer");
  EXPECT_EQ(*static_cast<int*>(variable->address), 42);
  // The runtime library's names and the kernels themselves stay local.
  EXPECT_EQ(dlsym(image_, "__mcdev_printf"), nullptr);
  EXPECT_EQ(dlsym(image_, "__mcdev_threadIdx"), nullptr);
  EXPECT_EQ(dlsym(image_, "__mcdev__Z7reversePi"), nullptr);
}

TEST_F(ImageTest, KernelUsesSharedMemoryBarrierAndPrintf) {
  const KernelRecord* reverse = Kernel(
      "_ZN13__mc_internal12DeviceKernelIPFvPiEXadL_Z7reverseS1_EENS_"
      "12KernelTraitsILx0ELx0ELm256ELy0ELb0EEEE6recordE");
  ASSERT_NE(reverse, nullptr);
  EXPECT_EQ(reverse->param_count, 1u);
  // The record carries the footprint of `__shared__ int tile[64]` and no
  // launch bounds.
  EXPECT_EQ(reverse->static_shared_bytes, 64 * sizeof(int));
  EXPECT_EQ(reverse->max_threads_per_block, 0u);
  EXPECT_EQ(reverse->param_sizes[0], sizeof(int*));
  std::vector<int> data(64);
  for (int i = 0; i < 64; ++i) data[i] = i;
  int* pointer = data.data();
  TakeDevicePrintfOutput();
  std::string errors;
  ASSERT_EQ(Run(reverse, &pointer, dim3(1), dim3(64), &errors), mcSuccess)
      << errors;
  for (int i = 0; i < 64; ++i) EXPECT_EQ(data[i], 63 - i + 42);
  EXPECT_EQ(TakeDevicePrintfOutput(), "block 0 reversed 64 values\ndone\n");
}

TEST_F(ImageTest, MathForwardsToLibm) {
  const KernelRecord* math = Kernel(
      "_ZN13__mc_internal12DeviceKernelIPFvPfEXadL_Z4mathS1_EENS_"
      "12KernelTraitsILx0ELx0ELm0ELy0ELb0EEEE6recordE");
  ASSERT_NE(math, nullptr);
  float values[7] = {0.5f, 2.0f, 1.5f, 1.0f, -2.5f, 3.0f, 4.0f};
  float* pointer = values;
  std::string errors;
  ASSERT_EQ(Run(math, &pointer, dim3(1), dim3(1), &errors), mcSuccess);
  EXPECT_FLOAT_EQ(values[0], std::sin(0.5f));
  EXPECT_FLOAT_EQ(values[1], std::sqrt(2.0f));
  EXPECT_FLOAT_EQ(values[2], 3.375f);
  EXPECT_FLOAT_EQ(values[3], static_cast<float>(std::exp(1.0)));
  EXPECT_FLOAT_EQ(values[4], -3.0f);
  EXPECT_FLOAT_EQ(values[5], 4.0f);
}

TEST_F(ImageTest, NewDeleteMallocAndFreeUseTheDeviceHeap) {
  const KernelRecord* heap = Kernel(
      "_ZN13__mc_internal12DeviceKernelIPFvPiEXadL_Z4heapS1_EENS_"
      "12KernelTraitsILx0ELx0ELm0ELy0ELb0EEEE6recordE");
  ASSERT_NE(heap, nullptr);
  std::vector<int> out(8);
  int* pointer = out.data();
  std::string errors;
  ASSERT_EQ(Run(heap, &pointer, dim3(1), dim3(8), &errors), mcSuccess)
      << errors;
  for (int i = 0; i < 8; ++i) EXPECT_EQ(out[i], 100 + i);
  EXPECT_TRUE(DeviceHeapWasUsed());
}

TEST_F(ImageTest, FailedAssertTraps) {
  const KernelRecord* check = Kernel(
      "_ZN13__mc_internal12DeviceKernelIPFvPiEXadL_Z5checkS1_EENS_"
      "12KernelTraitsILx0ELx0ELm0ELy0ELb0EEEE6recordE");
  ASSERT_NE(check, nullptr);
  int value = 2;
  int* pointer = &value;
  std::string errors;
  EXPECT_EQ(Run(check, &pointer, dim3(2), dim3(2), &errors), mcErrorAssert);
  EXPECT_THAT(errors, testing::MatchesRegex(
                          "mxmaca trap: kernel '.*check.*' block \\(0,0,0\\) "
                          "thread \\(0,0,0\\): .*image_kernels.cu:[0-9]+: "
                          "void check\\(int\\*\\): Assertion '\\*value == 1' "
                          "failed.\n"));
}

TEST_F(ImageTest, AssertThatHoldsPasses) {
  // Control of the test above.
  const KernelRecord* check = Kernel(
      "_ZN13__mc_internal12DeviceKernelIPFvPiEXadL_Z5checkS1_EENS_"
      "12KernelTraitsILx0ELx0ELm0ELy0ELb0EEEE6recordE");
  ASSERT_NE(check, nullptr);
  int value = 1;
  int* pointer = &value;
  std::string errors;
  EXPECT_EQ(Run(check, &pointer, dim3(2), dim3(2), &errors), mcSuccess);
  EXPECT_THAT(errors, IsEmpty());
}

}  // namespace
}  // namespace mxcts::device
