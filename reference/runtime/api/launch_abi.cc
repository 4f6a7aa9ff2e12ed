// Copyright mxcts authors.
//
// The runtime side of mcr/detail/launch_abi.h: what translated MXMACA code
// calls. PushLaunchConfiguration and LaunchFromStubArgs implement
// `k<<<g, b, ns, s>>>(a)` as `(PushLaunchConfiguration(g, b, ns, s), k(a))`
// with the stub of `k` popping the configuration; the Register functions run
// during static initialization and fill the image registry. A unit compiled
// with the per-thread default stream passes that choice with each
// configuration, so its `k<<<g, b>>>` goes to the launching thread's
// per-thread default stream.
//
// Tested by launch_abi_test.cc.

#include "mcr/detail/launch_abi.h"

#include <cstdio>
#include <cstdlib>

#include "reference/runtime/api/api_entry.h"
#include "reference/runtime/api/capture_routing.h"
#include "reference/runtime/errors/status_macros.h"
#include "reference/runtime/host_thread/thread_state.h"
#include "reference/runtime/images/image_registry.h"
#include "reference/runtime/launch/launcher.h"

namespace __mc_internal {

void PushLaunchConfiguration(dim3 grid, dim3 block, size_t shared_bytes,
                             mcStream_t stream,
                             bool per_thread_default_stream) {
  // [api.sync.per-thread.compile-option-selects]: the launching unit says
  // what its stream 0 names.
  if (stream == nullptr && per_thread_default_stream) {
    stream = mcStreamPerThread;
  }
  mxcts::runtime::ThreadState::Current().PushConfiguration(
      {grid, block, shared_bytes, stream});
}

mcError_t LaunchFromStubArgs(const void* host_stub, void** args) {
  // [api.error.last.launch-error-recorded]
  return mxcts::runtime::RunApi(
      [&]() -> absl::Status {
        MX_ASSIGN_OR_RETURN(
            mxcts::runtime::LaunchConfiguration configuration,
            mxcts::runtime::ThreadState::Current().PopConfiguration());
        // [api.graph.capture.records-instead-of-executing]
        return mxcts::runtime::LaunchOrCapture(
            {host_stub, configuration.grid, configuration.block, args,
             configuration.shared_bytes, configuration.stream});
      },
      "the <<<>>> launch");
}

bool RegisterKernel(const ImageBlob* image, const void* host_stub,
                    const char* key) {
  mxcts::runtime::ImageRegistry::Get().RegisterKernel(image, host_stub, key);
  return true;
}

bool RegisterDeviceVariable(const ImageBlob* image, const void* shadow,
                            const char* key, size_t size, unsigned flags) {
  mxcts::runtime::ImageRegistry::Get().RegisterDeviceVariable(image, shadow,
                                                              key, size, flags);
  return true;
}

void* RegisterManagedVariable(const ImageBlob* image, const char* key,
                              size_t size) {
  absl::StatusOr<void*> address =
      mxcts::runtime::ImageRegistry::Get().RegisterManagedVariable(image, key,
                                                                   size);
  if (!address.ok()) {
    // The program cannot run without the variable's storage: its host code
    // holds a reference to it from static initialization on.
    std::fprintf(stderr, "mxcts runtime: __managed__ variable '%s': %s\n", key,
                 std::string(address.status().message()).c_str());
    std::abort();
  }
  return *address;
}

}  // namespace __mc_internal
