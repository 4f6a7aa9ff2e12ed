// Copyright mxcts authors.
//
// Conformance: interprocess events (docs/spec/api-ipc.md, "Interprocess
// events"). A parent exports an allocation and an interprocess event; a
// child process opens both. One process fills the memory with a kernel and
// records the event behind it; the other waits for that record (with
// mcEventSynchronize, mcStreamWaitEvent or by polling mcEventQuery) and
// then reads the memory: the wait must have covered the kernel of the
// other process. Every test holds in every timeline mode; both processes
// run in the mode of the test.

#include <mc_runtime.h>
#include <unistd.h>

#include <cstring>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "conformance/api/ipc/ipc_testing.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

// Writes pattern `seed` of ipc_testing.h's PatternByte.
__global__ void FillPattern(unsigned char* bytes, size_t size, int seed) {
  size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  if (i < size) {
    bytes[i] = static_cast<unsigned char>(
        i * 7 + static_cast<size_t>(seed) * 61 + (i >> 8) + 1);
  }
}

namespace mxcts::conformance::ipc {
namespace {

constexpr unsigned kInterprocess = mcEventInterprocess | mcEventDisableTiming;
constexpr size_t kSize = 65536;

void Fill(void* p, int seed, mcStream_t stream) {
  FillPattern<<<kSize / 256, 256, 0, stream>>>(static_cast<unsigned char*>(p),
                                               kSize, seed);
}

// Waits for `event` the way `how` says, then returns "" if `p` holds
// pattern `seed`, else what went wrong.
std::string WaitThenCheck(const std::string& how, mcEvent_t event, void* p,
                          int seed) {
  std::string problems;
  std::vector<unsigned char> host(kSize);
  if (how == "stream") {
    mcStream_t stream = nullptr;
    problems += Expect("mcStreamCreate", mcStreamCreate(&stream), mcSuccess);
    problems += Expect("mcStreamWaitEvent", mcStreamWaitEvent(stream, event, 0),
                       mcSuccess);
    problems += Expect(
        "mcMemcpyAsync",
        mcMemcpyAsync(host.data(), p, kSize, mcMemcpyDeviceToHost, stream),
        mcSuccess);
    problems +=
        Expect("mcStreamSynchronize", mcStreamSynchronize(stream), mcSuccess);
    mcStreamDestroy(stream);
    return problems + CheckPattern(host.data(), kSize, seed);
  }
  if (how == "query") {
    mcError_t state = mcErrorNotReady;
    for (int tries = 0; tries < 60000 && state == mcErrorNotReady; ++tries) {
      state = mcEventQuery(event);
      if (state == mcErrorNotReady) usleep(1000);
    }
    mcGetLastError();
    problems += Expect("mcEventQuery", state, mcSuccess);
  } else {
    problems +=
        Expect("mcEventSynchronize", mcEventSynchronize(event), mcSuccess);
  }
  return problems + CheckDevicePattern(p, kSize, seed);
}

// Opens the memory and event handles of the next two lines on device
// `device`; "" or why not.
std::string OpenBoth(LineChannel& parent, int device, void** q,
                     mcEvent_t* event) {
  if (mcSetDevice(device) != mcSuccess) return "mcSetDevice failed";
  mcIpcMemHandle_t memory;
  mcIpcEventHandle_t event_handle;
  if (!FromHex(parent.Receive(), &memory) ||
      !FromHex(parent.Receive(), &event_handle)) {
    return "no handles received";
  }
  return Expect("mcIpcOpenMemHandle", mcIpcOpenMemHandle(q, memory, 0),
                mcSuccess) +
         Expect("mcIpcOpenEventHandle",
                mcIpcOpenEventHandle(event, event_handle), mcSuccess);
}

// Child: argument "device=<d>;how=<w>" (w: sync, stream, query). Waits for
// the parent's record, then checks the parent's pattern 5.
MX_CHILD_ROLE(WaitForParentRecord) {
  const int device = static_cast<int>(ChildArgument(argument, "device", 0));
  const std::string how = argument.substr(argument.find("how=") + 4);
  void* q = nullptr;
  mcEvent_t event = nullptr;
  std::string problems = OpenBoth(parent, device, &q, &event);
  if (!problems.empty()) return problems;
  parent.Send("ready");
  if (parent.Receive() != "recorded") return "no 'recorded'";
  problems += WaitThenCheck(how, event, q, 5);
  problems += Expect("mcEventDestroy", mcEventDestroy(event), mcSuccess);
  problems += Expect("mcIpcCloseMemHandle", mcIpcCloseMemHandle(q), mcSuccess);
  return problems;
}

// Child: argument "device=<d>". Fills pattern 6 with a kernel and records
// the opened event behind it, says "recorded", stays until "done".
MX_CHILD_ROLE(RecordForParent) {
  const int device = static_cast<int>(ChildArgument(argument, "device", 0));
  void* q = nullptr;
  mcEvent_t event = nullptr;
  std::string problems = OpenBoth(parent, device, &q, &event);
  if (!problems.empty()) return problems;
  mcStream_t stream = nullptr;
  problems += Expect("mcStreamCreate", mcStreamCreate(&stream), mcSuccess);
  Fill(q, 6, stream);
  problems += Expect("mcEventRecord of the opened event",
                     mcEventRecord(event, stream), mcSuccess);
  parent.Send("recorded");
  if (parent.Receive() != "done") problems += "no 'done'; ";
  problems +=
      Expect("mcStreamSynchronize", mcStreamSynchronize(stream), mcSuccess);
  problems += Expect("mcEventDestroy", mcEventDestroy(event), mcSuccess);
  problems += Expect("mcIpcCloseMemHandle", mcIpcCloseMemHandle(q), mcSuccess);
  return problems;
}

// The parent's side: an allocation holding pattern 0 and an interprocess
// event of `device`, both exported to a child in `role`.
class SharedPair {
 public:
  SharedPair(int device, const std::string& role, const std::string& argument)
      : device_(device) {
    made_ = mcMalloc(&p_, kSize);
    if (made_ == mcSuccess) made_ = WritePattern(p_, kSize, 0);
    if (made_ == mcSuccess)
      made_ = mcEventCreateWithFlags(&event_, kInterprocess);
    mcIpcMemHandle_t memory;
    mcIpcEventHandle_t event;
    if (made_ == mcSuccess) made_ = mcIpcGetMemHandle(&memory, p_);
    if (made_ == mcSuccess) made_ = mcIpcGetEventHandle(&event, event_);
    if (made_ != mcSuccess) return;
    child_ = std::make_unique<ChildProcess>(role, argument);
    child_->Send(ToHex(memory));
    child_->Send(ToHex(event));
  }
  ~SharedPair() {
    child_.reset();
    if (event_ != nullptr) mcEventDestroy(event_);
    if (p_ != nullptr) mcFree(p_);
  }
  mcError_t made() const { return made_; }
  void* memory() const { return p_; }
  mcEvent_t event() const { return event_; }
  ChildProcess& child() { return *child_; }

