// Must not compile: `< <<` is not the opening of a configuration.
// [lang.launch.syntax.chevrons-are-single-tokens]
__global__ void Kernel(int* out) { *out = 1; }
void Run(int* out) { Kernel< <<1, 1>>>(out); }
