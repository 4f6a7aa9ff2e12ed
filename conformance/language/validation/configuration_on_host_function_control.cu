// Control of configuration_on_host_function.cu: an ordinary call is fine.
void HostFunction(int* out) { *out = 1; }
void Run(int* out) { HostFunction(out); }
