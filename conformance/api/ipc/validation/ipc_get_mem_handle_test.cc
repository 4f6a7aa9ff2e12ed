// Copyright mxcts authors.
//
// Conformance: mcIpcGetMemHandle refuses what it cannot export
// (docs/spec/api-ipc.md, "Exporting memory"): a null handle, and every
// kind of memory that mcMalloc did not allocate. Each refusal returns
// mcErrorInvalidValue and changes nothing: the handle's bytes stay as they
// were, and the mcMalloc allocation beside it still exports and still
// holds its contents (the control).

#include <mc_runtime.h>

#include <cstring>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "conformance/api/ipc/ipc_testing.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

__device__ int device_variable[64];

namespace mxcts::conformance::ipc {
namespace {

class OnDevice : public IpcTest<int> {};

std::string DeviceName(const testing::TestParamInfo<int>& info) {
  return "Device" + std::to_string(info.param);
}

TEST_P(OnDevice, NullHandleIsInvalidValue) {
  MX_SPEC("api.ipc.get-mem-handle.null-handle",
          "api.ipc.get-mem-handle.mcmalloc-memory");
  MX_IPC_REQUIRE_DEVICE(GetParam());
  void* p = nullptr;
  ASSERT_EQ(mcMalloc(&p, 4096), mcSuccess);
  ASSERT_EQ(WritePattern(p, 4096, 1), mcSuccess);
  EXPECT_EQ(mcIpcGetMemHandle(nullptr, p), mcErrorInvalidValue);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidValue);
  // Control: the same allocation exports, unchanged.
  mcIpcMemHandle_t handle;
  EXPECT_EQ(mcIpcGetMemHandle(&handle, p), mcSuccess);
  EXPECT_EQ(CheckDevicePattern(p, 4096, 1), "");
  EXPECT_EQ(mcFree(p), mcSuccess);
}

TEST_P(OnDevice, SupportedWithUnifiedAddressing) {
  MX_SPEC("api.ipc.support.requires-unified-addressing");
  MX_IPC_REQUIRE_DEVICE(GetParam());
  int unified = 0;
  ASSERT_EQ(mcDeviceGetAttribute(&unified, mcDeviceAttributeUnifiedAddressing,
                                 GetParam()),
            mcSuccess);
  void* p = nullptr;
  ASSERT_EQ(mcMalloc(&p, 256), mcSuccess);
  mcIpcMemHandle_t handle;
  mcError_t result = mcIpcGetMemHandle(&handle, p);
  if (unified != 0) {
    EXPECT_EQ(result, mcSuccess);
  } else {
    EXPECT_EQ(result, mcErrorNotSupported);
  }
  EXPECT_EQ(mcFree(p), mcSuccess);
}

TEST_P(OnDevice, ExportsAgainFromAnyInteriorAddress) {
  MX_SPEC("api.ipc.get-mem-handle.mcmalloc-memory",
          "api.ipc.get-mem-handle.whole-allocation");
  MX_IPC_REQUIRE_DEVICE(GetParam());
  void* p = nullptr;
  ASSERT_EQ(mcMalloc(&p, 10000), mcSuccess);
  ASSERT_EQ(WritePattern(p, 10000, 1), mcSuccess);
  mcIpcMemHandle_t handle;
  EXPECT_EQ(mcIpcGetMemHandle(&handle, p), mcSuccess);
  EXPECT_EQ(mcIpcGetMemHandle(&handle, p), mcSuccess);
  EXPECT_EQ(mcIpcGetMemHandle(&handle, static_cast<char*>(p) + 5000),
            mcSuccess);
  EXPECT_EQ(mcIpcGetMemHandle(&handle, static_cast<char*>(p) + 9999),
            mcSuccess);
  EXPECT_EQ(CheckDevicePattern(p, 10000, 1), "");
  EXPECT_EQ(mcFree(p), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(Devices, OnDevice, testing::Values(0, 1), DeviceName);

// Memory that mcMalloc did not allocate.
enum class Other {
  kNull,
  kPageable,
  kMallocHost,
  kHostRegister,
  kManaged,
  kDeviceVariable,
  kFreed,
  kPastEnd,
  kStreamOrdered,  // mcMallocAsync: shared through pools, not handles
};

const char* OtherName(Other other) {
  switch (other) {
    case Other::kNull:
      return "Null";
    case Other::kPageable:
      return "Pageable";
    case Other::kMallocHost:
      return "MallocHost";
    case Other::kHostRegister:
      return "HostRegister";
    case Other::kManaged:
      return "Managed";
    case Other::kDeviceVariable:
      return "DeviceVariable";
    case Other::kFreed:
      return "FreedMalloc";
    case Other::kPastEnd:
      return "PastTheEnd";
    case Other::kStreamOrdered:
      return "StreamOrdered";
  }
  return "Unknown";
}

// Makes the memory of `other` and releases it at the end of the scope.
class OtherMemory {
 public:
  explicit OtherMemory(Other other) : other_(other), pageable_(8192) {
    switch (other) {
      case Other::kNull:
        break;
      case Other::kPageable:
        pointer_ = pageable_.data();
        break;
      case Other::kMallocHost:
        made_ = mcMallocHost(&pointer_, 4096);
        break;
      case Other::kHostRegister:
        pointer_ = pageable_.data();
        made_ = mcHostRegister(pointer_, 4096, mcHostRegisterDefault);
        break;
      case Other::kManaged:
        made_ = mcMallocManaged(&pointer_, 4096);
        break;
      case Other::kDeviceVariable:
        made_ = mcGetSymbolAddress(&pointer_, device_variable);
        break;
      case Other::kFreed:
        made_ = mcMalloc(&pointer_, 4096);
        if (made_ == mcSuccess) made_ = mcFree(pointer_);
        break;
      case Other::kPastEnd:
        // The address after a live allocation's last page: its guard.
        made_ = mcMalloc(&base_, 4096);
        pointer_ = static_cast<char*>(base_) + 4096;
        break;
      case Other::kStreamOrdered:
        made_ = mcMallocAsync(&pointer_, 4096, nullptr);
        if (made_ == mcSuccess) made_ = mcDeviceSynchronize();
        break;
    }
  }
  ~OtherMemory() {
    switch (other_) {
      case Other::kMallocHost:
        mcFreeHost(pointer_);
        break;
      case Other::kHostRegister:
        mcHostUnregister(pointer_);
        break;
      case Other::kManaged:
        mcFree(pointer_);
        break;
      case Other::kPastEnd:
        mcFree(base_);
        break;
      case Other::kStreamOrdered:
        mcFreeAsync(pointer_, nullptr);
        mcDeviceSynchronize();
        break;
      default:
        break;
    }
  }
  mcError_t made() const { return made_; }
  void* get() const { return pointer_; }

 private:
  Other other_;
  std::vector<char> pageable_;
  void* pointer_ = nullptr;
  void* base_ = nullptr;
  mcError_t made_ = mcSuccess;
};

using OtherCase = std::tuple<Other, int>;

class OtherMemoryTest : public IpcTest<OtherCase> {};

TEST_P(OtherMemoryTest, IsInvalidValueAndChangesNothing) {
  MX_SPEC("api.ipc.get-mem-handle.other-memory",
          "api.ipc.get-mem-handle.mcmalloc-memory");
  MX_IPC_REQUIRE_DEVICE(std::get<1>(GetParam()));
  const Other other = std::get<0>(GetParam());
  if (other == Other::kManaged) MX_REQUIRE_CAPABILITY("managed_memory");
  if (other == Other::kStreamOrdered) MX_REQUIRE_CAPABILITY("memory_pools");
  OtherMemory memory(other);
  ASSERT_EQ(memory.made(), mcSuccess);
  mcIpcMemHandle_t handle;
  std::memset(&handle, 0x5a, sizeof handle);
  EXPECT_EQ(mcIpcGetMemHandle(&handle, memory.get()), mcErrorInvalidValue);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidValue);
  mcIpcMemHandle_t untouched;
  std::memset(&untouched, 0x5a, sizeof untouched);
  EXPECT_EQ(std::memcmp(&handle, &untouched, sizeof handle), 0);
  // Control: an mcMalloc allocation of the same device exports.
  void* p = nullptr;
  ASSERT_EQ(mcMalloc(&p, 4096), mcSuccess);
  EXPECT_EQ(mcIpcGetMemHandle(&handle, p), mcSuccess);
  EXPECT_EQ(mcFree(p), mcSuccess);
}

std::string OtherCaseName(const testing::TestParamInfo<OtherCase>& info) {
  return std::string(OtherName(std::get<0>(info.param))) + "_Device" +
         std::to_string(std::get<1>(info.param));
}

INSTANTIATE_TEST_SUITE_P(
    Kinds, OtherMemoryTest,
    testing::Combine(testing::Values(Other::kNull, Other::kPageable,
                                     Other::kMallocHost, Other::kHostRegister,
                                     Other::kManaged, Other::kDeviceVariable,
                                     Other::kFreed, Other::kPastEnd,
                                     Other::kStreamOrdered),
                     testing::Values(0, 1)),
    OtherCaseName);

TEST_P(OnDevice, MappingOfAnotherProcessIsInvalidValue) {
  MX_SPEC("api.ipc.get-mem-handle.other-memory");
  MX_IPC_REQUIRE_DEVICE(GetParam());
  ExporterChild exporter(GetParam(), 4096);
  ASSERT_TRUE(exporter.ok()) << exporter.problem();
  void* q = nullptr;
  ASSERT_EQ(mcIpcOpenMemHandle(&q, exporter.handle(), 0), mcSuccess);
  // The mapping is not this process's mcMalloc memory.
  mcIpcMemHandle_t handle;
  EXPECT_EQ(mcIpcGetMemHandle(&handle, q), mcErrorInvalidValue);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidValue);
  EXPECT_EQ(CheckDevicePattern(q, 4096, 1), "");
  EXPECT_EQ(mcIpcCloseMemHandle(q), mcSuccess);
  // Control: the exporter's own allocation exported.
  EXPECT_EQ(exporter.Check(1), "ok");
}

TEST(IpcHandles, AreSixtyFourPlainBytes) {
  MX_SPEC("api.ipc.handle.size", "api.ipc.handle.plain-data");
  MX_REQUIRE_CAPABILITY("ipc");
  EXPECT_EQ(MC_IPC_HANDLE_SIZE, 64);
  EXPECT_EQ(sizeof(mcIpcMemHandle_t), size_t{MC_IPC_HANDLE_SIZE});
  EXPECT_EQ(sizeof(mcIpcEventHandle_t), size_t{MC_IPC_HANDLE_SIZE});
  EXPECT_TRUE(std::is_trivially_copyable<mcIpcMemHandle_t>::value);
  EXPECT_TRUE(std::is_trivially_copyable<mcIpcEventHandle_t>::value);
}

}  // namespace
}  // namespace mxcts::conformance::ipc
