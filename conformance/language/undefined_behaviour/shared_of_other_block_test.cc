// Copyright mxcts authors.
//
// Conformance: using a block's shared memory after the block has exited,
// through a pointer passed in global memory
// (docs/spec/lang-undefined-behaviour.md,
// lang.ub.memory.shared-of-other-block). The behaviour is undefined; in
// checked mode (MXCTS_MEMCHECK=1, a fresh process) the reference traps
// with mcErrorIllegalAddress when a later grid uses the address, whose
// block is gone. The control passes the pointer the same way but uses it
// in the block that owns the memory, while it runs. The trap is checked
// mode's, checked where the backend claims checked_memory; the control
// runs everywhere.

#include <mc_runtime.h>

#include "conformance/testing/capabilities.h"
#include "conformance/testing/fresh_process.h"
#include "conformance/testing/spec.h"
#include "conformance/testing/trap_expectation.h"

namespace mxcts::conformance {
namespace {

// Thread 0 publishes the address of the block's shared array; with
// `use_it`, thread 1 writes through the published address after a barrier.
__global__ void PublishShared(int** slot, bool use_it, int* out) {
  __shared__ int values[64];
  values[threadIdx.x] = static_cast<int>(threadIdx.x);
  if (threadIdx.x == 0) *slot = values;
  __syncthreads();
  if (use_it && threadIdx.x == 1) {
    int* published = *static_cast<int* volatile*>(slot);
    published[2] = 100;
  }
  __syncthreads();
  if (threadIdx.x == 0) *out = values[2];
}

__global__ void WriteThroughSlot(int* const* slot) {
  if (threadIdx.x == 0) (*slot)[2] = 7;
}

mcError_t UseAfterTheBlockExited() {
  int** slot = nullptr;
  int* out = nullptr;
  if (mcMallocManaged(&slot, sizeof(int*)) != mcSuccess ||
      mcMallocManaged(&out, sizeof(int)) != mcSuccess) {
    return mcErrorUnknown;
  }
  PublishShared<<<1, 64>>>(slot, false, out);
  if (mcDeviceSynchronize() != mcSuccess) return mcErrorUnknown;
  WriteThroughSlot<<<1, 1>>>(slot);
  return mcDeviceSynchronize();
}

TEST(SharedOfOtherBlock, UseAfterTheOwningBlockExitedTraps) {
  MX_SPEC("lang.ub.memory.shared-of-other-block",
          "api.trap.error.illegal-address");
  MX_REQUIRE_CAPABILITY("checked_memory");
  ScopedEnvironment memcheck("MXCTS_MEMCHECK", "1");
  MX_EXPECT_TRAP(UseAfterTheBlockExited(), mcErrorIllegalAddress,
                 "WriteThroughSlot.*block \\(0,0,0\\) thread \\(0,0,0\\).*"
                 "shared memory");
}

// Returns "" if the owning block's own use of the published address works.
std::string UseInTheOwningBlock() {
  int** slot = nullptr;
  int* out = nullptr;
  if (mcMallocManaged(&slot, sizeof(int*)) != mcSuccess ||
      mcMallocManaged(&out, sizeof(int)) != mcSuccess) {
    return "allocation failed";
  }
  *out = 0;
  PublishShared<<<1, 64>>>(slot, true, out);
  const mcError_t error = mcDeviceSynchronize();
  if (error != mcSuccess) return mcGetErrorName(error);
  return *out == 100 ? "" : "the write through the address was lost";
}

TEST(SharedOfOtherBlock, ControlUseInTheOwningBlockRuns) {
  MX_SPEC("lang.ub.memory.shared-of-other-block");
  ScopedEnvironment memcheck("MXCTS_MEMCHECK", "1");
  MX_EXPECT_IN_FRESH_PROCESS(UseInTheOwningBlock());
}

}  // namespace
}  // namespace mxcts::conformance
