// Copyright mxcts authors.
//
// installation.h: the MXMACA installation (MACA_PATH) mxcc compiles against.
//
// An installation is laid out as the real SDK's
// [api.compile.mxcc.install-layout] [api.env.maca-path.installation]:
//
//   $MACA_PATH/mxgpu_llvm/bin/mxcc   this driver
//   $MACA_PATH/include/              the MXMACA headers (mc_runtime.h, mcr/...)
//   $MACA_PATH/lib/libmcruntime.so   the runtime programs link
//   $MACA_PATH/lib/libmcdevice.a     the device runtime each device image links
//   $MACA_PATH/lib/mcdevice.version  the version script of device images
//   $MACA_PATH/lib/mcconstant.ld     the linker script of device images
//
// mxcc finds it from `--maca-path=DIR`, else the environment variable
// MACA_PATH, else the location of its own executable (three directories
// up), so a copied installation works wherever it lies.
//
// Example:
//
//   absl::StatusOr<mxcts::driver::Installation> sdk =
//       mxcts::driver::FindInstallation(flag, std::getenv("MACA_PATH"),
//                                        mxcts::driver::ExecutablePath());
//   std::string include = sdk->include_dir();

#ifndef MXCTS_REFERENCE_COMPILER_DRIVER_INSTALLATION_H_
#define MXCTS_REFERENCE_COMPILER_DRIVER_INSTALLATION_H_

#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace mxcts::driver {

struct Installation {
  std::string root;    // absolute, without a trailing '/'
  std::string origin;  // how it was found, for messages: "--maca-path", ...

  std::string include_dir() const { return root + "/include"; }
  std::string lib_dir() const { return root + "/lib"; }
  std::string device_library() const { return lib_dir() + "/libmcdevice.a"; }
  std::string device_version_script() const {
    return lib_dir() + "/mcdevice.version";
  }
  std::string device_linker_script() const {
    return lib_dir() + "/mcconstant.ld";
  }
};

// The absolute path of the running executable (/proc/self/exe), or an empty
// string when it cannot be read.
std::string ExecutablePath();

// Picks the installation: `flag` (--maca-path) if given, else `environment`
// (the value of MACA_PATH; null or empty means unset), else the directory
// three levels above `executable` ($MACA_PATH/mxgpu_llvm/bin/mxcc). The
// root is made absolute. Fails when none applies.
absl::StatusOr<Installation> FindInstallation(
    const std::optional<std::string>& flag, const char* environment,
    const std::string& executable);

// Checks that `installation` holds include/mc_runtime.h; the error names the
// directory and how it was chosen.
absl::Status CheckHeaders(const Installation& installation);

// Checks that `installation` holds what a device link needs
// (lib/libmcdevice.a, lib/mcdevice.version, lib/mcconstant.ld); the error
// names the missing file and how the installation was chosen.
absl::Status CheckDeviceLibrary(const Installation& installation);

}  // namespace mxcts::driver

#endif  // MXCTS_REFERENCE_COMPILER_DRIVER_INSTALLATION_H_
