// Must not compile: device code has no event timing.
// [api.devrt.event.subset-optional]
__global__ void Parent(float* out, mcEvent_t start, mcEvent_t end) {
  mcEventElapsedTime(out, start, end);
}
