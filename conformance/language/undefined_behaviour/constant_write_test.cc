// Copyright mxcts authors.
//
// Conformance: device code that writes a __constant__ variable
// (docs/spec/lang-undefined-behaviour.md, lang.ub.memory.constant-write).
// The behaviour is undefined; the tests check what the spec says the
// reference does: a trap with mcErrorIllegalAddress whose diagnostic names
// the variable. The controls read the same variables after the host wrote
// them with mcMemcpyToSymbol, and write a __device__ variable the same way.

#include <mc_runtime.h>

#include <cstddef>
#include <string>

#include "conformance/testing/spec.h"
#include "conformance/testing/trap_expectation.h"

struct Params {
  int count;
  float scale[3];
};

// At namespace scope, so that diagnostics name them plainly.
__constant__ int c_int = 5;
__constant__ float c_floats[16] = {1, 2, 3};
__constant__ double c_double = 2.5;
__constant__ Params c_params = {1, {2, 3, 4}};
const __constant__ int c_const = 9;
__device__ int d_int = 5;

namespace tables {
__constant__ unsigned char c_bytes[300];
}  // namespace tables

namespace {

// Writes through an address taken in device code.
__global__ void WriteIntDirectly(int value) {
  if (threadIdx.x == 3) *reinterpret_cast<volatile int*>(&c_int) = value;
}

__global__ void WriteConstIntDirectly(int value) {
  if (threadIdx.x == 0) {
    *const_cast<volatile int*>(
        reinterpret_cast<const volatile int*>(&c_const)) = value;
  }
}

// Writes through an address the host got from mcGetSymbolAddress.
template <typename T>
__global__ void WriteThrough(T* target, T value) {
  if (threadIdx.x == 0) *reinterpret_cast<volatile T*>(target) = value;
}

template <typename T>
mcError_t WriteSymbol(const void* symbol, size_t offset, T value) {
  void* address = nullptr;
  if (mcGetSymbolAddress(&address, symbol) != mcSuccess) return mcErrorUnknown;
  WriteThrough<T><<<1, 4>>>(
      reinterpret_cast<T*>(static_cast<char*>(address) + offset), value);
  return mcDeviceSynchronize();
}

mcError_t WriteInt() {
  WriteIntDirectly<<<1, 8>>>(7);
  return mcDeviceSynchronize();
}

mcError_t WriteConstInt() {
  WriteConstIntDirectly<<<1, 8>>>(7);
  return mcDeviceSynchronize();
}

struct ConstantWrite {
  const char* name;
  mcError_t (*write)();
};

class ConstantWriteTraps : public testing::TestWithParam<ConstantWrite> {};

TEST_P(ConstantWriteTraps, NamingTheVariable) {
  MX_SPEC("lang.ub.memory.constant-write", "api.trap.error.illegal-address",
          "api.trap.diagnostic.content");
  const std::string pattern =
      std::string("write to __constant__ variable '") + GetParam().name + "'";
  MX_EXPECT_TRAP(GetParam().write(), mcErrorIllegalAddress, pattern.c_str());
}

INSTANTIATE_TEST_SUITE_P(
    Variables, ConstantWriteTraps,
    testing::Values(
        ConstantWrite{"c_int", &WriteInt},
        ConstantWrite{"c_const", &WriteConstInt},
        ConstantWrite{"c_floats",
                      [] { return WriteSymbol<float>(&c_floats, 0, 1.5f); }},
        ConstantWrite{"c_floats",
                      [] {
                        return WriteSymbol<float>(&c_floats, 15 * sizeof(float),
                                                  1.5f);
                      }},
        ConstantWrite{"c_double",
                      [] { return WriteSymbol<double>(&c_double, 0, 1.0); }},
        ConstantWrite{"c_params",
                      [] {
                        return WriteSymbol<float>(
                            &c_params, offsetof(Params, scale) + 8, 1.0f);
                      }},
        ConstantWrite{"tables::c_bytes", [] {
                        return WriteSymbol<unsigned char>(&tables::c_bytes, 299,
                                                          1);
                      }}));

// --- Controls. ---

__global__ void ReadConstants(float* out) {
  if (threadIdx.x != 0) return;
  out[0] = static_cast<float>(c_int);
  out[1] = c_floats[15];
  out[2] = static_cast<float>(c_double);
  out[3] = c_params.scale[2];
  out[4] = static_cast<float>(c_const);
  out[5] = static_cast<float>(tables::c_bytes[299]);
}

mcError_t ReadInto(float* host) {
  float* out = nullptr;
  if (mcMalloc(&out, 6 * sizeof(float)) != mcSuccess) return mcErrorUnknown;
  ReadConstants<<<1, 32>>>(out);
  const mcError_t error = mcDeviceSynchronize();
  if (error == mcSuccess) {
    mcMemcpy(host, out, 6 * sizeof(float), mcMemcpyDeviceToHost);
  }
  mcFree(out);
  return error;
}

TEST(ConstantWriteControl, KernelThatOnlyReadsRuns) {
  MX_SPEC("lang.ub.memory.constant-write");
  float read[6] = {};
  MX_EXPECT_NO_TRAP(ReadInto(read));
  EXPECT_EQ(read[0], 5.0f);
  EXPECT_EQ(read[1], 0.0f);
  EXPECT_EQ(read[2], 2.5f);
  EXPECT_EQ(read[3], 4.0f);
  EXPECT_EQ(read[4], 9.0f);
  EXPECT_EQ(read[5], 0.0f);
}

TEST(ConstantWriteControl, HostWritesBetweenKernelsAreSeen) {
  // Constant memory is written from the host, with the symbol copies.
  MX_SPEC("lang.ub.memory.constant-write");
  float read[6] = {};
  ASSERT_EQ(ReadInto(read), mcSuccess);
  const int new_int = 11;
  const float new_float = 6.5f;
  const unsigned char new_byte = 200;
  ASSERT_EQ(mcMemcpyToSymbol(c_int, &new_int, sizeof(new_int)), mcSuccess);
  ASSERT_EQ(mcMemcpyToSymbol(c_floats, &new_float, sizeof(new_float),
                             15 * sizeof(float)),
            mcSuccess);
  ASSERT_EQ(mcMemcpyToSymbol(tables::c_bytes, &new_byte, 1, 299), mcSuccess);
  MX_EXPECT_NO_TRAP(ReadInto(read));
  EXPECT_EQ(read[0], 11.0f);
  EXPECT_EQ(read[1], 6.5f);
  EXPECT_EQ(read[5], 200.0f);
  const int old_int = 5;
  EXPECT_EQ(mcMemcpyToSymbol(c_int, &old_int, sizeof(old_int)), mcSuccess);
}

TEST(ConstantWriteControl, TheSameWriteToADeviceVariableRuns) {
  MX_SPEC("lang.ub.memory.constant-write");
  MX_EXPECT_NO_TRAP(WriteSymbol<int>(&d_int, 0, 42));
  int value = 0;
  ASSERT_EQ(mcMemcpyFromSymbol(&value, d_int, sizeof(value)), mcSuccess);
  EXPECT_EQ(value, 42);
}

}  // namespace
