// Copyright mxcts authors.
// -----------------------------------------------------------------------------
// File: conformance/api/ipc/ipc_testing.h
// -----------------------------------------------------------------------------
//
// What the interprocess tests (docs/spec/api-ipc.md) share: byte patterns
// that tell which write a byte came from, checks that report as text (for
// child roles, child_process.h), and the Exporter child role with its
// parent-side handle, ExporterChild: a process that owns an mcMalloc
// allocation filled with pattern 1 and exported, and that frees it, checks
// it or exits when told.
//
//   ExporterChild exporter(/*device=*/1, /*size=*/4096);
//   ASSERT_TRUE(exporter.ok()) << exporter.problem();
//   void* q = nullptr;
//   mcIpcOpenMemHandle(&q, exporter.handle(), 0);   // mcSuccess
//   exporter.Free();   // the handle no longer opens
//
// Included by sources the backend's driver compiles, which supplies
// <mc_runtime.h>.

#ifndef MXCTS_CONFORMANCE_API_IPC_IPC_TESTING_H_
#define MXCTS_CONFORMANCE_API_IPC_IPC_TESTING_H_

#include <mc_runtime.h>

#include <cstring>
#include <string>
#include <vector>

#include "conformance/api/testing/child_process.h"

namespace mxcts::conformance::ipc {

// Byte `i` of pattern `seed`: different seeds differ at every byte.
inline unsigned char PatternByte(size_t i, int seed) {
  return static_cast<unsigned char>(i * 7 + static_cast<size_t>(seed) * 61 +
                                    (i >> 8) + 1);
}

inline std::vector<unsigned char> Pattern(size_t size, int seed) {
  std::vector<unsigned char> bytes(size);
  for (size_t i = 0; i < size; ++i) bytes[i] = PatternByte(i, seed);
  return bytes;
}

// "" if the `size` bytes at `host` are pattern `seed`, else where not.
inline std::string CheckPattern(const unsigned char* host, size_t size,
                                int seed) {
  for (size_t i = 0; i < size; ++i) {
    if (host[i] != PatternByte(i, seed)) {
      return "byte " + std::to_string(i) + " is " + std::to_string(host[i]) +
             ", pattern " + std::to_string(seed) + " has " +
             std::to_string(PatternByte(i, seed)) + "; ";
    }
  }
  return "";
}

// "" if the device memory [device_pointer, + size) holds pattern `seed`
// (read with a synchronous copy), else what is wrong.
inline std::string CheckDevicePattern(const void* device_pointer, size_t size,
                                      int seed) {
  std::vector<unsigned char> host(size);
  mcError_t copied =
      mcMemcpy(host.data(), device_pointer, size, mcMemcpyDeviceToHost);
  if (copied != mcSuccess) {
    return std::string("mcMemcpy from the memory returned ") +
           mcGetErrorName(copied) + "; ";
  }
  return CheckPattern(host.data(), size, seed);
}

// Writes pattern `seed` into device memory and waits until it is there.
inline mcError_t WritePattern(void* device_pointer, size_t size, int seed) {
  std::vector<unsigned char> host = Pattern(size, seed);
  mcError_t copied =
      mcMemcpy(device_pointer, host.data(), size, mcMemcpyHostToDevice);
  if (copied != mcSuccess) return copied;
  return mcDeviceSynchronize();
}

// "" if `error` is `expected`, else a sentence.
inline std::string Expect(const std::string& what, mcError_t error,
                          mcError_t expected) {
  if (error == expected) return "";
  return what + " returned " + mcGetErrorName(error) + ", expected " +
         mcGetErrorName(expected) + "; ";
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
  mcError_t made = mcMalloc(&p, size);
  if (made == mcSuccess) made = WritePattern(p, size, 1);
  mcIpcMemHandle_t handle;
  if (made == mcSuccess) made = mcIpcGetMemHandle(&handle, p);
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
