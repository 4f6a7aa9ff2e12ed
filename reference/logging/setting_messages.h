// Copyright mxcts authors.
//
// reference/logging/setting_messages.h: the words of the two log lines
// every environment variable of the runtime gets, whichever layer reads it
// (reference/runtime/environment for table 4.1's variables, the binary
// cache and module loading for their own), so that all of them read alike:
//
//   MCR_LOGW("%s", InvalidSettingWarning("MACA_CACHE_DISABLE", "2", "0, 1",
//                                        "0").c_str());
//   // MACA_CACHE_DISABLE="2" is not a valid value (0, 1); using the default, 0
//   MCR_LOGD("%s", SettingLine("MACA_CACHE_DISABLE", "0", true).c_str());
//   // environment: MACA_CACHE_DISABLE=0 (default)

#ifndef REFERENCE_LOGGING_SETTING_MESSAGES_H_
#define REFERENCE_LOGGING_SETTING_MESSAGES_H_

#include <string>
#include <string_view>

namespace mxcts::logging {

// The warning for variable `name` set to `text`, which is none of
// `valid_values` (a list or a description), so that `default_text` applies
// [api.env.general.invalid-value-warns].
std::string InvalidSettingWarning(std::string_view name, std::string_view text,
                                  std::string_view valid_values,
                                  std::string_view default_text);

// The debug line saying that variable `name` is in force as `value`, marked
// as the default when `is_default` [api.env.general.settings-logged-at-debug].
std::string SettingLine(std::string_view name, std::string_view value,
                        bool is_default);

}  // namespace mxcts::logging

#endif  // REFERENCE_LOGGING_SETTING_MESSAGES_H_
