// Copyright mxcts authors.
//
// One table holds every variable: its name, the form of its values, its
// default and where the parsed value goes. Reading is then one loop, and
// the warning and the debug line of every variable have the same words.
//
// Forms:
//   - a choice among exact texts ("0", "1"; "FASTEST_FIRST"): anything
//     else, case and spaces included, is not valid;
//   - a decimal range 0..max (MACA_KERNEL_TIMEOUT): decimal digits only; a
//     number above max is clamped to max [api.env.kernel-timeout.out-of-range];
//   - a range written in decimal or in hexadecimal with 0x
//     (MACA_MONITOR_HANG_TIMEOUT, 0-0xFFFF in the guide): the same, with
//     the hexadecimal form too [api.env.monitor-hang-timeout.out-of-range];
//   - the priority queue policy: "0" or 0x and one to three hexadecimal
//     digits H, N, L with L >= 1 and H + N + L <= 12
//     [api.env.priority-queue-policy.values];
//   - text kept as set (MACA_VISIBLE_DEVICES, parsed by the device table).
//
// Tested by environment_settings_test.cc and conformance/api/environment.

#include "reference/runtime/environment/environment_settings.h"

#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "reference/logging/log.h"
#include "reference/logging/setting_messages.h"

namespace mxcts::runtime {
namespace {

enum class Form { kChoice, kDecimalRange, kNumberRange, kQueuePolicy, kText };

struct Choice {
  const char* text;
  int value;
};

struct Variable {
  const char* name;
  Form form;
  std::vector<Choice> choices;  // kChoice
  uint64_t max = 0;             // the ranges
  uint64_t default_value = 0;   // not for kText
  // Stores a parsed number; for kText, the text (or nullopt).
  void (*store)(EnvironmentSettings&, uint64_t);
};

std::vector<Choice> Numbers(int first, int last) {
  static const char* const kTexts[] = {"-1", "0", "1", "2", "3"};
  std::vector<Choice> choices;
  for (int v = first; v <= last; ++v) choices.push_back({kTexts[v + 1], v});
  return choices;
}

const std::vector<Variable>& Variables() {
  using S = EnvironmentSettings;
  static const std::vector<Variable>* const variables =
      new std::vector<Variable>{
          // Device enumeration.
          {"MACA_VISIBLE_DEVICES", Form::kText, {}, 0, 0, nullptr},
          {"MACA_DEVICE_ORDER",
           Form::kChoice,
           {{"FASTEST_FIRST", 0}, {"PCI_BUS_ID", 1}},
           0,
           0,
           [](S& s, uint64_t v) { s.device_order_pci_bus_id = v == 1; }},
          // Execution control.
          {"MACA_LAUNCH_BLOCKING", Form::kChoice, Numbers(0, 1), 0, 0,
           [](S& s, uint64_t v) { s.launch_blocking = v == 1; }},
          {"MACA_TRAP_HANDLER", Form::kChoice, Numbers(0, 2), 0, 1,
           [](S& s, uint64_t v) { s.trap_handler = static_cast<int>(v); }},
          {"MACA_GRAPH_LAUNCH_MODE", Form::kChoice, Numbers(0, 1), 0, 0,
           [](S& s, uint64_t v) { s.graph_launch_mode = static_cast<int>(v); }},
          {"MACA_DIRECT_DISPATCH", Form::kChoice, Numbers(0, 1), 0, 0,
           [](S& s, uint64_t v) { s.direct_dispatch = static_cast<int>(v); }},
          {"MACA_LAUNCH_MODE", Form::kChoice, Numbers(0, 2), 0, 1,
           [](S& s, uint64_t v) { s.launch_mode = static_cast<int>(v); }},
          // Policies. Negative choices are stored as their int.
          {"MACA_CPU_THREAD_POLICY", Form::kChoice, Numbers(-1, 2), 0, 0,
           [](S& s, uint64_t v) {
             s.cpu_thread_policy = static_cast<int>(static_cast<int64_t>(v));
           }},
          {"MACA_SYNC_POLICY", Form::kChoice, Numbers(0, 3), 0, 0,
           [](S& s, uint64_t v) { s.sync_policy = static_cast<int>(v); }},
          {"MACA_PRIORITY_QUEUE_POLICY",
           Form::kQueuePolicy,
           {},
           0xFFF,
           0,
           [](S& s, uint64_t v) {
             s.priority_queue_policy = static_cast<unsigned>(v);
           }},
          // Multi-process service.
          {"MACA_MPS_MODE", Form::kChoice, Numbers(0, 1), 0, 0,
           [](S& s, uint64_t v) { s.mps_mode = static_cast<int>(v); }},
          // Debugging.
          {"MACA_HOTSPOT_MEMSTACK", Form::kChoice, Numbers(0, 2), 0, 0,
           [](S& s, uint64_t v) { s.hotspot_memstack = static_cast<int>(v); }},
          {"MACA_KERNEL_TIMEOUT",
           Form::kDecimalRange,
           {},
           60000,
           0,
           [](S& s, uint64_t v) {
             s.kernel_timeout_milliseconds = static_cast<unsigned>(v);
           }},
          {"MACA_MONITOR_HANG_TIMEOUT",
           Form::kNumberRange,
           {},
           0xFFFF,
           0,
           [](S& s, uint64_t v) {
             s.monitor_hang_timeout_seconds = static_cast<unsigned>(v);
           }},
      };
  return *variables;
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// A number in `base` (10, or 16 after "0x"/"0X"), saturating at max + 1.
// False for anything that is not such a number.
bool ParseNumber(const std::string& text, bool allow_hex, uint64_t max,
                 uint64_t* number) {
  size_t at = 0;
  int base = 10;
  if (allow_hex && text.size() > 2 && text[0] == '0' &&
      (text[1] == 'x' || text[1] == 'X')) {
    at = 2;
    base = 16;
  }
  if (at == text.size()) return false;
  uint64_t value = 0;
  for (; at < text.size(); ++at) {
    const int digit =
        base == 16 ? HexDigit(text[at])
                   : (text[at] >= '0' && text[at] <= '9' ? text[at] - '0' : -1);
    if (digit < 0) return false;
    if (value <= max) value = value * base + static_cast<uint64_t>(digit);
  }
  *number = value > max ? max + 1 : value;
  return true;
}

std::string ValueText(const Variable& variable, uint64_t value) {
  switch (variable.form) {
    case Form::kChoice:
      for (const Choice& choice : variable.choices) {
        if (static_cast<uint64_t>(static_cast<int64_t>(choice.value)) ==
            value) {
          return choice.text;
        }
      }
      return std::to_string(value);
    case Form::kQueuePolicy:
      return value == 0 ? "0" : absl::StrFormat("0x%03X", value);
    default:
      return std::to_string(value);
  }
}

std::string ValidValues(const Variable& variable) {
  switch (variable.form) {
    case Form::kChoice: {
      std::vector<std::string> texts;
      for (const Choice& choice : variable.choices) {
        texts.push_back(choice.text);
      }
      return absl::StrJoin(texts, ", ");
    }
    case Form::kDecimalRange:
      return absl::StrCat("a decimal number from 0 to ", variable.max);
    case Form::kNumberRange:
      return absl::StrFormat("a number from 0 to 0x%X (%u), decimal or 0x",
                             variable.max, variable.max);
    case Form::kQueuePolicy:
      return "0, or 0xHNL with at least 1 low priority queue and at most 12 "
             "in all";
    case Form::kText:
      return "";
  }
  return "";
}

// [api.env.priority-queue-policy.values]
bool ParseQueuePolicy(const std::string& text, uint64_t* policy) {
  if (text == "0") {
    *policy = 0;
    return true;
  }
  if (text.size() < 3 || text.size() > 5 || text[0] != '0' ||
      (text[1] != 'x' && text[1] != 'X')) {
    return false;
  }
  uint64_t value = 0;
  if (!ParseNumber(text, true, 0xFFF, &value) || value > 0xFFF) return false;
  const unsigned high = (value >> 8) & 0xF;
  const unsigned normal = (value >> 4) & 0xF;
  const unsigned low = value & 0xF;
  if (low < 1 || high + normal + low > 12) return false;
  *policy = value;
  return true;
}

// Parses one set variable into `reading`.
void ReadVariable(const Variable& variable, const std::string& text,
                  EnvironmentReading& reading) {
  uint64_t value = variable.default_value;
  bool valid = false;
  bool clamped = false;
  switch (variable.form) {
    case Form::kChoice:
      for (const Choice& choice : variable.choices) {
        if (text == choice.text) {
          value = static_cast<uint64_t>(static_cast<int64_t>(choice.value));
          valid = true;
        }
      }
      break;
    case Form::kDecimalRange:
    case Form::kNumberRange: {
      uint64_t number = 0;
      if (ParseNumber(text, variable.form == Form::kNumberRange, variable.max,
                      &number)) {
        valid = true;
        clamped = number > variable.max;
        value = clamped ? variable.max : number;
      }
      break;
    }
    case Form::kQueuePolicy:
      valid = ParseQueuePolicy(text, &value);
      break;
    case Form::kText:
      return;
  }
  // [api.env.general.invalid-value-warns]
  if (!valid) {
    reading.warnings.push_back(logging::InvalidSettingWarning(
        variable.name, text, ValidValues(variable),
        ValueText(variable, variable.default_value)));
  } else if (clamped) {
    reading.warnings.push_back(
        absl::StrFormat("%s=\"%s\" is above the largest value; using %s",
                        variable.name, text, ValueText(variable, value)));
  }
  if (!valid) value = variable.default_value;
  variable.store(reading.settings, value);
  reading.setting_lines.push_back(
      logging::SettingLine(variable.name, ValueText(variable, value), !valid));
}

}  // namespace

EnvironmentReading ReadEnvironment(
    const std::function<const char*(const char*)>& lookup) {
  EnvironmentReading reading;
  for (const Variable& variable : Variables()) {
    const char* value = lookup(variable.name);
    if (variable.form == Form::kText) {
      if (value != nullptr) reading.settings.visible_devices = value;
      reading.setting_lines.push_back(
          value == nullptr
              ? absl::StrCat("environment: ", variable.name, " unset (default)")
              : absl::StrCat("environment: ", variable.name, "=\"", value,
                             "\""));
      continue;
    }
    if (value == nullptr) {
      variable.store(reading.settings, variable.default_value);
      reading.setting_lines.push_back(logging::SettingLine(
          variable.name, ValueText(variable, variable.default_value),
          /*is_default=*/true));
      continue;
    }
    ReadVariable(variable, value, reading);
  }
  return reading;
}

const EnvironmentSettings& ProcessEnvironment() {
  // [api.env.general.read-at-initialization]
  static const EnvironmentSettings* const settings = [] {
    EnvironmentReading reading =
        ReadEnvironment([](const char* name) { return std::getenv(name); });
    for (const std::string& warning : reading.warnings) {
      MCR_LOGW("%s", warning.c_str());
    }
    // [api.env.general.settings-logged-at-debug]
    for (const std::string& line : reading.setting_lines) {
      MCR_LOGD("%s", line.c_str());
    }
    return new EnvironmentSettings(reading.settings);
  }();
  return *settings;
}

std::vector<std::string> EnvironmentVariableNames() {
  std::vector<std::string> names;
  for (const Variable& variable : Variables()) names.push_back(variable.name);
  return names;
}

}  // namespace mxcts::runtime
