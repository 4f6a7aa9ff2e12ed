// Must not compile: a reduction whose mask is an unsuffixed literal of
// type int converts equally well to the 32-bit and the 64-bit mask forms.
// [lang.wave.reduce.inexact-mask-type]
__global__ void SumWithIntMask(int* out) {
  const int value = 1;
  out[threadIdx.x] = __reduce_add_sync(0xFFFF, value);
}
