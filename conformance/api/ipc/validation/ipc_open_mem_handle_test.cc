// Copyright mxcts authors.
//
// Conformance: mcIpcOpenMemHandle refuses what it cannot map
// (docs/spec/api-ipc.md, "Importing memory"): a handle of the calling
// process, flags other than 0 and mcIpcMemLazyEnablePeerAccess, a null
// pointer, and handles that no live allocation stands behind. A refusal
// stores nothing; the control beside each is the same handle opened
// correctly (by another process, with good flags, before the allocation
// went).

#include <mc_runtime.h>

#include <cstring>
#include <string>
#include <tuple>

#include "conformance/api/ipc/ipc_testing.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance::ipc {
namespace {

void* const kUntouched = reinterpret_cast<void*>(0x1234);

// Child: opens the handle it receives with flags "flags" and checks that
// the memory holds pattern 1 over "size" bytes, then closes it.
MX_CHILD_ROLE(OpenAndCheck) {
  const unsigned flags =
      static_cast<unsigned>(ChildArgument(argument, "flags", 0));
  const size_t size =
      static_cast<size_t>(ChildArgument(argument, "size", 4096));
  mcIpcMemHandle_t handle;
  if (!FromHex(parent.Receive(), &handle)) return "no handle received";
  return OpenCheckClose(handle, flags, size, 1);
}

using DeviceAndFlags = std::tuple<int, unsigned>;

std::string DeviceAndFlagsName(
    const testing::TestParamInfo<DeviceAndFlags>& info) {
  return "Device" + std::to_string(std::get<0>(info.param)) +
         (std::get<1>(info.param) == 0 ? "_NoFlags" : "_LazyPeerAccess");
}

class OpenMemHandle : public IpcTest<DeviceAndFlags> {};

TEST_P(OpenMemHandle, OwnHandleIsDeviceUninitialized) {
  MX_SPEC("api.ipc.open-mem-handle.same-process",
          "api.ipc.open-mem-handle.maps-in-other-process");
  const auto [device, flags] = GetParam();
  MX_IPC_REQUIRE_DEVICE(device);
  void* p = nullptr;
  mcIpcMemHandle_t handle;
  ASSERT_EQ(MallocAndExport(4096, &p, &handle), mcSuccess);
  void* q = kUntouched;
  EXPECT_EQ(mcIpcOpenMemHandle(&q, handle, flags), mcErrorDeviceUninitialized);
  EXPECT_EQ(mcGetLastError(), mcErrorDeviceUninitialized);
  EXPECT_EQ(q, kUntouched);
  EXPECT_EQ(CheckDevicePattern(p, 4096, 1), "");
  // Control: another process opens the same handle.
  ChildProcess child("OpenAndCheck", "flags=" + std::to_string(flags));
  ASSERT_TRUE(child.Send(ToHex(handle)));
  EXPECT_EQ(child.Wait(), 0);
  EXPECT_EQ(mcFree(p), mcSuccess);
}

TEST_P(OpenMemHandle, NullPointerIsInvalidValue) {
  MX_SPEC("api.ipc.open-mem-handle.null-pointer");
  const auto [device, flags] = GetParam();
  MX_IPC_REQUIRE_DEVICE(device);
  ExporterChild exporter(device, 4096);
  ASSERT_TRUE(exporter.ok()) << exporter.problem();
  EXPECT_EQ(mcIpcOpenMemHandle(nullptr, exporter.handle(), flags),
            mcErrorInvalidValue);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidValue);
  // Control: with a pointer, the handle opens.
  EXPECT_EQ(OpenCheckClose(exporter.handle(), flags, 4096, 1), "");
}

// Handles that no live allocation stands behind.
enum class Stale { kZero, kRandom, kCorrupted, kFreed, kExporterExited };

const char* StaleName(Stale stale) {
  switch (stale) {
    case Stale::kZero:
      return "AllZero";
    case Stale::kRandom:
      return "RandomBytes";
    case Stale::kCorrupted:
      return "OneByteChanged";
    case Stale::kFreed:
      return "AllocationFreed";
    case Stale::kExporterExited:
      return "ExporterExited";
  }
  return "Unknown";
}

