// Must not compile: host code calls a memory fence.
// [lang.fence.device-code-only]
void HostPublish(volatile int* flag) {
  __threadfence_system();
  *flag = 1;
}
