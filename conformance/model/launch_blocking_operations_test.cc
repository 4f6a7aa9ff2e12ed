// Copyright mxcts authors.
//
// Conformance: with MACA_LAUNCH_BLOCKING=1 at program start, every
// asynchronous operation has completed when the call that enqueued it
// returns (docs/spec/model.md, model.async.launch-blocking-env), not only
// kernel launches (asynchrony_test.cc covers those, with one copy and one
// fill): each stream-ordered call of the API, its shapes and variants
// included, is made once in a stream of its own, and the stream must have
// nothing left to run when the call returns (mcStreamQuery is mcSuccess).
//
// The control makes the same calls without the variable in the reference's
// deferred timeline mode (MXCTS_TIMELINE=deferred, which runs device work
// only when the host waits for or polls it), where the work of each is
// still pending at its return: the check sees pending work when there is
// some. The stream-ordered allocation calls are left out of the control:
// the reference allocates and frees at the call (its stream work is
// empty), which the rule allows. Only a backend that claims the timeline
// modes has such a mode; elsewhere the control is left out.

#include <mc_runtime.h>

#include <functional>
#include <string>
#include <vector>

#include "conformance/testing/capabilities.h"
#include "conformance/testing/fresh_process.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

__device__ int symbol_cell;

void HostFunction(void*) {}
void Callback(mcStream_t, mcError_t, void*) {}

constexpr size_t kBytes = 4096;
constexpr size_t kWidth = 64;
constexpr size_t kPitch = 128;
constexpr size_t kHeight = 4;

// What every call works on: device, pinned and managed memory, a pitched
// view of the device memory, and an executable graph that fills it.
struct Resources {
  char* device = nullptr;
  char* host = nullptr;
  char* managed = nullptr;
  mcGraphExec_t exec = nullptr;
  // Stream-ordered allocations not yet freed.
  std::vector<void*> stream_ordered;
};

struct Operation {
  const char* name;
  // Enqueues the operation in the stream; the call's result.
  std::function<mcError_t(mcStream_t)> call;
  // Whether the reference's deferred timeline leaves work pending at its
  // return without MACA_LAUNCH_BLOCKING (the control's cases).
  bool deferred;
};

mcPitchedPtr Pitched(char* p) {
  return make_mcPitchedPtr(p, kPitch, kWidth, kHeight);
}

