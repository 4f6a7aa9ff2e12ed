// Copyright mxcts authors.
//
// reference/rtc/compile_options.h: the options mcrtcCompileProgram accepts,
// as the mxcc arguments they become.
//
//   option                          mxcc argument
//   -x maca (one string or two)     (mcrtc always compiles MXMACA)
//   -D<m>[=<v>], --define-macro=    -D<m>[=<v>]
//   -U<m>, --undefine-macro=        -U<m>
//   -I<dir>, --include-path=<dir>   -I<dir made absolute>
//   -std=c++17|c++20|gnu++17|gnu++20  the same
//   -O0 ... -O3                     the same
//   --offload-arch=xcore1000|native the same
//   -w                              the same
//   -G, --device-debug, -lineinfo, --generate-line-info, -default-device
//                                   nothing (accepted for compatibility)
//
// "-D", "-U", "-I" and "-x" may also take their value from the next option.
// Anything else is rejected, naming the option. [api.rtc.compile.options]
// [api.rtc.compile.unknown-option-invalid-option]
//
// Tested by compile_options_test.cc.

#ifndef MXCTS_REFERENCE_RTC_COMPILE_OPTIONS_H_
#define MXCTS_REFERENCE_RTC_COMPILE_OPTIONS_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace mxcts::rtc {

// The mxcc arguments of `options`, or InvalidArgumentError naming the first
// option that is not accepted and why. Relative include directories are
// made absolute against the calling process's working directory.
absl::StatusOr<std::vector<std::string>> TranslateOptions(
    const std::vector<std::string>& options);

}  // namespace mxcts::rtc

#endif  // MXCTS_REFERENCE_RTC_COMPILE_OPTIONS_H_
