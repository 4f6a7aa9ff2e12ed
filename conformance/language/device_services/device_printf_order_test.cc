// Copyright mxcts authors.
//
// Conformance: the order of device printf output and when it reaches the
// host (docs/spec/lang-device-services.md, "Device printf" and "When printf
// output appears").
//
// Every thread of every block prints records that name it. Over every block
// shape and a few grid shapes the tests check what every implementation
// must do: each record appears once and whole, one thread's records in
// program order, the lanes of a wave (as wide as the capability manifest's
// wave_size) in lane order. The reference's own
// order, blocks and threads in linear order, is checked apart, under the
// implementation-defined clause that documents it. The flush tests capture
// standard output around the launch and around each synchronization point:
// the output is there once the synchronizing call returns, and the
// reference writes none of it before.

#include <mc_runtime.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "conformance/language/synchronization/device_indices.h"
#include "conformance/language/synchronization/launch_shapes.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/claimed.h"
#include "conformance/testing/fresh_process.h"
#include "conformance/testing/spec.h"

namespace {

using ::mxcts::conformance::BlockShapes;
using ::mxcts::conformance::GridShapes;
using ::mxcts::conformance::LinearBlock;
using ::mxcts::conformance::LinearThread;
using ::mxcts::conformance::ScopedEnvironment;
using ::mxcts::conformance::Shape;

__global__ void TwoRecordsPerThread() {
  const unsigned b = LinearBlock();
  const unsigned t = LinearThread();
  printf("b%u t%u first\n", b, t);
  printf("b%u t%u second\n", b, t);
}

__global__ void RecordsAroundBarrier() {
  const unsigned b = LinearBlock();
  const unsigned t = LinearThread();
  printf("b%u t%u before\n", b, t);
  __syncthreads();
  printf("b%u t%u after\n", b, t);
}

std::string Record(unsigned block, unsigned thread, const char* what) {
  return "b" + std::to_string(block) + " t" + std::to_string(thread) + " " +
         what;
}

dim3 ToDim3(const Shape& shape) { return dim3(shape.x, shape.y, shape.z); }

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream stream(text);
  std::string line;
  while (std::getline(stream, line)) lines.push_back(line);
  return lines;
}

// Runs `launch`, synchronizes and returns the captured standard output.
template <typename Launch>
std::string CaptureDeviceOutput(Launch launch, mcError_t* synchronized) {
  std::fflush(stdout);
  ::testing::internal::CaptureStdout();
  launch();
  *synchronized = mcDeviceSynchronize();
  std::fflush(stdout);
  return ::testing::internal::GetCapturedStdout();
}

// Parameters: the block shape and the grid shape.
class DevicePrintfOrderTest
    : public ::testing::TestWithParam<std::tuple<Shape, Shape>> {
 protected:
  Shape block() const { return std::get<0>(GetParam()); }
  Shape grid() const { return std::get<1>(GetParam()); }
};

TEST_P(DevicePrintfOrderTest, EveryRecordOnceWholeInProgramAndLaneOrder) {
  MX_SPEC("lang.printf.call.output-on-host-stdout",
          "lang.printf.order.call-output-not-interleaved",
          "lang.printf.order.same-thread-program-order",
          "lang.printf.order.wave-lanes-in-lane-order",
          "lang.printf.flush.device-synchronize");
  MX_REQUIRE_CAPABILITY("printf");
  const unsigned n = block().count();
  const unsigned blocks = grid().count();
  mcError_t synchronized = mcErrorUnknown;
  const std::string output = CaptureDeviceOutput(
      [&] { TwoRecordsPerThread<<<ToDim3(grid()), ToDim3(block())>>>(); },
      &synchronized);
  ASSERT_EQ(synchronized, mcSuccess);
  ASSERT_FALSE(output.empty());
  ASSERT_EQ(output.back(), '\n') << "the last record is torn";
  // Where each expected record appears.
  std::map<std::string, size_t> position;
  for (unsigned b = 0; b < blocks; ++b) {
    for (unsigned t = 0; t < n; ++t) {
      position[Record(b, t, "first")] = SIZE_MAX;
      position[Record(b, t, "second")] = SIZE_MAX;
    }
  }
  const unsigned wave_size =
      static_cast<unsigned>(::mxcts::conformance::ClaimedWaveSize());
  const std::vector<std::string> lines = Lines(output);
  ASSERT_EQ(lines.size(), 2u * blocks * n);
  for (size_t i = 0; i < lines.size(); ++i) {
    auto found = position.find(lines[i]);
    ASSERT_NE(found, position.end())
        << "line " << i << " is no record: '" << lines[i] << "'";
    ASSERT_EQ(found->second, SIZE_MAX) << "'" << lines[i] << "' twice";
    found->second = i;
  }
  for (unsigned b = 0; b < blocks; ++b) {
    for (unsigned t = 0; t < n; ++t) {
      // [lang.printf.order.same-thread-program-order]
      ASSERT_LT(position[Record(b, t, "first")],
                position[Record(b, t, "second")])
          << "block " << b << " thread " << t;
      // [lang.printf.order.wave-lanes-in-lane-order]
      if (t % wave_size != 0) {
        ASSERT_LT(position[Record(b, t - 1, "first")],
                  position[Record(b, t, "first")])
            << "block " << b << " lanes " << t - 1 << " and " << t;
      }
    }
  }
}

