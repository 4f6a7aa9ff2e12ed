// Control: the same kernel waiting with mcDeviceSynchronize.
__global__ void Child(int* out) { *out = 1; }
__global__ void Parent(int* out, mcEvent_t event) {
  (void)event;
  Child<<<1, 1>>>(out);
  mcDeviceSynchronize();
}
