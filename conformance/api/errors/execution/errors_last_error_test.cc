// Copyright mxcts authors.
//
// Conformance: the per-host-thread last error (docs/spec/api-errors.md,
// "The last error"): what a failing call records, that peeking keeps it and
// getting clears it, that successful calls and launches leave it, that it
// belongs to one host thread, that mcErrorNotReady is not recorded, and
// that a `<<<...>>>` launch, which returns nothing, records its errors
// there (and does not run the kernel).
//
// Every failing call is one of the simple argument errors of the runtime,
// none of them sticky, so the tests share one process; each test starts by
// clearing the slot.

#include <mc_runtime.h>

#include <functional>
#include <string>
#include <thread>

#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace {

// A runtime call that fails with `error`, whatever state earlier tests
// left.
struct FailingCall {
  const char* name;
  mcError_t error;
  std::function<mcError_t()> call;
};

int stack_word = 0;

const FailingCall kFailingCalls[] = {
    {"SetDeviceNegative", mcErrorInvalidDevice, [] { return mcSetDevice(-1); }},
    {"SetDeviceTooLarge", mcErrorInvalidDevice,
     [] { return mcSetDevice(1 << 20); }},
    {"GetDeviceCountNull", mcErrorInvalidValue,
     [] { return mcGetDeviceCount(nullptr); }},
    {"GetDevicePropertiesNull", mcErrorInvalidValue,
     [] { return mcGetDeviceProperties(nullptr, 0); }},
    {"MallocNull", mcErrorInvalidValue,
     [] { return mcMalloc(static_cast<void**>(nullptr), 16); }},
    {"FreeOfStackMemory", mcErrorInvalidValue,
     [] { return mcFree(&stack_word); }},
    {"MemcpyInvalidKind", mcErrorInvalidMemcpyDirection,
     [] {
       int a = 0, b = 0;
       return mcMemcpy(&a, &b, sizeof(int), static_cast<mcMemcpyKind>(7));
     }},
    {"StreamCreateNull", mcErrorInvalidValue,
     [] { return mcStreamCreate(nullptr); }},
    {"DeviceGetAttributeInvalid", mcErrorInvalidValue,
     [] {
       int value = 0;
       return mcDeviceGetAttribute(&value, static_cast<mcDeviceAttribute_t>(0),
                                   0);
     }},
    {"EnablePeerAccessToSelf", mcErrorInvalidDevice,
     [] {
       int device = 0;
       mcGetDevice(&device);
       return mcDeviceEnablePeerAccess(device, 0);
     }},
    {"CanAccessPeerNull", mcErrorInvalidValue,
     [] { return mcDeviceCanAccessPeer(nullptr, 0, 0); }},
};

std::string CallName(const testing::TestParamInfo<FailingCall>& info) {
  return info.param.name;
}

class LastErrorOf : public testing::TestWithParam<FailingCall> {
 protected:
  void SetUp() override {
    mcSetDevice(0);
    mcGetLastError();
  }
};

TEST_P(LastErrorOf, FailingCallIsRecorded) {
  MX_SPEC("api.error.last.recorded-on-failure",
          "api.error.return.every-call-returns-status");
  EXPECT_EQ(GetParam().call(), GetParam().error);
  EXPECT_EQ(mcPeekAtLastError(), GetParam().error);
}

TEST_P(LastErrorOf, PeekKeepsItAndGetClearsIt) {
  MX_SPEC("api.error.last.peek-does-not-reset",
          "api.error.last.get-returns-and-resets");
  ASSERT_EQ(GetParam().call(), GetParam().error);
  EXPECT_EQ(mcPeekAtLastError(), GetParam().error);
  EXPECT_EQ(mcPeekAtLastError(), GetParam().error);
  EXPECT_EQ(mcGetLastError(), GetParam().error);
  EXPECT_EQ(mcGetLastError(), mcSuccess);
  EXPECT_EQ(mcPeekAtLastError(), mcSuccess);
}

