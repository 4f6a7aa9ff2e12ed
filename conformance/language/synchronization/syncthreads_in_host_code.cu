// Must not compile: __syncthreads() called from host code.
// [lang.sync.syncthreads.device-code-only]
void HostFunction() {
  __syncthreads();
}
int main() {
  HostFunction();
  return 0;
}
