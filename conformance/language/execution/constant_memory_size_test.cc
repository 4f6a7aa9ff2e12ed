// Copyright mxcts authors.
//
// Conformance: the size of constant memory
// (docs/spec/lang-variable-spaces.md, lang.variable.constant.size-limit).
// The device reports totalConstMem; a program whose `__constant__`
// variables fit in it loads and reads all of them, up to a 64 KiB table,
// the constant memory of the smallest devices. What happens to a program
// that does not fit is implementation-defined; the reference's constant
// memory is 2 GiB - 1 (reference/runtime/devices/device_config.h), more
// than a test can declare, so that half is not exercised here.

#include <mc_runtime.h>

#include <cstddef>

#include "conformance/testing/managed_buffer.h"
#include "conformance/testing/spec.h"

namespace {

constexpr size_t kTableBytes = 65536 - 64;  // with the scalars, 64 KiB
__constant__ unsigned char big_table[kTableBytes];
__constant__ unsigned long long first_scalar = 0x0123456789abcdefULL;
__constant__ double second_scalar = 2.5;

using mxcts::conformance::ManagedBuffer;

// Sums the table (thread t takes every blockDim.x-th byte) and reads the
// scalars.
__global__ void SumTable(unsigned long long* sums, unsigned long long* first,
                         double* second) {
  unsigned long long sum = 0;
  for (size_t i = threadIdx.x; i < kTableBytes; i += blockDim.x) {
    sum += big_table[i];
  }
  atomicAdd(sums, sum);
  if (threadIdx.x == 0) {
    *first = first_scalar;
    *second = second_scalar;
  }
}

TEST(ConstantMemorySize, VariablesWithinTheLimitLoadAndRead) {
  MX_SPEC("lang.variable.constant.size-limit");
  mcDeviceProp_t properties{};
  ASSERT_EQ(mcGetDeviceProperties(&properties, 0), mcSuccess);
  const size_t declared =
      sizeof(big_table) + sizeof(first_scalar) + sizeof(second_scalar);
  ASSERT_GE(properties.totalConstMem, declared);
  static unsigned char table[kTableBytes];
  unsigned long long expected = 0;
  for (size_t i = 0; i < kTableBytes; ++i) {
    table[i] = static_cast<unsigned char>(i * 7 + 3);
    expected += table[i];
  }
  ASSERT_EQ(mcMemcpyToSymbol(big_table, table, sizeof(table)), mcSuccess);
  ManagedBuffer<unsigned long long> sums(1, 0), first(1, 0);
  ManagedBuffer<double> second(1, 0);
  SumTable<<<1, 256>>>(sums.get(), first.get(), second.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(sums[0], expected);
  EXPECT_EQ(first[0], 0x0123456789abcdefULL);
  EXPECT_EQ(second[0], 2.5);
}

TEST(ConstantMemorySizeControl, ACopyPastTheVariableIsRefused) {
  MX_SPEC("lang.variable.constant.size-limit");
  // The table's size is its symbol's size: one byte more does not fit.
  size_t size = 0;
  ASSERT_EQ(mcGetSymbolSize(&size, big_table), mcSuccess);
  EXPECT_EQ(size, kTableBytes);
  static unsigned char one_more[kTableBytes + 1];
  EXPECT_EQ(mcMemcpyToSymbol(big_table, one_more, sizeof(one_more)),
            mcErrorInvalidValue);
}

}  // namespace
