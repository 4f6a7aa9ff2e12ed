// Control: the same kernel without the timing.
__global__ void Parent(float* out, mcEvent_t start, mcEvent_t end) {
  (void)start;
  (void)end;
  *out = 0;
}
