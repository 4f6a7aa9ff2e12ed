// Must not compile: __syncthreads_and() called from host code.
// [lang.sync.syncthreads.device-code-only]
int HostFunction(int x) {
  return __syncthreads_and(x);
}
int main() { return HostFunction(1); }
