// Control: the same kernels, the child launched from host code.
__global__ void Child(int* out) { *out = 1; }
__global__ void Parent(int* out) { *out = 0; }
void LaunchBoth(int* out) {
  Parent<<<1, 1>>>(out);
  Child<<<1, 1>>>(out);
}
