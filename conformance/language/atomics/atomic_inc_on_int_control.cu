// Control of atomic_inc_on_int.cu: the counter is unsigned int.
// [lang.atomic.incdec.unsigned-only]
__global__ void Kernel(unsigned int* counter) { atomicInc(counter, 10u); }
