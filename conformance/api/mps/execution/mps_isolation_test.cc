// Copyright mxcts authors.
//
// Conformance: processes are isolated from each other's kernels
// (docs/spec/api-mps.md, "Behaviour between processes"). A child process
// of the test binary, an MPS client in exclusive or shared mode, runs
// kernels that go where they should not: to an address that is valid in
// the parent (this process), and past the end of the child's own
// allocation. The parent's memory keeps its bytes, the child never reads
// them, and no error appears in the parent. A child whose kernel traps
// leaves the parent's memory and kernels as they were, while the child's
// own next kernel fails. The controls share memory on purpose, through an
// IPC mapping, to show that the same checks see another process's writes
// and reads when they do reach this process.

#include <mc_runtime.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "conformance/api/ipc/ipc_testing.h"
#include "conformance/api/mps/mps_testing.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

__global__ void ReadBytes(const unsigned char* from, unsigned char* to,
                          size_t size) {
  size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  if (i < size) to[i] = from[i];
}

__global__ void WriteBytes(unsigned char* to, size_t size,
                           unsigned char value) {
  size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  if (i < size) to[i] = value;
}

__global__ void AddOne(unsigned char* bytes, size_t size) {
  size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  if (i < size) bytes[i] = static_cast<unsigned char>(bytes[i] + 1);
}

__global__ void Fill(int* values, int value) { values[threadIdx.x] = value; }

__global__ void Trap() { __trap(); }

namespace mxcts::conformance::mps {
namespace {

using ipc::MallocAndExport;
using ipc::ReceiveAndOpen;

constexpr size_t kSize = 8192;
constexpr unsigned kBlocks = (kSize + 255) / 256;

// What a child's kernel does, and where.
enum class Op { kRead = 0, kWrite = 1 };
enum class Target {
  kParentAddress = 0,  // an address of an allocation of the parent
  kPastOwnEnd = 1,     // the bytes after the child's own allocation
  kMapping = 2,        // the parent's allocation, opened through IPC
};

const char* OpName(Op op) { return op == Op::kRead ? "Read" : "Write"; }

const char* TargetName(Target target) {
  switch (target) {
    case Target::kParentAddress:
      return "ParentAddress";
    case Target::kPastOwnEnd:
      return "PastOwnEnd";
    case Target::kMapping:
      return "IpcMapping";
  }
  return "Unknown";
}

// Child: argument "op=<Op>;target=<Target>". Receives the parent's address
// (hex), or for kMapping an IPC handle of it, allocates kSize bytes of its
// own on device 0 and says "ready"; then reads or writes kSize bytes at
// the target with a kernel and sends "access=<the synchronization's
// error>;" and, for a read, "marker=seen|not-seen;": whether the bytes
// read were the parent's pattern 1.
MX_CHILD_ROLE(Access) {
  const Op op = static_cast<Op>(ChildArgument(argument, "op", 0));
  const Target target =
      static_cast<Target>(ChildArgument(argument, "target", 0));
  if (mcSetDevice(0) != mcSuccess) return "mcSetDevice failed";
  unsigned char* at = nullptr;
  void* received = nullptr;
  if (target == Target::kMapping) {
    std::string problems = ReceiveAndOpen(parent, 0, &received);
    if (!problems.empty()) return problems;
  } else if (!FromHex(parent.Receive(), &received)) {
    return "no address received";
  }
  void* own = nullptr;
  if (mcMalloc(&own, kSize) != mcSuccess) return "mcMalloc failed";
  at = target == Target::kPastOwnEnd ? static_cast<unsigned char*>(own) + kSize
                                     : static_cast<unsigned char*>(received);
  unsigned char* seen = nullptr;
  if (mcMallocManaged(&seen, kSize) != mcSuccess)
    return "mcMallocManaged failed";
  std::fill(seen, seen + kSize, 0);
  parent.Send("ready");
  std::string report;
  if (op == Op::kRead) {
    ReadBytes<<<kBlocks, 256>>>(at, seen, kSize);
    report = std::string("access=") + mcGetErrorName(mcDeviceSynchronize()) +
             ";marker=" +
             (CheckPattern(seen, kSize, 1).empty() ? "seen" : "not-seen") + ";";
  } else {
    WriteBytes<<<kBlocks, 256>>>(at, kSize, 0xee);
    report =
        std::string("access=") + mcGetErrorName(mcDeviceSynchronize()) + ";";
  }
  parent.Send(report);
  return "";
}

using AccessCase = std::tuple<ModeSetting, Op, Target>;

std::string AccessCaseName(const testing::TestParamInfo<AccessCase>& info) {
  return std::string(std::get<0>(info.param).name) + "_" +
         OpName(std::get<1>(info.param)) + "_" +
         TargetName(std::get<2>(info.param));
}

class StrayAccess : public testing::TestWithParam<AccessCase> {
 protected:
  void TearDown() override { mcSetDevice(0); }

