// Copyright mxcts authors.
//
// The device code that rdc_library.cc defines for relocatable_device_code_
// test.cc (api.compile.mxcc.relocatable-device-code): a device function, a
// __device__ counter, a __constant__ table and a __managed__ value used by
// kernels of the other source, and a host function that launches the
// library's own kernels.

#ifndef MXCTS_CONFORMANCE_API_COMPILATION_EXECUTION_RDC_LIBRARY_H_
#define MXCTS_CONFORMANCE_API_COMPILATION_EXECUTION_RDC_LIBRARY_H_

// 10 * x + 1.
__device__ int RdcScale(int x);

// Starts at 100; LibraryCountKernel adds 1 per thread.
extern __device__ int rdc_counter;

// {2, 3, 5, 7}.
extern __constant__ int rdc_table[4];

// Starts at 40.
extern __managed__ int rdc_managed;

// Launches the library's kernel that adds 1 to rdc_counter from `threads`
// threads, and waits for it.
void LaunchLibraryCount(int threads);

// Launches the library's own `static` kernel ReadPrivate, which stores the
// library's `static` device variable rdc_private (2) at *out, and waits.
void LaunchLibraryReadPrivate(int* out);

#endif  // MXCTS_CONFORMANCE_API_COMPILATION_EXECUTION_RDC_LIBRARY_H_
