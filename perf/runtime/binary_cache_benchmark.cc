// Copyright mxcts authors.
//
// Runtime compilation with the binary cache (docs/spec/api-binary-cache.md).
// BM_RtcCompileFromCache compiles the same small kernel with
// mcrtcCompileProgram per iteration, after one compilation that stored it,
// so every iteration is a hit. In the same run it times cold compilations
// (a comment with a fresh number makes each source new, so each is a miss
// that runs the compiler and stores its entry) and reading the entry's
// file whole, and reports the hit against both: "ratio_cold_to_hit" (how
// many hits one compilation costs: what the cache saves) and
// "ratio_to_file_read" (a hit costs at least reading its entry, so 1 is the
// best a cache on this host could do).
//
// The cache directory is MACA_CACHE_PATH when the benchmark starts with it
// set; otherwise a fresh directory under TMPDIR, set before the runtime
// initializes, so the benchmark never fills the user's own cache.

#include <benchmark/benchmark.h>
#include <dirent.h>
#include <mc_runtime.h>
#include <mcrtc.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "perf/engine/physical_limits.h"
#include "perf/runtime/call_timing.h"

namespace {

// Set before main, so before the runtime reads the cache variables.
const std::string& CacheDirectory() {
  static const std::string directory = [] {
    if (const char* set = getenv("MACA_CACHE_PATH")) return std::string(set);
    const char* tmp = getenv("TMPDIR");
    std::string pattern =
        std::string(tmp != nullptr && tmp[0] != '\0' ? tmp : "/tmp") +
        "/mxcts-cache-benchmark-XXXXXX";
    if (mkdtemp(&pattern[0]) == nullptr) return std::string();
    setenv("MACA_CACHE_PATH", pattern.c_str(), 1);
    setenv("MACA_CACHE_DISABLE", "0", 1);
    return pattern;
  }();
  return directory;
}
[[maybe_unused]] const bool cache_directory_set = !CacheDirectory().empty();

constexpr char kKernel[] = R"(
extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
)";

void RequireRtc(mcrtcResult result, const char* what) {
  if (result != MCRTC_SUCCESS) {
    std::fprintf(stderr, "%s failed: %s\n", what, mcrtcGetErrorString(result));
    std::exit(1);
  }
}

// Compiles `source` and returns the code's size.
size_t Compile(const std::string& source) {
  mcrtcProgram program = nullptr;
  RequireRtc(mcrtcCreateProgram(&program, source.c_str(), "saxpy.cu", 0,
                                nullptr, nullptr),
             "mcrtcCreateProgram");
  RequireRtc(mcrtcCompileProgram(program, 0, nullptr), "mcrtcCompileProgram");
  size_t size = 0;
  RequireRtc(mcrtcGetCodeSize(program, &size), "mcrtcGetCodeSize");
  RequireRtc(mcrtcDestroyProgram(&program), "mcrtcDestroyProgram");
  return size;
}

// The most recently written regular file of the cache directory.
std::string NewestEntry() {
  std::string newest;
  struct timespec newest_time = {0, 0};
  DIR* dir = opendir(CacheDirectory().c_str());
  if (dir == nullptr) return newest;
  while (struct dirent* item = readdir(dir)) {
    if (item->d_name[0] == '.') continue;
    const std::string path = CacheDirectory() + "/" + item->d_name;
    struct stat info;
    if (stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) continue;
    if (newest.empty() || info.st_mtim.tv_sec > newest_time.tv_sec ||
        (info.st_mtim.tv_sec == newest_time.tv_sec &&
         info.st_mtim.tv_nsec > newest_time.tv_nsec)) {
      newest = path;
      newest_time = info.st_mtim;
    }
  }
  closedir(dir);
  return newest;
}

void BM_RtcCompileFromCache(benchmark::State& state) {
  int count = 0;
  mxcts::perf::RequireMc(mcGetDeviceCount(&count), "mcGetDeviceCount");
  static int fresh = 0;
  const std::string run_tag = std::to_string(getpid()) + "-" +
                              std::to_string(mxcts::perf::NowNanoseconds());

  // Cold: a new source each time, so the compiler runs.
  constexpr int kColdRounds = 3;
  const double cold_start = mxcts::perf::NowNanoseconds();
  for (int i = 0; i < kColdRounds; ++i) {
    Compile(std::string(kKernel) + "// cold " + run_tag + " " +
            std::to_string(++fresh) + "\n");
  }
  const double cold_ns =
      (mxcts::perf::NowNanoseconds() - cold_start) / kColdRounds;

  // The entry the hits will read, stored by one compilation.
  const std::string source = std::string(kKernel) + "// hit " + run_tag + "\n";
  Compile(source);
  const std::string entry = NewestEntry();
  if (entry.empty()) {
    state.SkipWithError("no cache entry was written");
    return;
  }

  // Reading the entry whole: the least a hit must do.
  constexpr int kReadRounds = 200;
  size_t bytes = 0;
  const double read_start = mxcts::perf::NowNanoseconds();
  for (int i = 0; i < kReadRounds; ++i) {
    std::ifstream in(entry, std::ios::binary);
    std::stringstream content;
    content << in.rdbuf();
    bytes += content.str().size();
  }
  const double read_ns =
      (mxcts::perf::NowNanoseconds() - read_start) / kReadRounds;
  benchmark::DoNotOptimize(bytes);

  const double hit_ns = mxcts::perf::MeanNanosPerIteration(
      state, [&] { benchmark::DoNotOptimize(Compile(source)); });
  state.counters["cold_compile_ns"] = cold_ns;
  state.counters["ratio_cold_to_hit"] = cold_ns / hit_ns;
  mxcts::perf::ReportAgainstLimit(state, hit_ns, read_ns, "hit", "file_read");
}
BENCHMARK(BM_RtcCompileFromCache)->Unit(benchmark::kMicrosecond);

}  // namespace
