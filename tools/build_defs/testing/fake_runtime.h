// Copyright mxcts authors.
//
// The fake backend's runtime library: what programs built with the fake
// backend link, as real programs link libmcruntime.
#ifndef MXCTS_TOOLS_BUILD_DEFS_TESTING_FAKE_RUNTIME_H_
#define MXCTS_TOOLS_BUILD_DEFS_TESTING_FAKE_RUNTIME_H_

namespace mxcts::fake_backend {

// Returns the number of devices the fake runtime presents: 1.
int DeviceCount();

}  // namespace mxcts::fake_backend

#endif  // MXCTS_TOOLS_BUILD_DEFS_TESTING_FAKE_RUNTIME_H_
