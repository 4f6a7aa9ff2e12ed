// Copyright mxcts authors.
//
// reference/rtc/lowered_names.h: how mcrtc finds the symbol of each name
// expression (mcrtcAddNameExpression, mcrtcGetLoweredName).
//
// The compiler says a symbol's name only in the object it writes. So the
// program is compiled with one probe per expression appended:
//
//   template struct __mcrtc_lowered<I, &EXPR>;
//
// an explicit instantiation whose constant member `tag` holds the address
// of the entity EXPR names (instantiating the kernel template it names).
// mxcc makes these members global and device images export them
// (design.md, stage 7; mcdevice.version), so each is found in the image's
// .dynsym by the start of its mangled name, `_ZN15__mcrtc_loweredILi<I>E`.
// Its value, as the dynamic loader would store it (the addend of its
// relocation), is the entity's link-time address, which .symtab names.
// (The mangled name of the probe holds the entity's too, but with
// substitutions numbered within the probe's name, so it is not read.)
// [api.rtc.name.add-name-expression] [api.rtc.name.get-lowered-name]
//
// Tested by lowered_names_test.cc.

#ifndef MXCTS_REFERENCE_RTC_LOWERED_NAMES_H_
#define MXCTS_REFERENCE_RTC_LOWERED_NAMES_H_

#include <stddef.h>

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace mxcts::rtc {

// The text appended to a program with `expressions`: the probe template
// and one explicit instantiation per expression, after a line marker that
// names them in diagnostics. Empty when there are none.
std::string ProbeSource(const std::vector<std::string>& expressions);

// True if `symbol` (with or without mxcc's device prefix) is the probe of
// expression `index`.
bool IsProbe(absl::string_view symbol, size_t index);

// The symbols of the `count` expressions, from the device image (an ELF
// shared object) `image`. InvalidArgumentError for an unreadable image or
// an expression whose probe is missing.
absl::StatusOr<std::vector<std::string>> LowerNames(const unsigned char* image,
                                                    size_t size, size_t count);

}  // namespace mxcts::rtc

#endif  // MXCTS_REFERENCE_RTC_LOWERED_NAMES_H_
