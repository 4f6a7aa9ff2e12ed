// Must not compile on a backend whose device runtime has only the NULL
// stream (the MXMACA guide's). [api.devrt.stream.named-streams-optional]
// The reference claims device_streams: unsupported there.
__global__ void Child(int* out) { *out = 1; }
__global__ void Parent(int* out) {
  mcStream_t stream;
  mcStreamCreateWithFlags(&stream, mcStreamNonBlocking);
  Child<<<1, 1, 0, stream>>>(out);
}
