// Copyright mxcts authors.
//
// Conformance: passing a pointer to shared or local memory to a child grid
// (docs/spec/lang-undefined-behaviour.md,
// lang.ub.memory.shared-or-local-pointer-to-child). The behaviour is
// undefined; the reference reports each such launch argument with a
// warning on stderr naming the kernel, the thread, the argument and the
// kind of memory. The control passes global memory and gets no warning.

#include <mc_runtime.h>

#include <string>

#include "conformance/testing/capabilities.h"
#include "conformance/testing/captured_output.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

__global__ void Child(int* target) { *target = 9; }

enum class Memory { kShared, kLocal, kGlobal };

__global__ void Parent(Memory memory, int* global) {
  __shared__ int shared[4];
  int local[4] = {0, 0, 0, 0};
  if (threadIdx.x != 0) return;
  int* target = memory == Memory::kShared  ? shared
                : memory == Memory::kLocal ? local
                                           : global;
  Child<<<1, 1>>>(target);
  mcDeviceSynchronize();
  *global += local[0];
}

// Whether `log` has the warning for a launch argument that points to
// `memory_kind`: the launching kernel, its thread, the argument, the child.
bool HasWarning(const std::string& log, const std::string& memory_kind) {
  for (const std::string& part :
       {std::string("Parent"), std::string("block (0,0,0) thread (0,0,0)"),
        std::string("argument 0 of the launch of"),
        std::string("points to ") + memory_kind}) {
    if (log.find(part) == std::string::npos) return false;
  }
  return true;
}

// What the launch of Parent writes to stderr, and whether it succeeded.
std::string LaunchAndCapture(Memory memory, mcError_t* error) {
  int* global = nullptr;
  if (mcMallocManaged(&global, sizeof(int)) != mcSuccess) {
    *error = mcErrorUnknown;
    return "";
  }
  *global = 0;
  CapturedStderr capture;
  Parent<<<1, 2>>>(memory, global);
  *error = mcDeviceSynchronize();
  std::string log = capture.Stop();
  mcFree(global);
  return log;
}

TEST(PointerToChild, SharedMemoryPointerIsReported) {
  MX_SPEC("lang.ub.memory.shared-or-local-pointer-to-child");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  mcError_t error = mcSuccess;
  const std::string log = LaunchAndCapture(Memory::kShared, &error);
  EXPECT_TRUE(HasWarning(log, "shared memory")) << log;
}

TEST(PointerToChild, LocalMemoryPointerIsReported) {
  MX_SPEC("lang.ub.memory.shared-or-local-pointer-to-child");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  mcError_t error = mcSuccess;
  const std::string log = LaunchAndCapture(Memory::kLocal, &error);
  EXPECT_TRUE(HasWarning(log, "private")) << log;
}

TEST(PointerToChild, ControlGlobalMemoryPointerIsNotReported) {
  MX_SPEC("lang.ub.memory.shared-or-local-pointer-to-child");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  mcError_t error = mcErrorUnknown;
  const std::string log = LaunchAndCapture(Memory::kGlobal, &error);
  EXPECT_EQ(error, mcSuccess);
  EXPECT_FALSE(HasWarning(log, "")) << log;
}

}  // namespace
}  // namespace mxcts::conformance