std::vector<Operation> Operations(Resources& r) {
  const mcExtent extent = make_mcExtent(kWidth, kHeight, 1);
  const mcDeviceptr_t device = reinterpret_cast<mcDeviceptr_t>(r.device);
  const mcDeviceptr_t upper_half =
      reinterpret_cast<mcDeviceptr_t>(r.device + kBytes / 2);
  return {
      {"mcMemcpyAsync",
       [&r](mcStream_t s) {
         return mcMemcpyAsync(r.device, r.host, kBytes, mcMemcpyHostToDevice,
                              s);
       },
       true},
      {"mcMemcpy2DAsync",
       [&r](mcStream_t s) {
         return mcMemcpy2DAsync(r.host, kPitch, r.device, kPitch, kWidth,
                                kHeight, mcMemcpyDeviceToHost, s);
       },
       true},
      {"mcMemcpy3DAsync",
       [&r, extent](mcStream_t s) {
         mcMemcpy3DParms p = {};
         p.srcPtr = Pitched(r.host);
         p.dstPtr = Pitched(r.device);
         p.extent = extent;
         p.kind = mcMemcpyHostToDevice;
         return mcMemcpy3DAsync(&p, s);
       },
       true},
      {"mcMemcpyHtoDAsync",
       [&r, device](mcStream_t s) {
         return mcMemcpyHtoDAsync(device, r.host, kBytes, s);
       },
       true},
      {"mcMemcpyDtoHAsync",
       [&r, device](mcStream_t s) {
         return mcMemcpyDtoHAsync(r.host, device, kBytes, s);
       },
       true},
      {"mcMemcpyDtoDAsync",
       [device, upper_half](mcStream_t s) {
         return mcMemcpyDtoDAsync(device, upper_half, kBytes / 2, s);
       },
       true},
      {"mcMemcpyToSymbolAsync",
       [&r](mcStream_t s) {
         return mcMemcpyToSymbolAsync(symbol_cell, r.host, sizeof(int), 0,
                                      mcMemcpyHostToDevice, s);
       },
       true},
      {"mcMemcpyFromSymbolAsync",
       [&r](mcStream_t s) {
         return mcMemcpyFromSymbolAsync(r.host, symbol_cell, sizeof(int), 0,
                                        mcMemcpyDeviceToHost, s);
       },
       true},
      {"mcMemcpyPeerAsync",
       [&r](mcStream_t s) {
         return mcMemcpyPeerAsync(r.device, 0, r.device + kBytes / 2, 0,
                                  kBytes / 2, s);
       },
       true},
      {"mcMemsetAsync",
       [&r](mcStream_t s) { return mcMemsetAsync(r.device, 1, kBytes, s); },
       true},
      {"mcMemset2DAsync",
       [&r](mcStream_t s) {
         return mcMemset2DAsync(r.device, kPitch, 2, kWidth, kHeight, s);
       },
       true},
      {"mcMemset3DAsync",
       [&r, extent](mcStream_t s) {
         return mcMemset3DAsync(Pitched(r.device), 3, extent, s);
       },
       true},
      {"mcMemsetD8Async",
       [device](mcStream_t s) { return mcMemsetD8Async(device, 4, kBytes, s); },
       true},
      {"mcMemsetD16Async",
       [device](mcStream_t s) {
         return mcMemsetD16Async(device, 5, kBytes / 2, s);
       },
       true},
      {"mcMemsetD32Async",
       [device](mcStream_t s) {
         return mcMemsetD32Async(device, 6, kBytes / 4, s);
       },
       true},
      {"mcMemPrefetchAsync",
       [&r](mcStream_t s) {
         return mcMemPrefetchAsync(r.managed, kBytes, 0, s);
       },
       true},
      {"mcMallocAsync",
       [&r](mcStream_t s) {
         void* p = nullptr;
         const mcError_t error = mcMallocAsync(&p, kBytes, s);
         if (error == mcSuccess) r.stream_ordered.push_back(p);
         return error;
       },
       false},
      {"mcMallocFromPoolAsync",
       [&r](mcStream_t s) {
         mcMemPool_t pool = nullptr;
         void* p = nullptr;
         mcError_t error = mcDeviceGetDefaultMemPool(&pool, 0);
         if (error == mcSuccess) {
           error = mcMallocFromPoolAsync(&p, kBytes, pool, s);
         }
         if (error == mcSuccess) r.stream_ordered.push_back(p);
         return error;
       },
       false},
      {"mcFreeAsync",
       [&r](mcStream_t s) {
         if (r.stream_ordered.empty()) return mcErrorInvalidValue;
         void* p = r.stream_ordered.back();
         r.stream_ordered.pop_back();
         return mcFreeAsync(p, s);
       },
       false},
      {"mcLaunchHostFunc",
       [](mcStream_t s) { return mcLaunchHostFunc(s, HostFunction, nullptr); },
       true},
      {"mcStreamAddCallback",
       [](mcStream_t s) {
         return mcStreamAddCallback(s, Callback, nullptr, 0);
       },
       true},
      {"mcStreamAttachMemAsync",
       [&r](mcStream_t s) {
         return mcStreamAttachMemAsync(s, r.managed, 0, mcMemAttachSingle);
       },
       true},
      {"mcGraphUpload", [&r](mcStream_t s) { return mcGraphUpload(r.exec, s); },
       true},
      {"mcGraphLaunch", [&r](mcStream_t s) { return mcGraphLaunch(r.exec, s); },
       true},
  };
}

