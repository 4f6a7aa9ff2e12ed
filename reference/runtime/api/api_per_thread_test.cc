// Copyright mxcts authors.
//
// Tests of the entry points a unit compiled with the per-thread default
// stream calls (mcr/detail/runtime_api_per_thread.h): every `_ptsz` form
// reads stream 0 as the calling thread's per-thread default stream and
// passes every other stream through; every `_ptds` form puts its work in
// the per-thread stream where the plain call puts it in the legacy one;
// and the launch ABI's per-unit flag does the same for `<<<...>>>`.
//
// Where a call put its work is seen by which queue's command count grew
// (runtime_testing.h's CommandsEnqueued), which holds in every timeline
// mode; the waits and the attribute calls, which enqueue nothing, are
// checked by what they run or change. The binary runs with
// MXCTS_TIMELINE=deferred, so that a wait runs only what it waits for.

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "mc_runtime.h"
#include "reference/runtime/testing/runtime_testing.h"

namespace {

// Kernel `touch(int*)`: each thread writes 1.
void TouchEntry(void** args) { **static_cast<int**>(args[0]) = 1; }
const unsigned kTouchSizes[] = {sizeof(int*)};
const unsigned kTouchAlignments[] = {alignof(int*)};
const __mc_internal::KernelRecord kTouch = {
    "constexpr const char* __mc_internal::KernelKey() [with Sig = void "
    "(*)(int*); Sig F = touch]",
    &TouchEntry,
    1,
    kTouchSizes,
    kTouchAlignments,
    0,
    0,
    0,
    nullptr};
void TouchStub(int*) {}

}  // namespace

// --- A device variable of the test image, as the translator registers it.
__mc_internal::ImageBlob __mc_image_test =
    mxcts::runtime_testing::InertTestImage();
int device_var = 7;
static const bool __mc_variable_registered_1 =
    ::__mc_internal::RegisterDeviceVariable(
        &__mc_image_test, (const void*)&device_var, "device_var",
        sizeof(device_var), 0);
// --- End of the translated part.

namespace {

using mxcts::runtime_testing::CommandsEnqueued;

constexpr size_t kBytes = 4096;
constexpr size_t kPitch = 256;  // 2D and 3D: rows of kPitch bytes
constexpr size_t kRows = 4;

// What the calls of the tables work on, made fresh for each test.
struct Resources {
  char* device = nullptr;        // kBytes of device memory
  char* device2 = nullptr;       // kBytes more
  char* managed = nullptr;       // kBytes of managed memory
  char* pinned = nullptr;        // kBytes of page-locked host memory
  mcEvent_t recorded = nullptr;  // recorded, in a stream of its own
  mcEvent_t event = nullptr;     // for the record calls
  int* touched = nullptr;        // what the test kernel writes
  mcMemcpy3DParms copy_3d = {};  // Copy3D(), once the memory is there
  // The variable's host shadow as the C functions take it: `&device_var`
  // would pick mc_runtime.h's templates, which take the variable itself.
  const void* symbol = &device_var;

  mcPitchedPtr Pitched(char* base) const {
    return make_mcPitchedPtr(base, kPitch, kPitch, kRows);
  }
  mcMemcpy3DParms Copy3D() const {
    mcMemcpy3DParms p = {};
    p.srcPtr = Pitched(device);
    p.dstPtr = Pitched(device2);
    p.extent = make_mcExtent(kPitch, kRows, 1);
    p.kind = mcMemcpyDeviceToDevice;
    return p;
  }
};

class PerThreadEntryPoints : public testing::Test {
 protected:
  static void SetUpTestSuite() {
    mxcts::runtime_testing::RegisterKernelRecord(
        reinterpret_cast<const void*>(&TouchStub), &kTouch);
  }

