// Copyright mxcts authors.
//
// Conformance: runtime copies cannot reach memory of another process
// (docs/spec/api-mps.md, api.mps.isolation.api-copies-confined). This
// process sends the address of one of its allocations to a child process
// of the test binary that has allocated nothing; the child's mcMemcpy and
// mcMemset calls on that address, in exclusive and shared mode, return
// what they return in a child without MACA_MPS_MODE, an error, and this
// process's bytes stay as they were. The control opens the same
// allocation through an IPC handle: then the same calls succeed and reach
// this process's bytes.

#include <mc_runtime.h>

#include <string>
#include <vector>

#include "conformance/api/ipc/ipc_testing.h"
#include "conformance/api/mps/mps_testing.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance::mps {
namespace {

using ipc::MallocAndExport;
using ipc::ReceiveAndOpen;

constexpr size_t kSize = 4096;

// The calls of the Copier role on `at`, each reported as
// "<call>=<error>;"; the copy to `at` writes pattern 2, the set zeros.
std::string CopyCalls(void* at) {
  std::vector<unsigned char> host(kSize);
  std::string report;
  auto call = [&report](const char* name, mcError_t error) {
    report += std::string(name) + "=" + mcGetErrorName(error) + ";";
    mcGetLastError();
  };
  call("memcpy_from", mcMemcpy(host.data(), at, kSize, mcMemcpyDeviceToHost));
  report += "read=" +
            std::string(CheckPattern(host.data(), kSize, 1).empty() ? "pattern1"
                                                                    : "other") +
            ";";
  call("memcpy_async_from",
       mcMemcpyAsync(host.data(), at, kSize, mcMemcpyDeviceToHost, 0));
  call("synchronize_after_async", mcDeviceSynchronize());
  host = Pattern(kSize, 2);
  call("memset", mcMemset(at, 0, kSize));
  call("memcpy_to", mcMemcpy(at, host.data(), kSize, mcMemcpyHostToDevice));
  call("synchronize", mcDeviceSynchronize());
  return report;
}

// Child: argument "mapped=0|1". Receives the parent's address (mapped=0)
// or an IPC handle of it (mapped=1, which it opens); makes CopyCalls on
// it and sends the report.
MX_CHILD_ROLE(Copier) {
  void* at = nullptr;
  if (ChildArgument(argument, "mapped", 0) != 0) {
    std::string problems = ReceiveAndOpen(parent, 0, &at);
    if (!problems.empty()) return problems;
  } else if (!FromHex(parent.Receive(), &at)) {
    return "no address received";
  }
  parent.Send(CopyCalls(at));
  return "";
}

// The report of a Copier child of `mode` sent `message`.
std::string CopierReport(const ModeSetting& mode, bool mapped,
                         const std::string& message) {
  std::unique_ptr<ChildProcess> child =
      StartChild(mode, "Copier", mapped ? "mapped=1" : "mapped=0");
  child->Send(message);
  std::string report = child->Receive();
  const int code = child->Wait();
  if (code != 0) return "the child exited with " + std::to_string(code);
  return report;
}

const char* const kCalls[] = {"memcpy_from", "memcpy_async_from", "memset",
                              "memcpy_to"};

class ForeignAddress : public testing::TestWithParam<ModeSetting> {};

TEST_P(ForeignAddress, RejectedAsWithoutMps) {
  MX_SPEC("api.mps.isolation.api-copies-confined");
  MX_MPS_REQUIRE();
  void* p = nullptr;
  ASSERT_EQ(mcMalloc(&p, kSize), mcSuccess);
  ASSERT_EQ(WritePattern(p, kSize, 1), mcSuccess);
  const std::string without = CopierReport(kUnset, false, ToHex(p));
  for (const char* call : kCalls) {
    const std::string error = ReportField(without, call);
    EXPECT_NE(error, "mcSuccess") << call;
    EXPECT_NE(error, "(none)") << call << ": " << without;
  }
  EXPECT_EQ(ReportField(without, "read"), "other");
  EXPECT_EQ(CopierReport(GetParam(), false, ToHex(p)), without);
  EXPECT_EQ(CheckDevicePattern(p, kSize, 1), "");
  EXPECT_EQ(mcFree(p), mcSuccess);
}

TEST_P(ForeignAddress, OpenedThroughIpcIsReached) {
  MX_SPEC("api.mps.isolation.api-copies-confined",
          "api.ipc.open-mem-handle.maps-in-other-process");
  MX_MPS_REQUIRE();
  MX_REQUIRE_CAPABILITY("ipc");
  // Control: memory this process shares on purpose is reached by the same
  // calls, and the checks above see it.
  void* p = nullptr;
  mcIpcMemHandle_t handle;
  ASSERT_EQ(MallocAndExport(kSize, &p, &handle), mcSuccess);
  const std::string report = CopierReport(GetParam(), true, ToHex(handle));
  for (const char* call : kCalls) {
    EXPECT_EQ(ReportField(report, call), "mcSuccess") << call << ": " << report;
  }
  EXPECT_EQ(ReportField(report, "read"), "pattern1");
  EXPECT_EQ(CheckDevicePattern(p, kSize, 2), "");
  EXPECT_EQ(mcFree(p), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(Settings, ForeignAddress,
                         testing::ValuesIn(ClientModes()), ModeSettingName);

}  // namespace
}  // namespace mxcts::conformance::mps
