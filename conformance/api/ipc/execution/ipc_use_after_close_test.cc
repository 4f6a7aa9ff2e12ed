// Copyright mxcts authors.
//
// Conformance: a mapping used after mcIpcCloseMemHandle
// (docs/spec/api-ipc.md, api.ipc.close-mem-handle.use-after-close). The
// behaviour is undefined; the test checks what the chapter says the
// reference does under checked memory (MXCTS_MEMCHECK=1, which never
// reuses an address): a kernel that touches the closed mapping traps with
// mcErrorIllegalAddress. The control runs the same kernel before the
// close. The child process that opens the handle runs with the variable
// set.

#include <mc_runtime.h>

#include <string>

#include "conformance/api/ipc/ipc_testing.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

__global__ void WriteFirstByte(unsigned char* bytes) {
  if (threadIdx.x == 0) bytes[0] = 0x42;
}

namespace mxcts::conformance::ipc {
namespace {

// Child: argument "device=<d>;close=0|1". Opens the handle on device d
// (the allocation's: no peer access is involved), closes it if asked, then
// writes through the mapping from a kernel; says the synchronization's
// error name.
MX_CHILD_ROLE(KernelAfterClose) {
  const int device = static_cast<int>(ChildArgument(argument, "device", 0));
  if (mcSetDevice(device) != mcSuccess) return "mcSetDevice failed";
  void* q = nullptr;
  std::string problems = ReceiveAndOpen(parent, 0, &q);
  if (!problems.empty()) return problems;
  if (ChildArgument(argument, "close", 0) != 0) {
    problems +=
        Expect("mcIpcCloseMemHandle", mcIpcCloseMemHandle(q), mcSuccess);
  }
  WriteFirstByte<<<1, 64>>>(static_cast<unsigned char*>(q));
  parent.Send(mcGetErrorName(mcDeviceSynchronize()));
  return problems;
}

class UseAfterClose : public IpcTest<int> {
 protected:
  // Exports an allocation of pattern 1 on the test's device (into p_) and
  // has a KernelAfterClose child, under checked memory, write through its
  // mapping, after closing it if `close`; stores what the child's
  // synchronization returned in `said`.
  void RunChild(bool close, std::string* said) {
    ASSERT_EQ(MallocAndExport(4096, &p_, &handle_), mcSuccess);
    ChildProcess child("KernelAfterClose",
                       "device=" + std::to_string(GetParam()) +
                           ";close=" + (close ? "1" : "0"),
                       {{"MXCTS_MEMCHECK", "1"}, {"MACA_TRAP_HANDLER", "1"}});
    ASSERT_TRUE(child.Send(ToHex(handle_)));
    *said = child.Receive();
    EXPECT_EQ(child.Wait(), 0);
  }

  void* p_ = nullptr;
  mcIpcMemHandle_t handle_;
};

TEST_P(UseAfterClose, KernelTrapsUnderCheckedMemory) {
  MX_SPEC("api.ipc.close-mem-handle.use-after-close",
          "api.ipc.close-mem-handle.unmaps");
  MX_IPC_REQUIRE_DEVICE(GetParam());
  std::string said;
  ASSERT_NO_FATAL_FAILURE(RunChild(/*close=*/true, &said));
  EXPECT_EQ(said, "mcErrorIllegalAddress");
  // The exporter's allocation is untouched by the stray write.
  EXPECT_EQ(CheckDevicePattern(p_, 4096, 1), "");
  EXPECT_EQ(mcFree(p_), mcSuccess);
}

TEST_P(UseAfterClose, TheSameKernelBeforeTheCloseRuns) {
  MX_SPEC("api.ipc.close-mem-handle.use-after-close",
          "api.ipc.open-mem-handle.maps-in-other-process");
  MX_IPC_REQUIRE_DEVICE(GetParam());
  std::string said;
  ASSERT_NO_FATAL_FAILURE(RunChild(/*close=*/false, &said));
  EXPECT_EQ(said, "mcSuccess");
  unsigned char first = 0;
  ASSERT_EQ(mcMemcpy(&first, p_, 1, mcMemcpyDeviceToHost), mcSuccess);
  EXPECT_EQ(first, 0x42);
  EXPECT_EQ(mcFree(p_), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(Devices, UseAfterClose, testing::Values(0, 1),
                         DeviceName);

}  // namespace
}  // namespace mxcts::conformance::ipc
