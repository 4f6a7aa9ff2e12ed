// Copyright mxcts authors.
//
// Conformance: memory shared between processes with mcIpcGetMemHandle and
// mcIpcOpenMemHandle (docs/spec/api-ipc.md, "Exporting memory", "Importing
// memory", "Lifetime"). A parent process exports an mcMalloc allocation
// holding one pattern; a child process of the same test binary opens the
// handle, checks the pattern through its own address, writes another
// pattern (with copies or a kernel), synchronizes and closes; the parent
// then reads the child's pattern through its own address. Every test
// holds in every timeline mode: both processes run in the mode of the
// test.

#include <mc_runtime.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <tuple>
#include <vector>

#include "conformance/api/ipc/ipc_testing.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

__global__ void AddOne(unsigned char* bytes, size_t size) {
  size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  if (i < size) bytes[i] = static_cast<unsigned char>(bytes[i] + 1);
}

namespace mxcts::conformance::ipc {
namespace {

constexpr unsigned kLazy = mcIpcMemLazyEnablePeerAccess;

std::string FlagsName(unsigned flags) {
  return flags == 0 ? "NoFlags" : "LazyPeerAccess";
}

// Child: argument "current=<d>;flags=<f>;size=<n>;offset=<k>". Opens the
// handle on device `current`, checks pattern 1 from byte `offset` of the
// allocation on (the handle was taken at that offset; the mapping starts
// at the allocation's first byte), writes pattern 2 over the whole
// allocation, synchronizes, closes, says "done".
MX_CHILD_ROLE(ReadThenWrite) {
  const int current = static_cast<int>(ChildArgument(argument, "current", 0));
  const unsigned flags =
      static_cast<unsigned>(ChildArgument(argument, "flags", 0));
  const size_t size = static_cast<size_t>(ChildArgument(argument, "size", 1));
  if (mcSetDevice(current) != mcSuccess) return "mcSetDevice failed";
  void* q = nullptr;
  std::string problems = ReceiveAndOpen(parent, flags, &q);
  if (!problems.empty()) return problems;
  problems += CheckDevicePattern(q, size, 1);
  problems += Expect("writing pattern 2", WritePattern(q, size, 2), mcSuccess);
  problems += Expect("mcIpcCloseMemHandle", mcIpcCloseMemHandle(q), mcSuccess);
  parent.Send("done");
  return problems;
}

using SharingCase = std::tuple<int, size_t, unsigned>;

class ChildSharesAllocation : public IpcTest<SharingCase> {};

TEST_P(ChildSharesAllocation, WritesAreSeenBothWays) {
  MX_SPEC("api.ipc.open-mem-handle.maps-in-other-process",
          "api.ipc.open-mem-handle.offsets-correspond",
          "api.ipc.get-mem-handle.mcmalloc-memory",
          "api.ipc.close-mem-handle.unmaps", "api.ipc.handle.plain-data");
  const auto [device, size, flags] = GetParam();
  MX_IPC_REQUIRE_DEVICE(device);
  void* p = nullptr;
  mcIpcMemHandle_t handle;
  ASSERT_EQ(MallocAndExport(size, &p, &handle), mcSuccess);
  // The parent's memory is still its own after the export.
  EXPECT_EQ(CheckDevicePattern(p, size, 1), "");
  ChildProcess child("ReadThenWrite", "current=" + std::to_string(device) +
                                          ";flags=" + std::to_string(flags) +
                                          ";size=" + std::to_string(size));
  ASSERT_TRUE(child.Send(ToHex(handle)));
  EXPECT_EQ(child.Receive(), "done");
  EXPECT_EQ(child.Wait(), 0);
  // The child's writes, and the close left the allocation in place.
  EXPECT_EQ(CheckDevicePattern(p, size, 2), "");
  EXPECT_EQ(mcFree(p), mcSuccess);
}

std::string SharingName(const testing::TestParamInfo<SharingCase>& info) {
  return "Device" + std::to_string(std::get<0>(info.param)) + "_" +
         std::to_string(std::get<1>(info.param)) + "Bytes_" +
         FlagsName(std::get<2>(info.param));
}

INSTANTIATE_TEST_SUITE_P(
    Sizes, ChildSharesAllocation,
    testing::Combine(testing::Values(0, 1),
                     testing::Values(size_t{1}, size_t{4096}, size_t{65537},
                                     size_t{1} << 20),
                     testing::Values(0u, kLazy)),
    SharingName);

// Child: argument "current=<d>;flags=<f>;size=<n>". Opens the handle on
// device `current` and adds one to every byte with a kernel there.
MX_CHILD_ROLE(KernelAddsOne) {
  const int current = static_cast<int>(ChildArgument(argument, "current", 0));
  const unsigned flags =
      static_cast<unsigned>(ChildArgument(argument, "flags", 0));
  const size_t size = static_cast<size_t>(ChildArgument(argument, "size", 1));
  if (mcSetDevice(current) != mcSuccess) return "mcSetDevice failed";
  void* q = nullptr;
  std::string problems = ReceiveAndOpen(parent, flags, &q);
  if (!problems.empty()) return problems;
  AddOne<<<static_cast<unsigned>((size + 255) / 256), 256>>>(
      static_cast<unsigned char*>(q), size);
  problems += Expect("the kernel's launch", mcGetLastError(), mcSuccess);
  problems += Expect("mcDeviceSynchronize", mcDeviceSynchronize(), mcSuccess);
  problems += Expect("mcIpcCloseMemHandle", mcIpcCloseMemHandle(q), mcSuccess);
  parent.Send("done");
  return problems;
}

using KernelCase = std::tuple<int, int>;  // allocation's device, child's

class ChildKernel : public IpcTest<KernelCase> {};

TEST_P(ChildKernel, ReachesMapping) {
  MX_SPEC("api.ipc.open-mem-handle.maps-in-other-process",
          "api.ipc.open-mem-handle.lazy-enable-peer-access");
  const auto [device, current] = GetParam();
  MX_IPC_REQUIRE_DEVICE(device);
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", current + 1);
  if (device != current) MX_REQUIRE_CAPABILITY("peer_access");
  constexpr size_t kSize = 3000;
  void* p = nullptr;
  mcIpcMemHandle_t handle;
  ASSERT_EQ(MallocAndExport(kSize, &p, &handle), mcSuccess);
  ChildProcess child("KernelAddsOne", "current=" + std::to_string(current) +
                                          ";flags=" + std::to_string(kLazy) +
                                          ";size=" + std::to_string(kSize));
  ASSERT_TRUE(child.Send(ToHex(handle)));
  EXPECT_EQ(child.Receive(), "done");
  EXPECT_EQ(child.Wait(), 0);
  std::vector<unsigned char> host(kSize);
  ASSERT_EQ(mcMemcpy(host.data(), p, kSize, mcMemcpyDeviceToHost), mcSuccess);
  for (size_t i = 0; i < kSize; ++i) {
    ASSERT_EQ(host[i], static_cast<unsigned char>(PatternByte(i, 1) + 1))
        << "byte " << i;
  }
  EXPECT_EQ(mcFree(p), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(Devices, ChildKernel,
                         testing::Values(KernelCase{0, 0}, KernelCase{1, 1},
                                         KernelCase{0, 1}, KernelCase{1, 0}),
                         [](const testing::TestParamInfo<KernelCase>& info) {
                           return "Allocation" +
                                  std::to_string(std::get<0>(info.param)) +
                                  "_Kernel" +
                                  std::to_string(std::get<1>(info.param));
                         });

// Child: argument "device=<d>;size=<n>;offset=<k>". Opens the handle and
// checks that the address is device memory of `device` at its first and
// last byte, and that byte k of the mapping is byte k of pattern 1 (the
// handle was taken at offset k: the mapping still starts at byte 0).
MX_CHILD_ROLE(InspectMapping) {
  const int device = static_cast<int>(ChildArgument(argument, "device", 0));
  const size_t size = static_cast<size_t>(ChildArgument(argument, "size", 1));
  void* q = nullptr;
  std::string problems = ReceiveAndOpen(parent, kLazy, &q);
  if (!problems.empty()) return problems;
  for (size_t at : {size_t{0}, size - 1}) {
    mcPointerAttributes attributes;
    problems +=
        Expect("mcPointerGetAttributes",
               mcPointerGetAttributes(&attributes, static_cast<char*>(q) + at),
               mcSuccess);
    if (attributes.type != mcMemoryTypeDevice) {
      problems += "the mapping is not device memory; ";
    }
    if (attributes.device != device) {
      problems += "the mapping reports device " +
                  std::to_string(attributes.device) + "; ";
    }
  }
  problems += CheckDevicePattern(q, size, 1);
  parent.Send(ToHex(q));
  problems += Expect("mcIpcCloseMemHandle", mcIpcCloseMemHandle(q), mcSuccess);
  return problems;
}

using InspectCase = std::tuple<int, size_t>;  // device, offset of the handle

class ChildInspects : public IpcTest<InspectCase> {};

TEST_P(ChildInspects, MappingIsTheWholeAllocationOnItsDevice) {
  MX_SPEC("api.ipc.open-mem-handle.pointer-attributes",
          "api.memory.pointer-attributes.pool-and-ipc",
          "api.ipc.get-mem-handle.whole-allocation",
          "api.ipc.open-mem-handle.address-may-differ",
          "api.ipc.open-mem-handle.offsets-correspond");
  const auto [device, offset] = GetParam();
  MX_IPC_REQUIRE_DEVICE(device);
  constexpr size_t kSize = 5000;
  void* p = nullptr;
  ASSERT_EQ(mcMalloc(&p, kSize), mcSuccess);
  ASSERT_EQ(WritePattern(p, kSize, 1), mcSuccess);
  mcIpcMemHandle_t handle;
  ASSERT_EQ(mcIpcGetMemHandle(&handle, static_cast<char*>(p) + offset),
            mcSuccess);
  // The child opens from another current device; the mapping still
  // belongs to the allocation's device.
  ChildProcess child("InspectMapping", "device=" + std::to_string(device) +
                                           ";size=" + std::to_string(kSize));
  ASSERT_TRUE(child.Send(ToHex(handle)));
  void* q = nullptr;
  EXPECT_TRUE(FromHex(child.Receive(), &q));
  EXPECT_EQ(child.Wait(), 0);
  // Whatever address the child got (it may differ from p), it addressed
  // the same bytes.
  EXPECT_NE(q, nullptr);
  EXPECT_EQ(mcFree(p), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(
    Offsets, ChildInspects,
    testing::Combine(testing::Values(0, 1),
                     testing::Values(size_t{0}, size_t{1}, size_t{4999})),
    [](const testing::TestParamInfo<InspectCase>& info) {
      return "Device" + std::to_string(std::get<0>(info.param)) +
             "_HandleAtOffset" + std::to_string(std::get<1>(info.param));
    });

// Child: opens the handle twice, closes twice, and checks the counting.
MX_CHILD_ROLE(OpenTwice) {
  mcIpcMemHandle_t handle;
  if (!FromHex(parent.Receive(), &handle)) return "no handle received";
  void* first = nullptr;
  void* second = nullptr;
  std::string problems =
      Expect("the first mcIpcOpenMemHandle",
             mcIpcOpenMemHandle(&first, handle, 0), mcSuccess) +
      Expect("the second mcIpcOpenMemHandle",
             mcIpcOpenMemHandle(&second, handle, kLazy), mcSuccess);
  if (!problems.empty()) return problems;
  if (first != second) problems += "the second open gave another address; ";
  problems += Expect("the first close", mcIpcCloseMemHandle(first), mcSuccess);
  // Still open once: usable.
  problems += CheckDevicePattern(second, 4096, 1);
  problems +=
      Expect("the second close", mcIpcCloseMemHandle(second), mcSuccess);
  problems +=
      Expect("a third close", mcIpcCloseMemHandle(second), mcErrorInvalidValue);
  return problems;
}

class OpenTwice : public IpcTest<int> {};

TEST_P(OpenTwice, SameAddressCountedOpens) {
  MX_SPEC("api.ipc.open-mem-handle.open-twice",
          "api.ipc.close-mem-handle.not-opened");
  MX_IPC_REQUIRE_DEVICE(GetParam());
  void* p = nullptr;
  mcIpcMemHandle_t handle;
  ASSERT_EQ(MallocAndExport(4096, &p, &handle), mcSuccess);
  ChildProcess child("OpenTwice");
  ASSERT_TRUE(child.Send(ToHex(handle)));
  EXPECT_EQ(child.Wait(), 0);
  EXPECT_EQ(CheckDevicePattern(p, 4096, 1), "");
  EXPECT_EQ(mcFree(p), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(Devices, OpenTwice, testing::Values(0, 1), DeviceName);

// Child: argument "current=<c>;device=<d>;flags=<f>". Opens the handle on
// device c and reports whether peer access from c to d is enabled
// afterwards ("enabled" / "not enabled"), probing with
// mcDeviceEnablePeerAccess.
MX_CHILD_ROLE(ProbePeerAccess) {
  const int current = static_cast<int>(ChildArgument(argument, "current", 0));
  const int device = static_cast<int>(ChildArgument(argument, "device", 1));
  const unsigned flags =
      static_cast<unsigned>(ChildArgument(argument, "flags", 0));
  if (mcSetDevice(current) != mcSuccess) return "mcSetDevice failed";
  void* q = nullptr;
  std::string problems = ReceiveAndOpen(parent, flags, &q);
  if (!problems.empty()) return problems;
  mcError_t probe = mcDeviceEnablePeerAccess(device, 0);
  mcGetLastError();
  parent.Send(probe == mcErrorPeerAccessAlreadyEnabled ? "enabled"
              : probe == mcSuccess                     ? "not enabled"
                                                       : mcGetErrorName(probe));
  problems += Expect("mcIpcCloseMemHandle", mcIpcCloseMemHandle(q), mcSuccess);
  return problems;
}

using PeerCase = std::tuple<int, unsigned>;  // allocation's device, flags

class LazyPeerAccess : public IpcTest<PeerCase> {};

TEST_P(LazyPeerAccess, FlagEnablesAccessFromCurrentDevice) {
  MX_SPEC("api.ipc.open-mem-handle.lazy-enable-peer-access");
  const auto [device, flags] = GetParam();
  MX_IPC_REQUIRE_DEVICE(device);
  MX_REQUIRE_CAPABILITY("peer_access");
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
  const int current = 1 - device;
  void* p = nullptr;
  mcIpcMemHandle_t handle;
  ASSERT_EQ(MallocAndExport(4096, &p, &handle), mcSuccess);
  ChildProcess child("ProbePeerAccess",
                     "current=" + std::to_string(current) +
                         ";device=" + std::to_string(device) +
                         ";flags=" + std::to_string(flags));
  ASSERT_TRUE(child.Send(ToHex(handle)));
  // Without the flag (the control) nothing enables the access.
  EXPECT_EQ(child.Receive(), flags == kLazy ? "enabled" : "not enabled");
  EXPECT_EQ(child.Wait(), 0);
  EXPECT_EQ(mcFree(p), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(Cases, LazyPeerAccess,
                         testing::Combine(testing::Values(0, 1),
                                          testing::Values(0u, kLazy)),
                         [](const testing::TestParamInfo<PeerCase>& info) {
                           return "Allocation" +
                                  std::to_string(std::get<0>(info.param)) +
                                  "_" + FlagsName(std::get<1>(info.param));
                         });

// Child: receives an old and a new handle. Tries to open the old one and
// tells the parent the result's name (closing the mapping if it opened);
// then the new one must open, holding pattern 1.
MX_CHILD_ROLE(OldAndNewHandle) {
  mcIpcMemHandle_t old_handle, new_handle;
  if (!FromHex(parent.Receive(), &old_handle) ||
      !FromHex(parent.Receive(), &new_handle)) {
    return "no handles received";
  }
  void* q = nullptr;
  const mcError_t old_open = mcIpcOpenMemHandle(&q, old_handle, 0);
  std::string problems;
  if (old_open == mcSuccess) {
    problems += Expect("mcIpcCloseMemHandle of the freed allocation's mapping",
                       mcIpcCloseMemHandle(q), mcSuccess);
  }
  mcGetLastError();
  parent.Send(mcGetErrorName(old_open));
  problems += OpenCheckClose(new_handle, 0, 4096, 1);
  return problems;
}

class ReusedAddress : public IpcTest<int> {
 protected:
  // Exports an allocation, frees it, exports a new one and has a child
  // open both handles; returns the name of the old handle's result.
  std::string OpenOldAndNew() {
    void* old_pointer = nullptr;
    mcIpcMemHandle_t old_handle, new_handle;
    EXPECT_EQ(MallocAndExport(4096, &old_pointer, &old_handle), mcSuccess);
    EXPECT_EQ(mcFree(old_pointer), mcSuccess);
    void* new_pointer = nullptr;
    EXPECT_EQ(MallocAndExport(4096, &new_pointer, &new_handle), mcSuccess);
    // Whether or not the address was reused, the handles differ.
    EXPECT_NE(std::memcmp(&old_handle, &new_handle, sizeof old_handle), 0);
    ChildProcess child("OldAndNewHandle");
    EXPECT_TRUE(child.Send(ToHex(old_handle)));
    EXPECT_TRUE(child.Send(ToHex(new_handle)));
    const std::string old_open = child.Receive();
    EXPECT_EQ(child.Wait(), 0);
    EXPECT_EQ(mcFree(new_pointer), mcSuccess);
    return old_open;
  }
};

TEST_P(ReusedAddress, NewAllocationHasNewHandle) {
  MX_SPEC("api.ipc.get-mem-handle.reused-address-new-handle",
          "api.ipc.open-mem-handle.freed-allocation");
  MX_IPC_REQUIRE_DEVICE(GetParam());
  // The old handle is refused, or opens a mapping that closes; any other
  // answer (an error of another kind) breaks the clause.
  const std::string old_open = OpenOldAndNew();
  EXPECT_TRUE(old_open == "mcErrorInvalidValue" || old_open == "mcSuccess")
      << "mcIpcOpenMemHandle of the freed allocation's handle returned "
      << old_open;
}

TEST_P(ReusedAddress, ReferenceRefusesTheFreedAllocationsHandle) {
  // The reference's choice [api.ipc.open-mem-handle.freed-allocation].
  MX_SPEC("api.ipc.open-mem-handle.freed-allocation");
  MX_REQUIRE_CAPABILITY("reference_choices");
  MX_IPC_REQUIRE_DEVICE(GetParam());
  EXPECT_EQ(OpenOldAndNew(), "mcErrorInvalidValue");
}

INSTANTIATE_TEST_SUITE_P(Devices, ReusedAddress, testing::Values(0, 1),
                         DeviceName);

// Child: argument "end=exit|abort". Opens the handle, writes pattern 3,
// synchronizes, says "written", and ends without closing.
MX_CHILD_ROLE(MapAndLeave) {
  void* q = nullptr;
  std::string problems = ReceiveAndOpen(parent, 0, &q);
  if (!problems.empty()) return problems;
  problems += Expect("writing pattern 3", WritePattern(q, 4096, 3), mcSuccess);
  parent.Send("written");
  if (!problems.empty()) return problems;
  if (argument == "end=abort") std::abort();
  _exit(0);
}

using LeaveCase = std::tuple<int, std::string>;

class ImporterLeaves : public IpcTest<LeaveCase> {};

TEST_P(ImporterLeaves, ExporterAllocationIntact) {
  MX_SPEC("api.ipc.lifetime.importer-exit");
  const auto [device, end] = GetParam();
  MX_IPC_REQUIRE_DEVICE(device);
  void* p = nullptr;
  mcIpcMemHandle_t handle;
  ASSERT_EQ(MallocAndExport(4096, &p, &handle), mcSuccess);
  {
    ChildProcess child("MapAndLeave", "end=" + end);
    ASSERT_TRUE(child.Send(ToHex(handle)));
    EXPECT_EQ(child.Receive(), "written");
    int code = child.Wait();
    EXPECT_EQ(code, end == "abort" ? 128 + SIGABRT : 0);
  }
  // The importer's write stays, and the allocation works on.
  EXPECT_EQ(CheckDevicePattern(p, 4096, 3), "");
  AddOne<<<16, 256>>>(static_cast<unsigned char*>(p), 4096);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  std::vector<unsigned char> host(4096);
  ASSERT_EQ(mcMemcpy(host.data(), p, 4096, mcMemcpyDeviceToHost), mcSuccess);
  EXPECT_EQ(host[10], static_cast<unsigned char>(PatternByte(10, 3) + 1));
  // Another importer still opens the handle.
  ChildProcess again("MapAndLeave", "end=exit");
  ASSERT_TRUE(again.Send(ToHex(handle)));
  EXPECT_EQ(again.Receive(), "written");
  EXPECT_EQ(again.Wait(), 0);
  EXPECT_EQ(mcFree(p), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(Ends, ImporterLeaves,
                         testing::Combine(testing::Values(0, 1),
                                          testing::Values("exit", "abort")),
                         [](const testing::TestParamInfo<LeaveCase>& info) {
                           return "Device" +
                                  std::to_string(std::get<0>(info.param)) +
                                  "_" + std::get<1>(info.param);
                         });

// 2D and 3D allocations are mcMalloc memory too.
enum class Shape { kPitch, k3D };

using ShapeCase = std::tuple<int, Shape>;

class ShapedAllocation : public IpcTest<ShapeCase> {};

TEST_P(ShapedAllocation, ExportsWhole) {
  MX_SPEC("api.ipc.get-mem-handle.mcmalloc-memory",
          "api.ipc.open-mem-handle.maps-in-other-process");
  const auto [device, shape] = GetParam();
  MX_IPC_REQUIRE_DEVICE(device);
  void* p = nullptr;
  size_t size = 0;
  if (shape == Shape::kPitch) {
    size_t pitch = 0;
    ASSERT_EQ(mcMallocPitch(&p, &pitch, 100, 7), mcSuccess);
    size = pitch * 7;
  } else {
    mcPitchedPtr pitched;
    ASSERT_EQ(mcMalloc3D(&pitched, make_mcExtent(100, 5, 3)), mcSuccess);
    p = pitched.ptr;
    size = pitched.pitch * 5 * 3;
  }
  mcIpcMemHandle_t handle;
  ASSERT_EQ(FillAndExport(p, size, &handle), mcSuccess);
  ChildProcess child("ReadThenWrite",
                     "current=" + std::to_string(device) +
                         ";flags=0;size=" + std::to_string(size));
  ASSERT_TRUE(child.Send(ToHex(handle)));
  EXPECT_EQ(child.Receive(), "done");
  EXPECT_EQ(child.Wait(), 0);
  EXPECT_EQ(CheckDevicePattern(p, size, 2), "");
  EXPECT_EQ(mcFree(p), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, ShapedAllocation,
    testing::Combine(testing::Values(0, 1),
                     testing::Values(Shape::kPitch, Shape::k3D)),
    [](const testing::TestParamInfo<ShapeCase>& info) {
      return "Device" + std::to_string(std::get<0>(info.param)) +
             (std::get<1>(info.param) == Shape::kPitch ? "_Pitch" : "_3D");
    });

// The exporter writes after the importer has mapped: the importer sees it.
MX_CHILD_ROLE(WaitForExporterWrite) {
  void* q = nullptr;
  std::string problems = ReceiveAndOpen(parent, 0, &q);
  if (!problems.empty()) return problems;
  parent.Send("mapped");
  if (parent.Receive() != "written") return problems + "no 'written'; ";
  problems += CheckDevicePattern(q, 4096, 4);
  problems += Expect("mcIpcCloseMemHandle", mcIpcCloseMemHandle(q), mcSuccess);
  return problems;
}

class ExporterWritesLater : public IpcTest<int> {};

TEST_P(ExporterWritesLater, ImporterSeesIt) {
  MX_SPEC("api.ipc.open-mem-handle.maps-in-other-process");
  MX_IPC_REQUIRE_DEVICE(GetParam());
  void* p = nullptr;
  mcIpcMemHandle_t handle;
  ASSERT_EQ(MallocAndExport(4096, &p, &handle), mcSuccess);
  ChildProcess child("WaitForExporterWrite");
  ASSERT_TRUE(child.Send(ToHex(handle)));
  ASSERT_EQ(child.Receive(), "mapped");
  ASSERT_EQ(WritePattern(p, 4096, 4), mcSuccess);
  ASSERT_TRUE(child.Send("written"));
  EXPECT_EQ(child.Wait(), 0);
  EXPECT_EQ(mcFree(p), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(Devices, ExporterWritesLater, testing::Values(0, 1),
                         DeviceName);

}  // namespace
}  // namespace mxcts::conformance::ipc
