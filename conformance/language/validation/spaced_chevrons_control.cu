// Control of spaced_chevrons.cu: `<<<` written as one token.
__global__ void Kernel(int* out) { *out = 1; }
void Run(int* out) { Kernel<<<1, 1>>>(out); }
