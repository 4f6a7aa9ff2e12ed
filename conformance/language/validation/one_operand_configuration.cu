// Must not compile: an execution configuration with one operand.
// [lang.launch.syntax.fewer-than-two-operands-is-error]
__global__ void Kernel(int* out) { *out = 1; }
void Run(int* out) { Kernel<<<1>>>(out); }