TEST_P(DevicePrintfOrderTest, ReferenceOrderIsBlocksThenThreadsLinearly) {
  MX_SPEC("lang.printf.order.unordered-across-waves");
  MX_REQUIRE_CAPABILITY("printf");
  // The order across waves is the implementation's; this one is the
  // reference's documented schedule.
  MX_REQUIRE_CAPABILITY("reference_choices");
  const unsigned n = block().count();
  const unsigned blocks = grid().count();
  mcError_t synchronized = mcErrorUnknown;
  const std::string output = CaptureDeviceOutput(
      [&] { TwoRecordsPerThread<<<ToDim3(grid()), ToDim3(block())>>>(); },
      &synchronized);
  ASSERT_EQ(synchronized, mcSuccess);
  // Without collectives, each thread runs to its end before the next starts.
  std::string expected;
  for (unsigned b = 0; b < blocks; ++b) {
    for (unsigned t = 0; t < n; ++t) {
      expected += Record(b, t, "first") + "\n" + Record(b, t, "second") + "\n";
    }
  }
  EXPECT_EQ(output, expected);
}

TEST_P(DevicePrintfOrderTest, ReferenceOrderAroundABarrierIsLinear) {
  MX_SPEC("lang.printf.order.unordered-across-waves",
          "lang.printf.order.same-thread-program-order");
  MX_REQUIRE_CAPABILITY("printf");
  // The order across waves is the implementation's; this one is the
  // reference's documented schedule.
  MX_REQUIRE_CAPABILITY("reference_choices");
  const unsigned n = block().count();
  const unsigned blocks = grid().count();
  mcError_t synchronized = mcErrorUnknown;
  const std::string output = CaptureDeviceOutput(
      [&] { RecordsAroundBarrier<<<ToDim3(grid()), ToDim3(block())>>>(); },
      &synchronized);
  ASSERT_EQ(synchronized, mcSuccess);
  // Every thread of a block prints before the barrier, then the barrier
  // releases them in linear order.
  std::string expected;
  for (unsigned b = 0; b < blocks; ++b) {
    for (unsigned t = 0; t < n; ++t) expected += Record(b, t, "before") + "\n";
    for (unsigned t = 0; t < n; ++t) expected += Record(b, t, "after") + "\n";
  }
  EXPECT_EQ(output, expected);
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, DevicePrintfOrderTest,
    ::testing::Combine(::testing::ValuesIn(BlockShapes()),
                       ::testing::ValuesIn(GridShapes())),
    [](const ::testing::TestParamInfo<std::tuple<Shape, Shape>>& info) {
      return "block_" + std::get<0>(info.param).Name() + "_grid_" +
             std::get<1>(info.param).Name();
    });

// --- Synchronization points. ---

__device__ int flush_probe = 0;

enum SynchronizationPoint {
  kDeviceSynchronize,
  kDefaultStreamSynchronize,
  kCreatedStreamSynchronize,
  kBlockingMemcpy,
  kMemcpyFromSymbol,
  kDeviceReset,
};

const char* PointName(int point) {
  switch (point) {
    case kDeviceSynchronize:
      return "DeviceSynchronize";
    case kDefaultStreamSynchronize:
      return "DefaultStreamSynchronize";
    case kCreatedStreamSynchronize:
      return "CreatedStreamSynchronize";
    case kBlockingMemcpy:
      return "BlockingMemcpy";
    case kMemcpyFromSymbol:
      return "MemcpyFromSymbol";
    case kDeviceReset:
      return "DeviceReset";
  }
  return "Unknown";
}

// Parameters: the synchronization point and the number of threads.
class DevicePrintfFlushTest
    : public ::testing::TestWithParam<std::tuple<int, unsigned>> {};

