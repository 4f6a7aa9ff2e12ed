// Copyright mxcts authors.
//
// Conformance: the asynchronous copies that must still be complete when
// mcMemcpyAsync returns (docs/spec/api-memory.md, "mcMemcpyAsync";
// docs/spec/api-synchronization.md, "Host synchronization"): a copy into
// pageable host memory and a copy between two host buffers.
//
// Where device work runs as soon as it is submitted, every copy is
// complete when the call returns, so a copy that did not wait would pass
// unnoticed. Each check therefore runs in a fresh process in the
// reference's deferred timeline mode (MXCTS_TIMELINE=deferred), where work
// that nothing waits for has not run; other implementations ignore the
// variable. The control is a copy into page-locked memory, which may
// return before the copy: where the backend claims the timeline modes it
// has not run yet when the call returns, showing that the reads can tell.

#include <mc_runtime.h>

#include <cstring>
#include <string>
#include <vector>

#include "conformance/api/testing/expect_error.h"
#include "conformance/api/testing/timeline_mode_scope.h"
#include "conformance/testing/claimed.h"
#include "conformance/testing/fresh_process.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

constexpr size_t kBytes = 256;
constexpr unsigned char kOld = 0x11;
constexpr unsigned char kNew = 0x5a;

// "" if every byte of `bytes` is `value`, else what the first other one is.
std::string AllBytesAre(const char* what, const unsigned char* bytes,
                        unsigned char value) {
  for (size_t i = 0; i < kBytes; ++i) {
    if (bytes[i] != value) {
      return std::string(what) + ": byte " + std::to_string(i) + " is " +
             std::to_string(bytes[i]) + ", expected " + std::to_string(value) +
             "; ";
    }
  }
  return "";
}

// Device memory set to kNew by a memory set that is still queued in the
// default stream (in the deferred mode), so that a copy from it that waits
// runs the set first. Null if a call fails.
unsigned char* DeviceSetLater() {
  void* device = nullptr;
  if (mcMalloc(&device, kBytes) != mcSuccess) return nullptr;
  if (mcMemsetAsync(device, kNew, kBytes) != mcSuccess) return nullptr;
  return static_cast<unsigned char*>(device);
}

// Device to pageable host memory: complete when the call returns.
std::string CopyToPageableCompletes() {
  unsigned char* device = DeviceSetLater();
  if (device == nullptr) return "allocating or setting device memory failed";
  std::vector<unsigned char> pageable(kBytes, kOld);
  std::string problems = Expect(
      "mcMemcpyAsync to pageable memory",
      mcMemcpyAsync(pageable.data(), device, kBytes, mcMemcpyDeviceToHost),
      mcSuccess);
  problems += AllBytesAre("pageable memory when the copy returned",
                          pageable.data(), kNew);
  problems += Expect("mcDeviceSynchronize", mcDeviceSynchronize(), mcSuccess);
  mcFree(device);
  return problems;
}

// The two host buffers of a host-to-host copy.
enum class HostMemory { kPageable, kPageLocked };

// Copies kBytes of kNew into a host buffer of `dst` holding kOld from one
// of `src`, with `kind`; complete when the call returns.
std::string HostToHostCompletes(HostMemory dst, HostMemory src,
                                mcMemcpyKind kind) {
  std::vector<unsigned char> dst_pageable(kBytes);
  std::vector<unsigned char> src_pageable(kBytes);
  unsigned char* dst_bytes = dst_pageable.data();
  unsigned char* src_bytes = src_pageable.data();
  void* dst_locked = nullptr;
  void* src_locked = nullptr;
  std::string problems;
  if (dst == HostMemory::kPageLocked) {
    problems +=
        Expect("mcMallocHost", mcMallocHost(&dst_locked, kBytes), mcSuccess);
    dst_bytes = static_cast<unsigned char*>(dst_locked);
  }
  if (src == HostMemory::kPageLocked) {
    problems +=
        Expect("mcMallocHost", mcMallocHost(&src_locked, kBytes), mcSuccess);
    src_bytes = static_cast<unsigned char*>(src_locked);
  }
  if (!problems.empty()) return problems;
  std::memset(dst_bytes, kOld, kBytes);
  std::memset(src_bytes, kNew, kBytes);
  problems +=
      Expect("mcMemcpyAsync between host buffers",
             mcMemcpyAsync(dst_bytes, src_bytes, kBytes, kind), mcSuccess);
  problems +=
      AllBytesAre("the destination when the copy returned", dst_bytes, kNew);
  problems += Expect("mcDeviceSynchronize", mcDeviceSynchronize(), mcSuccess);
  if (dst_locked != nullptr) mcFreeHost(dst_locked);
  if (src_locked != nullptr) mcFreeHost(src_locked);
  return problems;
}

// The control: device to page-locked memory may return before the copy.
// Where the timeline modes are claimed, it has not run when the call
// returns; everywhere, it has after the synchronization.
std::string CopyToPageLockedCompletesWhenWaited() {
  unsigned char* device = DeviceSetLater();
  if (device == nullptr) return "allocating or setting device memory failed";
  void* locked = nullptr;
  std::string problems =
      Expect("mcMallocHost", mcMallocHost(&locked, kBytes), mcSuccess);
  if (!problems.empty()) return problems;
  unsigned char* bytes = static_cast<unsigned char*>(locked);
  std::memset(bytes, kOld, kBytes);
  problems += Expect("mcMemcpyAsync to page-locked memory",
                     mcMemcpyAsync(bytes, device, kBytes, mcMemcpyDeviceToHost),
                     mcSuccess);
  // [api.sync.timeline.unsynchronized-read-undefined]: only where the
  // deferred mode makes the early read meaningful.
  if (Claimed("timeline_modes")) {
    problems += AllBytesAre("page-locked memory when the copy returned",
                            static_cast<const unsigned char*>(bytes), kOld);
  }
  problems += Expect("mcDeviceSynchronize", mcDeviceSynchronize(), mcSuccess);
  problems +=
      AllBytesAre("page-locked memory after the synchronization", bytes, kNew);
  mcFreeHost(locked);
  mcFree(device);
  return problems;
}

class AsyncCopyHostWait : public DeferredModeTest<> {};

TEST_F(AsyncCopyHostWait, CopyToPageableMemoryIsCompleteOnReturn) {
  MX_SPEC("api.sync.host.memcpy-async-pageable-synchronous");
  MX_EXPECT_IN_FRESH_PROCESS(CopyToPageableCompletes());
}

TEST_F(AsyncCopyHostWait, HostToHostCopiesAreCompleteOnReturn) {
  MX_SPEC("api.memory.memcpy-async.host-to-host-synchronous");
  MX_EXPECT_IN_FRESH_PROCESS(
      HostToHostCompletes(HostMemory::kPageable, HostMemory::kPageable,
                          mcMemcpyHostToHost) +
      HostToHostCompletes(HostMemory::kPageLocked, HostMemory::kPageLocked,
                          mcMemcpyHostToHost) +
      HostToHostCompletes(HostMemory::kPageLocked, HostMemory::kPageLocked,
                          mcMemcpyDefault) +
      HostToHostCompletes(HostMemory::kPageable, HostMemory::kPageLocked,
                          mcMemcpyDefault));
}

TEST_F(AsyncCopyHostWait, CopyToPageLockedMemoryMayReturnFirst) {
  MX_SPEC("api.memory.memcpy-async.returns-before-completion",
          "api.sync.timeline.deferred-runs-when-host-waits");
  MX_EXPECT_IN_FRESH_PROCESS(CopyToPageLockedCompletesWhenWaited());
}

}  // namespace
}  // namespace mxcts::conformance
