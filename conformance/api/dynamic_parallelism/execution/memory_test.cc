// Copyright mxcts authors.
//
// Conformance: memory shared between parent and child grids
// (docs/spec/api-dynamic-parallelism.md, "Memory visibility"): global
// memory of every origin, __device__ and __constant__ variables and mapped
// host memory mean the same storage in both; __isGlobal tells global
// memory from shared and private memory; a pointer to shared or private
// memory passed to a child is reported; the device runtime's copies and
// fills work on global memory and refuse shared and private memory.

#include <mc_runtime.h>

#include <cstring>
#include <string>
#include <vector>

#include "conformance/api/dynamic_parallelism/execution/device_launch_testing.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"
#include "gtest/gtest.h"

namespace {

using dp_testing::DeviceArray;

__device__ int device_cell;
__constant__ int constant_table[4];

// --- Global memory of every origin. ---

enum class Origin { kRuntime, kDeviceMalloc, kDeviceVariable, kManaged };

__managed__ int managed_cell;

__global__ void AddOne(int* cell) { *cell += 1; }

__global__ void ParentAddsThroughChild(Origin origin, int* runtime_cell,
                                       int* result) {
  int* cell = nullptr;
  switch (origin) {
    case Origin::kRuntime:
      cell = runtime_cell;
      break;
    case Origin::kDeviceMalloc:
      cell = static_cast<int*>(malloc(sizeof(int)));
      break;
    case Origin::kDeviceVariable:
      cell = &device_cell;
      break;
    case Origin::kManaged:
      cell = &managed_cell;
      break;
  }
  *cell = 10;
  AddOne<<<1, 1>>>(cell);
  mcDeviceSynchronize();
  *cell += 100;
  AddOne<<<1, 1>>>(cell);
  mcDeviceSynchronize();
  *result = *cell;
  if (origin == Origin::kDeviceMalloc) free(cell);
}

class GlobalOriginTest : public ::testing::TestWithParam<Origin> {};

TEST_P(GlobalOriginTest, ParentAndChildShareTheStorage) {
  MX_SPEC("api.devrt.memory.global-and-constant-shared-with-children",
          "api.devrt.memory.parent-writes-visible-at-launch",
          "api.devrt.memory.child-writes-visible-after-sync");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  DeviceArray<int> runtime_cell(1);
  DeviceArray<int> result(1);
  ParentAddsThroughChild<<<1, 1>>>(GetParam(), runtime_cell.get(),
                                   result.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(result.At(0), 112);
}

INSTANTIATE_TEST_SUITE_P(Origins, GlobalOriginTest,
                         ::testing::Values(Origin::kRuntime,
                                           Origin::kDeviceMalloc,
                                           Origin::kDeviceVariable,
                                           Origin::kManaged));

__global__ void ChildWritesDeviceVariable(int value) { device_cell = value; }
__global__ void ParentLaunchesVariableWriter(int value) {
  ChildWritesDeviceVariable<<<1, 1>>>(value);
}

TEST(DeviceVariables, ChildWriteOfADeviceVariableIsSeenByTheHost) {
  MX_SPEC("api.devrt.memory.global-and-constant-shared-with-children",
          "api.devrt.memory.child-writes-visible-after-sync");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  ParentLaunchesVariableWriter<<<1, 1>>>(4242);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  int value = 0;
  ASSERT_EQ(mcMemcpyFromSymbol(&value, device_cell, sizeof(value)), mcSuccess);
  EXPECT_EQ(value, 4242);
}

// --- Constant memory. ---

__global__ void SumConstantsInChild(const int* table, int* out) {
  *out = table[0] + table[1] + table[2] + table[3] + constant_table[3];
}

__global__ void PassConstantPointer(int* parent_out, int* child_out) {
  *parent_out = constant_table[0] + constant_table[1] + constant_table[2] +
                constant_table[3] + constant_table[3];
  SumConstantsInChild<<<1, 1>>>(constant_table, child_out);
}

class ConstantTest : public ::testing::TestWithParam<int> {};

TEST_P(ConstantTest, ChildSeesTheParentsConstantValues) {
  MX_SPEC("api.devrt.memory.constant-read-only-and-inherited",
          "api.devrt.memory.global-and-constant-shared-with-children");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  const int base = GetParam();
  const int table[4] = {base, base + 1, base + 2, base + 3};
  ASSERT_EQ(mcMemcpyToSymbol(constant_table, table, sizeof(table)), mcSuccess);
  DeviceArray<int> parent_out(1);
  DeviceArray<int> child_out(1);
  PassConstantPointer<<<1, 1>>>(parent_out.get(), child_out.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(parent_out.At(0), 4 * base + 6 + base + 3);
  EXPECT_EQ(child_out.At(0), parent_out.At(0));
}

INSTANTIATE_TEST_SUITE_P(Bases, ConstantTest, ::testing::Values(0, 7, -50));

// --- Mapped host memory. ---

__global__ void ChildDoubles(int* cells, int count) {
  for (int i = 0; i < count; ++i) cells[i] *= 2;
}
__global__ void ParentOnMapped(int* cells, int count) {
  ChildDoubles<<<1, 1>>>(cells, count);
  mcDeviceSynchronize();
  cells[0] += 1;
}

class MappedMemoryTest : public ::testing::TestWithParam<int> {};

TEST_P(MappedMemoryTest, MappedHostMemoryBehavesAsGlobalMemory) {
  MX_SPEC("api.devrt.memory.zero-copy-same-as-global");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  const int count = GetParam();
  int* host = nullptr;
  ASSERT_EQ(mcHostAlloc(reinterpret_cast<void**>(&host), count * sizeof(int),
                        mcHostAllocMapped),
            mcSuccess);
  for (int i = 0; i < count; ++i) host[i] = i + 1;
  int* device = nullptr;
  ASSERT_EQ(mcHostGetDevicePointer(reinterpret_cast<void**>(&device), host, 0),
            mcSuccess);
  ParentOnMapped<<<1, 1>>>(device, count);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(host[0], 3);
  for (int i = 1; i < count; ++i) EXPECT_EQ(host[i], 2 * (i + 1));
  mcFreeHost(host);
}

INSTANTIATE_TEST_SUITE_P(Cells, MappedMemoryTest, ::testing::Values(1, 100));

// --- __isGlobal. ---

enum class Space {
  kRuntime,
  kHeap,
  kDeviceVariable,
  kConstant,
  kStaticShared,
  kDynamicShared,
  kLocal,
  kLocalArray,
};

__global__ void Classify(Space space, int* runtime_cell, unsigned* out) {
  __shared__ int shared_cell;
  extern __shared__ int dynamic_area[];
  int local = 0;
  int local_array[8] = {};
  const void* p = nullptr;
  void* heap = nullptr;
  switch (space) {
    case Space::kRuntime:
      p = runtime_cell;
      break;
    case Space::kHeap:
      heap = malloc(16);
      p = heap;
      break;
    case Space::kDeviceVariable:
      p = &device_cell;
      break;
    case Space::kConstant:
      p = &constant_table[1];
      break;
    case Space::kStaticShared:
      p = &shared_cell;
      break;
    case Space::kDynamicShared:
      p = &dynamic_area[2];
      break;
    case Space::kLocal:
      p = &local;
      break;
    case Space::kLocalArray:
      p = &local_array[5];
      break;
  }
  *out = __isGlobal(p) != 0 ? 1 : 0;
  free(heap);
}

class IsGlobalTest
    : public ::testing::TestWithParam<std::tuple<Space, unsigned>> {};

TEST_P(IsGlobalTest, IsGlobalTellsGlobalFromSharedAndPrivate) {
  MX_SPEC("api.devrt.memory.isglobal-intrinsic");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  DeviceArray<int> runtime_cell(1);
  DeviceArray<unsigned> out(1);
  Classify<<<1, 1, 64>>>(std::get<0>(GetParam()), runtime_cell.get(),
                         out.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(out.At(0), std::get<1>(GetParam()));
}

INSTANTIATE_TEST_SUITE_P(
    Spaces, IsGlobalTest,
    ::testing::Values(std::make_tuple(Space::kRuntime, 1u),
                      std::make_tuple(Space::kHeap, 1u),
                      std::make_tuple(Space::kDeviceVariable, 1u),
                      std::make_tuple(Space::kConstant, 1u),
                      std::make_tuple(Space::kStaticShared, 0u),
                      std::make_tuple(Space::kDynamicShared, 0u),
                      std::make_tuple(Space::kLocal, 0u),
                      std::make_tuple(Space::kLocalArray, 0u)));

// --- Shared and private pointers passed to a child. ---

__global__ void IgnorePointer(int* p) { (void)p; }

__global__ void PassPointer(Space space, int* global) {
  __shared__ int shared_cell;
  int local = 0;
  int* p = global;
  if (space == Space::kStaticShared) p = &shared_cell;
  if (space == Space::kLocal) p = &local;
  IgnorePointer<<<1, 1>>>(p);
  mcDeviceSynchronize();
}

class PrivateArgumentTest
    : public ::testing::TestWithParam<std::tuple<Space, const char*>> {};

TEST_P(PrivateArgumentTest, PointerToSharedOrPrivateMemoryIsReported) {
  MX_SPEC("api.devrt.memory.shared-pointer-to-child-undefined",
          "api.devrt.memory.local-pointer-to-child-undefined",
          "api.devrt.memory.compiler-may-warn-on-private-argument");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  DeviceArray<int> global(1);
  ::testing::internal::CaptureStderr();
  PassPointer<<<1, 1>>>(std::get<0>(GetParam()), global.get());
  const mcError_t error = mcDeviceSynchronize();
  const std::string diagnostics = ::testing::internal::GetCapturedStderr();
  ASSERT_EQ(error, mcSuccess);
  const char* expected = std::get<1>(GetParam());
  if (expected == nullptr) {
    EXPECT_EQ(diagnostics.find("IgnorePointer"), std::string::npos)
        << diagnostics;
  } else {
    EXPECT_NE(diagnostics.find(expected), std::string::npos) << diagnostics;
    EXPECT_NE(diagnostics.find("IgnorePointer"), std::string::npos)
        << diagnostics;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Pointers, PrivateArgumentTest,
    ::testing::Values(
        std::make_tuple(Space::kStaticShared, "points to shared memory"),
        std::make_tuple(Space::kLocal, "points to private"),
        std::make_tuple(Space::kRuntime, static_cast<const char*>(nullptr))));

// --- The device runtime's copies and fills. ---

__global__ void CopyInDevice(const char* source, char* destination,
                             size_t count, int* status) {
  *status =
      mcMemcpyAsync(destination, source, count, mcMemcpyDeviceToDevice, 0);
  mcDeviceSynchronize();
}

class DeviceCopyTest : public ::testing::TestWithParam<size_t> {};

TEST_P(DeviceCopyTest, MemcpyAsyncInDeviceCodeCopies) {
  MX_SPEC("api.devrt.api.subset-of-host-api");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  const size_t count = GetParam();
  std::vector<char> bytes(count);
  for (size_t i = 0; i < count; ++i) bytes[i] = static_cast<char>(i * 7 + 1);
  DeviceArray<char> source(count);
  DeviceArray<char> destination(count);
  DeviceArray<int> status(1);
  mcMemcpy(source.get(), bytes.data(), count, mcMemcpyHostToDevice);
  CopyInDevice<<<1, 1>>>(source.get(), destination.get(), count, status.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(status.At(0), mcSuccess);
  EXPECT_EQ(destination.ToHost(), bytes);
}

INSTANTIATE_TEST_SUITE_P(Bytes, DeviceCopyTest,
                         ::testing::Values(size_t{1}, size_t{7}, size_t{64},
                                           size_t{4096}));

__global__ void FillInDevice(char* destination, int value, size_t count,
                             int* status) {
  *status = mcMemsetAsync(destination, value, count, 0);
}

class DeviceFillTest
    : public ::testing::TestWithParam<std::tuple<int, size_t>> {};

TEST_P(DeviceFillTest, MemsetAsyncInDeviceCodeFills) {
  MX_SPEC("api.devrt.api.subset-of-host-api");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  const int value = std::get<0>(GetParam());
  const size_t count = std::get<1>(GetParam());
  DeviceArray<char> destination(count + 1);
  DeviceArray<int> status(1);
  FillInDevice<<<1, 1>>>(destination.get(), value, count, status.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(status.At(0), mcSuccess);
  const std::vector<char> bytes = destination.ToHost();
  for (size_t i = 0; i < count; ++i) {
    ASSERT_EQ(bytes[i], static_cast<char>(value)) << i;
  }
  EXPECT_EQ(bytes[count], 0);
}

INSTANTIATE_TEST_SUITE_P(Fills, DeviceFillTest,
                         ::testing::Combine(::testing::Values(0x5a, 0xff),
                                            ::testing::Values(size_t{1},
                                                              size_t{100})));

__global__ void Copy2DInDevice(const int* source, int* destination,
                               int* status) {
  // 3 rows of 2 ints out of rows of 4 ints into rows of 3 ints.
  *status =
      mcMemcpy2DAsync(destination, 3 * sizeof(int), source, 4 * sizeof(int),
                      2 * sizeof(int), 3, mcMemcpyDeviceToDevice, 0);
}

TEST(Device2DCopy, Memcpy2DAsyncInDeviceCodeCopiesRows) {
  MX_SPEC("api.devrt.api.subset-of-host-api");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  std::vector<int> rows(12);
  for (int i = 0; i < 12; ++i) rows[i] = i;
  DeviceArray<int> source(12);
  DeviceArray<int> destination(9);
  DeviceArray<int> status(1);
  mcMemcpy(source.get(), rows.data(), sizeof(int) * 12, mcMemcpyHostToDevice);
  Copy2DInDevice<<<1, 1>>>(source.get(), destination.get(), status.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(status.At(0), mcSuccess);
  EXPECT_EQ(destination.ToHost(),
            (std::vector<int>{0, 1, 0, 4, 5, 0, 8, 9, 0}));
}

__global__ void Fill2DInDevice(char* destination, int* status) {
  *status = mcMemset2DAsync(destination, 4, 0x11, 3, 2, 0);
}

TEST(Device2DFill, Memset2DAsyncInDeviceCodeFillsRows) {
  MX_SPEC("api.devrt.api.subset-of-host-api");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  DeviceArray<char> destination(8);
  DeviceArray<int> status(1);
  Fill2DInDevice<<<1, 1>>>(destination.get(), status.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(status.At(0), mcSuccess);
  EXPECT_EQ(destination.ToHost(),
            (std::vector<char>{0x11, 0x11, 0x11, 0, 0x11, 0x11, 0x11, 0}));
}

// A 2 x 2 x 2 box of bytes out of a 4 x 3 x 2 allocation into a packed one.
__global__ void Copy3DInDevice(char* source, char* destination, int* status) {
  mcMemcpy3DParms p = {};
  p.srcPtr = make_mcPitchedPtr(source, 4, 4, 3);
  p.srcPos = make_mcPos(1, 1, 0);
  p.dstPtr = make_mcPitchedPtr(destination, 2, 2, 2);
  p.extent = make_mcExtent(2, 2, 2);
  p.kind = mcMemcpyDeviceToDevice;
  status[0] = mcMemcpy3DAsync(&p, 0);
  status[1] = mcMemset3DAsync(make_mcPitchedPtr(source, 4, 4, 3), 0x7f,
                              make_mcExtent(1, 3, 2), 0);
}

TEST(Device3D, Memcpy3DAsyncAndMemset3DAsyncInDeviceCodeWorkOnBoxes) {
  MX_SPEC("api.devrt.api.subset-of-host-api");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  std::vector<char> bytes(24);
  for (int i = 0; i < 24; ++i) bytes[i] = static_cast<char>(i);
  DeviceArray<char> source(24);
  DeviceArray<char> destination(8);
  DeviceArray<int> status(2);
  mcMemcpy(source.get(), bytes.data(), 24, mcMemcpyHostToDevice);
  Copy3DInDevice<<<1, 1>>>(source.get(), destination.get(), status.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(status.At(0), mcSuccess);
  EXPECT_EQ(status.At(1), mcSuccess);
  EXPECT_EQ(destination.ToHost(),
            (std::vector<char>{5, 6, 9, 10, 17, 18, 21, 22}));
  const std::vector<char> filled = source.ToHost();
  for (int i = 0; i < 24; ++i) {
    EXPECT_EQ(filled[i], i % 4 == 0 ? 0x7f : i) << i;
  }
}

__global__ void CopyFromPrivate(Space space, char* global, int* status) {
  __shared__ char shared_bytes[16];
  char local_bytes[16] = {};
  const char* source = space == Space::kStaticShared ? shared_bytes
                       : space == Space::kLocal      ? local_bytes
                                                     : global + 16;
  status[0] = mcMemcpyAsync(global, source, 16, mcMemcpyDeviceToDevice, 0);
  status[1] = mcGetLastError();
  status[2] = mcMemsetAsync(const_cast<char*>(source), 0, 4, 0);
}

class PrivateCopyTest
    : public ::testing::TestWithParam<std::tuple<Space, mcError_t>> {};

TEST_P(PrivateCopyTest, DeviceCopiesRefuseSharedAndPrivateMemory) {
  MX_SPEC("api.devrt.memory.async-copy-of-private-memory-undefined");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  DeviceArray<char> global(32);
  DeviceArray<int> status(3);
  CopyFromPrivate<<<1, 1>>>(std::get<0>(GetParam()), global.get(),
                            status.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  const mcError_t expected = std::get<1>(GetParam());
  EXPECT_EQ(status.At(0), expected);
  EXPECT_EQ(status.At(1), expected);
  EXPECT_EQ(status.At(2), expected);
}

INSTANTIATE_TEST_SUITE_P(
    Sources, PrivateCopyTest,
    ::testing::Values(std::make_tuple(Space::kStaticShared,
                                      mcErrorInvalidValue),
                      std::make_tuple(Space::kLocal, mcErrorInvalidValue),
                      std::make_tuple(Space::kRuntime, mcSuccess)));

}  // namespace
