// Conformance: device code compiled ahead of time by mxcc
// (docs/spec/api-compilation.md, "Offline compilation with mxcc"). The
// executable holds its kernels: it runs without its source and without
// compiling anything, so it leaves the binary cache empty
// [api.compile.mxcc.device-code-in-executable]. The driver may still
// recompile a kernel for its launch (the runtime guide's example is a block
// of more than 512 threads), but a program cannot tell but by time and
// cache entries [api.compile.mxcc.recompile-may-happen]. The programs are
// built with the installed driver and run in processes of their own; a
// backend whose tests run without MACA_PATH reports the tests unsupported.

#include <string>

#include "conformance/testing/installed_sdk.h"
#include "conformance/testing/spec.h"

namespace {

using ::mxcts::conformance::CommandResult;
using ::mxcts::conformance::ShellQuote;

// `mix THREADS SEED` runs one block of THREADS threads, each storing a
// value mixed from its index and SEED, checks every value on the host and
// prints the count of wrong ones and a checksum of all of them.
constexpr char kMixProgram[] = R"(#include <mc_runtime.h>
#include <stdio.h>
#include <stdlib.h>
__host__ __device__ unsigned Mix(unsigned index, unsigned seed) {
  unsigned x = index * 2654435761u + seed;
  x ^= x >> 13;
  x *= 0x5bd1e995u;
  return x ^ (x >> 15);
}
__global__ void Fill(unsigned* out, unsigned seed) {
  out[threadIdx.x] = Mix(threadIdx.x, seed);
}
int main(int argc, char** argv) {
  if (argc != 3) return 2;
  unsigned threads = strtoul(argv[1], nullptr, 10);
  unsigned seed = strtoul(argv[2], nullptr, 10);
  unsigned* out;
  if (mcMallocManaged(&out, threads * sizeof(unsigned)) != mcSuccess) return 3;
  for (unsigned i = 0; i < threads; ++i) out[i] = 0;
  Fill<<<1, threads>>>(out, seed);
  mcError_t launch = mcGetLastError();
  mcError_t done = mcDeviceSynchronize();
  if (launch != mcSuccess || done != mcSuccess) {
    printf("launch %s, synchronize %s\n", mcGetErrorName(launch),
           mcGetErrorName(done));
    return 1;
  }
  unsigned wrong = 0, checksum = 0;
  for (unsigned i = 0; i < threads; ++i) {
    if (out[i] != Mix(i, seed)) ++wrong;
    checksum = checksum * 31u + out[i];
  }
  printf("%u threads, %u wrong, checksum %08x\n", threads, wrong, checksum);
  mcFree(out);
  return wrong == 0 ? 0 : 1;
}
)";

class AheadOfTimeCode : public ::mxcts::conformance::InstalledSdkTest {
 protected:
  // Builds `mix` from mix.cu; false (with a failure) if it does not build.
  bool BuildMix() {
    Write("mix.cu", kMixProgram);
    CommandResult build = Mxcc("mix.cu -o mix");
    EXPECT_EQ(build.status, 0) << build.output;
    return build.status == 0;
  }

  // Runs `command` with the binary cache enabled in the directory `cache`
  // (relative to the test's directory), or disabled.
  CommandResult RunWithCache(const std::string& cache,
                             const std::string& command) {
    return Shell("env -u MACA_CACHE_DISABLE MACA_CACHE_PATH=" +
                 ShellQuote(directory_ + "/" + cache) + " " + command);
  }
  CommandResult RunWithoutCache(const std::string& command) {
    return Shell("MACA_CACHE_DISABLE=1 MACA_CACHE_PATH=" +
                 ShellQuote(directory_ + "/unused_cache") + " " + command);
  }

  // The names in the directory `cache`, one a line; empty if it has none.
  std::string Listing(const std::string& cache) {
    return Shell("ls -A " + ShellQuote(cache)).output;
  }
};

TEST_F(AheadOfTimeCode, RunsWithoutItsSourceAndWritesNoCacheEntry) {
  MX_SPEC("api.compile.mxcc.device-code-in-executable");
  ASSERT_TRUE(BuildMix());
  ASSERT_EQ(
      Shell("rm mix.cu && rm -rf cache unused_cache && mkdir cache").status, 0);
  // Without the source, with the cache enabled in an empty directory: the
  // kernel runs, and nothing was compiled to be cached.
  CommandResult cached = RunWithCache("cache", "./mix 64 7");
  EXPECT_EQ(cached.status, 0) << cached.output;
  EXPECT_EQ(cached.output.find("64 threads, 0 wrong"), 0u) << cached.output;
  EXPECT_EQ(Listing("cache"), "");
  // With the cache disabled the same run gives the same output.
  CommandResult uncached = RunWithoutCache("./mix 64 7");
  EXPECT_EQ(uncached.status, 0) << uncached.output;
  EXPECT_EQ(uncached.output, cached.output);
  EXPECT_EQ(Listing("cache"), "");
}

