// Copyright mxcts authors.
//
// __forceinline__ functions defined in a header that two sources of
// forceinline_test include: as inline functions, their definitions may
// appear in both, and the program links
// [lang.function.inline.forceinline].

#ifndef MXCTS_CONFORMANCE_LANGUAGE_EXECUTION_FORCEINLINE_FUNCTIONS_H_
#define MXCTS_CONFORMANCE_LANGUAGE_EXECUTION_FORCEINLINE_FUNCTIONS_H_

__forceinline__ __device__ int ForcedCube(int x) { return x * x * x; }

__forceinline__ __host__ __device__ int ForcedMix(int a, int b) {
  return 3 * a - b;
}

// Runs, in a kernel of the other source, ForcedCube and ForcedMix over
// `count` values from 0, into out[0 .. 2 * count).
void RunForcedInOtherSource(int* out, int count);

#endif  // MXCTS_CONFORMANCE_LANGUAGE_EXECUTION_FORCEINLINE_FUNCTIONS_H_
