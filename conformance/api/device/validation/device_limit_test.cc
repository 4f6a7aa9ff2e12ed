// Copyright mxcts authors.
//
// Conformance: errors of mcDeviceSetLimit and mcDeviceGetLimit
// (docs/spec/api-device.md, "Limits"), each beside a control call that
// succeeds, and each leaving every limit as it was.

#include <mc_runtime.h>

#include <cstdint>
#include <string>
#include <vector>

#include "conformance/api/testing/device_testing.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/fresh_process.h"
#include "conformance/testing/spec.h"

namespace {

using ::mxcts::conformance::LimitSupported;
using ::mxcts::conformance::ScopedEnvironment;

const mcLimit_t kSupported[] = {
    mcLimitStackSize, mcLimitPrintfFifoSize, mcLimitMallocHeapSize,
    mcLimitDevRuntimeSyncDepth, mcLimitDevRuntimePendingLaunchCount};

// The value of every supported limit.
std::vector<size_t> AllLimits() {
  std::vector<size_t> values;
  for (mcLimit_t limit : kSupported) {
    size_t value = 0;
    EXPECT_EQ(mcDeviceGetLimit(&value, limit), mcSuccess) << limit;
    values.push_back(value);
  }
  return values;
}

class NotALimit : public testing::TestWithParam<int> {
 protected:
  void TearDown() override { mcGetLastError(); }
  mcLimit_t limit() const { return static_cast<mcLimit_t>(GetParam()); }
};

TEST_P(NotALimit, SetIsUnsupportedLimitAndChangesNothing) {
  MX_SPEC("api.device.limit.unsupported-limit-on-set");
  const std::vector<size_t> before = AllLimits();
  EXPECT_EQ(mcDeviceSetLimit(limit(), 64), mcErrorUnsupportedLimit);
  EXPECT_EQ(AllLimits(), before);
  // Control: a limit that exists, set to its own value.
  EXPECT_EQ(mcDeviceSetLimit(mcLimitDevRuntimeSyncDepth, before[3]), mcSuccess);
}

TEST_P(NotALimit, GetIsUnsupportedLimitAndStoresNothing) {
  MX_SPEC("api.device.limit.unsupported-limit-on-get");
  size_t value = 77;
  EXPECT_EQ(mcDeviceGetLimit(&value, limit()), mcErrorUnsupportedLimit);
  EXPECT_EQ(value, 77u);
  EXPECT_EQ(mcDeviceGetLimit(&value, mcLimitStackSize), mcSuccess);  // control
}

INSTANTIATE_TEST_SUITE_P(Values, NotALimit,
                         testing::Values(-1, 7, 8, 100, 0x7fffffff),
                         [](const testing::TestParamInfo<int>& info) {
                           return info.param < 0
                                      ? std::string("Minus") +
                                            std::to_string(-info.param)
                                      : std::to_string(info.param);
                         });

class EverySupportedLimit : public testing::TestWithParam<mcLimit_t> {
 protected:
  void TearDown() override { mcGetLastError(); }
};

TEST_P(EverySupportedLimit, GetWithNullIsInvalidValue) {
  MX_SPEC("api.device.limit.get-null-is-invalid-value");
  EXPECT_EQ(mcDeviceGetLimit(nullptr, GetParam()), mcErrorInvalidValue);
  size_t value = 0;
  EXPECT_EQ(mcDeviceGetLimit(&value, GetParam()), mcSuccess);  // control
}

INSTANTIATE_TEST_SUITE_P(Limits, EverySupportedLimit,
                         testing::ValuesIn(kSupported));

class UnattainableLimit : public testing::TestWithParam<mcLimit_t> {
 protected:
  void TearDown() override { mcGetLastError(); }
};

TEST_P(UnattainableLimit, IsMemoryAllocationAndKeepsTheValue) {
  MX_SPEC("api.device.limit.unattainable-value-is-memory-allocation");
  const std::vector<size_t> before = AllLimits();
  EXPECT_EQ(mcDeviceSetLimit(GetParam(), SIZE_MAX), mcErrorMemoryAllocation);
  EXPECT_EQ(AllLimits(), before);
  size_t value = 0;
  ASSERT_EQ(mcDeviceGetLimit(&value, GetParam()), mcSuccess);
  EXPECT_EQ(mcDeviceSetLimit(GetParam(), value), mcSuccess);  // control
}

INSTANTIATE_TEST_SUITE_P(Limits, UnattainableLimit,
                         testing::Values(mcLimitStackSize,
                                         mcLimitPrintfFifoSize,
                                         mcLimitMallocHeapSize));

// A value outside 0..128 is refused (and changes nothing) or accepted as a
// hint; either way the call answers one of the two and in-range values
// still work afterwards.
TEST(DeviceLimitL2, FetchGranularityOutOfRangeIsRefusedOrTakenAsAHint) {
  MX_SPEC("api.device.limit.l2-fetch-granularity-range");
  size_t before = 0;
  if (!LimitSupported(mcLimitMaxL2FetchGranularity, &before)) {
    GTEST_SKIP() << "unsupported: mcLimitMaxL2FetchGranularity";
  }
  for (size_t bad : {3, 48, 96, 129, 256}) {
    const mcError_t result =
        mcDeviceSetLimit(mcLimitMaxL2FetchGranularity, bad);
    size_t value = 0;
    ASSERT_EQ(mcDeviceGetLimit(&value, mcLimitMaxL2FetchGranularity),
              mcSuccess);
    if (result == mcErrorInvalidValue) {
      EXPECT_EQ(value, before) << bad << " was refused, yet the limit changed";
    } else {
      EXPECT_EQ(result, mcSuccess) << bad;
    }
    mcGetLastError();
    // Control: an in-range value is always accepted.
    ASSERT_EQ(mcDeviceSetLimit(mcLimitMaxL2FetchGranularity, before),
              mcSuccess);
  }
  EXPECT_EQ(mcDeviceSetLimit(mcLimitMaxL2FetchGranularity, 128), mcSuccess);
  EXPECT_EQ(mcDeviceSetLimit(mcLimitMaxL2FetchGranularity, before), mcSuccess);
}

// The reference's choice: values outside the range are refused.
TEST(DeviceLimitL2, ReferenceRefusesOutOfRangeValues) {
  MX_SPEC("api.device.limit.l2-fetch-granularity-range");
  MX_REQUIRE_CAPABILITY("reference_choices");
  size_t before = 0;
  ASSERT_TRUE(LimitSupported(mcLimitMaxL2FetchGranularity, &before));
  for (size_t bad : {3, 129}) {
    EXPECT_EQ(mcDeviceSetLimit(mcLimitMaxL2FetchGranularity, bad),
              mcErrorInvalidValue)
        << bad;
  }
  mcGetLastError();
  EXPECT_EQ(mcDeviceSetLimit(mcLimitMaxL2FetchGranularity, 64), mcSuccess);
  EXPECT_EQ(mcDeviceSetLimit(mcLimitMaxL2FetchGranularity, before), mcSuccess);
}

// Spins until the host sets `*flag`, at most `rounds` times round the loop.
__global__ void SpinUntilSet(volatile int* flag, long long rounds) {
  for (long long i = 0; i < rounds && *flag == 0; ++i) {
  }
}

__global__ void DoNothing() {}

// Two kernels queued in a stream of their own, the first waiting for a
// flag only the host sets, so the stream's work stays pending until
// Finish(). setup_problem() is empty when the work was queued.
class PendingWork {
 public:
  PendingWork() {
    if (mcMallocHost(&flag_, sizeof(int), mcMallocHostMapped) != mcSuccess) {
      flag_ = nullptr;
      setup_problem_ = "mcMallocHost failed";
      return;
    }
    *flag_ = 0;
    if (mcStreamCreateWithFlags(&stream_, mcStreamNonBlocking) != mcSuccess) {
      setup_problem_ = "mcStreamCreateWithFlags failed";
      return;
    }
    SpinUntilSet<<<1, 1, 0, stream_>>>(flag_, 1ll << 22);
    DoNothing<<<1, 1, 0, stream_>>>();
  }
  ~PendingWork() {
    Finish();
    if (stream_ != nullptr) mcStreamDestroy(stream_);
    if (flag_ != nullptr) mcFreeHost(flag_);
  }
  const std::string& setup_problem() const { return setup_problem_; }
  // The problems `check` (returning a string) finds while the work is
  // pending, then those of letting it finish; the setup's problem instead
  // if there was one, and a problem instead of the check if the work has
  // already completed.
  template <typename Check>
  std::string CheckWhilePending(Check check) {
    if (!setup_problem_.empty()) return setup_problem_;
    std::string problems =
        mcStreamQuery(stream_) == mcErrorNotReady
            ? check()
            : "the stream's work completed before it could be observed; ";
    return problems + Finish();
  }
  // Lets the work run and waits for it; what went wrong, or "".
  std::string Finish() {
    if (flag_ == nullptr || stream_ == nullptr || finished_) return "";
    finished_ = true;
    *flag_ = 1;
    return mcStreamSynchronize(stream_) == mcSuccess
               ? ""
               : "mcStreamSynchronize failed; ";
  }

