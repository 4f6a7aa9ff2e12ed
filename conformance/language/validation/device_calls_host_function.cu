// Must not compile: device code calls a host-only function.
// [lang.function.call.device-calls-host-only]
int HostOnlyTwice(int x) { return 2 * x; }
__global__ void Kernel(int* out) { *out = HostOnlyTwice(*out); }
