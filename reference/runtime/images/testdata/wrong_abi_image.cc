// Copyright mxcts authors.
//
// A device image that binds with the wrong ABI version, for the loader's
// tests: the runtime must refuse it.

#include "reference/device/image/image_abi.h"

extern "C" __attribute__((visibility("default"))) unsigned __mc_image_bind(
    const __mc_image_runtime*) {
  return MC_IMAGE_ABI_VERSION + 1;
}
