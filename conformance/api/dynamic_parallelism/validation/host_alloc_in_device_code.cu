// Must not compile: device code cannot allocate mapped host memory.
// [api.devrt.memory.zero-copy-same-as-global]
__global__ void Child(int* out) { *out = 1; }
__global__ void Parent() {
  int* mapped = nullptr;
  mcHostAlloc(reinterpret_cast<void**>(&mapped), sizeof(int),
              mcHostAllocMapped);
  Child<<<1, 1>>>(mapped);
}
