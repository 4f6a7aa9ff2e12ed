// Must not compile: <<<>>> after a function that is not a kernel.
// [lang.launch.configuration-on-non-kernel]
void HostFunction(int* out) { *out = 1; }
void Run(int* out) { HostFunction<<<1, 1>>>(out); }
