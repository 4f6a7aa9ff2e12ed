// Copyright mxcts authors.
//
// Conformance: sticky errors (docs/spec/api-errors.md, "Sticky errors").
// After a kernel faults, every later call that uses its device returns the
// fault, from every host thread, mcGetLastError does not clear it, work
// issued afterwards does not run, and only mcDeviceReset ends it; the
// reference confines it to the faulting device. Argument errors are not
// sticky (errors_not_sticky_test.cc in errors/validation).
//
// Three faults, each with its own sticky code: a write through a null
// pointer (mcErrorIllegalAddress), a failed device assert (mcErrorAssert)
// and a misaligned atomic (mcErrorMisalignedAddress). A sticky error must
// not leak into other tests, so every check runs in a fresh process
// (conformance/testing/fresh_process.h); each returns "" when the rule
// holds, otherwise what went wrong. Every check first makes sure that the
// calls it makes after the fault succeed before it (the control).

#include <assert.h>
#include <mc_runtime.h>

#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <tuple>

#include "conformance/testing/capabilities.h"
#include "conformance/testing/fresh_process.h"
#include "conformance/testing/spec.h"
#include "conformance/testing/trap_expectation.h"

namespace {

// --- Faults. ---

__global__ void WriteThroughNull(int* p) {
  if (threadIdx.x == 0) p[0] = 1;
}

__device__ void CheckPositive(int value) { assert(value > 0); }

__global__ void AssertPositive(int value) { CheckPositive(value); }

__global__ void AtomicAddAt(char* base, int offset) {
  if (threadIdx.x == 0) atomicAdd(reinterpret_cast<int*>(base + offset), 1);
}

enum class Fault { kNullWrite, kAssert, kMisalignedAtomic };

struct FaultCase {
  const char* name;
  Fault fault;
  // The errors the fault may be reported with; the first is the usual one.
  ::mxcts::conformance::TrapErrors errors;
};

// [lang.atomic.alignment.misaligned-32-bit-traps] A misaligned atomic is a
// memory violation, reported with either code.
const FaultCase kFaults[] = {
    {"NullWrite", Fault::kNullWrite, mcErrorIllegalAddress},
    {"FailedAssert", Fault::kAssert, mcErrorAssert},
    {"MisalignedAtomic", Fault::kMisalignedAtomic,
     ::mxcts::conformance::AnyOf(mcErrorMisalignedAddress,
                                 mcErrorIllegalAddress)},
};

// The error the fault of this process was reported with (each check runs
// in a fresh process and causes one fault), once CauseFault has seen it.
mcError_t observed_fault_error = mcSuccess;

// The error every call after `fault` must return: the one it was reported
// with.
mcError_t FaultError(const FaultCase& fault) {
  return observed_fault_error != mcSuccess ? observed_fault_error
                                           : fault.errors.errors[0];
}

// Launches the kernel of `fault` on the current device (`ok`: the same
// kernel with the rule kept) and returns the result of the launch.
mcError_t LaunchFault(Fault fault, bool ok, char* scratch) {
  switch (fault) {
    case Fault::kNullWrite:
      WriteThroughNull<<<1, 32>>>(ok ? reinterpret_cast<int*>(scratch)
                                     : nullptr);
      break;
    case Fault::kAssert:
      AssertPositive<<<1, 32>>>(ok ? 1 : 0);
      break;
    case Fault::kMisalignedAtomic:
      AtomicAddAt<<<1, 32>>>(scratch, ok ? 4 : 2);
      break;
  }
  return mcGetLastError();
}

// LaunchFault through mcLaunchKernel, whose result is the launch's own.
mcError_t LaunchFaultThroughApi(Fault fault, char* scratch) {
  int* null_pointer = nullptr;
  int zero = 0;
  int offset = 2;
  void* write_args[] = {&null_pointer};
  void* assert_args[] = {&zero};
  void* atomic_args[] = {&scratch, &offset};
  switch (fault) {
    case Fault::kNullWrite:
      return mcLaunchKernel(reinterpret_cast<const void*>(&WriteThroughNull),
                            dim3(1), dim3(32), write_args, 0, nullptr);
    case Fault::kAssert:
      return mcLaunchKernel(reinterpret_cast<const void*>(&AssertPositive),
                            dim3(1), dim3(32), assert_args, 0, nullptr);
    case Fault::kMisalignedAtomic:
      return mcLaunchKernel(reinterpret_cast<const void*>(&AtomicAddAt),
                            dim3(1), dim3(32), atomic_args, 0, nullptr);
  }
  return mcErrorUnknown;
}

// Collects what went wrong in a check.
class Problems {
 public:
  void Expect(mcError_t got, mcError_t want, const std::string& what) {
    if (got != want) {
      Add(what + " returned " + mcGetErrorName(got) + ", expected " +
          mcGetErrorName(want));
    }
  }
  void Add(const std::string& problem) {
    if (!text_.empty()) text_ += "; ";
    text_ += problem;
  }
  const std::string& text() const { return text_; }

