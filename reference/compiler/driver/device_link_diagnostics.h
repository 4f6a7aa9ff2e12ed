// Copyright mxcts authors.
//
// device_link_diagnostics.h: turns the linker's complaints about a device
// image (stage 8 of reference/compiler/design.md) into the user's terms.
//
// After stage 7 every symbol of device code carries the `__mcdev_` prefix,
// and only the device runtime library defines prefixed names. A device
// function that calls a host-only function `f` therefore fails the device
// link with
//
//   /usr/bin/ld: device.sep.o: in function `kernel(int*)':
//   /home/u/a.cu:7: undefined reference to `__mcdev__Z1fv'
//
// which RewriteDeviceLinkErrors() reports as
//
//   a.cu: In function 'kernel(int*)':
//   a.cu:7: error: device code calls host-only function 'f()'
//
// [lang.function.call.device-calls-host-only]. Lines it does not recognize
// are kept as they are, so no other linker error is lost.

#ifndef MXCTS_REFERENCE_COMPILER_DRIVER_DEVICE_LINK_DIAGNOSTICS_H_
#define MXCTS_REFERENCE_COMPILER_DRIVER_DEVICE_LINK_DIAGNOSTICS_H_

#include <set>
#include <string>

namespace mxcts::driver {

// The prefix stage 7 gives every symbol of device code.
inline constexpr char kDeviceSymbolPrefix[] = "__mcdev_";

// The user-facing name of a device symbol: `symbol` without the device
// prefix (if present), demangled if it is a mangled C++ name.
// "__mcdev__Z1fi" -> "f(int)", "__mcdev_puts" -> "puts".
std::string DeviceSymbolName(const std::string& symbol);

struct DeviceLinkReport {
  std::string text;         // what to print instead of the linker's stderr
  int host_only_calls = 0;  // how many calls of host-only functions it names
};

// What the rewrite knows of the device code that was linked.
struct DeviceLinkSources {
  // The source file as the user named it, and its absolute path: positions
  // in that file are printed as the user wrote its name, and references
  // without line information are attributed to it. Empty for a link of
  // relocatable device code, which comes from many sources.
  std::string source;
  std::string absolute_source;
  // Names the source declares for device code without defining them
  // (Translation::device_declarations_without_definition): an undefined
  // one is defined in another source, and the diagnostic says how to link
  // it [api.compile.mxcc.relocatable-device-code].
  std::set<std::string> declared_without_definition;
  // A link of relocatable device code (every source of the program): an
  // undefined name is defined by none of them.
  bool relocatable = false;
};

// The name a demangled symbol declares, without qualification, template
// arguments or parameters: "ns::scale<int>(int)" -> "scale".
std::string UnqualifiedName(const std::string& demangled);

// Rewrites `linker_stderr`, the stderr of a failed device link run in the C
// locale. `source` is the source file as the user named it and
// `absolute_source` its absolute path: positions in that file are printed
// as the user wrote its name, and references without line information are
// attributed to it. When at least one call was recognized, the collect2
// summary line is dropped (mxcc's exit status says the same).
//
// An undefined device function or variable is reported by what the link
// knows of it: a call of a host-only function, a use of a host variable, a
// name declared in the source and defined in another (naming -fgpu-rdc),
// a name no source of a relocatable link defines, or a device-side launch.
// Other lines naming device symbols show them demangled, without the
// prefix.
DeviceLinkReport RewriteDeviceLinkErrors(const std::string& linker_stderr,
                                         const DeviceLinkSources& sources);

// The same, for one source that declares nothing for another.
DeviceLinkReport RewriteDeviceLinkErrors(const std::string& linker_stderr,
                                         const std::string& source,
                                         const std::string& absolute_source);

}  // namespace mxcts::driver

#endif  // MXCTS_REFERENCE_COMPILER_DRIVER_DEVICE_LINK_DIAGNOSTICS_H_
