// Must not compile: a __managed__ variable of const-qualified type.
// [lang.variable.managed.not-const-or-reference]
__managed__ const int limit = 4;
__global__ void Kernel(int* out) { *out = limit; }