TEST_P(LastErrorOf, LaterSuccessfulCallsKeepIt) {
  MX_SPEC("api.error.last.success-does-not-clear");
  ASSERT_EQ(GetParam().call(), GetParam().error);
  int count = 0;
  ASSERT_EQ(mcGetDeviceCount(&count), mcSuccess);
  void* p = nullptr;
  ASSERT_EQ(mcMalloc(&p, 64), mcSuccess);
  ASSERT_EQ(mcFree(p), mcSuccess);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(mcGetLastError(), GetParam().error);
}

TEST_P(LastErrorOf, ALaterFailureReplacesIt) {
  MX_SPEC("api.error.last.recorded-on-failure");
  ASSERT_EQ(GetParam().call(), GetParam().error);
  // mcErrorInvalidMemcpyDirection differs from every other code listed.
  int a = 0, b = 0;
  ASSERT_EQ(mcMemcpy(&a, &b, sizeof(int), static_cast<mcMemcpyKind>(5)),
            mcErrorInvalidMemcpyDirection);
  ASSERT_EQ(mcSetDevice(-7), mcErrorInvalidDevice);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidDevice);
}

TEST_P(LastErrorOf, IsNotSeenByAnotherHostThread) {
  MX_SPEC("api.error.last.per-host-thread");
  ASSERT_EQ(GetParam().call(), GetParam().error);
  mcError_t peeked = mcErrorUnknown;
  mcError_t got = mcErrorUnknown;
  std::thread other([&] {
    peeked = mcPeekAtLastError();
    got = mcGetLastError();
  });
  other.join();
  EXPECT_EQ(peeked, mcSuccess);
  EXPECT_EQ(got, mcSuccess);
  // The other thread's mcGetLastError cleared its own slot, not this one.
  EXPECT_EQ(mcGetLastError(), GetParam().error);
}