  void SetUp() override {
    ASSERT_GT(__mc_image_test.size, 0u) << "test image not found";
    ASSERT_EQ(mcSetDevice(0), mcSuccess);
    ASSERT_EQ(mcMalloc(reinterpret_cast<void**>(&r_.device), kBytes),
              mcSuccess);
    ASSERT_EQ(mcMalloc(reinterpret_cast<void**>(&r_.device2), kBytes),
              mcSuccess);
    ASSERT_EQ(mcMallocManaged(reinterpret_cast<void**>(&r_.managed), kBytes),
              mcSuccess);
    ASSERT_EQ(mcMallocHost(reinterpret_cast<void**>(&r_.pinned), kBytes),
              mcSuccess);
    ASSERT_EQ(
        mcMallocManaged(reinterpret_cast<void**>(&r_.touched), sizeof(int)),
        mcSuccess);
    ASSERT_EQ(mcStreamCreate(&other_), mcSuccess);
    mcStream_t recorder = nullptr;
    ASSERT_EQ(mcStreamCreate(&recorder), mcSuccess);
    ASSERT_EQ(mcEventCreate(&r_.recorded), mcSuccess);
    ASSERT_EQ(mcEventRecord(r_.recorded, recorder), mcSuccess);
    ASSERT_EQ(mcStreamDestroy(recorder), mcSuccess);
    ASSERT_EQ(mcEventCreate(&r_.event), mcSuccess);
    r_.copy_3d = r_.Copy3D();
    mcGetLastError();
  }

  void TearDown() override {
    EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
    mcStreamDestroy(other_);
    mcEventDestroy(r_.recorded);
    mcEventDestroy(r_.event);
    mcFree(r_.device);
    mcFree(r_.device2);
    mcFree(r_.managed);
    mcFree(r_.touched);
    mcFreeHost(r_.pinned);
    mcGetLastError();
  }