TEST_P(DevicePrintfFlushTest, OutputIsWrittenWhenTheSynchronizingCallReturns) {
  MX_SPEC("lang.printf.flush.device-synchronize",
          "lang.printf.flush.stream-synchronize",
          "lang.printf.flush.blocking-memcpy", "lang.printf.flush.device-reset",
          "lang.printf.flush.only-at-synchronization-points");
  MX_REQUIRE_CAPABILITY("printf");
  const int point = std::get<0>(GetParam());
  const unsigned n = std::get<1>(GetParam());
  mcStream_t stream = nullptr;
  if (point == kCreatedStreamSynchronize) {
    ASSERT_EQ(mcStreamCreate(&stream), mcSuccess);
  }
  void* device_word = nullptr;
  ASSERT_EQ(mcMalloc(&device_word, sizeof(int)), mcSuccess);

  std::fflush(stdout);
  ::testing::internal::CaptureStdout();
  TwoRecordsPerThread<<<1, n, 0, stream>>>();
  const mcError_t launched = mcGetLastError();
  std::fflush(stdout);
  const std::string before = ::testing::internal::GetCapturedStdout();
  ASSERT_EQ(launched, mcSuccess);

  ::testing::internal::CaptureStdout();
  mcError_t synchronized = mcErrorUnknown;
  int word = 0;
  switch (point) {
    case kDeviceSynchronize:
      synchronized = mcDeviceSynchronize();
      break;
    case kDefaultStreamSynchronize:
    case kCreatedStreamSynchronize:
      synchronized = mcStreamSynchronize(stream);
      break;
    case kBlockingMemcpy:
      synchronized =
          mcMemcpy(&word, device_word, sizeof(int), mcMemcpyDeviceToHost);
      break;
    case kMemcpyFromSymbol:
      synchronized = mcMemcpyFromSymbol(&word, flush_probe, sizeof(int));
      break;
    case kDeviceReset:
      synchronized = mcDeviceReset();
      break;
  }
  std::fflush(stdout);
  const std::string after = ::testing::internal::GetCapturedStdout();
  ASSERT_EQ(synchronized, mcSuccess);

  // [lang.printf.flush.only-at-synchronization-points] The reference
  // writes nothing before the synchronizing call.
  EXPECT_EQ(before, "");
  std::string expected;
  for (unsigned t = 0; t < n; ++t) {
    expected += Record(0, t, "first") + "\n" + Record(0, t, "second") + "\n";
  }
  std::vector<std::string> got = Lines(before + after);
  std::vector<std::string> want = Lines(expected);
  std::sort(got.begin(), got.end());
  std::sort(want.begin(), want.end());
  EXPECT_EQ(got, want);
  // Control: a second synchronization finds nothing left to write.
  ::testing::internal::CaptureStdout();
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
  std::fflush(stdout);
  EXPECT_EQ(::testing::internal::GetCapturedStdout(), "");

  if (point != kDeviceReset) {
    if (stream != nullptr) {
      EXPECT_EQ(mcStreamDestroy(stream), mcSuccess);
    }
    EXPECT_EQ(mcFree(device_word), mcSuccess);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Points, DevicePrintfFlushTest,
    ::testing::Combine(::testing::Values(kDeviceSynchronize,
                                         kDefaultStreamSynchronize,
                                         kCreatedStreamSynchronize,
                                         kBlockingMemcpy, kMemcpyFromSymbol,
                                         kDeviceReset),
                       ::testing::Values(1u, 64u, 65u)),
    [](const ::testing::TestParamInfo<std::tuple<int, unsigned>>& info) {
      return std::string(PointName(std::get<0>(info.param))) + "_threads" +
             std::to_string(std::get<1>(info.param));
    });

// A kernel that does not call printf leaves the earlier output pending: a
// launch is not a synchronization point.
__global__ void Quiet(int* word) { *word = 1; }

TEST(DevicePrintfFlush, LaterLaunchDoesNotWritePendingOutput) {
  MX_SPEC("lang.printf.flush.only-at-synchronization-points",
          "lang.printf.flush.device-synchronize");
  MX_REQUIRE_CAPABILITY("printf");
  int* word = nullptr;
  ASSERT_EQ(mcMalloc(&word, sizeof(int)), mcSuccess);
  std::fflush(stdout);
  ::testing::internal::CaptureStdout();
  TwoRecordsPerThread<<<1, 2>>>();
  Quiet<<<1, 1>>>(word);
  std::fflush(stdout);
  const std::string before = ::testing::internal::GetCapturedStdout();
  ::testing::internal::CaptureStdout();
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  std::fflush(stdout);
  const std::string after = ::testing::internal::GetCapturedStdout();
  EXPECT_EQ(before, "");
  // All of it once the synchronization returns, each thread's records in
  // program order; how the two threads' records interleave is the
  // implementation's (ReferenceOrderIsBlocksThenThreadsLinearly checks the
  // reference's).
  const std::vector<std::string> lines = Lines(after);
  std::vector<std::string> sorted = lines;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, (std::vector<std::string>{"b0 t0 first", "b0 t0 second",
                                              "b0 t1 first", "b0 t1 second"}))
      << after;
  for (const char* thread : {"b0 t0 ", "b0 t1 "}) {
    const auto first =
        std::find(lines.begin(), lines.end(), std::string(thread) + "first");
    const auto second =
        std::find(lines.begin(), lines.end(), std::string(thread) + "second");
    EXPECT_LT(first, second) << after;
  }
  EXPECT_EQ(mcFree(word), mcSuccess);
}