TEST_P(LastErrorOf, AnotherThreadsFailureIsItsOwn) {
  MX_SPEC("api.error.last.per-host-thread");
  mcError_t seen_there = mcErrorUnknown;
  std::thread other([&] {
    GetParam().call();
    seen_there = mcGetLastError();
  });
  other.join();
  EXPECT_EQ(seen_there, GetParam().error);
  EXPECT_EQ(mcPeekAtLastError(), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(ArgumentErrors, LastErrorOf,
                         testing::ValuesIn(kFailingCalls), CallName);

TEST(LastError, IsSuccessInAThreadThatMadeNoFailingCall) {
  MX_SPEC("api.error.last.get-success-when-none");
  mcError_t first_peek = mcErrorUnknown;
  mcError_t first_get = mcErrorUnknown;
  mcError_t after_work = mcErrorUnknown;
  std::thread fresh([&] {
    first_peek = mcPeekAtLastError();
    first_get = mcGetLastError();
    void* p = nullptr;
    if (mcMalloc(&p, 32) == mcSuccess) mcFree(p);
    after_work = mcGetLastError();
  });
  fresh.join();
  EXPECT_EQ(first_peek, mcSuccess);
  EXPECT_EQ(first_get, mcSuccess);
  EXPECT_EQ(after_work, mcSuccess);
}

TEST(LastError, ThreadsFailingAtOnceEachKeepTheirOwn) {
  MX_SPEC("api.error.last.per-host-thread");
  constexpr int kThreads = 8;
  mcError_t seen[kThreads];
  std::thread threads[kThreads];
  for (int i = 0; i < kThreads; ++i) {
    threads[i] = std::thread([i, &seen] {
      // Even threads: an invalid device; odd ones: an invalid value.
      for (int round = 0; round < 100; ++round) {
        if (i % 2 == 0) {
          mcSetDevice(-1 - i);
        } else {
          mcGetDeviceCount(nullptr);
        }
      }
      seen[i] = mcGetLastError();
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int i = 0; i < kThreads; ++i) {
    EXPECT_EQ(seen[i], i % 2 == 0 ? mcErrorInvalidDevice : mcErrorInvalidValue)
        << "thread " << i;
  }
}

// --- mcErrorNotReady. ---

__global__ void Increment(int* counter) {
  if (threadIdx.x == 0 && blockIdx.x == 0) *counter += 1;
}

TEST(LastError, NotReadyIsNotRecorded) {
  MX_SPEC("api.error.last.not-ready-not-recorded");
  mcGetLastError();
  int* counter = nullptr;
  ASSERT_EQ(mcMalloc(&counter, sizeof(int)), mcSuccess);
  ASSERT_EQ(mcMemset(counter, 0, sizeof(int)), mcSuccess);
  mcStream_t stream = nullptr;
  ASSERT_EQ(mcStreamCreate(&stream), mcSuccess);
  // Whether the query sees the work finished depends on when the
  // implementation runs it; either answer leaves the slot clear.
  Increment<<<64, 64, 0, stream>>>(counter);
  const mcError_t query = mcStreamQuery(stream);
  EXPECT_TRUE(query == mcSuccess || query == mcErrorNotReady)
      << mcGetErrorName(query);
  EXPECT_EQ(mcPeekAtLastError(), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream), mcSuccess);
  EXPECT_EQ(mcStreamQuery(stream), mcSuccess);
  EXPECT_EQ(mcGetLastError(), mcSuccess);
  int value = 0;
  ASSERT_EQ(mcMemcpy(&value, counter, sizeof(int), mcMemcpyDeviceToHost),
            mcSuccess);
  EXPECT_EQ(value, 1);
  // Control: an error recorded before a query is still there after it.
  ASSERT_EQ(mcSetDevice(-1), mcErrorInvalidDevice);
  Increment<<<1, 1, 0, stream>>>(counter);
  mcStreamQuery(stream);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidDevice);
  ASSERT_EQ(mcStreamSynchronize(stream), mcSuccess);
  EXPECT_EQ(mcStreamDestroy(stream), mcSuccess);
  EXPECT_EQ(mcFree(counter), mcSuccess);
}

// --- Launch errors. ---

// Thread 0 of block 0 writes 1 to *ran.
__global__ void MarkRan(int* ran) {
  if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0 &&
      blockIdx.x == 0 && blockIdx.y == 0 && blockIdx.z == 0) {
    *ran = 1;
  }
}

__global__ void MarkRanWithDynamicShared(int* ran) {
  extern __shared__ char dynamic[];
  dynamic[0] = 1;
  if (threadIdx.x == 0 && blockIdx.x == 0) *ran = dynamic[0];
}

// One `<<<grid, block, shared>>>` configuration and what launching with it
// records: an error (the kernel must not run) or mcSuccess (it must).
struct Configuration {
  const char* name;
  dim3 grid;
  dim3 block;
  size_t shared_bytes;
  mcError_t recorded;
};

const Configuration kConfigurations[] = {
    {"ZeroGridX", dim3(0, 1, 1), dim3(1), 0, mcErrorInvalidConfiguration},
    {"ZeroGridY", dim3(1, 0, 1), dim3(1), 0, mcErrorInvalidConfiguration},
    {"ZeroGridZ", dim3(1, 1, 0), dim3(1), 0, mcErrorInvalidConfiguration},
    {"ZeroBlockX", dim3(1), dim3(0, 1, 1), 0, mcErrorInvalidConfiguration},
    {"ZeroBlockY", dim3(1), dim3(1, 0, 1), 0, mcErrorInvalidConfiguration},
    {"ZeroBlockZ", dim3(1), dim3(1, 1, 0), 0, mcErrorInvalidConfiguration},
    {"Block1025Threads", dim3(1), dim3(1025), 0, mcErrorInvalidConfiguration},
    {"Block2048Threads", dim3(1), dim3(32, 64), 0, mcErrorInvalidConfiguration},
    {"BlockZ1025", dim3(1), dim3(1, 1, 1025), 0, mcErrorInvalidConfiguration},
    {"GridXPastMax", dim3(2147483648u), dim3(1), 0,
     mcErrorInvalidConfiguration},
    {"SharedOneBytePastMax", dim3(1), dim3(64), 65537,
     mcErrorInvalidConfiguration},
    {"SharedFarPastMax", dim3(1), dim3(64), size_t{1} << 30,
     mcErrorInvalidConfiguration},
    // Controls at the limits.
    {"Block1024Threads", dim3(1), dim3(1024), 0, mcSuccess},
    {"BlockZ1024", dim3(1), dim3(1, 1, 1024), 0, mcSuccess},
    {"SharedAtMax", dim3(1), dim3(64), 65536, mcSuccess},
    {"SmallGrid", dim3(3, 2, 2), dim3(8, 4, 2), 128, mcSuccess},
};

std::string ConfigurationName(
    const testing::TestParamInfo<Configuration>& info) {
  return info.param.name;
}

class LaunchWith : public testing::TestWithParam<Configuration> {
 protected:
  void SetUp() override {
    ASSERT_EQ(mcSetDevice(0), mcSuccess);
    ASSERT_EQ(mcMallocManaged(&ran_, sizeof(int)), mcSuccess);
    *ran_ = 0;
    mcGetLastError();
  }
  void TearDown() override { mcFree(ran_); }
  void Launch() {
    const Configuration& c = GetParam();
    if (c.shared_bytes == 0) {
      MarkRan<<<c.grid, c.block>>>(ran_);
    } else {
      MarkRanWithDynamicShared<<<c.grid, c.block, c.shared_bytes>>>(ran_);
    }
  }
  int* ran_ = nullptr;
};

TEST_P(LaunchWith, RecordsItsErrorAsTheLastError) {
  MX_SPEC("api.error.last.launch-error-recorded");
  Launch();
  EXPECT_EQ(mcPeekAtLastError(), GetParam().recorded);
  EXPECT_EQ(mcGetLastError(), GetParam().recorded);
  EXPECT_EQ(mcGetLastError(), mcSuccess);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  // A rejected launch runs nothing; an accepted one runs.
  EXPECT_EQ(*ran_, GetParam().recorded == mcSuccess ? 1 : 0);
}

TEST_P(LaunchWith, ErrorIsNotSticky) {
  MX_SPEC("api.error.sticky.argument-errors-not-sticky");
  Launch();
  mcGetLastError();
  // A later valid launch and synchronization succeed.
  MarkRan<<<1, 1>>>(ran_);
  EXPECT_EQ(mcGetLastError(), mcSuccess);
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(*ran_, 1);
}

INSTANTIATE_TEST_SUITE_P(Configurations, LaunchWith,
                         testing::ValuesIn(kConfigurations), ConfigurationName);

TEST(LaunchErrors, DestroyedStreamIsRecorded) {
  MX_SPEC("api.error.last.launch-error-recorded",
          "lang.launch.limit.invalid-stream-handle");
  ASSERT_EQ(mcSetDevice(0), mcSuccess);
  int* ran = nullptr;
  ASSERT_EQ(mcMallocManaged(&ran, sizeof(int)), mcSuccess);
  *ran = 0;
  mcStream_t stream = nullptr;
  ASSERT_EQ(mcStreamCreate(&stream), mcSuccess);
  ASSERT_EQ(mcStreamDestroy(stream), mcSuccess);
  mcGetLastError();
  MarkRan<<<1, 1, 0, stream>>>(ran);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidResourceHandle);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(*ran, 0);
  // Control: a live stream.
  ASSERT_EQ(mcStreamCreate(&stream), mcSuccess);
  MarkRan<<<1, 1, 0, stream>>>(ran);
  EXPECT_EQ(mcGetLastError(), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream), mcSuccess);
  EXPECT_EQ(*ran, 1);
  mcStreamDestroy(stream);
  mcFree(ran);
}