  Resources r_;
  mcStream_t other_ = nullptr;  // a blocking stream of device 0
  mxcts::runtime_testing::ScopedGridRunner runner_{
      &mxcts::runtime_testing::RunEveryThreadInOrder};
};

// How many commands each of the three streams has received.
struct Counts {
  uint64_t per_thread;
  uint64_t legacy;
  uint64_t other;
};

Counts CountsOf(mcStream_t other) {
  return {CommandsEnqueued(mcStreamPerThread), CommandsEnqueued(mcStreamLegacy),
          CommandsEnqueued(other)};
}

// Which of the three streams received work between `before` and `after`,
// as "per-thread", "legacy", "other" joined by '+', or "none".
std::string Grew(const Counts& before, const Counts& after) {
  std::string grew;
  auto note = [&](uint64_t b, uint64_t a, const char* name) {
    if (a == b) return;
    if (!grew.empty()) grew += '+';
    grew += name;
  };
  note(before.per_thread, after.per_thread, "per-thread");
  note(before.legacy, after.legacy, "legacy");
  note(before.other, after.other, "other");
  return grew.empty() ? "none" : grew;
}

// --------------------------------------------------------------------------
// The `_ptsz` forms that enqueue work: where stream 0, mcStreamLegacy and a
// created stream put it.
// [api.sync.per-thread.renamed-entry-points]
// --------------------------------------------------------------------------

struct StreamCall {
  const char* name;
  std::function<mcError_t(Resources&, mcStream_t)> call;
};

std::string StreamCallName(const testing::TestParamInfo<StreamCall>& info) {
  return info.param.name;
}

void PrintTo(const StreamCall& call, std::ostream* out) { *out << call.name; }

const std::vector<StreamCall>& EnqueuingCalls() {
  static const auto* const calls = new std::vector<StreamCall>{
      {"mcStreamWaitEvent_ptsz",
       [](Resources& r, mcStream_t s) {
         return mcStreamWaitEvent_ptsz(s, r.recorded, 0);
       }},
      {"mcStreamAttachMemAsync_ptsz",
       [](Resources& r, mcStream_t s) {
         return mcStreamAttachMemAsync_ptsz(s, r.managed, 0, mcMemAttachGlobal);
       }},
      {"mcStreamAddCallback_ptsz",
       [](Resources&, mcStream_t s) {
         return mcStreamAddCallback_ptsz(
             s, [](mcStream_t, mcError_t, void*) {}, nullptr, 0);
       }},
      {"mcLaunchHostFunc_ptsz",
       [](Resources&, mcStream_t s) {
         return mcLaunchHostFunc_ptsz(
             s, [](void*) {}, nullptr);
       }},
      {"mcEventRecord_ptsz",
       [](Resources& r, mcStream_t s) {
         return mcEventRecord_ptsz(r.event, s);
       }},
      {"mcEventRecordWithFlags_ptsz",
       [](Resources& r, mcStream_t s) {
         return mcEventRecordWithFlags_ptsz(r.event, s, mcEventRecordDefault);
       }},
      {"mcLaunchKernel_ptsz",
       [](Resources& r, mcStream_t s) {
         void* args[] = {&r.touched};
         return mcLaunchKernel_ptsz(reinterpret_cast<const void*>(&TouchStub),
                                    dim3(1), dim3(1), args, 0, s);
       }},
      {"mcMemPrefetchAsync_ptsz",
       [](Resources& r, mcStream_t s) {
         return mcMemPrefetchAsync_ptsz(r.managed, kBytes, 0, s);
       }},
      {"mcMemPrefetchAsync_v2_ptsz",
       [](Resources& r, mcStream_t s) {
         mcMemLocation location = {mcMemLocationTypeDevice, 0};
         return mcMemPrefetchAsync_v2_ptsz(r.managed, kBytes, location, 0, s);
       }},
      {"mcMemcpyAsync_ptsz",
       [](Resources& r, mcStream_t s) {
         return mcMemcpyAsync_ptsz(r.device2, r.device, kBytes,
                                   mcMemcpyDeviceToDevice, s);
       }},
      {"mcMemcpy2DAsync_ptsz",
       [](Resources& r, mcStream_t s) {
         return mcMemcpy2DAsync_ptsz(r.device2, kPitch, r.device, kPitch,
                                     kPitch, kRows, mcMemcpyDeviceToDevice, s);
       }},
      {"mcMemcpy3DAsync_ptsz",
       [](Resources& r, mcStream_t s) {
         const mcMemcpy3DParms p = r.Copy3D();
         return mcMemcpy3DAsync_ptsz(&p, s);
       }},
      {"mcMemcpyHtoDAsync_ptsz",
       [](Resources& r, mcStream_t s) {
         return mcMemcpyHtoDAsync_ptsz(r.device, r.pinned, kBytes, s);
       }},
      {"mcMemcpyDtoHAsync_ptsz",
       [](Resources& r, mcStream_t s) {
         return mcMemcpyDtoHAsync_ptsz(r.pinned, r.device, kBytes, s);
       }},
      {"mcMemcpyDtoDAsync_ptsz",
       [](Resources& r, mcStream_t s) {
         return mcMemcpyDtoDAsync_ptsz(r.device2, r.device, kBytes, s);
       }},
      {"mcMemsetAsync_ptsz",
       [](Resources& r, mcStream_t s) {
         return mcMemsetAsync_ptsz(r.device, 1, kBytes, s);
       }},
      {"mcMemset2DAsync_ptsz",
       [](Resources& r, mcStream_t s) {
         return mcMemset2DAsync_ptsz(r.device, kPitch, 1, kPitch, kRows, s);
       }},
      {"mcMemset3DAsync_ptsz",
       [](Resources& r, mcStream_t s) {
         return mcMemset3DAsync_ptsz(r.Pitched(r.device), 1,
                                     make_mcExtent(kPitch, kRows, 1), s);
       }},
      {"mcMemsetD8Async_ptsz",
       [](Resources& r, mcStream_t s) {
         return mcMemsetD8Async_ptsz(r.device, 1, kBytes, s);
       }},
      {"mcMemsetD16Async_ptsz",
       [](Resources& r, mcStream_t s) {
         return mcMemsetD16Async_ptsz(r.device, 1, kBytes / 2, s);
       }},
      {"mcMemsetD32Async_ptsz",
       [](Resources& r, mcStream_t s) {
         return mcMemsetD32Async_ptsz(r.device, 1, kBytes / 4, s);
       }},
      {"mcMemcpyToSymbolAsync_ptsz",
       [](Resources& r, mcStream_t s) {
         return mcMemcpyToSymbolAsync_ptsz(r.symbol, r.pinned, sizeof(int), 0,
                                           mcMemcpyHostToDevice, s);
       }},
      {"mcMemcpyFromSymbolAsync_ptsz",
       [](Resources& r, mcStream_t s) {
         return mcMemcpyFromSymbolAsync_ptsz(r.pinned, r.symbol, sizeof(int), 0,
                                             mcMemcpyDeviceToHost, s);
       }},
      {"mcMemcpyPeerAsync_ptsz",
       [](Resources& r, mcStream_t s) {
         return mcMemcpyPeerAsync_ptsz(r.device2, 0, r.device, 0, kBytes, s);
       }},
  };
  return *calls;
}

class EnqueuingPtsz : public PerThreadEntryPoints,
                      public testing::WithParamInterface<StreamCall> {
 protected:
  // Which stream received the work of the call with `stream`.
  std::string WhereWorkGoes(mcStream_t stream) {
    const Counts before = CountsOf(other_);
    const mcError_t result = GetParam().call(r_, stream);
    EXPECT_EQ(result, mcSuccess) << mcGetErrorName(result);
    return Grew(before, CountsOf(other_));
  }
};

TEST_P(EnqueuingPtsz, StreamZeroIsThePerThreadStream) {
  EXPECT_EQ(WhereWorkGoes(nullptr), "per-thread");
}

TEST_P(EnqueuingPtsz, OtherStreamsPassThrough) {
  EXPECT_EQ(WhereWorkGoes(mcStreamPerThread), "per-thread");
  EXPECT_EQ(WhereWorkGoes(mcStreamLegacy), "legacy");
  EXPECT_EQ(WhereWorkGoes(other_), "other");
}

INSTANTIATE_TEST_SUITE_P(EveryEnqueuingCall, EnqueuingPtsz,
                         testing::ValuesIn(EnqueuingCalls()), StreamCallName);

// --------------------------------------------------------------------------
// The `_ptds` forms: the same synchronous call, in the per-thread stream
// where the plain call uses the legacy one.
// [api.sync.per-thread.renamed-entry-points]
// --------------------------------------------------------------------------

struct DefaultStreamCall {
  const char* name;
  std::function<mcError_t(Resources&)> plain;
  std::function<mcError_t(Resources&)> ptds;
};

std::string DefaultStreamCallName(
    const testing::TestParamInfo<DefaultStreamCall>& info) {
  return info.param.name;
}

void PrintTo(const DefaultStreamCall& call, std::ostream* out) {
  *out << call.name;
}

// A table row for the plain function `F` and `F_ptds`, both called with the
// further arguments (which may name the row's Resources as `r`).
// clang-format off
#define MX_DEFAULT_STREAM_CALL(F, ...)                                    \
  DefaultStreamCall{#F,                                                   \
                    [](Resources& r) { return F(__VA_ARGS__); },          \
                    [](Resources& r) { return F##_ptds(__VA_ARGS__); }}
// clang-format on

const std::vector<DefaultStreamCall>& DefaultStreamCalls() {
  static const auto* const calls = new std::vector<DefaultStreamCall>{
      MX_DEFAULT_STREAM_CALL(mcMemcpy, r.pinned, r.device, kBytes,
                             mcMemcpyDeviceToHost),
      MX_DEFAULT_STREAM_CALL(mcMemcpy2D, r.device2, kPitch, r.device, kPitch,
                             kPitch, kRows, mcMemcpyDeviceToDevice),
      MX_DEFAULT_STREAM_CALL(mcMemcpy3D, &r.copy_3d),
      MX_DEFAULT_STREAM_CALL(mcMemcpyHtoD, r.device, r.pinned, kBytes),
      MX_DEFAULT_STREAM_CALL(mcMemcpyDtoH, r.pinned, r.device, kBytes),
      MX_DEFAULT_STREAM_CALL(mcMemcpyDtoD, r.device2, r.device, kBytes),
      MX_DEFAULT_STREAM_CALL(mcMemcpyToSymbol, r.symbol, r.pinned, sizeof(int),
                             0, mcMemcpyHostToDevice),
      MX_DEFAULT_STREAM_CALL(mcMemcpyFromSymbol, r.pinned, r.symbol,
                             sizeof(int), 0, mcMemcpyDeviceToHost),
      MX_DEFAULT_STREAM_CALL(mcMemcpyPeer, r.device2, 0, r.device, 0, kBytes),
      MX_DEFAULT_STREAM_CALL(mcMemset, r.device, 1, kBytes),
      MX_DEFAULT_STREAM_CALL(mcMemset2D, r.device, kPitch, 1, kPitch, kRows),
      MX_DEFAULT_STREAM_CALL(mcMemset3D, r.Pitched(r.device), 1,
                             make_mcExtent(kPitch, kRows, 1)),
      MX_DEFAULT_STREAM_CALL(mcMemsetD8, r.device, 1, kBytes),
      MX_DEFAULT_STREAM_CALL(mcMemsetD16, r.device, 1, kBytes / 2),
      MX_DEFAULT_STREAM_CALL(mcMemsetD32, r.device, 1, kBytes / 4),
  };
  return *calls;
}

#undef MX_DEFAULT_STREAM_CALL

class DefaultStreamPtds
    : public PerThreadEntryPoints,
      public testing::WithParamInterface<DefaultStreamCall> {
 protected:
  std::string WhereWorkGoes(const std::function<mcError_t(Resources&)>& call) {
    const Counts before = CountsOf(other_);
    const mcError_t result = call(r_);
    EXPECT_EQ(result, mcSuccess) << mcGetErrorName(result);
    return Grew(before, CountsOf(other_));
  }
};

TEST_P(DefaultStreamPtds, WorksInThePerThreadStream) {
  EXPECT_EQ(WhereWorkGoes(GetParam().ptds), "per-thread");
}

TEST_P(DefaultStreamPtds, PlainCallWorksInTheLegacyStream) {
  EXPECT_EQ(WhereWorkGoes(GetParam().plain), "legacy");
}

INSTANTIATE_TEST_SUITE_P(EveryDefaultStreamCall, DefaultStreamPtds,
                         testing::ValuesIn(DefaultStreamCalls()),
                         DefaultStreamCallName);

// --------------------------------------------------------------------------
// The `_ptsz` forms that enqueue nothing.
// --------------------------------------------------------------------------

// Enqueues a host function that sets `*ran` into `stream`.
mcError_t SetWhenRun(mcStream_t stream, std::atomic<bool>* ran) {
  return mcLaunchHostFunc(
      stream,
      [](void* flag) { static_cast<std::atomic<bool>*>(flag)->store(true); },
      ran);
}

// Work pending in the per-thread stream, then in the legacy stream (which
// waits for it): a wait for the per-thread stream runs only the first.
class PendingInBoth : public PerThreadEntryPoints {
 protected:
  void SetUp() override {
    PerThreadEntryPoints::SetUp();
    // Nothing else pending that the waits below would run first.
    ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
    ASSERT_EQ(SetWhenRun(mcStreamPerThread, &per_thread_ran_), mcSuccess);
    ASSERT_EQ(SetWhenRun(mcStreamLegacy, &legacy_ran_), mcSuccess);
    ASSERT_FALSE(per_thread_ran_) << "the binary runs in the deferred mode";
  }

  std::atomic<bool> per_thread_ran_{false};
  std::atomic<bool> legacy_ran_{false};
};

TEST_F(PendingInBoth, SynchronizeZeroWaitsForThePerThreadStream) {
  EXPECT_EQ(mcStreamSynchronize_ptsz(nullptr), mcSuccess);
  EXPECT_TRUE(per_thread_ran_);
  EXPECT_FALSE(legacy_ran_);
  EXPECT_EQ(mcStreamSynchronize_ptsz(mcStreamLegacy), mcSuccess);
  EXPECT_TRUE(legacy_ran_);
}

TEST_F(PendingInBoth, PlainSynchronizeZeroWaitsForTheLegacyStream) {
  EXPECT_EQ(mcStreamSynchronize(nullptr), mcSuccess);
  EXPECT_TRUE(per_thread_ran_);
  EXPECT_TRUE(legacy_ran_);
}

TEST_F(PendingInBoth, QueryZeroPollsThePerThreadStream) {
  // One piece of work, the per-thread stream's only one, runs.
  EXPECT_EQ(mcStreamQuery_ptsz(nullptr), mcSuccess);
  EXPECT_TRUE(per_thread_ran_);
  EXPECT_FALSE(legacy_ran_);
  EXPECT_EQ(mcStreamQuery_ptsz(mcStreamLegacy), mcSuccess);
  EXPECT_TRUE(legacy_ran_);
}

TEST_F(PendingInBoth, PlainQueryZeroPollsTheLegacyStream) {
  // The legacy stream's wait covers the per-thread stream's work first.
  EXPECT_EQ(mcStreamQuery(nullptr), mcErrorNotReady);
  EXPECT_TRUE(per_thread_ran_);
  EXPECT_FALSE(legacy_ran_);
}

mcStreamAttrValue SyncPolicy(mcSynchronizationPolicy policy) {
  mcStreamAttrValue value = {};
  value.syncPolicy = policy;
  return value;
}

mcSynchronizationPolicy SyncPolicyOf(mcStream_t stream) {
  mcStreamAttrValue value = {};
  EXPECT_EQ(mcStreamGetAttribute(stream, mcStreamAttributeSynchronizationPolicy,
                                 &value),
            mcSuccess);
  return value.syncPolicy;
}

class Attributes : public PerThreadEntryPoints {
 protected:
  void TearDown() override {
    // The default streams live as long as the process: restore them.
    const mcStreamAttrValue automatic = SyncPolicy(mcSyncPolicyAuto);
    for (mcStream_t stream : {mcStreamPerThread, mcStreamLegacy}) {
      mcStreamSetAttribute(stream, mcStreamAttributeSynchronizationPolicy,
                           &automatic);
    }
    PerThreadEntryPoints::TearDown();
  }
};

TEST_F(Attributes, SetAttributeZeroSetsThePerThreadStream) {
  const mcStreamAttrValue spin = SyncPolicy(mcSyncPolicySpin);
  ASSERT_EQ(mcStreamSetAttribute_ptsz(
                nullptr, mcStreamAttributeSynchronizationPolicy, &spin),
            mcSuccess);
  EXPECT_EQ(SyncPolicyOf(mcStreamPerThread), mcSyncPolicySpin);
  EXPECT_EQ(SyncPolicyOf(mcStreamLegacy), mcSyncPolicyAuto);
  // Pass-through.
  const mcStreamAttrValue yield = SyncPolicy(mcSyncPolicyYield);
  ASSERT_EQ(mcStreamSetAttribute_ptsz(
                other_, mcStreamAttributeSynchronizationPolicy, &yield),
            mcSuccess);
  EXPECT_EQ(SyncPolicyOf(other_), mcSyncPolicyYield);
  EXPECT_EQ(SyncPolicyOf(mcStreamPerThread), mcSyncPolicySpin);
}

TEST_F(Attributes, GetAttributeZeroReadsThePerThreadStream) {
  const mcStreamAttrValue spin = SyncPolicy(mcSyncPolicySpin);
  ASSERT_EQ(mcStreamSetAttribute(mcStreamPerThread,
                                 mcStreamAttributeSynchronizationPolicy, &spin),
            mcSuccess);
  mcStreamAttrValue value = {};
  ASSERT_EQ(mcStreamGetAttribute_ptsz(
                nullptr, mcStreamAttributeSynchronizationPolicy, &value),
            mcSuccess);
  EXPECT_EQ(value.syncPolicy, mcSyncPolicySpin);
  ASSERT_EQ(mcStreamGetAttribute_ptsz(
                mcStreamLegacy, mcStreamAttributeSynchronizationPolicy, &value),
            mcSuccess);
  EXPECT_EQ(value.syncPolicy, mcSyncPolicyAuto);
}

TEST_F(Attributes, CopyAttributeReadsZeroInEitherPosition) {
  const mcStreamAttrValue spin = SyncPolicy(mcSyncPolicySpin);
  ASSERT_EQ(mcStreamSetAttribute(other_, mcStreamAttributeSynchronizationPolicy,
                                 &spin),
            mcSuccess);
  ASSERT_EQ(mcStreamCopyAttribute_ptsz(nullptr, other_), mcSuccess);
  EXPECT_EQ(SyncPolicyOf(mcStreamPerThread), mcSyncPolicySpin);
  EXPECT_EQ(SyncPolicyOf(mcStreamLegacy), mcSyncPolicyAuto);
  mcStream_t copy = nullptr;
  ASSERT_EQ(mcStreamCreate(&copy), mcSuccess);
  ASSERT_EQ(mcStreamCopyAttribute_ptsz(copy, nullptr), mcSuccess);
  EXPECT_EQ(SyncPolicyOf(copy), mcSyncPolicySpin);
  EXPECT_EQ(mcStreamDestroy(copy), mcSuccess);
}

// The default streams report the same flags, priority and device, so these
// show only that 0 is read as a default stream and that other streams pass
// through.
TEST_F(PerThreadEntryPoints, PropertiesOfZeroAreThoseOfThePerThreadStream) {
  unsigned flags = 77;
  int priority = 77;
  int device = 77;
  EXPECT_EQ(mcStreamGetFlags_ptsz(nullptr, &flags), mcSuccess);
  EXPECT_EQ(flags, unsigned{mcStreamDefault});
  EXPECT_EQ(mcStreamGetPriority_ptsz(nullptr, &priority), mcSuccess);
  EXPECT_EQ(priority, 0);
  EXPECT_EQ(mcStreamGetDevice_ptsz(nullptr, &device), mcSuccess);
  EXPECT_EQ(device, 0);
  mcStream_t stream = nullptr;
  ASSERT_EQ(mcStreamCreateWithPriority(&stream, mcStreamNonBlocking, -2),
            mcSuccess);
  EXPECT_EQ(mcStreamGetFlags_ptsz(stream, &flags), mcSuccess);
  EXPECT_EQ(flags, unsigned{mcStreamNonBlocking});
  EXPECT_EQ(mcStreamGetPriority_ptsz(stream, &priority), mcSuccess);
  EXPECT_EQ(priority, -2);
  EXPECT_EQ(mcStreamDestroy_ptsz(stream), mcSuccess);
  // A destroyed stream is still refused: errors pass through too.
  EXPECT_EQ(mcStreamGetDevice_ptsz(stream, &device),
            mcErrorInvalidResourceHandle);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidResourceHandle);
}

TEST_F(PerThreadEntryPoints, DestroyZeroRefusesThePerThreadStream) {
  // [api.stream.destroy.default-stream-is-invalid-resource-handle]
  EXPECT_EQ(mcStreamDestroy_ptsz(nullptr), mcErrorInvalidResourceHandle);
  EXPECT_EQ(mcStreamDestroy_ptsz(mcStreamLegacy), mcErrorInvalidResourceHandle);
}

// --------------------------------------------------------------------------
// The launch ABI: what `k<<<g, b, ns, 0>>>(a)` pushes in a unit with and
// without the per-thread default stream.
// --------------------------------------------------------------------------

class LaunchConfiguration : public PerThreadEntryPoints {
 protected:
  std::string WhereLaunchGoes(mcStream_t stream, bool per_thread_unit) {
    const Counts before = CountsOf(other_);
    __mc_internal::PushLaunchConfiguration(1, 1, 0, stream, per_thread_unit);
    void* args[] = {&r_.touched, nullptr};
    EXPECT_EQ(__mc_internal::LaunchFromStubArgs(
                  reinterpret_cast<const void*>(&TouchStub), args),
              mcSuccess);
    return Grew(before, CountsOf(other_));
  }
};

TEST_F(LaunchConfiguration, ZeroFromAPerThreadUnitIsThePerThreadStream) {
  EXPECT_EQ(WhereLaunchGoes(nullptr, true), "per-thread");
}

TEST_F(LaunchConfiguration, ZeroFromALegacyUnitIsTheLegacyStream) {
  EXPECT_EQ(WhereLaunchGoes(nullptr, false), "legacy");
}

TEST_F(LaunchConfiguration, NamedStreamsPassThroughInEitherUnit) {
  for (bool per_thread_unit : {true, false}) {
    EXPECT_EQ(WhereLaunchGoes(mcStreamLegacy, per_thread_unit), "legacy");
    EXPECT_EQ(WhereLaunchGoes(mcStreamPerThread, per_thread_unit),
              "per-thread");
    EXPECT_EQ(WhereLaunchGoes(other_, per_thread_unit), "other");
  }
}

TEST_F(LaunchConfiguration, ThisUnitIsALegacyUnit) {
  // Compiled without MACA_API_PER_THREAD_DEFAULT_STREAM: the default
  // argument a launch gets here is the legacy choice.
  EXPECT_FALSE(__mc_internal::kPerThreadDefaultStream);
  const Counts before = CountsOf(other_);
  __mc_internal::PushLaunchConfiguration(1, 1);
  void* args[] = {&r_.touched, nullptr};
  EXPECT_EQ(__mc_internal::LaunchFromStubArgs(
                reinterpret_cast<const void*>(&TouchStub), args),
            mcSuccess);
  EXPECT_EQ(Grew(before, CountsOf(other_)), "legacy");
}

}  // namespace