// Compiles a kernel with mcrtc while it runs, then launches it: run-time
// compilation that the cache keeps.
constexpr char kRuntimeCompiled[] = R"(#include <mc_runtime.h>
#include <mcrtc.h>
#include <stdio.h>
#include <vector>
static const char kSource[] =
    "extern \"C\" __global__ void Fill(int* out) { out[threadIdx.x] = 7; }\n";
int main() {
  mcrtcProgram program;
  if (mcrtcCreateProgram(&program, kSource, "fill.cu", 0, nullptr, nullptr) !=
      MCRTC_SUCCESS) return 2;
  const char* options[] = {"-x maca"};
  if (mcrtcCompileProgram(program, 1, options) != MCRTC_SUCCESS) return 3;
  size_t size = 0;
  if (mcrtcGetCodeSize(program, &size) != MCRTC_SUCCESS) return 4;
  std::vector<char> code(size);
  if (mcrtcGetCode(program, code.data()) != MCRTC_SUCCESS) return 5;
  mcrtcDestroyProgram(&program);
  mcModule_t module;
  mcFunction_t fill;
  if (mcModuleLoadData(&module, code.data()) != mcSuccess) return 6;
  if (mcModuleGetFunction(&fill, module, "Fill") != mcSuccess) return 7;
  int* out;
  if (mcMallocManaged(&out, 2 * sizeof(int)) != mcSuccess) return 8;
  void* arguments[] = {&out};
  if (mcModuleLaunchKernel(fill, 1, 1, 1, 2, 1, 1, 0, nullptr, arguments,
                           nullptr) != mcSuccess) return 9;
  if (mcDeviceSynchronize() != mcSuccess) return 10;
  printf("%d %d\n", out[0], out[1]);
  return 0;
}
)";

TEST_F(AheadOfTimeCode, ControlRuntimeCompilationLeavesACacheEntry) {
  MX_SPEC("api.compile.mxcc.device-code-in-executable");
  // The check above can fail: a program that compiles device code while it
  // runs leaves the cache directory not empty.
  Write("rtc.cpp", kRuntimeCompiled);
  CommandResult build = Mxcc("-x maca rtc.cpp -o rtc");
  ASSERT_EQ(build.status, 0) << build.output;
  ASSERT_EQ(Shell("rm -rf cache && mkdir cache").status, 0);
  CommandResult run = RunWithCache("cache", "./rtc");
  EXPECT_EQ(run.status, 0) << run.output;
  EXPECT_EQ(run.output, "7 7\n");
  EXPECT_NE(Listing("cache"), "");
}

// Block sizes on both sides of the guide's 512 threads, up to the limit.
class BlockSize : public AheadOfTimeCode,
                  public ::testing::WithParamInterface<int> {};

TEST_P(BlockSize, ResultsDoNotDependOnTheCache) {
  MX_SPEC("api.compile.mxcc.recompile-may-happen",
          "api.cache.hit.same-results-as-miss");
  ASSERT_TRUE(BuildMix());
  ASSERT_EQ(Shell("rm -rf cache && mkdir cache").status, 0);
  const std::string run = "./mix " + std::to_string(GetParam()) + " 5";
  CommandResult uncached = RunWithoutCache(run);
  EXPECT_EQ(uncached.status, 0) << uncached.output;
  EXPECT_EQ(
      uncached.output.find(std::to_string(GetParam()) + " threads, 0 wrong"),
      0u)
      << uncached.output;
  // The first run with the cache may recompile and store; the second may
  // take what the first stored. Neither changes what the program sees.
  CommandResult first = RunWithCache("cache", run);
  EXPECT_EQ(first.status, 0) << first.output;
  EXPECT_EQ(first.output, uncached.output);
  CommandResult second = RunWithCache("cache", run);
  EXPECT_EQ(second.status, 0) << second.output;
  EXPECT_EQ(second.output, uncached.output);
  // Control: the output tells runs apart whose results differ.
  CommandResult other_seed =
      RunWithoutCache("./mix " + std::to_string(GetParam()) + " 6");
  EXPECT_EQ(other_seed.status, 0) << other_seed.output;
  EXPECT_NE(other_seed.output, uncached.output);
}

INSTANTIATE_TEST_SUITE_P(AroundTheGuidesRecompileSize, BlockSize,
                         ::testing::Values(64, 512, 513, 1024));

TEST_F(AheadOfTimeCode, BlockBeyondTheLimitFailsWithOrWithoutTheCache) {
  MX_SPEC("api.compile.mxcc.recompile-may-happen");
  ASSERT_TRUE(BuildMix());
  ASSERT_EQ(Shell("rm -rf cache && mkdir cache").status, 0);
  // No recompilation makes a block larger than the device allows run.
  CommandResult uncached = RunWithoutCache("./mix 1025 5");
  EXPECT_EQ(uncached.status, 1) << uncached.output;
  EXPECT_EQ(uncached.output.find("launch mcErrorInvalidConfiguration"), 0u)
      << uncached.output;
  CommandResult cached = RunWithCache("cache", "./mix 1025 5");
  EXPECT_EQ(cached.output, uncached.output);
  // Control: the largest block allowed runs.
  CommandResult largest = RunWithCache("cache", "./mix 1024 5");
  EXPECT_EQ(largest.status, 0) << largest.output;
}

}  // namespace
