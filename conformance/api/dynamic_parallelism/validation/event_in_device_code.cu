// Must not compile on a backend whose device runtime has no events (the
// MXMACA guide's). [api.devrt.event.subset-optional]
__global__ void Child(int* out) { *out = 1; }
__global__ void Parent(int* out) {
  mcEvent_t event;
  mcEventCreateWithFlags(&event, mcEventDisableTiming);
  Child<<<1, 1>>>(out);
}
