// Must not compile: mcStreamSynchronize is not part of the device runtime.
// [api.devrt.stream.synchronize-not-in-device-code]
__global__ void Child(int* out) { *out = 1; }
__global__ void Parent(int* out) {
  Child<<<1, 1>>>(out);
  mcStreamSynchronize(0);
}
