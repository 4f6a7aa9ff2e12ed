// Copyright mxcts authors.
// -----------------------------------------------------------------------------
// File: conformance/api/ipc/ipc_testing.h
// -----------------------------------------------------------------------------
//
// What the interprocess tests (docs/spec/api-ipc.md) share, beside the
// byte patterns of device_pattern.h: exporting an allocation that holds
// pattern 1 (MallocAndExport), opening a handle that comes down the pipe
// (ReceiveAndOpen, for child roles of child_process.h), opening, checking
// and closing in one step (OpenCheckClose), the fixture that makes device
// 0 current again after each test (IpcTest), and the Exporter child role
// with its parent-side handle, ExporterChild: a process that owns an
// mcMalloc allocation filled with pattern 1 and exported, and that frees
// it, checks it or exits when told.
//
//   void* p = nullptr;
//   mcIpcMemHandle_t handle;
//   ASSERT_EQ(MallocAndExport(4096, &p, &handle), mcSuccess);
//   ChildProcess child("OpenAndCheck");   // a role that calls ReceiveAndOpen
//   child.Send(ToHex(handle));
//
//   ExporterChild exporter(/*device=*/1, /*size=*/4096);
//   ASSERT_TRUE(exporter.ok()) << exporter.problem();
//   EXPECT_EQ(OpenCheckClose(exporter.handle(), 0, 4096, 1), "");
//   exporter.Free();   // the handle no longer opens
//
// Included by sources the backend's driver compiles, which supplies
// <mc_runtime.h>.

#ifndef MXCTS_CONFORMANCE_API_IPC_IPC_TESTING_H_
#define MXCTS_CONFORMANCE_API_IPC_IPC_TESTING_H_

#include <gtest/gtest.h>
#include <mc_runtime.h>

#include <string>

#include "conformance/api/testing/child_process.h"
#include "conformance/api/testing/device_pattern.h"
#include "conformance/api/testing/expect_error.h"

