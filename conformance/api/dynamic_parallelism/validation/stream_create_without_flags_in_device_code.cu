// Must not compile: device code creates streams with
// mcStreamCreateWithFlags only. [api.devrt.stream.synchronize-not-in-device-code]
__global__ void Child(int* out) { *out = 1; }
__global__ void Parent(int* out) {
  mcStream_t stream;
  mcStreamCreate(&stream);
  Child<<<1, 1>>>(out);
}