 private:
  std::string text_;
};

// What the calls after a fault work on, made before it.
struct Resources {
  char* device = nullptr;   // 4096 bytes of device memory
  char* scratch = nullptr;  // 64 bytes of device memory for the faults
  char* pinned = nullptr;   // 4096 bytes of page-locked host memory
  int* ran = nullptr;       // managed flag kernels set
  mcStream_t stream = nullptr;
  mcGraph_t graph = nullptr;     // one memset node on `device`
  mcGraphExec_t exec = nullptr;  // `graph` instantiated
  char host[4096];
};

__global__ void MarkRan(int* ran) {
  if (threadIdx.x == 0) *ran = 1;
}

// Makes the resources on the current device; "" on success.
std::string Prepare(Resources* r) {
  if (mcMalloc(&r->device, 4096) != mcSuccess ||
      mcMalloc(&r->scratch, 64) != mcSuccess ||
      mcMallocHost(&r->pinned, 4096) != mcSuccess ||
      mcMallocManaged(&r->ran, sizeof(int)) != mcSuccess ||
      mcStreamCreate(&r->stream) != mcSuccess ||
      mcMemset(r->scratch, 0, 64) != mcSuccess ||
      mcGraphCreate(&r->graph, 0) != mcSuccess) {
    return "could not prepare the resources";
  }
  mcMemsetParams memset_params = {};
  memset_params.dst = r->device;
  memset_params.elementSize = 1;
  memset_params.width = 4096;
  memset_params.height = 1;
  memset_params.value = 3;
  mcGraphNode_t node = nullptr;
  if (mcGraphAddMemsetNode(&node, r->graph, nullptr, 0, &memset_params) !=
          mcSuccess ||
      mcGraphInstantiate(&r->exec, r->graph, nullptr, nullptr, 0) !=
          mcSuccess) {
    return "could not prepare the graph";
  }
  std::memset(r->host, 7, sizeof(r->host));
  std::memset(r->pinned, 7, 4096);
  *r->ran = 0;
  return "";
}

// Faults the current device; "" if it faulted with the case's error.
std::string CauseFault(const FaultCase& fault, Resources* r) {
  // Control: the kernel with the rule kept runs cleanly.
  if (LaunchFault(fault.fault, /*ok=*/true, r->scratch) != mcSuccess ||
      mcDeviceSynchronize() != mcSuccess) {
    return "the control kernel failed";
  }
  // [api.error.return.fault-reported-by-later-call] The launch itself is
  // accepted; the fault comes with the synchronization.
  const mcError_t launched = LaunchFault(fault.fault, /*ok=*/false, r->scratch);
  if (launched != mcSuccess && !fault.errors.Contains(launched)) {
    return std::string("the faulting launch returned ") +
           mcGetErrorName(launched);
  }
  const mcError_t synchronized = mcDeviceSynchronize();
  if (!fault.errors.Contains(synchronized)) {
    return std::string("the synchronization after the fault returned ") +
           mcGetErrorName(synchronized);
  }
  observed_fault_error = synchronized;
  return "";
}

// Prepares the resources on the current device, then faults it; "" if it
// faulted with the case's error.
std::string PrepareThenFault(const FaultCase& fault, Resources* r) {
  const std::string problem = Prepare(r);
  if (!problem.empty()) return problem;
  return CauseFault(fault, r);
}

// --- Later calls. ---

struct LaterCall {
  const char* name;
  std::function<mcError_t(Resources*)> call;
};

const LaterCall kLaterCalls[] = {
    {"Malloc",
     [](Resources*) {
       void* p = nullptr;
       return mcMalloc(&p, 256);
     }},
    {"MallocManaged",
     [](Resources*) {
       void* p = nullptr;
       return mcMallocManaged(&p, 256);
     }},
    {"MallocHost",
     [](Resources*) {
       void* p = nullptr;
       return mcMallocHost(&p, 256);
     }},
    {"Free", [](Resources* r) { return mcFree(r->scratch); }},
    {"MemcpyHostToDevice",
     [](Resources* r) {
       return mcMemcpy(r->device, r->host, 4096, mcMemcpyHostToDevice);
     }},
    {"MemcpyDeviceToHost",
     [](Resources* r) {
       return mcMemcpy(r->host, r->device, 4096, mcMemcpyDeviceToHost);
     }},
    {"MemcpyAsync",
     [](Resources* r) {
       return mcMemcpyAsync(r->pinned, r->device, 4096, mcMemcpyDeviceToHost,
                            r->stream);
     }},
    {"Memset", [](Resources* r) { return mcMemset(r->device, 1, 4096); }},
    {"MemsetAsync",
     [](Resources* r) { return mcMemsetAsync(r->device, 1, 4096, r->stream); }},
    {"TripleChevronLaunch",
     [](Resources* r) {
       MarkRan<<<1, 1>>>(r->ran);
       return mcGetLastError();
     }},
    {"LaunchKernel",
     [](Resources* r) {
       void* args[] = {&r->ran};
       return mcLaunchKernel(reinterpret_cast<const void*>(&MarkRan), dim3(1),
                             dim3(1), args, 0, nullptr);
     }},
    {"StreamCreate",
     [](Resources*) {
       mcStream_t s = nullptr;
       return mcStreamCreate(&s);
     }},
    {"StreamSynchronize",
     [](Resources* r) { return mcStreamSynchronize(r->stream); }},
    {"DefaultStreamSynchronize",
     [](Resources*) { return mcStreamSynchronize(nullptr); }},
    {"DeviceSynchronize", [](Resources*) { return mcDeviceSynchronize(); }},
    {"GraphLaunch",
     [](Resources* r) { return mcGraphLaunch(r->exec, r->stream); }},
    {"MemcpyPeerOnTheDevice",
     [](Resources* r) {
       int device = 0;
       mcGetDevice(&device);
       return mcMemcpyPeer(r->device, device, r->device + 2048, device, 1024);
     }},
};

// After a fault, `call` returns it (and did not before).
std::string LaterCallReturnsTheFault(const FaultCase& fault,
                                     const LaterCall& call) {
  Resources r;
  std::string problem = Prepare(&r);
  if (!problem.empty()) return problem;
  Problems problems;
  // Control: the call works before the fault. Calls that consume a
  // resource get it back (the flag) or are harmless to repeat.
  if (std::strcmp(call.name, "Free") != 0) {
    problems.Expect(call.call(&r), mcSuccess,
                    std::string(call.name) + " before the fault");
    mcDeviceSynchronize();
  }
  *r.ran = 0;
  problem = CauseFault(fault, &r);
  if (!problem.empty()) return problem;
  problems.Expect(call.call(&r), FaultError(fault),
                  std::string(call.name) + " after the fault");
  problems.Expect(mcGetLastError(), FaultError(fault), "mcGetLastError");
  return problems.text();
}

std::string CallName(
    const testing::TestParamInfo<std::tuple<FaultCase, LaterCall>>& info) {
  return std::string(std::get<0>(info.param).name) + "Then" +
         std::get<1>(info.param).name;
}

class StickyAfter
    : public testing::TestWithParam<std::tuple<FaultCase, LaterCall>> {};

TEST_P(StickyAfter, LaterCallReturnsTheFault) {
  MX_SPEC("api.error.sticky.later-calls-fail", "api.error.sticky.fault-codes");
  MX_EXPECT_IN_FRESH_PROCESS(LaterCallReturnsTheFault(std::get<0>(GetParam()),
                                                      std::get<1>(GetParam())));
}

INSTANTIATE_TEST_SUITE_P(FaultsAndCalls, StickyAfter,
                         testing::Combine(testing::ValuesIn(kFaults),
                                          testing::ValuesIn(kLaterCalls)),
                         CallName);

// --- Per fault. ---

std::string FaultName(const testing::TestParamInfo<FaultCase>& info) {
  return info.param.name;
}

class StickyFault : public testing::TestWithParam<FaultCase> {};

std::string LaunchReturnsAndSynchronizationReports(const FaultCase& fault) {
  Resources r;
  std::string problem = Prepare(&r);
  if (!problem.empty()) return problem;
  mcGetLastError();
  Problems problems;
  // [api.error.return.async-call-may-report-earlier-error] The launch
  // reports only what was wrong when it was issued: nothing.
  problems.Expect(LaunchFaultThroughApi(fault.fault, r.scratch), mcSuccess,
                  "mcLaunchKernel of the faulting kernel");
  const mcError_t synchronized = mcDeviceSynchronize();
  if (fault.errors.Contains(synchronized)) observed_fault_error = synchronized;
  problems.Expect(synchronized, FaultError(fault), "mcDeviceSynchronize");
  // [api.error.last.async-fault-recorded]
  problems.Expect(mcPeekAtLastError(), FaultError(fault), "mcPeekAtLastError");
  return problems.text();
}

TEST_P(StickyFault, LaunchSucceedsAndTheFaultComesLater) {
  MX_SPEC("api.error.return.fault-reported-by-later-call",
          "api.error.return.async-call-may-report-earlier-error",
          "api.error.last.async-fault-recorded");
  MX_EXPECT_IN_FRESH_PROCESS(
      LaunchReturnsAndSynchronizationReports(GetParam()));
}

std::string GetLastErrorDoesNotClear(const FaultCase& fault) {
  Resources r;
  std::string problem = PrepareThenFault(fault, &r);
  if (!problem.empty()) return problem;
  Problems problems;
  for (int i = 0; i < 3; ++i) {
    problems.Expect(mcGetLastError(), FaultError(fault), "mcGetLastError");
    problems.Expect(mcPeekAtLastError(), FaultError(fault),
                    "mcPeekAtLastError");
  }
  problems.Expect(mcDeviceSynchronize(), FaultError(fault),
                  "mcDeviceSynchronize after mcGetLastError");
  void* p = nullptr;
  problems.Expect(mcMalloc(&p, 16), FaultError(fault),
                  "mcMalloc after mcGetLastError");
  return problems.text();
}

TEST_P(StickyFault, GetLastErrorDoesNotClearIt) {
  MX_SPEC("api.error.sticky.get-last-error-does-not-clear");
  MX_EXPECT_IN_FRESH_PROCESS(GetLastErrorDoesNotClear(GetParam()));
}

std::string PersistsUntilReset(const FaultCase& fault) {
  Resources r;
  std::string problem = PrepareThenFault(fault, &r);
  if (!problem.empty()) return problem;
  Problems problems;
  // No number of calls, failing or not, wears it off.
  for (int round = 0; round < 20; ++round) {
    for (const LaterCall& call : kLaterCalls) {
      if (std::strcmp(call.name, "Free") == 0) continue;
      problems.Expect(call.call(&r), FaultError(fault), call.name);
    }
    mcGetLastError();
    mcSetDevice(-1);  // an argument error in between
  }
  // mcDeviceReset ends it.
  problems.Expect(mcDeviceReset(), mcSuccess, "mcDeviceReset");
  mcGetLastError();
  problems.Expect(mcGetLastError(), mcSuccess,
                  "mcGetLastError after the reset");
  problems.Expect(mcDeviceSynchronize(), mcSuccess,
                  "mcDeviceSynchronize after the reset");
  return problems.text();
}

TEST_P(StickyFault, PersistsUntilDeviceReset) {
  MX_SPEC("api.error.sticky.persists-until-reset");
  MX_EXPECT_IN_FRESH_PROCESS(PersistsUntilReset(GetParam()));
}

__global__ void FillWithIndex(int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = i * 3 + 1;
}

// Runs FillWithIndex on the current device and checks its result.
std::string DeviceComputesCorrectly(const char* when) {
  constexpr int kN = 1000;
  int* out = nullptr;
  if (mcMalloc(&out, kN * sizeof(int)) != mcSuccess) {
    return std::string("mcMalloc failed ") + when;
  }
  FillWithIndex<<<(kN + 255) / 256, 256>>>(out, kN);
  if (mcGetLastError() != mcSuccess) {
    return std::string("the launch failed ") + when;
  }
  static int host[kN];
  if (mcMemcpy(host, out, sizeof(host), mcMemcpyDeviceToHost) != mcSuccess) {
    return std::string("mcMemcpy failed ") + when;
  }
  for (int i = 0; i < kN; ++i) {
    if (host[i] != i * 3 + 1) return std::string("wrong result ") + when;
  }
  if (mcFree(out) != mcSuccess) return std::string("mcFree failed ") + when;
  return "";
}

std::string ResetMakesTheDeviceUsable(const FaultCase& fault) {
  Resources r;
  std::string problem = Prepare(&r);
  if (!problem.empty()) return problem;
  problem = DeviceComputesCorrectly("before the fault");
  if (!problem.empty()) return problem;
  problem = CauseFault(fault, &r);
  if (!problem.empty()) return problem;
  if (mcDeviceReset() != mcSuccess) return "mcDeviceReset failed";
  mcGetLastError();
  return DeviceComputesCorrectly("after the reset");
}

TEST_P(StickyFault, ResetMakesTheDeviceUsableAgain) {
  MX_SPEC("api.error.sticky.reset-recovery",
          "api.error.sticky.persists-until-reset");
  MX_EXPECT_IN_FRESH_PROCESS(ResetMakesTheDeviceUsable(GetParam()));
}

std::string WorkAfterTheFaultDoesNotRun(const FaultCase& fault) {
  Resources r;
  std::string problem = Prepare(&r);
  if (!problem.empty()) return problem;
  const char kPattern[] = "written by the device";
  if (mcMemcpy(r.device, kPattern, sizeof(kPattern), mcMemcpyHostToDevice) !=
      mcSuccess) {
    return "mcMemcpy failed before the fault";
  }
  problem = CauseFault(fault, &r);
  if (!problem.empty()) return problem;
  Problems problems;
  MarkRan<<<1, 1, 0, r.stream>>>(r.ran);
  mcMemcpyAsync(r.pinned, r.device, sizeof(kPattern), mcMemcpyDeviceToHost,
                r.stream);
  mcStreamSynchronize(r.stream);
  mcDeviceSynchronize();
  if (*r.ran != 0) problems.Add("a kernel launched after the fault ran");
  if (std::memcmp(r.pinned, kPattern, sizeof(kPattern)) == 0) {
    problems.Add("a copy issued after the fault ran");
  }
  return problems.text();
}

TEST_P(StickyFault, WorkIssuedAfterItDoesNotRun) {
  MX_SPEC("api.error.sticky.work-not-executed");
  MX_EXPECT_IN_FRESH_PROCESS(WorkAfterTheFaultDoesNotRun(GetParam()));
}

std::string SeenFromAnotherHostThread(const FaultCase& fault) {
  Resources r;
  std::string problem = PrepareThenFault(fault, &r);
  if (!problem.empty()) return problem;
  mcError_t last = mcSuccess, synchronized = mcSuccess, allocated = mcSuccess;
  std::thread other([&] {
    // A thread that made no call yet: its current device is device 0,
    // the faulted one.
    last = mcGetLastError();
    synchronized = mcDeviceSynchronize();
    void* p = nullptr;
    allocated = mcMalloc(&p, 16);
  });
  other.join();
  Problems problems;
  problems.Expect(last, FaultError(fault), "mcGetLastError in another thread");
  problems.Expect(synchronized, FaultError(fault),
                  "mcDeviceSynchronize in another thread");
  problems.Expect(allocated, FaultError(fault), "mcMalloc in another thread");
  return problems.text();
}

TEST_P(StickyFault, IsSeenFromEveryHostThread) {
  MX_SPEC("api.error.sticky.later-calls-fail");
  MX_EXPECT_IN_FRESH_PROCESS(SeenFromAnotherHostThread(GetParam()));
}

std::string QueriesStillWork(const FaultCase& fault) {
  Resources r;
  std::string problem = PrepareThenFault(fault, &r);
  if (!problem.empty()) return problem;
  Problems problems;
  int value = 0;
  problems.Expect(mcGetDeviceCount(&value), mcSuccess, "mcGetDeviceCount");
  mcDeviceProp_t properties;
  problems.Expect(mcGetDeviceProperties(&properties, 0), mcSuccess,
                  "mcGetDeviceProperties");
  problems.Expect(
      mcDeviceGetAttribute(&value, mcDeviceAttributeMaxThreadsPerBlock, 0),
      mcSuccess, "mcDeviceGetAttribute");
  problems.Expect(mcGetDevice(&value), mcSuccess, "mcGetDevice");
  problems.Expect(mcSetDevice(0), mcSuccess, "mcSetDevice");
  problems.Expect(mcDeviceCanAccessPeer(&value, 0, 0), mcSuccess,
                  "mcDeviceCanAccessPeer");
  problems.Expect(mcRuntimeGetVersion(&value), mcSuccess,
                  "mcRuntimeGetVersion");
  problems.Expect(mcDriverGetVersion(&value), mcSuccess, "mcDriverGetVersion");
  // Control: a call that uses the device still fails.
  problems.Expect(mcDeviceSynchronize(), FaultError(fault),
                  "mcDeviceSynchronize");
  return problems.text();
}

TEST_P(StickyFault, CallsWithoutDeviceWorkStillSucceed) {
  MX_SPEC("api.error.sticky.calls-without-device-work");
  MX_EXPECT_IN_FRESH_PROCESS(QueriesStillWork(GetParam()));
}

// The error and its stickiness only, as MX_EXPECT_TRAP checks them: what a
// trap prints is the trap handler's [api.trap.diagnostic.printed-on-trap],
// checked in its own chapter, and a backend without the MXMACA trap handler
// may print nothing for a fault, so any output (none too) is accepted.
TEST_P(StickyFault, TrapIsStickyAsTheTrapHandlerSays) {
  MX_SPEC("api.error.sticky.get-last-error-does-not-clear",
          "api.error.sticky.fault-codes");
  static char* scratch = nullptr;
  if (::mxcts::conformance::UseReexecutingDeathTests()) {
    EXPECT_EXIT(::mxcts::conformance::ExitWithTrapVerdict(
                    (mcMalloc(&scratch, 64),
                     LaunchFault(GetParam().fault, false, scratch),
                     mcDeviceSynchronize()),
                    GetParam().errors),
                testing::ExitedWithCode(0), "");
  }
}

// --- Other devices. ---

std::string OtherDeviceUnaffected(const FaultCase& fault, int faulting,
                                  int other) {
  if (mcSetDevice(faulting) != mcSuccess) return "mcSetDevice failed";
  Resources r;
  std::string problem = PrepareThenFault(fault, &r);
  if (!problem.empty()) return problem;
  Problems problems;
  // The other device works fully, in this thread and in another whose
  // current device it is.
  if (mcSetDevice(other) != mcSuccess) return "mcSetDevice(other) failed";
  mcGetLastError();
  problems.Expect(mcGetLastError(), mcSuccess,
                  "mcGetLastError with the other device current");
  problem = DeviceComputesCorrectly("on the other device");
  if (!problem.empty()) problems.Add(problem);
  problems.Expect(mcDeviceSynchronize(), mcSuccess,
                  "mcDeviceSynchronize of the other device");
  mcError_t there = mcErrorUnknown;
  std::thread thread([&] {
    mcSetDevice(other);
    there = mcGetLastError();
    if (there == mcSuccess) there = mcDeviceSynchronize();
  });
  thread.join();
  problems.Expect(there, mcSuccess, "another thread on the other device");
  // The faulting device is still faulted.
  if (mcSetDevice(faulting) != mcSuccess) return "mcSetDevice failed";
  problems.Expect(mcDeviceSynchronize(), FaultError(fault),
                  "mcDeviceSynchronize of the faulted device");
  return problems.text();
}

TEST_P(StickyFault, DeviceOneWorksAfterAFaultOnDeviceZero) {
  MX_SPEC("api.error.sticky.reset-recovery");
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
  MX_EXPECT_IN_FRESH_PROCESS(OtherDeviceUnaffected(GetParam(), 0, 1));
}

TEST_P(StickyFault, DeviceZeroWorksAfterAFaultOnDeviceOne) {
  MX_SPEC("api.error.sticky.reset-recovery");
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
  MX_EXPECT_IN_FRESH_PROCESS(OtherDeviceUnaffected(GetParam(), 1, 0));
}

INSTANTIATE_TEST_SUITE_P(Faults, StickyFault, testing::ValuesIn(kFaults),
                         FaultName);

}  // namespace
