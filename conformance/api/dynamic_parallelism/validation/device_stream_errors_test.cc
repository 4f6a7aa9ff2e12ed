// Copyright mxcts authors.
//
// Conformance: misuse of streams and events in device code
// (docs/spec/api-dynamic-parallelism.md, "Streams and events in device
// code"): flags device code does not accept are mcErrorInvalidValue, a
// handle the calling block may not use is mcErrorInvalidResourceHandle in a
// call and a trap in a launch. Each table has the valid call as its control,
// and every error is also the calling thread's last error.

#include <maca_cooperative_groups.h>
#include <mc_runtime.h>

#include <string>

#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"
#include "conformance/testing/trap_expectation.h"
#include "gtest/gtest.h"

namespace {

namespace cg = cooperative_groups;

// Device memory of `count` ints, zeroed, freed at scope end.
class Cells {
 public:
  explicit Cells(int count) : count_(count) {
    mcMalloc(&data_, count * sizeof(int));
    mcMemset(data_, 0, count * sizeof(int));
  }
  ~Cells() { mcFree(data_); }
  int* get() const { return data_; }
  int At(int i) const {
    int value = 0;
    mcMemcpy(&value, data_ + i, sizeof(int), mcMemcpyDeviceToHost);
    return value;
  }

 private:
  int* data_ = nullptr;
  int count_;
};

// --- Flags. ---

enum class Creation { kStream, kEvent, kWait };

struct FlagCase {
  const char* name;
  Creation what;
  unsigned flags;
  bool null_pointer;
  mcError_t error;  // mcSuccess: the control
};

__global__ void CreateWithFlags(Creation what, unsigned flags, int null_pointer,
                                int* status) {
  mcStream_t stream;
  mcEvent_t event;
  switch (what) {
    case Creation::kStream:
      status[0] =
          mcStreamCreateWithFlags(null_pointer != 0 ? nullptr : &stream, flags);
      break;
    case Creation::kEvent:
      status[0] =
          mcEventCreateWithFlags(null_pointer != 0 ? nullptr : &event, flags);
      break;
    case Creation::kWait:
      mcStreamCreateWithFlags(&stream, mcStreamNonBlocking);
      mcEventCreateWithFlags(&event, mcEventDisableTiming);
      status[0] = mcStreamWaitEvent(stream, event, flags);
      break;
  }
  status[1] = mcGetLastError();
}

class DeviceStreamFlagsTest : public ::testing::TestWithParam<FlagCase> {};

TEST_P(DeviceStreamFlagsTest, OnlyTheFlagsDeviceCodeAcceptsSucceed) {
  const FlagCase& c = GetParam();
  if (c.what == Creation::kStream) {
    MX_SPEC("api.devrt.stream.create-requires-non-blocking");
  } else if (c.what == Creation::kEvent) {
    MX_SPEC("api.devrt.event.create-requires-disable-timing");
  } else {
    MX_SPEC("api.devrt.event.wait-flags-zero");
  }
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  MX_REQUIRE_CAPABILITY("device_streams");
  Cells status(2);
  CreateWithFlags<<<1, 1>>>(c.what, c.flags, c.null_pointer ? 1 : 0,
                            status.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(status.At(0), c.error);
  EXPECT_EQ(status.At(1), c.error) << "the thread's last error";
}

INSTANTIATE_TEST_SUITE_P(
    Flags, DeviceStreamFlagsTest,
    ::testing::Values(
        FlagCase{"StreamNonBlocking", Creation::kStream, mcStreamNonBlocking,
                 false, mcSuccess},
        FlagCase{"StreamDefault", Creation::kStream, mcStreamDefault, false,
                 mcErrorInvalidValue},
        FlagCase{"StreamUnknownFlag", Creation::kStream, 0x2, false,
                 mcErrorInvalidValue},
        FlagCase{"StreamNonBlockingAndMore", Creation::kStream,
                 mcStreamNonBlocking | 0x4, false, mcErrorInvalidValue},
        FlagCase{"StreamNullPointer", Creation::kStream, mcStreamNonBlocking,
                 true, mcErrorInvalidValue},
        FlagCase{"EventDisableTiming", Creation::kEvent, mcEventDisableTiming,
                 false, mcSuccess},
        FlagCase{"EventDefault", Creation::kEvent, mcEventDefault, false,
                 mcErrorInvalidValue},
        FlagCase{"EventBlockingSync", Creation::kEvent,
                 mcEventBlockingSync | mcEventDisableTiming, false,
                 mcErrorInvalidValue},
        FlagCase{"EventInterprocess", Creation::kEvent,
                 mcEventInterprocess | mcEventDisableTiming, false,
                 mcErrorInvalidValue},
        FlagCase{"EventNullPointer", Creation::kEvent, mcEventDisableTiming,
                 true, mcErrorInvalidValue},
        FlagCase{"WaitZero", Creation::kWait, 0, false, mcSuccess},
        FlagCase{"WaitOne", Creation::kWait, 1, false, mcErrorInvalidValue}),
    [](const auto& info) { return std::string(info.param.name); });

// --- Handles the calling block may not use, in calls. ---

enum class Misuse {
  kNone,                // the control: valid handles
  kDestroyNullStream,   // mcStreamDestroy(0)
  kDestroyStreamTwice,  // the second mcStreamDestroy
  kDestroyEventTwice,   // the second mcEventDestroy
  kRecordDestroyedEvent,
  kRecordIntoDestroyedStream,
  kWaitOnDestroyedEvent,
  kEventAsStream,  // an event handle where a stream belongs
  kStreamAsEvent,
  kHostStream,  // a stream the host created
  kHostEvent,
  kCopyIntoDestroyedStream,
};

struct HandleCase {
  const char* name;
  Misuse misuse;
};

__global__ void UseHandles(Misuse misuse, mcStream_t host_stream,
                           mcEvent_t host_event, int* cell, int* status) {
  mcStream_t stream;
  mcEvent_t event;
  mcStreamCreateWithFlags(&stream, mcStreamNonBlocking);
  mcEventCreateWithFlags(&event, mcEventDisableTiming);
  mcError_t result = mcSuccess;
  switch (misuse) {
    case Misuse::kNone:
      result = mcEventRecord(event, stream);
      if (result == mcSuccess) result = mcStreamWaitEvent(0, event, 0);
      if (result == mcSuccess) result = mcEventDestroy(event);
      if (result == mcSuccess) result = mcStreamDestroy(stream);
      break;
    case Misuse::kDestroyNullStream:
      result = mcStreamDestroy(0);
      break;
    case Misuse::kDestroyStreamTwice:
      mcStreamDestroy(stream);
      result = mcStreamDestroy(stream);
      break;
    case Misuse::kDestroyEventTwice:
      mcEventDestroy(event);
      result = mcEventDestroy(event);
      break;
    case Misuse::kRecordDestroyedEvent:
      mcEventDestroy(event);
      result = mcEventRecord(event, stream);
      break;
    case Misuse::kRecordIntoDestroyedStream:
      mcStreamDestroy(stream);
      result = mcEventRecord(event, stream);
      break;
    case Misuse::kWaitOnDestroyedEvent:
      mcEventDestroy(event);
      result = mcStreamWaitEvent(stream, event, 0);
      break;
    case Misuse::kEventAsStream:
      result = mcStreamDestroy(reinterpret_cast<mcStream_t>(event));
      break;
    case Misuse::kStreamAsEvent:
      result = mcEventRecord(reinterpret_cast<mcEvent_t>(stream), 0);
      break;
    case Misuse::kHostStream:
      result = mcStreamWaitEvent(host_stream, event, 0);
      break;
    case Misuse::kHostEvent:
      result = mcEventRecord(host_event, stream);
      break;
    case Misuse::kCopyIntoDestroyedStream:
      mcStreamDestroy(stream);
      result = mcMemsetAsync(cell, 1, sizeof(int), stream);
      break;
  }
  status[0] = result;
  status[1] = mcGetLastError();
}

class DeviceHandleCallTest : public ::testing::TestWithParam<HandleCase> {};

TEST_P(DeviceHandleCallTest, HandleTheBlockMayNotUseIsAnInvalidHandle) {
  MX_SPEC("api.devrt.stream.handles-private-to-block",
          "api.devrt.stream.destroy-returns-at-once",
          "api.devrt.stream.host-stream-not-usable-in-device-code");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  MX_REQUIRE_CAPABILITY("device_streams");
  const HandleCase& c = GetParam();
  mcStream_t host_stream;
  mcEvent_t host_event;
  ASSERT_EQ(mcStreamCreate(&host_stream), mcSuccess);
  ASSERT_EQ(mcEventCreate(&host_event), mcSuccess);
  Cells cell(1);
  Cells status(2);
  UseHandles<<<1, 1>>>(c.misuse, host_stream, host_event, cell.get(),
                       status.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  const mcError_t expected =
      c.misuse == Misuse::kNone ? mcSuccess : mcErrorInvalidResourceHandle;
  EXPECT_EQ(status.At(0), expected);
  EXPECT_EQ(status.At(1), expected) << "the thread's last error";
  EXPECT_EQ(cell.At(0), 0) << "a failed fill wrote";
  mcEventDestroy(host_event);
  mcStreamDestroy(host_stream);
}

INSTANTIATE_TEST_SUITE_P(
    Handles, DeviceHandleCallTest,
    ::testing::Values(
        HandleCase{"ControlValidHandles", Misuse::kNone},
        HandleCase{"DestroyNullStream", Misuse::kDestroyNullStream},
        HandleCase{"DestroyStreamTwice", Misuse::kDestroyStreamTwice},
        HandleCase{"DestroyEventTwice", Misuse::kDestroyEventTwice},
        HandleCase{"RecordDestroyedEvent", Misuse::kRecordDestroyedEvent},
        HandleCase{"RecordIntoDestroyedStream",
                   Misuse::kRecordIntoDestroyedStream},
        HandleCase{"WaitOnDestroyedEvent", Misuse::kWaitOnDestroyedEvent},
        HandleCase{"EventAsStream", Misuse::kEventAsStream},
        HandleCase{"StreamAsEvent", Misuse::kStreamAsEvent},
        HandleCase{"HostStream", Misuse::kHostStream},
        HandleCase{"HostEvent", Misuse::kHostEvent},
        HandleCase{"CopyIntoDestroyedStream",
                   Misuse::kCopyIntoDestroyedStream}),
    [](const auto& info) { return std::string(info.param.name); });

// --- Handles of another block, grid or an exited block. ---

// A child grid is given its parent block's stream.
__global__ void DestroyGivenStream(mcStream_t stream, int* status) {
  status[0] = mcStreamDestroy(stream);
}

__global__ void PassStreamToChild(int own_block, int* status) {
  mcStream_t stream;
  mcStreamCreateWithFlags(&stream, mcStreamNonBlocking);
  if (own_block != 0) {
    // The control: the creating block itself.
    DestroyGivenStream<<<1, 1>>>(nullptr, status + 1);
    status[0] = mcStreamDestroy(stream);
  } else {
    DestroyGivenStream<<<1, 1>>>(stream, status);
  }
}

class ChildGridHandleTest : public ::testing::TestWithParam<bool> {};

TEST_P(ChildGridHandleTest, ParentsStreamIsNotTheChilds) {
  MX_SPEC("api.devrt.stream.handles-private-to-block");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  MX_REQUIRE_CAPABILITY("device_streams");
  const bool own_block = GetParam();
  Cells status(2);
  PassStreamToChild<<<1, 1>>>(own_block ? 1 : 0, status.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(status.At(0), own_block ? mcSuccess : mcErrorInvalidResourceHandle);
}

INSTANTIATE_TEST_SUITE_P(Users, ChildGridHandleTest, ::testing::Bool(),
                         [](const auto& info) {
                           return std::string(info.param ? "ControlOwnBlock"
                                                         : "ChildGrid");
                         });

// Block 0 of a cooperative grid creates a stream; after the grid barrier,
// block `user` destroys it.
__global__ void ShareAcrossBlocks(mcStream_t* slot, int user, int* status) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    mcStreamCreateWithFlags(slot, mcStreamNonBlocking);
  }
  cg::this_grid().sync();
  if (static_cast<int>(blockIdx.x) == user && threadIdx.x == 0) {
    status[0] = mcStreamDestroy(*slot);
  }
}

class OtherBlockHandleTest : public ::testing::TestWithParam<int> {};

TEST_P(OtherBlockHandleTest, AnotherBlocksStreamIsAnInvalidHandle) {
  MX_SPEC("api.devrt.stream.handles-private-to-block");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  MX_REQUIRE_CAPABILITY("device_streams");
  MX_REQUIRE_CAPABILITY("cooperative_launch");
  const int user = GetParam();
  mcStream_t* slot = nullptr;
  ASSERT_EQ(mcMalloc(&slot, sizeof(mcStream_t)), mcSuccess);
  Cells status(1);
  int* status_pointer = status.get();
  int user_argument = user;
  void* args[] = {&slot, &user_argument, &status_pointer};
  ASSERT_EQ(mcLaunchCooperativeKernel((const void*)ShareAcrossBlocks, dim3(2),
                                      dim3(2), args, 0, 0),
            mcSuccess);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(status.At(0), user == 0 ? mcSuccess : mcErrorInvalidResourceHandle);
  mcFree(slot);
}

INSTANTIATE_TEST_SUITE_P(Users, OtherBlockHandleTest, ::testing::Values(0, 1),
                         [](const auto& info) {
                           return std::string(info.param == 0
                                                  ? "ControlCreatingBlock"
                                                  : "OtherBlock");
                         });

// A handle kept in global memory after its grid ended.
__global__ void KeepStream(mcStream_t* slot) {
  mcStreamCreateWithFlags(slot, mcStreamNonBlocking);
}
__global__ void DestroyKeptStream(mcStream_t* slot, int* status) {
  status[0] = mcStreamDestroy(*slot);
}

TEST(ExitedBlockHandle, StreamOfAnEndedGridIsAnInvalidHandle) {
  MX_SPEC("api.devrt.stream.handles-private-to-block");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  MX_REQUIRE_CAPABILITY("device_streams");
  mcStream_t* slot = nullptr;
  ASSERT_EQ(mcMalloc(&slot, sizeof(mcStream_t)), mcSuccess);
  Cells status(1);
  KeepStream<<<1, 1>>>(slot);
  DestroyKeptStream<<<1, 1>>>(slot, status.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(status.At(0), mcErrorInvalidResourceHandle);
  mcFree(slot);
}

// A handle kept in global memory by one child grid and used by a later
// child of the same parent, in the same launch tree. The later child has the
// same shape as the first (one block, same kernel), so nothing but the first
// block's exit tells its handle from one the later block created.
__global__ void CreateOrDestroyStream(int create, int destroy, mcStream_t* slot,
                                      int* status) {
  if (create != 0) mcStreamCreateWithFlags(slot, mcStreamNonBlocking);
  if (destroy != 0) status[0] = mcStreamDestroy(*slot);
}

__global__ void HandOnStreamBetweenChildren(int same_child, mcStream_t* slot,
                                            int* status) {
  mcStream_t order;
  mcStreamCreateWithFlags(&order, mcStreamNonBlocking);
  if (same_child != 0) {
    // The control: the child that creates the stream destroys it.
    CreateOrDestroyStream<<<1, 1, 0, order>>>(1, 0, slot, status);
    CreateOrDestroyStream<<<1, 1, 0, order>>>(1, 1, slot, status);
  } else {
    CreateOrDestroyStream<<<1, 1, 0, order>>>(1, 0, slot, status);
    CreateOrDestroyStream<<<1, 1, 0, order>>>(0, 1, slot, status);
  }
  mcStreamDestroy(order);
}

class LaterChildHandleTest : public ::testing::TestWithParam<bool> {};

TEST_P(LaterChildHandleTest, StreamOfAnExitedChildIsAnInvalidHandle) {
  MX_SPEC("api.devrt.stream.handles-private-to-block");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  MX_REQUIRE_CAPABILITY("device_streams");
  const bool same_child = GetParam();
  mcStream_t* slot = nullptr;
  ASSERT_EQ(mcMalloc(&slot, sizeof(mcStream_t)), mcSuccess);
  Cells status(1);
  ASSERT_EQ(mcMemset(status.get(), 0xff, sizeof(int)), mcSuccess);
  HandOnStreamBetweenChildren<<<1, 1>>>(same_child ? 1 : 0, slot, status.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(status.At(0),
            same_child ? mcSuccess : mcErrorInvalidResourceHandle);
  mcFree(slot);
}

INSTANTIATE_TEST_SUITE_P(Users, LaterChildHandleTest, ::testing::Bool(),
                         [](const auto& info) {
                           return std::string(info.param ? "ControlSameChild"
                                                         : "LaterChild");
                         });

// --- Launches into a stream the block may not use trap. ---

__global__ void MarkRan(int* ran) { *ran = 1; }

__global__ void LaunchIntoDestroyedStream(int destroy, int* ran) {
  mcStream_t stream;
  mcStreamCreateWithFlags(&stream, mcStreamNonBlocking);
  if (destroy != 0) mcStreamDestroy(stream);
  MarkRan<<<1, 1, 0, stream>>>(ran);
}

mcError_t LaunchAfterDestroy(bool destroy) {
  int* ran = nullptr;
  mcMalloc(&ran, sizeof(int));
  LaunchIntoDestroyedStream<<<1, 1>>>(destroy ? 1 : 0, ran);
  return mcDeviceSynchronize();
}

TEST(DeviceStreamLaunch, LaunchIntoADestroyedStreamIsReported) {
  MX_SPEC("api.devrt.stream.handles-private-to-block");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  MX_REQUIRE_CAPABILITY("device_streams");
  MX_EXPECT_TRAP(LaunchAfterDestroy(true), mcErrorLaunchFailure,
                 "LaunchIntoDestroyedStream.*names stream .*was destroyed");
}

TEST(DeviceStreamLaunch, ControlLaunchIntoALiveStreamRuns) {
  MX_SPEC("api.devrt.stream.handles-private-to-block");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  MX_REQUIRE_CAPABILITY("device_streams");
  MX_EXPECT_NO_TRAP(LaunchAfterDestroy(false));
}

__global__ void LaunchIntoGivenStream(mcStream_t stream, int* ran) {
  MarkRan<<<1, 1, 0, stream>>>(ran);
}

__global__ void GiveStreamToChild(int* ran) {
  mcStream_t stream;
  mcStreamCreateWithFlags(&stream, mcStreamNonBlocking);
  LaunchIntoGivenStream<<<1, 1>>>(stream, ran);
}

mcError_t ChildLaunchesIntoParentsStream() {
  int* ran = nullptr;
  mcMalloc(&ran, sizeof(int));
  GiveStreamToChild<<<1, 1>>>(ran);
  return mcDeviceSynchronize();
}

TEST(DeviceStreamLaunch, LaunchIntoTheParentsStreamIsReported) {
  MX_SPEC("api.devrt.stream.handles-private-to-block");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  MX_REQUIRE_CAPABILITY("device_streams");
  MX_EXPECT_TRAP(ChildLaunchesIntoParentsStream(), mcErrorLaunchFailure,
                 "LaunchIntoGivenStream.*names stream .*was created by kernel "
                 "'.*GiveStreamToChild.*private to the block");
}

}  // namespace
