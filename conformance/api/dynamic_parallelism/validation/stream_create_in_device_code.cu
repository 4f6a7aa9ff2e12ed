// Must not compile on the reference: device code creates a stream; the
// reference's device runtime has only the NULL stream.
// [api.devrt.stream.named-streams-optional]
__global__ void Child(int* out) { *out = 1; }
__global__ void Parent(int* out) {
  mcStream_t stream;
  mcStreamCreateWithFlags(&stream, mcStreamNonBlocking);
  Child<<<1, 1, 0, stream>>>(out);
}
