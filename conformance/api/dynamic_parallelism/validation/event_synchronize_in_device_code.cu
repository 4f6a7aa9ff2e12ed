// Must not compile: device code has no host-style event waits.
// [api.devrt.event.subset-optional]
__global__ void Child(int* out) { *out = 1; }
__global__ void Parent(int* out, mcEvent_t event) {
  Child<<<1, 1>>>(out);
  mcEventSynchronize(event);
}
