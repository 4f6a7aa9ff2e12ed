// Copyright mxcts authors.
//
// GNU ld (run in the C locale) reports an undefined symbol in two lines:
//
//   PROGRAM: OBJECT: in function `NAME':
//   LOCATION: undefined reference to `SYMBOL'
//
// LOCATION is `file:line` when the object has line information (the device
// pass compiles with -g1), else `file:(section+offset)`; a second reference
// from the same function repeats only the second line, prefixed with
// PROGRAM. NAME is the demangled name from the debug information, or the
// raw (prefixed) symbol without it. The rewrite reads line by line: an
// "in function" line sets the current function and is held back, a
// recognized undefined reference becomes one diagnostic (identical ones
// once), "more undefined references ... follow" lines are dropped, and
// every other line passes through.
//
// Tested by device_link_diagnostics_test.cc.

#include "reference/compiler/driver/device_link_diagnostics.h"

#include <cxxabi.h>

#include <cstdlib>
#include <set>
#include <sstream>
#include <tuple>

#include "absl/strings/str_cat.h"

namespace mxcts::driver {
namespace {

constexpr char kInFunction[] = ": in function `";
constexpr char kUndefined[] = ": undefined reference to `";
constexpr char kMoreUndefined[] = "more undefined references to `";
// What the launch rewrite calls first (mcr/detail/launch_abi.h), demangled.
constexpr char kLaunchConfigurationFunction[] =
    "__mc_internal::PushLaunchConfiguration(";

bool StartsWith(const std::string& text, const std::string& prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

// The text between `open` (ending in a backquote) and the next quote.
bool QuotedAfter(const std::string& line, const std::string& open,
                 std::string* quoted) {
  size_t start = line.find(open);
  if (start == std::string::npos) return false;
  start += open.size();
  size_t end = line.find('\'', start);
  if (end == std::string::npos) return false;
  *quoted = line.substr(start, end - start);
  return true;
}

struct Location {
  std::string file;
  int line = 0;  // 0: unknown
};

// Parses LOCATION (the text before ": undefined reference"): drops a
// leading "PROGRAM: ", then splits "file:line" or "file:(section+offset)".
Location ParseLocation(const std::string& text) {
  std::string rest = text;
  size_t separator = rest.rfind(": ");
  if (separator != std::string::npos) rest = rest.substr(separator + 2);
  Location location;
  size_t colon = rest.rfind(':');
  if (colon == std::string::npos) return location;
  std::string number = rest.substr(colon + 1);
  if (!number.empty() &&
      number.find_first_not_of("0123456789") == std::string::npos) {
    location.file = rest.substr(0, colon);
    location.line = std::atoi(number.c_str());
  }
  return location;
}

// Whether a demangled name is known to name a variable: a qualified name
// without a parameter list. A plain unmangled name may be either (C
// functions and global variables are not mangled).
bool IsVariableName(const std::string& demangled) {
  return demangled.find('(') == std::string::npos &&
         demangled.find("::") != std::string::npos;
}

// The diagnostic for an undefined device symbol whose demangled name is
// `callee`.
std::string UndefinedSymbolMessage(const std::string& callee,
                                   const DeviceLinkSources& sources) {
  if (sources.declared_without_definition.count(UnqualifiedName(callee)) > 0) {
    // [api.compile.mxcc.relocatable-device-code]
    return absl::StrCat("'", callee,
                        "' is declared for device code in this source but "
                        "defined in another; device code can use what "
                        "another source defines only as relocatable device "
                        "code: compile and link with -fgpu-rdc (or "
                        "-rdc=true)");
  }
  if (sources.relocatable) {
    return absl::StrCat("device code uses '", callee,
                        "', which no source of the device link defines for "
                        "device code (a host-only function or variable, or "
                        "a source missing from the link)");
  }
  // [lang.function.call.device-calls-host-only]
  return IsVariableName(callee)
             ? absl::StrCat("device code uses host variable '", callee, "'")
             : absl::StrCat("device code calls host-only function '", callee,
                            "'");
}

// `line` with each quoted device symbol (`__mcdev_X') shown as the user
// knows it ('X' demangled).
std::string DemangleQuotedDeviceSymbols(const std::string& line) {
  std::string out;
  size_t at = 0;
  while (true) {
    size_t open = line.find(std::string("`") + kDeviceSymbolPrefix, at);
    size_t close =
        open == std::string::npos ? std::string::npos : line.find('\'', open);
    if (close == std::string::npos) break;
    out += line.substr(at, open - at);
    out +=
        "'" + DeviceSymbolName(line.substr(open + 1, close - open - 1)) + "'";
    at = close + 1;
  }
  return out + line.substr(at);
}

}  // namespace

std::string UnqualifiedName(const std::string& demangled) {
  std::string name = demangled.substr(0, demangled.find('('));
  // Drop trailing template arguments: "f<int, g<char> >" -> "f".
  if (!name.empty() && name.back() == '>') {
    int depth = 0;
    for (size_t i = name.size(); i-- > 0;) {
      if (name[i] == '>') ++depth;
      if (name[i] == '<' && --depth == 0) {
        name.resize(i);
        break;
      }
    }
  }
  size_t scope = name.rfind("::");
  return scope == std::string::npos ? name : name.substr(scope + 2);
}

std::string DeviceSymbolName(const std::string& symbol) {
  std::string name = symbol;
  if (StartsWith(name, kDeviceSymbolPrefix)) {
    name = name.substr(sizeof(kDeviceSymbolPrefix) - 1);
  }
  int status = 0;
  char* demangled =
      abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status);
  if (status == 0 && demangled != nullptr) name = demangled;
  std::free(demangled);
  return name;
}

DeviceLinkReport RewriteDeviceLinkErrors(const std::string& linker_stderr,
                                         const std::string& source,
                                         const std::string& absolute_source) {
  DeviceLinkSources sources;
  sources.source = source;
  sources.absolute_source = absolute_source;
  return RewriteDeviceLinkErrors(linker_stderr, sources);
}

DeviceLinkReport RewriteDeviceLinkErrors(const std::string& linker_stderr,
                                         const DeviceLinkSources& sources) {
  const std::string& source = sources.source;
  const std::string& absolute_source = sources.absolute_source;
  DeviceLinkReport report;
  std::string function;       // the current "in function" name
  std::string held_function;  // an "in function" line not yet printed
  std::string announced;      // the "In function" header last printed
  std::set<std::tuple<std::string, int, std::string>> seen;
  std::string passed;  // lines kept as they are

  std::istringstream lines(linker_stderr);
  std::string line;
  while (std::getline(lines, line)) {
    std::string quoted;
    if (QuotedAfter(line, kInFunction, &quoted)) {
      if (!held_function.empty())
        passed += DemangleQuotedDeviceSymbols(held_function) + "\n";
      function = DeviceSymbolName(quoted);
      held_function = line;
      continue;
    }
    if (line.find(kMoreUndefined) != std::string::npos &&
        line.find(kDeviceSymbolPrefix) != std::string::npos) {
      continue;
    }
    size_t undefined = line.find(kUndefined);
    if (undefined != std::string::npos &&
        QuotedAfter(line, kUndefined, &quoted) &&
        StartsWith(quoted, kDeviceSymbolPrefix)) {
      held_function.clear();
      Location location = ParseLocation(line.substr(0, undefined));
      std::string file = location.file;
      if ((location.line == 0 && !source.empty()) ||
          (!absolute_source.empty() && file == absolute_source)) {
        file = source;
      }
      if (file.empty()) file = "mxcc";  // a relocatable link without lines
      std::string callee = DeviceSymbolName(quoted);
      if (!seen.insert({file, location.line, callee}).second) continue;
      ++report.host_only_calls;
      std::string header =
          function.empty()
              ? std::string()
              : absl::StrCat(file, ": In function '", function, "':\n");
      if (!header.empty() && header != announced) {
        report.text += header;
        announced = header;
      }
      std::string position =
          location.line == 0 ? file : absl::StrCat(file, ":", location.line);
      if (StartsWith(callee, kLaunchConfigurationFunction)) {
        // A <<<...>>> in device code: the launch rewrite's configuration
        // call is what is undefined.
        // [api.devrt.launch.unsupported-rejected-at-compile-time]
        report.text += absl::StrCat(position,
                                    ": error: dynamic parallelism: "
                                    "device-side launch is not supported "
                                    "yet\n");
        continue;
      }
      report.text += absl::StrCat(
          position, ": error: ", UndefinedSymbolMessage(callee, sources), "\n");
      continue;
    }
    if (!held_function.empty()) {
      passed += DemangleQuotedDeviceSymbols(held_function) + "\n";
      held_function.clear();
    }
    if (report.host_only_calls > 0 && StartsWith(line, "collect2: ")) continue;
    passed += DemangleQuotedDeviceSymbols(line) + "\n";
  }
  if (!held_function.empty())
    passed += DemangleQuotedDeviceSymbols(held_function) + "\n";
  report.text += passed;
  return report;
}

}  // namespace mxcts::driver
