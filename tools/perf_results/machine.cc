// Copyright mxcts authors.
//
// The local machine's fingerprint (machine.h), read from the Linux /proc
// files and uname(2); the parsers of the /proc texts are separate so that
// tests can feed them fixed texts.
//
// Tested by machine_test.cc.

#include "tools/perf_results/machine.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace mxcts::perf_results {
namespace {

std::string ReadWhole(const char* path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The value after "key:" on the first line that starts with `key`.
bool FindField(absl::string_view text, absl::string_view key,
               absl::string_view* value) {
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    if (!absl::ConsumePrefix(&line, key)) continue;
    line = absl::StripLeadingAsciiWhitespace(line);
    if (!absl::ConsumePrefix(&line, ":")) continue;
    *value = absl::StripAsciiWhitespace(line);
    return true;
  }
  return false;
}

}  // namespace

std::string CpuModelFromCpuinfo(absl::string_view cpuinfo) {
  absl::string_view model;
  if (FindField(cpuinfo, "model name", &model) && !model.empty()) {
    return std::string(model);
  }
  return "unknown";
}

int64_t MemoryBytesFromMeminfo(absl::string_view meminfo) {
  absl::string_view total;
  if (!FindField(meminfo, "MemTotal", &total)) return 0;
  int64_t kib = 0;
  if (!absl::ConsumeSuffix(&total, " kB") || !absl::SimpleAtoi(total, &kib)) {
    return 0;
  }
  return kib * 1024;
}

Machine LocalMachine() {
  Machine machine;
  machine.cpu_model = CpuModelFromCpuinfo(ReadWhole("/proc/cpuinfo"));
  machine.memory_bytes = MemoryBytesFromMeminfo(ReadWhole("/proc/meminfo"));
  const long cores = sysconf(_SC_NPROCESSORS_ONLN);
  machine.cores = cores > 0 ? static_cast<int>(cores) : 0;
  struct utsname name;
  if (uname(&name) == 0) {
    machine.kernel = absl::StrCat(name.sysname, " ", name.release);
  }
  return machine;
}

std::string Describe(const Machine& machine) {
  std::string text = absl::StrCat(machine.cpu_model, ", ", machine.cores,
                                  machine.cores == 1 ? " core" : " cores");
  if (machine.memory_bytes > 0) {
    absl::StrAppendFormat(&text, ", %.1f GiB",
                          machine.memory_bytes / (1024.0 * 1024 * 1024));
  }
  if (!machine.kernel.empty()) absl::StrAppend(&text, ", ", machine.kernel);
  return text;
}

}  // namespace mxcts::perf_results
