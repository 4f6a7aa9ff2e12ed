// Copyright mxcts authors.
//
// Tested by setting_messages_test.cc and, through the runtime's layers, by
// conformance/api/environment.

#include "reference/logging/setting_messages.h"

namespace mxcts::logging {

std::string InvalidSettingWarning(std::string_view name, std::string_view text,
                                  std::string_view valid_values,
                                  std::string_view default_text) {
  std::string warning(name);
  warning.append("=\"").append(text).append("\" is not a valid value (");
  warning.append(valid_values).append("); using the default, ");
  warning.append(default_text);
  return warning;
}

std::string SettingLine(std::string_view name, std::string_view value,
                        bool is_default) {
  std::string line("environment: ");
  line.append(name).append("=").append(value);
  if (is_default) line.append(" (default)");
  return line;
}

}  // namespace mxcts::logging
