// Copyright mxcts authors.
//
// The fake backend's one SDK header. Tests include it as <fake_sdk.h>; it is
// found only through the driver's --maca-path, as a real SDK's headers are.
#ifndef MXCTS_TOOLS_BUILD_DEFS_TESTING_FAKE_SDK_H_
#define MXCTS_TOOLS_BUILD_DEFS_TESTING_FAKE_SDK_H_

// The version the fake SDK reports.
#define FAKE_SDK_VERSION 7

#endif  // MXCTS_TOOLS_BUILD_DEFS_TESTING_FAKE_SDK_H_
