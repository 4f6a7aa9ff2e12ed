// Control of fence_in_host_code.cu: the fence is in a kernel.
// [lang.fence.device-code-only]
__global__ void Publish(volatile int* flag) {
  __threadfence_system();
  *flag = 1;
}
