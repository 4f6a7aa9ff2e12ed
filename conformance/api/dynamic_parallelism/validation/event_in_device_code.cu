// Must not compile on the reference: device code creates an event; the
// reference's device runtime has none. [api.devrt.event.subset-optional]
__global__ void Child(int* out) { *out = 1; }
__global__ void Parent(int* out) {
  mcEvent_t event;
  mcEventCreateWithFlags(&event, mcEventDisableTiming);
  Child<<<1, 1>>>(out);
}
