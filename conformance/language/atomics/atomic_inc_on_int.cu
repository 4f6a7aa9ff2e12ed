// Must not compile: atomicInc exists only for unsigned int.
// [lang.atomic.general.unsupported-type-rejected]
// [lang.atomic.incdec.unsigned-only]
__global__ void Kernel(int* counter) { atomicInc(counter, 10); }