 private:
  int device_;
  mcError_t made_ = mcSuccess;
  void* p_ = nullptr;
  mcEvent_t event_ = nullptr;
  std::unique_ptr<ChildProcess> child_;
};

using WaitCase = std::tuple<int, std::string>;  // device, how

std::string WaitCaseName(const testing::TestParamInfo<WaitCase>& info) {
  return "Device" + std::to_string(std::get<0>(info.param)) + "_" +
         std::get<1>(info.param);
}

class ChildWaits : public IpcTest<WaitCase> {};

TEST_P(ChildWaits, ForParentRecordAndSeesParentKernel) {
  MX_SPEC("api.ipc.event.open-handle", "api.ipc.event.get-handle",
          "api.ipc.open-mem-handle.maps-in-other-process");
  const auto [device, how] = GetParam();
  MX_IPC_REQUIRE_DEVICE(device);
  SharedPair pair(device, "WaitForParentRecord",
                  "device=" + std::to_string(device) + ";how=" + how);
  ASSERT_EQ(pair.made(), mcSuccess);
  ASSERT_EQ(pair.child().Receive(), "ready");
  mcStream_t stream = nullptr;
  ASSERT_EQ(mcStreamCreate(&stream), mcSuccess);
  Fill(pair.memory(), 5, stream);
  ASSERT_EQ(mcEventRecord(pair.event(), stream), mcSuccess);
  ASSERT_TRUE(pair.child().Send("recorded"));
  EXPECT_EQ(pair.child().Wait(), 0);
  EXPECT_EQ(mcStreamSynchronize(stream), mcSuccess);
  EXPECT_EQ(mcStreamDestroy(stream), mcSuccess);
}

class ParentWaits : public IpcTest<WaitCase> {};

TEST_P(ParentWaits, ForChildRecordAndSeesChildKernel) {
  MX_SPEC("api.ipc.event.record-in-importer", "api.ipc.event.open-handle");
  const auto [device, how] = GetParam();
  MX_IPC_REQUIRE_DEVICE(device);
  SharedPair pair(device, "RecordForParent",
                  "device=" + std::to_string(device));
  ASSERT_EQ(pair.made(), mcSuccess);
  ASSERT_EQ(pair.child().Receive(), "recorded");
  EXPECT_EQ(WaitThenCheck(how, pair.event(), pair.memory(), 6), "");
  ASSERT_TRUE(pair.child().Send("done"));
  EXPECT_EQ(pair.child().Wait(), 0);
}

INSTANTIATE_TEST_SUITE_P(Waits, ChildWaits,
                         testing::Combine(testing::Values(0, 1),
                                          testing::Values("sync", "stream",
                                                          "query")),
                         WaitCaseName);

INSTANTIATE_TEST_SUITE_P(Waits, ParentWaits,
                         testing::Combine(testing::Values(0, 1),
                                          testing::Values("sync", "stream",
                                                          "query")),
                         WaitCaseName);

// Child: opens an event that was never recorded: query, synchronize and a
// stream wait all succeed at once.
MX_CHILD_ROLE(UnrecordedEvent) {
  const int device = static_cast<int>(ChildArgument(argument, "device", 0));
  void* q = nullptr;
  mcEvent_t event = nullptr;
  std::string problems = OpenBoth(parent, device, &q, &event);
  if (!problems.empty()) return problems;
  problems += Expect("mcEventQuery", mcEventQuery(event), mcSuccess);
  problems +=
      Expect("mcEventSynchronize", mcEventSynchronize(event), mcSuccess);
  mcStream_t stream = nullptr;
  problems += Expect("mcStreamCreate", mcStreamCreate(&stream), mcSuccess);
  problems += Expect("mcStreamWaitEvent", mcStreamWaitEvent(stream, event, 0),
                     mcSuccess);
  problems +=
      Expect("mcStreamSynchronize", mcStreamSynchronize(stream), mcSuccess);
  mcStreamDestroy(stream);
  problems += Expect("mcEventDestroy", mcEventDestroy(event), mcSuccess);
  problems += Expect("mcIpcCloseMemHandle", mcIpcCloseMemHandle(q), mcSuccess);
  return problems;
}

// Child: opens the event, destroys it, opens it again (the exporter's
// event is untouched by the destroy) and says "reopened".
MX_CHILD_ROLE(DestroyOpened) {
  const int device = static_cast<int>(ChildArgument(argument, "device", 0));
  mcIpcMemHandle_t memory;
  mcIpcEventHandle_t handle;
  if (mcSetDevice(device) != mcSuccess) return "mcSetDevice failed";
  if (!FromHex(parent.Receive(), &memory) ||
      !FromHex(parent.Receive(), &handle)) {
    return "no handles received";
  }
  mcEvent_t event = nullptr;
  std::string problems = Expect(
      "mcIpcOpenEventHandle", mcIpcOpenEventHandle(&event, handle), mcSuccess);
  problems += Expect("mcEventDestroy", mcEventDestroy(event), mcSuccess);
  problems += Expect("a second mcEventDestroy", mcEventDestroy(event),
                     mcErrorInvalidResourceHandle);
  problems += Expect("mcIpcOpenEventHandle again",
                     mcIpcOpenEventHandle(&event, handle), mcSuccess);
  parent.Send("reopened");
  if (parent.Receive() != "recorded") return problems + "no 'recorded'; ";
  problems +=
      Expect("mcEventSynchronize", mcEventSynchronize(event), mcSuccess);
  problems += Expect("mcEventDestroy", mcEventDestroy(event), mcSuccess);
  return problems;
}

class OpenedEvent : public IpcTest<int> {};

TEST_P(OpenedEvent, NeverRecordedIsComplete) {
  MX_SPEC("api.ipc.event.open-handle");
  MX_IPC_REQUIRE_DEVICE(GetParam());
  SharedPair pair(GetParam(), "UnrecordedEvent",
                  "device=" + std::to_string(GetParam()));
  ASSERT_EQ(pair.made(), mcSuccess);
  EXPECT_EQ(pair.child().Wait(), 0);
}

TEST_P(OpenedEvent, DestroyReleasesOnlyImportersReference) {
  MX_SPEC("api.ipc.event.destroy-opened");
  MX_IPC_REQUIRE_DEVICE(GetParam());
  SharedPair pair(GetParam(), "DestroyOpened",
                  "device=" + std::to_string(GetParam()));
  ASSERT_EQ(pair.made(), mcSuccess);
  ASSERT_EQ(pair.child().Receive(), "reopened");
  // The exporter's event is still valid.
  EXPECT_EQ(mcEventRecord(pair.event(), nullptr), mcSuccess);
  EXPECT_EQ(mcEventSynchronize(pair.event()), mcSuccess);
  mcIpcEventHandle_t handle;
  EXPECT_EQ(mcIpcGetEventHandle(&handle, pair.event()), mcSuccess);
  ASSERT_TRUE(pair.child().Send("recorded"));
  EXPECT_EQ(pair.child().Wait(), 0);
}

INSTANTIATE_TEST_SUITE_P(Devices, OpenedEvent, testing::Values(0, 1),
                         DeviceName);

}  // namespace
}  // namespace mxcts::conformance::ipc
