// Copyright mxcts authors.
//
// Conformance: dereferencing a null pointer in device code
// (docs/spec/lang-undefined-behaviour.md, lang.ub.memory.null-dereference).
// The behaviour is undefined; the reference traps with
// mcErrorIllegalAddress, sticky, and a diagnostic naming the kernel, the
// thread and the null address. Reads, writes and atomics are checked, by
// one thread of a block; the control runs the same kernels with a valid
// pointer.

#include <mc_runtime.h>

#include <string>

#include "conformance/testing/spec.h"
#include "conformance/testing/trap_expectation.h"

namespace {

enum class Access { kRead, kWrite, kAtomic };

__global__ void Touch(int* target, int* sink, Access access) {
  if (threadIdx.x != 5) return;
  switch (access) {
    case Access::kRead:
      *sink = *static_cast<volatile int*>(target);
      break;
    case Access::kWrite:
      *static_cast<volatile int*>(target) = 1;
      break;
    case Access::kAtomic:
      atomicAdd(target, 1);
      break;
  }
}

mcError_t RunTouch(Access access, bool null_target) {
  int* cells = nullptr;
  if (mcMalloc(&cells, 2 * sizeof(int)) != mcSuccess) return mcErrorUnknown;
  Touch<<<2, 8>>>(null_target ? nullptr : cells, cells + 1, access);
  const mcError_t error = mcDeviceSynchronize();
  if (error == mcSuccess) mcFree(cells);
  return error;
}

class NullDereference : public testing::TestWithParam<Access> {};

TEST_P(NullDereference, Traps) {
  MX_SPEC("lang.ub.memory.null-dereference", "api.trap.error.illegal-address",
          "api.trap.diagnostic.content");
  MX_EXPECT_TRAP(RunTouch(GetParam(), true), mcErrorIllegalAddress,
                 "Touch.*block \\(0,0,0\\) thread \\(5,0,0\\).*null");
}

TEST_P(NullDereference, ControlValidPointerRuns) {
  MX_SPEC("lang.ub.memory.null-dereference");
  MX_EXPECT_NO_TRAP(RunTouch(GetParam(), false));
}

std::string AccessName(const testing::TestParamInfo<Access>& info) {
  switch (info.param) {
    case Access::kRead:
      return "Read";
    case Access::kWrite:
      return "Write";
    case Access::kAtomic:
      return "Atomic";
  }
  return "Unknown";
}

INSTANTIATE_TEST_SUITE_P(Accesses, NullDereference,
                         testing::Values(Access::kRead, Access::kWrite,
                                         Access::kAtomic),
                         AccessName);

}  // namespace
