// Copyright mxcts authors.
//
// reference/runtime/testing/runtime_testing.h: hooks for the runtime's own
// tests (testonly). Conformance tests never use these: they see the runtime
// only through the public MXMACA API.
//
// The hooks let a test run kernels without the compiler and, where the
// behaviour under test is the runtime's rather than the engine's, without
// the engine:
//
//   static void CountEntry(void** args) { ++**static_cast<int**>(args[0]); }
//   static const unsigned kSizes[] = {sizeof(int*)}, kAligns[] =
//   {alignof(int*)}; static const __mc_internal::KernelRecord kCount = {
//       "[with Sig = void (*)(int*); Sig F = count]", &CountEntry, 1, kSizes,
//       kAligns, 0, 0, 0, nullptr};  // no thread loop: one entry call a thread
//   static void CountStub(int*) {}
//
//   mxcts::runtime_testing::RegisterKernelRecord(&CountStub, &kCount);
//   mxcts::runtime_testing::ScopedGridRunner runner(
//       &mxcts::runtime_testing::RunEveryThreadInOrder);
//   mcLaunchKernel((const void*)&CountStub, 2, 64, args, 0, 0);  // 128 calls

#ifndef MXCTS_REFERENCE_RUNTIME_TESTING_RUNTIME_TESTING_H_
#define MXCTS_REFERENCE_RUNTIME_TESTING_RUNTIME_TESTING_H_

#include <cstdint>
#include <string>
#include <vector>

#include "mcr/detail/launch_abi.h"
#include "reference/device/engine.h"
#include "reference/device/image/image_abi.h"
#include "reference/runtime/launch/launcher.h"

namespace mxcts::runtime_testing {

// Makes `stub` a kernel whose record is `record`, on every device.
void RegisterKernelRecord(const void* stub,
                          const __mc_internal::KernelRecord* record);

// Runs grids with `runner` instead of the engine while alive.
class ScopedGridRunner {
 public:
  explicit ScopedGridRunner(mxcts::runtime::GridRunner runner);
  ~ScopedGridRunner();
  ScopedGridRunner(const ScopedGridRunner&) = delete;
  ScopedGridRunner& operator=(const ScopedGridRunner&) = delete;

 private:
  mxcts::runtime::GridRunner previous_;
};

// A grid runner that calls the entry once per thread, blocks and threads in
// linear order, with no built-in variables (for kernels that read none),
// and counts the grids it ran.
mcError_t RunEveryThreadInOrder(const mxcts::device::GridLaunch& launch);
int GridsRun();

// A grid runner that runs nothing and returns the code given to
// SetRunnerResult (a trap, as the engine would report it).
mcError_t ReturnRunnerResult(const mxcts::device::GridLaunch& launch);
void SetRunnerResult(mcError_t result);

// How many commands the queue that `stream` names for the calling thread on
// the current device has received so far, run or not (0 for a stream that
// names no queue): a test sees where a call put its work by the count that
// grew, whatever the timeline mode.
uint64_t CommandsEnqueued(mcStream_t stream);

// An image runtime table with only its version set, for images (such as
// the test image) whose device code calls no engine service.
const __mc_image_runtime* InertImageRuntimeTable();
// Binds images loaded from now on to `table` (null: the engine's table).
void SetImageRuntimeTable(const __mc_image_runtime* table);

// The path of a data file of the test, given relative to the workspace
// ("reference/runtime/images/testdata/libtest_image.so").
std::string RunfilePath(const std::string& workspace_relative);
// The bytes of file `path`; empty if it cannot be read.
std::vector<unsigned char> ReadFileBytes(const std::string& path);

// The test image (reference/runtime/images/testdata/libtest_image.so) as
// the blob a translated source defines, with images bound to the inert
// table from now on (its device code calls no engine service). For the
// hand-translated registrations of the runtime's API tests, during static
// initialization; the bytes live until the process exits.
__mc_internal::ImageBlob InertTestImage();

}  // namespace mxcts::runtime_testing

#endif  // MXCTS_REFERENCE_RUNTIME_TESTING_RUNTIME_TESTING_H_
