// Copyright mxcts authors.
//
// Conformance: pointers to a thread's private memory or to a block's
// shared memory must not reach a child grid (docs/spec/model.md, "Memory
// model"). Dereferencing such a pointer there is undefined; the reference
// reports the device-side launch that passes one with a warning on stderr
// (docs/spec/api-dynamic-parallelism.md). The control passes global memory,
// which the child may use, and gets no warning.

#include <mc_runtime.h>

#include <string>

#include "conformance/testing/capabilities.h"
#include "conformance/testing/managed_buffer.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

enum class Space { kPrivate, kPrivateArray, kShared, kGlobal };

// The child does not dereference the pointer: passing it is allowed, only
// its use would be undefined.
__global__ void KeepPointer(int* p, int* kept) { *kept = p != nullptr; }

__global__ void LaunchWithPointer(Space space, int* global, int* kept) {
  __shared__ int shared_cell;
  int private_cell = 0;
  int private_array[8] = {};
  int* p = global;
  if (space == Space::kPrivate) p = &private_cell;
  if (space == Space::kPrivateArray) p = &private_array[3];
  if (space == Space::kShared) p = &shared_cell;
  KeepPointer<<<1, 1>>>(p, kept);
  mcDeviceSynchronize();
}

// Launches the parent with a pointer into `space`; returns its stderr, or
// a line starting with "failed" if the launch did not run.
std::string Launch(Space space) {
  ManagedBuffer<int> global(1, 0);
  ManagedBuffer<int> kept(1, 0);
  testing::internal::CaptureStderr();
  LaunchWithPointer<<<1, 1>>>(space, global.get(), kept.get());
  const mcError_t error = mcDeviceSynchronize();
  std::string diagnostics = testing::internal::GetCapturedStderr();
  if (error != mcSuccess || kept[0] != 1) return "failed: " + diagnostics;
  return diagnostics;
}

TEST(PointerEscape, PrivatePointerToAChildIsReported) {
  MX_SPEC("model.memory.private-pointer-escape-is-undefined");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  const std::string diagnostics = Launch(Space::kPrivate);
  EXPECT_NE(diagnostics.find("points to private"), std::string::npos)
      << diagnostics;
  EXPECT_NE(diagnostics.find("KeepPointer"), std::string::npos) << diagnostics;
}

TEST(PointerEscape, PrivateArrayElementToAChildIsReported) {
  MX_SPEC("model.memory.private-pointer-escape-is-undefined");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  const std::string diagnostics = Launch(Space::kPrivateArray);
  EXPECT_NE(diagnostics.find("points to private"), std::string::npos)
      << diagnostics;
}

TEST(PointerEscape, SharedPointerToAChildIsReported) {
  MX_SPEC("model.memory.shared-pointer-escape-is-undefined");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  const std::string diagnostics = Launch(Space::kShared);
  EXPECT_NE(diagnostics.find("points to shared memory"), std::string::npos)
      << diagnostics;
  EXPECT_NE(diagnostics.find("KeepPointer"), std::string::npos) << diagnostics;
}

TEST(PointerEscape, ControlGlobalPointerIsNotReported) {
  MX_SPEC("model.memory.private-pointer-escape-is-undefined",
          "model.memory.shared-pointer-escape-is-undefined");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  EXPECT_EQ(Launch(Space::kGlobal), "");
}

}  // namespace
}  // namespace mxcts::conformance
