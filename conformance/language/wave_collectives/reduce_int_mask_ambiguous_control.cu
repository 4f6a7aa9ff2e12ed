// Control of reduce_int_mask_ambiguous.cu: with an unsigned long mask the
// 64-bit form is chosen, and the call compiles.
// [lang.wave.reduce.inexact-mask-type]
__global__ void SumWithIntMask(int* out) {
  const int value = 1;
  out[threadIdx.x] = __reduce_add_sync(0xFFFFul, value);
}