// --- Process exit. ---

// What a process that exited without synchronizing wrote.
struct ExitOutput {
  std::string out;
  std::string err;
};

// Makes a temporary file for the forked process; returns its descriptor.
int TemporaryFile(std::string* path) {
  const char* directory = std::getenv("TEST_TMPDIR");
  *path = std::string(directory != nullptr ? directory : "/tmp") +
          "/printf_at_exit_XXXXXX";
  return mkstemp(path->data());
}

std::string ReadAndRemove(const std::string& path) {
  std::ifstream file(path);
  std::string text((std::istreambuf_iterator<char>(file)),
                   std::istreambuf_iterator<char>());
  unlink(path.c_str());
  return text;
}

// Forks a process that redirects its standard output and error to files,
// launches a printing kernel and exits without synchronizing; returns what
// the files received, or a problem in `problem`. Call it before this process
// uses the device, so the forked process starts the runtime itself.
ExitOutput OutputOfProcessExitingUnsynchronized(std::string* problem) {
  std::string out_path;
  std::string err_path;
  const int out_fd = TemporaryFile(&out_path);
  const int err_fd = TemporaryFile(&err_path);
  if (out_fd < 0 || err_fd < 0) {
    *problem = "mkstemp failed";
    return {};
  }
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t child = fork();
  if (child == 0) {
    dup2(out_fd, STDOUT_FILENO);
    dup2(err_fd, STDERR_FILENO);
    TwoRecordsPerThread<<<1, 2>>>();
    std::exit(mcGetLastError() == mcSuccess ? 0 : 3);
  }
  close(out_fd);
  close(err_fd);
  int status = 0;
  if (child < 0 || waitpid(child, &status, 0) != child || !WIFEXITED(status) ||
      WEXITSTATUS(status) != 0) {
    *problem = "the printing process did not exit normally";
  }
  return {ReadAndRemove(out_path), ReadAndRemove(err_path)};
}

std::string PendingOutputIsDiscardedAtExit() {
  std::string problem;
  const ExitOutput output = OutputOfProcessExitingUnsynchronized(&problem);
  if (!problem.empty()) return problem;
  // The kernel ran at its launch, but no synchronization point followed:
  // like a device whose buffer is flushed only at those points, the
  // reference writes none of it, and says so on stderr.
  if (!output.out.empty()) {
    return "a process that exited without synchronizing wrote '" + output.out +
           "' to stdout";
  }
  const std::string note =
      "mxmaca: 50 bytes of device printf output were not written: the "
      "process exited without a synchronization point after the kernels "
      "that printed them [lang.printf.flush.at-process-exit]\n";
  if (output.err != note) {
    return "stderr was '" + output.err + "', expected '" + note + "'";
  }
  return "";
}

// In the eager timeline mode the kernel has run when its launch returns; its
// output is still pending at exit.
TEST(DevicePrintfFlush, ReferenceDiscardsPendingOutputAtProcessExit) {
  MX_SPEC("lang.printf.flush.at-process-exit",
          "api.sync.timeline.eager-runs-at-submission",
          "api.sync.timeline.exit-pending-work");
  MX_REQUIRE_CAPABILITY("printf");
  // The eager mode makes the kernel run at its launch; the note on stderr
  // is the reference's own.
  MX_REQUIRE_CAPABILITY("timeline_modes");
  MX_REQUIRE_CAPABILITY("reference_choices");
  ScopedEnvironment eager("MXCTS_TIMELINE", "eager");
  MX_EXPECT_IN_FRESH_PROCESS(PendingOutputIsDiscardedAtExit());
}

std::string NothingIsWrittenAtExit() {
  std::string problem;
  const ExitOutput output = OutputOfProcessExitingUnsynchronized(&problem);
  if (!problem.empty()) return problem;
  if (!output.out.empty() || !output.err.empty()) {
    return "a deferred kernel nobody waited for wrote '" + output.out +
           "' and '" + output.err + "'";
  }
  return "";
}

// The contrast: in the deferred mode a kernel nobody waits for never runs,
// so there is no output to discard.
TEST(DevicePrintfFlush, ReferenceRunsNoDeferredWorkAtProcessExit) {
  MX_SPEC("lang.printf.flush.at-process-exit",
          "api.sync.timeline.exit-pending-work");
  MX_REQUIRE_CAPABILITY("printf");
  MX_REQUIRE_CAPABILITY("timeline_modes");
  ScopedEnvironment deferred("MXCTS_TIMELINE", "deferred");
  MX_EXPECT_IN_FRESH_PROCESS(NothingIsWrittenAtExit());
}

}  // namespace
