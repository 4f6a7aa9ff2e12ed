// Copyright mxcts authors.
//
// mcrtc's options (compile_options.h): a table of exact spellings, then of
// prefixes with a value, each checked where it has a closed set of values.
//
// Tested by compile_options_test.cc.

#include "reference/rtc/compile_options.h"

#include <unistd.h>

#include <set>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace mxcts::rtc {
namespace {

absl::Status Rejected(const std::string& option, const std::string& why) {
  return absl::InvalidArgumentError(
      absl::StrCat("mcrtc: option '", option, "' ", why));
}

std::string Absolute(const std::string& directory) {
  if (directory.empty() || directory[0] == '/') return directory;
  char cwd[4096];
  if (getcwd(cwd, sizeof(cwd)) == nullptr) return directory;
  return absl::StrCat(cwd, "/", directory);
}

}  // namespace

absl::StatusOr<std::vector<std::string>> TranslateOptions(
    const std::vector<std::string>& options) {
  static const std::set<std::string> kStandards = {"c++17", "c++20", "gnu++17",
                                                   "gnu++20"};
  static const std::set<std::string> kArchs = {"xcore1000", "native"};
  static const std::set<std::string> kIgnored = {"-G",
                                                 "--device-debug",
                                                 "-lineinfo",
                                                 "--generate-line-info",
                                                 "-default-device",
                                                 "--default-device"};
  std::vector<std::string> argv;
  for (size_t i = 0; i < options.size(); ++i) {
    const std::string& option = options[i];
    // The value of a two-word option ("-I" "dir"), or of its joined form.
    auto value_of = [&](const std::string& flag,
                        std::string* value) -> absl::Status {
      if (option.size() > flag.size()) {
        *value = option.substr(flag.size());
        if (absl::StartsWith(*value, " ")) *value = value->substr(1);
        return absl::OkStatus();
      }
      if (i + 1 >= options.size()) return Rejected(option, "lacks its value");
      *value = options[++i];
      return absl::OkStatus();
    };
    std::string value;
    if (option.empty()) return Rejected(option, "is empty");
    if (kIgnored.count(option) != 0) continue;
    if (option == "-w" ||
        (option.size() == 3 && absl::StartsWith(option, "-O") &&
         option[2] >= '0' && option[2] <= '3')) {
      argv.push_back(option);
    } else if (absl::StartsWith(option, "-x")) {
      if (absl::Status s = value_of("-x", &value); !s.ok()) return s;
      if (value != "maca" && value != "cu" && value != "cuda") {
        return Rejected(option, "names a language mcrtc does not compile");
      }
    } else if (absl::StartsWith(option, "--define-macro=")) {
      argv.push_back(absl::StrCat("-D", option.substr(15)));
    } else if (absl::StartsWith(option, "--undefine-macro=")) {
      argv.push_back(absl::StrCat("-U", option.substr(17)));
    } else if (absl::StartsWith(option, "-D") ||
               absl::StartsWith(option, "-U")) {
      if (absl::Status s = value_of(option.substr(0, 2), &value); !s.ok()) {
        return s;
      }
      if (value.empty()) return Rejected(option, "names no macro");
      argv.push_back(absl::StrCat(option.substr(0, 2), value));
    } else if (absl::StartsWith(option, "--include-path=")) {
      value = option.substr(15);
      if (value.empty()) return Rejected(option, "names no directory");
      argv.push_back(absl::StrCat("-I", Absolute(value)));
    } else if (absl::StartsWith(option, "-I")) {
      if (absl::Status s = value_of("-I", &value); !s.ok()) return s;
      if (value.empty()) return Rejected(option, "names no directory");
      argv.push_back(absl::StrCat("-I", Absolute(value)));
    } else if (absl::StartsWith(option, "-std=") ||
               absl::StartsWith(option, "--std=")) {
      value = option.substr(option.find('=') + 1);
      if (kStandards.count(value) == 0) {
        return Rejected(option,
                        "names a standard mcrtc does not compile (c++17, "
                        "c++20, gnu++17, gnu++20)");
      }
      argv.push_back(absl::StrCat("-std=", value));
    } else if (absl::StartsWith(option, "--offload-arch=")) {
      value = option.substr(15);
      if (kArchs.count(value) == 0) {
        return Rejected(option,
                        "names an unknown architecture (xcore1000, native)");
      }
      argv.push_back(option);
    } else {
      return Rejected(option, "is not an option mcrtc accepts");
    }
  }
  return argv;
}

}  // namespace mxcts::rtc
