// Copyright mxcts authors.
//
// Conformance: an MPS client process may be ended by a signal at any time
// without making other processes' work fail (docs/spec/api-mps.md,
// api.mps.termination.signals-supported). A child process of the test
// binary, in exclusive or shared mode, runs kernel after kernel; while it
// does, this process queues its own work, the child is ended by SIGINT
// (what Ctrl+C sends), SIGTERM or SIGKILL, and this process's work, queued
// before and after, completes with the right results. The control lets
// the child run to its end, which it reports, so that the signal tests
// show the signal ended it mid-work.

#include <mc_runtime.h>
#include <signal.h>

#include <string>
#include <tuple>
#include <vector>

#include "conformance/api/mps/mps_testing.h"
#include "conformance/api/testing/device_pattern.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

__global__ void Spin(int* values, int rounds) {
  volatile int* value = values + blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < rounds; ++k) *value = *value * 31 + k;
}

__global__ void AddOne(unsigned char* bytes, size_t size) {
  size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  if (i < size) bytes[i] = static_cast<unsigned char>(bytes[i] + 1);
}

namespace mxcts::conformance::mps {
namespace {

constexpr size_t kSize = 8192;
constexpr unsigned kBlocks = (kSize + 255) / 256;
// The child's kernels: enough of them that it is still running them when
// the signal comes, soon after its first.
constexpr int kLaunches = 100;

// Child: argument "launches=<n>". Runs n Spin kernels on device 0, each
// waited for; says "working" after the first and "finished" after the
// last.
MX_CHILD_ROLE(Busy) {
  const int launches = static_cast<int>(ChildArgument(argument, "launches", 1));
  int* values = nullptr;
  if (mcMalloc(&values, 4 * 256 * sizeof(int)) != mcSuccess) {
    return "mcMalloc failed";
  }
  for (int i = 0; i < launches; ++i) {
    Spin<<<4, 256>>>(values, 2000);
    mcError_t ran = mcDeviceSynchronize();
    if (ran != mcSuccess) {
      return std::string("launch ") + std::to_string(i) + " gave " +
             mcGetErrorName(ran);
    }
    if (i == 0) parent.Send("working");
  }
  parent.Send("finished");
  return "";
}

// "" if the kSize bytes at `p` are pattern 1 plus `added` each, else the
// first that is not.
std::string CheckAdded(const void* p, int added) {
  std::vector<unsigned char> host(kSize);
  mcError_t copied = mcMemcpy(host.data(), p, kSize, mcMemcpyDeviceToHost);
  if (copied != mcSuccess) return mcGetErrorName(copied);
  for (size_t i = 0; i < kSize; ++i) {
    if (host[i] != static_cast<unsigned char>(PatternByte(i, 1) + added)) {
      return "byte " + std::to_string(i) + " is " + std::to_string(host[i]);
    }
  }
  return "";
}

const char* SignalName(int signal) {
  switch (signal) {
    case SIGINT:
      return "Sigint";
    case SIGTERM:
      return "Sigterm";
    case SIGKILL:
      return "Sigkill";
  }
  return "Signal";
}

using SignalCase = std::tuple<ModeSetting, int>;  // the child's mode, signal

class OtherProcessEnded : public testing::TestWithParam<SignalCase> {
 protected:
  void SetUp() override {
    ASSERT_EQ(mcMalloc(&p_, kSize), mcSuccess);
    ASSERT_EQ(WritePattern(p_, kSize, 1), mcSuccess);
    ASSERT_EQ(mcStreamCreate(&stream_), mcSuccess);
  }
  void TearDown() override {
    mcStreamDestroy(stream_);
    mcFree(p_);
  }
  void AddOneInStream() {
    AddOne<<<kBlocks, 256, 0, stream_>>>(static_cast<unsigned char*>(p_),
                                         kSize);
  }

  void* p_ = nullptr;
  mcStream_t stream_ = nullptr;
};

TEST_P(OtherProcessEnded, WorkOfThisProcessSucceeds) {
  MX_SPEC("api.mps.termination.signals-supported");
  MX_MPS_REQUIRE();
  const auto [mode, signal] = GetParam();
  std::unique_ptr<ChildProcess> child =
      StartChild(mode, "Busy", "launches=" + std::to_string(kLaunches));
  ASSERT_EQ(child->Receive(), "working");
  // Work queued while the other process runs, before and after the signal.
  AddOneInStream();
  ASSERT_TRUE(child->Signal(signal));
  AddOneInStream();
  EXPECT_EQ(child->Wait(), 128 + signal);
  // The child ended mid-work: it never said "finished".
  EXPECT_EQ(child->Receive(0), "");
  EXPECT_EQ(mcGetLastError(), mcSuccess);
  EXPECT_EQ(mcStreamSynchronize(stream_), mcSuccess);
  EXPECT_EQ(CheckAdded(p_, 2), "");
  // And work queued after the other process is gone.
  AddOneInStream();
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(CheckAdded(p_, 3), "");
}

INSTANTIATE_TEST_SUITE_P(Signals, OtherProcessEnded,
                         testing::Combine(testing::ValuesIn(ClientModes()),
                                          testing::Values(SIGINT, SIGTERM,
                                                          SIGKILL)),
                         [](const testing::TestParamInfo<SignalCase>& info) {
                           return std::string(std::get<0>(info.param).name) +
                                  "_" + SignalName(std::get<1>(info.param));
                         });

class OtherProcessFinishes : public OtherProcessEnded {};

TEST_P(OtherProcessFinishes, ReportsItsEnd) {
  MX_SPEC("api.mps.termination.signals-supported");
  MX_MPS_REQUIRE();
  // Control: without a signal the child runs every kernel and says so, so
  // the silence of the ended children shows they were ended mid-work.
  std::unique_ptr<ChildProcess> child = StartChild(
      std::get<0>(GetParam()), "Busy", "launches=" + std::to_string(kLaunches));
  ASSERT_EQ(child->Receive(), "working");
  AddOneInStream();
  AddOneInStream();
  EXPECT_EQ(child->Receive(), "finished");
  EXPECT_EQ(child->Wait(), 0);
  EXPECT_EQ(mcStreamSynchronize(stream_), mcSuccess);
  EXPECT_EQ(CheckAdded(p_, 2), "");
}

INSTANTIATE_TEST_SUITE_P(NoSignal, OtherProcessFinishes,
                         testing::Combine(testing::ValuesIn(ClientModes()),
                                          testing::Values(0)),
                         [](const testing::TestParamInfo<SignalCase>& info) {
                           return std::string(std::get<0>(info.param).name);
                         });

}  // namespace
}  // namespace mxcts::conformance::mps