// An executable graph of one fill of `device`, captured from `stream`.
mcGraphExec_t FillGraph(char* device, mcStream_t stream) {
  mcGraph_t graph = nullptr;
  mcGraphExec_t exec = nullptr;
  if (mcStreamBeginCapture(stream, mcStreamCaptureModeGlobal) != mcSuccess) {
    return nullptr;
  }
  mcMemsetAsync(device, 7, kBytes, stream);
  if (mcStreamEndCapture(stream, &graph) != mcSuccess) return nullptr;
  if (mcGraphInstantiate(&exec, graph, nullptr, nullptr, 0) != mcSuccess) {
    exec = nullptr;
  }
  mcGraphDestroy(graph);
  return exec;
}

// Makes each operation (only those the reference's deferred timeline
// defers, if `deferred_only`) twice in `stream` and reports each whose call
// failed or whose stream was not (`pending`) or was still busy at the
// second call's return.
std::string PendingAtReturn(bool deferred_only, bool pending) {
  Resources r;
  mcStream_t stream = nullptr;
  if (mcStreamCreateWithFlags(&stream, mcStreamNonBlocking) != mcSuccess) {
    return "no stream";
  }
  if (mcMalloc(&r.device, kBytes) != mcSuccess ||
      mcMallocHost(&r.host, kBytes) != mcSuccess ||
      mcMallocManaged(&r.managed, kBytes) != mcSuccess) {
    return "no memory";
  }
  r.exec = FillGraph(r.device, stream);
  if (r.exec == nullptr) return "no graph";
  std::string problems;
  for (const Operation& operation : Operations(r)) {
    if (deferred_only && !operation.deferred) continue;
    // Twice: a poll may run one piece of pending work (the reference's
    // deferred mode does, api.sync.timeline.deferred-runs-when-host-waits),
    // so only a second piece shows work left pending at the return.
    mcError_t error = operation.call(stream);
    if (error == mcSuccess) error = operation.call(stream);
    const mcError_t query = mcStreamQuery(stream);
    if (error != mcSuccess) {
      problems += std::string(operation.name) +
                  " failed: " + mcGetErrorName(error) + "; ";
    } else if ((query == mcErrorNotReady) != pending) {
      problems += std::string(operation.name) +
                  (pending ? ": no work pending at its return; "
                           : ": work pending at its return; ");
    }
    if (mcStreamSynchronize(stream) != mcSuccess) {
      problems += std::string(operation.name) + ": the work failed; ";
    }
  }
  for (void* p : r.stream_ordered) mcFreeAsync(p, stream);
  mcStreamSynchronize(stream);
  mcGraphExecDestroy(r.exec);
  mcFree(r.managed);
  mcFreeHost(r.host);
  mcFree(r.device);
  mcStreamDestroy(stream);
  return problems;
}

TEST(LaunchBlocking, EveryStreamOrderedCallCompletesBeforeItReturns) {
  MX_SPEC("model.async.launch-blocking-env");
  ScopedEnvironment timeline("MXCTS_TIMELINE", "deferred");
  ScopedEnvironment blocking("MACA_LAUNCH_BLOCKING", "1");
  MX_EXPECT_IN_FRESH_PROCESS(
      PendingAtReturn(/*deferred_only=*/false, /*pending=*/false));
}

TEST(LaunchBlocking, ControlWithoutItTheWorkIsPending) {
  MX_SPEC("model.async.launch-blocking-env");
  // Work pending at its call's return is certain only in the deferred mode.
  MX_REQUIRE_CAPABILITY("timeline_modes");
  ScopedEnvironment timeline("MXCTS_TIMELINE", "deferred");
  ScopedEnvironment blocking("MACA_LAUNCH_BLOCKING", "0");
  MX_EXPECT_IN_FRESH_PROCESS(
      PendingAtReturn(/*deferred_only=*/true, /*pending=*/true));
}

}  // namespace
}  // namespace mxcts::conformance
