// Copyright mxcts authors.
//
// Runtime compilation and module loading through the public API.
//
// BM_RtcCompileSmallKernel: mcrtcCreateProgram, mcrtcCompileProgram,
// mcrtcGetCode and mcrtcDestroyProgram of a small kernel, per iteration,
// each compilation cold (nothing is cached between them). The physical
// limit is one run of the host C++ compiler over the same kernel written
// as plain C++ (`c++ -O2 -fPIC -c`, measured in the same run): a runtime
// compiler that starts the host compiler cannot do less, and the reference
// runs it for a host and a device pass and links an image.
//
// BM_ModuleLoadAndUnload/get_function:0|1: mcModuleLoadData of that image
// and mcModuleUnload, per iteration; with get_function:1 also one
// mcModuleGetFunction, which makes a lazily loading runtime load the
// code. The physical limit is dlopen plus dlclose of a small shared
// object made by the host compiler in the same run: loading code into the
// process costs at least that.
//
// The compiler is found as mcrtc finds it ($MACA_PATH for a statically
// linked program): run with MACA_PATH set to the SDK, as the BUILD's smoke
// test does.

#include <benchmark/benchmark.h>
#include <dlfcn.h>
#include <mc_runtime.h>
#include <mcrtc.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "perf/engine/physical_limits.h"
#include "perf/runtime/call_timing.h"

extern char** environ;

namespace {

using mxcts::perf::MeanNanosPerIteration;
using mxcts::perf::NowNanoseconds;
using mxcts::perf::ReportAgainstLimit;
using mxcts::perf::RequireMc;

constexpr char kKernel[] = R"(
extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
)";

// The same function as plain C++, for the host compiler.
constexpr char kPlainKernel[] = R"(
extern "C" void saxpy(float a, const float* x, float* y, int n, int i) {
  if (i < n) y[i] = a * x[i] + y[i];
}
)";

void RequireRtc(mcrtcResult result, const char* what) {
  if (result != MCRTC_SUCCESS) {
    std::fprintf(stderr,
                 "%s failed: %s (is MACA_PATH the SDK's installation?)\n", what,
                 mcrtcGetErrorString(result));
    std::exit(1);
  }
}

std::vector<char> CompileKernel() {
  mcrtcProgram program = nullptr;
  RequireRtc(
      mcrtcCreateProgram(&program, kKernel, "saxpy.cu", 0, nullptr, nullptr),
      "mcrtcCreateProgram");
  RequireRtc(mcrtcCompileProgram(program, 0, nullptr), "mcrtcCompileProgram");
  size_t size = 0;
  RequireRtc(mcrtcGetCodeSize(program, &size), "mcrtcGetCodeSize");
  std::vector<char> code(size);
  RequireRtc(mcrtcGetCode(program, code.data()), "mcrtcGetCode");
  RequireRtc(mcrtcDestroyProgram(&program), "mcrtcDestroyProgram");
  return code;
}

std::string ScratchDirectory() {
  const char* tmp = getenv("TEST_TMPDIR");
  if (tmp == nullptr) tmp = getenv("TMPDIR");
  std::string pattern = std::string(tmp ? tmp : "/tmp") + "/modbench-XXXXXX";
  if (mkdtemp(pattern.data()) == nullptr) {
    std::fprintf(stderr, "cannot create %s\n", pattern.c_str());
    std::exit(1);
  }
  return pattern;
}

// Runs the host compiler ($MXCC_HOST_CXX, else c++) with `arguments`.
void RunHostCompiler(const std::vector<std::string>& arguments) {
  const char* cxx = getenv("MXCC_HOST_CXX");
  std::vector<std::string> words = {cxx != nullptr ? cxx : "c++"};
  words.insert(words.end(), arguments.begin(), arguments.end());
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  pid_t pid;
  if (posix_spawnp(&pid, argv[0], nullptr, nullptr, argv.data(), environ) !=
      0) {
    std::fprintf(stderr, "cannot run %s\n", argv[0]);
    std::exit(1);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::fprintf(stderr, "%s failed\n", argv[0]);
    std::exit(1);
  }
}

// One host compilation of kPlainKernel: the best of five, in nanoseconds.
double HostCompileNanoseconds() {
  static const double limit = [] {
    const std::string dir = ScratchDirectory();
    std::ofstream(dir + "/saxpy.cc") << kPlainKernel;
    double best = 1e30;
    for (int i = 0; i < 5; ++i) {
      const double start = NowNanoseconds();
      RunHostCompiler(
          {"-O2", "-fPIC", "-c", dir + "/saxpy.cc", "-o", dir + "/saxpy.o"});
      best = std::min(best, NowNanoseconds() - start);
    }
    return best;
  }();
  return limit;
}

// dlopen plus dlclose of a small shared object: the best of 200 tries.
double DlopenNanoseconds() {
  static const double limit = [] {
    const std::string dir = ScratchDirectory();
    std::ofstream(dir + "/saxpy.cc") << kPlainKernel;
    const std::string library = dir + "/libsaxpy.so";
    RunHostCompiler(
        {"-O2", "-fPIC", "-shared", dir + "/saxpy.cc", "-o", library});
    double best = 1e30;
    for (int i = 0; i < 200; ++i) {
      const double start = NowNanoseconds();
      void* handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (handle == nullptr) {
        std::fprintf(stderr, "dlopen %s: %s\n", library.c_str(), dlerror());
        std::exit(1);
      }
      dlclose(handle);
      best = std::min(best, NowNanoseconds() - start);
    }
    return best;
  }();
  return limit;
}

void BM_RtcCompileSmallKernel(benchmark::State& state) {
  const double limit = HostCompileNanoseconds();
  // The first compilation of the process also loads the compiler (about
  // 100 ms with NVRTC); the benchmark measures the compilations after it.
  static const bool compiler_loaded = (CompileKernel(), true);
  benchmark::DoNotOptimize(compiler_loaded);
  const double per_compile = MeanNanosPerIteration(
      state, [] { benchmark::DoNotOptimize(CompileKernel()); });
  ReportAgainstLimit(state, per_compile, limit, "compile", "host_compile");
}
BENCHMARK(BM_RtcCompileSmallKernel)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_ModuleLoadAndUnload(benchmark::State& state) {
  static const std::vector<char> image = CompileKernel();
  const bool get_function = state.range(0) != 0;
  RequireMc(mcFree(nullptr), "mcFree");  // initializes the runtime
  const double limit = DlopenNanoseconds();
  const double per_load = MeanNanosPerIteration(state, [get_function] {
    mcModule_t module = nullptr;
    RequireMc(mcModuleLoadData(&module, image.data()), "mcModuleLoadData");
    if (get_function) {
      mcFunction_t f = nullptr;
      RequireMc(mcModuleGetFunction(&f, module, "saxpy"),
                "mcModuleGetFunction");
    }
    RequireMc(mcModuleUnload(module), "mcModuleUnload");
  });
  ReportAgainstLimit(state, per_load, limit, "load", "dlopen_dlclose");
}
BENCHMARK(BM_ModuleLoadAndUnload)
    ->ArgName("get_function")
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();

}  // namespace