TEST(LaunchErrors, StreamOfAnotherDeviceIsRecorded) {
  MX_SPEC("api.error.last.launch-error-recorded",
          "lang.launch.limit.stream-of-other-device");
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
  ASSERT_EQ(mcSetDevice(1), mcSuccess);
  mcStream_t on_device1 = nullptr;
  ASSERT_EQ(mcStreamCreate(&on_device1), mcSuccess);
  ASSERT_EQ(mcSetDevice(0), mcSuccess);
  int* ran = nullptr;
  ASSERT_EQ(mcMallocManaged(&ran, sizeof(int)), mcSuccess);
  *ran = 0;
  mcGetLastError();
  MarkRan<<<1, 1, 0, on_device1>>>(ran);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidResourceHandle);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(*ran, 0);
  // Control: the same launch with device 1 current.
  ASSERT_EQ(mcSetDevice(1), mcSuccess);
  MarkRan<<<1, 1, 0, on_device1>>>(ran);
  EXPECT_EQ(mcGetLastError(), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(on_device1), mcSuccess);
  EXPECT_EQ(*ran, 1);
  mcStreamDestroy(on_device1);
  ASSERT_EQ(mcSetDevice(0), mcSuccess);
  mcFree(ran);
}

void NotAKernel(int*) {}