  // Runs an Access child of the test's mode, op and target against an
  // allocation of this process (p_, kSize bytes of pattern 1 on device 0),
  // sending it `message` (an address or a handle); the child's report.
  std::string RunAccessChild(const std::string& message) {
    const auto [mode, op, target] = GetParam();
    std::unique_ptr<ChildProcess> child =
        StartChild(mode, "Access",
                   "op=" + std::to_string(static_cast<int>(op)) +
                       ";target=" + std::to_string(static_cast<int>(target)));
    child->Send(message);
    std::string ready = child->Receive();
    if (ready != "ready") return "the child said '" + ready + "'";
    std::string report = child->Receive();
    child->Wait();
    return report;
  }

  void* p_ = nullptr;
};

TEST_P(StrayAccess, LeavesThisProcessAlone) {
  MX_SPEC("api.mps.isolation.separate-address-spaces");
  MX_MPS_REQUIRE();
  const Op op = std::get<1>(GetParam());
  ASSERT_EQ(mcSetDevice(0), mcSuccess);
  ASSERT_EQ(mcMalloc(&p_, kSize), mcSuccess);
  ASSERT_EQ(WritePattern(p_, kSize, 1), mcSuccess);
  const std::string report = RunAccessChild(ToHex(p_));
  // Whatever the child's kernel did in its own process (it may have
  // trapped), it read nothing of this process ...
  if (op == Op::kRead) {
    EXPECT_NE(ReportField(report, "marker"), "seen");
  }
  // ... wrote nothing, and raised no error here.
  EXPECT_EQ(mcGetLastError(), mcSuccess);
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(CheckDevicePattern(p_, kSize, 1), "");
  EXPECT_EQ(mcFree(p_), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, StrayAccess,
    testing::Combine(testing::ValuesIn(ClientModes()),
                     testing::Values(Op::kRead, Op::kWrite),
                     testing::Values(Target::kParentAddress,
                                     Target::kPastOwnEnd)),
    AccessCaseName);

class SharedMapping : public StrayAccess {};

TEST_P(SharedMapping, AccessReachesThisProcess) {
  MX_SPEC("api.mps.isolation.separate-address-spaces",
          "api.ipc.open-mem-handle.maps-in-other-process");
  MX_MPS_REQUIRE();
  MX_REQUIRE_CAPABILITY("ipc");
  const Op op = std::get<1>(GetParam());
  // Control: memory shared on purpose is read and written by the child's
  // kernel, and the checks of StrayAccess see it.
  ASSERT_EQ(mcSetDevice(0), mcSuccess);
  mcIpcMemHandle_t handle;
  ASSERT_EQ(MallocAndExport(kSize, &p_, &handle), mcSuccess);
  const std::string report = RunAccessChild(ToHex(handle));
  EXPECT_EQ(ReportField(report, "access"), "mcSuccess") << report;
  if (op == Op::kRead) {
    EXPECT_EQ(ReportField(report, "marker"), "seen");
    EXPECT_EQ(CheckDevicePattern(p_, kSize, 1), "");
  } else {
    EXPECT_NE(CheckDevicePattern(p_, kSize, 1), "");
    std::vector<unsigned char> host(kSize);
    ASSERT_EQ(mcMemcpy(host.data(), p_, kSize, mcMemcpyDeviceToHost),
              mcSuccess);
    EXPECT_EQ(host, std::vector<unsigned char>(kSize, 0xee));
  }
  EXPECT_EQ(mcFree(p_), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(Cases, SharedMapping,
                         testing::Combine(testing::ValuesIn(ClientModes()),
                                          testing::Values(Op::kRead,
                                                          Op::kWrite),
                                          testing::Values(Target::kMapping)),
                         AccessCaseName);

// Child: argument "device=<d>". On device d: a kernel that runs, then one
// that traps; sends "before=<error>;trapped=<error>;", waits for "again",
// runs the first kernel again and sends "after=<error>;".
MX_CHILD_ROLE(Trapper) {
  const int device = static_cast<int>(ChildArgument(argument, "device", 0));
  if (mcSetDevice(device) != mcSuccess) return "mcSetDevice failed";
  int* own = nullptr;
  if (mcMalloc(&own, 256 * sizeof(int)) != mcSuccess) return "mcMalloc failed";
  Fill<<<1, 256>>>(own, 5);
  const mcError_t before = mcDeviceSynchronize();
  Trap<<<1, 64>>>();
  const mcError_t trapped = mcDeviceSynchronize();
  parent.Send(std::string("before=") + mcGetErrorName(before) +
              ";trapped=" + mcGetErrorName(trapped) + ";");
  if (parent.Receive() != "again") return "";
  Fill<<<1, 256>>>(own, 6);
  parent.Send(std::string("after=") + mcGetErrorName(mcDeviceSynchronize()) +
              ";");
  return "";
}

using TrapCase = std::tuple<ModeSetting, int>;  // the child's mode, device

class TrapInOtherProcess : public testing::TestWithParam<TrapCase> {
 protected:
  void TearDown() override { mcSetDevice(0); }
};

TEST_P(TrapInOtherProcess, LeavesThisProcessWorking) {
  MX_SPEC("api.mps.isolation.limited-fault-isolation", "api.trap.error.sticky");
  MX_MPS_REQUIRE();
  const auto [mode, device] = GetParam();
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", device + 1);
  ASSERT_EQ(mcSetDevice(0), mcSuccess);
  void* p = nullptr;
  ASSERT_EQ(mcMalloc(&p, kSize), mcSuccess);
  ASSERT_EQ(WritePattern(p, kSize, 1), mcSuccess);
  std::unique_ptr<ChildProcess> child =
      StartChild(mode, "Trapper", "device=" + std::to_string(device),
                 {{"MACA_TRAP_HANDLER", "1"}});
  const std::string report = child->Receive();
  ASSERT_EQ(ReportField(report, "before"), "mcSuccess") << report;
  const std::string trapped = ReportField(report, "trapped");
  ASSERT_NE(trapped, "mcSuccess");
  ASSERT_NE(trapped, "(none)");
  // While the faulted process still lives, this one keeps its memory and
  // runs kernels.
  EXPECT_EQ(mcGetLastError(), mcSuccess);
  EXPECT_EQ(CheckDevicePattern(p, kSize, 1), "");
  AddOne<<<kBlocks, 256>>>(static_cast<unsigned char*>(p), kSize);
  EXPECT_EQ(mcGetLastError(), mcSuccess);
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
  std::vector<unsigned char> host(kSize);
  ASSERT_EQ(mcMemcpy(host.data(), p, kSize, mcMemcpyDeviceToHost), mcSuccess);
  for (size_t i = 0; i < kSize; ++i) {
    ASSERT_EQ(host[i], static_cast<unsigned char>(PatternByte(i, 1) + 1))
        << "byte " << i;
  }
  // Control: in the process that trapped, the same kind of kernel fails
  // with the sticky error.
  ASSERT_TRUE(child->Send("again"));
  EXPECT_EQ(ReportField(child->Receive(), "after"), trapped);
  EXPECT_EQ(child->Wait(), 0);
  EXPECT_EQ(mcFree(p), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(Cases, TrapInOtherProcess,
                         testing::Combine(testing::ValuesIn(ClientModes()),
                                          testing::Values(0, 1)),
                         [](const testing::TestParamInfo<TrapCase>& info) {
                           return std::string(std::get<0>(info.param).name) +
                                  "_TrapOnDevice" +
                                  std::to_string(std::get<1>(info.param));
                         });

}  // namespace
}  // namespace mxcts::conformance::mps
