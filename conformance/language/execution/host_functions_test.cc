// Copyright mxcts authors.
//
// Conformance: __host__ functions and functions without an execution space
// specifier (docs/spec/lang-function-spaces.md, lang.function.host.*): they
// run on the host, where they use what only the host has (the process's
// own memory, the C library, the operating system), and a function
// declared __host__ may be redefined without the specifier, as the same
// function. Their counterpart, device code calling them, is rejected at
// build time (../validation: device_calls_host_function,
// device_calls_c_library).

#include <mc_runtime.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "conformance/testing/spec.h"

namespace {

int host_counter = 0;

__host__ int CountOnHost(int step) {
  host_counter += step;
  return host_counter;
}

// Declared __host__, defined without a specifier: one function, since a
// function without a specifier is a host function.
__host__ std::string Describe(int value);
std::string Describe(int value) { return "value " + std::to_string(value); }

// No specifier: uses the operating system and the C library.
pid_t ProcessId() { return getpid(); }

__host__ __device__ int Square(int x) { return x * x; }

__global__ void SquareOnDevice(int* out) { *out = Square(9); }

TEST(HostFunctions, HostFunctionRunsInTheHostProcess) {
  MX_SPEC("lang.function.host.runs-on-host");
  host_counter = 0;
  EXPECT_EQ(CountOnHost(3), 3);
  EXPECT_EQ(CountOnHost(4), 7);
  // It changed the process's own variable, not a device copy.
  EXPECT_EQ(host_counter, 7);
  // Control: device work does not touch it.
  int* out = nullptr;
  ASSERT_EQ(mcMallocManaged(&out, sizeof(int)), mcSuccess);
  SquareOnDevice<<<1, 1>>>(out);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(*out, Square(9));
  EXPECT_EQ(host_counter, 7);
  mcFree(out);
}

TEST(HostFunctions, FunctionWithoutSpecifierIsAHostFunction) {
  MX_SPEC("lang.function.host.default-space",
          "lang.function.host.runs-on-host");
  // Runs in this process: the operating system's answer is this process's.
  EXPECT_EQ(ProcessId(), getpid());
  EXPECT_GT(ProcessId(), 0);
  // The __host__ declaration and the definition without it are one
  // function: the call links and runs the definition.
  EXPECT_EQ(Describe(12), "value 12");
  EXPECT_NE(Describe(13), Describe(12));
  // The C and C++ libraries are host functions too.
  EXPECT_EQ(std::abs(-5), 5);
}

}  // namespace