 private:
  int* flag_ = nullptr;
  mcStream_t stream_ = nullptr;
  std::string setup_problem_;
  bool finished_ = false;
};

// Changes a limit while PendingWork's second kernel has not run: the
// change is refused and the limit unchanged, or (unless `must_refuse`)
// accepted and in effect.
std::string SetLimitWhileWorkIsPending(bool must_refuse) {
  size_t before = 0;
  mcDeviceGetLimit(&before, mcLimitDevRuntimeSyncDepth);
  PendingWork work;
  std::string problems = work.CheckWhilePending([&] {
    // Refused and unchanged, or accepted and in effect: nothing else.
    const mcError_t result =
        mcDeviceSetLimit(mcLimitDevRuntimeSyncDepth, before + 1);
    size_t during = 0;
    mcDeviceGetLimit(&during, mcLimitDevRuntimeSyncDepth);
    if (result == mcErrorNotPermitted) {
      return std::string(during != before ? "refused, yet the limit changed; "
                                          : "");
    }
    if (result == mcSuccess && !must_refuse) {
      return std::string(during != before + 1 ? "accepted, yet not in effect; "
                                              : "");
    }
    return std::string("mcDeviceSetLimit while work is pending returned ") +
           mcGetErrorName(result) + "; ";
  });
  if (!work.setup_problem().empty()) return problems;
  // Control: with nothing pending the same call succeeds.
  if (mcDeviceSetLimit(mcLimitDevRuntimeSyncDepth, before + 1) != mcSuccess) {
    problems += "mcDeviceSetLimit failed after the work completed; ";
  }
  return problems;
}

TEST(DeviceLimitPendingWork, SetWhileWorkIsPendingIsRefusedOrApplied) {
  MX_SPEC("api.device.limit.set-while-work-pending");
  // The reference runs work when it is submitted unless told to defer it
  // until the host waits; other backends ignore the variable.
  ScopedEnvironment deferred("MXCTS_TIMELINE", "deferred");
  MX_EXPECT_IN_FRESH_PROCESS(SetLimitWhileWorkIsPending(false));
}

// The reference's choice: the change is refused.
TEST(DeviceLimitPendingWork, ReferenceRefusesWhileWorkIsPending) {
  MX_SPEC("api.device.limit.set-while-work-pending");
  MX_REQUIRE_CAPABILITY("reference_choices");
  ScopedEnvironment deferred("MXCTS_TIMELINE", "deferred");
  MX_EXPECT_IN_FRESH_PROCESS(SetLimitWhileWorkIsPending(true));
}

// Sets a limit that does not exist while PendingWork is pending: the call
// is still refused as an unsupported limit, whatever the implementation
// does with a limit that exists. Control: a limit that exists, set in the
// same state, is not reported unsupported.
std::string SetNotALimitWhileWorkIsPending() {
  size_t depth = 0;
  mcDeviceGetLimit(&depth, mcLimitDevRuntimeSyncDepth);
  PendingWork work;
  return work.CheckWhilePending([&] {
    std::string problems;
    const mcError_t not_a_limit =
        mcDeviceSetLimit(static_cast<mcLimit_t>(7), 64);
    if (not_a_limit != mcErrorUnsupportedLimit) {
      problems += std::string("setting limit 7 while work is pending gave ") +
                  mcGetErrorName(not_a_limit) +
                  ", not mcErrorUnsupportedLimit; ";
    }
    const mcError_t a_limit =
        mcDeviceSetLimit(mcLimitDevRuntimeSyncDepth, depth);
    if (a_limit == mcErrorUnsupportedLimit) {
      problems += "a limit that exists was reported unsupported; ";
    }
    return problems;
  });
}

TEST(DeviceLimitPendingWork, NotALimitIsUnsupportedEvenWhileWorkIsPending) {
  MX_SPEC("api.device.limit.unsupported-limit-on-set",
          "api.device.limit.set-while-work-pending");
  ScopedEnvironment deferred("MXCTS_TIMELINE", "deferred");
  MX_EXPECT_IN_FRESH_PROCESS(SetNotALimitWhileWorkIsPending());
}

}  // namespace