namespace mxcts::conformance::ipc {

// Fills `size` bytes at `pointer` (an mcMalloc allocation of the current
// device) with pattern 1 and stores its IPC handle in `handle`;
// the first error, or mcSuccess.
inline mcError_t FillAndExport(void* pointer, size_t size,
                               mcIpcMemHandle_t* handle) {
  mcError_t error = WritePattern(pointer, size, 1);
  if (error != mcSuccess) return error;
  return mcIpcGetMemHandle(handle, pointer);
}

// mcMalloc of `size` bytes on the current device into `pointer`, then
// FillAndExport; the first error, or mcSuccess (the caller frees
// `pointer`).
inline mcError_t MallocAndExport(size_t size, void** pointer,
                                 mcIpcMemHandle_t* handle) {
  mcError_t error = mcMalloc(pointer, size);
  if (error != mcSuccess) return error;
  return FillAndExport(*pointer, size, handle);
}

// In a child role: receives a handle (hex, from ToHex) from `parent` and
// opens it with `flags` into `mapping`; "" on success, else what failed.
inline std::string ReceiveAndOpen(LineChannel& parent, unsigned flags,
                                  void** mapping) {
  mcIpcMemHandle_t handle;
  if (!FromHex(parent.Receive(), &handle)) return "no handle received; ";
  return Expect("mcIpcOpenMemHandle",
                mcIpcOpenMemHandle(mapping, handle, flags), mcSuccess);
}

// Opens `handle` with `flags`, checks that its first `size` bytes hold
// pattern `seed` and closes it; "" if all three went right, else what did
// not.
inline std::string OpenCheckClose(const mcIpcMemHandle_t& handle,
                                  unsigned flags, size_t size, int seed) {
  void* mapping = nullptr;
  std::string problems =
      Expect("mcIpcOpenMemHandle", mcIpcOpenMemHandle(&mapping, handle, flags),
             mcSuccess);
  if (!problems.empty()) return problems;
  problems += CheckDevicePattern(mapping, size, seed);
  problems +=
      Expect("mcIpcCloseMemHandle", mcIpcCloseMemHandle(mapping), mcSuccess);
  return problems;
}

// The fixture of parameterized IPC tests: device 0 is current again after
// each test, whichever device the test chose.
template <typename Param>
class IpcTest : public testing::TestWithParam<Param> {
 protected:
  void TearDown() override { mcSetDevice(0); }
};

// The name of an instantiation over device ordinals: "Device<d>".
inline std::string DeviceName(const testing::TestParamInfo<int>& info) {
  return "Device" + std::to_string(info.param);
}

// The child side of ExporterChild. Argument "device=<d>;size=<n>". Sends
// the handle's hex (or "error <name>"), then obeys, one line each, until
// "exit" or a closed pipe:
//   free        mcFree the allocation; replies "freed" or the error's name
//   check <s>   replies "ok" if the allocation holds pattern s, else why
//   write <s>   writes pattern s; replies "written"
MX_CHILD_ROLE(Exporter) {
  const int device = static_cast<int>(ChildArgument(argument, "device", 0));
  const size_t size =
      static_cast<size_t>(ChildArgument(argument, "size", 4096));
  if (mcSetDevice(device) != mcSuccess) return "mcSetDevice failed";
  void* p = nullptr;
  mcIpcMemHandle_t handle;
  mcError_t made = MallocAndExport(size, &p, &handle);
  if (made != mcSuccess) {
    parent.Send(std::string("error ") + mcGetErrorName(made));
    return "";
  }
  parent.Send(ToHex(handle));
  for (;;) {
    std::string command = parent.Receive();
    if (command.empty() || command == "exit") return "";
    if (command == "free") {
      mcError_t freed = mcFree(p);
      parent.Send(freed == mcSuccess ? "freed" : mcGetErrorName(freed));
    } else if (command.rfind("check ", 0) == 0) {
      std::string problems =
          CheckDevicePattern(p, size, std::stoi(command.substr(6)));
      parent.Send(problems.empty() ? "ok" : problems);
    } else if (command.rfind("write ", 0) == 0) {
      WritePattern(p, size, std::stoi(command.substr(6)));
      parent.Send("written");
    }
  }
}

// A child process running the Exporter role, and the handle it sent.
class ExporterChild {
 public:
  ExporterChild(int device, size_t size)
      : child_("Exporter", "device=" + std::to_string(device) +
                               ";size=" + std::to_string(size)) {
    std::string line = child_.Receive();
    if (!FromHex(line, &handle_)) {
      problem_ = "the exporter sent '" + line + "' instead of a handle";
    }
  }
  ~ExporterChild() { Exit(); }

  bool ok() const { return problem_.empty(); }
  const std::string& problem() const { return problem_; }
  const mcIpcMemHandle_t& handle() const { return handle_; }

  // Has the exporter free its allocation; "freed" if it did.
  std::string Free() {
    child_.Send("free");
    return child_.Receive();
  }
  // "ok" if the exporter's allocation holds pattern `seed`.
  std::string Check(int seed) {
    child_.Send("check " + std::to_string(seed));
    return child_.Receive();
  }
  // Has the exporter write pattern `seed`; "written" when it has.
  std::string Write(int seed) {
    child_.Send("write " + std::to_string(seed));
    return child_.Receive();
  }
  // Ends the exporter; its exit code.
  int Exit() {
    if (!exited_) {
      child_.Send("exit");
      exit_code_ = child_.Wait();
      exited_ = true;
    }
    return exit_code_;
  }

 private:
  ChildProcess child_;
  mcIpcMemHandle_t handle_{};
  std::string problem_;
  bool exited_ = false;
  int exit_code_ = -1;
};

}  // namespace mxcts::conformance::ipc

// After MX_SPEC: skips the test unless the backend claims IPC and has
// device `device`, then makes `device` current.
#define MX_IPC_REQUIRE_DEVICE(device)                             \
  do {                                                            \
    MX_REQUIRE_CAPABILITY("ipc");                                 \
    MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", (device) + 1); \
    ASSERT_EQ(mcSetDevice(device), mcSuccess);                    \
  } while (false)

#endif  // MXCTS_CONFORMANCE_API_IPC_IPC_TESTING_H_
