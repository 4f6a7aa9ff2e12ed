// Copyright mxcts authors.
//
// A small MXMACA source whose device image (mxcc --offload-device-only, the
// :testdata/libtest_image.so rule) the runtime's image tests load by hand.
// Its device code calls no engine service and reads no built-in variable,
// so it runs under any grid runner.
//
// Kernels (keys in the form KernelKey produces):
//   count(int* counter)              each thread adds 1 to *counter
//   read_variables(int* out)         out[0] = device_var, out[1] = managed_var
//   bump_managed()                   each thread adds 1 to managed_var
//   mixed(char c, double d, int* out)  *out = c + (int)d
// Variables, in this order (record 0, 1, 2):
//   device_var = 7                   __device__
//   ns::constant_table = {1,2,3,4}   __constant__ float[4]
//   managed_var = 40                 __managed__

#include <mc_runtime.h>

__device__ int device_var = 7;

namespace ns {
__constant__ float constant_table[4] = {1, 2, 3, 4};
}  // namespace ns

__managed__ int managed_var = 40;

__global__ void count(int* counter) {
  __atomic_fetch_add(counter, 1, __ATOMIC_RELAXED);
}

__global__ void read_variables(int* out) {
  out[0] = device_var;
  out[1] = managed_var;
}

__global__ void bump_managed() { ++managed_var; }

__global__ void mixed(char c, double d, int* out) {
  *out = c + static_cast<int>(d);
}
