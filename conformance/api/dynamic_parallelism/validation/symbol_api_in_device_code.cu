// Must not compile: device code calls a symbol API, which the device
// runtime does not offer. [api.devrt.api.symbol-apis-not-in-device-code]
__device__ int value;
__global__ void Child(int* out) { *out = value; }
__global__ void Parent(int* out, int v) {
  mcMemcpyToSymbol(value, &v, sizeof(v));
  Child<<<1, 1>>>(out);
}
