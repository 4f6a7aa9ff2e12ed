// Copyright mxcts authors.
//
// Conformance: device work completes although the host waits for it only by
// its own means (docs/spec/api-synchronization.md,
// api.sync.timeline.idle-progress): a host thread polls a flag a kernel
// writes to managed memory, or waits for a host function to release it,
// with no runtime call in between. Each mode runs in a fresh process, since
// the mode is read once; the deferred mode is the one that needs the rule
// (without it the program hangs), and its check also shows the work had not
// run when the host started waiting.

#include <mc_runtime.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include "conformance/api/testing/expect_error.h"
#include "conformance/api/testing/stream_kind.h"
#include "conformance/api/testing/timeline_mode_scope.h"
#include "conformance/testing/fresh_process.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

// Long enough for any implementation's idle delay on a loaded machine.
constexpr std::chrono::seconds kPatience{30};

__global__ void RaiseFlag(int* flag) { *flag = 1; }

void ReleaseBarrier(void* barrier) {
  static_cast<std::atomic<int>*>(barrier)->store(1);
}

// Waits, without runtime calls, until `done` says so or patience runs out.
template <typename Done>
bool WaitByOwnMeans(Done done) {
  const auto deadline = std::chrono::steady_clock::now() + kPatience;
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

std::string KernelFlagIsSeenByPolling(bool expect_pending_at_first) {
  std::string problems;
  int* flag = nullptr;
  problems +=
      Expect("mcMallocManaged", mcMallocManaged(&flag, sizeof(int)), mcSuccess);
  if (!problems.empty()) return problems;
  *flag = 0;
  RaiseFlag<<<1, 1>>>(flag);
  problems += Expect("the launch", mcGetLastError(), mcSuccess);
  volatile int* seen = flag;
  if (expect_pending_at_first && *seen != 0) {
    problems += "the deferred kernel had run at its launch; ";
  }
  if (!WaitByOwnMeans([seen] { return *seen == 1; })) {
    problems += "the kernel's write never became visible to a polling host; ";
  }
  problems += Expect("mcDeviceSynchronize", mcDeviceSynchronize(), mcSuccess);
  mcFree(flag);
  return problems;
}

std::string HostFunctionReleasesTheBarrier(bool expect_pending_at_first) {
  std::string problems;
  TestStream stream(StreamKind::kNonBlocking);
  problems += Expect("creating the stream", stream.status(), mcSuccess);
  if (!problems.empty()) return problems;
  std::atomic<int> barrier{0};
  problems += Expect("mcLaunchHostFunc",
                     mcLaunchHostFunc(stream.get(), &ReleaseBarrier, &barrier),
                     mcSuccess);
  if (expect_pending_at_first && barrier.load() != 0) {
    problems += "the deferred host function had run at its submission; ";
  }
  if (!WaitByOwnMeans([&barrier] { return barrier.load() == 1; })) {
    problems += "the host function never released the barrier; ";
  }
  problems += Expect("mcStreamSynchronize", mcStreamSynchronize(stream.get()),
                     mcSuccess);
  return problems;
}

struct ModeCase {
  const char* name;
  const char* timeline;
  bool deferred;  // work has not run at submission
};

class IdleProgress : public testing::TestWithParam<ModeCase> {};

TEST_P(IdleProgress, PolledKernelWriteCompletes) {
  MX_SPEC("api.sync.timeline.idle-progress");
  ScopedTimelineMode mode(GetParam().timeline);
  MX_EXPECT_IN_FRESH_PROCESS(KernelFlagIsSeenByPolling(GetParam().deferred));
}

TEST_P(IdleProgress, HostFunctionReleasesAWaitingThread) {
  MX_SPEC("api.sync.timeline.idle-progress");
  ScopedTimelineMode mode(GetParam().timeline);
  MX_EXPECT_IN_FRESH_PROCESS(
      HostFunctionReleasesTheBarrier(GetParam().deferred));
}

INSTANTIATE_TEST_SUITE_P(Modes, IdleProgress,
                         testing::Values(ModeCase{"Eager", "eager", false},
                                         ModeCase{"Deferred", "deferred", true},
                                         ModeCase{"Shuffle", "shuffle:7",
                                                  false}),
                         [](const testing::TestParamInfo<ModeCase>& info) {
                           return std::string(info.param.name);
                         });

}  // namespace
}  // namespace mxcts::conformance
