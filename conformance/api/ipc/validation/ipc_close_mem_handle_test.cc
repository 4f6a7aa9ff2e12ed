// Copyright mxcts authors.
//
// Conformance: mcIpcCloseMemHandle refuses every pointer that is not an
// open mapping of mcIpcOpenMemHandle, and mcFree refuses a mapping
// (docs/spec/api-ipc.md, "Importing memory"). Each refusal returns
// mcErrorInvalidValue and leaves what the pointer points at as it was;
// the control is the close of the open mapping.

#include <mc_runtime.h>

#include <string>
#include <tuple>
#include <vector>

#include "conformance/api/ipc/ipc_testing.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance::ipc {
namespace {

enum class NotOpened {
  kNull,
  kMalloc,
  kMallocHost,
  kPageable,
  kInsideMapping,
  kClosedMapping,
};

const char* NotOpenedName(NotOpened kind) {
  switch (kind) {
    case NotOpened::kNull:
      return "Null";
    case NotOpened::kMalloc:
      return "McMalloc";
    case NotOpened::kMallocHost:
      return "McMallocHost";
    case NotOpened::kPageable:
      return "Pageable";
    case NotOpened::kInsideMapping:
      return "InsideMapping";
    case NotOpened::kClosedMapping:
      return "ClosedMapping";
  }
  return "Unknown";
}

using Case = std::tuple<NotOpened, int>;

class CloseNotOpened : public IpcTest<Case> {};

TEST_P(CloseNotOpened, IsInvalidValueAndChangesNothing) {
  MX_SPEC("api.ipc.close-mem-handle.not-opened",
          "api.ipc.close-mem-handle.unmaps");
  const auto [kind, device] = GetParam();
  MX_IPC_REQUIRE_DEVICE(device);
  ExporterChild exporter(device, 8192);
  ASSERT_TRUE(exporter.ok()) << exporter.problem();
  void* q = nullptr;
  ASSERT_EQ(mcIpcOpenMemHandle(&q, exporter.handle(), 0), mcSuccess);
  std::vector<char> pageable(4096);
  void* own = nullptr;
  void* target = nullptr;
  switch (kind) {
    case NotOpened::kNull:
      break;
    case NotOpened::kMalloc:
      ASSERT_EQ(mcMalloc(&own, 4096), mcSuccess);
      ASSERT_EQ(WritePattern(own, 4096, 2), mcSuccess);
      target = own;
      break;
    case NotOpened::kMallocHost:
      ASSERT_EQ(mcMallocHost(&own, 4096), mcSuccess);
      target = own;
      break;
    case NotOpened::kPageable:
      target = pageable.data();
      break;
    case NotOpened::kInsideMapping:
      target = static_cast<char*>(q) + 1;
      break;
    case NotOpened::kClosedMapping: {
      void* second = nullptr;
      ExporterChild other(device, 4096);
      ASSERT_TRUE(other.ok()) << other.problem();
      ASSERT_EQ(mcIpcOpenMemHandle(&second, other.handle(), 0), mcSuccess);
      ASSERT_EQ(mcIpcCloseMemHandle(second), mcSuccess);
      target = second;
      break;
    }
  }
  EXPECT_EQ(mcIpcCloseMemHandle(target), mcErrorInvalidValue);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidValue);
  // Nothing changed: the mapping and the other memory still work.
  EXPECT_EQ(CheckDevicePattern(q, 8192, 1), "");
  if (kind == NotOpened::kMalloc) {
    EXPECT_EQ(CheckDevicePattern(own, 4096, 2), "");
    EXPECT_EQ(mcFree(own), mcSuccess);
  }
  if (kind == NotOpened::kMallocHost) {
    EXPECT_EQ(mcFreeHost(own), mcSuccess);
  }
  // Control: the open mapping closes.
  EXPECT_EQ(mcIpcCloseMemHandle(q), mcSuccess);
  EXPECT_EQ(exporter.Check(1), "ok");
}

std::string CaseName(const testing::TestParamInfo<Case>& info) {
  return std::string(NotOpenedName(std::get<0>(info.param))) + "_Device" +
         std::to_string(std::get<1>(info.param));
}

INSTANTIATE_TEST_SUITE_P(
    Pointers, CloseNotOpened,
    testing::Combine(testing::Values(NotOpened::kNull, NotOpened::kMalloc,
                                     NotOpened::kMallocHost,
                                     NotOpened::kPageable,
                                     NotOpened::kInsideMapping,
                                     NotOpened::kClosedMapping),
                     testing::Values(0, 1)),
    CaseName);

class FreeMapping : public IpcTest<int> {};

TEST_P(FreeMapping, McFreeIsInvalidValue) {
  MX_SPEC("api.ipc.close-mem-handle.mcfree-rejected");
  MX_IPC_REQUIRE_DEVICE(GetParam());
  ExporterChild exporter(GetParam(), 4096);
  ASSERT_TRUE(exporter.ok()) << exporter.problem();
  void* q = nullptr;
  ASSERT_EQ(mcIpcOpenMemHandle(&q, exporter.handle(), 0), mcSuccess);
  EXPECT_EQ(mcFree(q), mcErrorInvalidValue);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidValue);
  EXPECT_EQ(CheckDevicePattern(q, 4096, 1), "");
  // Control: mcIpcCloseMemHandle releases it.
  EXPECT_EQ(mcIpcCloseMemHandle(q), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(Devices, FreeMapping, testing::Values(0, 1),
                         DeviceName);

}  // namespace
}  // namespace mxcts::conformance::ipc
