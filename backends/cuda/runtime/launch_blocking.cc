// Copyright mxcts authors.
//
// MACA_LAUNCH_BLOCKING=1 at process start makes every launch and
// asynchronous operation complete before its call returns
// [api.sync.launch-blocking.makes-launches-synchronous]
// [model.async.launch-blocking-env]. CUDA has the same switch under its
// own name, CUDA_LAUNCH_BLOCKING, read when the CUDA runtime first
// initializes; triple-chevron launches reach CUDA without passing the
// adapter, so the switch is forwarded before main, ahead of any CUDA call.
// A CUDA_LAUNCH_BLOCKING the program's environment already sets is kept.
// (This file's library is linked whole: nothing refers to it.)

#include <cstdlib>
#include <cstring>

namespace mxcts::cuda_backend {
namespace {

struct LaunchBlockingForwarder {
  LaunchBlockingForwarder() {
    const char* maca = std::getenv("MACA_LAUNCH_BLOCKING");
    if (maca != nullptr && std::strcmp(maca, "1") == 0) {
      setenv("CUDA_LAUNCH_BLOCKING", "1", /*overwrite=*/0);
    }
  }
};

const LaunchBlockingForwarder forwarder;

}  // namespace
}  // namespace mxcts::cuda_backend
