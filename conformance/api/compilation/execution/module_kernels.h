// The device source the module tests compile once per test program, and
// the fixture that holds its image (api-compilation.md, "Modules").

#ifndef MXCTS_CONFORMANCE_API_COMPILATION_EXECUTION_MODULE_KERNELS_H_
#define MXCTS_CONFORMANCE_API_COMPILATION_EXECUTION_MODULE_KERNELS_H_

#include <mc_runtime.h>

#include <string>
#include <vector>

#include "conformance/api/testing/rtc_module.h"
#include "conformance/testing/capabilities.h"

namespace mxcts::conformance {

inline constexpr char kModuleSource[] = R"(
extern "C" __global__ void fill(int* out, int value, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = value + i;
}
extern "C" __global__ void no_arguments() {}
struct Pair { char tag; double value; };
extern "C" __global__ void mixed(double* out, char c, Pair p, short s, long long l) {
  out[0] = c; out[1] = p.tag; out[2] = p.value; out[3] = s; out[4] = static_cast<double>(l);
}
extern "C" __global__ void __launch_bounds__(64) bounded(int* out) {
  out[threadIdx.x] = 1;
}
extern "C" __global__ void reverse_dynamic(int* out) {
  extern __shared__ int buffer[];
  buffer[threadIdx.x] = threadIdx.x * 2;
  __syncthreads();
  out[threadIdx.x] = buffer[blockDim.x - 1 - threadIdx.x];
}
extern "C" __global__ void static_shared(int* out) {
  __shared__ int s[256];
  s[threadIdx.x] = threadIdx.x + 1;
  __syncthreads();
  out[threadIdx.x] = s[(threadIdx.x + 1) % blockDim.x];
}
extern "C" __global__ void dims(unsigned* out) {
  if (threadIdx.x + threadIdx.y + threadIdx.z + blockIdx.x + blockIdx.y + blockIdx.z == 0) {
    out[0] = gridDim.x; out[1] = gridDim.y; out[2] = gridDim.z;
    out[3] = blockDim.x; out[4] = blockDim.y; out[5] = blockDim.z;
  }
  atomicAdd(&out[6], 1u);
}
__device__ int counter = 42;
__constant__ float table[4] = {1.5f, 2.5f, 3.5f, 4.5f};
namespace ns { __device__ long long total = 7; }
extern "C" __global__ void bump_counter(int* out) { out[0] = counter; counter += 1; }
extern "C" __global__ void read_table(float* out) { out[threadIdx.x] = table[threadIdx.x]; }
extern "C" __global__ void read_total(long long* out) { out[0] = ns::total; }
__global__ void cpp_kernel(int* out) { out[0] = 5; }
)";

// The image of kModuleSource, compiled once per test program.
class ModuleImage : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (compiled_ == nullptr) {
      compiled_ =
          new CompiledProgram(CompileProgram(kModuleSource, "module.cu"));
    }
  }
  void SetUp() override {
    MX_REQUIRE_CAPABILITY("runtime_compilation");
    ASSERT_EQ(compiled_->result, MCRTC_SUCCESS) << compiled_->log;
  }
  static const std::vector<char>& Image() { return compiled_->image; }
  static inline CompiledProgram* compiled_ = nullptr;
};

}  // namespace mxcts::conformance

#endif  // MXCTS_CONFORMANCE_API_COMPILATION_EXECUTION_MODULE_KERNELS_H_
