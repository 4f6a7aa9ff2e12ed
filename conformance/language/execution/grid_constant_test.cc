// Copyright mxcts authors.
//
// Conformance: `__grid_constant__` kernel parameters
// (docs/spec/lang-variable-spaces.md, "__grid_constant__"): a `const`
// by-value parameter so annotated holds the launch argument, and every
// thread of the grid that takes its address gets the same address (one
// object per grid). The control takes the address of an automatic variable
// the same way, which differs per thread, so the address check can fail.

#include <mc_runtime.h>

#include "conformance/testing/managed_buffer.h"
#include "conformance/testing/spec.h"

namespace {

using mxcts::conformance::ManagedBuffer;

struct Table {
  int scale;
  int entries[250];  // about 1 KiB, larger than any register file slice
};

__global__ void ReadTable(__grid_constant__ const Table table, int* out) {
  const int id = blockIdx.x * blockDim.x + threadIdx.x;
  out[id] = table.scale * table.entries[id % 250];
}

__global__ void TableAddress(__grid_constant__ const Table table,
                             unsigned long long* out) {
  const Table* address = &table;
  out[blockIdx.x * blockDim.x + threadIdx.x] =
      reinterpret_cast<unsigned long long>(address);
}

__global__ void ScalarAddress(__grid_constant__ const int value,
                              unsigned long long* out, int* read) {
  const int id = blockIdx.x * blockDim.x + threadIdx.x;
  const int* address = &value;
  out[id] = reinterpret_cast<unsigned long long>(address);
  read[id] = *address;
}

__global__ void AutomaticAddress(unsigned long long* out) {
  int local = threadIdx.x;
  volatile int* address = &local;
  out[blockIdx.x * blockDim.x + threadIdx.x] =
      reinterpret_cast<unsigned long long>(address);
  __syncthreads();
  (void)*address;
}

Table MakeTable(int scale) {
  Table table{};
  table.scale = scale;
  for (int i = 0; i < 250; ++i) table.entries[i] = i * 3 + 1;
  return table;
}

TEST(GridConstant, HoldsTheLaunchArgument) {
  MX_SPEC("lang.variable.grid-constant.const-kernel-parameter");
  const int blocks = 3, threads = 128;
  ManagedBuffer<int> out(blocks * threads, 0xff);
  ReadTable<<<blocks, threads>>>(MakeTable(2), out.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (int i = 0; i < blocks * threads; ++i) {
    EXPECT_EQ(out[i], 2 * ((i % 250) * 3 + 1)) << "thread " << i;
  }
  // A second launch with another argument sees its own value.
  ReadTable<<<blocks, threads>>>(MakeTable(-1), out.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(out[5], -16);
}

TEST(GridConstant, EveryThreadOfTheGridSeesOneAddress) {
  MX_SPEC("lang.variable.grid-constant.same-address-in-grid");
  const int blocks = 4, threads = 64;
  ManagedBuffer<unsigned long long> table_addresses(blocks * threads, 0);
  ManagedBuffer<unsigned long long> scalar_addresses(blocks * threads, 0);
  ManagedBuffer<int> read(blocks * threads, 0xff);
  TableAddress<<<blocks, threads>>>(MakeTable(1), table_addresses.get());
  ScalarAddress<<<blocks, threads>>>(42, scalar_addresses.get(), read.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  ASSERT_NE(table_addresses[0], 0u);
  ASSERT_NE(scalar_addresses[0], 0u);
  for (int i = 1; i < blocks * threads; ++i) {
    EXPECT_EQ(table_addresses[i], table_addresses[0]) << "thread " << i;
    EXPECT_EQ(scalar_addresses[i], scalar_addresses[0]) << "thread " << i;
    EXPECT_EQ(read[i], 42) << "thread " << i;
  }
}

TEST(GridConstantControl, AnAutomaticVariableHasAnAddressPerThread) {
  MX_SPEC("lang.variable.grid-constant.same-address-in-grid");
  const int threads = 64;
  ManagedBuffer<unsigned long long> addresses(threads, 0);
  AutomaticAddress<<<1, threads>>>(addresses.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  int differing = 0;
  for (int i = 1; i < threads; ++i) differing += addresses[i] != addresses[0];
  EXPECT_EQ(differing, threads - 1);
}

}  // namespace
