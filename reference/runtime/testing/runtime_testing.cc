// Copyright mxcts authors.
//
// Test hooks of the runtime: thin forwards to the runtime's seams (the
// grid runner, the registry's hand-written records and runtime table, the
// stream table's queues) plus two trivial grid runners and file helpers.

#include "reference/runtime/testing/runtime_testing.h"

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <iterator>

#include "absl/synchronization/mutex.h"
#include "reference/runtime/images/image_registry.h"
#include "reference/runtime/process/runtime.h"
#include "reference/runtime/timeline/stream.h"

namespace mxcts::runtime_testing {
namespace {

std::atomic<int> grids_run{0};
std::atomic<mcError_t> runner_result{mcSuccess};

}  // namespace

void RegisterKernelRecord(const void* stub,
                          const __mc_internal::KernelRecord* record) {
  mxcts::runtime::ImageRegistry::Get().RegisterKernelRecord(stub, record);
}

uint64_t CommandsEnqueued(mcStream_t stream) {
  mxcts::runtime::Runtime& runtime = mxcts::runtime::Runtime::Get();
  absl::StatusOr<mxcts::runtime::Device*> current = runtime.CurrentDevice();
  if (!current.ok()) return 0;
  absl::MutexLock lock(&runtime.execution_mutex());
  absl::StatusOr<mxcts::runtime::ResolvedStream> resolved =
      mxcts::runtime::StreamTable::Get().Resolve(stream, (*current)->ordinal());
  return resolved.ok() ? resolved->queue->Tail().seq : 0;
}

ScopedGridRunner::ScopedGridRunner(mxcts::runtime::GridRunner runner)
    : previous_(mxcts::runtime::SetGridRunner(runner)) {}

ScopedGridRunner::~ScopedGridRunner() {
  mxcts::runtime::SetGridRunner(previous_);
}

mcError_t RunEveryThreadInOrder(const mxcts::device::GridLaunch& launch) {
  unsigned long long blocks =
      1ull * launch.grid.x * launch.grid.y * launch.grid.z;
  unsigned long long threads =
      1ull * launch.block.x * launch.block.y * launch.block.z;
  for (unsigned long long b = 0; b < blocks; ++b) {
    for (unsigned long long t = 0; t < threads; ++t) launch.entry(launch.args);
  }
  grids_run.fetch_add(1);
  return mcSuccess;
}

int GridsRun() { return grids_run.load(); }

mcError_t ReturnRunnerResult(const mxcts::device::GridLaunch&) {
  grids_run.fetch_add(1);
  return runner_result.load();
}

void SetRunnerResult(mcError_t result) { runner_result.store(result); }

const __mc_image_runtime* InertImageRuntimeTable() {
  static const __mc_image_runtime table = [] {
    __mc_image_runtime t{};
    t.version = MC_IMAGE_ABI_VERSION;
    return t;
  }();
  return &table;
}

void SetImageRuntimeTable(const __mc_image_runtime* table) {
  mxcts::runtime::ImageRegistry::Get().SetRuntimeTable(table);
}

std::string RunfilePath(const std::string& workspace_relative) {
  const char* root = std::getenv("TEST_SRCDIR");
  const char* workspace = std::getenv("TEST_WORKSPACE");
  if (root == nullptr) return workspace_relative;
  return std::string(root) + "/" + (workspace ? workspace : "mxcts") + "/" +
         workspace_relative;
}

std::vector<unsigned char> ReadFileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<unsigned char>(std::istreambuf_iterator<char>(in), {});
}

__mc_internal::ImageBlob InertTestImage() {
  SetImageRuntimeTable(InertImageRuntimeTable());
  static const std::vector<unsigned char> bytes = ReadFileBytes(
      RunfilePath("reference/runtime/images/testdata/libtest_image.so"));
  return {bytes.data(), bytes.size()};
}

}  // namespace mxcts::runtime_testing
