// Copyright mxcts authors.
//
// Conformance: mcStreamAttachMemAsync on managed memory
// (docs/spec/api-stream.md, "Attaching managed memory to a stream"): with
// every flag, on mcMallocManaged memory and on a __managed__ variable, the
// attachment is stream work between a kernel before it and one after it
// and changes no value; with concurrent managed access the host and
// kernels in other streams still use the memory; C++ callers may leave out
// the length and the flags. Holds in every timeline mode.

#include <mc_runtime.h>

#include <string>
#include <vector>

#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace {

constexpr int kCount = 1024;

__device__ __managed__ int managed_values[kCount];

__global__ void AddIndex(int* values, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) values[i] += i;
}

struct AttachCase {
  const char* name;
  unsigned flags;
  bool variable;    // the __managed__ variable, not mcMallocManaged memory
  bool whole_size;  // length the allocation's size, not 0
};

class AttachMem : public testing::TestWithParam<AttachCase> {
 protected:
  void SetUp() override { MX_REQUIRE_CAPABILITY("managed_memory"); }
};

TEST_P(AttachMem, IsOrderedBetweenKernelsAndKeepsValues) {
  MX_SPEC("api.stream.attach-mem.ordered-in-stream");
  const AttachCase& c = GetParam();
  int* values = managed_values;
  if (!c.variable) {
    ASSERT_EQ(mcMallocManaged(&values, kCount * sizeof(int)), mcSuccess);
  }
  for (int i = 0; i < kCount; ++i) values[i] = 5 * i;
  mcStream_t stream = nullptr;
  ASSERT_EQ(mcStreamCreate(&stream), mcSuccess);
  AddIndex<<<kCount / 256, 256, 0, stream>>>(values, kCount);
  EXPECT_EQ(
      mcStreamAttachMemAsync(stream, values,
                             c.whole_size ? kCount * sizeof(int) : 0, c.flags),
      mcSuccess);
  AddIndex<<<kCount / 256, 256, 0, stream>>>(values, kCount);
  ASSERT_EQ(mcStreamSynchronize(stream), mcSuccess);
  for (int i = 0; i < kCount; ++i) ASSERT_EQ(values[i], 7 * i) << i;
  // Back to every stream, so that the next test starts as this one did.
  EXPECT_EQ(mcStreamAttachMemAsync(stream, values, 0, mcMemAttachGlobal),
            mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream), mcSuccess);
  EXPECT_EQ(mcStreamDestroy(stream), mcSuccess);
  if (!c.variable) {
    EXPECT_EQ(mcFree(values), mcSuccess);
  }
}

INSTANTIATE_TEST_SUITE_P(
    EveryFlag, AttachMem,
    testing::Values(
        AttachCase{"Global", mcMemAttachGlobal, false, false},
        AttachCase{"Host", mcMemAttachHost, false, false},
        AttachCase{"Single", mcMemAttachSingle, false, false},
        AttachCase{"SingleWholeSize", mcMemAttachSingle, false, true},
        AttachCase{"SingleVariable", mcMemAttachSingle, true, false},
        AttachCase{"HostVariableWholeSize", mcMemAttachHost, true, true}),
    [](const testing::TestParamInfo<AttachCase>& info) {
      return std::string(info.param.name);
    });

class AttachMemTest : public testing::Test {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY("managed_memory");
    int concurrent = 0;
    ASSERT_EQ(mcDeviceGetAttribute(&concurrent,
                                   mcDeviceAttributeConcurrentManagedAccess, 0),
              mcSuccess);
    if (concurrent == 0) {
      GTEST_SKIP() << "unsupported: concurrent managed access";
    }
  }
};

TEST_F(AttachMemTest, SingleAttachmentRestrictsNoStreamAndNotTheHost) {
  MX_SPEC("api.stream.attach-mem.concurrent-access-unrestricted");
  int* values = nullptr;
  ASSERT_EQ(mcMallocManaged(&values, kCount * sizeof(int)), mcSuccess);
  for (int i = 0; i < kCount; ++i) values[i] = 0;
  mcStream_t attached = nullptr, other = nullptr;
  ASSERT_EQ(mcStreamCreate(&attached), mcSuccess);
  ASSERT_EQ(mcStreamCreate(&other), mcSuccess);
  ASSERT_EQ(mcStreamAttachMemAsync(attached, values, 0, mcMemAttachSingle),
            mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(attached), mcSuccess);
  AddIndex<<<kCount / 256, 256, 0, other>>>(values, kCount);
  ASSERT_EQ(mcStreamSynchronize(other), mcSuccess);
  for (int i = 0; i < kCount; ++i) ASSERT_EQ(values[i], i) << i;
  values[3] = 42;  // the host writes while the memory is attached elsewhere
  AddIndex<<<kCount / 256, 256, 0, attached>>>(values, kCount);
  ASSERT_EQ(mcStreamSynchronize(attached), mcSuccess);
  EXPECT_EQ(values[3], 45);
  EXPECT_EQ(mcStreamDestroy(attached), mcSuccess);
  EXPECT_EQ(mcStreamDestroy(other), mcSuccess);
  EXPECT_EQ(mcFree(values), mcSuccess);
}

TEST_F(AttachMemTest, HostAttachmentStillRunsKernels) {
  MX_SPEC("api.stream.attach-mem.concurrent-access-unrestricted",
          "api.memory.managed.attach-host");
  int* values = nullptr;
  ASSERT_EQ(mcMallocManaged(&values, kCount * sizeof(int), mcMemAttachHost),
            mcSuccess);
  for (int i = 0; i < kCount; ++i) values[i] = 1;
  ASSERT_EQ(mcStreamAttachMemAsync(0, values, 0, mcMemAttachHost), mcSuccess);
  AddIndex<<<kCount / 256, 256>>>(values, kCount);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (int i = 0; i < kCount; ++i) ASSERT_EQ(values[i], i + 1) << i;
  EXPECT_EQ(mcFree(values), mcSuccess);
}

TEST_F(AttachMemTest, LengthAndFlagsHaveDefaults) {
  MX_SPEC("api.stream.attach-mem.default-arguments");
  int* values = nullptr;
  ASSERT_EQ(mcMallocManaged(&values, kCount * sizeof(int)), mcSuccess);
  mcStream_t stream = nullptr;
  ASSERT_EQ(mcStreamCreate(&stream), mcSuccess);
  EXPECT_EQ(mcStreamAttachMemAsync(stream, values), mcSuccess);
  EXPECT_EQ(mcStreamAttachMemAsync(stream, values, kCount * sizeof(int)),
            mcSuccess);
  // The default flag is mcMemAttachSingle: refused on the legacy default
  // stream, as mcMemAttachSingle given explicitly is.
  EXPECT_EQ(mcStreamAttachMemAsync(0, values), mcErrorInvalidValue);
  EXPECT_EQ(mcStreamAttachMemAsync(0, values, 0, mcMemAttachGlobal), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream), mcSuccess);
  EXPECT_EQ(mcStreamDestroy(stream), mcSuccess);
  EXPECT_EQ(mcFree(values), mcSuccess);
}

}  // namespace
