// Must not compile: host code calls an atomic function.
// [lang.atomic.general.device-code-only]
int HostCount(int* counter) { return atomicAdd(counter, 1); }
