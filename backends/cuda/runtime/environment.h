// Copyright mxcts authors.
//
// The MXMACA environment variables that CUDA itself implements, handed to
// CUDA (docs/spec/api-environment.md, "Device enumeration" and "Execution
// control"). CUDA reads its own variables once, when it initializes: which
// devices are visible and their order (CUDA_VISIBLE_DEVICES,
// CUDA_DEVICE_ORDER) and whether launches block (CUDA_LAUNCH_BLOCKING). The
// adapter sets them from MACA_VISIBLE_DEVICES, MACA_DEVICE_ORDER and
// MACA_LAUNCH_BLOCKING before CUDA's first call, so the MXMACA variables
// rule the devices and launches a program sees, as in MXMACA; with an
// MXMACA variable unset, CUDA's variable stays as the process was started
// with it (the machine's own choice of devices).
//
// When: at program start (for a program whose first runtime call CUDA sees
// directly, a `<<<...>>>` launch, which nvcc compiles into CUDA's calls), and
// again at the adapter's first call that can initialize CUDA, with the
// values of that moment [api.env.general.read-at-initialization]. The
// translated values stay in the process's environment, so child processes
// inherit them as they inherit the MXMACA variables.

#ifndef MXCTS_BACKENDS_CUDA_RUNTIME_ENVIRONMENT_H_
#define MXCTS_BACKENDS_CUDA_RUNTIME_ENVIRONMENT_H_

#include <string>

namespace mxcts::cuda_backend {

// Sets CUDA's variables from the MXMACA variables as they are now; does
// something only on the first call of the process (every adapter entry that
// may be a program's first runtime call makes it before it calls CUDA).
void ApplyEnvironment();

// Whether MACA_LAUNCH_BLOCKING was 1 when the environment was applied: all
// work the adapter enqueues then completes before its call returns
// [model.async.launch-blocking-env], which CUDA_LAUNCH_BLOCKING does only
// for launches; launch_blocking.h waits for the rest.
bool LaunchBlocking();

// The CUDA_VISIBLE_DEVICES value for a MACA_VISIBLE_DEVICES value: the
// entries up to the first that is neither a decimal index nor a UUID written
// GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx, or that repeats an earlier one
// as written [api.env.visible-devices.invalid-entry-truncates,
// api.env.visible-devices.duplicate-entry]; UUIDs in lower case, the case
// CUDA's own UUID entries are written in [api.env.visible-devices.uuid-
// entries]. Entries that need the devices to judge (an index past the last
// device, an unknown UUID, a UUID naming the device of an earlier index)
// are left for CUDA to judge: the devices are not known before CUDA has
// read the list.
std::string CudaVisibleDevices(const std::string& maca_value);

}  // namespace mxcts::cuda_backend

#endif  // MXCTS_BACKENDS_CUDA_RUNTIME_ENVIRONMENT_H_