using StaleCase = std::tuple<Stale, int, unsigned>;

class InvalidMemHandle : public IpcTest<StaleCase> {};

TEST_P(InvalidMemHandle, IsInvalidValue) {
  MX_SPEC("api.ipc.open-mem-handle.invalid-handle",
          "api.ipc.open-mem-handle.maps-in-other-process");
  const auto [stale, device, flags] = GetParam();
  MX_IPC_REQUIRE_DEVICE(device);
  ExporterChild exporter(device, 4096);
  ASSERT_TRUE(exporter.ok()) << exporter.problem();
  // Control: the exporter's live handle opens.
  ASSERT_EQ(OpenCheckClose(exporter.handle(), flags, 4096, 1), "");

  mcIpcMemHandle_t handle = exporter.handle();
  switch (stale) {
    case Stale::kZero:
      std::memset(&handle, 0, sizeof handle);
      break;
    case Stale::kRandom:
      for (size_t i = 0; i < sizeof handle; ++i) {
        handle.reserved[i] = static_cast<char>(i * 37 + 11);
      }
      break;
    case Stale::kCorrupted:
      handle.reserved[sizeof handle / 2] ^= 0x10;
      break;
    case Stale::kFreed:
      ASSERT_EQ(exporter.Free(), "freed");
      break;
    case Stale::kExporterExited:
      ASSERT_EQ(exporter.Exit(), 0);
      break;
  }
  void* q = kUntouched;
  EXPECT_EQ(mcIpcOpenMemHandle(&q, handle, flags), mcErrorInvalidValue);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidValue);
  EXPECT_EQ(q, kUntouched);
}

std::string StaleCaseName(const testing::TestParamInfo<StaleCase>& info) {
  return std::string(StaleName(std::get<0>(info.param))) + "_Device" +
         std::to_string(std::get<1>(info.param)) +
         (std::get<2>(info.param) == 0 ? "_NoFlags" : "_LazyPeerAccess");
}

INSTANTIATE_TEST_SUITE_P(
    Handles, InvalidMemHandle,
    testing::Combine(
        testing::Values(Stale::kZero, Stale::kRandom, Stale::kCorrupted,
                        Stale::kFreed, Stale::kExporterExited),
        testing::Values(0, 1),
        testing::Values(0u, unsigned{mcIpcMemLazyEnablePeerAccess})),
    StaleCaseName);

INSTANTIATE_TEST_SUITE_P(
    Cases, OpenMemHandle,
    testing::Combine(testing::Values(0, 1),
                     testing::Values(0u,
                                     unsigned{mcIpcMemLazyEnablePeerAccess})),
    DeviceAndFlagsName);

class InvalidFlags : public IpcTest<unsigned> {};

TEST_P(InvalidFlags, AreInvalidValue) {
  MX_SPEC("api.ipc.open-mem-handle.invalid-flags");
  MX_IPC_REQUIRE_DEVICE(0);
  ExporterChild exporter(0, 4096);
  ASSERT_TRUE(exporter.ok()) << exporter.problem();
  void* q = kUntouched;
  EXPECT_EQ(mcIpcOpenMemHandle(&q, exporter.handle(), GetParam()),
            mcErrorInvalidValue);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidValue);
  EXPECT_EQ(q, kUntouched);
  // Control: the accepted flags open it.
  for (unsigned flags : {0u, unsigned{mcIpcMemLazyEnablePeerAccess}}) {
    EXPECT_EQ(OpenCheckClose(exporter.handle(), flags, 4096, 1), "");
  }
}

INSTANTIATE_TEST_SUITE_P(Values, InvalidFlags,
                         testing::Values(0x2u, 0x3u, 0x100u, 0x80000000u,
                                         0xffffffffu),
                         [](const testing::TestParamInfo<unsigned>& info) {
                           char name[32];
                           std::snprintf(name, sizeof name, "Flags0x%x",
                                         info.param);
                           return std::string(name);
                         });

}  // namespace
}  // namespace mxcts::conformance::ipc