TEST(LaunchErrors, FunctionThatIsNoKernelIsRecorded) {
  MX_SPEC("api.error.last.launch-error-recorded");
  ASSERT_EQ(mcSetDevice(0), mcSuccess);
  int* ran = nullptr;
  ASSERT_EQ(mcMallocManaged(&ran, sizeof(int)), mcSuccess);
  *ran = 0;
  mcGetLastError();
  void* args[] = {&ran};
  EXPECT_EQ(mcLaunchKernel(reinterpret_cast<const void*>(&NotAKernel), dim3(1),
                           dim3(1), args, 0, nullptr),
            mcErrorInvalidDeviceFunction);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidDeviceFunction);
  // Control: the same call with a kernel.
  EXPECT_EQ(mcLaunchKernel(reinterpret_cast<const void*>(&MarkRan), dim3(1),
                           dim3(1), args, 0, nullptr),
            mcSuccess);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(*ran, 1);
  EXPECT_EQ(mcGetLastError(), mcSuccess);
  mcFree(ran);
}

TEST(LaunchErrors, AcceptedLaunchKeepsAnEarlierError) {
  MX_SPEC("api.error.last.launch-success-does-not-clear");
  ASSERT_EQ(mcSetDevice(0), mcSuccess);
  int* ran = nullptr;
  ASSERT_EQ(mcMallocManaged(&ran, sizeof(int)), mcSuccess);
  *ran = 0;
  mcGetLastError();
  ASSERT_EQ(mcGetDeviceCount(nullptr), mcErrorInvalidValue);
  MarkRan<<<1, 1>>>(ran);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(*ran, 1);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidValue);
  // Control: checked with a cleared slot, the same launch reads success.
  MarkRan<<<1, 1>>>(ran);
  EXPECT_EQ(mcGetLastError(), mcSuccess);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  mcFree(ran);
}

TEST(LaunchErrors, RecordedInTheLaunchingThreadOnly) {
  MX_SPEC("api.error.last.launch-error-recorded",
          "api.error.last.per-host-thread");
  ASSERT_EQ(mcSetDevice(0), mcSuccess);
  mcGetLastError();
  int* ran = nullptr;
  ASSERT_EQ(mcMallocManaged(&ran, sizeof(int)), mcSuccess);
  *ran = 0;
  mcError_t seen_there = mcErrorUnknown;
  std::thread launcher([&] {
    MarkRan<<<1, 2048>>>(ran);
    seen_there = mcGetLastError();
  });
  launcher.join();
  EXPECT_EQ(seen_there, mcErrorInvalidConfiguration);
  EXPECT_EQ(mcGetLastError(), mcSuccess);
  EXPECT_EQ(*ran, 0);
  mcFree(ran);
}

}  // namespace
